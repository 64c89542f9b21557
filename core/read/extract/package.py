"""Zip-based documents (DOCX, ODT): refused before parsing when damaged or a zip bomb."""

from __future__ import annotations

import os
import threading
import zipfile
from pathlib import Path

from simsift.core.document import ExtractionError

# Unpacked size allowed for the whole package: a zip bomb declares far more.
MAX_UNPACKED_BYTES = 2**30
UNPACKED_TO_FILE_RATIO = 20

# The zip the format sniff opened, per thread, kept for the reader that follows it
# (`hand_on`, `take_opened`): reading a package's central directory costs as much as
# parsing a short document's rels and content types together.
_handed = threading.local()


def open_package(
    path: Path, max_bytes: int, member: str = "word/document.xml", label: str = "DOCX"
) -> zipfile.ZipFile:
    """The zip at `path`, open, once it is known to be readable, to hold `member` and not
    to declare a bomb's unpacked size (`label` names the format in the messages)."""
    limit = min(MAX_UNPACKED_BYTES, UNPACKED_TO_FILE_RATIO * max_bytes)
    invalid = f"not a valid {label} (corrupt or renamed file)"
    archive = take_opened(path)
    if archive is None:
        try:
            archive = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError) as error:
            raise ExtractionError(invalid) from error
    infos = archive.infolist()
    unpacked = sum(info.file_size for info in infos)
    if unpacked > limit or member not in {info.filename for info in infos}:
        archive.close()
        if unpacked > limit:
            raise ExtractionError(
                f"{label} unpacks to {unpacked / 2**20:.0f} MB (possible zip bomb)"
            )
        raise ExtractionError(invalid)
    return archive


def hand_on(path: Path, archive: zipfile.ZipFile) -> None:
    """Keep `archive`, just opened from `path`, for the next `take_opened(path)` of this
    thread; a zip kept before and never taken is closed."""
    dropped = getattr(_handed, "zip", None)
    _handed.zip = (path, archive, _identity(archive.fp))
    if dropped is not None:
        dropped[1].close()


def take_opened(path: Path) -> zipfile.ZipFile | None:
    """The zip `hand_on` kept for `path` in this thread, when the file there is still the
    one it was opened from (same file, size and modification time: not rewritten or
    replaced since); None otherwise."""
    kept = getattr(_handed, "zip", None)
    if kept is None:
        return None
    _handed.zip = None
    kept_path, archive, opened = kept
    if kept_path == path and opened is not None and opened == _identity(path):
        return archive
    archive.close()
    return None


def _identity(file: object) -> tuple[int, ...] | None:
    """Device, inode, size and modification time of an open file or a path; None when
    they cannot be told."""
    try:
        found = os.fstat(file.fileno()) if hasattr(file, "fileno") else os.stat(file)
    except (OSError, ValueError, TypeError):
        return None
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns
