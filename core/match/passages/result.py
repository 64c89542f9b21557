"""What the passage analysis finds: `PassageResult`, and `PassageLink` for the
side-by-side view."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from simsift.core.arrays import pair_keys
from simsift.core.index.matches import Matches
from simsift.core.match.grams import CommonRuns, KeptGrams, SharedRuns
from simsift.core.match.meaning.matches import MeaningMatches
from simsift.core.match.passages.common import CommonText
from simsift.core.match.passages.cutting import Passages
from simsift.core.match.passages.options import PassageOptions
from simsift.core.match.passages.overlaps import PairOverlaps


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

    @classmethod
    def empty(cls, options: PassageOptions, doc_lengths: np.ndarray) -> PassageResult:
        """Nothing matched and nothing left out, for documents of `doc_lengths` body
        tokens: a scan's result before its partial copying is found."""
        none = np.zeros(0, np.int64)
        offsets = np.r_[0, np.cumsum(doc_lengths)].astype(np.int64)
        no_share = np.zeros(0, np.float64)
        return cls(
            options,
            Passages(none, none, none, none, none, none, offsets),
            np.zeros(0, np.uint64),
            np.zeros(0, bool),
            np.zeros(len(doc_lengths), np.int64),
            Matches.empty(),
            PairOverlaps(none, none, none, none, no_share, no_share, no_share, none),
            np.zeros(0, bool),
            CommonText(none, none, none),
            none,
            SharedRuns.empty(),
            np.zeros(len(doc_lengths), np.uint64),
            CommonRuns.empty(),
            KeptGrams(np.zeros(0, np.uint64), np.zeros(0, np.int32), np.zeros(0, np.int32)),
            none,
            none,
        )

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
        i = self.pair_index(np.array([a]), np.array([b]))[0]
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
        i = self.pair_index(np.asarray(left), np.asarray(right))
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
        i = self.pair_index(np.asarray(left), np.asarray(right))
        runs = np.zeros(len(i), np.int64)
        runs[i >= 0] = self.overlaps.longest_run[i[i >= 0]]
        return runs

    def pair_index(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Row of each pair (a, b) in `overlaps`, -1 where the pair shares nothing."""
        n = max(self.passages.n_docs, 1)
        keys = pair_keys(self.overlaps.left, self.overlaps.right, n)
        want = pair_keys(np.minimum(a, b), np.maximum(a, b), n)
        pos = np.searchsorted(keys, want).clip(max=max(len(keys) - 1, 0))
        hit = (keys[pos] == want) if len(keys) else np.zeros(len(want), bool)
        return np.where(hit, pos, -1)
