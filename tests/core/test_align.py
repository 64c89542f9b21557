"""Sentence alignment: kinds of spans, exact offsets, aligned shares against token-count oracles."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simsift.core.match.align import (
    CHANGED,
    DELETED,
    INSERTED,
    MAX_EDIT_TOKENS,
    SAME,
    UNIQUE,
    Alignment,
    align,
    display_text,
    sentence_bounds,
)
from simsift.core.progress import Cancelled, CancelToken
from simsift.core.text.tokens import tokenize

from tests.core.corpus import long_texts

ZH = (
    "春天来了，公园里的花都开了。孩子们在草地上放风筝，老人们坐在长椅上聊天！"
    "湖边的柳树长出了嫩绿的新芽。",
    "这座城市的地铁系统非常发达，每天运送数百万乘客。早高峰的时候，车厢里总是挤满了上班的人；"
    "晚上十点以后，乘客就少多了。",
    "图书馆周末开放到晚上九点。借书需要带上借书证，每人最多可以借十本书？",
)


def paragraphs_of(*modules: str) -> list[str]:
    """Prose paragraphs (15+ words) of Python's module documentation, whitespace collapsed."""
    texts = long_texts()
    out = []
    for name in modules:
        for block in re.split(r"\n\s*\n", texts[name]):
            paragraph = " ".join(block.split())
            if len(paragraph.split()) >= 15:
                out.append(paragraph)
    return out


def token_count(paragraphs: list[str]) -> int:
    return sum(len(tokenize(p)) for p in paragraphs)


def spans_text(result: Alignment, side: str, kind: str) -> list[str]:
    text = result.left_text if side == "left" else result.right_text
    spans = result.left_spans if side == "left" else result.right_spans
    return [text[s.start : s.end] for s in spans if s.kind == kind]


def assert_consistent(result: Alignment) -> None:
    """Spans are ordered and disjoint; matches link spans of the same kind on both sides."""
    for spans in (result.left_spans, result.right_spans):
        ends = [0] + [x for s in spans for x in (s.start, s.end)]
        assert ends == sorted(ends)
        assert all(s.kind in (SAME, CHANGED, UNIQUE) for s in spans)
        assert all((s.match_id is None) == (s.kind == UNIQUE) for s in spans)
    for m in result.matches:
        assert result.left_spans[m.left].match_id == m.match_id
        assert result.right_spans[m.right].match_id == m.match_id
        assert result.left_spans[m.left].kind == result.right_spans[m.right].kind == m.kind
    assert result.matched_tokens <= min(result.left_tokens, result.right_tokens)
    for m in result.matches:
        for side, sentence, text in (
            ("left", result.left_spans[m.left], result.left_text),
            ("right", result.right_spans[m.right], result.right_text),
        ):
            ranges = [getattr(e, side) for e in m.edits]
            assert all(sentence.start <= a <= b <= sentence.end for a, b in ranges)
            assert [x for r in ranges for x in r] == sorted(x for r in ranges for x in r)
            # Marked words never start or end with spacing or punctuation.
            assert all(re.fullmatch(r"\w(.*\w)?", text[a:b], re.S) for a, b in ranges if a < b)


def edits_of(left: str, right: str) -> list[tuple[str, str, str]]:
    """(kind, left words, right words) of the single pair of two one-sentence documents."""
    result = align([left], [right])
    assert_consistent(result)
    (match,) = result.matches
    return [
        (e.kind, result.left_text[slice(*e.left)], result.right_text[slice(*e.right)])
        for e in match.edits
    ]


def test_identical_documents_are_all_same():
    doc = paragraphs_of("argparse", "json")
    result = align(doc, list(doc))
    assert_consistent(result)
    assert {s.kind for s in result.left_spans + result.right_spans} == {SAME}
    assert result.aligned_share == result.left_aligned_share == result.right_aligned_share == 1.0
    assert result.left_tokens == token_count(doc)
    assert len(result.blocks) == 1


