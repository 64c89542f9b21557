"""Table of files that could not be read, with the reason in words a user understands."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from core.document import FileRecord

COL_FILE, COL_FOLDER, COL_MESSAGE = range(3)
PathRole = Qt.ItemDataRole.UserRole + 1

_Index = QModelIndex | QPersistentModelIndex


class ErrorsModel(QAbstractTableModel):
    """One row per unreadable file."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._records: Sequence[FileRecord] = ()

    def set_records(self, records: Sequence[FileRecord]) -> None:
        self.beginResetModel()
        self._records = records
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 3

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (self.tr("File"), self.tr("Folder"), self.tr("Problem"))[section]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        record = self._records[index.row()]
        if role == PathRole:
            return record.path
        if role == Qt.ItemDataRole.ToolTipRole:
            return record.path
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        column = index.column()
        if column == COL_FILE:
            return os.path.basename(record.path)
        if column == COL_FOLDER:
            return os.path.dirname(record.path)
        return record.message
