"""Essays' reports written to files: one (`write_essay_report`) or a class's, one file per
essay, as a background job (`essay_reports_work`).

A report page (`core.report.essay.essay_page`) is printed to PDF with Qt's text layout, so
what the Documents tab shows is what a student receives; HTML is written as it is. Each file
is written under a temporary name and then renamed, so a cancelled or failed batch leaves
whole reports only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF
from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPdfWriter, QTextDocument
from simsift.app.workers.jobs import Report, Work
from simsift.core.files import atomic_write
from simsift.core.progress import CancelToken
from simsift.core.report.essay import PAGE_TEXT_PX
from simsift.core.report.html import write_html

PDF = ".pdf"
HTML = ".html"


@dataclass(frozen=True, slots=True)
class ReportFile:
    """One report to write: its complete page and where."""

    page: str
    path: Path


def print_pdf(page: str, path: str | os.PathLike) -> None:
    """Print an HTML page to a PDF file with Qt's text layout (A4, 15 mm margins).

    Raises OSError when the file cannot be written.
    """
    document = QTextDocument()
    # page numbers are printed in the default font: as large as the text, not 9 pt
    font = QFont()
    font.setPixelSize(PAGE_TEXT_PX)
    document.setDefaultFont(font)
    document.setHtml(page)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    # the page's CSS sizes text in pixels: at the writer's default 1200 dpi a 15px letter
    # is a third of a millimetre; at a screen's 96 dpi it is 11.25 pt, as on screen
    writer.setResolution(96)
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
    writer.setTitle(os.path.basename(path))
    document.print_(writer)
    data = bytes(buffer.data())
    if not data:
        raise OSError(f"could not print {os.fspath(path)}")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(Path(path), "wb") as f:
        f.write(data)


def write_essay_report(page: str, path: str | os.PathLike) -> Path:
    """Write a report page as PDF when `path` ends in .pdf, else as HTML.

    Raises OSError when the file cannot be written.
    """
    path = Path(path)
    if path.suffix.lower() == PDF:
        print_pdf(page, path)
    else:
        write_html(page, path)
    return path


def essay_reports_work(files: Sequence[ReportFile]) -> Work:
    """A job's work (`app.workers.jobs.Job`): write every report, reporting (done, total)
    after each; it stops between two files when cancelled, the ones written kept.
    Returns the paths written."""

    def work(report: Report, cancel: CancelToken) -> list[Path]:
        written = []
        for done, file in enumerate(files):
            cancel.check()
            written.append(write_essay_report(file.page, file.path))
            report(done + 1, len(files))
        return written

    return work
