"""The Problems tab: files not read, read with a warning, or skipped, with the reason.

Double-clicking a file that was read asks for its extracted text; any other is shown in
its folder, where the user can see what is wrong with it.

The counts are the scan's (`ScanResult.file_counts`): files of the scanned folders read,
not read and skipped, and apart from them the files of the archive folders that could not
be added to the archive (listed here too, but no files of the folders checked).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget
from simsift.app import file_actions
from simsift.app.models.problems import COL_FILE, COL_FOLDER, COL_STATUS, ProblemsModel
from simsift.app.models.roles import ReadRole
from simsift.app.panels.tables import make_table_view
from simsift.core.document import FileRecord
from simsift.core.pipeline.result import FileCounts


class ProblemsPanel(QWidget):
    """One row per file a user should know about; errors first."""

    text_requested = Signal()  # a read file was double-clicked: show its extracted text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ProblemsModel(self)
        self.file_counts: FileCounts | None = None  # the shown result's, for the counts
        self.view = make_table_view(self.model)
        self.view.setWordWrap(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # long folders keep both ends
        header = self.view.horizontalHeader()
        for column in (COL_FILE, COL_STATUS):
            header.setSectionResizeMode(column, header.ResizeMode.ResizeToContents)
        header.resizeSection(COL_FOLDER, 260)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.view.doubleClicked.connect(self._on_double_click)

    def retranslate(self) -> None:
        self.view.viewport().update()

    def tab_title(self) -> str:
        """The tab's title: the rows listed, which the counts add up to."""
        return self.tr("Problems (%1)").replace("%1", f"{self.model.rowCount():,}")

    def tab_tip(self) -> str:
        return self.counts_text(self.file_counts)

    def counts_text(self, counts: FileCounts | None) -> str:
        """The files read, not read, with warnings and skipped, as `counts` (the shown
        result's `file_counts`) counts them; then, if any, the files of the archive
        folders that could not be added, which those counts leave out."""
        errors, warnings, skipped = self.model.counts
        read, archive = 0, 0
        if counts is not None:
            read, archive = counts.read, counts.archive_problems
            errors, skipped = counts.not_read, counts.skipped
        text = (
            self.tr("Read %1 files · %2 not read · %3 with warnings · %4 skipped.")
            .replace("%1", f"{read:,}")
            .replace("%2", f"{errors:,}")
            .replace("%3", f"{warnings:,}")
            .replace("%4", f"{skipped:,}")
        )
        if archive == 1:
            text += " " + self.tr(
                "1 file in the archive folders could not be added to the archive."
            )
        elif archive:
            text += " " + self.tr(
                "%1 files in the archive folders could not be added to the archive."
            ).replace("%1", f"{archive:,}")
        return text

    def set_records(
        self,
        errors: Sequence[FileRecord],
        warned: Sequence[FileRecord],
        skipped: Sequence[FileRecord],
        garbled: Sequence[FileRecord] = (),
    ) -> None:
        self.model.set_records(errors, warned, skipped, garbled)

    def selected_read_record(self) -> FileRecord | None:
        """The selected file when it was read (it has text to show), else None."""
        rows = self.view.selectionModel().selectedRows()
        if rows and self.model.data(rows[0], ReadRole):
            return self.model.record_at(rows[0].row())
        return None

    def _on_double_click(self, index: QModelIndex) -> None:
        if self.model.data(index, ReadRole):
            self.text_requested.emit()
        else:
            file_actions.reveal_in_folder(self.model.path_at(index.row()))
