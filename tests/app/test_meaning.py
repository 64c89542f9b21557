"""Copying whose words did not survive, in the window: a class folder with an English
passage paraphrased and another translated into Chinese (`helpers.meaning_corpus`).
The check boxes switch each kind, the Documents and Partial copies tabs name the kinds,
the side-by-side view highlights each fragment on both sides and links them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from simsift.app.diff.meaning import PARAPHRASED, TRANSLATED
from simsift.app.diff.view import DiffView
from simsift.app.main_window import MainWindow
from simsift.app.models.documents import (
    COL_INDEX,
    COL_LARGEST,
    COL_LARGEST_SHARE,
    COL_NAME,
    COL_PARAPHRASED,
    COL_SOURCES,
    COL_TRANSLATED,
)
from simsift.app.models.partial import COL_CONTAINMENT_AB, COL_KIND
from simsift.app.models.partial import COL_NAME_A as PAIR_NAME_A
from simsift.app.models.partial import COL_NAME_B as PAIR_NAME_B
from simsift.app.models.roles import DocRole
from simsift.app.settings import Settings

from tests.app.conftest import scan_and_wait
from tests.app.helpers.meaning_corpus import CANAL, CANAL_TRANSLATED, write_meaning_corpus

TOOLTIP = Qt.ItemDataRole.ToolTipRole


@pytest.fixture
def scanned(qtbot, window, tmp_path) -> MainWindow:
    write_meaning_corpus(tmp_path / "class")
    window.params._paraphrase.setChecked(True)  # off by default: a teacher turns it on
    window.folders.add_paths([str(tmp_path / "class")])
    window.resize(1400, 900)
    scan_and_wait(qtbot, window)
    return window


def doc_of(window: MainWindow, name: str) -> int:
    return next(i for i, d in enumerate(window.result.documents) if Path(d.path).name == name)


def documents_rows(window: MainWindow) -> dict[str, int]:
    """Name -> row of the Documents tab's table as shown."""
    proxy = window.documents_panel.proxy
    return {proxy.index(r, COL_NAME).data(): r for r in range(proxy.rowCount())}


def cell(window: MainWindow, name: str, column: int, role=Qt.ItemDataRole.DisplayRole):
    proxy = window.documents_panel.proxy
    return proxy.index(documents_rows(window)[name], column).data(role)


def partial_kinds(window: MainWindow) -> dict[frozenset[str], str]:
    """Each listed pair (its two names) -> its Kind cell."""
    proxy = window.partial_panel.proxy
    return {
        frozenset(
            (proxy.index(r, PAIR_NAME_A).data(), proxy.index(r, PAIR_NAME_B).data())
        ): proxy.index(r, COL_KIND).data()
        for r in range(proxy.rowCount())
    }


def recompare(qtbot, window: MainWindow, box) -> None:
    """Click a check box of What counts as copying and wait for the re-comparison."""
    with qtbot.waitSignal(window.result_shown, timeout=30_000):
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().bottomLeft() / 2)


def test_the_check_boxes_are_the_engines_defaults_and_say_what_they_find(window):
    params = window.params
    assert not params.paraphrase() and params.translation()
    assert params._paraphrase.text() == "Paraphrased passages"
    assert params._translation.text() == "Translated passages (Chinese ↔ English)"
    for box in (params._paraphrase, params._translation):
        assert "evidence for a person to read, not proof" in box.toolTip()
    passages = window.scan_options().passages
    assert not passages.paraphrase and passages.translation


