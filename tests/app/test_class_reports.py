"""Reports to hand over, in a batch: one PDF or HTML per essay of the class into a folder,
made and written on a background job with progress and Cancel (the window stays
responsive), then a message with "Open folder"; the folder is remembered; and the single
report's Save says where it went.

The PDFs are checked as a reader gets them: rendered (pdftoppm), their text read back and
its sizes and place on the paper measured (pdfminer: no character under 10 pt, the text
between 2 cm margins), in English and in Chinese.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import subprocess
import threading
import time
import unicodedata
from pathlib import Path

import pytest
from pdfminer.high_level import extract_pages, extract_text
from pdfminer.layout import LTChar
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QImage
from PySide6.QtWidgets import QDialog, QMessageBox, QPushButton
from simsift.app.dialogs.batch_report import BatchReportDialog, class_documents
from simsift.app.models.roles import DocRole
from simsift.app.readable import NAMES
from simsift.app.workers.essay_reports import PDF

from tests.app.conftest import scan_and_wait
from tests.core.corpus import chinese_paragraphs
from tests.core.test_essay_report import english_paragraphs, write_class

MIN_POINTS = 10.0
MM = 72 / 25.4  # points in a millimetre


def write_mixed_class(root: Path) -> dict[str, Path]:
    """`write_class`'s English essays (Ana, Ben who copies Ana, 2 others) and two Chinese
    essays, the second copying half of the first; Ben's essay opens with his name."""
    paths = write_class(root, others=2)
    ben = paths["ben"].read_text("utf-8")
    paths["ben"].write_text("Ben Okafor, class 10B\n\n" + ben, "utf-8")
    chinese = chinese_paragraphs()
    paths["li"] = root / "李明_作文.txt"
    paths["li"].write_text("\n\n".join(chinese[:8]), "utf-8")
    paths["wang"] = root / "王芳_作文.txt"
    paths["wang"].write_text("\n\n".join(chinese[:4] + chinese[20:24]), "utf-8")
    return paths


@pytest.fixture
def scanned(qtbot, window, tmp_path):
    paths = write_mixed_class(tmp_path / "class")
    window.folders.add_paths([str(tmp_path / "class")])
    scan_and_wait(qtbot, window)
    return paths


@pytest.fixture
def opened(monkeypatch) -> list[QUrl]:
    """The URLs "Open folder" asked the desktop to open (none is opened)."""
    urls: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: urls.append(url) or True)
    return urls


def answer_dialog(monkeypatch, folder: Path, extension: str = PDF) -> None:
    """The batch dialog answered at once: this folder, this format, Save."""

    def exec_(dialog: BatchReportDialog) -> int:
        dialog.folder_edit.setText(str(folder))
        dialog.format_box.setCurrentIndex(dialog.format_box.findData(extension))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(BatchReportDialog, "exec", exec_)


def save_class_reports(qtbot, window, monkeypatch, folder: Path, extension: str = PDF):
    answer_dialog(monkeypatch, folder, extension)
    panel = window.documents_panel
    assert panel.batch_button.isEnabled()
    qtbot.mouseClick(panel.batch_button, _left())
    runner = panel.class_reports
    with qtbot.waitSignal(runner.ended, timeout=120_000):
        pass
    return runner


def char_sizes(pdf: Path) -> list[tuple[str, float]]:
    """Every visible character of the PDF with its size in points."""
    out = []

    def walk(item) -> None:
        if isinstance(item, LTChar):
            text = item.get_text()
            if text.strip() and text != "\u200b":
                out.append((text, item.size))
        for child in getattr(item, "_objs", None) or ():
            walk(child)

    for page in extract_pages(str(pdf)):
        walk(page)
    return out


def pdf_text(pdf: Path) -> str:
    """The PDF's text as a reader copies it; NFKC, since Qt maps some CJK glyphs to their
    compatibility characters (⽂ for 文)."""
    return unicodedata.normalize("NFKC", " ".join(extract_text(str(pdf)).split()))


def text_column(pdf: Path) -> tuple[float, float, float]:
    """(left margin, right margin, page width) of the first page's text, in points: from
    the page's edges to its left-most and right-most characters drawn on it."""
    page = next(iter(extract_pages(str(pdf))))
    chars = []

    def walk(item) -> None:
        if isinstance(item, LTChar) and item.get_text().strip() and 0 <= item.y0 <= page.height:
            chars.append(item)
        for child in getattr(item, "_objs", None) or ():
            walk(child)

    walk(page)
    left = min(c.x0 for c in chars)
    right = max(c.x1 for c in chars)
    return left, page.width - right, page.width


