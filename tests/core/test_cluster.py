"""Clusters centred on their originals: choice of originals, nearest original, kinds, and
instant re-clustering by k, checked against a brute-force greedy."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from simsift.core.analysis.cluster import (
    KIND_EXACT,
    KIND_NEAR,
    KIND_ORIGINAL,
    KIND_SAME_TEXT,
    build_clusters,
    connected_components,
)
from simsift.core.index.matches import Matches
from simsift.core.index.memory import HammingIndex


def brute_pairs(fps: np.ndarray, k: int) -> Matches:
    """Every pair of documents within k, by comparing all of them."""
    left, right = np.triu_indices(len(fps), 1)
    distance = np.bitwise_count(fps[left] ^ fps[right]).astype(np.int8)
    keep = distance <= k
    return Matches(left[keep].astype(np.int64), right[keep].astype(np.int64), distance[keep])


def oracle(fps: np.ndarray, k: int, rank: np.ndarray) -> dict[int, set[int]]:
    """Original -> members, by the sequential greedy: in rank order (ties: lower number) a
    document with a neighbour within k is an original unless within k of an earlier one;
    the others join the nearest original (ties: the better-ranked one)."""
    n = len(fps)
    dist = [[(int(fps[a]) ^ int(fps[b])).bit_count() for b in range(n)] for a in range(n)]
    has_neighbour = [any(dist[a][b] <= k for b in range(n) if b != a) for a in range(n)]
    order = sorted(range(n), key=lambda d: (rank[d], d))
    originals: list[int] = []
    for d in order:
        if has_neighbour[d] and all(dist[d][o] > k for o in originals):
            originals.append(d)
    groups: dict[int, set[int]] = {o: {o} for o in originals}
    for d in range(n):
        if has_neighbour[d] and d not in groups:
            near = [o for o in originals if dist[d][o] <= k]
            groups[min(near, key=lambda o: (dist[d][o], originals.index(o)))].add(d)
    return {o: members for o, members in groups.items() if len(members) > 1}


def as_groups(clusters) -> dict[int, set[int]]:
    return {c.original: {m.doc for m in c.members} for c in clusters}


def check_invariants(clusters, fps: np.ndarray, k: int, rank: np.ndarray) -> None:
    """What the Clusters tab and "Mark all but the original" rely on."""
    dist = np.bitwise_count(fps[:, None] ^ fps[None, :])
    originals = [c.original for c in clusters]
    seen: set[int] = set()
    for c in clusters:
        assert c.members[0].kind == KIND_ORIGINAL and len(c.members) > 1
        assert c.max_distance == max(m.distance for m in c.members) <= k
        for m in c.members:
            assert m.doc not in seen  # a document is in one cluster only
            seen.add(m.doc)
            assert m.distance == dist[m.doc, c.original] <= k  # never chained
            if m.doc != c.original:  # no other original is nearer (or as near and better)
                key = (m.distance, rank[c.original], c.original)
                assert all(
                    (dist[m.doc, o], rank[o], o) >= key for o in originals if dist[m.doc, o] <= k
                )
    for a in originals:  # originals never within k of each other
        assert all(dist[a, b] > k for b in originals if b != a)
    for d in clusters.apart.tolist():  # left apart: near a member, farther than k from all
        assert d not in seen and all(dist[d, o] > k for o in originals)
        assert any(dist[d, m] <= k for m in seen)


def test_greedy_and_nearest_original_match_brute_force_on_random_corpora():
    rng = np.random.default_rng(7)
    for trial in range(60):
        n = int(rng.integers(2, 40))
        fps = rng.integers(0, 2 ** int(rng.integers(3, 12)), n).astype(np.uint64)
        k = int(rng.integers(0, 5))
        rank = rng.integers(0, 5 if trial % 2 else n * 10, n)  # ties half of the time
        codes = np.arange(n)
        pairs = HammingIndex(fps, 6).pairs()
        clusters = build_clusters(pairs, k, fps, codes, codes, rank)
        assert as_groups(clusters) == oracle(fps, k, rank), (fps.tolist(), k, rank.tolist())
        check_invariants(clusters, fps, k, rank)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 255), min_size=1, max_size=30),
    st.integers(0, 4),
    st.data(),
)
def test_clusters_never_chain_and_join_the_nearest_original(values, k, data):
    fps = np.array(values, np.uint64)
    rank = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(values),
                                       max_size=len(values))))  # fmt: skip
    codes = np.arange(len(fps))
    clusters = build_clusters(brute_pairs(fps, 8), k, fps, codes, codes, rank)
    check_invariants(clusters, fps, k, rank)
    assert as_groups(clusters) == oracle(fps, k, rank)


def test_a_chain_splits_at_k_around_the_best_ranked_original():
    # 0-1-2-3-4: each step one bit, the ends 4 bits apart
    fps = np.array([0b0000, 0b0001, 0b0011, 0b0111, 0b1111], np.uint64)
    codes = np.arange(5)
    clusters = build_clusters(brute_pairs(fps, 8), 1, fps, codes, codes, codes)
    assert as_groups(clusters) == {0: {0, 1}, 2: {2, 3}}
    assert clusters.apart.tolist() == [4]  # next to 3, a member, but too far from 2
    assert [c.max_distance for c in clusters] == [1, 1]
    # the original the user prefers (best rank) centres its own cluster; 0 and 4 are
    # then originals whose only neighbour (1, 3) is as near 2, the better ranked: apart
    rank = np.array([5, 5, 0, 5, 5])
    clusters = build_clusters(brute_pairs(fps, 8), 1, fps, codes, codes, rank)
    assert as_groups(clusters) == {2: {1, 2, 3}}
    assert clusters.apart.tolist() == [0, 4]


def test_a_long_chain_ranked_along_its_length_matches_the_sequential_greedy():
    """Versions of a file each edited from the one before, oldest first: the rounds settle
    two a time, so the end of the chain is finished one by one; the same choice."""
    steps = np.uint64(1) << (np.arange(127) % 64).astype(np.uint64)
    fps = np.bitwise_xor.accumulate(steps)  # 127 distinct, one bit apart in a row
    codes = np.arange(127)
    for rank in (codes, codes[::-1].copy()):
        clusters = build_clusters(brute_pairs(fps, 2), 1, fps, codes, codes, rank)
        assert as_groups(clusters) == oracle(fps, 1, rank)
        check_invariants(clusters, fps, 1, rank)
    assert len(clusters) == 63  # each original with the version after it (before: a tie)
    assert clusters.apart.tolist() == [0]  # the newest: its one neighbour, 1, joined 2


def test_a_file_near_two_originals_joins_the_nearer_then_the_better_ranked():
    # doc 1 is 1 bit from 0 and 3 from 3; doc 2 is 2 bits from both; 0 and 3 are 4 apart
    fps = np.array([0b0000_0000, 0b0000_0001, 0b0000_0011, 0b0000_1111], np.uint64)
    codes = np.arange(4)
    clusters = build_clusters(brute_pairs(fps, 8), 2, fps, codes, codes, np.array([0, 9, 9, 1]))
    assert as_groups(clusters) == {0: {0, 1, 2}}  # the tie at 2 goes to 0, better ranked
    assert clusters.apart.tolist() == [3]
    clusters = build_clusters(brute_pairs(fps, 8), 2, fps, codes, codes, np.array([1, 9, 9, 0]))
    assert as_groups(clusters) == {0: {0, 1}, 3: {2, 3}}  # now 3 is: it takes the tie


def make_corpus():
    fps = np.array(
        [0b0000, 0b0001, 0b0011, 0b0111, 0xFF00, 0xFF00, 0xFF01, 0x5A5A_A5A5_0F0F_F0F0],
        dtype=np.uint64,
    )
    content = np.array([1, 2, 3, 4, 5, 5, 6, 7])  # docs 4 and 5 are byte-identical
    text = np.array([1, 2, 3, 4, 5, 5, 5, 7])  # doc 6 has the same text as 4 (other format)
    rank = np.arange(len(fps))
    return fps, content, text, rank


def test_clusters_original_distance_kind_and_max_distance():
    fps, content, text, rank = make_corpus()
    pairs = HammingIndex(fps, 3).pairs()
    clusters = build_clusters(pairs, 1, fps, content, text, rank)
    by_original = {c.original: c for c in clusters}
    assert [m.doc for m in by_original[0].members] == [0, 1]  # the chain 0-1-2-3 is cut
    assert [m.doc for m in by_original[2].members] == [2, 3]
    assert by_original[0].members[1].distance == 1 and by_original[0].max_distance == 1
    assert by_original[0].members[1].kind == KIND_NEAR
    copies = by_original[4]
    assert [(m.doc, m.kind, m.distance) for m in copies.members] == [
        (4, KIND_ORIGINAL, 0),
        (5, KIND_EXACT, 0),
        (6, KIND_SAME_TEXT, 1),
    ]
    assert all(m.doc != 7 for c in clusters for m in c.members)
    assert [c.original for c in clusters] == [0, 2, 4]  # in the originals' order


def test_reference_rank_picks_the_original():
    fps, content, text, _ = make_corpus()
    rank = np.array([9, 9, 0, 9, 9, 9, 9, 9])
    clusters = build_clusters(HammingIndex(fps, 3).pairs(), 1, fps, content, text, rank)
    chain = next(c for c in clusters if 2 in [m.doc for m in c.members])
    assert chain.original == 2
    assert {m.doc for m in chain.members} == {1, 2, 3}  # both within 1 of it
    assert clusters.apart.tolist() == [0]  # 1's other neighbour: 2 bits from 2


def test_changing_k_reclusters_from_the_same_pairs():
    fps, content, text, rank = make_corpus()
    pairs = HammingIndex(fps, 3).pairs()  # computed once at k_max
    sizes = {}
    for k in range(4):
        clusters = build_clusters(pairs, k, fps, content, text, rank)
        sizes[k] = sorted(len(c.members) for c in clusters)
        check_invariants(clusters, fps, k, rank)
    assert sizes[0] == [2]  # only the identical fingerprints
    assert sizes[1] == [2, 2, 3]
    assert sizes[2] == [2, 2, 3]  # 0-1 and 3-2: 2 is as near 0 as 3 is, but nearer 3
    assert sizes[3] == [3, 4]  # 0 reaches 3 at k = 3
    # same result as building pairs at that k from scratch
    direct = build_clusters(HammingIndex(fps, 1).pairs(), 1, fps, content, text, rank)
    assert [c.members for c in direct] == [
        c.members for c in build_clusters(pairs, 1, fps, content, text, rank)
    ]


def test_identical_fingerprints_listed_as_a_star_stay_one_cluster():
    """Large groups of identical files are paired with their first file only; the copies
    must still be members of one cluster whichever copy is the best original."""
    fps = np.array([7, 7, 7, 7, 7, 6], np.uint64)
    star = Matches(np.array([0, 0, 0, 0, 0]), np.array([1, 2, 3, 4, 5]), np.array([0] * 4 + [1]))
    rank = np.array([5, 4, 0, 3, 2, 1])
    codes = np.arange(6)
    clusters = build_clusters(star, 1, fps, codes, codes, rank)
    assert as_groups(clusters) == {2: {0, 1, 2, 3, 4, 5}}
    assert clusters.cluster(0).members[-1].doc == 5  # the farthest last


def test_identical_files_dismissed_as_not_a_duplicate_stay_apart():
    """Identical files whose pair the user dismissed ("not a duplicate") are not one
    node: 0 is an original, 1 (near 0's member 2 only) is left apart, not put with 0."""
    fps = np.array([5, 5, 4, 0xFFFF], np.uint64)
    codes = np.arange(4)
    pairs = Matches(np.array([0, 1]), np.array([2, 2]), np.array([1, 1], np.int8))  # no 0-1
    clusters = build_clusters(pairs, 1, fps, codes, codes, np.array([0, 1, 2, 3]))
    assert as_groups(clusters) == {0: {0, 2}}
    assert clusters.apart.tolist() == [1]


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


def test_connected_components_match_naive_union_find_and_label_by_smallest_node():
    rng = np.random.default_rng(5)
    for n, m in [(1, 0), (10, 3), (200, 150), (2000, 1900), (500, 5000)]:
        left, right = rng.integers(0, n, m), rng.integers(0, n, m)
        labels = connected_components(n, left, right)
        groups: dict[int, set[int]] = {}
        for i, label in enumerate(labels.tolist()):
            groups.setdefault(label, set()).add(i)
        assert all(label == min(members) for label, members in groups.items())
        assert {frozenset(g) for g in groups.values()} == naive_components(
            n, zip(left.tolist(), right.tolist(), strict=True)
        )
    chain = connected_components(10_000, np.arange(9_999)[::-1].copy(), np.arange(10_000)[:0:-1])
    assert set(chain.tolist()) == {0}


def test_marking_and_trashing_twice_never_removes_a_file_far_from_every_kept_one():
    """A-B-C-D: each step within k, the ends farther. Mark all but the original, trash the
    marked files (their pairs go), rebuild, mark again: every file ever marked is within k
    of a file that is kept."""
    fps = np.array([0b000000, 0b000011, 0b001111, 0b111111], np.uint64)  # steps of 2
    k = 2
    codes = np.arange(4)
    dist = np.bitwise_count(fps[:, None] ^ fps[None, :])
    for rank in ([0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 0, 1, 3], [0, 3, 1, 2]):
        rank = np.array(rank)
        pairs, trashed = brute_pairs(fps, 8), set()
        for _ in range(2):
            clusters = build_clusters(pairs, k, fps, codes, codes, rank)
            marked = {m.doc for c in clusters for m in c.members if m.kind != KIND_ORIGINAL}
            trashed |= marked
            gone = np.isin(pairs.left, list(trashed)) | np.isin(pairs.right, list(trashed))
            pairs = pairs.subset(~gone)
        kept = set(range(4)) - trashed
        assert kept, rank
        for d in trashed:
            assert any(dist[d, o] <= k for o in kept), (rank.tolist(), d, kept)


def test_no_pairs_no_clusters():
    fps = np.array([0, 0xFFFF_FFFF, 0xFFFF_FFFF_0000_0000], dtype=np.uint64)
    clusters = build_clusters(HammingIndex(fps, 3).pairs(), 3, fps, fps, fps, np.zeros(3))
    assert len(clusters) == 0 and len(clusters.apart) == 0
    assert clusters.ptr.tolist() == [0]
