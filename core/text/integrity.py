"""Integrity flags: signs that a document's text was disguised to slip past a checker
(Turnitin's "flags", Copyleaks' text manipulation). Each flag is one sentence for the
user with its evidence; a flag needs enough evidence that clean documents (maths,
full-width punctuation, Chinese/Latin mixes, slide decks) are not flagged.

The disguises are undone before comparison elsewhere (hidden text is left out by the
readers, look-alike letters are folded by `normalize`); here they are only counted.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator

import numpy as np
from simsift.core.document import ExtractedText
from simsift.core.text.confusables import (
    BLANK_LETTERS,
    INVISIBLE,
    disguised_words,
    lookalike_table,
    may_be_disguised,
    remove_invisible,
)
from simsift.core.text.quotations import QUOTATION, find_quotations
from simsift.core.text.tokens import TokenStream

# hidden text shorter than this is left alone: Word keeps a few hidden characters of its
# own (field codes, bookmarks), and a hidden heading is not a disguise
MIN_HIDDEN_WORDS = 12
_WORD = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_EXAMPLE_CHARS = 60

# Look-alike letters: a Greek letter next to a Latin one is maths ("αx"), a copier swaps
# letters in whole words: only words of 3 letters or more count, and a few of them.
MIN_LOOKALIKE_LETTERS = 6
MIN_LOOKALIKE_WORDS = 3
_MIN_LOOKALIKE_WORD_CHARS = 3
# Invisible characters between two letters of a word (ZWNJ inside a Persian word, a bidi
# mark in Hebrew or Arabic, a joiner in an emoji are not counted: only Latin, Cyrillic,
# Greek and Chinese letters).
MIN_INVISIBLE_IN_WORDS = 8
# Letters spaced out ("e s s a y   i s" or "无 法 删 除 ， 文 件"): stretches of single
# characters (letters, digits, punctuation) one to three spaces apart. One spaced sentence
# (16 letters or more; its commas and brackets spaced too) is enough to hide a copy. A
# letter-spaced heading of a slide deck or a Word title ("T H E   R E S U L T", up to 28
# letters in the evasion bench's clean documents) is capitals only and not counted; a
# stretch of a few letters repeated ("l l l l", a table's column spec) is no text. Some
# Traditional Chinese man pages space every character: they are flagged (6 of 21,026).
MIN_SPACED_RUN_LETTERS = 6
MIN_SPACED_LETTERS = 16
MIN_LONGEST_SPACED_RUN = 12
MIN_SPACED_RUN_DISTINCT = 6
_MIN_VOWEL_SHARE = 0.2
# Word spaces replaced by other blanks, between two letters. No-break spaces are not
# counted: French typography, Word and HTML exports put them anywhere, and extraction and
# NFKC make them spaces anyway (the same for the other Unicode spaces, which extraction
# turns into spaces before the flags see them: what is left are blanks that are not
# whitespace, the Braille blank and the Hangul fillers, which glue words together).
MIN_ODD_SPACES = 20
MIN_ODD_SPACE_SHARE = 0.2
# a text half in quotation marks is flagged: the marks set it apart from copying
MOSTLY_QUOTED = 0.5
# One unclosed mark is a typo as often as not in real text (2 of 270 clean documents of the
# evasion bench had one), and it hides nothing (quotations are capped): two or more flag.
MIN_STRAY_QUOTES = 2
_TYPOGRAPHIC_OPENER = re.compile("[“„«「『]")
_ODD_SPACES = "\u1680\u2000-\u2006\u2008-\u200a\u205f\u2800\u3000" + BLANK_LETTERS
_SCRIPT_LETTER = (  # Latin, Greek, Cyrillic, Chinese
    "A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u052f\u1e00-\u1fff\u3400-\u4dbf\u4e00-\u9fff"
)
# Hangul fillers (invisible letters) are counted as blanks, not as invisible characters
_INVISIBLE_IN_WORD = re.compile(
    rf"(?<=[{_SCRIPT_LETTER}])(?:(?![{BLANK_LETTERS}]){INVISIBLE.pattern})+(?=[{_SCRIPT_LETTER}])"
)
_SPACED_RUN = re.compile(rf"(?<![^\W_])(?:\S {{1,3}}){{{MIN_SPACED_RUN_LETTERS - 1},}}\S(?![^\W_])")
# What every spaced run holds: a space, then its second to fifth characters, each followed
# by spaces. It begins with a space, which the regular expression engine looks for with a
# quick scan: nearly every text is ruled out in a seventh of the full pattern's time.
_SPACED_RUN_INSIDE = re.compile(rf" (?:\S {{1,3}}){{{MIN_SPACED_RUN_LETTERS - 2}}}")
_LETTER = re.compile(r"[^\W\d_]")
_CJK_LETTER = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_ODD_SPACE = re.compile(f"(?<=[{_SCRIPT_LETTER}])[{_ODD_SPACES}](?=[{_SCRIPT_LETTER}])")
_WORD_SPACE = re.compile(f"(?<=[{_SCRIPT_LETTER}])[ {_ODD_SPACES}](?=[{_SCRIPT_LETTER}])")
_ANY_ODD_SPACE = re.compile(f"[{_ODD_SPACES}]")  # a quick first look, without lookarounds


def integrity_flags(extracted: ExtractedText, *, ocr: bool = False) -> tuple[str, ...]:
    """The flags of one extracted document, most telling first (empty: nothing seen).
    `ocr`: its text was read by OCR, whose stray quotation marks (specks, misread
    apostrophes) are no sign of disguise: they are not flagged."""
    texts = (extracted.title, *extracted.paragraphs)
    # look-alike letters, invisible characters and odd blanks are all outside ASCII, and the
    # first two are told cheaply (`may_be_disguised`): most paragraphs need no search for
    # them, which cost as much as tokenizing
    unusual = [text for text in texts if not text.isascii()]
    suspect = [text for text in unusual if may_be_disguised(text)]
    flags = (
        hidden_text_flag(extracted.hidden),
        lookalike_flag(suspect),
        invisible_flag(suspect),
        spaced_letters_flag(texts),
        odd_spaces_flag(texts) if any(map(_ANY_ODD_SPACE.search, unusual)) else "",
        "" if ocr else stray_quotes_flag(unusual),
    )
    return tuple(f for f in flags if f)


def set_apart_flags(body: TokenStream) -> tuple[str, ...]:
    """The flag of a text mostly in quotation marks: quotes cannot hide copying."""
    marks = np.asarray(body.marks)
    quoted = int(np.count_nonzero(marks == QUOTATION))
    if not len(marks) or quoted < MOSTLY_QUOTED * len(marks):
        return ()
    return (f"mostly quoted: {quoted / len(marks):.0%} of the text is in quotation marks",)


def stray_quotes_flag(texts: Iterable[str]) -> str:
    """'stray quotation marks: N open no quotation …', or '': typographic opening marks
    (“ „ « 「 『) that close nothing within a quotation's length, the way a stray mark
    would hide the rest of an essay if quotations had no cap. Straight quotes are
    left alone: technical text is full of them."""
    stray, example = 0, ""
    for text in texts:
        if text.isascii() or not _TYPOGRAPHIC_OPENER.search(text):
            continue
        scan = find_quotations(text)
        spans = scan.spans + scan.terms
        for match in _TYPOGRAPHIC_OPENER.finditer(text):
            if not any(start <= match.start() < end for start, end in spans):
                stray += 1
                example = example or text[match.end() : match.end() + _EXAMPLE_CHARS]
    if stray < MIN_STRAY_QUOTES:
        return ""
    return (
        f"stray quotation marks: {stray} open no quotation, so the text after them counts "
        f"as the writer's own, e.g. “{example.strip()}…”"
    )


def word_count(texts: Iterable[str]) -> int:
    """Words of Latin-script text plus Chinese characters (a rough count, for evidence)."""
    total = 0
    for text in texts:
        cjk = len(_CJK.findall(text))
        total += cjk + len(_WORD.findall(_CJK.sub(" ", text)))
    return total


def hidden_text_flag(hidden: tuple[str, ...]) -> str:
    """'N words of hidden text in P places, e.g. “…”', or '' when there is too little."""
    pieces = [h.strip() for h in hidden if h.strip()]
    words = word_count(pieces)
    if words < MIN_HIDDEN_WORDS:
        return ""
    longest = max(pieces, key=len)
    example = longest[:_EXAMPLE_CHARS] + ("…" if len(longest) > _EXAMPLE_CHARS else "")
    places = "1 place" if len(pieces) == 1 else f"{len(pieces)} places"
    return f"hidden text: {words} words the file does not show, in {places}, e.g. “{example}”"


def lookalike_flag(texts: Iterable[str]) -> str:
    """'look-alike letters: N Cyrillic letters in Latin words (а→a ×9, …), e.g. “…”', or ''.

    Counts the letters `normalize` folds (`confusables.disguised_words`) in words of 3
    letters or more, on the text as extracted (invisible characters aside).
    """
    table = lookalike_table()
    swaps: Counter[str] = Counter()
    scripts: Counter[str] = Counter()
    words: Counter[str] = Counter()
    for text in texts:
        if not text:
            continue
        text = unicodedata.normalize("NFKC", remove_invisible(text))
        for start, end in disguised_words(text):
            word = text[start:end]
            if len(word) < _MIN_LOOKALIKE_WORD_CHARS:
                continue
            letters = [c for c in word if c in table]
            words[word] += 1
            swaps.update(letters)
            scripts.update(unicodedata.name(c, "?").split()[0].title() for c in letters)
    total = sum(swaps.values())
    if total < MIN_LOOKALIKE_LETTERS or len(words) < MIN_LOOKALIKE_WORDS:
        return ""
    which = ", ".join(f"{c}→{table[c]} ×{n}" for c, n in swaps.most_common(4))
    more = ", …" if len(swaps) > 4 else ""
    script = " and ".join(name for name, _ in scripts.most_common())
    example = words.most_common(1)[0][0]
    return (
        f"look-alike letters: {total} {script} letters in {sum(words.values())} Latin words "
        f"({which}{more}), e.g. “{example}”"
    )


def invisible_flag(texts: Iterable[str]) -> str:
    """'invisible characters: N (U+200B zero width space ×…) between letters of W words, e.g.
    “es·say”', or '' when there are too few inside words."""
    kinds: Counter[str] = Counter()
    places = 0
    example = ""
    for text in texts:
        for match in _INVISIBLE_IN_WORD.finditer(text):
            places += 1
            kinds.update(match.group())
            if not example:
                example = _word_around(text, match.start(), match.end())
    if places < MIN_INVISIBLE_IN_WORDS:
        return ""
    which = ", ".join(f"{_char_name(c)} ×{n}" for c, n in kinds.most_common(3))
    more = ", …" if len(kinds) > 3 else ""
    return (
        f"invisible characters: {sum(kinds.values())} ({which}{more}) between the letters of "
        f"words in {places} places, e.g. “{example}” (· marks one)"
    )


