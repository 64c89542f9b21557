"""Permuted-table Hamming index over 64-bit fingerprints (Manku, Jain, Das Sarma, WWW 2007).

The 64 bits are split into `b` contiguous blocks. Two fingerprints within distance k
differ in at most k blocks, so they agree exactly on the other b−k or more (pigeonhole).
A table keys every fingerprint on a set of blocks; two fingerprints that agree on all
of a table's blocks meet in it, and each candidate is verified with popcount(x ^ y) ≤ k.
Recall is exact when for every choice of k blocks some table avoids all of them:

- the classic layout takes every set of b−k blocks (C(b, k) tables);
- a *covering* layout takes fewer, smaller sets found by a greedy set cover over 16 blocks
  of 4 bits (at k=8: 214 tables keyed on 20 bits instead of 495 keyed on 21), checked
  exhaustively: every set of k blocks misses at least one table.

A table is one sorted uint64 per fingerprint: a multiplicative hash of the fingerprint's
masked bits in the high bits, its id in the low bits. Equal masked bits give equal keys,
so recall holds; unequal ones collide rarely and only add candidates.

Identical fingerprints are collapsed before indexing, so exact copies never produce
quadratic buckets; results are expanded back to the caller's row numbers.
A cost model picks the layout for the actual N and k, and plain vectorized brute force
when that is cheaper (small N, large k). All pairs build and consume tables one at a time,
on as many threads as cores (numpy sorts and ufuncs release the GIL), up to `_WORKERS`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import bounded_runs, owners, ragged_arange
from simsift.core.index.matches import (
    Matches,
    as_fingerprints,
    brute_pairs,
    brute_query,
    concat_matches,
    concat_parts,
    order_in_place,
    sorted_in_place,
    sorted_matches,
)
from simsift.core.index.parallel import run_in_order
from simsift.core.index.plan import (
    BITS,
    MAX_DISTANCE,
    IndexPlan,
    agreement,
    cheapest_plan,
    first_table_lookup,
    id_bits_for,
)
from simsift.core.progress import CancelToken

_COST_SORT = 13.0  # build one table: hash the masked bits, pack with the id, sort (per fingerprint)
_COST_CANDIDATE = 35.0  # generate and verify one candidate pair
_COST_BRUTE = 6.0  # one xor + popcount in a vectorized brute-force sweep
_COST_PROBE = 25.0  # one query in one table: its key and a binary search
_COST_TABLE = 50_000.0  # fixed cost of one table (a few dozen numpy calls)
_PAIR_CHUNK = 1 << 20  # candidates verified at once (each takes ~60 bytes, per thread)
_HASH = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplying by it is a bijection of uint64
_WORKERS = max(1, min(4, os.cpu_count() or 1))
_PARALLEL_MIN = 1 << 15  # fewer distinct fingerprints than this: one thread is quicker
_BUCKETED_NEEDLES = 16  # needles per table entry from which `_maybe_held` screens them
_BUCKET_BITS = 16  # top key bits it looks up (a 64 KB array)
_QUERY_CACHE_BYTES = 1 << 30  # tables `query` keeps between calls (the rest are rebuilt)


def plan_cost(plan: IndexPlan, n: int, n_queries: int | None = None) -> float:
    """Estimated cost (ns) of building the index and running all pairs (or `n_queries` queries).

    Assumes uniform fingerprints: a table keyed on p bits yields about
    n²/2 / 2^p candidate pairs for all-pairs, or q·n / 2^p for q queries.
    """
    probes = n_queries if n_queries is not None else n / 2
    if plan.brute_force:
        return _COST_BRUTE * n * probes
    cost = 0.0
    for t in range(len(plan.tables)):
        candidates = n * probes / 2.0 ** plan.prefix_bits(t, n)
        cost += _COST_TABLE + _COST_SORT * n + _COST_CANDIDATE * candidates
        if n_queries is not None:
            cost += _COST_PROBE * n_queries
    return cost


def choose_plan(n: int, k: int, n_queries: int | None = None) -> IndexPlan:
    """Cheapest plan for `n` distinct fingerprints and distance `k` under this index's
    cost model, for all pairs or, with `n_queries`, for that many queries."""
    return cheapest_plan(k, lambda plan: plan_cost(plan, n, n_queries))


@dataclass(frozen=True, slots=True)
class _Table:
    """One table: sorted `key | low fingerprint bits | distinct id`, one uint64 per entry.

    The key (a hash of the table's bits, see `hashed_keys`) fills the high bits; below it
    the fingerprint's lowest `filter_bits` bits, which let all pairs reject most
    candidates from the two entries alone, before fetching either fingerprint.
    """

    packed: np.ndarray
    id_bits: int
    filter_bits: int = 0

    @property
    def low_bits(self) -> int:
        return self.id_bits + self.filter_bits

    def prefixes(self) -> np.ndarray:
        return self.packed >> np.uint64(self.low_bits)

    def ids(self, positions: np.ndarray) -> np.ndarray:
        return (self.packed[positions] & np.uint64((1 << self.id_bits) - 1)).view(np.int64)

    def held_ranges(self, prefixes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(needle, lo, hi) of each of `prefixes` whose key the table holds: entries [lo, hi)."""
        needles = np.arange(len(prefixes))
        if len(prefixes) >= _BUCKETED_NEEDLES * len(self.packed):
            needles = self._maybe_held(prefixes)
            prefixes = prefixes[needles]
        lo, hi = self.prefix_range(prefixes)
        found = hi > lo
        return needles[found], lo[found], hi[found]

    def _maybe_held(self, prefixes: np.ndarray) -> np.ndarray:
        """Needles whose key's top bits some entry shares: one lookup each turns away most
        needles when they far outnumber the entries (a rescan's few new fingerprints probed
        by all the kept ones), where sorting them all for `prefix_range` cost the most."""
        key_bits = BITS - self.low_bits
        bits = min(key_bits, _BUCKET_BITS)
        held = np.zeros(1 << bits, bool)
        held[self.packed >> np.uint64(BITS - bits)] = True
        return np.flatnonzero(held[prefixes >> np.uint64(key_bits - bits)])

    def prefix_range(self, prefixes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """[lo, hi) positions of the entries whose key equals each of `prefixes`."""
        shift = np.uint64(self.low_bits)
        # sorted needles walk the table once instead of jumping around it (3-4x faster);
        # one sort serves both ends, as key + 1 keeps the order
        order = np.argsort(prefixes)
        start = prefixes[order] << shift
        lo, hi = np.empty(len(prefixes), np.int64), np.empty(len(prefixes), np.int64)
        lo[order] = np.searchsorted(self.packed, start, side="left")
        hi[order] = np.searchsorted(self.packed, start + (np.uint64(1) << shift), side="left")
        # the largest possible key wraps to 0 when shifted up: its range runs to the end
        top = np.uint64((1 << (BITS - self.low_bits)) - 1)
        hi[prefixes == top] = len(self.packed)
        return lo, hi


def hashed_keys(fps: np.ndarray, mask: int, low_bits: int) -> np.ndarray:
    """Each fingerprint's `mask` bits hashed to 64 − low_bits bits (returned in the low bits).

    Equal masked bits give equal keys; the hash is a multiplication by an odd constant
    (a bijection of uint64) of which the high bits are kept, so unequal masked bits
    rarely collide. Three array passes, whatever the mask's shape.
    """
    return ((fps & np.uint64(mask)) * _HASH) >> np.uint64(low_bits)


# (index, k, number of tables, progress, cancel) -> every table's `table_pairs` parts
RunTables = Callable[["HammingIndex", int, int, Callable[[int, int], None], CancelToken], list]


class HammingIndex:
    """All fingerprints within Hamming distance k, fast, for 64-bit SimHash fingerprints.

    Args:
        fingerprints: 1-D array-like of uint64 (row i is item i).
        max_distance: the largest k that `pairs` and `query` will be asked for; tables
            are laid out for it (0..32).
        plan: a fixed `IndexPlan` instead of the cost model's choice (tests, benchmarks).

    Examples:
        >>> index = HammingIndex([0b1011, 0b1010, 0xFF00], max_distance=2)
        >>> m = index.pairs()
        >>> list(zip(m.left.tolist(), m.right.tolist(), m.distance.tolist()))
        [(0, 1, 1)]
        >>> index.query([0b0011]).right.tolist()
        [0, 1]
    """

    def __init__(self, fingerprints, max_distance: int = 3, *, plan: IndexPlan | None = None):
        if not 0 <= max_distance <= MAX_DISTANCE:
            raise ValueError(
                f"max_distance must be between 0 and {MAX_DISTANCE}, not {max_distance}"
            )
        fps = as_fingerprints(fingerprints)
        self.max_distance = max_distance
        self._fingerprints = fps
        # rows grouped by distinct fingerprint: rows of id u are _rows[_row_ptr[u]:_row_ptr[u+1]]
        self._rows = np.argsort(fps).astype(np.int64)
        ordered = fps[self._rows]
        starts = (
            np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
            if len(fps)
            else np.zeros(0, np.int64)
        )
        self._distinct = ordered[starts]
        self._row_ptr = np.r_[starts, len(fps)].astype(np.int64)
        if plan is None:
            plan = choose_plan(len(self._distinct), max_distance)
        elif plan.recall_distance() < max_distance:
            raise ValueError("plan does not guarantee recall at max_distance")
        self.plan = plan
        self._masks = [plan.mask(t) for t in range(len(plan.tables))]
        # tables are built when first needed: `query` keeps them (up to _QUERY_CACHE_BYTES),
        # `pairs` builds and drops them one per worker, never hundreds at once
        self._tables: dict[int, _Table] = {}
        self._lock = threading.Lock()
        self._first_table = self._first_table_by_agreement()
        self._ids = np.arange(len(self._distinct), dtype=np.uint64)

    def __getstate__(self) -> dict:
        # sent to cluster workers (one task per table): arrays and plan, not the built
        # tables or this process's lock
        state = dict(self.__dict__)
        state["_tables"], state["_lock"] = {}, None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._fingerprints)

    def __contains__(self, fingerprint) -> bool:
        fp = np.uint64(fingerprint)
        pos = np.searchsorted(self._distinct, fp)
        return bool(pos < len(self._distinct) and self._distinct[pos] == fp)

    @property
    def fingerprints(self) -> np.ndarray:
        return self._fingerprints

    @property
    def distinct_count(self) -> int:
        return len(self._distinct)

    # -- building -------------------------------------------------------------------------

    def _keys(self, fps: np.ndarray, table: int) -> np.ndarray:
        """The table's key of each fingerprint (see `hashed_keys`)."""
        return hashed_keys(fps, self._masks[table], sum(self._low_bits(table)))

    def _low_bits(self, table: int) -> tuple[int, int]:
        """(id bits, filter bits) of a table: the key keeps 4 bits more than the table's
        bits (few hash collisions); what is left of 64 bits holds fingerprint bits."""
        id_bits = id_bits_for(self.distinct_count)
        spare = BITS - id_bits - (self.plan.key_bits(table) + 4)
        return id_bits, max(0, min(spare, 24))

    def _table(self, table: int) -> _Table:
        with self._lock:
            cached = self._tables.get(table)
        if cached is not None:
            return cached
        built = self._build_table(table)
        with self._lock:
            if (len(self._tables) + 1) * built.packed.nbytes <= _QUERY_CACHE_BYTES:
                self._tables[table] = built
        return built

    def _build_table(self, table: int) -> _Table:
        id_bits, filter_bits = self._low_bits(table)
        low = np.uint64(id_bits + filter_bits)
        packed = (self._distinct & np.uint64(self._masks[table])) * _HASH
        # one packed uint64 per entry (key high, id low): a plain sort beats argsort
        packed >>= low
        packed <<= low
        if filter_bits:
            packed |= (self._distinct & np.uint64((1 << filter_bits) - 1)) << np.uint64(id_bits)
        packed |= self._ids
        packed.sort()
        return _Table(packed, id_bits, filter_bits)

    def _first_table_by_agreement(self) -> np.ndarray:
        """For each set of agreeing blocks (bitmask), the first table that would find the pair.

        A pair is reported only by that table, so no pair comes out twice.
        """
        if self.plan.brute_force:
            return np.zeros(0, np.int32)
        return first_table_lookup(self.plan)

    def _agreement(self, x: np.ndarray) -> np.ndarray:
        """Bitmask of the blocks where the xor `x` of two fingerprints is zero."""
        return agreement(x, self.plan)

    # -- searching ------------------------------------------------------------------------

    def pairs(
        self,
        max_distance: int | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
        cancel: CancelToken | None = None,
        run_tables: RunTables | None = None,
    ) -> Matches:
        """All pairs of indexed rows within `max_distance` (default: the index's k).

        Rows with identical fingerprints pair at distance 0. Each pair appears once,
        with `left < right`, sorted by (left, right).

        Args:
            progress: called with (tables done, tables) after each table.
            cancel: checked between bounded steps; raises `Cancelled`.
            run_tables: runs `table_pairs` for every table elsewhere (a cluster,
                `core.pipeline.distributed.cluster_tables`); default: on this machine's threads.
        """
        k = self._check_k(max_distance)
        u, v, d = self._distinct_pairs(k, progress, cancel, run_tables)
        if cancel is not None:  # between whole-array steps of seconds on tens of millions
            cancel.check()
        if len(self._distinct) == len(self._fingerprints):
            # no identical rows: ids map to rows one to one (saves the expansion's copies)
            left = self._rows[u]
            del u
            if cancel is not None:
                cancel.check()
            right = self._rows[v]
            del v
            return sorted_in_place(left, right, d, cancel.check if cancel else lambda: None)
        found = concat_matches([self._identical_row_pairs(), self._expand(u, v, d, symmetric=True)])
        del u, v, d
        if cancel is not None:
            cancel.check()
        return sorted_matches(found)

    def query(
        self, fingerprints, max_distance: int | None = None, *, cancel: CancelToken | None = None
    ) -> Matches:
        """Indexed rows within `max_distance` of each query fingerprint.

        Returns `Matches(left=query row, right=indexed row, distance)`, sorted.
        """
        k = self._check_k(max_distance)
        q = as_fingerprints(fingerprints)
        qi, u, d = self._query_distinct(q, k, cancel or CancelToken())
        return sorted_matches(self._expand(qi, u, d, symmetric=False))

    def _check_k(self, max_distance: int | None) -> int:
        k = self.max_distance if max_distance is None else max_distance
        if not 0 <= k <= self.max_distance:
            raise ValueError(
                f"max_distance must be between 0 and the index's {self.max_distance}, not {k}"
            )
        return k

    def _distinct_pairs(
        self, k: int, progress=None, cancel: CancelToken | None = None, run_tables=None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cancel = cancel or CancelToken()
        if self.plan.brute_force:
            parts = []
            for part in brute_pairs(self._distinct, k):
                cancel.check()
                parts.append(part)
            if progress is not None:
                progress(1, 1)
            return concat_parts(parts)
        n_tables = len(self.plan.tables)
        if run_tables is not None:
            parts = run_tables(self, k, n_tables, progress or (lambda done, total: None), cancel)
        else:
            parts = []
            workers = _WORKERS if self.distinct_count >= _PARALLEL_MIN else 1
            for done, found in enumerate(
                run_in_order(
                    lambda t, stop: self._table_pairs(t, k, stop), range(n_tables), workers, cancel
                ),
                1,
            ):
                parts.extend(found)
                if progress is not None:
                    progress(done, n_tables)
        cancel.check()
        u, v, d = concat_parts(parts, cancel.check)
        del parts
        order_in_place(u, v, cancel.check)
        return u, v, d

    def table_pairs(self, t: int, k: int) -> list:
        """(ids a, ids b, distances) parts of the distinct fingerprints that table `t` is
        the first to pair within k: one independent task of an all-pairs search."""
        return self._table_pairs(t, self._check_k(k), CancelToken())

    def _table_pairs(self, t: int, k: int, cancel: CancelToken) -> list:
        """Pairs within k that table t is the first to find, in bounded chunks."""
        table = self._tables[t] if t in self._tables else self._build_table(t)
        id_type = np.int32 if self.distinct_count < 1 << 31 else np.int64
        packed, id_shift = table.packed, np.uint64(table.id_bits)
        filter_mask = np.uint64((1 << table.filter_bits) - 1)
        found = []
        for pos_a, pos_b in _equal_run_pairs(table.prefixes()):
            cancel.check()
            if table.filter_bits:
                # the low fingerprint bits alone already differ in more than k places
                low = ((packed[pos_a] ^ packed[pos_b]) >> id_shift) & filter_mask
                near = np.flatnonzero(np.bitwise_count(low) <= k)
                pos_a, pos_b = pos_a[near], pos_b[near]
            a, b, d = self._verify(table.ids(pos_a), table.ids(pos_b), self._distinct, t, k)
            # ids usually fit 32 bits: half the memory while pairs pile up over the tables
            found.append((a.astype(id_type), b.astype(id_type), d))
        return found

    def _verify(self, a: np.ndarray, b: np.ndarray, probes: np.ndarray, table: int, k: int):
        """Keep candidate pairs (probe a, distinct b) within k that this table is first to find."""
        x = probes[a] ^ self._distinct[b]
        dist = np.bitwise_count(x)
        keep = dist <= k
        a, b, x, dist = a[keep], b[keep], x[keep], dist[keep]
        first = self._first_table[self._agreement(x)] == table
        return a[first], b[first], dist[first].astype(np.int8)

    def _query_distinct(self, q: np.ndarray, k: int, cancel: CancelToken):
        if self.plan.brute_force:
            parts = []
            for part in brute_query(q, self._distinct, k):
                cancel.check()
                parts.append(part)
            return concat_parts(parts)

        def one_table(t: int, stop: CancelToken) -> list:
            table = self._table(t)
            needles, lo, hi = table.held_ranges(self._keys(q, t))
            found = []
            for qi, pos in _ranges(needles, lo, hi):
                stop.check()
                found.append(self._verify(qi, table.ids(pos), q, t, k))
            return found

        workers = _WORKERS if len(q) * len(self.plan.tables) >= _PARALLEL_MIN else 1
        parts = []
        for found in run_in_order(one_table, range(len(self.plan.tables)), workers, cancel):
            parts.extend(found)
        return concat_parts(parts)

    # -- expanding collapsed fingerprints back to rows -------------------------------------

    def _identical_row_pairs(self) -> Matches:
        """Pairs of rows sharing a fingerprint (distance 0)."""
        group_of = owners(np.diff(self._row_ptr))
        parts = []
        for i, j in _equal_run_pairs(group_of):
            a, b = self._rows[i], self._rows[j]
            parts.append(Matches(np.minimum(a, b), np.maximum(a, b), np.zeros(len(a), np.int8)))
        return concat_matches(parts)

    def _expand(
        self, left: np.ndarray, u: np.ndarray, d: np.ndarray, *, symmetric: bool
    ) -> Matches:
        """Turn (left, distinct id u) matches into row matches.

        With `symmetric`, `left` is a distinct id too and both sides are expanded.
        """
        size_u = np.diff(self._row_ptr)[u]
        size_l = np.diff(self._row_ptr)[left] if symmetric else np.ones(len(left), np.int64)
        count = size_l * size_u
        total = int(count.sum())
        if total == 0:
            return Matches.empty()
        owner, k = ragged_arange(count)
        ri, rj = np.divmod(k, size_u[owner])
        right = self._rows[self._row_ptr[u[owner]] + rj]
        if symmetric:
            lrows = self._rows[self._row_ptr[left[owner]] + ri]
            return Matches(np.minimum(lrows, right), np.maximum(lrows, right), d[owner])
        return Matches(left[owner].astype(np.int64), right, d[owner])


def _equal_run_pairs(sorted_keys: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """All position pairs (i, j), i < j, inside runs of equal values of a sorted array.

    Yields them by gap d = j − i: in a sorted array keys[i] == keys[i + d] means the
    whole stretch is equal, so each round only re-checks the survivors of the last;
    work is proportional to the pairs produced.
    """
    n = len(sorted_keys)
    active = np.flatnonzero(sorted_keys[1:] == sorted_keys[:-1]) if n > 1 else np.zeros(0, np.int64)
    gap = 1
    # gaps are gathered until a chunk is full: long runs have many gaps of few pairs each
    pending_i: list[np.ndarray] = []
    pending_j: list[np.ndarray] = []
    pending = 0
    while active.size:
        for s in range(0, len(active), _PAIR_CHUNK):
            chunk = active[s : s + _PAIR_CHUNK]
            pending_i.append(chunk)
            pending_j.append(chunk + gap)
            pending += len(chunk)
            if pending >= _PAIR_CHUNK:
                yield np.concatenate(pending_i), np.concatenate(pending_j)
                pending_i, pending_j, pending = [], [], 0
        gap += 1
        active = active[active + gap < n]
        active = active[sorted_keys[active + gap] == sorted_keys[active]]
    if pending:
        yield np.concatenate(pending_i), np.concatenate(pending_j)


def _ranges(
    needles: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(needle, position) for every position in [lo[i], hi[i]) of needles[i] (ranges
    not empty), in bounded chunks."""
    counts = hi - lo
    for start, stop in bounded_runs(counts, _PAIR_CHUNK):
        owner, k = ragged_arange(counts[start:stop])
        yield needles[start:stop][owner], lo[start:stop][owner] + k
