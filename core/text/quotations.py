"""Text a student does not claim as their own: quotations and the bibliography.

`token_stream` (`core/text/tokens.py`) gives every body token a mark, `OWN_TEXT`,
`QUOTATION` or `BIBLIOGRAPHY`, from what this module finds in plain strings.

Quotations (`find_quotations`), within one paragraph:

* “…”, „…“ or „…”, «…» (»…« when a paragraph's first guillemet is »), 「…」, 『…』 and ‘…’
  pair by nesting depth; straight double quotes "…" pair in order.
* 《…》 and 〈…〉 are Chinese title marks (书名号), never quotations: naming a book is the
  student's own sentence, and no rule tells a quotation in them from a title.
* ’ is also an apostrophe. Between two letters it is one (don’t: the token keeps it);
  after a space it elides (’tis); after an "s" and before a word (the students’ essays) it
  closes a ‘ only when no other ’ does before the cap.
* Straight single quotes are never quotation marks: they are apostrophes, feet and primes
  far more often, and word processors curl real quotation marks.
* A quotation never crosses a paragraph and is at most `MAX_QUOTE_WORDS` words (a CJK
  character counts 2/5 of a word: 200 of them) and `MAX_QUOTE_CHARS` characters, so a
  stray mark cannot swallow an essay: an opening mark whose closing mark is farther away
  is no quotation. The exception is a paragraph that is one quotation, however long: it
  opens with the mark and ends with its closing mark (punctuation and a citation in
  parentheses may follow).
* A quoted term is no quotation (`QuoteScan.terms`): at most `MAX_TERM_WORDS` words in
  marks (the “stable” and “testing” branches, a “smart phone”) name or distance words
  of the writer's own sentence, unless a colon or comma brings them in or a citation
  names their source; their marks open and close, so they are not stray.
* Marks that open or close nothing are counted (`QuoteScan.unbalanced`) so that a
  document full of them can be flagged; a lone ’ is an apostrophe and not counted.

Text read by OCR (`ocr=True`: a scan, a picture of text) is judged apart: Tesseract reads
specks as „ or " and apostrophes as " or ”, so its marks are no sign of anything and a
quotation must look like one (`_ocr_quotations`). A mark opens only at the start of a
word (no letter or digit before it, something after it) and closes only at the end of one
(something before it, no letter or digit after it); a mark that can do neither (a speck
between spaces, an apostrophe between letters) is no mark. The kinds of double marks
("“”„) are one kind, as Tesseract mixes them up. A pair is a quotation only when it holds
a word, is at most `MAX_OCR_QUOTE_WORDS` words and at most `MAX_OCR_QUOTE_SHARE` of its
paragraph: a paragraph that is one quotation, or a quotation of most of one, counts as
the writer's own. Nothing is counted as unbalanced.

The bibliography (`bibliography_ranges`) starts at a heading paragraph ("References",
"Works cited", "参考文献", ... with optional numbering and a colon) and runs to the next
appendix heading ("Appendix A", "附录") or the end of the document, or stops earlier
before two prose paragraphs in a row (longer than a reference, without what reference
lists have): own text after a list is not given away. A heading counts only when the
paragraphs after it look like a list of references: most of the text of the first
`_ENTRIES_CHECKED` of them is in short entries (at most `_ENTRY_MAX_WORDS` words) with a
year, URL, DOI, "et al.", page numbers, a [M]/[J] type code or an "Author, A." or "[1]"
opening, or in long paragraphs dense with what only reference lists have ("Smith, J.",
[J], URLs, "pp. 4": entries a PDF reader ran together). So a heading in an essay's first
line ("Sources" as a title) or a literature review under "Literature" marks nothing,
while a document that is only a reference list is all bibliography. Where the heading
stands does not matter: a short essay may have more references than prose.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

# A token's mark in `TokenStream.marks`.
OWN_TEXT = 0
QUOTATION = 1
BIBLIOGRAPHY = 2
CHROME = 3  # a printed page's chrome, as its reader tells it (`ExtractedText.chrome`)

MAX_QUOTE_WORDS = 80
MAX_TERM_WORDS = 2
MAX_QUOTE_CHARS = 1500
# In text read by OCR: a quotation longer than this is set off as a block quotation (APA's
# 40 words) in a typed essay, and one longer than this share of its paragraph would give
# away most of it on the word of marks that may be specks.
MAX_OCR_QUOTE_WORDS = 40
MAX_OCR_QUOTE_SHARE = 0.5
# At most this many marks of its kind are looked at for a closing mark: a text of nothing
# but opening marks costs linear time.
_MAX_MARKS_SCANNED = 64

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # as in tokens.py
_STRAIGHT = '"＂'
_QUOTE_CHARS = '"＂“”„«»「」『』‘’'
_QUOTE_CHAR = re.compile(f"[{_QUOTE_CHARS}]")
_STRAIGHT_CHAR = re.compile(f"[{_STRAIGHT}]")
# A simple quotation: no mark of its kind inside and at most MAX_QUOTE_WORDS characters,
# so within the cap. Most quotations are: each costs one match, not the rules' steps.
_INSIDE = MAX_QUOTE_WORDS - 2
_SIMPLE_QUOTATION = re.compile(
    rf"“[^“”]{{0,{_INSIDE}}}”|„[^„“”]{{0,{_INSIDE}}}[“”]|「[^「」]{{0,{_INSIDE}}}」"
    rf"|『[^『』]{{0,{_INSIDE}}}』|[{_STRAIGHT}][^{_STRAIGHT}]{{0,{_INSIDE}}}[{_STRAIGHT}]"
)
# opening mark -> the marks that close it
_CLOSERS = {"“": "”", "„": "“”", "«": "»", "「": "」", "『": "』", "‘": "’"}
_REVERSED_CLOSERS = {**{k: v for k, v in _CLOSERS.items() if k != "«"}, "»": "«"}

# A letter as the tokenizer sees one: ’ between two of them is inside a token.
_LETTER = re.compile(rf"[^\W\d_{_CJK}]")
_WORD_AHEAD = re.compile(r"\s+[^\W\d_]")
_WORD = re.compile(rf"[^\W\d_{_CJK}]+(?:['’][^\W\d_{_CJK}]+)*|\d+(?:[.,:/-]\d+)*")
_CJK_CHAR = re.compile(f"[{_CJK}]")
_PUNCTUATION = "[.,;:!?。，；：！？…]*"
# what may follow the closing mark of a paragraph that is one quotation
_TAIL = re.compile(rf"\s*{_PUNCTUATION}\s*(?:[(（][^()（）]{{0,200}}[)）])?\s*{_PUNCTUATION}\s*\Z")


@dataclass(frozen=True, slots=True)
class QuoteScan:
    """The quotations of a text: `spans` are (start, end) character offsets, marks
    included, in order; `unbalanced` counts the marks that open or close nothing;
    `terms` are the quoted terms, the writer's own text."""

    spans: tuple[tuple[int, int], ...] = ()
    unbalanced: int = 0
    terms: tuple[tuple[int, int], ...] = ()


