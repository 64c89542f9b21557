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
SimHash of ~50 features is noisy (a few changed words move it 5-15 bits), so once two
documents share a passage, all their passages are compared at the looser
`extend_distance`: seed and extend, as in sequence alignment.

Template text (passages matching a reference document, or found in many documents)
never counts. Containment(A in B) is the share of A's non-template tokens covered by
passages that match a passage of B; similarity is the symmetric share
(matched_a + matched_b) / (tokens_a + tokens_b).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from core.features import FeatureWeights, apply_tf, token_weights
from core.features import shingle_hashes as _shingles
from core.index import HammingIndex, Matches
from core.tokens import TokenStream

_EXTEND_CHUNK = 1 << 21  # passage pairs compared at once when extending matches
# passage tokens fingerprinted at once: bounded memory, and numpy calls short enough
# that a GUI thread waiting for the GIL is never held up for long
_FINGERPRINT_CHUNK = 1 << 19
_MIN_LENGTH_RATIO = 0.8  # matched passages are about the same length


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
        template_share: a passage found in more than this share of the documents ...
        template_min_docs: ... and in at least this many documents is template text.
        partial_threshold: a pair is partial when either containment reaches this.
    """

    min_tokens: int = 60
    max_tokens: int = 200
    max_distance: int = 8
    extend_distance: int = 12
    shingle_size: int = 1
    min_features: int = 8
    template_share: float = 0.2
    template_min_docs: int = 5
    partial_threshold: float = 0.2

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
        if not 0.0 <= self.template_share <= 1.0:
            raise ValueError(f"template_share must be between 0 and 1, not {self.template_share}")
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


def cut_passages(streams: Sequence[TokenStream], options: PassageOptions) -> Passages:
    """Cut every stream into (overlapping) passages along its paragraphs.

    Every paragraph is a passage (long ones cut into pieces); a paragraph shorter than
    `min_tokens` also starts a passage that runs on over the following paragraphs.

    Args:
        streams: body token streams, one per document.
        options: `min_tokens` and `max_tokens` set the passage size.
    """
    lengths = np.array([len(s) for s in streams], dtype=np.int64)
    offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
    para_doc, para_no, p_start, p_stop = _paragraphs(streams, offsets)
    length = p_stop - p_start
    short = length < options.min_tokens
    merged = _merged_windows(para_doc[short], p_start[short], p_stop, para_doc, offsets, options)
    pieces = _pieces(para_doc, p_start, p_stop, options.max_tokens)
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
    """Non-empty paragraphs of all streams: (doc, paragraph number, global start, stop)."""
    docs, numbers, starts = [], [], []
    for d, stream in enumerate(streams):
        s = np.asarray(stream.para_starts, dtype=np.int64)
        if len(s) == 0 and len(stream):
            s = np.zeros(1, np.int64)  # a stream without paragraph marks is one paragraph
        docs.append(np.full(len(s), d, dtype=np.int64))
        numbers.append(np.arange(len(s), dtype=np.int64))
        starts.append(s + offsets[d])
    if not docs:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty, empty
    doc, number, start = np.concatenate(docs), np.concatenate(numbers), np.concatenate(starts)
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
    owner = np.repeat(np.arange(len(doc)), count)
    k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    piece_start = start[owner] + k * size[owner]
    return doc[owner], piece_start, np.minimum(piece_start + size[owner], stop[owner])


def _concat_streams(streams: Sequence[TokenStream]) -> tuple[np.ndarray, np.ndarray]:
    if not streams:
        return np.zeros(0, np.uint64), np.zeros(0, bool)
    return (
        np.concatenate([np.asarray(s.hashes, np.uint64) for s in streams]),
        np.concatenate([np.asarray(s.is_digit, bool) for s in streams]),
    )


def passage_fingerprints(
    streams: Sequence[TokenStream],
    passages: Passages,
    weights: FeatureWeights,
    shingle_size: int,
    token_mask: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """SimHash fingerprint and distinct-feature count of every passage, all at once.

    Features are formed as for whole documents (stopwords, digits, user term weights,
    tf scheme; no idf) but from `shingle_size`-token shingles.

    Args:
        streams: the body token streams `passages` were cut from.
        passages: from `cut_passages`.
        weights: the scan's feature weights.
        shingle_size: n of the n-token shingles.
        token_mask: optional global bool mask of tokens to leave out.
    """
    hashes, is_digit = _concat_streams(streams)
    user = token_weights(hashes, is_digit, weights)
    if token_mask is not None:
        user[token_mask] = 0.0
    fingerprints = np.zeros(len(passages), dtype=np.uint64)
    counts = np.zeros(len(passages), dtype=np.int64)
    for lo, hi in bounded_runs(passages.stop - passages.start, _FINGERPRINT_CHUNK):
        fingerprints[lo:hi], counts[lo:hi] = _fingerprint_range(
            hashes, user, passages.start[lo:hi], passages.stop[lo:hi], weights, shingle_size
        )
    return fingerprints, counts


def _fingerprint_range(hashes, user, start, stop, weights: FeatureWeights, shingle_size: int):
    """Fingerprints and feature counts of the passages [start, stop) of global positions."""
    owner, positions = _passage_positions(start, stop)
    kept = user[positions] > 0
    owner, positions = owner[kept], positions[kept]
    feat, feat_user, feat_owner = _passage_shingles(
        hashes[positions], user[positions], owner, shingle_size
    )
    feat_owner, feat, weight = _distinct_features(feat_owner, feat, feat_user, weights)
    counts = np.bincount(feat_owner, minlength=len(start))
    return _simhash_flat(feat, weight, feat_owner, len(start)), counts


def bounded_runs(sizes: np.ndarray, budget: int) -> list[tuple[int, int]]:
    """Consecutive ranges of items whose sizes add up to at most `budget` (or one item)."""
    cumulative = np.cumsum(sizes)
    bounds = [0]
    while bounds[-1] < len(sizes):
        lo = bounds[-1]
        done = int(cumulative[lo - 1]) if lo else 0
        bounds.append(max(lo + 1, int(np.searchsorted(cumulative, done + budget, "right"))))
    return list(pairwise(bounds))


def _passage_positions(start: np.ndarray, stop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(passage, global token position) for every token of every passage."""
    length = stop - start
    owner = np.repeat(np.arange(len(start)), length)
    within = np.arange(int(length.sum())) - np.repeat(np.cumsum(length) - length, length)
    return owner, start[owner] + within


