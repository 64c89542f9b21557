"""Passages and partial copying: passage fingerprints, template text, containment.

Each document's body token stream is cut into passages along paragraph boundaries.
Every paragraph is a passage (one longer than `max_tokens` is cut into equal pieces),
and a paragraph shorter than `min_tokens` also starts a passage that runs on over the
following paragraphs until it holds `min_tokens` tokens, so passages overlap. Anchoring
passages at every paragraph start makes a copied run of paragraphs produce the same
passages in the copy as in the source wherever the run starts; merging paragraphs into
disjoint groups would not.

Every passage gets a SimHash fingerprint from the same features as whole documents
(computed for all passages at once on flat arrays), all passages go into one
`HammingIndex`, and passages of different documents within `max_distance` match.
SimHash of ~50 features is noisy (a few changed words move it 5-15 bits), so every
match is extended along its two documents: the passages around it, in both, are
compared at the looser `extend_distance`, and each new match is extended in turn
(seed and extend, as in sequence alignment). Work follows the matches, never the
product of two documents' passage counts.

Template text (passages matching a reference document) and common text (passages
found in many documents: licences, boilerplate, an unmarked prompt, site chrome)
never count. Containment(A in B) is the share of A's non-template tokens covered by
passages that match a passage of B; their overlap is the symmetric share
(matched_a + matched_b) / (tokens_a + tokens_b).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

import numpy as np
from simsift.core.arrays import bounded_runs, pair_keys, ragged_arange, sorted_unique, split_keys
from simsift.core.index.matches import Matches, hamming
from simsift.core.index.pair_graph import Groups, PairSearch, search_pairs
from simsift.core.match.grams import (
    CommonRule,
    CommonRuns,
    KeptGrams,
    OutsideGrams,
    SharedRuns,
    counted_pieces,
    kept_grams,
    set_apart_mask,
    shared_runs,
    stretches,
)
from simsift.core.match.meaning.matches import MeaningMatches
from simsift.core.match.same_text import credit_same_text
from simsift.core.match.verbatim import GRAM, SHARE_MIN_RUN, longest_runs
from simsift.core.progress import CancelToken, ProgressCallback, StepProgress, no_progress
from simsift.core.text.features import FeatureWeights, combine_features, token_weights
from simsift.core.text.quotations import BIBLIOGRAPHY, QUOTATION
from simsift.core.text.simhash import simhash_features
from simsift.core.text.tokens import TokenStream

_EXTEND_WINDOW = 4  # passages either side of a match compared with each other when extending
_EXTEND_CHUNK = 1 << 14  # matches extended at once: × (2·window + 1)² candidate pairs
_EXPAND_CHUNK = 1 << 21  # passage pairs made at once from matched fingerprint groups
# passage tokens fingerprinted at once: bounded memory, and numpy calls short enough
# that a GUI thread waiting for the GIL is never held up for long
_FINGERPRINT_CHUNK = 1 << 19
# a passage repeated this often (say one paragraph pasted all through a huge file) is common
# text whatever its document count: its passage pairs would grow with the square of it
_MAX_GROUP_PASSAGES = 1000
_OVERLAP_CHUNK = 1 << 20  # matched passages measured at once for containment
_SUM_CHUNK = 1 << 20  # pairs whose weights are summed at once
_MASK_CHUNK = 1 << 24  # tokens of a mask summed at once
_HOLDER_CHUNK = 1 << 21  # (group, document) keys made at once to count distinct holders
_MIN_LENGTH_RATIO = 0.8  # matched passages are about the same length
_DEFAULT_SHORTEST_RUN = 15  # the words-in-a-row rule's default
# boilerplate is common text in more than 1/_EDGE_FRACTION of the documents that make any
# text common ("Common text above"), and in at least _EDGE_MIN_DOCS
_EDGE_FRACTION = 5
_EDGE_MIN_DOCS = 3


@dataclass(frozen=True)
class PassageOptions:
    """How passages are cut, matched and judged.

    Args:
        min_tokens: a passage runs over following paragraphs until it has this many tokens.
        max_tokens: longer paragraphs are cut into equal pieces of at most this many tokens.
        max_distance: passages whose fingerprints differ in at most this many bits match.
        extend_distance: between two documents that share a passage, other passages
            match up to this distance.
        shingle_size: features of a passage are n-token shingles (2 separates short
            passages better than single words; see docs/partial-copying.md).
        min_features: passages with fewer distinct features are too short to fingerprint.
        common_share: a passage found in more than this share of the documents ...
        common_min_docs: ... and in at least this many documents is common text;
        common_max_docs: so is a passage found in more than this many documents, however
            many there are (MOSS's `-m`, Dolos's maximum fingerprint share): licences and
            boilerplate in an archive, a prompt shared by a group of essays.
        partial_threshold: a pair is partial when either containment reaches this and
            the two share a verbatim run (`core.match.verbatim.SHARE_MIN_RUN` tokens) ...
        partial_min_run: ... or when the two documents share this many tokens in a row
            (0: by share only), so a source making up 10% of an essay is reported
            although its share is under the threshold (left-out text does not count).
            Shared runs of words shorter than this are no match at all (`shortest_run`).
        count_quotations: text inside quotation marks counts as copying (by default it
            is set apart: shown, never counted).
        count_bibliography: the references section counts as copying (set apart too).
        paraphrase: find passages whose words were changed but whose sentences say the
            same (`core.match.meaning`), reported apart from word-for-word copying. Off by
            default: on a real archive (man pages) most of what it finds is pages of one
            family saying similar things, not copying (docs/quality.md); a teacher turns
            it on for a class.
        translation: find passages translated between Chinese and English, apart too;
            a collection in one language costs nothing.
    """

    min_tokens: int = 60
    max_tokens: int = 200
    max_distance: int = 8
    extend_distance: int = 12
    shingle_size: int = 1
    min_features: int = 8
    common_share: float = 0.2
    common_min_docs: int = 5
    common_max_docs: int = 10
    partial_threshold: float = 0.2
    partial_min_run: int = 15  # chosen on bench/quality (bench/quality/partial_sweep.py)
    count_quotations: bool = False
    count_bibliography: bool = False
    paraphrase: bool = False
    translation: bool = True

    @property
    def meaning_kinds(self) -> tuple[str, ...]:
        """The kinds of copying by meaning to find (`core.match.meaning.matches.KINDS`)."""
        return tuple(
            kind
            for kind, on in (("paraphrased", self.paraphrase), ("translated", self.translation))
            if on
        )

    @property
    def shortest_run(self) -> int:
        """Shared runs of words shorter than this are not matches (WCopyfind's shortest
        phrase): the words-in-a-row rule's length, or the gram layer's default when the
        rule is off; never under a gram."""
        return max(self.partial_min_run or _DEFAULT_SHORTEST_RUN, GRAM)

    @property
    def set_apart(self) -> tuple[int, ...]:
        """The token marks (`core.text.quotations`) whose text never counts as copying."""
        return (QUOTATION,) * (not self.count_quotations) + (BIBLIOGRAPHY,) * (
            not self.count_bibliography
        )

    def common_rule(self) -> CommonRule:
        """When text is common; boilerplate (a short paragraph of its own at the start or
        end of documents, `core.match.grams.boilerplate`) already when more than a fifth of
        `common_max_docs` documents hold it, and at least `_EDGE_MIN_DOCS`: three under the
        default 10, and a user who raises the setting to count shared footers gets them."""
        edge = max(_EDGE_MIN_DOCS, self.common_max_docs // _EDGE_FRACTION + 1)
        return CommonRule(self.common_share, self.common_min_docs, self.common_max_docs, edge)

    def __post_init__(self) -> None:
        if not 1 <= self.min_tokens <= self.max_tokens:
            raise ValueError(
                f"need 1 <= min_tokens <= max_tokens, got {self.min_tokens}, {self.max_tokens}"
            )
        if not 0 <= self.max_distance <= 16:
            raise ValueError(f"max_distance must be between 0 and 16, not {self.max_distance}")
        if not self.max_distance <= self.extend_distance <= 32:
            raise ValueError(
                f"extend_distance must be between max_distance and 32, not {self.extend_distance}"
            )
        if not 1 <= self.shingle_size <= 8:
            raise ValueError(f"shingle_size must be between 1 and 8, not {self.shingle_size}")
        if not 0.0 <= self.common_share <= 1.0:
            raise ValueError(f"common_share must be between 0 and 1, not {self.common_share}")
        if self.common_max_docs < 2:
            raise ValueError(f"common_max_docs must be at least 2, not {self.common_max_docs}")
        if self.partial_min_run < 0:
            raise ValueError(f"partial_min_run must be >= 0, not {self.partial_min_run}")
        if not 0.0 <= self.partial_threshold <= 1.0:
            raise ValueError(
                f"partial_threshold must be between 0 and 1, not {self.partial_threshold}"
            )


@dataclass(frozen=True, slots=True)
class Passages:
    """All passages of a corpus as parallel arrays, ordered by document then start.

    Token positions are global: document d's body tokens are
    `offsets[d]:offsets[d+1]`; `start - offsets[doc]` is the position in the document.
    Paragraph numbers are the document's own (`para_start:para_stop`).
    A matched passage vouches for its tokens up to `credit_stop`, the end of its first
    paragraph: a passage run on over short paragraphs can match while its tail was
    not copied, and each of those paragraphs starts a passage of its own anyway.
    """

    doc: np.ndarray  # int64
    start: np.ndarray  # int64, global token position
    stop: np.ndarray  # int64, exclusive
    credit_stop: np.ndarray  # int64, exclusive
    para_start: np.ndarray  # int64
    para_stop: np.ndarray  # int64, exclusive
    offsets: np.ndarray  # int64, n_docs + 1

    def __len__(self) -> int:
        return len(self.doc)

    @property
    def n_docs(self) -> int:
        return len(self.offsets) - 1

    def doc_lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def first_of_docs(self) -> np.ndarray:
        """Row of each document's first passage, and len(self) last: document d's
        passages are rows first[d]:first[d + 1]."""
        return np.searchsorted(self.doc, np.arange(self.n_docs + 1))


def cut_passages(
    streams: Sequence[TokenStream], options: PassageOptions, check=lambda: None
) -> Passages:
    """Cut every stream into (overlapping) passages along its paragraphs.

    Every paragraph is a passage (long ones cut into pieces); a paragraph shorter than
    `min_tokens` also starts a passage that runs on over the following paragraphs.

    Args:
        streams: body token streams, one per document.
        options: `min_tokens` and `max_tokens` set the passage size.
        check: called between the passes over every paragraph (Cancel).
    """
    lengths = np.array([len(s) for s in streams], dtype=np.int64)
    offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
    para_doc, para_no, p_start, p_stop = _paragraphs(streams, offsets)
    check()
    length = p_stop - p_start
    short = length < options.min_tokens
    merged = _merged_windows(para_doc[short], p_start[short], p_stop, para_doc, offsets, options)
    pieces = _pieces(para_doc, p_start, p_stop, options.max_tokens)
    check()
    doc = np.concatenate([merged[0], pieces[0]])
    start = np.concatenate([merged[1], pieces[1]])
    stop = np.concatenate([merged[2], pieces[2]])
    # a short paragraph followed by nothing gives the same range twice
    _, first = np.unique(start * (int(offsets[-1]) + 1) + stop, return_index=True)
    doc, start, stop = doc[first], start[first], stop[first]
    # paragraph k of the corpus holds positions [p_start[k], p_stop[k])
    first = np.searchsorted(p_start, start, side="right") - 1
    last = np.searchsorted(p_start, stop - 1, side="right") - 1
    credit = np.minimum(stop, p_stop[first])
    return Passages(doc, start, stop, credit, para_no[first], para_no[last] + 1, offsets)


def _paragraphs(streams: Sequence[TokenStream], offsets: np.ndarray):
    """Non-empty paragraphs of all streams: (doc, paragraph number, global start, stop).
    Built from one concatenation, not three small arrays a document (tens of thousands of
    documents took a second between two Cancel checks)."""
    one = np.zeros(1, np.int64)  # a stream without paragraph marks is one paragraph
    starts = [
        one if len(stream.para_starts) == 0 and len(stream) else stream.para_starts
        for stream in streams
    ]
    counts = np.fromiter(map(len, starts), dtype=np.int64, count=len(starts))
    total = int(counts.sum())
    if not total:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty, empty
    doc = np.repeat(np.arange(len(starts), dtype=np.int64), counts)
    number = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    start = np.concatenate(starts).astype(np.int64) + offsets[doc]
    stop = np.r_[start[1:], 0]
    last_of_doc = np.r_[doc[1:] != doc[:-1], True]
    stop[last_of_doc] = offsets[doc[last_of_doc] + 1]
    keep = stop > start
    return doc[keep], number[keep], start[keep], stop[keep]


def _merged_windows(doc, start, all_stops, all_docs, offsets, options: PassageOptions):
    """A window from each paragraph start to the first paragraph end `min_tokens` on.

    Windows never leave their document and are capped at `max_tokens`.
    """
    j = np.searchsorted(all_stops, start + options.min_tokens, side="left")
    j = np.minimum(j, len(all_stops) - 1)
    stop = np.where(all_docs[j] == doc, all_stops[j], offsets[doc + 1])
    stop = np.minimum(np.minimum(stop, offsets[doc + 1]), start + options.max_tokens)
    return doc, start, stop


def _pieces(doc, start, stop, max_tokens: int):
    """Long paragraphs cut into equal pieces of at most `max_tokens` tokens."""
    length = stop - start
    count = -(-length // max_tokens)
    size = -(-length // np.maximum(count, 1))
    owner, k = ragged_arange(count)
    piece_start = start[owner] + k * size[owner]
    return doc[owner], piece_start, np.minimum(piece_start + size[owner], stop[owner])


def _token_range(
    streams: Sequence[TokenStream], offsets: np.ndarray, start: int, stop: int
) -> tuple[np.ndarray, np.ndarray]:
    """Hashes and digit flags of the global token positions [start, stop)."""
    first = int(np.searchsorted(offsets, start, side="right")) - 1
    last = int(np.searchsorted(offsets, stop, side="left"))
    hashes, digits = [np.zeros(0, np.uint64)], [np.zeros(0, bool)]
    for d in range(max(first, 0), min(last, len(streams))):
        lo, hi = max(start - offsets[d], 0), min(stop, offsets[d + 1]) - offsets[d]
        hashes.append(np.asarray(streams[d].hashes[lo:hi], np.uint64))
        digits.append(np.asarray(streams[d].is_digit[lo:hi], bool))
    return np.concatenate(hashes), np.concatenate(digits)


def passage_fingerprints(
    streams: Sequence[TokenStream],
    passages: Passages,
    weights: FeatureWeights,
    shingle_size: int,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """SimHash fingerprint and distinct-feature count of every passage, all at once.

    Features are formed as for whole documents (stopwords, digits, user term weights,
    tf scheme; no idf) but from `shingle_size`-token shingles.

    Args:
        streams: the body token streams `passages` were cut from.
        passages: from `cut_passages`.
        weights: the scan's feature weights.
        shingle_size: n of the n-token shingles.
        progress: called with (passages done, passages) after each bounded step.
    """
    fingerprints = np.zeros(len(passages), dtype=np.uint64)
    counts = np.zeros(len(passages), dtype=np.int64)
    if progress is not None:  # cutting the passages was a pass of its own
        progress(0, len(passages))
    for lo, hi in bounded_runs(passages.stop - passages.start, _FINGERPRINT_CHUNK):
        # only the tokens of this step's passages are gathered: memory and time stay
        # bounded even inside one huge document
        base, end = int(passages.start[lo:hi].min()), int(passages.stop[lo:hi].max())
        hashes, is_digit = _token_range(streams, passages.offsets, base, end)
        user = token_weights(hashes, is_digit, weights)
        fingerprints[lo:hi], counts[lo:hi] = _fingerprint_range(
            hashes,
            user,
            passages.start[lo:hi] - base,
            passages.stop[lo:hi] - base,
            weights,
            shingle_size,
        )
        if progress is not None:
            progress(hi, len(passages))
    return fingerprints, counts


def _passages_reusing(streams, weights, options: PassageOptions, known, progress):
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


def _unchanged_documents(passages: Passages, ignore, reused, known, options) -> np.ndarray:
    """Documents whose passages were copied from `known` and are left out exactly as there."""
    old_of, old = known
    old_ignore = old.is_template | old.is_common | (old.n_features < options.min_features)
    first, old_first = passages.first_of_docs(), old.passages.first_of_docs()
    owner, k = ragged_arange(np.where(reused, np.diff(first), 0))
    differs = ignore[first[owner] + k] != old_ignore[old_first[old_of[owner]] + k]
    clean = reused.copy()
    clean[owner[differs]] = False
    return clean


def _carried_matches(passages: Passages, known, clean: np.ndarray) -> Matches:
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


def _union(passages: Passages, a: Matches, b: Matches) -> Matches:
    """Matches of two disjoint sets of document pairs, ordered by (left, right)."""
    if len(b) == 0:
        return a
    n = len(passages)
    keys = np.r_[pair_keys(a.left, a.right, n), pair_keys(b.left, b.right, n)]
    order = np.argsort(keys, kind="stable")
    distance = np.r_[a.distance, b.distance][order]
    return Matches(*split_keys(keys[order], n), distance)


def _fingerprint_range(hashes, user, start, stop, weights: FeatureWeights, shingle_size: int):
    """Fingerprints and feature counts of the passages [start, stop) of `hashes`."""
    owner, positions = _passage_positions(start, stop)
    features = combine_features(
        hashes[positions], user[positions], owner, len(start), shingle_size, weights.tf_scheme
    )
    return simhash_features(features), features.counts()


def _passage_positions(start: np.ndarray, stop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(passage, global token position) for every token of every passage."""
    owner, within = ragged_arange(stop - start)
    return owner, start[owner] + within


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