def may_hold_quotations(text: str) -> bool:
    """Whether `text` has a quotation mark at all: the quick test that lets nearly every
    paragraph skip `find_quotations` (a substring search is ten times faster than a
    regular expression here)."""
    if text.isascii():
        return '"' in text
    return any(mark in text for mark in _QUOTE_CHARS)


def find_quotations(text: str, *, whole_paragraph: bool = True, ocr: bool = False) -> QuoteScan:
    """The quotations of one paragraph (or a piece of one: `whole_paragraph=False` turns
    off the rule for a paragraph that is one quotation); `ocr`: the text was read by OCR,
    its marks judged by the rules for OCR text. See the module's rules.

    Examples:
        >>> text = "He said “don’t go there” and left. The students’ “final” essays"
        >>> scan = find_quotations(text)
        >>> [text[a:b] for a, b in scan.spans], [text[a:b] for a, b in scan.terms]
        (['“don’t go there”'], ['“final”'])
        >>> find_quotations("《红楼梦》是小说。他说：「好。").unbalanced
        1
    """
    if not may_hold_quotations(text):
        return QuoteScan()
    if ocr:
        return QuoteScan(_ocr_quotations(text))
    closers_of = _REVERSED_CLOSERS if _guillemets_reversed(text) else _CLOSERS
    spans: list[tuple[int, int]] = []
    unbalanced = 0
    search, simple = _QUOTE_CHAR.search, _SIMPLE_QUOTATION.match
    found = search(text)
    first = True
    while found is not None:
        pos = found.start()
        quotation = simple(text, pos)
        if quotation is not None:
            end = quotation.end()
            spans.append((pos, end))
            first = False
            found = search(text, end)
            continue
        mark = text[pos]
        closers = _STRAIGHT if mark in _STRAIGHT else closers_of.get(mark)
        close = -1
        if closers is not None:
            close = _closing(text, pos, closers, capped=True)
            if close < 0 and first and whole_paragraph and not text[:pos].strip():
                close = _closing(text, pos, closers, capped=False)
                if close >= 0 and not _TAIL.match(text, close + 1):
                    close = -1
        if close >= 0:
            spans.append((pos, close + 1))
        else:
            unbalanced += mark != "’"  # a lone ’ is an apostrophe
        first = False
        found = search(text, max(pos, close) + 1)
    terms = tuple(span for span in spans if _quoted_term(text, *span))
    if terms:
        spans = [span for span in spans if span not in terms]
    return QuoteScan(tuple(spans), unbalanced, terms)


