"""A Hamming index kept on disk: compressed tables, memory-mapped, decoded per probe.

`HammingIndex` holds 8 bytes per fingerprint per table in memory and rebuilds them every
run. `PackedIndex` is built once, saved, and loaded in milliseconds by an archive that is
only queried afterwards; queries give exactly the brute-force answer.

Layout (compressed sorted tables: block heads in full, then deltas of the sorted entries,
adapted so numpy can decode them in bulk):

- A plan priced per query (`choose_packed_plan`): at k=8 and a million fingerprints a
  *covering* plan over 16 blocks of 4 bits (`core.index.memory.cover_plan`), 72 tables each keyed
  on the exact 16 bits of 4 blocks (16 fingerprints per key), instead of 495 tables; below
  ~30,000 fingerprints a brute-force sweep.
- The base: the distinct fingerprints, sorted (8 bytes each), and the rows of each.
- A table does not store ids. For every fingerprint it stores its key κ (the table's 16
  bits) and r, its top q = ⌈log2 n⌉+1 bits *without* the key's bits, as one sorted value
  v = κ·2^|r| + r. The key's own bits come back from the probe (a match agrees on them),
  so a probe rebuilds each candidate's top q bits, and those point into the sorted base
  (≈1.5 fingerprints each) through a prefix offset table built at load. A table thus costs
  what is not already known: the more of the key lies in the top bits, the fewer bits of
  r (blocks are numbered so the most used blocks are the top ones).
- The sorted values are Elias–Fano coded: the low L bits of each value packed at a fixed
  width (entry i at bit i·L), the rest as a unary bit vector (entry i sets bit
  (v_i >> L) + i). Cut into groups of consecutive keys: one key per group where keys hold
  8 or more fingerprints, else enough keys for ~8. A group's head is the number of entries
  before it (a uint64 every 256 groups, a uint16 per group), so a probe finds its group's
  entries and bits directly, without a binary search, and decodes only that group.
  Elias–Fano rather than the seed's h(n) + Huffman: all probes of a table are decoded
  with a few whole-array numpy operations (unpackbits, flatnonzero, shifts), with no
  sequential bit parsing; it costs ~1.5 bits per entry more, heads included
  (`python -m bench.packed_index_bench codes` measures both).

File: one `packed_index.bin` per directory: magic, format version, a JSON header with
every array's offset, length, type and CRC-32, then the arrays (64-byte aligned). Saving
writes a temporary file and renames it. Loading checks the header and the base arrays; a
table's CRC is checked the first time a query uses it. A damaged, truncated or foreign
file raises `PackedIndexError` (a `ValueError`), from `load` or from that first query.
"""

from __future__ import annotations

import contextlib
import json
import math
import mmap
import os
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from simsift.core.arrays import ragged_arange
from simsift.core.files import atomic_write
from simsift.core.index.matches import (
    Matches,
    as_fingerprints,
    brute_query,
    concat_parts,
    sorted_matches,
)
from simsift.core.index.parallel import run_in_order
from simsift.core.index.plan import (
    MAX_DISTANCE,
    IndexPlan,
    agreement,
    cheapest_plan,
    first_table_lookup,
)
from simsift.core.progress import CancelToken

FILE_NAME = "packed_index.bin"
FORMAT_VERSION = 1
_MAGIC = b"SIMSIFT-PACKIDX\n"
_PREAMBLE = len(_MAGIC) + 12  # magic, version, header length, header CRC (uint32 each)
_ALIGN = 64
_GROUP_TARGET = 8  # fewest entries per group on average (fewer: heads would cost more bits)
_CHUNK = 1 << 21  # decoded entries per step (bounded memory, cancel checked between)
_WORKERS = max(1, min(4, os.cpu_count() or 1))

# Per-query costs in nanoseconds for the planner (bench/packed_index_bench.py, 2 cores)
_COST_PROBE = 700.0  # find one group: key, heads, bit ranges, bookkeeping
_COST_CANDIDATE = 110.0  # decode one entry, rebuild its prefix, verify against the base
_COST_BRUTE = 2.0  # one xor + popcount of a brute-force sweep (0.19 s CPU for 10^4 × 10^4)


class PackedIndexError(ValueError):
    """The file is not a packed index this version can read, or it is damaged."""


