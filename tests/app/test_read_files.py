"""What was read: problems (not read, warnings, skipped) and each document's extracted text."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from simsift.app.dialogs.text import DocumentPicker, ExtractedTextDialog
from simsift.app.models.problems import COL_FILE, COL_PROBLEM, COL_STATUS

from tests.app.conftest import scan_and_wait


def doc_of(window, path) -> int:
    return [d.path for d in window.result.documents].index(str(path))


def rows(model) -> dict[str, tuple[str, str]]:
    return {
        model.index(r, COL_FILE).data(): (
            model.index(r, COL_STATUS).data(),
            model.index(r, COL_PROBLEM).data(),
        )
        for r in range(model.rowCount())
    }


def test_problems_tab_lists_errors_warnings_and_skipped_files(qtbot, window, corpus, monkeypatch):
    root, _ = corpus
    (root / "bad.pdf").write_text("not a pdf")
    (root / "drawing.psd").write_bytes(b"8BPS" + bytes(100))
    (root / "cut.txt").write_bytes(("李同学的作文写得很好。" * 20).encode("utf-8")[:-1])
    essay = "随着信息爆炸时代的来临，互联网上充斥着大量的近重复信息。" * 10
    (root / "garbled.txt").write_text(essay.encode().decode("gbk", "ignore"), encoding="utf-8")
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    garbled = "the Chinese text looks garbled: its encoding was probably misread"
    assert rows(window.problems_panel.model) == {
        "bad.pdf": ("Not read", "not a valid PDF (corrupt or renamed file)"),
        "garbled.txt": ("Garbled, not compared", garbled),
        "cut.txt": ("Read, with a warning", "1 character could not be decoded (shown as �)"),
        "drawing.psd": ("Skipped", "not a document type SimSift reads (.psd)"),
    }
    assert window.tabs.tabText(1) == "Problems (4)"
    read = len(window.result.documents) + 1  # the garbled file was read, not compared
    assert f"Read {read} files · 1 not read · 2 with warnings · 1 skipped." in (
        window.summary.text()
    )
    shown = []
    monkeypatch.setattr(ExtractedTextDialog, "show", lambda self: shown.append(self))
    window.tabs.setCurrentWidget(window.problems_panel)
    window.problems_panel.view.selectRow(1)  # the garbled file: read, so its text can be seen
    window.show_extracted_text()
    assert garbled in shown[0].header.text()


def test_extracted_text_of_the_selected_document(qtbot, window, corpus, monkeypatch):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    shown = []
    monkeypatch.setattr(ExtractedTextDialog, "show", lambda self: shown.append(self))
    window.tree.expandAll()
    window.select_documents([doc_of(window, paths["edited"])])
    window.show_text_action.trigger()
    record = window.result.documents[doc_of(window, paths["edited"])]
    text = shown[0].text.toPlainText()
    assert record.paragraphs[0] in text and record.paragraphs[-1] in text
    assert str(paths["edited"]) in shown[0].header.text()


def test_a_document_in_no_pair_can_be_picked_and_shown(qtbot, window, corpus, monkeypatch):
    root, _ = corpus
    lonely = root / "lonely.txt"
    lonely.write_text("A document like no other, about glaciers and their slow retreat.")
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    doc = doc_of(window, lonely)
    assert doc not in set(window.model.clusters.doc.tolist())

    def pick(self):
        self.filter.setText("LONELY")  # the filter ignores case
        assert self.proxy.rowCount() == 1
        self.list.setCurrentIndex(self.proxy.index(0, 0))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(DocumentPicker, "exec", pick)
    shown = []
    monkeypatch.setattr(ExtractedTextDialog, "show", lambda self: shown.append(self))
    window.tree.clearSelection()
    window.show_extracted_text()
    assert "glaciers" in shown[0].text.toPlainText()


def test_extracted_text_dialog_shows_title_and_warning(qtbot):
    from simsift.core.document import FileRecord

    record = FileRecord(
        "/x/essay.txt", 10, 0, "ok", format="text", title="My summer",
        paragraphs=("First.", "Second."), warning="2 characters could not be decoded",
    )  # fmt: skip
    dialog = ExtractedTextDialog(record)
    qtbot.addWidget(dialog)
    assert dialog.text.toPlainText().split("\n") == ["My summer", "First.", "Second."]
    assert "Warning: 2 characters could not be decoded" in dialog.header.text()


def test_extracted_text_dialog_greys_quotations_and_the_bibliography(qtbot):
    from simsift.core.document import FileRecord

    from tests.core.test_quotations import REFERENCES

    quote = "“rivers carry silt to the <sea> every spring”"
    record = FileRecord(
        "/x/essay.txt", 10, 0, "ok", format="text",
        paragraphs=(f"She wrote {quote} and I agree.", "References", *REFERENCES),
    )  # fmt: skip
    dialog = ExtractedTextDialog(record)
    qtbot.addWidget(dialog)
    page = dialog._body_html(record)
    assert f"title='quotation'>{html.escape(quote)}</span> and I agree." in page
    assert page.count("title='bibliography'") == len(REFERENCES) + 1  # the heading too
    assert dialog.text.toPlainText().split("\n")[0] == f"She wrote {quote} and I agree."


def test_a_name_that_is_not_utf8_is_shown_readable_and_acted_on_exactly(
    qtbot, window, corpus, monkeypatch
):
    import os
    import shutil

    import simsift.app.main_window as main_window
    from simsift.app.models.clusters import COL_NAME

    root, paths = corpus
    odd = os.fsdecode(b"copy_\xff.txt")
    shutil.copy(paths["first"], root / odd)
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    window.tree.expandAll()
    doc = doc_of(window, root / odd)
    index = window.clusters_panel.proxy_index_of(doc)
    assert index.siblingAtColumn(COL_NAME).data() == "copy_\ufffd.txt"  # Qt would drop \xff
    opened = []
    monkeypatch.setattr(main_window.file_actions, "open_file", opened.append)
    window.select_documents([doc])
    window.open_selected()
    assert opened == [str(root / odd)] and os.path.exists(opened[0])


def test_a_damaged_catalog_replaced_at_start_up_is_told_in_the_window(qtbot, settings, tmp_path):
    from simsift.app.main_window import MainWindow
    from simsift.core.store.catalog import Catalog

    from tests.core.test_catalog import damage, filled_catalog

    path = tmp_path / "catalog.sqlite3"
    filled_catalog(path)
    damage(path, 4096, 8192)  # a page after the header, as the tester did
    with Catalog(path) as catalog:
        catalog.lookup_many([("/d/0001.txt", 1, 1)])  # the damage shows on first use
        assert catalog.recovery is not None
        window = MainWindow(settings, catalog, workers=0)
        qtbot.addWidget(window)
        assert window.statusBar().currentMessage() == catalog.recovery.message
        window.controller.shutdown()


def test_long_paths_and_titles_never_widen_the_window(qtbot, window, corpus):
    from simsift.core.document import FileRecord

    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    width = window.width()
    long = "/" + "/".join(["a folder with a very long name"] * 12)
    a = FileRecord(long + "/essay.txt", 10, 0, "ok", format="txt", title="T" * 400,
                   paragraphs=("Some text here.",))  # fmt: skip
    b = FileRecord(long + "/copy.txt", 10, 0, "ok", format="txt", title="U" * 400,
                   paragraphs=("Some text here.",))  # fmt: skip
    with qtbot.waitSignal(window.diff_view.alignment_ready, timeout=10_000):
        window.diff_view.set_pair(a, b)  # shown, then highlighted: neither may widen
    assert window.width() == width
    assert window.minimumSizeHint().width() < 1280


def test_enter_in_the_picker_opens_the_first_path_that_matches(qtbot, window, corpus, monkeypatch):
    """Ctrl+T with nothing selected: type part of a name, press Enter, the text shows."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    root, _ = corpus
    (root / "lonely.txt").write_text("A document like no other, about glaciers and their retreat.")
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    shown = []
    monkeypatch.setattr(ExtractedTextDialog, "show", lambda self: shown.append(self))
    window.tree.clearSelection()

    def type_and_press_enter():
        picker = QApplication.activeModalWidget()
        assert isinstance(picker, DocumentPicker)
        qtbot.keyClicks(picker.filter, "onel")
        assert picker.proxy.rowCount() == 1
        qtbot.keyClick(picker.filter, Qt.Key.Key_Return)

    QTimer.singleShot(0, type_and_press_enter)
    window.show_text_action.trigger()
    assert len(shown) == 1 and "glaciers" in shown[0].text.toPlainText()


