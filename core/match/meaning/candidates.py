"""Pairs of documents worth aligning, found without comparing every pair of sentences.

Each sentence gives its few rarest concepts as *keys* (a Chinese word its most used
senses, since a translation uses those); an inverted index of keys pairs documents that
share at least `min_shared` of them. Common concepts and common sentences
(`DocumentFrequencies`) give no keys, and a key held by more than `max_holders`
documents pairs none, so the cost follows the rare vocabulary documents share, never
their common vocabulary: about linear in the documents' sentences. A document keeps its
`max_partners` closest partners, so a family of pages sharing all their rare words gives
at most that many pairs a page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import bounded_runs, owners, ragged_arange, split_keys
from simsift.core.match.meaning.frequencies import DocumentFrequencies
from simsift.core.match.meaning.sketch import MeaningSketch

_PAIRS_AT_ONCE = 1 << 22
_MIX = np.uint64(0x9E3779B97F4A7C15)  # document pairs made from keys at once


@dataclass(frozen=True, slots=True)
class CandidateParameters:
    """How `candidate_pairs` picks keys and pairs."""

    # 10 rather than 3 (and `min_shared` 3 rather than 2): a planted passage is 2-8
    # sentences of 20-60, so its pair needs every key it can get (meaning corpus: 153
    # instead of 79 of 199 translated pairs proposed, 196 instead of 112 of 200
    # paraphrased; 2,000 man pages with `max_partners`: 8,997 candidates, 8,024 with 8)
    keys_per_sentence: int = 10
    # a key is two of a sentence's keys together: far rarer than either alone (man pages:
    # a fifth of the candidates at the same recall)
    key_pairs: bool = True
    senses_per_word: int = 2  # of a Chinese word, its most used senses
    # evidence two documents must share: a key held by k documents adds 1 / log2(k), so
    # one held by only these two adds 1, one held by a hundred 0.15
    min_shared: float = 3.0
    # a key held by more documents pairs none (its pairs cost the square of its holders
    # and each adds under 0.18 of evidence) ...
    max_holders: int = 50
    # ... unless this share of the documents is more; 0, since 20,000 man pages with 0.01
    # (200 holders) gave 104,341 candidates in 23.7 s, with 50 holders 77,575 in 16.4 s,
    # and the meaning corpus lost nothing
    max_holders_share: float = 0.0
    # a document's closest partners kept, so candidates stay linear: 20,000 man pages gave
    # 417,799 pairs (2,000: 18,795), a family of pages sharing all their rare words; 5
    # rather than 10: 2,000 man pages 8,024 pairs instead of 11,830, one planted passage
    # of 399 lost
    max_partners: int = 5
    # across languages alone (translation without paraphrase), each document of the
    # smaller language keeps this many of the other's: only those pairs are made, so more
    # fit (meaning corpus, translation tier: 5 found 58 + 65 of 199, 10 66 + 72, 20 70 + 77)
    max_partners_across: int = 20
    # a collection this small is aligned pair by pair (about 2 ms a pair): its document
    # frequencies are too coarse to tell the rarest concepts of a sentence
    all_pairs_up_to: int = 200

    def __post_init__(self) -> None:
        if min(self.keys_per_sentence, self.senses_per_word, self.min_shared) < 1 or (
            min(self.max_partners, self.max_partners_across) < 1
        ):
            raise ValueError(f"invalid candidate parameters: {self}")


def sentence_keys(
    sketch: MeaningSketch, frequencies: DocumentFrequencies, parameters: CandidateParameters
) -> np.ndarray:
    """The distinct keys of a document: each sentence's rarest concepts."""
    df = frequencies.of(sketch.concepts)
    usable = (df >= 2) & ~frequencies.common(sketch.concepts)
    usable &= ~frequencies.common_sentences(sketch)[_sentence_of_entries(sketch)]
    entry_word = owners(np.diff(sketch.concept_offsets))
    # a word's most used senses: sort its entries by df, highest first
    at = np.flatnonzero(usable)
    at = at[np.lexsort((-df[at], entry_word[at]))]
    rank = _rank_in_runs(entry_word[at])
    at = at[rank < parameters.senses_per_word]
    # each sentence's rarest: sort by sentence, then df, then the concept's hash (ties
    # broken alike in every document, as a MinHash would)
    sentence = _sentence_of_entries(sketch)[at]
    at = at[np.lexsort((sketch.concepts[at], df[at], sentence))]
    keys, sentence = sketch.concepts[at], _sentence_of_entries(sketch)[at]
    rank = _rank_in_runs(sentence)
    chosen = rank < parameters.keys_per_sentence
    keys, sentence = keys[chosen], sentence[chosen]
    if not parameters.key_pairs:
        return np.unique(keys)
    return np.unique(_pairs_in_sentences(keys, sentence))


