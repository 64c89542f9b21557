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
"""

from __future__ import annotations

import re

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


def join_spaced_letters(text: str) -> str:
    """`text` with every run of letters spaced out joined into words."""
    if not _MAYBE.search(" " + text):
        return text
    return _SPACED_RUN.sub(_joined, text)


def _joined(match: re.Match[str]) -> str:
    run = match.group()
    letters = run.replace(" ", "")
    if len(set(letters)) < MIN_RUN_DISTINCT:
        return run
    if len(_CJK.findall(letters)) * 2 > len(letters):
        return letters
    return " ".join(word.replace(" ", "") for word in _WORD_GAP.split(run))
