"""64-bit weighted SimHash (Charikar), vectorized with numpy.

For every feature with hash h and weight w, bit i of the sum vector gets +w when bit i
of h is 1 and -w otherwise; the fingerprint has bit i set where that sum is positive.
Documents and passages are fingerprinted by the same function, on flat feature arrays.
"""

from __future__ import annotations

import numpy as np
from simsift.core.arrays import bounded_runs
from simsift.core.text.features import Features

# features fingerprinted at once: bounded memory, and numpy calls short enough that a
# GUI thread waiting for the GIL is never held up for long
_CHUNK_FEATURES = 1 << 18


def simhash(hashes: np.ndarray, weights: np.ndarray) -> int:
    """Fingerprint of one feature set. An empty set (or all weights zero) gives 0."""
    hashes = np.asarray(hashes, np.uint64)
    features = Features(np.zeros(len(hashes), np.int64), hashes, np.asarray(weights, float), 1)
    return int(simhash_features(features)[0])


def simhash_features(features: Features) -> np.ndarray:
    """Fingerprint of every feature set of `features`, as uint64 in owner order."""
    out = np.zeros(features.n, dtype=np.uint64)
    per_owner = features.counts()
    for lo, hi in bounded_runs(per_owner, _CHUNK_FEATURES):
        rows = slice(*np.searchsorted(features.owner, [lo, hi]))
        _simhash_rows(features.hashes[rows], features.weights[rows], features.owner[rows], out)
    return out


def _simhash_rows(hashes: np.ndarray, weights: np.ndarray, owner: np.ndarray, out) -> None:
    """Fingerprints of the owners of flat rows sorted by owner, written into `out`.

    One contiguous pass per bit (byte column, then shift): several times faster than
    summing a (features × 64) bit matrix.
    """
    if len(hashes) == 0:
        return
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    present = owner[starts]
    w = weights.astype(np.float64)
    half = np.add.reduceat(w, starts) / 2
    as_bytes = np.ascontiguousarray(hashes, dtype="<u8").view(np.uint8).reshape(-1, 8)
    weighted = np.empty(len(w), dtype=np.float64)
    for byte in range(8):
        column = np.ascontiguousarray(as_bytes[:, byte])
        for bit in range(8):
            np.multiply(w, (column >> bit) & 1, out=weighted)
            # sum over features of ±w is positive when the set bits carry over half the weight
            positive = np.add.reduceat(weighted, starts) > half
            out[present[positive]] |= np.uint64(1 << (8 * byte + bit))
