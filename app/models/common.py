"""Table of common text: passages found in many documents, left out of partial copying.

Rows are read lazily from the result's flat arrays, so a large archive with hundreds of
thousands of common passages costs nothing until a row is shown.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from simsift.app.readable import plain, readable
from simsift.core.pipeline.result import ScanResult

COL_TEXT, COL_DOCUMENTS, COL_OCCURRENCES, COL_EXAMPLE = range(4)
COLUMN_COUNT = 4

_Index = QModelIndex | QPersistentModelIndex


class CommonTextModel(QAbstractTableModel):
    """One row per common passage, most widespread first."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None

    def set_result(self, result: ScanResult | None) -> None:
        self.beginResetModel()
        self._result = result
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._result is None:
            return 0
        return len(self._result.passages.common_text)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else COLUMN_COUNT

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            self.tr("Text"),
            self.tr("Documents"),
            self.tr("Times"),
            self.tr("Example"),
        )[section]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if self._result is None or not index.isValid():
            return None
        common = self._result.passages.common_text
        row, column = index.row(), index.column()
        passage = int(common.passage[row])
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_TEXT:
                return self._result.passage_text(passage, 160)
            if column == COL_DOCUMENTS:
                return f"{int(common.documents[row]):,}"
            if column == COL_OCCURRENCES:
                return f"{int(common.occurrences[row]):,}"
            return readable(os.path.basename(self._example(passage)))
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == COL_TEXT:
                return plain(self._result.passage_text(passage, 2000))
            if column == COL_EXAMPLE:
                return plain(readable(self._example(passage)))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (COL_DOCUMENTS, COL_OCCURRENCES):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _example(self, passage: int) -> str:
        doc = int(self._result.passages.passages.doc[passage])
        return self._result.documents[doc].path
