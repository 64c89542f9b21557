"""Item-data roles of every model and view, in one place: no two roles share a number, so
a view asking one model for another's role gets nothing instead of a wrong value."""

from PySide6.QtCore import Qt

SortRole = Qt.ItemDataRole.UserRole + 1  # a cell's value to sort by (number or rank)
DocRole = Qt.ItemDataRole.UserRole + 2  # a row's document number; -1 on a cluster row
PairRole = Qt.ItemDataRole.UserRole + 4  # a row's (document A, document B)
ReadRole = Qt.ItemDataRole.UserRole + 5  # True when a problem row's file was read
