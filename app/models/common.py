"""Table of common text: passages and runs of words found in many documents, left out of
partial copying.

Rows are read lazily from the result's flat arrays, so a large archive with hundreds of
thousands of common passages costs nothing until a row is shown.
"""

from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from simsift.app.readable import plain, readable
from simsift.core.pipeline.result import ScanResult

COL_TEXT, COL_DOCUMENTS, COL_OCCURRENCES, COL_EXAMPLE = range(4)
COLUMN_COUNT = 4

_Index = QModelIndex | QPersistentModelIndex


class CommonTextModel(QAbstractTableModel):
    """One row per common passage or common run of words, most widespread first."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None
        self._is_run = np.zeros(0, bool)  # per row: a common run (else a passage)
        self._item = np.zeros(0, np.int64)  # per row: its number among its kind

    def set_result(self, result: ScanResult | None) -> None:
        self.beginResetModel()
        self._result = result
        self._is_run, self._item = _rows(result)
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._result is None:
            return 0
        return len(self._item)

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
        row, column = index.row(), index.column()
        is_run, item = bool(self._is_run[row]), int(self._item[row])
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_TEXT:
                return self._text(is_run, item, 160)
            if column == COL_DOCUMENTS:
                return f"{self._documents(is_run, item):,}"
            if column == COL_OCCURRENCES:
                p = self._result.passages
                times = (p.common_runs if is_run else p.common_text).occurrences
                return f"{int(times[item]):,}"
            return readable(os.path.basename(self._example(is_run, item)))
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == COL_TEXT:
                return plain(self._text(is_run, item, 2000))
            if column == COL_EXAMPLE:
                return plain(readable(self._example(is_run, item)))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (COL_DOCUMENTS, COL_OCCURRENCES):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _text(self, is_run: bool, item: int, max_chars: int) -> str:
        if is_run:
            return self._result.common_run_text(item, max_chars)
        return self._result.passage_text(
            int(self._result.passages.common_text.passage[item]), max_chars
        )

    def _documents(self, is_run: bool, item: int) -> int:
        p = self._result.passages
        return int((p.common_runs.documents if is_run else p.common_text.documents)[item])

    def _example(self, is_run: bool, item: int) -> str:
        p = self._result.passages
        if is_run:
            doc = int(p.common_runs.doc[item])
        else:
            doc = int(p.passages.doc[p.common_text.passage[item]])
        return self._result.documents[doc].path


def _rows(result: ScanResult | None) -> tuple[np.ndarray, np.ndarray]:
    """(is a run, number among its kind) per row: passages and runs, most widespread first."""
    if result is None:
        return np.zeros(0, bool), np.zeros(0, np.int64)
    passages, runs = result.passages.common_text, result.passages.common_runs
    documents = np.r_[passages.documents, runs.documents]
    is_run = np.r_[np.zeros(len(passages), bool), np.ones(len(runs), bool)]
    item = np.r_[np.arange(len(passages)), np.arange(len(runs))]
    order = np.argsort(-documents, kind="stable")
    return is_run[order], item[order]