def test_copied_paragraphs_are_exactly_the_same_spans():
    source = paragraphs_of("argparse", "json")[:10]
    copied = [source[1], source[4], source[7]]
    filler = paragraphs_of("unittest", "subprocess", "heapq")
    copy = [filler[0], copied[0], filler[1], filler[2], copied[1], filler[3], copied[2], filler[4]]
    result = align(source, copy)
    assert_consistent(result)

    copied_sentences = [display_text(copied)[a:b] for a, b in sentence_bounds(copied)]
    assert spans_text(result, "right", SAME) == copied_sentences
    assert spans_text(result, "left", SAME) == copied_sentences
    assert not spans_text(result, "left", CHANGED)
    expected = token_count(copied) / token_count(source)
    assert result.left_aligned_share == pytest.approx(expected)
    assert 0.2 < result.left_aligned_share < 0.4
    assert result.right_aligned_share == pytest.approx(token_count(copied) / token_count(copy))


def test_lightly_edited_sentence_is_changed_and_counts_shared_tokens():
    left = ["The quick brown fox jumps over the lazy dog near the river bank. It was sunny."]
    right = ["The quick brown fox leaps over the lazy dog near the old river bank. It was sunny."]
    result = align(left, right)
    assert_consistent(result)
    assert [s.kind for s in result.left_spans] == [CHANGED, SAME]
    assert [s.kind for s in result.right_spans] == [CHANGED, SAME]
    changed = result.matches[0]
    # Shared tokens: all of the left sentence's 13 but "jumps"; plus 3 of "It was sunny".
    assert changed.matched_tokens == 12
    assert result.matched_tokens == 15
    assert result.left_aligned_share == pytest.approx(15 / 16)
    assert result.right_aligned_share == pytest.approx(15 / 17)


def test_punctuation_spacing_and_digits_do_not_break_a_same_sentence():
    result = align(
        ["Version 3 was released in 2020, finally."], ["version 4 was released in 2021 finally!"]
    )
    assert [s.kind for s in result.left_spans] == [SAME]
    # Tokens still differ: the matched count is the multiset intersection.
    assert result.matched_tokens == 5


def test_unrelated_documents_share_nothing():
    result = align(paragraphs_of("argparse"), paragraphs_of("unittest"))
    assert_consistent(result)
    assert not spans_text(result, "left", SAME) and not spans_text(result, "right", SAME)
    assert result.aligned_share < 0.05


def test_chinese_sentences_copied_edited_and_unique():
    edited = ZH[1].replace("数百万", "上百万")
    right = ["今天的会议推迟到下午三点。", ZH[0], edited]
    result = align(list(ZH), right)
    assert_consistent(result)
    assert spans_text(result, "left", SAME) == [
        "春天来了，公园里的花都开了。",
        "孩子们在草地上放风筝，老人们坐在长椅上聊天！",
        "湖边的柳树长出了嫩绿的新芽。",
        "早高峰的时候，车厢里总是挤满了上班的人；",
        "晚上十点以后，乘客就少多了。",
    ]
    assert spans_text(result, "left", CHANGED) == [
        "这座城市的地铁系统非常发达，每天运送数百万乘客。"
    ]
    assert spans_text(result, "right", CHANGED) == [
        "这座城市的地铁系统非常发达，每天运送上百万乘客。"
    ]
    assert spans_text(result, "left", UNIQUE) == [
        "图书馆周末开放到晚上九点。",
        "借书需要带上借书证，每人最多可以借十本书？",
    ]
    assert spans_text(result, "right", UNIQUE) == ["今天的会议推迟到下午三点。"]


def test_identical_chinese_documents():
    result = align(list(ZH), list(ZH))
    assert {s.kind for s in result.left_spans} == {SAME}
    assert result.aligned_share == 1.0


def test_moved_paragraph_is_still_same_but_not_in_order():
    doc = paragraphs_of("json")[:6]
    moved = doc[1:] + doc[:1]
    result = align(doc, moved)
    assert_consistent(result)
    assert {s.kind for s in result.left_spans} == {SAME}
    assert result.aligned_share == 1.0
    out_of_order = [m for m in result.matches if not m.in_order]
    assert out_of_order and all(result.left_spans[m.left].end <= len(doc[0]) for m in out_of_order)


