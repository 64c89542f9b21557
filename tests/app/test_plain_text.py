"""A user's strings are shown as they are spelled: names, titles and document text are
never markup (Qt shows a tooltip or label as rich text when it merely looks like HTML), and
direction controls in a name are shown, not obeyed ("rtl\u202egnp.txt" is no picture)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import Qt as QtGui_Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QGraphicsItem, QLabel
from simsift.app.models.documents import COL_FLAGS, COL_NAME, COL_SOURCES
from simsift.app.readable import NAMES, plain, plain_label, readable
from simsift.core.report.visible import visible_controls

from tests.app.conftest import scan_and_wait
from tests.core.corpus import prose_paragraphs, write_partial_copy

# "/" cannot be part of a file name, so the file's name leaves out the closing tags; the
# helpers are checked with the whole string below
MARKUP = '<b>bold</b><a href="x">link</a>'
ODD = '<b>bold<i>x<a href="x">link.txt'
SPOOF = "rtl\u202egnp.txt"
HEADLINE = "<b>Headline</b>"


def shown(text: str) -> str:
    """What Qt shows for a tooltip (or an auto-format label): rich text rendered when it
    looks like HTML, the string itself otherwise."""
    if not QtGui_Qt.mightBeRichText(text):
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def test_plain_makes_any_string_show_literally(qtbot):
    for text in (MARKUP, HEADLINE, "a & b <i>", "two\nlines", "plain.txt", "&amp; <br>"):
        tip = plain(text)
        assert QtGui_Qt.mightBeRichText(tip)
        assert shown(tip) == text
        assert "<b>" not in tip and "<a " not in tip
    assert plain("") == ""
    label = plain_label(QLabel(), MARKUP)
    assert label.textFormat() == Qt.TextFormat.PlainText and label.text() == MARKUP


def test_direction_and_invisible_controls_are_shown_as_markers():
    assert readable(SPOOF) == "rtl⟨U+202E⟩gnp.txt"
    assert NAMES.name(f"/class/{SPOOF}") == "rtl⟨U+202E⟩gnp.txt"
    controls = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u200b\u200d"
    assert "⟨U+" in visible_controls(controls)
    assert all(c not in visible_controls(controls) for c in controls)
    assert visible_controls("名字 é.txt") == "名字 é.txt"  # ordinary letters are left alone


def scan_odd_names(qtbot, window, tmp_path):
    """A partial copy named with markup, its text starting with markup; an exact copy of
    the source named with a right-to-left override."""
    root = tmp_path / "class"
    essay, source = write_partial_copy(root)
    essay.write_text(f"{HEADLINE}\n\n" + essay.read_text("utf-8"), "utf-8")
    essay.rename(root / ODD)
    (root / SPOOF).write_text(source.read_text("utf-8"), "utf-8")
    (root / "unrelated.txt").write_text("\n\n".join(prose_paragraphs("csv")[:8]), "utf-8")
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)


def model_texts(model, role) -> list[str]:
    """Every non-empty string `model` gives for `role`, trees included."""
    found, parents = [], [QModelIndex()]
    while parents:
        parent = parents.pop()
        for row in range(model.rowCount(parent)):
            for column in range(model.columnCount(parent)):
                index = model.index(row, column, parent)
                value = index.data(role)
                if isinstance(value, str) and value:
                    found.append(value)
            first = model.index(row, 0, parent)
            if model.rowCount(first) > 0:
                parents.append(first)
    return found


def test_names_and_text_with_markup_show_literally_everywhere(qtbot, window, tmp_path):
    scan_odd_names(qtbot, window, tmp_path)
    models = {
        "clusters": window.model,
        "partial": window.partial_panel.model,
        "documents": window.documents_panel.model,
        "problems": window.problems_panel.model,
        "common": window.common_panel.model,
    }
    tips = {name: model_texts(m, Qt.ItemDataRole.ToolTipRole) for name, m in models.items()}
    for name, found in tips.items():
        for tip in found:  # rich text only as `plain` makes it: escaped inside <qt>
            assert not QtGui_Qt.mightBeRichText(tip) or tip.startswith("<qt>"), (name, tip)
            assert "\u202e" not in tip
    for name in ("partial", "documents"):
        assert any(shown(tip).endswith(ODD) for tip in tips[name]), name
    assert any(shown(tip).endswith("rtl⟨U+202E⟩gnp.txt") for tip in tips["clusters"])
    for model in models.values():
        assert not any("\u202e" in text for text in model_texts(model, Qt.ItemDataRole.DisplayRole))

    # the Documents tab's report: name and text as written
    panel = window.documents_panel
    row = next(r for r in range(panel.proxy.rowCount()) if panel.proxy.index(r, 0).data() == ODD)
    panel.table.selectRow(row)
    assert panel.text.toPlainText().splitlines()[0] == ODD  # the heading, not bold or a link
    assert HEADLINE in panel.text.toPlainText()

    # the overview: the top list's tooltips, the drawing's, the headline naming the top one
    overview = window.overview_panel
    for r in range(overview.top_table.rowCount()):
        tip = overview.top_table.item(r, 0).toolTip()
        assert tip.startswith("<qt>") and "\u202e" not in shown(tip)
    items: list[QGraphicsItem] = overview.graph.scene().items()
    graph_tips = [item.toolTip() for item in items if item.toolTip()]
    assert graph_tips and all(tip.startswith("<qt>") for tip in graph_tips)
    assert any(ODD in shown(tip) for tip in graph_tips)
    for label in (overview.headline, window.clusters_panel.summary):
        assert label.textFormat() == Qt.TextFormat.PlainText

    # side by side: both names in plain labels, tooltips escaped
    essay = panel.selected_document
    source = panel.model.similarity.sources(essay)[0].doc
    panel.compare_requested.emit(essay, source)
    left = window.diff_view._left
    assert left.name.textFormat() == Qt.TextFormat.PlainText
    names = {window.diff_view._left.name.text(), window.diff_view._right.name.text()}
    assert ODD in names
    assert shown(left.name.toolTip()).endswith(left.name.text())


FLAG = "hidden text: 212 words the file does not show, in 3 places, e.g. “<b>Hidden</b>”"


def test_flags_have_a_column_a_tooltip_and_a_place_in_the_report(qtbot, window, tmp_path):
    scan_odd_names(qtbot, window, tmp_path)
    result = window.result
    panel = window.documents_panel
    listed = {panel.model.index(r, 0).data() for r in range(panel.model.rowCount())}
    alone = next(
        i for i, d in enumerate(result.documents) if NAMES.name(d.path) not in listed
    )  # a document found nowhere else
    flagged_docs = {alone: (FLAG, "look-alike letters: 40 Cyrillic letters")}
    documents = tuple(
        replace(d, flags=flagged_docs.get(i, ())) for i, d in enumerate(result.documents)
    )
    panel.set_result(replace(result, documents=documents))
    model, proxy = panel.model, panel.proxy
    assert model.headerData(COL_FLAGS, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
    assert model.rowCount() == len(listed) + 1  # flagged: listed although found nowhere
    proxy.sort(COL_FLAGS, Qt.SortOrder.DescendingOrder)
    top = proxy.index(0, COL_FLAGS)
    assert top.data() == "⚠ 2"
    assert proxy.index(0, COL_SOURCES).data() == "0"
    assert proxy.index(0, COL_NAME).data() == NAMES.name(result.documents[alone].path)
    tip = top.data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("<qt>") and FLAG in shown(tip) and "look-alike letters" in shown(tip)
    assert proxy.index(1, COL_FLAGS).data() is None  # no flags: an empty cell
    panel.table.selectRow(0)
    report = panel.text.toPlainText()
    assert "Integrity flags (2)" in report and FLAG in report


def test_extracted_text_dialog_lists_the_flags_as_text(qtbot):
    from simsift.app.dialogs.text import ExtractedTextDialog
    from simsift.core.document import FileRecord

    record = FileRecord(f"/class/{ODD}", 1, 0, "ok", title=HEADLINE, paragraphs=("x",))
    dialog = ExtractedTextDialog(replace(record, flags=(FLAG,)))
    qtbot.addWidget(dialog)
    header = shown(dialog.header.text())
    assert f"/class/{ODD}" in header and f"Integrity flag: {FLAG}" in header
    assert dialog.text.toPlainText().startswith(HEADLINE)


def test_the_flags_column_stands_beside_the_similarity_index(qtbot):
    from simsift.app.models.documents import COL_INDEX, COL_PARAPHRASED, COL_TRANSLATED
    from simsift.app.panels.documents import DocumentsPanel

    panel = DocumentsPanel()
    qtbot.addWidget(panel)
    header = panel.table.horizontalHeader()
    # the index, the shares by meaning beside it, then the flags, before the sources
    columns = (COL_INDEX, COL_PARAPHRASED, COL_TRANSLATED, COL_FLAGS, COL_SOURCES)
    assert [header.visualIndex(c) for c in columns] == list(range(2, 7))
