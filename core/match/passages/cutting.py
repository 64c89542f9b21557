"""Documents cut into passages along their paragraphs: `Passages`, `cut_passages`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import ragged_arange
from simsift.core.match.passages.options import PassageOptions
from simsift.core.text.tokens import TokenStream


@dataclass(frozen=True, slots=True)
class Passages:
    """All passages of a corpus as parallel arrays, ordered by document then start.

    Token positions are global: document d's body tokens are
    `offsets[d]:offsets[d+1]`; `start - offsets[doc]` is the position in the document.
    Paragraph numbers are the document's own (`para_start:para_stop`).
    A matched passage vouches for its tokens up to `credit_stop`, the end of its first
    paragraph: a passage run on over short paragraphs can match while its tail was
    not copied, and each of those paragraphs starts a passage of its own anyway.
    """

    doc: np.ndarray  # int64
    start: np.ndarray  # int64, global token position
    stop: np.ndarray  # int64, exclusive
    credit_stop: np.ndarray  # int64, exclusive
    para_start: np.ndarray  # int64
    para_stop: np.ndarray  # int64, exclusive
    offsets: np.ndarray  # int64, n_docs + 1

    def __len__(self) -> int:
        return len(self.doc)

    @property
    def n_docs(self) -> int:
        return len(self.offsets) - 1

    def doc_lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def first_of_docs(self) -> np.ndarray:
        """Row of each document's first passage, and len(self) last: document d's
        passages are rows first[d]:first[d + 1]."""
        return np.searchsorted(self.doc, np.arange(self.n_docs + 1))


def cut_passages(
    streams: Sequence[TokenStream], options: PassageOptions, check=lambda: None
) -> Passages:
    """Cut every stream into (overlapping) passages along its paragraphs.

    Every paragraph is a passage (long ones cut into pieces); a paragraph shorter than
    `min_tokens` also starts a passage that runs on over the following paragraphs.

    Args:
        streams: body token streams, one per document.
        options: `min_tokens` and `max_tokens` set the passage size.
        check: called between the passes over every paragraph (Cancel).
    """
    lengths = np.array([len(s) for s in streams], dtype=np.int64)
    offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
    para_doc, para_no, p_start, p_stop = paragraphs(streams, offsets)
    check()
    length = p_stop - p_start
    short = length < options.min_tokens
    merged = _merged_windows(para_doc[short], p_start[short], p_stop, para_doc, offsets, options)
    pieces = _pieces(para_doc, p_start, p_stop, options.max_tokens)
    check()
    doc = np.concatenate([merged[0], pieces[0]])
    start = np.concatenate([merged[1], pieces[1]])
    stop = np.concatenate([merged[2], pieces[2]])
    # a short paragraph followed by nothing gives the same range twice
    _, first = np.unique(start * (int(offsets[-1]) + 1) + stop, return_index=True)
    doc, start, stop = doc[first], start[first], stop[first]
    # paragraph k of the corpus holds positions [p_start[k], p_stop[k])
    first = np.searchsorted(p_start, start, side="right") - 1
    last = np.searchsorted(p_start, stop - 1, side="right") - 1
    credit = np.minimum(stop, p_stop[first])
    return Passages(doc, start, stop, credit, para_no[first], para_no[last] + 1, offsets)


def paragraphs(streams: Sequence[TokenStream], offsets: np.ndarray):
    """Non-empty paragraphs of all streams: (doc, paragraph number, global start, stop).
    Built from one concatenation, not three small arrays a document (tens of thousands of
    documents took a second between two Cancel checks)."""
    one = np.zeros(1, np.int64)  # a stream without paragraph marks is one paragraph
    starts = [
        one if len(stream.para_starts) == 0 and len(stream) else stream.para_starts
        for stream in streams
    ]
    counts = np.fromiter(map(len, starts), dtype=np.int64, count=len(starts))
    total = int(counts.sum())
    if not total:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty, empty
    doc = np.repeat(np.arange(len(starts), dtype=np.int64), counts)
    number = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    start = np.concatenate(starts).astype(np.int64) + offsets[doc]
    stop = np.r_[start[1:], 0]
    last_of_doc = np.r_[doc[1:] != doc[:-1], True]
    stop[last_of_doc] = offsets[doc[last_of_doc] + 1]
    keep = stop > start
    return doc[keep], number[keep], start[keep], stop[keep]


def _merged_windows(doc, start, all_stops, all_docs, offsets, options: PassageOptions):
    """A window from each paragraph start to the first paragraph end `min_tokens` on.

    Windows never leave their document and are capped at `max_tokens`.
    """
    j = np.searchsorted(all_stops, start + options.min_tokens, side="left")
    j = np.minimum(j, len(all_stops) - 1)
    stop = np.where(all_docs[j] == doc, all_stops[j], offsets[doc + 1])
    stop = np.minimum(np.minimum(stop, offsets[doc + 1]), start + options.max_tokens)
    return doc, start, stop


def _pieces(doc, start, stop, max_tokens: int):
    """Long paragraphs cut into equal pieces of at most `max_tokens` tokens."""
    length = stop - start
    count = -(-length // max_tokens)
    size = -(-length // np.maximum(count, 1))
    owner, k = ragged_arange(count)
    piece_start = start[owner] + k * size[owner]
    return doc[owner], piece_start, np.minimum(piece_start + size[owner], stop[owner])