def test_blocks_group_consecutive_pairs():
    left = [
        "One two three four. Five six seven eight. Unique left sentence here.",
        "Nine ten eleven.",
    ]
    right = [
        "One two three four. Five six seven eight. Another right one entirely.",
        "Nine ten eleven.",
    ]
    result = align(left, right)
    assert result.blocks == ((0, 1), (2, 2))


def test_sentence_bounds_split_chinese_and_latin_terminators():
    paragraphs = [
        "第一句。第二句！第三句？第四句；第五句……“第六句。”最后",
        "Hi there. Pi is 3.14 or so.Still one. End!  ",
    ]
    text = display_text(paragraphs)
    sentences = [text[a:b] for a, b in sentence_bounds(paragraphs)]
    assert sentences == [
        "第一句。", "第二句！", "第三句？", "第四句；", "第五句……", "“第六句。”", "最后",
        "Hi there.", "Pi is 3.14 or so.Still one.", "End!",
    ]  # fmt: skip


def test_empty_documents():
    result = align([], [""])
    assert result.left_spans == result.right_spans == ()
    assert result.aligned_share == 0.0


def test_cancel_raises():
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        align(["a b c."], ["a b c."], cancel=token)


_WORDS = st.sampled_from(
    ["alpha", "beta", "gamma", "delta", "春天", "地铁", "乘客", "3.5", "2020", "x"]
)
_PUNCT = st.sampled_from([" ", " ", ", ", ". ", "! ", "? ", "。", "！", "；", "…", "\n", "  "])
_PARAGRAPH = st.lists(st.tuples(_WORDS, _PUNCT), max_size=12).map(
    lambda parts: "".join(w + p for w, p in parts)
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_PARAGRAPH, max_size=5), st.lists(_PARAGRAPH, max_size=5))
def test_spans_index_the_display_text_exactly(left, right):
    result = align(left, right)
    assert result.left_text == display_text(left) and result.right_text == display_text(right)
    assert_consistent(result)
    for text, spans in (
        (result.left_text, result.left_spans),
        (result.right_text, result.right_spans),
    ):
        covered = "".join(text[s.start : s.end] for s in spans)
        # Every non-space character is in exactly one sentence, and sentences are trimmed.
        assert re.sub(r"\s", "", covered) == re.sub(r"\s", "", text)
        assert all(text[s.start : s.end] == text[s.start : s.end].strip() != "" for s in spans)
    assert 0.0 <= result.aligned_share <= 1.0


FOX = "The quick brown fox jumps over the lazy dog near the river bank."


def test_word_substitution_is_one_changed_edit_at_the_word_offsets():
    result = align([FOX], [FOX.replace("jumps", "leaps")])
    (match,) = result.matches
    assert match.kind == CHANGED
    (edit,) = match.edits
    start = FOX.index("jumps")
    assert (edit.kind, edit.left, edit.right) == (CHANGED, (start, start + 5), (start, start + 5))


def test_adjacent_replaced_words_form_one_edit():
    right = FOX.replace("quick brown fox", "slow red fox")
    assert edits_of(FOX, right) == [(CHANGED, "quick brown", "slow red")]


def test_inserted_words_are_empty_on_the_left_at_their_place():
    right = FOX.replace("the river", "the old muddy river")
    result = align([FOX], [right])
    (edit,) = result.matches[0].edits
    assert edit.kind == INSERTED
    assert edit.left == (FOX.index("river"),) * 2
    assert right[slice(*edit.right)] == "old muddy"


def test_deleted_words_are_empty_on_the_right_at_their_place():
    right = FOX.replace("lazy ", "")
    result = align([FOX], [right])
    (edit,) = result.matches[0].edits
    assert edit.kind == DELETED
    assert FOX[slice(*edit.left)] == "lazy"
    assert edit.right == (right.index("dog"),) * 2


