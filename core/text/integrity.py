"""Integrity flags: signs that a document's text was disguised to slip past a checker
(Turnitin's "flags", Copyleaks' text manipulation). Each flag is one sentence for the
user with its evidence; a flag needs enough evidence that clean documents (maths,
full-width punctuation, Chinese/Latin mixes, slide decks) are not flagged.

The disguises are undone before comparison elsewhere (hidden text is left out by the
readers, look-alike letters are folded by `normalize`); here they are only counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from simsift.core.document import ExtractedText

# hidden text shorter than this is left alone: Word keeps a few hidden characters of its
# own (field codes, bookmarks), and a hidden heading is not a disguise
MIN_HIDDEN_WORDS = 12
_WORD = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_EXAMPLE_CHARS = 60


def integrity_flags(extracted: ExtractedText) -> tuple[str, ...]:
    """The flags of one extracted document, most telling first (empty: nothing seen)."""
    return tuple(f for f in (hidden_text_flag(extracted.hidden),) if f)


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
