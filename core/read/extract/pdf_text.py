"""The text of a PDF's text boxes as paragraphs: each box's lines joined (hyphenation and
Chinese line wraps undone), glyph numbers of fonts without Unicode values left out."""

from __future__ import annotations

import re

from simsift.core.document import ExtractionError

# Chinese, Japanese and Korean characters, punctuation and full-width forms, as code points
CJK_RANGES = ((0x3000, 0x303F), (0x3400, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))
_CJK = "".join(f"\\u{low:04x}-\\u{high:04x}" for low, high in CJK_RANGES)
# A hyphen between letters at a line end, lowercase after: "exam-\nple", "quoted-\nprintable".
_HYPHEN_BREAK = re.compile(r"([^\W\d_]+)-\n([a-z][^\W\d_]*)")
_WORD = re.compile(r"[^\W\d_]+")
_CJK_CHAR = re.compile(f"[{_CJK}]")
# Lines of Chinese text wrap mid-sentence, also beside a Latin word ("使用\nGSSAPI"); a space
# in the text there is drawn as a character, so the break itself is no space.
_CJK_BREAK = re.compile(rf"(?<=[{_CJK}])\n|\n(?=[{_CJK}])")
# pdfminer writes "(cid:N)" for a glyph whose font does not say which character it is
# (no ToUnicode map); such text is glyph numbers, and different texts would look alike.
_CID = re.compile(r"\(cid:\d+\)")
_MAX_CID_SHARE = 0.2
_NO_UNICODE = "the PDF's fonts do not say which letters they show (no ToUnicode map); no text"


def joined_paragraphs(boxes: list[str]) -> list[str]:
    """One paragraph per text box, its lines joined (see `join_lines`)."""
    words: frozenset[str] = frozenset()
    if any("-\n" in box for box in boxes):  # the words are asked about at hyphen breaks only
        words = frozenset(word.casefold() for box in boxes for word in _WORD.findall(box))
    return [join_lines(box, words) for box in boxes]


def join_lines(box_text: str, words: frozenset[str] = frozenset()) -> str:
    """One paragraph from a text box's lines: undo CJK line wraps and hyphenation.

    A line-end hyphen is dropped only when the joined word is among the document's `words`.
    Word processors do not hyphenate by default, so there the hyphen belongs to the word
    ("quoted-printable"); TeX does, and a word it breaks usually occurs whole elsewhere.
    """
    text = box_text.strip()
    if "\n" not in text:
        return text
    if "-\n" in text:
        text = _HYPHEN_BREAK.sub(lambda m: unhyphenated(m[1], m[2], words), text)
    if _CJK_CHAR.search(text):
        text = _CJK_BREAK.sub("", text)
    return text.replace("\n", " ")


def unhyphenated(head: str, tail: str, words: frozenset[str]) -> str:
    whole = head + tail
    return whole if whole.casefold() in words else f"{head}-{tail}"


def without_glyph_numbers(paragraphs: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """Paragraphs without "(cid:N)" glyph numbers, and a warning when some were dropped.

    Raises ExtractionError when they are a large part of the text.
    """
    if not any("(cid:" in p for p in paragraphs):  # nearly every file: a look, no search
        return paragraphs, ()
    glyphs = sum(len(_CID.findall(p)) for p in paragraphs)
    if not glyphs:
        return paragraphs, ()
    letters = sum(len(_CID.sub("", p).replace(" ", "")) for p in paragraphs)
    if glyphs > _MAX_CID_SHARE * (glyphs + letters):
        raise ExtractionError(_NO_UNICODE)
    warning = f"{glyphs:,} characters could not be read from the PDF's fonts (left out)"
    return [_CID.sub("", p) for p in paragraphs], (warning,)
