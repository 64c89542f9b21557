"""Small shared helpers: pair keys, ragged arrays, atomic writes, rate and time left."""

from __future__ import annotations

import numpy as np
import pytest
from simsift.core.arrays import owners, pair_keys, ragged_arange, split_keys
from simsift.core.files import atomic_write
from simsift.core.progress import format_duration, throughput


def test_pair_keys_sort_as_the_pairs_and_split_back():
    rng = np.random.default_rng(1)
    n = 1000
    left, right = rng.integers(0, n, 500), rng.integers(0, n, 500)
    keys = pair_keys(left, right, n)
    order = np.argsort(keys, kind="stable")
    assert order.tolist() == np.lexsort((right, left)).tolist()
    back_left, back_right = split_keys(keys, n)
    assert back_left.tolist() == left.tolist() and back_right.tolist() == right.tolist()
    # int32 inputs do not overflow: 3 billion pairs' keys fit
    assert pair_keys(np.int32([99_999]), np.int32([99_998]), 100_000)[0] == 9_999_999_998


def test_ragged_arange_numbers_every_entry_of_every_owner():
    counts = np.array([2, 0, 3, 1])
    owner, k = ragged_arange(counts)
    assert owner.tolist() == [0, 0, 2, 2, 2, 3] == owners(counts).tolist()
    assert k.tolist() == [0, 1, 0, 1, 2, 0]


def test_atomic_write_replaces_the_file_whole_or_not_at_all(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_write(path) as f:
        f.write(b"half of the new")
        raise RuntimeError("disk full")
    assert path.read_bytes() == b"old" and sorted(tmp_path.iterdir()) == [path]
    with atomic_write(path, "w", encoding="utf-8") as f:
        f.write("新的")
    assert path.read_text(encoding="utf-8") == "新的" and sorted(tmp_path.iterdir()) == [path]


def test_rate_and_time_left():
    assert throughput(0, 100, 10.0) == (None, None)  # nothing done yet
    assert throughput(10, 100, 0.1) == (None, None)  # too early to tell
    assert throughput(50, 100, 10.0) == (5.0, 10.0)
    assert throughput(100, 100, 10.0) == (10.0, None)
    assert format_duration(75) == "1:15" and format_duration(3725) == "1:02:05"
