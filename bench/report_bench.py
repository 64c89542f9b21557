"""Reports to hand over: the time to make one essay's PDF, and a class's (one per essay).

    QT_QPA_PLATFORM=offscreen python -m bench.report_bench [--essays 30] [--repeat 3]

A class of essays of 8 own paragraphs and 4 copied from the two essays before it (English
~3,500 characters, ~600 words; Chinese ~2,700 characters, its 139-paragraph pool reused
round-robin) is scanned; then, as the app does, each report page is made from the
Documents tab's `ReportPages` and written: one essay's PDF as "Save report…" writes it
(`write_essay_report`, printed in this process), a class's as the background job writes
them (`essay_reports_work`: the PDFs printed by a process of their own, its start
included), and HTML. Times are the median of `--repeat` runs, with the slowest beside it.

    QT_QPA_PLATFORM=offscreen python -m bench.report_bench --window [--classes 30 200]

The window's responsiveness meanwhile: a class's reports are written as Documents ▸ "Save
reports for the class…" writes them (`ClassReports`: the background job, its progress
dialog), while a 20 ms QTimer on the GUI thread records its ticks; every gap between two
ticks longer than 20 ms is time the window could not react. Prints the longest gap, the
99th percentile, and the time from Cancel (pressed after a few reports) to the job's end.
`--profile` also times each step (page made, printed: HTML parsed, laid out, painted;
file written; the window's slots; garbage collections) and names the steps under the longest gaps.
`--in-thread` prints the PDFs on the job's thread, as the app did before they were
printed in a process of their own.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The PDF printer is a spawned process, which imports the main module (as "__mp_main__"):
# for it this one must be as light as the app's, or the printer starts seconds late.
if __name__ != "__mp_main__":
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication, QPushButton
    from simsift.app.dialogs.batch_report import ClassReports, class_documents
    from simsift.app.panels.documents import DocumentsPanel
    from simsift.app.workers.essay_reports import (
        HTML,
        PDF,
        ReportFile,
        essay_reports_work,
        write_essay_report,
    )
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
    result = scan(ScanOptions(roots=(str(root),), workers=2))  # as the app's, see below
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
    # as "Save report…" writes the selected essay's: printed in this process
    median, worst = timed(lambda: write_essay_report(page_of(busiest), out / "one.pdf"), repeat)
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


TICK_MS = 20
CANCEL_AFTER = 5  # reports written before Cancel is pressed


class StepTimes:
    """With --profile: when each step ran, (start, end, step); steps of the job's thread
    and of the GUI thread (marked "GUI")."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float, str]] = []

    def timed(self, name: str, call):
        def run(*args, **kwargs):
            started = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                self.spans.append((started, time.perf_counter(), name))

        return run

    def install(self) -> None:
        """Wrap the steps where the job and the window call them: Qt's printing in this
        process (`pdf_printer`, on the job's thread with --in-thread), the PDF printer
        process waited for, files written, and the window's slots."""
        from PySide6.QtGui import QTextDocument
        from simsift.app.workers import essay_reports, pdf_printer

        steps = self

        class TimedDocument(QTextDocument):
            def setHtml(self, text: str) -> None:
                steps.timed("HTML parsed (setHtml)", super().setHtml)(text)

            def setPageSize(self, size) -> None:
                steps.timed("laid out (setPageSize)", super().setPageSize)(size)

            def pageCount(self) -> int:
                return steps.timed("laid out (pageCount)", super().pageCount)()

        pdf_printer.QTextDocument = TimedDocument
        pdf_printer._paint_pages = self.timed("pages painted", pdf_printer._paint_pages)
        printer = pdf_printer.PdfPrinter
        printer.receive = self.timed("printer process waited for", printer.receive)
        printer.__init__ = self.timed("printer process started", printer.__init__)
        write = essay_reports.save_report_file
        essay_reports.save_report_file = self.timed("file written", write)
        ClassReports._on_progress = self.timed("GUI: progress shown", ClassReports._on_progress)
        ClassReports._on_finished = self.timed("GUI: end message", ClassReports._on_finished)
        ClassReports._on_cancelled = self.timed("GUI: end message", ClassReports._on_cancelled)
        ClassReports.start = self.timed("GUI: job started", ClassReports.start)
        collecting: list[float] = []

        def collection(phase: str, info: dict) -> None:
            if phase == "start":
                collecting[:] = [time.perf_counter()]
            elif collecting:
                name = f"garbage collected (generation {info['generation']})"
                self.spans.append((collecting.pop(), time.perf_counter(), name))

        gc.callbacks.append(collection)

    def under(self, start: float, end: float) -> str:
        """The steps that ran during [start, end], longest overlap first."""
        overlaps: dict[str, float] = {}
        for a, b, name in self.spans:
            shared = min(b, end) - max(a, start)
            if shared > 0:
                overlaps[name] = overlaps.get(name, 0.0) + shared
        ranked = sorted(overlaps.items(), key=lambda kv: -kv[1])
        return ", ".join(f"{name} {1000 * t:.0f} ms" for name, t in ranked) or "no step"


def print_in_thread() -> None:
    """--in-thread: PDFs printed on the job's thread, as before the printer process (its
    start fails, so the job falls back on printing itself)."""
    from simsift.app.workers import essay_reports

    def no_process(*_args, **_kwargs):
        raise OSError("no printer process (--in-thread)")

    essay_reports.PdfPrinter = no_process


