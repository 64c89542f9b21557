"""PackedIndex against a brute-force oracle, saved and loaded, and against damaged files."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simsift.core.index.memory import HammingIndex
from simsift.core.index.packed import (
    FILE_NAME,
    FORMAT_VERSION,
    PackedIndex,
    PackedIndexError,
    choose_packed_plan,
)
from simsift.core.index.plan import cover_plan, make_plan
from simsift.core.progress import Cancelled, CancelToken

from tests.core.test_index import as_set, brute_query


def planted(rng: np.random.Generator, n: int, max_flips: int) -> np.ndarray:
    """n random fingerprints, a near copy (0..max_flips bits flipped) of a third, a few
    exact copies."""
    base = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    copies = base[rng.integers(0, n, n // 3)].copy()
    for i in range(len(copies)):
        for bit in rng.choice(64, rng.integers(0, max_flips + 1), replace=False):
            copies[i] ^= np.uint64(1) << np.uint64(bit)
    return np.concatenate([base, copies, base[:7]])


def queries_near(rng: np.random.Generator, fps: np.ndarray, n: int, max_flips: int):
    q = fps[rng.integers(0, len(fps), n)].copy()
    for i in range(len(q)):
        for bit in rng.choice(64, rng.integers(0, max_flips + 1), replace=False):
            q[i] ^= np.uint64(1) << np.uint64(bit)
    return np.concatenate([q, rng.integers(0, 2**64 - 1, 10, dtype=np.uint64, endpoint=True)])


@pytest.mark.parametrize("k", range(0, 13))
def test_queries_match_brute_force_for_every_k(k, tmp_path):
    rng = np.random.default_rng(k)
    fps = planted(rng, 1500, max_flips=k + 2)
    queries = queries_near(rng, fps, 150, max_flips=k + 1)
    # the layout a million-fingerprint archive gets (at 1,500 the planner would sweep;
    # from k=11 a million is swept too, so a covering layout stands in)
    plan = choose_packed_plan(1_000_000, k)
    index = PackedIndex.build(fps, k, plan=cover_plan(k, 2) if plan.brute_force else plan)
    expected = brute_query(queries, fps, k)
    assert as_set(index.query(queries)) == expected
    index.save(tmp_path)
    loaded = PackedIndex.load(tmp_path)
    assert as_set(loaded.query(queries)) == expected
    assert len(loaded) == len(fps)
    assert np.array_equal(loaded.fingerprints, fps)
    for lower in {0, k // 2}:
        assert as_set(loaded.query(queries, lower)) == brute_query(queries, fps, lower)


@pytest.mark.parametrize(
    "plan",
    [make_plan(4, 3), make_plan(5, 3), make_plan(6, 3), cover_plan(3, 6), cover_plan(8, 4)],
    ids=lambda p: p.describe(),
)
def test_every_layout_gives_the_oracle_answer(plan):
    k = plan.recall_distance()
    k = min(k, 8)
    rng = np.random.default_rng(len(plan.tables))
    fps = planted(rng, 3000, max_flips=k + 1)
    queries = queries_near(rng, fps, 200, max_flips=k + 1)
    index = PackedIndex.build(fps, k, plan=plan)
    assert as_set(index.query(queries)) == brute_query(queries, fps, k)


def test_same_answer_as_hamming_index_at_scale():
    """20,000 fingerprints: tables with many keys per group and two-level heads."""
    rng = np.random.default_rng(3)
    fps = planted(rng, 20_000, max_flips=9)
    queries = queries_near(rng, fps, 500, max_flips=9)
    packed = PackedIndex.build(fps, 8).query(queries)
    memory = HammingIndex(fps, 8).query(queries)
    assert np.array_equal(packed.left, memory.left)
    assert np.array_equal(packed.right, memory.right)
    assert np.array_equal(packed.distance, memory.distance)


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(st.integers(0, 2**64 - 1), max_size=40),
    queries=st.lists(st.integers(0, 2**64 - 1), max_size=10),
    k=st.integers(0, 10),
    seed=st.integers(0, 2**32 - 1),
)
def test_property_matches_brute_force(values, queries, k, seed):
    rng = np.random.default_rng(seed)
    fps = np.array(values, dtype=np.uint64)
    if len(fps):
        flips = rng.integers(0, 64, len(fps)).astype(np.uint64)
        fps = np.concatenate([fps, fps ^ (np.uint64(1) << flips)])
    q = np.array(queries, dtype=np.uint64)
    if len(fps):
        q = np.concatenate([q, fps[: len(fps) // 2] ^ np.uint64(0b101)])
    index = PackedIndex.build(fps, k, plan=cover_plan(k, 1) if 1 <= k <= 14 else None)
    assert as_set(index.query(q)) == brute_query(q, fps, k)


def test_planner_sweeps_small_archives_and_uses_tables_for_large():
    assert choose_packed_plan(1000, 8).brute_force
    for k in (3, 8, 10):
        plan = choose_packed_plan(1_000_000, k)
        assert not plan.brute_force and plan.recall_distance() >= k


def test_empty_single_and_identical():
    assert len(PackedIndex.build(np.zeros(0, np.uint64), 8).query([1, 2])) == 0
    assert len(PackedIndex.build(np.array([5], np.uint64), 3).query([5, 4])) == 2
    same = PackedIndex.build(np.array([7] * 5 + [2**64 - 1], np.uint64), 3)
    assert same.query([7]).right.tolist() == [0, 1, 2, 3, 4]
    assert same.query([2**64 - 2]).right.tolist() == [5]


def test_progress_and_cancel_of_build():
    rng = np.random.default_rng(9)
    fps = planted(rng, 2000, max_flips=3)
    reports = []
    plan = cover_plan(8, 3)
    index = PackedIndex.build(fps, 8, plan=plan, progress=lambda d, t: reports.append((d, t)))
    n = len(plan.tables)
    assert reports == [(i, n) for i in range(1, n + 1)]
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        PackedIndex.build(fps, 8, plan=plan, cancel=token)
    with pytest.raises(Cancelled):
        index.query(fps[:100], cancel=token)


def test_invalid_arguments_are_rejected_clearly():
    with pytest.raises(ValueError, match="between 0 and 32"):
        PackedIndex.build(np.array([1], np.uint64), 33)
    with pytest.raises(ValueError, match="recall"):
        PackedIndex.build(np.array([1, 2], np.uint64), 4, plan=make_plan(4, 3))
    index = PackedIndex.build(np.array([1, 2], np.uint64), 3)
    with pytest.raises(ValueError, match="max_distance"):
        index.query([1], 4)


# -- on disk --------------------------------------------------------------------------------


@pytest.fixture
def saved(tmp_path):
    rng = np.random.default_rng(11)
    fps = planted(rng, 3000, max_flips=9)
    index = PackedIndex.build(fps, 8, plan=choose_packed_plan(1_000_000, 8))
    index.save(tmp_path)
    queries = queries_near(rng, fps, 100, max_flips=8)
    return tmp_path, fps, queries


def test_save_replaces_atomically_and_leaves_no_temporary_file(saved):
    directory, fps, queries = saved
    loaded = PackedIndex.load(directory)
    assert os.listdir(directory) == [FILE_NAME]
    other = PackedIndex.build(fps[:100], 8)
    other.save(directory)
    assert os.listdir(directory) == [FILE_NAME]
    # the first index, still mapped, answers as before; a new load sees the new one
    assert as_set(loaded.query(queries)) == brute_query(queries, fps, 8)
    assert len(PackedIndex.load(directory)) == 100


def corrupt(path, offset: int, data: bytes) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def test_missing_foreign_and_truncated_files_raise_clear_errors(saved, tmp_path_factory):
    directory, _, _ = saved
    empty = tmp_path_factory.mktemp("empty")
    with pytest.raises(PackedIndexError, match="no packed index"):
        PackedIndex.load(empty)
    foreign = tmp_path_factory.mktemp("foreign")
    (foreign / FILE_NAME).write_bytes(b"PK\x03\x04 a zip file, not an index" * 10)
    with pytest.raises(PackedIndexError, match="not a SimSift packed index"):
        PackedIndex.load(foreign)
    path = directory / FILE_NAME
    size = path.stat().st_size
    for cut in (3, 40, size // 2, size - 1):
        short = tmp_path_factory.mktemp("short")
        shutil.copy(path, short / FILE_NAME)
        os.truncate(short / FILE_NAME, cut)
        with pytest.raises(PackedIndexError):
            PackedIndex.load(short).query([1, 2, 3])


def test_other_format_version_is_named(saved):
    directory, _, _ = saved
    path = directory / FILE_NAME
    corrupt(path, 16, np.array([FORMAT_VERSION + 1], "<u4").tobytes())
    with pytest.raises(PackedIndexError, match="another version"):
        PackedIndex.load(directory)


def test_damage_anywhere_is_detected_never_a_crash(saved):
    """Flip a byte in the header, the base arrays and the tables: load or the first query
    raises PackedIndexError (a table is checked when first used)."""
    directory, _, queries = saved
    path = directory / FILE_NAME
    original = path.read_bytes()
    rng = np.random.default_rng(0)
    offsets = [20, 40, 100, 300, *rng.integers(400, len(original), 60).tolist()]
    for offset in offsets:
        damaged = bytearray(original)
        damaged[offset] ^= 0x5A
        path.write_bytes(bytes(damaged))
        try:
            index = PackedIndex.load(directory)
            index.query(queries)
        except PackedIndexError:
            continue
        # a flipped padding byte changes nothing that is read: the answer must still be right
        assert as_set(index.query(queries)) == brute_query(queries, index.fingerprints, 8)
    path.write_bytes(original)


def test_loaded_index_is_read_only_and_memory_mapped(saved):
    directory, _, _ = saved
    loaded = PackedIndex.load(directory)
    with pytest.raises(ValueError):
        loaded.fingerprints[0] = 1


def test_both_indexes_answer_as_a_fingerprint_index():
    from simsift.core.index.matches import FingerprintIndex

    values = np.array([0b1011, 0b1010, 0xFF00], np.uint64)
    memory, packed = HammingIndex(values, 2), PackedIndex.build(values, 2)
    assert isinstance(memory, FingerprintIndex) and isinstance(packed, FingerprintIndex)
    expected = {(0, 0, 0), (0, 1, 1)}
    assert as_set(memory.query(values[:1])) == as_set(packed.query(values[:1])) == expected