def spaced_letters_flag(texts: Iterable[str]) -> str:
    """'letters spaced out: N letters in R runs, e.g. “e s s a y …”', or ''."""
    runs = [match.group() for text in texts for match in spaced_runs(text)]
    letters = [len(_LETTER.findall(run)) for run in runs]
    if not letters or sum(letters) < MIN_SPACED_LETTERS or max(letters) < MIN_LONGEST_SPACED_RUN:
        return ""
    longest = max(runs, key=len)
    example = longest[:_EXAMPLE_CHARS] + ("…" if len(longest) > _EXAMPLE_CHARS else "")
    return (
        f"letters spaced out: {sum(letters)} letters written one by one with spaces between, "
        f"in {len(runs)} places, e.g. “{example}”"
    )


def spaced_runs(text: str) -> Iterator[re.Match[str]]:
    """Stretches of characters spaced out that hold text: six different letters at least,
    not capitals only (a letter-spaced heading), not a list of letters."""
    if not _SPACED_RUN_INSIDE.search(text):
        return
    for match in _SPACED_RUN.finditer(text):
        letters = _LETTER.findall(match.group())
        if (
            len(set(letters)) >= MIN_SPACED_RUN_DISTINCT
            and not _capitals_only(letters)
            and not _letter_list(letters)
        ):
            yield match


