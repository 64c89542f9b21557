"""Both Hamming indexes against a plain numpy oracle at every k the app can ask for, with a
real table layout forced at each k.

Left to themselves, the planners sweep small sets by brute force (and from k=9 or so even
large ones), so an oracle test that lets them choose compares brute force with brute
force. Here every k from 0 to MAX_K is searched through classic permuted tables
(`make_plan`) and, where one exists, a covering layout over 16 blocks (`cover_plan`),
both passed through the indexes' public `plan=` argument. The data are random
fingerprints plus near neighbours planted at every distance 0..k+1, with the flipped bits
placed at random, spread one per block, and packed into one run, so pairs at exactly k
(found) and k+1 (not found) are always there.
"""

from __future__ import annotations

import numpy as np
import pytest
from simsift.core.index.memory import HammingIndex
from simsift.core.index.packed import PackedIndex
from simsift.core.index.plan import MAX_K, IndexPlan, cover_plan, make_plan

ONE = np.uint64(1)


def layouts(k: int) -> dict[str, IndexPlan]:
    plans = {f"classic{k + 1}": make_plan(k + 1, k), f"classic{k + 2}": make_plan(k + 2, k)}
    if k < 16:
        size = min(2, 16 - k)  # 16 blocks, tables of 2 (or 1)
        cover = cover_plan(k, size)
        if cover not in plans.values():  # at k=14, 15 it is the classic layout itself
            plans[f"cover16x{size}"] = cover
    return plans


CASES = [
    pytest.param(k, plan, id=f"k{k}-{name}-{len(plan.tables)}tables")
    for k in range(MAX_K + 1)
    for name, plan in layouts(k).items()
]


def flip(value: np.uint64, bits) -> np.uint64:
    for bit in bits:
        value ^= ONE << np.uint64(bit)
    return value


def flip_patterns(rng: np.random.Generator, d: int) -> list[list[int]]:
    """Bit positions for a neighbour at exactly distance d: random, spread, one run."""
    spread = [(i * 64) // d for i in range(d)] if d else []
    start = int(rng.integers(0, 64 - d + 1))
    return [rng.choice(64, d, replace=False).tolist(), spread, list(range(start, start + d))]


def with_neighbours(rng: np.random.Generator, base: np.ndarray, k: int) -> np.ndarray:
    """`base` plus, for every distance 0..k+1, neighbours of random base rows at exactly
    that distance (each flip pattern), plus a chain of exact copies."""
    planted = []
    for d in range(k + 2):
        for bits in flip_patterns(rng, d):
            for row in rng.integers(0, len(base), 2):
                planted.append(flip(base[row], bits))
    extremes = [np.uint64(0), np.uint64(2**64 - 1), flip(np.uint64(0), range(k))]
    return np.concatenate([base, np.array(planted, np.uint64), extremes, base[:3], base[:1]])


def oracle_pairs(fps: np.ndarray, k: int) -> set[tuple[int, int, int]]:
    d = np.bitwise_count(fps[:, None] ^ fps[None, :])
    a, b = np.nonzero(np.triu(d <= k, 1))
    return set(zip(a.tolist(), b.tolist(), d[a, b].tolist(), strict=True))


def oracle_query(q: np.ndarray, fps: np.ndarray, k: int) -> set[tuple[int, int, int]]:
    d = np.bitwise_count(q[:, None] ^ fps[None, :])
    a, b = np.nonzero(d <= k)
    return set(zip(a.tolist(), b.tolist(), d[a, b].tolist(), strict=True))


def triples(m) -> set[tuple[int, int, int]]:
    found = list(zip(m.left.tolist(), m.right.tolist(), m.distance.tolist(), strict=True))
    assert len(found) == len(set(found)), "a pair was reported twice"
    return set(found)


def data(k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1000 * k + seed)
    base = rng.integers(0, 2**64 - 1, 160, dtype=np.uint64, endpoint=True)
    fps = with_neighbours(rng, base, k)
    # queries: neighbours of indexed rows at every distance 0..k+1, and random strangers
    strangers = rng.integers(0, 2**64 - 1, 20, dtype=np.uint64, endpoint=True)
    queries = np.concatenate([with_neighbours(rng, fps[-40:], k)[40:], strangers])
    return fps, queries


def assert_meaningful(expected_pairs: set, fps: np.ndarray, k: int) -> None:
    """The data hold pairs at exactly k and k+1, so a cut-off one off either way shows."""
    distances = {d for _, _, d in expected_pairs}
    assert set(range(k + 1)) <= distances
    assert (k + 1) in {d for _, _, d in oracle_pairs(fps, k + 1)}


@pytest.mark.parametrize(("k", "plan"), CASES)
def test_hamming_index_pairs_and_queries_equal_the_oracle(k, plan):
    assert not plan.brute_force and plan.recall_distance() >= k
    fps, queries = data(k, seed=1)
    expected = oracle_pairs(fps, k)
    assert_meaningful(expected, fps, k)
    index = HammingIndex(fps, max_distance=k, plan=plan)
    assert index.plan is plan
    assert triples(index.pairs()) == expected
    assert triples(index.query(queries)) == oracle_query(queries, fps, k)
    if k:
        lower = k // 2
        assert triples(index.pairs(lower)) == oracle_pairs(fps, lower)
        assert triples(index.query(queries, lower)) == oracle_query(queries, fps, lower)


@pytest.mark.parametrize(("k", "plan"), CASES)
def test_packed_index_queries_equal_the_oracle(k, plan):
    assert not plan.brute_force
    fps, queries = data(k, seed=2)
    index = PackedIndex.build(fps, k, plan=plan)
    assert not index.plan.brute_force
    assert len(index.plan.tables) == len(plan.tables)
    assert triples(index.query(queries)) == oracle_query(queries, fps, k)
    # the indexed rows themselves, near copies of each other at every distance
    assert triples(index.query(fps)) == oracle_query(fps, fps, k)
    if k:
        lower = k // 2
        assert triples(index.query(queries, lower)) == oracle_query(queries, fps, lower)


def test_every_k_gets_a_table_layout():
    assert [k for k, *_ in (c.values for c in CASES)].count(MAX_K) >= 2
    assert {c.values[0] for c in CASES} == set(range(MAX_K + 1))
