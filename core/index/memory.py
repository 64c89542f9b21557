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

import functools
import itertools
import math
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import bounded_runs, owners, ragged_arange
from simsift.core.progress import CancelToken
from simsift.core.text.simhash import BITS

MAX_DISTANCE = 32

# Rough per-element costs in nanoseconds, measured on a 2-core x86-64 machine with numpy 2
# (bench/index_bench.py --calibrate); only their ratios matter to the planner.
_COST_SORT = 13.0  # build one table: hash the masked bits, pack with the id, sort (per fingerprint)
_COST_CANDIDATE = 35.0  # generate and verify one candidate pair
_COST_BRUTE = 6.0  # one xor + popcount in a vectorized brute-force sweep
_COST_PROBE = 25.0  # one query in one table: its key and a binary search
_COST_TABLE = 50_000.0  # fixed cost of one table (a few dozen numpy calls)
_MAX_TABLES = 2000
_MAX_MASK_TABLE = 1 << 22  # bound on 2^b, the entries of the duplicate-suppression lookup
_BRUTE_CHUNK = 1 << 20  # elements per brute-force block (8 MB of uint64; short GIL holds)
_PAIR_CHUNK = 1 << 20  # candidates verified at once (each takes ~60 bytes, per thread)
_COVER_BLOCKS = 16  # covering layouts split the 64 bits into 16 blocks of 4
_HASH = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplying by it is a bijection of uint64
_WORKERS = max(1, min(4, os.cpu_count() or 1))
_PARALLEL_MIN = 1 << 15  # fewer distinct fingerprints than this: one thread is quicker
_BUCKETED_NEEDLES = 16  # needles per table entry from which `_maybe_held` screens them
_BUCKET_BITS = 16  # top key bits it looks up (a 64 KB array)
_QUERY_CACHE_BYTES = 1 << 30  # tables `query` keeps between calls (the rest are rebuilt)


@dataclass(frozen=True, slots=True)
class IndexPlan:
    """How the index is laid out: blocks (start bit, width) and, per table, its blocks.

    An empty `tables` means brute force.
    """

    blocks: tuple[tuple[int, int], ...]
    tables: tuple[tuple[int, ...], ...]

    @property
    def brute_force(self) -> bool:
        return not self.tables

    def key_bits(self, table: int) -> int:
        """Bits of the fingerprint a table is keyed on."""
        return sum(self.blocks[i][1] for i in self.tables[table])

    def prefix_bits(self, table: int, n: int = 1) -> int:
        """Bits of the table's key; with `n` entries, capped so key and id fit 64 bits."""
        return min(self.key_bits(table), BITS - _id_bits(n))

    def mask(self, table: int) -> int:
        """The table's bits as a 64-bit mask."""
        blocks = (self.blocks[i] for i in self.tables[table])
        return sum(((1 << width) - 1) << start for start, width in blocks)

    def block_masks(self) -> list[int]:
        """Each table's blocks as a bitmask over block numbers."""
        return [sum(1 << b for b in blocks) for blocks in self.tables]

    def recall_distance(self) -> int:
        """The largest k at which every pair within k shares some table's blocks exactly."""
        return MAX_DISTANCE if self.brute_force else _recall_distance(self)

    def describe(self) -> str:
        if self.brute_force:
            return "brute force"
        n_blocks, sizes = len(self.blocks), {len(t) for t in self.tables}
        if len(sizes) == 1:
            size = sizes.pop()
            if len(self.tables) != math.comb(n_blocks, size):
                bits = {self.key_bits(t) for t in range(len(self.tables))}
                return (
                    f"{len(self.tables)} tables, {size} of {n_blocks} blocks "
                    f"({'/'.join(str(b) for b in sorted(bits))}-bit keys)"
                )
        widths = "/".join(str(w) for _, w in self.blocks)
        return f"{len(self.tables)} tables, blocks {widths}"


