"""Tokenization: Chinese runs through jieba, Latin words and digit runs by regex.

Tokens are turned into stable 64-bit hashes (blake2b, identical across processes,
runs and platforms, unlike Python's `hash()`), so cached token streams can be
re-weighted later without re-reading or re-segmenting the text.
"""

from __future__ import annotations

import hashlib
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from simsift.core.text.normalize import normalize_text
from simsift.core.text.word_segmenter import jieba_module

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


# Text is normalized and tokenized this many characters at a time: a 200 MB file costs
# bounded extra memory, not several copies of itself and a Python object per token.
CHUNK_CHARS = 1 << 20


def safe_pieces(texts: Iterable[str], chunk_chars: int = CHUNK_CHARS) -> Iterator[str]:
    """The concatenation of `texts`, in pieces of about `chunk_chars` characters cut only
    before an ASCII space, so each piece can be normalized and tokenized on its own.

    An ASCII space is never part of a token, cannot combine with the character before
    it (NFKC), and OpenCC's phrases hold none: normalizing or tokenizing the pieces one
    by one gives exactly what doing it to the whole text gives. Text without spaces
    (Chinese) runs on until the next space, however long.
    """
    buffer: list[str] = []
    size = 0
    for text in texts:
        pos = 0
        while True:
            cut = _space_to_cut_before(text, pos, chunk_chars - size, empty=not size)
            if cut < 0:
                buffer.append(text[pos:] if pos else text)
                size += len(text) - pos
                break
            buffer.append(text[pos:cut])
            yield "".join(buffer)
            buffer, size, pos = [], 0, cut
    if buffer:
        yield "".join(buffer)


def _space_to_cut_before(text: str, pos: int, room: int, *, empty: bool) -> int:
    """Index of the space in `text` after `pos` to end the current piece before: the last
    one within `room` characters, else the first one after them; -1 when the rest of the
    text fits in `room` or has no space. Never cuts an `empty` piece to nothing."""
    if len(text) - pos <= room:
        return -1
    lo = pos + 1 if empty else pos
    if room > 0:
        cut = text.rfind(" ", lo, pos + room + 1)
        if cut >= 0:
            return cut
    return text.find(" ", max(lo, pos + room + 1))


def token_stream(
    paragraphs: Sequence[str],
    *,
    traditional_to_simplified: bool = True,
    chunk_chars: int = CHUNK_CHARS,
) -> TokenStream:
    """Tokenize and hash paragraphs into one stream, recording where each paragraph starts.

    Long paragraphs are normalized in pieces of about `chunk_chars` (`safe_pieces`);
    hashes go straight into machine arrays, so memory stays near 9 bytes per token.
    """
    hashes = array("Q")
    digits = bytearray()
    starts = array("l")
    for paragraph in paragraphs:
        starts.append(len(hashes))
        for piece in safe_pieces((paragraph,), chunk_chars):
            norm = normalize_text(piece, traditional_to_simplified=traditional_to_simplified)
            _append_tokens(norm, hashes, digits)
    return TokenStream(
        hashes=np.frombuffer(hashes, dtype=np.uint64),
        is_digit=np.frombuffer(digits, dtype=bool),
        para_starts=np.array(starts, dtype=np.int32),
    )


def _append_tokens(norm: str, hashes: array, digits: bytearray) -> None:
    """`iter_tokens` of normalized text, hashed into the arrays: the same tokens, a third
    faster (findall makes no match objects; 34 million tokens in a 200 MB text)."""
    for cjk, digit, word in _TOKEN_RUN.findall(norm):
        if word:
            hashes.append(token_hash(word))
            digits.append(False)
        elif digit:
            hashes.append(token_hash(digit))
            digits.append(True)
        else:
            for part in jieba_module().lcut(cjk, HMM=True):
                hashes.append(token_hash(part))
                digits.append(False)


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