def render_page(pdf: Path, out: Path, page: int = 1) -> QImage:
    """A page of the PDF (the first by default) as pdftoppm draws it at 100 dpi."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    pages = ["-f", str(page), "-l", str(page)]
    subprocess.run(
        ["pdftoppm", "-r", "100", "-png", *pages, "-singlefile", str(pdf), str(out)],
        check=True,
        timeout=60,
    )
    image = QImage(str(out) + ".png")
    assert not image.isNull()
    return image


def painted_share(image: QImage) -> float:
    """Share of sampled pixels that are not white: text or a background colour."""
    samples = painted = 0
    for y in range(0, image.height(), 7):
        for x in range(0, image.width(), 7):
            samples += 1
            painted += image.pixelColor(x, y).lightness() < 250
    return painted / samples


def inked_share(image: QImage) -> float:
    """Share of sampled pixels that are not white."""
    samples = inked = 0
    for y in range(0, image.height(), 7):
        for x in range(0, image.width(), 7):
            samples += 1
            inked += image.pixelColor(x, y).lightness() < 200
    return inked / samples


def test_one_pdf_per_essay_readable_in_english_and_chinese(
    qtbot, window, scanned, tmp_path, monkeypatch, opened
):
    out = tmp_path / "reports"
    runner = save_class_reports(qtbot, window, monkeypatch, out)

    essays = class_documents(window.result)
    written = sorted(out.iterdir())
    assert len(written) == len(essays) == 6
    names = {p.name for p in written}
    assert "ben _&_ essay - similarity report.pdf" in names  # "<>" are not in Windows names
    assert "李明_作文 - similarity report.pdf" in names
    for pdf in written:
        sizes = char_sizes(pdf)
        assert sizes and min(size for _, size in sizes) >= MIN_POINTS, pdf.name

    # the text uses the paper: 18 mm margins, not 4.5 cm
    left, right, width = text_column(out / "ana - similarity report.pdf")
    assert 15 * MM < left < 20 * MM and 15 * MM < right < 20 * MM
    assert width - right > 0.9 * width

    ben = pdf_text(out / "ben _&_ essay - similarity report.pdf")
    assert "Similarity index" in ben and "ana.txt" in ben  # its source, with its share
    assert "Shared runs of fewer than" in ben  # the settings used
    assert "ben <&> essay.txt" in ben  # the user's name as it is, not markup
    wang = out / "王芳_作文 - similarity report.pdf"
    text = pdf_text(wang)
    assert "李明_作文.txt" in text  # its Chinese source named
    chinese = [c for c, _ in char_sizes(wang) if "\u4e00" <= c <= "\u9fff" or c >= "\u2e80"]
    assert len(chinese) > 100  # the essay's Chinese text is in the PDF, at 10 pt or more

    page = render_page(wang, tmp_path / "wang")
    assert page.width() == pytest.approx(827, abs=2)  # A4 at 100 dpi
    assert 0.01 < inked_share(page) < 0.6  # drawn, neither blank nor black

    box = runner.message
    assert box.isVisible() and "6 reports saved in:" in box.text() and str(out) in box.text()
    open_button = next(b for b in box.buttons() if b.text() == "Open folder")
    qtbot.mouseClick(open_button, _left())
    assert opened == [QUrl.fromLocalFile(str(out))]


def test_a_coloured_paragraph_across_a_page_break_keeps_off_the_margins(qtbot, tmp_path):
    from simsift.app.workers.essay_reports import print_pdf
    from simsift.core.report.essay import SOURCE_COLOURS, essay_page

    copied = " ".join(english_paragraphs()[:12])  # longer than a page
    pdf = tmp_path / "long.pdf"
    print_pdf(essay_page(f"<p style='background:{SOURCE_COLOURS[0]}'>{copied}</p>", "x"), pdf)

    left, right, _ = text_column(pdf)
    assert 15 * MM < left < 20 * MM and 15 * MM < right < 20 * MM
    first, second = (render_page(pdf, tmp_path / f"p{n}", n) for n in (1, 2))

    def mm(n: float) -> int:  # pixels at 100 dpi
        return round(n / 25.4 * 100)

    assert painted_share(first) > 0.5  # the paragraph's colour, on the text area
    # its colour stops at the text area's edges (18 mm in; the number is 11 to 22 mm up)
    assert painted_share(first.copy(0, first.height() - mm(10), first.width(), mm(10))) == 0
    assert painted_share(second.copy(0, 0, second.width(), mm(17))) == 0
    assert painted_share(second.copy(0, 0, mm(17), second.height())) == 0
    assert "2" in pdf_text(pdf)  # the pages are numbered


@pytest.fixture
def printers(monkeypatch) -> list:
    """The PDF printer processes the jobs start."""
    from simsift.app.workers import pdf_printer

    started = []
    real = pdf_printer.PdfPrinter.__init__

    def start(printer, settings):
        real(printer, settings)
        started.append(printer)

    monkeypatch.setattr(pdf_printer.PdfPrinter, "__init__", start)
    return started


def test_a_class_is_printed_by_a_process_of_its_own_as_the_window_prints(qtbot, tmp_path, printers):
    """Qt's printing keeps Python's lock for a tenth of a second at a time: a class's PDFs
    are printed in a process, with the window's fonts (the same text and sizes as one
    printed in the window's process), which ends with the batch."""
    from simsift.app.workers.essay_reports import ReportFile, essay_reports_work, print_pdf
    from simsift.core.progress import CancelToken
    from simsift.core.report.essay import essay_page

    chinese = "".join(chinese_paragraphs()[:2])
    pages = [essay_page(f"<h2>Essay {i}</h2><p>{chinese}</p>", f"{i}") for i in range(3)]
    files = [ReportFile(i, tmp_path / "class" / f"{i}.pdf") for i in range(3)]
    done = []
    work = essay_reports_work(files, pages.__getitem__)
    assert work(lambda *value: done.append(value), CancelToken()) == [f.path for f in files]
    assert done == [(1, 3), (2, 3), (3, 3)]
    assert len(printers) == 1 and printers[0].printed == 3
    assert not printers[0].process.is_alive()
    here = tmp_path / "here.pdf"
    print_pdf(pages[2], here)
    assert pdf_text(files[2].path) == pdf_text(here) and "Essay 2" in pdf_text(here)
    assert char_sizes(files[2].path) == char_sizes(here)