def test_substitution_insertion_and_deletion_in_reading_order():
    right = "The quick brown fox leaps over the dog near the old river bank."
    assert edits_of(FOX, right) == [
        (CHANGED, "jumps", "leaps"),
        (DELETED, "lazy", ""),
        (INSERTED, "", "old"),
    ]


def test_insertion_at_the_end_is_placed_after_the_last_word():
    right = FOX[:-1] + " today."
    result = align([FOX], [right])
    (edit,) = result.matches[0].edits
    assert edit.kind == INSERTED and edit.left == (len(FOX) - 1, len(FOX) - 1)


def test_identical_sentences_have_no_edits():
    result = align([FOX, ZH[0]], [FOX, ZH[0]])
    assert result.matches and all(m.edits == () for m in result.matches)


def test_punctuation_case_spacing_and_width_alone_are_no_edits():
    right = "the  quick, brown fox jumps over the LAZY dog – near the river bank!"
    result = align([FOX, "这是第一句话，没有改动。"], [right, "这是第一句话,没有改动."])
    assert [m.kind for m in result.matches] == [SAME, SAME]
    assert all(m.edits == () for m in result.matches)


def test_changed_digits_in_a_same_sentence_are_edits():
    result = align(
        ["Version 3 was released in 2020, finally."], ["Version 4 was released in 2021 finally!"]
    )
    (match,) = result.matches
    assert match.kind == SAME
    assert [(e.kind, e.left, e.right) for e in match.edits] == [
        (CHANGED, (8, 9), (8, 9)),
        (CHANGED, (26, 30), (26, 30)),
    ]


def test_chinese_word_substitution_marks_the_jieba_word_in_display_offsets():
    left = [ZH[0], ZH[1]]
    right = [ZH[0], ZH[1].replace("数百万", "上百万")]
    result = align(left, right)
    (changed,) = [m for m in result.matches if m.kind == CHANGED]
    (edit,) = changed.edits
    at = result.left_text.index("数百万")
    assert (edit.kind, edit.left, edit.right) == (CHANGED, (at, at + 3), (at, at + 3))
    assert result.right_text[slice(*edit.right)] == "上百万"


def test_chinese_edits_with_full_width_and_traditional_text():
    left = ["孩子们在草地上放风筝，老人们坐在长椅上聊天！"]
    right = ["ＡＢ孩子們在公園裡放風箏，老人們坐在長椅上聊天！"]  # prefix, Traditional, full width
    assert edits_of(*left, *right) == [
        (INSERTED, "", "ＡＢ"),
        (CHANGED, "草地上", "公園裡"),
    ]


def test_edits_map_through_ligatures_and_combining_marks():
    left = "The ﬁrst café was opened on this street by the old baker."
    right = "The first cafe\u0301 was opened on this street by the young baker."
    assert edits_of(left, right) == [(CHANGED, "old", "young")]


def test_very_long_sentences_get_no_word_edits():
    words = [f"w{k}" for k in range(MAX_EDIT_TOKENS + 1)]
    left = " ".join(words)
    right = " ".join(["changed", *words[1:]])
    (match,) = align([left], [right]).matches
    assert match.kind == CHANGED and match.edits == ()


def test_word_edits_of_edited_paragraphs_turn_each_left_sentence_into_the_right():
    """Oracle: applying the edits to the left tokens of each pair gives the right tokens."""
    source = paragraphs_of("json")[:8]
    edited = [p.replace(" the ", " a ").replace(" is ", " was really ") for p in source]
    result = align(source, edited)
    assert_consistent(result)
    for m in result.matches:
        left_span, right_span = result.left_spans[m.left], result.right_spans[m.right]
        left = result.left_text[left_span.start : left_span.end]
        right = result.right_text[right_span.start : right_span.end]
        rebuilt, cursor = [], left_span.start
        for e in m.edits:
            rebuilt.append(result.left_text[cursor : e.left[0]])
            rebuilt.append(result.right_text[slice(*e.right)])
            cursor = e.left[1]
        rebuilt.append(result.left_text[cursor : left_span.end])
        assert tokenize("".join(rebuilt)) == tokenize(right), (left, right)
