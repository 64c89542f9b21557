"""Quotations and the bibliography are told from the student's own words: each body token
is marked own text, quotation or bibliography, without changing a single token."""

from __future__ import annotations

import itertools
import re
import sqlite3
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simsift.core.document import READER_VERSION, FileRecord
from simsift.core.pipeline.archiving import add_folders
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.stages import find_files, read_files
from simsift.core.read.extract.html import extract_html
from simsift.core.store.archive import Archive
from simsift.core.store.catalog import Catalog
from simsift.core.text import quotations
from simsift.core.text.quotations import (
    BIBLIOGRAPHY,
    MAX_QUOTE_WORDS,
    OWN_TEXT,
    QUOTATION,
    bibliography_ranges,
    find_quotations,
    is_cited,
)
from simsift.core.text.tokens import TokenStream, document_tokens, token_stream, tokenize

from tests.core.corpus import chinese_paragraphs, prose_paragraphs

PROSE = prose_paragraphs("heapq") + prose_paragraphs("subprocess")  # no quotation marks
REFERENCES = [
    "Smith, J. (2010). Rivers and their deltas. Oxford University Press.",
    "Chen, L., & Wang, H. (2018). Sediment transport. Journal of Hydrology, 12(3), 45-67.",
    "Brown, A. et al. (2021). Floods. https://doi.org/10.1000/floods",
    "World Bank. (n.d.). Water resources. Retrieved from https://www.worldbank.org/water",
]
CHINESE_REFERENCES = [
    "[1] 王力. 汉语史稿[M]. 北京: 中华书局, 1980.",
    "[2] 李明, 张华. 河流泥沙研究[J]. 水利学报, 2015, 46(3): 1-10.",
    "[3] 陈静. 长江三角洲的演变[D]. 上海: 华东师范大学, 2019.",
]


def words_with(paragraphs: list[str], mark: int) -> list[str]:
    """The words of `paragraphs` (as tokenized) whose token has `mark`."""
    stream = token_stream(paragraphs)
    words = [word for paragraph in paragraphs for word in tokenize(paragraph)]
    return [w for w, m in zip(words, stream.marks.tolist(), strict=True) if m == mark]


def quoted(*paragraphs: str) -> list[str]:
    return words_with(list(paragraphs), QUOTATION)


def unbalanced(*paragraphs: str) -> int:
    return token_stream(list(paragraphs)).unbalanced_quotes


def marks_by_paragraph(paragraphs: list[str]) -> list[set[int]]:
    stream = token_stream(paragraphs)
    bounds = [*stream.para_starts.tolist(), len(stream)]
    return [set(stream.marks[a:b].tolist()) for a, b in itertools.pairwise(bounds)]


# -- quotations ---------------------------------------------------------------------------


def test_words_inside_quotation_marks_are_quotation_and_the_rest_own_text():
    paragraph = "She wrote “rivers carry silt” in 1990, and I agree."
    assert quoted(paragraph) == ["rivers", "carry", "silt"]
    assert words_with([paragraph], OWN_TEXT) == ["she", "wrote", "in", "1990", "and", "i", "agree"]
    assert unbalanced(paragraph) == 0


def test_straight_double_quotes_pair_in_order():
    text = 'He said "yes we can" first, then "no we cannot" and "maybe we can" later.'
    assert quoted(text) == ["yes", "we", "can", "no", "we", "cannot", "maybe", "we", "can"]


def test_an_apostrophe_is_not_a_quotation_mark():
    text = "Don’t panic: the students’ essays were ‘mostly their own’, she said. It’s fine."
    assert quoted(text) == ["mostly", "their", "own"]
    assert unbalanced(text) == 0
    # a possessive s’ inside a single-quoted quotation does not end it
    assert quoted("‘The students’ work is good,’ he said.") == [
        *("the", "students", "work", "is", "good")
    ]
    # ...but closes it when nothing else does
    text = "‘Yes we can’ he said, and the boys’ essays were ‘fine and good’."
    assert quoted(text) == ["yes", "we", "can", "fine", "and", "good"]
    # straight single quotes are apostrophes, feet and primes, never quotations
    assert quoted("It's the 'best' plan, 6' tall.") == []


