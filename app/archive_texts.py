"""Texts of archive documents, read on demand for the side-by-side view and text dialog.

A check against archive folders leaves the archive documents' text in the archive; the
few the user opens are read from it here, the archive opened once per result.
"""

from __future__ import annotations

from dataclasses import replace

from simsift.app.workers.scan import archive_base
from simsift.core.document import FileRecord
from simsift.core.pipeline.archive_folders import open_archive
from simsift.core.pipeline.check import ARCHIVE_MARK, is_archive_path
from simsift.core.pipeline.options import ScanOptions
from simsift.core.store.archive import ArchiveError


class ArchiveTexts:
    """Reads archive documents' texts from the archive of the shown result."""

    def __init__(self, catalog=None) -> None:
        self._catalog = catalog  # the archives are kept beside it
        self._archive = None

    def forget(self) -> None:
        """A new result is coming: open its archive afresh when a text is needed."""
        self._archive = None

    def with_text(
        self, record: FileRecord, archive_folders: list[str], options: ScanOptions
    ) -> FileRecord:
        """`record` with its title and text, read from the archive when it is an archive
        document without them; unchanged when that fails (the archive changed or is gone)."""
        if record.paragraphs or not is_archive_path(record.path):
            return record
        try:
            if self._archive is None:
                self._archive = open_archive(archive_base(self._catalog), archive_folders, options)
            path = record.path[len(ARCHIVE_MARK) :]
            title, paragraphs = self._archive.text(self._archive.number(path))
        except (ArchiveError, KeyError, ValueError):
            return record
        return replace(record, title=title, paragraphs=paragraphs)
