"""The Partial copies tab: pairs sharing passages that the clusters do not already show.

Which pairs are listed is core's rule (`core.analysis.partial_pairs`); the panel owns the
table, its sorting proxy and its filter box, and says which pair is selected.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLineEdit, QTableView, QVBoxLayout, QWidget
from simsift.app.column_widths import ColumnFitter
from simsift.app.models.partial import (
    COL_CONTAINMENT_AB,
    COL_FOLDER_A,
    COL_FOLDER_B,
    COL_NAME_A,
    COL_NAME_B,
    COL_VERDICT,
    PartialModel,
    PartialProxy,
)
from simsift.app.models.roles import PairRole
from simsift.app.row_height import fit_rows_to_names
from simsift.core.analysis.partial_pairs import partial_pairs_beyond_k
from simsift.core.pipeline.result import ScanResult
from simsift.core.store.verdicts import Verdicts


class PartialPanel(QWidget):
    """One row per pair of documents where passages of one are found in the other."""

    pair_selected = Signal()  # the selection changed (to a pair or to none)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = PartialModel(self)
        self.proxy = PartialProxy(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)  # any column: names, folders, verdicts
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.view = _make_view(self.proxy)
        self.columns = ColumnFitter(self.view, _TEXT_COLUMNS)
        self.filter = QLineEdit()
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter)
        layout.addWidget(self.view, 1)
        self.view.selectionModel().selectionChanged.connect(lambda *_: self.pair_selected.emit())

    def retranslate(self) -> None:
        self.filter.setPlaceholderText(self.tr("Filter by file name or folder…"))

    def tab_title(self) -> str:
        return self.tr("Partial copies (%1)").replace("%1", str(self.model.rowCount()))

    def tab_tip(self) -> str:
        return self.tr("Pairs sharing passages that Clusters does not already show (beyond k)")

    def set_roots(self, roots: Sequence[str]) -> None:
        self.model.set_roots(roots)

    def set_verdicts(self, verdicts: Verdicts) -> None:
        self.model.set_verdicts(verdicts)

    def show_result(self, result: ScanResult, k: int) -> None:
        """List `result`'s partial copies that the clusters at `k` do not show."""
        found = result.partial_pairs()
        pairs, distance = partial_pairs_beyond_k(found, result.distance(found.left, found.right), k)
        self.model.set_pairs(
            result.documents,
            pairs.left,
            pairs.right,
            pairs.containment_ab,
            pairs.containment_ba,
            pairs.overlap,
            distance,
            longest_run=pairs.longest_run,
        )
        one_folder = self.model.folder_count() < 2  # the Folder columns would all be alike
        self.view.setColumnHidden(COL_FOLDER_A, one_folder)
        self.view.setColumnHidden(COL_FOLDER_B, one_folder)

    def selected_pair(self) -> tuple[int, int] | None:
        rows = self.view.selectionModel().selectedRows()
        return self.proxy.data(rows[0], PairRole) if rows else None


# narrowest and widest pixels of the text columns; the measures always show whole
_TEXT_COLUMNS = {
    COL_NAME_A: (110, 300),
    COL_FOLDER_A: (50, 140),
    COL_NAME_B: (110, 300),
    COL_FOLDER_B: (50, 140),
    COL_VERDICT: (70, 220),
}


def _make_view(model) -> QTableView:
    view = QTableView()
    view.setModel(model)
    fit_rows_to_names(view)
    view.setSortingEnabled(True)
    view.sortByColumn(COL_CONTAINMENT_AB, Qt.SortOrder.DescendingOrder)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.verticalHeader().hide()
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    return view