@dataclass(frozen=True, slots=True)
class _TableLayout:
    """How one table is coded (all counts in entries or bits)."""

    mask: int  # the fingerprint bits of the key
    rest: int  # the top-q bits outside the key, stored as r
    key_bits: int  # p = popcount(mask)
    rest_bits: int  # w = popcount(rest)
    low_bits: int  # Elias–Fano L
    group_keys: int  # log2 of the keys per group
    entries: int
    head_step: int  # log2 of the groups per anchor

    @property
    def groups(self) -> int:
        return 1 << max(self.key_bits - self.group_keys, 0)

    @property
    def group_shift(self) -> int:
        """Values of a group: v >> group_shift == group."""
        return self.rest_bits + min(self.group_keys, self.key_bits)

    def high_bits(self) -> int:
        """Length of the unary bit vector."""
        universe_highs = 1 << (self.key_bits + self.rest_bits - self.low_bits)
        return universe_highs + self.entries

    def to_json(self) -> dict:
        return {
            "mask": str(self.mask),
            "rest": str(self.rest),
            "key_bits": self.key_bits,
            "rest_bits": self.rest_bits,
            "low_bits": self.low_bits,
            "group_keys": self.group_keys,
            "entries": self.entries,
            "head_step": self.head_step,
        }

    @classmethod
    def from_json(cls, raw: dict) -> _TableLayout:
        layout = cls(
            mask=int(raw["mask"]),
            rest=int(raw["rest"]),
            key_bits=int(raw["key_bits"]),
            rest_bits=int(raw["rest_bits"]),
            low_bits=int(raw["low_bits"]),
            group_keys=int(raw["group_keys"]),
            entries=int(raw["entries"]),
            head_step=int(raw["head_step"]),
        )
        if not (
            0 <= layout.mask < 1 << 64
            and 0 <= layout.rest < 1 << 64
            and layout.mask & layout.rest == 0
            and layout.key_bits == layout.mask.bit_count()
            and layout.rest_bits == layout.rest.bit_count()
            and 0 <= layout.low_bits <= min(56, layout.key_bits + layout.rest_bits)
            and 0 <= layout.group_keys <= 64
            and layout.key_bits - layout.group_keys <= 30
            and layout.key_bits + layout.rest_bits - layout.low_bits <= 40
            and 0 <= layout.entries < 1 << 40
            and 0 <= layout.head_step <= 8
        ):
            raise PackedIndexError("packed index header: a table's layout is inconsistent")
        return layout


@dataclass(frozen=True, slots=True)
class _Table:
    """One Elias–Fano coded table and its group heads."""

    layout: _TableLayout
    anchors: np.ndarray  # uint64: entries before every 2^head_step-th group
    deltas: np.ndarray  # uint16, groups + 1: entries before each group, minus its anchor
    lows: np.ndarray  # uint8, packed low bits (+8 bytes of padding)
    highs: np.ndarray  # uint8, unary bit vector (+8 bytes of padding)

    def heads(self, groups: np.ndarray) -> np.ndarray:
        """Entries before each of `groups` (int64)."""
        anchor = self.anchors[groups >> self.layout.head_step].astype(np.int64)
        return anchor + self.deltas[groups]


