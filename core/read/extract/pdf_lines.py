"""A page's characters into visual lines, as pdfminer makes lines (`group_objects`), the
parts of one visual line it makes apart joined.

pdfminer builds lines from characters in drawing order. LibreOffice draws a line's
fallback-font runs (Latin in Chinese text, curly quotes) apart from the rest, so one visual
line became several lines, then several boxes in the wrong order: lines touching on one
row are one line here (`visual_lines`). Characters are arrays (one string, a row of numbers
per side of their boxes); pdfminer's rules and floating-point operations, without its
objects.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from pdfminer.layout import LAParams
from pdfminer.utils import INF
from simsift.core.read.extract.pdf_text import CJK_RANGES

# Lines overlapping by more than this share of the lower one's height are on one row.
_ROW_OVERLAP = 0.5
# Parts of one row closer than this share of their height (about a word gap) are one line.
_FRAGMENT_GAP = 0.6

# a line's box and text (pdfminer's spaces in it, without the line break)
Line = tuple[float, float, float, float, str]


def cjk_mask(codes: np.ndarray) -> np.ndarray:
    """Which code points are Chinese, Japanese or Korean (`CJK_RANGES`)."""
    mask = np.zeros(len(codes), dtype=bool)
    for low, high in CJK_RANGES:
        mask |= (codes >= low) & (codes <= high)
    return mask


def visual_lines(text: str, bounds: np.ndarray, laparams: LAParams) -> list[Line]:
    """The visual lines of the characters (`text` one character each, in drawing order;
    `bounds` their x0, y0, x1 and y1 rows), as (x0, y0, x1, y1, text): pdfminer's lines
    (`char_pairs`), those touching on one row merged (`_fragment_groups`, `_one_line`), no
    space guessed beside a CJK character on a line with one (LibreOffice sets Latin letters
    apart from Chinese by a gap, not a space character)."""
    x0, y0, x1, y1 = bounds
    n = len(text)
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), "<u4")
    aligned, spaced, backward = char_pairs(x0, y0, x1, y1, laparams)
    breaks = np.flatnonzero(~aligned) + 1
    starts = np.concatenate(([0], breaks))
    ends = np.concatenate((breaks, [n]))
    # no CJK character below the first CJK range: most pages, told by one look
    cjk = cjk_mask(codes) if codes.max() >= CJK_RANGES[0][0] else None
    # a space before character k + 1 of a line: pdfminer's, unless beside a CJK character
    # on a line with one
    space = spaced & aligned
    if cjk is not None and cjk.any():
        line_cjk = np.add.reduceat(cjk, starts) > 0
        in_cjk_line = np.repeat(line_cjk, ends - starts)[:-1]
        space &= ~(in_cjk_line & (cjk[:-1] | cjk[1:]))
    spaced_text, line_from, line_to = _spaced_text(text, np.flatnonzero(space) + 1, starts, ends)
    back = np.concatenate(([0], np.cumsum(backward)))
    ltr = (back[ends - 1] == back[starts]).tolist()
    starts_list, ends_list = starts.tolist(), ends.tolist()
    (left, bottom), (right, top) = (
        np.minimum.reduceat(bounds[:2], starts, axis=1).tolist(),
        np.maximum.reduceat(bounds[2:], starts, axis=1).tolist(),
    )
    lines = [
        (a, b, c, d, spaced_text[start:end])
        for a, b, c, d, start, end in zip(left, bottom, right, top, line_from, line_to, strict=True)
    ]
    groups = _fragment_groups(lines)
    if all(len(group) == 1 and ltr[group[0]] for group in groups):
        return [lines[group[0]] for group in groups]
    cjk_chars = [False] * n if cjk is None else cjk.tolist()
    chars = (*bounds.tolist(), cjk_chars)
    merged = []
    for group in groups:
        if len(group) == 1 and ltr[group[0]]:
            merged.append(lines[group[0]])
            continue
        indices = [k for f in group for k in range(starts_list[f], ends_list[f])]
        merged.append(_one_line(text, indices, chars, laparams.word_margin))
    return merged


def char_pairs(
    x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray, laparams: LAParams
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each character and the one drawn after it: whether they are on one line, whether
    a space goes between them, whether the second lies left of the first.

    pdfminer puts a character on the line of the one before it when it overlaps that one
    vertically by more than `line_overlap` of the lower one and lies within `char_margin`
    of their widths beside it; a line that ends makes the next character start afresh, so
    its lines are the runs of characters each on one line with the next. A space goes
    before a character further than `word_margin` of its size from the one before
    (`LTTextLineHorizontal.add`). pdfminer's floating-point operations, for the whole page at
    once."""
    width, height = x1 - x0, y1 - y0
    a, b = slice(None, -1), slice(1, None)  # each character, the one after it
    apart = ~((x0[a] <= x1[b]) & (x0[b] <= x1[a]))
    gap = np.where(apart, np.minimum(np.abs(x0[a] - x1[b]), np.abs(x1[a] - x0[b])), 0.0)
    aligned = (
        (y0[b] <= y1[a])
        & (y0[a] <= y1[b])
        & (
            np.minimum(height[a], height[b]) * laparams.line_overlap
            < np.minimum(np.abs(y0[a] - y1[b]), np.abs(y1[a] - y0[b]))
        )
        & (gap < np.maximum(width[a], width[b]) * laparams.char_margin)
    )
    margin = laparams.word_margin
    if margin:
        spaced = x1[a] < x0[b] - margin * np.maximum(width[b], height[b])
    else:
        spaced = np.zeros(len(x0) - 1, dtype=bool)
    return aligned, spaced, x0[b] < x0[a]


