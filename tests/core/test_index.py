"""HammingIndex against a brute-force oracle, on random and planted near-duplicates."""

from __future__ import annotations

import math

import numpy as np
import pytest
import simsift.core.index.memory as index_module
from hypothesis import given, settings
from hypothesis import strategies as st
from simsift.core.index.memory import HammingIndex, choose_plan
from simsift.core.index.plan import BRUTE_FORCE, COVER_TABLES, IndexPlan, cover_plan, make_plan
from simsift.core.progress import Cancelled, CancelToken


def brute_pairs(fps: np.ndarray, k: int) -> set[tuple[int, int, int]]:
    d = np.bitwise_count(fps[:, None] ^ fps[None, :])
    a, b = np.nonzero(d <= k)
    upper = a < b
    return set(
        zip(a[upper].tolist(), b[upper].tolist(), d[a[upper], b[upper]].tolist(), strict=True)
    )


def brute_query(q: np.ndarray, fps: np.ndarray, k: int) -> set[tuple[int, int, int]]:
    d = np.bitwise_count(q[:, None] ^ fps[None, :])
    a, b = np.nonzero(d <= k)
    return set(zip(a.tolist(), b.tolist(), d[a, b].tolist(), strict=True))


def as_set(m) -> set[tuple[int, int, int]]:
    triples = list(zip(m.left.tolist(), m.right.tolist(), m.distance.tolist(), strict=True))
    assert len(triples) == len(set(triples)), "a pair was reported twice"
    return set(triples)


def planted(rng: np.random.Generator, n: int, max_flips: int) -> np.ndarray:
    """n random fingerprints plus a near copy (0..max_flips bits flipped) of a third of them."""
    base = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    copies = base[rng.integers(0, n, n // 3)].copy()
    for i in range(len(copies)):
        for bit in rng.choice(64, rng.integers(0, max_flips + 1), replace=False):
            copies[i] ^= np.uint64(1) << np.uint64(bit)
    return np.concatenate([base, copies])


@pytest.mark.parametrize("k", range(0, 13))
def test_pairs_and_queries_match_brute_force_for_every_k(k):
    rng = np.random.default_rng(k)
    fps = planted(rng, 400, max_flips=k + 2)
    fps = np.concatenate([fps, fps[:20]])  # exact copies too
    index = HammingIndex(fps, max_distance=k)
    assert as_set(index.pairs()) == brute_pairs(fps, k)
    queries = planted(rng, 60, max_flips=k + 1)
    assert as_set(index.query(queries)) == brute_query(queries, fps, k)


@pytest.mark.parametrize(
    ("k", "plan"),
    [(0, make_plan(2, 0)), (3, make_plan(4, 3)), (8, cover_plan(8, 3)), (12, make_plan(13, 12))],
)
def test_many_queries_against_few_fingerprints_match_brute_force(k, plan):
    # a rescan probes its few new fingerprints with every kept one: the needles then
    # outnumber the table entries and are screened by the keys' top bits first
    rng = np.random.default_rng(100 + k)
    fps = planted(rng, 30, max_flips=k + 1)
    fps = np.concatenate([fps, [np.uint64(2**64 - 1), np.uint64(0)]])
    index = HammingIndex(fps, max_distance=k, plan=plan)
    queries = np.concatenate([planted(rng, 1500, max_flips=0), fps.repeat(3)])
    for i in range(len(fps) * 3):  # near copies of every indexed fingerprint
        for bit in rng.choice(64, rng.integers(0, k + 2), replace=False):
            queries[1500 + 500 + i] ^= np.uint64(1) << np.uint64(bit)
    assert len(queries) >= 16 * len(fps)
    assert as_set(index.query(queries)) == brute_query(queries, fps, k)


@pytest.mark.parametrize(
    ("n_blocks", "k"), [(4, 3), (5, 3), (6, 3), (8, 3), (3, 2), (13, 12), (2, 0)]
)
def test_every_block_layout_finds_the_same_pairs(n_blocks, k):
    rng = np.random.default_rng(n_blocks * 100 + k)
    fps = planted(rng, 500, max_flips=k + 1)
    expected = brute_pairs(fps, k)
    assert as_set(HammingIndex(fps, k, plan=make_plan(n_blocks, k)).pairs()) == expected
    assert as_set(HammingIndex(fps, k, plan=BRUTE_FORCE).pairs()) == expected


@pytest.mark.parametrize(("k", "size"), [(3, 6), (3, 9), (6, 4), (8, 3), (8, 4), (10, 3)])
def test_covering_layouts_find_every_pair_and_query(k, size):
    plan = cover_plan(k, size)
    assert len(plan.tables) < math.comb(16, k), "a covering layout needs fewer tables"
    assert plan.recall_distance() >= k
    rng = np.random.default_rng(k * 10 + size)
    fps = planted(rng, 500, max_flips=k + 1)
    index = HammingIndex(fps, k, plan=plan)
    assert as_set(index.pairs()) == brute_pairs(fps, k)
    queries = planted(rng, 40, max_flips=k + 1)
    assert as_set(index.query(queries)) == brute_query(queries, fps, k)


def test_planner_table_counts_are_those_of_the_search():
    for k, row in enumerate(COVER_TABLES):
        for size, n_tables in enumerate(row, 1):
            if n_tables and n_tables <= 300:
                assert len(cover_plan(k, size).tables) == n_tables, (k, size)


def test_recall_distance_sees_a_missing_table():
    plan = make_plan(5, 2)
    assert plan.recall_distance() == 2
    short = IndexPlan(plan.blocks, plan.tables[1:])
    assert short.recall_distance() < 2
    with pytest.raises(ValueError, match="recall"):
        HammingIndex([1, 2], 2, plan=short)


def test_pairs_on_worker_threads_report_progress_and_match_brute_force(monkeypatch):
    monkeypatch.setattr(index_module, "_WORKERS", 2)
    monkeypatch.setattr(index_module, "_PARALLEL_MIN", 1)
    rng = np.random.default_rng(5)
    fps = planted(rng, 800, max_flips=7)
    index = HammingIndex(fps, 6, plan=cover_plan(6, 4))
    reports = []
    assert as_set(index.pairs(progress=lambda done, total: reports.append((done, total)))) == (
        brute_pairs(fps, 6)
    )
    n_tables = len(index.plan.tables)
    assert reports == [(i, n_tables) for i in range(1, n_tables + 1)]


def test_cancel_stops_pairs_on_worker_threads(monkeypatch):
    monkeypatch.setattr(index_module, "_WORKERS", 2)
    monkeypatch.setattr(index_module, "_PARALLEL_MIN", 1)
    rng = np.random.default_rng(6)
    index = HammingIndex(planted(rng, 800, max_flips=7), 6, plan=cover_plan(6, 4))
    token = CancelToken()

    def cancel_after_three(done, total):
        if done == 3:
            token.cancel()

    with pytest.raises(Cancelled):
        index.pairs(progress=cancel_after_three, cancel=token)


def test_lower_k_than_built_for_filters_pairs():
    rng = np.random.default_rng(7)
    fps = planted(rng, 600, max_flips=6)
    index = HammingIndex(fps, max_distance=6)
    for k in range(7):
        assert as_set(index.pairs(k)) == brute_pairs(fps, k)
    with pytest.raises(ValueError, match="max_distance"):
        index.pairs(7)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(0, 2**64 - 1), max_size=60),
    k=st.integers(0, 8),
    seed=st.integers(0, 2**32 - 1),
)
def test_property_matches_brute_force_with_near_copies(values, k, seed):
    rng = np.random.default_rng(seed)
    fps = np.array(values, dtype=np.uint64)
    if len(fps):  # add near copies so there is something to find
        flips = rng.integers(0, 64, len(fps)).astype(np.uint64)
        fps = np.concatenate([fps, fps ^ (np.uint64(1) << flips)])
    index = HammingIndex(fps, max_distance=k)
    assert as_set(index.pairs()) == brute_pairs(fps, k)


