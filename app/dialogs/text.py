"""What SimSift read from a file: its title and paragraphs exactly as compared."""

from __future__ import annotations

import html
import os
from collections.abc import Sequence

from PySide6.QtCore import QSortFilterProxyModel, QStringListModel, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)
from simsift.app.readable import readable
from simsift.core.document import FileRecord


class ExtractedTextDialog(QDialog):
    """The extracted title and paragraphs of one document, with its warning if any."""

    def __init__(self, record: FileRecord, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(
            self.tr("Extracted text — %1").replace("%1", readable(os.path.basename(record.path)))
        )
        self.resize(760, 640)
        self.header = QLabel(self._header_html(record))
        self.header.setTextFormat(Qt.TextFormat.RichText)  # built with every part escaped
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text = QTextBrowser()
        self.text.setHtml(_body_html(record))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)

    def _header_html(self, record: FileRecord) -> str:
        words = sum(len(p.split()) for p in record.paragraphs)
        lines = [
            f"<b>{html.escape(readable(record.path))}</b>",
            self.tr("Read as %1 · %2 paragraphs · %3 characters · %4 words")
            .replace("%1", record.format.upper())
            .replace("%2", f"{len(record.paragraphs):,}")
            .replace("%3", f"{sum(len(p) for p in record.paragraphs):,}")
            .replace("%4", f"{words:,}"),
        ]
        if record.warning:
            warning = self.tr("Warning: %1").replace("%1", record.warning)
            lines.append(f"<span style='color:#b00020'>{html.escape(warning)}</span>")
        for flag in record.flags:
            text = self.tr("Integrity flag: %1").replace("%1", flag)
            lines.append(f"<span style='color:#b00020'>{html.escape(text)}</span>")
        return "<br>".join(lines)


def _body_html(record: FileRecord) -> str:
    parts = [f"<h2>{html.escape(record.title)}</h2>"] if record.title else []
    parts += [f"<p>{html.escape(p)}</p>" for p in record.paragraphs]
    return "\n".join(parts)


class DocumentPicker(QDialog):
    """Choose one of the scanned documents by typing part of its path."""

    def __init__(self, documents: Sequence[FileRecord], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Show extracted text"))
        self.resize(640, 480)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(self.tr("Type part of the file name or folder…"))
        self.filter.setClearButtonEnabled(True)
        self.paths = QStringListModel([readable(d.path) for d in documents], self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.paths)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.list = QListView()
        self.list.setModel(self.proxy)
        self.list.setUniformItemSizes(True)  # 100,000 paths stay fast
        self.list.doubleClicked.connect(self.accept)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)

    def chosen(self) -> int | None:
        """The number of the chosen document, or None."""
        index = self.list.currentIndex()
        if not index.isValid():
            return None
        return self.proxy.mapToSource(index).row()
