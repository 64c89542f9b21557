"""Sentences of a document, as character spans of its display text.

The display text is `"\\n\\n".join(paragraphs)`, as the side-by-side view shows it. A
paragraph is cut after sentence-final punctuation (English and Chinese); a paragraph of
many short lines (a list, a glossary, code, a table, lyrics) is cut at every line break
as well, and a sentence longer than `max_size` word units (a run-on sentence, text with
no punctuation at all) is cut into pieces of that size, so no sentence is unbounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import numpy as np

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# a Chinese character counts as this many English words: a translation of 60 English
# words into Chinese takes about 80 to 100 characters
HAN_WEIGHT = 0.7
MAX_SIZE = 50  # word units of the longest sentence kept whole

# English ends before a space and what is not a lower-case letter ("e.g. this" goes on)
_END = re.compile(r"[.!?;]+[\"'”’)\]]*(?=\s+[^a-z]|\s*$)|[。！？；…]+[”’」』）)]*")
# words as `concepts` counts them: a Chinese character, a number, a run of letters
_UNIT = re.compile(rf"[{HAN}]|\d+(?:[.,]\d+)*|[^\W\d_{HAN}]+")
_LATIN_UNIT = re.compile(rf"\d+(?:[.,]\d+)*|[^\W\d_{HAN}]+")
_HAN_CHAR = re.compile(f"[{HAN}]")
_LINES_SHORT = 60  # mean characters of a paragraph's lines below which each is a sentence


def sentence_spans(paragraphs: Sequence[str], max_size: int = MAX_SIZE) -> np.ndarray:
    """(start, end) character offsets of each sentence in the display text, in order;
    as an int64 array of shape (sentences, 2). Spans hold no surrounding whitespace."""
    spans: list[tuple[int, int]] = []
    base = 0
    for paragraph in paragraphs:
        for start, end in _paragraph_sentences(paragraph, max_size):
            spans.append((base + start, base + end))
        base += len(paragraph) + 2
    return np.array(spans, np.int64).reshape(-1, 2)


def _paragraph_sentences(text: str, max_size: int) -> Iterator[tuple[int, int]]:
    for start, end in _lines(text):
        cut = start
        for match in _END.finditer(text, start, end):
            yield from _bounded(text, cut, match.end(), max_size)
            cut = match.end()
        yield from _bounded(text, cut, end, max_size)


def _lines(text: str) -> list[tuple[int, int]]:
    """The whole paragraph, or each of its lines when they are short (a list, not prose
    wrapped at a width)."""
    if "\n" not in text:
        return [(0, len(text))]
    ends = [m.start() for m in re.finditer("\n", text)]
    if len(text) / (len(ends) + 1) >= _LINES_SHORT:
        return [(0, len(text))]
    starts = [0, *(e + 1 for e in ends)]
    return list(zip(starts, [*ends, len(text)], strict=True))


def _bounded(text: str, start: int, end: int, max_size: int) -> Iterator[tuple[int, int]]:
    """[start, end) without its outer whitespace, cut into pieces of at most `max_size`
    word units; nothing if it holds no word at all."""
    first = _UNIT.search(text, start, end)
    if first is None:
        return
    # nearly every sentence is short: its units counted at C speed, not walked one by one
    # (a unit takes a character at least, so a short line needs no count at all)
    if end - start <= max_size:
        size = 0.0
    elif text[start:end].isascii():
        size = len(_LATIN_UNIT.findall(text, start, end))
    else:
        han = len(_HAN_CHAR.findall(text, start, end))
        size = len(_LATIN_UNIT.findall(text, start, end)) + HAN_WEIGHT * han
    if size <= max_size:
        yield first.start(), start + len(text[start:end].rstrip())
        return
    yield from _cut(text, start, end, max_size)


def _cut(text: str, start: int, end: int, max_size: int) -> Iterator[tuple[int, int]]:
    size, piece_start, last_end = 0.0, None, start
    for match in _UNIT.finditer(text, start, end):
        unit = HAN_WEIGHT if len(match[0]) == 1 and _is_han(match[0]) else 1.0
        if piece_start is None:
            piece_start = match.start()
        elif size + unit > max_size:
            yield piece_start, last_end
            piece_start, size = match.start(), 0.0
        size += unit
        last_end = match.end()
    if piece_start is not None:
        yield piece_start, _closing_end(text, last_end, end)


def _closing_end(text: str, last_end: int, end: int) -> int:
    """The end of a sentence: its last word and the punctuation right after it."""
    stripped = text[last_end:end].rstrip()
    return last_end + len(stripped)


def _is_han(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"
