"""Precision and recall of partial copies for several values of
`PassageOptions.partial_min_run` (a pair is partial when the two documents share this many
tokens in a row, whatever its share), one scan with the prompts as reference, the word
SimHash pairs at k=8 included as the defaults report them.

    python -m bench.quality.run --size small --no-cli    # generates the corpus once
    python -m bench.quality.partial_sweep /tmp/simsift-quality/small
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
from simsift.core.pipeline.options import DEFAULT_K, ScanOptions
from simsift.core.pipeline.scan import scan

from bench.quality import reuse
from bench.quality.score import load_truth, score_pairs

HERE = Path(__file__).resolve().parent

RUNS = (0, 10, 12, 15, 18, 20, 25, 30, 40)


def main() -> None:
    corpus = Path(sys.argv[1])
    options = ScanOptions(
        roots=(str(corpus / "docs"),), reference_roots=(str(corpus / "reference"),), workers=2
    )
    result = scan(options)
    truth = load_truth(corpus, [d.path for d in result.documents])
    paragraphs = [d.paragraphs for d in result.documents]
    whole = result.pairs.within(DEFAULT_K)
    print(
        "| words in a row | reported | strict precision | reuse-aware precision | partial "
        "| collage | small partial | heavy edit | FP topic / template / other |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for min_run in RUNS:
        options = replace(result.passages.options, partial_min_run=min_run)
        partial = replace(result.passages, options=options).partial()
        left, right = np.r_[whole.left, partial.left], np.r_[whole.right, partial.right]
        score = score_pairs(truth, left, right)
        judged = reuse.judge(truth, paragraphs, left, right)
        fp = score.false_positives
        r = score.recall
        print(
            f"| {min_run or 'share only'} | {score.reported} | {score.precision:.3f} | "
            f"{judged[f'precision_{reuse.REUSE_WORDS}']:.3f} | {r['partial']:.3f} | "
            f"{r['collage']:.3f} | {r['small_partial']:.3f} | {r['heavy_edit']:.3f} | "
            f"{fp['topic']} / {fp['template']} / {fp['other']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
