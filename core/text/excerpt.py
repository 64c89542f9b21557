"""The text of a range of a document's body tokens, for excerpts in reports and windows."""

from __future__ import annotations

import numpy as np
from simsift.core.text.normalize import normalize_text
from simsift.core.text.tokens import cut_as_hashed, iter_tokens


def span_text(record, start: int, stop: int, t2s: bool) -> str:
    """The text of body tokens start..stop of a document: the paragraphs they are in, cut
    to the passage's first and last token where the text maps onto its tokens."""
    para_starts = np.asarray(record.tokens.body.para_starts, dtype=np.int64)
    if len(para_starts) == 0:
        para_starts = np.zeros(1, np.int64)
    first = int(np.searchsorted(para_starts, start, side="right")) - 1
    last = int(np.searchsorted(para_starts, stop - 1, side="right")) - 1
    pieces = []
    for number in range(max(first, 0), last + 1):
        paragraph = record.paragraphs[number]
        begin, end = 0, len(paragraph)
        hashes = paragraph_hashes(record, number)
        if number == first:
            begin = token_position(paragraph, start - int(para_starts[number]), t2s, begin, hashes)
        if number == last:
            end = token_position(paragraph, stop - int(para_starts[number]), t2s, end, hashes)
        piece = paragraph[begin:end].strip()
        # an ellipsis where the passage starts or ends inside a paragraph
        pieces.append(("…" if begin > 0 else "") + piece + ("…" if end < len(paragraph) else ""))
    text = " ".join(pieces)
    return text if text else " ".join(record.paragraphs[max(first, 0) : last + 1])


def paragraph_hashes(record, number: int) -> np.ndarray | None:
    """The stored token hashes of paragraph `number` of a document, None without them."""
    body = getattr(record.tokens, "body", None)
    starts = np.asarray(getattr(body, "para_starts", ()), dtype=np.int64)
    if number >= len(starts):
        return None
    stop = int(starts[number + 1]) if number + 1 < len(starts) else len(body.hashes)
    return np.asarray(body.hashes[int(starts[number]) : stop])


def token_position(
    paragraph: str, token: int, t2s: bool, fallback: int, hashes: np.ndarray | None = None
) -> int:
    """Where token number `token` of `paragraph` starts (the paragraph's end past its last
    token); `fallback` when normalizing changes the text's length (positions differ).
    `hashes`: the paragraph's tokens as the reader hashed them, which cut its Chinese
    words without jieba (`cut_as_hashed`)."""
    if token <= 0:
        return 0
    norm = normalize_text(paragraph, traditional_to_simplified=t2s)
    if len(norm) != len(paragraph):
        return fallback
    words = cut_as_hashed(norm, hashes) if hashes is not None else None
    position = 0
    for number, word in enumerate(words if words is not None else _words(norm)):
        position = norm.index(word, position)
        if number == token:
            return position
        position += len(word)
    return len(paragraph)


def _words(norm: str):
    return (word for word, _ in iter_tokens(norm))
