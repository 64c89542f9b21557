"""The folders to scan: drop folders or files here, mark reference folders and archive
folders (previous years: indexed once, then only checked against), exclude patterns."""

from __future__ import annotations

import os
from collections.abc import Iterable

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

ArchiveRole = Qt.ItemDataRole.UserRole + 1  # True on an archive folder's item


class AcceptsFolderDrops:
    """Mixin for a widget that takes folders dropped on it: it hands their local paths to
    its `take_dropped`."""

    def take_dropped(self, paths: list[str]) -> None:
        raise NotImplementedError

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _local_paths(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:
        if _local_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = _local_paths(event.mimeData())
        if paths:
            self.take_dropped(paths)
            event.acceptProposedAction()


def _local_paths(mime) -> list[str]:
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]


class FolderList(AcceptsFolderDrops, QWidget):
    """A list of folders (or single files); a checked item is a reference folder, an
    item marked "archive" holds previous years' documents (indexed once, then queried)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self._title = QLabel()
        self.legend = QLabel()  # what the tick and the right-click mean, for a first look
        self.legend.setWordWrap(True)
        self._list = QListWidget()
        self._list.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        self._list.itemChanged.connect(lambda _item: self.changed.emit())
        self._add = QPushButton()
        self._add.clicked.connect(self.choose_folder)
        self._remove = QPushButton()
        self._remove.clicked.connect(self.remove_selected)
        self._exclude_label = QLabel()
        self._exclude = QLineEdit()
        self._exclude.editingFinished.connect(self.changed)
        self.ocr = QCheckBox()  # scanned PDFs read by OCR
        self.ocr.setChecked(True)
        self.ocr.toggled.connect(self.changed)
        self.archive_action = QAction(self)
        self.archive_action.setCheckable(True)
        self.archive_action.toggled.connect(self._set_selected_archive)
        self._list.addAction(self.archive_action)
        self._list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self._list.itemSelectionChanged.connect(self._sync_archive_action)
        self._layout_widgets()
        self.retranslate()

    def _layout_widgets(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self._add)
        buttons.addWidget(self._remove)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._title)
        layout.addWidget(self._list, 1)
        layout.addWidget(self.legend)
        layout.addLayout(buttons)
        layout.addWidget(self._exclude_label)
        layout.addWidget(self._exclude)
        layout.addWidget(self.ocr)

    def retranslate(self) -> None:
        self._title.setText(self.tr("Folders to scan (drop folders here):"))
        self.legend.setText(
            self.tr("☑ Ticked: reference folder (the prompt, handouts) · right-click: archive")
        )
        self._add.setText(self.tr("Add folder…"))
        self._remove.setText(self.tr("Remove"))
        self._exclude_label.setText(self.tr("Exclude patterns:"))
        self._exclude.setPlaceholderText(self.tr("e.g. *.tmp, drafts/*"))
        self.ocr.setText(self.tr("Read scans and pictures of text (OCR)"))
        self.ocr.setToolTip(
            self.tr(
                "Scanned PDFs and pages, and pictures of text in Word, ODT and web pages, are "
                "read by OCR (Tesseract), about 2 to 6 seconds a page; off, scans are listed "
                "in Problems as not read and pictures are left out, with a warning."
            )
        )
        self._list.setToolTip(
            self.tr("Tick a folder to use it as a reference (e.g. the assignment prompt).")
        )
        self.archive_action.setText(self.tr("Archive (previous years)"))
        self.archive_action.setToolTip(self._archive_tip())
        for row in range(self._list.count()):
            self._style_item(self._list.item(row))

    def _reference_tip(self) -> str:
        return self.tr("Ticked: reference folder, compared with the others but not among itself")

    def _archive_tip(self) -> str:
        return self.tr(
            "Archive: indexed once and kept; the other folders are checked against it, its "
            "documents are never compared with each other (right-click to change)"
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- content -------------------------------------------------------------

    def folders(self) -> list[str]:
        """Folders that are scanned normally."""
        return [p for p, ref, archive in self._entries() if not ref and not archive]

    def reference_folders(self) -> list[str]:
        return [p for p, ref, archive in self._entries() if ref and not archive]

    def archive_folders(self) -> list[str]:
        """Folders of previous years' documents: indexed once, then only checked against."""
        return [p for p, _, archive in self._entries() if archive]

    def exclude_patterns(self) -> list[str]:
        return [p.strip() for p in self._exclude.text().split(",") if p.strip()]

    def exclude_text(self) -> str:
        return self._exclude.text()

    def set_exclude_text(self, text: str) -> None:
        self._exclude.setText(text)

    def _entries(self) -> list[tuple[str, bool, bool]]:
        """(path, reference, archive) of every item."""
        items = (self._list.item(row) for row in range(self._list.count()))
        return [
            (
                item.data(Qt.ItemDataRole.UserRole),
                item.checkState() == Qt.CheckState.Checked,
                bool(item.data(ArchiveRole)),
            )
            for item in items
        ]

    def add_paths(
        self, paths: Iterable[str], reference: bool = False, archive: bool = False
    ) -> int:
        """Add folders or files not listed yet; returns how many were added."""
        known = {p for p, _, _ in self._entries()}
        added = 0
        self._list.blockSignals(True)
        for path in paths:
            path = os.path.abspath(path)
            if path in known or not os.path.exists(path):
                continue
            known.add(path)
            self._list.addItem(self._make_item(path, reference, archive))
            added += 1
        self._list.blockSignals(False)
        if added:
            self.changed.emit()
        return added

    def _make_item(self, path: str, reference: bool, archive: bool = False) -> QListWidgetItem:
        item = QListWidgetItem(path)
        item.setData(Qt.ItemDataRole.UserRole, path)
        item.setData(ArchiveRole, archive)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if reference else Qt.CheckState.Unchecked)
        self._style_item(item)
        return item

    def _style_item(self, item: QListWidgetItem) -> None:
        """An archive folder reads "(archive)" after its path, in italics."""
        archive = bool(item.data(ArchiveRole))
        path = item.data(Qt.ItemDataRole.UserRole)
        label = self.tr("archive")
        item.setText(f"{path}  ({label})" if archive else path)
        font = QFont(item.font())
        font.setItalic(archive)
        item.setFont(font)
        item.setToolTip(self._archive_tip() if archive else self._reference_tip())

    def set_archive(self, path: str, archive: bool) -> None:
        """Mark the listed `path` as an archive folder (or back to a normal one)."""
        for row in range(self._list.count()):
            item = self._list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == os.path.abspath(path):
                item.setData(ArchiveRole, archive)
                self._style_item(item)
        self.changed.emit()

    def _set_selected_archive(self, archive: bool) -> None:
        for item in self._list.selectedItems():
            if bool(item.data(ArchiveRole)) != archive:
                self.set_archive(item.data(Qt.ItemDataRole.UserRole), archive)

    def _sync_archive_action(self) -> None:
        items = self._list.selectedItems()
        self.archive_action.setEnabled(bool(items))
        self.archive_action.blockSignals(True)
        self.archive_action.setChecked(bool(items) and all(i.data(ArchiveRole) for i in items))
        self.archive_action.blockSignals(False)

    def remove_selected(self) -> None:
        for item in self._list.selectedItems():
            self._list.takeItem(self._list.row(item))
        self.changed.emit()

    def choose_folder(self) -> None:
        """Ask the user for a folder and add it to the list."""
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add folder"))
        if folder:
            self.add_paths([folder])

    def take_dropped(self, paths: list[str]) -> None:
        self.add_paths(paths)
