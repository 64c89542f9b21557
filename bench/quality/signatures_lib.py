"""Signatures besides the weighted word SimHash, measured in docs/quality.md.

- **Punctuation context**: the two characters (CJK) or words (Latin) on each side of every
  comma, full stop, question and exclamation mark. They mark sentence boundaries, which a
  word substitution leaves alone; as features of a SimHash, alone or added to the words.
- **Seed 003's segment signature**: the punctuation contexts of the whole text in a row,
  cut into three parts, each part hashed, plus a hash of the title. Two documents are
  duplicates when the title (weight 1.5) and the parts (1.0 each) they share reach 3.
- **Keyword MD5**: the MD5 of a document's top-n terms, either in weight order (the seed's
  Con(T)) or sorted (Sort(T), which ignores the ranks). Documents with equal signatures are
  an exact-match pair, whatever the order of their words or paragraphs.
- **Sentence signatures**: a hash of every normalized sentence. Two documents share the
  sentences with equal hashes; their containment is the share of a document's words in
  sentences found in the other (an exact-match layer next to the passage SimHashes).

Every signature is computed from a document's title and paragraphs, or from its feature
vector; nothing here reads files.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

import numpy as np
from simsift.core.text.features import Features, FeatureWeights, corpus_features
from simsift.core.text.normalize import normalize_text

KeywordOrder = Literal["ordered", "sorted"]

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# after NFKC: full-width ，！？；： are ASCII; 。 and 、 stay as they are
_MARKS = ",.!?;。、"
_UNIT = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+|[{re.escape(_MARKS)}]")
# a sentence ends at 。！？ or at . ! ? followed by a space (not inside "os.path" or "3.5")
_SENTENCE_END = re.compile(r"(?<=[。!?])|(?<=[.!?])(?=\s)")
_CONTEXT_UNITS = 2
_SEGMENT_PARTS = 3
_TITLE_WEIGHT = 1.5  # the title counts 1.5, each part 1.0; duplicates reach 3
_SEGMENT_THRESHOLD = 3.0
_MAX_GROUP_PAIRS = 1000  # like the scan's MAX_LISTED_COPIES


@dataclass(frozen=True)
class SignatureOptions:
    """Side signatures a scan computes next to the SimHashes (`find_signature_matches`);
    all off by default: none found more at today's precision on bench/quality
    (docs/quality.md). Punctuation contexts and the segment signature are
    functions here but no scan option: they lost to the word SimHash everywhere.

    Args:
        keyword_terms: n of the keyword-MD5 signature (0: none); equal signatures pair.
        keyword_order: "sorted" (the set of top terms) or "ordered" (also their ranks).
        sentence_min_units: sentences with fewer units (words, or CJK characters / 2) have
            no signature (0: no sentence signatures).
        sentence_threshold: a pair shares sentences making up this share of either
            document ...
        sentence_min_shared: ... or this many units of sentences.
        sentence_max_docs: a sentence in more documents is common text.
    """

    keyword_terms: int = 0
    keyword_order: KeywordOrder = "sorted"
    sentence_min_units: int = 0
    sentence_threshold: float = 0.2
    sentence_min_shared: float = 100.0
    sentence_max_docs: int = 10

    def __post_init__(self) -> None:
        if self.keyword_terms < 0:
            raise ValueError(f"keyword_terms must be >= 0, not {self.keyword_terms}")
        if self.keyword_order not in ("ordered", "sorted"):
            raise ValueError(
                f"keyword_order must be 'ordered' or 'sorted', not {self.keyword_order!r}"
            )
        if self.sentence_min_units < 0:
            raise ValueError(f"sentence_min_units must be >= 0, not {self.sentence_min_units}")
        if not 0.0 <= self.sentence_threshold <= 1.0:
            raise ValueError(
                f"sentence_threshold must be between 0 and 1, not {self.sentence_threshold}"
            )
        if self.sentence_max_docs < 2:
            raise ValueError(f"sentence_max_docs must be at least 2, not {self.sentence_max_docs}")

    @property
    def enabled(self) -> bool:
        return self.keyword_terms > 0 or self.sentence_min_units > 0


@dataclass(frozen=True, slots=True)
class SignaturePairs:
    """Document pairs (left < right) matched by a signature, with a score per pair
    (shared segment weight, or shared sentence units; 1 for keyword matches)."""

    left: np.ndarray  # int64
    right: np.ndarray  # int64
    score: np.ndarray  # float64

    def __len__(self) -> int:
        return len(self.left)

    def subset(self, keep: np.ndarray) -> SignaturePairs:
        return SignaturePairs(self.left[keep], self.right[keep], self.score[keep])


def _hash64(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def _units(text: str) -> list[str]:
    """CJK characters, Latin words and punctuation marks of normalized text, in order."""
    return _UNIT.findall(normalize_text(text, traditional_to_simplified=True))


def punctuation_contexts(paragraphs: Sequence[str]) -> list[str]:
    """Per punctuation mark: the two units before it and the two after, as one string.

    Marks at a paragraph's edge, or next to another mark, take what is there; a mark with
    nothing on either side gives nothing. Full stop, question and exclamation marks are
    one class, commas, semicolons and enumeration commas another.
    """
    contexts = []
    for paragraph in paragraphs:
        units = _units(paragraph)
        words = [(i, u) for i, u in enumerate(units) if u not in _MARKS]
        positions = [i for i, _ in words]
        for i, unit in enumerate(units):
            if unit not in _MARKS:
                continue
            cut = np.searchsorted(positions, i)
            left = [u for _, u in words[max(0, cut - _CONTEXT_UNITS) : cut]]
            right = [u for _, u in words[cut : cut + _CONTEXT_UNITS]]
            if left or right:
                mark = "." if unit in ".!?。" else ","
                contexts.append(" ".join(left) + mark + " ".join(right))
    return contexts


@dataclass(frozen=True, slots=True)
class FeatureVector:
    """One document's distinct features (sorted hashes) and their weights."""

    hashes: np.ndarray  # uint64, increasing
    weights: np.ndarray  # float64

    def __len__(self) -> int:
        return len(self.hashes)


