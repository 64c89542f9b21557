"""Find candidate files under the folders a user dropped."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

# Folders no user means when dropping a parent folder: VCS data, caches, OS trash.
SYSTEM_FOLDERS = frozenset(
    {
        "__pycache__",
        "node_modules",
        "$RECYCLE.BIN",
        "System Volume Information",
        "lost+found",
        "__MACOSX",
    }
)


@dataclass(frozen=True, slots=True)
class FoundFile:
    """A file found by the walk, with the stat values used to detect changes."""

    path: str
    size: int
    mtime_ns: int
    root: str


def walk_files(
    roots: Iterable[str | Path],
    *,
    suffixes: frozenset[str] | None = None,
    exclude: Iterable[str] = (),
    include_hidden: bool = False,
) -> Iterator[FoundFile]:
    """Regular files under `roots` (recursively), each real file once.

    Symlinked folders are not followed (no loops); a file reachable from two roots is
    listed once. `exclude` holds glob patterns matched against names and full paths
    (e.g. "*.bak", "*/drafts/*"). Hidden (dot) and system folders are skipped unless
    `include_hidden`. Unreadable folders are passed over silently.
    """
    patterns = tuple(exclude)
    seen: set[tuple[int, int]] = set()
    for root in roots:
        root_path = os.path.abspath(os.fspath(root))
        if os.path.isfile(root_path):
            candidates: Iterable[str] = [root_path]
        else:
            candidates = _files_below(root_path, patterns, include_hidden)
        for path in candidates:
            found = _found(path, root_path, suffixes, patterns, seen)
            if found is not None:
                yield found


def _files_below(root: str, patterns: tuple[str, ...], include_hidden: bool) -> Iterator[str]:
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(
            d
            for d in dirs
            if (include_hidden or not d.startswith("."))
            and d not in SYSTEM_FOLDERS
            and not _excluded(os.path.join(folder, d), patterns)
        )
        for name in sorted(files):
            if include_hidden or not name.startswith("."):
                yield os.path.join(folder, name)


def _found(path, root, suffixes, patterns, seen) -> FoundFile | None:
    if suffixes is not None and os.path.splitext(path)[1].lower() not in suffixes:
        return None
    if _excluded(path, patterns):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not os.path.isfile(path) or (st.st_dev, st.st_ino) in seen:
        return None
    seen.add((st.st_dev, st.st_ino))
    return FoundFile(path, st.st_size, st.st_mtime_ns, root)


def _excluded(path: str, patterns: tuple[str, ...]) -> bool:
    name = os.path.basename(path)
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(path, p) for p in patterns)
