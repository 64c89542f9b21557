"""A stand-in desktop file manager on the D-Bus session bus: records ShowItems calls.

python fake_file_manager.py LOG_FILE
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, QObject, Slot
from PySide6.QtDBus import QDBusConnection


class FileManager(QObject):
    def __init__(self, log: str) -> None:
        super().__init__()
        self._log = log

    @Slot("QStringList", str)
    def ShowItems(self, uris: list, startup_id: str) -> None:
        with open(self._log, "a", encoding="utf-8") as out:
            out.write("\n".join(uris) + "\n")


def main() -> None:
    app = QCoreApplication([])
    bus = QDBusConnection.sessionBus()
    manager = FileManager(sys.argv[1])
    bus.registerObject(
        "/org/freedesktop/FileManager1",
        "org.freedesktop.FileManager1",
        manager,
        QDBusConnection.RegisterOption.ExportAllSlots,
    )
    if not bus.registerService("org.freedesktop.FileManager1"):
        sys.exit("could not register the service")
    with open(sys.argv[1] + ".ready", "w", encoding="utf-8"):
        pass  # the test waits for this file before calling
    app.exec()


if __name__ == "__main__":
    main()
