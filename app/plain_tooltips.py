"""Tooltips of a text view's HTML (`title` attributes) shown as plain text.

A report's stretches carry titles that may hold a file name ("quoted from <b>x</b>.txt,
cited"); Qt shows a tooltip as rich text when it merely looks like HTML, so the view's
own tooltip handling would show that name bold. Qt keeps a title's character references
as written ("&lt;b&gt;"): the filter shows the title's text, unescaped, through `plain()`.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QTextEdit, QToolTip
from simsift.app.readable import plain


class PlainTooltips(QObject):
    """Installed on a QTextEdit's viewport: its text's tooltips shown literally."""

    def __init__(self, view: QTextEdit) -> None:
        super().__init__(view)
        self._view = view
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ToolTip:
            return False
        tip = self._view.cursorForPosition(event.pos()).charFormat().toolTip()
        if tip:
            QToolTip.showText(event.globalPos(), plain(html.unescape(tip)), self._view.viewport())
        else:
            QToolTip.hideText()
        return True
