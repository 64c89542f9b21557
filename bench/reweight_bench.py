"""Re-weighting a scanned folder: the engine before and after it kept what a change of
weights leaves alone, in one run, on generated essays.

    python bench/reweight_bench.py --docs 2500 10000 [--dir /tmp/reweight_corpus]

Per size: a folder of N essays (paragraphs of real text reshuffled sentence by sentence,
bench/passages_bench.py; every 50th essay takes four paragraphs of the one before, every
50th is a lightly edited copy) is scanned cold with a catalog (seconds per stage), then
re-weighted as a user would, one change after the other: idf on, a title boost, stopwords
kept, a higher common-text threshold, the defaults again. Each change is timed twice from
the same result: `before` computes everything again as `reweight` did until 2026-11-26
(fingerprints, pairs, passages), `after` is `reweight` with the catalog (what the change
leaves alone comes from the comparison cache). Both must give the same pairs and partial
pairs. Times are wall clock on this machine (2 cores, shared).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import reweight, scan
from simsift.core.pipeline.stages import find_pairs, find_passages, fingerprint_documents
from simsift.core.progress import Progress
from simsift.core.store.catalog import Catalog
from simsift.core.text.features import FeatureWeights

from bench.passages_bench import EssayMaker, edit_words, english_paragraphs

CHANGES = (  # (label, weights, passage options), each applied to the result of the last
    ("idf on", FeatureWeights(use_idf=True), None),
    ("title boost 2", FeatureWeights(use_idf=True, title_boost=2.0), None),
    ("stopwords kept", FeatureWeights(use_idf=True, title_boost=2.0, remove_stopwords=False), None),
    (
        "common text above 20",
        FeatureWeights(use_idf=True, title_boost=2.0, remove_stopwords=False),
        PassageOptions(common_max_docs=20),
    ),
    ("defaults again", FeatureWeights(), PassageOptions()),
)


def write_essays(folder: Path, n: int) -> None:
    """n essays of fresh paragraphs, with planted partial copies and edited copies."""
    folder.mkdir(parents=True, exist_ok=True)
    if len(list(folder.glob("*.txt"))) == n:
        return
    maker = EssayMaker(english_paragraphs(), seed=5)
    rng = random.Random(9)
    prompt = [maker.paragraph(4)]
    essays = [prompt + maker.essay(rng.randint(8, 14)) for _ in range(n)]
    for i in range(0, n - 1, 50):
        essays[i + 1] = essays[i + 1][:6] + essays[i][3:7]
    for i in range(25, n - 1, 50):
        essays[i + 1] = [edit_words(p, 2, rng) for p in essays[i]]
    for i, essay in enumerate(essays):
        (folder / f"essay{i:05}.txt").write_text("\n\n".join(essay), encoding="utf-8")


class StageTimes:
    """Seconds per progress stage."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.last = (time.perf_counter(), "")

    def __call__(self, report: Progress) -> None:
        now = time.perf_counter()
        then, stage = self.last
        if stage:
            self.seconds[stage] = self.seconds.get(stage, 0.0) + now - then
        self.last = (now, report.stage)

    def done(self) -> dict[str, float]:
        self(Progress("", 0, 0))
        return self.seconds


def reweight_before(result, weights: FeatureWeights, passages: PassageOptions | None):
    """`reweight` as it was until 2026-11-26: everything computed again."""
    options = replace(result.options, weights=weights, passages=passages or result.options.passages)
    fingerprints = fingerprint_documents(result.documents, weights)
    pairs = find_pairs(fingerprints, options.k_max, result.is_reference)
    found = find_passages(result.documents, result.is_reference, options)
    return replace(result, options=options, fingerprints=fingerprints, pairs=pairs, passages=found)


def same(a, b) -> bool:
    pa, pb = a.partial_pairs(), b.partial_pairs()
    return (
        np.array_equal(a.fingerprints, b.fingerprints)
        and np.array_equal(a.pairs.left, b.pairs.left)
        and np.array_equal(a.pairs.right, b.pairs.right)
        and np.array_equal(a.pairs.distance, b.pairs.distance)
        and np.array_equal(pa.left, pb.left)
        and np.array_equal(pa.right, pb.right)
        and np.allclose(pa.containment_ab, pb.containment_ab)
    )


def run(n: int, base: Path) -> None:
    folder = base / f"essays{n}"
    write_essays(folder, n)
    with tempfile.TemporaryDirectory() as tmp, Catalog(Path(tmp) / "catalog.sqlite3") as catalog:
        options = ScanOptions(roots=(str(folder),), workers=2)
        stages = StageTimes()
        started = time.perf_counter()
        result = scan(options, catalog=catalog, progress=stages)
        seconds = time.perf_counter() - started
        shares = stages.done()
        tokens = sum(len(d.tokens.body) for d in result.documents)
        print(
            f"{n:,} essays, {tokens / 1e6:.1f} M tokens, {len(result.pairs):,} pairs, "
            f"{len(result.partial_pairs()):,} partial: cold scan {seconds:.1f} s ("
            + ", ".join(f"{k} {v:.1f} s = {v / seconds:.0%}" for k, v in shares.items())
            + ")"
        )
        total_before = total_after = 0.0
        for label, weights, passages in CHANGES:
            started = time.perf_counter()
            before = reweight_before(result, weights, passages)
            t_before = time.perf_counter() - started
            stages = StageTimes()
            started = time.perf_counter()
            after = reweight(result, weights, catalog=catalog, passages=passages, progress=stages)
            t_after = time.perf_counter() - started
            parts = ", ".join(f"{k} {v:.2f}" for k, v in stages.done().items())
            total_before, total_after = total_before + t_before, total_after + t_after
            print(
                f"  {label:22} before {t_before:6.2f} s  after {t_after:6.2f} s  "
                f"x{t_before / t_after:5.1f}  equal {same(before, after)}  ({parts or '-'})"
            )
            result = after
        print(
            f"  {'all five changes':22} before {total_before:6.2f} s  after {total_after:6.2f} s"
            f"  x{total_before / total_after:5.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, nargs="+", default=[2500, 10000])
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "reweight_bench")
    args = parser.parse_args()
    for n in args.docs:
        run(n, args.dir)


if __name__ == "__main__":
    main()