def split_blocks(n_blocks: int) -> tuple[tuple[int, int], ...]:
    """Split 64 bits into `n_blocks` contiguous blocks whose widths differ by at most one."""
    if not 1 <= n_blocks <= BITS:
        raise ValueError(f"n_blocks must be between 1 and {BITS}, not {n_blocks}")
    base, extra = divmod(BITS, n_blocks)
    blocks, start = [], 0
    for i in range(n_blocks):
        width = base + (1 if i < extra else 0)
        blocks.append((start, width))
        start += width
    return tuple(blocks)


def make_plan(n_blocks: int, k: int) -> IndexPlan:
    """The permuted-table plan with `n_blocks` blocks for distance `k` (C(n_blocks, k) tables)."""
    if not 0 <= k < n_blocks:
        raise ValueError(f"need 0 <= k < n_blocks, got k={k}, n_blocks={n_blocks}")
    tables = tuple(itertools.combinations(range(n_blocks), n_blocks - k))
    return IndexPlan(split_blocks(n_blocks), tables)


def cover_plan(k: int, size: int, n_blocks: int = _COVER_BLOCKS) -> IndexPlan:
    """A covering plan: tables of `size` of `n_blocks` blocks such that every set of `k`
    blocks misses one of them, so every pair within k meets in some table.

    Found by greedy set cover (each step takes the table that covers the most sets of k
    blocks not yet covered); fewer tables than the classic C(n_blocks, k) when `size` is
    below n_blocks − k. Deterministic, and cached per process.
    """
    if not (k >= 0 and 1 <= size <= n_blocks - k and n_blocks <= 20):
        raise ValueError(f"no covering plan for k={k}, size={size}, n_blocks={n_blocks}")
    tables = _cover_design(n_blocks, k, size)
    return IndexPlan(
        split_blocks(n_blocks),
        tuple(tuple(b for b in range(n_blocks) if m >> b & 1) for m in tables),
    )


def _subset_sums(values: np.ndarray, n_bits: int) -> None:
    """In place: values[m] becomes the sum of values[s] over all subsets s of m."""
    for i in range(n_bits):
        view = values.reshape(-1, 2, 1 << i)
        view[:, 1, :] += view[:, 0, :]


@functools.lru_cache(maxsize=128)
def _cover_design(n_blocks: int, k: int, size: int) -> tuple[int, ...]:
    """Greedy covering: block bitmasks of `size` bits meeting every `k`-set's complement."""
    full = (1 << n_blocks) - 1
    popcount = np.bitwise_count(np.arange(1 << n_blocks, dtype=np.uint32))
    uncovered = np.flatnonzero(popcount == k)
    choices = np.flatnonzero(popcount == size)
    count = np.zeros(1 << n_blocks, np.int32)
    chosen: list[int] = []
    while uncovered.size:
        count[:] = 0
        count[uncovered] = 1
        _subset_sums(count, n_blocks)  # count[m]: uncovered k-sets inside m
        table = int(choices[np.argmax(count[full ^ choices])])
        chosen.append(table)
        uncovered = uncovered[(uncovered & table) != 0]
        if len(chosen) > _MAX_TABLES:
            return ()
    return tuple(chosen)


@functools.lru_cache(maxsize=256)
def _recall_distance(plan: IndexPlan) -> int:
    n_blocks = len(plan.blocks)
    masks = plan.block_masks()
    if n_blocks > 22:
        # only the classic layout is recognised here: all sets of `size` blocks
        sizes = {len(t) for t in plan.tables}
        size = sizes.pop()
        if sizes or len(set(masks)) != math.comb(n_blocks, size):
            raise ValueError(f"cannot check recall of a {n_blocks}-block plan")
        return n_blocks - size
    # good[m]: some table lies inside the block set m (the blocks two fingerprints agree on)
    good = np.zeros(1 << n_blocks, np.int32)
    good[masks] = 1
    _subset_sums(good, n_blocks)
    popcount = np.bitwise_count(np.arange(1 << n_blocks, dtype=np.uint32))
    bad = popcount[good == 0]
    # agreeing on more blocks than any bad set always meets a table
    largest_bad = int(bad.max()) if bad.size else -1
    return n_blocks - largest_bad - 1


