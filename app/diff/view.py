"""Side-by-side view of two documents: aligned sentences and edited words highlighted,
scrolled together."""

from __future__ import annotations

import html
import time
from bisect import bisect_left, bisect_right
from pathlib import PurePath

import numpy as np
from PySide6.QtCore import (
    QEvent,
    QObject,
    QPointF,
    QRect,
    QRectF,
    QRunnable,
    Qt,
    QThreadPool,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QAction,
    QColor,
    QKeySequence,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)
from simsift.app.readable import NAMES, readable
from simsift.core.document import FileRecord
from simsift.core.match.align import (
    CHANGED,
    DELETED,
    INSERTED,
    SAME,
    UNIQUE,
    Alignment,
    Match,
    Span,
    WordEdit,
    align,
    display_text,
)
from simsift.core.match.evidence import PairEvidence, TermRarity
from simsift.core.progress import Cancelled, CancelToken

MOVED = "moved"  # display kind of "same" sentences found at another place
_FormatKey = str | tuple[str, str]  # a sentence kind, or ("word", kind of word edit)

# Highlight hues, blended into the palette's base colour so they suit light and dark themes.
_TINTS = {SAME: QColor(240, 120, 40), CHANGED: QColor(60, 140, 235), MOVED: QColor(160, 90, 220)}
_TINT_STRENGTH = 0.35
# Edited words, drawn over their sentence's colour: stronger, and not told by hue alone.
_WORD_TINTS = {
    CHANGED: QColor(250, 200, 0),
    INSERTED: QColor(40, 180, 70),
    DELETED: QColor(225, 60, 60),
}
_WORD_STRENGTH = 0.6
# The selection is laid over the highlights, not painted instead of them.
_SELECTION_ALPHA = 40
# Where synchronized scrolling lines the two panes up: a third down the viewport, where one reads.
_READING_LINE = 1 / 3

# Tasks stay referenced until they finish, whatever happens to the view that started them.
_running: set[_AlignTask] = set()


class _AlignSignals(QObject):
    """Signals of an alignment task (a QRunnable is not a QObject)."""

    finished = Signal(int, object, object)  # request id, Alignment, rarest shared terms
    failed = Signal(int, str)  # request id, message


class _AlignTask(QRunnable):
    """Aligns two documents on a pool thread; the result comes back by signal."""

    def __init__(
        self,
        request: int,
        left: FileRecord,
        right: FileRecord,
        rarity: TermRarity | None,
        cancel: CancelToken,
        signals: _AlignSignals,
    ) -> None:
        super().__init__()
        self.request = request
        self.left = left
        self.right = right
        self.rarity = rarity
        self.cancel = cancel
        self.signals = signals

    def run(self) -> None:
        try:
            result = align(self.left.paragraphs, self.right.paragraphs, cancel=self.cancel)
            terms = (
                self.rarity.rarest_shared(self.left, self.right, cancel=self.cancel)
                if self.rarity is not None
                else []
            )
        except Cancelled:
            return
        except Exception as error:  # shown in the summary instead of killing the pool thread
            self.signals.failed.emit(self.request, str(error))
        else:
            self.signals.finished.emit(self.request, result, terms)
        finally:
            _running.discard(self)


