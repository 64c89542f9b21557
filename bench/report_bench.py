"""Reports to hand over: the time to make one essay's PDF, and a class's (one per essay).

    QT_QPA_PLATFORM=offscreen python bench/report_bench.py [--essays 30] [--repeat 3]

A class of essays of 8 own paragraphs and 4 copied from the two essays before it (English
~3,500 characters, ~600 words; Chinese ~2,700 characters, its 139-paragraph pool reused
round-robin) is scanned; then, as the app does, each report page is made from the
Documents tab's `ReportPages` and written (`essay_reports_work`,
the background job's work): PDF through Qt's printing, and HTML. Times are the median of
`--repeat` runs, with the slowest run beside it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication
from simsift.app.dialogs.batch_report import class_documents
from simsift.app.panels.documents import DocumentsPanel
from simsift.app.workers.essay_reports import HTML, PDF, ReportFile, essay_reports_work
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.progress import CancelToken
from simsift.core.report.file_names import report_file_names

from tests.core.corpus import chinese_paragraphs
from tests.core.test_passages import english_paragraphs


def write_class(root: Path, essays: int, chinese: bool, seed: int = 7) -> None:
    """`essays` essays of 12 paragraphs; each takes 2 paragraphs from each of the two
    essays before it, so every report has sources and coloured passages."""
    rng = random.Random(seed)
    pool = chinese_paragraphs() if chinese else english_paragraphs()
    pool = rng.sample(pool, min(len(pool), essays * 8))
    own = [pool[i * 8 % len(pool) : i * 8 % len(pool) + 8] for i in range(essays)]
    root.mkdir(parents=True)
    for i in range(essays):
        copied = own[i - 1][:2] + own[i - 2][2:4] if i >= 2 else []
        name = f"学生{i:02d}_作文.txt" if chinese else f"student {i:02d} essay.txt"
        (root / name).write_text(f"Student {i:02d}\n\n" + "\n\n".join(own[i] + copied), "utf-8")


def timed(run, repeat: int) -> tuple[float, float]:
    """(median, slowest) seconds of `repeat` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times), max(times)


def bench(essays: int, chinese: bool, repeat: int, scratch: Path) -> None:
    root = scratch / ("zh" if chinese else "en")
    write_class(root, essays, chinese)
    result = scan(ScanOptions(roots=(str(root),), workers=0))
    panel = DocumentsPanel()
    panel.set_result(result)
    docs = class_documents(result)
    words = sum(len(" ".join(result.documents[d].paragraphs)) for d in docs) // len(docs)
    language = "Chinese" if chinese else "English"
    print(f"{language}: {len(docs)} essays, {words:,} characters each on average")
    busiest = max(docs, key=lambda d: len(result.similarity().sources(d)))
    out = scratch / "out"
    out.mkdir(exist_ok=True)
    median, worst = timed(lambda: panel.report_page(busiest), repeat)
    print(f"  one essay, page made: {median * 1000:.1f} ms (slowest {worst * 1000:.1f})")
    page_of = panel.report_pages().page
    one = [ReportFile(busiest, out / "one.pdf")]
    median, worst = timed(
        lambda: essay_reports_work(one, page_of)(lambda *_: None, CancelToken()), repeat
    )
    print(f"  one essay, PDF written: {median * 1000:.0f} ms (slowest {worst * 1000:.0f})")
    pages = scratch / "pages"
    for extension in (PDF, HTML):
        counter = iter(range(10**6))

        def whole_class(extension=extension, counter=counter) -> None:
            folder = pages / f"{extension[1:]}{next(counter)}"
            folder.mkdir(parents=True)
            names = report_file_names([result.documents[d].path for d in docs], extension)
            files = [ReportFile(d, folder / n) for d, n in zip(docs, names, strict=True)]
            essay_reports_work(files, page_of)(lambda *_: None, CancelToken())

        median, worst = timed(whole_class, repeat)
        print(
            f"  class of {len(docs)}, {extension[1:].upper()}: {median:.2f} s "
            f"(slowest {worst:.2f}), {median / len(docs) * 1000:.0f} ms per essay"
        )
    size = (out / "one.pdf").stat().st_size
    print(f"  one PDF: {size / 1024:.0f} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--essays", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    QApplication([])
    with tempfile.TemporaryDirectory() as scratch:
        for chinese in (False, True):
            bench(args.essays, chinese, args.repeat, Path(scratch) / ("zh" if chinese else "en"))


if __name__ == "__main__":
    main()
