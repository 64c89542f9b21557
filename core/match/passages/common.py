"""Template and common text: which groups of passages match a reference document or are
found in many documents, counted without expanding them into passage pairs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import bounded_runs, pair_keys, ragged_arange, sorted_unique, split_keys
from simsift.core.index.matches import Matches
from simsift.core.index.pair_graph import Groups
from simsift.core.match.passages.cutting import Passages
from simsift.core.match.passages.options import PassageOptions

# a passage repeated this often (say one paragraph pasted all through a huge file) is common
# text whatever its document count: its passage pairs would grow with the square of it
_MAX_GROUP_PASSAGES = 1000
_SUM_CHUNK = 1 << 20  # pairs whose weights are summed at once
_HOLDER_CHUNK = 1 << 21  # (group, document) keys made at once to count distinct holders


@dataclass(frozen=True, slots=True)
class CommonText:
    """Passages found in many documents, most widespread first: a representative passage
    row, in how many documents and how many times (see `common_text`)."""

    passage: np.ndarray  # int64 passage row
    documents: np.ndarray  # int64
    occurrences: np.ndarray  # int64

    def __len__(self) -> int:
        return len(self.passage)


@dataclass(frozen=True, slots=True)
class OutsideCounts:
    """Counts that make a passage common, given from outside the analysis.

    Per passage: `documents` counts the distinct (document, fingerprint) pairs with a
    usable passage within `max_distance` of it, `passages` those passages, among the
    documents outside the analysis and the `counted` ones inside it (the analysis counts
    only the others); `n_docs` is the number of documents the counts cover (outside and
    counted). None of them are reference documents.
    """

    documents: np.ndarray  # int64 per passage
    passages: np.ndarray  # int64 per passage
    n_docs: int
    counted: np.ndarray  # bool per document of the analysis

    def of(self, rows: np.ndarray) -> OutsideCounts:
        return OutsideCounts(self.documents[rows], self.passages[rows], self.n_docs, self.counted)


def shared_groups(
    group, group_doc, is_reference, found: Matches, options: PassageOptions, check, outside=None
):
    """Per fingerprint group: template (holds or neighbours a reference passage), common
    (with its neighbours, in more than `common_share` and at least `common_min_docs` of
    the ordinary documents, or more than `common_max_docs` documents; or more than
    `_MAX_GROUP_PASSAGES` times, so no group pair expands quadratically), and its document count.
    `check` is called between the whole-array steps (Cancel: each is a pass over every
    passage or pair).
    """
    n_groups = int(group.max()) + 1 if len(group) else 0
    has_reference = np.zeros(n_groups, dtype=bool)
    has_reference[group[is_reference[group_doc]]] = True
    ordinary = ~is_reference[group_doc]
    n_docs = int(group_doc.max()) + 1 if len(group_doc) else 1
    keys = sorted_unique(pair_keys(group[ordinary], group_doc[ordinary], n_docs))
    check()
    docs_in = np.bincount(split_keys(keys, n_docs)[0], minlength=n_groups)
    counting, n_ordinary = ordinary, int((~is_reference).sum())
    if outside is not None:
        counting = ordinary & ~outside.counted[group_doc]
        n_ordinary += outside.n_docs - int((outside.counted & ~is_reference).sum())
        keys = sorted_unique(pair_keys(group[counting], group_doc[counting], n_docs))
    times_in = np.bincount(group[counting], minlength=n_groups)
    group_of, doc_of = split_keys(keys, n_docs)
    own = np.bincount(group_of, minlength=n_groups)
    check()
    summed, times = _with_neighbours(own, times_in, found)
    check()
    outside_docs = np.zeros(n_groups, np.int64)
    if outside is not None:  # equal per group: each group gets its value once
        outside_docs[group] = outside.documents
        times[group] += outside.passages

    def is_common(holders: np.ndarray) -> np.ndarray:
        common = holders > options.common_share * n_ordinary
        common &= holders >= options.common_min_docs
        return common | (holders > options.common_max_docs) | (times > _MAX_GROUP_PASSAGES)

    # the neighbours' summed counts bound the distinct ones from above,
    # and a group's own documents bound them from below: only groups common by the sums
    # and not by their own documents are counted exactly (the widespread ones are not)
    summed += outside_docs
    maybe = is_common(summed) & ~is_common(own + outside_docs)
    ptr = np.searchsorted(group_of, np.arange(n_groups + 1))
    holders = summed
    holders[maybe] = distinct_near(ptr, doc_of, found.left, found.right, maybe, check)[maybe]
    check()
    holders[maybe] += outside_docs[maybe]
    template = has_reference.copy()
    template[found.left[has_reference[found.right]]] = True
    template[found.right[has_reference[found.left]]] = True
    return template, is_common(holders), docs_in


def distinct_near(
    ptr: np.ndarray,
    docs: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    wanted: np.ndarray | None = None,
    check=lambda: None,
) -> np.ndarray:
    """Per value: the distinct documents holding it or a value it is paired with (0 for
    values not `wanted`, when given).

    Value v is held by `docs[ptr[v]:ptr[v + 1]]` (distinct); (left, right) pairs distinct
    values. Summing the neighbours' counts instead would count a document once per variant
    of its passage (a paragraph and the window starting at it read alike), so text in four
    documents could pass for ten. Made in bounded chunks of values, each picking its pairs
    by a scan of the pair arrays: sorting copies of tens of millions of pairs would be the
    archive scan's memory peak.
    """
    n_values = len(ptr) - 1
    n_docs = int(docs.max()) + 1 if len(docs) else 1
    held = np.diff(ptr)
    wanted = np.ones(n_values, bool) if wanted is None else wanted
    sides = []
    for target, source in ((left, right), (right, left)):
        counted = wanted[target]
        if np.count_nonzero(counted) < len(counted) // 2:
            # few pairs count (the undecided values): the chunks scan only those
            ids = np.int32 if n_values < 2**31 else np.int64
            target, source = target[counted].astype(ids), source[counted].astype(ids)
        sides.append((target, source))
    size = held.astype(np.float64)
    for target, source in sides:
        check()
        size += _summed_over_pairs(target, source, held)
    size[~wanted] = 0
    holders = np.zeros(n_values, np.int64)
    for lo_v, hi_v in bounded_runs(size, _HOLDER_CHUNK):
        if not size[lo_v:hi_v].any():
            continue
        check()
        values = lo_v + np.flatnonzero(wanted[lo_v:hi_v])
        own_owner, own_k = ragged_arange(held[values])
        parts = [pair_keys(values[own_owner], docs[ptr[values][own_owner] + own_k], n_docs)]
        for target, source in sides:
            rows = np.flatnonzero((target >= lo_v) & (target < hi_v))
            rows = rows[wanted[target[rows]]]
            near = source[rows]
            owner, k = ragged_arange(held[near])
            parts.append(pair_keys(target[rows][owner], docs[ptr[near][owner] + k], n_docs))
        counted = split_keys(sorted_unique(np.concatenate(parts)), n_docs)[0]
        holders[lo_v:hi_v] = np.bincount(counted - lo_v, minlength=hi_v - lo_v)
    return holders


def _with_neighbours(a: np.ndarray, b: np.ndarray, found: Matches):
    """Per group, each of two counts plus its neighbours' (pairs of distinct groups).

    Counts summing to under 2**26 each travel packed in one float64 (exact up to 2**53):
    one pass over the pairs instead of two (tens of millions of pairs on an archive)."""
    if a.sum() < 2**26 and b.sum() < 2**26:
        return np.divmod(near_sum(a * float(2**26) + b, found), 2**26)
    return near_sum(a, found), near_sum(b, found)


def near_sum(per_value: np.ndarray, pairs: Matches) -> np.ndarray:
    """Per value: its own count plus those of the values it is paired with (int64)."""
    near = _summed_over_pairs(pairs.left, pairs.right, per_value)
    near += _summed_over_pairs(pairs.right, pairs.left, per_value)
    return (per_value + near).astype(np.int64)


def _summed_over_pairs(target: np.ndarray, source: np.ndarray, per_value: np.ndarray):
    """Per value v: the sum of per_value[s] over the pairs (v, s), as float64, a chunk of
    pairs at a time: the weights of tens of millions of pairs gathered at once were the
    cold scan's memory peak."""
    out = np.zeros(len(per_value))
    for lo in range(0, len(target), _SUM_CHUNK):
        hi = lo + _SUM_CHUNK
        out += np.bincount(target[lo:hi], weights=per_value[source[lo:hi]], minlength=len(out))
    return out


def common_text(common: np.ndarray, groups: Groups, docs_in, passages: Passages) -> CommonText:
    """The common groups found in two or more documents, each shown by its first passage;
    one row per starting paragraph (a paragraph and the window starting at it read alike).
    Groups in one document are common as near variants of a listed one."""
    chosen = np.flatnonzero(common & (docs_in >= 2))
    chosen = chosen[np.argsort(-docs_in[chosen], kind="stable")]
    first = groups.rows[groups.ptr[chosen]]
    start_key = passages.doc[first] * (int(passages.para_stop.max(initial=0)) + 1)
    _, keep = np.unique(start_key + passages.para_start[first], return_index=True)
    keep.sort()
    return CommonText(
        first[keep],
        docs_in[chosen[keep]].astype(np.int64),
        groups.sizes[chosen[keep]].astype(np.int64),
    )