def test_pdfs_are_printed_on_the_jobs_thread_when_the_printer_cannot_print(
    qtbot, tmp_path, printers, monkeypatch
):
    from simsift.app.workers.essay_reports import ReportFile, essay_reports_work
    from simsift.app.workers.pdf_printer import PrinterSettings
    from simsift.core.progress import CancelToken
    from simsift.core.report.essay import essay_page

    # Qt stops a process whose windowing system it cannot load, before its first PDF
    unusable = PrinterSettings("no-such-windowing-system", "", 15)
    monkeypatch.setattr(PrinterSettings, "of_app", classmethod(lambda cls, px: unusable))
    files = [ReportFile(i, tmp_path / f"{i}.pdf") for i in range(2)]
    work = essay_reports_work(files, lambda doc: essay_page(f"<p>Essay {doc}</p>", "x"))
    assert work(lambda *_: None, CancelToken()) == [f.path for f in files]
    assert len(printers) == 1 and printers[0].printed == 0
    assert [pdf_text(f.path) for f in files] == ["Essay 0 1", "Essay 1 1"]  # with page 1


def test_a_printer_stopping_midway_stops_the_batch_with_a_reason(
    qtbot, window, scanned, tmp_path, monkeypatch, opened, printers
):
    import simsift.app.workers.essay_reports as essay_reports

    real = essay_reports.save_report_file

    def write_then_kill(content, path):
        written = real(content, path)
        printers[0].process.kill()  # as the system does when memory runs out
        return written

    monkeypatch.setattr(essay_reports, "save_report_file", write_then_kill)
    out = tmp_path / "reports"
    runner = save_class_reports(qtbot, window, monkeypatch, out)
    assert len(list(out.iterdir())) == 1
    assert runner.message.text() == (
        "Stopped after 1 of 6 reports: the PDF printer stopped (exit code -9)"
    )


