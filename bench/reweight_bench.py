"""Re-weighting a scanned folder through the window's own call, on man pages and on
generated essays, before and after the scan kept its feature counts and meaning fragments.

    python -m bench.reweight_bench --corpus man essays --docs 2500 10000 [--dir /tmp/reweight_bench]

Corpora: `man` is real text, English man pages rendered to .txt: the first 2,500 of
/tmp/man4k sorted for 2,500; for 10,000, all 4,000 of /tmp/man4k, every page of
/tmp/man_txt outside man1 (31 languages, 1,460 of them Chinese) and the first man1 pages
to make 10,000. `essays` are generated (bench/passages_bench.py: paragraphs of real text
reshuffled sentence by sentence; every 50th essay takes four paragraphs of the one before,
every 50th is a lightly edited copy).

Per corpus and size: the folder is scanned with a catalog kept in --dir (files are read
once; the comparison cache beside it is removed first, so every scan compares from
scratch, as a first scan does), then re-weighted as a user would, each change from the
scan's result (and its comparison cache, put back as the scan left it): idf on, a title
boost, the tf scheme, stopwords kept, a higher common-text threshold (--only picks some).
Each change is timed twice through `app.workers.scan`'s re-weighting work (what
`ScanController.start_reweight` runs on its pool thread, progress throttled as there):
`before` from the result without its feature counts and meaning fragments, so every
document's features are counted again and, where passages change, sentences aligned
again (as until 2026-12-08; both take the word grams from the result), `after` from the
result as the scan gave it. Both must give the same result. Times are wall clock on this
machine (2 cores, shared).
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from simsift.app.workers.scan import _reweight_work, _spared
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.progress import CancelToken, Progress
from simsift.core.store.catalog import Catalog
from simsift.core.text.features import FeatureWeights

from bench.passages_bench import EssayMaker, edit_words, english_paragraphs

MAN4K, MAN_TXT = Path("/tmp/man4k"), Path("/tmp/man_txt")
CHANGES = (  # (label, weights, passage options), each applied to the scan's result
    ("idf on", FeatureWeights(use_idf=True), None),
    ("title boost 2", FeatureWeights(title_boost=2.0), None),
    ("tf binary", FeatureWeights(tf_scheme="binary"), None),
    ("stopwords kept", FeatureWeights(remove_stopwords=False), None),
    ("common text above 20", FeatureWeights(), PassageOptions(common_max_docs=20)),
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


def man_pages(n: int) -> list[Path]:
    """The man pages of the `n`-document corpus (see the module's docstring)."""
    english = sorted(MAN4K.glob("*.txt"))
    if n <= len(english):
        return english[:n]
    pages = sorted(p for p in MAN_TXT.rglob("*") if p.is_file())
    others = [p for p in pages if p.relative_to(MAN_TXT).parts[0] != "man1"]
    man1 = [p for p in pages if p.relative_to(MAN_TXT).parts[0] == "man1"]
    chosen = english + others
    return chosen + man1[: n - len(chosen)]


def write_man_pages(folder: Path, n: int) -> None:
    """Copies of the corpus' man pages (the walk skips links that lead out of a folder)."""
    folder.mkdir(parents=True, exist_ok=True)
    if len(list(folder.iterdir())) == n:
        return
    for page in man_pages(n):
        name = page.name if page.parent == MAN4K else "_".join(page.relative_to(MAN_TXT).parts)
        shutil.copyfile(page, folder / name)


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


def window_reweight(result, weights, passages, catalog, stages=lambda report: None):
    """The re-weighting job the window starts (`ScanController.start_reweight`), run here."""
    work = _spared(_reweight_work(result, weights, passages, set(), catalog))
    return work(stages, CancelToken())


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
        and np.array_equal(a.passages.meaning.left, b.passages.meaning.left)
    )


def restorable(cache: Path):
    """A function that puts the comparison cache back as it is now: every timed call
    starts from the cache the scan left (each stores its own comparison)."""
    kept = Path(tempfile.mkdtemp()) / "cache"
    shutil.copytree(cache, kept)

    def restore() -> None:
        shutil.rmtree(cache)
        shutil.copytree(kept, cache)

    return restore


def timed(call, *args):
    started = time.perf_counter()
    value = call(*args)
    return value, time.perf_counter() - started


def run(corpus: str, n: int, base: Path, only: list[str]) -> None:
    folder = base / f"{corpus}{n}"
    (write_essays if corpus == "essays" else write_man_pages)(folder, n)
    catalog_path = base / f"{corpus}{n}.sqlite3"
    shutil.rmtree(f"{catalog_path}.cache", ignore_errors=True)  # compare from scratch
    with Catalog(catalog_path) as catalog:
        options = ScanOptions(roots=(str(folder),), workers=2)
        stages = StageTimes()
        result, seconds = timed(lambda: scan(options, catalog=catalog, progress=stages))
        shares = stages.done()
        tokens = sum(len(d.tokens.body) for d in result.documents)
        print(
            f"{corpus}, {len(result.documents):,} documents, {tokens / 1e6:.1f} M tokens, "
            f"{len(result.pairs):,} pairs, {len(result.partial_pairs()):,} partial: "
            f"scan {seconds:.1f} s ("
            + ", ".join(f"{k} {v:.1f} s" for k, v in shares.items())
            + ")",
            flush=True,
        )
        restore = restorable(Path(f"{catalog_path}.cache"))
        uncounted = replace(result, feature_counts=None, meaning_before_runs=None)
        for label, weights, passages in CHANGES:
            if only and label not in only:
                continue
            restore()
            before, t_before = timed(window_reweight, uncounted, weights, passages, catalog)
            restore()
            stages = StageTimes()
            after, t_after = timed(window_reweight, result, weights, passages, catalog, stages)
            parts = ", ".join(f"{k} {v:.2f}" for k, v in stages.done().items())
            print(
                f"  {label:22} before {t_before:6.2f} s  after {t_after:6.2f} s  "
                f"x{t_before / t_after:5.1f}  equal {same(before, after)}  ({parts or '-'})",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", nargs="+", choices=("man", "essays"), default=["man"])
    parser.add_argument("--docs", type=int, nargs="+", default=[2500, 10000])
    parser.add_argument("--only", nargs="*", default=[], help="labels of the changes to time")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "reweight_bench")
    args = parser.parse_args()
    for corpus in args.corpus:
        for n in args.docs:
            run(corpus, n, args.dir, args.only)


if __name__ == "__main__":
    main()
