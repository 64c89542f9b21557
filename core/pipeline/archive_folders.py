"""Archive folders of the desktop app: previous years' folders, kept in an archive beside
the catalog, brought up to date before every scan (unchanged files are not read again),
and checked against (`core.pipeline.check`) instead of being compared among themselves.
The other folders are read as a scan reads them: unchanged files come from the catalog.

The archive is SimSift's own cache of those folders: one per set of folders and settings,
rebuilt when a file of it is proven damaged (never for a shortage of memory or disk, never
for another SimSift writing it), beside the old one, which goes only once the new one is
complete; the user's files are only read.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from simsift.core.document import STATUS_ERROR, STATUS_SKIPPED, FileRecord
from simsift.core.pipeline.archiving import add_folders, archive_settings
from simsift.core.pipeline.check import compare_with_archive
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.pipeline.stages import (
    GuardedCatalog,
    all_roots,
    find_files,
    is_compared,
    read_with_catalog,
)
from simsift.core.progress import CancelToken, Progress, ProgressCallback, no_progress
from simsift.core.store.archive import Archive, ArchiveDamaged

ARCHIVES = "archives"  # folder beside the catalog
REBUILDING = ".rebuilding"  # suffixes of an archive's folder while it is built again
REPLACED = ".replaced"


def archive_directory(base: Path, folders: Sequence[str], options: ScanOptions) -> Path:
    """Where the archive of `folders` scanned with `options`' settings is kept."""
    names = "\0".join(sorted(os.path.abspath(f) for f in folders))
    key = archive_settings(options).key() + names
    digest = hashlib.blake2b(key.encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()
    return Path(base) / ARCHIVES / digest


def scan_with_archive(
    options: ScanOptions,
    archive_folders: Sequence[str],
    base: Path,
    *,
    catalog=None,
    ignored: Iterable[frozenset[str]] = (),
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> ScanResult:
    """The archive folders brought up to date, then `options`' folders checked against
    them and each other. Files of the archive folders that could not be read are listed
    with the result's problems.

    Args:
        catalog: a `core.store.catalog.Catalog` the files of `options`' folders are taken
            from when unchanged, and new ones stored in (as `core.pipeline.scan.scan`
            does; the result's `reused` counts them), or None.
    """
    cancel = cancel or CancelToken()
    directory = archive_directory(base, archive_folders, options)
    archive_options = replace(options, roots=tuple(archive_folders), reference_roots=())
    try:
        report = add_folders(directory, archive_options, progress=progress, cancel=cancel)
    except ArchiveDamaged:  # it is our cache of those folders: built again
        report = _rebuilt(directory, archive_options, progress, cancel)
    report.archive.require(archive_settings(options))
    guarded = GuardedCatalog(catalog)
    found, left_out = find_files(options, progress, cancel)
    progress(Progress("finding", len(found), len(found)))  # how many: for the time left
    records, reused = read_with_catalog(found, options, guarded, progress, cancel)
    records += left_out
    guarded.prune(all_roots(options), {f.path for f in found})
    result = compare_with_archive(
        report.archive,
        [r for r in records if is_compared(r, options)],
        [r for r in records if not is_compared(r, options)],
        options,
        progress=progress,
        cancel=cancel,
    )
    result = replace(result, reused=reused, notices=result.notices + guarded.notices())
    return _with_problems(result, report.not_added).without_ignored(ignored)


def _rebuilt(directory: Path, options: ScanOptions, progress, cancel: CancelToken):
    """The archive of `options`' folders built again in a folder beside `directory`, then
    put in its place: a rebuild that fails or is cancelled leaves the damaged archive as
    it was (its undamaged segments still hold what a user may want back)."""
    fresh = directory.with_name(directory.name + REBUILDING)
    shutil.rmtree(fresh, ignore_errors=True)  # an earlier rebuild that did not finish
    report = add_folders(fresh, options, progress=progress, cancel=cancel)
    old = directory.with_name(directory.name + REPLACED)
    shutil.rmtree(old, ignore_errors=True)
    os.replace(directory, old)
    os.replace(fresh, directory)
    shutil.rmtree(old, ignore_errors=True)
    return replace(report, archive=Archive.open(directory))


def open_archive(base: Path, archive_folders: Sequence[str], options: ScanOptions) -> Archive:
    """The archive a `scan_with_archive` with these folders and options kept."""
    return Archive.open(archive_directory(base, archive_folders, options))


def _with_problems(result: ScanResult, not_added: Sequence[FileRecord]) -> ScanResult:
    errors = tuple(r for r in not_added if r.status == STATUS_ERROR)
    skipped = tuple(r for r in not_added if r.status == STATUS_SKIPPED)
    garbled = tuple(r for r in not_added if r.ok)
    return replace(
        result,
        errors=result.errors + errors,
        skipped=result.skipped + skipped,
        garbled=result.garbled + garbled,
    )