def _passage_shingles(hashes, user, owner, n: int):
    """n-token shingles that stay inside one passage, with their largest user weight."""
    if n == 1 or len(hashes) < n:
        return hashes, user, owner
    shingles = _shingles(hashes, n)
    count = len(shingles)
    inside = owner[:count] == owner[n - 1 :]
    shingle_user = np.max(np.stack([user[j : j + count] for j in range(n)]), axis=0)
    return shingles[inside], shingle_user[inside], owner[:count][inside]


def _distinct_features(owner, hashes, user, weights: FeatureWeights):
    """Distinct (passage, feature) with tf-scheme weight × largest user weight."""
    if len(hashes) == 0:
        return owner, hashes, np.zeros(0)
    order = np.lexsort((hashes, owner))
    owner, hashes, user = owner[order], hashes[order], user[order]
    new = np.r_[True, (owner[1:] != owner[:-1]) | (hashes[1:] != hashes[:-1])]
    starts = np.flatnonzero(new)
    tf = np.diff(np.r_[starts, len(hashes)]).astype(np.float64)
    weight = apply_tf(tf, weights.tf_scheme) * np.maximum.reduceat(user, starts)
    return owner[starts], hashes[starts], weight


def _simhash_flat(hashes, weights, owner, n: int) -> np.ndarray:
    """Weighted SimHash of n feature sets given as flat arrays sorted by owner.

    One contiguous pass per bit (byte column, then shift): several times faster than
    summing a (features × 64) matrix row-wise. Sums are float64 like `simhash_batch`'s,
    so near-ties break the same way.
    """
    out = np.zeros(n, dtype=np.uint64)
    if len(hashes) == 0:
        return out
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    present = owner[starts]
    w = weights.astype(np.float64)
    half = np.add.reduceat(w, starts) / 2
    as_bytes = np.ascontiguousarray(hashes, dtype="<u8").view(np.uint8).reshape(-1, 8)
    weighted = np.empty(len(w), dtype=np.float64)
    for byte in range(8):
        column = np.ascontiguousarray(as_bytes[:, byte])
        for bit in range(8):
            np.multiply(w, (column >> bit) & 1, out=weighted)
            # sum over features of ±w is positive when the set bits carry over half the weight
            positive = np.add.reduceat(weighted, starts) > half
            out[present[positive]] |= np.uint64(1 << (8 * byte + bit))
    return out


