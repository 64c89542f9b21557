"""Highlighting for the side-by-side view: which text of an alignment gets which colour.

Colours are blended into the palette's base colour so they suit light and dark themes.
Offsets from `core.match.align` count Python characters; Qt counts UTF-16 code units,
so positions are mapped before formats are applied.

Quotations and the bibliography, when they do not count as copying, are grey italics on
the plain background (no sentence or word colour is laid on them): a quotation of the
other document reads as a quotation, not as a copied sentence.

Passages shared in meaning (paraphrased, translated: `app.diff.meaning`) get colours of
their own, laid over the sentences', with a dotted underline in a darker shade so they
are told apart from word-for-word copying without relying on hue alone.
"""

from __future__ import annotations

import html
from bisect import bisect_right
from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument
from simsift.app.diff.meaning import PARAPHRASED, TRANSLATED
from simsift.core.match.align import (
    CHANGED,
    DELETED,
    INSERTED,
    PARAGRAPH_SEPARATOR,
    SAME,
    UNIQUE,
    Match,
    Span,
)
from simsift.core.report.text_kinds import set_apart_spans

MOVED = "moved"  # display kind of "same" sentences found at another place
SET_APART = "set apart"  # quotations and the bibliography that do not count
FormatKey = str | tuple[str, str]  # a sentence kind, or ("word", kind of word edit)
Run = tuple[int, int, FormatKey]  # start, end, format key

_TINTS = {SAME: QColor(240, 120, 40), CHANGED: QColor(60, 140, 235), MOVED: QColor(160, 90, 220)}
_TINT_STRENGTH = 0.35
# Edited words, drawn over their sentence's colour: stronger, and not told by hue alone.
_WORD_TINTS = {
    CHANGED: QColor(250, 200, 0),
    INSERTED: QColor(40, 180, 70),
    DELETED: QColor(225, 60, 60),
}
_WORD_STRENGTH = 0.6
_SET_APART_TEXT = QColor(134, 142, 150)  # a grey readable on light and dark bases
_MEANING_TINTS = {PARAPHRASED: QColor(20, 170, 150), TRANSLATED: QColor(150, 185, 20)}
_MEANING_STRENGTH = 0.35
_MEANING_LINE_STRENGTH = 0.9  # the underline: the same hue, nearly full


def char_formats(base: QColor) -> dict[FormatKey, QTextCharFormat]:
    """Formats of sentence kinds, and of word edits under the keys ("word", kind)."""
    formats: dict[FormatKey, QTextCharFormat] = {}
    for kind, tint in _TINTS.items():
        fmt = QTextCharFormat()
        fmt.setBackground(blend(base, tint, _TINT_STRENGTH))
        formats[kind] = fmt
    for kind, tint in _WORD_TINTS.items():
        fmt = QTextCharFormat()
        fmt.setBackground(blend(base, tint, _WORD_STRENGTH))
        fmt.setFontStrikeOut(kind == DELETED)
        fmt.setFontUnderline(kind == INSERTED)
        formats["word", kind] = fmt
    for kind, tint in _MEANING_TINTS.items():
        fmt = QTextCharFormat()
        fmt.setBackground(blend(base, tint, _MEANING_STRENGTH))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        fmt.setUnderlineColor(blend(base, tint.darker(140), _MEANING_LINE_STRENGTH))
        formats[kind] = fmt
    fmt = QTextCharFormat()
    fmt.setForeground(_SET_APART_TEXT)
    fmt.setFontItalic(True)
    formats[SET_APART] = fmt
    return formats


