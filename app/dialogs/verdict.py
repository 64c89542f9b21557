"""How the teacher's verdicts look in the tables, and the dialog that records one; also the
folder names the tables show (relative to the scanned folders)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QRadioButton,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)
from simsift.app.readable import plain, readable
from simsift.core.store.verdicts import COPYING, MAX_NOTE, NOT_COPYING, Verdict

_COLOURS = {COPYING: QColor("#c92a2a"), NOT_COPYING: QColor("#2b8a3e")}


def verdict_text(verdict: Verdict | None) -> str:
    if verdict is None:
        return ""
    if verdict.verdict == COPYING:
        return QCoreApplication.translate("Verdict", "copying confirmed")
    return QCoreApplication.translate("Verdict", "not copying")


def verdict_data(model, verdict: Verdict | None, role: int):
    """A table cell's data for `role` showing `verdict` (None: no verdict)."""
    if verdict is None:
        return None
    if role == Qt.ItemDataRole.DisplayRole:
        text = verdict_text(verdict)
        return f"{text}: {verdict.note}" if verdict.note else text
    if role == Qt.ItemDataRole.ToolTipRole:
        return plain(f"{verdict_text(verdict)} ({verdict.date})\n{verdict.note}".rstrip())
    if role == Qt.ItemDataRole.ForegroundRole:
        return _COLOURS[verdict.verdict]
    return None


class VerdictDelegate(QStyledItemDelegate):
    """A verdict cell cut at its end, so the verdict itself stays readable ("copying
    confirmed: sha…"); the tables cut names in the middle, which made "copy…dent"."""

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight


def verdict_rank(verdict: Verdict | None) -> int:
    """Sort order: no verdict, not copying, copying confirmed."""
    return 0 if verdict is None else 1 if verdict.verdict == NOT_COPYING else 2


class FolderNames:
    """A file's folder as the tables show it: relative to the scanned folder it is in
    (starting with that folder's name), so long common prefixes do not push names out."""

    def __init__(self, roots: Sequence[str]) -> None:
        # longest first: a file is shown under the innermost scanned folder holding it
        self._roots = sorted((os.path.abspath(r) for r in roots), key=len, reverse=True)

    def folder(self, path: str) -> str:
        folder = os.path.dirname(path)
        for root in self._roots:
            if folder == root or folder.startswith(os.path.join(root, "")):
                inside = os.path.relpath(folder, root)
                name = os.path.basename(root) or root
                return readable(name if inside == "." else os.path.join(name, inside))
        return readable(folder)


class VerdictDialog(QDialog):
    """Record a verdict on a pair or a document: copying confirmed, not copying, or none."""

    def __init__(self, subject: str, current: Verdict | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Verdict"))
        about = QLabel(subject)
        about.setWordWrap(True)
        about.setTextFormat(Qt.TextFormat.PlainText)
        self.copying = QRadioButton(self.tr("Copying confirmed"))
        self.not_copying = QRadioButton(self.tr("Not copying"))
        self.none = QRadioButton(self.tr("No verdict"))
        group = QButtonGroup(self)
        for button in (self.copying, self.not_copying, self.none):
            group.addButton(button)
        {None: self.none, COPYING: self.copying, NOT_COPYING: self.not_copying}[
            current.verdict if current else None
        ].setChecked(True)
        self.note = QLineEdit(current.note if current else "")
        self.note.setMaxLength(MAX_NOTE)
        self.note.setPlaceholderText(self.tr("A short note (why), kept with the verdict"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (about, self.copying, self.not_copying, self.none, self.note, buttons):
            layout.addWidget(widget)
        self.resize(460, self.sizeHint().height())

    def verdict(self) -> Verdict | None:
        """The verdict as chosen (None: no verdict)."""
        if self.none.isChecked():
            return None
        chosen = COPYING if self.copying.isChecked() else NOT_COPYING
        return Verdict(chosen, self.note.text().strip())
