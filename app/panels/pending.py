"""A note over the tabs whose contents come from partial copying while it is not found yet
(a scan shows its clusters first): an empty table would say "nothing found"."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QLabel, QWidget


class _Note(QLabel):
    """Covers `panel` whole, and follows its size."""

    def __init__(self, panel: QWidget) -> None:
        super().__init__(panel)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setMargin(24)
        self.setAutoFillBackground(True)  # the panel's empty views do not show through
        panel.installEventFilter(self)
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.setGeometry(watched.rect())
        return False

    def cover(self, text: str) -> None:
        self.setText(text)
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()


class PendingTabs:
    """The panels that wait for partial copying, each covered by the same note."""

    def __init__(self, panels: Iterable[QWidget]) -> None:
        self._notes = {panel: _Note(panel) for panel in panels}

    def cover(self, text: str) -> None:
        """Cover every panel with `text` (what is being computed, or why it was not)."""
        for note in self._notes.values():
            note.cover(text)

    def uncover(self) -> None:
        for note in self._notes.values():
            note.hide()

    def covers(self, panel: QWidget) -> bool:
        """Whether `panel` is one of these and is covered now."""
        note = self._notes.get(panel)
        return note is not None and not note.isHidden()

    def note_text(self, panel: QWidget) -> str:
        """The text over `panel` ("" when it is not covered)."""
        return self._notes[panel].text() if self.covers(panel) else ""
