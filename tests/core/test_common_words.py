"""A shared run counts by its own words: common text inside or at the edge of a run (a
phrase many documents hold, shorter than a winnowing window) never makes it a match."""

from __future__ import annotations

import random

import numpy as np
import pytest
from simsift.core.match.grams import (
    CommonRule,
    concatenated,
    shared_runs,
    window_for,
    winnow,
)
from simsift.core.match.passages import PassageOptions, analyze_passages
from simsift.core.text.features import FeatureWeights
from simsift.core.text.tokens import token_stream

from tests.core.test_passages import english_paragraphs

RULE = CommonRule(share=0.2, min_docs=5, max_docs=10)


@pytest.fixture(scope="module")
def words() -> list[str]:
    text = " ".join(english_paragraphs()).split()
    return sorted({w.lower() for w in text if w.isascii() and w.isalpha()})


def gram_result(docs: list[list[str]], min_run: int = 15):
    streams = [token_stream([" ".join(d)]) for d in docs]
    hashes, offsets = concatenated(streams)
    kept = winnow(hashes, offsets, window_for(min_run))
    mask = np.zeros(len(hashes), bool)
    is_reference = np.zeros(len(docs), bool)
    return shared_runs(hashes, offsets, kept, (mask, None), is_reference, min_run, RULE), offsets


def straddling_corpus(words, seed: int, phrase_length: int, own: int, n_holders: int = 14):
    """Documents 0 and 1 share `own` words of their own next to a phrase of
    `phrase_length` words that `n_holders` documents hold (a header line, an errno
    sentence), each in its own context."""
    rng = random.Random(seed)
    phrase = rng.choices(words, k=phrase_length)
    mine = rng.choices(words, k=own)
    docs = []
    for d in range(n_holders):
        text = rng.choices(words, k=200)
        at = rng.randrange(20, 180)
        middle = [*mine, *phrase] if d < 2 else phrase
        docs.append([*text[:at], *middle, *text[at:]])
    return docs, own + phrase_length


@pytest.mark.parametrize("seed", range(12))
def test_a_run_made_long_enough_by_a_common_phrase_is_no_match(words, seed):
    """Today's bug: a phrase of 8-14 words in many documents is common text only where a
    winnowed gram happens to sit inside it, so two documents sharing 7 words of their own
    and the phrase shared a "run" of 17 words."""
    docs, _ = straddling_corpus(words, seed, phrase_length=10, own=7)
    result, _ = gram_result(docs)
    pair = (result.runs.left == 0) & (result.runs.right == 1)
    assert not pair.any(), result.runs.counted[pair]


@pytest.mark.parametrize("seed", range(6))
def test_a_run_of_its_own_words_beside_a_common_phrase_still_counts(words, seed):
    """The same with 20 words of their own: a match of 20 words, the phrase left out."""
    docs, _ = straddling_corpus(words, seed, phrase_length=10, own=20)
    result, offsets = gram_result(docs)
    pair = (result.runs.left == 0) & (result.runs.right == 1)
    assert pair.any()
    counted = int(result.runs.counted[pair].max())
    assert 20 <= counted < 25, counted  # its own words (a word may be two tokens)
    # the phrase is common text in every document holding it
    for d in range(len(docs)):
        assert result.common[offsets[d] : offsets[d + 1]].sum() >= 10


def test_common_words_of_a_run_leave_containment_and_the_longest_run(words):
    docs, _ = straddling_corpus(words, 3, phrase_length=12, own=8)
    streams = [token_stream([" ".join(d)]) for d in docs]
    result = analyze_passages(
        streams, np.zeros(len(docs), bool), FeatureWeights(), PassageOptions()
    )
    partial = result.partial()
    assert (0, 1) not in set(zip(partial.left.tolist(), partial.right.tolist(), strict=True))
    assert result.longest_run(0, 1) < 15
