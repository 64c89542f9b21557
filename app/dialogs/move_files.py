"""The question before "Move or copy checked to a folder…": move, copy or cancel, with every
file listed (names as plain text) and the folder they go to."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QWidget
from simsift.app.file_moves import COPY, MOVE
from simsift.app.readable import readable

_SHOWN = 10  # files listed in the question; all of them under "Show Details"


def _tr(text: str) -> str:
    return QCoreApplication.translate("MoveFiles", text)


def move_question(paths: Sequence[str], folder: str, parent: QWidget | None = None) -> QMessageBox:
    """The message box asking whether to move or copy `paths` into `folder` (not shown)."""
    box = QMessageBox(QMessageBox.Icon.Question, _tr("Move or copy to a folder"), "", parent=parent)
    if len(paths) == 1:
        question = _tr("Move or copy 1 checked file into %1?")
    else:
        question = _tr("Move or copy %2 checked files into %1?").replace("%2", f"{len(paths):,}")
    shown = [readable(p) for p in paths[:_SHOWN]]
    if len(paths) > _SHOWN:
        shown.append(_tr("… and %1 more").replace("%1", f"{len(paths) - _SHOWN:,}"))
    note = _tr(
        "A file of the same name there is never replaced: the new one gets a number, "
        "as “essay (1).txt”. Copying leaves the checked files where they are."
    )
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(question.replace("%1", readable(folder)) + "\n\n" + "\n".join(shown))
    box.setInformativeText(note)
    box.setDetailedText("\n".join(readable(p) for p in paths))
    box.addButton(_tr("Move"), QMessageBox.ButtonRole.AcceptRole).setObjectName(MOVE)
    box.addButton(_tr("Copy"), QMessageBox.ButtonRole.AcceptRole).setObjectName(COPY)
    box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))
    return box


def ask_move_or_copy(
    paths: Sequence[str], folder: str, parent: QWidget | None = None
) -> str | None:
    """MOVE or COPY as the user answers, None when they cancel."""
    box = move_question(paths, folder, parent)
    box.exec()
    clicked = box.clickedButton()
    return clicked.objectName() if clicked and clicked.objectName() in (MOVE, COPY) else None