def write_with_ticks(
    panel: DocumentsPanel,
    files: list[ReportFile],
    folder: Path,
    cancel_after: int | None,
    steps: StepTimes | None,
) -> tuple[list[float], float | None, int]:
    """Write `files` as the window does, a 20 ms timer ticking on the GUI thread; with
    `cancel_after`, press Cancel once that many reports are written. Returns the ticks
    (the job's start and end among them), the seconds from Cancel to the job's end (None
    without Cancel) and the reports written."""
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    done = QEventLoop()
    runner = ClassReports(panel)
    ended: list[tuple[float, int]] = []
    pressed: list[float] = []
    page_of = panel.report_pages().page
    if steps is not None:
        page_of = steps.timed("page made", page_of)

    def on_ended(written: int) -> None:
        ended.append((time.perf_counter(), written))
        done.quit()

    def on_progress(value) -> None:
        if cancel_after is not None and not pressed and value[0] >= cancel_after:
            pressed.append(time.perf_counter())
            runner.progress.findChild(QPushButton).click()  # the Cancel button

    runner.ended.connect(on_ended)
    timer.start()
    ticks.append(time.perf_counter())
    job = runner.start(files, page_of, str(folder))
    job.signals.progress.connect(on_progress)
    done.exec()
    timer.stop()
    ticks.append(ended[0][0])
    if runner.message is not None:
        runner.message.close()
    cancelled = ended[0][0] - pressed[0] if pressed else None
    return ticks, cancelled, ended[0][1]


def settle(ms: int = 500) -> None:
    """Let the window handle its events for `ms` milliseconds."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def gap_text(ticks: list[float]) -> tuple[str, list[tuple[float, float]]]:
    """The longest gap between two ticks and the 99th percentile, in words; and the
    gaps as (seconds, when it began), longest first."""
    gaps = sorted(((b - a, a) for a, b in itertools.pairwise(ticks)), reverse=True)
    ordered = sorted(g for g, _ in gaps)
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    return f"longest gap {1000 * gaps[0][0]:.0f} ms, 99th percentile {1000 * p99:.0f} ms", gaps


def responsiveness(
    classes: list[int], chinese: bool, scratch: Path, steps: StepTimes | None
) -> None:
    language = "Chinese" if chinese else "English"
    for essays in classes:
        root = scratch / f"{'zh' if chinese else 'en'}{essays}"
        write_class(root, essays, chinese)
        # read by reader processes as the app's scan reads: their fork server then runs,
        # and the PDF printer is forked from it
        result = scan(ScanOptions(roots=(str(root),), workers=2))
        panel = DocumentsPanel()
        panel.resize(900, 600)
        panel.show()
        panel.set_result(result)
        settle()  # the panel's first layout is no part of the reports' time
        docs = class_documents(result)
        for extension in (PDF, HTML):
            kind = extension[1:].upper()
            for cancel_after in (None, CANCEL_AFTER):
                folder = scratch / "out" / f"{root.name}-{kind}-{cancel_after}"
                folder.mkdir(parents=True)
                names = report_file_names([result.documents[d].path for d in docs], extension)
                files = [ReportFile(d, folder / n) for d, n in zip(docs, names, strict=True)]
                if steps is not None:
                    steps.spans.clear()
                started = time.perf_counter()
                ticks, cancelled, written = write_with_ticks(
                    panel, files, folder, cancel_after, steps
                )
                settle()  # the job's thread ends after its last signal
                took = time.perf_counter() - started
                text, gaps = gap_text(ticks)
                if cancelled is None:
                    print(
                        f"{language}, class of {len(docs)}, {kind}: {written} written in "
                        f"{took:.2f} s; {text}",
                        flush=True,
                    )
                else:
                    print(
                        f"  Cancel after {CANCEL_AFTER}: job ended {1000 * cancelled:.0f} ms "
                        f"later ({written} written); {text}",
                        flush=True,
                    )
                if steps is not None:
                    for gap, at in gaps[:3]:
                        print(
                            f"    {1000 * gap:.0f} ms gap at {at - started:.2f} s: "
                            + steps.under(at, at + gap)
                        )
        panel.close()
        panel.deleteLater()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--essays", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--window", action="store_true", help="the window's responsiveness while writing"
    )
    parser.add_argument("--classes", type=int, nargs="+", default=[30, 200])
    parser.add_argument("--chinese", action="store_true", help="with --window: Chinese too")
    parser.add_argument("--profile", action="store_true", help="with --window: time the steps")
    parser.add_argument(
        "--in-thread",
        action="store_true",
        help="with --window: print PDFs on the job's thread (as before the printer process)",
    )
    args = parser.parse_args()
    QApplication([])
    with tempfile.TemporaryDirectory() as scratch:
        if args.window:
            if args.in_thread:
                print_in_thread()
            steps = StepTimes() if args.profile else None
            if steps is not None:
                steps.install()
            for chinese in (False, True) if args.chinese else (False,):
                responsiveness(args.classes, chinese, Path(scratch), steps)
            return
        for chinese in (False, True):
            bench(args.essays, chinese, args.repeat, Path(scratch) / ("zh" if chinese else "en"))


if __name__ == "__main__":
    main()
