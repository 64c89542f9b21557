"""Verbatim runs: the longest stretch of tokens two documents share word for word.

Passage fingerprints find documents that share text, including edited text; a run of
identical words is the evidence a reader trusts, and it separates copying from two texts
on one topic (near fingerprints, no sentence in common). A pair is partial when such a
run is long enough, whatever its share of either document ("N words in a row", as
WCopyfind and Turnitin report it). The gram layer (`core.match.grams`) finds every run of
the shortest match or longer; this module looks only at pairs with matched passages and
no such run, for a shorter one (the share rule's `SHARE_MIN_RUN`).

Runs are found with 8-token grams: the shorter document's grams are sorted and each gram
of the longer one is looked up among them; hits that keep the same offset on consecutive
positions form one run (a diagonal of the dot plot), `GRAM - 1 + hits` tokens long. Grams
that occur more than once in the shorter document are skipped (repeated phrases have no
one offset), and grams touching left-out tokens (template, common or reference text)
count for nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from simsift.core.text.tokens import TokenStream

GRAM = 8  # tokens per gram: shorter runs are not seen
# a pair reaching the share threshold must also hold a run this long: near passage
# fingerprints with no longer run are two texts on one topic, e.g. message catalogs of
# the form "convert to 16-bit" / "convert to 32-bit" (chosen on bench/quality)
SHARE_MIN_RUN = 12
_MUL = np.uint64(0x9E3779B97F4A7C15)
_REPORT_EVERY = 512  # pairs between progress reports (each checks Cancel)
_CHUNK = 1 << 20  # grams of the longer document looked up at once


class _SortedGrams:
    """One document's usable grams sorted by value, with their positions; built once."""

    __slots__ = ("positions", "unique", "values")

    def __init__(self, grams: np.ndarray) -> None:
        positions = np.flatnonzero(grams)
        order = np.argsort(grams[positions], kind="stable")
        self.values = grams[positions][order]
        self.positions = positions[order]
        same = self.values[1:] == self.values[:-1]
        self.unique = ~(np.r_[False, same] | np.r_[same, False])


def document_grams(hashes: np.ndarray, left_out: np.ndarray) -> np.ndarray:
    """Gram value per token position (0 where no whole usable gram starts)."""
    n = len(hashes) - GRAM + 1
    if n <= 0:
        return np.zeros(0, np.uint64)
    grams = np.zeros(n, np.uint64)
    with np.errstate(over="ignore"):
        for j in range(GRAM):
            grams = grams * _MUL + hashes[j : j + n]
    grams[grams == 0] = 1  # 0 means "no gram"
    blocked = np.convolve(left_out.astype(np.int32), np.ones(GRAM, np.int32), "valid") > 0
    grams[blocked] = 0
    return grams


def longest_run(
    sorted_a: _SortedGrams,
    hashes_b: np.ndarray,
    left_out_b: np.ndarray,
    between: Callable[[], None] = lambda: None,
) -> int:
    """Tokens in the longest run of b's grams found at one offset in a (0: none).

    b's grams are made and looked up `_CHUNK` at a time, so a huge b costs memory in
    proportion to its hits, not its length; `between` runs between chunks (Cancel).
    """
    at_parts, offset_parts = [], []
    n = len(hashes_b) - GRAM + 1
    for lo in range(0, max(n, 0), _CHUNK):
        if lo:
            between()
        stop = min(lo + _CHUNK, n) + GRAM - 1
        grams = document_grams(hashes_b[lo:stop], left_out_b[lo:stop])
        where = np.searchsorted(sorted_a.values, grams).clip(max=len(sorted_a.values) - 1)
        hit = (sorted_a.values[where] == grams) & sorted_a.unique[where] & (grams != 0)
        at = np.flatnonzero(hit)
        at_parts.append(lo + at)
        offset_parts.append(sorted_a.positions[where[at]] - (lo + at))
    at = np.concatenate(at_parts) if at_parts else np.zeros(0, np.int64)
    if len(at) == 0:
        return 0
    offset = np.concatenate(offset_parts)
    starts = np.flatnonzero(np.r_[True, (np.diff(at) != 1) | (np.diff(offset) != 0)])
    hits = np.diff(np.r_[starts, len(at)])
    return int(hits.max()) + GRAM - 1


def longest_runs(
    streams: Sequence[TokenStream],
    left_out: np.ndarray,
    offsets: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> np.ndarray:
    """Longest verbatim run (tokens) of each document pair; `left_out` is the global mask
    of tokens that count for nothing, `offsets` each document's first global token.
    `progress(done, total)` is called between bounded pieces (and may raise Cancelled)."""
    lengths = np.diff(offsets)
    # the shorter document's grams are sorted, one document at a time; the longer one's
    # are streamed past them
    swap = lengths[left] > lengths[right]
    short, long = np.where(swap, right, left), np.where(swap, left, right)
    order = np.argsort(short, kind="stable")
    out = np.zeros(len(left), np.int64)
    current, sorted_short = -1, None
    for n, i in enumerate(order.tolist()):
        if n % _REPORT_EVERY == 0:
            progress(n, len(order))
        a, b = int(short[i]), int(long[i])
        if a != current:
            current = a
            mask = left_out[offsets[a] : offsets[a + 1]]
            sorted_short = _SortedGrams(document_grams(_hashes(streams, a), mask))
        if len(sorted_short.values) == 0:
            continue
        mask = left_out[offsets[b] : offsets[b + 1]]
        out[i] = longest_run(
            sorted_short, _hashes(streams, b), mask, lambda n=n: progress(n, len(order))
        )
    progress(len(order), len(order))
    return out


def _hashes(streams: Sequence[TokenStream], d: int) -> np.ndarray:
    return np.asarray(streams[d].hashes, np.uint64)
