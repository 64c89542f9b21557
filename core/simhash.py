"""64-bit weighted SimHash (Charikar), vectorized with numpy.

For every feature with hash h and weight w, bit i of the sum vector gets +w when bit i
of h is 1 and -w otherwise; the fingerprint has bit i set where that sum is positive.
Bits are taken as a matrix (features × 64) and summed per document in one pass.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.features import FeatureVector

BITS = 64
_CHUNK_FEATURES = 1 << 16  # ~4 MB bit matrix; smaller steps also keep a GUI thread fed


def hash_bits(hashes: np.ndarray) -> np.ndarray:
    """(n, 64) uint8 matrix whose column i is bit i (least significant first) of each hash."""
    as_bytes = np.ascontiguousarray(hashes, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")


def _pack_bits(bits: np.ndarray) -> np.ndarray:
    """Inverse of `hash_bits`: rows of 64 booleans to uint64 values."""
    packed = np.packbits(bits.astype(np.uint8), axis=1, bitorder="little")
    return packed.view("<u8").reshape(-1).astype(np.uint64)


def simhash(hashes: np.ndarray, weights: np.ndarray) -> int:
    """Fingerprint of one feature set. An empty set (or all weights zero) gives 0."""
    return int(
        simhash_batch(
            [FeatureVector(np.asarray(hashes, np.uint64), np.asarray(weights, np.float64))]
        )[0]
    )


def simhash_batch(vectors: Sequence[FeatureVector]) -> np.ndarray:
    """Fingerprints of many feature sets at once, as a uint64 array in input order."""
    sizes = np.array([len(v) for v in vectors], dtype=np.int64)
    if len(vectors) == 0:
        return np.zeros(0, dtype=np.uint64)
    sums = np.zeros((len(vectors), BITS), dtype=np.float64)
    totals = np.array([float(v.weights.sum()) for v in vectors])
    for start, stop in _chunks(sizes):
        hashes = np.concatenate([v.hashes for v in vectors[start:stop]])
        weights = np.concatenate([v.weights for v in vectors[start:stop]])
        weighted = hash_bits(hashes) * weights[:, None]
        owner = np.repeat(np.arange(start, stop), sizes[start:stop])
        _segment_sum(sums, owner, weighted)  # sum of w over set bits, per document and bit
    # sum over features of ±w is 2·(sum over set bits) − (sum of all weights)
    return _pack_bits(2.0 * sums - totals[:, None] > 0)


def _segment_sum(out: np.ndarray, owner: np.ndarray, values: np.ndarray) -> None:
    """out[owner[i]] += values[i] for sorted `owner`, using reduceat over non-empty runs."""
    if len(owner) == 0:
        return
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    out[owner[starts]] += np.add.reduceat(values, starts, axis=0)


def _chunks(sizes: np.ndarray) -> list[tuple[int, int]]:
    """Split documents into consecutive groups of about `_CHUNK_FEATURES` features."""
    bounds: list[tuple[int, int]] = []
    start, running = 0, 0
    for i, size in enumerate(sizes):
        running += int(size)
        if running >= _CHUNK_FEATURES:
            bounds.append((start, i + 1))
            start, running = i + 1, 0
    if start < len(sizes):
        bounds.append((start, len(sizes)))
    return bounds


def hamming(a: int | np.ndarray, b: int | np.ndarray) -> np.ndarray | int:
    """Number of differing bits between fingerprints (elementwise for arrays)."""
    if isinstance(a, int) and isinstance(b, int):
        return (a ^ b).bit_count()
    return np.bitwise_count(np.asarray(a, np.uint64) ^ np.asarray(b, np.uint64)).astype(np.int64)