# Tables of `cover_plan(k, size)` (0: more than _MAX_TABLES), row k, column size - 1: the
# planner prices every layout from these and searches only the one it picks
# (tests/core/test_index.py checks them against the search).
_COVER_TABLES = (
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),  # k=0
    (2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 4, 4, 6, 8),  # k=1
    (3, 3, 3, 3, 3, 5, 5, 6, 9, 10, 17, 24, 43),  # k=2
    (4, 4, 4, 4, 7, 10, 14, 17, 27, 43, 74, 140),  # k=3
    (5, 5, 5, 12, 15, 23, 34, 55, 96, 192, 443),  # k=4
    (6, 6, 8, 16, 27, 47, 84, 118, 361, 840),  # k=5
    (7, 7, 14, 20, 51, 105, 225, 546, 1599),  # k=6
    (8, 8, 18, 48, 102, 244, 651, 0),  # k=7
    (9, 12, 35, 72, 214, 627, 0),  # k=8
    (10, 16, 55, 142, 479, 1687),  # k=9
    (11, 20, 87, 291, 1257),  # k=10
    (12, 24, 147, 540),  # k=11
    (13, 40, 270),  # k=12
    (14, 56),  # k=13
    (15,),  # k=14
)


BRUTE_FORCE = IndexPlan(blocks=(), tables=())


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


def _classic_plans(k: int) -> Iterator[IndexPlan]:
    for n_blocks in range(k + 1, min(BITS, k + 12) + 1):
        n_tables = math.comb(n_blocks, k)
        if n_tables <= _MAX_TABLES and 1 << n_blocks <= _MAX_MASK_TABLE:
            yield make_plan(n_blocks, k)


def choose_plan(n: int, k: int, n_queries: int | None = None) -> IndexPlan:
    """Cheapest plan for `n` distinct fingerprints and distance `k` under the cost model,
    for all pairs or, with `n_queries`, for that many queries.

    Candidates are the classic layouts (b = k+1 … k+12 blocks) and the covering layouts
    over 16 blocks, priced from their known table counts (`_COVER_TABLES`).
    """
    if not 0 <= k <= MAX_DISTANCE:
        raise ValueError(f"max_distance must be between 0 and {MAX_DISTANCE}, not {k}")
    best, best_cost = BRUTE_FORCE, plan_cost(BRUTE_FORCE, n, n_queries)
    for plan in _classic_plans(k):
        cost = plan_cost(plan, n, n_queries)
        if cost < best_cost:
            best, best_cost = plan, cost
    b, best_size = _COVER_BLOCKS, 0
    for size in range(1, b - k) if k < len(_COVER_TABLES) else ():
        n_tables = _COVER_TABLES[k][size - 1]
        one_table = IndexPlan(split_blocks(b), (tuple(range(size)),))
        cost = n_tables * plan_cost(one_table, n, n_queries)
        if n_tables and cost < best_cost:
            best_size, best_cost = size, cost
    return cover_plan(k, best_size) if best_size else best


