"""A report's tooltips name files; a file name that looks like HTML is shown literally."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QTextBrowser, QToolTip
from simsift.app.plain_tooltips import PlainTooltips


def test_a_title_holding_markup_shows_as_plain_text(qtbot):
    view = QTextBrowser()
    qtbot.addWidget(view)
    PlainTooltips(view)
    view.setHtml(
        "<p><span title='quoted, also in &lt;b&gt;x&lt;/b&gt;.txt (not counted)'>"
        + "quoted words " * 20
        + "</span></p>"
    )
    view.resize(400, 200)
    view.show()
    qtbot.waitExposed(view)
    at = view.cursorRect(view.textCursor()).center() + QPoint(30, 0)
    event = QHelpEvent(QEvent.Type.ToolTip, at, view.viewport().mapToGlobal(at))
    QApplication.sendEvent(view.viewport(), event)
    shown = QToolTip.text()
    assert "quoted, also in &lt;b&gt;x&lt;/b&gt;.txt (not counted)" in shown  # shows <b>x</b>
    assert shown.startswith("<qt>")  # escaped inside Qt's rich-text mark: read literally
    QToolTip.hideText()
