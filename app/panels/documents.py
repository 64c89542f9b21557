"""The teacher's view: one row per document with its similarity index and sources; the
selected document's text with each source's passages in its own colour.

Rows are the documents found in part elsewhere, then those found nowhere else that carry
integrity flags (disguised text may be why nothing was found) or whose sources the teacher
excluded, read from the flat arrays of `core.analysis.similarity.DocumentSimilarity` (no
Python object per row), highest index first.

A source can be excluded from an essay (the student's own draft, a shared reading): a link
beside each source, the right-click menu of the text or of the row. Excluding is the
window's "Not a duplicate" on the pair (remembered across scans, undoable, in the HTML
report's decisions), so the text the two share no longer counts for either; the excluded
sources stay listed under the source table, each with "include again".
"""

from __future__ import annotations

import os
import re

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)
from simsift.app.column_widths import ColumnFitter
from simsift.app.dialogs.batch_report import report_suffix, save_class_reports, show_report_saved
from simsift.app.dialogs.verdict import FolderNames, verdict_data, verdict_rank
from simsift.app.messages import translated
from simsift.app.models.clusters import TextFilterProxy, text_ranks
from simsift.app.models.roles import DocRole
from simsift.app.plain_tooltips import PlainTooltips
from simsift.app.readable import NAMES, plain, readable
from simsift.app.report_pages import ExcludedWords, ReportPages
from simsift.app.row_height import fit_rows_to_names
from simsift.app.settings import Settings
from simsift.app.workers.essay_reports import PDF, write_essay_report
from simsift.core.analysis.similarity import Source
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.essay import EssayLabels
from simsift.core.report.file_names import report_file_names
from simsift.core.store.verdicts import Verdict, Verdicts

