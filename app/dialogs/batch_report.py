"""Reports to hand over, in a batch: one PDF or HTML file per essay of the class, in a folder.

`save_class_reports` asks for the format and the folder (`BatchReportDialog`, which starts
in the folder reports were last saved in), then leaves making each essay's page as the
Documents tab shows it and writing it to a background job (`ClassReports`) with a progress
dialog and Cancel: the window stays responsive however large the class. It ends with a
message saying where the reports are, with an "Open folder" button (`show_saved`), as does
the single report's Save.

The files are named after the essays (`core.report.file_names`): the teacher must know whose
report each is, even when the reports themselves are anonymized. A report never overwrites a
file: a name already in the folder gets a number.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from simsift.app.readable import readable
from simsift.app.settings import Settings
from simsift.app.workers.essay_reports import HTML, PDF, ReportFile, essay_reports_work
from simsift.app.workers.jobs import Job, error_text
from simsift.core.pipeline.check import is_archive_path
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.file_names import report_file_names


def class_documents(result: ScanResult) -> list[int]:
    """The class's essays: the scanned documents, not reference or archive ones, by path."""
    docs = [
        doc
        for doc, record in enumerate(result.documents)
        if not result.is_reference[doc] and not is_archive_path(record.path)
    ]
    return sorted(docs, key=lambda doc: result.documents[doc].path)


def report_suffix() -> str:
    """What follows an essay's name in its report's file name."""
    return " - " + QCoreApplication.translate("ClassReports", "similarity report")


