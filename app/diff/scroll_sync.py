"""Synchronized scrolling of the side-by-side view: the text aligned with one pane's
reading line is brought to the other pane's reading line.

Anchors are the y coordinates of the starts and ends of in-order matched blocks in both
documents; between anchors (unique text) the other pane moves proportionally.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from PySide6.QtWidgets import QTextEdit
from simsift.app.diff.highlight import to_utf16
from simsift.core.match.align import Alignment, Span

# Where the panes are lined up: a third down the viewport, where one reads.
READING_LINE = 1 / 3

Offsets = tuple[np.ndarray | None, np.ndarray | None]  # UTF-16 shifts of left, right text


class ScrollSync:
    """Keeps two editors scrolled to aligned positions while the user scrolls either."""

    def __init__(self, left: QTextEdit, right: QTextEdit) -> None:
        self._left, self._right = left, right
        self._alignment: Alignment | None = None
        self._offsets: Offsets = (None, None)
        self._anchors: tuple[np.ndarray, np.ndarray] | None = None
        self._paused = False
        for mine, other in ((left, right), (right, left)):
            mine.verticalScrollBar().valueChanged.connect(
                lambda value, m=mine, o=other: self._follow(m, o, value)
            )

    def set_alignment(self, alignment: Alignment | None, offsets: Offsets = (None, None)) -> None:
        """Line the panes up by `alignment` (None: proportionally)."""
        self._alignment, self._offsets = alignment, offsets
        self._anchors = None

    def forget_anchors(self) -> None:
        """A document was laid out again (text set, wrapping width changed)."""
        self._anchors = None

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Scroll moves made inside are the program's, not the user's: not followed."""
        self._paused = True
        try:
            yield
        finally:
            self._paused = False

    def _follow(self, source: QTextEdit, target: QTextEdit, value: int) -> None:
        """Scroll `target` so that the text aligned with `source`'s reading line is on its own."""
        if self._paused or not target.document().characterCount() > 1:
            return
        ys_left, ys_right = self._anchor_ys()
        ys_from, ys_to = (ys_left, ys_right) if source is self._left else (ys_right, ys_left)
        y = float(np.interp(value + reading_line(source), ys_from, ys_to))
        with self.paused():
            target.verticalScrollBar().setValue(round(y - reading_line(target)))

    def _anchor_ys(self) -> tuple[np.ndarray, np.ndarray]:
        """Matching y coordinates in both documents: starts and ends of in-order blocks."""
        if self._anchors is None:
            left, right, alignment = self._left, self._right, self._alignment
            ys_left = [0.0]
            ys_right = [0.0]
            for first, last in alignment.blocks if alignment is not None else ():
                a, b = alignment.matches[first], alignment.matches[last]
                if not a.in_order:
                    continue
                for i, j, bottom in ((a.left, a.right, False), (b.left, b.right, True)):
                    ys_left.append(span_y(left, self._offsets[0], alignment.left_spans[i], bottom))
                    ys_right.append(
                        span_y(right, self._offsets[1], alignment.right_spans[j], bottom)
                    )
            ys_left.append(left.document().size().height())
            ys_right.append(right.document().size().height())
            # Anchors are monotonic by construction; accumulate guards against layout rounding.
            self._anchors = (np.maximum.accumulate(ys_left), np.maximum.accumulate(ys_right))
        return self._anchors


def y_at(editor: QTextEdit, position: int, bottom: bool = False) -> float:
    """Document y of the line holding `position` (its top, or its bottom)."""
    document = editor.document()
    block = document.findBlock(position)
    top = document.documentLayout().blockBoundingRect(block).top()
    layout = block.layout()
    line = layout.lineForTextPosition(position - block.position())
    if not line.isValid():
        return top
    return top + line.y() + (line.height() if bottom else 0.0)


def span_y(editor: QTextEdit, offsets: np.ndarray | None, span: Span, bottom: bool) -> float:
    """Document y of the top (or bottom) of `span`."""
    position = to_utf16(offsets, span.end if bottom else span.start)
    return y_at(editor, position, bottom)


def reading_line(editor: QTextEdit) -> float:
    """Viewport y of the line the panes are lined up on."""
    return editor.viewport().height() * READING_LINE
