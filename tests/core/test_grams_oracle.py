"""The gram layer against brute force: winnowing keeps the smallest gram of every window
(the rightmost of equals), and the shared runs are exactly the maximal runs two documents
share, of the shortest match or longer (hypothesis draws the documents)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simsift.core.match import grams
from simsift.core.match.grams import GRAM, CommonRule, shared_runs, window_for, winnow

NOTHING_COMMON = CommonRule(share=1.0, min_docs=1_000, max_docs=1_000)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _end_to_end(docs: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.r_[0, np.cumsum([len(d) for d in docs])].astype(np.int64)
    hashes = np.array([t for d in docs for t in d], np.uint64)
    return hashes, offsets


def _gram_values(doc: list[int]) -> np.ndarray:
    """The gram value at each position of one document alone."""
    starts = np.zeros(len(doc) + 1, bool)
    starts[[0, len(doc)]] = True
    return grams._grams(np.array(doc, np.uint64), starts)


def _kept_by_brute_force(doc: list[int], window: int) -> set[int]:
    values = _gram_values(doc)
    if not len(values):
        return set()
    if len(values) < window:  # too short for a window: its smallest, the rightmost of equals
        return {len(values) - 1 - int(np.argmin(values[::-1]))}
    kept = set()
    for i in range(len(values) - window + 1):
        part = values[i : i + window]
        kept.add(i + window - 1 - int(np.argmin(part[::-1])))
    return kept


# documents that repeat a short pattern, then go their own way: equal grams, ties
one_document = st.builds(
    lambda pattern, times, tail: pattern * times + tail,
    st.lists(st.integers(0, 3), min_size=1, max_size=4),
    st.integers(0, 15),
    st.lists(st.integers(0, 3), max_size=20),
)
documents = st.lists(one_document, min_size=1, max_size=4)


@SETTINGS
@given(docs=documents, window=st.integers(1, 6), chunk=st.sampled_from([5, 16, 1 << 20]))
def test_winnowing_keeps_the_smallest_gram_of_every_window(docs, window, chunk):
    hashes, offsets = _end_to_end(docs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grams, "_WINNOW_CHUNK", chunk)  # steps that cut documents apart
        kept = winnow(hashes, offsets, window)
    for d, doc in enumerate(docs):
        found = set(kept.position[kept.doc == d].tolist())
        assert found == _kept_by_brute_force(doc, window), (d, doc)
    assert np.array_equal(np.sort(kept.value, kind="stable"), kept.value)  # sorted by value


def _maximal_runs(a: list[int], b: list[int], min_run: int) -> set[tuple[int, int, int]]:
    """(start in a, start in b, length) of every maximal common run of min_run or more."""
    found = set()
    for i in range(len(a)):
        for j in range(len(b)):
            if a[i] != b[j] or (i and j and a[i - 1] == b[j - 1]):
                continue  # not equal, or not where a run starts
            n = 0
            while i + n < len(a) and j + n < len(b) and a[i + n] == b[j + n]:
                n += 1
            if n >= min_run:
                found.add((i, j, n))
    return found


@st.composite
def documents_sharing_runs(draw):
    """Two to three documents of their own words with passages of a shared pool planted:
    runs shorter and longer than the shortest match, some planted twice in a document."""
    pool = list(range(100_000, 100_080))  # pieces drawn from it overlap often
    docs = []
    for d in range(draw(st.integers(2, 3))):
        doc = [d * 10_000 + i for i in range(draw(st.integers(0, 30)))]
        for _ in range(draw(st.integers(0, 3))):
            start = draw(st.integers(0, 40))
            piece = pool[start : start + draw(st.integers(1, 40))]
            at = draw(st.integers(0, len(doc)))
            doc[at:at] = piece
        docs.append(doc)
    return docs


@SETTINGS
@given(docs=documents_sharing_runs(), min_run=st.integers(GRAM, 12))
def test_shared_runs_are_every_maximal_run_of_the_shortest_match_or_more(docs, min_run):
    hashes, offsets = _end_to_end(docs)
    kept = winnow(hashes, offsets, window_for(min_run))
    no_mask = (np.zeros(len(hashes), bool), None)
    result = shared_runs(
        hashes, offsets, kept, no_mask, np.zeros(len(docs), bool), min_run, NOTHING_COMMON
    )
    runs = result.runs
    found = {
        (int(a), int(b), int(sa), int(sb), int(n))
        for a, b, sa, sb, n in zip(
            runs.left, runs.right, runs.start_left, runs.start_right, runs.length, strict=True
        )
    }
    expected = {
        (a, b, sa, sb, n)
        for a in range(len(docs))
        for b in range(a + 1, len(docs))
        for sa, sb, n in _maximal_runs(docs[a], docs[b], min_run)
    }
    assert found == expected