@dataclass(frozen=True, slots=True)
class PassageLink:
    """One matched passage pair of two documents, for the side-by-side view.

    Token ranges are positions in each document's body stream; paragraph ranges are
    the document's paragraph numbers (stop exclusive).
    """

    tokens_a: tuple[int, int]
    tokens_b: tuple[int, int]
    paragraphs_a: tuple[int, int]
    paragraphs_b: tuple[int, int]
    distance: int


@dataclass(frozen=True)
class PassageResult:
    """Passages of a scan, their matches, template and common text, per-pair containment.

    Args:
        passages: all passages.
        fingerprints: uint64 per passage (0 for passages too short to fingerprint).
        is_template: bool per passage: matches a reference document.
        excluded_tokens: per document, how many body tokens are left out of containment
            (template or common text, or in a reference document).
        matches: passage pairs of different documents, neither template nor common
            (passage rows, left < right).
        overlaps: every document pair with at least one matched passage.
        is_common: bool per passage: found in many documents.
        common_text: the common passages to list (see `CommonText`).
        n_features: distinct features per passage (fewer than `min_features`: unmatched).
        runs: the word-for-word runs that ordinary documents share outside left-out
            text, at least the shortest match long (`core.match.grams`), cut where
            either document sets a token apart (quotations, the bibliography).
        excluded_digest: per document, a digest of which of its tokens are left out: a
            later scan reuses a pair's measures only where both digests are unchanged.
        common_runs: common text found at the grain of word grams, to list.
        kept: every document's kept word grams (a rescan makes only changed ones again).
        left_out_start, left_out_stop: the global token ranges that never count (template,
            common and set-apart text, reference documents), sorted (`left_out_in`).
        meaning: fragments pairs of documents share in meaning but not word for word,
            paraphrased or translated (`core.match.meaning.matches`); empty until the scan's
            meaning layer fills them in.
    """

    options: PassageOptions
    passages: Passages
    fingerprints: np.ndarray
    is_template: np.ndarray
    excluded_tokens: np.ndarray
    matches: Matches
    overlaps: PairOverlaps
    is_common: np.ndarray
    common_text: CommonText
    n_features: np.ndarray
    runs: SharedRuns
    excluded_digest: np.ndarray
    common_runs: CommonRuns
    kept: KeptGrams
    left_out_start: np.ndarray
    left_out_stop: np.ndarray
    meaning: MeaningMatches = field(default_factory=MeaningMatches.empty)

    @property
    def excluded_share(self) -> np.ndarray:
        """Share of each document's body tokens that is excluded text, template or common
        (0 for empty ones)."""
        lengths = self.passages.doc_lengths()
        return np.divide(
            self.excluded_tokens,
            lengths,
            out=np.zeros(len(lengths)),
            where=lengths > 0,
        )

    def left_out_in(self, doc: int) -> list[tuple[int, int]]:
        """The token ranges of document `doc` (positions in its body stream) that never
        count as copying: template, common and set-apart text."""
        base, end = int(self.passages.offsets[doc]), int(self.passages.offsets[doc + 1])
        lo = int(np.searchsorted(self.left_out_stop, base, side="right"))
        hi = int(np.searchsorted(self.left_out_start, end, side="left"))
        return [
            (max(int(a), base) - base, min(int(b), end) - base)
            for a, b in zip(self.left_out_start[lo:hi], self.left_out_stop[lo:hi], strict=True)
        ]

    def partial(self, threshold: float | None = None) -> PairOverlaps:
        """Pairs whose larger containment reaches `threshold` (default: the options')."""
        if threshold is not None:  # an explicit share: the table's threshold, as asked
            return self.overlaps.at_least(threshold)
        options = self.options
        return self.overlaps.at_least(options.partial_threshold, options.partial_min_run)

    def overlap(self, a: int, b: int) -> tuple[float, float, float]:
        """(containment of a in b, of b in a, overlap) of any two documents."""
        i = self._pair_index(np.array([a]), np.array([b]))[0]
        if i < 0:
            return 0.0, 0.0, 0.0
        lr, rl, sim = (
            float(self.overlaps.containment_ab[i]),
            float(self.overlaps.containment_ba[i]),
            float(self.overlaps.overlap[i]),
        )
        return (lr, rl, sim) if a < b else (rl, lr, sim)

    def overlap_many(self, left: np.ndarray, right: np.ndarray):
        """Vectorized `overlap` for pairs with left < right: three float arrays."""
        i = self._pair_index(np.asarray(left), np.asarray(right))
        found = i >= 0
        out = [np.zeros(len(i)) for _ in range(3)]
        for arr, src in zip(
            out,
            (self.overlaps.containment_ab, self.overlaps.containment_ba, self.overlaps.overlap),
            strict=True,
        ):
            arr[found] = src[i[found]]
        return tuple(out)

    def links(self, a: int, b: int) -> list[PassageLink]:
        """The matched passage pairs of documents a and b, in a's reading order."""
        p = self.passages
        da, db = p.doc[self.matches.left], p.doc[self.matches.right]
        forward = (da == a) & (db == b)
        backward = (da == b) & (db == a)
        pa = np.r_[self.matches.left[forward], self.matches.right[backward]]
        pb = np.r_[self.matches.right[forward], self.matches.left[backward]]
        dist = np.r_[self.matches.distance[forward], self.matches.distance[backward]]
        order = np.lexsort((p.start[pb], p.start[pa]))
        off_a, off_b = int(p.offsets[a]), int(p.offsets[b])
        links = [
            PassageLink(
                (int(p.start[i]) - off_a, int(p.stop[i]) - off_a),
                (int(p.start[j]) - off_b, int(p.stop[j]) - off_b),
                (int(p.para_start[i]), int(p.para_stop[i])),
                (int(p.para_start[j]), int(p.para_stop[j])),
                int(d),
            )
            for i, j, d in zip(pa[order], pb[order], dist[order], strict=True)
        ]
        return sorted(links + self._run_links(a, b), key=lambda link: link.tokens_a)

    def _run_links(self, a: int, b: int) -> list[PassageLink]:
        """The shared runs of documents a and b as links (distance 0: word for word)."""
        r = self.runs
        rows = np.flatnonzero((r.left == min(a, b)) & (r.right == max(a, b)))
        start_a, start_b = (r.start_left, r.start_right) if a < b else (r.start_right, r.start_left)
        links = []
        for row in rows.tolist():
            sa, sb, n = int(start_a[row]), int(start_b[row]), int(r.length[row])
            links.append(
                PassageLink(
                    (sa, sa + n),
                    (sb, sb + n),
                    self._paragraphs(a, sa, sa + n),
                    self._paragraphs(b, sb, sb + n),
                    0,
                )
            )
        return links

    def _paragraphs(self, doc: int, start: int, stop: int) -> tuple[int, int]:
        """The paragraphs (first, stop) holding tokens [start, stop) of `doc`: each
        paragraph starts a passage, so the last passage starting at or before a token
        is in the token's paragraph."""
        p = self.passages
        lo, hi = np.searchsorted(p.doc, [doc, doc + 1])
        if lo == hi:
            return 0, 1
        base = int(p.offsets[doc])
        at = np.searchsorted(p.start[lo:hi], [base + start, base + stop - 1], side="right") - 1
        first, last = (lo + max(int(x), 0) for x in at)
        return int(p.para_start[first]), int(p.para_start[last]) + 1

    def longest_run(self, a: int, b: int) -> int:
        """Tokens documents a and b share in a row (template and common text left out)."""
        return int(self.longest_runs(np.array([a]), np.array([b]))[0])

    def longest_runs(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """`longest_run` of many pairs (0 where a pair shares no passage)."""
        i = self._pair_index(np.asarray(left), np.asarray(right))
        runs = np.zeros(len(i), np.int64)
        runs[i >= 0] = self.overlaps.longest_run[i[i >= 0]]
        return runs

    def _pair_index(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Row of each pair (a, b) in `overlaps`, -1 where the pair shares nothing."""
        n = max(self.passages.n_docs, 1)
        keys = pair_keys(self.overlaps.left, self.overlaps.right, n)
        want = pair_keys(np.minimum(a, b), np.maximum(a, b), n)
        pos = np.searchsorted(keys, want).clip(max=max(len(keys) - 1, 0))
        hit = (keys[pos] == want) if len(keys) else np.zeros(len(want), bool)
        return np.where(hit, pos, -1)


def analyze_passages(
    streams: Sequence[TokenStream],
    is_reference: np.ndarray,
    weights: FeatureWeights,
    options: PassageOptions,
    *,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
    pair_search: PairSearch = search_pairs,
    known: tuple[np.ndarray, PassageResult] | None = None,
    outside: OutsideCounts | None = None,
    outside_grams: OutsideGrams | None = None,
    kept: KeptGrams | None = None,
) -> PassageResult:
    """Cut, fingerprint and match passages; find template and common text; measure containment.

    Args:
        streams: body token streams, one per document.
        is_reference: bool per document; passages matching a reference document are
            template text, and reference documents are never partial pairs.
        weights: the scan's feature weights (passages use the same features).
        options: passage sizes, distance and thresholds.
        progress: `Progress("passages", done, total)` reports, in thousandths.
        cancel: checked between bounded steps; raises `Cancelled`.
        pair_search: finds the pairs of distinct passage fingerprints within
            `max_distance` (a `PairGraph` kept from the last scan reuses known pairs).
        known: (number of each document in an earlier result or -1, that result): the
            passage fingerprints of unchanged documents are taken from it, when it was
            computed with the same weights and passage sizes.
        outside: what documents left out of `streams` add to the counts that make text
            common (checking new documents against an archive analyzes only the archive
            documents they touch); `outside_grams` the same for word grams.
        kept: the documents' kept word grams, when known (they depend on the tokens and
            the shortest match only: a change of weights leaves them as they were).
    """
    steps = StepProgress(
        "passages",
        {"fingerprints": 3, "index": 4, "extend": 2, "grams": 1, "seeds": 1, "runs": 1},
        progress,
        cancel,
    )
    is_reference = np.asarray(is_reference, dtype=bool)
    passages, fingerprints, n_features, reused = _passages_reusing(
        streams, weights, options, known, steps.step("fingerprints")
    )
    usable = np.flatnonzero(n_features >= options.min_features)
    seeds, shared = _find_matches(
        passages, fingerprints, usable, is_reference, options, steps, pair_search, outside
    )
    steps.cancel.check()
    ignore = shared.is_template | shared.is_common | is_reference[passages.doc]
    excluded_mask = covered_mask(passages, ignore, steps.cancel.check)
    steps.cancel.check()
    set_apart = set_apart_mask(streams, options.set_apart)  # quotations, the bibliography
    steps.cancel.check()
    ignore |= n_features < options.min_features
    seeds = seeds.subset(~(ignore[seeds.left] | ignore[seeds.right]))
    carried, clean = Matches.empty(), np.zeros(passages.n_docs, dtype=bool)
    if known is not None:
        # document pairs whose passages and flags are all as before keep their matches
        clean = _unchanged_documents(passages, ignore, reused, known, options)
        carried = _carried_matches(passages, known, clean)
        dirty = ~clean[passages.doc]
        seeds = seeds.subset(dirty[seeds.left] | dirty[seeds.right])
    matches = _extend_matches(
        passages, fingerprints, seeds, ignore, options.extend_distance, steps.step("extend")
    )
    matches = _union(passages, matches, carried)
    if kept is None:
        kept = _kept_reusing(streams, passages.offsets, options, known, reused, steps.step("grams"))
    grams = _gram_layer(
        streams,
        (passages.offsets, kept),
        (excluded_mask, set_apart),
        is_reference,
        options,
        outside_grams,
        steps,
    )
    excluded_mask |= grams.common | grams.template
    if set_apart is not None:
        excluded_mask |= set_apart
    left_out = stretches(excluded_mask, passages.offsets, steps.cancel.check)
    steps.cancel.check()
    digest = _ranges_digest(left_out, passages.offsets)
    if known is not None:  # a pair's run is reused only where nothing more is left out
        clean &= digest == _old_digest(known, passages.n_docs)
    steps.cancel.check()
    excluded_tokens = per_doc_sum(excluded_mask, passages.offsets)
    steps.cancel.check()
    pieces = counted_pieces(grams.runs, set_apart, passages.offsets)
    steps.cancel.check()
    overlaps = _pair_overlaps(
        passages, matches, pieces, excluded_mask, excluded_tokens, steps.cancel
    )
    own_tokens = passages.doc_lengths() - excluded_tokens
    overlaps = credit_same_text(overlaps, streams, own_tokens, digest)
    overlaps = _with_runs(
        overlaps,
        streams,
        passages,
        excluded_mask,
        known,
        clean,
        (grams.runs, _document_pairs(passages, matches)),
        steps.step("runs"),
    )
    return PassageResult(
        options,
        passages,
        fingerprints,
        shared.is_template,
        excluded_tokens,
        matches,
        overlaps,
        shared.is_common,
        shared.common_text,
        n_features,
        pieces,
        digest,
        grams.common_runs,
        kept,
        *left_out,
    )


def _kept_reusing(streams, offsets, options: PassageOptions, known, reused, progress) -> KeptGrams:
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


def _gram_layer(streams, where, masks, is_reference, options, outside, steps):
    """Shared runs, common and template text at the grain of word grams
    (`core.match.grams`) from the documents' kept grams (`where`: token offsets, kept
    grams); `masks`: (left-out tokens, set-apart tokens or None): runs
    stop at left-out text and run through set-apart text without counting it.
    Reference documents' own text is a seed, not left out. Boilerplate (a short
    paragraph of its own at the start or end of a few documents) is common text too."""
    offsets, kept = where
    excluded_mask, set_apart = masks
    left_out = excluded_mask & ~np.repeat(is_reference, np.diff(offsets))
    _, _, start, stop = _paragraphs(streams, offsets)  # where boilerplate can be
    steps.cancel.check()
    return shared_runs(
        streams,
        offsets,
        kept,
        (left_out, set_apart),
        is_reference,
        options.shortest_run,
        options.common_rule(),
        outside,
        steps.step("seeds"),
        (start, stop),
    )


def _document_pairs(passages: Passages, matches: Matches) -> np.ndarray:
    """Sorted keys of the document pairs (left < right) with matched passages."""
    a, b = passages.doc[matches.left], passages.doc[matches.right]
    n = max(passages.n_docs, 1)
    return sorted_unique(pair_keys(np.minimum(a, b), np.maximum(a, b), n))


def _ranges_digest(ranges, offsets: np.ndarray) -> np.ndarray:
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


def _old_digest(known, n_docs: int) -> np.ndarray:
    """Each document's digest in the earlier result (a value no digest takes if new)."""
    old_of, old = known
    out = np.full(n_docs, np.uint64(2**64 - 1))
    have = old_of >= 0
    out[have] = old.excluded_digest[old_of[have]]
    return out


