"""Ctrl+Z reaches Edit ▸ Undo wherever the keyboard focus is in the window.

A line edit, spin box or text editor takes Ctrl+Z for itself whenever it has focus: after
moving 745 files to the trash and typing in a filter box to look for another essay,
Ctrl+Z undid the typing and the files stayed in the trash. While Edit ▸ Undo has a file
action to undo (trash, move, "not a duplicate", an excluded source), Ctrl+Z undoes it,
wherever the focus is; a text field's own typing is undone from its right-click menu, or
with Ctrl+Z once there is no file action left to undo.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget


class UndoKeys(QObject):
    """Application event filter giving `action` (Edit ▸ Undo of `window`) the Undo keys
    while it is enabled, even when a text field of `window` has focus."""

    def __init__(self, window: QWidget, action: QAction) -> None:
        super().__init__(window)
        self._window = window
        self._action = action

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not self._action.isEnabled():
            return False
        if not isinstance(event, QKeyEvent) or not event.matches(QKeySequence.StandardKey.Undo):
            return False
        field = _text_field(watched)
        # filtered out, the override is accepted by no one: the shortcut map triggers Undo
        return field is not None and field.window() is self._window


def _text_field(widget: QObject) -> QWidget | None:
    """The text field `widget` is, or belongs to (a spin box's line edit), or None."""
    if isinstance(widget, QLineEdit) and isinstance(widget.parent(), QAbstractSpinBox):
        return widget.parent()
    if isinstance(widget, QLineEdit | QAbstractSpinBox | QTextEdit | QPlainTextEdit):
        return widget
    return None
