"""How many documents of a collection hold each concept, and the idf made of it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import sorted_unique
from simsift.core.match.meaning.sketch import MeaningSketch

_MERGE_EVERY = 1 << 22  # concepts of documents gathered before they are counted


@dataclass(frozen=True, slots=True)
class DocumentFrequencies:
    """`counts[i]` documents of `documents` hold concept `concepts[i]` (sorted).

    Concepts include each sentence's *signature* (`sentence_signatures`). A concept held
    by more than `common_share` of the documents, and by at least `common_min_docs`, is
    *common*: everyone's vocabulary, never evidence of copying; so is a sentence held by
    more than `common_sentence_share` of them: a footer, a standard option's description
    (the gram layer's common text, at the grain of a sentence).
    """

    concepts: np.ndarray  # uint64, sorted, distinct
    counts: np.ndarray  # int64
    documents: int
    common_share: float = 0.3
    common_sentence_share: float = 0.1
    common_min_docs: int = 5

    def __post_init__(self) -> None:
        for share in (self.common_share, self.common_sentence_share):
            if not 0.0 <= share <= 1.0:
                raise ValueError(f"a common share must be between 0 and 1, not {share}")

    def of(self, concepts: np.ndarray) -> np.ndarray:
        """The document frequency of each of `concepts`; 0 for those never seen."""
        if not len(self.concepts):
            return np.zeros(len(concepts), np.int64)
        at = np.minimum(np.searchsorted(self.concepts, concepts), len(self.concepts) - 1)
        return np.where(self.concepts[at] == concepts, self.counts[at], 0)

    def common(self, concepts: np.ndarray, share: float | None = None) -> np.ndarray:
        """Which of `concepts` are common (a bool mask); `share` instead of
        `common_share` (for sentence signatures)."""
        df = self.of(concepts)
        share = self.common_share if share is None else share
        return (df > share * self.documents) & (df >= self.common_min_docs)

    def idf(self, concepts: np.ndarray) -> np.ndarray:
        """Smoothed idf, ln((1 + N) / (1 + df)) + 1 (in a small collection every shared
        concept would weigh next to nothing otherwise), 0 for common concepts."""
        idf = np.log((1.0 + self.documents) / (1.0 + self.of(concepts))) + 1.0
        return np.where(self.common(concepts), 0.0, idf)

    def common_sentences(self, sketch: MeaningSketch) -> np.ndarray:
        """Which sentences of `sketch` are common text (a bool mask)."""
        return self.common(sentence_signatures(sketch), self.common_sentence_share)


_MIX = np.uint64(0x9E3779B97F4A7C15)


def sentence_signatures(sketch: MeaningSketch) -> np.ndarray:
    """One hash per sentence, of its words' own concepts in any order: the same sentence
    (or its words shuffled) has the same signature in every document."""
    mixed = sketch.word_hashes * _MIX
    mixed ^= mixed >> np.uint64(29)
    sums = np.add.reduceat(np.r_[mixed, np.uint64(0)], sketch.word_offsets[:-1])
    empty = sketch.word_offsets[1:] == sketch.word_offsets[:-1]
    return np.where(empty, np.uint64(0), sums * _MIX)


def document_concepts(sketch: MeaningSketch) -> np.ndarray:
    """The distinct concepts of a document: senses, words' own concepts and sentence
    signatures alike."""
    signatures = sentence_signatures(sketch)
    return sorted_unique(np.concatenate([sketch.concepts, sketch.word_hashes, signatures]))


def document_frequencies(
    sketches: Sequence[MeaningSketch], check: Callable[[int, int], None] = lambda d, t: None
) -> DocumentFrequencies:
    """The document frequencies of every concept of `sketches`; `check(done, total)` is
    called between documents (it may raise `Cancelled`)."""
    concepts = np.zeros(0, np.uint64)
    counts = np.zeros(0, np.int64)
    pending, held = [], 0
    for i, sketch in enumerate(sketches):
        check(i, len(sketches))
        pending.append(document_concepts(sketch))
        held += len(pending[-1])
        if held >= _MERGE_EVERY or i == len(sketches) - 1:
            concepts, counts = _merged(concepts, counts, np.concatenate(pending))
            pending, held = [], 0
    return DocumentFrequencies(concepts, counts, len(sketches))


def _merged(concepts, counts, more: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    values = np.concatenate([concepts, more])
    weights = np.concatenate([counts, np.ones(len(more), np.int64)])
    if not len(values):
        return values, weights
    order = np.argsort(values, kind="stable")
    values, weights = values[order], weights[order]
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    return values[starts], np.add.reduceat(weights, starts)
