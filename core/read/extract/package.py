"""Zip-based documents (DOCX, ODT): refused before parsing when damaged or a zip bomb."""

from __future__ import annotations

import zipfile
from pathlib import Path

from simsift.core.document import ExtractionError

# Unpacked size allowed for the whole package: a zip bomb declares far more.
MAX_UNPACKED_BYTES = 2**30
UNPACKED_TO_FILE_RATIO = 20


def check_package(
    path: Path, max_bytes: int, member: str = "word/document.xml", label: str = "DOCX"
) -> None:
    """Refuse a file that is not a readable zip holding `member`, or whose declared
    unpacked size is a bomb's (`label` names the format in the message)."""
    limit = min(MAX_UNPACKED_BYTES, UNPACKED_TO_FILE_RATIO * max_bytes)
    invalid = f"not a valid {label} (corrupt or renamed file)"
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            names = set(archive.namelist())
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError) as error:
        raise ExtractionError(invalid) from error
    if unpacked > limit:
        raise ExtractionError(f"{label} unpacks to {unpacked / 2**20:.0f} MB (possible zip bomb)")
    if member not in names:
        raise ExtractionError(invalid)