def test_nested_quotations_are_one_quotation():
    assert quoted("He told me “never say ‘never’ twice” and left.") == [
        *("never", "say", "never", "twice")
    ]
    assert quoted("She said “the “inner” one” then.") == ["the", "inner", "one"]
    assert quoted("他说「她告诉我『不要走』」然后离开了。") == tokenize("她告诉我『不要走』")


def test_chinese_quotation_marks():
    text = "他说“我们明天去北京”，然后「离开这个城市」了。"
    assert quoted(text) == tokenize("我们明天去北京") + tokenize("离开这个城市")
    assert words_with([text], OWN_TEXT) == tokenize("他说，然后了。")


def test_a_quoted_term_is_the_writers_own_text():
    """A word or two in marks names a term in one's own sentence; brought in by a colon
    or a comma, or cited, it is a quotation."""
    text = "Debian keeps a “stable” and a “testing” branch; a “smart phone” is no phone."
    assert quoted(text) == []
    scan = find_quotations(text)
    assert [text[a:b] for a, b in scan.terms] == ["“stable”", "“testing”", "“smart phone”"]
    assert scan.unbalanced == 0
    assert quoted("He answered: “never again”.") == ["never", "again"]
    assert quoted("She wrote, “never again”.") == ["never", "again"]
    assert quoted("The word “resilience” (Lee, 2025) is overused.") == ["resilience"]
    assert quoted("他们把它叫作“稳定”版。") == []
    assert quoted("He said “we will never go back”.") == ["we", "will", "never", "go", "back"]


def test_title_marks_are_not_quotations():
    """《》 names a book (书名号): citing a title is the student's own sentence."""
    text = "我读了《红楼梦》和《三国演义》，也读了〈狂人日记〉。"
    assert quoted(text) == []
    assert unbalanced(text) == 0


def test_guillemets_either_way():
    assert quoted("Il a dit « oui, bien sûr » hier.") == ["oui", "bien", "sûr"]
    assert quoted("»Nein, nicht heute«, sagte er, „niemals“.") == [
        "nein",
        "nicht",
        "heute",
        "niemals",
    ]


def test_a_stray_opening_mark_does_not_swallow_the_essay():
    rest = " ".join(PROSE)
    paragraph = f"He said “ and then {rest} until the “end of it all” came."
    assert quoted(paragraph) == ["end", "of", "it", "all"]
    assert unbalanced(paragraph) == 1
    # the closing mark of a stray opening mark is far away: neither is a quotation
    far = f"An “opening mark, then {rest} and a closing” mark."
    assert quoted(far) == []
    assert unbalanced(far) == 2


def test_a_quotation_never_crosses_a_paragraph():
    assert quoted("He began “a quotation that", "ends in the next paragraph” here.") == []
    assert unbalanced("He began “a quotation that", "ends in the next paragraph” here.") == 2


def test_a_quotation_is_at_most_the_cap_long():
    words = [f"w{'abcdefghij'[i % 10]}" for i in range(MAX_QUOTE_WORDS + 1)]
    longest = " ".join(words[:MAX_QUOTE_WORDS])
    assert len(quoted(f"Before “{longest}” after.")) == MAX_QUOTE_WORDS
    assert quoted(f"Before “{longest} {words[-1]}” after.") == []
    zh = "".join(c for c in "".join(chinese_paragraphs()) if "\u4e00" <= c <= "\u9fff")
    assert quoted(f"他说“{zh[:200]}”了。") == tokenize(zh[:200])
    assert quoted(f"他说“{zh[:201]}”了。") == []


def test_a_paragraph_that_is_one_quotation_is_one_however_long():
    long_quote = " ".join(PROSE[:3])
    assert len(long_quote.split()) > 2 * MAX_QUOTE_WORDS
    for paragraph in (f"“{long_quote}”", f"“{long_quote}” (Smith, 2010, p. 4).", f'"{long_quote}"'):
        assert quoted(paragraph) == tokenize(long_quote), paragraph
    # not when the paragraph goes on after the closing mark
    assert quoted(f"“{long_quote}” And then my own words follow.") == []


def test_a_document_that_is_one_long_quotation_is_all_quotation():
    paragraphs = [f"“{p}”" for p in PROSE] + [f"「{p}」" for p in chinese_paragraphs()[:3]]
    stream = document_tokens("A title", paragraphs).body
    assert len(stream) > 300
    assert (stream.marks == QUOTATION).all()
    assert stream.unbalanced_quotes == 0


def test_unbalanced_marks_are_counted_per_document():
    paragraphs = ["He said “yes and left.", "She said ”no” twice.", "A «stray one.", PROSE[0]]
    assert document_tokens("", paragraphs).body.unbalanced_quotes == 4


QUOTE_FRAGMENTS = [
    *("“", "”", "‘", "’", '"', "«", "»", "„", "「", "」", "『", "』", "《", "》", "＂", "’s "),
    *(" ", "s", "x", "我们", "word ", "students’ ", "don’t ", "(p. 4).", "\n"),
    *(" ".join(["many words"] * 30), "长" * 90),
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(QUOTE_FRAGMENTS), max_size=30).map("".join))
def test_simple_quotations_found_at_once_are_those_the_full_rules_find(text):
    """Short quotations are matched at once: the same as the mark-by-mark rules find."""
    fast = find_quotations(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(quotations, "_SIMPLE_QUOTATION", re.compile("(?!)"))  # never matches
        assert find_quotations(text) == fast


def test_quotation_spans_are_character_offsets_marks_included():
    text = "He said “don’t go there” and left."
    scan = find_quotations(text)
    assert [text[a:b] for a, b in scan.spans] == ["“don’t go there”"]


# -- the bibliography ---------------------------------------------------------------------


def test_the_reference_list_after_a_heading_is_bibliography():
    paragraphs = [*PROSE, "7. References:", *REFERENCES]
    marks = marks_by_paragraph(paragraphs)
    assert marks[: len(PROSE)] == [{OWN_TEXT}] * len(PROSE)
    assert marks[len(PROSE) :] == [{BIBLIOGRAPHY}] * (1 + len(REFERENCES))


def test_a_chinese_reference_list_is_bibliography():
    essay = chinese_paragraphs()[:4]
    paragraphs = [*essay, "参 考 文 献", *CHINESE_REFERENCES]
    assert bibliography_ranges(paragraphs) == [(4, len(paragraphs))]


def test_the_bibliography_ends_at_an_appendix():
    survey = "Survey question one asked the students how often they visit the river."
    paragraphs = [*PROSE[:3], "Works Cited", *REFERENCES, "Appendix A: Survey", survey]
    marks = marks_by_paragraph(paragraphs)
    assert marks[:3] == [{OWN_TEXT}] * 3
    assert marks[3:-2] == [{BIBLIOGRAPHY}] * (1 + len(REFERENCES))
    assert marks[-2:] == [{OWN_TEXT}] * 2
    assert bibliography_ranges([*paragraphs[:-2], "附录一 调查问卷", "问卷内容"]) == [(3, 8)]


def test_a_heading_in_the_first_line_does_not_make_the_essay_a_bibliography():
    for heading in ("Sources", "Literature", "References", "参考资料"):
        assert bibliography_ranges([heading, *PROSE]) == []
        assert words_with([heading, *PROSE], BIBLIOGRAPHY) == []
        assert bibliography_ranges([heading, *chinese_paragraphs()[:5]]) == []


def test_a_document_that_is_only_a_reference_list_is_all_bibliography():
    stream = document_tokens("", ["Bibliography", *REFERENCES]).body
    assert (stream.marks == BIBLIOGRAPHY).all()


def test_a_heading_before_more_essay_is_not_a_bibliography():
    paragraphs = [*PROSE[:3], "Sources", *PROSE[3:]]
    assert bibliography_ranges(paragraphs) == []


def test_a_literature_review_full_of_citations_is_own_text():
    review = [
        "Smith (2010) found that rivers carry more silt after floods, while Chen et al. "
        "(2018) argued that dams trap most of it; Brown (2021) and Lee (2012, p. 4) later "
        "showed that both effects depend on the slope of the river bed and on how often "
        "the banks are cleared, which earlier studies (Green, 1999; White, 2003) ignored "
        "because their measurements were taken only once a year at a single station."
    ] * 4
    paragraphs = [*PROSE[:2], "2. Literature", *review, *PROSE[2:], "References", *REFERENCES]
    assert bibliography_ranges(paragraphs) == [(len(paragraphs) - 5, len(paragraphs))]


def test_a_reference_list_run_together_into_one_paragraph_is_bibliography():
    """A PDF reader may make one paragraph of a whole list (one text box)."""
    english = " ".join(REFERENCES * 3)
    chinese = "".join(CHINESE_REFERENCES * 2)
    for merged in (english, chinese):
        assert bibliography_ranges([*PROSE, "References", merged]) == [(len(PROSE), len(PROSE) + 2)]


def test_the_bibliography_stops_where_prose_comes_back():
    long = [p for p in PROSE if len(p.split()) > 60]
    paragraphs = [*PROSE[:2], "Sources", *REFERENCES, PROSE[3], *long, PROSE[4]]
    assert bibliography_ranges(paragraphs) == [(2, 4 + len(REFERENCES))]


def test_quotation_marks_in_the_bibliography_are_neither_quotation_nor_unbalanced():
    entries = ['Lee, K. (2012). "Floods and rivers. Water, 4(2), 1-9.', *REFERENCES]
    stream = token_stream([*PROSE[:2], "References", *entries])
    assert QUOTATION not in stream.marks
    assert stream.unbalanced_quotes == 0


def test_a_title_is_never_marked():
    tokens = document_tokens("“Quoted” title", ["body"])
    assert (tokens.title.marks == OWN_TEXT).all()


# -- tokens stay exactly the same ---------------------------------------------------------

FRAGMENTS = [
    *("“", "”", "‘", "’", '"', "«", "»", "„", "「", "」", "『", "』", "《", "》", "＂"),
    *(" ", "  ", "\u200b", "\u00ad", "s", "'", "students’", "don’t", "’tis", "x’", "’y"),
    *("Tеxt", "wіth", "lооk", "аlikеs", "Straße", "ﬁnal", "Ａｐｐｌｅ", "3.14", "2024-01-02"),
    *("我们", "明天", "北京", "這是", "頭髮", "中文", "他说", "。", "，", "(", ")"),
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join), max_size=4))
def test_marks_never_change_the_tokens(paragraphs):
    plain = token_stream(paragraphs, marks=False)
    for marked in (token_stream(paragraphs), token_stream(paragraphs, chunk_chars=9)):
        np.testing.assert_array_equal(marked.hashes, plain.hashes)
        np.testing.assert_array_equal(marked.is_digit, plain.is_digit)
        np.testing.assert_array_equal(marked.para_starts, plain.para_starts)
        assert marked.marks.dtype == np.uint8 and len(marked.marks) == len(marked)


