"""Precision and recall at the default k for several common-text thresholds, one scan.

    python -m bench.quality.run --size small --no-cli    # generates the corpus once
    python -m bench.quality.common_sweep /tmp/simsift-quality/small

Each value re-runs only passage matching on the scanned documents.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import DEFAULT_K, ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.pipeline.stages import find_passages

from bench.quality.score import load_truth, sweep_distances

HERE = Path(__file__).resolve().parent


def main() -> None:
    corpus = Path(sys.argv[1])
    options = ScanOptions(roots=(str(corpus / "docs"),), k_max=12, workers=2)
    result = scan(options)
    truth = load_truth(corpus, [d.path for d in result.documents])
    p = result.pairs
    print("| common_max_docs | reported | precision | partial recall | false template pairs |")
    print("|---|---|---|---|---|")
    for max_docs in (40, 20, 10, 8, 6, 5):
        passages_options = replace(PassageOptions(), common_max_docs=max_docs)
        passages = find_passages(
            result.documents, result.is_reference, replace(options, passages=passages_options)
        )
        partial = passages.partial()
        score = sweep_distances(
            truth,
            p.left,
            p.right,
            p.distance.astype(int),
            [DEFAULT_K],
            (partial.left, partial.right),
        )[DEFAULT_K]
        print(
            f"| {max_docs} | {score.reported} | {score.precision:.3f} | "
            f"{score.recall['partial']:.3f} | {score.false_positives['template']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
