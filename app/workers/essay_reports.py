"""Essays' reports written to files: one (`write_essay_report`) or a class's, one file per
essay, as a background job (`essay_reports_work`) that also makes the pages, so a class of
a thousand essays never holds up the window.

A report page (`core.report.essay.essay_page`) is printed to PDF with Qt's text layout
(`app.workers.pdf_printer`), so what the Documents tab shows is what a student receives;
HTML is written as it is. A class's PDFs are printed in a process of their own: Qt's
printing keeps the GIL, and on the job's thread it held up the window for a tenth of a
second at a time. Each file is written under a temporary name and then renamed, so a
cancelled or failed batch leaves whole reports only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from simsift.app.workers.jobs import Report, Work
from simsift.app.workers.pdf_printer import (
    PdfPrinter,
    PrinterSettings,
    PrinterStopped,
    pdf_bytes,
)
from simsift.core.files import atomic_write
from simsift.core.progress import CancelToken
from simsift.core.report.essay import PAGE_TEXT_PX
from simsift.core.report.html import write_html

PDF = ".pdf"
HTML = ".html"


@dataclass(frozen=True, slots=True)
class ReportFile:
    """One report to write: the document it is about and where."""

    doc: int
    path: Path


def print_pdf(page: str, path: str | os.PathLike) -> None:
    """Print an HTML page to a PDF file in this process (`pdf_printer.pdf_bytes`).

    Raises OSError when the file cannot be written.
    """
    save_report_file(pdf_bytes(page, os.path.basename(path), PAGE_TEXT_PX), Path(path))


def save_report_file(content: str | bytes, path: Path) -> Path:
    """Write a report: a PDF's bytes, or an HTML page's text; atomically (a temporary file
    renamed), so a file is whole or absent.

    Raises OSError when the file cannot be written.
    """
    if isinstance(content, str):
        return write_html(content, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb") as f:
        f.write(content)
    return path


def write_essay_report(page: str, path: str | os.PathLike) -> Path:
    """Write a report page as PDF when `path` ends in .pdf, else as HTML.

    Raises OSError when the file cannot be written.
    """
    path = Path(path)
    if _is_pdf(path):
        print_pdf(page, path)
    else:
        write_html(page, path)
    return path


def essay_reports_work(files: Sequence[ReportFile], page_of: Callable[[int], str]) -> Work:
    """A job's work (`app.workers.jobs.Job`): make each report's page (`page_of(doc)`,
    which must be safe off the GUI thread) and write it, reporting (done, total) after
    each; it stops between two files when cancelled, the ones written kept.
    Returns the paths written.

    Call on the GUI thread: the PDF printer's settings are read from the application.
    PDFs are printed by a `PdfPrinter` process, the next page made while it prints; when
    the process cannot print at all (it stops before its first PDF), they are printed on
    the job's thread instead."""
    settings = PrinterSettings.of_app(PAGE_TEXT_PX) if any(_is_pdf(f.path) for f in files) else None

    def work(report: Report, cancel: CancelToken) -> list[Path]:
        written = []
        printing = _Printing(settings)
        finished = False
        try:
            upcoming = page_of(files[0].doc) if files else ""
            for done, file in enumerate(files):
                cancel.check()
                page = upcoming
                if _is_pdf(file.path):
                    printing.send(page, file.path.name)
                if done + 1 < len(files):  # while the printer prints
                    upcoming = page_of(files[done + 1].doc)
                content = printing.receive(cancel) if _is_pdf(file.path) else page
                written.append(save_report_file(content, file.path))
                report(done + 1, len(files))
            finished = True
        finally:
            printing.end(finished)
        return written

    return work


class _Printing:
    """A job's PDFs: sent to a `PdfPrinter` started with the first, or printed on the
    job's thread when that process cannot print."""

    def __init__(self, settings: PrinterSettings | None) -> None:
        self._settings = settings
        self._printer: PdfPrinter | None = None
        self._in_thread = False
        self._page = ("", "")

    def send(self, page: str, title: str) -> None:
        self._page = (page, title)
        if self._in_thread:
            return
        try:
            if self._printer is None:
                self._printer = PdfPrinter(self._settings)
            self._printer.send(page, title)
        except OSError as error:  # the process could not start, or died
            self._stopped(error)

    def receive(self, cancel: CancelToken) -> bytes:
        if not self._in_thread:
            try:
                return self._printer.receive(cancel)
            except PrinterStopped as error:
                self._stopped(error)
        return pdf_bytes(*self._page, self._settings.text_px)

    def _stopped(self, error: OSError) -> None:
        """The process is gone: print on the job's thread when it never printed (it could
        not start Qt); after a PDF, it was a page that stopped it, which would stop the
        job too: raise `error`."""
        if self._printer is not None and self._printer.printed:
            raise error
        self._print_in_thread()

    def _print_in_thread(self) -> None:
        self._in_thread = True
        if self._printer is not None:
            self._printer.kill()
            self._printer = None

    def end(self, finished: bool) -> None:
        """Let the process go: at once when the work stopped early (cancelled, failed),
        with a page perhaps still printing."""
        if self._printer is not None:
            self._printer.close() if finished else self._printer.kill()
            self._printer = None


def _is_pdf(path: Path) -> bool:
    return path.suffix.lower() == PDF