def _capitals_only(letters: list[str]) -> bool:
    return all(letter.isupper() for letter in letters)


def _letter_list(letters: list[str]) -> bool:
    """Whether Latin letters are a list ("a b c e h j", "a x b y c z": a diff's example
    sequences), not words: no letter twice, or hardly a vowel (words are about 40%)."""
    latin = [letter.lower() for letter in letters if letter.isascii()]
    if len(latin) * 2 < len(letters):
        return False
    vowels = sum(letter in "aeiou" for letter in latin)
    return len(set(latin)) == len(latin) or vowels < _MIN_VOWEL_SHARE * len(latin)


# The kinds of disguise `disguise_spans` finds, named as their flags begin.
LOOKALIKE, INVISIBLE_IN_WORDS, SPACED_OUT, SPACES_REPLACED = (
    "look-alike letters",
    "invisible characters",
    "letters spaced out",
    "spaces replaced",
)


def disguise_spans(paragraph: str, kinds: Iterable[str]) -> list[tuple[int, int, str]]:
    """Where `paragraph`, as extracted, holds a disguise of one of `kinds` (flag names:
    LOOKALIKE, ...): sorted, non-overlapping (start, end, kind), the evidence behind a
    document's flags, to show in its text."""
    kinds = set(kinds)
    found: list[tuple[int, int, str]] = []
    if not paragraph.isascii():
        if LOOKALIKE in kinds:
            found += [
                (start, end, LOOKALIKE)
                for start, end in disguised_words(paragraph)
                if end - start >= _MIN_LOOKALIKE_WORD_CHARS
            ]
        if INVISIBLE_IN_WORDS in kinds:
            found += [
                (*_word_span(paragraph, *m.span()), INVISIBLE_IN_WORDS)
                for m in _INVISIBLE_IN_WORD.finditer(paragraph)
            ]
        if SPACES_REPLACED in kinds:
            found += [(*m.span(), SPACES_REPLACED) for m in _ODD_SPACE.finditer(paragraph)]
    if SPACED_OUT in kinds:
        found += [(*m.span(), SPACED_OUT) for m in spaced_runs(paragraph)]
    spans: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(found):
        if spans and start < spans[-1][1]:  # one word with two disguises: marked once
            continue
        spans.append((start, end, kind))
    return spans


