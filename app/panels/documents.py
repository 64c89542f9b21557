"""The teacher's view: one row per document with its similarity index and sources; the
selected document's text with each source's passages in its own colour.

Rows are the documents found in part elsewhere, then those found nowhere else that carry
integrity flags (disguised text may be why nothing was found), read from the flat arrays of
`core.analysis.similarity.DocumentSimilarity` (no Python object per row), highest index first.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QMarginsF,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import QColor, QPageLayout, QPageSize, QPdfWriter, QTextDocument
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)
from simsift.app.dialogs.verdict import FolderNames, verdict_data, verdict_rank
from simsift.app.models.clusters import TextFilterProxy, text_ranks
from simsift.app.models.roles import DocRole
from simsift.app.readable import NAMES, plain, readable
from simsift.app.row_height import fit_rows_to_names
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.essay import EssayLabels, essay_html, essay_page
from simsift.core.report.html import write_html
from simsift.core.store.verdicts import Verdict, Verdicts

COL_NAME, COL_FOLDER, COL_INDEX, COL_SOURCES, COL_LARGEST, COL_LARGEST_SHARE, COL_VERDICT = range(7)
COL_FLAGS = 7
COLUMN_COUNT = 8
_NUMBER_COLUMNS = (COL_INDEX, COL_SOURCES, COL_LARGEST_SHARE, COL_FLAGS)
_FLAG_COLOUR = QColor("#c92a2a")

_Index = QModelIndex | QPersistentModelIndex


class DocumentsModel(QAbstractTableModel):
    """Documents found in part in other documents, with their similarity index."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None
        self._rows = np.zeros(0, np.int64)
        self.similarity = None
        self.verdicts = Verdicts()
        self._folders = FolderNames(())
        self._flag_counts = np.zeros(0, np.int64)

    def set_verdicts(self, verdicts: Verdicts) -> None:
        self.verdicts = verdicts
        if len(self._rows):
            self.dataChanged.emit(
                self.index(0, COL_VERDICT), self.index(len(self._rows) - 1, COL_VERDICT)
            )

    def filter_text(self, row: int) -> str:
        """What the filter box searches in a row: the name and folder as shown, lower case."""
        path = self._result.documents[int(self._rows[row])].path
        return f"{NAMES.name(path)}\n{NAMES.folder(self._folders.folder(path))}".lower()

    def verdict(self, doc: int) -> Verdict | None:
        return self.verdicts.of_document(self._result.documents[doc].path)

    def set_result(self, result: ScanResult | None) -> None:
        self.beginResetModel()
        self._result = result
        roots = (*result.options.roots, *result.options.reference_roots) if result else ()
        self._folders = FolderNames(roots)
        self._ranks: dict[bool, np.ndarray] = {}
        self.similarity = result.similarity() if result is not None else None
        docs = result.documents if result is not None else ()
        self._flag_counts = np.array([len(d.flags) for d in docs], np.int64)
        if self.similarity is None:
            self._rows = np.zeros(0, np.int64)
        else:
            found = np.flatnonzero(self.similarity.source_count > 0)
            found = found[np.argsort(-self.similarity.index[found], kind="stable")]
            flagged = np.flatnonzero((self._flag_counts > 0) & (self.similarity.source_count == 0))
            self._rows = np.r_[found, flagged].astype(np.int64)
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else COLUMN_COUNT

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_FLAGS:
            return self.tr(
                "Integrity flags: signs the text was disguised to slip past a checker "
                "(hidden text, look-alike letters, invisible characters)"
            )
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
            self.tr("Verdict"),
            self.tr("Flags"),
        )[section]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self._result is None:
            return None
        doc = int(self._rows[index.row()])
        sim, column = self.similarity, index.column()
        if role == DocRole:
            return doc
        if column == COL_VERDICT:
            return verdict_data(self, self.verdict(doc), role)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMBER_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if column == COL_FLAGS:
            return self._flags_data(doc, role)
        if role == Qt.ItemDataRole.ToolTipRole and column in (COL_NAME, COL_FOLDER):
            return plain(NAMES.path(self._result.documents[doc].path))
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        path = self._result.documents[doc].path
        if column == COL_NAME:
            return NAMES.name(path)
        if column == COL_FOLDER:
            return NAMES.folder(self._folders.folder(path))
        if column == COL_INDEX:
            return f"{sim.index[doc]:.0%}"
        if column == COL_SOURCES:
            return str(int(sim.source_count[doc]))
        if column == COL_LARGEST:
            if sim.source_count[doc] == 0:
                return ""
            return NAMES.name(self._result.documents[sim.top_source[doc]].path)
        return f"{sim.top_share[doc]:.0%}"

    def flags_of(self, doc: int) -> tuple[str, ...]:
        """Document `doc`'s integrity flags (one English sentence each, from the engine)."""
        return self._result.documents[doc].flags

    def _flags_data(self, doc: int, role: int):
        """The Flags cell: how many, in red; the tooltip lists them, one per line."""
        flags = self.flags_of(doc)
        if not flags:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"⚠ {len(flags)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain("\n".join(f"• {flag}" for flag in flags))
        if role == Qt.ItemDataRole.ForegroundRole:
            return _FLAG_COLOUR
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Reorder rows with one numpy argsort (a Python comparison per pair of rows takes
        seconds at 10,000 documents)."""
        if self.similarity is None or not 0 <= column < COLUMN_COUNT:
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
        if column == COL_FLAGS:
            return self._flag_counts
        if column == COL_VERDICT:
            docs = self._result.documents
            return np.array([verdict_rank(self.verdicts.of_document(d.path)) for d in docs])
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


class DocumentsProxy(TextFilterProxy):
    """Keeps the rows whose name or folder holds the filter text."""

    def filterAcceptsRow(self, row: int, parent: _Index) -> bool:
        """One string per row instead of every column's display text: 100,000 rows
        filter in a fraction of a second."""
        return not self._needle or self._needle in self.sourceModel().filter_text(row)


class DocumentsPanel(QWidget):
    """The Documents tab: filterable table, and the selected document's coloured text."""

    compare_requested = Signal(int, int)  # this document, one of its sources

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = DocumentsModel(self)
        self.proxy = DocumentsProxy(self)
        self.proxy.setSourceModel(self.model)
        self.filter = QLineEdit()
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.set_filter_text)
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
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        self.save_button = QPushButton()
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self._ask_and_save_report)
        top.addWidget(self.save_button)
        layout.addLayout(top)
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
        self.save_button.setEnabled(False)

    def tab_title(self) -> str:
        return self.tr("Documents (%1)").replace("%1", f"{self.model.rowCount():,}")

    def tab_tip(self) -> str:
        return self.tr("Each document found in part in others: how much, and where from")

    def retranslate(self) -> None:
        self.filter.setPlaceholderText(self.tr("Filter by file name or folder…"))
        self.save_button.setText(self.tr("Save report…"))
        self.save_button.setToolTip(
            self.tr("Save the selected document's report, to hand over, as PDF or HTML")
        )
        if self._doc is not None:
            self.text.setHtml(self._document_html(self._doc))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COLUMN_COUNT - 1)

    def set_verdicts(self, verdicts: Verdicts) -> None:
        self.model.set_verdicts(verdicts)
        if self._doc is not None:
            self.text.setHtml(self._document_html(self._doc))

    @property
    def selected_document(self) -> int | None:
        return self._doc

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
        self.save_button.setEnabled(True)
        self.text.setHtml(self._document_html(self._doc))

    def _labels(self) -> EssayLabels:
        """The report's words in the user's language."""
        return EssayLabels(
            heading=self.tr("Similarity index {index}: found in {count} other documents"),
            heading_one=self.tr("Similarity index {index}: found in 1 other document"),
            sources=self.tr("Sources"),
            share=self.tr("Share of this document"),
            compare=self.tr("compare side by side"),
            nothing=self.tr("No passage of this document was found in another document."),
            settings=self.tr(
                "Containment counts text inside passages matched in another document; "
                "template and common text (found in {common} or more documents) never count."
            ),
            made=self.tr("SimSift {version} · {date}"),
            verdict=self.tr("Verdict: {verdict} ({date})"),
            copying=self.tr("copying confirmed"),
            not_copying=self.tr("not copying"),
            flags=self.tr(
                "Integrity flags ({count}): signs the text was disguised to slip past a checker"
            ),
            flags_note=self.tr(
                "The disguise was undone before comparing; read the document itself."
            ),
        )

    def _document_html(self, doc: int, compare_links: bool = True) -> str:
        """Legend of sources (with a compare link each), then the text coloured by source."""
        return essay_html(
            self._result,
            self.model.similarity,
            doc,
            self._labels(),
            verdicts=self.model.verdicts,
            compare_links=compare_links,
            name=NAMES.name,
            path_text=NAMES.path,
        )

    def save_report(self, path: str) -> None:
        """Write the selected document's report as HTML, or as PDF when `path` ends in .pdf.

        Raises OSError when the file cannot be written.
        """
        doc = self._doc
        name = readable(os.path.basename(self._result.documents[doc].path))
        page = essay_page(self._document_html(doc, compare_links=False), name)
        if path.lower().endswith(".pdf"):
            _print_pdf(page, path)
        else:
            write_html(page, Path(path))

    def _ask_and_save_report(self) -> None:
        if self._doc is None:
            return
        stem = os.path.splitext(os.path.basename(self._result.documents[self._doc].path))[0]
        suggested = os.path.join(os.path.expanduser("~"), f"{stem} - similarity report.pdf")
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Save report"),
            suggested,
            self.tr("PDF (*.pdf);;HTML page (*.html)"),
        )
        if not path:
            return
        try:
            self.save_report(path)
        except OSError as error:
            QMessageBox.warning(
                self,
                self.tr("Report not saved"),
                plain(f"{readable(path)}\n{error.strerror or error}"),
            )

    def _on_link(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("compare:") and self._doc is not None:
            self.compare_requested.emit(self._doc, int(text.split(":", 1)[1]))


def _print_pdf(page: str, path: str) -> None:
    """Print an HTML page to a PDF file with Qt's text layout (A4, 15 mm margins)."""
    document = QTextDocument()
    document.setHtml(page)
    writer = QPdfWriter(path)
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
    writer.setTitle(os.path.basename(path))
    document.print_(writer)
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        raise OSError(f"could not write {path}")


def _make_table(model) -> QTableView:
    view = QTableView()
    view.setModel(model)
    fit_rows_to_names(view)
    view.setSortingEnabled(True)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    view.verticalHeader().hide()
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.setAlternatingRowColors(True)
    # flags shown beside the index, not past the sources where a narrow pane hides them
    view.horizontalHeader().moveSection(COL_FLAGS, COL_SOURCES)
    return view