def _pairs_in_sentences(keys: np.ndarray, sentence: np.ndarray) -> np.ndarray:
    """One key for each two keys of a sentence, in either order."""
    if not len(keys):
        return keys
    starts = np.flatnonzero(np.r_[True, sentence[1:] != sentence[:-1]])
    sizes = np.diff(np.r_[starts, len(keys)]).astype(np.int64)
    group, r = ragged_arange(sizes * sizes)
    size = sizes[group]
    x, y = r // size, r % size
    below = x < y
    first = keys[starts[group[below]] + x[below]]
    second = keys[starts[group[below]] + y[below]]
    low, high = np.minimum(first, second), np.maximum(first, second)
    mixed = low * _MIX + (high ^ (high >> np.uint64(31)))
    return mixed * _MIX


def _sentence_of_entries(sketch: MeaningSketch) -> np.ndarray:
    word_sentence = owners(np.diff(sketch.word_offsets))
    return word_sentence[owners(np.diff(sketch.concept_offsets))]


def _rank_in_runs(values: np.ndarray) -> np.ndarray:
    """Each item's place in its run of equal consecutive values (0, 1, 2, ...)."""
    if not len(values):
        return np.zeros(0, np.int64)
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    lengths = np.diff(np.r_[starts, len(values)])
    return np.arange(len(values)) - np.repeat(starts, lengths)


