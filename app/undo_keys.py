"""Ctrl+Z reaches Edit ▸ Undo wherever the keyboard focus is in the window.

A line edit, spin box or text editor takes Ctrl+Z for itself whenever it has focus, even
with nothing of its own to undo: after moving 745 files to the trash with the focus left
in a filter box, Ctrl+Z undid the filter's typing and the files stayed in the trash. Here
the text field keeps Ctrl+Z only while it holds typing done since the last file action
(trash, "not a duplicate", an excluded source): Ctrl+Z takes that typing back first, then
the action.
"""

from __future__ import annotations

import weakref

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget


class UndoKeys(QObject):
    """Application event filter giving `action` (Edit ▸ Undo of `window`) the Undo keys
    when a text field of `window` has focus but no typing newer than the last action."""

    def __init__(self, window: QWidget, action: QAction) -> None:
        super().__init__(window)
        self._window = window
        self._action = action
        # the text of each field typed in since the last action, as it was before the typing
        self._before: weakref.WeakKeyDictionary[QWidget, str] = weakref.WeakKeyDictionary()

    def action_done(self) -> None:
        """An undoable action happened (or was undone): typing before it no longer has
        the first claim on Ctrl+Z."""
        self._before = weakref.WeakKeyDictionary()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        field = _text_field(watched)
        if field is None or field.window() is not self._window:
            return False
        if not isinstance(event, QKeyEvent) or not event.matches(QKeySequence.StandardKey.Undo):
            if kind == QEvent.Type.KeyPress and event.text() and field not in self._before:
                self._before[field] = _text(field)  # seen before the field takes the key
            return False
        # filtered out, the override is accepted by no one: the shortcut map triggers Undo
        return kind == QEvent.Type.ShortcutOverride and self._window_undoes(field)

    def _window_undoes(self, field: QWidget) -> bool:
        if not self._action.isEnabled():
            return False
        if not _can_undo(field) or field not in self._before:
            return True
        return _text(field) == self._before[field]  # its new typing was taken back


def _text_field(widget: QObject) -> QWidget | None:
    """The text field `widget` is, or belongs to (a spin box's line edit), or None."""
    if isinstance(widget, QLineEdit) and isinstance(widget.parent(), QAbstractSpinBox):
        return widget.parent()
    if isinstance(widget, QLineEdit | QAbstractSpinBox | QTextEdit | QPlainTextEdit):
        return widget
    return None


def _text(field: QWidget) -> str:
    if isinstance(field, QTextEdit | QPlainTextEdit):
        return field.toPlainText()
    return field.text()


def _can_undo(field: QWidget) -> bool:
    """Whether `field` has typing of its own to undo."""
    if isinstance(field, QAbstractSpinBox):
        field = field.findChild(QLineEdit)
    if isinstance(field, QLineEdit):
        return not field.isReadOnly() and field.isUndoAvailable()
    if isinstance(field, QTextEdit | QPlainTextEdit):
        return not field.isReadOnly() and field.document().isUndoAvailable()
    return False
