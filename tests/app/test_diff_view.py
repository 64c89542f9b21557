"""DiffView driven offscreen: texts, highlighted ranges, word marks, legend, navigation,
scrolling, summary."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPalette, QTextCursor
from simsift.app.diff.view import DiffView
from simsift.app.workers.jobs import running_jobs
from simsift.core.document import FileRecord
from simsift.core.match.align import CHANGED, DELETED, INSERTED, SAME, display_text, sentence_bounds
from simsift.core.match.evidence import PairEvidence, TermRarity
from simsift.core.text.tokens import document_tokens

from tests.core.corpus import long_texts


def paragraphs_of(*modules: str) -> list[str]:
    """Prose paragraphs (15+ words) of Python's module documentation, whitespace collapsed."""
    out = []
    for name in modules:
        for block in re.split(r"\n\s*\n", long_texts()[name]):
            paragraph = " ".join(block.split())
            if len(paragraph.split()) >= 15:
                out.append(paragraph)
    return out


def record(path: str, paragraphs: list[str], title: str = "") -> FileRecord:
    return FileRecord(
        path, 100, 0, "ok", format="txt", title=title, paragraphs=tuple(paragraphs),
        tokens=document_tokens(title, paragraphs),
    )  # fmt: skip


def highlighted(editor) -> list[tuple[int, int, str]]:
    """(start, end, colour name) of runs of characters with a background, from the document."""
    runs: list[tuple[int, int, str]] = []
    block = editor.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.background().style() != Qt.BrushStyle.NoBrush:
                start, end = fragment.position(), fragment.position() + fragment.length()
                colour = fmt.background().color().name()
                if runs and runs[-1][2] == colour and runs[-1][1] >= start - 2:
                    runs[-1] = (runs[-1][0], end, colour)  # joined across a paragraph break
                else:
                    runs.append((start, end, colour))
            it += 1
        block = block.next()
    return runs


def selected(editor) -> str:
    return editor.textCursor().selectedText().replace("\u2029", "\n")


@pytest.fixture
def view(qtbot):
    widget = DiffView()
    qtbot.addWidget(widget)
    widget.resize(1200, 500)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


@pytest.fixture
def copied_pair():
    """A source of 10 paragraphs and a copy holding 3 of them among other text."""
    source = paragraphs_of("argparse", "json")[:10]
    filler = paragraphs_of("unittest", "subprocess", "heapq")
    copy = [*filler[:3], source[2], filler[3], source[5], source[6], filler[4]]
    return source, copy


def measures(distance):
    return PairEvidence(distance, 0.3, 0.25, 2, 120)


def show_pair(view, qtbot, left, right, evidence=None, rarity=None):
    with qtbot.waitSignal(view.alignment_ready, timeout=10_000):
        view.set_pair(
            record("/docs/a/source.txt", left, "Source"),
            record("/docs/b/copy.txt", right),
            evidence,
            rarity,
        )


def test_set_pair_shows_texts_headers_and_same_ranges(view, qtbot, copied_pair):
    source, copy = copied_pair
    show_pair(view, qtbot, source, copy)
    assert view.left_editor.toPlainText() == display_text(source)
    assert view.right_editor.toPlainText() == display_text(copy)
    assert view._left.name.text() == "source.txt"
    assert view._left.details.text() == "/docs/a · TXT · Source"
    assert view._right.details.text() == "/docs/b · TXT"

    left_runs = highlighted(view.left_editor)
    right_runs = highlighted(view.right_editor)
    assert len({colour for *_, colour in left_runs}) == 1  # nothing "changed" here
    text_left, text_right = view.left_editor.toPlainText(), view.right_editor.toPlainText()
    assert [text_left[a:b] for a, b, _ in left_runs] == [source[2], display_text(source[5:7])]
    assert [text_right[a:b] for a, b, _ in right_runs] == [source[2], display_text(source[5:7])]


