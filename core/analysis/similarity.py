"""The teacher's view of a scan: per document, how much of it is found in other documents
(its *similarity index*), and which documents it is found in (its *sources*).

A document's similarity index is the union of its own tokens inside passages matched in
any other document, over its own tokens; template, common and reference text never count
(as for containment). So an essay stitched from three sources at 15% each has an index
near 45% although no single pair reaches the partial-copy threshold.

Text copied by meaning (paraphrased or translated, `PassageResult.meaning`) has shares of
its own, of the same own tokens, never folded into the index: the text a document shares
word for word with another is never counted again as paraphrased.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import pair_keys
from simsift.core.match.grams import cover
from simsift.core.match.passages import PassageResult, covered_mask, per_doc_sum


@dataclass(frozen=True, slots=True)
class Source:
    """Another document holding part of this one: `share` of this one's own text word
    for word, `paraphrased` and `translated` shares beside it."""

    doc: int
    share: float
    matched_tokens: int
    paraphrased: float = 0.0
    translated: float = 0.0


@dataclass(frozen=True)
class DocumentSimilarity:
    """Per document: similarity index, number of sources, the largest source and its share.

    Arrays have one entry per document; `top_source` is -1 for a document found nowhere.
    Reference documents (prompts, last year's essays) get 0: they are sources, not essays.
    """

    index: np.ndarray  # float
    own_tokens: np.ndarray  # int, body tokens that are not template or common text
    paraphrased: np.ndarray  # float: share of own text paraphrased from others
    translated: np.ndarray  # float: share of own text translated from others
    source_count: np.ndarray  # int
    top_source: np.ndarray  # int
    top_share: np.ndarray  # float
    _owner: np.ndarray  # per (document, source) row, sorted by owner then share desc
    _other: np.ndarray
    _share: np.ndarray
    _matched: np.ndarray
    _by_meaning: dict  # owner -> {other: (paraphrased, translated) shares}

    def sources(self, doc: int) -> list[Source]:
        """The documents holding part of `doc`, largest share first (word for word, then
        by meaning)."""
        lo, hi = np.searchsorted(self._owner, [doc, doc + 1])
        meaning = self._by_meaning.get(doc, {})
        found = [
            Source(int(o), float(s), int(m), *meaning.get(int(o), (0.0, 0.0)))
            for o, s, m in zip(
                self._other[lo:hi], self._share[lo:hi], self._matched[lo:hi], strict=True
            )
        ]
        listed = {s.doc for s in found}
        by_meaning = [
            Source(other, 0.0, 0, *shares)
            for other, shares in meaning.items()
            if other not in listed
        ]
        return found + sorted(
            by_meaning, key=lambda s: (-sum((s.paraphrased, s.translated)), s.doc)
        )

    @property
    def total(self) -> np.ndarray:
        """Per document: the share of its own text found elsewhere in any way."""
        return np.minimum(self.index + self.paraphrased + self.translated, 1.0)


def document_similarity(passages: PassageResult, is_reference: np.ndarray) -> DocumentSimilarity:
    """Similarity index and sources of every document of a scan's passage result."""
    p, overlaps = passages.passages, passages.overlaps
    n = p.n_docs
    own = np.maximum(p.doc_lengths() - passages.excluded_tokens, 0)
    credited = _credited_mask(passages)
    index = _matched_share(passages, credited, own)
    index[is_reference[:n]] = 0.0
    shares, by_meaning = _meaning_shares(
        passages, passages.meaning, credited, own, is_reference[:n]
    )
    # each overlap row is two (owner, source) rows: left in right, right in left
    owner = np.r_[overlaps.left, overlaps.right]
    other = np.r_[overlaps.right, overlaps.left]
    share = np.r_[overlaps.containment_ab, overlaps.containment_ba]
    matched = np.r_[overlaps.matched_left, overlaps.matched_right]
    keep = (matched > 0) & ~is_reference[owner] if len(owner) else np.zeros(0, bool)
    owner, other, share, matched = owner[keep], other[keep], share[keep], matched[keep]
    order = np.lexsort((other, -share, owner))
    owner, other, share, matched = owner[order], other[order], share[order], matched[order]
    count = np.bincount(owner, minlength=n)
    first = np.searchsorted(owner, np.arange(n))
    has = count > 0
    top_source = np.full(n, -1, np.int64)
    top_share = np.zeros(n)
    top_source[has] = other[first[has]]
    top_share[has] = share[first[has]]
    return DocumentSimilarity(
        index, own, *shares, count, top_source, top_share, owner, other, share, matched, by_meaning
    )


def pair_meaning_shares(
    passages: PassageResult, is_reference: np.ndarray, a: int, b: int
) -> tuple[float, float]:
    """(share of a's own text, share of b's) found by meaning in the other, paraphrased
    and translated together: `DocumentSimilarity.sources`' figures for this pair, worked
    out from its fragments alone."""
    m = passages.meaning
    rows = ((m.left == a) & (m.right == b)) | ((m.left == b) & (m.right == a))
    if not rows.any():
        return 0.0, 0.0
    own = np.maximum(passages.passages.doc_lengths() - passages.excluded_tokens, 0)
    n = passages.passages.n_docs
    _, by_meaning = _meaning_shares(
        passages, m.subset(rows), _credited_mask(passages), own, is_reference[:n]
    )
    return (
        float(sum(by_meaning.get(a, {}).get(b, (0.0,)))),
        float(sum(by_meaning.get(b, {}).get(a, (0.0,)))),
    )


def _credited_mask(passages: PassageResult) -> np.ndarray:
    """Global mask of the own tokens inside a passage matched in another document, or a
    shared run, of a pair that is still reported (ignored and removed pairs no longer
    count)."""
    p, matches, overlaps = passages.passages, passages.matches, passages.overlaps
    n = max(p.n_docs, 1)
    left_doc, right_doc = p.doc[matches.left], p.doc[matches.right]
    low, high = np.minimum(left_doc, right_doc), np.maximum(left_doc, right_doc)
    reported = np.isin(pair_keys(low, high, n), pair_keys(overlaps.left, overlaps.right, n))
    matched_rows = np.zeros(len(p), dtype=bool)
    matched_rows[matches.left[reported]] = True
    matched_rows[matches.right[reported]] = True
    ignore = passages.is_template | passages.is_common
    credited = covered_mask(_credited(p), matched_rows) | _run_mask(passages, overlaps)
    credited &= ~covered_mask(p, ignore)
    left_out = passages.left_out_stop - passages.left_out_start  # set-apart text too
    credited &= ~cover(passages.left_out_start, left_out, len(credited))
    return credited


def _matched_share(passages: PassageResult, credited: np.ndarray, own: np.ndarray) -> np.ndarray:
    """Per document: share of its own tokens credited as copied word for word."""
    p, overlaps = passages.passages, passages.overlaps
    counts = per_doc_sum(credited, p.offsets)
    # the union of a document's matched text holds each pair's: documents with the same
    # text are matched in full (`credit_same_text`) where passages and runs fall short
    np.maximum.at(counts, overlaps.left, overlaps.matched_left)
    np.maximum.at(counts, overlaps.right, overlaps.matched_right)
    return np.minimum(np.divide(counts, own, out=np.zeros(len(own)), where=own > 0), 1.0)


def _meaning_shares(passages, meaning, credited, own, is_reference):
    """(paraphrased, translated) share per document, and per (document, source) pair,
    of own tokens inside fragments of that kind and outside verbatim and left-out text;
    each token counts once, for the first kind that holds it."""
    from simsift.core.match.meaning.matches import KINDS

    p = passages.passages
    total = int(p.offsets[-1])
    free = ~credited
    free &= ~covered_mask(p, passages.is_template | passages.is_common)
    free &= ~cover(passages.left_out_start, passages.left_out_stop - passages.left_out_start, total)
    shares, by_meaning = [], {}
    sides = (
        (meaning.left, meaning.right, meaning.token_start_left, meaning.token_stop_left),
        (meaning.right, meaning.left, meaning.token_start_right, meaning.token_stop_right),
    )
    for k in range(len(KINDS)):
        of_kind = meaning.kind == k
        mask = np.zeros(total, bool)
        for owner, other, start, stop in sides:
            rows = of_kind & ~is_reference[owner]
            begin = start[rows] + p.offsets[owner[rows]]
            length = np.maximum(stop[rows] - start[rows], 0)
            mask |= cover(begin, length, total)
            for o, s, b, e in zip(owner[rows], other[rows], begin, begin + length, strict=True):
                counted = int((free[b:e]).sum())
                if counted and own[o] > 0:
                    of_owner = by_meaning.setdefault(int(o), {})
                    pair = list(of_owner.get(int(s), (0.0, 0.0)))
                    pair[k] = min(pair[k] + counted / float(own[o]), 1.0)
                    of_owner[int(s)] = tuple(pair)
        counts = per_doc_sum(mask & free, p.offsets)
        shares.append(np.minimum(np.divide(counts, own, out=np.zeros(len(own)), where=own > 0), 1))
        free &= ~mask  # text counted as paraphrased is not counted again as translated
    return shares, by_meaning


def _run_mask(passages: PassageResult, overlaps) -> np.ndarray:
    """Global mask of the tokens in shared runs of pairs that are still reported."""
    p, r = passages.passages, passages.runs
    n = max(p.n_docs, 1)
    reported = np.isin(pair_keys(r.left, r.right, n), pair_keys(overlaps.left, overlaps.right, n))
    r = r.subset(reported)
    starts = np.r_[r.start_left + p.offsets[r.left], r.start_right + p.offsets[r.right]]
    return cover(starts, np.r_[r.length, r.length], int(p.offsets[-1]))


def _credited(p):
    """The passages with each one's extent cut to what a match vouches for (`credit_stop`)."""
    from dataclasses import replace

    return replace(p, stop=p.credit_stop)
