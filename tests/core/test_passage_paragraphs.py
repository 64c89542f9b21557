"""`passages.cutting.paragraphs` from one concatenation gives what a loop over documents gave."""

from __future__ import annotations

import numpy as np
from simsift.core.match.passages.cutting import paragraphs
from simsift.core.text.tokens import TokenStream


def reference(streams, offsets):
    """The loop it replaced: three small arrays a document."""
    docs, numbers, starts = [], [], []
    for d, stream in enumerate(streams):
        s = np.asarray(stream.para_starts, dtype=np.int64)
        if len(s) == 0 and len(stream):
            s = np.zeros(1, np.int64)
        docs.append(np.full(len(s), d, dtype=np.int64))
        numbers.append(np.arange(len(s), dtype=np.int64))
        starts.append(s + offsets[d])
    if not sum(len(d) for d in docs):
        empty = np.zeros(0, np.int64)
        return empty, empty, empty, empty
    doc, number, start = np.concatenate(docs), np.concatenate(numbers), np.concatenate(starts)
    stop = np.r_[start[1:], 0]
    last_of_doc = np.r_[doc[1:] != doc[:-1], True]
    stop[last_of_doc] = offsets[doc[last_of_doc] + 1]
    keep = stop > start
    return doc[keep], number[keep], start[keep], stop[keep]


def stream(rng, tokens: int, marks: bool) -> TokenStream:
    """`tokens` tokens; paragraph starts at random places (empty paragraphs too), or none."""
    starts = np.sort(rng.integers(0, max(tokens, 1), rng.integers(1, 6))) if marks else []
    if marks and tokens:
        starts[0] = 0
    return TokenStream(
        hashes=np.zeros(tokens, np.uint64),
        is_digit=np.zeros(tokens, bool),
        para_starts=np.array(starts, dtype=np.int32),
        marks=np.zeros(tokens, np.uint8),
    )


def test_paragraphs_of_many_documents_are_those_of_the_loop():
    rng = np.random.default_rng(25)
    for _ in range(300):
        streams = [
            stream(rng, int(rng.integers(0, 40)), bool(rng.random() < 0.8))
            for _ in range(int(rng.integers(0, 12)))
        ]
        lengths = np.array([len(s) for s in streams], dtype=np.int64)
        offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
        wanted = reference(streams, offsets)
        for got, want in zip(paragraphs(streams, offsets), wanted, strict=True):
            assert got.dtype == want.dtype
            assert np.array_equal(got, want)
