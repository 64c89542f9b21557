"""Longest verbatim runs between documents (core/match/verbatim.py)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from simsift.core.match.passages import PairOverlaps
from simsift.core.match.verbatim import GRAM, SHARE_MIN_RUN, longest_runs
from simsift.core.text.tokens import TokenStream


def stream(tokens) -> TokenStream:
    hashes = np.asarray(tokens, np.uint64)
    return TokenStream(hashes, np.zeros(len(hashes), bool), np.zeros(1, np.int32))


def longest_common_substring(a, b) -> int:
    best, row = 0, [0] * (len(b) + 1)
    for x in a:
        prev, row = row, [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                row[j] = prev[j - 1] + 1
                best = max(best, row[j])
    return best


def runs_of(a, b, left_out_a=(), left_out_b=()) -> int:
    left_out = np.zeros(len(a) + len(b), bool)
    left_out[list(left_out_a)] = True
    left_out[[len(a) + i for i in left_out_b]] = True
    offsets = np.array([0, len(a), len(a) + len(b)])
    [run] = longest_runs([stream(a), stream(b)], left_out, offsets, np.array([0]), np.array([1]))
    return int(run)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(0, 60),
    st.integers(0, 60),
    st.integers(0, 30),
)
def test_the_run_is_the_longest_common_substring_when_no_phrase_repeats(seed, na, nb, planted):
    rng = np.random.default_rng(seed)
    fresh = iter(rng.permutation(10**6)[: na + nb + planted] + 1)
    a = [int(next(fresh)) for _ in range(na)]
    b = [int(next(fresh)) for _ in range(nb)]
    run = [int(next(fresh)) for _ in range(planted)]
    at_a, at_b = int(rng.integers(0, na + 1)), int(rng.integers(0, nb + 1))
    a = a[:at_a] + run + a[at_a:]
    b = b[:at_b] + run + b[at_b:]
    expected = longest_common_substring(a, b)
    assert runs_of(a, b) == (expected if expected >= GRAM else 0)
    assert runs_of(b, a) == runs_of(a, b)


def test_left_out_text_breaks_a_run():
    shared = list(range(1, 21))  # 20 tokens in both
    a, b = [100, *shared, 101], [200, *shared, 201]
    assert runs_of(a, b) == 20
    assert runs_of(a, b, left_out_a=[1 + 10]) == 10  # tokens 0-9 and 11-19 of the run
    assert runs_of(a, b, left_out_b=range(1, 21)) == 0


def test_a_phrase_repeated_in_the_other_document_does_not_hide_a_unique_run():
    phrase = list(range(1, 9))  # one gram, found twice in b: no single offset
    unique = list(range(50, 70))
    a = [*phrase, 900, *unique]
    b = [*phrase, 901, *phrase, 902, *unique]
    assert runs_of(a, b) == 20


def test_no_run_under_one_gram():
    shared = list(range(1, GRAM))  # one token short of a gram
    assert runs_of([500, *shared, 501], [600, *shared, 601]) == 0
    assert runs_of([], shared) == 0


def overlaps(containment, run) -> PairOverlaps:
    n = len(run)
    zeros = np.zeros(n, np.int64)
    return PairOverlaps(
        np.arange(n),
        np.arange(n) + n,
        zeros,
        zeros,
        np.asarray(containment, float),
        np.zeros(n),
        np.zeros(n),
        np.asarray(run, np.int64),
    )


def test_a_pair_is_partial_by_a_long_run_or_by_a_share_holding_a_run():
    o = overlaps([0.05, 0.6, 0.6, 0.05, 0.6], [15, 0, SHARE_MIN_RUN, 14, GRAM])
    partial = o.at_least(0.2, 15)
    # a 15-word run whatever the share; a share holding a sentence-long run; not a share
    # of passages with no such run (two texts on one topic), nor a short run under the share
    assert partial.left.tolist() == [0, 2]
    assert o.at_least(0.2, 0).left.tolist() == [2]


def test_the_longer_document_streamed_in_chunks_gives_the_same_runs(monkeypatch):
    import simsift.core.match.verbatim as verbatim

    rng = np.random.default_rng(3)
    cases = []
    for _ in range(30):
        fresh = iter(rng.permutation(10**6)[:400] + 1)
        run = [int(next(fresh)) for _ in range(int(rng.integers(0, 60)))]
        a = [int(next(fresh)) for _ in range(40)]
        b = [int(next(fresh)) for _ in range(150)]
        at_a, at_b = int(rng.integers(0, 41)), int(rng.integers(0, 151))
        cases.append((a[:at_a] + run + a[at_a:], b[:at_b] + run + b[at_b:]))
    whole = [runs_of(a, b) for a, b in cases]
    monkeypatch.setattr(verbatim, "_CHUNK", 7)  # runs cross many chunk boundaries
    assert [runs_of(a, b) for a, b in cases] == whole
    assert max(whole) >= 50
