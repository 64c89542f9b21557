"""What SimSift read from a file: its title and paragraphs exactly as compared."""

from __future__ import annotations

import html
import os
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QSortFilterProxyModel, QStringListModel, Qt
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
from simsift.app.messages import translated
from simsift.app.readable import readable
from simsift.core.document import FileRecord
from simsift.core.report.essay import SET_APART_STYLE
from simsift.core.report.text_kinds import LISTED, QUOTED, set_apart_spans
from simsift.core.text.counts import text_counts
from simsift.core.text.quotations import BIBLIOGRAPHY, QUOTATION


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
        self.text.setHtml(self._body_html(record))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)

    def _header_html(self, record: FileRecord) -> str:
        counts = text_counts(record.paragraphs, getattr(record.tokens, "body", None))
        lines = [
            f"<b>{html.escape(readable(record.path))}</b>",
            self.tr("Read as %1 · %2 paragraphs · %3 characters · %4 words")
            .replace("%1", record.format.upper())
            .replace("%2", f"{len(record.paragraphs):,}")
            .replace("%3", f"{counts.characters:,}")
            .replace("%4", f"{counts.words:,}"),
        ]
        if record.warning:
            warning = self.tr("Warning: %1").replace("%1", record.warning)
            lines.append(f"<span style='color:#b00020'>{html.escape(warning)}</span>")
        for flag in record.flags:
            text = self.tr("Integrity flag: %1").replace("%1", translated(flag))
            lines.append(f"<span style='color:#b00020'>{html.escape(text)}</span>")
        legend = self.tr("In grey italics: quotations and the bibliography, set apart.")
        lines.append(f"<span style='{SET_APART_STYLE}'>{html.escape(legend)}</span>")
        return "<br>".join(lines)

    def _body_html(self, record: FileRecord) -> str:
        """The title and paragraphs, quotations and the bibliography in grey italics (as
        the scan finds them, whatever it counts)."""
        titles = {QUOTED: self.tr("quotation"), LISTED: self.tr("bibliography")}
        spans: dict[int, list[tuple[int, int, str]]] = {}
        for i, start, end, kind in set_apart_spans(record.paragraphs, (QUOTATION, BIBLIOGRAPHY)):
            spans.setdefault(i, []).append((start, end, titles[kind]))
        parts = [f"<h2>{html.escape(record.title)}</h2>"] if record.title else []
        for i, paragraph in enumerate(record.paragraphs):
            parts.append(f"<p>{_marked(paragraph, spans.get(i, []))}</p>")
        return "\n".join(parts)


def _marked(paragraph: str, spans: list[tuple[int, int, str]]) -> str:
    """`paragraph` escaped, each span (start, end, title) in grey italics."""
    out, done = [], 0
    for start, end, title in spans:
        out.append(html.escape(paragraph[done:start]))
        piece = html.escape(paragraph[start:end])
        out.append(f"<span style='{SET_APART_STYLE}' title='{html.escape(title)}'>{piece}</span>")
        done = end
    out.append(html.escape(paragraph[done:]))
    return "".join(out)


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
        self.list = QListView()
        self.list.setModel(self.proxy)
        self.list.setUniformItemSizes(True)  # 100,000 paths stay fast
        self.list.doubleClicked.connect(self.accept)
        # Enter opens the highlighted path: the first one that matches what was typed
        self.filter.textChanged.connect(self._filter)
        self.filter.installEventFilter(self)
        self._highlight_first()
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
        """The number of the chosen document (the highlighted path), or None."""
        index = self.list.currentIndex()
        if not index.isValid():
            return None
        return self.proxy.mapToSource(index).row()

    def _filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)
        self._highlight_first()

    def _highlight_first(self) -> None:
        """Highlight the first path shown (none when nothing matches)."""
        self.list.setCurrentIndex(self.proxy.index(0, 0))

    def eventFilter(self, watched, event) -> bool:
        """Up, Down, Page Up and Page Down in the filter box move through the list."""
        keys = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)
        if watched is self.filter and event.type() == QEvent.Type.KeyPress and event.key() in keys:
            QCoreApplication.sendEvent(self.list, event)
            return True
        return super().eventFilter(watched, event)