def per_document(features: Features) -> list[FeatureVector]:
    """The flat `Features` of a corpus split into one vector per document."""
    bounds = np.searchsorted(features.owner, np.arange(features.n + 1))
    return [
        FeatureVector(features.hashes[lo:hi], features.weights[lo:hi])
        for lo, hi in pairwise(bounds.tolist())
    ]


def as_features(vectors: Sequence[FeatureVector]) -> Features:
    """Vectors as the flat `Features` that `core.text.simhash.simhash_features` fingerprints."""
    owner = np.repeat(np.arange(len(vectors)), [len(v) for v in vectors])
    return Features(
        owner.astype(np.int64),
        np.concatenate([np.zeros(0, np.uint64), *(v.hashes for v in vectors)]),
        np.concatenate([np.zeros(0), *(v.weights for v in vectors)]),
        len(vectors),
    )


def punctuation_features(paragraphs: Sequence[str]) -> FeatureVector:
    """Distinct punctuation contexts as features (weight 1 + ln count), for a SimHash."""
    contexts = punctuation_contexts(paragraphs)
    if not contexts:
        return FeatureVector(np.zeros(0, np.uint64), np.zeros(0, np.float64))
    hashes = np.fromiter((_hash64(c) for c in contexts), np.uint64, len(contexts))
    unique, counts = np.unique(hashes, return_counts=True)
    return FeatureVector(unique, 1.0 + np.log(counts))


def with_punctuation(
    words: FeatureVector, punctuation: FeatureVector, weight: float
) -> FeatureVector:
    """Word features and punctuation-context features in one vector (the latter × weight)."""
    hashes = np.concatenate([words.hashes, punctuation.hashes])
    weights = np.concatenate([words.weights, punctuation.weights * weight])
    unique, inverse = np.unique(hashes, return_inverse=True)
    return FeatureVector(unique, np.bincount(inverse, weights=weights, minlength=len(unique)))


def segment_signature(title: str, paragraphs: Sequence[str]) -> np.ndarray:
    """Seed 003's signature: hash of the title, then hashes of the three parts of the
    punctuation contexts in a row (uint64; 0 where there is no title or no context)."""
    contexts = punctuation_contexts(paragraphs)
    out = np.zeros(1 + _SEGMENT_PARTS, np.uint64)
    if title.strip():
        out[0] = _hash64(normalize_text(title, traditional_to_simplified=True).strip())
    if contexts:
        bounds = np.linspace(0, len(contexts), _SEGMENT_PARTS + 1).round().astype(int)
        for part, (lo, hi) in enumerate(pairwise(bounds), start=1):
            if hi > lo:
                out[part] = _hash64("\n".join(contexts[lo:hi]))
    return out


def segment_pairs(signatures: np.ndarray) -> SignaturePairs:
    """Pairs whose shared title (1.5) and parts (1.0 each) reach 3, the segment signature's rule.

    Args:
        signatures: (documents, 4) uint64 from `segment_signature`.
    """
    weights = np.r_[_TITLE_WEIGHT, np.ones(_SEGMENT_PARTS)]
    candidates = [_equal_value_pairs(signatures[:, j]) for j in range(signatures.shape[1])]
    left = np.concatenate([c[0] for c in candidates])
    right = np.concatenate([c[1] for c in candidates])
    if len(left) == 0:
        return _no_pairs()
    keys = np.unique(left * len(signatures) + right)
    left, right = keys // len(signatures), keys % len(signatures)
    same = (signatures[left] == signatures[right]) & (signatures[left] != 0)
    score = same @ weights
    return SignaturePairs(left, right, score).subset(score >= _SEGMENT_THRESHOLD)


