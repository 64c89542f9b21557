"""Zip-based documents (DOCX, ODT): refused before parsing when damaged or a zip bomb."""

from __future__ import annotations

import zipfile
from pathlib import Path

from simsift.core.document import ExtractionError

# Unpacked size allowed for the whole package: a zip bomb declares far more.
MAX_UNPACKED_BYTES = 2**30
UNPACKED_TO_FILE_RATIO = 20


def open_package(
    path: Path, max_bytes: int, member: str = "word/document.xml", label: str = "DOCX"
) -> zipfile.ZipFile:
    """The zip at `path`, open, once it is known to be readable, to hold `member` and not
    to declare a bomb's unpacked size (`label` names the format in the messages)."""
    limit = min(MAX_UNPACKED_BYTES, UNPACKED_TO_FILE_RATIO * max_bytes)
    invalid = f"not a valid {label} (corrupt or renamed file)"
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