def test_the_documents_tab_shows_each_kind_with_its_sources(scanned):
    window = scanned
    rows = documents_rows(window)
    # found by meaning only: listed with their sources; eve.txt shares a paragraph word
    # for word with fay.txt and paraphrases another
    assert set(rows) == {"ana.txt", "ben.txt", "chen.txt", "dan.txt", "eve.txt", "fay.txt"}
    table = window.documents_panel.table
    assert not table.isColumnHidden(COL_PARAPHRASED) and not table.isColumnHidden(COL_TRANSLATED)
    assert cell(window, "ben.txt", COL_INDEX) == "0%"
    assert int(cell(window, "ben.txt", COL_PARAPHRASED).rstrip("%")) >= 30
    assert cell(window, "ben.txt", COL_TRANSLATED) == ""
    assert int(cell(window, "chen.txt", COL_TRANSLATED).rstrip("%")) >= 30
    assert cell(window, "chen.txt", COL_SOURCES) == "1"
    assert cell(window, "chen.txt", COL_LARGEST) == "dan.txt"
    share = cell(window, "chen.txt", COL_LARGEST_SHARE)
    assert share == cell(window, "chen.txt", COL_TRANSLATED)  # its only source
    assert f"{share} translated from dan.txt" in cell(window, "chen.txt", COL_LARGEST, TOOLTIP)
    sources = cell(window, "chen.txt", COL_SOURCES, TOOLTIP)
    assert "% translated from dan.txt" in sources
    # a source copied both ways names both kinds; the index keeps the verbatim share
    sources = cell(window, "eve.txt", COL_SOURCES, TOOLTIP)
    assert "% verbatim, " in sources and "% paraphrased from fay.txt" in sources
    breakdown = cell(window, "eve.txt", COL_INDEX, TOOLTIP)
    index = cell(window, "eve.txt", COL_INDEX)
    assert f"{index} verbatim, " in breakdown and "% paraphrased (" in breakdown
    assert "% in all)" in breakdown


def test_the_shares_sort_as_numbers(scanned):
    window = scanned
    similarity = window.documents_panel.model.similarity
    for column, shares in ((COL_PARAPHRASED, similarity.paraphrased), (COL_TRANSLATED,
                           similarity.translated)):  # fmt: skip
        window.documents_panel.table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
        proxy = window.documents_panel.proxy
        shown = [shares[proxy.index(r, 0).data(DocRole)] for r in range(proxy.rowCount())]
        assert shown == sorted(shown, reverse=True) and shown[0] > 0


def test_the_check_boxes_switch_each_layer(qtbot, scanned):
    window = scanned
    params = window.params
    recompare(qtbot, window, params._paraphrase)
    assert not window.result.options.passages.paraphrase
    assert window.controller.reweights_started == 1 and window.controller.scans_started == 1
    assert set(documents_rows(window)) == {"chen.txt", "dan.txt", "eve.txt", "fay.txt"}
    assert window.documents_panel.table.isColumnHidden(COL_PARAPHRASED)
    assert cell(window, "eve.txt", COL_INDEX, TOOLTIP) is None  # verbatim only now
    assert partial_kinds(window)[frozenset(("eve.txt", "fay.txt"))] == "verbatim"
    recompare(qtbot, window, params._translation)
    assert set(documents_rows(window)) == {"eve.txt", "fay.txt"}
    assert window.documents_panel.table.isColumnHidden(COL_TRANSLATED)
    recompare(qtbot, window, params._paraphrase)
    assert set(documents_rows(window)) == {"ana.txt", "ben.txt", "eve.txt", "fay.txt"}
    assert window.scan_options().passages.paraphrase
    assert not window.scan_options().passages.translation


def test_the_partial_copies_name_the_kind(scanned):
    window = scanned
    kinds = partial_kinds(window)
    assert kinds[frozenset(("ana.txt", "ben.txt"))] == "paraphrased"
    assert kinds[frozenset(("chen.txt", "dan.txt"))] == "translated"
    assert kinds[frozenset(("eve.txt", "fay.txt"))] == "verbatim, paraphrased too"
    proxy = window.partial_panel.proxy
    row = next(
        r for r in range(proxy.rowCount()) if proxy.index(r, COL_KIND).data() == "translated"
    )
    assert int(proxy.index(row, COL_CONTAINMENT_AB).data().rstrip(" %")) >= 30  # by meaning
    assert "evidence to read side by side, not proof" in proxy.index(row, COL_KIND).data(TOOLTIP)


