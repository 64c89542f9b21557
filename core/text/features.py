"""Features and their weights, computed from cached token streams.

A feature is a word or an n-word shingle. Its weight is
tf scheme × idf (optional) × field boost (title) × user term weight,
after stopword and (optionally) digit removal. Everything here is numpy on
token hashes, so re-weighting a corpus never re-reads or re-segments text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import groupby
from typing import Literal

import numpy as np
from simsift.core.arrays import owners
from simsift.core.paths import resource_path
from simsift.core.text.tokens import DocumentTokens, hash_tokens, tokenize

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
class Features:
    """Distinct features of `n` feature sets (documents or passages) as flat arrays.

    Rows are sorted by owner, then by hash; an owner without features has no rows.
    Flat arrays let a whole corpus be weighted and fingerprinted in a few numpy calls.
    """

    owner: np.ndarray  # int64, non-decreasing: the feature set of each row
    hashes: np.ndarray  # uint64, increasing within an owner
    weights: np.ndarray  # float64
    n: int

    def __len__(self) -> int:
        return len(self.hashes)

    def counts(self) -> np.ndarray:
        """Distinct features of each feature set."""
        return np.bincount(self.owner, minlength=self.n)

    @classmethod
    def concat(cls, parts: Sequence[Features]) -> Features:
        """The feature sets of all parts, numbered on from one part to the next."""
        first = np.cumsum([0] + [p.n for p in parts])
        owner = [p.owner + f for p, f in zip(parts, first[:-1], strict=True)]
        return cls(
            np.concatenate([np.zeros(0, np.int64), *owner]),
            np.concatenate([np.zeros(0, np.uint64), *(p.hashes for p in parts)]),
            np.concatenate([np.zeros(0), *(p.weights for p in parts)]),
            int(first[-1]),
        )


@dataclass(frozen=True, slots=True)
class FeatureCounts:
    """Distinct features of `n` feature sets with their occurrences, before the tf scheme,
    the title boost and idf weigh them: what those three settings leave alone, so a
    change of them only weighs these again (`weighed`).

    Rows are sorted by owner, then by hash, as in `Features`.
    """

    owner: np.ndarray  # int64, non-decreasing
    hashes: np.ndarray  # uint64, increasing within an owner
    count: np.ndarray  # int64: occurrences
    in_title: np.ndarray  # int64: occurrences in a title
    user: np.ndarray  # float64: the largest user weight of its tokens
    n: int

    def __len__(self) -> int:
        return len(self.hashes)

    def weighed(self, tf_scheme: TfScheme, title_boost: float = 1.0) -> Features:
        """Features weighing tf scheme(occurrences, a title one counting `title_boost`)
        × user weight."""
        # counts, not a sum of float occurrences: equal features come in no fixed order
        tf = self.count.astype(np.float64)
        if title_boost != 1.0:
            tf += (title_boost - 1.0) * self.in_title
        weight = apply_tf(tf, tf_scheme) * self.user
        return Features(self.owner, self.hashes, weight, self.n)

    @classmethod
    def empty(cls, n: int) -> FeatureCounts:
        no_rows = np.zeros(0, np.int64)
        return cls(no_rows, np.zeros(0, np.uint64), no_rows, no_rows, np.zeros(0), n)

    @classmethod
    def concat(cls, parts: Sequence[FeatureCounts]) -> FeatureCounts:
        """The feature sets of all parts, numbered on from one part to the next."""
        first = np.cumsum([0] + [p.n for p in parts])
        owner = [p.owner + f for p, f in zip(parts, first[:-1], strict=True)]
        columns = (
            np.concatenate([getattr(e, name) for e in (cls.empty(0), *parts)])
            for name in ("hashes", "count", "in_title", "user")
        )
        return cls(np.concatenate([np.zeros(0, np.int64), *owner]), *columns, int(first[-1]))


def counted_alike(a: FeatureWeights, b: FeatureWeights) -> bool:
    """Whether features counted with weights `a` are those of `b` (only the tf scheme, the
    title boost or idf differ: `FeatureCounts.weighed` and `IdfTable` apply them)."""
    return (a.ignore_digits, a.shingle_size, a.remove_stopwords, a.term_weights) == (
        b.ignore_digits,
        b.shingle_size,
        b.remove_stopwords,
        b.term_weights,
    )


STOPWORD_LISTS = ("en.txt", "zh.txt")
# The lists' token hashes, written by `write_stopword_hashes`: tokenizing the Chinese list
# loads jieba's dictionary, 90 MB that the scan process needs for nothing else.
STOPWORD_HASHES = "hashes.txt"


@lru_cache(maxsize=1)
def stopword_hashes() -> np.ndarray:
    """Sorted hashes of the bundled stopword lists (normalized like document text), as
    `tokenized_stopword_hashes` gives them (a test holds the two equal)."""
    lines = resource_path("stopwords", STOPWORD_HASHES).read_text(encoding="ascii").splitlines()
    return np.array([int(line, 16) for line in lines if not line.startswith("#")], np.uint64)


def tokenized_stopword_hashes() -> np.ndarray:
    """Sorted hashes of the tokens of the stopword lists."""
    words: list[str] = []
    for name in STOPWORD_LISTS:
        for line in resource_path("stopwords", name).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                words.extend(tokenize(line))
    return np.unique(hash_tokens(words))


def write_stopword_hashes() -> None:
    """Write the stopword lists' token hashes (after editing a list, or the tokenizer)."""
    header = "# token hashes of en.txt and zh.txt: python -m simsift.core.text.features\n"
    hashes = "".join(f"{int(h):016x}\n" for h in tokenized_stopword_hashes())
    resource_path("stopwords", STOPWORD_HASHES).write_text(header + hashes, encoding="ascii")


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


