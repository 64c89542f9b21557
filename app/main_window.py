"""The main window: folders and parameters on the left, clusters and the side-by-side below.

The window composes panels (one per tab, each owning its view and its texts), menus and
actions, and wires them to the background controller and the result editor; the work
itself is done by `core` in background jobs, and every model change happens on the GUI
thread, when a result arrives by signal.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFileDialog,
    QFrame,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from simsift.app import file_actions
from simsift.app.archive_texts import ArchiveTexts
from simsift.app.dialogs.guide import GuideDialog
from simsift.app.dialogs.move_files import ask_move_or_copy
from simsift.app.dialogs.text import DocumentPicker, ExtractedTextDialog
from simsift.app.dialogs.verdict import VerdictDialog
from simsift.app.diff.meaning import pair_fragments
from simsift.app.diff.view import DiffView
from simsift.app.file_moves import MOVE
from simsift.app.i18n import LANGUAGES, Translations
from simsift.app.menus import build_menus
from simsift.app.panels.clusters import ClustersPanel
from simsift.app.panels.common_text import CommonTextPanel
from simsift.app.panels.documents import DocumentsPanel
from simsift.app.panels.folders import FolderList
from simsift.app.panels.overview import OverviewPanel
from simsift.app.panels.params import ParamsPanel
from simsift.app.panels.partial import PartialPanel
from simsift.app.panels.pending import PendingTabs
from simsift.app.panels.problems import ProblemsPanel
from simsift.app.panels.scan_status import ScanStatus
from simsift.app.panels.welcome import WelcomePage
from simsift.app.readable import NAMES, plain, readable
from simsift.app.result_editor import ResultEditor
from simsift.app.settings import ROLES, Settings
from simsift.app.sort_arrows import fix_sort_arrows
from simsift.app.undo_keys import UndoKeys
from simsift.app.workers.scan import ScanController
from simsift.core.document import FileRecord
from simsift.core.match.evidence import PairEvidence, TermRarity
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import DEFAULT_K_MAX, ScanOptions
from simsift.core.pipeline.result import FileCounts, ScanResult
from simsift.core.report.text_kinds import left_out_spans
from simsift.core.text.features import FeatureWeights


class MainWindow(QMainWindow):
    """SimSift's only top-level window."""

    result_shown = Signal()  # clusters for a new result (or k) are on screen

    def __init__(
        self,
        settings: Settings,
        catalog=None,
        translations: Translations | None = None,
        workers: int | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.catalog = catalog
        self.translations = translations or Translations()
        self._workers = workers
        self._rarity: TermRarity | None = None  # word document frequencies of the result
        self._rarity_complete = False  # whether they knew its template and common text
        self.archive_texts = ArchiveTexts(catalog)  # of the archive the result was checked with
        self._job_kind = "scan"  # of the background job running or last run
        self._results_cleared = False  # every folder was removed: the result is not shown
        self._side_by_side: tuple[str, str] | None = None  # paths of the pair in the pane
        self._side_by_side_of: ScanResult | None = None  # the result the pane shows it from
        self._renewing = False  # the views are being filled from a new result (or k)
        self.controller = ScanController(catalog, self)
        self.editor = ResultEditor(catalog, self)
        self._build_widgets()
        self._build_actions()
        build_menus(self)
        self._connect()
        fix_sort_arrows(self)
        # Ctrl+Z undoes the last file action even from a filter box or spin box
        self.undo_keys = UndoKeys(self, self.undo_action)
        QApplication.instance().installEventFilter(self.undo_keys)
        self.resize(1280, 800)
        self._restore()
        self.diff_view.hide()  # a restored splitter state may have shown it
        self.retranslate()
        self._update_actions()
        self._update_page()
        recovery = getattr(catalog, "recovery", None)
        if recovery is not None:  # a damaged catalog was set aside and replaced at start-up
            self.statusBar().showMessage(recovery.message)

    @property
    def result(self) -> ScanResult | None:
        """The result shown: the last scan's, without files trashed or pairs dismissed;
        None before the first scan and once every folder was removed from the list."""
        return None if self._results_cleared else self.editor.result

    # -- construction --------------------------------------------------------

    def _build_widgets(self) -> None:
        self.folders = FolderList()
        self.scan_button = QPushButton()
        self.scan_button.setDefault(True)
        self.params = ParamsPanel()
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(self.folders, 1)
        left_layout.addWidget(self.scan_button)
        # the parameters scroll when the screen is short (1366×768): never squeezed
        # spin boxes, never a window taller than the screen
        self.params_scroll = QScrollArea()
        self.params_scroll.setWidget(self.params)
        self.params_scroll.setWidgetResizable(True)
        self.params_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.params_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        left_layout.addWidget(self.params_scroll, 2)

        self.clusters_panel = ClustersPanel()
        self.model = self.clusters_panel.model  # checks, marks and the trash act on it
        self.proxy = self.clusters_panel.proxy
        self.tree = self.clusters_panel.tree
        self.summary = self.clusters_panel.summary
        self.problems_panel = ProblemsPanel()
        self.partial_panel = PartialPanel()
        self.common_panel = CommonTextPanel()
        self.documents_panel = DocumentsPanel()
        self.overview_panel = OverviewPanel()
        self.tab_panels = (
            self.clusters_panel,
            self.problems_panel,
            self.partial_panel,
            self.common_panel,
            self.documents_panel,
            self.overview_panel,
        )
        self.tabs = QTabWidget()
        for panel in self.tab_panels:
            self.tabs.addTab(panel, "")
        # filled from partial copying, which a scan finds after its clusters
        self.pending = PendingTabs(
            (self.partial_panel, self.common_panel, self.documents_panel, self.overview_panel)
        )

        self.diff_view = DiffView()
        self.diff_view.hide()  # until a pair is chosen: the tabs take the height
        self.right_splitter = QSplitter(Qt.Orientation.Vertical)
        self.right_splitter.addWidget(self.tabs)
        self.right_splitter.addWidget(self.diff_view)
        self.right_splitter.setStretchFactor(0, 1)
        self.right_splitter.setStretchFactor(1, 1)
        self.welcome = WelcomePage()
        self.right_stack = QStackedWidget()  # the welcome page until there is a result
        self.right_stack.addWidget(self.welcome)
        self.right_stack.addWidget(self.right_splitter)
        self.main_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.main_splitter.addWidget(left)
        self.main_splitter.addWidget(self.right_stack)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setSizes([340, 1000])
        self.setCentralWidget(self.main_splitter)

        self.scan_status = ScanStatus()
        self.statusBar().addPermanentWidget(self.scan_status, 1)

    def _action(self, icon: QStyle.StandardPixmap | None, slot, shortcut=None) -> QAction:
        action = QAction(self)
        if icon is not None:
            action.setIcon(self.style().standardIcon(icon))
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        sp = QStyle.StandardPixmap
        self.add_folder_action = self._action(sp.SP_DirOpenIcon, self.folders.choose_folder)
        self.scan_action = self._action(sp.SP_BrowserReload, self.start_scan, QKeySequence.Refresh)
        self.export_csv_action = self._action(None, lambda: self.export_report("csv"))
        self.export_json_action = self._action(None, lambda: self.export_report("json"))
        self.export_html_action = self._action(sp.SP_DialogSaveButton, self.export_html)
        self.quit_action = self._action(None, self.close, QKeySequence.Quit)
        self.open_action = self._action(sp.SP_FileIcon, self.open_selected, "Ctrl+O")
        self.reveal_action = self._action(sp.SP_DirIcon, self.reveal_selected, "Ctrl+R")
        self.copy_action = self._action(None, self.copy_selected_paths, QKeySequence.Copy)
        self.mark_action = self._action(
            sp.SP_DialogApplyButton, self.mark_all_but_original, "Ctrl+M"
        )
        self.unmark_action = self._action(None, lambda: self.model.set_checked(set()))
        self.original_action = self._action(None, self.make_selected_original)
        self.ignore_action = self._action(sp.SP_DialogNoButton, self.ignore_selected_pair)
        self.trash_action = self._action(sp.SP_TrashIcon, self.trash_checked, QKeySequence.Delete)
        self.move_action = self._action(None, self.move_checked_to_folder)
        self.undo_action = self._action(None, self.editor.undo, QKeySequence.Undo)
        self.show_text_action = self._action(None, self.show_extracted_text, "Ctrl+T")
        self.verdict_action = self._action(None, self.record_verdict, "Ctrl+J")
        self.about_action = self._action(None, self._about)
        self.guide_action = self._action(None, self.show_guide, QKeySequence.HelpContents)
        self.anonymize_action = self._action(None, self.set_anonymous, "Ctrl+Shift+A")
        self.anonymize_action.setCheckable(True)
        self.role_actions: dict[str, QAction] = {}
        roles = QActionGroup(self)
        for role in ROLES:
            action = QAction(self, checkable=True)
            action.triggered.connect(lambda _=False, r=role: self.set_role(r))
            roles.addAction(action)
            self.role_actions[role] = action
        self.language_actions: dict[str, QAction] = {}
        group = QActionGroup(self)
        for code, name in LANGUAGES.items():
            action = QAction(name, self, checkable=True)  # names stay in their own language
            action.triggered.connect(lambda _=False, c=code: self.set_language(c))
            group.addAction(action)
            self.language_actions[code] = action

    def _connect(self) -> None:
        self.scan_button.clicked.connect(self.start_scan)
        self.folders.changed.connect(self._on_folders_changed)
        self.welcome.paths_dropped.connect(self.folders.add_paths)
        self.welcome.add_folder_requested.connect(self.folders.choose_folder)
        self.welcome.role_chosen.connect(self.set_role)
        self.params.k_changed.connect(self.show_clusters)
        self.params.weights_changed.connect(self.apply_weights)
        self.documents_panel.compare_requested.connect(self.compare)
        self.documents_panel.exclude_requested.connect(self.exclude_source)
        self.documents_panel.include_requested.connect(self.editor.include_pair)
        self.overview_panel.document_requested.connect(self.open_document)
        self.overview_panel.pair_requested.connect(self.compare)
        self.clusters_panel.selection_changed.connect(self._on_selection)
        self.clusters_panel.document_activated.connect(self._open_document_file)
        self.problems_panel.text_requested.connect(self.show_extracted_text)
        self.partial_panel.pair_selected.connect(self._on_partial_selection)
        self.tabs.currentChanged.connect(lambda _: self._update_actions())
        self.model.checks_changed.connect(self._update_actions)
        self.controller.started.connect(self._on_job_started)
        self.controller.progress.connect(self.scan_status.report)
        self.controller.clusters_found.connect(self._on_clusters)
        self.controller.finished.connect(self._on_result)
        self.controller.cancelled.connect(self._on_cancelled)
        self.controller.failed.connect(self._on_failed)
        self.scan_status.cancel_requested.connect(self.controller.cancel)
        self.editor.result_changed.connect(self._show_result)
        self.editor.message.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.editor.problem.connect(
            lambda title, text: QMessageBox.warning(self, title, plain(text))
        )
        self.editor.busy_changed.connect(lambda _: self._update_actions())
        self.editor.progress.connect(self._on_file_progress)
        self.editor.verdicts_changed.connect(self._show_verdicts)
        self.documents_panel.table.selectionModel().selectionChanged.connect(
            lambda *_: self._update_actions()
        )

    # -- language ------------------------------------------------------------

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("SimSift — near-duplicate and plagiarism checker"))
        self.scan_button.setText(self.tr("Scan"))
        for panel in self.tab_panels:
            panel.retranslate()
        self._update_tab_texts()
        self.file_menu.setTitle(self.tr("&File"))
        self.edit_menu.setTitle(self.tr("&Edit"))
        self.language_menu.setTitle(self.tr("&Language"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.view_menu.setTitle(self.tr("&View"))
        self.role_menu.setTitle(self.tr("Open first"))
        self.role_actions["teacher"].setText(self.tr("Documents (teacher)"))
        self.role_actions["editor"].setText(self.tr("Clusters (editor)"))
        NAMES.label_format = self.tr("Document {n}")
        texts = {
            self.add_folder_action: self.tr("Add folder…"),
            self.scan_action: self.tr("Scan"),
            self.export_csv_action: self.tr("Export CSV…"),
            self.export_json_action: self.tr("Export JSON…"),
            self.export_html_action: self.tr("Export HTML report…"),
            self.quit_action: self.tr("Quit"),
            self.open_action: self.tr("Open file"),
            self.reveal_action: self.tr("Reveal in folder"),
            self.copy_action: self.tr("Copy path"),
            self.show_text_action: self.tr("Show extracted text…"),
            self.mark_action: self.tr("Mark all but the original"),
            self.original_action: self.tr("Make original"),
            self.unmark_action: self.tr("Unmark all"),
            self.ignore_action: self.tr("Not a duplicate"),
            self.verdict_action: self.tr("Verdict…"),
            self.trash_action: self.tr("Move checked to trash…"),
            self.move_action: self.tr("Move or copy checked to a folder…"),
            self.about_action: self.tr("About SimSift"),
            self.guide_action: self.tr("User guide"),
            self.anonymize_action: self.tr("Anonymize names"),
        }
        for action, text in texts.items():
            action.setText(text)
        self._update_undo_text()
        self._show_pending()
        self.verdict_action.setToolTip(
            self.tr(
                "Record your verdict on the selected pair or document: copying confirmed or "
                "not copying, with a note (kept across scans, exported with the results)"
            )
        )
        self.ignore_action.setToolTip(
            self.tr(
                "Remember that the selected pair is not a duplicate "
                "(select two files, or one and its original)"
            )
        )
        self._update_summary()

    def _update_tab_texts(self) -> None:
        """Each tab's title and tooltip from its panel, found by widget, not position."""
        self.problems_panel.file_counts = self._file_counts()
        waiting = {  # no count while partial copying is not found
            self.partial_panel: self.tr("Partial copies (…)"),
            self.common_panel: self.tr("Common text (…)"),
            self.documents_panel: self.tr("Documents (…)"),
        }
        for panel in self.tab_panels:
            index = self.tabs.indexOf(panel)
            title = panel.tab_title()
            if self.pending.covers(panel):
                title = waiting.get(panel, title)
            self.tabs.setTabText(index, title)
            self.tabs.setTabToolTip(index, panel.tab_tip())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_language(self, code: str) -> None:
        """Switch the UI language now and remember it."""
        self.settings.language = code
        self.translations.install(code)
        self.language_actions[self.translations.language].setChecked(True)

    # -- first run: the welcome page and the tab that opens first -------------

    def set_role(self, role: str) -> None:
        """Remember who uses the window: "teacher" opens Documents first after a scan,
        "editor" Clusters; with a result shown, its tab opens now."""
        self.settings.role = role
        self.settings.sync()
        self._show_role(role)
        if self.result is not None:
            self._open_role_tab()

    def _show_role(self, role: str) -> None:
        self.welcome.set_role(role)
        for value, action in self.role_actions.items():
            action.setChecked(value == role)

    def _open_role_tab(self) -> None:
        role = self.settings.role
        if role == "teacher":
            self.tabs.setCurrentWidget(self.documents_panel)
        elif role == "editor":
            self.tabs.setCurrentWidget(self.clusters_panel)

    def _update_page(self) -> None:
        """The welcome page while there is no result and no scan running, else the tabs."""
        idle = self.result is None and not self.controller.busy
        self.right_stack.setCurrentWidget(self.welcome if idle else self.right_splitter)

    def _on_folders_changed(self) -> None:
        folders = self.folders
        listed = folders.folders() or folders.reference_folders() or folders.archive_folders()
        self.params.set_idf_allowed(not folders.archive_folders())  # archives keep no idf
        if self.result is not None and not listed:
            self._clear_results()
        self._update_actions()
        self._update_summary()

    def _clear_results(self) -> None:
        """Every folder was removed: no result is shown (the welcome page is); Undo still
        puts trashed files back."""
        self._results_cleared = True
        self.clusters_panel.model.clear()
        self.partial_panel.model.clear()
        self.common_panel.set_result(None)
        self.documents_panel.set_result(None)
        self.overview_panel.set_result(None, None, self.params.k())
        self.problems_panel.set_records((), (), (), ())
        self.pending.uncover()
        self._hide_pair()
        self._update_tab_texts()
        self._update_page()

    # -- settings ------------------------------------------------------------

    def _restore(self) -> None:
        s = self.settings
        self.folders.add_paths(s.folders)
        self.folders.add_paths(s.reference_folders, reference=True)
        self.folders.add_paths(s.archive_folders, archive=True)
        self.folders.set_exclude_text(s.exclude)
        self.folders.ocr.setChecked(s.ocr)
        self.params.set_weights(s.weights)
        self.params.set_common_docs(s.common_docs)
        self.params.set_shortest_match(s.shortest_match)
        self.params.set_count_quotations(s.count_quotations)
        self.params.set_count_bibliography(s.count_bibliography)
        self.params.set_paraphrase(s.paraphrase)
        self.params.set_translation(s.translation)
        self.params.set_k(min(s.k, DEFAULT_K_MAX))
        for key, restore in (
            ("geometry", self.restoreGeometry),
            ("state", self.restoreState),
            ("main_splitter", self.main_splitter.restoreState),
            ("right_splitter", self.right_splitter.restoreState),
        ):
            value = s.geometry(key)
            if value is not None:
                restore(value)
        language = self.translations.language
        if language in self.language_actions:
            self.language_actions[language].setChecked(True)
        self._show_role(s.role)

    def save_settings(self) -> None:
        s = self.settings
        s.folders = self.folders.folders()
        s.reference_folders = self.folders.reference_folders()
        s.archive_folders = self.folders.archive_folders()
        s.exclude = self.folders.exclude_text()
        s.ocr = self.folders.ocr.isChecked()
        s.weights = self.params.weights()
        s.common_docs = self.params.common_docs()
        s.shortest_match = self.params.shortest_match()
        s.count_quotations = self.params.count_quotations()
        s.count_bibliography = self.params.count_bibliography()
        s.paraphrase = self.params.paraphrase()
        s.translation = self.params.translation()
        s.k = self.params.k()
        s.set_geometry("geometry", self.saveGeometry())
        s.set_geometry("state", self.saveState())
        s.set_geometry("main_splitter", self.main_splitter.saveState())
        s.set_geometry("right_splitter", self.right_splitter.saveState())
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_settings()
        self.controller.shutdown()
        super().closeEvent(event)

    # -- scanning ------------------------------------------------------------

    def scan_options(self) -> ScanOptions:
        """Options for a scan of the listed folders with the shown weights."""
        extra = {} if self._workers is None else {"workers": self._workers}
        return ScanOptions(
            roots=tuple(self.folders.folders()),
            reference_roots=tuple(self.folders.reference_folders()),
            exclude=tuple(self.folders.exclude_patterns()),
            weights=self.params.weights(),
            k_max=DEFAULT_K_MAX,
            passages=self.params.passage_options(),
            ocr=self.folders.ocr.isChecked(),
            **extra,
        )

    def start_scan(self) -> None:
        """Scan the listed folders in the background."""
        if self.controller.busy:
            return
        if not self.folders.folders():
            self.statusBar().showMessage(
                self.tr("Add a folder to scan first (drop it on the list)."), 5000
            )
            return
        self.save_settings()
        self.archive_texts.forget()
        # every pair comes back: the editor leaves out those marked "not a duplicate"
        # (excluded sources), so that one can be included again without a rescan
        self.controller.start_scan(self.scan_options(), (), self.folders.archive_folders())

    def apply_weights(self, weights: FeatureWeights) -> None:
        """Re-fingerprint the scanned documents with new weights and match passages with
        what the panel says counts as copying (no file is read again)."""
        if self.result is None or self.controller.busy:
            return
        passages = self._passage_options()
        if weights == self.result.options.weights and passages == self.result.options.passages:
            return
        if self.folders.archive_folders():  # the archive is fingerprinted with the weights
            self.start_scan()
            return
        self.controller.start_reweight(self.result, weights, (), passages)

    def _passage_options(self) -> PassageOptions:
        """The shown result's passage options with what the panel says counts as copying."""
        return self.params.passage_options(
            self.result.options.passages if self.result is not None else None
        )

    def _on_job_started(self, kind: str) -> None:
        self._job_kind = kind
        self.scan_status.begin()
        self._update_page()
        if self.result is None:
            self.summary.setText(
                self.tr("Scanning… clusters appear as soon as the documents are compared.")
            )
        self.statusBar().clearMessage()
        self._update_actions()

    def _on_clusters(self, result: ScanResult) -> None:
        """A scan's clusters, before its partial copying: shown and usable now; what the
        user does to them is kept when the complete result of the same documents comes."""
        self._take_result(result)
        self.retranslate()
        self._update_actions()

    def _take_result(self, result: ScanResult) -> None:
        first = self.result is None  # after the welcome page: the user's tab opens
        self._results_cleared = False
        self.params.set_k_max(result.k_max)
        self.problems_panel.set_records(
            result.errors, result.warned, result.skipped, result.garbled
        )
        self.editor.set_result(result)  # shown by _show_result
        if first:
            self._open_role_tab()

    def _on_result(self, result: ScanResult) -> None:
        self.scan_status.end()
        self._take_result(result)
        if self._job_kind == "reweight":
            message = self.tr(
                "Re-weighted: %1 documents fingerprinted and compared again, no file read."
            ).replace("%1", f"{len(result.documents):,}")
        else:
            message = self._finished_message(result)
        self.statusBar().showMessage(message, 10000)
        self.retranslate()
        self._update_actions()
        if (
            self.params.weights() != result.options.weights
            or self._passage_options() != result.options.passages
        ):
            self.apply_weights(self.params.weights())  # edited while the job ran

    def _finished_message(self, result: ScanResult) -> str:
        return (
            self.tr("Done: %1 documents, %2 unchanged files taken from the catalog.")
            .replace("%1", f"{len(result.documents):,}")
            .replace("%2", f"{result.reused:,}")
        )

    def _on_cancelled(self) -> None:
        self.scan_status.end()
        self._update_page()
        if self.result is not None and not self.result.complete:  # its clusters stay
            self._show_pending()
            self._update_summary()
            message = self.tr(
                "Cancelled while matching passages: the clusters are shown, partial copying "
                "was not finished. Scan again to finish it."
            )
        else:
            message = self.tr(
                "Cancelled. Files read so far are kept; the next scan continues from there."
            )
        self.statusBar().showMessage(message, 10000)
        self._update_actions()

    def _on_failed(self, message: str) -> None:
        self.scan_status.end()
        self._update_page()
        self._update_actions()
        QMessageBox.warning(self, self.tr("Scan failed"), plain(message))

    # -- results -------------------------------------------------------------

    def set_anonymous(self, anonymous: bool) -> None:
        """Show neutral labels ("Document 7") instead of file names, folders and titles,
        everywhere: results can be shown on a projector."""
        NAMES.anonymous = anonymous
        self.anonymize_action.setChecked(anonymous)
        self._side_by_side_of = None  # the side-by-side pane is filled again, names too
        if self.result is not None:
            self._show_result(self.result)

    def _show_result(self, result: ScanResult) -> None:
        """Every view from `result` (a new scan, or files trashed or pairs dismissed)."""
        if self._results_cleared:  # files put back by Undo after every folder was removed
            self._update_actions()
            return
        with self._renewing_views():
            NAMES.set_paths(d.path for d in result.documents)
            if result.complete:
                self.common_panel.set_result(result)
                self.documents_panel.set_result(result, self.editor.excluded_sources())
            else:
                self.common_panel.set_result(None)
                self.documents_panel.set_result(None)
            self._show_pending()
            self._show_verdicts(self.editor.verdicts)
            self.show_clusters(self.params.k())
        self._update_actions()
        self._update_page()

    def _show_pending(self) -> None:
        """Cover the tabs that partial copying fills while the result has none: it is
        being matched, or the scan was cancelled before it was."""
        if self.result is None or self.result.complete:
            self.pending.uncover()
        elif self.controller.busy:
            self.pending.cover(
                self.tr(
                    "Partial copying is still being matched: this tab fills when it ends. "
                    "The clusters are ready now."
                )
            )
        else:
            self.pending.cover(
                self.tr(
                    "Partial copying was not finished: the scan was cancelled while matching "
                    "passages. Scan again to finish it (files already read are not read again)."
                )
            )
        self._update_tab_texts()

    @contextmanager
    def _renewing_views(self) -> Iterator[None]:
        """While the views are filled from a new result (or k), their selections (each
        panel keeps its own, by path) do not open or close the side-by-side pane; after,
        it shows the same two documents again, if both are still there, else what the
        cluster selection says."""
        if self._renewing:
            yield
            return
        self._renewing = True
        try:
            yield
        finally:
            self._renewing = False
        pair = self._side_by_side_numbers()
        if pair is None:
            self._on_selection()
        elif self._side_by_side_of is not self.result:  # the same result: left as it is
            self._show_pair(*pair)

    @property
    def side_by_side(self) -> tuple[str, str] | None:
        """Paths of the two documents shown side by side, or None when the pane is closed."""
        return self._side_by_side

    def _side_by_side_numbers(self) -> tuple[int, int] | None:
        """The numbers in the shown result of the two documents side by side, or None."""
        if self._side_by_side is None or self.result is None:
            return None
        wanted = set(self._side_by_side)
        number = {d.path: i for i, d in enumerate(self.result.documents) if d.path in wanted}
        pair = tuple(number.get(path) for path in self._side_by_side)
        if None in pair or any(self.editor.moved_away(doc) for doc in pair):
            return None
        return pair

    def _show_verdicts(self, verdicts) -> None:
        self.partial_panel.set_verdicts(verdicts)
        self.documents_panel.set_verdicts(verdicts)

    def _verdict_subject(self) -> list[int]:
        """The documents a verdict applies to now: the selected document in Documents, the
        selected pair in Partial copies, else the pair or document selected in Clusters."""
        if self.result is None:
            return []
        page = self.tabs.currentWidget()
        if page is self.documents_panel:
            doc = self.documents_panel.selected_document
            return [] if doc is None else [doc]
        if page is self.partial_panel:
            pair = self.partial_panel.selected_pair()
            return list(pair) if pair else []
        pair = self.selected_pair()
        return list(pair) if pair else self.selected_documents()[:1]

    def record_verdict(self) -> None:
        """Ask for the verdict on the selected pair or document and remember it."""
        docs = self._verdict_subject()
        if not docs:
            return
        paths = tuple(self._paths(docs))
        names = " ↔ ".join(readable(os.path.basename(p)) for p in paths)
        verdicts = self.editor.verdicts
        current = verdicts.of_document(paths[0]) if len(paths) == 1 else verdicts.of_pair(*paths)
        dialog = VerdictDialog(names, current, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.editor.set_verdict(paths, dialog.verdict())

    def _on_file_progress(self, done: int, total: int) -> None:
        text = self.tr("Working on files: %1 of %2…").replace("%1", f"{done:,}")
        self.statusBar().showMessage(text.replace("%2", f"{total:,}"))

    def show_clusters(self, k: int) -> None:
        """Re-cluster the current result at k from its stored pairs (no rescan)."""
        if self.result is None:
            return
        k = min(k, self.result.k_max)
        clusters = self.result.clusters(k)
        with self._renewing_views():
            self.clusters_panel.show_clusters(
                self.result.documents, clusters, self.result.is_reference
            )
            if self.result.complete:
                similarity = self.documents_panel.model.similarity
                self.partial_panel.show_result(self.result, clusters.k, similarity)
                self.overview_panel.set_result(self.result, similarity, k)
            else:
                self.partial_panel.model.clear()
                self.overview_panel.set_result(None, None, k)
            self._update_tab_texts()
            self._update_summary()
            self._update_actions()
        self.result_shown.emit()

    def _on_partial_selection(self, *_args) -> None:
        self._update_actions()
        pair = self.partial_panel.selected_pair()
        if pair is not None and not self._renewing:
            self.compare(*pair)

    def open_document(self, doc: int) -> None:
        """Show document `doc` in the Documents tab (its sources and coloured text)."""
        self.tabs.setCurrentWidget(self.documents_panel)
        self.documents_panel.filter.clear()
        self.documents_panel.select_document(doc)

    def compare(self, a: int, b: int) -> None:
        """Show documents a and b side by side."""
        if self.result is not None:
            self._show_pair(a, b)

    def _show_pair(self, a: int, b: int) -> None:
        """Documents a and b side by side, with the measures that made them a pair."""
        result = self.result
        left, right = self.record_with_text(a), self.record_with_text(b)
        self._side_by_side = (left.path, right.path)
        self._side_by_side_of = result
        self.diff_view.show()
        self._give_room_to_side_by_side()
        self.diff_view.set_pair(
            left,
            right,
            PairEvidence.of(result, a, b),
            self._term_rarity(),
            set_apart=result.options.passages.set_apart,
            left_out=lambda: (  # template and common text are greyed, never shown as copied
                left_out_spans(result, a, left.paragraphs),
                left_out_spans(result, b, right.paragraphs),
            ),
            meaning=pair_fragments(result.passages.meaning, a, b),
        )

    def _give_room_to_side_by_side(self) -> None:
        """At least the lower three fifths of the right side for the two texts: with an
        equal split at 1280×800 the measures above them left each text ~90 px."""
        total = sum(self.right_splitter.sizes())
        wanted = total * 3 // 5
        if total and self.right_splitter.sizes()[1] < wanted:
            self.right_splitter.setSizes([total - wanted, wanted])

    def record_with_text(self, doc: int) -> FileRecord:
        """Document `doc`'s record, with its text read from the archive when it is an
        archive document the check did not need the text of."""
        return self.archive_texts.with_text(
            self.result.documents[doc], self.folders.archive_folders(), self.result.options
        )

    def _term_rarity(self) -> TermRarity:
        """Document frequencies of the result's words, kept while its documents stay."""
        documents, complete = self.result.documents, self.result.complete
        if (
            self._rarity is None
            or self._rarity.documents is not documents
            or self._rarity_complete != complete
        ):
            t2s = self.result.options.traditional_to_simplified
            self._rarity = TermRarity(documents, t2s, self.result.passages)
            self._rarity_complete = complete
        return self._rarity

    def _update_summary(self) -> None:
        if self.result is None:
            self.summary.setText(self.tr("Drop folders on the list at the left, then press Scan."))
            return
        clusters = self.model.clusters
        stale = (
            self.tr("The folder list changed since this scan: press Scan to update. ")
            if self._folders_changed_since_scan()
            else ""
        )
        found = (
            self.tr("1 cluster with %2 files among %3 documents (k = %4).")
            if len(clusters) == 1
            else self.tr("%1 clusters with %2 files among %3 documents (k = %4).")
        )
        self.summary.setText(
            stale
            + found.replace("%1", f"{len(clusters):,}")
            .replace("%2", f"{len(clusters.doc):,}")
            .replace("%3", f"{self.editor.documents_left():,}")  # trashed ones are gone
            .replace("%4", str(clusters.k))
            + " "
            + self._problem_counts_text()
            + self._pending_text()
            + "".join(" " + notice for notice in self.result.notices)
        )

    def _pending_text(self) -> str:
        """What the summary says of partial copying not found yet ("" when it was)."""
        if self.result.complete:
            return ""
        if self.controller.busy:
            return " " + self.tr(
                "Partial copying is still being matched: near pairs that share only "
                "template or common text leave the clusters when it ends."
            )
        return " " + self.tr(
            "Partial copying was not finished: scan again to finish it (near pairs that "
            "share only template or common text are still among the clusters)."
        )

    def _folders_changed_since_scan(self) -> bool:
        """True when the listed folders are not those the shown result was scanned from."""
        options = self.result.options
        scanned = (set(options.roots), set(options.reference_roots))
        listed = (set(self.folders.folders()), set(self.folders.reference_folders()))
        return scanned != listed

    def reopen_last_results(self) -> None:
        """At start-up: show the last results of the listed folders again. A scan with
        nothing changed takes them from the catalog's cache, reading no file."""
        if self.result is None and self.catalog is not None and self.folders.folders():
            self.statusBar().showMessage(self.tr("Reopening the last results…"))
            self.start_scan()

    def _file_counts(self) -> FileCounts | None:
        """What became of the files the shown result found (archive documents apart)."""
        return self.result.file_counts() if self.result is not None else None

    def _problem_counts_text(self) -> str:
        counts = self._file_counts()
        text = self.problems_panel.counts_text(counts)
        if counts is not None and counts.essays != counts.read:  # the overview's documents
            text += " " + self.tr(
                "%1 documents compared; the other files read are reference documents or garbled."
            ).replace("%1", f"{counts.essays:,}")
        return text

    def _update_undo_text(self) -> None:
        """Edit ▸ Undo says what it undoes."""
        kind = self.editor.undo_kind()
        if kind == "pair":
            self.undo_action.setText(self.tr("Undo not a duplicate"))
        elif kind == "source":
            self.undo_action.setText(self.tr("Undo exclude source"))
        elif kind == "trash":
            self.undo_action.setText(self.tr("Undo move to trash"))
        else:
            self.undo_action.setText(self.tr("Undo"))

    def _update_actions(self) -> None:
        busy = self.controller.busy
        has_result = self.result is not None
        files_free = has_result and not self.editor.busy
        self.scan_button.setEnabled(not busy and bool(self.folders.folders()))
        self.scan_action.setEnabled(self.scan_button.isEnabled())
        complete = has_result and self.result.complete  # exports hold partial copying
        for action in (self.export_csv_action, self.export_json_action, self.export_html_action):
            action.setEnabled(files_free and complete)
        for action in (self.mark_action, self.unmark_action, self.show_text_action):
            action.setEnabled(has_result)
        selected = self.selected_documents()
        for action in (self.open_action, self.reveal_action, self.copy_action):
            action.setEnabled(bool(selected))
        self.ignore_action.setEnabled(self._pair_to_dismiss() is not None)
        selected = self.selected_documents()
        self.original_action.setEnabled(
            len(selected) == 1 and self.model.original_of(selected[0]) != selected[0]
        )
        self.verdict_action.setEnabled(bool(self._verdict_subject()))
        self.trash_action.setEnabled(files_free and bool(self.model.checked_documents()))
        self.move_action.setEnabled(self.trash_action.isEnabled())
        self.undo_action.setEnabled(self.editor.undo_kind() is not None)
        self._update_undo_text()

    # -- selection and the side-by-side view ---------------------------------

    def selected_documents(self) -> list[int]:
        """Documents of the selected member rows, in selection order."""
        return self.clusters_panel.selected_documents()

    def selected_pair(self) -> tuple[int, int] | None:
        """Two selected members, or one selected member and its cluster's reference."""
        docs = self.selected_documents()
        if len(docs) == 2:
            return docs[0], docs[1]
        if len(docs) == 1:
            reference = self.model.original_of(docs[0])
            return (reference, docs[0]) if reference != docs[0] else None
        return None

    def _pair_to_dismiss(self) -> tuple[int, int] | None:
        """The pair "Not a duplicate" applies to: from the partial-copies tab when it is
        shown, else from the cluster tree."""
        if self.tabs.currentWidget() is self.partial_panel:
            return self.partial_panel.selected_pair()
        return self.selected_pair()

    def _on_selection(self, *_args) -> None:
        self._update_actions()
        if self._renewing:
            return
        pair = self.selected_pair()
        if pair is None or self.result is None:
            self._hide_pair()
            return
        self._show_pair(*pair)

    def _hide_pair(self) -> None:
        """No pair chosen: the side-by-side view is emptied and gives its height back."""
        self._side_by_side = self._side_by_side_of = None
        self.diff_view.clear()
        self.diff_view.hide()

    def select_documents(self, docs: list[int]) -> None:
        """Select the member rows of `docs` (used by tests and keyboard helpers)."""
        self.clusters_panel.select_documents(docs)

    def _paths(self, docs: list[int]) -> list[str]:
        return [self.result.documents[d].path for d in docs] if self.result else []

    # -- actions -------------------------------------------------------------

    def open_selected(self) -> None:
        for path in self._paths(self.selected_documents()):
            file_actions.open_file(path)

    def reveal_selected(self) -> None:
        for path in self._paths(self.selected_documents())[:5]:  # do not flood the desktop
            file_actions.reveal_in_folder(path)

    def copy_selected_paths(self) -> None:
        file_actions.copy_paths(self._paths(self.selected_documents()))

    def make_selected_original(self) -> None:
        """Make the selected member its cluster's original: the copy to keep, compared with
        the others and never marked for the trash."""
        selected = self.selected_documents()
        if len(selected) == 1:
            self.editor.make_original(selected[0])

    def ignore_selected_pair(self) -> None:
        """Mark the selected pair "not a duplicate": remembered, gone from view, undoable."""
        pair = self._pair_to_dismiss()
        if pair is not None:
            self.editor.dismiss_pair(*pair)

    def exclude_source(self, doc: int, source: int) -> None:
        """Leave `source` out of document `doc`'s similarity index: the pair is marked
        "not a duplicate" (remembered, undoable, and the same everywhere: the text the two
        share counts for neither)."""
        self.editor.dismiss_pair(doc, source, kind="source")

    def confirm_trash(self, paths: list[str]) -> bool:
        """Ask before trashing, with every file listed (scrollable under "Show Details")."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Move to trash"), "", parent=self)
        if len(paths) == 1:
            question = self.tr("Move 1 checked file to the trash?")
        else:
            count = f"{len(paths):,}"
            question = self.tr("Move %1 checked files to the trash?").replace("%1", count)
        shown = [readable(p) for p in paths[:10]]
        if len(paths) > 10:
            shown.append(self.tr("… and %1 more").replace("%1", f"{len(paths) - 10:,}"))
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(question + "\n\n" + "\n".join(shown))
        box.setDetailedText("\n".join(readable(p) for p in paths))
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        return box.exec() == QMessageBox.StandardButton.Yes

    def mark_all_but_original(self) -> None:
        """Check the copies within k of their original; say how many, and which were not."""
        self.statusBar().showMessage(self.clusters_panel.mark_all_but_original(), 10000)

    def trash_checked(self) -> None:
        """Move the checked files to the system trash after the user confirms the list."""
        docs = self.model.checked_documents()
        if not docs or self.result is None or self.editor.busy:
            return
        if self.confirm_trash(self._paths(docs)):
            self.model.set_checked(set())
            self.editor.move_to_trash(docs)

    def confirm_move(self, paths: list[str], folder: str) -> str | None:
        """Ask whether to move or copy the files into `folder`: "move", "copy" or None."""
        return ask_move_or_copy(paths, folder, self)

    def move_checked_to_folder(self) -> None:
        """Move or copy the checked files into a folder the user picks, after confirming."""
        docs = self.model.checked_documents()
        if not docs or self.result is None or self.editor.busy:
            return
        folder = QFileDialog.getExistingDirectory(self, self.tr("Move or copy checked files to"))
        how = self.confirm_move(self._paths(docs), folder) if folder else None
        if how is not None:
            if how == MOVE:
                self.model.set_checked(set())
            self.editor.move_to_folder(docs, folder, how)

    def export_report(self, fmt: str) -> None:
        """Write pairs, clusters and errors as CSV or JSON files into a chosen folder."""
        if self.result is None or self.editor.busy:
            return
        folder = QFileDialog.getExistingDirectory(self, self.tr("Export report into folder"))
        if folder:
            self.editor.export_report(Path(folder), fmt, self.model.clusters.k)

    def export_html(self) -> None:
        """Write the clusters shown now as one HTML file that opens in a browser."""
        if self.result is None or self.editor.busy:
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Export HTML report"),
            "simsift-report.html",
            self.tr("HTML files (*.html)"),
        )
        if path:
            self.editor.export_html(
                Path(path),
                self.model.clusters,
                self.translations.language,
                self.folders.archive_folders(),
            )

    def _open_document_file(self, doc: int) -> None:
        file_actions.open_file(self.result.documents[doc].path)

    def show_extracted_text(self) -> None:
        """The text SimSift read from the selected file, or from one the user picks."""
        if self.result is None:
            return
        record = self._record_in_current_view()
        if record is None:
            picker = DocumentPicker(self.result.documents, self)
            if picker.exec() != QDialog.DialogCode.Accepted or picker.chosen() is None:
                return
            record = self.record_with_text(picker.chosen())
        ExtractedTextDialog(record, self).show()

    def _record_in_current_view(self) -> FileRecord | None:
        """The read file selected in the visible tab (the first of a partial pair), or None."""
        page = self.tabs.currentWidget()
        if page is self.problems_panel:
            return self.problems_panel.selected_read_record()
        if page is self.partial_panel:
            pair = self.partial_panel.selected_pair()
            docs = [pair[0]] if pair else []
        else:
            docs = self.selected_documents()
        return self.record_with_text(docs[0]) if docs else None

    def show_guide(self) -> None:
        """Help ▸ User guide, in the UI language."""
        GuideDialog(self.translations.language, self).show()

    def _about(self) -> None:
        QMessageBox.about(
            self,
            self.tr("About SimSift"),
            self.tr("SimSift finds near-duplicate and copied documents with SimHash fingerprints."),
        )
