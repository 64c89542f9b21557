"""Report pages printed to PDF with Qt's text layout, in this process (`pdf_bytes`) or in
a process of their own (`PdfPrinter`).

PySide6 keeps the GIL through each call into Qt: parsing a page, laying it out, painting
it and `QPainter.end` (which writes the PDF and the subset of each font: 30-50 ms for an
English essay, 100-130 ms for a Chinese one) stop every other Python thread for as long,
the window's too. A class's reports are therefore printed by `PdfPrinter`, a process that
prints with the window's windowing system and default font (so the fonts are the ones the
Documents tab shows) and hands back each PDF's bytes; the job's thread only makes the
pages and writes the files (bench/report_bench.py --window measures the window meanwhile).

This module imports only Qt and the standard library (and, when a printer starts, the
readers' process helpers): it is what the printer process loads.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import sys
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QGuiApplication,
    QPageLayout,
    QPageSize,
    QPainter,
    QPalette,
    QPdfWriter,
    QTextDocument,
)

if TYPE_CHECKING:
    from simsift.core.progress import CancelToken

PRINT_DPI = 96  # the page's CSS pixels: 0.75 pt each, as on screen
# left, top, right, bottom, in mm: the text fills the sheet as a printed report does; the
# page number sits in the upper half of the bottom margin
PAPER_MARGINS_MM = (18, 18, 18, 22)
_POLL_SECONDS = 0.05  # how often a wait for a PDF looks at the cancel token


def pdf_bytes(page: str, title: str, text_px: int) -> bytes:
    """An HTML page printed to PDF with Qt's text layout: A4, text between
    `PAPER_MARGINS_MM`, each page's number at its foot in the default font at `text_px`.

    Safe on a job's thread: it paints on a PDF writer, no widget, with objects it makes.
    Raises OSError when Qt makes no PDF.
    """
    document = QTextDocument()
    # page numbers are printed in the default font: as large as the text, not 9 pt
    font = QFont()
    font.setPixelSize(text_px)
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
    writer.setTitle(title)
    _paint_pages(document, writer)
    data = bytes(buffer.data())
    if not data:
        raise OSError(f"could not print {title}")
    return data


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


@dataclass(frozen=True, slots=True)
class PrinterSettings:
    """What the printer process prints with, read from the window's application."""

    platform: str  # Qt's windowing system (its font database)
    font: str  # the application's default font, `QFont.toString()`
    text_px: int  # the page numbers' size

    @classmethod
    def of_app(cls, text_px: int) -> PrinterSettings:
        """The running application's (call on the GUI thread)."""
        platform = QGuiApplication.platformName() or "offscreen"
        if sys.platform == "darwin":
            platform = "offscreen"  # the same fonts, and no second icon in the Dock
        return cls(platform, QGuiApplication.font().toString(), text_px)


class PrinterStopped(OSError):
    """The printer process ended without a PDF (it crashed, or could not start Qt)."""


class PdfPrinter:
    """A process printing pages to PDF (`pdf_bytes`), one at a time: `send` a page, make
    the next meanwhile, then `receive` its bytes. It dies with the app, as the scan's
    readers do; `close` ends it after its page, `kill` at once."""

    def __init__(self, settings: PrinterSettings) -> None:
        context = _context()
        self._conn, child = context.Pipe()
        self.process = context.Process(
            target=_printer_main, args=(child, settings), daemon=True, name="simsift-printer"
        )
        self.process.start()
        child.close()
        self.printed = 0  # PDFs received

    def send(self, page: str, title: str) -> None:
        try:
            self._conn.send((page, title))
        except OSError as error:  # a closed pipe: the process is gone
            raise self._stopped() from error

    def receive(self, cancel: CancelToken) -> bytes:
        """The PDF of the page sent last; `cancel.check()` is called while waiting.
        Raises OSError when it could not be printed, `PrinterStopped` when the process
        ended, `Cancelled` when cancelled."""
        while not self._conn.poll(_POLL_SECONDS):
            cancel.check()
        try:
            ok, value = self._conn.recv()
        except (EOFError, OSError) as error:
            raise self._stopped() from error
        if not ok:
            raise OSError(value)
        self.printed += 1
        return value

    def _stopped(self) -> PrinterStopped:
        self.process.join(timeout=1)
        return PrinterStopped(f"the PDF printer stopped (exit code {self.process.exitcode})")

    def close(self) -> None:
        """Ask the process to end after its page, then make sure it has."""
        with contextlib.suppress(OSError):
            self._conn.send(None)
        self.process.join(timeout=2)
        self.kill()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=2)
        self._conn.close()


def _context():
    """Where the printer process comes from: the scan's readers' fork server where there
    is one (`core.read.workers`), which forks it from a small process of its own (forking
    the app, as spawning does, holds the GIL for tens of milliseconds: the app is large);
    else spawned, as a frozen app's readers are. Never forked from the app itself: its
    threads (Qt's) forbid it."""
    from simsift.core.read.workers import process_context as readers_context

    context = readers_context()
    return context if context.get_start_method() != "fork" else mp.get_context("spawn")


def _printer_main(conn: Connection, settings: PrinterSettings) -> None:
    """The printer process: a Qt application without windows, printing each page it is
    sent and answering (True, the PDF's bytes) or (False, what went wrong)."""
    from simsift.core.read.workers import die_with_parent

    die_with_parent()
    os.environ["QT_QPA_PLATFORM"] = settings.platform
    app = QGuiApplication.instance() or QGuiApplication(["simsift-printer"])
    font = QFont()
    if font.fromString(settings.font):
        app.setFont(font)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if task is None:
            return
        page, title = task
        try:
            reply = (True, pdf_bytes(page, title, settings.text_px))
        except Exception as error:  # said in the batch's message, not a traceback
            reply = (False, str(error) or type(error).__name__)
        try:
            conn.send(reply)
        except OSError:
            return