def test_changed_sentence_has_its_own_colour(view, qtbot):
    left = ["The quick brown fox jumps over the lazy dog near the river bank. It was sunny today."]
    right = ["The quick brown fox leaps over the lazy dog near the old river bank. It rained."]
    show_pair(view, qtbot, left, right)
    for editor, paragraphs in ((view.left_editor, left), (view.right_editor, right)):
        runs = highlighted(editor)
        # The sentence is highlighted from end to end (its edited words in their own colour).
        assert (runs[0][0], runs[-1][1]) == sentence_bounds(paragraphs)[0]
        assert all(a == b for (_, a, _), (b, _, _) in pairwise(runs))
    same_colour = _same_colour(view, qtbot)
    assert highlighted(view.left_editor)[0][2] == same_colour
    show_pair(view, qtbot, left, right)
    assert highlighted(view.left_editor)[0][2] != same_colour


def _same_colour(view, qtbot) -> str:
    show_pair(view, qtbot, ["Identical sentence here."], ["Identical sentence here."])
    return highlighted(view.left_editor)[0][2]


def test_highlights_follow_dark_palette(view, qtbot, copied_pair):
    show_pair(view, qtbot, *copied_pair)
    light = highlighted(view.left_editor)[0][2]
    palette = view.palette()
    palette.setColor(QPalette.ColorRole.Base, QColor("#1e1e1e"))
    palette.setColor(QPalette.ColorRole.Text, QColor("#e0e0e0"))
    view.setPalette(palette)
    dark = highlighted(view.left_editor)[0][2]
    assert dark != light
    assert QColor(dark).lightness() < 110  # light text stays readable on it
    assert QColor(light).lightness() > 150


def test_next_and_previous_match_select_both_sides(view, qtbot, copied_pair):
    source, copy = copied_pair
    show_pair(view, qtbot, source, copy)
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    assert selected(view.left_editor) == selected(view.right_editor) == source[2]
    view.left_editor.setFocus()
    qtbot.keyClick(view.left_editor, Qt.Key.Key_F7)
    assert selected(view.left_editor) == selected(view.right_editor) == display_text(source[5:7])
    qtbot.keyClick(view.left_editor, Qt.Key.Key_F7)  # no further match: selection stays
    assert selected(view.right_editor) == display_text(source[5:7])
    qtbot.keyClick(view.left_editor, Qt.Key.Key_F7, Qt.KeyboardModifier.ShiftModifier)
    assert selected(view.left_editor) == selected(view.right_editor) == source[2]
    qtbot.mouseClick(view.previous_button, Qt.MouseButton.LeftButton)
    assert selected(view.left_editor) == source[2]


def test_next_match_reaches_a_match_at_the_very_start(view, qtbot):
    left = ["The same opening sentence of both texts. A different ending here."]
    right = ["The same opening sentence of both texts. Nothing alike afterwards at all."]
    show_pair(view, qtbot, left, right)
    view.next_match()
    assert selected(view.left_editor) == selected(view.right_editor) == sentence_bounds_text(left)
    view.next_match()  # the only match: the selection stays
    assert selected(view.left_editor) == sentence_bounds_text(left)


def sentence_bounds_text(paragraphs: list[str]) -> str:
    start, end = sentence_bounds(paragraphs)[0]
    return display_text(paragraphs)[start:end]


def test_navigation_starts_from_the_cursor(view, qtbot, copied_pair):
    source, copy = copied_pair
    show_pair(view, qtbot, source, copy)
    cursor = view.left_editor.textCursor()
    cursor.setPosition(len(display_text(source[:4])))
    view.left_editor.setTextCursor(cursor)
    view.next_match()
    assert selected(view.right_editor) == display_text(source[5:7])


def test_scrolling_one_side_brings_the_aligned_text_to_the_other(view, qtbot, copied_pair):
    source, copy = copied_pair
    source = source * 3  # long enough to scroll on both sides
    copy = [*copy, *paragraphs_of("unittest")]
    show_pair(view, qtbot, source, copy)
    left, right = view.left_editor, view.right_editor
    target = len(display_text(source[:5])) + 2  # inside the first copy of source[5]
    right_target = display_text(copy).index(source[5]) + 2

    reading = left.viewport().height() // 3
    y = left.document().documentLayout().blockBoundingRect(left.document().findBlock(target)).top()
    left.verticalScrollBar().setValue(int(y) - reading)
    top_right = right.cursorForPosition(QPoint(0, 0)).position()
    line_right = right.cursorForPosition(QPoint(0, reading)).position()
    assert top_right < right_target
    assert abs(line_right - right_target) < 100  # the same line, give or take

    right.verticalScrollBar().setValue(0)
    assert left.verticalScrollBar().value() == 0