class PackedIndex:
    """Fingerprints within Hamming distance k of query fingerprints, from compressed tables.

    Build once with `build`, `save` to a directory, `load` it later (memory-mapped).
    Queries give exactly the brute-force answer.

    Examples:
        >>> index = PackedIndex.build(np.array([0b1011, 0b1010, 0xFF00], np.uint64), 2)
        >>> index.query([0b0011]).right.tolist()
        [0, 1]
    """

    def __init__(
        self,
        *,
        max_distance: int,
        plan: IndexPlan,
        prefix_bits: int,
        fingerprints: np.ndarray,
        distinct: np.ndarray,
        rows: np.ndarray,
        row_ptr: np.ndarray,
        tables: list[_Table],
        verify_table: Callable[[int], None] | None = None,
        keep_alive: object = None,
    ) -> None:
        self.max_distance = max_distance
        self.plan = plan
        self._q = prefix_bits
        self._fingerprints = fingerprints
        self._distinct = distinct
        self._rows = rows
        self._row_ptr = row_ptr
        self._tables = tables
        self._verify_table = verify_table
        self._verified: set[int] = set()
        self._keep_alive = keep_alive  # the memory map the arrays point into
        self._lock = threading.Lock()
        self._offsets: np.ndarray | None = None
        self._first = first_table_lookup(plan) if not plan.brute_force else None

    # -- public --------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        fingerprints: np.ndarray,
        max_distance: int,
        *,
        progress: Callable[[int, int], None] | None = None,
        cancel: CancelToken | None = None,
        plan: IndexPlan | None = None,
    ) -> PackedIndex:
        """Index `fingerprints` (uint64, row i is item i) for queries within `max_distance`.

        Args:
            progress: called with (tables done, tables) after each table.
            cancel: checked between tables; raises `Cancelled`.
            plan: a fixed layout instead of the planner's choice (benchmarks, tests).
        """
        if not 0 <= max_distance <= MAX_DISTANCE:
            raise ValueError(
                f"max_distance must be between 0 and {MAX_DISTANCE}, not {max_distance}"
            )
        fps = as_fingerprints(fingerprints)
        rows = np.argsort(fps, kind="stable")
        ordered = fps[rows]
        starts = (
            np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
            if len(fps)
            else np.zeros(0, np.int64)
        )
        distinct = ordered[starts]
        row_ptr = np.r_[starts, len(fps)].astype(np.int64)
        n = len(distinct)
        if plan is None:
            plan = choose_packed_plan(n, max_distance)
        elif plan.recall_distance() < max_distance:
            raise ValueError("plan does not guarantee recall at max_distance")
        # one bit more than log2(n): a rebuilt prefix points at ~1.5 base fingerprints
        prefix_bits = min(40, math.ceil(math.log2(n)) + 1) if n > 1 else 1
        n_tables = len(plan.tables)

        def one_table(t: int, stop: CancelToken) -> _Table:
            stop.check()
            return _encode_table(distinct, plan.mask(t), prefix_bits)

        tables = []
        for done, table in enumerate(run_in_order(one_table, range(n_tables), _WORKERS, cancel), 1):
            tables.append(table)
            if progress is not None:
                progress(done, n_tables)
        if progress is not None and not n_tables:
            progress(1, 1)
        return cls(
            max_distance=max_distance,
            plan=plan,
            prefix_bits=prefix_bits,
            fingerprints=fps,
            distinct=distinct,
            rows=rows.astype(_row_type(len(fps))),
            row_ptr=row_ptr,
            tables=tables,
        )

    def __len__(self) -> int:
        return len(self._fingerprints)

    @property
    def fingerprints(self) -> np.ndarray:
        """The indexed fingerprints, row i being item i (read-only when loaded)."""
        return self._fingerprints

    @property
    def distinct_count(self) -> int:
        return len(self._distinct)

    def table_bytes(self) -> list[int]:
        """Bytes of each table as stored (heads, low bits and unary bits)."""
        return [
            t.anchors.nbytes + t.deltas.nbytes + t.lows.nbytes + t.highs.nbytes
            for t in self._tables
        ]

    def query(
        self, fingerprints, max_distance: int | None = None, *, cancel: CancelToken | None = None
    ) -> Matches:
        """Indexed rows within `max_distance` (default: the index's k) of each query.

        Returns `Matches(left=query row, right=indexed row, distance)`, sorted, like
        `HammingIndex.query`. Raises `PackedIndexError` if a table of a loaded index
        turns out to be damaged.
        """
        k = self.max_distance if max_distance is None else max_distance
        if not 0 <= k <= self.max_distance:
            raise ValueError(
                f"max_distance must be between 0 and the index's {self.max_distance}, not {k}"
            )
        q = as_fingerprints(fingerprints)
        cancel = cancel or CancelToken()
        if not len(q) or not len(self._distinct):
            return Matches.empty()
        if self.plan.brute_force:
            parts = []
            for part in brute_query(q, self._distinct, k):
                cancel.check()
                parts.append(part)
            qi, u, d = concat_parts(parts)
        else:
            offsets = self._prefix_offsets()
            workers = _WORKERS if len(q) * len(self._tables) >= 1 << 14 else 1
            parts = []
            for found in run_in_order(
                lambda t, stop: self._query_table(t, q, k, offsets, stop),
                range(len(self._tables)),
                workers,
                cancel,
            ):
                parts.extend(found)
            qi, u, d = concat_parts(parts)
        return sorted_matches(_expand(qi, u, d, self._rows, self._row_ptr))

    # -- saving and loading -------------------------------------------------------------

    def save(self, directory: Path | str) -> Path:
        """Write the index to `directory`/packed_index.bin atomically; returns the path.

        A temporary file is written and synced, then renamed over the old one: a crash
        leaves either the old index or the new one, never a mix.
        """
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {
            "fingerprints": self._fingerprints,
            "distinct": self._distinct,
            "rows": self._rows,
            "row_ptr": self._row_ptr,
        }
        for t, table in enumerate(self._tables):
            arrays[f"t{t}.anchors"] = table.anchors
            arrays[f"t{t}.deltas"] = table.deltas
            arrays[f"t{t}.lows"] = table.lows
            arrays[f"t{t}.highs"] = table.highs
        sections, offset = {}, 0
        for name, array in arrays.items():
            data = np.ascontiguousarray(array)
            sections[name] = [
                offset,
                data.nbytes,
                _dtype_name(data.dtype),
                zlib.crc32(memoryview(data).cast("B")),
            ]
            offset += _aligned(data.nbytes)
        header = {
            "max_distance": self.max_distance,
            "prefix_bits": self._q,
            "n_rows": len(self._fingerprints),
            "n_distinct": len(self._distinct),
            "blocks": [list(b) for b in self.plan.blocks],
            "tables": [list(t) for t in self.plan.tables],
            "layouts": [t.layout.to_json() for t in self._tables],
            "sections": sections,
            "body_bytes": offset,
        }
        raw = json.dumps(header).encode()
        body_start = _aligned(_PREAMBLE + len(raw))
        path = directory / FILE_NAME
        with atomic_write(path, durable=True) as f:
            f.write(_MAGIC)
            f.write(np.array([FORMAT_VERSION, len(raw), zlib.crc32(raw)], "<u4").tobytes())
            f.write(raw)
            f.write(b"\0" * (body_start - _PREAMBLE - len(raw)))
            for array in arrays.values():
                data = np.ascontiguousarray(array)
                f.write(memoryview(data).cast("B"))
                f.write(b"\0" * (_aligned(data.nbytes) - data.nbytes))
        return path

    @classmethod
    def load(cls, directory: Path | str) -> PackedIndex:
        """Open an index saved by `save` (memory-mapped; tables decoded per probe).

        Raises `PackedIndexError` for a missing, foreign, damaged or other-version file.
        """
        path = Path(directory) / FILE_NAME
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size < _PREAMBLE:
                    raise PackedIndexError(f"{path}: not a packed index (file too short)")
                mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except FileNotFoundError as exc:
            raise PackedIndexError(f"{path}: no packed index here") from exc
        except OSError as exc:
            raise PackedIndexError(f"{path}: cannot be read ({exc.strerror})") from exc
        try:
            return _open(mapped, path)
        except PackedIndexError:
            _close(mapped)
            raise
        except (KeyError, TypeError, ValueError, OverflowError, IndexError) as exc:
            _close(mapped)
            raise PackedIndexError(f"{path}: damaged packed index ({exc})") from exc

    # -- querying -------------------------------------------------------------------------

    def _prefix_offsets(self) -> np.ndarray:
        """offsets[P] = first base position whose top q bits are ≥ P (2^q + 1 entries)."""
        with self._lock:
            if self._offsets is None:
                top = self._distinct >> np.uint64(64 - self._q)
                counts = np.bincount(top.astype(np.int64), minlength=1 << self._q)
                # int32 where it fits: half the cache footprint of the random lookups
                offset_type = np.int32 if len(self._distinct) < 1 << 31 else np.int64
                self._offsets = np.r_[0, np.cumsum(counts)].astype(offset_type)
            return self._offsets

    def _table(self, t: int) -> _Table:
        if self._verify_table is not None and t not in self._verified:
            self._verify_table(t)
            with self._lock:
                self._verified.add(t)
        return self._tables[t]

    def _query_table(
        self, t: int, q: np.ndarray, k: int, offsets: np.ndarray, stop: CancelToken
    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        table = self._table(t)
        layout = table.layout
        top = ((1 << self._q) - 1) << (64 - self._q)
        keys = _extract(q, layout.mask)
        groups = (keys >> np.uint64(max(layout.group_keys, 0))).astype(np.int64)
        groups = np.minimum(groups, layout.groups - 1)
        lo = table.heads(groups)
        hi = table.heads(groups + 1)
        found = []
        cum = np.cumsum(hi - lo)
        start = 0
        while start < len(q):
            stop.check()
            done = int(cum[start - 1]) if start else 0
            end = max(start + 1, int(np.searchsorted(cum, done + _CHUNK, side="right")))
            sl = slice(start, end)
            owner, value = _decode_groups(table, groups[sl], lo[sl], hi[sl])
            owner += start
            # entries of the probe's own key (a group of one key holds nothing else),
            # then each one's top q bits, rebuilt
            if layout.group_keys:
                mine = (value >> np.uint64(layout.rest_bits)) == keys[owner]
                owner, value = owner[mine], value[mine]
            value &= np.uint64((1 << layout.rest_bits) - 1)
            probe = q[owner]
            prefix = (probe & np.uint64(layout.mask & top)) | _deposit(value, layout.rest)
            # the top q bits alone may already differ in more than k places
            near = np.flatnonzero(np.bitwise_count((prefix ^ probe) & np.uint64(top)) <= k)
            owner, probe, prefix = owner[near], probe[near], prefix[near]
            prefix >>= np.uint64(64 - self._q)
            prefix = prefix.view(np.int64)
            found.extend(self._verify(t, owner, probe, offsets[prefix], offsets[prefix + 1], k))
            start = end
        return found

    def _verify(
        self,
        t: int,
        owner: np.ndarray,
        probe: np.ndarray,
        lo: np.ndarray,
        hi: np.ndarray,
        k: int,
    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Base fingerprints in [lo, hi) of each candidate within k of its probe, that
        table t is the first to find. Ranges hold ~1.5 fingerprints: step j checks the
        j-th of every range still that long, so no ragged expansion is needed."""
        found = []
        # every candidate is an indexed fingerprint, so its range holds at least itself
        alive = np.arange(len(lo)) if (hi > lo).all() else np.flatnonzero(hi > lo)
        at = lo[alive]
        while alive.size:
            x = (probe if len(alive) == len(probe) else probe[alive]) ^ self._distinct[at]
            dist = np.bitwise_count(x)
            keep = np.flatnonzero(dist <= k)
            if keep.size:
                first = self._first[agreement(x[keep], self.plan)] == t
                keep = keep[first]
                found.append((owner[alive[keep]], at[keep], dist[keep].astype(np.int8)))
            at += 1
            longer = at < hi[alive]
            alive, at = alive[longer], at[longer]
        return found


# -- planning ----------------------------------------------------------------------------


def packed_plan_cost(plan: IndexPlan, n: int) -> float:
    """Estimated cost (ns) of one query: a group found per table, its entries decoded
    (a group holds at least ~_GROUP_TARGET of them) and verified."""
    if plan.brute_force:
        return _COST_BRUTE * n
    return sum(
        _COST_PROBE + _COST_CANDIDATE * max(n / 2.0 ** plan.key_bits(t), min(_GROUP_TARGET, n))
        for t in range(len(plan.tables))
    )


def choose_packed_plan(n: int, k: int) -> IndexPlan:
    """The layout with the cheapest queries for `n` distinct fingerprints at distance k,
    its most used blocks in the top bits."""
    best = cheapest_plan(k, lambda plan: packed_plan_cost(plan, n))
    return _top_blocks_first(best) if not best.brute_force else best


def _top_blocks_first(plan: IndexPlan) -> IndexPlan:
    """The same plan with blocks renumbered so the most used lie in the top bits.

    Recall depends only on which blocks each table has, not where they lie; the top
    bits of a table's key need not be stored (see the module docstring).
    """
    use = np.zeros(len(plan.blocks), np.int64)
    for table in plan.tables:
        use[list(table)] += 1
    widths = {w for _, w in plan.blocks}
    if len(widths) != 1:
        return plan
    order = np.argsort(-use, kind="stable")  # most used first
    new_of_old = np.empty(len(plan.blocks), np.int64)
    new_of_old[order] = np.arange(len(plan.blocks))[::-1]  # ... get the highest blocks
    tables = tuple(tuple(sorted(int(new_of_old[b]) for b in t)) for t in plan.tables)
    return IndexPlan(plan.blocks, tables)


# -- coding ------------------------------------------------------------------------------


def _encode_table(distinct: np.ndarray, mask: int, q: int) -> _Table:
    """The sorted values v = key·2^w + rest of every distinct fingerprint, Elias–Fano coded."""
    n_all = len(distinct)
    top = ((1 << q) - 1) << (64 - q)
    rest_mask = top & ~mask
    p, w = mask.bit_count(), rest_mask.bit_count()
    values = (_extract(distinct, mask) << np.uint64(w)) | _extract(distinct, rest_mask)
    values.sort()
    if len(values) > 1:
        values = values[np.r_[True, values[1:] != values[:-1]]]
    n = len(values)
    low_bits = min(56, max(0, math.floor(math.log2(2.0 ** (p + w) / max(n, 1)))))
    target_groups = max(1, n_all // _GROUP_TARGET)
    group_keys = max(0, p - max(0, math.floor(math.log2(target_groups))))
    group_keys = max(group_keys, p - 30)
    shift = min(w + group_keys, w + p)
    low_bits = min(low_bits, shift)
    # keep the unary vector within 2^40 bits whatever the key width
    low_bits = max(low_bits, p + w - 40)
    layout = _TableLayout(mask, rest_mask, p, w, low_bits, group_keys, n, 0)
    groups = layout.groups
    heads = np.empty(groups + 1, np.int64)
    if groups > 1:
        bounds = np.arange(1, groups, dtype=np.uint64) << np.uint64(shift)
        heads[1:groups] = np.searchsorted(values, bounds, side="left")
    heads[0], heads[groups] = 0, n
    # two levels: a uint64 every 2^step groups, a uint16 per group above it (2 bytes a
    # group instead of 4-8); a smaller step where the data are so skewed it overflows
    for step in (8, 6, 4, 2, 0):
        anchors = heads[:: 1 << step]
        deltas = heads - np.repeat(anchors, 1 << step)[: groups + 1]
        if deltas.max() < 1 << 16:
            break
    lows = _pack_bits(values & np.uint64((1 << low_bits) - 1), low_bits)
    ones = (values >> np.uint64(low_bits)).astype(np.int64) + np.arange(n)
    unary = np.zeros(layout.high_bits(), np.uint8)
    unary[ones] = 1
    highs = np.r_[np.packbits(unary, bitorder="little"), np.zeros(8, np.uint8)]
    layout = _TableLayout(mask, rest_mask, p, w, low_bits, group_keys, n, step)
    return _Table(layout, anchors.astype(np.uint64), deltas.astype(np.uint16), lows, highs)


def _pack_bits(values: np.ndarray, width: int) -> np.ndarray:
    """`width` low bits of each value, packed little-endian (entry i at bit i·width),
    followed by 8 bytes of padding for unaligned 8-byte reads."""
    if width == 0 or not len(values):
        return np.zeros(8, np.uint8)
    out = []
    step = max(1, (1 << 22) // width)
    for s in range(0, len(values), step):
        part = values[s : s + step]
        bits = ((part[:, None] >> np.arange(width, dtype=np.uint64)) & np.uint64(1)).astype(
            np.uint8
        )
        out.append(bits.reshape(-1))
    return np.r_[np.packbits(np.concatenate(out), bitorder="little"), np.zeros(8, np.uint8)]


def _read_bits(packed: np.ndarray, bit: np.ndarray, width: int) -> np.ndarray:
    """The `width`-bit fields (width ≤ 56) starting at bit offsets `bit` of `packed`."""
    if width == 0:
        return np.zeros(len(bit), np.uint64)
    words = np.lib.stride_tricks.as_strided(
        packed, shape=(len(packed) - 7, 8), strides=(1, 1), writeable=False
    )
    # eight consecutive bytes from each start, read as one little-endian uint64
    raw = np.ascontiguousarray(words[bit >> 3]).view("<u8").reshape(-1)
    return (raw >> (bit & 7).astype(np.uint64)) & np.uint64((1 << width) - 1)


def _spans(lo: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(owner, position) for every position in [lo[i], lo[i] + count[i]), in order."""
    total = int(count.sum())
    owner = np.repeat(np.arange(len(count)), count)
    position = np.arange(total, dtype=np.int64)
    position += np.repeat(lo - (np.cumsum(count) - count), count)
    return owner, position


def _decode_groups(
    table: _Table, groups: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(probe, value) for every entry of each probe's group, in order."""
    layout = table.layout
    owner, entry = _spans(lo, hi - lo)
    low = _read_bits(table.lows, entry * layout.low_bits, layout.low_bits)
    # each group's unary bits run from (group << s) + lo to ((group + 1) << s) + hi
    s = layout.group_shift - layout.low_bits
    bit_lo = (groups << s) + lo
    bit_hi = ((groups + 1) << s) + hi
    byte_lo = bit_lo >> 3
    byte_owner, byte_at = _spans(byte_lo, ((bit_hi + 7) >> 3) - byte_lo)
    one = np.flatnonzero(np.unpackbits(table.highs[byte_at], bitorder="little"))
    position = byte_at[one >> 3] * 8 + (one & 7)
    one_owner = byte_owner[one >> 3]
    position = position[(position >= bit_lo[one_owner]) & (position < bit_hi[one_owner])]
    if len(position) != len(entry):
        raise PackedIndexError("packed index: a table's unary bits do not match its heads")
    position -= entry
    value = position.view(np.uint64)
    value <<= np.uint64(layout.low_bits)
    value |= low
    return owner, value


def _runs(mask: int) -> list[tuple[int, int]]:
    """(start bit, length) of each run of consecutive set bits, lowest first."""
    runs, bit = [], 0
    while mask >> bit:
        if mask >> bit & 1:
            length = ((~mask >> bit) & -(~mask >> bit)).bit_length() - 1
            runs.append((bit, length))
            bit += length
        else:
            bit += 1
    return runs


def _extract(values: np.ndarray, mask: int) -> np.ndarray:
    """The bits of `mask` of each value, packed together (parallel bit extract)."""
    out = np.zeros(len(values), np.uint64)
    at = 0
    for start, length in _runs(mask):
        part = (values >> np.uint64(start)) & np.uint64((1 << length) - 1)
        out |= part << np.uint64(at)
        at += length
    return out


def _deposit(values: np.ndarray, mask: int) -> np.ndarray:
    """The inverse of `_extract`: low bits of each value spread over the bits of `mask`."""
    out = np.zeros(len(values), np.uint64)
    at = 0
    for start, length in _runs(mask):
        part = (values >> np.uint64(at)) & np.uint64((1 << length) - 1)
        out |= part << np.uint64(start)
        at += length
    return out


def _expand(
    qi: np.ndarray, u: np.ndarray, d: np.ndarray, rows: np.ndarray, row_ptr: np.ndarray
) -> Matches:
    """(query, distinct id) matches as (query, row) matches: every row of each id."""
    size = np.diff(row_ptr)[u]
    owner, j = ragged_arange(size)
    if not len(owner):
        return Matches.empty()
    right = rows[row_ptr[u[owner]] + j].astype(np.int64)
    return Matches(qi[owner].astype(np.int64), right, d[owner])


# -- file --------------------------------------------------------------------------------

_DTYPES = {"u1": np.uint8, "u2": np.uint16, "u4": np.uint32, "u8": np.uint64, "i8": np.int64}


def _dtype_name(dtype: np.dtype) -> str:
    for name, t in _DTYPES.items():
        if np.dtype(t) == dtype:
            return name
    raise TypeError(f"cannot store {dtype}")


def _row_type(n: int):
    return np.uint32 if n < 1 << 32 else np.int64


def _aligned(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def _close(mapped: mmap.mmap) -> None:
    """Close a map unless arrays still point into it (then it closes when they go)."""
    with contextlib.suppress(BufferError):
        mapped.close()


def _open(mapped: mmap.mmap, path: Path) -> PackedIndex:
    size = len(mapped)
    if mapped[: len(_MAGIC)] != _MAGIC:
        raise PackedIndexError(f"{path}: not a SimSift packed index")
    version, header_len, header_crc = np.frombuffer(mapped, "<u4", 3, len(_MAGIC)).tolist()
    if version != FORMAT_VERSION:
        raise PackedIndexError(
            f"{path}: written by another version of SimSift (index format {version}; "
            f"this version reads format {FORMAT_VERSION}): rebuild the index"
        )
    if _PREAMBLE + header_len > size:
        raise PackedIndexError(f"{path}: damaged packed index (header cut short)")
    raw = mapped[_PREAMBLE : _PREAMBLE + header_len]
    if zlib.crc32(raw) != header_crc:
        raise PackedIndexError(f"{path}: damaged packed index (header checksum)")
    header = json.loads(raw)
    body = _aligned(_PREAMBLE + header_len)
    if body + int(header["body_bytes"]) != size:
        raise PackedIndexError(f"{path}: damaged packed index (file cut short or too long)")
    sections = header["sections"]

    def array(name: str, verify: bool) -> np.ndarray:
        offset, length, dtype, crc = sections[name]
        dtype = np.dtype(_DTYPES[dtype])
        start = body + int(offset)
        if offset < 0 or length < 0 or start + length > size or length % dtype.itemsize:
            raise PackedIndexError(f"{path}: damaged packed index ({name} out of bounds)")
        data = np.frombuffer(mapped, dtype, length // dtype.itemsize, start)
        if verify and zlib.crc32(data) != crc:
            raise PackedIndexError(f"{path}: damaged packed index ({name} checksum)")
        return data

    n_rows, n_distinct = int(header["n_rows"]), int(header["n_distinct"])
    fingerprints = array("fingerprints", True)
    distinct = array("distinct", True)
    rows = array("rows", True)
    row_ptr = array("row_ptr", True)
    if (
        len(fingerprints) != n_rows
        or len(distinct) != n_distinct
        or len(rows) != n_rows
        or len(row_ptr) != n_distinct + 1
        or (n_distinct and (row_ptr[0] != 0 or row_ptr[-1] != n_rows))
        or np.any(np.diff(row_ptr) <= 0)
        or (n_rows and int(rows.max()) >= n_rows)
        or np.any(distinct[1:] <= distinct[:-1])
    ):
        raise PackedIndexError(f"{path}: damaged packed index (base arrays inconsistent)")
    plan = IndexPlan(
        tuple((int(s), int(w)) for s, w in header["blocks"]),
        tuple(tuple(int(b) for b in t) for t in header["tables"]),
    )
    if sum(w for _, w in plan.blocks) != 64 if plan.blocks else False:
        raise PackedIndexError(f"{path}: damaged packed index (blocks)")
    k = int(header["max_distance"])
    if not 0 <= k <= MAX_DISTANCE or plan.recall_distance() < k:
        raise PackedIndexError(f"{path}: damaged packed index (layout)")
    q = int(header["prefix_bits"])
    if not 1 <= q <= 40:
        raise PackedIndexError(f"{path}: damaged packed index (prefix bits)")
    layouts = [_TableLayout.from_json(raw) for raw in header["layouts"]]
    if len(layouts) != len(plan.tables):
        raise PackedIndexError(f"{path}: damaged packed index (table count)")
    tables = []
    for t, layout in enumerate(layouts):
        if layout.mask != plan.mask(t):
            raise PackedIndexError(f"{path}: damaged packed index (table {t} key)")
        tables.append(
            _Table(
                layout,
                array(f"t{t}.anchors", False),
                array(f"t{t}.deltas", False),
                array(f"t{t}.lows", False),
                array(f"t{t}.highs", False),
            )
        )

    def verify_table(t: int) -> None:
        table = tables[t]
        layout = table.layout
        for part in ("anchors", "deltas", "lows", "highs"):
            array(f"t{t}.{part}", True)
        if len(table.deltas) != layout.groups + 1 or len(table.anchors) != (
            (layout.groups >> layout.head_step) + 1
        ):
            raise PackedIndexError(f"{path}: damaged packed index (table {t} heads)")
        heads = table.heads(np.arange(layout.groups + 1))
        if (
            heads[0] != 0
            or heads[-1] != layout.entries
            or np.any(np.diff(heads.astype(np.int64)) < 0)
            or len(table.lows) < (layout.entries * layout.low_bits + 7) // 8 + 8
            or len(table.highs) < (layout.high_bits() + 7) // 8 + 8
        ):
            raise PackedIndexError(f"{path}: damaged packed index (table {t})")

    return PackedIndex(
        max_distance=k,
        plan=plan,
        prefix_bits=q,
        fingerprints=fingerprints,
        distinct=distinct,
        rows=rows,
        row_ptr=row_ptr,
        tables=tables,
        verify_table=verify_table,
        keep_alive=mapped,
    )
