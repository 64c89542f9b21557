"""Features and their weights, computed from cached token streams.

A feature is a word or an n-word shingle. Its weight is
tf scheme × idf (optional) × field boost (title) × user term weight,
after stopword and (optionally) digit removal. Everything here is numpy on
token hashes, so re-weighting a corpus never re-reads or re-segments text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np

from core.paths import resource_path
from core.tokens import DocumentTokens, TokenStream, hash_tokens, tokenize

TfScheme = Literal["raw", "log", "binary"]
TF_SCHEMES: tuple[TfScheme, ...] = ("raw", "log", "binary")

_SHINGLE_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


@dataclass(frozen=True)
class FeatureWeights:
    """How features are formed and weighted; one object carries all user settings.

    Args:
        tf_scheme: term-frequency weighting: "raw" count, "log" (1 + ln tf) or "binary".
        use_idf: multiply by the corpus inverse document frequency.
        title_boost: weight of a title occurrence relative to a body occurrence.
        ignore_digits: drop digit tokens (counters, dates, view counts).
        shingle_size: 1 for single words, n for overlapping n-word shingles.
        remove_stopwords: drop the bundled Chinese and English stopwords.
        term_weights: (term, weight) pairs; weight 0 removes a term (template words),
            weight > 1 boosts it (topic words).
    """

    tf_scheme: TfScheme = "log"
    use_idf: bool = False
    title_boost: float = 1.0  # 1.5 amplified site-name suffixes in HTML titles (docs/quality.md)
    ignore_digits: bool = True
    shingle_size: int = 1
    remove_stopwords: bool = True
    term_weights: tuple[tuple[str, float], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.tf_scheme not in TF_SCHEMES:
            raise ValueError(f"tf_scheme must be one of {TF_SCHEMES}, not {self.tf_scheme!r}")
        if not 1 <= self.shingle_size <= 8:
            raise ValueError(f"shingle_size must be between 1 and 8, not {self.shingle_size}")
        if self.title_boost < 0:
            raise ValueError(f"title_boost must be >= 0, not {self.title_boost}")
        if any(w < 0 for _, w in self.term_weights):
            raise ValueError("term weights must be >= 0")


@dataclass(frozen=True, slots=True)
class FeatureVector:
    """Distinct feature hashes of one document (sorted) and their weights."""

    hashes: np.ndarray  # uint64, sorted, unique
    weights: np.ndarray  # float64

    def __len__(self) -> int:
        return len(self.hashes)


@lru_cache(maxsize=1)
def stopword_hashes() -> np.ndarray:
    """Sorted hashes of the bundled stopword lists (normalized like document text)."""
    words: list[str] = []
    for name in ("en.txt", "zh.txt"):
        for line in resource_path("stopwords", name).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                words.extend(tokenize(line))
    return np.unique(hash_tokens(words))


@lru_cache(maxsize=16)
def _term_table(term_weights: tuple[tuple[str, float], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Sorted hashes of user terms and their weights (a multi-token term weights each token)."""
    table: dict[int, float] = {}
    for term, weight in term_weights:
        for h in hash_tokens(tokenize(term)):
            table[int(h)] = weight
    keys = np.array(sorted(table), dtype=np.uint64)
    return keys, np.array([table[int(k)] for k in keys], dtype=np.float64)


def _lookup(
    sorted_keys: np.ndarray, values: np.ndarray, hashes: np.ndarray, default: float
) -> np.ndarray:
    """Vectorized dictionary lookup of `hashes` in (sorted_keys -> values)."""
    out = np.full(len(hashes), default, dtype=np.float64)
    if len(sorted_keys) == 0 or len(hashes) == 0:
        return out
    pos = np.searchsorted(sorted_keys, hashes).clip(max=len(sorted_keys) - 1)
    hit = sorted_keys[pos] == hashes
    out[hit] = values[pos[hit]]
    return out


def token_weights(hashes: np.ndarray, is_digit: np.ndarray, weights: FeatureWeights) -> np.ndarray:
    """Each token's user weight; 0 for tokens removed (stopwords, digits, zeroed terms)."""
    keys, values = _term_table(weights.term_weights)
    user = _lookup(keys, values, hashes, 1.0)
    if weights.ignore_digits:
        user[is_digit] = 0.0
    if weights.remove_stopwords:
        user[_contains(stopword_hashes(), hashes)] = 0.0
    return user


def _contains(sorted_keys: np.ndarray, hashes: np.ndarray) -> np.ndarray:
    """Which `hashes` are in `sorted_keys`.

    Binary search instead of np.isin: isin sorts the whole corpus' tokens in calls that
    hold the GIL for a tenth of a second, freezing the window while a scan runs.
    """
    if len(sorted_keys) == 0:
        return np.zeros(len(hashes), dtype=bool)
    pos = np.searchsorted(sorted_keys, hashes).clip(max=len(sorted_keys) - 1)
    return sorted_keys[pos] == hashes