def test_clear_empties_everything(view, qtbot, copied_pair):
    show_pair(view, qtbot, *copied_pair)
    view.clear()
    assert view.left_editor.toPlainText() == view.right_editor.toPlainText() == ""
    assert view.summary_label.text() == ""
    assert view._left.name.text() == ""
    assert view.alignment is None
    assert not view.next_button.isEnabled() and not view.previous_button.isEnabled()


def test_summary_says_why_the_pair_matches(view, qtbot, copied_pair):
    source, copy = copied_pair
    show_pair(view, qtbot, source, copy, PairEvidence(7, 0.3, 0.25, 2, 120, 64))
    a = view.alignment
    first, second = view.summary_label.text().split("\n")
    assert first == (
        "Hamming distance 7 · A in B 30% · B in A 25% · 2 shared passages, longest 120 words"
        " · 64 words in a row"
    )
    assert second == (
        f"Aligned sentences: {a.left_aligned_share:.0%} of A, {a.right_aligned_share:.0%} of B"
    )
    show_pair(view, qtbot, source, copy, PairEvidence(7, 0.3, 0.25, 1, 80))
    assert view.summary_label.text().startswith(
        "Hamming distance 7 · A in B 30% · B in A 25% · 1 shared passage of 80 words\n"
    )
    show_pair(view, qtbot, source, source)
    assert view.summary_label.text() == "Aligned sentences: 100% of A, 100% of B"


def test_summary_lists_the_rarest_words_both_documents_use(view, qtbot):
    rare = "Quokkas photobomb tourists on Rottnest island."
    common = "The weather was nice today and we walked."
    others = [record(f"/o{i}.txt", [common]) for i in range(5)]
    left, right = record("/l.txt", [rare, common]), record("/r.txt", [common, rare])
    rarity = TermRarity([*others, left, right])
    with qtbot.waitSignal(view.alignment_ready, timeout=10_000):
        view.set_pair(left, right, measures(0), rarity)
    words = view.summary_label.text().split("\n")[-1]
    assert words.startswith("Rarest shared words (documents using each): ")
    listed = words.split(": ", 1)[1].split(", ")
    # "on" is left out: a stopword, and too short to say anything alone
    assert {w.split(" (")[0] for w in listed[:5]} == {
        "quokkas", "photobomb", "tourists", "rottnest", "island"
    }  # fmt: skip
    assert all(w.endswith(" (2)") for w in listed[:5])
    assert listed[5:] and all(w.endswith(" (7)") for w in listed[5:])


def test_a_stale_alignment_is_dropped(view, qtbot, copied_pair):
    source, copy = copied_pair
    view.set_pair(record("/a.txt", source), record("/b.txt", copy), measures(1))
    with qtbot.waitSignal(view.alignment_ready, timeout=10_000):
        view.set_pair(record("/c.txt", copy), record("/d.txt", source), measures(2))
    qtbot.waitUntil(lambda: running_jobs() == 0, timeout=10_000)  # the first one reported
    assert view.alignment.left_text == display_text(copy)
    assert view.left_editor.toPlainText() == display_text(copy)
    assert view.summary_label.text().startswith("Hamming distance 2 ")


def test_an_alignment_finishing_after_a_new_pair_is_dropped(view, qtbot, monkeypatch):
    import threading

    import simsift.app.diff.view

    release = threading.Event()
    real_align = simsift.app.diff.view.align

    def align_after_release(left, right, cancel=None):
        if left and left[0] == "first":  # ignores Cancel: it reports a stale result
            release.wait(10)
            return real_align(left, right)
        return real_align(left, right, cancel=cancel)

    monkeypatch.setattr(simsift.app.diff.view, "align", align_after_release)
    view.set_pair(record("/a.txt", ["first", "Shared words here."]), record("/b.txt", ["x"]))
    with qtbot.waitSignal(view.alignment_ready, timeout=10_000):
        view.set_pair(record("/c.txt", ["second"]), record("/d.txt", ["second"]))
    release.set()
    qtbot.waitUntil(lambda: running_jobs() == 0, timeout=10_000)
    assert view.alignment.left_text == display_text(["second"])
    assert view.left_editor.toPlainText() == display_text(["second"])