class _Editor(QTextEdit):
    """A read-only text view whose selection is laid over the highlights.

    Qt paints a selection instead of the text's own backgrounds, so a selected match
    would lose its colours: the document is drawn here without the selection, and a
    translucent highlight is laid over the selected lines afterwards.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)

    def paintEvent(self, event: QPaintEvent) -> None:
        scrolled = QPointF(self.horizontalScrollBar().value(), self.verticalScrollBar().value())
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = self.palette()
        context.clip = QRectF(event.rect()).translated(scrolled)
        painter = QPainter(self.viewport())
        painter.translate(-scrolled)
        self.document().documentLayout().draw(painter, context)
        painter.resetTransform()
        cursor = self.textCursor()
        if cursor.hasSelection():
            self._paint_selection(painter, cursor.selectionStart(), cursor.selectionEnd(), event)
        painter.end()

    def _paint_selection(self, painter: QPainter, start: int, end: int, event: QPaintEvent) -> None:
        """Outline the selected lines and tint them lightly, keeping the hues below readable."""
        outline = QPainterPath()
        for rect in _line_rects(self, start, end, event.rect()):
            outline.addRect(rect.adjusted(-1, -1, 1, 1))  # overlapping, so the lines unite
        outline = outline.simplified()
        colour = self.palette().color(QPalette.ColorRole.Highlight)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colour, 2))
        colour.setAlpha(_SELECTION_ALPHA)
        painter.setBrush(colour)
        painter.drawPath(outline)


class _Pane(QWidget):
    """One side: a header (name; folder, format, title) above the read-only text."""

    relaid_out = Signal()  # the document's size changed (text set, wrapping width changed)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = QLabel()
        font = self.name.font()
        font.setBold(True)
        self.name.setFont(font)
        self.details = QLabel()
        for label in (self.name, self.details):
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            _never_widen(label)
        self.editor = _Editor()
        self._watch(self.editor.document())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.name)
        layout.addWidget(self.details)
        layout.addWidget(self.editor, 1)

    def show_record(self, record: FileRecord) -> None:
        path = PurePath(readable(record.path))
        self.name.setText(NAMES.name(record.path))
        folder = NAMES.folder(str(path.parent))
        parts = [folder, record.format.upper(), NAMES.title(record.title)]
        self.details.setText(" · ".join(part for part in parts if part))
        self.details.setToolTip(self.details.text())
        self.name.setToolTip(NAMES.path(record.path))
        self.set_document(self.new_document(display_text(record.paragraphs)))

    def clear(self) -> None:
        self.name.clear()
        self.details.clear()
        self.name.setToolTip("")
        self.set_document(self.new_document(""))

    def new_document(self, text: str) -> QTextDocument:
        """A document for this editor holding `text`, not laid out until shown."""
        document = QTextDocument(self.editor)
        document.setUndoRedoEnabled(False)  # no undo history to build for large documents
        document.setDefaultFont(self.editor.document().defaultFont())
        document.setPlainText(text)
        return document

    def set_document(self, document: QTextDocument) -> None:
        """Show `document` instead of the current one, keeping the scroll position.

        Formats are applied to a document before it is shown: formatting one that is
        already laid out relayouts every touched paragraph (3-10 times slower).
        """
        old = self.editor.document()
        ours = old.parent() is self.editor  # the editor's first document is Qt's to delete
        value = self.editor.verticalScrollBar().value()
        self._watch(document)
        self.editor.setDocument(document)
        self.editor.verticalScrollBar().setValue(value)
        if ours:
            old.deleteLater()

    def _watch(self, document: QTextDocument) -> None:
        document.documentLayout().documentSizeChanged.connect(self.relaid_out)


class DiffView(QWidget):
    """Two documents side by side, with matched ("same"), "changed" and moved sentences
    highlighted, and inside them the words that were changed, inserted or deleted.

    `set_pair` shows both texts at once and aligns them on a pool thread; highlights,
    navigation and the summary follow when `alignment_ready` is emitted. Scrolling one
    pane scrolls the other to the aligned position; F7 / Shift+F7 (or Ctrl+Down / Ctrl+Up)
    step through the matched blocks, F8 to the next edited words. A legend explains the
    colours.
    """

    alignment_ready = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._request = 0
        self._cancel: CancelToken | None = None  # of the pending alignment
        self._evidence: PairEvidence | None = None
        self._terms: list[tuple[str, int]] = []
        self._alignment: Alignment | None = None
        self._block_starts: list[int] = []  # left offset of each navigation block
        self._edits: list[WordEdit] = []  # every word edit, by left offset
        self._anchors: tuple[np.ndarray, np.ndarray] | None = None
        self._offsets: tuple[np.ndarray | None, np.ndarray | None] = (None, None)
        self._syncing = False
        self.last_highlight_seconds = 0.0  # for benchmarks: time spent applying formats

        self._left = _Pane()
        self._right = _Pane()
        self._left.relaid_out.connect(self._forget_anchors)
        self._right.relaid_out.connect(self._forget_anchors)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self._left)
        splitter.addWidget(self._right)
        splitter.setChildrenCollapsible(False)

        self.summary_label = QLabel()
        self.summary_label.setTextFormat(Qt.TextFormat.PlainText)
        self._failure: str | None = None  # why the last alignment failed
        self.previous_action = self._navigation_action(
            (QKeySequence("Shift+F7"), QKeySequence("Ctrl+Up"))
        )
        self.next_action = self._navigation_action((QKeySequence("F7"), QKeySequence("Ctrl+Down")))
        self.previous_action.triggered.connect(self.previous_match)
        self.next_action.triggered.connect(self.next_match)
        self.next_difference_action = self._navigation_action((QKeySequence("F8"),))
        self.next_difference_action.triggered.connect(self.next_difference)
        self.previous_button = self._button_for(self.previous_action)
        self.next_button = self._button_for(self.next_action)
        self.next_difference_button = self._button_for(self.next_difference_action)
        self.legend_label = QLabel()
        self.legend_label.setTextFormat(Qt.TextFormat.RichText)
        self.legend_label.setWordWrap(True)
        _never_widen(self.summary_label)

        bar = QHBoxLayout()
        bar.addWidget(self.summary_label, 1)
        bar.addWidget(self.previous_button)
        bar.addWidget(self.next_button)
        bar.addWidget(self.next_difference_button)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.legend_label)
        layout.addWidget(splitter, 1)

        for mine, other in ((self._left, self._right), (self._right, self._left)):
            mine.editor.verticalScrollBar().valueChanged.connect(
                lambda value, m=mine, o=other: self._follow_scroll(m, o, value)
            )
        self._set_navigation_enabled(False)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text of the view in the current UI language."""
        for action, button, text in (
            (self.previous_action, self.previous_button, self.tr("Previous match")),
            (self.next_action, self.next_button, self.tr("Next match")),
            (
                self.next_difference_action,
                self.next_difference_button,
                self.tr("Next difference"),
            ),
        ):
            key = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setText(text)
            action.setToolTip(f"{text} ({key})")
            button.setText(text)
            button.setToolTip(action.toolTip())
        self._update_legend()
        self._update_summary()

    @property
    def left_editor(self) -> QTextEdit:
        return self._left.editor

    @property
    def right_editor(self) -> QTextEdit:
        return self._right.editor

    @property
    def alignment(self) -> Alignment | None:
        """The alignment shown, or None while aligning or when empty."""
        return self._alignment

    def set_pair(
        self,
        left: FileRecord,
        right: FileRecord,
        evidence: PairEvidence | None = None,
        rarity: TermRarity | None = None,
    ) -> None:
        """Show `left` and `right` now and align them in the background.

        `evidence` (the scan's measures for the pair) heads the summary; with `rarity`,
        the rarest words both use are found in the background too.
        """
        self._reset()
        self._evidence = evidence
        self._left.show_record(left)
        self._right.show_record(right)
        # Signals are created here so that they live in (and report to) the GUI thread.
        signals = _AlignSignals()
        signals.finished.connect(self._on_aligned)
        signals.failed.connect(self._on_failed)
        self._cancel = CancelToken()
        self._update_summary()
        task = _AlignTask(self._request, left, right, rarity, self._cancel, signals)
        _running.add(task)
        QThreadPool.globalInstance().start(task)

    def clear(self) -> None:
        """Show nothing; a pending alignment is cancelled and its result dropped."""
        self._reset()
        self._left.clear()
        self._right.clear()
        self._update_summary()

    @Slot()
    def next_match(self) -> None:
        """Select the next matched block (after the left cursor) in both panes."""
        k = self._next_after_cursor(self._block_starts)
        if k < len(self._block_starts):
            self._select_block(k)

    @Slot()
    def next_difference(self) -> None:
        """Select the next edited words (after the left cursor) in both panes."""
        k = self._next_after_cursor([edit.left[0] for edit in self._edits])
        if k < len(self._edits):
            edit = self._edits[k]
            self._select_ranges(edit.left, edit.right)

    @Slot()
    def previous_match(self) -> None:
        """Select the previous matched block (before the left cursor) in both panes."""
        k = bisect_left(self._block_starts, self._left.editor.textCursor().selectionStart())
        if k > 0:
            self._select_block(k - 1)

    def changeEvent(self, event: QEvent) -> None:
        # Colours derive from the palette: a theme switch needs them recomputed.
        if event.type() == QEvent.Type.PaletteChange:
            self._update_legend()
            if self._alignment is not None:
                self._highlight(self._alignment)
        elif event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # Alignment results

    def _reset(self) -> None:
        """Invalidate the pending request (its result will be dropped) and the shown alignment."""
        self._request += 1
        if self._cancel is not None:
            self._cancel.cancel()
            self._cancel = None
        self._alignment = None
        self._terms = []
        self._failure = None
        self._block_starts = []
        self._edits = []
        self._anchors = None
        self._offsets = (None, None)
        self._set_navigation_enabled(False)

    @Slot(int, object, object)
    def _on_aligned(self, request: int, alignment: Alignment, terms: list) -> None:
        if request != self._request:
            return  # the selection changed while this pair was being aligned
        self._cancel = None
        self._alignment = alignment
        self._terms = terms
        self._anchors = None
        self._offsets = (_utf16_offsets(alignment.left_text), _utf16_offsets(alignment.right_text))
        self._highlight(alignment)
        self._block_starts = [
            alignment.left_spans[alignment.matches[first].left].start
            for first, _ in alignment.blocks
        ]
        self._edits = [edit for match in alignment.matches for edit in match.edits]
        self._set_navigation_enabled(bool(alignment.blocks))
        self._update_summary()
        self.alignment_ready.emit()

    @Slot(int, str)
    def _on_failed(self, request: int, message: str) -> None:
        if request != self._request:
            return
        self._cancel = None
        self._failure = message
        self._update_summary()

    def _update_summary(self) -> None:
        if self._alignment is not None:
            text = self._summary(self._alignment)
        elif self._failure is not None:
            text = self.tr("Could not align: {message}").format(message=self._failure)
        elif self._cancel is not None:
            text = self.tr("Aligning…")
        else:
            text = ""
        self.summary_label.setText(text)
        self.summary_label.setToolTip(text)  # lines cut at the pane's width are whole here

    def _summary(self, alignment: Alignment) -> str:
        """Why this match: the scan's measures, the aligned sentences, the rarest shared words."""
        lines = []
        evidence = self._evidence
        if evidence is not None:
            if evidence.shared_passages == 1:
                passages = self.tr("1 shared passage of {longest} words")
            else:
                passages = self.tr("{n} shared passages, longest {longest} words")
            passages = passages.format(n=evidence.shared_passages, longest=evidence.longest_passage)
            if evidence.longest_run:
                passages += self.tr(" · {run} words in a row").format(run=evidence.longest_run)
            lines.append(
                self.tr("Hamming distance {d} · A in B {ab} · B in A {ba} · {passages}").format(
                    d=evidence.distance,
                    ab=f"{evidence.containment_ab:.0%}",
                    ba=f"{evidence.containment_ba:.0%}",
                    passages=passages,
                )
            )
        lines.append(
            self.tr("Aligned sentences: {a} of A, {b} of B").format(
                a=f"{alignment.left_aligned_share:.0%}", b=f"{alignment.right_aligned_share:.0%}"
            )
        )
        if self._terms:
            words = ", ".join(f"{word} ({n})" for word, n in self._terms)
            lines.append(
                self.tr("Rarest shared words (documents using each): {words}").format(words=words)
            )
        return "\n".join(lines)

    # Highlighting

    def _highlight(self, alignment: Alignment) -> None:
        """Show both texts again, as new documents with the spans' colours."""
        started = time.perf_counter()
        formats = self._formats()
        self._syncing = True  # swapping documents moves scroll bars: not a user scroll
        try:
            for pane, text, offsets, spans, words in (
                (
                    self._left,
                    alignment.left_text,
                    self._offsets[0],
                    alignment.left_spans,
                    _edited_words(alignment.matches, left=True),
                ),
                (
                    self._right,
                    alignment.right_text,
                    self._offsets[1],
                    alignment.right_spans,
                    _edited_words(alignment.matches, left=False),
                ),
            ):
                document = pane.new_document(text)
                runs = _runs(spans, alignment.matches) + words
                _apply_formats(document, offsets, runs, formats)
                pane.set_document(document)
        finally:
            self._syncing = False
        self.last_highlight_seconds = time.perf_counter() - started

    def _formats(self) -> dict[_FormatKey, QTextCharFormat]:
        """Formats of sentence kinds, and of word edits under the keys ("word", kind)."""
        base = self.palette().color(QPalette.ColorRole.Base)
        formats: dict[_FormatKey, QTextCharFormat] = {}
        for kind, tint in _TINTS.items():
            fmt = QTextCharFormat()
            fmt.setBackground(_blend(base, tint, _TINT_STRENGTH))
            formats[kind] = fmt
        for kind, tint in _WORD_TINTS.items():
            fmt = QTextCharFormat()
            fmt.setBackground(_blend(base, tint, _WORD_STRENGTH))
            fmt.setFontStrikeOut(kind == DELETED)
            fmt.setFontUnderline(kind == INSERTED)
            formats["word", kind] = fmt
        return formats

    def _update_legend(self) -> None:
        """One line naming each colour, drawn in the formats the panes use."""
        formats = self._formats()
        entries = (
            (formats[SAME], self.tr("same sentence")),
            (formats[CHANGED], self.tr("similar sentence")),
            (formats[MOVED], self.tr("moved sentence")),
            (formats["word", CHANGED], self.tr("changed words")),
            (formats["word", INSERTED], self.tr("inserted words")),
            (formats["word", DELETED], self.tr("deleted words")),
        )
        self.legend_label.setText("&nbsp; ".join(_legend_entry(*entry) for entry in entries))
        self.legend_label.setToolTip(
            self.tr(
                "Words are compared from the left document to the right one: deleted words"
                " are struck through on the left, inserted words underlined on the right."
            )
        )

    # Navigation

    def _navigation_action(self, keys: tuple[QKeySequence, ...]) -> QAction:
        action = QAction(self)
        action.setShortcuts(list(keys))
        # Only while the view has focus: the main window may use the same keys elsewhere.
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.addAction(action)
        return action

    def _button_for(self, action: QAction) -> QPushButton:
        button = QPushButton()
        button.clicked.connect(action.trigger)
        return button

    def _next_after_cursor(self, starts: list[int]) -> int:
        """Index of the first of `starts` after the left cursor, or at it if nothing is
        selected (so a match at the very start is reached from a fresh view)."""
        position = self._left.editor.textCursor().selectionStart()
        showing = any(pane.editor.textCursor().hasSelection() for pane in (self._left, self._right))
        return (bisect_right if showing else bisect_left)(starts, position)

    def _set_navigation_enabled(self, enabled: bool) -> None:
        for action in (self.previous_action, self.next_action):
            action.setEnabled(enabled)
        self.previous_button.setEnabled(enabled)
        self.next_button.setEnabled(enabled)
        self.next_difference_action.setEnabled(enabled and bool(self._edits))
        self.next_difference_button.setEnabled(enabled and bool(self._edits))

    def _select_block(self, k: int) -> None:
        """Select block k in both panes and scroll both so that it sits on the reading line."""
        alignment = self._alignment
        first, last = alignment.blocks[k]
        first_match, last_match = alignment.matches[first], alignment.matches[last]
        left, right = alignment.left_spans, alignment.right_spans
        self._select_ranges(
            (left[first_match.left].start, left[last_match.left].end),
            (right[first_match.right].start, right[last_match.right].end),
        )

    def _select_ranges(self, left: tuple[int, int], right: tuple[int, int]) -> None:
        """Select text offsets [start, end) in each pane, scrolled to the reading line."""
        self._syncing = True
        try:
            for pane, offsets, (start, end) in (
                (self._left, self._offsets[0], left),
                (self._right, self._offsets[1], right),
            ):
                start, end = _to_utf16(offsets, start), _to_utf16(offsets, end)
                cursor = pane.editor.textCursor()
                cursor.setPosition(end)
                cursor.setPosition(start, QTextCursor.MoveMode.KeepAnchor)
                pane.editor.setTextCursor(cursor)
                bar = pane.editor.verticalScrollBar()
                bar.setValue(int(_y_at(pane.editor, start) - _reading_line(pane.editor)))
        finally:
            self._syncing = False

    # Synchronized scrolling

    def _follow_scroll(self, source: _Pane, target: _Pane, value: int) -> None:
        """Scroll `target` so that the text aligned with `source`'s reading line is on its own."""
        if self._syncing or not target.editor.document().characterCount() > 1:
            return
        ys_left, ys_right = self._anchor_ys()
        ys_from, ys_to = (ys_left, ys_right) if source is self._left else (ys_right, ys_left)
        y = float(np.interp(value + _reading_line(source.editor), ys_from, ys_to))
        self._syncing = True
        try:
            target.editor.verticalScrollBar().setValue(round(y - _reading_line(target.editor)))
        finally:
            self._syncing = False

    @Slot()
    def _forget_anchors(self) -> None:
        self._anchors = None  # wrapping changed: the anchors' y coordinates moved

    def _anchor_ys(self) -> tuple[np.ndarray, np.ndarray]:
        """Matching y coordinates in both documents: starts and ends of in-order blocks.

        Between anchors (unique text) the other pane moves proportionally.
        """
        if self._anchors is None:
            left, right = self._left.editor, self._right.editor
            ys_left = [0.0]
            ys_right = [0.0]
            alignment = self._alignment
            for first, last in alignment.blocks if alignment is not None else ():
                a, b = alignment.matches[first], alignment.matches[last]
                if not a.in_order:
                    continue
                for i, j, bottom in ((a.left, a.right, False), (b.left, b.right, True)):
                    ys_left.append(_span_y(left, self._offsets[0], alignment.left_spans[i], bottom))
                    ys_right.append(
                        _span_y(right, self._offsets[1], alignment.right_spans[j], bottom)
                    )
            ys_left.append(left.document().size().height())
            ys_right.append(right.document().size().height())
            # Anchors are monotonic by construction; accumulate guards against layout rounding.
            self._anchors = (np.maximum.accumulate(ys_left), np.maximum.accumulate(ys_right))
        return self._anchors


