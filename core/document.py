"""Data passed between stages: what extraction yields for one file."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ExtractedText:
    """Text of one file as extraction yields it.

    `paragraphs` keeps the document's paragraph boundaries (passages and the
    side-by-side view rely on them); `title` is empty when the format has none.
    `warnings` tell the user the text may not be what the file shows (bad bytes,
    a misread encoding); such text is still compared. `hidden` is text the file holds but
    does not show (hidden or white runs, 1-pt type, invisible PDF text, text hidden by
    style): left out of `paragraphs` and of the comparison, kept for the integrity flags.
    `unread_pictures` counts scanned pages and pictures of text that OCR would read but
    did not (OCR off or not installed): such a file is read again when OCR is on.
    `chrome` numbers the paragraphs that are a printed page's chrome (running headers and
    footers, text outside the body: `core.read.extract.pdf_chrome`): compared, marked.
    """

    title: str
    paragraphs: tuple[str, ...]
    format: str
    warnings: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    unread_pictures: int = 0
    chrome: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)


class ExtractionError(Exception):
    """A file could not be read; the message is shown to the user as is."""


class TransientError(ExtractionError):
    """A failure that may not happen next time (permission denied, file vanished): the
    file is read again on the next scan instead of its error being remembered."""


class UnsupportedFormat(ExtractionError):
    """The file is not a format SimSift reads; listed as skipped, not as an error."""


# Bump when reading the same file gives other text, title or tokens (their marks
# included): the catalog then reads files again instead of reusing what an older
# SimSift extracted.
# 15: a PDF's running headers and footers, margins and text outside its body marked as chrome;
# 14: Word's macro-enabled documents and templates (.docm, .dotx) read, not refused;
# 13: a quoted term (a word or two in marks, “stable”) is own text, not a quotation;
# 12: quotation marks in text read by OCR judged as OCR's (no stray-quote flag, fewer quotations);
# 11: PDF text sized by its matrix (macOS's 1 pt scaled to 12) is shown, not tiny;
# 10: letters spaced out keep their word gaps through the readers' whitespace folding;
# 9: text in DOCX/ODT/HTML pictures and scanned pages among text pages read by OCR;
# 8: letters spaced out joined
READER_VERSION = 15

MAX_FILE_BYTES = 200 * 1024 * 1024  # larger files are reported, not read

STATUS_OK = "ok"
STATUS_ERROR = "error"
STATUS_SKIPPED = "skipped"


@dataclass(frozen=True, slots=True)
class FileRecord:
    """What a scan knows about one file: identity, extraction outcome and cached tokens.

    `status` is "ok" (text extracted), "error" (`message` says why, for the user) or
    "skipped" (not read: an unsupported type, a hidden or excluded file; `message` says
    which). `warning` is set on "ok" records whose text may be garbled. `content_hash`
    is blake2b of the bytes (exact copies), `text_hash` blake2b of the normalized text
    (same text in another format). `flags` are integrity flags, one sentence each (hidden
    text, look-alike letters, invisible characters): signs of text disguised to slip past a
    checker, shown to the user, never silently corrected.
    `tokens` is a `core.text.tokens.DocumentTokens` for "ok" records.
    """

    path: str
    size: int
    mtime_ns: int
    status: str
    message: str = ""
    format: str = ""
    warning: str = ""
    retry: bool = False  # a transient failure: never stored in the catalog
    title: str = ""
    content_hash: bytes = b""
    text_hash: bytes = b""
    paragraphs: tuple[str, ...] = ()
    tokens: object | None = None
    flags: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == STATUS_OK
