"""File names as a person can read them.

A name that is not valid UTF-8 reaches Python with lone surrogates (os.fsdecode), and Qt
silently drops those: "b_\\xff.txt" would be shown as "b_.txt", another file's name. The
GUI shows such bytes as � instead and keeps the real path for every action. Bidirectional
controls and zero-width characters are shown as markers ("rtl⟨U+202E⟩gnp.txt", never
"rtltxt.png").

A name, title or document text is the user's, never markup: Qt shows a tooltip, a label or
a message box as rich text when it merely looks like HTML, so a file named "<b>x</b>" would
be shown bold. `plain()` makes such text safe for those; labels use `plain_label()`.
"""

from __future__ import annotations

import html
import os

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel
from simsift.core.pipeline.check import ARCHIVE_MARK
from simsift.core.report.visible import visible_controls


def readable(path: str) -> str:
    """`path` for display: bytes that are not UTF-8 become �, invisible and direction
    controls become visible markers, nothing is dropped. An archive document's path
    (or folder) is marked in the UI language ("archive: /2025/essay.txt")."""
    if path.startswith(ARCHIVE_MARK):
        shown = QCoreApplication.translate("DisplayNames", "archive: %1")
        return shown.replace("%1", readable(path[len(ARCHIVE_MARK) :]))
    try:
        raw = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that is not an escaped byte
        raw = path.encode("utf-8", "surrogatepass")
    return visible_controls(raw.decode("utf-8", "replace"))


def plain(text: str) -> str:
    """`text` for a tooltip or message box, shown literally: escaped inside `<qt>` (Qt's
    mark for rich text), line breaks kept. Empty text stays empty (no tooltip)."""
    if not text:
        return ""
    escaped = html.escape(text, quote=False)
    return f"<qt><p style='white-space:pre-wrap'>{escaped}</p></qt>"


def plain_label(label: QLabel, text: str = "") -> QLabel:
    """Make `label` show its text as plain text (names and titles are never markup)."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    if text:
        label.setText(text)
    return label


class DisplayNames:
    """How file names are shown: as they are, or, for a projector, as neutral labels
    ("Document 7") with folders and titles hidden. One switch for every view."""

    def __init__(self) -> None:
        self.anonymous = False
        self._labels: dict[str, str] = {}
        self.label_format = "Document {n}"

    def set_paths(self, paths) -> None:
        """The documents shown: each gets a label, numbered in path order (stable)."""
        ordered = sorted(set(paths))
        self._labels = {p: self.label_format.format(n=i + 1) for i, p in enumerate(ordered)}

    def name(self, path: str) -> str:
        if self.anonymous:
            return self._labels.get(path, "…")
        return readable(os.path.basename(path))

    def path(self, path: str) -> str:
        """The whole path, or the label."""
        return self.name(path) if self.anonymous else readable(path)

    def folder(self, folder: str) -> str:
        """A folder as shown (already relative or readable); hidden when anonymous."""
        return "" if self.anonymous else folder

    def title(self, title: str) -> str:
        """Titles often carry the author's name: hidden when anonymous."""
        return "" if self.anonymous else visible_controls(title)


NAMES = DisplayNames()
