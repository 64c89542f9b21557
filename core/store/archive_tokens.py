"""The token streams of an archive segment's documents, stored beside it (`seg-N.tokens`).

A check takes in the archive documents that share a word gram with a new document and
needs their tokens; cutting them again from the stored text (jieba for Chinese) was most
of a check's time. A segment's tokens are stored as ids into the segment's vocabulary of
token hashes (4 bytes a token instead of 8, plus a byte of marks), read only when a
check first needs one of its documents. They are a cache: a segment without them, or
whose tokens were cut by another reader version or Traditional-to-Simplified setting, has
its documents' tokens cut again from their text, and a damaged file is never an error.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from simsift.core.document import READER_VERSION, FileRecord
from simsift.core.files import atomic_write
from simsift.core.text.tokens import DocumentTokens, TokenStream

SUFFIX = "tokens"


@dataclass(frozen=True)
class SegmentTokens:
    """Every document's title and body tokens of one segment, by row."""

    vocab: np.ndarray  # uint64, sorted distinct token hashes
    vocab_digit: np.ndarray  # bool per vocab entry
    body_ids: np.ndarray  # uint32 into vocab, all rows' bodies one after another
    body_ptr: np.ndarray  # int64, rows + 1
    marks: np.ndarray  # uint8 per body token
    para_starts: np.ndarray  # int32, every row's paragraph starts one after another
    para_ptr: np.ndarray  # int64, rows + 1
    title_ids: np.ndarray  # uint32
    title_ptr: np.ndarray  # int64, rows + 1
    unbalanced: np.ndarray  # int32 per row
    traditional_to_simplified: bool

    def document(self, row: int, title: str) -> DocumentTokens:
        """Row `row`'s tokens, as the reader cut them from its text."""
        lo, hi = self.body_ptr[row], self.body_ptr[row + 1]
        ids = self.body_ids[lo:hi]
        body = TokenStream(
            hashes=self.vocab[ids],
            is_digit=self.vocab_digit[ids],
            para_starts=self.para_starts[self.para_ptr[row] : self.para_ptr[row + 1]].copy(),
            marks=self.marks[lo:hi].copy(),
            unbalanced_quotes=int(self.unbalanced[row]),
        )
        ids = self.title_ids[self.title_ptr[row] : self.title_ptr[row + 1]]
        title_stream = TokenStream(
            hashes=self.vocab[ids],
            is_digit=self.vocab_digit[ids],
            para_starts=np.zeros(1 if title else 0, np.int32),
        )
        return DocumentTokens(title=title_stream, body=body)

    def rows(self, live: np.ndarray) -> list[tuple]:
        """Rows `live` as `_arrays` takes them."""
        return [self._streams(int(row)) for row in live]

    def _streams(self, row: int) -> tuple:
        title = self.title_ids[self.title_ptr[row] : self.title_ptr[row + 1]]
        lo, hi = self.body_ptr[row], self.body_ptr[row + 1]
        paras = self.para_starts[self.para_ptr[row] : self.para_ptr[row + 1]]
        return (
            self.vocab[title],
            self.vocab_digit[title],
            self.vocab[self.body_ids[lo:hi]],
            self.vocab_digit[self.body_ids[lo:hi]],
            self.marks[lo:hi],
            paras,
            int(self.unbalanced[row]),
        )


def token_arrays(
    records: Sequence[FileRecord], traditional_to_simplified: bool
) -> dict[str, np.ndarray]:
    """The arrays of `records`' tokens, rows in their order."""
    return _arrays(
        [
            (
                r.tokens.title.hashes,
                r.tokens.title.is_digit,
                r.tokens.body.hashes,
                r.tokens.body.is_digit,
                r.tokens.body.marks,
                r.tokens.body.para_starts,
                r.tokens.body.unbalanced_quotes,
            )
            for r in records
        ],
        traditional_to_simplified,
    )


def merged_arrays(parts: Sequence[tuple[SegmentTokens, np.ndarray]]) -> dict[str, np.ndarray]:
    """The arrays of the live rows of several segments (of one archive), in their order."""
    return _arrays(
        [streams for tokens, live in parts for streams in tokens.rows(live)],
        parts[0][0].traditional_to_simplified,
    )


def _arrays(streams: list[tuple], traditional_to_simplified: bool) -> dict[str, np.ndarray]:
    empty64, empty_bool = np.zeros(0, np.uint64), np.zeros(0, bool)
    title_h = np.concatenate([s[0] for s in streams] or [empty64]).astype(np.uint64)
    title_d = np.concatenate([s[1] for s in streams] or [empty_bool]).astype(bool)
    body_h = np.concatenate([s[2] for s in streams] or [empty64]).astype(np.uint64)
    body_d = np.concatenate([s[3] for s in streams] or [empty_bool]).astype(bool)
    hashes = np.concatenate([body_h, title_h])
    vocab, first = np.unique(hashes, return_index=True)
    vocab_digit = np.concatenate([body_d, title_d])[first]
    return {
        "reader_version": np.array([READER_VERSION], np.int64),
        "vocab": vocab,
        "vocab_digit": vocab_digit,
        "body_ids": np.searchsorted(vocab, body_h).astype(np.uint32),
        "body_ptr": _ptr([len(s[2]) for s in streams]),
        "marks": np.concatenate([s[4] for s in streams] or [np.zeros(0, np.uint8)]).astype(
            np.uint8
        ),
        "para_starts": np.concatenate([s[5] for s in streams] or [np.zeros(0, np.int32)]).astype(
            np.int32
        ),
        "para_ptr": _ptr([len(s[5]) for s in streams]),
        "title_ids": np.searchsorted(vocab, title_h).astype(np.uint32),
        "title_ptr": _ptr([len(s[0]) for s in streams]),
        "unbalanced": np.array([s[6] for s in streams], np.int32),
        "traditional_to_simplified": np.array([traditional_to_simplified]),
    }


def _ptr(lengths: list[int]) -> np.ndarray:
    return np.r_[0, np.cumsum(np.array(lengths, np.int64))].astype(np.int64)


def write_tokens(directory: Path, name: str, arrays: dict[str, np.ndarray]) -> dict:
    """Write `name`.tokens; the manifest entry's fields that name it."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    data = buffer.getvalue()
    with atomic_write(directory / f"{name}.{SUFFIX}", durable=True) as f:
        f.write(data)
    return {"tokens_bytes": len(data), "tokens_digest": _digest(data)}


def read_tokens(directory: Path, entry: dict, rows: int) -> SegmentTokens | None:
    """The segment's stored tokens, or None when it has none usable (none written, cut by
    another reader version, damaged)."""
    digest = entry.get("tokens_digest")
    if not isinstance(digest, str):
        return None
    try:
        data = (directory / f"{entry['name']}.{SUFFIX}").read_bytes()
        if _digest(data) != digest:
            return None
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            a = {key: z[key] for key in z.files}
        if int(a.pop("reader_version")[0]) != READER_VERSION:
            return None
        t2s = bool(a.pop("traditional_to_simplified")[0])
        tokens = SegmentTokens(**a, traditional_to_simplified=t2s)
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return None
    sizes = (len(tokens.body_ptr), len(tokens.para_ptr), len(tokens.title_ptr))
    return tokens if sizes == (rows + 1,) * 3 and len(tokens.unbalanced) == rows else None


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()