def fragment_colours(view: DiffView, editor, start: int, end: int) -> set[str]:
    """Background colours of the characters [start, end) of a pane."""
    colours = set()
    block = editor.document().findBlock(start)
    while block.isValid() and block.position() < end:
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            a, b = fragment.position(), fragment.position() + fragment.length()
            if a < end and b > start:
                colours.add(fragment.charFormat().background().color().name())
            it += 1
        block = block.next()
    return colours


def test_the_compare_view_highlights_and_links_a_translated_passage(qtbot, scanned):
    window = scanned
    chen, dan = doc_of(window, "chen.txt"), doc_of(window, "dan.txt")
    view = window.diff_view
    with qtbot.waitSignal(view.alignment_ready, timeout=10_000):
        window.compare(dan, chen)
    [fragment] = view.fragments
    assert fragment.kind == TRANSLATED
    left_text = view.left_editor.toPlainText()
    right_text = view.right_editor.toPlainText()
    # the spans are each side's own: the English passage left, its translation right
    assert left_text[slice(*fragment.left)] in CANAL
    assert right_text[slice(*fragment.right)] in CANAL_TRANSLATED
    assert len(right_text[slice(*fragment.right)]) > 40
    translated = view._formats()[TRANSLATED].background().color().name()
    assert translated != view._formats()[PARAPHRASED].background().color().name()
    assert fragment_colours(view, view.left_editor, *fragment.left) == {translated}
    assert fragment_colours(view, view.right_editor, *fragment.right) == {translated}
    assert "translated passage" in view.legend_label.text()
    assert "paraphrased passage" not in view.legend_label.text()
    assert "Found by meaning: 1 translated passage." in view.summary_label.text()
    by_meaning = re.search(r"By meaning: A in B (\d+)% · B in A (\d+)%", view.summary_label.text())
    assert by_meaning and int(by_meaning[1]) > 20 and int(by_meaning[2]) > 20
    # Next match selects the fragment in both panes and names its kind
    assert not view.meaning_label.isVisibleTo(view)
    view.next_match()
    assert view.selected_fragment == fragment
    assert view.left_editor.textCursor().selectedText() == left_text[slice(*fragment.left)]
    assert view.right_editor.textCursor().selectedText() == right_text[slice(*fragment.right)]
    assert view.meaning_label.isVisibleTo(view)
    assert view.meaning_label.text().startswith("Translated passage")
    assert "Evidence to read, not proof" in view.meaning_label.text()


def test_clicking_a_fragment_selects_its_other_side(qtbot, scanned):
    window = scanned
    ana, ben = doc_of(window, "ana.txt"), doc_of(window, "ben.txt")
    view = window.diff_view
    with qtbot.waitSignal(view.alignment_ready, timeout=10_000):
        window.compare(ana, ben)
    [fragment] = view.fragments
    assert fragment.kind == PARAPHRASED
    editor = view.right_editor
    cursor = editor.textCursor()
    cursor.setPosition((fragment.right[0] + fragment.right[1]) // 2)
    editor.setTextCursor(cursor)
    editor.ensureCursorVisible()
    point = editor.cursorRect(cursor).center()
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton, pos=point)
    qtbot.waitUntil(lambda: view.selected_fragment == fragment, timeout=2000)
    left_text = view.left_editor.toPlainText()
    assert view.left_editor.textCursor().selectedText() == left_text[slice(*fragment.left)]
    assert view.meaning_label.text().startswith("Paraphrased passage")


def test_the_choices_are_remembered(qtbot, window, settings, catalog):
    window.params._paraphrase.setChecked(True)
    window.params._translation.setChecked(False)
    window.save_settings()
    again = Settings(QSettings(settings._store.fileName(), QSettings.Format.IniFormat))
    assert again.paraphrase and not again.translation
    reopened = MainWindow(again, catalog, workers=0)
    qtbot.addWidget(reopened)
    assert reopened.params.paraphrase() and not reopened.params.translation()
    assert not reopened.scan_options().passages.translation
    reopened.controller.shutdown()
