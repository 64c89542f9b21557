"""Why two documents were paired: the measures behind a match, in one place.

The measures, each with one name across code, CSV, HTML report and window (the README's
"Measures" section defines them):

* Hamming distance: bits in which the two 64-bit document fingerprints differ;
* containment of A in B: share of A's own text (template and common text left out) inside
  passages that match a passage of B, and of B in A;
* shared passages: maximal runs of A's text covered by passages matched in B, and the
  longest of them in words;
* words in a row: the longest run of words A and B share verbatim (what makes a pair a
  partial copy whatever its share);
* by meaning: share of A's own text paraphrased or translated from B (no word-for-word
  run), and of B's from A;
* rarest shared terms: words both documents use that few other documents of the scan use
  (document frequency over the scan): the evidence a reader checks first.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from simsift.core.document import FileRecord
from simsift.core.progress import CancelToken
from simsift.core.text.features import stopword_hashes
from simsift.core.text.normalize import normalize_text
from simsift.core.text.quotations import BIBLIOGRAPHY, QUOTATION
from simsift.core.text.tokens import iter_tokens, token_hash

if TYPE_CHECKING:
    from simsift.core.match.passages import PassageResult

# Words shorter than this say little alone: "am", "act", a single Chinese character.
# A Chinese word of two characters is a word; a Latin one of three is mostly a function
# word or a common verb.
_MIN_WORD_CHARS = 4
_MIN_CJK_CHARS = 2


@dataclass(frozen=True, slots=True)
class PairEvidence:
    """The measures of one pair of documents a and b."""

    distance: int
    containment_ab: float  # of a in b
    containment_ba: float  # of b in a
    shared_passages: int
    longest_passage: int  # tokens of a's longest run inside matched passages
    longest_run: int = 0  # tokens both share in a row, verbatim
    meaning_ab: float = 0.0  # of a paraphrased or translated from b
    meaning_ba: float = 0.0  # of b paraphrased or translated from a

    @classmethod
    def of(cls, result, a: int, b: int) -> PairEvidence:
        """The evidence for documents a and b of a `core.pipeline.scan.ScanResult`."""
        ab, ba, _ = result.overlap(a, b)
        runs = _merged_runs([link.tokens_a for link in result.passages.links(a, b)])
        meaning_ab, meaning_ba = result.meaning_shares(a, b)
        return cls(
            distance=int(result.distance(a, b)),
            containment_ab=ab,
            containment_ba=ba,
            shared_passages=len(runs),
            longest_passage=max((stop - start for start, stop in runs), default=0),
            longest_run=result.passages.longest_run(a, b),
            meaning_ab=meaning_ab,
            meaning_ba=meaning_ba,
        )


def _merged_runs(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching [start, stop) ranges merged into maximal runs."""
    runs: list[tuple[int, int]] = []
    for start, stop in sorted(ranges):
        if runs and start <= runs[-1][1]:
            runs[-1] = (runs[-1][0], max(runs[-1][1], stop))
        else:
            runs.append((start, stop))
    return runs