def test_arrow_keys_in_the_picker_filter_move_the_highlight(qtbot):
    from simsift.core.document import FileRecord

    records = [FileRecord(f"/x/essay{i}.txt", 1, 0, "ok") for i in range(3)]
    picker = DocumentPicker(records)
    qtbot.addWidget(picker)
    assert picker.chosen() == 0  # Enter with nothing typed opens the first path
    qtbot.keyClick(picker.filter, Qt.Key.Key_Down)
    assert picker.chosen() == 1
    qtbot.keyClicks(picker.filter, "essay2")
    assert picker.chosen() == 2
    qtbot.keyClicks(picker.filter, "x")  # nothing matches: nothing to open
    assert picker.chosen() is None


def test_problems_count_the_archive_folders_files_apart(qtbot, window, tmp_path):
    """Files of an archive folder that could not be added are listed with the problems
    but are no files of the folders checked: the counts are `ScanResult.file_counts`'s,
    the archive's said apart, and they add up to the tab's title."""
    from dataclasses import replace

    from tests.app.test_archive_folders import write_years

    old, new = write_years(tmp_path / "essays")
    (new / "own.txt").write_text("An essay of my own about rivers and the sea.", "utf-8")
    (new / "bad.pdf").write_text("not a pdf")
    (old / "broken.docx").write_bytes(b"not a zip")
    (old / "damaged.docx").write_bytes(b"not a zip either")
    (old / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    window.folders.add_paths([str(new)])
    window.folders.add_paths([str(old)], archive=True)
    scan_and_wait(qtbot, window)

    counts = window.result.file_counts()
    assert (counts.not_read, counts.skipped, counts.archive_problems) == (1, 0, 3)
    panel = window.problems_panel
    assert panel.model.rowCount() == 4  # every problem listed, the archive's too
    tab = window.tabs.indexOf(panel)
    assert window.tabs.tabText(tab) == "Problems (4)"
    said = (
        f"Read {counts.read} files · 1 not read · 0 with warnings · 0 skipped. "
        "3 files in the archive folders could not be added to the archive."
    )
    assert window.tabs.tabToolTip(tab) == said
    assert said in window.summary.text()
    one = panel.counts_text(replace(counts, archive_problems=1))
    assert one.endswith(" 1 file in the archive folders could not be added to the archive.")