def test_html_reports_escape_names_and_never_overwrite_a_file(
    qtbot, window, scanned, tmp_path, monkeypatch, opened
):
    out = tmp_path / "reports"
    out.mkdir()
    kept = out / "ana - similarity report.html"
    kept.write_text("the teacher's own file", "utf-8")
    save_class_reports(qtbot, window, monkeypatch, out, ".html")

    assert kept.read_text("utf-8") == "the teacher's own file"
    assert (out / "ana - similarity report (2).html").exists()
    page = (out / "ben _&_ essay - similarity report.html").read_text("utf-8")
    assert "ben &lt;&amp;&gt; essay.txt" in page and "<&>" not in page
    assert "<small>" not in page and "class='note'" in page  # small print at 10.5 pt
    assert "compare:" not in page  # no links into the app


def test_cancel_stops_between_reports_and_says_how_many(
    qtbot, window, scanned, tmp_path, monkeypatch, opened
):
    import simsift.app.workers.essay_reports as essay_reports

    out = tmp_path / "reports"
    panel = window.documents_panel
    written = []
    real = essay_reports.save_report_file

    def write_then_cancel(content, path):
        written.append(real(content, path))
        if len(written) == 2:
            panel.class_reports.job.cancel.cancel()  # as the progress dialog's Cancel does
        return written[-1]

    monkeypatch.setattr(essay_reports, "save_report_file", write_then_cancel)
    runner = save_class_reports(qtbot, window, monkeypatch, out)
    assert len(list(out.iterdir())) == 2  # whole reports only: no temporary file left
    assert "Cancelled: 2 of 6 reports were saved in:" in runner.message.text()


def test_cancel_button_of_the_progress_dialog_cancels_the_job(
    qtbot, window, scanned, tmp_path, monkeypatch, opened
):
    import simsift.app.workers.essay_reports as essay_reports

    real = essay_reports.save_report_file

    def slow(content, path):  # the reports take long enough to be cancelled
        time.sleep(0.3)
        return real(content, path)

    monkeypatch.setattr(essay_reports, "save_report_file", slow)
    answer_dialog(monkeypatch, tmp_path / "reports")
    panel = window.documents_panel
    qtbot.mouseClick(panel.batch_button, _left())
    runner = panel.class_reports
    assert runner.progress.isVisible() and runner.progress.maximum() == 6
    with qtbot.waitSignal(runner.ended, timeout=120_000) as ended:
        qtbot.mouseClick(runner.progress.findChild(QPushButton), _left())
    assert runner.job.cancel.cancelled and ended.args[0] < 6
    assert "Cancelled:" in runner.message.text()


def test_anonymized_reports_hide_names_and_the_name_line(
    qtbot, window, scanned, tmp_path, monkeypatch
):
    window.set_anonymous(True)
    try:
        out = tmp_path / "reports"
        save_class_reports(qtbot, window, monkeypatch, out, ".html")
    finally:
        window.set_anonymous(False)
    # the files are named after the essays: the teacher hands each to its writer
    page = (out / "ben _&_ essay - similarity report.html").read_text("utf-8")
    for secret in ("Ben Okafor", "ben &lt;", "ana.txt", str(tmp_path)):
        assert secret not in page
    assert "(line hidden: it may name the writer)" in page
    assert "Document " in page


def test_the_single_report_says_where_it_was_saved(qtbot, window, scanned, tmp_path, opened):
    panel = window.documents_panel
    panel.table.selectRow(0)
    path = tmp_path / "mine.pdf"
    from PySide6.QtWidgets import QFileDialog

    original = QFileDialog.getSaveFileName
    QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: (str(path), "PDF (*.pdf)"))
    try:
        qtbot.mouseClick(panel.save_button, _left())
    finally:
        QFileDialog.getSaveFileName = original
    assert path.exists()
    box = panel.saved_message
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "Saved as “mine.pdf” in:" in box.text() and str(tmp_path) in box.text()
    qtbot.mouseClick(next(b for b in box.buttons() if b.text() == "Open folder"), _left())
    assert opened == [QUrl.fromLocalFile(str(tmp_path))]
    doc = panel.proxy.index(0, 0).data(DocRole)
    assert min(size for _, size in char_sizes(path)) >= MIN_POINTS
    assert os.path.basename(window.result.documents[doc].path) in pdf_text(path)
    assert not NAMES.anonymous