class TermRarity:
    """Document frequency of every body token over a scan's documents.

    Built on first use (a second for tens of thousands of documents), from the token
    hashes the scan already holds; safe to use from a worker thread. With the scan's
    `passages`, words in text that never counts (template, common and set-apart text)
    are never shown as shared words; without, only set-apart text is left out.
    """

    def __init__(
        self,
        documents: Sequence[FileRecord],
        t2s: bool = True,
        passages: PassageResult | None = None,
    ) -> None:
        self.documents = documents
        self._t2s = t2s
        self._passages = passages
        self._number = {d.path: i for i, d in enumerate(documents)} if passages else {}
        self._lock = threading.Lock()
        self._hashes: np.ndarray | None = None
        self._counts: np.ndarray | None = None

    def document_frequency(self, hashes: np.ndarray) -> np.ndarray:
        """How many documents contain each token hash (0 for unknown tokens)."""
        known, counts = self._table()
        hashes = np.asarray(hashes, dtype=np.uint64)
        pos = np.minimum(np.searchsorted(known, hashes), max(len(known) - 1, 0))
        found = known[pos] == hashes if len(known) else np.zeros(len(hashes), bool)
        return np.where(found, counts[pos] if len(known) else 0, 0)

    def rarest_shared(
        self,
        left: FileRecord,
        right: FileRecord,
        count: int = 8,
        cancel: CancelToken | None = None,
    ) -> list[tuple[str, int]]:
        """Up to `count` words both documents use in text that counts, fewest documents of
        the scan first: (word, documents using it). Stopwords and short words are left out."""
        left_terms = self._terms(left, cancel)
        right_terms = self._terms(right, cancel)
        shared = sorted(left_terms.keys() & right_terms.keys())
        if not shared:
            return []
        frequency = self.document_frequency(np.array(shared, dtype=np.uint64))
        # ties: the word used more often in the two documents first, then alphabetical
        ranked = sorted(
            zip(shared, frequency.tolist(), strict=True),
            key=lambda item: (
                item[1],
                -(left_terms[item[0]][1] + right_terms[item[0]][1]),
                left_terms[item[0]][0],
            ),
        )
        return [(left_terms[h][0], int(f)) for h, f in ranked[:count]]

    def _terms(self, record: FileRecord, cancel: CancelToken | None):
        """hash -> (word, uses) for the words worth showing."""
        left_out = self._left_out(record)
        stopwords = stopword_hashes()
        terms: dict[int, tuple[str, int]] = {}
        position = 0
        for paragraph in record.paragraphs:
            if cancel is not None:
                cancel.check()
            text = normalize_text(paragraph, traditional_to_simplified=self._t2s)
            for token, is_digit in iter_tokens(text):
                position += 1
                if is_digit or not _worth_showing(token):
                    continue
                if left_out is not None and position <= len(left_out) and left_out[position - 1]:
                    continue
                h = token_hash(token)
                if _contains(stopwords, h):
                    continue
                word, uses = terms.get(h, (token, 0))
                terms[h] = (word, uses + 1)
        return terms

    def _left_out(self, record: FileRecord) -> np.ndarray | None:
        """Per body token of `record`: text that never counts (set-apart text from the
        token marks; template and common text too with the scan's passages); None when
        the record has no token stream to tell."""
        body = getattr(record.tokens, "body", None)
        if body is None:
            return None
        passages = self._passages
        set_apart = passages.options.set_apart if passages else (QUOTATION, BIBLIOGRAPHY)
        left_out = np.isin(np.asarray(body.marks), set_apart)
        doc = self._number.get(record.path, -1)
        offsets = passages.passages.offsets if passages is not None else np.zeros(1, np.int64)
        if 0 <= doc < len(offsets) - 1 and offsets[doc + 1] - offsets[doc] == len(left_out):
            for start, stop in passages.left_out_in(doc):
                left_out[start:stop] = True
        return left_out

    def _table(self) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            if self._hashes is None:
                self._hashes, self._counts = _document_frequencies(self.documents)
            return self._hashes, self._counts


def _document_frequencies(documents: Sequence[FileRecord]) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct body-token hashes and the number of documents holding each."""
    per_doc = [
        np.unique(d.tokens.body.hashes)
        for d in documents
        if d.tokens is not None and len(d.tokens.body.hashes)
    ]
    if not per_doc:
        return np.zeros(0, np.uint64), np.zeros(0, np.int64)
    return np.unique(np.concatenate(per_doc), return_counts=True)


def _worth_showing(token: str) -> bool:
    """Long enough to say something alone: two Chinese characters, four letters."""
    if "\u3400" <= token[0] <= "\ufaff":
        return len(token) >= _MIN_CJK_CHARS
    return len(token) >= _MIN_WORD_CHARS


def _contains(sorted_hashes: np.ndarray, h: int) -> bool:
    pos = int(np.searchsorted(sorted_hashes, np.uint64(h)))
    return pos < len(sorted_hashes) and int(sorted_hashes[pos]) == h
