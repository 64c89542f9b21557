"""Passage matches across documents: seeds from the fingerprint index, extended along
their two documents (seed and extend, as in sequence alignment)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import pair_keys, sorted_unique, split_keys
from simsift.core.index.matches import Matches, hamming
from simsift.core.index.pair_graph import Groups, PairSearch
from simsift.core.match.passages.common import CommonText, OutsideCounts, common_text, shared_groups
from simsift.core.match.passages.cutting import Passages
from simsift.core.match.passages.options import PassageOptions
from simsift.core.progress import StepProgress

_EXTEND_WINDOW = 4  # passages either side of a match compared with each other when extending
_EXTEND_CHUNK = 1 << 14  # matches extended at once: × (2·window + 1)² candidate pairs
_EXPAND_CHUNK = 1 << 21  # passage pairs made at once from matched fingerprint groups
_MIN_LENGTH_RATIO = 0.8  # matched passages are about the same length


@dataclass(frozen=True, slots=True)
class _SharedText:
    is_template: np.ndarray  # bool per passage: matches a reference document
    is_common: np.ndarray  # bool per passage: found in many documents
    common_text: CommonText


def find_matches(
    passages: Passages,
    fingerprints: np.ndarray,
    usable: np.ndarray,
    is_reference: np.ndarray,
    options: PassageOptions,
    steps: StepProgress,
    pair_search: PairSearch,
    outside: OutsideCounts | None = None,
) -> tuple[Matches, _SharedText]:
    """Passage matches across documents and the template and common passages, without
    expanding template or common groups: a prompt in all of 10,000 essays would be
    50 million pairs.

    Passages are grouped by identical fingerprint; groups are matched with each other
    in the index, template and common groups are found and dropped, and only the
    remaining groups (at most `_MAX_GROUP_PASSAGES` passages each) are expanded back to
    passage pairs.
    """
    doc = passages.doc
    groups = Groups.of(fingerprints[usable], usable)
    found = pair_search(groups.values, options.max_distance, steps.step("index"), steps.cancel)
    steps.cancel.check()  # each step below takes a second or more on the man pages
    template, common, docs_in = shared_groups(
        groups.group,
        doc[usable],
        is_reference,
        found,
        options,
        steps.cancel.check,
        outside and outside.of(usable),
    )
    common &= ~template
    steps.cancel.check()
    shared = _SharedText(
        _per_passage(len(passages), usable, template[groups.group]),
        _per_passage(len(passages), usable, common[groups.group]),
        common_text(common, groups, docs_in, passages),
    )
    steps.cancel.check()
    matches = _concat_matches(
        (left[other], right[other], d[other])
        for left, right, d in steps.cancel.checked(
            groups.pairs_with(
                found.left, found.right, found.distance, _EXPAND_CHUNK, template | common
            )
        )
        for other in [doc[left] != doc[right]]
    )
    return matches, shared


def _per_passage(n: int, usable: np.ndarray, values: np.ndarray) -> np.ndarray:
    out = np.zeros(n, dtype=bool)
    out[usable] = values
    return out


def _concat_matches(parts) -> Matches:
    parts = list(parts)
    if not parts:
        return Matches.empty()
    return Matches(*(np.concatenate(x) for x in zip(*parts, strict=True)))


def extend_matches(
    passages: Passages,
    fingerprints: np.ndarray,
    seeds: Matches,
    ignore: np.ndarray,
    k: int,
    progress: Callable[[int, int], None],
) -> Matches:
    """The seeds and every passage pair within k reached from them along their documents.

    Around each match, the passages up to `_EXTEND_WINDOW` rows before and after it in
    its two documents are compared pairwise; new matches are extended the same way until
    none is found. Cost is proportional to the matches found, whatever the documents'
    lengths or how many documents share some text. Passages of very different length do
    not match: a passage run on over a short paragraph is close to the next paragraph
    alone without being its copy.
    """
    n = len(passages)
    known = sorted_unique(pair_keys(seeds.left, seeds.right, n))
    frontier, done = known, 0
    while len(frontier):
        found = []
        for lo in range(0, len(frontier), _EXTEND_CHUNK):
            keys = _neighbour_matches(
                passages, fingerprints, frontier[lo : lo + _EXTEND_CHUNK], ignore, k
            )
            found.append(keys[~contains(known, keys)])
            done += min(_EXTEND_CHUNK, len(frontier) - lo)
            progress(done, len(known))
        frontier = sorted_unique(np.concatenate(found))
        # two sorted runs: the stable sort merges them in linear time
        known = np.sort(np.concatenate([known, frontier]), kind="stable")
    progress(1, 1)
    left, right = split_keys(known, n)
    distance = hamming(fingerprints[left], fingerprints[right]).astype(np.int8)
    return Matches(left, right, distance)


def _neighbour_matches(passages, fingerprints, keys, ignore, k) -> np.ndarray:
    """Keys (left · n + right) of the pairs within k around the matches `keys`."""
    n = len(passages)
    steps = np.arange(-_EXTEND_WINDOW, _EXTEND_WINDOW + 1)
    di, dj = (x.ravel() for x in np.meshgrid(steps, steps, indexing="ij"))
    a, b = split_keys(keys, n)
    left = (a[:, None] + di[None, :]).ravel()
    right = (b[:, None] + dj[None, :]).ravel()
    inside = (left >= 0) & (left < n) & (right >= 0) & (right < n)
    origin_a, origin_b = np.repeat(a, len(di))[inside], np.repeat(b, len(dj))[inside]
    left, right = left[inside], right[inside]
    doc = passages.doc
    same = (doc[left] == doc[origin_a]) & (doc[right] == doc[origin_b])
    left, right = left[same], right[same]
    size = passages.stop - passages.start
    size_l, size_r = size[left], size[right]
    keep = (
        (hamming(fingerprints[left], fingerprints[right]) <= k)
        & (np.minimum(size_l, size_r) >= _MIN_LENGTH_RATIO * np.maximum(size_l, size_r))
        & ~ignore[left]
        & ~ignore[right]
    )
    return sorted_unique(pair_keys(left[keep], right[keep], n))


def contains(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if len(sorted_keys) == 0:
        return np.zeros(len(keys), dtype=bool)
    pos = np.searchsorted(sorted_keys, keys).clip(max=len(sorted_keys) - 1)
    return sorted_keys[pos] == keys
