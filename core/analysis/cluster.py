"""Clusters of near-duplicates, each centred on its original, from pairs computed once at k_max.

A cluster never chains: every member is within k of the cluster's original, the copy to
keep. Originals are chosen greedily in `original_rank` order (reference folders, then
oldest, then largest, or the user's own choice): a document with a neighbour within k
becomes an original unless it is within k of a better-ranked original; every other such
document joins the nearest original (ties: the better-ranked one). Two originals are
always farther than k apart, so once the members are gone, what is left forms no new
cluster at the same k. An original whose neighbours all joined nearer originals is in no
cluster (`Clusters.apart`). Documents paired at distance 0 (identical fingerprints) are
chosen and joined together. Partial copies (shared passages) never join clusters: they
are listed as pairs of their own. Nor do pairs of the same template (`same_template`):
near fingerprints, but hardly any content in common.

Changing k only filters the stored pairs and re-runs the vectorized choice, so a k slider
in the GUI re-clusters 100,000 documents in milliseconds without touching fingerprints.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
from simsift.core.index.matches import Matches, hamming

KIND_ORIGINAL = 0
KIND_EXACT = 1
KIND_SAME_TEXT = 2
KIND_NEAR = 3
KIND_PARTIAL = 4
KIND_SAME_TEMPLATE = 5  # near fingerprints, hardly any shared content: never in a cluster
KIND_NAMES = ("original", "exact", "same text", "near", "partial", "same template")
# A pair within k sharing less than this share of either side's own text (containment with
# template and common text left out) and no run of the shortest match is the same template
# with different content. Chosen on real documentation (docs/quality.md, "near duplicates
# share content", 2026-12-07): at k = 8, 1,863 of 2,364 near pairs among 3,000 man1 pages
# (gcloud's reference) and 26 of 110 in man sections 2+3 share under 5%, nearly all under
# 1%, while every labeled near duplicate of bench/quality (small) shares 84% or more.
SAME_TEMPLATE_SHARE = 0.05
_ABOVE_ALL = np.iinfo(np.int64).max  # beyond every priority
_SLOW_ROUND = 0.7  # a round of choosing originals that leaves more edges: finish in order


def pair_kinds(
    left: np.ndarray, right: np.ndarray, content_hash: np.ndarray, text_hash: np.ndarray
) -> np.ndarray:
    """Kind code of each pair: exact (same bytes), same text, or near."""
    kinds = np.full(len(left), KIND_NEAR, dtype=np.int8)
    kinds[text_hash[left] == text_hash[right]] = KIND_SAME_TEXT
    kinds[content_hash[left] == content_hash[right]] = KIND_EXACT
    return kinds


def same_template(
    kinds: np.ndarray,
    containment_ab: np.ndarray,
    containment_ba: np.ndarray,
    longest_run: np.ndarray,
    own_left: np.ndarray,
    own_right: np.ndarray,
    shortest_run: int,
) -> np.ndarray:
    """Which near pairs are the same template with different content, per pair (bool).

    A near pair (`KIND_NEAR`) is the same template when its larger containment is under
    `SAME_TEMPLATE_SHARE` and it shares no run of `shortest_run` words (both measured
    outside template and common text). A short document's re-post may hold no such run:
    its containment then decides. When neither document has `shortest_run` words of its
    own (the whole text template or common text, but for a date or a name), there is no
    content to compare: the pair stays near, as a re-post of a boilerplate page is still
    a duplicate. One side all template and the other with text of its own found nowhere
    in it is the same template: that text would be lost with the copy.
    """
    larger = np.maximum(containment_ab, containment_ba)
    content = np.maximum(own_left, own_right) >= shortest_run
    return (
        (kinds == KIND_NEAR)
        & content
        & (larger < SAME_TEMPLATE_SHARE)
        & (longest_run < shortest_run)
    )


@dataclass(frozen=True, slots=True)
class Member:
    """One document of a cluster, relative to the cluster's original."""

    doc: int
    kind: int
    distance: int


@dataclass(frozen=True, slots=True)
class Cluster:
    """A cluster: its original first, then the others by distance."""

    number: int
    members: tuple[Member, ...]
    max_distance: int

    @property
    def original(self) -> int:
        return self.members[0].doc