def _spaced_text(
    text: str, gaps: np.ndarray, starts: np.ndarray, ends: np.ndarray
) -> tuple[str, list[int], list[int]]:
    """The text with a space before each character of `gaps`, and where each line (its
    characters from `starts` to `ends`) begins and ends in it."""
    if not len(gaps):
        return text, starts.tolist(), ends.tolist()
    cuts = [0, *gaps.tolist(), len(text)]
    spaced = " ".join([text[a:b] for a, b in pairwise(cuts)])
    last = ends - 1
    # a character moves by the spaces before it and before those ahead of it
    line_from = starts + np.searchsorted(gaps, starts, "right")
    line_to = last + np.searchsorted(gaps, last, "right") + 1
    return spaced, line_from.tolist(), line_to.tolist()


def _fragment_groups(lines: list[Line]) -> list[list[int]]:
    """The lines (indices) to merge into one, each group left to right, the groups in
    first-drawn order: lines in rows that overlap vertically (one visual line, or lines of
    side-by-side columns), top to bottom, each row in runs no further apart than a word
    gap (`_touching`: a column gutter is wider, so columns stay apart)."""
    order = sorted(range(len(lines)), key=lambda i: -lines[i][3])
    groups: list[list[int]] = []
    row: list[int] = []
    for i in order:
        if row:
            first, line = lines[row[0]], lines[i]
            # first.voverlap(line) <= _ROW_OVERLAP * min(first.height, line.height)
            if line[1] <= first[3] and first[1] <= line[3]:
                overlap = min(abs(first[1] - line[3]), abs(first[3] - line[1]))
            else:
                overlap = 0
            if overlap <= _ROW_OVERLAP * min(first[3] - first[1], line[3] - line[1]):
                groups.extend(_touching(row, lines) if len(row) > 1 else [row])
                row = []
        row.append(i)
    if row:
        groups.extend(_touching(row, lines) if len(row) > 1 else [row])
    groups.sort(key=min)
    return groups


def _touching(row: list[int], lines: list[Line]) -> list[list[int]]:
    """A row's lines, left to right, in runs no further apart than a word gap."""
    runs = []
    run: list[int] = []
    right = 0.0
    for i in sorted(row, key=lambda i: lines[i][0]):
        line = lines[i]
        if run and line[0] - right > _FRAGMENT_GAP * (line[3] - line[1]):
            runs.append(run)
            run = []
        right = max(right, line[2]) if run else line[2]
        run.append(i)
    if run:
        runs.append(run)
    return runs


def _one_line(text: str, indices: list[int], chars: tuple[list, ...], word_margin: float) -> Line:
    """One line of the characters at `indices`, left to right, one of those printed twice
    over themselves (fake bold), pdfminer's spaces between (`LTTextLineHorizontal.add`),
    none beside a CJK character on a line with one. The twin of `one_line` in
    `pdf_loops.c`."""
    x0, y0, x1, y1, cjk = chars
    kept: list[int] = []
    for k in sorted(indices, key=lambda k: x0[k]):
        if kept:
            j = kept[-1]
            # overprints(j, k)
            if (
                text[j] == text[k]
                and abs(x0[j] - x0[k]) < 0.5 * (x1[j] - x0[j])
                and y0[k] <= y1[j]
                and y0[j] <= y1[k]
                and min(abs(y0[j] - y1[k]), abs(y1[j] - y0[k])) > 0
            ):
                continue
        kept.append(k)
    any_cjk = any(cjk[k] for k in kept)
    pieces = []
    right = INF  # pdfminer's 2**31 - 1: a space before a first character beyond it
    for n, k in enumerate(kept):
        if word_margin:
            margin = word_margin * max(x1[k] - x0[k], y1[k] - y0[k])
            beside_cjk = any_cjk and ((n > 0 and cjk[kept[n - 1]]) or cjk[k])
            if right < x0[k] - margin and not beside_cjk:
                pieces.append(" ")
        right = x1[k]
        pieces.append(text[k])
    # the box of an `LTExpandableContainer`: from (INF, INF, -INF, -INF) on
    return (
        min(INF, *(x0[k] for k in kept)),
        min(INF, *(y0[k] for k in kept)),
        max(-INF, *(x1[k] for k in kept)),
        max(-INF, *(y1[k] for k in kept)),
        "".join(pieces),
    )