def candidate_pairs(
    sketches: Sequence[MeaningSketch],
    frequencies: DocumentFrequencies,
    parameters: CandidateParameters = CandidateParameters(),
    check: Callable[[int, int], None] = lambda done, total: None,
    sides: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(left, right) document indices, left < right, of the pairs whose shared keys add
    up to `min_shared` (rare keys count more); `check(done, total)` is called between
    bounded pieces of work (it may raise `Cancelled`). With `sides` (two bool masks, e.g.
    the documents holding Chinese and those holding English) only pairs across them are
    made, from keys held on both sides: a translation-only search costs what the keys the
    two languages share cost, not what every pair of English pages does."""
    n = len(sketches)
    if n * (n - 1) // 2 <= parameters.all_pairs_up_to:
        left, right = np.triu_indices(n, 1)
        return _across(left, right, sides)
    keys, holders = [], []
    if sides is not None and sides[0].sum() > sides[1].sum():
        sides = (sides[1], sides[0])  # the smaller side's keys are gathered first
    first = np.flatnonzero(sides[0]) if sides is not None else np.arange(n)
    for done, i in enumerate(first.tolist()):
        check(done, 2 * n)
        own = sentence_keys(sketches[i], frequencies, parameters)
        keys.append(own)
        holders.append(np.full(len(own), i, np.int64))
    if sides is not None:  # the other side's keys matter only where the first holds them
        held = np.unique(np.concatenate(keys)) if keys else np.zeros(0, np.uint64)
        for done, i in enumerate(np.flatnonzero(sides[1] & ~sides[0]).tolist()):
            check(len(first) + done, 2 * n)
            own = sentence_keys(sketches[i], frequencies, parameters)
            own = own[_isin_sorted(own, held)]
            keys.append(own)
            holders.append(np.full(len(own), i, np.int64))
    key = np.concatenate(keys) if keys else np.zeros(0, np.uint64)
    holder = np.concatenate(holders) if holders else np.zeros(0, np.int64)
    order = np.argsort(key, kind="stable")
    key, holder = key[order], holder[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if len(key) else key
    sizes = np.diff(np.r_[starts, len(key)]).astype(np.int64)
    most = max(parameters.max_holders, int(parameters.max_holders_share * n))
    kept = (sizes >= 2) & (sizes <= most)
    if sides is not None and len(key):
        on_both = [np.add.reduceat(side[holder].astype(np.int64), starts) > 0 for side in sides]
        kept &= on_both[0] & on_both[1]
    least = parameters.min_shared
    most = parameters.max_partners if sides is None else parameters.max_partners_across
    return _shared_keys(holder, starts[kept], sizes[kept], n, least, most, check, sides)


def _isin_sorted(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """`np.isin` for a sorted set searched by many small arrays: no sort of the set each
    time (`np.isin` sorted both, a third of the candidates' time on man pages)."""
    if not len(sorted_set):
        return np.zeros(len(values), bool)
    at = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[at] == values


def _across(left: np.ndarray, right: np.ndarray, sides) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of which one document is on one side and the other on the other."""
    if sides is None:
        return left, right
    a, b = sides
    keep = (a[left] & b[right]) | (b[left] & a[right])
    return left[keep], right[keep]


def _shared_keys(
    holder, starts, sizes, n: int, min_shared: float, max_partners: int, check, sides=None
):
    """Pairs of holders of the same key (across `sides` when given), with the evidence of
    all keys they share, kept when `min_shared` and among the best `max_partners` of one
    of the two."""
    counted_keys, counted = [], []
    runs = bounded_runs(sizes * sizes, _PAIRS_AT_ONCE)
    first, second = _pairs_below(int(sizes.max()) if len(sizes) else 0)
    for step, (lo, hi) in enumerate(runs):
        check(n + step * n // max(len(runs), 1), 2 * n)
        group, r = ragged_arange(sizes[lo:hi] * (sizes[lo:hi] - 1) // 2)
        base = starts[lo:hi][group]
        left, right = holder[base + first[r]], holder[base + second[r]]
        weight = 1.0 / np.log2(sizes[lo:hi][group])
        if sides is not None:
            a, b = sides
            cross = (a[left] & b[right]) | (b[left] & a[right])
            left, right, weight = left[cross], right[cross], weight[cross]
        pair, count = _counts(np.minimum(left, right) * n + np.maximum(left, right), weight)
        counted_keys.append(pair)
        counted.append(count)
    if not counted_keys:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    pair, count = _counts(np.concatenate(counted_keys), np.concatenate(counted))
    kept = count >= min_shared
    left, right = split_keys(pair[kept], n)
    if sides is None:
        keep = _best_partners(left, right, count[kept], max_partners)
    else:  # each document of the smaller side keeps its best partners on the other
        owner = np.where(sides[0][left], left, right)
        order = np.lexsort((-count[kept], owner))
        keep = np.zeros(len(left), bool)
        keep[order[_rank_in_runs(owner[order]) < max_partners]] = True
    return left[keep], right[keep]


def _pairs_below(most: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (x, y), x < y < `most`, ordered by y: the pairs of the holders of a key held
    by s documents are the first s (s - 1) / 2, made without the s * s grid (half of it
    thrown away), which was the candidates' peak memory. Their order within a key does not
    matter: each pair of documents comes once per key."""
    y, x = np.tril_indices(most, -1)
    return x, y


def _best_partners(left, right, evidence, most: int) -> np.ndarray:
    """Which pairs are among the `most` best (by evidence) of one of their documents, at
    most `most` a document: a family of pages that all share their rare words (hundreds
    of a library's pages) gives each page its closest ones, not every pair of them."""
    keep = np.zeros(len(left), bool)
    for side in (left, right):
        order = np.lexsort((-evidence, side))
        keep[order[_rank_in_runs(side[order]) < most]] = True
    return keep


def _counts(values: np.ndarray, weights: np.ndarray | None = None):
    """Distinct values and how often each occurs (or the sum of its weights)."""
    if not len(values):
        return values, np.zeros(0)
    order = np.argsort(values, kind="stable")
    values = values[order]
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    if weights is None:
        return values[starts], np.diff(np.r_[starts, len(values)])
    return values[starts], np.add.reduceat(weights[order], starts)
