"""What the app does to files outside itself: open, reveal, copy a path, move to the trash."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication


def open_file(path: str) -> bool:
    """Open a file with the application the system uses for it."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(path))


def reveal_in_folder(path: str) -> bool:
    """Show the file in the system file manager (selected where the platform supports it)."""
    if sys.platform == "win32":
        subprocess.Popen(["explorer", "/select,", os.path.normpath(path)])
        return True
    if sys.platform == "darwin":
        subprocess.Popen(["open", "-R", path])
        return True
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    return QDesktopServices.openUrl(QUrl.fromLocalFile(folder))


def copy_paths(paths: Iterable[str]) -> None:
    QGuiApplication.clipboard().setText("\n".join(paths))


def move_to_trash(paths: Iterable[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Send files to the system trash (never a permanent delete).

    Returns the paths moved and (path, reason) for those that could not be moved.
    """
    from send2trash import send2trash  # imported on use: keeps start-up light

    moved, failed = [], []
    for path in paths:
        try:
            send2trash(path)
        except OSError as error:  # send2trash raises TrashPermissionError (an OSError) too
            failed.append((path, str(error)))
        else:
            moved.append(path)
    return moved, failed