def apply_formats(
    document: QTextDocument,
    offsets: np.ndarray | None,
    runs: list[Run],
    formats: dict[FormatKey, QTextCharFormat],
) -> None:
    """Merge `formats[key]` into each (start, end, key) run, in order, in one edit block."""
    cursor = QTextCursor(document)
    cursor.beginEditBlock()
    for start, end, key in runs:
        cursor.setPosition(to_utf16(offsets, start))
        cursor.setPosition(to_utf16(offsets, end), QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(formats[key])
    cursor.endEditBlock()


def sentence_runs(spans: tuple[Span, ...], matches: tuple[Match, ...]) -> list[Run]:
    """(start, end, kind) of maximal runs of highlighted spans, so the gaps between
    sentences of one copied passage are coloured too. Moved "same" sentences are MOVED."""
    runs: list[Run] = []
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


def edited_words(matches: tuple[Match, ...], *, left: bool) -> list[Run]:
    """(start, end, ("word", kind)) of the edited words shown on one side."""
    runs: list[Run] = []
    for match in matches:
        for edit in match.edits:
            start, end = edit.left if left else edit.right
            if start < end:
                runs.append((start, end, ("word", edit.kind)))
    return runs


def set_apart_runs(paragraphs: Sequence[str], set_apart: Sequence[int]) -> list[Run]:
    """(start, end, SET_APART) of the quotations and bibliography that `set_apart`
    (`PassageOptions.set_apart`) leaves out of copying, in `display_text(paragraphs)`."""
    return span_runs(paragraphs, set_apart_spans(paragraphs, set_apart))


def span_runs(paragraphs: Sequence[str], spans: Sequence[tuple[int, int, int, str]]) -> list[Run]:
    """(start, end, SET_APART) of sorted (paragraph, start, end, kind) spans of text that
    never counts (`core.report.text_kinds.left_out_spans`), in `display_text(paragraphs)`."""
    offsets = np.cumsum([0, *(len(p) + len(PARAGRAPH_SEPARATOR) for p in paragraphs)])
    return [
        (int(offsets[i]) + start, int(offsets[i]) + end, SET_APART) for i, start, end, _ in spans
    ]


def outside(runs: list[Run], apart: list[Run]) -> list[Run]:
    """`runs` less the text of `apart` (sorted, disjoint): pieces of a run outside it."""
    out: list[Run] = []
    ends = [end for _, end, _ in apart]
    for start, end, key in runs:
        k = bisect_right(ends, start)
        while k < len(apart) and apart[k][0] < end:
            if start < apart[k][0]:
                out.append((start, apart[k][0], key))
            start = max(start, apart[k][1])
            k += 1
        if start < end:
            out.append((start, end, key))
    return out


def legend_entry(fmt: QTextCharFormat, label: str) -> str:
    """`label` as rich text in the colours and decoration of `fmt` (label escaped)."""
    styles = []
    if fmt.background().style() != Qt.BrushStyle.NoBrush:
        styles.append(f"background-color: {fmt.background().color().name()}")
    if fmt.foreground().style() != Qt.BrushStyle.NoBrush:
        styles.append(f"color: {fmt.foreground().color().name()}")
    if fmt.fontItalic():
        styles.append("font-style: italic")
    if fmt.fontStrikeOut():
        styles.append("text-decoration: line-through")
    elif fmt.underlineStyle() == QTextCharFormat.UnderlineStyle.DotLine:
        styles.append(f"border-bottom: 1px dotted {fmt.underlineColor().name()}")
    elif fmt.fontUnderline():
        styles.append("text-decoration: underline")
    return f'<span style="{"; ".join(styles)}">&nbsp;{html.escape(label)}&nbsp;</span>'


def utf16_offsets(text: str) -> np.ndarray | None:
    """Cumulative count of astral characters before each offset, or None if there are none.

    Qt positions count UTF-16 code units; characters beyond the BMP (emoji, rare CJK)
    take two, so Python offsets shift after each of them.
    """
    if not text or max(text) < "\U00010000":
        return None
    code_points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    return np.concatenate(([0], np.cumsum(code_points > 0xFFFF)))


def to_utf16(offsets: np.ndarray | None, offset: int) -> int:
    """The Qt position of Python offset `offset`, given the text's `utf16_offsets`."""
    return offset if offsets is None else offset + int(offsets[offset])


def blend(base: QColor, tint: QColor, strength: float) -> QColor:
    """`tint` laid over `base` at `strength` opacity, as an opaque colour."""
    return QColor(
        round(base.red() + (tint.red() - base.red()) * strength),
        round(base.green() + (tint.green() - base.green()) * strength),
        round(base.blue() + (tint.blue() - base.blue()) * strength),
    )
