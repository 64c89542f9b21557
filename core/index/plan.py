"""Table layouts of the Hamming indexes, and how far pairs are searched.

The 64 bits of a fingerprint are split into blocks; a plan says which blocks key each
table. Two fingerprints within k agree on every block of some table when, for every
choice of k blocks, some table avoids all of them (pigeonhole): the classic layout takes
every set of b−k of b blocks; a covering layout takes fewer, smaller sets over 16 blocks
of 4 bits. Both indexes (`memory`, `packed`) choose among these plans with their own cost
model through `cheapest_plan`.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

BITS = 64  # width of a fingerprint
MAX_DISTANCE = 32
DEFAULT_K = 8  # chosen from docs/quality.md: recall 0.70 -> 0.99 at k=3 -> 8, precision 0.996
DEFAULT_K_MAX = 10  # the k slider reaches past the default without a rescan
MAX_K = 16
MAX_TABLES = 2000
_MAX_MASK_TABLE = 1 << 22  # bound on 2^b, the entries of the duplicate-suppression lookup
_COVER_BLOCKS = 16  # covering layouts split the 64 bits into 16 blocks of 4


def id_bits_for(n: int) -> int:
    """Bits a row id of `n` distinct fingerprints takes in a table entry."""
    return max(1, int(n - 1).bit_length())


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
        return min(self.key_bits(table), BITS - id_bits_for(n))

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
        if len(chosen) > MAX_TABLES:
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


# Tables of `cover_plan(k, size)` (0: more than MAX_TABLES), row k, column size - 1: the
# planner prices every layout from these and searches only the one it picks
# (tests/core/test_index.py checks them against the search).

# Tables of `cover_plan(k, size)` (0: more than MAX_TABLES), row k, column size - 1: the
# planner prices every layout from these and searches only the one it picks
# (tests/core/test_index.py checks them against the search).
COVER_TABLES = (
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


def classic_plans(k: int) -> Iterator[IndexPlan]:
    for n_blocks in range(k + 1, min(BITS, k + 12) + 1):
        n_tables = math.comb(n_blocks, k)
        if n_tables <= MAX_TABLES and 1 << n_blocks <= _MAX_MASK_TABLE:
            yield make_plan(n_blocks, k)


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


def cheapest_plan(k: int, cost: Callable[[IndexPlan], float]) -> IndexPlan:
    """The plan of least `cost` for distance `k`: brute force, a classic layout
    (b = k+1 … k+12 blocks) or a covering layout over 16 blocks, the latter priced as
    its known number of tables (`COVER_TABLES`) times the cost of one table."""
    if not 0 <= k <= MAX_DISTANCE:
        raise ValueError(f"max_distance must be between 0 and {MAX_DISTANCE}, not {k}")
    best, best_cost = BRUTE_FORCE, cost(BRUTE_FORCE)
    for plan in classic_plans(k):
        plan_cost = cost(plan)
        if plan_cost < best_cost:
            best, best_cost = plan, plan_cost
    b, best_size = _COVER_BLOCKS, 0
    for size in range(1, b - k) if k < len(COVER_TABLES) else ():
        n_tables = COVER_TABLES[k][size - 1]
        one_table = IndexPlan(split_blocks(b), (tuple(range(size)),))
        plan_cost = n_tables * cost(one_table)
        if n_tables and plan_cost < best_cost:
            best_size, best_cost = size, plan_cost
    return cover_plan(k, best_size) if best_size else best