def keyword_signature(vector: FeatureVector, terms: int, order: KeywordOrder = "sorted") -> int:
    """MD5 (first 64 bits) of the `terms` heaviest features; 0 for fewer features.

    Ties in weight are broken by feature hash, so the signature does not depend on the
    order the words came in. "ordered" hashes the terms by rank, "sorted" by hash value.
    """
    if len(vector) < max(terms, 1):
        return 0
    rank = np.lexsort((vector.hashes, -vector.weights))[:terms]
    top = vector.hashes[rank] if order == "ordered" else np.sort(vector.hashes[rank])
    digest = hashlib.md5(top.astype("<u8").tobytes(), usedforsecurity=False).digest()
    return int.from_bytes(digest[:8], "little") or 1


def keyword_signatures(
    vectors: Sequence[FeatureVector], terms: int, order: KeywordOrder = "sorted"
) -> np.ndarray:
    """`keyword_signature` of every vector, as uint64."""
    return np.array([keyword_signature(v, terms, order) for v in vectors], dtype=np.uint64)


def equal_signature_pairs(
    signatures: np.ndarray, max_group: int = _MAX_GROUP_PAIRS
) -> SignaturePairs:
    """Pairs of documents with the same non-zero signature (score 1).

    In a group of more than `max_group` equal signatures (thousands of copies of one
    file) every member is paired with the first only: all pairs would grow with the
    square of the group, as with identical fingerprints in the scan.
    """
    left, right = _equal_value_pairs(np.asarray(signatures, np.uint64), max_group)
    return SignaturePairs(left, right, np.ones(len(left)))


def _equal_value_pairs(
    values: np.ndarray, max_group: int = _MAX_GROUP_PAIRS
) -> tuple[np.ndarray, np.ndarray]:
    """(left < right) with values[left] == values[right] != 0: all pairs of each group of
    at most `max_group` rows, and the first row with each other row of larger groups."""
    rows = np.flatnonzero(values != 0)
    order = rows[np.argsort(values[rows], kind="stable")]
    v = values[order]
    starts = np.flatnonzero(np.r_[True, v[1:] != v[:-1]])
    sizes = np.diff(np.r_[starts, len(v)])
    lefts, rights = [], []
    for start, size in zip(starts[sizes > 1], sizes[sizes > 1], strict=True):
        members = np.sort(order[start : start + size])
        if size > max_group:
            lefts.append(np.full(size - 1, members[0]))
            rights.append(members[1:])
            continue
        i, j = np.triu_indices(size, 1)
        lefts.append(members[i])
        rights.append(members[j])
    if not lefts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(lefts).astype(np.int64), np.concatenate(rights).astype(np.int64)


def _no_pairs() -> SignaturePairs:
    return SignaturePairs(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))


@dataclass(frozen=True, slots=True)
class SentenceSignatures:
    """Sentence hashes of a corpus as flat arrays: document d's distinct sentences are
    `hashes[offsets[d]:offsets[d + 1]]` with their sizes in `units` (words, or CJK
    characters / 2); `total_units` counts every sentence of a document."""

    hashes: np.ndarray  # uint64
    units: np.ndarray  # float64
    offsets: np.ndarray  # int64, documents + 1
    total_units: np.ndarray  # float64 per document

    @property
    def n_docs(self) -> int:
        return len(self.offsets) - 1


def sentences(paragraphs: Sequence[str]) -> list[str]:
    """The sentences of the paragraphs (a paragraph end also ends a sentence)."""
    return [s.strip() for p in paragraphs for s in _SENTENCE_END.split(p) if s.strip()]


def sentence_key(sentence: str) -> tuple[str, float]:
    """Normalized sentence (its words and CJK characters only) and its size in units."""
    units = [u for u in _units(sentence) if u not in _MARKS]
    cjk = sum(1 for u in units if len(u) == 1 and re.match(f"[{_CJK}]", u))
    return " ".join(units), (len(units) - cjk) + cjk / 2


def sentence_signatures(documents: Sequence[Sequence[str]], min_units: int) -> SentenceSignatures:
    """Distinct sentence hashes of every document (paragraphs), sentences of at least
    `min_units` units only: short sentences ("Returns None.") are common everywhere."""
    hashes, units, offsets, totals = [], [], [0], []
    for paragraphs in documents:
        seen: dict[int, float] = {}
        total = 0.0
        for sentence in sentences(paragraphs):
            key, size = sentence_key(sentence)
            total += size
            if size >= min_units:
                seen[_hash64(key)] = size
        hashes.extend(seen)
        units.extend(seen.values())
        offsets.append(len(hashes))
        totals.append(total)
    return SentenceSignatures(
        np.array(hashes, np.uint64),
        np.array(units, np.float64),
        np.array(offsets, np.int64),
        np.array(totals, np.float64),
    )