def test_edge_cases_empty_single_identical():
    assert len(HammingIndex([], 3).pairs()) == 0
    assert len(HammingIndex([], 3).query([1, 2])) == 0
    assert len(HammingIndex([42], 3).pairs()) == 0
    same = HammingIndex([7] * 5, 3)
    assert same.distinct_count == 1
    pairs = same.pairs()
    assert len(pairs) == 10 and set(pairs.distance.tolist()) == {0}
    assert same.query([7]).right.tolist() == [0, 1, 2, 3, 4]


def test_extreme_fingerprint_values_are_found():
    top = 2**64 - 1
    fps = np.array([top, top ^ 1, 0, 1], dtype=np.uint64)
    index = HammingIndex(fps, 1, plan=make_plan(2, 1))
    assert as_set(index.pairs()) == {(0, 1, 1), (2, 3, 1)}
    assert as_set(index.query([top])) == {(0, 0, 0), (0, 1, 1)}


def test_exact_copies_are_collapsed_not_quadratic_in_tables():
    fps = np.array([5] * 3000 + [6], dtype=np.uint64)
    index = HammingIndex(fps, 3)
    assert index.distinct_count == 2
    assert len(index.pairs(0)) == 3000 * 2999 // 2
    assert len(index.query([6], 0)) == 1


def test_invalid_arguments_are_rejected_clearly():
    with pytest.raises(ValueError, match="between 0 and 32"):
        HammingIndex([1, 2], max_distance=40)
    with pytest.raises(ValueError, match="1-D"):
        HammingIndex([[1, 2]], 3)
    with pytest.raises(ValueError, match="unsigned"):
        HammingIndex([-1], 3)
    with pytest.raises(ValueError, match="recall"):
        HammingIndex([1, 2], 3, plan=make_plan(4, 2))


def test_cost_model_prefers_brute_force_for_tiny_sets_and_tables_for_large():
    assert choose_plan(50, 3).brute_force
    for k in (3, 8, 10):
        large = choose_plan(1_000_000, k)
        assert not large.brute_force
        assert large.recall_distance() >= k


def test_contains():
    index = HammingIndex([3, 9], 2)
    assert 9 in index and 4 not in index
