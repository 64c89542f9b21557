"""What a scan found, and the edits of it that need no rescan.

A `ScanResult` keeps the token streams, pairs at k_max and passage matches, so changing k
(filter pairs, re-cluster) never re-reads a file; files moved away, pairs dismissed as
"not a duplicate" and the remembered ignored pairs are taken out here, in one place, so
clusters at any k, the partial-copies list and every export agree on what is left.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
from simsift.core.analysis.cluster import (
    KIND_NEAR,
    KIND_SAME_TEMPLATE,
    Clusters,
    build_clusters,
    pair_kinds,
    same_template,
)
from simsift.core.analysis.similarity import document_similarity, pair_meaning_shares
from simsift.core.arrays import pair_keys
from simsift.core.document import FileRecord
from simsift.core.index.matches import Matches, hamming
from simsift.core.match.meaning.matches import MeaningMatches
from simsift.core.match.passages import PairOverlaps, PassageResult
from simsift.core.text.excerpt import span_text
from simsift.core.text.features import FeatureCounts

if TYPE_CHECKING:
    from simsift.core.pipeline.options import ScanOptions


@dataclass(frozen=True, slots=True)
class FileCounts:
    """What became of the files a scan found in its folders: each one is read (an essay, a
    reference document or garbled text left out of the comparison), not read (an error
    with its reason) or skipped (with its reason: excluded, hidden, another type, the
    same file as another); so `found` = `read` + `not_read` + `skipped`.

    Archive documents (previous years, from the archive) are no files of these folders:
    `archive` counts those compared, `archive_problems` the files of the archive folders
    that could not be added (also listed with the result's errors and skipped files).
    """

    essays: int
    references: int
    garbled: int
    not_read: int
    skipped: int
    archive: int = 0
    archive_problems: int = 0

    @property
    def read(self) -> int:
        return self.essays + self.references + self.garbled

    @property
    def found(self) -> int:
        return self.read + self.not_read + self.skipped


@dataclass(frozen=True)
class ScanResult:
    """Everything a scan found. Documents are the readable files, numbered 0..n-1.

    `pairs` holds every pair of documents within `k_max` (reference-only pairs and
    ignored pairs removed); `clusters(k)` groups them for any k <= k_max.

    A result that is not `complete` holds the pairs but not yet the partial copying
    (its `passages` are `PassageResult.empty`): what a scan publishes before matching
    passages, or all there is when that was cancelled. Its clusters join every near pair,
    since which ones share only template text is known from the passages.
    """

    options: ScanOptions
    documents: tuple[FileRecord, ...]
    errors: tuple[FileRecord, ...]
    skipped: tuple[FileRecord, ...]
    is_reference: np.ndarray  # bool per document
    fingerprints: np.ndarray  # uint64 per document
    pairs: Matches
    content_codes: np.ndarray  # int64 per document: equal codes = same bytes
    text_codes: np.ndarray  # int64 per document: equal codes = same normalized text
    original_rank: np.ndarray  # int64 per document: lower = better cluster original
    passages: PassageResult  # partial copying, template and common text
    reused: int = 0  # files taken unchanged from the catalog
    notices: tuple[str, ...] = ()  # about the scan as a whole, e.g. the catalog was unusable
    garbled: tuple[FileRecord, ...] = ()  # read, but garbled: left out of the comparison
    complete: bool = True  # False: partial copying not found yet (see above)
    # the documents' features counted with `options.weights` (`reweight` weighs them again
    # for another tf scheme, title boost or idf); None where the scan counted none
    feature_counts: FeatureCounts | None = field(default=None, compare=False, repr=False)
    # the fragments the documents share in meaning before shared runs and left-out text
    # drop some (`meaning_before_runs`): no weight changes them; None where none were found
    meaning_before_runs: MeaningMatches | None = field(default=None, compare=False, repr=False)

    @property
    def k_max(self) -> int:
        return self.options.k_max

    def similarity(self):
        """Per document: similarity index and sources (`DocumentSimilarity`); reference and
        archive documents are sources only (index 0)."""
        return document_similarity(self.passages, ~self.is_essay)

    def meaning_shares(self, a: int, b: int) -> tuple[float, float]:
        """(share of a's own text, share of b's) paraphrased or translated from the other
        (`similarity.pair_meaning_shares`)."""
        return pair_meaning_shares(self.passages, ~self.is_essay, a, b)

    @property
    def is_archive(self) -> np.ndarray:
        """bool per document: an archive document (a previous year's) that a check against
        the archive brought in: a source, never one of the essays checked."""
        from simsift.core.pipeline.check import is_archive_path  # check imports this module

        return np.array([is_archive_path(d.path) for d in self.documents], bool)

    @property
    def is_essay(self) -> np.ndarray:
        """bool per document: one of the essays checked, neither in a reference folder nor
        an archive document; only these are ranked and counted in the overview."""
        return ~self.is_reference[: len(self.documents)] & ~self.is_archive

    def file_counts(self) -> FileCounts:
        """What became of the files found in the scanned folders (`FileCounts`)."""
        from simsift.core.pipeline.stages import all_roots, under_any  # stages imports this

        essays = self.is_essay
        archive = ~essays & ~self.is_reference[: len(self.documents)]
        roots = all_roots(self.options)
        problems = (*self.errors, *self.skipped, *self.garbled)
        outside = [not under_any(r.path, roots) for r in problems]
        errors_outside = sum(outside[: len(self.errors)])
        skipped_outside = sum(outside[len(self.errors) : len(self.errors) + len(self.skipped)])
        garbled_outside = sum(outside[len(self.errors) + len(self.skipped) :])
        return FileCounts(
            essays=int(essays.sum()),
            references=int(self.is_reference[: len(self.documents)].sum()),
            garbled=len(self.garbled) - garbled_outside,
            not_read=len(self.errors) - errors_outside,
            skipped=len(self.skipped) - skipped_outside,
            archive=int(archive.sum()),
            archive_problems=errors_outside + skipped_outside + garbled_outside,
        )

    @property
    def warned(self) -> tuple[FileRecord, ...]:
        """Documents read with a warning: their text may not be what the file shows."""
        return tuple(d for d in self.documents if d.warning)

    @property
    def excluded_share(self) -> np.ndarray:
        """Share of each document's body that is excluded text: template (matching a reference
        folder) or common (held by many documents)."""
        return self.passages.excluded_share

    def distance(self, a: int | np.ndarray, b: int | np.ndarray) -> int | np.ndarray:
        """Hamming distance of the fingerprints of documents a and b (elementwise for
        arrays of document numbers)."""
        bits = hamming(self.fingerprints[a], self.fingerprints[b])
        return int(bits) if np.ndim(bits) == 0 else bits.astype(np.int64)

    def passage_text(self, row: int, max_chars: int = 300) -> str:
        """The text of passage `row` (its paragraphs, cut at `max_chars`)."""
        p = self.passages.passages
        paragraphs = self.documents[int(p.doc[row])].paragraphs
        text = " ".join(paragraphs[int(p.para_start[row]) : int(p.para_stop[row])])
        return text if len(text) <= max_chars else text[: max_chars - 1] + "…"

    def common_run_text(self, row: int, max_chars: int = 300) -> str:
        """The text of common run `row` (`PassageResult.common_runs`), cut at `max_chars`."""
        runs = self.passages.common_runs
        start = int(runs.start[row])
        text = span_text(
            self.documents[int(runs.doc[row])],
            start,
            start + int(runs.length[row]),
            self.options.traditional_to_simplified,
        )
        return text if len(text) <= max_chars else text[: max_chars - 1] + "…"

    def partial_pairs(self, threshold: float | None = None) -> PairOverlaps:
        """Pairs whose larger containment reaches `threshold` (default: the scan options').

        Arrays `left`, `right`, `containment_ab`, `containment_ba`, `overlap`.
        """
        return self.passages.partial(threshold)

    def overlap(self, a: int, b: int) -> tuple[float, float, float]:
        """(containment of a in b, of b in a, overlap) of any two documents (0 if none)."""
        return self.passages.overlap(a, b)

    def overlap_many(
        self, left: np.ndarray, right: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`overlap` for many pairs (left < right): containment_ab, containment_ba, overlap."""
        return self.passages.overlap_many(left, right)

    def clusters(self, k: int) -> Clusters:
        """Clusters at distance k (0 <= k <= k_max), from the stored pairs; pairs of the same
        template with different content (`pair_kinds`) join no cluster."""
        if not 0 <= k <= self.k_max:
            raise ValueError(f"k must be between 0 and {self.k_max}, not {k}")
        return build_clusters(
            self.near_pairs(k),
            k,
            self.fingerprints,
            self.content_codes,
            self.text_codes,
            self.original_rank,
        )

    def near_pairs(self, k: int) -> Matches:
        """The stored pairs within k that share content: near duplicates, not the same
        template."""
        return self.pairs.subset((self.pairs.distance <= k) & ~self._same_template)

    @cached_property
    def _same_template(self) -> np.ndarray:
        """bool per stored pair: the same template (worked out once: k changes often)."""
        return self.pair_kinds(self.pairs) == KIND_SAME_TEMPLATE

    def pair_kinds(self, pairs: Matches) -> np.ndarray:
        """Kind code of each pair (`core.analysis.cluster`): exact, same text, near, or same
        template: a near pair sharing hardly any content outside template and common text
        (`same_template`), which is no duplicate to trash."""
        kinds = pair_kinds(pairs.left, pairs.right, self.content_codes, self.text_codes)
        near = np.flatnonzero(kinds == KIND_NEAR)
        if not len(near) or not self.complete:
            return kinds
        left, right = pairs.left[near], pairs.right[near]
        low, high = np.minimum(left, right), np.maximum(left, right)
        c_low, c_high, _ = self.overlap_many(low, high)
        own = self.passages.passages.doc_lengths() - self.passages.excluded_tokens
        template = same_template(
            kinds[near],
            c_low,
            c_high,
            self.passages.longest_runs(low, high),
            own[low],
            own[high],
            self.options.passages.shortest_run,
        )
        kinds[near[template]] = KIND_SAME_TEMPLATE
        return kinds

    def without_files(self, removed: np.ndarray) -> ScanResult:
        """This result as if the documents flagged in `removed` (bool per document) were gone.

        Their pairs and partial-copy overlaps are dropped, so clusters are rebuilt from the
        pairs that remain: a cluster held together only by a removed document falls apart.
        """
        if not removed.any():
            return self
        edited = self._keep_pairs(lambda left, right: ~(removed[left] | removed[right]))
        passages = edited.passages  # nor do they count among documents holding template text
        excluded_tokens = np.where(removed, 0, passages.excluded_tokens)
        return replace(edited, passages=replace(passages, excluded_tokens=excluded_tokens))

    def without_pair(self, a: int, b: int) -> ScanResult:
        """This result with the pair of documents (a, b) dismissed as "not a duplicate"."""
        low, high = min(a, b), max(a, b)
        return self._keep_pairs(lambda left, right: ~((left == low) & (right == high)))

    def without_ignored(self, ignored: Iterable[frozenset[str]]) -> ScanResult:
        """This result without the pairs of paths the user marked "not a duplicate"
        (pairs naming a path that is not a document here are left aside)."""
        number = {d.path: i for i, d in enumerate(self.documents)}
        n = max(len(self.documents), 1)
        pairs = [
            sorted((number[a], number[b]))
            for a, b in (sorted(pair) for pair in ignored if len(pair) == 2)
            if a in number and b in number
        ]
        if not pairs:
            return self
        keys = pair_keys(*np.array(pairs, dtype=np.int64).T, n)
        return self._keep_pairs(lambda left, right: ~np.isin(pair_keys(left, right, n), keys))

    def _keep_pairs(self, keep: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> ScanResult:
        """This result with only the document pairs (left < right) for which `keep` is true."""
        overlaps = self.passages.overlaps
        overlaps = overlaps.subset(keep(overlaps.left, overlaps.right))
        meaning = self.passages.meaning
        meaning = meaning.subset(keep(meaning.left, meaning.right))
        return replace(
            self,
            pairs=self.pairs.subset(keep(self.pairs.left, self.pairs.right)),
            passages=replace(self.passages, overlaps=overlaps, meaning=meaning),
        )
