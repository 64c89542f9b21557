"""Precision and recall of partial copies and collage sources for several values of
`PassageOptions.partial_min_tokens` (a pair is partial from this many matched tokens on,
whatever its share), one scan.

    python bench/quality/run.py --size small --no-cli    # generates the corpus once
    python bench/quality/partial_sweep.py /tmp/simsift-quality/small
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from score import load_truth, sweep_distances  # noqa: E402

from core.scan import DEFAULT_K, ScanOptions, scan  # noqa: E402


def main() -> None:
    corpus = Path(sys.argv[1])
    result = scan(ScanOptions(roots=(str(corpus / "docs"),), k_max=12, workers=2))
    truth = load_truth(corpus, [d.path for d in result.documents])
    p = result.pairs
    print("| partial_min_tokens | reported | precision | partial recall | collage recall "
          "| FP topic | FP template | FP other |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for min_tokens in (0, 200, 150, 120, 100, 80, 60):
        passages = replace(result.passages, options=replace(
            result.passages.options, partial_min_tokens=min_tokens))  # fmt: skip
        partial = passages.partial()
        score = sweep_distances(
            truth, p.left, p.right, p.distance.astype(int), [DEFAULT_K],
            (partial.left, partial.right),
        )[DEFAULT_K]  # fmt: skip
        fp = score.false_positives
        print(
            f"| {min_tokens} | {score.reported} | {score.precision:.3f} | "
            f"{score.recall['partial']:.3f} | {score.recall['collage']:.3f} | "
            f"{fp['topic']} | {fp['template']} | {fp['other']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