COL_NAME, COL_FOLDER, COL_INDEX, COL_SOURCES, COL_LARGEST, COL_LARGEST_SHARE, COL_VERDICT = range(7)
COL_FLAGS, COL_PARAPHRASED, COL_TRANSLATED = 7, 8, 9
COLUMN_COUNT = 10
_NUMBER_COLUMNS = (
    COL_INDEX,
    COL_SOURCES,
    COL_LARGEST_SHARE,
    COL_FLAGS,
    COL_PARAPHRASED,
    COL_TRANSLATED,
)
_MEANING_COLUMNS = {COL_PARAPHRASED: "paraphrased", COL_TRANSLATED: "translated"}
_FLAG_COLOUR = QColor("#c92a2a")
_LINK = re.compile(r"(compare|exclude|include):(\d+)")
# narrowest and widest pixels of the text columns; numbers always show whole
_TEXT_COLUMNS = {
    COL_NAME: (100, 320),
    COL_FOLDER: (50, 160),
    COL_LARGEST: (90, 240),
    COL_VERDICT: (60, 220),
}

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
        self._excluded_counts = np.zeros(0, np.int64)
        self._source_counts = np.zeros(0, np.int64)  # word for word or by meaning
        self._by_meaning: dict[int, list[Source]] = {}  # documents found by meaning

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

    def set_result(
        self, result: ScanResult | None, excluded: dict[int, list] | None = None
    ) -> None:
        """Show `result`; `excluded` maps a document to its excluded sources (pairs marked
        "not a duplicate"), so that it stays listed when none of its sources is left."""
        self.beginResetModel()
        self._result = result
        roots = (*result.options.roots, *result.options.reference_roots) if result else ()
        self._folders = FolderNames(roots)
        self._ranks: dict[bool, np.ndarray] = {}
        self.similarity = result.similarity() if result is not None else None
        docs = result.documents if result is not None else ()
        self._flag_counts = np.array([len(d.flags) for d in docs], np.int64)
        self._excluded_counts = np.zeros(len(docs), np.int64)
        for doc, sources in (excluded or {}).items():
            self._excluded_counts[doc] = len(sources)
        self._by_meaning = {}
        if self.similarity is None:
            self._rows = np.zeros(0, np.int64)
            self._source_counts = np.zeros(0, np.int64)
        else:
            sim = self.similarity
            # only documents found by meaning need their sources listed to be counted
            meaning = np.flatnonzero((sim.paraphrased > 0) | (sim.translated > 0))
            self._by_meaning = {int(d): sim.sources(int(d)) for d in meaning}
            self._source_counts = sim.source_count.astype(np.int64)
            for doc, sources in self._by_meaning.items():
                self._source_counts[doc] = len(sources)
            found = np.flatnonzero(self._source_counts > 0)
            found = found[np.argsort(-sim.total[found], kind="stable")]
            telling = (self._flag_counts > 0) | (self._excluded_counts > 0)
            others = np.flatnonzero(telling & (self._source_counts == 0))
            self._rows = np.r_[found, others].astype(np.int64)
        self.endResetModel()

    def found(self, kind: str) -> bool:
        """Whether a listed document holds copying of `kind` ("paraphrased", "translated")."""
        if self.similarity is None or not len(self._rows):
            return False
        return bool((getattr(self.similarity, kind)[self._rows] > 0).any())

    def sources(self, doc: int) -> list[Source]:
        """`doc`'s sources, largest first (word for word, then by meaning)."""
        if doc in self._by_meaning:
            return self._by_meaning[doc]
        return self.similarity.sources(doc) if self.similarity is not None else []

    def folder_count(self) -> int:
        """How many folders the listed documents are in (as the Folder column shows them)."""
        docs = self._result.documents if self._result is not None else ()
        return len({self._folders.folder(docs[int(d)].path) for d in self._rows.tolist()})

    def flagged(self) -> bool:
        """Whether a listed document has integrity flags."""
        return bool(len(self._rows)) and bool(self._flag_counts[self._rows].any())

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
                "Share of the document's own text found word for word in any other document "
                "(template and common text excluded)"
            )
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_PARAPHRASED:
            return self.tr(
                "Share of the document's own text that says what another document says in "
                "other words (found by meaning, apart from the similarity index): evidence "
                "to read side by side, not proof"
            )
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_TRANSLATED:
            return self.tr(
                "Share of the document's own text translated from another document, "
                "Chinese ↔ English (found by meaning, apart from the similarity index): "
                "evidence to read side by side, not proof"
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
            self.tr("Paraphrased"),
            self.tr("Translated"),
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
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(doc, column)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        path = self._result.documents[doc].path
        if column == COL_NAME:
            return NAMES.name(path)
        if column == COL_FOLDER:
            return NAMES.folder(self._folders.folder(path))
        if column == COL_INDEX:
            return f"{sim.index[doc]:.0%}"
        if column in _MEANING_COLUMNS:
            share = float(getattr(sim, _MEANING_COLUMNS[column])[doc])
            return f"{share:.0%}" if share > 0 else ""
        if column == COL_SOURCES:
            count = str(int(self._source_counts[doc]))
            excluded = int(self._excluded_counts[doc])
            if excluded:
                text = self.tr("%1 (+%2 excluded)")
                return text.replace("%1", count).replace("%2", str(excluded))
            return count
        largest = self._largest(doc)
        if largest is None:
            return ""
        if column == COL_LARGEST:
            return NAMES.name(self._result.documents[largest.doc].path)
        if sim.top_source[doc] >= 0:
            return f"{largest.share:.0%}"
        return f"{largest.paraphrased + largest.translated:.0%}"  # found by meaning only

    def _largest(self, doc: int) -> Source | None:
        """`doc`'s largest source: word for word, else the largest by meaning."""
        sim = self.similarity
        if sim.top_source[doc] >= 0:
            return Source(int(sim.top_source[doc]), float(sim.top_share[doc]), 0)
        sources = self._by_meaning.get(doc)
        return sources[0] if sources else None

    def _tooltip(self, doc: int, column: int) -> str | None:
        """The breakdown of the shares on the figures, each source's kinds on Sources."""
        if column in (COL_INDEX, COL_PARAPHRASED, COL_TRANSLATED):
            return self._kinds_tip(doc) if doc in self._by_meaning else None
        if column in (COL_LARGEST, COL_LARGEST_SHARE) and doc in self._by_meaning:
            largest = self._largest(doc)
            return plain(self._source_line(self._by_meaning[doc][0])) if largest else None
        if column == COL_SOURCES:
            lines = [self._source_line(s) for s in self.sources(doc)]
            excluded = self._excluded_tip(doc)
            return plain("\n".join([*lines, *([excluded] if excluded else [])]))
        return None

    def _kinds_tip(self, doc: int) -> str:
        """ "9% verbatim, 6% paraphrased, 3% translated (18% in all)"."""
        sim = self.similarity
        parts = [self.tr("%1 verbatim").replace("%1", f"{sim.index[doc]:.0%}")]
        for kind in ("paraphrased", "translated"):
            share = float(getattr(sim, kind)[doc])
            if share > 0:
                parts.append(self._kind_share(kind, share))
        total = self.tr("%1 in all").replace("%1", f"{sim.total[doc]:.0%}")
        return plain(f"{', '.join(parts)} ({total})")

    def _kind_share(self, kind: str, share: float) -> str:
        text = self.tr("%1 paraphrased") if kind == "paraphrased" else self.tr("%1 translated")
        return text.replace("%1", f"{share:.0%}")

    def _meaning_text(self, source: Source) -> str:
        """A source's shares by meaning: "6% paraphrased, 3% translated"."""
        shares = (("paraphrased", source.paraphrased), ("translated", source.translated))
        return ", ".join(self._kind_share(kind, share) for kind, share in shares if share > 0)

    def _source_line(self, source: Source) -> str:
        """One source with its kinds: "9% verbatim, 6% paraphrased from ana.docx"."""
        parts = [self.tr("%1 verbatim").replace("%1", f"{source.share:.0%}")]
        meaning = self._meaning_text(source)
        kinds = ", ".join([*parts[: source.share > 0], *([meaning] if meaning else [])])
        name = NAMES.name(self._result.documents[source.doc].path)
        return self.tr("%1 from %2").replace("%1", kinds).replace("%2", name)

    def _excluded_tip(self, doc: int) -> str | None:
        excluded = int(self._excluded_counts[doc])
        if not excluded:
            return None
        if excluded == 1:
            return self.tr("1 source excluded: it does not count in the similarity index")
        return self.tr("%1 sources excluded: they do not count in the similarity index").replace(
            "%1", str(excluded)
        )

    def flags_of(self, doc: int) -> tuple[str, ...]:
        """Document `doc`'s integrity flags (one English sentence each, from the engine;
        `messages.translated` shows them in the UI language)."""
        return self._result.documents[doc].flags

    def _flags_data(self, doc: int, role: int):
        """The Flags cell: how many, in red; the tooltip lists them, one per line."""
        flags = self.flags_of(doc)
        if not flags:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"⚠ {len(flags)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain("\n".join(f"• {translated(flag)}" for flag in flags))
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
        if column in _MEANING_COLUMNS:
            return getattr(sim, _MEANING_COLUMNS[column])
        if column == COL_SOURCES:
            return self._source_counts
        if column == COL_LARGEST_SHARE:
            shares = sim.top_share.copy()
            for doc, sources in self._by_meaning.items():
                if sim.top_source[doc] < 0 and sources:
                    shares[doc] = sources[0].paraphrased + sources[0].translated
            return shares
        if column == COL_FLAGS:
            return self._flag_counts
        if column == COL_VERDICT:
            docs = self._result.documents
            return np.array([verdict_rank(self.verdicts.of_document(d.path)) for d in docs])
        ranks = self._name_ranks(column)
        if column != COL_LARGEST:
            return ranks
        top = sim.top_source.copy()
        for doc, sources in self._by_meaning.items():
            if top[doc] < 0 and sources:
                top[doc] = sources[0].doc
        return np.where(top >= 0, ranks[top], -1)

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
    exclude_requested = Signal(int, int)  # this document, the source to leave out
    include_requested = Signal(int, int)  # this document, the excluded source to count again

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None
        self._excluded: dict[int, list[tuple[int, float]]] = {}
        self._doc: int | None = None
        self.model = DocumentsModel(self)
        self.proxy = DocumentsProxy(self)
        self.proxy.setSourceModel(self.model)
        self.filter = QLineEdit()
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.set_filter_text)
        self.table = _make_table(self.proxy)
        self.columns = ColumnFitter(self.table, _TEXT_COLUMNS)
        self.text = QTextBrowser()
        PlainTooltips(self.text)  # a quotation's title names a file: never markup
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._on_link)
        self.text.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.text.customContextMenuRequested.connect(self._text_menu)
        # the row's right-click menu (the window adds them to the table's actions)
        self.exclude_menu = QMenu(self)
        self.exclude_menu.aboutToShow.connect(self._fill_exclude_menu)
        self.exclude_action = QAction(self)
        self.exclude_action.setMenu(self.exclude_menu)
        self.include_menu = QMenu(self)
        self.include_menu.aboutToShow.connect(self._fill_include_menu)
        self.include_action = QAction(self)
        self.include_action.setMenu(self.include_menu)
        self._update_source_actions()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(self.text)
        splitter.setSizes([660, 340])
        self.text.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        self.save_button = QPushButton()
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self._ask_and_save_report)
        top.addWidget(self.save_button)
        self.batch_button = QPushButton()
        self.batch_button.setEnabled(False)
        self.batch_button.clicked.connect(self._ask_and_save_class_reports)
        self.class_reports = None  # the batch being written (`ClassReports`), or the last
        self.saved_message = None  # the single report's confirmation, while shown
        top.addWidget(self.batch_button)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())

    def set_result(
        self,
        result: ScanResult | None,
        excluded: dict[int, list[tuple[int, float]]] | None = None,
    ) -> None:
        """Show `result`. `excluded`: per document, its excluded sources (source, share).
        The selected document stays selected, and its text scrolled where it was, while it
        is in `result` (a recompute, a source excluded, a pair dismissed, files trashed);
        an edit of the same scan keeps the sort too."""
        same_scan = (
            result is not None
            and self._result is not None
            and result.documents is self._result.documents
        )
        keep = self._kept_document(result)
        scrolled = self.text.verticalScrollBar().value()
        self._result = result
        self._excluded = dict(excluded or {})
        self.model.set_result(result, self._excluded)
        # columns empty or the same on every row make room for the others
        self.table.setColumnHidden(COL_FOLDER, self.model.folder_count() < 2)
        self.table.setColumnHidden(COL_FLAGS, not self.model.flagged())
        for column, kind in _MEANING_COLUMNS.items():  # hidden when none was found
            self.table.setColumnHidden(column, not self.model.found(kind))
        header = self.table.horizontalHeader()
        if same_scan:
            self.table.sortByColumn(header.sortIndicatorSection(), header.sortIndicatorOrder())
        else:
            self.table.sortByColumn(COL_INDEX, Qt.SortOrder.DescendingOrder)
            self.columns.forget_user_widths()
        self.text.clear()
        self.text.hide()  # the table takes the width until a document is chosen
        self.batch_button.setEnabled(result is not None and bool(result.documents))
        self._doc = None
        self.save_button.setEnabled(False)
        if keep is not None:
            self.select_document(keep)  # shows it, unless the filter hides its row
            if self._doc is None:
                self._doc = keep
                self.save_button.setEnabled(True)
                self.text.show()
                self.text.setHtml(self._document_html(keep))
            self.text.verticalScrollBar().setValue(scrolled)
        self._update_source_actions()

    def _kept_document(self, result: ScanResult | None) -> int | None:
        """The number in `result` of the document selected now, found by path, or None."""
        if result is None or self._result is None or self._doc is None:
            return None
        path = self._result.documents[self._doc].path
        return next((i for i, d in enumerate(result.documents) if d.path == path), None)

    def tab_title(self) -> str:
        return self.tr("Documents (%1)").replace("%1", f"{self.model.rowCount():,}")

    def tab_tip(self) -> str:
        return self.tr("Each document found in part in others: how much, and where from")

    def retranslate(self) -> None:
        self.filter.setPlaceholderText(self.tr("Filter by file name or folder…"))
        self.save_button.setText(self.tr("Save report…"))
        self.batch_button.setText(self.tr("Save reports for the class…"))
        self.batch_button.setToolTip(
            self.tr("Save one report per essay into a folder, to hand over, as PDF or HTML")
        )
        self.save_button.setToolTip(
            self.tr("Save the selected document's report, to hand over, as PDF or HTML")
        )
        self.exclude_action.setText(self.tr("Exclude a source"))
        self.exclude_action.setToolTip(
            self.tr(
                "Leave a source out of this document's similarity index (the student's own "
                "draft, a shared reading): the pair is marked “not a duplicate”, so the text "
                "the two share counts for neither, here, in the other tabs and in later "
                "scans. Include again, or Edit ▸ Undo, brings it back."
            )
        )
        self.include_action.setText(self.tr("Include a source again"))
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
                self.table.scrollTo(self.proxy.index(row, 0))
                return

    def _show_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        self._doc = rows[0].data(DocRole)
        self.save_button.setEnabled(True)
        self.text.setHtml(self._document_html(self._doc))
        self.text.show()
        self._update_source_actions()

    # -- excluded sources -------------------------------------------------------

    def sources_of(self, doc: int) -> list[tuple[int, float]]:
        """The sources that count for `doc`: (source, share of doc), largest first; a
        source found by meaning only with its share by meaning."""
        if self.model.similarity is None:
            return []
        return [(s.doc, s.share or s.paraphrased + s.translated) for s in self.model.sources(doc)]

    def excluded_of(self, doc: int) -> list[tuple[int, float]]:
        """`doc`'s excluded sources: (source, share of doc it held), largest first."""
        return self._excluded.get(doc, [])

    def exclude_source(self, source: int) -> None:
        """Leave `source` out of the selected document's similarity index."""
        if self._doc is not None and source != self._doc:
            self.exclude_requested.emit(self._doc, source)

    def include_source(self, source: int) -> None:
        """Count the excluded `source` of the selected document again."""
        if self._doc is not None:
            self.include_requested.emit(self._doc, source)

    def _update_source_actions(self) -> None:
        doc = self._doc
        self.exclude_action.setEnabled(doc is not None and bool(self.sources_of(doc)))
        self.include_action.setEnabled(doc is not None and bool(self.excluded_of(doc)))

    def _fill_exclude_menu(self) -> None:
        self._fill_menu(self.exclude_menu, self.sources_of, self.exclude_source)

    def _fill_include_menu(self) -> None:
        self._fill_menu(self.include_menu, self.excluded_of, self.include_source)

    def _fill_menu(self, menu: QMenu, sources_of, act) -> None:
        """One entry per source of the selected document: its name and share."""
        menu.clear()
        if self._doc is None:
            return
        for source, share in sources_of(self._doc):
            name = NAMES.name(self._result.documents[source].path)
            action = menu.addAction(f"{name}  ({share:.0%})")
            action.triggered.connect(lambda _=False, s=source: act(s))

    def _text_menu(self, pos) -> None:
        """The text's right-click menu: Copy and Select all, and on a source's row (or one
        of its links) Compare side by side and Exclude this source, or Include again."""
        menu = self.text.createStandardContextMenu(pos)
        link = self._link_at(pos)
        if link is not None and self._doc is not None:
            kind, source = link
            if kind == "include":
                actions = [(self.tr("Include again"), lambda: self.include_source(source))]
            else:
                actions = [
                    (
                        self.tr("Compare side by side"),
                        lambda: self.compare_requested.emit(self._doc, source),
                    ),
                    (self.tr("Exclude this source"), lambda: self.exclude_source(source)),
                ]
            first = menu.actions()[0] if menu.actions() else None
            for text, slot in actions:
                action = QAction(text, menu)
                action.triggered.connect(slot)
                menu.insertAction(first, action)
            if first is not None:
                menu.insertSeparator(first)
        menu.exec(self.text.viewport().mapToGlobal(pos))
        menu.deleteLater()

    def _link_at(self, pos) -> tuple[str, int] | None:
        """The source link under `pos` (viewport coordinates), or the first one of the
        table row under it: ("compare" | "exclude" | "include", source document)."""
        found = _LINK.fullmatch(self.text.anchorAt(pos))
        if found is None:
            found = _LINK.fullmatch(_row_link(self.text.cursorForPosition(pos)))
        return None if found is None else (found.group(1), int(found.group(2)))

    def _labels(self, sources_excluded: bool) -> EssayLabels:
        """The report's words in the user's language, for a document with excluded
        sources or without."""
        nothing = (
            self.tr(
                "No text of this document counts: every document it was found in is an "
                "excluded source."
            )
            if sources_excluded
            else self.tr("No passage of this document was found in another document.")
        )
        return EssayLabels(
            heading=self.tr("Similarity index {index}: found in {count} other documents"),
            heading_one=self.tr("Similarity index {index}: found in 1 other document"),
            sources=self.tr("Sources"),
            share=self.tr("Share of this document"),
            compare=self.tr("compare"),
            nothing=nothing,
            settings=self.tr(
                "Shared runs of fewer than {run} words never count as copying, nor does "
                "template text or common text (found in more than {common} documents, or in "
                "more than {share} of them and at least {min_docs})."
            ),
            boilerplate=self.tr(
                "Nor does boilerplate: a short paragraph of its own at the start or end of "
                "at least {edge} documents (a course footer, an honour-code statement)."
            ),
            quotations_counted=self.tr("Quotations count as copying."),
            quotations_apart=self.tr("Quotations are shown but not counted."),
            bibliography_counted=self.tr("The bibliography counts as copying."),
            bibliography_apart=self.tr("The bibliography is shown but not counted."),
            in_text=self.tr("In the text:"),
            quoted=self.tr("quoted (not counted)"),
            quoted_cited=self.tr("quoted, cited (not counted)"),
            quoted_from=self.tr("quoted from {name} (not counted)"),
            quoted_from_cited=self.tr("quoted from {name}, cited (not counted)"),
            bibliography=self.tr("bibliography (not counted)"),
            template=self.tr("template text, also in a reference document (not counted)"),
            common=self.tr("common text, found in many documents (not counted)"),
            common_in=self.tr("common text, found in {n} documents (not counted)"),
            common_between=self.tr("common text, found in {low} to {high} documents (not counted)"),
            common_here=self.tr(
                "Here, with {total} documents compared, text found in {n} or more of them is "
                "common."
            ),
            hidden_line=self.tr("(line hidden: it may name the writer)"),
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
            disguised=self.tr("disguised text (see the integrity flags)"),
            flag_text=translated,
            all_kinds=self.tr("All kinds {total}: {parts}"),
            verbatim_share=self.tr("{share} verbatim"),
            paraphrased_share=self.tr("{share} paraphrased"),
            translated_share=self.tr("{share} translated"),
            list_separator=self.tr(", "),
            by_meaning=self.tr("Found by meaning"),
            paraphrased_from=self.tr("paraphrased from {name}: the same meaning in other words"),
            translated_from=self.tr(
                "translated from {name}: the same meaning in the other language"
            ),
            paraphrased_legend=self.tr("paraphrased (found by meaning)"),
            translated_legend=self.tr("translated (found by meaning)"),
            evidence=self.tr(
                "A paraphrased or translated passage is evidence for a person to read, not "
                "proof: compare it with the source passage beside it before deciding."
            ),
            this_passage=self.tr("In this document:"),
            source_passage=self.tr("In {name} ({kind}, score {score}):"),
            paraphrased_word=self.tr("paraphrased"),
            translated_word=self.tr("translated"),
        )

    def _document_html(self, doc: int, compare_links: bool = True) -> str:
        """Legend of sources (with a compare and an exclude link each), the excluded
        sources (with an include-again link each), then the text coloured by source."""
        return self.report_pages().fragment(doc, compare_links)

    def report_pages(self) -> ReportPages:
        """What the reports are made from, as the tab shows them now, for a job's thread."""
        return ReportPages(
            result=self._result,
            similarity=self.model.similarity,
            verdicts=self.model.verdicts,
            excluded=dict(self._excluded),
            labels=self._labels(False),
            labels_all_excluded=self._labels(True),
            words=ExcludedWords(
                title=self.tr("Excluded sources (not counted)"),
                note=self.tr(
                    "Marked “not a duplicate” (say the student's own draft, or a shared "
                    "reading): the text shared with them does not count."
                ),
                exclude=self.tr("exclude"),
                include=self.tr("include again"),
            ),
            name=NAMES.name,
            path_text=NAMES.path,
            anonymous=NAMES.anonymous,
        )

    def save_report(self, path: str) -> None:
        """Write the selected document's report as HTML, or as PDF when `path` ends in .pdf.

        Raises OSError when the file cannot be written.
        """
        write_essay_report(self.report_page(self._doc), path)

    def report_page(self, doc: int) -> str:
        """Document `doc`'s report as a complete page to hand over (no links; names
        hidden when anonymized)."""
        return self.report_pages().page(doc)

    def _ask_and_save_class_reports(self) -> None:
        if self._result is not None:
            self.class_reports = save_class_reports(self, self._result, self.report_pages().page)

    def _ask_and_save_report(self) -> None:
        if self._doc is None:
            return
        # shown as the table shows it: an anonymized essay's label, not its writer's name
        shown = NAMES.name(self._result.documents[self._doc].path)
        suggested = os.path.join(
            Settings().report_folder or os.path.expanduser("~"),
            report_file_names([shown], PDF, (), report_suffix())[0],
        )
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
        else:
            Settings().report_folder = os.path.dirname(os.path.abspath(path))
            self.saved_message = show_report_saved(self, path)

    def _on_link(self, url: QUrl) -> None:
        found = _LINK.fullmatch(url.toString())
        if found is None or self._doc is None:
            return
        kind, source = found.group(1), int(found.group(2))
        if kind == "compare":
            self.compare_requested.emit(self._doc, source)
        elif kind == "exclude":
            self.exclude_source(source)
        else:
            self.include_source(source)


def _row_link(cursor: QTextCursor) -> str:
    """The first link in the table row under `cursor` ("" outside a table)."""
    table = cursor.currentTable()
    if table is None:
        return ""
    row = table.cellAt(cursor).row()
    for column in range(table.columns()):
        cell = table.cellAt(row, column)
        block, end = cell.firstCursorPosition().block(), cell.lastCursorPosition().position()
        while block.isValid() and block.position() <= end:
            fragments = block.begin()
            while not fragments.atEnd():
                href = fragments.fragment().charFormat().anchorHref()
                if href:
                    return href
                fragments += 1
            block = block.next()
    return ""


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
    # the shares by meaning and the flags beside the index, not past the sources where a
    # narrow pane hides them
    header = view.horizontalHeader()
    for visual, column in enumerate((COL_PARAPHRASED, COL_TRANSLATED, COL_FLAGS)):
        header.moveSection(header.visualIndex(column), header.visualIndex(COL_INDEX) + 1 + visual)
    return view
