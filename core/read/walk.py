"""Find candidate files under the folders a user dropped."""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Callable, Iterable, Iterator
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


# Called with (path, reason, is_error) for what the walk leaves out, so that every file a
# user dropped is accounted for. A folder left out is reported once, not per file.
OnSkip = Callable[[str, str, bool], None]


def _ignore(path: str, reason: str, is_error: bool) -> None:
    """The default: what is left out is not reported."""


@dataclass(frozen=True, slots=True)
class FoundFile:
    """A file found by the walk, with the stat values used to detect changes."""

    path: str
    size: int
    mtime_ns: int
    root: str


# Reason given for a link to a file outside every root: it is not part of what was dropped.
OUTSIDE_LINK = "link to a file outside the scanned folders (not followed)"


@dataclass(frozen=True, slots=True)
class _FileRules:
    """What makes a file found, and where its left-out files are reported."""

    patterns: tuple[str, ...]
    # Real paths of the roots that links to files must point into; None: anywhere.
    link_roots: tuple[str, ...] | None
    on_skip: OnSkip


def walk_files(
    roots: Iterable[str | Path],
    *,
    exclude: Iterable[str] = (),
    include_hidden: bool = False,
    follow_outside_links: bool = False,
    on_skip: OnSkip = _ignore,
) -> Iterator[FoundFile]:
    """Regular files under `roots` (recursively), each real file once.

    Symlinked folders are not followed (no loops); a file reachable from two roots is
    listed once. A link to a file outside every root (say to /etc/passwd) is left out
    unless `follow_outside_links`. `exclude` holds glob patterns matched against names
    and full paths (e.g. "*.bak", "*/drafts/*"). Hidden (dot) and system folders are
    skipped unless `include_hidden`. Everything left out, and every folder that cannot
    be opened, is reported to `on_skip` with the reason.
    """
    root_paths = [os.path.abspath(os.fspath(root)) for root in roots]
    link_roots = None if follow_outside_links else tuple(map(os.path.realpath, root_paths))
    rules = _FileRules(tuple(exclude), link_roots, on_skip)
    seen: dict[tuple[int, int], str] = {}
    for root_path in root_paths:
        if os.path.isfile(root_path):
            candidates: Iterable[tuple[str, bool]] = [(root_path, os.path.islink(root_path))]
        else:
            candidates = _files_below(root_path, rules.patterns, include_hidden, on_skip)
        for path, is_link in candidates:
            found = _found(path, is_link, root_path, rules, seen)
            if found is not None:
                yield found


def _files_below(
    root: str, patterns: tuple[str, ...], include_hidden: bool, on_skip: OnSkip
) -> Iterator[tuple[str, bool]]:
    """(path, is a link) of the files below `root` in os.walk's top-down order, names
    sorted in each folder.

    An explicit stack instead of os.walk, which recurses (Python 3.11) and so fails
    with RecursionError on folders nested about a thousand deep.
    """
    stack = [root]
    while stack:
        folder = stack.pop()
        subfolders, files = _folder_entries(folder, on_skip)
        kept = []
        for name in subfolders:
            path = os.path.join(folder, name)
            reason = _folder_skip_reason(path, patterns, include_hidden)
            if reason:
                on_skip(path, reason, False)
            else:
                kept.append(path)
        for name, is_link in files:
            if include_hidden or not name.startswith("."):
                yield os.path.join(folder, name), is_link
            else:
                on_skip(os.path.join(folder, name), "hidden file", False)
        stack.extend(reversed(kept))


def _folder_entries(folder: str, on_skip: OnSkip) -> tuple[list[str], list[tuple[str, bool]]]:
    """Sorted names of the subfolders (links to folders too), and (name, is a link) of
    the other entries.

    Both are empty when `folder` cannot be read, which is reported as an error.
    """
    subfolders, others = [], []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if _is_folder(entry):
                    subfolders.append(entry.name)
                else:
                    others.append((entry.name, entry.is_symlink()))
    except OSError as error:
        reason = f"cannot open folder ({error.strerror or error})"
        on_skip(error.filename or folder, reason, True)
        return [], []
    return sorted(subfolders), sorted(others)


def _is_folder(entry: os.DirEntry) -> bool:
    """True for a folder or a link to one, as os.walk sorts entries."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _folder_skip_reason(path: str, patterns: tuple[str, ...], include_hidden: bool) -> str:
    """Why the walk does not enter folder `path`, or '' when it does."""
    name = os.path.basename(path)
    if os.path.islink(path):
        return "link to a folder (not followed)"
    if not include_hidden and name.startswith("."):
        return "hidden folder (not searched)"
    if name in SYSTEM_FOLDERS:
        return "system folder (not searched)"
    pattern = _matching_pattern(path, patterns)
    return f"excluded by the pattern {pattern} (folder not searched)" if pattern else ""


def _found(
    path: str, is_link: bool, root: str, rules: _FileRules, seen: dict[tuple[int, int], str]
) -> FoundFile | None:
    """The found file at `path`, or None when it is left out (reported to rules.on_skip)."""
    on_skip = rules.on_skip
    pattern = _matching_pattern(path, rules.patterns)
    if pattern:
        on_skip(path, f"excluded by the pattern {pattern}", False)
        return None
    try:
        st = os.stat(path)
    except OSError as error:
        on_skip(path, f"cannot open file ({error.strerror or error})", True)
        return None
    if is_link and rules.link_roots is not None and not _is_below(path, rules.link_roots):
        on_skip(path, OUTSIDE_LINK, False)
        return None
    if not stat.S_ISREG(st.st_mode):
        on_skip(path, "not a regular file (device, pipe or socket)", False)
        return None
    key = (st.st_dev, st.st_ino)
    first = seen.get(key)
    if first == path:
        return None  # under two of the chosen folders (one inside the other): listed once
    if first is not None:
        on_skip(path, f"same file as {first} (a link)", False)
        return None
    seen[key] = path
    return FoundFile(path, st.st_size, st.st_mtime_ns, root)


def _is_below(path: str, real_roots: tuple[str, ...]) -> bool:
    """True when `path`, links resolved, is one of `real_roots` or inside one."""
    target = os.path.realpath(path)
    return any(target == root or target.startswith(os.path.join(root, "")) for root in real_roots)


def _matching_pattern(path: str, patterns: tuple[str, ...]) -> str:
    """The first exclude pattern matching the name or full path, or ''."""
    name = os.path.basename(path)
    return next((p for p in patterns if fnmatch.fnmatch(name, p) or fnmatch.fnmatch(path, p)), "")
