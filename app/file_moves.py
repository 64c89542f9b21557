"""Moving or copying files into a folder the user chose ("Move or copy checked to a
folder…"), never over an existing file: a name that is taken gets a suffix ("essay (1).txt").

A move keeps the file's bytes and dates: on one device it is a new link to the same file
made only where the name is free, then the old name is removed; across devices (or where
links are not allowed) the file is copied into a free name, then removed. A copy leaves
the original where it was. Archive documents are SimSift's own copies, never the user's
files: they are not moved or copied.
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from simsift.core.pipeline.check import is_archive_path

Progress = Callable[[int, int], None]  # files done, files in all
MOVE, COPY = "move", "copy"
_LINK_REFUSED = {errno.EXDEV, errno.EPERM, errno.ENOTSUP, errno.EMLINK, errno.EACCES}


def _no_progress(done: int, total: int) -> None:
    pass


def move_or_copy(
    paths: Sequence[str], folder: str, how: str, progress: Progress = _no_progress
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Move (`how` = MOVE) or copy (COPY) each file into `folder`, never replacing a file.

    Returns (source, new path) of the files moved or copied and (source, reason) of the
    others; `progress(done, total)` is called before each file.
    """
    if how not in (MOVE, COPY):
        raise ValueError(f"how must be {MOVE!r} or {COPY!r}, not {how!r}")
    done, failed = [], []
    for i, path in enumerate(paths):
        progress(i, len(paths))
        reason = _refusal(path, folder)
        if reason:
            failed.append((path, reason))
            continue
        try:
            target = _move(path, folder) if how == MOVE else _copy(path, folder)
        except OSError as error:
            failed.append((path, error.strerror or str(error)))
        else:
            done.append((path, target))
    progress(len(paths), len(paths))
    return done, failed


def _refusal(path: str, folder: str) -> str:
    """Why `path` is not moved or copied into `folder`; '' when it may be."""
    if is_archive_path(path):
        return "an archive document: kept in the archive"
    if not os.path.isdir(folder):
        return "the folder is not there"
    if not os.path.isfile(path):
        return "the file is not there any more"
    try:
        if os.path.samefile(os.path.dirname(path) or ".", folder):
            return "it is in that folder already"
    except OSError as error:
        return error.strerror or str(error)
    return ""


def free_names(folder: str, name: str) -> Iterator[str]:
    """`folder/name`, then "stem (1).ext", "stem (2).ext"… (whether taken is checked by
    the caller, atomically, when it creates the file)."""
    stem, suffix = _split(name)
    yield os.path.join(folder, name)
    number = 1
    while True:
        yield os.path.join(folder, f"{stem} ({number}){suffix}")
        number += 1


def _split(name: str) -> tuple[str, str]:
    """("essay", ".txt") for "essay.txt", ("archive.tar", ".gz"), (".bashrc", "")."""
    path = Path(name)
    return (path.stem, path.suffix) if path.stem else (name, "")


def _move(path: str, folder: str) -> str:
    for target in free_names(folder, os.path.basename(path)):
        try:
            if sys.platform == "win32":
                os.rename(path, target)  # Windows refuses to rename onto an existing file
                return target
            os.link(path, target)  # fails if the name is taken: nothing is replaced
        except FileExistsError:
            continue
        except OSError as error:
            if error.errno not in _LINK_REFUSED:
                raise
            break  # another device, or links not allowed there: copy, then remove
        try:
            os.unlink(path)
        except OSError:
            os.unlink(target)  # left where it was rather than in two places
            raise
        return target
    target = _copy(path, folder)
    try:
        os.unlink(path)
    except OSError:
        os.unlink(target)
        raise
    return target


def _copy(path: str, folder: str) -> str:
    names = free_names(folder, os.path.basename(path))
    with open(path, "rb") as source:
        while True:
            target = next(names)
            try:
                copy = open(target, "xb")  # noqa: SIM115  exclusive: never over a file
            except FileExistsError:
                continue
            try:
                with copy:
                    shutil.copyfileobj(source, copy)
                shutil.copystat(path, target)
            except OSError:
                os.unlink(target)  # no half copy left behind
                raise
            return target
