"""Sentence vectors of two documents over shared concepts, and their similarities.

A Chinese word stands for all its dictionary senses; facing another document, it keeps
only the senses that document holds, its weight 1.0 shared among them (the other text
picks the sense), and a word none of whose senses is there stands for itself. English
words are one concept each and never change. The vectors are tf-idf: idf from the
collection when given, else from the two documents' sentences (tf-isf, as in
Sanchez-Perez et al.).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import bounded_runs, owners, ragged_arange, sorted_unique
from simsift.core.match.meaning.frequencies import DocumentFrequencies
from simsift.core.match.meaning.sketch import MeaningSketch

# sentence pairs of one concept at most: a concept in dozens of sentences of both
# documents (a refrain, a word every line of a table holds) pairs nothing
MAX_PAIRS_PER_CONCEPT = 4096
_PRODUCTS_AT_ONCE = 1 << 21  # sentence-pair products of shared concepts made at once


@dataclass(frozen=True, slots=True)
class SentenceVectors:
    """tf-idf vectors of a document's sentences, entries sorted by concept."""

    sentence: np.ndarray  # int64
    concept: np.ndarray  # uint64
    weight: np.ndarray  # float64
    norms: np.ndarray  # float64, one per sentence
    sizes: np.ndarray  # int64: distinct concepts of each sentence
    counted: np.ndarray  # float64: each sentence's size in words, 0 if common text


@dataclass(frozen=True, slots=True)
class PairSimilarities:
    """Sentence pairs (i of A, j of B) sharing a concept, with cosine and Dice."""

    a: np.ndarray  # int64
    b: np.ndarray  # int64
    cosine: np.ndarray  # float64
    dice: np.ndarray  # float64


def vector_pair(
    a: MeaningSketch, b: MeaningSketch, frequencies: DocumentFrequencies | None
) -> tuple[SentenceVectors, SentenceVectors]:
    """The tf-idf sentence vectors of `a` and `b`, each projected on the other."""
    vocab_a, vocab_b = sorted_unique(a.concepts), sorted_unique(b.concepts)
    raw_a, raw_b = _projected(a, vocab_b), _projected(b, vocab_a)
    counted_a, counted_b = a.size.astype(np.float64), b.size.astype(np.float64)
    if frequencies is not None:
        idf_a, idf_b = frequencies.idf(raw_a[1]), frequencies.idf(raw_b[1])
        common_a, common_b = frequencies.common_sentences(a), frequencies.common_sentences(b)
        idf_a[common_a[raw_a[0]]], idf_b[common_b[raw_b[0]]] = 0.0, 0.0
        counted_a[common_a], counted_b[common_b] = 0.0, 0.0
    else:
        idf_a, idf_b = _isf(raw_a[1], raw_b[1], len(a) + len(b))
    return _vectors(*raw_a, idf_a, counted_a), _vectors(*raw_b, idf_b, counted_b)


def _projected(x: MeaningSketch, other: np.ndarray) -> tuple[np.ndarray, ...]:
    """(sentence, concept, weight) of `x`'s words kept to the senses in `other`, summed
    per sentence and concept, sorted by concept."""
    entry_word = owners(np.diff(x.concept_offsets))
    keep = _isin_sorted(x.concepts, other)
    mass = np.bincount(entry_word[keep], x.weights[keep], minlength=len(x.word_hashes))
    lone = np.flatnonzero(mass == 0)
    words = np.concatenate([entry_word[keep], lone])
    concept = np.concatenate([x.concepts[keep], x.word_hashes[lone]])
    weight = np.concatenate([x.weights[keep] / mass[entry_word[keep]], np.ones(len(lone))])
    sentence = owners(np.diff(x.word_offsets))[words]
    order = np.lexsort((sentence, concept))
    sentence, concept, weight = sentence[order], concept[order], weight[order]
    new = np.r_[True, (concept[1:] != concept[:-1]) | (sentence[1:] != sentence[:-1])]
    starts = np.flatnonzero(new[: len(concept)])  # no words at all: no start
    summed = np.add.reduceat(weight, starts) if len(starts) else weight
    return sentence[starts], concept[starts], summed


