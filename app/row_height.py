"""Row heights that fit Chinese file names.

Qt sizes rows from the widget's font, but CJK glyphs come from a fallback font with a
deeper descent: in rows that high, the underscores of "学生_论文.txt" fell below the
clip and the name read "学生 论文.txt". Rows are sized from a laid-out sample instead.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QModelIndex, QSize
from PySide6.QtGui import QFont, QTextLayout
from PySide6.QtWidgets import (
    QAbstractItemView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

_SAMPLE = "Ag_学生_论文"  # Latin, CJK and underscores: the tallest line a name makes


def text_line_height(font: QFont) -> int:
    """Pixels one laid-out line of mixed Latin and Chinese text takes, fallbacks included."""
    layout = QTextLayout(_SAMPLE, font)
    layout.beginLayout()
    line = layout.createLine()
    layout.endLayout()
    return math.ceil(line.height())


class _FittingRows(QStyledItemDelegate):
    def __init__(self, height: int, parent=None) -> None:
        super().__init__(parent)
        self._height = height

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width(), max(size.height(), self._height))


def fit_rows_to_names(view: QAbstractItemView) -> None:
    """Make every row of `view` tall enough for Chinese names with underscores."""
    height = text_line_height(view.font()) + 6
    if isinstance(view, QTableView):  # tables: one fixed section size
        header = view.verticalHeader()
        header.setDefaultSectionSize(max(header.defaultSectionSize(), height))
    else:  # trees: uniform rows take the first row's size hint
        view.setItemDelegate(_FittingRows(height, view))