def _apply_formats(
    document: QTextDocument,
    offsets: np.ndarray | None,
    runs: list[tuple[int, int, _FormatKey]],
    formats: dict[_FormatKey, QTextCharFormat],
) -> None:
    """Merge `formats[key]` into each (start, end, key) run, in order, in one edit block."""
    cursor = QTextCursor(document)
    cursor.beginEditBlock()
    for start, end, key in runs:
        cursor.setPosition(_to_utf16(offsets, start))
        cursor.setPosition(_to_utf16(offsets, end), QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(formats[key])
    cursor.endEditBlock()


def _runs(spans: tuple[Span, ...], matches: tuple[Match, ...]) -> list[tuple[int, int, _FormatKey]]:
    """(start, end, kind) of maximal runs of highlighted spans, so the gaps between
    sentences of one copied passage are coloured too. Moved "same" sentences are MOVED."""
    runs: list[tuple[int, int, _FormatKey]] = []
    previous = UNIQUE
    for span in spans:
        kind = span.kind
        if kind == SAME and not matches[span.match_id].in_order:
            kind = MOVED
        if kind != UNIQUE:
            if kind == previous:
                runs[-1] = (runs[-1][0], span.end, kind)
            else:
                runs.append((span.start, span.end, kind))
        previous = kind
    return runs


def _edited_words(matches: tuple[Match, ...], *, left: bool) -> list[tuple[int, int, _FormatKey]]:
    """(start, end, ("word", kind)) of the edited words shown on one side."""
    runs: list[tuple[int, int, _FormatKey]] = []
    for match in matches:
        for edit in match.edits:
            start, end = edit.left if left else edit.right
            if start < end:
                runs.append((start, end, ("word", edit.kind)))
    return runs


def _legend_entry(fmt: QTextCharFormat, label: str) -> str:
    """`label` as rich text in the background and decoration of `fmt`."""
    styles = [f"background-color: {fmt.background().color().name()}"]
    if fmt.fontStrikeOut():
        styles.append("text-decoration: line-through")
    elif fmt.fontUnderline():
        styles.append("text-decoration: underline")
    return f'<span style="{"; ".join(styles)}">&nbsp;{html.escape(label)}&nbsp;</span>'


def _utf16_offsets(text: str) -> np.ndarray | None:
    """Cumulative count of astral characters before each offset, or None if there are none.

    Qt positions count UTF-16 code units; characters beyond the BMP (emoji, rare CJK)
    take two, so Python offsets shift after each of them.
    """
    if not text or max(text) < "\U00010000":
        return None
    code_points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    return np.concatenate(([0], np.cumsum(code_points > 0xFFFF)))


def _to_utf16(offsets: np.ndarray | None, offset: int) -> int:
    return offset if offsets is None else offset + int(offsets[offset])


def _y_at(editor: QTextEdit, position: int, bottom: bool = False) -> float:
    """Document y of the line holding `position` (its top, or its bottom)."""
    document = editor.document()
    block = document.findBlock(position)
    top = document.documentLayout().blockBoundingRect(block).top()
    layout = block.layout()
    line = layout.lineForTextPosition(position - block.position())
    if not line.isValid():
        return top
    return top + line.y() + (line.height() if bottom else 0.0)


def _line_rects(editor: QTextEdit, start: int, end: int, visible: QRect) -> list[QRectF]:
    """Viewport rectangles of the visible parts of lines holding positions [start, end)."""
    document = editor.document()
    layout = document.documentLayout()
    scrolled = QPointF(editor.horizontalScrollBar().value(), editor.verticalScrollBar().value())
    first = max(start, editor.cursorForPosition(visible.topLeft()).position())
    rects = []
    block = document.findBlock(first)
    while block.isValid() and block.position() < end:
        origin = layout.blockBoundingRect(block).topLeft() - scrolled
        if origin.y() > visible.bottom():
            break
        lines = block.layout()
        for k in range(lines.lineCount()):
            line = lines.lineAt(k)
            a = max(start - block.position(), line.textStart())
            b = min(end - block.position(), line.textStart() + line.textLength())
            if a < b:
                x1, x2 = line.cursorToX(a)[0], line.cursorToX(b)[0]
                rects.append(QRectF(origin.x() + x1, origin.y() + line.y(), x2 - x1, line.height()))
        block = block.next()
    return rects


def _span_y(editor: QTextEdit, offsets: np.ndarray | None, span: Span, bottom: bool) -> float:
    position = _to_utf16(offsets, span.end if bottom else span.start)
    return _y_at(editor, position, bottom)


def _reading_line(editor: QTextEdit) -> float:
    return editor.viewport().height() * _READING_LINE


def _blend(base: QColor, tint: QColor, strength: float) -> QColor:
    """`tint` laid over `base` at `strength` opacity, as an opaque colour."""
    return QColor(
        round(base.red() + (tint.red() - base.red()) * strength),
        round(base.green() + (tint.green() - base.green()) * strength),
        round(base.blue() + (tint.blue() - base.blue()) * strength),
    )


def _never_widen(label: QLabel) -> None:
    """Let a label be cut at the pane's width instead of widening the window to fit a long
    path or title (the window once grew past the screen); the tooltip shows it whole."""
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
