"""Side-by-side view of two documents: aligned sentences and edited words highlighted,
scrolled together; passages the two share in meaning (paraphrased, translated) in their
own colours, each side linked to the other.

This module lays out the panes, the navigation and the summary; the colours are in
`highlight`, the fragments shared in meaning in `meaning`, the synchronized scrolling in
`scroll_sync`, and the alignment runs as a background job (`app.workers.jobs`) so a long
pair never freezes the window.
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from pathlib import PurePath

import numpy as np
from PySide6.QtCore import QEvent, QObject, QPointF, QRect, QRectF, Qt, Signal, Slot
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QAction,
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
from simsift.app.diff.highlight import (
    MOVED,
    SET_APART,
    FormatKey,
    Run,
    apply_formats,
    char_formats,
    edited_words,
    legend_entry,
    outside,
    sentence_runs,
    set_apart_runs,
    span_runs,
    to_utf16,
    utf16_offsets,
)
from simsift.app.diff.meaning import (
    PARAPHRASED,
    TRANSLATED,
    Fragment,
    fragment_at,
    fragment_runs,
    kinds_found,
)
from simsift.app.diff.scroll_sync import ScrollSync, reading_line, y_at
from simsift.app.readable import NAMES, plain, readable
from simsift.app.workers.jobs import Job
from simsift.core.document import FileRecord
from simsift.core.match.align import (
    CHANGED,
    DELETED,
    INSERTED,
    SAME,
    Alignment,
    WordEdit,
    align,
    display_text,
)
from simsift.core.match.evidence import PairEvidence, TermRarity
from simsift.core.match.passages import PassageOptions
from simsift.core.progress import CancelToken

# finds the text of the left and right documents that never counts (`left_out_spans`)
LeftOut = Callable[[], tuple[list[tuple[int, int, int, str]], list[tuple[int, int, int, str]]]]

# The selection is laid over the highlights, not painted instead of them.
_SELECTION_ALPHA = 40


def _align_pair(
    left: FileRecord,
    right: FileRecord,
    rarity: TermRarity | None,
    set_apart: Sequence[int],
    cancel: CancelToken,
    left_out: LeftOut | None = None,
) -> tuple[Alignment, list[tuple[str, int]], tuple[list[Run], list[Run]]]:
    """(alignment, rarest shared terms, text of each side that never counts) of two
    documents: the alignment job's work."""
    alignment = align(left.paragraphs, right.paragraphs, cancel=cancel)
    terms = rarity.rarest_shared(left, right, cancel=cancel) if rarity is not None else []
    if left_out is None:
        apart = (
            set_apart_runs(left.paragraphs, set_apart),
            set_apart_runs(right.paragraphs, set_apart),
        )
    else:
        spans = left_out()
        apart = (span_runs(left.paragraphs, spans[0]), span_runs(right.paragraphs, spans[1]))
    return alignment, terms, apart


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
        self.details.setToolTip(plain(self.details.text()))
        self.name.setToolTip(plain(NAMES.path(record.path)))
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
    colours. Quotations and the bibliography that do not count as copying are grey italics.
    """

    alignment_ready = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._job: Job | None = None  # the pending alignment
        self._evidence: PairEvidence | None = None
        self._terms: list[tuple[str, int]] = []
        self._alignment: Alignment | None = None
        self._set_apart: tuple[list[Run], list[Run]] = ([], [])  # quotations, bibliography
        self._apart_kinds: tuple[int, ...] = PassageOptions().set_apart  # named in the legend
        self._greys_left_out = False  # template and common text greyed too
        self._fragments: list[Fragment] = []  # shared in meaning, in left order
        self._selected: Fragment | None = None  # the fragment selected in both panes
        # what Next and Previous match step through, by left offset: the aligned blocks
        # and the fragments shared in meaning, as (left range, right range)
        self._targets: list[tuple[tuple[int, int], tuple[int, int]]] = []
        self._block_starts: list[int] = []  # left offset of each navigation target
        self._edits: list[WordEdit] = []  # every word edit, by left offset
        self._offsets: tuple[np.ndarray | None, np.ndarray | None] = (None, None)
        self.last_highlight_seconds = 0.0  # for benchmarks: time spent applying formats

        self._left = _Pane()
        self._right = _Pane()
        self._sync = ScrollSync(self._left.editor, self._right.editor)
        self._left.relaid_out.connect(self._sync.forget_anchors)
        self._right.relaid_out.connect(self._sync.forget_anchors)
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
        # the selected fragment shared in meaning: its kind, and that it is evidence to read
        self.meaning_label = QLabel()
        self.meaning_label.setTextFormat(Qt.TextFormat.PlainText)
        self.meaning_label.setWordWrap(True)
        self.meaning_label.hide()
        for pane in (self._left, self._right):
            pane.editor.viewport().installEventFilter(self)
        _never_widen(self.summary_label)
        self.summary_label.setWordWrap(True)  # the measures wrap, not cut at the pane's edge

        bar = QHBoxLayout()
        bar.addWidget(self.summary_label, 1)
        bar.addWidget(self.previous_button)
        bar.addWidget(self.next_button)
        bar.addWidget(self.next_difference_button)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.legend_label)
        layout.addWidget(self.meaning_label)
        layout.addWidget(splitter, 1)

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
        self._update_meaning_label()

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
        *,
        set_apart: Sequence[int] = PassageOptions().set_apart,
        left_out: LeftOut | None = None,
        meaning: Sequence[Fragment] = (),
    ) -> None:
        """Show `left` and `right` now and align them in the background.

        `evidence` (the scan's measures for the pair) heads the summary; with `rarity`,
        the rarest words both use are found in the background too. `set_apart` is the
        scan's `PassageOptions.set_apart`: the quotations and bibliography shown greyed;
        `left_out`, when given, finds (in the background) each side's text that never counts
        (`core.report.text_kinds.left_out_spans`: template and common text too) to grey.
        `meaning`: the fragments the two share in meaning (`app.diff.meaning.pair_fragments`),
        highlighted in their own colours and stepped through with the matched blocks.
        """
        self._reset()
        self._evidence = evidence
        self._fragments = sorted(meaning, key=lambda f: (f.left, f.right))
        self._apart_kinds = tuple(set_apart)
        self._greys_left_out = left_out is not None
        self._update_legend()
        self._left.show_record(left)
        self._right.show_record(right)
        job = Job(
            lambda _report, cancel: _align_pair(left, right, rarity, set_apart, cancel, left_out)
        )
        job.signals.finished.connect(self._on_aligned)
        job.signals.failed.connect(self._on_failed)
        self._job = job
        self._update_summary()
        job.start()

    def clear(self) -> None:
        """Show nothing; a pending alignment is cancelled and its result dropped."""
        self._reset()
        self._left.clear()
        self._right.clear()
        self._update_summary()

    @property
    def fragments(self) -> list[Fragment]:
        """The fragments the two documents share in meaning, in the left text's order."""
        return list(self._fragments)

    @property
    def selected_fragment(self) -> Fragment | None:
        """The fragment shared in meaning selected in both panes, or None."""
        return self._selected

    def select_fragment(self, fragment: Fragment) -> None:
        """Select `fragment` in both panes, scrolled to the reading line, and name its kind."""
        self._select_ranges(fragment.left, fragment.right)
        self._selected = fragment
        self._update_meaning_label()

    @Slot()
    def next_match(self) -> None:
        """Select the next matched block or fragment shared in meaning (after the left
        cursor) in both panes."""
        k = self._next_after_cursor(self._block_starts)
        if k < len(self._block_starts):
            self._select_target(k)

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
            self._select_target(k - 1)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A click inside a fragment shared in meaning selects it in both panes (a drag
        still selects text as usual)."""
        if event.type() == QEvent.Type.MouseButtonRelease and self._fragments:
            for pane, left in ((self._left, True), (self._right, False)):
                editor = pane.editor
                if watched is editor.viewport() and not editor.textCursor().hasSelection():
                    position = editor.cursorForPosition(event.position().toPoint()).position()
                    offsets = self._offsets[0 if left else 1]
                    fragment = fragment_at(self._fragments, _from_utf16(offsets, position), left)
                    if fragment is not None:
                        self.select_fragment(fragment)
                    elif self._selected is not None:
                        self._selected = None
                        self._update_meaning_label()
        return super().eventFilter(watched, event)

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
        if self._job is not None:
            self._job.cancel.cancel()  # its result, if it still comes, is dropped
            self._job = None
        self._alignment = None
        self._terms = []
        self._set_apart = ([], [])
        self._failure = None
        self._fragments = []
        self._selected = None
        self._targets = []
        self._block_starts = []
        self._edits = []
        self._offsets = (None, None)
        self._sync.set_alignment(None)
        self._set_navigation_enabled(False)
        self._update_meaning_label()

    def _is_current(self, signals: object) -> bool:
        """False for the signals of a job whose pair is no longer shown."""
        return self._job is not None and signals is self._job.signals

    @Slot(object)
    def _on_aligned(self, outcome: tuple[Alignment, list, tuple]) -> None:
        if not self._is_current(self.sender()):
            return  # the selection changed while this pair was being aligned
        self._job = None
        alignment, terms, self._set_apart = outcome
        self._alignment = alignment
        self._terms = terms
        self._offsets = (utf16_offsets(alignment.left_text), utf16_offsets(alignment.right_text))
        self._sync.set_alignment(alignment, self._offsets)
        self._highlight(alignment)
        left, right = alignment.left_spans, alignment.right_spans
        blocks = [
            (
                (left[alignment.matches[first].left].start, left[alignment.matches[last].left].end),
                (
                    right[alignment.matches[first].right].start,
                    right[alignment.matches[last].right].end,
                ),
            )
            for first, last in alignment.blocks
        ]
        self._targets = sorted(blocks + [(f.left, f.right) for f in self._fragments])
        self._block_starts = [target[0][0] for target in self._targets]
        self._edits = [edit for match in alignment.matches for edit in match.edits]
        self._set_navigation_enabled(bool(self._targets))
        self._update_summary()
        self.alignment_ready.emit()

    @Slot(object)
    def _on_failed(self, error: Exception) -> None:
        if not self._is_current(self.sender()):
            return
        self._job = None
        self._failure = str(error)
        self._update_summary()

    def _update_summary(self) -> None:
        if self._alignment is not None:
            text = self._summary(self._alignment)
        elif self._failure is not None:
            text = self.tr("Could not align: {message}").format(message=self._failure)
        elif self._job is not None:
            text = self.tr("Aligning…")
        else:
            text = ""
        self.summary_label.setText(text)
        self.summary_label.setToolTip(plain(text))  # lines cut at the pane's width are whole here

    def _summary(self, alignment: Alignment) -> str:
        """Why this match: the scan's measures, the aligned sentences, the rarest shared words."""
        lines = []
        evidence = self._evidence
        if evidence is not None:
            if evidence.shared_passages == 0:  # found by meaning only, say
                passages = self.tr("no passage shared word for word")
            elif evidence.shared_passages == 1:
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
        if self._fragments:
            lines.append(self._meaning_summary())
        return "\n".join(lines)

    def _meaning_summary(self) -> str:
        """ "Found by meaning: 1 translated passage, 2 paraphrased passages (…)"."""
        counts = []
        for kind in kinds_found(self._fragments):
            n = sum(f.kind == kind for f in self._fragments)
            counts.append(self._passages_of_kind(kind, n))
        found = self.tr(
            "Found by meaning: {passages}. The words differ: read both sides before deciding."
        ).format(passages=", ".join(counts))
        evidence = self._evidence
        if evidence is None or not (evidence.meaning_ab or evidence.meaning_ba):
            return found
        shares = self.tr("By meaning: A in B {ab} · B in A {ba}").format(
            ab=f"{evidence.meaning_ab:.0%}", ba=f"{evidence.meaning_ba:.0%}"
        )
        return f"{shares}\n{found}"

    def _passages_of_kind(self, kind: str, n: int) -> str:
        if kind == TRANSLATED:
            text = self.tr("1 translated passage") if n == 1 else self.tr("{n} translated passages")
        elif n == 1:
            text = self.tr("1 paraphrased passage")
        else:
            text = self.tr("{n} paraphrased passages")
        return text.format(n=n)

    def _update_meaning_label(self) -> None:
        """Name the selected fragment's kind and say it is evidence to read, not proof."""
        fragment = self._selected
        if fragment is None:
            self.meaning_label.clear()
            self.meaning_label.hide()
            return
        if fragment.kind == TRANSLATED:
            text = self.tr(
                "Translated passage: these sentences say the same in Chinese and English. "
                "Evidence to read, not proof: compare the two sides before deciding."
            )
        else:
            text = self.tr(
                "Paraphrased passage: these sentences say the same in other words. "
                "Evidence to read, not proof: compare the two sides before deciding."
            )
        self.meaning_label.setText(text)
        self.meaning_label.show()

    # Highlighting

    def _highlight(self, alignment: Alignment) -> None:
        """Show both texts again, as new documents with the spans' colours."""
        started = time.perf_counter()
        formats = self._formats()
        with self._sync.paused():  # swapping documents moves scroll bars: not a user scroll
            for pane, text, offsets, spans, words, apart, left in (
                (
                    self._left,
                    alignment.left_text,
                    self._offsets[0],
                    alignment.left_spans,
                    edited_words(alignment.matches, left=True),
                    self._set_apart[0],
                    True,
                ),
                (
                    self._right,
                    alignment.right_text,
                    self._offsets[1],
                    alignment.right_spans,
                    edited_words(alignment.matches, left=False),
                    self._set_apart[1],
                    False,
                ),
            ):
                document = pane.new_document(text)
                # a fragment shared in meaning is laid over the sentences' colours, and a
                # quotation reads as one, whatever it matched: no colour on set-apart text
                meaning = fragment_runs(self._fragments, left)
                copied = sentence_runs(spans, alignment.matches) + words + meaning
                runs = outside(copied, apart) + apart
                apply_formats(document, offsets, runs, formats)
                pane.set_document(document)
        self.last_highlight_seconds = time.perf_counter() - started

    def _formats(self) -> dict[FormatKey, QTextCharFormat]:
        """Formats of sentence kinds, word edits and passages shared in meaning (with a
        tooltip naming the kind), from the palette's base colour."""
        formats = char_formats(self.palette().color(QPalette.ColorRole.Base))
        formats[PARAPHRASED].setToolTip(
            self.tr("Paraphrased passage: evidence to read, not proof (click to see both sides)")
        )
        formats[TRANSLATED].setToolTip(
            self.tr("Translated passage: evidence to read, not proof (click to see both sides)")
        )
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
        if PARAPHRASED in kinds_found(self._fragments):
            entries += ((formats[PARAPHRASED], self.tr("paraphrased passage")),)
        if TRANSLATED in kinds_found(self._fragments):
            entries += ((formats[TRANSLATED], self.tr("translated passage")),)
        if self._greys_left_out:
            label = self.tr("quoted, references, template or common text (not counted)")
            entries += ((formats[SET_APART], label),)
        elif self._apart_kinds:
            entries += ((formats[SET_APART], self.tr("quoted or bibliography (not counted)")),)
        self.legend_label.setText("&nbsp; ".join(legend_entry(*entry) for entry in entries))
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

    def _select_target(self, k: int) -> None:
        """Select navigation target k (a block or a fragment) in both panes."""
        left, right = self._targets[k]
        fragment = next((f for f in self._fragments if (f.left, f.right) == (left, right)), None)
        if fragment is not None:
            self.select_fragment(fragment)
        else:
            self._select_ranges(left, right)
            self._selected = None
            self._update_meaning_label()

    def _set_navigation_enabled(self, enabled: bool) -> None:
        for action in (self.previous_action, self.next_action):
            action.setEnabled(enabled)
        self.previous_button.setEnabled(enabled)
        self.next_button.setEnabled(enabled)
        self.next_difference_action.setEnabled(enabled and bool(self._edits))
        self.next_difference_button.setEnabled(enabled and bool(self._edits))

    def _select_ranges(self, left: tuple[int, int], right: tuple[int, int]) -> None:
        """Select text offsets [start, end) in each pane, scrolled to the reading line."""
        with self._sync.paused():
            for pane, offsets, (start, end) in (
                (self._left, self._offsets[0], left),
                (self._right, self._offsets[1], right),
            ):
                start, end = to_utf16(offsets, start), to_utf16(offsets, end)
                cursor = pane.editor.textCursor()
                cursor.setPosition(end)
                cursor.setPosition(start, QTextCursor.MoveMode.KeepAnchor)
                pane.editor.setTextCursor(cursor)
                bar = pane.editor.verticalScrollBar()
                bar.setValue(int(y_at(pane.editor, start) - reading_line(pane.editor)))


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


def _from_utf16(offsets: np.ndarray | None, position: int) -> int:
    """The Python offset of Qt position `position`, given the text's `utf16_offsets`."""
    if offsets is None:
        return position
    return int(np.searchsorted(np.arange(len(offsets)) + offsets, position, side="right")) - 1


def _never_widen(label: QLabel) -> None:
    """Let a label be cut at the pane's width instead of widening the window to fit a long
    path or title (the window once grew past the screen); the tooltip shows it whole."""
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
