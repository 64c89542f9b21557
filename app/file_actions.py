"""What the app does to files outside itself: open, reveal, copy a path (the trash is in
app/trash.py)."""

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
    if _show_items_over_dbus(path):
        return True
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    return QDesktopServices.openUrl(QUrl.fromLocalFile(folder))


def _show_items_over_dbus(path: str) -> bool:
    """Ask the desktop's file manager to open the folder with the file selected
    (org.freedesktop.FileManager1, offered by Nautilus, Dolphin, Nemo, Caja, Thunar...)."""
    from PySide6.QtDBus import QDBusConnection, QDBusMessage

    bus = QDBusConnection.sessionBus()
    if not bus.isConnected():
        return False
    call = QDBusMessage.createMethodCall(
        "org.freedesktop.FileManager1",
        "/org/freedesktop/FileManager1",
        "org.freedesktop.FileManager1",
        "ShowItems",
    )
    uri = bytes(QUrl.fromLocalFile(path).toEncoded()).decode("ascii")  # spaces as %20
    call.setArguments([[uri], ""])
    reply = bus.call(call, timeout=2000)
    return reply.type() == QDBusMessage.MessageType.ReplyMessage


def copy_paths(paths: Iterable[str]) -> None:
    QGuiApplication.clipboard().setText("\n".join(paths))
