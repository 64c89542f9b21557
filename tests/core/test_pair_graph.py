"""The pair graph updated from a previous scan equals a search from scratch."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from simsift.core.index.pair_graph import PairGraph


def near_copies(rng: np.random.Generator, n: int) -> np.ndarray:
    """Fingerprints in clusters of near copies, so pairs exist at every distance."""
    base = rng.integers(0, 2**63, size=max(1, n // 4), dtype=np.uint64)
    picks = base[rng.integers(0, len(base), n)]
    flips = rng.integers(0, 64, size=(n, 6))
    flip_count = rng.integers(0, 7, n)
    for i in range(n):
        for bit in flips[i, : flip_count[i]]:
            picks[i] ^= np.uint64(1) << np.uint64(bit)
    return np.unique(picks)


def as_set(graph: PairGraph) -> set[tuple[int, int, int, int]]:
    u, v, d = graph.pairs()
    values = graph.values
    return {(int(values[a]), int(values[b]), int(x), 0) for a, b, x in zip(u, v, d, strict=True)}


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(0, 10),
    n=st.integers(0, 300),
    keep=st.floats(0.0, 1.0),
    add=st.integers(0, 200),
)
def test_update_finds_the_same_pairs_as_a_search(seed, k, n, keep, add):
    rng = np.random.default_rng(seed)
    old = near_copies(rng, n) if n else np.zeros(0, np.uint64)
    kept = old[rng.random(len(old)) < keep]
    new = np.unique(np.r_[kept, near_copies(rng, add) if add else np.zeros(0, np.uint64)])
    updated = PairGraph.search(old, k).update(new)
    assert as_set(updated) == as_set(PairGraph.search(new, k))
    u, v, _ = updated.pairs()
    assert (u < v).all()


def test_saved_graph_loads_only_for_its_k_and_survives_damage(tmp_path):
    rng = np.random.default_rng(1)
    graph = PairGraph.search(near_copies(rng, 200), 4)
    path = tmp_path / "graph.arrays"
    graph.save(path)
    loaded = PairGraph.load(path, 4)
    assert loaded is not None and as_set(loaded) == as_set(graph)
    assert PairGraph.load(path, 5) is None
    path.write_bytes(path.read_bytes()[:100])
    assert PairGraph.load(path, 4) is None
    assert PairGraph.load(tmp_path / "missing.arrays", 4) is None


def components(n: int, left, right) -> list[int]:
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in zip(left.tolist(), right.tolist(), strict=True):
        parent[find(a)] = find(b)
    return [find(x) for x in range(n)]


def test_many_identical_copies_are_listed_with_the_first_and_cluster_the_same():
    from simsift.core.index.pair_graph import Groups, search_pairs

    rng = np.random.default_rng(2)
    values = np.r_[np.full(40, 7, np.uint64), np.full(30, 8, np.uint64), near_copies(rng, 50)]
    groups = Groups.of(values)
    found = search_pairs(groups.values, 3)
    every = groups.matches(found, 1 << 20)
    capped = groups.matches(found, 1 << 20, max_copies=10)
    assert len(every) > 40 * 39 // 2 and len(capped) < len(every) / 4
    labels = components(len(values), every.left, every.right)
    assert _same_partition(labels, components(len(values), capped.left, capped.right))
    assert set(zip(capped.left.tolist(), capped.right.tolist(), strict=True)) <= set(
        zip(every.left.tolist(), every.right.tolist(), strict=True)
    )


def _same_partition(a: list[int], b: list[int]) -> bool:
    return len(set(zip(a, b, strict=True))) == len(set(a)) == len(set(b))
