"""Near pairs that share a template but no content: how many, and what the rule costs.

    python -m bench.quality.near_template --corpus /tmp/man1_3000            # real pages
    python -m bench.quality.near_template --corpus /tmp/simsift-quality/small --labels

One cold scan of `--corpus` (its `docs/` folder when `--labels`), then at the default k:
the pairs within k by kind, with the rule (`ScanResult.pair_kinds`: "same template") and
without it (every such pair "near"); the clusters and their members, and the members
whose larger containment with their original is under `SAME_TEMPLATE_SHARE`, with and
without the rule. With `--labels` (a bench/quality corpus): recall of each labeled
duplicate kind counting only the pairs within k that are duplicates (exact, same text,
near), with and without the rule, and the unrelated pairs within k the rule takes out.
`--show N` prints N same-template pairs to read.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def measure(corpus: Path, labels: bool, workers: int, show: int) -> dict:
    from simsift.core.analysis.cluster import (
        KIND_NAMES,
        KIND_SAME_TEMPLATE,
        SAME_TEMPLATE_SHARE,
        build_clusters,
        pair_kinds,
    )
    from simsift.core.index.plan import DEFAULT_K
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.store.catalog import Catalog

    root = corpus / "docs" if labels else corpus
    with tempfile.TemporaryDirectory() as tmp, Catalog(Path(tmp) / "c.sqlite") as catalog:
        start = time.perf_counter()
        result = scan(ScanOptions(roots=(str(root),), workers=workers), catalog=catalog)
        seconds = time.perf_counter() - start
    k = DEFAULT_K
    close = result.pairs.within(k)
    before = pair_kinds(close.left, close.right, result.content_codes, result.text_codes)
    after = result.pair_kinds(close)
    started = time.perf_counter()
    clusters_after = result.clusters(k)
    cluster_ms = (time.perf_counter() - started) * 1000
    clusters_before = build_clusters(
        result.pairs,
        k,
        result.fingerprints,
        result.content_codes,
        result.text_codes,
        result.original_rank,
    )

    def thin(clusters) -> tuple[int, int]:
        members = under = 0
        for c in clusters:
            for m in c.members[1:]:
                ab, ba, _ = result.overlap(c.original, m.doc)
                members += 1
                under += max(ab, ba) < SAME_TEMPLATE_SHARE
        return members, under

    members_before, under_before = thin(clusters_before)
    members_after, under_after = thin(clusters_after)
    found = {
        "documents": len(result.documents),
        "cold_scan_s": round(seconds, 1),
        "k": k,
        "pairs_within_k": len(close),
        "kinds_before": dict(Counter(KIND_NAMES[c] for c in before.tolist())),
        "kinds_after": dict(Counter(KIND_NAMES[c] for c in after.tolist())),
        "clusters_before": len(clusters_before),
        "clusters_after": len(clusters_after),
        "members_before": members_before,
        "members_after": members_after,
        "members_under_share_before": under_before,
        "members_under_share_after": under_after,
        "clusters_ms": round(cluster_ms, 1),
    }
    found.update(breakdown(result, close, before))
    template = np.flatnonzero(after == KIND_SAME_TEMPLATE)
    docs = result.documents
    for i in template[:show].tolist():
        a, b = int(close.left[i]), int(close.right[i])
        ab, ba, _ = result.overlap(a, b)
        run = result.passages.longest_run(a, b)
        print(
            f"  d={int(close.distance[i])} {ab:.3f}/{ba:.3f} run={run}"
            f" {Path(docs[a].path).name} | {Path(docs[b].path).name}"
        )
    if labels:
        found.update(score(corpus, result, close, before, after))
    return found


BINS = (0.0, 0.01, 0.05, 0.1, 0.2, 0.5, 1.01)


def breakdown(result, close, before) -> dict:
    """The near pairs (before the rule) by larger containment, and why the low ones stay."""
    from simsift.core.analysis.cluster import KIND_NEAR, SAME_TEMPLATE_SHARE

    near = before == KIND_NEAR
    left, right = close.left[near], close.right[near]
    ab, ba, _ = result.overlap_many(np.minimum(left, right), np.maximum(left, right))
    larger = np.maximum(ab, ba)
    run = result.passages.longest_runs(np.minimum(left, right), np.maximum(left, right))
    own = result.passages.passages.doc_lengths() - result.passages.excluded_tokens
    low = larger < SAME_TEMPLATE_SHARE
    counts, _ = np.histogram(larger, BINS)
    labels = [f"[{a:g},{b:g})" for a, b in itertools.pairwise(BINS)]
    return {
        "near_by_containment": dict(zip(labels, counts.tolist(), strict=True)),
        "low_kept_own_0": int((low & ((own[left] == 0) | (own[right] == 0))).sum()),
        "low_kept_no_content": int(
            (low & (np.maximum(own[left], own[right]) < result.options.passages.shortest_run)).sum()
        ),
        "low_kept_run": int((low & (run >= result.options.passages.shortest_run)).sum()),
        "low_own_under_15": int(
            (low & (np.minimum(own[left], own[right]) < result.options.passages.shortest_run)).sum()
        ),
    }


def score(corpus: Path, result, close, before, after) -> dict:
    from simsift.core.analysis.cluster import KIND_NEAR, KIND_SAME_TEMPLATE

    from bench.quality.score import POSITIVE_KINDS, load_truth

    truth = load_truth(corpus, [d.path for d in result.documents])
    keys = truth.keys(close.left, close.right)
    duplicate = after != KIND_SAME_TEMPLATE
    out = {}
    for kind in POSITIVE_KINDS:
        labeled = truth.labeled[kind]
        if not len(labeled):
            continue
        was = np.isin(labeled, keys).mean()
        now = np.isin(labeled, keys[duplicate]).mean()
        out[f"recall_{kind}"] = f"{was:.3f}->{now:.3f}"
    related = truth.related(close.left, close.right)
    out["unrelated_within_k"] = int((~related).sum())
    out["unrelated_same_template"] = int((~related & ~duplicate).sum())
    out["related_same_template"] = int((related & ~duplicate).sum())
    near = (before == KIND_NEAR) & related
    lo, hi = (
        np.minimum(close.left[near], close.right[near]),
        np.maximum(close.left[near], close.right[near]),
    )
    ab, ba, _ = result.overlap_many(lo, hi)
    larger = np.sort(np.maximum(ab, ba))
    out["related_near_lowest_containment"] = [round(x, 3) for x in larger[:5].tolist()]
    negative = truth.negative_kind(close.left[~related], close.right[~related])
    out["unrelated_by_negative_kind"] = dict(
        Counter(("topic", "template", "other")[x] for x in negative.tolist())
    )
    del before
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--labels", action="store_true", help="a bench/quality corpus")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    found = measure(args.corpus, args.labels, args.workers, args.show)
    print(" ".join(f"{k}={v}" for k, v in found.items()), flush=True)


if __name__ == "__main__":
    main()
