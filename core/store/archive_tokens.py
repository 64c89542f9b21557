"""The token streams of an archive segment's documents, stored beside it (`seg-N.tokens`).

A check takes in the archive documents that share a word gram with a new document and
needs their tokens; cutting them again from the stored text (jieba for Chinese) was most
of a check's time. A segment's tokens are stored as ids into the segment's vocabulary of
token hashes (4 bytes a token instead of 8, plus a byte of marks), one `.npy` file per
array in `seg-N.token-arrays/`, memory-mapped: a check reads the pages of the documents
it takes in, never the segment's whole file. Each row carries a CRC-32 of its streams,
checked when it is read. They are a cache: a segment without them, or whose tokens were
cut by another reader version or Traditional-to-Simplified setting, has its documents'
tokens cut again from their text, and so has a row whose CRC does not match; damage is
never an error. (Segments written before 2026-12-08 keep them in one `seg-N.tokens` npz
file, read whole and checked by its digest.)
"""

from __future__ import annotations

import hashlib
import io
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from simsift.core.document import READER_VERSION, FileRecord
from simsift.core.files import atomic_write
from simsift.core.text.tokens import DocumentTokens, TokenStream

SUFFIX = "tokens"  # seg-N.tokens: one npz file, as segments before 2026-12-08 kept them
FOLDER = "token-arrays"  # seg-N.token-arrays/: one memory-mapped .npy per array
_FLAGS = ("reader_version", "traditional_to_simplified")


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
    row_crc: np.ndarray | None = None  # uint32 per row (`_row_crc`); None: a whole-file digest

    def document(self, row: int, title: str) -> DocumentTokens | None:
        """Row `row`'s tokens, as the reader cut them from its text; None when the row's
        CRC does not match (damaged: cut them again)."""
        try:
            tokens = self._document(row, title)
        except (IndexError, ValueError):  # ids or offsets damaged past the arrays
            return None
        if self.row_crc is not None and _row_crc(tokens) != int(self.row_crc[row]):
            return None
        return tokens

    def _document(self, row: int, title: str) -> DocumentTokens:
        lo, hi = self.body_ptr[row], self.body_ptr[row + 1]
        ids = self.body_ids[lo:hi]
        paras = self.para_starts[self.para_ptr[row] : self.para_ptr[row + 1]]
        body = TokenStream(
            hashes=np.array(self.vocab[ids]),  # plain arrays, not views of the mapped files
            is_digit=np.array(self.vocab_digit[ids]),
            para_starts=np.array(paras),
            marks=np.array(self.marks[lo:hi]),
            unbalanced_quotes=int(self.unbalanced[row]),
        )
        ids = self.title_ids[self.title_ptr[row] : self.title_ptr[row + 1]]
        title_stream = TokenStream(
            hashes=np.array(self.vocab[ids]),
            is_digit=np.array(self.vocab_digit[ids]),
            para_starts=np.zeros(1 if title else 0, np.int32),
        )
        return DocumentTokens(title=title_stream, body=body)

    def rows(self, live: np.ndarray) -> list[tuple] | None:
        """Rows `live` as `_arrays` takes them; None when one does not match its CRC."""
        if self.row_crc is not None and any(self.document(int(r), "") is None for r in live):
            return None
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


def merged_arrays(
    parts: Sequence[tuple[SegmentTokens, np.ndarray]],
) -> dict[str, np.ndarray] | None:
    """The arrays of the live rows of several segments (of one archive), in their order;
    None when a row is damaged (the merged segment then has none: they are a cache)."""
    rows = [tokens.rows(live) for tokens, live in parts]
    if any(r is None for r in rows):
        return None
    return _arrays(
        [streams for part in rows for streams in part], parts[0][0].traditional_to_simplified
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
        "row_crc": np.array([_stream_crc(*s) for s in streams], np.uint32),
    }


def _row_crc(tokens: DocumentTokens) -> int:
    """CRC-32 of a document's streams, as `_stream_crc` of what `_arrays` takes."""
    title, body = tokens.title, tokens.body
    return _stream_crc(
        title.hashes,
        title.is_digit,
        body.hashes,
        body.is_digit,
        body.marks,
        body.para_starts,
        body.unbalanced_quotes,
    )


def _stream_crc(title_h, title_d, body_h, body_d, marks, paras, unbalanced: int) -> int:
    crc = 0
    for array, dtype in (
        (title_h, np.uint64),
        (title_d, bool),
        (body_h, np.uint64),
        (body_d, bool),
        (marks, np.uint8),
        (paras, np.int32),
    ):
        crc = zlib.crc32(np.ascontiguousarray(array, dtype).tobytes(), crc)
    return zlib.crc32(int(unbalanced).to_bytes(8, "little", signed=True), crc)


def _ptr(lengths: list[int]) -> np.ndarray:
    return np.r_[0, np.cumsum(np.array(lengths, np.int64))].astype(np.int64)


def write_tokens(directory: Path, name: str, arrays: dict[str, np.ndarray]) -> dict:
    """Write `name`.token-arrays/; the manifest entry's field that names it (its size)."""
    folder = directory / f"{name}.{FOLDER}"
    folder.mkdir(exist_ok=True)
    size = 0
    for key, array in arrays.items():
        with atomic_write(folder / f"{key}.npy", durable=True) as f:
            np.save(f, array, allow_pickle=False)
        size += (folder / f"{key}.npy").stat().st_size
    return {"token_arrays_bytes": size}


def read_tokens(directory: Path, entry: dict, rows: int) -> SegmentTokens | None:
    """The segment's stored tokens, or None when it has none usable (none written, cut by
    another reader version, damaged)."""
    try:
        if isinstance(entry.get("token_arrays_bytes"), int):
            a = _mapped_arrays(directory / f"{entry['name']}.{FOLDER}", entry["token_arrays_bytes"])
        elif isinstance(entry.get("tokens_digest"), str):
            a = _npz_arrays(directory / f"{entry['name']}.{SUFFIX}", entry["tokens_digest"])
        else:
            return None
        if a is None or int(a.pop("reader_version")[0]) != READER_VERSION:
            return None
        t2s = bool(a.pop("traditional_to_simplified")[0])
        tokens = SegmentTokens(**a, traditional_to_simplified=t2s)
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return None
    sizes = (len(tokens.body_ptr), len(tokens.para_ptr), len(tokens.title_ptr))
    crcs = len(tokens.row_crc) if tokens.row_crc is not None else rows
    fits = sizes == (rows + 1,) * 3 and len(tokens.unbalanced) == crcs == rows
    return tokens if fits else None


def _mapped_arrays(folder: Path, size: int) -> dict | None:
    """The arrays of a token folder, memory-mapped (the small flags read), or None when
    its size is not the manifest's."""
    files = sorted(folder.glob("*.npy"))
    if sum(f.stat().st_size for f in files) != size:
        return None
    return {
        f.stem: np.load(f, mmap_mode=None if f.stem in _FLAGS else "r", allow_pickle=False)
        for f in files
    }


def _npz_arrays(path: Path, digest: str) -> dict | None:
    """The arrays of a segment's tokens file as written before 2026-12-08, read whole."""
    data = path.read_bytes()
    if _digest(data) != digest:
        return None
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        return {key: z[key] for key in z.files}


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()