@dataclass(frozen=True, slots=True)
class Matches:
    """Result of a search: parallel arrays, one entry per matching pair.

    For `HammingIndex.pairs`, `left < right` are both row numbers of the indexed
    fingerprints; for `HammingIndex.query`, `left` is the query row and `right` the
    indexed row.
    """

    left: np.ndarray  # int64
    right: np.ndarray  # int64
    distance: np.ndarray  # int8

    def __len__(self) -> int:
        return len(self.left)

    def within(self, k: int) -> Matches:
        """The subset with distance <= k."""
        return self.subset(self.distance <= k)

    def subset(self, keep: np.ndarray) -> Matches:
        """The entries where the bool mask `keep` is set."""
        return Matches(self.left[keep], self.right[keep], self.distance[keep])

    @classmethod
    def empty(cls) -> Matches:
        return cls(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8))


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
        fps = _as_fingerprints(fingerprints)
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
        id_bits = _id_bits(self.distinct_count)
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
        if len(self._distinct) == len(self._fingerprints):
            # no identical rows: ids map to rows one to one (saves the expansion's copies)
            left, right = self._rows[u], self._rows[v]
            del u, v
            return _sorted_in_place(left, right, d)
        return _sorted(
            _concat([self._identical_row_pairs(), self._expand(u, v, d, symmetric=True)])
        )

    def query(
        self, fingerprints, max_distance: int | None = None, *, cancel: CancelToken | None = None
    ) -> Matches:
        """Indexed rows within `max_distance` of each query fingerprint.

        Returns `Matches(left=query row, right=indexed row, distance)`, sorted.
        """
        k = self._check_k(max_distance)
        q = _as_fingerprints(fingerprints)
        qi, u, d = self._query_distinct(q, k, cancel or CancelToken())
        return _sorted(self._expand(qi, u, d, symmetric=False))

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
            for part in _brute_pairs(self._distinct, k):
                cancel.check()
                parts.append(part)
            if progress is not None:
                progress(1, 1)
            return _concat3(parts)
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
        u, v, d = _concat3(parts)
        swap = u > v
        u[swap], v[swap] = v[swap], u[swap]
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
            for part in _brute_query(q, self._distinct, k):
                cancel.check()
                parts.append(part)
            return _concat3(parts)

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
        return _concat3(parts)

    # -- expanding collapsed fingerprints back to rows -------------------------------------

    def _identical_row_pairs(self) -> Matches:
        """Pairs of rows sharing a fingerprint (distance 0)."""
        group_of = owners(np.diff(self._row_ptr))
        parts = []
        for i, j in _equal_run_pairs(group_of):
            a, b = self._rows[i], self._rows[j]
            parts.append(Matches(np.minimum(a, b), np.maximum(a, b), np.zeros(len(a), np.int8)))
        return _concat(parts)

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


def first_table_lookup(plan: IndexPlan) -> np.ndarray:
    """For each set of agreeing blocks (bitmask over blocks), the first table inside it
    (−1 if none): the table that reports a pair, so that no pair comes out twice."""
    n_blocks, n_tables = len(plan.blocks), len(plan.tables)
    first = np.full(1 << n_blocks, n_tables, dtype=np.int32)
    first[plan.block_masks()[::-1]] = np.arange(n_tables, dtype=np.int32)[::-1]
    for i in range(n_blocks):  # minimum over subsets, one block at a time
        view = first.reshape(-1, 2, 1 << i)
        np.minimum(view[:, 1, :], view[:, 0, :], out=view[:, 1, :])
    first[first == n_tables] = -1
    return first


def agreement(x: np.ndarray, plan: IndexPlan) -> np.ndarray:
    """Bitmask of the plan's blocks where the xor `x` of two fingerprints is zero."""
    out = np.zeros(len(x), dtype=np.int64)
    for b, (start, width) in enumerate(plan.blocks):
        mask = np.uint64((1 << width) - 1)
        out |= (((x >> np.uint64(start)) & mask) == 0).astype(np.int64) << b
    return out


def run_in_order(
    work: Callable[[int, CancelToken], list],
    items: range,
    workers: int,
    cancel: CancelToken | None = None,
) -> Iterator[list]:
    """`work(item, stop)` for every item, on up to `workers` threads, results in order.

    At most `workers` + 1 items are in flight, so only that many tables live at once.
    `stop` is set when the caller's `cancel` is, and when the consumer stops early (an
    exception, Cancelled raised by a progress callback): workers check it between chunks.
    """
    cancel = cancel or CancelToken()
    stop = _LinkedToken(cancel)
    if workers <= 1 or len(items) <= 1:
        for item in items:
            cancel.check()
            yield work(item, stop)
        return
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="index")
    pending: deque[Future] = deque()
    queue = iter(items)
    try:
        for item in itertools.islice(queue, workers + 1):
            pending.append(pool.submit(work, item, stop))
        while pending:
            result = pending.popleft().result()
            for item in itertools.islice(queue, 1):
                pending.append(pool.submit(work, item, stop))
            cancel.check()
            yield result
    finally:
        stop.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


