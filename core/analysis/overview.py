"""The overview of a scan, as report viewers show it (Dolos, JPlag): how the similarity
indices are spread, which documents to read first, and who shares text with whom.

Everything here is plain numbers; `app/panels/overview.py` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from simsift.core.analysis.similarity import DocumentSimilarity

if TYPE_CHECKING:  # only annotations: the overview reads a result, it never makes one
    from simsift.core.pipeline.result import ScanResult

HISTOGRAM_BINS = 20  # 5% wide
TOP_COUNT = 10
MAX_GRAPH_NODES = 150  # beyond this a drawing is a hairball; the strongest links are kept


@dataclass(frozen=True)
class CopyGraph:
    """Documents linked by copying, with positions for drawing (x, y in 0..1).

    `edge_strength` is the larger containment of the pair (1 for near duplicates).
    """

    nodes: np.ndarray  # document numbers
    x: np.ndarray
    y: np.ndarray
    edge_a: np.ndarray  # node positions (indices into `nodes`)
    edge_b: np.ndarray
    edge_strength: np.ndarray
    group: np.ndarray  # per node: its connected group, largest group 0
    dropped: int  # linked documents left out of the drawing (MAX_GRAPH_NODES)

    @property
    def group_count(self) -> int:
        return int(self.group.max()) + 1 if len(self.group) else 0


@dataclass(frozen=True)
class Overview:
    """Similarity indices of the essays checked (reference and archive documents left out)."""

    essays: np.ndarray  # document numbers the statistics are over
    highest: float
    highest_doc: int  # -1 when there is no document
    median: float
    histogram: np.ndarray  # counts per 5% bin; 100% falls in the last
    top: np.ndarray  # up to TOP_COUNT documents, highest index first (index > 0)
    graph: CopyGraph


def overview(
    result: ScanResult, similarity: DocumentSimilarity, k: int, threshold: float | None = None
) -> Overview:
    """The overview at distance `k` and partial-copy `threshold` (default: the scan's).

    Only the essays checked are ranked and counted: reference and archive documents (last
    year's essays) are sources, whatever share of them the essays hold."""
    essays = np.flatnonzero(result.is_essay)
    index = similarity.index[essays]
    histogram = np.bincount(
        np.minimum((index * HISTOGRAM_BINS).astype(np.int64), HISTOGRAM_BINS - 1),
        minlength=HISTOGRAM_BINS,
    )
    by_index = essays[np.argsort(-index, kind="stable")]
    top = by_index[similarity.index[by_index] > 0][:TOP_COUNT]
    return Overview(
        essays=essays,
        highest=float(index.max()) if len(index) else 0.0,
        highest_doc=int(by_index[0]) if len(by_index) else -1,
        median=float(np.median(index)) if len(index) else 0.0,
        histogram=histogram,
        top=top,
        graph=copy_graph(result, similarity, k, threshold),
    )


def copy_graph(
    result: ScanResult, similarity: DocumentSimilarity, k: int, threshold: float | None = None
) -> CopyGraph:
    """Documents joined by near duplicates within k or partial copies, laid out for drawing."""
    a, b, strength = _links(result, k, threshold)
    linked = np.unique(np.r_[a, b])
    dropped = max(len(linked) - MAX_GRAPH_NODES, 0)
    if dropped:  # keep the documents with most of their text found elsewhere
        keep = linked[np.argsort(-similarity.index[linked], kind="stable")[:MAX_GRAPH_NODES]]
        inside = np.isin(a, keep) & np.isin(b, keep)
        a, b, strength = a[inside], b[inside], strength[inside]
        linked = np.unique(np.r_[a, b])
    edge_a, edge_b = np.searchsorted(linked, a), np.searchsorted(linked, b)
    group = _groups(len(linked), edge_a, edge_b)
    x, y = _layout(len(linked), edge_a, edge_b, group)
    return CopyGraph(linked, x, y, edge_a, edge_b, strength, group, dropped)


def _links(result: ScanResult, k: int, threshold: float | None):
    """(a, b, strength) of every pair that counts as copying, references and pairs of the
    same template left out."""
    near = result.near_pairs(k)
    partial = result.partial_pairs(threshold)
    a = np.r_[near.left, partial.left].astype(np.int64)
    b = np.r_[near.right, partial.right].astype(np.int64)
    strength = np.r_[np.ones(len(near)), np.maximum(partial.containment_ab, partial.containment_ba)]
    ref = result.is_reference
    keep = ~ref[a] & ~ref[b]
    a, b, strength = a[keep], b[keep], strength[keep]
    # one edge per pair: the strongest
    n = max(len(result.documents), 1)
    order = np.lexsort((-strength, a * n + b))
    key = (a * n + b)[order]
    first = np.r_[True, key[1:] != key[:-1]] if len(key) else np.zeros(0, bool)
    return a[order][first], b[order][first], strength[order][first]


def _groups(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Connected components, numbered largest first."""
    parent = np.arange(n)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for u, v in zip(a.tolist(), b.tolist(), strict=True):
        ru, rv = root(u), root(v)
        if ru != rv:
            parent[max(ru, rv)] = min(ru, rv)
    roots = np.array([root(i) for i in range(n)], dtype=np.int64)
    labels, inverse, counts = np.unique(roots, return_inverse=True, return_counts=True)
    rank = np.empty(len(labels), np.int64)
    rank[np.argsort(-counts, kind="stable")] = np.arange(len(labels))
    return rank[inverse]


def _layout(n: int, a: np.ndarray, b: np.ndarray, group: np.ndarray, steps: int = 150):
    """Force-directed positions (Fruchterman–Reingold), each group in its own cell of a
    grid so groups never overlap; x, y in 0..1."""
    if n == 0:
        return np.zeros(0), np.zeros(0)
    x, y = np.zeros(n), np.zeros(n)
    groups = int(group.max()) + 1
    columns = int(np.ceil(np.sqrt(groups)))
    rng = np.random.default_rng(0)  # the same scan always draws the same picture
    for g in range(groups):
        members = np.flatnonzero(group == g)
        inside = np.isin(a, members) & np.isin(b, members)
        local = np.searchsorted(members, np.r_[a[inside], b[inside]]).reshape(2, -1)
        gx, gy = _spring(len(members), local[0], local[1], rng, steps)
        cell_x, cell_y = g % columns, g // columns
        x[members] = (cell_x + 0.1 + 0.8 * gx) / columns
        y[members] = (cell_y + 0.1 + 0.8 * gy) / columns
    return x, y


def _spring(n: int, a: np.ndarray, b: np.ndarray, rng, steps: int):
    """One connected group laid out in the unit square."""
    if n == 1:
        return np.array([0.5]), np.array([0.5])
    pos = rng.random((n, 2))
    ideal = 1.0 / np.sqrt(n)
    temperature = 0.1
    for _ in range(steps):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=2), 1e-3)
        push = (ideal**2 / dist**2)[:, :, None] * delta
        move = push.sum(axis=1)
        pull = pos[a] - pos[b]
        length = np.maximum(np.linalg.norm(pull, axis=1), 1e-3)[:, None]
        force = pull * length / ideal
        np.subtract.at(move, a, force)
        np.add.at(move, b, force)
        size = np.maximum(np.linalg.norm(move, axis=1), 1e-9)[:, None]
        pos += move / size * np.minimum(size, temperature)
        temperature *= 0.97
    low, high = pos.min(axis=0), pos.max(axis=0)
    span = np.where(high - low > 1e-9, high - low, 1.0)
    pos = (pos - low) / span
    return pos[:, 0], pos[:, 1]
