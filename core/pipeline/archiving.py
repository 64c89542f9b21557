"""Adding folders to an archive: the files are found, read and fingerprinted as a scan does
(`core.pipeline.stages`), then stored with `Archive.add`; unchanged files are not read again."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from simsift.core.document import FileRecord
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.stages import find_files, fingerprint_documents, is_compared, read_files
from simsift.core.progress import CancelToken, ProgressCallback, no_progress
from simsift.core.store.archive import AddSummary, Archive, ArchiveSettings


def archive_settings(options: ScanOptions) -> ArchiveSettings:
    """The settings a scan with these options fingerprints with."""
    return ArchiveSettings(options.weights, options.passages, options.traditional_to_simplified)


@dataclass(frozen=True)
class AddReport:
    """An add of folders: what changed in the archive, and the files not archived."""

    summary: AddSummary
    not_added: tuple[FileRecord, ...]  # errors, skipped and garbled files, with reasons
    archive: Archive


def add_folders(
    directory: Path | str,
    options: ScanOptions,
    *,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> AddReport:
    """Read the files under `options.roots` as a scan does and add them to the archive in
    `directory` (created when missing). Files archived with the same size and mtime are
    not read again. Raises `ArchiveError`, or `Cancelled` leaving the archive unchanged.
    """
    cancel = cancel or CancelToken()
    settings = archive_settings(options)
    archive = Archive.create(directory, settings)
    found, left_out = find_files(options, progress, cancel)
    fresh = [f for f in found if not archive.is_unchanged(f.path, f.size, f.mtime_ns)]
    records = read_files(fresh, options, progress, cancel)
    compared = [r for r in records if is_compared(r, options)]
    fingerprints = fingerprint_documents(compared, options.weights, progress, cancel)
    archive, summary = archive.add(
        compared, fingerprints, settings, progress=progress, cancel=cancel
    )
    summary = replace(summary, unchanged=summary.unchanged + len(found) - len(fresh))
    not_added = tuple(r for r in records + left_out if not is_compared(r, options))
    return AddReport(summary, not_added, archive)
