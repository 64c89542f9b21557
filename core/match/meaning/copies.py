"""Paraphrased and translated copies in a collection: candidates, then alignment."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from simsift.core.match.meaning.align import AlignParameters, MeaningFragment, align
from simsift.core.match.meaning.candidates import CandidateParameters, candidate_pairs
from simsift.core.match.meaning.frequencies import DocumentFrequencies, document_frequencies
from simsift.core.match.meaning.kept import (
    AlignmentStore,
    KeptAlignments,
    alignment_keys,
    pair_keys,
)
from simsift.core.match.meaning.sketch import CHINESE, ENGLISH, MeaningSketch
from simsift.core.progress import CancelToken, ProgressCallback, StepProgress, no_progress

STAGE = "meaning"
DEFAULT_CANDIDATES, DEFAULT_ALIGNMENT = CandidateParameters(), AlignParameters()
# rough shares of the stage's time (man pages: 736 documents, 1,800 candidate pairs)
_STEPS = {"frequencies": 0.05, "candidates": 0.35, "aligning": 0.6}


def find_meaning_copies(
    sketches: Sequence[MeaningSketch],
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    frequencies: DocumentFrequencies | None = None,
    candidates: CandidateParameters = DEFAULT_CANDIDATES,
    alignment: AlignParameters = DEFAULT_ALIGNMENT,
    across_languages_only: bool = False,
    store: AlignmentStore | None = None,
) -> list[tuple[int, int, tuple[MeaningFragment, ...]]]:
    """(i, j, fragments) for each pair of documents i < j that share fragments in
    meaning, in order of (i, j); a document is never paired with itself. `frequencies`
    defaults to those of `sketches`. With `across_languages_only` (translations alone are
    wanted), only pairs of which one holds Chinese and the other English are aligned.
    With a `store`, candidate pairs it kept with the same inputs (`kept`) are not aligned
    again, and every candidate pair's fragments are kept there for the next scan.
    Raises `Cancelled` when `cancel` is set."""
    steps = StepProgress(STAGE, _STEPS, progress or no_progress, cancel)
    if frequencies is None:
        frequencies = document_frequencies(sketches, steps.step("frequencies"))
    sides = _languages(sketches, alignment.min_size) if across_languages_only else None
    left, right = candidate_pairs(
        sketches, frequencies, candidates, steps.step("candidates"), sides
    )
    report = steps.step("aligning")
    if store is None:
        known = [None] * len(left)
    else:
        keys = _pair_keys(sketches, frequencies, alignment, left, right, steps.cancel.check)
        kept = store.load()
        known = kept.lookup(*keys) if kept is not None else [None] * len(left)
    aligned, cache = [], {}
    last = _last_uses(left, right, len(sketches), np.array([k is None for k in known], bool))
    for done, (i, j) in enumerate(zip(left.tolist(), right.tolist(), strict=True)):
        report(done, len(left))
        if known[done] is not None:
            aligned.append(known[done])
            continue
        a, b = sketches[i], sketches[j]
        aligned.append(align(a, b, frequencies, alignment, steps.cancel, cache))
        for k, x in ((i, a), (j, b)):  # a document no later pair needs is let go
            if last[k] == done:
                cache.pop(id(x), None)
    report(len(left), len(left))
    if store is not None:
        store.store(KeptAlignments.of(*keys, aligned))
    pairs = zip(left.tolist(), right.tolist(), aligned, strict=True)
    return [(i, j, fragments) for i, j, fragments in pairs if fragments]


def _pair_keys(
    sketches, frequencies, alignment, left, right, check
) -> tuple[np.ndarray, np.ndarray]:
    """Each pair's two alignment keys (`kept.pair_keys`), each document's made once."""
    documents = np.union1d(left, right)
    keys = alignment_keys(sketches, frequencies, alignment, documents, check)
    at = np.searchsorted(documents, left), np.searchsorted(documents, right)
    return pair_keys(keys, *at)


def _languages(sketches, min_size: float) -> tuple[np.ndarray, np.ndarray]:
    """Which documents hold at least `min_size` of Chinese, and which of English (a
    translated fragment needs that much on each side)."""
    chinese = np.array([s.size[s.language == CHINESE].sum() >= min_size for s in sketches])
    english = np.array([s.size[s.language == ENGLISH].sum() >= min_size for s in sketches])
    return chinese, english


def _last_uses(left: np.ndarray, right: np.ndarray, n: int, aligned: np.ndarray) -> np.ndarray:
    """For each document, the last pair that holds it among the `aligned` ones (-1 for
    none)."""
    last = np.full(n, -1, np.int64)
    pairs = np.flatnonzero(aligned)
    last[left[pairs]] = pairs  # numpy keeps the last write of repeated indices
    np.maximum.at(last, right[pairs], pairs)
    return last
