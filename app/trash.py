"""Moving files to the system trash, and putting them back (Undo) where the platform allows.

send2trash does the moving on every platform. Putting back is done for the freedesktop.org
trash (Linux desktops): right after a file is trashed, its entry (the file under
Trash/files and its .trashinfo under Trash/info) is found by its original path, so Undo
moves exactly that file back. Elsewhere Undo is not offered. Archive documents are
SimSift's own copies, not the user's files: they are never sent to the trash.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from simsift.core.pipeline.check import is_archive_path

Progress = Callable[[int, int], None]  # files done, files in all


def _no_progress(done: int, total: int) -> None:
    pass


@dataclass(frozen=True)
class Trashed:
    """A file sent to the trash; `entry` is (file in the trash, its .trashinfo) when it
    can be put back."""

    path: str
    entry: tuple[Path, Path] | None


def move_to_trash(
    paths: Sequence[str], progress: Progress = _no_progress
) -> tuple[list[Trashed], list[tuple[str, str]]]:
    """Send files to the system trash (never a permanent delete).

    Returns the files moved and (path, reason) for those that could not be moved;
    `progress(done, total)` is called after each file.
    """
    from send2trash import send2trash  # imported on use: keeps start-up light

    moved, failed = [], []
    for done, path in enumerate(paths, 1):
        progress(done - 1, len(paths))
        if is_archive_path(path):
            failed.append((path, "an archive document: kept in the archive"))
            continue
        try:
            send2trash(path)
        except OSError as error:  # send2trash raises TrashPermissionError (an OSError) too
            failed.append((path, str(error)))
        else:
            moved.append(Trashed(path, _entry_of(path)))
    return moved, failed


def restore(
    items: Sequence[Trashed], progress: Progress = _no_progress
) -> tuple[list[str], list[tuple[str, str]]]:
    """Put trashed files back where they were. Returns the paths restored and (path, reason)
    for the others (no entry, a new file in its place, the trash emptied meanwhile)."""
    restored, failed = [], []
    for done, item in enumerate(items):
        progress(done, len(items))
        reason = _put_back(item)
        if reason:
            failed.append((item.path, reason))
        else:
            restored.append(item.path)
    return restored, failed


def _put_back(item: Trashed) -> str:
    """'' when `item` is back in place, else why not."""
    if item.entry is None:
        return "this trash does not let SimSift put files back; restore it from the trash"
    trashed, info = item.entry
    if os.path.lexists(item.path):
        return "a file of that name exists there again"
    try:
        os.rename(trashed, item.path)
    except OSError as error:
        return f"cannot put it back ({error.strerror or error})"
    info.unlink(missing_ok=True)
    return ""


def _entry_of(path: str) -> tuple[Path, Path] | None:
    """The home trash's entry for `path`, just trashed; None where there is none."""
    if sys.platform in ("win32", "darwin"):
        return None
    trash = _home_trash()
    wanted = "Path=" + quote(os.fsencode(path), safe=b"/")
    newest = None
    for info in (trash / "info").glob("*.trashinfo"):
        try:
            lines = info.read_text(encoding="utf-8", errors="replace").splitlines()
            stamp = info.stat().st_mtime_ns
        except OSError:
            continue
        if wanted in lines and (newest is None or stamp > newest[0]):
            newest = (stamp, info)
    if newest is None:
        return None
    info = newest[1]
    trashed = trash / "files" / info.name.removesuffix(".trashinfo")
    return (trashed, info) if os.path.lexists(trashed) else None


def _home_trash() -> Path:
    """The trash send2trash uses for files on the home device ($XDG_DATA_HOME/Trash)."""
    try:
        from send2trash.plat_other import HOMETRASH

        return Path(HOMETRASH)
    except ImportError:
        data = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
        return Path(data) / "Trash"
