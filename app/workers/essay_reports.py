"""Essays' reports written to files: one (`write_essay_report`) or a class's, one file per
essay, as a background job (`essay_reports_work`) that also makes the pages, so a class of
a thousand essays never holds up the window.

A report page (`core.report.essay.essay_page`) is printed to PDF with Qt's text layout, so
what the Documents tab shows is what a student receives; HTML is written as it is. Each file
is written under a temporary name and then renamed, so a cancelled or failed batch leaves
whole reports only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QPageLayout,
    QPageSize,
    QPainter,
    QPalette,
    QPdfWriter,
    QTextDocument,
)
from simsift.app.workers.jobs import Report, Work
from simsift.core.files import atomic_write
from simsift.core.progress import CancelToken
from simsift.core.report.essay import PAGE_TEXT_PX
from simsift.core.report.html import write_html

PDF = ".pdf"
HTML = ".html"
PRINT_DPI = 96  # the page's CSS pixels: 0.75 pt each, as on screen
# left, top, right, bottom, in mm: the text fills the sheet as a printed report does; the
# page number sits in the upper half of the bottom margin
PAPER_MARGINS_MM = (18, 18, 18, 22)


@dataclass(frozen=True, slots=True)
class ReportFile:
    """One report to write: the document it is about and where."""

    doc: int
    path: Path


def print_pdf(page: str, path: str | os.PathLike) -> None:
    """Print an HTML page to a PDF file with Qt's text layout: A4, text between
    `PAPER_MARGINS_MM`, each page's number at its foot.

    Safe on a job's thread: it paints on a PDF writer, no widget, with objects it makes.
    Raises OSError when the file cannot be written.
    """
    document = QTextDocument()
    # page numbers are printed in the default font: as large as the text, not 9 pt
    font = QFont()
    font.setPixelSize(PAGE_TEXT_PX)
    document.setDefaultFont(font)
    document.setHtml(page)
    document.setDocumentMargin(0)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    # the page's CSS sizes text in pixels: at the writer's default 1200 dpi a 15px letter
    # is a third of a millimetre; at a screen's 96 dpi it is 11.25 pt, as on screen
    writer.setResolution(PRINT_DPI)
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    # the whole sheet is ours: the margins are kept below, where the pages are painted
    writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)
    writer.setTitle(os.path.basename(path))
    _paint_pages(document, writer)
    data = bytes(buffer.data())
    if not data:
        raise OSError(f"could not print {os.fspath(path)}")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(Path(path), "wb") as f:
        f.write(data)


def _paint_pages(document: QTextDocument, writer: QPdfWriter) -> None:
    """Lay `document` out in the text area of `writer`'s sheets and paint it page by page,
    each clipped to its text area, with its number below.

    Not `QTextDocument.print_`: it adds 2 cm margins of its own to the writer's and lets a
    coloured paragraph's background run over the margins across a page break."""
    sheet = writer.pageLayout().fullRectPixels(PRINT_DPI)
    left, top, right, bottom = (round(mm * PRINT_DPI / 25.4) for mm in PAPER_MARGINS_MM)
    area = QRectF(left, top, sheet.width() - left - right, sheet.height() - top - bottom)
    document.documentLayout().setPaintDevice(writer)  # fonts measured as the PDF draws them
    document.setPageSize(area.size())
    context = QAbstractTextDocumentLayout.PaintContext()
    palette = context.palette
    palette.setColor(QPalette.ColorRole.Text, QColor("black"))  # not a dark theme's white
    context.palette = palette
    foot = QRectF(left, sheet.height() - bottom, area.width(), bottom / 2)
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError("could not start the PDF")
    try:
        for number in range(document.pageCount()):
            if number:
                writer.newPage()
            view = QRectF(0, number * area.height(), area.width(), area.height())
            painter.save()
            painter.translate(area.left(), area.top() - view.top())
            painter.setClipRect(view)
            context.clip = view
            document.documentLayout().draw(painter, context)
            painter.restore()
            painter.setFont(document.defaultFont())
            align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            painter.drawText(foot, align, str(number + 1))
    finally:
        painter.end()


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


def essay_reports_work(files: Sequence[ReportFile], page_of: Callable[[int], str]) -> Work:
    """A job's work (`app.workers.jobs.Job`): make each report's page (`page_of(doc)`,
    which must be safe off the GUI thread) and write it, reporting (done, total) after
    each; it stops between two files when cancelled, the ones written kept.
    Returns the paths written."""

    def work(report: Report, cancel: CancelToken) -> list[Path]:
        written = []
        for done, file in enumerate(files):
            cancel.check()
            written.append(write_essay_report(page_of(file.doc), file.path))
            report(done + 1, len(files))
        return written

    return work