def _word_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The word around text[start:end] (letters and the invisible characters in it)."""
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return start, end


def odd_spaces_flag(texts: Iterable[str]) -> str:
    """'spaces replaced: N of M spaces between words are other blanks (…)', or ''."""
    odd: Counter[str] = Counter()
    gaps = 0
    for text in texts:
        gaps += len(_WORD_SPACE.findall(text))
        odd.update(_ODD_SPACE.findall(text))
    total = sum(odd.values())
    if total < MIN_ODD_SPACES or total < MIN_ODD_SPACE_SHARE * gaps:
        return ""
    which = ", ".join(f"{_char_name(c)} ×{n}" for c, n in odd.most_common(3))
    return f"spaces replaced: {total} of {gaps} spaces between words are other blanks ({which})"


def _char_name(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'format character').lower()}"


def _word_around(text: str, start: int, end: int) -> str:
    """The word holding text[start:end] (invisible characters), with them shown as '·'."""
    lo, hi = start, end
    while lo > 0 and (text[lo - 1].isalpha() or INVISIBLE.match(text, lo - 1)):
        lo -= 1
    while hi < len(text) and (text[hi].isalpha() or INVISIBLE.match(text, hi)):
        hi += 1
    return INVISIBLE.sub("·", text[max(lo, start - 30) : min(hi, end + 30)])
