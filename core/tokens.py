"""Tokenization: Chinese runs through jieba, Latin words and digit runs by regex.

Tokens are turned into stable 64-bit hashes (blake2b, identical across processes,
runs and platforms, unlike Python's `hash()`), so cached token streams can be
re-weighted later without re-reading or re-segmenting the text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from core.normalize import normalize_text
from core.segmenter import jieba_module

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RUN = re.compile(
    rf"(?P<cjk>[{_CJK}]+)"
    r"|(?P<digit>\d+(?:[.,:/-]\d+)*)"
    rf"|(?P<word>[^\W\d_{_CJK}]+(?:['’][^\W\d_{_CJK}]+)*)"
)


def iter_tokens(text: str) -> Iterator[tuple[str, bool]]:
    """Yield (token, is_digit) from already-normalized text, in reading order."""
    for match in _TOKEN_RUN.finditer(text):
        kind = match.lastgroup
        if kind == "cjk":
            for word in jieba_module().lcut(match.group(), HMM=True):
                yield word, False
        else:
            yield match.group(), kind == "digit"


def tokenize(text: str, *, traditional_to_simplified: bool = True) -> list[str]:
    """Normalized tokens of `text` (digits included)."""
    norm = normalize_text(text, traditional_to_simplified=traditional_to_simplified)
    return [token for token, _ in iter_tokens(norm)]


@lru_cache(maxsize=1 << 20)
def token_hash(token: str) -> int:
    """Stable 64-bit hash of a token: the first 8 bytes of blake2b, little-endian."""
    return int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest(), "little")


def hash_tokens(tokens: Sequence[str]) -> np.ndarray:
    """Stable hashes of `tokens` as a uint64 array."""
    return np.fromiter((token_hash(t) for t in tokens), dtype=np.uint64, count=len(tokens))


@dataclass(frozen=True, slots=True)
class TokenStream:
    """Hashed tokens of one field (title or body) with paragraph starts.

    `para_starts[i]` is the index of the first token of paragraph i, so passages
    can be cut from the cached stream without tokenizing again.
    """

    hashes: np.ndarray  # uint64
    is_digit: np.ndarray  # bool
    para_starts: np.ndarray  # int32

    def __len__(self) -> int:
        return len(self.hashes)


@dataclass(frozen=True, slots=True)
class DocumentTokens:
    """The cached, re-weightable representation of a document."""

    title: TokenStream
    body: TokenStream


def token_stream(
    paragraphs: Sequence[str], *, traditional_to_simplified: bool = True
) -> TokenStream:
    """Tokenize and hash paragraphs into one stream, recording where each paragraph starts."""
    hashes: list[int] = []
    digits: list[bool] = []
    starts: list[int] = []
    for paragraph in paragraphs:
        starts.append(len(hashes))
        norm = normalize_text(paragraph, traditional_to_simplified=traditional_to_simplified)
        for token, is_digit in iter_tokens(norm):
            hashes.append(token_hash(token))
            digits.append(is_digit)
    return TokenStream(
        hashes=np.array(hashes, dtype=np.uint64),
        is_digit=np.array(digits, dtype=bool),
        para_starts=np.array(starts, dtype=np.int32),
    )


def document_tokens(
    title: str, paragraphs: Sequence[str], *, traditional_to_simplified: bool = True
) -> DocumentTokens:
    """Token streams of a document's title and body."""
    return DocumentTokens(
        title=token_stream(
            [title] if title else [], traditional_to_simplified=traditional_to_simplified
        ),
        body=token_stream(paragraphs, traditional_to_simplified=traditional_to_simplified),
    )
