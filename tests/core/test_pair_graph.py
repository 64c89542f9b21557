"""The pair graph updated from a previous scan equals a search from scratch."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.pair_graph import PairGraph


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
    path = tmp_path / "graph.npz"
    graph.save(path)
    loaded = PairGraph.load(path, 4)
    assert loaded is not None and as_set(loaded) == as_set(graph)
    assert PairGraph.load(path, 5) is None
    path.write_bytes(path.read_bytes()[:100])
    assert PairGraph.load(path, 4) is None
    assert PairGraph.load(tmp_path / "missing.npz", 4) is None
