"""Shared runs of words from winnowed word grams: every copied run of `min_run` words.

Passage fingerprints miss a few sentences spliced into one's own paragraph: the passage
holding them is mostly the writer's own text. Here every document is cut into grams of
`GRAM` tokens and *winnowed* (Schleimer, Wilkerson, Aiken, "Winnowing", SIGMOD 2003):
of every window of `window` consecutive grams the smallest is kept. Two documents sharing
a run of `window + GRAM - 1` tokens share a whole window, hence its kept gram: every such
run is found, whatever surrounds it. Kept grams are sorted by value; a value held by two
documents is a *seed*, and seeds on one diagonal are merged and extended word by word to
the maximal run (seed and extend).

A gram held by many documents (the passages' common-text rule) is *common text*
wherever it occurs (MOSS's `-m`): its tokens never count, so one boilerplate sentence
inside otherwise different pages no longer makes them partial copies. So is text fewer
documents share as a short paragraph of its own at their start or end, a course footer
(`boilerplate`), and text two documents hold as a printed page's chrome (running headers
and footers, banners and lists outside the body, as the PDF reader marks them). A run
shared with a reference document is template text. Winnowing
reads only each document's own tokens, so a document's kept grams never depend on the
rest of the scan (an archive keeps them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
from simsift.core.arrays import bounded_runs, pair_keys, ragged_arange, sorted_unique
from simsift.core.match.verbatim import GRAM
from simsift.core.text.quotations import CHROME
from simsift.core.text.tokens import TokenStream

_MUL = np.uint64(0x9E3779B97F4A7C15)
_NONE = np.uint64(np.iinfo(np.uint64).max)  # no gram here: never the smallest of a window
_WINNOW_CHUNK = 1 << 20  # grams winnowed at once, and tokens of documents put end to end
_POSITION_BITS = np.uint64((1 << 22) - 1)  # low bits of a gram that hold its place in a step
_SEED_CHUNK = 1 << 20  # seed pairs made at once
_ROW_CHUNK = 1 << 20  # kept grams, or tokens of a mask, handled at once
_EXTEND_TOKENS = 1 << 23  # tokens of seeded documents put end to end at once, per side
# one document's occurrences of one gram used as seeds: a sentence repeated all through
# a file would otherwise pair each of its copies with each of another file's
_MAX_PER_DOC = 8
_STEPS_AT_ONCE = 64  # tokens a run is extended one at a time, all runs at once
# boilerplate (`boilerplate`): a short paragraph of its own at a document's start or end
_EDGE_MAX_TOKENS = 40  # the longest paragraph that can be boilerplate: a sentence or two
_EDGE_PARAGRAPHS = 2  # among the first or last two paragraphs of own text ...
_HEADING_TOKENS = 10  # ... paragraphs of this many own tokens or fewer not counted
_EDGE_COVER = 0.75  # the shared run is (nearly) the whole paragraph ...
_EDGE_SLACK = 2  # ... and reaches at most this many tokens out of it
_EDGE_SHARE = 0.8  # of the documents holding the text, at least this share holds it so


@dataclass(frozen=True, slots=True)
class SharedRuns:
    """Maximal runs of tokens two documents share word for word, as parallel arrays.

    Document `left` < `right`; starts are positions in each document's body stream;
    `counted` leaves out the tokens set apart (quotations, the bibliography) in either.
    """

    left: np.ndarray  # int64
    right: np.ndarray  # int64
    start_left: np.ndarray  # int64
    start_right: np.ndarray  # int64
    length: np.ndarray  # int64
    counted: np.ndarray  # int64

    def __len__(self) -> int:
        return len(self.left)

    @classmethod
    def empty(cls) -> SharedRuns:
        return cls(*(np.zeros(0, np.int64) for _ in range(6)))

    def subset(self, keep: np.ndarray) -> SharedRuns:
        return SharedRuns(*(getattr(self, f)[keep] for f in self.__slots__))


@dataclass(frozen=True, slots=True)
class KeptGrams:
    """The winnowed grams of documents: value, document and position in its stream,
    sorted by (value, document, position)."""

    value: np.ndarray  # uint64
    doc: np.ndarray  # int32
    position: np.ndarray  # int32

    def __len__(self) -> int:
        return len(self.value)


class OutsideGramCounts(Protocol):
    """What `shared_runs` asks of the documents outside an analysis: per gram value, how
    many of them hold it (`documents_of`), and how many ordinary documents they are."""

    n_docs: int

    def documents_of(self, values: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True, slots=True)
class OutsideGrams:
    """Per gram value, the documents outside an analysis holding it (`values` sorted),
    and how many ordinary documents are outside: they count for common text."""

    values: np.ndarray  # uint64, sorted distinct
    documents: np.ndarray  # int64
    n_docs: int

    def documents_of(self, values: np.ndarray) -> np.ndarray:
        if len(self.values) == 0:
            return np.zeros(len(values), np.int64)
        at = np.searchsorted(self.values, values).clip(max=len(self.values) - 1)
        return np.where(self.values[at] == values, self.documents[at], 0)


@dataclass(frozen=True, slots=True)
class CommonRuns:
    """Stretches of common text to list, one per distinct text, most widespread first:
    an example (document, start in its stream, length), how many documents hold it and
    how many times it stands in them."""

    doc: np.ndarray  # int64
    start: np.ndarray  # int64
    length: np.ndarray  # int64
    documents: np.ndarray  # int64
    occurrences: np.ndarray  # int64

    def __len__(self) -> int:
        return len(self.doc)

    @classmethod
    def empty(cls) -> CommonRuns:
        return cls(*(np.zeros(0, np.int64) for _ in range(5)))


@dataclass(frozen=True)
class GramResult:
    """What the gram layer found: shared runs of ordinary documents (at least `min_run`
    tokens, outside left-out text), the global token masks of common and template text,
    and the common text to list."""

    runs: SharedRuns
    common: np.ndarray  # bool per global token
    template: np.ndarray  # bool per global token
    common_runs: CommonRuns


@dataclass(frozen=True)
class CommonRule:
    """When a gram is common text: held by more than `share` of the ordinary documents and
    by at least `min_docs`, or by more than `max_docs` (as for passages).

    `edge_docs`: text fewer documents hold is common too when it is boilerplate (a course
    footer, an honour-code statement): a short paragraph of its own at the start or the
    end of `edge_docs` documents or more (`boilerplate`); 0: never."""

    share: float
    min_docs: int
    max_docs: int
    edge_docs: int = 0

    def is_common(self, holders: np.ndarray, n_ordinary: int) -> np.ndarray:
        common = (holders > self.share * n_ordinary) & (holders >= self.min_docs)
        return common | (holders > self.max_docs)


def window_for(min_run: int) -> int:
    """Grams per winnowing window so that every shared run of `min_run` tokens is found."""
    return max(min_run, GRAM) - GRAM + 1


def concatenated(streams: Sequence[TokenStream]) -> tuple[np.ndarray, np.ndarray]:
    """(all body token hashes end to end, each document's first position and the end)."""
    lengths = np.array([len(s) for s in streams], dtype=np.int64)
    offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
    if len(streams) == 1:  # one huge file: its own array, not a copy of it
        return np.asarray(streams[0].hashes, np.uint64), offsets
    if not len(streams):
        return np.zeros(0, np.uint64), offsets
    return np.concatenate([np.asarray(s.hashes, np.uint64) for s in streams]), offsets


def set_apart_mask(streams: Sequence[TokenStream], kinds: Sequence[int]) -> np.ndarray | None:
    """Global mask of the tokens whose mark (`TokenStream.marks`: quotation, bibliography)
    is one of `kinds`: text that is never copying; None when there is none. Made a piece
    of documents at a time (no copy of every document's marks end to end)."""
    if not kinds or not streams:
        return None
    lengths = np.array([len(s) for s in streams], dtype=np.int64)
    mask, at = np.zeros(int(lengths.sum()), bool), 0
    for lo, hi in bounded_runs(lengths, _WINNOW_CHUNK):
        marks = [np.asarray(s.marks) for s in streams[lo:hi]]
        marks = marks[0] if len(marks) == 1 else np.concatenate(marks)
        for kind in kinds:
            mask[at : at + len(marks)] |= marks == kind
        at += len(marks)
    return mask if mask.any() else None


def kept_grams(
    streams: Sequence[TokenStream],
    shortest_run: int,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> KeptGrams:
    """`winnow` of the streams' tokens: what a scan keeps of them. A document's kept grams
    depend on its tokens alone, so the documents are winnowed a piece at a time (about a
    million tokens end to end, or one longer document as it is): the tokens of all
    documents are never copied end to end."""
    window = window_for(shortest_run)
    lengths = np.array([len(s) for s in streams], dtype=np.int64)
    total, done, pieces = int(lengths.sum()), 0, []
    for lo, hi in bounded_runs(lengths, _WINNOW_CHUNK):
        offsets = np.r_[0, np.cumsum(lengths[lo:hi])]
        hashes = [np.asarray(s.hashes, np.uint64) for s in streams[lo:hi]]
        hashes = hashes[0] if len(hashes) == 1 else np.concatenate(hashes)
        found = _winnowed(hashes, offsets, window, lambda d, t, at=done: progress(at + d, total))
        for piece in found:
            piece[1] += np.int32(lo)
        pieces += found
        done += len(hashes)
        del hashes
    progress(total, total)
    return _by_value(pieces, lambda: progress(total, total))


def winnow(
    hashes: np.ndarray,
    offsets: np.ndarray,
    window: int,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> KeptGrams:
    """The kept grams of every document (`hashes` end to end, `offsets` as `concatenated`).

    Of each window of `window` grams inside one document the
    smallest is kept, the rightmost of equals (robust winnowing); a document too short
    for a window keeps its smallest gram. What a document keeps depends on its tokens
    alone, never on the documents beside it.
    """
    found = _winnowed(hashes, np.asarray(offsets, np.int64), window, progress)
    progress(len(hashes), len(hashes))
    return _by_value(found)


def _winnowed(hashes, offsets, window: int, progress) -> list[list[np.ndarray]]:
    """[value, document, position in it] (uint64, int32, int32) of the kept grams of the
    documents of `hashes` (end to end, `offsets`), in pieces, in reading order."""
    n = len(hashes)
    starts = np.zeros(n + 1, bool)
    starts[offsets] = True
    reach = window + GRAM - 1  # tokens under one window
    pieces, last = [], -1
    for lo in range(0, max(n - reach + 1, 0), _WINNOW_CHUNK):
        progress(lo, n)
        stop = min(lo + _WINNOW_CHUNK + reach - 1, n)
        grams = _grams(hashes[lo:stop], starts[lo : stop + 1])
        at = _window_minima(grams, window, starts[lo + 1 : stop], reach)
        at = at[lo + at > last]  # steps overlap by a window: a gram may be kept by both
        # a document is under 2**31 tokens: positions in it fit 32 bits
        pieces.append([grams[at], None, (lo + at).astype(np.int32)])
        last = lo + int(at[-1]) if len(at) else last
        del grams, at
    del starts
    if len(offsets) == 2 and n >= reach:  # one document (a huge file): its pieces as they are
        for piece in pieces:
            piece[1] = np.zeros(len(piece[2]), np.int32)
        return pieces
    short = _short_documents(hashes, offsets, reach)
    value = np.concatenate([*(p[0] for p in pieces), short[1]]).astype(np.uint64, copy=False)
    position = np.concatenate([*(p[2] for p in pieces), short[0].astype(np.int32)])
    del pieces
    if len(short[0]):  # in place among the others: entries stay in reading order
        order = np.argsort(position, kind="stable")
        position, value = position[order], value[order]
    doc = (np.searchsorted(offsets, position, side="right") - 1).astype(np.int32)
    position -= offsets[doc].astype(np.int32)
    return [[value, doc, position]]


def _by_value(pieces: list[list[np.ndarray | None]], check=lambda: None) -> KeptGrams:
    """Kept grams from pieces of [value, document, position] in reading order, sorted by
    (value, document, position): in reading order, a stable sort by value does it. One
    field at a time is put together and reordered, its pieces dropped as it is made;
    `check` is called between them (Cancel)."""
    if not pieces:
        return KeptGrams(np.zeros(0, np.uint64), np.zeros(0, np.int32), np.zeros(0, np.int32))
    order, columns = None, []
    for field in range(3):
        check()
        parts = [piece[field] for piece in pieces]
        for piece in pieces:
            piece[field] = None
        column = parts[0] if len(parts) == 1 else np.concatenate(parts)
        del parts
        if order is None:
            order = _stable_order(column, check)
        columns.append(column[order])
        del column
    return KeptGrams(*columns)


def _stable_order(values: np.ndarray, check=lambda: None) -> np.ndarray:
    """`np.argsort(values, kind="stable")` of uint64 values, made a bucket of their top
    bits at a time with `check` (Cancel) between buckets: one sort of a hundred million
    kept grams held the scan for two seconds. The buckets are cut by a stable radix sort
    of their 8-bit numbers, so equal values keep their order."""
    if len(values) <= _ROW_CHUNK:
        return np.argsort(values, kind="stable")
    order, ends = _bucket_order(values, check)
    lo = 0
    for hi in ends.tolist():
        if hi > lo:
            check()
            within = order[lo:hi]
            within[:] = within[np.argsort(values[within], kind="stable")]
        lo = hi
    return order


def _bucket_order(values: np.ndarray, check) -> tuple[np.ndarray, np.ndarray]:
    """(the rows of uint64 `values` in the stable order of their top 8 bits, where each
    bucket ends), a counting sort made `_ROW_CHUNK` values at a time."""

    def buckets(lo: int) -> np.ndarray:
        return (values[lo : lo + _ROW_CHUNK] >> np.uint64(56)).astype(np.uint8)

    counts = np.zeros(256, np.int64)
    for lo in range(0, len(values), _ROW_CHUNK):
        check()
        counts += np.bincount(buckets(lo), minlength=256)
    ends = np.cumsum(counts)
    filled = ends - counts  # where each bucket's next row goes
    order = np.empty(len(values), np.int64)
    for lo in range(0, len(values), _ROW_CHUNK):
        check()
        bucket = buckets(lo)
        local = np.argsort(bucket, kind="stable")  # radix sort of 8-bit keys
        ordered = bucket[local]
        here = np.bincount(bucket, minlength=256)
        rank = np.arange(len(local)) - (np.cumsum(here) - here)[ordered]
        order[filled[ordered] + rank] = lo + local
        filled += here
    return order, ends


def _window_minima(grams, window: int, later_starts: np.ndarray, reach: int) -> np.ndarray:
    """Positions of the rightmost smallest gram of every window inside one document
    (`later_starts[i]`: a document starts at token i + 1).

    Each gram's low bits are replaced by its reversed position, so one running minimum
    gives the smallest value and, among equal values, the rightmost: minima over windows
    of 1, 2, 4, ... grams, the last two overlapping (a sparse table)."""
    count = len(grams) - window + 1
    if count <= 0:
        return np.zeros(0, np.int64)
    inside = ~_touches(later_starts, reach - 1)[:count]
    keys = (grams & ~_POSITION_BITS) | (_POSITION_BITS - np.arange(len(grams), dtype=np.uint64))
    span = 1
    while span * 2 <= window:
        keys = np.minimum(keys[:-span], keys[span:])
        span *= 2
    keys = np.minimum(keys[:count], keys[window - span : window - span + count])
    at = (_POSITION_BITS - (keys & _POSITION_BITS)).astype(np.int64)
    at = np.unique(at[inside])
    return at[grams[at] != _NONE]


def _short_documents(hashes, offsets, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """(position, value) of the smallest gram of each document too short for a window."""
    lengths = np.diff(offsets)
    short = np.flatnonzero((lengths >= GRAM) & (lengths < reach))
    doc, k = ragged_arange(lengths[short] - GRAM + 1)
    position = offsets[short][doc] + k
    value = np.zeros(len(position), np.uint64)
    for j in range(GRAM):
        with np.errstate(over="ignore"):
            value = value * _MUL + hashes[position + j]
    value = _mixed(value)
    order = np.lexsort((-position, value, doc))
    first = order[np.r_[True, doc[order][1:] != doc[order][:-1]]] if len(order) else order
    first = first[value[first] != _NONE]
    return position[first], value[first]


def _grams(hashes: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Gram value at each position of `hashes` (`_NONE` where a gram would cross into the
    next document, `starts` marking first tokens)."""
    n = len(hashes) - GRAM + 1
    grams = np.zeros(max(n, 0), np.uint64)
    if n <= 0:
        return grams
    with np.errstate(over="ignore"):
        for j in range(GRAM):
            grams = grams * _MUL + hashes[j : j + n]
    grams = _mixed(grams)
    grams[_touches(starts[1 : len(hashes)], GRAM - 1)] = _NONE
    return grams


def _mixed(grams: np.ndarray) -> np.ndarray:
    """Gram values with their high bits mixed down (the minimum is then unbiased) and
    never `_NONE`."""
    with np.errstate(over="ignore"):
        grams = (grams ^ (grams >> np.uint64(29))) * _MUL
    grams[grams == _NONE] -= np.uint64(1)
    return grams


def _touches(mask: np.ndarray, size: int) -> np.ndarray:
    """Per window start: whether any of the `size` entries from there is set."""
    prefix = np.r_[0, np.cumsum(mask, dtype=np.int64)]
    return (prefix[size:] - prefix[:-size]) > 0


def shared_runs(
    tokens: Sequence[TokenStream] | np.ndarray,
    offsets: np.ndarray,
    kept: KeptGrams,
    masks: tuple[np.ndarray, np.ndarray | None],
    is_reference: np.ndarray,
    min_run: int,
    rule: CommonRule,
    outside: OutsideGramCounts | None = None,
    progress: Callable[[int, int], None] = lambda done, total: None,
    paragraphs: tuple[np.ndarray, np.ndarray] | None = None,
) -> GramResult:
    """Common and template text, and the runs of at least `min_run` counted tokens that
    ordinary documents share outside them. `tokens`: the documents' body streams (or
    their hashes end to end, as `concatenated`), `offsets` their global starts; runs are
    extended in the documents seeds touch, put end to end a few at a time. `masks` are global
    token masks: (left out, set apart or None); a run stops at left-out text and runs
    through set-apart text (a quoted term inside a copied sentence) without counting it.

    `outside` adds the documents left out of the analysis to the counts that make a gram
    common (checking new documents against an archive). `paragraphs`: the global (start,
    stop) of every non-empty paragraph of the documents, in order: with them, boilerplate
    (`boilerplate`, `rule.edge_docs`) is common text too.
    """
    offsets = np.asarray(offsets, np.int64)
    n_tokens = int(offsets[-1])
    left_out, set_apart = masks
    value_id, holders, shared = _holders(kept, is_reference)
    progress(0, 1)  # Cancel between the passes over every kept gram
    n_ordinary = int((~is_reference).sum())
    if outside is not None:
        first = np.r_[True, kept.value[1:] != kept.value[:-1]] if len(kept) else np.zeros(0, bool)
        holders = holders + outside.documents_of(kept.value[first])
        n_ordinary += outside.n_docs
    common_value = rule.is_common(holders, n_ordinary)
    progress(0, 1)
    common = _gram_cover(kept, offsets, common_value[value_id], n_tokens, progress)
    progress(0, 1)
    # a common sentence loses up to a window at each end to its context: list from a gram
    listed = _common_runs(common, offsets, kept, (value_id, common_value, holders), GRAM, progress)
    progress(0, 1)
    # a common value pairs no one, nor one held by one document only
    seeds = _seeds(kept, value_id, common_value | ~shared, is_reference, progress)
    del value_id, holders, shared, common_value
    blocked = left_out | common
    ends = (
        kept.doc[seeds[0]],
        kept.position[seeds[0]],
        kept.doc[seeds[1]],
        kept.position[seeds[1]],
    )
    del seeds
    with_reference = is_reference[ends[0]] | is_reference[ends[2]]
    template_seeds = [e[with_reference] for e in ends]
    if with_reference.any():  # else the seeds as they are, not a copy
        ends = [e[~with_reference] for e in ends]
    del with_reference
    # template text first: it is left out of the runs between ordinary documents
    template_runs = _extended_by_blocks(tokens, offsets, blocked, template_seeds, progress)
    del template_seeds
    template = _template_cover(template_runs, is_reference, min_run, n_tokens)
    blocked |= template
    del template_runs
    progress(1, 1)  # between the bounded phases: Cancel is honoured
    runs = _extended_by_blocks(tokens, offsets, blocked, ends, progress)
    del blocked, ends
    runs = _counted(runs, set_apart)
    runs = runs.subset(runs.counted >= min_run)
    # a run counts by its own words: every gram of it held by as many documents as make
    # text common is common text, not only the winnowed ones (`common_words`)
    found = common_words(tokens, offsets, (runs, common), is_reference, rule, outside, progress)
    if found is not None:  # the runs as if it had been blocked: their other pieces
        fine, fine_listed = found
        runs = _counted(_cut_at(runs, fine), set_apart)
        runs = runs.subset(runs.counted >= min_run)
        common |= fine
        listed = _most_held_first(listed, fine_listed)
    if paragraphs is not None and rule.edge_docs > 0:
        chrome = None if isinstance(tokens, np.ndarray) else set_apart_mask(tokens, (CHROME,))
        found = boilerplate(runs, paragraphs, offsets, set_apart, rule.edge_docs, chrome)
        if found is not None:  # the runs as if it had been blocked: their other pieces
            edge, edge_listed = found
            runs = _counted(_cut_at(runs, edge), set_apart)
            runs = runs.subset(runs.counted >= min_run)
            common |= edge
            listed = _most_held_first(listed, edge_listed)
    progress(1, 1)
    return GramResult(_in_documents(runs, offsets), common, template, listed)


def common_words(
    tokens,
    offsets: np.ndarray,
    where: tuple[SharedRuns, np.ndarray],
    is_reference: np.ndarray,
    rule: CommonRule,
    outside: OutsideGramCounts | None = None,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> tuple[np.ndarray, CommonRuns] | None:
    """Common text inside shared runs that the winnowed grams miss: (global token mask of
    it, the text to list), None when there is none.

    A kept gram marks common text only where winnowing keeps it, and winnowing keeps a
    gram inside every stretch of `window + GRAM - 1` tokens only: a phrase of 8 to 14
    words that hundreds of documents hold (a man page's "#include <fcntl.h>" header line,
    "On success, 0 is returned", a block of #include lines) is common only where a kept
    gram happens to fall inside it. Two pages sharing it and a few words of their own
    beside it shared a run of 15 words, of which 13 were the phrase. So every gram of
    every shared run (positions global, as `shared_runs` finds them) is counted here: the
    ordinary documents holding it anywhere (`outside` adds the kept ones of documents left
    out of the analysis), and a gram held by as many as `rule` asks is common text
    wherever it occurs. `where`: (the runs, the common text the kept grams found): the
    grams touching that text are counted too, so a common phrase is common whole in every
    document, not only where a kept gram or a run lies. Two passes over the documents'
    grams, a piece at a time: the gram values to count, then their occurrences."""
    runs, common = where
    if not len(runs):
        return None
    n_docs = len(offsets) - 1
    lengths = np.diff(offsets)
    pieces = bounded_runs(lengths, _WINNOW_CHUNK)
    # the gram positions of every run, on its left side (the right holds the same grams)
    n_grams = np.maximum(runs.length - GRAM + 1, 0)
    owner, k = ragged_arange(n_grams)
    at = np.unique(runs.start_left[owner] + k)
    del owner, k
    values = []
    for lo, hi in pieces:
        progress(0, 1)
        hashes, starts = _piece(tokens, offsets, lo, hi)
        grams = _grams(hashes, starts)
        first, last = np.searchsorted(at, (offsets[lo], offsets[hi]))
        touching = _touches(common[offsets[lo] : offsets[hi]], GRAM)[: len(grams)]
        touching[at[first:last] - offsets[lo]] = True
        values.append(np.unique(grams[touching]))
        del touching
        del hashes, starts, grams
    values = sorted_unique(np.concatenate(values))
    values = values[values != _NONE]
    if not len(values):
        return None
    # every occurrence of those values, in any document
    found_value, found_at = [], []
    for lo, hi in pieces:
        progress(0, 1)
        hashes, starts = _piece(tokens, offsets, lo, hi)
        grams = _grams(hashes, starts)
        where = np.searchsorted(values, grams).clip(max=len(values) - 1)
        hit = np.flatnonzero(values[where] == grams)
        found_value.append(where[hit])
        found_at.append(offsets[lo] + hit)
        del hashes, starts, grams, where, hit
    value = np.concatenate(found_value)
    position = np.concatenate(found_at).astype(np.int64)
    doc = np.searchsorted(offsets, position, side="right") - 1
    ordinary = ~is_reference[doc]
    held = sorted_unique(pair_keys(value[ordinary], doc[ordinary], max(n_docs, 1)))
    holders = np.bincount(held // max(n_docs, 1), minlength=len(values))
    n_ordinary = int((~is_reference).sum())
    if outside is not None:
        holders = holders + outside.documents_of(values)
        n_ordinary += outside.n_docs
    common_value = rule.is_common(holders, n_ordinary)
    if not common_value.any():
        return None
    chosen = common_value[value]
    mask = cover(position[chosen], np.full(int(chosen.sum()), GRAM), int(offsets[-1]))
    # each text listed once: the stretches of it holding the same smallest common gram
    begin, stop = stretches(mask, offsets)
    value, position = value[chosen], position[chosen]
    key = np.full(len(begin), len(values), np.int64)
    np.minimum.at(key, np.searchsorted(begin, position, side="right") - 1, value)
    order = np.lexsort((stop - begin, key))
    example = order[np.r_[True, key[order][1:] != key[order][:-1]]]
    example = example[np.argsort(-holders[key[example]], kind="stable")]
    doc = np.searchsorted(offsets, begin[example], side="right") - 1
    listed = CommonRuns(
        doc,
        begin[example] - offsets[doc],
        stop[example] - begin[example],
        holders[key[example]].astype(np.int64),
        _times_each(key, key[example]),
    )
    return mask, listed


def _piece(tokens, offsets: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """(hashes of documents lo..hi end to end, where each starts: bool per token and the
    end) from the streams or the global array."""
    if isinstance(tokens, np.ndarray):
        hashes = tokens[offsets[lo] : offsets[hi]]
    else:
        parts = [np.asarray(s.hashes, np.uint64) for s in tokens[lo:hi]]
        hashes = parts[0] if len(parts) == 1 else np.concatenate(parts)
    starts = np.zeros(len(hashes) + 1, bool)
    starts[offsets[lo : hi + 1] - offsets[lo]] = True
    return hashes, starts


def boilerplate(
    runs: SharedRuns,
    paragraphs: tuple[np.ndarray, np.ndarray],
    offsets: np.ndarray,
    set_apart: np.ndarray | None,
    min_docs: int,
    chrome: np.ndarray | None = None,
) -> tuple[np.ndarray, CommonRuns] | None:
    """Text shared by a few documents that is boilerplate, not copying: (global token mask
    of it, the text to list), None when there is none.

    A course footer or an honour-code statement is a short paragraph of its own (at most
    `_EDGE_MAX_TOKENS` tokens, a third of its document) at the document's start or end
    (among its first or last `_EDGE_PARAGRAPHS` paragraphs of own text, headings, dates
    and set-apart text not counted). A shared run is *edge-shaped* when on both sides it
    is (nearly) the whole of such a paragraph (`_EDGE_COVER`) and hardly reaches out of it
    (`_EDGE_SLACK` tokens). Paragraphs joined by edge-shaped runs are one text; it is
    boilerplate when `min_docs` documents or more hold it so, and they are nearly all
    (`_EDGE_SHARE`) of the documents holding it: documents where the same words are only
    part of a paragraph (spliced into one's own prose) count against it. Its tokens are
    then common text wherever it is found so; a longer run reaching over it (a copied
    paragraph and the footer after it) keeps its other pieces. Text copied into a long
    paragraph, a long copied paragraph, or a ring of copies spliced into the students'
    own paragraphs is never boilerplate, whatever the number of documents.

    A printed page's chrome (`chrome`: the global mask of tokens so marked by the reader,
    `core.read.extract.pdf_chrome`) is boilerplate already in two documents: a run that is
    chrome in both (but for `_EDGE_SLACK` tokens at either end), wherever it stands and
    across the boxes it spans, is edge-shaped, and its text needs two such documents.

    `runs`: the shared runs of ordinary documents, positions global; `paragraphs`: global
    (start, stop) of every non-empty paragraph, in order.
    """
    p_start, p_stop = (np.asarray(x, np.int64) for x in paragraphs)
    if not len(runs) or not len(p_start) or min_docs < 2:
        return None
    p_doc = np.searchsorted(offsets, p_start, side="right") - 1
    size = p_stop - p_start
    own = size
    if set_apart is not None:
        inside = _set_before(set_apart, np.r_[p_start, p_stop])
        own = size - (inside[len(size) :] - inside[: len(size)])
    counts = own > _HEADING_TOKENS  # a paragraph of own text, not a heading or a date
    seen = np.cumsum(counts)  # counted paragraphs up to each, all documents on end
    first = np.searchsorted(p_doc, p_doc, side="left")
    last = np.searchsorted(p_doc, p_doc, side="right") - 1
    from_start = seen - counts - (seen[first] - counts[first])
    from_end = seen[last] - seen
    doc_size = np.diff(offsets)[p_doc]
    slot = counts & (np.minimum(from_start, from_end) < _EDGE_PARAGRAPHS)
    slot &= (size <= _EDGE_MAX_TOKENS) & (3 * size <= doc_size)
    printed = _chrome_runs(runs, chrome)
    if not slot.any() and not printed.any():
        return None

    def side(doc, start):
        """(paragraph of each run's middle, the run lies in it, the run is it)."""
        stop = start + runs.length
        p = (np.searchsorted(p_start, start + runs.length // 2, side="right") - 1).clip(0)
        within = (p_doc[p] == doc) & (start + runs.length // 2 < p_stop[p])
        within &= (start >= p_start[p] - _EDGE_SLACK) & (stop <= p_stop[p] + _EDGE_SLACK)
        covered = np.minimum(stop, p_stop[p]) - np.maximum(start, p_start[p])
        return p, within, within & slot[p] & (covered >= _EDGE_COVER * size[p])

    pa, in_a, shaped_a = side(runs.left, runs.start_left)
    pb, in_b, shaped_b = side(runs.right, runs.start_right)
    edge = (shaped_a & shaped_b) | printed
    if not edge.any():
        return None
    nodes = sorted_unique(np.r_[pa[edge], pb[edge]])
    label = _components(
        len(nodes), np.searchsorted(nodes, pa[edge]), np.searchsorted(nodes, pb[edge])
    )
    is_node = np.zeros(len(p_start), bool)
    is_node[nodes] = True
    # the same text, and only it, in another document but not as a paragraph of its own
    node_a, node_b = in_a & is_node[pa] & ~edge, in_b & is_node[pb] & ~edge
    group_a = np.where(node_a, label[np.searchsorted(nodes, pa).clip(max=len(nodes) - 1)], -1)
    group_b = np.where(node_b, label[np.searchsorted(nodes, pb).clip(max=len(nodes) - 1)], -1)
    n_docs = len(offsets) - 1
    edge_held = sorted_unique(pair_keys(label, p_doc[nodes], n_docs))
    also = sorted_unique(
        np.r_[
            pair_keys(group_a[node_a], runs.right[node_a], n_docs),
            pair_keys(group_b[node_b], runs.left[node_b], n_docs),
        ]
    )
    also = also[~np.isin(also, edge_held)]
    n_edge = np.bincount(edge_held // n_docs, minlength=len(nodes))
    held = n_edge + np.bincount(also // n_docs, minlength=len(nodes))
    group_edge = np.where(edge, label[np.searchsorted(nodes, pa).clip(max=len(nodes) - 1)], -1)
    # text every edge-shaped holder has as chrome: two documents are enough
    all_chrome = np.bincount(group_edge[edge & ~printed], minlength=len(nodes)) == 0
    chosen = (n_edge >= np.where(all_chrome, 2, min_docs)) & (n_edge >= _EDGE_SHARE * held)
    if not chosen.any():
        return None
    taken = (edge & chosen[group_edge]) | (node_a & chosen[group_a]) | (node_b & chosen[group_b])
    mask = cover(
        np.r_[runs.start_left[taken], runs.start_right[taken]],
        np.r_[runs.length[taken], runs.length[taken]],
        int(offsets[-1]),
    )
    # each text listed once, its shortest edge-shaped run the example
    rows = np.flatnonzero(edge & chosen[group_edge])
    order = np.lexsort((runs.length[rows], group_edge[rows]))
    rows = rows[order[np.r_[True, group_edge[rows][order][1:] != group_edge[rows][order][:-1]]]]
    doc = runs.left[rows]
    # a paragraph of its own in each document holding it as an edge, plus the others
    times = np.bincount(label, minlength=len(nodes)) + np.bincount(
        also // n_docs, minlength=len(nodes)
    )
    return mask, CommonRuns(
        doc,
        runs.start_left[rows] - offsets[doc],
        runs.length[rows],
        held[group_edge[rows]].astype(np.int64),
        times[group_edge[rows]].astype(np.int64),
    )


def _chrome_runs(runs: SharedRuns, chrome: np.ndarray | None) -> np.ndarray:
    """Per run (positions global), whether it is chrome in both documents but for
    `_EDGE_SLACK` tokens at either end."""
    if chrome is None or not len(runs):
        return np.zeros(len(runs), bool)
    k = len(runs)
    ends = np.r_[runs.start_left, runs.start_left + runs.length]
    ends = np.r_[ends, runs.start_right, runs.start_right + runs.length]
    before = _set_before(chrome, ends)
    in_left = before[k : 2 * k] - before[:k]
    in_right = before[3 * k :] - before[2 * k : 3 * k]
    least = runs.length - 2 * _EDGE_SLACK
    return (in_left >= least) & (in_right >= least)


def _components(n: int, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Per node of n, the smallest node of its connected component, given the edges
    (left[i], right[i]) (a vectorized union-find, as `analysis.cluster` does)."""
    labels = np.arange(n, dtype=np.int64)
    while len(left):
        ra, rb = labels[left], labels[right]
        differ = ra != rb
        if not differ.any():
            return labels
        np.minimum.at(labels, np.maximum(ra[differ], rb[differ]), np.minimum(ra, rb)[differ])
        while not np.array_equal(labels[labels], labels):
            labels = labels[labels]
    return labels


def _cut_at(runs: SharedRuns, mask: np.ndarray) -> SharedRuns:
    """`runs` (positions global) cut where either document's token is in `mask`: the runs
    blocking those tokens too would have given (`_merged`'s order)."""
    k = len(runs)
    ends = (runs.start_left, runs.start_left + runs.length)
    ends += (runs.start_right, runs.start_right + runs.length)
    before = _set_before(mask, np.concatenate(ends))
    hit = (before[k : 2 * k] > before[:k]) | (before[3 * k :] > before[2 * k : 3 * k])
    if not hit.any():
        return runs
    at_zero = np.zeros(int(max(runs.left.max(), runs.right.max())) + 1, np.int64)
    pieces = counted_pieces(runs.subset(hit), mask, at_zero)
    runs = SharedRuns(
        *(np.r_[getattr(runs, f)[~hit], getattr(pieces, f)] for f in SharedRuns.__slots__)
    )
    diagonal = runs.start_right - runs.start_left
    return runs.subset(np.lexsort((runs.start_left, diagonal, runs.right, runs.left)))


def _most_held_first(*listed: CommonRuns) -> CommonRuns:
    """Listed common text put together, most widespread first."""
    runs = CommonRuns(
        *(np.concatenate([getattr(x, f) for x in listed]) for f in CommonRuns.__slots__)
    )
    order = np.argsort(-runs.documents, kind="stable")
    return CommonRuns(*(getattr(runs, f)[order] for f in CommonRuns.__slots__))


def _extended_by_blocks(tokens, offsets, blocked, seeds, progress) -> SharedRuns:
    """`_extended` of seeds ((document, position) of the lower document's gram and of the
    other's, four arrays), positions global: the documents they touch are put end to end
    a pair of blocks at a time (consecutive seeded documents, about `_EXTEND_TOKENS`
    tokens a block), never all at once; the runs in `_merged`'s order."""
    doc_a, at_a, doc_b, at_b = seeds
    docs = sorted_unique(np.r_[doc_a, doc_b]).astype(np.int64)
    if not len(docs):
        return SharedRuns.empty()
    progress(0, 1)  # Cancel between the passes over every seed
    bounds = bounded_runs(np.diff(offsets)[docs], _EXTEND_TOKENS)
    block = np.repeat(np.arange(len(bounds)), [hi - lo for lo, hi in bounds])
    # each seed's documents' numbers in `docs`
    in_a = np.searchsorted(docs, doc_a).astype(np.int32)
    in_b = np.searchsorted(docs, doc_b).astype(np.int32)
    progress(0, 1)
    key = block[in_a] * len(bounds) + block[in_b]
    if len(bounds) ** 2 <= 1 << 16:  # numpy sorts 16-bit keys stably by radix: one pass
        key = key.astype(np.uint16)
    order = np.argsort(key, kind="stable")
    progress(0, 1)
    key = key[order]
    firsts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    found = []
    for first, stop in zip(firsts.tolist(), [*firsts[1:].tolist(), len(key)], strict=True):
        p, q = divmod(int(key[first]), len(bounds))  # lower document in p, the other in q
        (p_lo, p_hi), (q_lo, q_hi) = bounds[p], bounds[q]
        part = docs[p_lo:p_hi] if q == p else np.r_[docs[p_lo:p_hi], docs[q_lo:q_hi]]
        hashes, at, there = _documents(tokens, offsets, part, blocked)
        progress(0, 1)  # Cancel between putting a block pair end to end and its runs
        s = order[first:stop]
        a = at[in_a[s] - p_lo] + at_a[s]
        b = at[in_b[s] - (p_lo if q == p else q_lo - (p_hi - p_lo))] + at_b[s]
        found.append(_in_scan(_extended(hashes, at, there, a, b, progress), part, at, offsets))
        del hashes, there, a, b
        progress(1, 1)
    runs = SharedRuns(
        *(np.concatenate([getattr(r, f) for r in found]) for f in SharedRuns.__slots__)
    )
    diagonal = runs.start_right - runs.start_left
    return runs.subset(np.lexsort((runs.start_left, diagonal, runs.right, runs.left)))


def _documents(tokens, offsets, docs: np.ndarray, blocked: np.ndarray):
    """(hashes, starts and end, blocked mask) of the documents `docs` (sorted) end to end:
    the arrays themselves when they are all the documents."""
    every = len(docs) == len(offsets) - 1
    if every and not isinstance(tokens, np.ndarray):
        return concatenated(tokens)[0], offsets, blocked
    if every:
        return tokens, offsets, blocked
    at = np.r_[0, np.cumsum(np.diff(offsets)[docs])].astype(np.int64)
    if not len(docs):
        return np.zeros(0, np.uint64), at, np.zeros(0, bool)
    # consecutive documents are one slice of a global array
    first = np.flatnonzero(np.r_[True, np.diff(docs) != 1])
    last = np.r_[first[1:], len(docs)] - 1
    spans = list(zip(offsets[docs[first]].tolist(), offsets[docs[last] + 1].tolist(), strict=True))
    if isinstance(tokens, np.ndarray):
        hashes = np.concatenate([tokens[lo:hi] for lo, hi in spans])
    else:
        hashes = np.concatenate([tokens[d].hashes for d in docs.tolist()])
        hashes = hashes.astype(np.uint64, copy=False)
    return hashes, at, np.concatenate([blocked[lo:hi] for lo, hi in spans])


def _in_scan(runs: SharedRuns, docs: np.ndarray, at: np.ndarray, offsets) -> SharedRuns:
    """Runs among the documents `docs` put end to end at `at`, with their documents'
    numbers and global positions in the scan."""
    left, right = docs[runs.left], docs[runs.right]
    return SharedRuns(
        left,
        right,
        runs.start_left - at[runs.left] + offsets[left],
        runs.start_right - at[runs.right] + offsets[right],
        runs.length,
        runs.counted,
    )


def _common_runs(
    common, offsets, kept, values, min_length: int, progress=lambda done, total: None
) -> CommonRuns:
    """Maximal stretches of common text of `min_length` tokens or more, one per text: the
    stretches holding the same smallest kept gram are one text (that gram is kept
    wherever the text is, whatever surrounds it); the shortest is its example (a longer
    one runs on into other common text). `values`: (distinct value number of each kept
    gram, whether each value is common, how many documents hold it).

    A kept gram of a common value is common text, so it lies inside one stretch: each
    stretch's smallest is found going through the kept grams a piece at a time."""
    value_id, common_value, holders = values
    begin, stop = stretches(common, offsets, lambda: progress(0, 1))
    if not len(begin):
        return CommonRuns.empty()
    key = np.full(len(begin), _NONE)
    for lo in range(0, len(kept), _ROW_CHUNK):
        progress(0, 1)
        rows = lo + np.flatnonzero(common_value[value_id[lo : lo + _ROW_CHUNK]])
        start = offsets[kept.doc[rows]] + kept.position[rows]
        order = np.argsort(start)  # in reading order the searches and updates stay close
        stretch = np.searchsorted(begin, start[order], side="right") - 1
        np.minimum.at(key, stretch, kept.value[rows[order]])
        del rows, start, order, stretch
    progress(0, 1)
    found = (key != _NONE) & (stop - begin >= min_length)
    begin, stop, key = begin[found], stop[found], key[found]
    if not len(begin):
        return CommonRuns.empty()
    at = np.empty(len(key), np.int64)  # each key's row in `kept`, which is sorted
    for lo in range(0, len(key), _ROW_CHUNK):
        progress(0, 1)
        at[lo : lo + _ROW_CHUNK] = np.searchsorted(kept.value, key[lo : lo + _ROW_CHUNK])
    documents = holders[value_id[at]]
    del at
    progress(0, 1)
    length = stop - begin
    order = np.lexsort((length, key))
    progress(0, 1)
    example = order[np.r_[True, key[order][1:] != key[order][:-1]]]
    example = example[np.argsort(-documents[example], kind="stable")]
    doc = np.searchsorted(offsets, begin[example], side="right") - 1
    return CommonRuns(
        doc,
        begin[example] - offsets[doc],
        length[example],
        documents[example],
        _times_each(key, key[example]),
    )


def _times_each(keys: np.ndarray, listed: np.ndarray) -> np.ndarray:
    """How many of `keys` (one per stretch of common text) equal each of `listed`."""
    distinct, counts = np.unique(keys, return_counts=True)
    return counts[np.searchsorted(distinct, listed)].astype(np.int64)


def stretches(
    mask: np.ndarray, offsets: np.ndarray, check=lambda: None
) -> tuple[np.ndarray, np.ndarray]:
    """(starts, stops) of the runs of set entries of a global token mask, cut where a
    document starts; `check` (Cancel) between pieces of the mask."""
    edges = _edges(mask, check)
    check()
    starts, stops = edges[0::2], edges[1::2]
    inner = np.unique(offsets[1:-1])
    inner = inner[(inner > 0) & (inner < len(mask))]
    cuts = inner[mask[inner - 1] & mask[inner]]
    return np.sort(np.r_[starts, cuts]), np.sort(np.r_[stops, cuts])


def _edges(mask: np.ndarray, check=lambda: None) -> np.ndarray:
    """Where a mask's entries change (set after unset, and the reverse, the ends unset),
    a piece at a time."""
    view, found = mask.view(np.int8), []
    for lo in range(0, len(mask), _ROW_CHUNK):
        if lo % (16 * _ROW_CHUNK) == 0:
            check()
        before = view[lo - 1] if lo else np.int8(0)
        found.append(lo + np.flatnonzero(np.diff(view[lo : lo + _ROW_CHUNK], prepend=before)))
    if len(mask) and mask[-1]:
        found.append(np.array([len(mask)], np.int64))
    return np.concatenate(found).astype(np.int64, copy=False) if found else np.zeros(0, np.int64)


def counted_pieces(runs: SharedRuns, set_apart: np.ndarray | None, offsets) -> SharedRuns:
    """The runs (positions in their documents) cut where a token is set apart in either
    document: the pieces that count as copying, for each side's share."""
    if set_apart is None or not len(runs):
        return runs
    owner, k = ragged_arange(runs.length)
    left = offsets[runs.left[owner]] + runs.start_left[owner] + k
    right = offsets[runs.right[owner]] + runs.start_right[owner] + k
    at = np.flatnonzero(~(set_apart[left] | set_apart[right]))
    owner, k = owner[at], k[at]
    new = np.r_[True, (owner[1:] != owner[:-1]) | (np.diff(k) != 1)] if len(at) else at > 0
    first = np.flatnonzero(new)
    length = np.diff(np.r_[first, len(at)])
    run, k = owner[first], k[first]
    return SharedRuns(
        runs.left[run],
        runs.right[run],
        runs.start_left[run] + k,
        runs.start_right[run] + k,
        length,
        length,
    )


def _counted(runs: SharedRuns, set_apart: np.ndarray | None) -> SharedRuns:
    """`runs` with their tokens set apart in either document not counted (the larger of
    the two sides' counts: a quotation is one stretch of the same words in both)."""
    if set_apart is None:
        return replace(runs, counted=runs.length.copy())
    k = len(runs)
    ends = (runs.start_left, runs.start_left + runs.length)
    ends += (runs.start_right, runs.start_right + runs.length)
    before = _set_before(set_apart, np.concatenate(ends))
    in_left = before[k : 2 * k] - before[:k]
    in_right = before[3 * k :] - before[2 * k : 3 * k]
    return replace(runs, counted=runs.length - np.maximum(in_left, in_right))


def _set_before(mask: np.ndarray, at: np.ndarray) -> np.ndarray:
    """How many entries of `mask` are set before each position of `at`: a prefix sum
    made a piece at a time, read where asked."""
    found = np.zeros(len(at), np.int64)
    if not len(at):
        return found
    order = np.argsort(at, kind="stable")
    at = at[order]
    done = 0
    for lo in range(0, len(mask), _ROW_CHUNK):
        prefix = np.cumsum(mask[lo : lo + _ROW_CHUNK], dtype=np.int64)
        first, last = np.searchsorted(at, (lo + 1, lo + len(prefix) + 1))
        found[order[first:last]] = done + prefix[at[first:last] - lo - 1]
        done += int(prefix[-1])
    return found


def _holders(kept: KeptGrams, is_reference: np.ndarray) -> tuple[np.ndarray, ...]:
    """(distinct value number of each kept gram, ordinary documents holding each value,
    whether two documents or more hold it, reference ones too)."""
    if not len(kept):
        return np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0, bool)
    new_value = np.r_[True, kept.value[1:] != kept.value[:-1]]
    value_id = np.cumsum(new_value, dtype=np.int32)
    value_id -= 1
    n_values = int(value_id[-1]) + 1
    new_doc = np.r_[True, kept.doc[1:] != kept.doc[:-1]]
    new_doc |= new_value
    shared = np.zeros(n_values, bool)
    shared[value_id[new_doc & ~new_value]] = True
    del new_value
    new_doc &= ~is_reference[kept.doc]
    return value_id, np.bincount(value_id[new_doc], minlength=n_values), shared


def _gram_cover(
    kept: KeptGrams, offsets: np.ndarray, rows: np.ndarray, n_tokens: int, progress=None
):
    """Global mask of the tokens of the kept grams where `rows` is set, a piece at a time
    (`progress`, if given, is called between pieces: Cancel)."""
    mask = np.zeros(n_tokens, bool)
    for lo in range(0, len(kept), _ROW_CHUNK):
        if progress is not None:
            progress(0, 1)
        at = lo + np.flatnonzero(rows[lo : lo + _ROW_CHUNK])
        start = offsets[kept.doc[at]] + kept.position[at]
        for j in range(GRAM):
            mask[start + j] = True
    return mask


def _seeds(kept, value_id, never, is_reference, progress) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of kept-gram rows (i < j) holding one value in two documents, not both
    reference documents; values where `never` is set (common ones, a value is common in
    every document) and repeats past `_MAX_PER_DOC` give none."""
    rows = np.flatnonzero(~never[value_id])
    if not len(rows):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    group, doc = value_id[rows], kept.doc[rows]
    new_doc = np.r_[True, (group[1:] != group[:-1]) | (doc[1:] != doc[:-1])]
    del doc
    at = np.arange(len(rows), dtype=np.int32)
    rank = at - np.maximum.accumulate(np.where(new_doc, at, 0))
    del at, new_doc
    keep = rank < _MAX_PER_DOC
    rows, group = rows[keep], group[keep]
    del rank, keep
    progress(0, len(rows))
    # rows holding the value after row i in the same group: its seed partners
    later = np.searchsorted(group, group, side="right")
    later -= np.arange(len(rows)) + 1
    del group
    lefts, rights = [], []
    for lo, hi in bounded_runs(later, _SEED_CHUNK):
        progress(lo, len(rows))
        owner, k = ragged_arange(later[lo:hi])
        i = lo + owner
        j = i + 1 + k
        del owner, k
        i, j = rows[i], rows[j]
        keep = kept.doc[i] != kept.doc[j]
        keep &= ~(is_reference[kept.doc[i]] & is_reference[kept.doc[j]])
        lefts.append(i[keep])
        rights.append(j[keep])
    progress(len(rows), len(rows))
    if not lefts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(lefts), np.concatenate(rights)


def _extended(
    hashes, offsets, blocked, a: np.ndarray, b: np.ndarray, progress=lambda done, total: None
) -> SharedRuns:
    """Maximal runs around seed grams at global positions a (lower document) and b, merged
    along their diagonals; runs hold no `blocked` token. Positions stay global. `progress`
    is called between the passes (Cancel)."""
    clean = ~(_touches_at(blocked, a) | _touches_at(blocked, b))
    a, b = a[clean], b[clean]
    doc_a = np.searchsorted(offsets, a, side="right") - 1
    doc_b = np.searchsorted(offsets, b, side="right") - 1
    runs = _merged(doc_a, doc_b, a, b, np.full(len(a), GRAM, np.int64))
    del a, b, doc_a, doc_b
    progress(0, 1)
    start_a, start_b, length = runs.start_left, runs.start_right, runs.length
    _extend_back(hashes, blocked, offsets[runs.left], offsets[runs.right], start_a, start_b, length)
    progress(0, 1)
    _extend_on(
        hashes, blocked, offsets[runs.left + 1], offsets[runs.right + 1], start_a, start_b, length
    )
    progress(0, 1)
    return _merged(runs.left, runs.right, start_a, start_b, length)


def _touches_at(mask: np.ndarray, starts: np.ndarray) -> np.ndarray:
    hit = np.zeros(len(starts), bool)
    for j in range(GRAM):
        hit |= mask[starts + j]
    return hit


def _merged(doc_a, doc_b, start_a, start_b, length) -> SharedRuns:
    """Runs on one diagonal of one document pair that overlap or touch, as one run."""
    if not len(doc_a):
        return SharedRuns.empty()
    diagonal = start_b - start_a
    order = np.lexsort((start_a, diagonal, doc_b, doc_a))
    doc_a, doc_b, diagonal = doc_a[order], doc_b[order], diagonal[order]
    start_a, stop_a = start_a[order], start_a[order] + length[order]
    same_line = (doc_a[1:] == doc_a[:-1]) & (doc_b[1:] == doc_b[:-1])
    same_line &= diagonal[1:] == diagonal[:-1]
    # the furthest stop so far on the line decides whether the next run joins it
    line = np.cumsum(np.r_[True, ~same_line])
    span = int(stop_a.max()) + 1
    reach = np.maximum.accumulate(line * span + stop_a) - line * span
    joins = same_line & (start_a[1:] <= reach[:-1])
    first = np.flatnonzero(np.r_[True, ~joins])
    last = np.r_[first[1:], len(start_a)] - 1
    begin = start_a[first]
    length = reach[last] - begin
    return SharedRuns(doc_a[first], doc_b[first], begin, begin + diagonal[first], length, length)


def _extend_back(hashes, blocked, floor_a, floor_b, start_a, start_b, length) -> None:
    """Move each run's start back while both documents go on with the same token."""
    active = np.arange(len(start_a))
    for _ in range(_STEPS_AT_ONCE):
        if not len(active):
            return
        sa, sb = start_a[active] - 1, start_b[active] - 1
        ok = (sa >= floor_a[active]) & (sb >= floor_b[active])
        active, sa, sb = active[ok], sa[ok], sb[ok]
        ok = (hashes[sa] == hashes[sb]) & ~blocked[sa] & ~blocked[sb]
        active = active[ok]
        start_a[active] -= 1
        start_b[active] -= 1
        length[active] += 1
    for run in active.tolist():  # a long stretch without seeds: repeated text
        room = int(min(start_a[run] - floor_a[run], start_b[run] - floor_b[run]))
        more = _same_for(hashes, blocked, int(start_a[run]), int(start_b[run]), room, -1)
        start_a[run] -= more
        start_b[run] -= more
        length[run] += more


def _extend_on(hashes, blocked, end_a, end_b, start_a, start_b, length) -> None:
    """Lengthen each run while both documents go on with the same token."""
    active = np.arange(len(start_a))
    for _ in range(_STEPS_AT_ONCE):
        if not len(active):
            return
        sa, sb = start_a[active] + length[active], start_b[active] + length[active]
        ok = (sa < end_a[active]) & (sb < end_b[active])
        active, sa, sb = active[ok], sa[ok], sb[ok]
        ok = (hashes[sa] == hashes[sb]) & ~blocked[sa] & ~blocked[sb]
        active = active[ok]
        length[active] += 1
    for run in active.tolist():
        a, b = int(start_a[run] + length[run]), int(start_b[run] + length[run])
        room = int(min(end_a[run] - a, end_b[run] - b))
        length[run] += _same_for(hashes, blocked, a, b, room, 1)


def _same_for(hashes, blocked, a: int, b: int, room: int, direction: int) -> int:
    """How many tokens from a and b (backwards from before them when `direction` is -1)
    are the same and not blocked, at most `room`: blocks that double while they match
    and halve when they do not, so a stretch of n tokens costs O(log n) comparisons."""
    done, step = 0, _STEPS_AT_ONCE
    while step >= 1 and done < room:
        size = min(step, room - done)
        if direction > 0:
            xa, xb = slice(a + done, a + done + size), slice(b + done, b + done + size)
        else:
            xa, xb = slice(a - done - size, a - done), slice(b - done - size, b - done)
        if np.array_equal(hashes[xa], hashes[xb]) and not (blocked[xa].any() or blocked[xb].any()):
            done += size
            step *= 2
        else:
            step //= 2
    return done


def _template_cover(runs: SharedRuns, is_reference, min_run: int, n_tokens: int) -> np.ndarray:
    """Global mask of ordinary documents' tokens in runs of `min_run` shared with a
    reference document (runs' positions global)."""
    runs = runs.subset(runs.length >= min_run)
    start = np.where(~is_reference[runs.left], runs.start_left, runs.start_right)
    return cover(start, runs.length, n_tokens)


def cover(start: np.ndarray, length: np.ndarray, n_tokens: int) -> np.ndarray:
    """Mask of `n_tokens` positions with the ranges [start, start + length) set: the ranges
    merged where they overlap or touch, then one running sum of a byte a position."""
    start, length = np.asarray(start), np.asarray(length)
    nonempty = length > 0
    if not nonempty.any():
        return np.zeros(n_tokens, bool)
    begin = start[nonempty]
    order = np.argsort(begin, kind="stable")
    begin, stop = begin[order], (begin + length[nonempty])[order]
    reach = np.maximum.accumulate(stop)
    first = np.flatnonzero(np.r_[True, begin[1:] > reach[:-1]])
    delta = np.zeros(n_tokens + 1, np.int8)
    delta[begin[first]] = 1
    delta[reach[np.r_[first[1:] - 1, len(begin) - 1]]] = -1
    np.cumsum(delta[:n_tokens], dtype=np.int8, out=delta[:n_tokens])
    return delta[:n_tokens].view(bool)  # each position 0 or 1


def _in_documents(runs: SharedRuns, offsets: np.ndarray) -> SharedRuns:
    """Runs with global positions turned into positions in each document."""
    return replace(
        runs,
        start_left=runs.start_left - offsets[runs.left],
        start_right=runs.start_right - offsets[runs.right],
    )
