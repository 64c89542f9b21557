"""The beyond-k rule for partial copies, and the archive path test, on small arrays."""

from __future__ import annotations

import numpy as np
from simsift.core.analysis.partial_pairs import beyond_k, partial_pairs_beyond_k
from simsift.core.match.passages import PairOverlaps
from simsift.core.pipeline.check import ARCHIVE_MARK, is_archive_path


def _pairs(n: int) -> PairOverlaps:
    ints = np.arange(n, dtype=np.int64)
    floats = np.linspace(0.1, 1.0, n)
    return PairOverlaps(ints, ints + 1, ints, ints, floats, floats, floats, ints)


def test_pairs_within_k_are_left_to_the_clusters():
    assert beyond_k(np.array([0, 3, 4, 9]), 3).tolist() == [False, False, True, True]


def test_partial_pairs_beyond_k_keeps_arrays_parallel():
    pairs, distance = partial_pairs_beyond_k(_pairs(4), np.array([9, 2, 5, 3]), 3)
    assert pairs.left.tolist() == [0, 2]
    assert pairs.right.tolist() == [1, 3]
    assert distance.tolist() == [9, 5]
    assert len(pairs.overlap) == len(distance) == 2


def test_no_pairs_beyond_k():
    pairs, distance = partial_pairs_beyond_k(_pairs(0), np.zeros(0, np.int64), 8)
    assert len(pairs) == 0 and len(distance) == 0


def test_archive_paths_are_told_by_their_mark():
    assert is_archive_path(ARCHIVE_MARK + "/old/essay.txt")
    assert not is_archive_path("/new/essay.txt")
    assert not is_archive_path("/new/archive:essay.txt")