@dataclass(frozen=True, slots=True)
class Clusters:
    """All clusters at one k, as flat arrays (cheap to rebuild, cheap to show lazily).

    Members of cluster c are `doc[ptr[c]:ptr[c+1]]`, the original first; clusters follow
    their originals' document numbers. `distance` is each member's Hamming distance to its
    original (at most k) and `kind` its relation to it (KIND_* codes). `apart` lists the
    documents in no cluster that are within k of a member but farther than k from every
    original (sorted).
    """

    k: int
    doc: np.ndarray  # int64
    ptr: np.ndarray  # int64, len = clusters + 1
    distance: np.ndarray  # int8
    kind: np.ndarray  # int8
    max_distance: np.ndarray  # int8, per cluster
    apart: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))

    def __len__(self) -> int:
        return len(self.ptr) - 1

    def members(self, c: int) -> slice:
        return slice(int(self.ptr[c]), int(self.ptr[c + 1]))

    def cluster(self, c: int) -> Cluster:
        s = self.members(c)
        members = tuple(
            Member(int(d), int(kd), int(dist))
            for d, kd, dist in zip(self.doc[s], self.kind[s], self.distance[s], strict=True)
        )
        return Cluster(c, members, int(self.max_distance[c]))

    def __iter__(self) -> Iterator[Cluster]:
        return (self.cluster(c) for c in range(len(self)))


def build_clusters(
    pairs: Matches,
    k: int,
    fingerprints: np.ndarray,
    content_hash: np.ndarray,
    text_hash: np.ndarray,
    original_rank: np.ndarray,
) -> Clusters:
    """Clusters of the pairs within k, each centred on its original (see the module).

    Args:
        pairs: pairs of document numbers, typically computed once at k_max. Documents
            joined by pairs at distance 0 go together, as one: a large group of identical
            fingerprints may be listed as a star (one member paired with each other).
        k: the distance threshold for this clustering.
        fingerprints: fingerprint of each document (uint64).
        content_hash, text_hash: per-document hash codes (any integer dtype) used to tell
            exact copies and same-text copies apart from near-duplicates.
        original_rank: lower is a better original (e.g. in a reference folder, oldest,
            largest); ties go to the lower document number.
    """
    close = pairs.within(k)
    docs, node_of, best = _identical_nodes(close, original_rank)
    # edges between nodes, both ways (pairs inside a node are at distance 0)
    between = close.distance > 0
    left, right = node_of[close.left[between]], node_of[close.right[between]]
    far = close.distance[between]
    src, dst = np.concatenate((left, right)), np.concatenate((right, left))
    original = _greedy_originals(len(best), src, dst, best)
    centre = _nearest_originals(original, src, dst, np.concatenate((far, far)), best)
    centre_of = centre[node_of[docs]]
    clustered = np.bincount(centre_of, minlength=len(best))[centre_of] > 1
    doc = docs[clustered]
    ref = docs[best[centre_of[clustered]]]
    distance = hamming(fingerprints[doc], fingerprints[ref]).astype(np.int8)
    # by original, the original first, then by distance and document number: one key
    key = (ref * 2 + (doc != ref)) * (max(k, 0) + 1) + distance
    order = np.argsort(key * len(fingerprints) + doc)
    doc, ref, distance = doc[order], ref[order], distance[order]
    kind = pair_kinds(doc, ref, content_hash, text_hash)
    kind[doc == ref] = KIND_ORIGINAL
    starts = np.flatnonzero(doc == ref)
    ptr = np.append(starts, len(doc)).astype(np.int64)
    max_distance = (
        np.maximum.reduceat(distance, starts) if len(doc) else np.zeros(0, np.int8)
    ).astype(np.int8)
    return Clusters(k, doc, ptr, distance, kind, max_distance, np.sort(docs[~clustered]))