class _LinkedToken(CancelToken):
    """Cancelled when set itself or when its parent is."""

    def __init__(self, parent: CancelToken) -> None:
        super().__init__()
        self._parent = parent

    @property
    def cancelled(self) -> bool:
        return super().cancelled or self._parent.cancelled

    def check(self) -> None:
        self._parent.check()
        super().check()


def _id_bits(n: int) -> int:
    return max(1, int(n - 1).bit_length())


def _as_fingerprints(values) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"fingerprints must be a 1-D array, got shape {arr.shape}")
    if arr.size and arr.dtype.kind == "i" and arr.min() < 0:
        raise ValueError("fingerprints must be unsigned 64-bit values")
    if arr.size == 0:
        return np.zeros(0, dtype=np.uint64)
    return arr.astype(np.uint64, copy=False)


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


def _brute_pairs(fps: np.ndarray, k: int) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    n = len(fps)
    rows = max(1, _BRUTE_CHUNK // max(n, 1))
    for i0 in range(0, n, rows):
        block = fps[i0 : i0 + rows]
        dist = np.bitwise_count(block[:, None] ^ fps[None, :])
        a, b = np.nonzero(dist <= k)
        a = a + i0
        upper = b > a
        a, b = a[upper], b[upper]
        yield a, b, dist[a - i0, b].astype(np.int8)


def _brute_query(
    q: np.ndarray, fps: np.ndarray, k: int
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    rows = max(1, _BRUTE_CHUNK // max(len(fps), 1))
    for i0 in range(0, len(q), rows):
        dist = np.bitwise_count(q[i0 : i0 + rows, None] ^ fps[None, :])
        a, b = np.nonzero(dist <= k)
        yield a + i0, b, dist[a, b].astype(np.int8)


def _concat3(parts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    parts = list(parts)
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int8)
    a, b, d = zip(*parts, strict=True)
    return (
        np.concatenate(a, dtype=np.int64),
        np.concatenate(b, dtype=np.int64),
        np.concatenate(d, dtype=np.int8),
    )


def _concat(parts: list[Matches]) -> Matches:
    parts = [p for p in parts if len(p)]
    if not parts:
        return Matches.empty()
    return Matches(*_concat3((p.left, p.right, p.distance) for p in parts))


def _sorted_in_place(left: np.ndarray, right: np.ndarray, distance: np.ndarray) -> Matches:
    """Pairs (left, right) as `Matches` with left < right, sorted; the int64 arrays given
    are overwritten (tens of millions of pairs: every copy counts)."""
    n = int(max(left.max(), right.max())) + 1 if len(left) else 0
    if n * n >= 1 << 56:
        return _sorted(Matches(np.minimum(left, right), np.maximum(left, right), distance))
    swap = left > right
    left[swap], right[swap] = right[swap], left[swap]
    del swap
    key = left
    key *= n
    key += right
    del right
    key <<= 6
    key |= distance
    key.sort()
    distance = (key & 63).astype(np.int8)
    key >>= 6
    left, right = np.divmod(key, n)
    return Matches(left, right, distance)


def _sorted(m: Matches) -> Matches:
    """`m` sorted by (left, right); by one packed int64 key where it fits (less memory)."""
    n = int(max(m.left.max(), m.right.max())) + 1 if len(m) else 0
    if n * n < 1 << 56:
        key = (m.left * n + m.right) << 6 | m.distance.astype(np.int64)
        key.sort()
        distance = (key & 63).astype(np.int8)
        left, right = np.divmod(key >> 6, n)
        return Matches(left, right, distance)
    order = np.lexsort((m.right, m.left))
    return Matches(m.left[order], m.right[order], m.distance[order])
