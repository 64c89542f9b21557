"""Quotations and the bibliography read as what they are in the window: set apart (grey
italics, a legend, a tooltip) in the Documents tab's essay and in both panes of the
side-by-side view, not coloured as copying and not hidden; counted like any text when
the options count them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from simsift.app.diff.view import DiffView
from simsift.core.match.align import display_text
from simsift.core.text.quotations import BIBLIOGRAPHY, QUOTATION

from tests.app.conftest import scan_and_wait
from tests.app.test_diff_view import highlighted, record
from tests.core.test_essay_report import (
    CITED,
    COPIED_PARAGRAPH,
    HEADER,
    QUOTE,
    REFERENCES,
    write_class,
)


def char_format_at(document, position: int):
    cursor = QTextCursor(document)
    cursor.setPosition(position + 1)  # the format of the character before the cursor
    return cursor.charFormat()


def position_of(document, text: str) -> int:
    found = document.find(text)
    assert not found.isNull(), text
    return found.selectionStart()


def show_ben(qtbot, window, tmp_path):
    paths = write_class(tmp_path / "class")
    window.folders.add_paths([str(tmp_path / "class")])
    scan_and_wait(qtbot, window)
    docs = [d.path for d in window.result.documents]
    ben, ana = docs.index(str(paths["ben"])), docs.index(str(paths["ana"]))
    window.open_document(ben)
    assert window.documents_panel.selected_document == ben
    return ben, ana


def test_the_essay_shows_quotation_and_bibliography_set_apart(qtbot, window, tmp_path):
    show_ben(qtbot, window, tmp_path)
    document = window.documents_panel.text.document()
    for text, tip in (
        (QUOTE[10:60], "quoted, cited, also in ana.txt (not counted)"),
        (REFERENCES[1], "bibliography (not counted)"),
    ):
        fmt = char_format_at(document, position_of(document, text))
        assert fmt.fontItalic() and fmt.toolTip() == tip
        assert fmt.background().style() == Qt.BrushStyle.NoBrush  # not in a source's colour
    copied = char_format_at(document, position_of(document, "The base class for parser"))
    assert copied.background().color().name() == "#ffd8a8" and not copied.fontItalic()
    shown = window.documents_panel.text.toPlainText()
    legend = next(line for line in shown.splitlines() if line.startswith("In the text: "))
    assert "quoted (not counted) · bibliography (not counted)" in legend


def test_the_legend_reads_in_chinese(qtbot, window, tmp_path):
    show_ben(qtbot, window, tmp_path)
    panel = window.documents_panel
    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: "正文中：" in panel.text.toPlainText(), timeout=2000)
        shown = panel.text.toPlainText()
        assert "引文（不计入）" in shown and "参考文献（不计入）" in shown
        assert "常见文本，出现在 7 篇文档中（不计入）" in shown
    finally:
        window.set_language("en")


def test_counted_quotations_are_coloured_as_copying(qtbot, window, tmp_path):
    window.params.set_count_quotations(True)
    window.params.set_count_bibliography(True)
    show_ben(qtbot, window, tmp_path)
    document = window.documents_panel.text.document()
    fmt = char_format_at(document, position_of(document, QUOTE[10:60]))
    assert not fmt.fontItalic() and fmt.background().color().name() == "#ffd8a8"
    assert "quoted (not counted)" not in window.documents_panel.text.toPlainText()


def test_both_panes_set_apart_quotations_and_the_bibliography(qtbot):
    view = DiffView()
    qtbot.addWidget(view)
    ana = ["Intro of the source.", QUOTE, COPIED_PARAGRAPH, *REFERENCES]
    ben = ["Ben's own opening words here.", CITED, COPIED_PARAGRAPH, *REFERENCES]
    for set_apart in ((QUOTATION, BIBLIOGRAPHY), ()):
        with qtbot.waitSignal(view.alignment_ready, timeout=10_000):
            view.set_pair(record("/a/ben.txt", ben), record("/b/ana.txt", ana), set_apart=set_apart)
        left = view.left_editor.document()
        text = display_text(ben)
        quoted = char_format_at(left, text.index(QUOTE[10:60]))
        listed = char_format_at(left, text.index(REFERENCES[2]))
        assert quoted.fontItalic() == listed.fontItalic() == bool(set_apart)
        # the source's own text, quoted on the left, stays a matched sentence on the right
        right_runs = [display_text(ana)[a:b] for a, b, _ in highlighted(view.right_editor)]
        assert any(QUOTE[10:60] in run for run in right_runs)
        legend = view.legend_label.text()
        if set_apart:  # no sentence colour under set-apart text
            starts = [a for a, _, _ in highlighted(view.left_editor)]
            assert text.index(QUOTE) not in starts
            assert "quoted or bibliography (not counted)" in legend
            assert "font-style: italic" in legend
        else:
            assert "not counted" not in legend


def test_the_window_compares_with_quotations_set_apart(qtbot, window, tmp_path):
    ben, ana = show_ben(qtbot, window, tmp_path)
    with qtbot.waitSignal(window.diff_view.alignment_ready, timeout=10_000):
        window.compare(ben, ana)
    left = window.diff_view.left_editor.document()
    text = display_text(window.result.documents[ben].paragraphs)
    assert char_format_at(left, text.index(QUOTE[10:60])).fontItalic()
    # the course's header line, in every essay, is common text: greyed, never a copied sentence
    header = char_format_at(left, text.index(HEADER[5:40]))
    assert header.fontItalic() and header.background().style() == Qt.BrushStyle.NoBrush
    assert "template or common text (not counted)" in window.diff_view.legend_label.text()


def test_the_saved_pdf_is_readable_and_keeps_the_quotation_in_italics(qtbot, window, tmp_path):
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTChar, LTTextBox

    show_ben(qtbot, window, tmp_path)
    path = tmp_path / "ben.pdf"
    window.documents_panel.save_report(str(path))
    chars = {}  # a line's text -> its characters
    for page in extract_pages(str(path)):
        for box in page:
            if isinstance(box, LTTextBox):
                for line in box:
                    text = line.get_text().replace("\t", " ")  # Qt's spaces read as tabs
                    chars[text] = [c for c in line if isinstance(c, LTChar)]
    own = next(c for text, c in chars.items() if "Heaps are arrays" in text)
    assert min(c.size for c in own) >= 9  # body text at screen size, not a third of a mm
    quoted = next(c for text, c in chars.items() if "ArgumentParser" in text)
    assert any("Oblique" in c.fontname or "Italic" in c.fontname for c in quoted)