def test_tokens_of_mixed_text_with_quotations_are_those_of_the_text():
    paragraphs = [
        'He said “don’t go” and 他说“不要走”了，「真的」『嗎』« oui » "yes" ‘no’.',
        "The students’ essays quote “Tеxt wіth lооk-аlikеs” and ‘in\u200bvisible’ joins.",
        *[f"“{p}”" for p in chinese_paragraphs()[:3]],
        *[f"Smith wrote “{p[:200]}” in 2010." for p in PROSE[:3]],
    ]
    stream = token_stream(paragraphs)
    assert QUOTATION in stream.marks and OWN_TEXT in stream.marks
    expected = token_stream(paragraphs, marks=False)
    np.testing.assert_array_equal(stream.hashes, expected.hashes)
    np.testing.assert_array_equal(stream.para_starts, expected.para_starts)


@pytest.mark.parametrize("chunk_chars", [60, 500])
def test_a_huge_paragraph_is_searched_piece_by_piece(chunk_chars):
    """A paragraph longer than the chunk is tokenized in pieces: the same tokens; the
    quotations inside a piece are found, one across a cut at most is lost."""
    sentences = [f"Sentence {i} says “quote number {i} here” and goes on." for i in range(60)]
    paragraph = " ".join(sentences)
    whole = token_stream([paragraph])
    pieces = token_stream([paragraph], chunk_chars=chunk_chars)
    np.testing.assert_array_equal(whole.hashes, pieces.hashes)
    assert (whole.marks == QUOTATION).sum() == 60 * 4
    assert (pieces.marks <= whole.marks).all()  # nothing is marked that is not quoted
    cuts = len(paragraph) // chunk_chars + 1
    assert (pieces.marks != whole.marks).sum() <= 4 * cuts


def test_a_token_stream_without_marks_is_all_own_text():
    stream = TokenStream(np.arange(3, dtype=np.uint64), np.zeros(3, bool), np.zeros(1, np.int32))
    assert stream.marks.tolist() == [OWN_TEXT] * 3 and stream.unbalanced_quotes == 0
    with pytest.raises(ValueError, match="2 marks for 3 tokens"):
        TokenStream(stream.hashes, stream.is_digit, stream.para_starts, np.zeros(2, np.uint8))