def test_clear_while_aligning_drops_the_result(view, qtbot, copied_pair):
    view.set_pair(record("/a.txt", copied_pair[0]), record("/b.txt", copied_pair[1]))
    view.clear()
    qtbot.waitUntil(lambda: running_jobs() == 0, timeout=10_000)  # its signals were delivered
    assert view.alignment is None and view.left_editor.toPlainText() == ""
    assert highlighted(view.left_editor) == []


def test_offsets_beyond_the_bmp_map_to_qt_positions(view, qtbot):
    left = [
        "Emoji 😀 first 🎉. Then a copied sentence follows here.",
        "中文𠀀字。复制的句子在这里。",
    ]
    right = ["Something else entirely.", "Then a copied sentence follows here. 复制的句子在这里。"]
    show_pair(view, qtbot, left, right)
    text = view.left_editor.toPlainText()
    runs = highlighted(view.left_editor)
    cursor = QTextCursor(view.left_editor.document())
    found = []
    for start, end, _ in runs:
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        found.append(cursor.selectedText())
    assert found == ["Then a copied sentence follows here.", "复制的句子在这里。"]
    assert text == display_text(left)


FOX = "The quick brown fox jumps over the lazy dog near the river bank."
FOX_EDITED = "The quick brown fox leaps over the dog near the old river bank."


def char_formats(editor, start: int, end: int) -> set[tuple[str, bool, bool]]:
    """The distinct (background, struck out, underlined) of characters start..end-1."""
    cursor = QTextCursor(editor.document())
    found = set()
    for position in range(start + 1, end + 1):  # a cursor reports the character before it
        cursor.setPosition(position)
        fmt = cursor.charFormat()
        found.add((fmt.background().color().name(), fmt.fontStrikeOut(), fmt.fontUnderline()))
    return found


def colour_of(view, key) -> str:
    return view._formats()[key].background().color().name()


def test_edited_words_are_marked_in_both_panes(view, qtbot):
    show_pair(view, qtbot, [FOX], [FOX_EDITED])
    left, right = view.left_editor, view.right_editor
    changed_word = colour_of(view, ("word", CHANGED))
    sentence = colour_of(view, CHANGED)

    def marks(editor, text, word):
        start = text.index(word)
        return char_formats(editor, start, start + len(word))

    assert marks(left, FOX, "jumps") == {(changed_word, False, False)}
    assert marks(left, FOX, "lazy") == {(colour_of(view, ("word", DELETED)), True, False)}
    assert marks(left, FOX, "over the") == {(sentence, False, False)}
    assert marks(right, FOX_EDITED, "leaps") == {(changed_word, False, False)}
    assert marks(right, FOX_EDITED, "old") == {(colour_of(view, ("word", INSERTED)), False, True)}
    assert marks(right, FOX_EDITED, " river bank.") == {(sentence, False, False)}
    # Nothing else is marked: the runs of highlighted characters are exactly these.
    assert [FOX[a:b] for a, b, _ in highlighted(left)] == [
        "The quick brown fox ", "jumps", " over the ", "lazy", " dog near the river bank."
    ]  # fmt: skip
    assert [FOX_EDITED[a:b] for a, b, _ in highlighted(right)] == [
        "The quick brown fox ", "leaps", " over the dog near the ", "old", " river bank."
    ]  # fmt: skip


def test_chinese_edited_words_are_marked_at_character_positions(view, qtbot):
    left = ["春天来了，公园里的花都开了。", "这座城市的地铁系统非常发达，每天运送数百万乘客。"]
    right = ["春天来了，公园里的花都开了。", "这座城市的地铁系统非常发达，每天运送上百万乘客。"]
    show_pair(view, qtbot, left, right)
    changed_word = colour_of(view, ("word", CHANGED))
    for editor, paragraphs, word in (
        (view.left_editor, left, "数百万"),
        (view.right_editor, right, "上百万"),
    ):
        text = display_text(paragraphs)
        start = text.index(word)
        assert char_formats(editor, start, start + 3) == {(changed_word, False, False)}
        assert changed_word not in {c for c, *_ in char_formats(editor, 0, start)}
        assert changed_word not in {c for c, *_ in char_formats(editor, start + 3, len(text))}


