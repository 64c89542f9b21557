"""Extraction stage: one file in, its title and paragraphs out.

`extract` picks the reader from the file's content as well as its name (a PDF
named .html is read as PDF, a Word document named .doc as DOCX) and turns every
per-file problem into an `ExtractionError` whose message is shown to the user.
Text that looks misdecoded comes back with warnings (`core.read.extract.checks`).
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path

from simsift.core.document import (
    MAX_FILE_BYTES,
    ExtractedText,
    ExtractionError,
    TransientError,
    UnsupportedFormat,
)
from simsift.core.read.extract.checks import text_warnings
from simsift.core.read.extract.sniff import is_docx_zip, is_odt_zip, sniff_bytes, sniff_format

__all__ = ["SUPPORTED_SUFFIXES", "extract", "sniff_format"]

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".shtml"})
TEXT_SUFFIXES = frozenset({".txt", ".text", ".md", ".markdown"})
WORD_SUFFIXES = frozenset({".docx", ".docm", ".dotx", ".doc"})
PDF_SUFFIXES = frozenset({".pdf"})
RTF_SUFFIXES = frozenset({".rtf"})
ODT_SUFFIXES = frozenset({".odt", ".ott"})
# pictures of text (scans saved as pictures, screenshots), read by OCR (`pictures`)
PICTURE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp"})
SUPPORTED_SUFFIXES: frozenset[str] = (
    HTML_SUFFIXES
    | TEXT_SUFFIXES
    | WORD_SUFFIXES
    | PDF_SUFFIXES
    | RTF_SUFFIXES
    | ODT_SUFFIXES
    | PICTURE_SUFFIXES
)

# Readers are imported on first use: pdfminer, python-docx and lxml take a while to
# import, and the GUI imports core at start-up.
_READERS = {
    "html": ("simsift.core.read.extract.html", "extract_html"),
    "text": ("simsift.core.read.extract.text", "extract_text_file"),
    "pdf": ("simsift.core.read.extract.pdf", "extract_pdf"),
    "docx": ("simsift.core.read.extract.docx", "extract_docx"),
    "doc": ("simsift.core.read.extract.doc", "extract_doc"),
    "rtf": ("simsift.core.read.extract.rtf", "extract_rtf"),
    "odt": ("simsift.core.read.extract.odt", "extract_odt"),
    "picture": ("simsift.core.read.extract.pictures", "extract_picture"),
}


def extract(path: Path, *, max_bytes: int = MAX_FILE_BYTES, ocr: bool = True) -> ExtractedText:
    """Read the text of one HTML, PDF, DOCX, DOC, ODT, RTF or plain-text file; a scanned
    PDF by OCR when `ocr` is set.

    Raises:
        UnsupportedFormat: the file is of a kind SimSift does not read (skipped).
        ExtractionError: the file could not be read (message is user-facing).
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise ExtractionError(f"file too large ({size / 2**20:.0f} MB)")
        if size == 0:
            raise ExtractionError("empty file")
        fmt = reader_for(path)
        result = _run_reader(fmt, path, max_bytes, ocr)
    except OSError as error:
        raise TransientError(f"cannot read file ({error.strerror or error})") from error
    return replace(result, warnings=result.warnings + text_warnings(result.paragraphs))


def reader_for(path: Path) -> str:
    """Reader ('html', 'pdf', 'docx', 'doc', 'text') to use for `path`, from content then suffix."""
    with path.open("rb") as f:
        head = f.read(4096)
    kind = sniff_bytes(head)
    suffix = path.suffix.lower()
    if kind == "pdf":
        return "pdf"
    if kind == "zip":
        return _zip_reader(path, suffix)
    if kind == "ole":
        return _ole_reader(path, suffix)
    if kind == "rtf":  # Word saves RTF under .doc too
        return "rtf"
    if suffix in WORD_SUFFIXES and suffix != ".doc" and kind != "html":
        raise ExtractionError("not a valid DOCX (corrupt or renamed file)")
    if suffix in PDF_SUFFIXES:
        raise ExtractionError("not a valid PDF (corrupt or renamed file)")
    if suffix in RTF_SUFFIXES:
        raise ExtractionError("not a valid RTF document (corrupt or renamed file)")
    if suffix in ODT_SUFFIXES:
        raise ExtractionError("not a valid ODT (corrupt or renamed file)")
    if suffix in PICTURE_SUFFIXES and (kind is None or _picture_signature(head)):
        return "picture"  # a damaged picture's bytes may pass for text: its signature says
    if kind is None:
        raise UnsupportedFormat("unsupported file type (binary data)")
    # A .txt or .md holding HTML stays text: such files are often notes that quote markup.
    if suffix in TEXT_SUFFIXES:
        return "text"
    if kind == "html" or suffix in HTML_SUFFIXES:
        return "html"
    # .doc holding text; a name without extension holding text (README, LICENSE, a
    # licence's "copyright" file, an export that lost its suffix) is read as plain text
    if suffix == ".doc" or not suffix:
        return "text"
    raise UnsupportedFormat(f"unsupported file type ({suffix})")


_PICTURE_SIGNATURES = (
    b"\xff\xd8\xff",
    b"\x89PNG\r\n\x1a\n",
    b"GIF87a",
    b"GIF89a",
    b"II*\x00",
    b"MM\x00*",
)


def _picture_signature(head: bytes) -> bool:
    """Whether `head` starts as a JPEG, PNG, GIF, TIFF or WebP file does."""
    return head.startswith(_PICTURE_SIGNATURES) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")


def _zip_reader(path: Path, suffix: str) -> str:
    if is_docx_zip(path):
        return "docx"
    if is_odt_zip(path):
        return "odt"
    if suffix in WORD_SUFFIXES:
        raise ExtractionError("not a valid DOCX (corrupt or renamed file)")
    if suffix in ODT_SUFFIXES:
        raise ExtractionError("not a valid ODT (corrupt or renamed file)")
    raise UnsupportedFormat(f"unsupported file type ({suffix or 'zip archive'})")


def _ole_reader(path: Path, suffix: str) -> str:
    """'doc' for a Word 97-2003 file; an error for encrypted OOXML or other Office files."""
    # Password-protected .docx files are stored as OLE containers holding an
    # "EncryptionInfo" stream (its directory name is UTF-16).
    if "EncryptionInfo".encode("utf-16-le") in path.read_bytes()[: 2**20]:
        raise ExtractionError("password protected document")
    if suffix in WORD_SUFFIXES:
        return "doc"
    raise UnsupportedFormat("old binary Office file (not a Word document)")


def _run_reader(fmt: str, path: Path, max_bytes: int, ocr: bool = True) -> ExtractedText:
    module_name, function_name = _READERS[fmt]
    reader = getattr(importlib.import_module(module_name), function_name)
    if fmt in ("docx", "odt"):  # the size of their unpacked parts is limited from max_bytes
        return reader(path, max_bytes=max_bytes, ocr=ocr)
    if fmt == "pdf":
        return reader(path, ocr=ocr)
    if fmt == "picture":
        return reader(path, ocr_on=ocr)
    if fmt == "html":  # pictures named relative to the page are read from its folder
        return reader(path.read_bytes(), ocr=ocr, folder=path.parent)
    if fmt in ("doc", "text"):
        return reader(path)
    return reader(path.read_bytes())
