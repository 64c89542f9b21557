"""The teacher's verdicts in the window: recorded on a pair or a document, shown in the
tables and the report, remembered across scans, exported."""

from __future__ import annotations

import csv

from PySide6.QtWidgets import QDialog, QFileDialog
from simsift.app.dialogs.verdict import VerdictDialog
from simsift.app.models.documents import COL_VERDICT as DOC_VERDICT
from simsift.app.models.partial import COL_FOLDER_A, COL_VERDICT
from simsift.core.store.verdicts import COPYING, NOT_COPYING, Verdict

from tests.app.conftest import scan_and_wait
from tests.app.test_documents_tab import scan_collage
from tests.core.corpus import write_partial_copy


def answer(monkeypatch, verdict: Verdict | None) -> list:
    """Make the verdict dialog answer `verdict`; returns what it was opened with."""
    opened = []

    def exec_(dialog):
        opened.append(dialog)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(VerdictDialog, "exec", exec_)
    monkeypatch.setattr(VerdictDialog, "verdict", lambda dialog: verdict)
    return opened


def test_a_pair_verdict_is_shown_remembered_and_exported(
    qtbot, window, tmp_path, catalog, monkeypatch
):
    path_a, path_b = write_partial_copy(tmp_path / "class" / "2026")
    window.folders.add_paths([str(tmp_path / "class")])
    scan_and_wait(qtbot, window)
    window.tabs.setCurrentWidget(window.partial_panel)
    window.partial_panel.view.selectRow(0)
    assert window.verdict_action.isEnabled()
    opened = answer(monkeypatch, Verdict(COPYING, "same three paragraphs"))
    window.verdict_action.trigger()
    assert len(opened) == 1
    proxy = window.partial_panel.proxy
    assert proxy.index(0, COL_VERDICT).data() == "copying confirmed: same three paragraphs"
    assert proxy.index(0, COL_FOLDER_A).data() == "class/2026"  # relative to the scanned folder
    assert catalog.verdicts().of_pair(str(path_a), str(path_b)).verdict == COPYING

    scan_and_wait(qtbot, window)  # a new scan shows it again
    assert window.partial_panel.proxy.index(0, COL_VERDICT).data().startswith("copying confirmed")
    out = tmp_path / "export"
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(out))
    window.export_csv_action.trigger()
    qtbot.waitUntil(lambda: not window.editor.busy, timeout=20_000)
    with open(out / "pairs.csv", encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["verdict"]]
    assert [(r["verdict"], r["note"]) for r in rows] == [
        ("copying confirmed", "same three paragraphs")
    ]


def test_a_document_verdict_shows_in_its_report_and_can_be_withdrawn(
    qtbot, window, tmp_path, catalog, monkeypatch
):
    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    window.tabs.setCurrentWidget(panel)
    panel.table.selectRow(0)
    answer(monkeypatch, Verdict(NOT_COPYING, "quotes with references"))
    window.verdict_action.trigger()
    assert panel.proxy.index(0, DOC_VERDICT).data() == "not copying: quotes with references"
    assert "Verdict: not copying" in panel.text.toPlainText()
    panel.save_report(str(tmp_path / "essay.html"))
    assert "quotes with references" in (tmp_path / "essay.html").read_text("utf-8")

    answer(monkeypatch, None)  # "No verdict"
    window.verdict_action.trigger()
    assert panel.proxy.index(0, DOC_VERDICT).data() is None
    assert len(catalog.verdicts()) == 0


def test_the_dialog_starts_from_the_current_verdict(qtbot):
    dialog = VerdictDialog("a.txt ↔ b.txt", Verdict(NOT_COPYING, "cited"))
    qtbot.addWidget(dialog)
    assert dialog.not_copying.isChecked() and dialog.note.text() == "cited"
    dialog.copying.setChecked(True)
    dialog.note.setText("  the same odd mistakes  ")
    assert dialog.verdict().verdict == COPYING
    assert dialog.verdict().note == "the same odd mistakes"
    dialog.none.setChecked(True)
    assert dialog.verdict() is None


def test_partial_copies_can_be_filtered(qtbot, window, tmp_path):
    write_partial_copy(tmp_path / "class" / "a")
    write_partial_copy(tmp_path / "class" / "b")
    window.folders.add_paths([str(tmp_path / "class")])
    scan_and_wait(qtbot, window)
    total = window.partial_panel.proxy.rowCount()
    assert total >= 2
    window.partial_panel.filter.setText("class/a")
    shown = window.partial_panel.proxy.rowCount()
    assert 0 < shown < total
    window.partial_panel.filter.clear()
    assert window.partial_panel.proxy.rowCount() == total


def test_a_verdict_cell_is_cut_at_its_end_so_the_verdict_stays_readable(qtbot, window):
    """Names are cut in the middle (both ends tell files apart); a verdict with its note
    is cut at the end: "copying confirmed: sha…", never "copy…dent"."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QStyleOptionViewItem

    for view, column in (
        (window.partial_panel.view, COL_VERDICT),
        (window.documents_panel.table, DOC_VERDICT),
    ):
        assert view.textElideMode() == Qt.TextElideMode.ElideMiddle  # the names
        option = QStyleOptionViewItem()
        view.itemDelegateForColumn(column).initStyleOption(option, view.model().index(0, column))
        assert option.textElideMode == Qt.TextElideMode.ElideRight
