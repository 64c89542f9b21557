"""Table columns fitted to the width the table has.

Sized to their contents once, a table's columns ignored the window: at 1280×800 long file
names pushed the Sources and Verdict columns out of sight while other tables left space
unused. Here numbers and short columns keep their full width (header included), and the
text columns (names, folders, verdicts) share what is left: narrowed, with the middle of
long names elided, when space is short, widened up to their contents when there is more.
A column the user drags keeps its width until the next result.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeView

_ROWS_MEASURED = 200  # rows measured per column: enough for a look, fast at 100,000 rows


class ColumnFitter(QObject):
    """Keeps the columns of `view` fitted to its width.

    `text_columns` maps a logical column to (narrowest, widest) pixels it may take; the
    other columns are as wide as their contents and header. Refits when the view is
    resized and when its model is reset.
    """

    def __init__(self, view: QAbstractItemView, text_columns: Mapping[int, tuple[int, int]]):
        super().__init__(view)
        self._view = view
        self._text = dict(text_columns)
        self._dragging = False  # a mouse button is down on the header
        self._user_sized = False
        header = view.header() if isinstance(view, QTreeView) else view.horizontalHeader()
        self._header = header
        self._header_viewport = header.viewport()  # compared in eventFilter, never called
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        header.setResizeContentsPrecision(_ROWS_MEASURED)
        header.sectionResized.connect(self._on_section_resized)
        header.viewport().installEventFilter(self)
        view.viewport().installEventFilter(self)
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.timeout.connect(lambda: self._user_sized or self.fit())
        model = view.model()
        model.modelReset.connect(self.schedule)
        model.layoutChanged.connect(self.schedule)
        model.headerDataChanged.connect(self.schedule)

    @property
    def header(self) -> QHeaderView:
        return self._header

    def schedule(self, *_args) -> None:
        """Fit once the event loop is back (several changes make one fit), unless the
        user sized a column since the last reset."""
        if not self._user_sized:
            self._pending.start(0)

    def forget_user_widths(self) -> None:
        """Fit again even the columns the user sized (a new result, not an edit of one)."""
        self._user_sized = False
        self.schedule()

    def _on_section_resized(self, *_args) -> None:
        if self._dragging:  # not a fit, nor the last column stretched to the width
            self._user_sized = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self._header_viewport:
            if kind == QEvent.Type.MouseButtonPress:
                self._dragging = True
            elif kind == QEvent.Type.MouseButtonRelease:
                self._dragging = False
        elif kind == QEvent.Type.Resize:
            self.schedule()
        return False

    def fit(self) -> None:
        """Size every column now."""
        header = self.header
        count = header.count()
        if not count:
            return
        shown = [c for c in range(count) if not header.isSectionHidden(c)]
        wanted = {c: self._wanted(c) for c in shown}
        fixed = sum(w for c, w in wanted.items() if c not in self._text)
        text = {c: w for c, w in wanted.items() if c in self._text}
        # a text column is never narrower than its header: "Largest source" stays whole
        limits = {
            c: (max(low, header.sectionSizeHint(c)), max(high, header.sectionSizeHint(c)))
            for c, (low, high) in self._text.items()
        }
        widths = _share(text, limits, self._view.viewport().width() - fixed)
        for column, width in wanted.items():
            header.resizeSection(column, widths.get(column, width))

    def _wanted(self, column: int) -> int:
        """Pixels `column` needs to show its header and the measured rows whole."""
        header = self.header
        contents = self._view.sizeHintForColumn(column)
        return max(header.sectionSizeHint(column), contents, header.minimumSectionSize()) + 4


def _share(
    wanted: dict[int, int], limits: Mapping[int, tuple[int, int]], room: int
) -> dict[int, int]:
    """Widths for the text columns within `room` pixels: each gets at least its narrowest
    and at most what it wants (capped at its widest); extra room grows the columns that
    want more, up to their whole contents."""
    low = {c: min(limits[c][0], w) for c, w in wanted.items()}
    capped = {c: max(low[c], min(w, limits[c][1])) for c, w in wanted.items()}
    total = sum(capped.values())
    if total > room:  # shrink toward the narrowest, each in proportion to its slack
        slack = sum(capped[c] - low[c] for c in capped) or 1
        cut = min(total - room, slack)
        cuts = {c: (capped[c] - low[c]) * cut // slack for c in capped}
        left = cut - sum(cuts.values())  # rounded down: a pixel short each would scroll
        for c in capped:
            if left and capped[c] - low[c] > cuts[c]:
                cuts[c] += 1
                left -= 1
        return {c: capped[c] - cuts[c] for c in capped}
    spare = room - total
    short = {c: wanted[c] - capped[c] for c in capped if wanted[c] > capped[c]}
    need = sum(short.values())
    if not need:
        return capped
    give = min(spare, need)
    return {c: capped[c] + short.get(c, 0) * give // need for c in capped}
