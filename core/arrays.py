"""Small numpy idioms used across the engine."""

from __future__ import annotations

from itertools import pairwise

import numpy as np


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """Sorted distinct values, like `np.unique(values)` but by sorting: numpy 2's
    hash-based unique is about 100 times slower on millions of int64 keys."""
    values = np.sort(values)
    return values[np.r_[True, values[1:] != values[:-1]]] if len(values) else values


def owners(counts: np.ndarray) -> np.ndarray:
    """Item i repeated counts[i] times: the owner of each entry of a ragged array."""
    return np.repeat(np.arange(len(counts)), counts)


def ragged_arange(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(owner, k) for every k in range(counts[owner]) of every owner, as two flat arrays."""
    owner = owners(counts)
    k = np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
    return owner, k


def pair_keys(left: np.ndarray, right: np.ndarray, n: int) -> np.ndarray:
    """One int64 key per pair of numbers below n, left * n + right: keys sort as the
    pairs do, and `split_keys` turns them back into pairs."""
    return np.asarray(left, np.int64) * n + right


def split_keys(keys: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The (left, right) pairs of `pair_keys`."""
    return keys // n, keys % n


def bounded_runs(sizes: np.ndarray, budget: int) -> list[tuple[int, int]]:
    """Consecutive ranges of items whose sizes add up to at most `budget` (or one item)."""
    cumulative = np.cumsum(sizes)
    bounds = [0]
    while bounds[-1] < len(sizes):
        lo = bounds[-1]
        done = int(cumulative[lo - 1]) if lo else 0
        bounds.append(max(lo + 1, int(np.searchsorted(cumulative, done + budget, "right"))))
    return list(pairwise(bounds))
