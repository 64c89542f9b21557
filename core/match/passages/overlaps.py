"""Containment and overlap of every document pair with matched passages or shared runs:
`PairOverlaps`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise

import numpy as np
from simsift.core.arrays import pair_keys, split_keys
from simsift.core.index.matches import Matches
from simsift.core.match.grams import SharedRuns
from simsift.core.match.passages.cutting import Passages
from simsift.core.match.passages.matching import contains
from simsift.core.match.verbatim import SHARE_MIN_RUN, longest_runs
from simsift.core.progress import CancelToken

_OVERLAP_CHUNK = 1 << 20  # matched passages measured at once for containment
_MASK_CHUNK = 1 << 24  # tokens of a mask summed at once


@dataclass(frozen=True, slots=True)
class PairOverlaps:
    """Documents pairs (left < right) sharing non-template passages, as parallel arrays.

    `matched_*` count each side's non-template tokens inside matched passages;
    `containment_ab` is the share of left's non-template tokens found in right,
    `containment_ba` the reverse, `overlap` the symmetric share (both sides' matched tokens
    over both sides' own tokens); `longest_run` the most tokens the two share in a row,
    outside template and common text (0 when under `core.match.verbatim.GRAM`).
    """

    left: np.ndarray  # int64
    right: np.ndarray  # int64
    matched_left: np.ndarray  # int64
    matched_right: np.ndarray  # int64
    containment_ab: np.ndarray  # float64
    containment_ba: np.ndarray  # float64
    overlap: np.ndarray  # float64
    longest_run: np.ndarray  # int64

    def __len__(self) -> int:
        return len(self.left)

    def subset(self, keep: np.ndarray) -> PairOverlaps:
        return PairOverlaps(*(getattr(self, f)[keep] for f in self.__slots__))

    def at_least(self, threshold: float, min_run: int = 0) -> PairOverlaps:
        """The pairs whose larger containment is at least `threshold` with a verbatim run
        of `SHARE_MIN_RUN` tokens, or (when `min_run` > 0) that share `min_run` tokens in
        a row: matched passages without such a run are two texts on one topic."""
        keep = np.maximum(self.containment_ab, self.containment_ba) >= threshold
        keep &= self.longest_run >= SHARE_MIN_RUN
        if min_run > 0:
            keep |= self.longest_run >= min_run
        return self.subset(keep)


def covered_mask(passages: Passages, chosen: np.ndarray, check=lambda: None) -> np.ndarray:
    """Global bool mask of the tokens inside any chosen passage, summed a piece at a time
    with `check` (Cancel) between pieces."""
    total = int(passages.offsets[-1])
    delta = np.zeros(total + 1, dtype=_count_type(total))
    np.add.at(delta, passages.start[chosen], 1)
    np.add.at(delta, passages.stop[chosen], -1)
    mask = np.empty(total, bool)
    inside = 0  # chosen passages open at the piece's start
    for lo in range(0, total, _MASK_CHUNK):
        check()
        part = np.cumsum(delta[lo : min(lo + _MASK_CHUNK, total)], dtype=delta.dtype)
        part += inside
        np.greater(part, 0, out=mask[lo : lo + len(part)])
        inside = part[-1]
    return mask


def _count_type(total: int):
    """The smallest integer type for counts up to `total` (a token count: 32 bits usually)."""
    return np.int32 if total < 1 << 31 else np.int64


def _prefix_counts(mask: np.ndarray) -> np.ndarray:
    """prefix[i] = number of set entries in mask[:i]."""
    prefix = np.zeros(len(mask) + 1, dtype=_count_type(len(mask)))
    np.cumsum(mask, dtype=prefix.dtype, out=prefix[1:])
    return prefix


def per_doc_sum(mask: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    prefix = _prefix_counts(mask)
    return (prefix[offsets[1:]] - prefix[offsets[:-1]]).astype(np.int64)


def pair_overlaps(
    passages: Passages,
    matches: Matches,
    runs: SharedRuns,
    excluded_mask: np.ndarray,
    excluded_tokens: np.ndarray,
    cancel: CancelToken,
) -> PairOverlaps:
    """Containment and overlap of every document pair with matched passages or shared runs."""
    n_docs = max(passages.n_docs, 1)
    keys, counts = _matched_tokens(passages, matches, runs, excluded_mask, cancel)
    owner, other = split_keys(keys, n_docs)
    # fold (owner, other) and (other, owner) into one row per pair, left < right
    forward = owner < other
    left = np.where(forward, owner, other)
    right = np.where(forward, other, owner)
    keys, row = np.unique(pair_keys(left, right, n_docs), return_inverse=True)
    matched_left = np.zeros(len(keys), np.int64)
    matched_right = np.zeros(len(keys), np.int64)
    matched_left[row[forward]] = counts[forward]
    matched_right[row[~forward]] = counts[~forward]
    left, right = split_keys(keys, n_docs)
    own_tokens = passages.doc_lengths() - excluded_tokens
    size_l, size_r = own_tokens[left], own_tokens[right]
    return PairOverlaps(
        left,
        right,
        matched_left,
        matched_right,
        _share(matched_left, size_l),
        _share(matched_right, size_r),
        _share(matched_left + matched_right, size_l + size_r),
        np.zeros(len(left), np.int64),
    )


def with_runs(overlaps: PairOverlaps, streams, passages, left_out, known, clean, found, progress):
    """`overlaps` with each pair's longest verbatim run.

    The gram layer's shared runs (`found`: runs, sorted keys of the pairs with matched
    passages) are every run of the shortest match or longer, so a pair holding one has
    its longest run there. Only pairs with matched passages and no such run are
    compared token by token, for a run between a gram and the shortest match (the share
    rule's `SHARE_MIN_RUN`); a pair of two documents whose tokens and left-out text are
    as in `known` keeps the run found then."""
    shared, passage_pairs = found
    n = max(passages.n_docs, 1)
    keys = pair_keys(overlaps.left, overlaps.right, n)
    runs = np.zeros(len(overlaps), np.int64)
    if len(shared):
        row = np.searchsorted(keys, pair_keys(shared.left, shared.right, n))
        np.maximum.at(runs, row, shared.counted)
    todo = (runs == 0) & contains(passage_pairs, keys)
    if known is not None and clean.any():
        old_of, old = known
        both = np.flatnonzero(todo & clean[overlaps.left] & clean[overlaps.right])
        row = old.pair_index(old_of[overlaps.left[both]], old_of[overlaps.right[both]])
        runs[both[row >= 0]] = old.overlaps.longest_run[row[row >= 0]]
        todo[both[row >= 0]] = False
    todo = np.flatnonzero(todo)
    runs[todo] = longest_runs(
        streams, left_out, passages.offsets, overlaps.left[todo], overlaps.right[todo], progress
    )
    return replace(overlaps, longest_run=runs)


def _matched_tokens(
    passages: Passages,
    matches: Matches,
    runs: SharedRuns,
    excluded_mask: np.ndarray,
    cancel: CancelToken,
):
    """Per (owner document, other document) key: the owner's non-template tokens covered
    by its passages matched in the other or its runs shared with it, in bounded steps
    aligned to whole keys."""
    prefix = _prefix_counts(excluded_mask)
    cancel.check()
    group, start, stop = _matched_spans(passages, matches, runs, prefix)
    cancel.check()
    order = np.lexsort((start, group))
    group, start, stop = group[order], start[order], stop[order]
    del order
    keys, counts = [], []
    for lo, hi in _aligned_runs(group, _OVERLAP_CHUNK):
        cancel.check()
        k, c = _covered_not_excluded(group[lo:hi], start[lo:hi], stop[lo:hi], prefix)
        keys.append(k)
        counts.append(c)
    if not keys:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(keys), np.concatenate(counts)


def _matched_spans(passages: Passages, matches: Matches, runs: SharedRuns, prefix: np.ndarray):
    """(owner-other key, global start, stop) of every matched passage and shared run,
    once from each side. A passage matched to one that is mostly left out in its own
    document (quoted there, template or common text) counts for neither: the words a
    classmate quotes are not copied from the classmate (`prefix`: left-out tokens before
    each global token)."""
    n_docs = max(passages.n_docs, 1)
    doc, offsets = passages.doc, passages.offsets
    own = np.r_[matches.left, matches.right]  # passage whose tokens are counted
    other = np.r_[matches.right, matches.left]
    left_out = prefix[passages.stop[other]] - prefix[passages.start[other]]
    counted = left_out * 2 < passages.stop[other] - passages.start[other]
    own, other = own[counted], other[counted]
    run_owner, run_other = np.r_[runs.left, runs.right], np.r_[runs.right, runs.left]
    run_start = np.r_[runs.start_left, runs.start_right] + offsets[run_owner]
    length = np.r_[runs.length, runs.length]
    return (
        np.r_[pair_keys(doc[own], doc[other], n_docs), pair_keys(run_owner, run_other, n_docs)],
        np.r_[passages.start[own], run_start],
        np.r_[passages.credit_stop[own], run_start + length],
    )


def _aligned_runs(sorted_keys: np.ndarray, budget: int) -> list[tuple[int, int]]:
    """Ranges of about `budget` items of a sorted array, never splitting equal keys."""
    bounds = [0]
    while bounds[-1] < len(sorted_keys):
        cut = min(bounds[-1] + budget, len(sorted_keys))
        if cut < len(sorted_keys):  # move the cut to the end of the key it falls in
            cut = int(np.searchsorted(sorted_keys, sorted_keys[cut - 1], side="right"))
        bounds.append(cut)
    return list(pairwise(bounds))


def _covered_not_excluded(group, start, stop, prefix):
    """Per group: non-template tokens in the union of its [start, stop) intervals.

    Input is sorted by (group, start); `prefix` counts template tokens.
    """
    first = np.r_[True, group[1:] != group[:-1]]
    rank = np.cumsum(first) - 1
    # running max of earlier stops within the group (rank lifts each group above the last)
    span = int(stop.max()) + 1
    lifted = np.maximum.accumulate(rank * span + stop)
    reach = np.r_[0, lifted[:-1]] - rank * span
    reach[first] = 0
    lo = np.maximum(start, reach)
    hi = np.maximum(stop, lo)
    fresh = (hi - lo) - (prefix[hi] - prefix[lo])
    counts = np.bincount(rank, weights=fresh).astype(np.int64)
    return group[first], counts


def _share(part: np.ndarray, whole: np.ndarray) -> np.ndarray:
    return np.minimum(np.divide(part, whole, out=np.zeros(len(part)), where=whole > 0), 1.0)
