"""Which partial copies to list apart from the clusters: the "beyond k" rule.

Pairs whose fingerprints are within k of each other are whole copies, already shown in
the clusters at k; listing them again as partial copies buried the real partial copies
under thousands of 100% rows. So the partial-copy list keeps only pairs beyond k.
"""

from __future__ import annotations

import numpy as np
from simsift.core.match.passages import PairOverlaps


def beyond_k(distance: np.ndarray, k: int) -> np.ndarray:
    """Boolean mask of the pairs whose Hamming `distance` is larger than `k`."""
    return np.asarray(distance) > k


def partial_pairs_beyond_k(
    pairs: PairOverlaps, distance: np.ndarray, k: int
) -> tuple[PairOverlaps, np.ndarray]:
    """(pairs, distances) of the partial `pairs` the clusters at `k` do not already show.

    `distance` holds each pair's Hamming distance, parallel to `pairs`' arrays.
    """
    keep = beyond_k(distance, k)
    return pairs.subset(keep), np.asarray(distance)[keep]
