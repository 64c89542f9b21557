"""The teacher's view: one row per document with its similarity index and sources; the
selected document's text with each source's passages in its own colour.

Rows are the documents found in part elsewhere, read from the flat arrays of
`core.similarity.DocumentSimilarity` (no Python object per row), highest index first.
"""

from __future__ import annotations

import html
import os

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtWidgets import (
    QHeaderView,
    QLineEdit,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.cluster_model import text_ranks
from app.readable import readable
from core.result import ScanResult

COL_NAME, COL_FOLDER, COL_INDEX, COL_SOURCES, COL_LARGEST, COL_LARGEST_SHARE = range(6)
_NUMBER_COLUMNS = (COL_INDEX, COL_SOURCES, COL_LARGEST_SHARE)
DocRole = Qt.ItemDataRole.UserRole + 2

# one colour per source, in share order; light enough for black text
SOURCE_COLOURS = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#eebefa", "#ffec99", "#c3fae8", "#ffc9c9")

_Index = QModelIndex | QPersistentModelIndex


class DocumentsModel(QAbstractTableModel):
    """Documents found in part in other documents, with their similarity index."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None
        self._rows = np.zeros(0, np.int64)
        self.similarity = None

    def set_result(self, result: ScanResult | None) -> None:
        self.beginResetModel()
        self._result = result
        self._ranks: dict[bool, np.ndarray] = {}
        self.similarity = result.similarity() if result is not None else None
        if self.similarity is None:
            self._rows = np.zeros(0, np.int64)
        else:
            found = np.flatnonzero(self.similarity.source_count > 0)
            self._rows = found[np.argsort(-self.similarity.index[found], kind="stable")]
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 6

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_INDEX:
            return self.tr(
                "Share of the document's own text found in any other document "
                "(template and common text excluded)"
            )
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            self.tr("Document"),
            self.tr("Folder"),
            self.tr("Similarity index"),
            self.tr("Sources"),
            self.tr("Largest source"),
            self.tr("Its share"),
        )[section]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self._result is None:
            return None
        doc = int(self._rows[index.row()])
        sim, column = self.similarity, index.column()
        if role == DocRole:
            return doc
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMBER_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and column in (COL_NAME, COL_FOLDER):
            return readable(self._result.documents[doc].path)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        path = self._result.documents[doc].path
        if column == COL_NAME:
            return readable(os.path.basename(path))
        if column == COL_FOLDER:
            return readable(os.path.dirname(path))
        if column == COL_INDEX:
            return f"{sim.index[doc]:.0%}"
        if column == COL_SOURCES:
            return str(int(sim.source_count[doc]))
        if column == COL_LARGEST:
            return readable(os.path.basename(self._result.documents[sim.top_source[doc]].path))
        return f"{sim.top_share[doc]:.0%}"

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Reorder rows with one numpy argsort (a Python comparison per pair of rows takes
        seconds at 10,000 documents)."""
        if self.similarity is None or not 0 <= column < 6:
            return
        self.layoutAboutToBeChanged.emit()
        order_of = np.argsort(self._sort_keys(column)[self._rows], kind="stable")
        if order == Qt.SortOrder.DescendingOrder:
            order_of = order_of[::-1]
        self._rows = self._rows[order_of]
        self.layoutChanged.emit()

    def _sort_keys(self, column: int) -> np.ndarray:
        """One sortable number per document for `column`."""
        sim = self.similarity
        if column == COL_INDEX:
            return sim.index
        if column == COL_SOURCES:
            return sim.source_count
        if column == COL_LARGEST_SHARE:
            return sim.top_share
        ranks = self._name_ranks(column)
        return ranks[sim.top_source] if column == COL_LARGEST else ranks

    def _name_ranks(self, column: int) -> np.ndarray:
        """Alphabetical rank of every document's name (or folder), computed once per result."""
        by_folder = column == COL_FOLDER
        if by_folder not in self._ranks:
            part = os.path.dirname if by_folder else os.path.basename
            self._ranks[by_folder] = text_ranks(
                [part(d.path).lower() for d in self._result.documents]
            )
        return self._ranks[by_folder]


class DocumentsProxy(QSortFilterProxyModel):
    """Filters rows by text; passes sorting to `DocumentsModel.sort` (numpy)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setDynamicSortFilter(False)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)


class DocumentsPanel(QWidget):
    """The Documents tab: filterable table, and the selected document's coloured text."""

    compare_requested = Signal(int, int)  # this document, one of its sources

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = DocumentsModel(self)
        self.proxy = DocumentsProxy(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit()
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = _make_table(self.proxy)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._on_link)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(self.text)
        splitter.setSizes([620, 420])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter)
        layout.addWidget(splitter, 1)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())
        self._doc: int | None = None

    def set_result(self, result: ScanResult | None) -> None:
        self._result = result
        self.model.set_result(result)
        self.table.sortByColumn(COL_INDEX, Qt.SortOrder.DescendingOrder)
        self.table.resizeColumnsToContents()  # Qt measures at most 1,000 rows
        self.text.clear()
        self._doc = None

    def retranslate(self) -> None:
        self.filter.setPlaceholderText(self.tr("Filter by file name or folder…"))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 5)

    def select_document(self, doc: int) -> None:
        for row in range(self.proxy.rowCount()):
            if self.proxy.index(row, 0).data(DocRole) == doc:
                self.table.selectRow(row)
                return

    def _show_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        self._doc = rows[0].data(DocRole)
        self.text.setHtml(self._document_html(self._doc))

    def _document_html(self, doc: int) -> str:
        """Legend of sources (with a compare link each), then the text coloured by source."""
        result, sim = self._result, self.model.similarity
        sources = sim.sources(doc)[: len(SOURCE_COLOURS)]
        colour_of_paragraph: dict[int, str] = {}
        legend = []
        for source, colour in zip(sources, SOURCE_COLOURS, strict=False):
            for link in result.passages.links(doc, source.doc):
                for para in range(*link.paragraphs_a):
                    colour_of_paragraph.setdefault(para, colour)
            name = html.escape(readable(os.path.basename(result.documents[source.doc].path)))
            compare = html.escape(self.tr("compare side by side"))
            legend.append(
                f"<span style='background:{colour}'>&nbsp;&nbsp;&nbsp;</span> {name} — "
                f"{source.share:.0%} <a href='compare:{source.doc}'>{compare}</a>"
            )
        record = result.documents[doc]
        head = self.tr("Similarity index %1: found in %2 other documents").replace(
            "%1", f"{sim.index[doc]:.0%}"
        )
        parts = [f"<p><b>{html.escape(head.replace('%2', str(len(sim.sources(doc)))))}</b></p>"]
        parts.append("<p>" + "<br>".join(legend) + "</p><hr>")
        if record.title:
            parts.append(f"<h3>{html.escape(record.title)}</h3>")
        for i, paragraph in enumerate(record.paragraphs):
            colour = colour_of_paragraph.get(i)
            style = f" style='background:{colour}'" if colour else ""
            parts.append(f"<p{style}>{html.escape(paragraph)}</p>")
        return "\n".join(parts)

    def _on_link(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("compare:") and self._doc is not None:
            self.compare_requested.emit(self._doc, int(text.split(":", 1)[1]))


def _make_table(model) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSortingEnabled(True)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    view.verticalHeader().hide()
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.setAlternatingRowColors(True)
    return view