def _isin_sorted(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    if not len(sorted_set):
        return np.zeros(len(values), bool)
    at = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[at] == values


def _isf(concepts_a, concepts_b, sentences: int) -> tuple[np.ndarray, np.ndarray]:
    """ln(sentences / sentence frequency) of each concept over both documents."""
    both = np.concatenate([concepts_a, concepts_b])  # one entry per sentence and concept
    frequencies = DocumentFrequencies(*_counted(both), documents=sentences)
    isf = np.log(max(sentences, 1) / np.maximum(frequencies.of(both), 1))
    return isf[: len(concepts_a)], isf[len(concepts_a) :]


def _counted(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    values = np.sort(values)
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]]) if len(values) else values
    return values[starts], np.diff(np.r_[starts, len(values)]).astype(np.int64)


def _vectors(sentence, concept, weight, idf, counted: np.ndarray) -> SentenceVectors:
    weight = weight * idf
    n = len(counted)
    return SentenceVectors(
        sentence=sentence,
        concept=concept,
        weight=weight,
        norms=np.sqrt(np.bincount(sentence, weight * weight, minlength=n)),
        sizes=np.bincount(sentence, minlength=n),
        counted=counted,
    )


def similarities(
    va: SentenceVectors, vb: SentenceVectors, n_b: int, check: Callable[[], None]
) -> PairSimilarities:
    """Cosine and Dice of every sentence pair sharing a concept (none held by more than
    `MAX_PAIRS_PER_CONCEPT` pairs); `check` is called between bounded pieces."""
    ua, start_a, count_a = _runs(va.concept)
    ub, start_b, count_b = _runs(vb.concept)
    _, ia, ib = np.intersect1d(ua, ub, assume_unique=True, return_indices=True)
    products = count_a[ia] * count_b[ib]
    kept = products <= MAX_PAIRS_PER_CONCEPT
    ia, ib, products = ia[kept], ib[kept], products[kept]
    keys, dots = [], []
    for lo, hi in bounded_runs(products, _PRODUCTS_AT_ONCE):
        check()
        k, r = ragged_arange(products[lo:hi])
        nb = count_b[ib[lo:hi]][k]
        ea = start_a[ia[lo:hi]][k] + r // nb
        eb = start_b[ib[lo:hi]][k] + r % nb
        keys.append(va.sentence[ea] * n_b + vb.sentence[eb])
        dots.append(va.weight[ea] * vb.weight[eb])
    key = np.concatenate(keys) if keys else np.zeros(0, np.int64)
    dot = np.concatenate(dots) if dots else np.zeros(0)
    order = np.argsort(key, kind="stable")
    key, dot = key[order], dot[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if len(key) else key
    key, shared = key[starts], np.diff(np.r_[starts, len(order)])
    dot = np.add.reduceat(dot, starts) if len(starts) else dot
    a, b = key // n_b, key % n_b
    cosine = dot / np.maximum(va.norms[a] * vb.norms[b], 1e-12)
    dice = 2.0 * shared / np.maximum(va.sizes[a] + vb.sizes[b], 1)
    return PairSimilarities(a, b, cosine, dice)


def _runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct values of a sorted array, where each run starts and how long it is."""
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]]) if len(values) else values
    starts = starts.astype(np.int64)
    return values[starts], starts, np.diff(np.r_[starts, len(values)])


def span_similarity(va: SentenceVectors, vb: SentenceVectors, span_a, span_b) -> tuple[float, int]:
    """Cosine of the summed vectors of sentences span_a = (lo, hi) of A and span_b of B,
    and how many concepts of some weight they share."""
    ca, wa = _span_vector(va, *span_a)
    cb, wb = _span_vector(vb, *span_b)
    _, ia, ib = np.intersect1d(ca, cb, assume_unique=True, return_indices=True)
    products = wa[ia] * wb[ib]
    norm = np.sqrt((wa * wa).sum() * (wb * wb).sum())
    cosine = float(products.sum() / norm) if norm > 0 else 0.0
    return cosine, int(np.count_nonzero(products > 0))


def _span_vector(v: SentenceVectors, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    inside = (v.sentence >= lo) & (v.sentence <= hi)
    concept, weight = v.concept[inside], v.weight[inside]  # still sorted by concept
    values, starts, _ = _runs(concept)
    return values, np.add.reduceat(weight, starts) if len(starts) else weight
