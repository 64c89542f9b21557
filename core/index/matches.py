"""What both Hamming indexes share: the `FingerprintIndex` interface, `Matches` (the pairs a
search found), and the pieces they are built with: fingerprint arrays checked, brute-force
sweeps, parts joined and sorted."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

BRUTE_CHUNK = 1 << 20  # elements per brute-force block (8 MB of uint64; short GIL holds)
_ORDER_CHUNK = 1 << 22  # pairs swapped into order at once


def hamming(a: int | np.ndarray, b: int | np.ndarray) -> np.ndarray | int:
    """Number of differing bits between fingerprints (elementwise for arrays, as uint8: the
    passage stage takes it over tens of millions of candidate pairs)."""
    if isinstance(a, int) and isinstance(b, int):
        return (a ^ b).bit_count()
    return np.bitwise_count(np.asarray(a, np.uint64) ^ np.asarray(b, np.uint64))


@dataclass(frozen=True, slots=True)
class Matches:
    """Result of a search: parallel arrays, one entry per matching pair.

    For `HammingIndex.pairs`, `left < right` are both row numbers of the indexed
    fingerprints; for `HammingIndex.query`, `left` is the query row and `right` the
    indexed row.
    """

    left: np.ndarray  # int64
    right: np.ndarray  # int64
    distance: np.ndarray  # int8

    def __len__(self) -> int:
        return len(self.left)

    def within(self, k: int) -> Matches:
        """The subset with distance <= k."""
        return self.subset(self.distance <= k)

    def subset(self, keep: np.ndarray) -> Matches:
        """The entries where the bool mask `keep` is set."""
        return Matches(self.left[keep], self.right[keep], self.distance[keep])

    @classmethod
    def empty(cls) -> Matches:
        return cls(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8))


def as_fingerprints(values) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"fingerprints must be a 1-D array, got shape {arr.shape}")
    if arr.size and arr.dtype.kind == "i" and arr.min() < 0:
        raise ValueError("fingerprints must be unsigned 64-bit values")
    if arr.size == 0:
        return np.zeros(0, dtype=np.uint64)
    return arr.astype(np.uint64, copy=False)


def brute_pairs(fps: np.ndarray, k: int) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    n = len(fps)
    rows = max(1, BRUTE_CHUNK // max(n, 1))
    for i0 in range(0, n, rows):
        block = fps[i0 : i0 + rows]
        dist = np.bitwise_count(block[:, None] ^ fps[None, :])
        a, b = np.nonzero(dist <= k)
        a = a + i0
        upper = b > a
        a, b = a[upper], b[upper]
        yield a, b, dist[a - i0, b].astype(np.int8)


def brute_query(
    q: np.ndarray, fps: np.ndarray, k: int
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    rows = max(1, BRUTE_CHUNK // max(len(fps), 1))
    for i0 in range(0, len(q), rows):
        dist = np.bitwise_count(q[i0 : i0 + rows, None] ^ fps[None, :])
        a, b = np.nonzero(dist <= k)
        yield a + i0, b, dist[a, b].astype(np.int8)


def concat_parts(parts, check=lambda: None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Parts of (a, b, distances) put together, a column at a time with `check` (Cancel)
    between the columns."""
    parts = list(parts)
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8)
    a, b, d = zip(*parts, strict=True)
    a = np.concatenate(a, dtype=np.int64)
    check()
    b = np.concatenate(b, dtype=np.int64)
    check()
    return a, b, np.concatenate(d, dtype=np.int8)


def order_in_place(left: np.ndarray, right: np.ndarray, check=lambda: None) -> None:
    """Swap `left` and `right` where left > right, a bounded piece at a time with `check`
    (Cancel) between pieces: tens of millions of pairs take a second whole, and pieces
    need no full-size masks."""
    for lo in range(0, len(left), _ORDER_CHUNK):
        check()
        a, b = left[lo : lo + _ORDER_CHUNK], right[lo : lo + _ORDER_CHUNK]
        swap = a > b
        a[swap], b[swap] = b[swap], a[swap]


def concat_matches(parts: list[Matches]) -> Matches:
    parts = [p for p in parts if len(p)]
    if not parts:
        return Matches.empty()
    return Matches(*concat_parts((p.left, p.right, p.distance) for p in parts))


def sorted_in_place(
    left: np.ndarray, right: np.ndarray, distance: np.ndarray, check=lambda: None
) -> Matches:
    """Pairs (left, right) as `Matches` with left < right, sorted; the int64 arrays given
    are overwritten (tens of millions of pairs: every copy counts). `check` is called
    between the passes (Cancel)."""
    n = int(max(left.max(), right.max())) + 1 if len(left) else 0
    if n * n >= 1 << 56:
        return sorted_matches(Matches(np.minimum(left, right), np.maximum(left, right), distance))
    order_in_place(left, right, check)
    key = left
    key *= n
    key += right
    del right
    key <<= 6
    key |= distance
    check()
    key.sort()
    check()
    distance = (key & 63).astype(np.int8)
    key >>= 6
    left, right = np.divmod(key, n)
    return Matches(left, right, distance)


def sorted_matches(m: Matches) -> Matches:
    """`m` sorted by (left, right); by one packed int64 key where it fits (less memory)."""
    n = int(max(m.left.max(), m.right.max())) + 1 if len(m) else 0
    if n * n < 1 << 56:
        key = (m.left * n + m.right) << 6 | m.distance.astype(np.int64)
        key.sort()
        distance = (key & 63).astype(np.int8)
        left, right = np.divmod(key >> 6, n)
        return Matches(left, right, distance)
    order = np.lexsort((m.right, m.left))
    return Matches(m.left[order], m.right[order], m.distance[order])


@runtime_checkable
class FingerprintIndex(Protocol):
    """A Hamming index over 64-bit fingerprints: the in-memory `HammingIndex` and the
    compressed, file-backed `PackedIndex` both answer queries this way."""

    max_distance: int

    def __len__(self) -> int: ...

    def query(self, fingerprints, max_distance: int | None = None, *, cancel=None) -> Matches:
        """Indexed rows within `max_distance` of each query fingerprint, as
        `Matches(left=query row, right=indexed row, distance)`, sorted."""
        ...
