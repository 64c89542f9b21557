"""How long a document is, as a reader counts it: characters of text and words.

Words are the scan's tokens: Latin words and numbers as written, Chinese text in jieba's
words (`core.text.tokens`), so an essay of 1,250 Chinese characters is some 800 words, not
the handful of whitespace-separated runs Chinese text holds. Characters are the
characters of the text shown, blanks and invisible format characters left out (Word's
"characters, no spaces"), whatever the file's bytes or markup.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from simsift.core.text.tokens import tokenize

# whitespace, and the invisible characters that only shape text (zero-width space and
# joiners, direction marks, word joiner, byte order mark, soft hyphen)
_BLANK = re.compile(r"[\s\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")


@dataclass(frozen=True, slots=True)
class TextCounts:
    """Characters (blanks left out) and words of a text."""

    characters: int
    words: int


def text_counts(
    paragraphs: Sequence[str], tokens=None, *, traditional_to_simplified: bool = True
) -> TextCounts:
    """The characters and words of `paragraphs`.

    Args:
        paragraphs: the text, as extracted.
        tokens: the paragraphs' body `TokenStream` when the scan made one: its tokens are
            the words, and the text is not segmented again.
        traditional_to_simplified: as the scan normalized the text (words only).

    >>> text_counts(["我们今天去学校。", "We went to school."])
    TextCounts(characters=23, words=8)
    """
    characters = sum(len(p) - len(_BLANK.findall(p)) for p in paragraphs)
    if tokens is not None:
        words = len(tokens)
    else:
        t2s = traditional_to_simplified
        words = sum(len(tokenize(p, traditional_to_simplified=t2s)) for p in paragraphs)
    return TextCounts(characters, words)