def _kept_tokens(stream: TokenStream, weights: FeatureWeights) -> tuple[np.ndarray, np.ndarray]:
    """Token hashes after stopword/digit/zero-weight removal, with each token's user weight."""
    user = token_weights(stream.hashes, stream.is_digit, weights)
    keep = user > 0
    return stream.hashes[keep], user[keep]


def shingle_hashes(hashes: np.ndarray, n: int) -> np.ndarray:
    """Stable hashes of the overlapping n-token windows of `hashes` (n=1: the tokens)."""
    if n == 1 or len(hashes) == 0:
        return hashes
    if len(hashes) < n:
        n = len(hashes)
    count = len(hashes) - n + 1
    acc = hashes[:count].copy()
    for j in range(1, n):
        acc = acc * _SHINGLE_MULTIPLIER + hashes[j : j + count]
    return _mix64(acc)


def _mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64 finalizer: spreads combined hashes over all 64 bits."""
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _shingle_user_weights(user: np.ndarray, n: int) -> np.ndarray:
    """A shingle carries the largest user weight of its tokens (a boosted word boosts it)."""
    if n == 1 or len(user) == 0:
        return user
    n = min(n, len(user))
    count = len(user) - n + 1
    return np.max(np.stack([user[j : j + count] for j in range(n)]), axis=0)


def _field_features(stream: TokenStream, weights: FeatureWeights) -> tuple[np.ndarray, np.ndarray]:
    hashes, user = _kept_tokens(stream, weights)
    return shingle_hashes(hashes, weights.shingle_size), _shingle_user_weights(
        user, weights.shingle_size
    )


def apply_tf(tf: np.ndarray, scheme: TfScheme) -> np.ndarray:
    """Term-frequency weighting of (possibly boosted) counts."""
    if scheme == "raw":
        return tf
    if scheme == "log":
        return np.where(tf > 0, 1.0 + np.log(np.maximum(tf, 1e-12)), 0.0)
    return (tf > 0).astype(np.float64)


def stream_features(stream: TokenStream, weights: FeatureWeights) -> FeatureVector:
    """Features of a single stream (e.g. one passage), without title or idf."""
    hashes, user = _field_features(stream, weights)
    return _combine(hashes, np.ones(len(hashes)), user, weights.tf_scheme)


def document_features(tokens: DocumentTokens, weights: FeatureWeights) -> FeatureVector:
    """Distinct features of a document and their weights, before idf.

    Title occurrences count `title_boost` times a body occurrence, so the tf scheme
    is applied to the boosted count.
    """
    body_h, body_u = _field_features(tokens.body, weights)
    title_h, title_u = _field_features(tokens.title, weights)
    hashes = np.concatenate([body_h, title_h])
    occurrence = np.concatenate([np.ones(len(body_h)), np.full(len(title_h), weights.title_boost)])
    return _combine(hashes, occurrence, np.concatenate([body_u, title_u]), weights.tf_scheme)


def _combine(
    hashes: np.ndarray, occurrence: np.ndarray, user: np.ndarray, scheme: TfScheme
) -> FeatureVector:
    if len(hashes) == 0:
        return FeatureVector(np.zeros(0, np.uint64), np.zeros(0, np.float64))
    unique, inverse = np.unique(hashes, return_inverse=True)
    tf = np.bincount(inverse, weights=occurrence, minlength=len(unique))
    user_max = np.zeros(len(unique))
    np.maximum.at(user_max, inverse, user)
    return FeatureVector(unique, apply_tf(tf, scheme) * user_max)


@dataclass(frozen=True, slots=True)
class IdfTable:
    """Document frequencies of features over a corpus."""

    hashes: np.ndarray  # sorted uint64
    idf: np.ndarray  # float64
    default: float  # idf of a feature never seen (df = 0)

    @classmethod
    def from_features(cls, vectors: Sequence[FeatureVector]) -> IdfTable:
        """Smoothed idf = ln((1 + N) / (1 + df)) + 1, as in common tf-idf practice."""
        n_docs = len(vectors)
        if n_docs == 0:
            return cls(np.zeros(0, np.uint64), np.zeros(0), 1.0)
        hashes, df = np.unique(np.concatenate([v.hashes for v in vectors]), return_counts=True)
        idf = np.log((1.0 + n_docs) / (1.0 + df)) + 1.0
        return cls(hashes, idf, float(np.log(1.0 + n_docs) + 1.0))

    def apply(self, vector: FeatureVector) -> FeatureVector:
        """The vector with each weight multiplied by its feature's idf."""
        idf = _lookup(self.hashes, self.idf, vector.hashes, self.default)
        return FeatureVector(vector.hashes, vector.weights * idf)


def corpus_features(
    tokens: Sequence[DocumentTokens], weights: FeatureWeights
) -> list[FeatureVector]:
    """Feature vectors of a corpus, with idf applied when `weights.use_idf`."""
    vectors = [document_features(t, weights) for t in tokens]
    if weights.use_idf:
        table = IdfTable.from_features(vectors)
        vectors = [table.apply(v) for v in vectors]
    return vectors
