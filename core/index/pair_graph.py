"""All pairs within k of a set of distinct fingerprints, updated instead of recomputed.

Whether two 64-bit values are within k bits depends on nothing else, so the pairs found
in one scan stay true in the next: a rescan keeps the previous pairs of the fingerprints
still present and only searches the added ones, indexed on their own and queried with
everything else. The result is the same set of pairs a full search gives.

    >>> graph = PairGraph.search(np.array([1, 3, 0xFF], np.uint64), k=1)
    >>> u, v, d = graph.update(np.array([1, 3, 7, 0xFF], np.uint64)).pairs()
    >>> u.tolist(), v.tolist(), d.tolist()
    ([0, 1], [1, 2], [1, 1])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from simsift.core.arrays import bounded_runs, ragged_arange
from simsift.core.files import load_arrays, save_arrays
from simsift.core.index.memory import HammingIndex, Matches, choose_plan
from simsift.core.progress import CancelToken

_Report = Callable[[int, int], None]
# (sorted distinct values, k, progress, cancel) -> their pairs within k (ids, left < right)
PairSearch = Callable[[np.ndarray, int, _Report | None, CancelToken | None], Matches]


def search_pairs(
    values: np.ndarray, k: int, progress: _Report | None = None, cancel: CancelToken | None = None
) -> Matches:
    """Every pair within k of distinct `values`, from scratch."""
    return HammingIndex(values, k).pairs(progress=progress, cancel=cancel)


@dataclass(frozen=True)
class PairGraph:
    """Sorted distinct fingerprints and their pairs within `k` (ids into `values`, u < v,
    in no particular order)."""

    k: int
    values: np.ndarray  # uint64, sorted, distinct
    u: np.ndarray  # int32 (int64 past 2**31 values): half the bytes to load and remap
    v: np.ndarray
    distance: np.ndarray  # int8

    def __post_init__(self) -> None:
        ids = _id_type(len(self.values))
        object.__setattr__(self, "u", np.asarray(self.u, ids))
        object.__setattr__(self, "v", np.asarray(self.v, ids))

    @classmethod
    def search(
        cls,
        values: np.ndarray,
        k: int,
        progress: _Report | None = None,
        cancel: CancelToken | None = None,
        search: PairSearch = search_pairs,
    ) -> PairGraph:
        """Every pair within k of sorted distinct `values`, found from scratch (by `search`:
        this machine, or a cluster)."""
        m = search(values, k, progress, cancel)
        return cls(k, values, m.left, m.right, m.distance)

    def update(
        self,
        values: np.ndarray,
        progress: _Report | None = None,
        cancel: CancelToken | None = None,
    ) -> PairGraph:
        """The graph of other sorted distinct `values`, reusing the pairs already known."""
        pos = np.searchsorted(self.values, values).clip(max=max(len(self.values) - 1, 0))
        kept = (self.values[pos] == values) if len(self.values) else np.zeros(len(values), bool)
        if not kept.any():
            return PairGraph.search(values, self.k, progress, cancel)
        # old id -> new id, -1 where the value is gone
        new_id = np.full(len(self.values), -1, _id_type(len(values)))
        new_id[pos[kept]] = np.flatnonzero(kept)
        u, v = new_id[self.u], new_id[self.v]
        alive = (u >= 0) & (v >= 0)
        added = np.flatnonzero(~kept)
        extra = []
        if len(added):
            extra = _pairs_of_added(values, added, np.flatnonzero(kept), self.k, cancel)
        if progress is not None:
            progress(1, 1)
        # the kept pairs go straight into the result: tens of millions, copied once
        n_alive = int(np.count_nonzero(alive))
        size = n_alive + sum(len(a) for a, _, _ in extra)
        out = [np.empty(size, u.dtype), np.empty(size, v.dtype), np.empty(size, np.int8)]
        for column, kept_values in zip(out, (u, v, self.distance), strict=True):
            column[:n_alive] = kept_values[alive]  # 30x faster than np.compress(out=...)
        at = n_alive
        for part in extra:
            for column, values_of_part in zip(out, part, strict=True):
                column[at : at + len(part[0])] = values_of_part
            at += len(part[0])
        return PairGraph(self.k, values, *out)

    def pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.u, self.v, self.distance

    def save(self, path: Path) -> None:
        """Write atomically (temp file, then rename)."""
        arrays = {"k": np.int64(self.k), "values": self.values, "u": self.u, "v": self.v}
        save_arrays(path, arrays | {"d": self.distance})

    @classmethod
    def load(cls, path: Path, k: int) -> PairGraph | None:
        """The graph saved at `path` for this k, or None if missing, for another k or unreadable."""
        try:
            data = load_arrays(path)
            if int(data["k"]) != k:
                return None
            graph = cls(k, data["values"], data["u"], data["v"], data["d"])
        except (OSError, ValueError, KeyError, EOFError, TypeError):
            return None
        n = len(graph.values)
        if len(graph.u) and (graph.u.max() >= n or graph.v.max() >= n):
            return None
        return graph


def _id_type(n: int):
    return np.int32 if n < 2**31 else np.int64


def _pairs_of_added(values, added, kept, k: int, cancel):
    """Pairs among the added values and between added and kept ones (ids into `values`)."""
    among = HammingIndex(values[added], k).pairs(cancel=cancel)
    parts = [(added[among.left], added[among.right], among.distance)]
    if len(kept):
        # index the few added values and probe with the many kept ones
        plan = choose_plan(len(added), k, n_queries=len(kept))
        index = HammingIndex(values[added], k, plan=plan)
        found = index.query(values[kept], cancel=cancel)
        a, b = kept[found.left], added[found.right]
        parts.append((np.minimum(a, b), np.maximum(a, b), found.distance))
    return parts


@dataclass(frozen=True)
class Groups:
    """Rows grouped by identical value: the rows of group g are `rows[ptr[g]:ptr[g + 1]]`."""

    values: np.ndarray  # sorted distinct values
    group: np.ndarray  # int64 group of every row
    rows: np.ndarray  # int64 rows ordered by group
    ptr: np.ndarray  # int64, len(values) + 1

    @classmethod
    def of(cls, values: np.ndarray, rows: np.ndarray | None = None) -> Groups:
        """Group `values` (of the given row numbers, default 0..n-1) by identical value."""
        rows = np.arange(len(values)) if rows is None else rows
        distinct, group = np.unique(values, return_inverse=True)
        order = np.argsort(group, kind="stable")
        ptr = np.r_[0, np.cumsum(np.bincount(group, minlength=len(distinct)))].astype(np.int64)
        return cls(distinct, group, rows[order].astype(np.int64), ptr)

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.ptr)

    def row_pairs(self, ga, gb, distance, budget: int, sizes: np.ndarray | None = None):
        """Row pairs (left < right) of the group pairs (ga, gb), at most about `budget`
        at a time; a group paired with itself gives its members' pairs once each.
        `sizes` may cap how many of each group's rows take part (its first ones)."""
        size = self.sizes if sizes is None else sizes
        for lo, hi in bounded_runs(size[ga] * size[gb], budget):
            a, b, d = ga[lo:hi], gb[lo:hi], distance[lo:hi]
            owner, k = ragged_arange(size[a] * size[b])
            i, j = np.divmod(k, size[b][owner])
            keep = (a[owner] != b[owner]) | (i < j)
            owner, i, j = owner[keep], i[keep], j[keep]
            left = self.rows[self.ptr[a[owner]] + i]
            right = self.rows[self.ptr[b[owner]] + j]
            yield np.minimum(left, right), np.maximum(left, right), d[owner].astype(np.int8)

    def pairs_with(self, u, v, d, budget: int, skip: np.ndarray | None = None):
        """Row pairs of identical rows (distance 0), then of the value pairs (u, v, d),
        leaving out groups marked in `skip`. Value pairs are taken `budget` at a time: an
        archive has tens of millions, and copies of them all were its memory peak."""
        repeated = self.sizes > 1
        within = np.flatnonzero(repeated if skip is None else repeated & ~skip)
        yield from self.row_pairs(within, within, np.zeros(len(within), np.int8), budget)
        for lo in range(0, len(u), budget):
            a, b, dist = u[lo : lo + budget], v[lo : lo + budget], d[lo : lo + budget]
            if skip is not None:
                keep = ~(skip[a] | skip[b])
                a, b, dist = a[keep], b[keep], dist[keep]
            yield from self.row_pairs(a, b, dist, budget)

    def matches(self, found: Matches, budget: int, max_copies: int | None = None) -> Matches:
        """Row pairs of the value pairs `found`, sorted by (left, right).

        A group of more than `max_copies` identical rows is not expanded to all its pairs
        (50,000 identical files would be 1.25 billion): its first row pairs with each
        other row and stands for the group in pairs with other groups. Clusters (connected
        rows) are the same; only the pair list is shorter.
        """
        sizes = self.sizes
        large = sizes > max_copies if max_copies is not None else np.zeros(len(sizes), bool)
        parts = list(
            self.row_pairs(
                np.r_[np.flatnonzero((sizes > 1) & ~large), found.left],
                np.r_[np.flatnonzero((sizes > 1) & ~large), found.right],
                np.r_[np.zeros(int(((sizes > 1) & ~large).sum()), np.int8), found.distance],
                budget,
                np.where(large, 1, sizes),
            )
        )
        parts += [self._stars(np.flatnonzero(large))]
        left, right, distance = (np.concatenate(x) for x in zip(*parts, strict=True))
        order = np.lexsort((right, left))
        return Matches(left[order], right[order], distance[order])

    def _stars(self, groups: np.ndarray):
        """The first row of each group paired with each of the group's other rows."""
        owner, k = ragged_arange(self.sizes[groups] - 1)
        first = self.rows[self.ptr[groups]]
        others = self.rows[self.ptr[groups][owner] + k + 1]
        left, right = first[owner], others
        return np.minimum(left, right), np.maximum(left, right), np.zeros(len(left), np.int8)
