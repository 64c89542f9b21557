"""Files a user should know about: not read (errors), read with a warning, or skipped,
each with the reason in words a user understands."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from simsift.app.messages import translated
from simsift.app.models.roles import ReadRole
from simsift.app.readable import plain, readable
from simsift.core.document import STATUS_ERROR, STATUS_OK, FileRecord

COL_FILE, COL_FOLDER, COL_STATUS, COL_PROBLEM = range(4)

_Index = QModelIndex | QPersistentModelIndex


class ProblemsModel(QAbstractTableModel):
    """One row per file not read, read with a warning, or skipped; errors first."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._records: Sequence[FileRecord] = ()
        self._compared: frozenset[str] = frozenset()
        self.counts = (0, 0, 0)  # errors, warnings, skipped

    def set_records(
        self,
        errors: Sequence[FileRecord],
        warned: Sequence[FileRecord],
        skipped: Sequence[FileRecord],
        garbled: Sequence[FileRecord] = (),
    ) -> None:
        """`warned` were read and compared; `garbled` were read but left out."""
        self.beginResetModel()
        self._records = (*errors, *garbled, *warned, *skipped)
        self._compared = frozenset(r.path for r in warned)
        self.counts = (len(errors), len(warned) + len(garbled), len(skipped))
        self.endResetModel()

    def path_at(self, row: int) -> str:
        """The file's real path (Qt would drop bytes that are not UTF-8 from a role)."""
        return self._records[row].path

    def record_at(self, row: int) -> FileRecord:
        return self._records[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 4

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (self.tr("File"), self.tr("Folder"), self.tr("Status"), self.tr("Problem"))[section]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        record = self._records[index.row()]
        if role == ReadRole:
            return record.status == STATUS_OK
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain(readable(record.path))
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        column = index.column()
        if column == COL_FILE:
            return readable(os.path.basename(record.path))
        if column == COL_FOLDER:
            return readable(os.path.dirname(record.path))
        if column == COL_STATUS:
            return status_text(record, record.path in self._compared)
        return translated(record.warning if record.status == STATUS_OK else record.message)


def status_text(record: FileRecord, compared: bool) -> str:
    if record.status == STATUS_ERROR:
        return QCoreApplication.translate("ProblemsModel", "Not read")
    if record.status == STATUS_OK and compared:
        return QCoreApplication.translate("ProblemsModel", "Read, with a warning")
    if record.status == STATUS_OK:
        return QCoreApplication.translate("ProblemsModel", "Garbled, not compared")
    return QCoreApplication.translate("ProblemsModel", "Skipped")