_BROUGHT_IN = re.compile(r"[:,：，]\s*\Z")


def _quoted_term(text: str, start: int, end: int) -> bool:
    """Whether the quotation at text[start:end] (marks included) is a quoted term: a word
    or two of the writer's own sentence, not brought in by a colon or comma, no citation
    naming a source."""
    if end - start > 20 * MAX_TERM_WORDS:  # longer than any term: the quick answer
        return False
    if _weight(text, start, end) > 5 * MAX_TERM_WORDS:
        return False
    if _BROUGHT_IN.search(text, max(0, start - 3), start):
        return False
    return not is_cited(text, start, end)


def _guillemets_reversed(text: str) -> bool:
    """German and Danish quote »so«: a paragraph whose first guillemet is » does."""
    closing = text.find("»")
    return closing >= 0 and text.find("«", 0, closing) < 0


def _closing(text: str, start: int, closers: str, *, capped: bool) -> int:
    """Position of the mark closing the one at `start`, or -1: none, or (`capped`) not
    within the cap. Marks of other kinds inside are skipped; the same kind nests."""
    opener = text[start]
    limit = min(len(text), start + MAX_QUOTE_CHARS + 1) if capped else len(text)
    if opener in _STRAIGHT:  # the next straight quote closes
        found = _STRAIGHT_CHAR.search(text, start + 1, limit)
        return -1 if found is None else _capped(text, start, found.start(), capped)
    kind = _kind_pattern(opener + closers)
    depth, looked = 1, 0
    possessive = -1  # the first ’ that may be an "s’" possessive, kept as a last resort
    found = kind.search(text, start + 1, limit)
    while found is not None and not (capped and looked == _MAX_MARKS_SCANNED):
        at = found.start()
        mark = text[at]
        looked += 1
        found = kind.search(text, at + 1, limit)
        if mark == opener:
            depth += 1
            continue
        if mark == "’":
            if not _closes_like_a_quote(text, at):
                continue
            if depth == 1 and _maybe_possessive(text, at):
                possessive = at if possessive < 0 else possessive
                continue
        depth -= 1
        if depth == 0:
            return _capped(text, start, at, capped)
    return -1 if possessive < 0 else _capped(text, start, possessive, capped)


def _capped(text: str, start: int, close: int, capped: bool) -> int:
    return close if not capped or _within_cap(text, start, close) else -1


@lru_cache(maxsize=16)
def _kind_pattern(marks: str) -> re.Pattern[str]:
    return re.compile(f"[{re.escape(marks)}]")


def _closes_like_a_quote(text: str, at: int) -> bool:
    """Whether the ’ at `at` may close a quotation: not between two letters (an
    apostrophe, inside a token) and not after a space (an elision, ’tis, ’90s)."""
    before = text[at - 1]
    if before.isspace():
        return False
    return not (_LETTER.match(before) and at + 1 < len(text) and _LETTER.match(text, at + 1))


def _maybe_possessive(text: str, at: int) -> bool:
    """An "s’" before a word: the students’ essays."""
    return text[at - 1] in "sS" and _WORD_AHEAD.match(text, at + 1) is not None


