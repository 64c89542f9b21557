"""An earlier result reused for the documents it already holds: their passages,
fingerprints, matches and kept grams are carried over, not made again."""

from __future__ import annotations

import numpy as np
from simsift.core.arrays import pair_keys, ragged_arange, split_keys
from simsift.core.index.matches import Matches
from simsift.core.match.grams import KeptGrams, kept_grams
from simsift.core.match.passages.cutting import Passages, cut_passages
from simsift.core.match.passages.fingerprints import passage_fingerprints
from simsift.core.match.passages.options import PassageOptions


def passages_reusing(streams, weights, options: PassageOptions, known, progress):
    """`cut_passages` and `passage_fingerprints` of all streams, taken from `known` for the
    documents it already holds (same tokens and passage sizes: same passages, same
    fingerprints) and made for the others only; and per document, whether it was taken."""

    def check() -> None:  # Cancel between passes over every document
        progress(0, 1)

    check()  # the comparing stage ended with a pass of its own
    if known is None:
        passages = cut_passages(streams, options, check)
        made = passage_fingerprints(streams, passages, weights, options.shingle_size, progress)
        return passages, *made, np.zeros(passages.n_docs, bool)
    old_of, old = known
    lengths = np.array([len(s) for s in streams], dtype=np.int64)
    offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
    reused = old_of >= 0
    reused[reused] = old.passages.doc_lengths()[old_of[reused]] == lengths[reused]
    fresh = np.flatnonzero(~reused)
    sub_streams = [streams[d] for d in fresh]
    sub = cut_passages(sub_streams, options, check)
    sub_fingerprints, sub_features = passage_fingerprints(
        sub_streams, sub, weights, options.shingle_size, progress
    )
    # each document's rows come whole from one source: the old result or the fresh cut
    o = old.passages
    old_first, sub_first = o.first_of_docs(), sub.first_of_docs()
    first, count, base = (np.empty(len(streams), np.int64) for _ in range(3))
    was = old_of[reused]
    first[reused], count[reused], base[reused] = (
        old_first[was],
        np.diff(old_first)[was],
        o.offsets[was],
    )
    first[fresh], count[fresh], base[fresh] = sub_first[:-1], np.diff(sub_first), sub.offsets[:-1]
    doc, k = ragged_arange(count)
    rows, from_old, shift = first[doc] + k, reused[doc], (offsets[:-1] - base)[doc]

    def take(old_column, sub_column):
        out = np.empty(len(doc), old_column.dtype)
        out[from_old] = old_column[rows[from_old]]
        out[~from_old] = sub_column[rows[~from_old]]
        return out

    passages = Passages(
        doc,
        take(o.start, sub.start) + shift,
        take(o.stop, sub.stop) + shift,
        take(o.credit_stop, sub.credit_stop) + shift,
        take(o.para_start, sub.para_start),
        take(o.para_stop, sub.para_stop),
        offsets,
    )
    fingerprints = take(old.fingerprints, sub_fingerprints)
    return passages, fingerprints, take(old.n_features, sub_features), reused


def unchanged_documents(passages: Passages, ignore, reused, known, options) -> np.ndarray:
    """Documents whose passages were copied from `known` and are left out exactly as there."""
    old_of, old = known
    old_ignore = old.is_template | old.is_common | (old.n_features < options.min_features)
    first, old_first = passages.first_of_docs(), old.passages.first_of_docs()
    owner, k = ragged_arange(np.where(reused, np.diff(first), 0))
    differs = ignore[first[owner] + k] != old_ignore[old_first[old_of[owner]] + k]
    clean = reused.copy()
    clean[owner[differs]] = False
    return clean


def carried_matches(passages: Passages, known, clean: np.ndarray) -> Matches:
    """The earlier result's matches between two unchanged documents, in today's rows."""
    old_of, old = known
    new_of_old = np.full(old.passages.n_docs, -1, np.int64)
    new_of_old[old_of[clean]] = np.flatnonzero(clean)
    m = old.matches
    doc_l, doc_r = new_of_old[old.passages.doc[m.left]], new_of_old[old.passages.doc[m.right]]
    keep = (doc_l >= 0) & (doc_r >= 0)
    first, old_first = passages.first_of_docs(), old.passages.first_of_docs()
    old_doc = old.passages.doc
    left = first[doc_l[keep]] + m.left[keep] - old_first[old_doc[m.left[keep]]]
    right = first[doc_r[keep]] + m.right[keep] - old_first[old_doc[m.right[keep]]]
    return Matches(left, right, m.distance[keep])


def union_matches(passages: Passages, a: Matches, b: Matches) -> Matches:
    """Matches of two disjoint sets of document pairs, ordered by (left, right)."""
    if len(b) == 0:
        return a
    n = len(passages)
    keys = np.r_[pair_keys(a.left, a.right, n), pair_keys(b.left, b.right, n)]
    order = np.argsort(keys, kind="stable")
    distance = np.r_[a.distance, b.distance][order]
    return Matches(*split_keys(keys[order], n), distance)


def kept_reusing(streams, offsets, options: PassageOptions, known, reused, progress) -> KeptGrams:
    """The kept grams of every document, taken from `known` for the documents it holds
    (same tokens and shortest match: the same grams) and made for the others only."""
    if known is None or known[1].options.shortest_run != options.shortest_run:
        return kept_grams(streams, options.shortest_run, progress)
    old_of, old = known
    new_of_old = np.full(old.passages.n_docs, -1, np.int64)
    new_of_old[old_of[reused]] = np.flatnonzero(reused)
    doc = new_of_old[old.kept.doc]
    carried = doc >= 0
    fresh = np.flatnonzero(~reused)
    made = kept_grams([streams[d] for d in fresh], options.shortest_run, progress)
    value = np.r_[old.kept.value[carried], made.value]
    doc = np.r_[doc[carried], fresh[made.doc]]
    position = np.r_[old.kept.position[carried], made.position]
    order = np.lexsort((position, doc, value))
    return KeptGrams(value[order], doc[order], position[order])


def ranges_digest(ranges, offsets: np.ndarray) -> np.ndarray:
    """Per document, a 64-bit digest of its left-out ranges (`stretches`, global, cut at
    document starts): made from the ranges, not from every token, so a document that is
    all common text costs one range."""
    start, stop = ranges
    doc = np.searchsorted(offsets, start, side="right") - 1
    with np.errstate(over="ignore"):
        a = (start - offsets[doc] + 1).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        b = (stop - offsets[doc] + 1).astype(np.uint64) * np.uint64(0xC2B2AE3D27D4EB4F)
        mixed = a ^ (b >> np.uint64(7)) ^ (a >> np.uint64(31))
    digest = np.zeros(len(offsets) - 1, np.uint64)
    np.add.at(digest, doc, mixed)
    return digest


def old_digest(known, n_docs: int) -> np.ndarray:
    """Each document's digest in the earlier result (a value no digest takes if new)."""
    old_of, old = known
    out = np.full(n_docs, np.uint64(2**64 - 1))
    have = old_of >= 0
    out[have] = old.excluded_digest[old_of[have]]
    return out
