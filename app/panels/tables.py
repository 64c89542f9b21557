"""The look shared by the plain result tables (problems, common text)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel
from PySide6.QtWidgets import QTableView
from simsift.app.row_height import fit_rows_to_names


def make_table_view(model: QAbstractItemModel) -> QTableView:
    """A read-only table of whole rows, alternating colours, the last column stretched."""
    view = QTableView()
    view.setModel(model)
    fit_rows_to_names(view)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.horizontalHeader().setStretchLastSection(True)
    view.verticalHeader().hide()
    view.setAlternatingRowColors(True)
    return view
