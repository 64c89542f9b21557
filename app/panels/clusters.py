"""The Clusters tab: a filter box, a one-line summary and the tree of clusters.

The panel owns the cluster model, its filter proxy and the tree; the window fills the
summary (it spans the folders, the scan and the problems) and acts on the selection. New
clusters (another k, a recompute, files trashed) keep the members selected that are
still there, found by path.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QTreeView, QVBoxLayout, QWidget
from simsift.app.column_widths import ColumnFitter
from simsift.app.models.clusters import (
    COL_FOLDER,
    COL_NAME,
    COL_TITLE,
    ClusterFilterProxy,
    ClusterModel,
    Marking,
)
from simsift.app.models.roles import DocRole
from simsift.app.readable import plain_label
from simsift.app.row_height import fit_rows_to_names
from simsift.core.analysis.cluster import Clusters
from simsift.core.document import FileRecord

_OPEN_ALL_UP_TO = 200  # clusters: small results read best fully open
# (narrowest, widest) pixels of the text columns; the others as wide as their contents.
# The name column holds the tree's indentation and check box too.
_TEXT_COLUMNS = {COL_NAME: (180, 420), COL_FOLDER: (100, 320), COL_TITLE: (100, 420)}


class ClustersPanel(QWidget):
    """Clusters of near-duplicates, each under its original."""

    selection_changed = Signal()
    document_activated = Signal(int)  # a member row was double-clicked

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ClusterModel(self)
        self._documents: Sequence[FileRecord] = ()  # those of the clusters shown
        self.proxy = ClusterFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.tree = _make_tree(self.proxy)
        self.columns = ColumnFitter(self.tree, _TEXT_COLUMNS)
        self.filter_edit = QLineEdit()
        self.filter_edit.setClearButtonEnabled(True)
        self.summary = plain_label(QLabel())  # notices may name files
        self.summary.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree, 1)
        self.filter_edit.textChanged.connect(self.proxy.set_filter_text)
        self.tree.selectionModel().selectionChanged.connect(
            lambda *_: self.selection_changed.emit()
        )
        self.tree.doubleClicked.connect(self._on_double_click)

    def retranslate(self) -> None:
        self.filter_edit.setPlaceholderText(self.tr("Filter by file name, folder or title…"))
        self.model.headerDataChanged.emit(
            Qt.Orientation.Horizontal, 0, self.model.columnCount() - 1
        )
        self.tree.viewport().update()

    def tab_title(self) -> str:
        return self.tr("Clusters")

    def tab_tip(self) -> str:
        return ""

    def show_clusters(
        self,
        documents: Sequence[FileRecord],
        clusters: Clusters,
        protected: np.ndarray | None = None,
    ) -> None:
        """Show `clusters` of `documents`, fully open when there are few; `protected` (bool
        per document: in a reference folder) are never marked. The selected members still
        in `documents` stay selected."""
        selected = [self._documents[d].path for d in self.selected_documents()]
        self.model.set_clusters(documents, clusters, protected)  # resets the selection
        self._documents = documents
        if len(clusters) <= _OPEN_ALL_UP_TO:
            self.tree.expandAll()
        if selected:
            number = {d.path: i for i, d in enumerate(documents)}
            self.select_documents([number[p] for p in selected if p in number])
        self.columns.schedule()  # the rows opened are measured too

    def mark_all_but_original(self) -> str:
        """Check every copy but each cluster's original; say how many, and how many were
        left unmarked and why (for the status bar)."""
        return self.marking_text(self.model.check_all_but_original())

    def marking_text(self, marking: Marking) -> str:
        """ "Marked 12 files…", then each kind of file left unmarked, if any."""
        count = f"{marking.marked:,}"
        parts = [
            self.tr("Marked 1 file: all but its cluster's original.")
            if marking.marked == 1
            else self.tr("Marked %1 files: all but each cluster's original.").replace("%1", count)
        ]
        left = (
            (
                marking.apart,
                self.tr(
                    "%1 files within k of a marked file but farther than k from every "
                    "original are in no cluster and were not marked."
                ),
            ),
            (
                marking.farther,
                self.tr("%1 files farther than k from their cluster's original were not marked."),
            ),
            (
                marking.protected,
                self.tr("%1 files in reference or archive folders were not marked."),
            ),
        )
        parts += [text.replace("%1", f"{n:,}") for n, text in left if n]
        return " ".join(parts)

    def selected_documents(self) -> list[int]:
        """Documents of the selected member rows, in selection order."""
        rows = self.tree.selectionModel().selectedRows(COL_NAME)
        docs = [self.proxy.data(index, DocRole) for index in rows]
        return [d for d in docs if d is not None and d >= 0]

    def select_documents(self, docs: list[int]) -> None:
        """Select the member rows of `docs`, the first scrolled to (its cluster opened)."""
        selection = self.tree.selectionModel()
        selection.clearSelection()
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        shown = [index for index in map(self.proxy_index_of, docs) if index.isValid()]
        for index in shown:
            selection.select(index, flags)
        if shown:
            self.tree.scrollTo(shown[0])

    def proxy_index_of(self, doc: int) -> QModelIndex:
        """The proxy index of document `doc`'s member row, invalid when not shown."""
        for row in range(self.proxy.rowCount()):
            parent = self.proxy.index(row, 0)
            for child in range(self.proxy.rowCount(parent)):
                index = self.proxy.index(child, 0, parent)
                if self.proxy.data(index, DocRole) == doc:
                    return index
        return QModelIndex()

    def _on_double_click(self, index: QModelIndex) -> None:
        doc = self.proxy.data(index, DocRole)
        if doc is not None and doc >= 0:
            self.document_activated.emit(doc)


def _make_tree(model) -> QTreeView:
    tree = QTreeView()
    tree.setModel(model)
    tree.setUniformRowHeights(True)  # lets the view skip measuring 100,000 rows
    tree.setSortingEnabled(True)
    tree.sortByColumn(COL_NAME, Qt.SortOrder.DescendingOrder)
    tree.setSelectionMode(QTreeView.SelectionMode.ExtendedSelection)
    tree.setSelectionBehavior(QTreeView.SelectionBehavior.SelectRows)
    tree.setAlternatingRowColors(True)
    fit_rows_to_names(tree)
    return tree
