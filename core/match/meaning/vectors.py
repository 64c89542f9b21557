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
from dataclasses import dataclass, replace

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


@dataclass(frozen=True, slots=True)
class Prepared:
    """What `vector_pair` needs of one document whatever the other: worked out once per
    document in a collection (`find_meaning_copies` aligns each with several others)."""

    vocabulary: np.ndarray  # uint64: its distinct concepts, sorted
    entry_word: np.ndarray  # int64: the word of each concept entry
    word_sentence: np.ndarray  # int64: the sentence of each word
    idf_entries: np.ndarray | None  # float64: collection idf of each entry (None: tf-isf)
    idf_words: np.ndarray | None  # float64: of each word's own concept
    counted: np.ndarray  # float64: each sentence's size, 0 if common text
    # when every word is its own one concept (English, numbers), the vectors are the same
    # whatever the other document holds: made once (`_projected` of each pair cost half
    # the alignment of Chinese man pages with their English candidates)
    fixed: tuple[np.ndarray, ...] | None = None  # `_projected`'s answer, without idf
    # with the collection's idf (`entry_word`, `word_sentence` and the idf left empty)
    fixed_vectors: SentenceVectors | None = None


def prepared(
    x: MeaningSketch, frequencies: DocumentFrequencies | None, cache: dict | None = None
) -> Prepared:
    """`x` prepared for `vector_pair`, from `cache` (keyed by the sketch's identity) if
    there; a common sentence's concepts weigh nothing."""
    if cache is not None and id(x) in cache and cache[id(x)][0] is x:
        return cache[id(x)][1]
    counted = x.size.astype(np.float64)
    entry_word = owners(np.diff(x.concept_offsets))
    word_sentence = owners(np.diff(x.word_offsets))
    idf_entries = idf_words = None
    if frequencies is not None:
        common = frequencies.common_sentences(x)
        counted[common] = 0.0
        idf_entries = frequencies.idf(x.concepts)
        idf_entries[common[word_sentence[entry_word]]] = 0.0
        idf_words = frequencies.idf(x.word_hashes)
        idf_words[common[word_sentence]] = 0.0
    found = Prepared(
        sorted_unique(x.concepts), entry_word, word_sentence, idf_entries, idf_words, counted
    )
    if one_concept_a_word(x):
        fixed = _projected(x, found, found.vocabulary)
        if frequencies is None:
            found = replace(found, fixed=fixed)
        else:  # its vectors are all a pair needs of it: the rest is let go
            vectors, none = _vectors(*fixed, counted), np.zeros(0, np.int64)
            found = Prepared(found.vocabulary, none, none, None, None, counted, None, vectors)
    if cache is not None:
        cache[id(x)] = (x, found)
    return found


def vector_pair(
    a: MeaningSketch,
    b: MeaningSketch,
    frequencies: DocumentFrequencies | None,
    cache: dict | None = None,
) -> tuple[SentenceVectors, SentenceVectors]:
    """The tf-idf sentence vectors of `a` and `b`, each projected on the other; `cache`
    keeps each document's `Prepared` between pairs."""
    pa, pb = prepared(a, frequencies, cache), prepared(b, frequencies, cache)
    if frequencies is None:
        raw_a = pa.fixed or _projected(a, pa, pb.vocabulary)
        raw_b = pb.fixed or _projected(b, pb, pa.vocabulary)
        idf_a, idf_b = _isf(raw_a[1], raw_b[1], len(a) + len(b))
        return _vectors(*raw_a[:3], idf_a, pa.counted), _vectors(*raw_b[:3], idf_b, pb.counted)
    va = pa.fixed_vectors or _vectors(*_projected(a, pa, pb.vocabulary), pa.counted)
    return va, pb.fixed_vectors or _vectors(*_projected(b, pb, pa.vocabulary), pb.counted)


def one_concept_a_word(x: MeaningSketch) -> bool:
    """Whether each word of `x` is one concept, its own: it projects on any other
    document's concepts as itself."""
    return len(x.concepts) == len(x.word_hashes) and bool(
        np.array_equal(x.concepts, x.word_hashes) and np.all(x.weights == 1.0)
    )


def _projected(x: MeaningSketch, p: Prepared, other: np.ndarray) -> tuple[np.ndarray, ...]:
    """(sentence, concept, weight, idf) of `x`'s words kept to the senses in `other`,
    summed per sentence and concept, sorted by concept (idf None without frequencies)."""
    entry_word = p.entry_word
    keep = np.flatnonzero(_isin_sorted(x.concepts, other))
    kept_word = entry_word[keep]
    mass = np.bincount(kept_word, x.weights[keep], minlength=len(x.word_hashes))
    lone = np.flatnonzero(mass == 0)
    words = np.concatenate([kept_word, lone])
    concept = np.concatenate([x.concepts[keep], x.word_hashes[lone]])
    weight = np.concatenate([x.weights[keep] / mass[kept_word], np.ones(len(lone))])
    sentence = p.word_sentence[words]
    order = np.lexsort((sentence, concept))
    sentence, concept, weight = sentence[order], concept[order], weight[order]
    new = np.empty(len(concept), bool)
    new[:1] = True
    new[1:] = (concept[1:] != concept[:-1]) | (sentence[1:] != sentence[:-1])
    starts = np.flatnonzero(new)
    summed = np.add.reduceat(weight, starts) if len(starts) else weight
    idf = None
    if p.idf_entries is not None:  # one concept, one idf: the first of each sum's
        idf = np.concatenate([p.idf_entries[keep], p.idf_words[lone]])[order][starts]
    return sentence[starts], concept[starts], summed, idf


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
    starts = _run_starts(values)
    return values[starts], _run_lengths(starts, len(values))


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
    starts = _run_starts(key)
    key, shared = key[starts], _run_lengths(starts, len(key))
    dot = np.add.reduceat(dot, starts) if len(starts) else dot
    a, b = key // n_b, key % n_b
    cosine = dot / np.maximum(va.norms[a] * vb.norms[b], 1e-12)
    dice = 2.0 * shared / np.maximum(va.sizes[a] + vb.sizes[b], 1)
    return PairSimilarities(a, b, cosine, dice)


def _runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct values of a sorted array, where each run starts and how long it is."""
    starts = _run_starts(values)
    return values[starts], starts, _run_lengths(starts, len(values))


def _run_starts(values: np.ndarray) -> np.ndarray:
    """Where each run of equal values of a sorted array starts (without `np.r_`, which
    costs more than the work itself on the short arrays of a pair of documents)."""
    if not len(values):
        return np.zeros(0, np.int64)
    new = np.empty(len(values), bool)
    new[0] = True
    np.not_equal(values[1:], values[:-1], out=new[1:])
    return np.flatnonzero(new)


def _run_lengths(starts: np.ndarray, n: int) -> np.ndarray:
    lengths = np.empty(len(starts), np.int64)
    lengths[:-1] = starts[1:] - starts[:-1]
    lengths[-1:] = n - starts[-1:]
    return lengths


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
