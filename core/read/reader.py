"""Reading one file: extract its text, tokenize it and hash it, in a worker process.

Every per-file problem becomes a `FileRecord` with a message a user understands; the
scan (`core.pipeline.scan`) decides which files to read and runs this in isolated processes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from simsift.core.document import (
    STATUS_ERROR,
    STATUS_OK,
    STATUS_SKIPPED,
    ExtractionError,
    FileRecord,
    TransientError,
    UnsupportedFormat,
)
from simsift.core.shortage import ran_out_of_memory
from simsift.core.text.integrity import integrity_flags, set_apart_flags
from simsift.core.text.normalize import normalize_text
from simsift.core.text.tokens import document_tokens, safe_pieces


@dataclass(frozen=True, slots=True)
class ReadTask:
    """One file to read, with the settings its record depends on."""

    path: str
    size: int
    mtime_ns: int
    max_bytes: int
    traditional_to_simplified: bool
    ocr: bool = True  # scanned PDFs read by OCR


OUT_OF_MEMORY = "out of memory while reading this file (it is read again on the next scan)"


def read_file(task: ReadTask) -> FileRecord:
    """Extract and tokenize one file; every per-file problem becomes an error record."""
    base = FileRecord(task.path, task.size, task.mtime_ns, STATUS_ERROR)
    from simsift.core.read.extract import extract  # keeps GUI start-up free of parser imports
    from simsift.core.read.extract.ocr import read_by_ocr

    try:
        extracted = extract(Path(task.path), max_bytes=task.max_bytes, ocr=task.ocr)
        content_hash = _file_hash(task.path)
    except Exception as error:  # parsers raise anything on hostile input
        return _failed(base, error)
    # text read by OCR: its quotation marks may be specks and misread apostrophes
    ocr = read_by_ocr(extracted.warnings)
    tokens = document_tokens(
        extracted.title,
        extracted.paragraphs,
        traditional_to_simplified=task.traditional_to_simplified,
        ocr=ocr,
        chrome=extracted.chrome,
    )
    if len(tokens.body) == 0:
        return replace(base, format=extracted.format, message="no words found in the text")
    return replace(
        base,
        status=STATUS_OK,
        format=extracted.format,
        warning="; ".join(extracted.warnings),
        title=extracted.title,
        content_hash=content_hash,
        text_hash=_text_hash(
            (extracted.title, *extracted.paragraphs), task.traditional_to_simplified
        ),
        paragraphs=extracted.paragraphs,
        tokens=tokens,
        flags=integrity_flags(extracted, ocr=ocr) + set_apart_flags(tokens.body),
        # pictures of text not read (OCR off): read again once OCR is on, so never cached
        retry=extracted.unread_pictures > 0,
    )


def _failed(base: FileRecord, error: Exception) -> FileRecord:
    """The record of a file whose reading raised `error`. Failures of the moment (memory,
    a file being written, permissions) are marked to be read again and never cached."""
    if ran_out_of_memory(error):
        return replace(base, message=OUT_OF_MEMORY, retry=True)
    if isinstance(error, UnsupportedFormat):  # a picture skipped with OCR off is read later
        retry = isinstance(error, TransientError)
        return replace(base, status=STATUS_SKIPPED, message=str(error), retry=retry)
    if isinstance(error, TransientError):
        return replace(base, message=str(error), retry=True)
    if isinstance(error, ExtractionError):
        return replace(base, message=str(error))
    if isinstance(error, OSError):
        return replace(base, message=f"cannot read file ({error.strerror or error})", retry=True)
    if isinstance(error, RecursionError):
        return replace(base, message="document is nested too deeply to read")
    return replace(base, message=_reader_failure(Path(base.path), error))


def _reader_failure(path: Path, error: Exception) -> str:
    """A reader's unexpected exception in words a user can act on: the file is left out,
    the exception's own text (a library's words) is not shown."""
    kind = path.suffix.lower().lstrip(".").upper() or "this"
    return (
        f"the {kind} reader failed on this file: its content is damaged or of a kind "
        f"SimSift does not read ({type(error).__name__})"
    )


def _file_hash(path: str) -> bytes:
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.digest()


_MARKS = "\"'“”„‟«»‹›「」『』‘’‚‛"


def _without_marks(text: str) -> str:
    """`text` without quotation marks. One `str.replace` per mark present: `str.translate`
    looks up every character and took 7 times as long on Chinese text."""
    for mark in _MARKS:
        if mark in text:
            text = text.replace(mark, "")
    return text


def _text_hash(parts: Sequence[str], t2s: bool) -> bytes:
    """Hash of the normalized title and body with all whitespace and quotation marks
    removed: same text, any format, wherever a format puts its first line (a title, or a
    first paragraph), whatever marks a format shows (curly or straight, or those a reader
    puts around a block quotation).

    Hashed piece by piece (`safe_pieces`): a huge text never exists whole, normalized,
    or split into one string per word."""
    digest = hashlib.blake2b(digest_size=16)
    for piece in safe_pieces(parts):
        text = normalize_text(piece, traditional_to_simplified=t2s)
        digest.update(_without_marks("".join(text.split())).encode("utf-8"))
    return digest.digest()
