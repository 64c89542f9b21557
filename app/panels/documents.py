"""The teacher's view: one row per document with its similarity index and sources; the
selected document's text with each source's passages in its own colour.

The table's rows and columns are `app.models.documents.DocumentsModel`'s.

A source can be excluded from an essay (the student's own draft, a shared reading): a link
beside each source, the right-click menu of the text or of the row. Excluding is the
window's "Not a duplicate" on the pair (remembered across scans, undoable, in the HTML
report's decisions), so the text the two share no longer counts for either; the excluded
sources stay listed under the source table, each with "include again".
"""

from __future__ import annotations

import os
import re

from PySide6.QtCore import (
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QAction,
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
from simsift.app.dialogs.verdict import VerdictDelegate
from simsift.app.messages import translated
from simsift.app.models.documents import (
    COL_FLAGS,
    COL_FOLDER,
    COL_INDEX,
    COL_LARGEST,
    COL_NAME,
    COL_PARAPHRASED,
    COL_TRANSLATED,
    COL_VERDICT,
    COLUMN_COUNT,
    MEANING_COLUMNS,
    DocumentsModel,
    DocumentsProxy,
)
from simsift.app.models.roles import DocRole
from simsift.app.plain_tooltips import PlainTooltips
from simsift.app.readable import NAMES, plain, readable
from simsift.app.report_pages import ExcludedWords, ReportPages
from simsift.app.row_height import fit_rows_to_names
from simsift.app.settings import Settings
from simsift.app.workers.essay_reports import PDF, write_essay_report
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.essay import EssayLabels
from simsift.core.report.file_names import report_file_names
from simsift.core.store.verdicts import Verdicts

_LINK = re.compile(r"(compare|exclude|include):(\d+)")
# narrowest and widest pixels of the text columns; numbers always show whole
_TEXT_COLUMNS = {  # a document's own name first: students are told apart by it
    COL_NAME: (150, 320),
    COL_FOLDER: (50, 160),
    COL_LARGEST: (76, 240),
    COL_VERDICT: (50, 220),
}


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
        for column, kind in MEANING_COLUMNS.items():  # hidden when none was found
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
            quoted_from=self.tr("quoted, also in {name} (not counted)"),
            quoted_from_cited=self.tr("quoted, cited, also in {name} (not counted)"),
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
    view.setItemDelegateForColumn(COL_VERDICT, VerdictDelegate(view))
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.setAlternatingRowColors(True)
    # the shares by meaning and the flags beside the index, not past the sources where a
    # narrow pane hides them
    header = view.horizontalHeader()
    for visual, column in enumerate((COL_PARAPHRASED, COL_TRANSLATED, COL_FLAGS)):
        header.moveSection(header.visualIndex(column), header.visualIndex(COL_INDEX) + 1 + visual)
    return view
