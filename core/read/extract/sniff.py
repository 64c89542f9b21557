"""Recognise a file's real format from its first bytes, whatever its name says."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from simsift.core.read.extract.encoding import bom_encoding, bomless_utf16
from simsift.core.read.extract.package import hand_on, take_opened

SNIFF_BYTES = 4096

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
# The PDF spec lets readers accept up to 1 KB of junk before the header.
_PDF_HEADER_WINDOW = 1024
_HTML_START = re.compile(
    rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta|title)\b",
    re.IGNORECASE | re.DOTALL,
)


def sniff_bytes(head: bytes) -> str | None:
    """Low-level kind of a file from its first bytes.

    Returns 'pdf', 'zip', 'ole', 'rtf', 'html', 'text', or None (binary or empty).
    """
    if not head:
        return None
    if b"%PDF-" in head[:_PDF_HEADER_WINDOW]:
        return "pdf"
    if head.startswith(ZIP_MAGIC):
        return "zip"
    if head.startswith(OLE_MAGIC):
        return "ole"
    if head.startswith(b"{\\rtf"):
        return "rtf"
    bom = bom_encoding(head)
    if bom is not None:
        codec, skip = bom
        head = head[skip:].decode(codec, errors="ignore").encode("utf-8")
    if _HTML_START.match(head):
        return "html"
    # NUL bytes never occur in text, except in UTF-16 (here without a BOM)
    if b"\x00" in head:
        return "text" if bomless_utf16(head) else None
    return "text"


def is_docx_zip(path: Path) -> bool:
    """True when the zip at `path` holds a Word main document part. The zip is kept open
    for the reader that follows (`package.take_opened`)."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        return False
    hand_on(path, archive)
    return "word/document.xml" in archive.namelist()


def is_odt_zip(path: Path) -> bool:
    """True when the zip at `path` is an OpenDocument text (or its template). The zip is
    kept open for the reader when it is one."""
    archive = None
    try:
        archive = take_opened(path) or zipfile.ZipFile(path)
        with archive.open("mimetype") as member:
            kind = member.read(100)  # never the whole member: it may be a bomb
    except (zipfile.BadZipFile, KeyError, OSError):
        _close(archive)
        return False
    except BaseException:
        _close(archive)
        raise
    if not kind.startswith(b"application/vnd.oasis.opendocument.text"):
        archive.close()
        return False
    hand_on(path, archive)
    return True


def _close(archive: zipfile.ZipFile | None) -> None:
    if archive is not None:
        archive.close()


def read_head(path: Path) -> bytes:
    """First SNIFF_BYTES bytes of the file."""
    with path.open("rb") as f:
        return f.read(SNIFF_BYTES)


def sniff_format(path: Path) -> str | None:
    """Format SimSift would read `path` as: 'html', 'pdf', 'docx', 'odt', 'rtf', 'text', or
    None.

    Judged from content only, so a PDF named .html is 'pdf'. A zip that is not
    a Word or OpenDocument text, an old binary Office file, or other binary data is None.
    """
    kind = sniff_bytes(read_head(path))
    if kind == "zip":
        try:
            return "docx" if is_docx_zip(path) else "odt" if is_odt_zip(path) else None
        finally:  # no reader follows: nothing stays open
            _close(take_opened(path))
    if kind in ("pdf", "html", "rtf", "text"):
        return kind
    return None