class BatchReportDialog(QDialog):
    """Where, and as what, to save one report per essay."""

    def __init__(self, count: int, folder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Save reports for the class"))
        about = QLabel(
            self.tr(
                "One report per essay (%1 essays), each in its own file named after the "
                "essay, to hand over. Files already in the folder are kept."
            ).replace("%1", f"{count:,}")
        )
        about.setTextFormat(Qt.TextFormat.PlainText)
        about.setWordWrap(True)
        self.format_box = QComboBox()
        self.format_box.addItem(self.tr("PDF"), PDF)
        self.format_box.addItem(self.tr("HTML page"), HTML)
        self.folder_edit = QLineEdit(folder)
        # wide enough to read a folder's whole path, not its last few letters
        self.folder_edit.setMinimumWidth(self.fontMetrics().averageCharWidth() * 50)
        self.browse_button = QPushButton(self.tr("Choose…"))
        self.browse_button.clicked.connect(self._browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_edit, 1)
        folder_row.addWidget(self.browse_button)
        form = QFormLayout()
        form.addRow(self.tr("Format"), self.format_box)
        form.addRow(self.tr("Folder"), folder_row)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.folder_edit.textChanged.connect(self._update_save)
        layout = QVBoxLayout(self)
        layout.addWidget(about)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self._update_save()

    def folder(self) -> str:
        return os.path.expanduser(self.folder_edit.text().strip())

    def extension(self) -> str:
        return self.format_box.currentData()

    def _update_save(self) -> None:
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setEnabled(bool(self.folder()))

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Folder for the reports"))
        if folder:
            self.folder_edit.setText(folder)


class ClassReports(QObject):
    """Writes the reports on a background job, with a progress dialog and Cancel, then
    says where they are (`show_saved`) or what went wrong."""

    ended = Signal(int)  # how many reports were written, after the message is shown

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._parent = parent
        self.job: Job | None = None
        self.progress: QProgressDialog | None = None
        self.message: QMessageBox | None = None
        self._folder = ""
        self._total = 0
        self._done = 0

    def start(self, files: list[ReportFile], page_of: Callable[[int], str], folder: str) -> Job:
        """Make and write `files` on a job; `page_of(doc)` (safe off the GUI thread) makes
        a report's page."""
        self._folder, self._total, self._done = folder, len(files), 0
        self.progress = QProgressDialog(
            self.tr("Saving the reports…"), self.tr("Cancel"), 0, len(files), self._parent
        )
        self.progress.setWindowTitle(self.tr("Save reports for the class"))
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(0)
        self.progress.setAutoClose(False)
        self.progress.setValue(0)
        self.progress.show()
        self.job = Job(essay_reports_work(files, page_of))
        self.progress.canceled.connect(self.job.cancel.cancel)
        # slots of this object, not lambdas: Qt then runs them on the GUI thread
        self.job.signals.progress.connect(self._on_progress)
        self.job.signals.finished.connect(self._on_finished)
        self.job.signals.failed.connect(self._on_failed)
        self.job.signals.cancelled.connect(self._on_cancelled)
        self.job.start()
        return self.job

    @Slot(object)
    def _on_progress(self, value: tuple[int, int]) -> None:
        self._done = value[0]
        progress = self.progress
        if progress is not None and not progress.wasCanceled():
            progress.setLabelText(
                self.tr("Saving the reports… %1 of %2")
                .replace("%1", f"{self._done:,}")
                .replace("%2", f"{self._total:,}")
            )
            # a modal progress dialog handles events in setValue: the job's end may come
            progress.setValue(self._done)

    @Slot(object)
    def _on_finished(self, written: list) -> None:
        self._close_progress()
        text = (
            self.tr("%1 reports saved in:").replace("%1", f"{len(written):,}")
            if len(written) != 1
            else self.tr("1 report saved in:")
        )
        self.message = show_saved(self._parent, self.tr("Reports saved"), text, self._folder)
        self.ended.emit(len(written))

    @Slot()
    def _on_cancelled(self) -> None:
        self._close_progress()
        text = (
            self.tr("Cancelled: %1 of %2 reports were saved in:")
            .replace("%1", f"{self._done:,}")
            .replace("%2", f"{self._total:,}")
        )
        self.message = show_saved(self._parent, self.tr("Reports cancelled"), text, self._folder)
        self.ended.emit(self._done)

    @Slot(object)
    def _on_failed(self, error: Exception) -> None:
        self._close_progress()
        reason = error.strerror or str(error) if isinstance(error, OSError) else error_text(error)
        text = (
            self.tr("Stopped after %1 of %2 reports: %3")
            .replace("%1", f"{self._done:,}")
            .replace("%2", f"{self._total:,}")
            .replace("%3", reason)
        )
        self.message = _message(
            self._parent, QMessageBox.Icon.Warning, self.tr("Reports not saved"), text
        )
        self.message.open()
        self.ended.emit(self._done)

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.reset()
            self.progress.hide()
            self.progress.deleteLater()
            self.progress = None


def save_class_reports(
    parent: QWidget, result: ScanResult, page_of: Callable[[int], str]
) -> ClassReports | None:
    """Ask where and as what, then make and write one report per essay of `result`'s
    class in the background; `page_of(doc)` makes an essay's complete report page and is
    called on the job's thread, so it must touch no widget. The folder is remembered
    (`Settings.report_folder`). None when the user cancels or the folder cannot be made."""
    docs = class_documents(result)
    if not docs:
        return None
    settings = Settings()
    home = os.path.expanduser("~")
    default = settings.report_folder or os.path.join(
        home, QCoreApplication.translate("ClassReports", "Similarity reports")
    )
    dialog = BatchReportDialog(len(docs), default, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    folder, extension = dialog.folder(), dialog.extension()
    try:
        os.makedirs(folder, exist_ok=True)
        existing = os.listdir(folder)
    except OSError as error:
        box = _message(
            parent,
            QMessageBox.Icon.Warning,
            QCoreApplication.translate("ClassReports", "Reports not saved"),
            f"{readable(folder)}\n{error.strerror or error}",
        )
        box.open()
        return None
    names = report_file_names(
        [result.documents[doc].path for doc in docs], extension, existing, report_suffix()
    )
    settings.report_folder = folder
    files = [ReportFile(doc, Path(folder) / name) for doc, name in zip(docs, names, strict=True)]
    runner = ClassReports(parent)
    runner.start(files, page_of, folder)
    return runner


def show_saved(parent: QWidget, title: str, text: str, folder: str) -> QMessageBox:
    """A message that reports were saved in `folder` (shown below `text`), with an
    "Open folder" button; shown without blocking, and returned."""
    box = _message(
        parent,
        QMessageBox.Icon.Information,
        title,
        f"{text}\n{readable(folder)}",
        QMessageBox.StandardButton.NoButton,
    )
    open_button = box.addButton(
        QCoreApplication.translate("ClassReports", "Open folder"),
        QMessageBox.ButtonRole.ActionRole,
    )
    box.addButton(QMessageBox.StandardButton.Close)
    # the action button would close the box without a handler: open the folder, then close
    open_button.clicked.connect(
        lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(os.path.abspath(folder)))
    )
    box.open()
    return box


def show_report_saved(parent: QWidget, path: str) -> QMessageBox:
    """The single report's confirmation: its file name and folder, "Open folder"."""
    text = QCoreApplication.translate("ClassReports", "Saved as “%1” in:").replace(
        "%1", readable(os.path.basename(path))
    )
    title = QCoreApplication.translate("ClassReports", "Report saved")
    return show_saved(parent, title, text, os.path.dirname(os.path.abspath(path)))


def _message(
    parent: QWidget,
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
) -> QMessageBox:
    """A message box showing `text` as plain text (paths are the user's, never markup)."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    return box