def test_punctuation_and_case_alone_mark_no_words(view, qtbot):
    show_pair(
        view, qtbot, [FOX], ["the quick, brown fox jumps over the LAZY dog – near the river bank!"]
    )
    assert {colour for *_, colour in highlighted(view.right_editor)} == {colour_of(view, SAME)}
    assert view.alignment.matches[0].edits == ()
    assert not view.next_difference_button.isEnabled()


def test_legend_names_each_colour_in_the_panes_colours(view, qtbot):
    assert view.legend_label.isVisible()
    legend = view.legend_label.text()
    for label in (
        "same sentence",
        "similar sentence",
        "moved sentence",
        "changed words",
        "inserted words",
        "deleted words",
    ):
        assert label in legend
    show_pair(view, qtbot, [FOX], [FOX_EDITED])
    for *_, colour in highlighted(view.left_editor) + highlighted(view.right_editor):
        assert colour in legend
    assert "line-through" in legend and "underline" in legend


def test_moved_sentences_have_their_own_colour(view, qtbot):
    first = "This first sentence was moved to the end of the copy."
    rest = ["Then comes the second sentence here.", "And the third one is here too."]
    show_pair(view, qtbot, [first, *rest], [*rest, first])
    runs = highlighted(view.left_editor)
    assert runs[0] == (0, len(first), colour_of(view, "moved"))
    assert runs[1][2] == colour_of(view, SAME)


def test_next_difference_reaches_the_first_word(view, qtbot):
    show_pair(
        view, qtbot, [FOX], ["A quick brown fox jumps over the lazy dog near the river bank."]
    )
    view.next_difference()
    assert (selected(view.left_editor), selected(view.right_editor)) == ("The", "A")


def test_next_difference_selects_the_edited_words_in_both_panes(view, qtbot):
    show_pair(
        view,
        qtbot,
        ["Nothing to see in this one at all.", FOX],
        ["Nothing to see in this one at all.", FOX_EDITED],
    )
    assert view.next_difference_button.isEnabled()
    qtbot.mouseClick(view.next_difference_button, Qt.MouseButton.LeftButton)
    assert (selected(view.left_editor), selected(view.right_editor)) == ("jumps", "leaps")
    view.left_editor.setFocus()
    qtbot.keyClick(view.left_editor, Qt.Key.Key_F8)
    assert (selected(view.left_editor), selected(view.right_editor)) == ("lazy", "")
    qtbot.keyClick(view.left_editor, Qt.Key.Key_F8)
    assert (selected(view.left_editor), selected(view.right_editor)) == ("", "old")
    qtbot.keyClick(view.left_editor, Qt.Key.Key_F8)  # the last one: the selection stays
    assert selected(view.right_editor) == "old"


def test_a_selected_match_keeps_its_colours_visible(view, qtbot):
    sentence = "Exactly the same sentence in both documents, long enough to select."
    show_pair(
        view, qtbot, ["A unique opening line.", sentence], ["Something else first.", sentence]
    )
    view.next_match()
    editor = view.left_editor
    assert selected(editor) == sentence
    inside = len("A unique opening line.\n\nExactly the same")
    rect = editor.cursorRect(_cursor_at(editor, inside))
    image = editor.viewport().grab().toImage()
    row = [image.pixelColor(x, rect.center().y()) for x in range(rect.x(), rect.x() + 200)]
    background = Counter(c.name() for c in row).most_common(1)[0][0]
    same = QColor(colour_of(view, SAME))
    # Laid over the orange of a "same" sentence, not painted instead of it.
    assert QColor(background).red() > QColor(background).blue()
    assert abs(QColor(background).red() - same.red()) < 60


def _cursor_at(editor, position: int) -> QTextCursor:
    cursor = QTextCursor(editor.document())
    cursor.setPosition(position)
    return cursor
