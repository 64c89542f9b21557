"""Fingerprinting speed on a real collection: document and passage SimHashes from cached tokens.

    python -m bench.fingerprint_bench --corpus /tmp/man_txt --catalog /tmp/fp_catalog.sqlite

The first run reads the corpus into the catalog (a normal scan); later runs take the tokens
from it, so only fingerprinting is timed (best of --repeat runs).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from simsift.core.match.passages import PassageOptions, cut_passages, passage_fingerprints
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.pipeline.stages import fingerprint_documents
from simsift.core.store.catalog import Catalog
from simsift.core.text.features import FeatureWeights


def best_of(repeat: int, run) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--catalog", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with Catalog(args.catalog) as catalog:
        documents = scan(ScanOptions(roots=(str(args.corpus),)), catalog=catalog).documents
    tokens = sum(len(d.tokens.body) + len(d.tokens.title) for d in documents)
    print(f"{len(documents)} documents, {tokens} tokens")
    for shingle in (1, 2):
        weights = FeatureWeights(shingle_size=shingle)
        seconds, fps = best_of(args.repeat, lambda w=weights: fingerprint_documents(documents, w))
        print(
            f"documents, shingle {shingle}: {seconds:.2f} s "
            f"({tokens / seconds / 1e6:.1f} M tokens/s), checksum {np.bitwise_xor.reduce(fps)}"
        )
    streams = [d.tokens.body for d in documents]
    passages = cut_passages(streams, PassageOptions())
    for shingle in (1, 2):
        seconds, (fps, _) = best_of(
            args.repeat,
            lambda s=shingle: passage_fingerprints(streams, passages, FeatureWeights(), s),
        )
        print(
            f"passages, shingle {shingle}: {len(passages)} passages in {seconds:.2f} s, "
            f"checksum {np.bitwise_xor.reduce(fps)}"
        )


if __name__ == "__main__":
    main()