@dataclass(frozen=True, slots=True)
class CommonText:
    """Passages found in many documents, most widespread first: a representative passage
    row, in how many documents and how many times (see `_common_text`)."""

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


@dataclass(frozen=True, slots=True)
class _SharedText:
    is_template: np.ndarray  # bool per passage: matches a reference document
    is_common: np.ndarray  # bool per passage: found in many documents
    common_text: CommonText


def _find_matches(
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
    template, common, docs_in = _shared_groups(
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
        _common_text(common, groups, docs_in, passages),
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


def _shared_groups(
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


def _common_text(common: np.ndarray, groups: Groups, docs_in, passages: Passages) -> CommonText:
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


def _concat_matches(parts) -> Matches:
    parts = list(parts)
    if not parts:
        return Matches.empty()
    return Matches(*(np.concatenate(x) for x in zip(*parts, strict=True)))


def _extend_matches(
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
            found.append(keys[~_contains(known, keys)])
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


def _contains(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if len(sorted_keys) == 0:
        return np.zeros(len(keys), dtype=bool)
    pos = np.searchsorted(sorted_keys, keys).clip(max=len(sorted_keys) - 1)
    return sorted_keys[pos] == keys


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


def _pair_overlaps(
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


def _with_runs(overlaps: PairOverlaps, streams, passages, left_out, known, clean, found, progress):
    """`overlaps` with each pair's longest verbatim run: the longest shared run of
    `found` (runs, sorted keys of the pairs with matched passages), or for pairs with
    matched passages the longest run of `GRAM` tokens or more found by comparing the two;
    a pair of two documents whose tokens and left-out text are as in `known` keeps the
    run found then."""
    shared, passage_pairs = found
    n = max(passages.n_docs, 1)
    keys = pair_keys(overlaps.left, overlaps.right, n)
    gram_best = np.zeros(len(overlaps), np.int64)
    if len(shared):
        row = np.searchsorted(keys, pair_keys(shared.left, shared.right, n))
        np.maximum.at(gram_best, row, shared.counted)
    runs = np.full(len(overlaps), -1, np.int64)
    if known is not None and clean.any():
        old_of, old = known
        both = np.flatnonzero(clean[overlaps.left] & clean[overlaps.right])
        row = old._pair_index(old_of[overlaps.left[both]], old_of[overlaps.right[both]])
        runs[both[row >= 0]] = old.overlaps.longest_run[row[row >= 0]]
    # pairs sharing runs only: the runs are maximal, and shorter ones do not count
    runs[(runs < 0) & ~_contains(passage_pairs, keys)] = 0
    todo = np.flatnonzero(runs < 0)
    runs[todo] = longest_runs(
        streams, left_out, passages.offsets, overlaps.left[todo], overlaps.right[todo], progress
    )
    return replace(overlaps, longest_run=np.maximum(runs, gram_best))


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