def _left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_with_an_archive_the_class_is_the_new_essays_and_the_report_lists_the_archive(
    qtbot, window, tmp_path, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog

    from tests.app.test_archive_folders import write_years

    old, new = write_years(tmp_path / "essays")
    window.folders.add_paths([str(new)])
    window.folders.add_paths([str(old)], archive=True)
    scan_and_wait(qtbot, window)
    essays = [window.result.documents[d].path for d in class_documents(window.result)]
    assert essays and all(p.startswith(str(new)) for p in essays)  # not the archive's

    out = tmp_path / "report.html"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    window.export_html_action.trigger()
    qtbot.waitUntil(lambda: not window.editor.busy and out.exists(), timeout=20_000)
    settings = out.read_text("utf-8").split('<h2 id="settings">')[1]
    assert f"<th>Folders scanned</th><td>{new}; {old} (archive)</td>" in settings


def write_big_class(root: Path, count: int) -> None:
    """`count` short essays of three paragraphs; every tenth copies one of the previous
    essay's paragraphs."""
    root.mkdir(parents=True)
    pool = english_paragraphs()
    for i in range(count):
        paragraphs = [pool[(3 * i + j) % len(pool)] for j in range(3)]
        if i % 10 == 9:
            paragraphs.append(pool[3 * (i - 1)])
        (root / f"essay{i:03}.txt").write_text("\n\n".join(paragraphs), "utf-8")


def test_a_big_class_is_made_off_the_gui_thread_and_cancel_stops_it(
    qtbot, window, tmp_path, monkeypatch, opened
):
    import simsift.app.report_pages as report_pages

    write_big_class(tmp_path / "class", 200)
    window.folders.add_paths([str(tmp_path / "class")])
    scan_and_wait(qtbot, window, timeout=120_000)
    assert len(class_documents(window.result)) == 200
    threads = set()
    real = report_pages.essay_page

    def page(fragment: str, title: str) -> str:
        threads.add(threading.get_ident())
        return real(fragment, title)

    monkeypatch.setattr(report_pages, "essay_page", page)
    out = tmp_path / "reports"
    answer_dialog(monkeypatch, out)
    panel = window.documents_panel
    qtbot.mouseClick(panel.batch_button, _left())
    runner = panel.class_reports
    qtbot.waitUntil(lambda: len(list(out.glob("*.pdf"))) >= 60, timeout=60_000)
    with qtbot.waitSignal(runner.ended, timeout=5_000) as ended:
        qtbot.mouseClick(runner.progress.findChild(QPushButton), _left())

    # how long the window waits and Cancel takes is measured in bench/report_bench.py's
    # terms, not here: a shared CI machine makes timings flaky
    assert threading.get_ident() not in threads  # every page was made on the job's thread
    assert not multiprocessing.active_children()  # the PDF printer ended with the job
    assert 60 <= ended.args[0] < 200
    assert len(list(out.iterdir())) == ended.args[0]  # whole reports only
    assert "Cancelled:" in runner.message.text()


def test_the_class_folder_is_remembered_and_the_single_save_starts_there(
    qtbot, window, scanned, tmp_path, monkeypatch, opened
):
    from PySide6.QtWidgets import QFileDialog

    out = tmp_path / "10B reports"
    save_class_reports(qtbot, window, monkeypatch, out, ".html")
    offered = []

    def look(dialog: BatchReportDialog) -> int:
        offered.append(dialog.folder())
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(BatchReportDialog, "exec", look)
    panel = window.documents_panel
    qtbot.mouseClick(panel.batch_button, _left())
    assert offered == [str(out)]

    suggested = []
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda _p, _t, name, _f: suggested.append(name) or ("", "")
    )
    panel.table.selectRow(0)
    qtbot.mouseClick(panel.save_button, _left())
    doc = panel.selected_document
    stem = os.path.splitext(os.path.basename(window.result.documents[doc].path))[0]
    assert suggested == [str(out / f"{stem} - similarity report.pdf")]


def test_the_anonymized_single_save_suggests_the_label_not_the_name(
    qtbot, window, scanned, tmp_path, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog

    suggested = []
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda _p, _t, name, _f: suggested.append(name) or ("", "")
    )
    panel = window.documents_panel
    window.set_anonymous(True)
    try:
        for row in range(panel.proxy.rowCount()):
            panel.table.selectRow(row)
            qtbot.mouseClick(panel.save_button, _left())
            doc = panel.selected_document
            path = window.result.documents[doc].path
            real = os.path.splitext(os.path.basename(path))[0]
            name = os.path.basename(suggested[-1])
            assert name == f"{NAMES.name(path)} - similarity report.pdf"
            assert name.startswith("Document ") and real not in name
    finally:
        window.set_anonymous(False)
    assert len(suggested) == panel.proxy.rowCount() >= 3
