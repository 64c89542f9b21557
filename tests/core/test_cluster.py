"""Clusters from pairs: union-find, reference choice, kinds, and instant re-clustering by k."""

from __future__ import annotations

import numpy as np
from simsift.core.analysis.cluster import (
    KIND_EXACT,
    KIND_NEAR,
    KIND_ORIGINAL,
    KIND_SAME_TEXT,
    build_clusters,
    connected_components,
)
from simsift.core.index.memory import HammingIndex


def naive_components(n, edges):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    groups = {}
    for i in range(n):
        groups.setdefault(find(i), set()).add(i)
    return {frozenset(g) for g in groups.values()}


def as_groups(labels):
    groups = {}
    for i, lab in enumerate(labels.tolist()):
        groups.setdefault(lab, set()).add(i)
    return {frozenset(g) for g in groups.values()}


def test_connected_components_matches_naive_union_find_on_random_graphs():
    rng = np.random.default_rng(5)
    for n, m in [(1, 0), (10, 3), (200, 150), (2000, 1900), (500, 5000)]:
        left = rng.integers(0, n, m)
        right = rng.integers(0, n, m)
        labels = connected_components(n, left, right)
        assert as_groups(labels) == naive_components(
            n, zip(left.tolist(), right.tolist(), strict=True)
        )


def test_long_chain_is_one_component():
    n = 10_000
    labels = connected_components(n, np.arange(n - 1)[::-1].copy(), np.arange(1, n)[::-1].copy())
    assert len(set(labels.tolist())) == 1


def make_corpus():
    fps = np.array(
        [0b0000, 0b0001, 0b0011, 0b0111, 0xFF00, 0xFF00, 0xFF01, 0x5A5A_A5A5_0F0F_F0F0],
        dtype=np.uint64,
    )
    content = np.array([1, 2, 3, 4, 5, 5, 6, 7])  # docs 4 and 5 are byte-identical
    text = np.array([1, 2, 3, 4, 5, 5, 5, 7])  # doc 6 has the same text as 4 (other format)
    rank = np.arange(len(fps))
    return fps, content, text, rank


def test_clusters_reference_distance_kind_and_max_distance():
    fps, content, text, rank = make_corpus()
    pairs = HammingIndex(fps, 3).pairs()
    clusters = build_clusters(pairs, 1, fps, content, text, rank)
    by_ref = {c.original: c for c in clusters}
    chain = by_ref[0]  # 0-1-2-3 chain at k=1: single link joins them
    assert [m.doc for m in chain.members] == [0, 1, 2, 3]
    assert [m.distance for m in chain.members] == [0, 1, 2, 3]
    assert chain.max_distance == 3  # reported so the chaining is visible
    assert chain.members[0].kind == KIND_ORIGINAL and chain.members[1].kind == KIND_NEAR
    copies = by_ref[4]
    assert {(m.doc, m.kind) for m in copies.members} == {
        (4, KIND_ORIGINAL),
        (5, KIND_EXACT),
        (6, KIND_SAME_TEXT),
    }
    assert all(m.doc != 7 for c in clusters for m in c.members)


def test_reference_rank_picks_the_reference():
    fps, content, text, _ = make_corpus()
    rank = np.array([9, 9, 0, 9, 9, 9, 9, 9])
    clusters = build_clusters(HammingIndex(fps, 3).pairs(), 1, fps, content, text, rank)
    chain = next(c for c in clusters if 2 in [m.doc for m in c.members])
    assert chain.original == 2


def test_changing_k_reclusters_from_the_same_pairs():
    fps, content, text, rank = make_corpus()
    pairs = HammingIndex(fps, 3).pairs()  # computed once at k_max
    sizes = {}
    for k in range(4):
        clusters = build_clusters(pairs, k, fps, content, text, rank)
        sizes[k] = sorted(len(c.members) for c in clusters)
    assert sizes[0] == [2]  # only the identical fingerprints
    assert sizes[1] == [3, 4]
    assert sizes[3] == [3, 4]
    # same result as building pairs at that k from scratch
    direct = build_clusters(HammingIndex(fps, 1).pairs(), 1, fps, content, text, rank)
    assert [c.members for c in direct] == [
        c.members for c in build_clusters(pairs, 1, fps, content, text, rank)
    ]


def test_no_pairs_no_clusters():
    fps = np.array([0, 0xFFFF_FFFF, 0xFFFF_FFFF_0000_0000], dtype=np.uint64)
    clusters = build_clusters(HammingIndex(fps, 3).pairs(), 3, fps, fps, fps, np.zeros(3))
    assert len(clusters) == 0