@dataclass(frozen=True, slots=True)
class PairOverlaps:
    """Documents pairs (left < right) sharing non-template passages, as parallel arrays.

    `matched_*` count each side's non-template tokens inside matched passages;
    `containment_lr` is the share of left's non-template tokens found in right,
    `containment_rl` the reverse, `similarity` the symmetric share.
    """

    left: np.ndarray  # int64
    right: np.ndarray  # int64
    matched_left: np.ndarray  # int64
    matched_right: np.ndarray  # int64
    containment_lr: np.ndarray  # float64
    containment_rl: np.ndarray  # float64
    similarity: np.ndarray  # float64

    def __len__(self) -> int:
        return len(self.left)

    def subset(self, keep: np.ndarray) -> PairOverlaps:
        return PairOverlaps(*(getattr(self, f)[keep] for f in self.__slots__))

    def at_least(self, threshold: float) -> PairOverlaps:
        """The pairs whose larger containment is at least `threshold`."""
        return self.subset(np.maximum(self.containment_lr, self.containment_rl) >= threshold)


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
    """Passages of a scan, their matches, template text and per-pair containment.

    Args:
        passages: all passages.
        fingerprints: uint64 per passage (0 for passages too short to fingerprint).
        is_template: bool per passage.
        template_tokens: per document, how many body tokens are template text.
        matches: non-template passage pairs of different documents (passage rows,
            left < right).
        overlaps: every document pair with at least one matched passage.
    """

    options: PassageOptions
    passages: Passages
    fingerprints: np.ndarray
    is_template: np.ndarray
    template_tokens: np.ndarray
    matches: Matches
    overlaps: PairOverlaps

    @property
    def template_share(self) -> np.ndarray:
        """Share of each document's body tokens that is template text (0 for empty ones)."""
        lengths = self.passages.doc_lengths()
        return np.divide(
            self.template_tokens,
            lengths,
            out=np.zeros(len(lengths)),
            where=lengths > 0,
        )

    def partial(self, threshold: float | None = None) -> PairOverlaps:
        """Pairs whose larger containment reaches `threshold` (default: the options')."""
        return self.overlaps.at_least(
            self.options.partial_threshold if threshold is None else threshold
        )

    def overlap(self, a: int, b: int) -> tuple[float, float, float]:
        """(containment of a in b, of b in a, similarity) of any two documents."""
        i = self._pair_index(np.array([a]), np.array([b]))[0]
        if i < 0:
            return 0.0, 0.0, 0.0
        lr, rl, sim = (
            float(self.overlaps.containment_lr[i]),
            float(self.overlaps.containment_rl[i]),
            float(self.overlaps.similarity[i]),
        )
        return (lr, rl, sim) if a < b else (rl, lr, sim)

    def overlap_many(self, left: np.ndarray, right: np.ndarray):
        """Vectorized `overlap` for pairs with left < right: three float arrays."""
        i = self._pair_index(np.asarray(left), np.asarray(right))
        found = i >= 0
        out = [np.zeros(len(i)) for _ in range(3)]
        for arr, src in zip(
            out,
            (self.overlaps.containment_lr, self.overlaps.containment_rl, self.overlaps.similarity),
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
        return [
            PassageLink(
                (int(p.start[i]) - off_a, int(p.stop[i]) - off_a),
                (int(p.start[j]) - off_b, int(p.stop[j]) - off_b),
                (int(p.para_start[i]), int(p.para_stop[i])),
                (int(p.para_start[j]), int(p.para_stop[j])),
                int(d),
            )
            for i, j, d in zip(pa[order], pb[order], dist[order], strict=True)
        ]

    def _pair_index(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Row of each pair (a, b) in `overlaps`, -1 where the pair shares nothing."""
        n = max(self.passages.n_docs, 1)
        keys = self.overlaps.left * n + self.overlaps.right
        want = np.minimum(a, b) * n + np.maximum(a, b)
        pos = np.searchsorted(keys, want).clip(max=max(len(keys) - 1, 0))
        hit = (keys[pos] == want) if len(keys) else np.zeros(len(want), bool)
        return np.where(hit, pos, -1)


def analyze_passages(
    streams: Sequence[TokenStream],
    is_reference: np.ndarray,
    weights: FeatureWeights,
    options: PassageOptions,
) -> PassageResult:
    """Cut, fingerprint and match passages; find template text; measure containment.

    Args:
        streams: body token streams, one per document.
        is_reference: bool per document; passages matching a reference document are
            template text, and reference documents are never partial pairs.
        weights: the scan's feature weights (passages use the same features).
        options: passage sizes, distance and thresholds.
    """
    is_reference = np.asarray(is_reference, dtype=bool)
    passages = cut_passages(streams, options)
    fingerprints, n_features = passage_fingerprints(
        streams, passages, weights, options.shingle_size
    )
    usable = np.flatnonzero(n_features >= options.min_features)
    matches, is_template = _find_matches(passages, fingerprints, usable, is_reference, options)
    template_mask = _covered_mask(passages, is_template | is_reference[passages.doc])
    ignore = is_template | is_reference[passages.doc]
    ignore[np.setdiff1d(np.arange(len(passages)), usable)] = True
    matches = _subset(matches, ~(ignore[matches.left] | ignore[matches.right]))
    matches = _extend_matches(passages, fingerprints, matches, ignore, options.extend_distance)
    template_tokens = _per_doc_sum(template_mask, passages.offsets)
    overlaps = _pair_overlaps(passages, matches, template_mask, template_tokens)
    return PassageResult(
        options, passages, fingerprints, is_template, template_tokens, matches, overlaps
    )


def _find_matches(
    passages: Passages,
    fingerprints: np.ndarray,
    usable: np.ndarray,
    is_reference: np.ndarray,
    options: PassageOptions,
) -> tuple[Matches, np.ndarray]:
    """Passage matches across documents and the template passages, without expanding
    template groups: a prompt in all of 10,000 essays would be 50 million pairs.

    Passages are grouped by identical fingerprint; groups are matched with each other
    in the index, template groups are found and dropped, and only the remaining groups
    are expanded back to passage pairs.
    """
    doc = passages.doc
    distinct, group = np.unique(fingerprints[usable], return_inverse=True)
    order = np.argsort(group, kind="stable")
    rows = usable[order]
    ptr = np.r_[0, np.cumsum(np.bincount(group, minlength=len(distinct)))]
    found = HammingIndex(distinct, options.max_distance).pairs()
    template = _template_groups(group, doc[usable], is_reference, found, options)
    is_template = np.zeros(len(passages), dtype=bool)
    is_template[usable] = template[group]
    keep = ~(template[found.left] | template[found.right])
    within = np.flatnonzero(~template & (np.diff(ptr) > 1))
    left, right, dist = _expand_groups(
        ptr,
        rows,
        np.r_[within, found.left[keep]],
        np.r_[within, found.right[keep]],
        np.r_[np.zeros(len(within), np.int8), found.distance[keep]],
    )
    other = doc[left] != doc[right]
    return Matches(left[other], right[other], dist[other]), is_template


def _template_groups(group, group_doc, is_reference, found: Matches, options) -> np.ndarray:
    """Fingerprint groups that hold or neighbour a reference passage, or that (with their
    neighbours) occur in more than `template_share` and at least `template_min_docs`
    of the ordinary documents."""
    n_groups = int(group.max()) + 1 if len(group) else 0
    has_reference = np.zeros(n_groups, dtype=bool)
    has_reference[group[is_reference[group_doc]]] = True
    ordinary = ~is_reference[group_doc]
    docs_in = np.bincount(
        np.unique(np.c_[group[ordinary], group_doc[ordinary]], axis=0)[:, 0], minlength=n_groups
    )
    holders = docs_in.copy()  # a document in two neighbouring groups may count twice
    np.add.at(holders, found.left, docs_in[found.right])
    np.add.at(holders, found.right, docs_in[found.left])
    template = has_reference.copy()
    template[found.left[has_reference[found.right]]] = True
    template[found.right[has_reference[found.left]]] = True
    n_ordinary = int((~is_reference).sum())
    template |= (holders > options.template_share * n_ordinary) & (
        holders >= options.template_min_docs
    )
    return template


def _expand_groups(ptr, rows, ga, gb, dist):
    """Passage pairs of group pairs (ga, gb); a group paired with itself gives its
    members' pairs once each."""
    size = np.diff(ptr)
    count = size[ga] * size[gb]
    owner = np.repeat(np.arange(len(ga)), count)
    k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    i, j = np.divmod(k, size[gb][owner])
    keep = (ga[owner] != gb[owner]) | (i < j)
    owner, i, j = owner[keep], i[keep], j[keep]
    return rows[ptr[ga[owner]] + i], rows[ptr[gb[owner]] + j], dist[owner].astype(np.int8)


def _subset(m: Matches, keep: np.ndarray) -> Matches:
    return Matches(m.left[keep], m.right[keep], m.distance[keep])


def _extend_matches(
    passages: Passages, fingerprints: np.ndarray, seeds: Matches, ignore: np.ndarray, k: int
) -> Matches:
    """All passage pairs within k of the document pairs that share a seed match.

    Passages of very different length do not match: a passage run on over a short
    paragraph is close to the next paragraph alone without being its copy.
    """
    if len(seeds) == 0:
        return seeds
    n_docs = passages.n_docs
    doc_a, doc_b = passages.doc[seeds.left], passages.doc[seeds.right]
    keys = np.unique(np.minimum(doc_a, doc_b) * n_docs + np.maximum(doc_a, doc_b))
    a, b = keys // n_docs, keys % n_docs
    first = np.searchsorted(passages.doc, np.arange(n_docs + 1))  # passages of d: first[d]:...
    total = np.diff(first)[a] * np.diff(first)[b]
    size = passages.stop - passages.start
    # bounded chunks of document pairs: a corpus where many documents share some text has
    # millions of such pairs, and all their passage pairs at once would not fit in memory
    parts = [
        _extend_chunk(a[lo:hi], b[lo:hi], first, size, fingerprints, ignore, k)
        for lo, hi in bounded_runs(total, _EXTEND_CHUNK)
    ]
    return Matches(*(np.concatenate(x) for x in zip(*parts, strict=True)))


def _extend_chunk(a, b, first, size, fingerprints, ignore, k):
    """Passage pairs within k between documents a[i] and b[i] (lengths alike, not ignored)."""
    count_a, count_b = np.diff(first)[a], np.diff(first)[b]
    total = count_a * count_b
    owner = np.repeat(np.arange(len(a)), total)
    k_in = np.arange(int(total.sum())) - np.repeat(np.cumsum(total) - total, total)
    i, j = np.divmod(k_in, count_b[owner])
    left, right = first[a][owner] + i, first[b][owner] + j
    dist = np.bitwise_count(fingerprints[left] ^ fingerprints[right])
    similar = np.minimum(size[left], size[right]) >= _MIN_LENGTH_RATIO * np.maximum(
        size[left], size[right]
    )
    keep = (dist <= k) & similar & ~ignore[left] & ~ignore[right]
    return left[keep], right[keep], dist[keep].astype(np.int8)


def _covered_mask(passages: Passages, chosen: np.ndarray) -> np.ndarray:
    """Global bool mask of the tokens inside any chosen passage."""
    total = int(passages.offsets[-1])
    delta = np.bincount(passages.start[chosen], minlength=total + 1) - np.bincount(
        passages.stop[chosen], minlength=total + 1
    )
    return np.cumsum(delta[:total]) > 0


def _per_doc_sum(mask: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    prefix = np.r_[0, np.cumsum(mask, dtype=np.int64)]
    return prefix[offsets[1:]] - prefix[offsets[:-1]]


def _pair_overlaps(
    passages: Passages, matches: Matches, template_mask: np.ndarray, template_tokens: np.ndarray
) -> PairOverlaps:
    """Containment and similarity of every document pair with matched passages."""
    n_docs = max(passages.n_docs, 1)
    doc = passages.doc
    own = np.r_[matches.left, matches.right]  # passage whose tokens are counted
    other_doc = doc[np.r_[matches.right, matches.left]]
    group = doc[own] * n_docs + other_doc  # (owner document, other document)
    matched = _covered_non_template(
        group, passages.start[own], passages.credit_stop[own], template_mask
    )
    keys, counts = matched
    owner, other = keys // n_docs, keys % n_docs
    # fold (owner, other) and (other, owner) into one row per pair, left < right
    forward = owner < other
    left = np.where(forward, owner, other)
    right = np.where(forward, other, owner)
    pair_keys, row = np.unique(left * n_docs + right, return_inverse=True)
    matched_left = np.zeros(len(pair_keys), np.int64)
    matched_right = np.zeros(len(pair_keys), np.int64)
    matched_left[row[forward]] = counts[forward]
    matched_right[row[~forward]] = counts[~forward]
    left, right = pair_keys // n_docs, pair_keys % n_docs
    own_tokens = passages.doc_lengths() - template_tokens
    size_l, size_r = own_tokens[left], own_tokens[right]
    return PairOverlaps(
        left,
        right,
        matched_left,
        matched_right,
        _share(matched_left, size_l),
        _share(matched_right, size_r),
        _share(matched_left + matched_right, size_l + size_r),
    )


def _covered_non_template(group, start, stop, template_mask):
    """Per group: non-template tokens in the union of its [start, stop) intervals."""
    if len(group) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    order = np.lexsort((start, group))
    group, start, stop = group[order], start[order], stop[order]
    first = np.r_[True, group[1:] != group[:-1]]
    rank = np.cumsum(first) - 1
    # running max of earlier stops within the group (rank lifts each group above the last)
    span = int(stop.max()) + 1
    lifted = np.maximum.accumulate(rank * span + stop)
    reach = np.r_[0, lifted[:-1]] - rank * span
    reach[first] = 0
    lo = np.maximum(start, reach)
    hi = np.maximum(stop, lo)
    prefix = np.r_[0, np.cumsum(template_mask, dtype=np.int64)]
    fresh = (hi - lo) - (prefix[hi] - prefix[lo])
    counts = np.bincount(rank, weights=fresh).astype(np.int64)
    return group[first], counts


def _share(part: np.ndarray, whole: np.ndarray) -> np.ndarray:
    return np.minimum(np.divide(part, whole, out=np.zeros(len(part)), where=whole > 0), 1.0)