def _identical_nodes(close: Matches, original_rank: np.ndarray):
    """The documents in a pair, best original first, and the nodes they form: documents
    joined by pairs at distance 0 (identical fingerprints) are one node.

    Returns (docs, node of each document number (-1 outside `docs`), per node the
    position in `docs` of its best-ranked document: also the node's priority).
    """
    n = len(original_rank)
    paired = np.zeros(n, bool)
    paired[close.left] = True
    paired[close.right] = True
    docs = np.flatnonzero(paired)
    docs = docs[np.argsort(original_rank[docs], kind="stable")]  # ties: lower number
    position = np.full(n, -1, np.int64)
    position[docs] = np.arange(len(docs))
    zero = close.distance == 0
    # a component's label is its smallest position: its best-ranked document
    label = connected_components(len(docs), position[close.left[zero]], position[close.right[zero]])
    is_best = label == np.arange(len(docs))
    node_of = np.full(n, -1, np.int64)
    node_of[docs] = (np.cumsum(is_best) - 1)[label]
    return docs, node_of, np.flatnonzero(is_best)


def connected_components(n: int, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Component label of each of n nodes given undirected edges (left[i], right[i]): the
    smallest node of its component.

    Vectorized union-find: hook the larger root onto the smaller, then jump pointers
    until every node points at its root; repeat until every edge is inside one root.
    """
    labels = np.arange(n, dtype=np.int64)
    while len(left):
        ra, rb = labels[left], labels[right]
        differ = ra != rb
        if not differ.any():
            break
        ra, rb = ra[differ], rb[differ]
        np.minimum.at(labels, np.maximum(ra, rb), np.minimum(ra, rb))
        labels = _compress(labels)
    return labels


def _compress(labels: np.ndarray) -> np.ndarray:
    while True:
        parent = labels[labels]
        if np.array_equal(parent, labels):
            return labels
        labels = parent


def _greedy_originals(
    nodes: int, src: np.ndarray, dst: np.ndarray, priority: np.ndarray
) -> np.ndarray:
    """Which nodes are originals: those the sequential greedy in `priority` order (lower
    first; distinct) makes originals, a node being taken unless it has a taken neighbour.

    Computed in rounds: an undecided node whose priority beats every undecided neighbour's
    is taken and its neighbours are left out, which gives the sequential choice exactly.
    A few rounds settle almost every node, but a chain whose priorities run along it (the
    versions of a file, oldest first) settles only its front each round: once a round
    leaves most edges undecided, the rest is finished one node at a time.
    """
    undecided = np.ones(nodes, bool)
    original = np.zeros(nodes, bool)
    lowest = np.empty(nodes, np.int64)
    while undecided.any():
        edges = len(src)
        lowest[:] = _ABOVE_ALL  # stays so for a node without undecided neighbours
        np.minimum.at(lowest, src, priority[dst])
        taken = undecided & (priority < lowest)
        original |= taken
        undecided &= ~taken
        undecided[dst[taken[src]]] = False
        live = undecided[src] & undecided[dst]
        src, dst = src[live], dst[live]
        if len(src) > _SLOW_ROUND * edges:
            _finish_in_order(original, undecided, src, dst, priority)
    return original


def _finish_in_order(original, undecided, src, dst, priority) -> None:
    """The sequential greedy over the undecided nodes and the edges between them."""
    rest = np.flatnonzero(undecided)
    rest = rest[np.argsort(priority[rest])]
    by_src = np.argsort(src, kind="stable")
    neighbours = dst[by_src].tolist()
    bounds = np.searchsorted(src[by_src], np.stack((rest, rest + 1))).tolist()
    open_ = undecided.tolist()
    for node, lo, hi in zip(rest.tolist(), *bounds, strict=True):
        if open_[node]:
            original[node] = True
            for other in neighbours[lo:hi]:
                open_[other] = False
    undecided[:] = False


def _nearest_originals(
    original: np.ndarray, src: np.ndarray, dst: np.ndarray, far: np.ndarray, priority
) -> np.ndarray:
    """Per node, the node of its original: itself for an original, else the nearest
    original neighbour (ties: the lower priority)."""
    centre = np.arange(len(original))
    towards = original[dst] & ~original[src]
    member, to = src[towards], dst[towards]
    # distance, then priority, as one key: its minimum per member names the original
    span = len(priority) and int(priority.max()) + 1
    score = far[towards].astype(np.int64) * span + priority[to]
    lowest = np.full(len(original), _ABOVE_ALL, np.int64)
    np.minimum.at(lowest, member, score)
    node_by_priority = np.empty(span, np.int64)
    node_by_priority[priority] = np.arange(len(priority))
    joins = np.flatnonzero(lowest != _ABOVE_ALL)
    centre[joins] = node_by_priority[lowest[joins] % span]
    return centre