def _within_cap(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is short enough to be a quotation: `MAX_QUOTE_WORDS`
    words, a CJK character counting 2/5 of a word."""
    if end - start <= MAX_QUOTE_WORDS:  # never more words than characters
        return True
    if end - start > MAX_QUOTE_CHARS:
        return False
    words = len(_WORD.findall(text, start, end))
    cjk = len(_CJK_CHAR.findall(text, start, end))
    return 5 * words + 2 * cjk <= 5 * MAX_QUOTE_WORDS


# -- quotations in text read by OCR ----------------------------------------------------

# kind of each mark: double marks are one kind (Tesseract mixes them up), so are single
# ones; 「」『』 open or close only
_OCR_KIND = {
    **dict.fromkeys('"＂“”„‟', '"'),
    **dict.fromkeys("‘’‚‛", "'"),
    **dict.fromkeys("«»", "«"),
    "「": "「",
    "」": "「",
    "『": "『",
    "』": "『",
}
_OCR_MARK = re.compile(f"[{''.join(_OCR_KIND)}]")
_OPEN_ONLY, _CLOSE_ONLY = "「『", "」』"
# a letter or digit of a word written with spaces: no quotation mark stands next to one on
# its outer side (a CJK character may: Chinese has no spaces)
_WORD_CHAR = re.compile(rf"[^\W_{_CJK}]")


def _ocr_quotations(text: str) -> tuple[tuple[int, int], ...]:
    """The quotations of a paragraph read by OCR (the module's rules), in order."""
    open_at: dict[str, list[int]] = {}
    pairs: list[tuple[int, int]] = []
    for found in _OCR_MARK.finditer(text):
        at, mark = found.start(), found.group()
        kind = _OCR_KIND[mark]
        before = text[at - 1] if at else " "
        after = text[at + 1] if at + 1 < len(text) else " "
        opens = mark not in _CLOSE_ONLY and not _WORD_CHAR.match(before) and not after.isspace()
        closes = mark not in _OPEN_ONLY and not before.isspace() and not _WORD_CHAR.match(after)
        waiting = open_at.get(kind)
        if closes and waiting:
            pairs.append((waiting.pop(), at + 1))
        elif opens:
            open_at.setdefault(kind, []).append(at)
    if not pairs:
        return ()
    paragraph = _weight(text, 0, len(text))
    spans: list[tuple[int, int]] = []
    for start, end in sorted(pairs, key=lambda pair: (pair[0], -pair[1])):
        if spans and start < spans[-1][1]:
            continue  # inside (or across) a quotation kept
        weight = _weight(text, start, end)
        if 0 < weight <= 5 * MAX_OCR_QUOTE_WORDS and weight <= MAX_OCR_QUOTE_SHARE * paragraph:
            spans.append((start, end))
    return tuple(spans)


def _weight(text: str, start: int, end: int) -> int:
    """Five times the words of text[start:end], a CJK character counting 2/5 of a word."""
    return 5 * len(_WORD.findall(text, start, end)) + 2 * len(_CJK_CHAR.findall(text, start, end))


# -- the bibliography -----------------------------------------------------------------

_HEADING_MAX_CHARS = 60
_APPENDIX_MAX_CHARS = 100
_ENTRIES_CHECKED = 20  # the first paragraphs after a heading that must look like references
_REFERENCE_SHARE = 0.6  # of their text, in characters
_ENTRY_MAX_WORDS = 60  # a reference is shorter; a longer paragraph is prose
_LONG_LOOK_CHARS = 4000  # what is looked at of a long paragraph
_URL = re.compile(r"https?://\S+|www\.\S+")

# "7.", "VII", "1.2", "七、", "第七章", "（七）", "#" (Markdown), "**" (bold in Markdown)
_NUMBERING = (
    r"(?:\d+(?:\.\d+)*\.?\s*|[ivxlc]+(?:\.\s*|\s+)|[一二三四五六七八九十]+[、.]\s*"
    r"|第[\d一二三四五六七八九十百]+[章节部分篇]\s*|[(（][\d一二三四五六七八九十]+[)）]\s*)"
)
_PREFIX = rf"[#*\s]*{_NUMBERING}?"
_BIBLIOGRAPHY_WORDS = (
    "references?|reference list|list of references|bibliography|select(?:ed)? bibliography"
    "|works cited|works consulted|sources|sources cited|literature|literature cited"
    "|cited literature|主要参考文献|参考文献|参考资料|参考书目|引用文献|文献"
    "|主要參考文獻|參考文獻|參考資料|參考書目|引用文獻|文獻"
)
_BIBLIOGRAPHY_HEADING = re.compile(
    rf"{_PREFIX}[【\[〔(（]?\s*(?:{_BIBLIOGRAPHY_WORDS})\s*[】\]〕)）]?\s*[:：]?[*\s]*\Z"
)
# A cheap look before the exact one: most short paragraphs are not headings.
_MAYBE_BIBLIOGRAPHY = re.compile(
    r"(?i)referen|bibliog|works|sources|literat|文\s*[献獻]|[参參]\s*考"
)
_APPENDIX_HEADING = re.compile(
    rf"{_PREFIX}(?:(?:appendix|appendices|annex(?:es)?)"
    r"(?:\s*\Z|\s*[:：.\-–—].*|\s+(?:[a-z]|\d+|[ivx]+)(?:\Z|[\s:：.\-–—)].*))"
    r"|附[录錄].{0,30})\Z"
)
_MAYBE_APPENDIX = re.compile(r"(?i)append|annex|附\s*[录錄]")
_SPACE_IN_CJK = re.compile(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])")

_CITATION_SIGNAL = re.compile(
    r"(?<![\d.])(?:1[5-9]|20)\d\d[a-z]?(?![\d年])"  # a year, not 2010年 of Chinese prose
    r"|\bn\.\s?d\.|https?://|www\.|\bdoi\b|\b10\.\d{4,}/|\bisbn\b|\bissn\b"
    r"|\bet al\b|\bpp?\.\s*\d|\bvol\.\s*\d|\(eds?\.?\)|\btrans\."
    r"|\[(?:[a-z]{1,2}|[a-z]{1,2}/ol)\]"  # GB/T 7714 type codes: [M], [J], [EB/OL]
    r"|出版社|书局|書局|学报|學報|等\.",
    re.IGNORECASE,
)
# "[1] ", "(1) " or "Surname, A." / "Surname, Given." opening an entry
_ENTRY_OPENING = re.compile(
    r"\s*(?:[\[［(（]\d+[\]］)）]|[A-Z][\w'’-]+,\s+(?:[A-Z]\.|[A-Z][a-z]+\.))"
)
# What prose hardly has, even a literature review full of citations: in a long paragraph,
# one every `_WORDS_PER_LIST_SIGNAL` words is a reference list run together (a PDF box).
_LIST_SIGNAL = re.compile(
    r"\b[A-Z][\w'’-]+,\s+(?:[A-Z]\.\s?){1,3}"  # Smith, J. / Chen, L. K.
    r"|\[(?:[A-Z]{1,2}|[A-Z]{1,2}/OL)\]"  # [M], [J], [EB/OL]
    r"|https?://|www\.|\b(?i:doi)\b|\b10\.\d{4,}/|\bpp\.\s*\d|\b[Vv]ol\.\s*\d"
)
_WORDS_PER_LIST_SIGNAL = 30
_MIN_LIST_SIGNALS = 3


# A citation: a bracket holding a year or a page ("(Smith, 2019, p. 4)", "（张三，2019）",
# "(p. 12)"), or a numbered reference ("[12]", "[3, 5]").
_CITATION = re.compile(
    r"[(（\[][^()（）\[\]]{0,60}?(?:\b1[5-9]\d\d|\b20\d\d|\bpp?\.\s*\d+)[^()（）\[\]]{0,30}[)）\]]"
    r"|\[\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\]"
)
_CITATION_REACH = 80  # characters before or after a quotation searched for its citation
_SENTENCE_END = re.compile(r"(?<!\bal)(?<!\bp)(?<!\bpp)[.!?]\s|[。！？]")  # "et al.", "p." go on


def is_cited(paragraph: str, start: int, end: int) -> bool:
    """Whether the quotation at `paragraph[start:end]` names its source: a citation after
    it in the same sentence ("…” (Smith, 2019).", "…,” Smith writes (2019).") or in the
    words that bring it in ("As Smith (2019) puts it, “…”")."""
    after = paragraph[end : end + _CITATION_REACH]
    before = paragraph[max(0, start - _CITATION_REACH) : start]
    if _CITATION.match(after.lstrip(" ,.;:，。；：")) or _CITATION.search(before):
        return True
    later = _CITATION.search(after)
    ends_a_sentence = _SENTENCE_END.match(paragraph[end - 2 : end - 1] + " ")
    return bool(later and not ends_a_sentence and not _SENTENCE_END.search(after, 0, later.start()))


def is_bibliography_heading(paragraph: str) -> bool:
    """Whether `paragraph` is a heading such as "References", "7. Works cited:" or
    "参 考 文 献" (case, width and spacing ignored).

    Examples:
        >>> is_bibliography_heading("VII. Bibliography:"), is_bibliography_heading("【参考文献】")
        (True, True)
        >>> is_bibliography_heading("References to the war are everywhere.")
        False
    """
    if len(paragraph) > _HEADING_MAX_CHARS or not _MAYBE_BIBLIOGRAPHY.search(paragraph):
        return False
    return _BIBLIOGRAPHY_HEADING.match(_heading_key(paragraph)) is not None


def is_appendix_heading(paragraph: str) -> bool:
    """Whether `paragraph` is an appendix heading: "Appendix", "Appendix B: Survey",
    "Annex 2", "附录一" (not "Appendix to the report", a title in a reference list)."""
    if len(paragraph) > _APPENDIX_MAX_CHARS or not _MAYBE_APPENDIX.search(paragraph):
        return False
    return _APPENDIX_HEADING.match(_heading_key(paragraph)) is not None


def _heading_key(paragraph: str) -> str:
    key = unicodedata.normalize("NFKC", paragraph).casefold().strip()
    return " ".join(_SPACE_IN_CJK.sub("", key).split())


def bibliography_ranges(paragraphs: Sequence[str]) -> list[tuple[int, int]]:
    """(first, stop) paragraph ranges that are bibliography, headings included, in order.

    Examples:
        >>> bibliography_ranges(["Essay text.", "References", "Smith, J. (2010). Rivers.",
        ...                      "Appendix A", "Survey."])
        [(1, 3)]
    """
    ranges: list[tuple[int, int]] = []
    appendices: list[int] | None = None  # found once, when a heading is
    i, n = 0, len(paragraphs)
    while i < n:
        if is_bibliography_heading(paragraphs[i]):
            if appendices is None:
                appendices = [j for j in range(i, n) if is_appendix_heading(paragraphs[j])]
            after = bisect.bisect_right(appendices, i)
            stop = _reference_list_stop(
                paragraphs, i + 1, appendices[after] if after < len(appendices) else n
            )
            if stop is not None:
                ranges.append((i, stop))
                i = stop
                continue
        i += 1
    return ranges


def _reference_list_stop(paragraphs: Sequence[str], start: int, end: int) -> int | None:
    """Where the paragraphs from `start` stop being a reference list: at `end` (an
    appendix heading or the document's end), or earlier before two prose paragraphs in a
    row; None when most of the text of the first `_ENTRIES_CHECKED` non-empty ones is not
    in entries that look like references."""
    total = listed = checked = 0
    prose_before = None  # the previous non-empty paragraph if it was prose: (index, counted)
    stop = end
    for j in range(start, end):
        entry = paragraphs[j].strip()
        if not entry:
            continue
        kind = _entry_kind(entry)
        if kind == "prose" and prose_before is not None:
            stop, counted = prose_before
            total -= counted  # the prose after the list is not judged as part of it
            break
        counted = len(entry) if checked < _ENTRIES_CHECKED else 0
        if counted:
            total += counted
            listed += counted if kind == "reference" else 0
            checked += 1
        elif listed < _REFERENCE_SHARE * total:
            return None  # no need to look for the end of what is no reference list
        prose_before = (j, counted) if kind == "prose" else None
    if total == 0 or listed < _REFERENCE_SHARE * total:
        return None
    return stop


def _entry_kind(entry: str) -> str:
    """ "reference": a short entry (at most `_ENTRY_MAX_WORDS` words) with a citation
    signal, or a long one dense with what only reference lists have; "prose": a long
    paragraph; "other": a short one without a signal."""
    if len(entry) <= _ENTRY_MAX_WORDS:  # fewer characters than that many words
        return "reference" if _has_citation_signal(entry) else "other"
    text = entry[:_LONG_LOOK_CHARS]
    words = _words(text)
    if words <= _ENTRY_MAX_WORDS:
        return "reference" if _has_citation_signal(entry) else "other"
    signals = len(_LIST_SIGNAL.findall(text))
    if signals >= _MIN_LIST_SIGNALS and signals * _WORDS_PER_LIST_SIGNAL >= words:
        return "reference"
    return "prose"


def _has_citation_signal(entry: str) -> bool:
    return _CITATION_SIGNAL.search(entry) is not None or _ENTRY_OPENING.match(entry) is not None


def _words(text: str) -> float:
    """Words of `text`, a CJK character counting 2/5 of one and a URL none."""
    text = _URL.sub(" ", text)
    return len(_WORD.findall(text)) + 0.4 * len(_CJK_CHAR.findall(text))
