"""SimHash fingerprints of every passage, made from the same features as documents'."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from simsift.core.arrays import bounded_runs, ragged_arange
from simsift.core.match.passages.cutting import Passages
from simsift.core.text.features import FeatureWeights, combine_features, token_weights
from simsift.core.text.simhash import simhash_features
from simsift.core.text.tokens import TokenStream

# passage tokens fingerprinted at once: bounded memory, and numpy calls short enough
# that a GUI thread waiting for the GIL is never held up for long
_FINGERPRINT_CHUNK = 1 << 19


def _token_range(
    streams: Sequence[TokenStream], offsets: np.ndarray, start: int, stop: int
) -> tuple[np.ndarray, np.ndarray]:
    """Hashes and digit flags of the global token positions [start, stop)."""
    first = int(np.searchsorted(offsets, start, side="right")) - 1
    last = int(np.searchsorted(offsets, stop, side="left"))
    hashes, digits = [np.zeros(0, np.uint64)], [np.zeros(0, bool)]
    for d in range(max(first, 0), min(last, len(streams))):
        lo, hi = max(start - offsets[d], 0), min(stop, offsets[d + 1]) - offsets[d]
        hashes.append(np.asarray(streams[d].hashes[lo:hi], np.uint64))
        digits.append(np.asarray(streams[d].is_digit[lo:hi], bool))
    return np.concatenate(hashes), np.concatenate(digits)


def passage_fingerprints(
    streams: Sequence[TokenStream],
    passages: Passages,
    weights: FeatureWeights,
    shingle_size: int,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """SimHash fingerprint and distinct-feature count of every passage, all at once.

    Features are formed as for whole documents (stopwords, digits, user term weights,
    tf scheme; no idf) but from `shingle_size`-token shingles.

    Args:
        streams: the body token streams `passages` were cut from.
        passages: from `cut_passages`.
        weights: the scan's feature weights.
        shingle_size: n of the n-token shingles.
        progress: called with (passages done, passages) after each bounded step.
    """
    fingerprints = np.zeros(len(passages), dtype=np.uint64)
    counts = np.zeros(len(passages), dtype=np.int64)
    if progress is not None:  # cutting the passages was a pass of its own
        progress(0, len(passages))
    for lo, hi in bounded_runs(passages.stop - passages.start, _FINGERPRINT_CHUNK):
        # only the tokens of this step's passages are gathered: memory and time stay
        # bounded even inside one huge document
        base, end = int(passages.start[lo:hi].min()), int(passages.stop[lo:hi].max())
        hashes, is_digit = _token_range(streams, passages.offsets, base, end)
        user = token_weights(hashes, is_digit, weights)
        fingerprints[lo:hi], counts[lo:hi] = _fingerprint_range(
            hashes,
            user,
            passages.start[lo:hi] - base,
            passages.stop[lo:hi] - base,
            weights,
            shingle_size,
        )
        if progress is not None:
            progress(hi, len(passages))
    return fingerprints, counts


def _fingerprint_range(hashes, user, start, stop, weights: FeatureWeights, shingle_size: int):
    """Fingerprints and feature counts of the passages [start, stop) of `hashes`."""
    owner, positions = _passage_positions(start, stop)
    features = combine_features(
        hashes[positions], user[positions], owner, len(start), shingle_size, weights.tf_scheme
    )
    return simhash_features(features), features.counts()


def _passage_positions(start: np.ndarray, stop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(passage, global token position) for every token of every passage."""
    owner, within = ragged_arange(stop - start)
    return owner, start[owner] + within