@dataclass(frozen=True, slots=True)
class SentenceOverlaps:
    """Document pairs (left < right) sharing sentences: shared units and containments."""

    left: np.ndarray
    right: np.ndarray
    shared_units: np.ndarray
    containment_ab: np.ndarray
    containment_ba: np.ndarray

    def partial(self, threshold: float, min_units: float) -> SignaturePairs:
        """Pairs whose larger containment reaches `threshold` or that share `min_units`."""
        larger = np.maximum(self.containment_ab, self.containment_ba)
        keep = (larger >= threshold) | (self.shared_units >= min_units)
        return SignaturePairs(self.left[keep], self.right[keep], self.shared_units[keep])


def sentence_overlaps(signatures: SentenceSignatures, max_docs: int = 10) -> SentenceOverlaps:
    """Pairs of documents sharing sentences; a sentence in more than `max_docs`
    documents is common text (a licence line, a prompt) and never counts."""
    n = signatures.n_docs
    doc = np.repeat(np.arange(n), np.diff(signatures.offsets))
    order = np.argsort(signatures.hashes, kind="stable")
    h, d, u = signatures.hashes[order], doc[order], signatures.units[order]
    starts = np.flatnonzero(np.r_[True, h[1:] != h[:-1]]) if len(h) else np.zeros(0, int)
    sizes = np.diff(np.r_[starts, len(h)])
    counted = (sizes >= 2) & (sizes <= max_docs)
    keys, shared = [], []
    for start, size in zip(starts[counted], sizes[counted], strict=True):
        members = d[start : start + size]
        i, j = np.triu_indices(size, 1)
        a, b = np.minimum(members[i], members[j]), np.maximum(members[i], members[j])
        keep = a != b
        keys.append(a[keep] * n + b[keep])
        shared.append(np.full(int(keep.sum()), u[start]))
    if not keys:
        empty = np.zeros(0, np.int64)
        return SentenceOverlaps(empty, empty, np.zeros(0), np.zeros(0), np.zeros(0))
    pair_keys, inverse = np.unique(np.concatenate(keys), return_inverse=True)
    units = np.bincount(inverse, weights=np.concatenate(shared))
    left, right = pair_keys // n, pair_keys % n
    total = signatures.total_units
    return SentenceOverlaps(
        left,
        right,
        units,
        np.minimum(units / np.maximum(total[left], 1), 1.0),
        np.minimum(units / np.maximum(total[right], 1), 1.0),
    )


@dataclass(frozen=True, slots=True)
class SignatureMatches:
    """What the side signatures of a scan found (reference-only pairs left out).

    `keyword`: pairs with equal keyword-MD5 signatures; `sentences`: pairs sharing
    sentences (all of them, with containments); `sentence_partial`: those reaching the
    options' share or shared units.
    """

    keyword: SignaturePairs
    sentences: SentenceOverlaps
    sentence_partial: SignaturePairs


def find_signature_matches(
    documents: Sequence,
    is_reference: np.ndarray,
    weights: FeatureWeights,
    options: SignatureOptions,
) -> SignatureMatches | None:
    """The side signatures' matches among scanned documents, or None when all are off.

    Args:
        documents: `FileRecord`s with title, paragraphs and tokens.
        is_reference: bool per document; pairs of two reference documents are dropped.
        weights: the scan's `FeatureWeights` (keywords are its heaviest features).
        options: which signatures.
    """
    if not options.enabled:
        return None
    keyword = _no_pairs()
    if options.keyword_terms:
        vectors = per_document(corpus_features([d.tokens for d in documents], weights))
        signatures = keyword_signatures(vectors, options.keyword_terms, options.keyword_order)
        keyword = _not_both_reference(equal_signature_pairs(signatures), is_reference)
    overlaps = SentenceOverlaps(
        *(np.zeros(0, t) for t in (np.int64, np.int64, float, float, float))
    )
    if options.sentence_min_units:
        signatures = sentence_signatures(
            [d.paragraphs for d in documents], options.sentence_min_units
        )
        overlaps = sentence_overlaps(signatures, options.sentence_max_docs)
        both = is_reference[overlaps.left] & is_reference[overlaps.right]
        overlaps = SentenceOverlaps(*(getattr(overlaps, f)[~both] for f in overlaps.__slots__))
    partial = overlaps.partial(options.sentence_threshold, options.sentence_min_shared)
    return SignatureMatches(keyword, overlaps, partial)


def _not_both_reference(pairs: SignaturePairs, is_reference: np.ndarray) -> SignaturePairs:
    return pairs.subset(~(is_reference[pairs.left] & is_reference[pairs.right]))
