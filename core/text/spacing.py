"""Letters spaced out undone before comparison: "e s s a y   i s" reads "essay is".

Writing a copied sentence one letter at a time, with spaces between, turns its words into
single letters: a copy of an essay with a sentence or two spaced out drifts 8–11 bits from
its original and out of reach at k=8. A run of single letters one to three spaces apart
(six letters at least, six of them different: "l l l l", a table's column spec, stays
as it is) is joined into words again: letters one space apart join, a wider gap is a
word break ("e s s a y   i s" is "essay is"). Letters spaced one space everywhere
("e s s a y i s") join into one word, which is still far nearer the original than
twelve one-letter words. Chinese characters spaced out join whole: jieba cuts them as
it cuts the original.

A stretch with word gaps is joined whole, its punctuation and digits too: the narrowest
gaps are inside words, so "n p . z e r o s ( 5 1 )   i s" is "np.zeros(51) is", as
written before it was spaced out (a letter run alone would stop at every dot and
bracket, and the short pieces between them stay single letters). Without word gaps the
gaps tell nothing, and only letters join ("f ( x ) = a x + b" stays as it is).

The readers fold every run of whitespace to one space, which would make "e s s a y   i s"
"e s s a y i s"; they keep the word gaps of letters spaced out instead (`keep_word_gaps`):
the file holds them (Word keeps the spaces typed, so does a text file, an HTML page in
its source) and they are the only trace of the words left.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MIN_RUN_LETTERS = 6
MIN_RUN_DISTINCT = 6
_SPACED_RUN = re.compile(
    rf"(?<![^\W_])(?:[^\W\d_] {{1,3}}){{{MIN_RUN_LETTERS - 1},}}[^\W\d_](?![^\W_])"
)
# A cheap first look (a space leads, so the search jumps from space to space): three
# single characters of a word in a row, spaced out.
_MAYBE = re.compile(r" \w {1,3}\w {1,3}\w ")
_WORD_GAP = re.compile(" {2,}")
_CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTER = re.compile(r"[^\W\d_]")
# A stretch of single characters (letters, digits, punctuation) one to three spaces apart,
# and a first look for a word gap: a wider gap between two single characters. In text as
# read a gap is of spaces and no-break spaces (an HTML page's &nbsp;); a line break or a
# tab ends a stretch.
_SPACED_STRETCH = re.compile(r"(?<![^\W_])(?:\S {1,3}){5,}\S(?![^\W_])")
_MAYBE_WORD_GAP = re.compile(r"(?<![^\W_])\S {2,3}\S(?![^\W_])")
_READ_STRETCH = re.compile(r"(?<![^\W_])(?:\S[ \u00a0]{1,3}){5,}\S(?![^\W_])")
# (the two spaces first: a search for them is ten times faster than for a character
# before them, in text with two spaces after every sentence)
_MAYBE_READ_WORD_GAP = re.compile(r"  (?<=[\W_]\S  ) ?\S(?![^\W_])")
_GAP = re.compile(r"[ \u00a0]+")


def join_spaced_letters(text: str) -> str:
    """`text` with every run of letters spaced out joined into words."""
    if not _MAYBE.search(" " + text):
        return text
    if _MAYBE_WORD_GAP.search(text):
        text = _SPACED_STRETCH.sub(_joined_stretch, text)
    return _SPACED_RUN.sub(_joined, text)


def _joined(match: re.Match[str]) -> str:
    run = match.group()
    letters = run.replace(" ", "")
    if len(set(letters)) < MIN_RUN_DISTINCT:
        return run
    if len(_CJK.findall(letters)) * 2 > len(letters):
        return letters
    return " ".join(word.replace(" ", "") for word in _WORD_GAP.split(run))


def _joined_stretch(match: re.Match[str]) -> str:
    """A stretch with word gaps as written before it was spaced out: its narrowest gaps
    dropped, the wider ones one space; other stretches as they are."""
    stretch = match.group()
    narrow = _word_gaps(stretch)
    if narrow is None:
        return stretch
    return _regapped(stretch, narrow, "", " ")


def keep_word_gaps(text: str, fold: Callable[[str], str]) -> str:
    """`text` as read with its whitespace folded by `fold` (runs to one space), except the
    word gaps of letters spaced out: in a stretch of them with word gaps, the narrowest
    gaps (between letters) become one space and the wider ones (between words) are kept
    as spaces: "e s s a y   i s" stays, "e s s a y&nbsp;&nbsp; i s" of a page reads
    "e s s a y   i s". Text without such a stretch is `fold(text)`.
    """
    spaces = text.replace("\u00a0", " ") if "\u00a0" in text else text
    if not _MAYBE_READ_WORD_GAP.search(" " + spaces):
        return fold(text)
    pieces, done = [], 0
    for match in _READ_STRETCH.finditer(text):
        stretch = match.group()
        narrow = _word_gaps(stretch)
        if narrow is None:
            continue
        kept = _regapped(stretch, narrow, " ", None)
        pieces += (fold(text[done : match.start()]), kept)
        done = match.end()
    if not pieces:
        return fold(text)
    pieces.append(fold(text[done:]))
    return "".join(pieces)


def _word_gaps(stretch: str) -> int | None:
    """The width of the gaps between letters of a stretch of single characters that has
    word gaps (wider ones), six letters and six different ones at least, a word of three
    letters (not "f ( x )  =  a x + b y"), mostly not Chinese (joined whole anyway); None
    for any other stretch."""
    widths = [len(gap) for gap in _GAP.findall(stretch)]
    narrow = min(widths)
    if narrow == max(widths):
        return None
    letters = _LETTER.findall(stretch)
    if (
        len(letters) < MIN_RUN_LETTERS
        or len(set(letters)) < MIN_RUN_DISTINCT
        or len(_CJK.findall(stretch)) * 2 > len(letters)
        or not re.search(
            rf"[^\W\d_][ \u00a0]{{{narrow}}}[^\W\d_][ \u00a0]{{{narrow}}}[^\W\d_]", stretch
        )
    ):
        return None
    return narrow


def _regapped(stretch: str, narrow: int, inside: str, between: str | None) -> str:
    """`stretch` with its gaps of width `narrow` (inside words) made `inside` and its
    wider ones `between`, or as many spaces as they are wide when `between` is None."""
    return _GAP.sub(
        lambda gap: (
            inside
            if len(gap.group()) == narrow
            else between
            if between is not None
            else " " * len(gap.group())
        ),
        stretch,
    )
