"""Partial pairs that share nothing but widespread text, on real documentation.

    python -m bench.quality.common_only --corpus /tmp/man23             # the work tree
    python -m bench.quality.common_only --corpus /tmp/man23 --engine-commit 2a5b6fd

One cold scan of `--corpus` (a fresh catalog: reading and comparing, timed), then for
every partial pair the engine reports: the tokens the two documents share (every 8-token
gram of one found in the other) that are outside text found in `--min-docs` documents or
more (a token is widespread when a gram holding it is in that many documents of the
corpus, counted over every gram, not only the winnowed ones). Counted: pairs sharing no
such token ("only widespread text": a header line, an errno sentence, a block of
#include lines) and pairs whose longest stretch of such tokens is under the shortest
match (15). Also the cluster pairs at the default k whose content containment is under
`--template-share` (same template, different content).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

GRAM = 8
_MUL = np.uint64(0x9E3779B97F4A7C15)


def grams(hashes: np.ndarray) -> np.ndarray:
    n = len(hashes) - GRAM + 1
    g = np.zeros(max(n, 0), np.uint64)
    with np.errstate(over="ignore"):
        for j in range(GRAM):
            g = g * _MUL + hashes[j : j + n]
    return g


def measure(corpus: Path, min_docs: int, workers: int, template_share: float) -> dict:
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.store.catalog import Catalog

    with tempfile.TemporaryDirectory() as tmp, Catalog(Path(tmp) / "c.sqlite") as catalog:
        start = time.perf_counter()
        result = scan(ScanOptions(roots=(str(corpus),), workers=workers), catalog=catalog)
        seconds = time.perf_counter() - start
    streams = [d.tokens.body for d in result.documents]
    per_doc = [grams(np.asarray(s.hashes, np.uint64)) for s in streams]
    values, counts = np.unique(np.concatenate([np.unique(g) for g in per_doc]), return_counts=True)
    wide_values = values[counts >= min_docs]

    def own(d: int, other: np.ndarray) -> np.ndarray:
        g = per_doc[d]
        shared, wide = np.zeros(len(streams[d]), bool), np.zeros(len(streams[d]), bool)
        at, hit = np.flatnonzero(np.isin(g, other)), np.flatnonzero(np.isin(g, wide_values))
        for j in range(GRAM):
            shared[at + j] = True
            wide[hit + j] = True
        return shared & ~wide

    partial = result.partial_pairs()
    only, short = 0, 0
    for a, b in zip(partial.left.tolist(), partial.right.tolist(), strict=True):
        mine = own(a, per_doc[b])
        edges = np.flatnonzero(np.diff(np.r_[0, mine.view(np.int8), 0]))
        longest = int((edges[1::2] - edges[0::2]).max()) if len(edges) else 0
        only += not mine.any()
        short += longest < 15
    from simsift.core.index.plan import DEFAULT_K

    k = DEFAULT_K
    clusters = result.clusters(k)
    members = sum(len(c.members) - 1 for c in clusters)
    thin = 0
    for c in clusters:
        for m in c.members[1:]:
            ab, ba, _ = result.overlap(min(c.original, m.doc), max(c.original, m.doc))
            thin += max(ab, ba) < template_share
    return {
        "documents": len(result.documents),
        "cold_scan_s": round(seconds, 1),
        "partial_pairs": len(partial),
        "only_widespread": only,
        "own_stretch_under_15": short,
        "clusters": len(clusters),
        "cluster_members": members,
        "members_under_share": thin,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--min-docs", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--template-share", type=float, default=0.05)
    parser.add_argument("--engine-commit", help="scan with the engine of this commit")
    args = parser.parse_args()
    from bench.engine_at import use_engine_at

    engine = use_engine_at(args.engine_commit)
    found = measure(args.corpus, args.min_docs, args.workers, args.template_share)
    print(engine, " ".join(f"{k}={v}" for k, v in found.items()), flush=True)


if __name__ == "__main__":
    main()
