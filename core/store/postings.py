"""Posting lists of an archive segment, on disk and memory-mapped.

Per distinct value (a usable passage's fingerprint, a kept word gram), sorted, the
segment rows holding it and how many times each holds it: a check looks up only the
values of the documents it compares (a binary search in the memory-mapped values, then
their lists), so its cost follows the new documents, never the archive's size; and a
value's document frequency (how many documents hold it, what makes text common) is the
length of its list.

A segment's postings of one kind are a folder of `.npy` files (`values`, `ptr`, `rows`,
`times`) written when the segment is; the manifest names the folder with its size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from simsift.core.arrays import ragged_arange
from simsift.core.files import atomic_write

_ARRAYS = ("values", "ptr", "rows", "times")


class PostingsError(Exception):
    """A postings folder that is missing, cut or not ours (one line naming it)."""


@dataclass(frozen=True)
class Postings:
    """Value -> segment rows holding it. `values` sorted distinct; value i is held by
    `rows[ptr[i]:ptr[i + 1]]` (ascending, distinct), `times` of each (how many of the
    row's passages or grams have it)."""

    values: np.ndarray  # uint64
    ptr: np.ndarray  # int64, len(values) + 1
    rows: np.ndarray  # uint32
    times: np.ndarray  # uint32

    @classmethod
    def build(cls, rows: np.ndarray, values: np.ndarray) -> Postings:
        """The postings of (row, value) items, a row holding a value once or more."""
        rows = np.asarray(rows, np.int64)
        values = np.asarray(values, np.uint64)
        order = np.lexsort((rows, values))
        rows, values = rows[order], values[order]
        new = np.r_[True, (values[1:] != values[:-1]) | (rows[1:] != rows[:-1])]
        starts = np.flatnonzero(new[: len(rows)])
        times = np.diff(np.r_[starts, len(rows)]).astype(np.uint32)
        rows, values = rows[starts], values[starts]
        first = np.r_[True, values[1:] != values[:-1]] if len(values) else np.zeros(0, bool)
        ptr = np.r_[np.flatnonzero(first), len(values)].astype(np.int64)
        return cls(values[first], ptr, rows.astype(np.uint32), times)

    def __len__(self) -> int:
        return len(self.values)

    def lookup(self, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(query number, row, times) of every posting of the queried values found."""
        queries = np.asarray(queries, np.uint64)
        if not len(self.values) or not len(queries):
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
        at = np.searchsorted(self.values, queries).clip(max=len(self.values) - 1)
        hit = np.flatnonzero(np.asarray(self.values[at]) == queries)
        lo, hi = np.asarray(self.ptr[at[hit]]), np.asarray(self.ptr[at[hit] + 1])
        owner, k = ragged_arange(hi - lo)
        entry = lo[owner] + k
        rows = np.asarray(self.rows[entry], np.int64)
        return hit[owner].astype(np.int64), rows, np.asarray(self.times[entry], np.int64)

    def items(self) -> tuple[np.ndarray, np.ndarray]:
        """Every (row, value) held, as `build` took them (a row holding a value twice
        twice)."""
        values = np.repeat(np.asarray(self.values), np.diff(np.asarray(self.ptr)))
        times = np.asarray(self.times, np.int64)
        return np.repeat(np.asarray(self.rows, np.int64), times), np.repeat(values, times)

    def save(self, folder: Path) -> int:
        """Write the arrays into `folder` (durably); their total size in bytes."""
        folder.mkdir(parents=True, exist_ok=True)
        size = 0
        for name in _ARRAYS:
            with atomic_write(folder / f"{name}.npy", durable=True) as f:
                np.save(f, getattr(self, name), allow_pickle=False)
            size += (folder / f"{name}.npy").stat().st_size
        return size

    @classmethod
    def load(cls, folder: Path, size: int) -> Postings:
        """The postings saved in `folder`, memory-mapped; `PostingsError` when a file is
        missing, the sizes are not `size` or the arrays do not fit together."""
        try:
            found = sum((folder / f"{name}.npy").stat().st_size for name in _ARRAYS)
            if found != size:
                raise PostingsError(f"{folder}: archive file damaged (wrong size)")
            arrays = {n: np.load(folder / f"{n}.npy", mmap_mode="r") for n in _ARRAYS}
        except FileNotFoundError as error:
            raise PostingsError(f"{folder}: archive file missing") from error
        except ValueError as error:
            raise PostingsError(f"{folder}: damaged archive file ({error})") from error
        postings = cls(**arrays)
        ptr = postings.ptr
        fits = len(ptr) == len(postings.values) + 1 and len(postings.rows) == len(postings.times)
        if not fits or int(ptr[0]) != 0 or int(ptr[-1]) != len(postings.rows):
            raise PostingsError(f"{folder}: damaged archive file (inconsistent sizes)")
        return postings