def shingle_hashes(hashes: np.ndarray, n: int) -> np.ndarray:
    """Stable hashes of the overlapping n-token windows of `hashes` (n=1: the tokens).

    A stream shorter than n gives one shingle of all its tokens.
    """
    return _run_shingles(hashes, np.ones(len(hashes)), np.zeros(len(hashes), np.int64), n)[0]


def _run_shingles(
    hashes: np.ndarray, user: np.ndarray, run: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n-token shingles that stay inside runs of equal (non-decreasing) `run`, with the
    largest user weight of their tokens (a boosted word boosts its shingles).
    A run shorter than n gives one shingle of all its tokens."""
    if n == 1 or len(hashes) == 0:
        return hashes, user, run
    first = np.flatnonzero(np.r_[True, run[1:] != run[:-1]])
    length = np.diff(np.r_[first, len(run)])
    starts = np.arange(max(len(hashes) - n + 1, 0))
    starts = starts[run[starts] == run[starts + n - 1]]
    out_hashes, out_user = _windows(hashes, user, starts, n)
    for size in np.unique(length[length < n]).tolist():
        short = first[length == size]
        short_hashes, short_user = _windows(hashes, user, short, size)
        at = np.searchsorted(starts, short)  # keep the shingles in token order
        starts = np.insert(starts, at, short)
        out_hashes = np.insert(out_hashes, at, short_hashes)
        out_user = np.insert(out_user, at, short_user)
    return out_hashes, out_user, run[starts]


def _windows(hashes: np.ndarray, user: np.ndarray, starts: np.ndarray, size: int):
    """Hash and largest user weight of the `size`-token windows at `starts`."""
    acc = hashes[starts]
    top = user[starts]
    for j in range(1, size):
        acc = acc * _SHINGLE_MULTIPLIER + hashes[starts + j]
        top = np.maximum(top, user[starts + j])
    return _mix64(acc), top


def _mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64 finalizer: spreads combined hashes over all 64 bits."""
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def apply_tf(tf: np.ndarray, scheme: TfScheme) -> np.ndarray:
    """Term-frequency weighting of (possibly boosted) counts."""
    if scheme == "raw":
        return tf
    if scheme == "log":
        return np.where(tf > 0, 1.0 + np.log(np.maximum(tf, 1e-12)), 0.0)
    return (tf > 0).astype(np.float64)


def combine_features(
    hashes: np.ndarray,
    user: np.ndarray,
    run: np.ndarray,
    n: int,
    shingle_size: int,
    tf_scheme: TfScheme,
    owner_of_run: np.ndarray | None = None,
    boosted_runs: np.ndarray | None = None,
    boost: float = 1.0,
) -> Features:
    """The one way tokens become weighted features, for documents and passages alike.

    Tokens with user weight 0 are dropped; the rest form `shingle_size`-token shingles
    inside each run (a field of a document, or a passage); each distinct feature of an
    owner weighs tf scheme(its occurrences) × the largest user weight it had.

    Args:
        hashes, user: per token, its hash and user weight (`token_weights`).
        run: per token, non-decreasing run number; shingles never cross runs.
        n: number of owners (feature sets).
        owner_of_run: the owner of each run (non-decreasing); default: the run itself.
        boosted_runs: bool per run: an occurrence there counts `boost` times (a title).
    """
    counts = feature_counts(hashes, user, run, n, shingle_size, owner_of_run, boosted_runs)
    return counts.weighed(tf_scheme, boost)


def feature_counts(
    hashes: np.ndarray,
    user: np.ndarray,
    run: np.ndarray,
    n: int,
    shingle_size: int,
    owner_of_run: np.ndarray | None = None,
    boosted_runs: np.ndarray | None = None,
) -> FeatureCounts:
    """`combine_features` before weighing: each owner's distinct features and their
    occurrences (in boosted runs too)."""
    keep = user > 0
    hashes, user, run = _run_shingles(hashes[keep], user[keep], run[keep], shingle_size)
    if len(hashes) == 0:
        return FeatureCounts.empty(n)
    owner = run if owner_of_run is None else owner_of_run[run]
    order = _by_owner_then_hash(owner, hashes, n)
    owner, hashes, run = owner[order], hashes[order], run[order]
    new = np.r_[True, (owner[1:] != owner[:-1]) | (hashes[1:] != hashes[:-1])]
    starts = np.flatnonzero(new)
    count = np.diff(np.r_[starts, len(hashes)])
    in_title = (
        np.add.reduceat(boosted_runs[run].astype(np.int64), starts)
        if boosted_runs is not None
        else np.zeros(len(starts), np.int64)
    )
    user = np.maximum.reduceat(user[order], starts)
    return FeatureCounts(owner[starts].astype(np.int64), hashes[starts], count, in_title, user, n)


def _by_owner_then_hash(owner: np.ndarray, hashes: np.ndarray, n: int) -> np.ndarray:
    """Order sorting rows by owner, then hash: several times faster than np.lexsort
    (a quick sort of the hashes, then a stable radix sort of small owner numbers)."""
    by_hash = np.argsort(hashes)
    small = owner[by_hash].astype(np.uint16 if n <= 1 << 16 else np.int64)
    return by_hash[np.argsort(small, kind="stable")]


# Documents with more tokens than this are weighed in pieces of this many tokens: a
# 200 MB text (34 million tokens) would otherwise need gigabytes of temporary arrays.
DOCUMENT_TOKENS_AT_ONCE = 1 << 21


def corpus_features(
    tokens: Sequence[DocumentTokens],
    weights: FeatureWeights,
    idf: bool | None = None,
    *,
    tokens_at_once: int | None = None,
    between_pieces: Callable[[], None] = lambda: None,
) -> Features:
    """Features of documents (title and body), with idf applied when `weights.use_idf`.

    Title occurrences count `title_boost` times a body occurrence, so the tf scheme is
    applied to the boosted count. `idf=False` leaves idf out whatever the weights say.
    Documents longer than `tokens_at_once` (default `DOCUMENT_TOKENS_AT_ONCE`) are weighed
    in pieces, with the same result;
    `between_pieces` is called after each (a cancel check).
    """
    counts = corpus_counts(
        tokens, weights, tokens_at_once=tokens_at_once, between_pieces=between_pieces
    )
    return weighed_features(counts, weights, idf)


def weighed_features(
    counts: FeatureCounts, weights: FeatureWeights, idf: bool | None = None
) -> Features:
    """The features of `counts` weighed as `weights` say (idf over the counted documents;
    `idf=False` leaves it out whatever the weights say)."""
    features = counts.weighed(weights.tf_scheme, weights.title_boost)
    if weights.use_idf if idf is None else idf:
        features = IdfTable.from_features(features).apply(features)
    return features


def corpus_counts(
    tokens: Sequence[DocumentTokens],
    weights: FeatureWeights,
    *,
    tokens_at_once: int | None = None,
    between_pieces: Callable[[], None] = lambda: None,
) -> FeatureCounts:
    """`FeatureCounts` of documents (title and body), counted as `corpus_features` counts."""
    tokens_at_once = tokens_at_once or DOCUMENT_TOKENS_AT_ONCE
    parts = []
    for large, group in groupby(tokens, key=lambda t: len(t.body) + len(t.title) > tokens_at_once):
        if large:
            parts += [
                _large_document_counts(t, weights, tokens_at_once, between_pieces) for t in group
            ]
        else:
            parts.append(_counts_at_once(list(group), weights))
    return parts[0] if len(parts) == 1 else FeatureCounts.concat(parts)


def _counts_at_once(tokens: Sequence[DocumentTokens], weights: FeatureWeights) -> FeatureCounts:
    """Feature counts of documents from all their tokens at once."""
    streams = [s for t in tokens for s in (t.body, t.title)]
    lengths = np.array([len(s) for s in streams], dtype=np.int64)
    hashes = np.concatenate([s.hashes for s in streams]) if streams else np.zeros(0, np.uint64)
    digits = np.concatenate([s.is_digit for s in streams]) if streams else np.zeros(0, bool)
    run = owners(lengths)
    return feature_counts(
        hashes,
        token_weights(hashes, digits, weights),
        run,
        len(tokens),
        weights.shingle_size,
        owner_of_run=np.arange(len(streams)) // 2,
        boosted_runs=np.tile([False, True], len(tokens)),
    )


@dataclass(frozen=True, slots=True)
class _Tally:
    """Distinct features of part of a document: sorted hashes, occurrences (of them in
    the title) and the largest user weight, enough to merge parts exactly."""

    hashes: np.ndarray
    count: np.ndarray
    in_title: np.ndarray
    user: np.ndarray

    @classmethod
    def of(cls, hashes: np.ndarray, user: np.ndarray, title: bool) -> _Tally:
        count = np.ones(len(hashes), np.int64)
        return cls(hashes, count, count if title else np.zeros_like(count), user).merged()

    @classmethod
    def concat(cls, tallies: Sequence[_Tally]) -> _Tally:
        no_rows = np.zeros(0, np.int64)
        empty = cls(np.zeros(0, np.uint64), no_rows, no_rows, np.zeros(0))
        columns = (
            np.concatenate([getattr(t, name) for t in (empty, *tallies)])
            for name in ("hashes", "count", "in_title", "user")
        )
        return cls(*columns)

    def merged(self) -> _Tally:
        """One row per distinct hash, in hash order."""
        if len(self.hashes) == 0:
            return self
        order = np.argsort(self.hashes, kind="stable")
        hashes = self.hashes[order]
        starts = np.flatnonzero(np.r_[True, hashes[1:] != hashes[:-1]])
        return _Tally(
            hashes[starts],
            np.add.reduceat(self.count[order], starts),
            np.add.reduceat(self.in_title[order], starts),
            np.maximum.reduceat(self.user[order], starts),
        )


def _large_document_counts(
    tokens: DocumentTokens,
    weights: FeatureWeights,
    tokens_at_once: int,
    between_pieces: Callable[[], None],
) -> FeatureCounts:
    """`feature_counts` of one document, bit for bit, from pieces of its token streams:
    occurrences are counted per piece and the counts added (integers: exact)."""
    tallies: list[_Tally] = []
    held = 0
    for stream, title in ((tokens.body, False), (tokens.title, True)):
        for hashes, user in _stream_shingles(stream, weights, tokens_at_once):
            tallies.append(_Tally.of(hashes, user, title))
            between_pieces()
            held += len(tallies[-1].hashes)
            if held > tokens_at_once:  # bounded by the distinct features, not the tokens
                tallies = [_Tally.concat(tallies).merged()]
                held = len(tallies[0].hashes)
    tally = _Tally.concat(tallies).merged()
    owner = np.zeros(len(tally.hashes), np.int64)
    return FeatureCounts(owner, tally.hashes, tally.count, tally.in_title, tally.user, 1)


def _stream_shingles(stream, weights: FeatureWeights, tokens_at_once: int):
    """(shingle hashes, user weights) of one stream's kept tokens, piece by piece, as
    `_run_shingles` makes them for the whole stream: the last n - 1 kept tokens of a
    piece start the next one's shingles."""
    n = weights.shingle_size
    carry_h, carry_u = np.zeros(0, np.uint64), np.zeros(0)
    kept = 0
    for lo in range(0, len(stream), tokens_at_once):
        hashes = stream.hashes[lo : lo + tokens_at_once]
        user = token_weights(hashes, stream.is_digit[lo : lo + tokens_at_once], weights)
        keep = user > 0
        hashes, user = hashes[keep], user[keep]
        kept += len(hashes)
        if n == 1:
            yield hashes, user
            continue
        hashes, user = np.r_[carry_h, hashes], np.r_[carry_u, user]
        if len(hashes) >= n:
            yield _windows(hashes, user, np.arange(len(hashes) - n + 1), n)
        carry_h, carry_u = hashes[-(n - 1) :], user[-(n - 1) :]
    if 0 < kept < n and n > 1:  # a stream shorter than n: one shingle of all its tokens
        yield _windows(carry_h, carry_u, np.zeros(1, np.int64), kept)


def document_features(tokens: DocumentTokens, weights: FeatureWeights) -> Features:
    """Distinct features of one document and their weights, before idf."""
    return corpus_features([tokens], weights, idf=False)


@dataclass(frozen=True, slots=True)
class IdfTable:
    """Document frequencies of features over a corpus."""

    hashes: np.ndarray  # sorted uint64
    idf: np.ndarray  # float64
    default: float  # idf of a feature never seen (df = 0)

    @classmethod
    def from_features(cls, features: Features) -> IdfTable:
        """Smoothed idf = ln((1 + N) / (1 + df)) + 1, as in common tf-idf practice."""
        n_docs = features.n
        if n_docs == 0:
            return cls(np.zeros(0, np.uint64), np.zeros(0), 1.0)
        hashes, df = np.unique(features.hashes, return_counts=True)
        idf = np.log((1.0 + n_docs) / (1.0 + df)) + 1.0
        return cls(hashes, idf, float(np.log(1.0 + n_docs) + 1.0))

    def apply(self, features: Features) -> Features:
        """The features with each weight multiplied by its feature's idf."""
        idf = _lookup(self.hashes, self.idf, features.hashes, self.default)
        return replace(features, weights=features.weights * idf)


if __name__ == "__main__":
    write_stopword_hashes()