# -- web pages ----------------------------------------------------------------------------


def test_a_q_element_is_a_quotation_as_the_page_shows_it():
    page = (
        "<html><body><article><p>The report says <q>the river is <q>wide</q> and deep</q> "
        "and I think it is right about that, having walked along its banks for years."
        "</p></article></body></html>"
    )
    extracted = extract_html(page.encode())
    assert "“the river is ‘wide’ and deep”" in extracted.paragraphs[0]
    assert words_with(list(extracted.paragraphs), QUOTATION) == [
        *("the", "river", "is", "wide", "and", "deep")
    ]


# -- stored and archived ------------------------------------------------------------------

ESSAY = [
    *PROSE[:3],
    "As the report puts it, “rivers carry silt to the sea” every year.",
    "他说“我们明天去北京”，然后离开了。A stray “mark here.",
    "References",
    *REFERENCES,
]


def test_marks_survive_the_catalog_and_equal_those_of_the_paragraphs(tmp_path):
    record = FileRecord(
        "/essays/a.txt",
        100,
        1,
        "ok",
        title="Rivers",
        paragraphs=tuple(ESSAY),
        tokens=document_tokens("Rivers", ESSAY),
    )
    body = record.tokens.body
    assert {OWN_TEXT, QUOTATION, BIBLIOGRAPHY} <= set(body.marks.tolist())
    assert body.unbalanced_quotes == 1
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        catalog.store([record])
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        stored = catalog.lookup("/essays/a.txt", 100, 1).tokens.body
    again = document_tokens("Rivers", list(ESSAY)).body
    for stream in (stored, again):
        assert stream.marks.dtype == np.uint8
        np.testing.assert_array_equal(stream.marks, body.marks)
        assert stream.unbalanced_quotes == 1


def test_a_record_of_an_older_reader_is_read_again_to_get_its_marks(tmp_path):
    """A catalog row written before marks existed is never served: its file is read
    again, so its quotations are not taken for own text."""
    record = FileRecord("/essays/a.txt", 100, 1, "ok", paragraphs=tuple(ESSAY))
    record = replace(record, tokens=document_tokens("", ESSAY))
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        catalog.store([record])
    raw = sqlite3.connect(tmp_path / "catalog.sqlite3")
    with raw:
        raw.execute("UPDATE files SET body_marks = NULL, reader = ?", (READER_VERSION - 1,))
    raw.close()
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        assert catalog.lookup("/essays/a.txt", 100, 1) is None


def test_an_archived_document_has_the_marks_it_was_read_with(tmp_path):
    folder = tmp_path / "essays"
    folder.mkdir()
    (folder / "a.txt").write_text("Rivers\n\n" + "\n\n".join(ESSAY), encoding="utf-8")
    options = ScanOptions(roots=(str(folder),), workers=0)
    found, _ = find_files(options)
    [read] = read_files(found, options)
    assert QUOTATION in read.tokens.body.marks and BIBLIOGRAPHY in read.tokens.body.marks
    add_folders(tmp_path / "archive", options)
    archive = Archive.open(tmp_path / "archive")
    [doc] = range(len(archive))
    archived = archive.record(doc).tokens.body
    np.testing.assert_array_equal(archived.hashes, read.tokens.body.hashes)
    np.testing.assert_array_equal(archived.marks, read.tokens.body.marks)
    assert archived.unbalanced_quotes == read.tokens.body.unbalanced_quotes == 1


@pytest.mark.parametrize(
    "text, cited",
    [
        ("He said “we rise” (Smith, 2019). Then", True),
        ("As Smith (2019) argues, “we rise”.", True),
        ("张三（2019）指出：“预算主要用于教学”。", True),
        ("“we rise” [12].", True),
        ("“we rise” (p. 4)", True),
        ("“We rise,” Lee writes (2025), “and fall.”", True),
        ("“We rise,” Smith et al. argue (2019).", True),
        ("She wrote “we rise” and left.", False),
        ("In 2019 he said “we rise”.", False),
        ("He said “we rise.” Then he left (Lee, 2025).", False),
        ("他说“我们崛起”。后来他走了（李，2025）。", False),
    ],
)
def test_a_citation_beside_a_quotation_is_seen(text, cited):
    start, end = text.index("“"), text.index("”") + 1
    assert is_cited(text, start, end) is cited
