"""PDF text layout shared by the PDF readers: characters placed on a page become visual
lines, text boxes in pdfminer's reading order, then paragraphs.

The readers (`pdf` with pdfminer.six, `pdfium` with PDFium) differ in how they get the
characters out of the file; from characters on, both go through this module, so the same
page gives the same paragraphs whichever reader drew its characters. pdfminer's characters
are its objects (`VisualLinePage`, `box_texts`); PDFium's are arrays (`page_texts`): the
same steps, rules and floating-point operations, without an object per character, line or
box. Where pdfminer leaves the reading order to memory addresses (equal distances between
text boxes), both take the boxes' order (`group_merges`).
"""

from __future__ import annotations

import functools
import heapq
import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, pairwise

import numpy as np
from pdfminer.layout import (
    LAParams,
    LTAnno,
    LTChar,
    LTComponent,
    LTPage,
    LTTextBox,
    LTTextBoxVertical,
    LTTextGroup,
    LTTextGroupLRTB,
    LTTextGroupTBRL,
    LTTextLine,
    LTTextLineHorizontal,
)
from pdfminer.utils import INF
from simsift.core.document import ExtractionError
from simsift.core.read.extract.paragraphs import clean_paragraph

try:  # the grouping in C (setup.py builds it where a compiler is); else the Python below
    from simsift.core.read.extract import pdf_loops
except ImportError:
    pdf_loops = None

_CJK = r"\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
# A hyphen between letters at a line end, lowercase after: "exam-\nple", "quoted-\nprintable".
_HYPHEN_BREAK = re.compile(r"([^\W\d_]+)-\n([a-z][^\W\d_]*)")
_WORD = re.compile(r"[^\W\d_]+")
_CJK_CHAR = re.compile(f"[{_CJK}]")
# Lines of Chinese text wrap mid-sentence, also beside a Latin word ("使用\nGSSAPI"); a space
# in the text there is drawn as a character, so the break itself is no space.
_CJK_BREAK = re.compile(rf"(?<=[{_CJK}])\n|\n(?=[{_CJK}])")
# a line this much taller than the one before (or after) is set in another font size
_HEADING_SIZE_RATIO = 1.15
# Lines overlapping by more than this share of the lower one's height are on one row.
_ROW_OVERLAP = 0.5
# Parts of one row closer than this share of their height (about a word gap) are one line.
_FRAGMENT_GAP = 0.6
_PAGE_NUMBER = re.compile(r"^\s*[-–—]?\s*\d{1,4}\s*[-–—]?\s*$")
# pdfminer writes "(cid:N)" for a glyph whose font does not say which character it is
# (no ToUnicode map); such text is glyph numbers, and different texts would look alike.
_CID = re.compile(r"\(cid:\d+\)")
_MAX_CID_SHARE = 0.2
_NO_UNICODE = "the PDF's fonts do not say which letters they show (no ToUnicode map); no text"
# the side of the squares pdfminer's `Plane` files boxes under (its `gridsize`)
_GRID = 50
# pdfminer's tree of groups holds every pair of boxes (quadratic memory, worse time): a page
# of more boxes is one group, its boxes in the order pdfminer gives a group's members (as
# `pdf_loops.MAX_GROUPED_BOXES`)
_MAX_GROUPED_BOXES = 1000
# cells of the line-by-line matrices `_line_boxes` builds at once
_MATRIX_CELLS = 1 << 20

Rect = tuple[float, float, float, float]


def joined_paragraphs(boxes: list[str]) -> list[str]:
    """One paragraph per text box, its lines joined (see `join_lines`)."""
    words: frozenset[str] = frozenset()
    if any("-\n" in box for box in boxes):  # the words are asked about at hyphen breaks only
        words = frozenset(word.casefold() for box in boxes for word in _WORD.findall(box))
    return [join_lines(box, words) for box in boxes]


def join_lines(box_text: str, words: frozenset[str] = frozenset()) -> str:
    """One paragraph from a text box's lines: undo CJK line wraps and hyphenation.

    A line-end hyphen is dropped only when the joined word is among the document's `words`.
    Word processors do not hyphenate by default, so there the hyphen belongs to the word
    ("quoted-printable"); TeX does, and a word it breaks usually occurs whole elsewhere.
    """
    text = box_text.strip()
    if "\n" not in text:
        return text
    if "-\n" in text:
        text = _HYPHEN_BREAK.sub(lambda m: unhyphenated(m[1], m[2], words), text)
    if _CJK_CHAR.search(text):
        text = _CJK_BREAK.sub("", text)
    return text.replace("\n", " ")


def unhyphenated(head: str, tail: str, words: frozenset[str]) -> str:
    whole = head + tail
    return whole if whole.casefold() in words else f"{head}-{tail}"


def box_texts(page: LTPage) -> Iterator[str]:
    """The page's text boxes, split where the font size changes, page numbers left out."""
    for element in page:
        if isinstance(element, LTTextBox):
            for lines in runs_of_one_size(element):
                text = "".join(line_text(line) for line in lines).strip()
                if text and not _PAGE_NUMBER.match(text):
                    yield text


def line_text(line: LTTextLine) -> str:
    """The line's text, without the spaces pdfminer guessed from gaps beside CJK characters:
    LibreOffice sets Latin letters apart from Chinese by a gap, not a space character."""
    objs = list(line)
    text = "".join([obj.get_text() for obj in objs])
    if not _CJK_CHAR.search(text):
        return text
    return "".join(
        obj.get_text()
        for i, obj in enumerate(objs)
        if not (isinstance(obj, LTAnno) and obj.get_text() == " " and beside_cjk(objs, i))
    )


def beside_cjk(objs: list[LTComponent], i: int) -> bool:
    return any(_CJK_CHAR.match(objs[j].get_text()) for j in (i - 1, i + 1) if 0 <= j < len(objs))


class VisualLinePage(LTPage):
    """A page whose text lines are whole visual lines.

    pdfminer builds lines from characters in drawing order. LibreOffice draws a line's
    fallback-font runs (Latin in Chinese text, curly quotes) apart from the rest, so one
    visual line became several lines, then several boxes in the wrong order.

    Its lines (`horizontal_lines`) and the tree of groups that orders its text boxes
    (`textbox_groups`) are pdfminer's, built faster.
    """

    def group_objects(
        self, laparams: LAParams, objs: Iterable[LTComponent]
    ) -> Iterator[LTTextLine]:
        if laparams.detect_vertical:
            lines = list(super().group_objects(laparams, objs))
        else:
            lines = list(horizontal_lines(list(objs), laparams))
        return iter(merge_line_fragments(lines, laparams.word_margin))

    def group_textboxes(self, laparams: LAParams, boxes: Sequence[LTTextBox]) -> list[LTTextGroup]:
        return textbox_groups(boxes, self.bbox)


def textbox_groups(boxes: Sequence[LTTextBox], page: Rect) -> list[LTTextGroup]:
    """pdfminer's tree of text groups (`LTLayoutContainer.group_textboxes`), built faster
    (`group_merges`), as pdfminer's group objects; one group of them all where there are
    too many to group."""
    items: list[LTComponent] = list(boxes)
    if len(items) < 2:
        return items  # type: ignore[return-value]
    turned = [isinstance(item, LTTextBoxVertical) for item in items]
    if len(items) > _MAX_GROUPED_BOXES:
        return [LTTextGroupTBRL(items) if any(turned) else LTTextGroupLRTB(items)]
    for i, j in group_merges([(b.x0, b.y0, b.x1, b.y1) for b in items], page):
        pair = [items[i], items[j]]
        if turned[i] or turned[j]:
            items.append(LTTextGroupTBRL(pair))
            turned.append(True)
        else:
            items.append(LTTextGroupLRTB(pair))
            turned.append(False)
    return [items[-1]]  # type: ignore[list-item]


def group_merges(boxes: list[Rect], page: Rect) -> list[tuple[int, int]]:
    """`_group_merges`, in C where it is built and the page's numbers are finite and not
    huge (about 20x faster; the same floating-point operations in the same order), of at
    most `_MAX_GROUPED_BOXES` boxes."""
    if len(boxes) > _MAX_GROUPED_BOXES:
        raise ValueError(f"{len(boxes)} boxes: too many to group")
    if pdf_loops is None or len(boxes) < 2:
        return _group_merges(boxes, page)
    merges = np.empty(2 * len(boxes) - 2, np.int32)
    left, bottom, right, top = page
    if not pdf_loops.group_merges(np.array(boxes, np.float64), left, bottom, right, top, merges):
        return _group_merges(boxes, page)
    pairs = merges.tolist()
    return list(zip(pairs[0::2], pairs[1::2], strict=True))


def _group_merges(boxes: list[Rect], page: Rect) -> list[tuple[int, int]]:
    """The pairs pdfminer's `group_textboxes` makes groups of, in the order it makes them:
    boxes are items 0 to n - 1, the group made k-th is item n + k.

    The same steps: the two nearest items (nearest: the least area their common rectangle
    adds to theirs) become a group, first the pairs with nothing else between them; the pairs
    wait in a heap ordered as pdfminer's. pdfminer breaks ties between equal distances by the
    items' memory addresses, so that the tree of such a page may change from one run to the
    next; here by the items' order (boxes in reading order of lines, then groups as made):
    the same page always gives the same tree. pdfminer files every item under each square of
    its `Plane` the item covers, to find items between two; here the few items on the page
    are looked through, a square shared with the pair's rectangle still required (items off
    the page are never between). Distances are computed inline, from tuples.
    """
    n = len(boxes)
    spots = [spot(box, page) for box in boxes]
    # pdfminer's heap, as sorted streams of pairs: the pairs of boxes (read from `at` on),
    # then those of each group made (read from the end, the group the stream's owner);
    # the heap holds the first live pair of each stream (and the pairs
    # found with an item between them, checked), so that pairs with a grouped item are
    # passed over in their stream without going through the heap
    first_area, first_i, first_j = _first_pairs(boxes)
    group_streams: dict[int, list[tuple[float, int]]] = {}
    heap: list[tuple[bool, float, int, int, int]] = []
    placed = list(range(n))  # on the plane, in the order put there
    rects = [s[:5] for s in spots]  # x0, y0, x1, y1, area of every item
    grouped = bytearray(2 * n)
    merges: list[tuple[int, int]] = []
    pop, push = heapq.heappop, heapq.heappush
    owner, at = 0, 0  # the stream whose next live pair is due in the heap (0: the boxes')
    while len(placed) > 1:  # then the pairs left hold a grouped item each
        if owner == 0:
            for next_at in range(at, len(first_i)):
                i, j = first_i[next_at], first_j[next_at]
                if not (grouped[i] or grouped[j]):
                    push(heap, (False, first_area[next_at], i, j, 0))
                    at = next_at + 1
                    break
            else:
                at = len(first_i)
        elif owner > 0 and not grouped[owner]:  # a grouped owner's pairs are all dead
            stream = group_streams[owner]
            while stream:
                area, other = stream.pop()
                if not grouped[other]:
                    push(heap, (False, area, owner, other, owner))
                    break
        checked, area, i, j, owner = pop(heap)
        if grouped[i] or grouped[j]:
            continue
        if not checked and any_between(i, j, placed, spots, page):
            push(heap, (True, area, i, j, -1))
            continue
        merges.append((i, j))
        grouped[i] = grouped[j] = 1
        placed.remove(i)
        placed.remove(j)
        k = n + len(merges) - 1
        a, b = spots[i], spots[j]
        group = spot(
            (
                a[0] if a[0] < b[0] else b[0],
                a[1] if a[1] < b[1] else b[1],
                a[2] if a[2] > b[2] else b[2],
                a[3] if a[3] > b[3] else b[3],
            ),
            page,
        )
        spots.append(group)
        rects.append(group[:5])
        if placed:
            stream = _group_pairs(group, placed, rects)
            area, other = stream.pop()
            push(heap, (False, area, k, other, k))
            group_streams[k] = stream
        placed.append(k)
    return merges


def _group_pairs(group: Spot, placed: list[int], rects: list[tuple]) -> list[tuple[float, int]]:
    """(`added_area`, other) of a new group and every item on the plane, from the last
    to the first the heap pops, `added_area` written out (the same floating-point
    operations)."""
    x0, y0, x1, y1, size = group[:5]
    stream = [
        (
            ((x1 if x1 > c2 else c2) - (x0 if x0 < c0 else c0))
            * ((y1 if y1 > c3 else c3) - (y0 if y0 < c1 else c1))
            - size
            - c4,
            other,
        )
        for other, (c0, c1, c2, c3, c4) in zip(placed, map(rects.__getitem__, placed), strict=True)
    ]
    stream.sort()  # as pdfminer's heap pops them (a heap would differ at a NaN area)
    stream.reverse()  # read from the end
    return stream


def _first_pairs(boxes: list[Rect]) -> tuple[list[float], list[int], list[int]]:
    """Every pair of boxes (i < j), sorted as the heap pops them: by `added_area` (computed
    for all pairs at once, the same floating-point operations), then by i and j; as the
    lists of their areas, i and j."""
    n = len(boxes)
    if n < 2:
        return [], [], []
    x0, y0, x1, y1 = np.array(boxes).T
    size = (x1 - x0) * (y1 - y0)
    added = (
        (np.maximum(x1[:, None], x1) - np.minimum(x0[:, None], x0))
        * (np.maximum(y1[:, None], y1) - np.minimum(y0[:, None], y0))
        - size[:, None]
        - size
    )
    i, j = _pairs_of(n)
    added = added[i, j]
    order = np.argsort(added, kind="stable")  # pairs by i, then j, where areas are equal
    return added[order].tolist(), i[order].tolist(), j[order].tolist()


@functools.lru_cache(maxsize=256)
def _pairs_of(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(i, j) of every pair i < j of n items, by i, then j."""
    return np.triu_indices(n, 1)


# an item's x0, y0, x1, y1, width * height and squares of the plane (x from, x to, y from, y to)
Spot = tuple[float, float, float, float, float, int, int, int, int]


def spot(box: Rect, page: Rect) -> Spot:
    """The box, its area and its squares of the plane (`plane_cells` written out: a call
    less for each item)."""
    x0, y0, x1, y1 = box
    left, bottom, right, top = page
    if x1 <= left or right <= x0 or y1 <= bottom or top <= y0:
        return (x0, y0, x1, y1, (x1 - x0) * (y1 - y0), 0, 0, 0, 0)
    return (
        x0,
        y0,
        x1,
        y1,
        (x1 - x0) * (y1 - y0),
        int(x0 if x0 > left else left) // _GRID,
        int((x1 if x1 < right else right) + _GRID) // _GRID,
        int(y0 if y0 > bottom else bottom) // _GRID,
        int((y1 if y1 < top else top) + _GRID) // _GRID,
    )


def added_area(a: Spot, b: Spot) -> float:
    """The area the rectangle around a and b adds to theirs, may be < 0: pdfminer's `dist`
    (the same floating-point operations in the same order, min and max written out)."""
    x0 = a[0] if a[0] < b[0] else b[0]
    y0 = a[1] if a[1] < b[1] else b[1]
    x1 = a[2] if a[2] > b[2] else b[2]
    y1 = a[3] if a[3] > b[3] else b[3]
    return (x1 - x0) * (y1 - y0) - a[4] - b[4]


def plane_cells(box: Rect, page: Rect) -> tuple[int, int, int, int]:
    """The squares of pdfminer's `Plane` a box covers, [x from, x to) by [y from, y to): the
    part of the box on the page, none when it is off the page."""
    x0, y0, x1, y1 = box
    if x1 <= page[0] or page[2] <= x0 or y1 <= page[1] or page[3] <= y0:
        return (0, 0, 0, 0)
    x0, y0 = max(page[0], x0), max(page[1], y0)
    x1, y1 = min(page[2], x1), min(page[3], y1)
    return (int(x0) // _GRID, int(x1 + _GRID) // _GRID, int(y0) // _GRID, int(y1 + _GRID) // _GRID)


def any_between(i: int, j: int, placed: list[int], spots: list[Spot], page: Rect) -> bool:
    """Whether an item on the plane other than i and j overlaps the rectangle around both
    in a square of the plane they share (pdfminer's `isany`; `plane_cells` written out)."""
    a, b = spots[i], spots[j]
    x0 = a[0] if a[0] < b[0] else b[0]
    y0 = a[1] if a[1] < b[1] else b[1]
    x1 = a[2] if a[2] > b[2] else b[2]
    y1 = a[3] if a[3] > b[3] else b[3]
    left, bottom, right, top = page
    if x1 <= left or right <= x0 or y1 <= bottom or top <= y0:
        return False  # no square of the plane: nothing found there
    from_x = int(max(left, x0)) // _GRID
    to_x = int(min(right, x1) + _GRID) // _GRID
    from_y = int(max(bottom, y0)) // _GRID
    to_y = int(min(top, y1) + _GRID) // _GRID
    for k in placed:
        c = spots[k]
        # most items lie apart from the rectangle: that is asked first
        if c[2] <= x0 or x1 <= c[0] or c[3] <= y0 or y1 <= c[1] or k in (i, j):
            continue
        if (c[5] if c[5] > from_x else from_x) < (c[6] if c[6] < to_x else to_x) and (
            c[7] if c[7] > from_y else from_y
        ) < (c[8] if c[8] < to_y else to_y):
            return True
    return False


class VisualLine(LTTextLineHorizontal):
    """A horizontal line of characters and pdfminer's annotations (spaces, the line break)
    alone, so its text is theirs joined, without a check of each item's type, and laying it
    out adds the line break without asking each character to lay itself out."""

    left_to_right: bool | None = None  # whether its characters come left to right, if known

    def get_text(self) -> str:
        return "".join([obj._text for obj in self._objs])  # type: ignore[attr-defined]

    def analyze(self, laparams: LAParams) -> None:
        self._objs.append(LTAnno("\n"))


def horizontal_lines(chars: list[LTChar], laparams: LAParams) -> Iterator[LTTextLine]:
    """pdfminer's lines of characters in drawing order when it does not look for vertical
    writing (`LTLayoutContainer.group_objects` without `detect_vertical`), the same lines
    built faster (see `char_pairs`)."""
    if not chars:
        return
    x0, y0, x1, y1 = box_columns([char.bbox for char in chars])
    aligned, spaced, backward = char_pairs(x0, y0, x1, y1, laparams)
    margin = laparams.word_margin
    spaced_list = spaced.tolist()
    backward_list = np.concatenate(([0], np.cumsum(backward))).tolist()
    bounds = (x0, y0, x1, y1)
    breaks = np.flatnonzero(~aligned) + 1
    starts = [0, *breaks.tolist()]
    ends = [*breaks.tolist(), len(chars)]
    for start, end in zip(starts, ends, strict=True):
        yield line_of(chars, start, end, bounds, spaced_list, backward_list, margin)


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


def box_columns(boxes: list[Rect]) -> np.ndarray:
    """The boxes' x0, y0, x1 and y1 as four rows of an array (built from one flat run of
    numbers: faster than from a list of tuples)."""
    flat = np.fromiter(chain.from_iterable(boxes), np.float64, 4 * len(boxes))
    return flat.reshape(-1, 4).T


def line_of(
    chars: list[LTChar],
    start: int,
    end: int,
    bounds: tuple[np.ndarray, ...],
    spaced: list[bool],
    backward: list[int],
    word_margin: float,
) -> LTTextLineHorizontal:
    """A line of `chars[start:end]`, a space between two further apart than `word_margin`
    of the second's size (`spaced[k]` before character k + 1, as `LTTextLineHorizontal.add`
    puts it), its box (`bounds`: x0, y0, x1, y1 of every character) set once; drawn left
    to right when no character but the first lies left of the one before (`backward`)."""
    line = VisualLine(word_margin)
    line.left_to_right = backward[end - 1] == backward[start]
    spaces = [k + 1 for k in range(start, end - 1) if spaced[k]] if word_margin else []
    if spaces:
        objs = line._objs
        for left, right in pairwise([start, *spaces, end]):
            if left > start:
                objs.append(LTAnno(" "))
            objs.extend(chars[left:right])
    else:
        line._objs = chars[start:end]
    x0, y0, x1, y1 = bounds
    line._x1 = float(x1[end - 1])
    line.set_bbox(
        (
            float(x0[start:end].min()),
            float(y0[start:end].min()),
            float(x1[start:end].max()),
            float(y1[start:end].max()),
        )
    )
    return line


def merge_line_fragments(lines: list[LTTextLine], word_margin: float) -> list[LTTextLine]:
    """`lines` with the horizontal ones that touch on one row merged, in first-drawn order."""
    drawn = {id(line): i for i, line in enumerate(lines)}
    groups = [[line] for line in lines if not isinstance(line, LTTextLineHorizontal)]
    for row in rows(line for line in lines if isinstance(line, LTTextLineHorizontal)):
        groups.extend(touching_runs(row))
    groups.sort(key=lambda group: min(drawn[id(line)] for line in group))
    return [one_line(group, word_margin) for group in groups]


def rows(lines: Iterable[LTTextLine]) -> Iterator[list[LTTextLine]]:
    """Lines in rows that overlap vertically (one visual line, or lines of side-by-side
    columns), top to bottom."""
    row: list[LTTextLine] = []
    for line in sorted(lines, key=lambda line: -line.y1):
        if row and row[0].voverlap(line) <= _ROW_OVERLAP * min(row[0].height, line.height):
            yield row
            row = []
        row.append(line)
    if row:
        yield row


def touching_runs(row: list[LTTextLine]) -> Iterator[list[LTTextLine]]:
    """A row's lines, left to right, in runs no further apart than a word gap: a column
    gutter is wider, so columns stay apart."""
    run: list[LTTextLine] = []
    right = 0.0
    for line in sorted(row, key=lambda line: line.x0):
        if run and line.x0 - right > _FRAGMENT_GAP * line.height:
            yield run
            run = []
        right = max(right, line.x1) if run else line.x1
        run.append(line)
    if run:
        yield run


def one_line(fragments: list[LTTextLine], word_margin: float) -> LTTextLine:
    """One line of the fragments' characters, left to right; a character printed twice over
    itself (fake bold) once. A line drawn left to right is kept as it is."""
    if len(fragments) == 1 and drawn_left_to_right(fragments[0]):
        return fragments[0]
    line = VisualLine(word_margin)
    chars = sorted((c for f in fragments for c in f if isinstance(c, LTChar)), key=lambda c: c.x0)
    last: LTChar | None = None
    for char in chars:
        if last is None or not overprints(last, char):
            line.add(char)
            last = char
    return line


def drawn_left_to_right(line: LTTextLine) -> bool:
    """Whether the line's characters come left to right (LibreOffice may draw a space first)."""
    if isinstance(line, VisualLine) and line.left_to_right is not None:
        return line.left_to_right
    chars = [obj for obj in line if isinstance(obj, LTChar)]
    return all(a.x0 <= b.x0 for a, b in pairwise(chars))


def overprints(a: LTChar, b: LTChar) -> bool:
    return a.get_text() == b.get_text() and abs(a.x0 - b.x0) < 0.5 * a.width and a.voverlap(b) > 0


def runs_of_one_size(box: LTTextBox) -> Iterator[list[LTTextLine]]:
    """The box's lines in runs of about the same height."""
    run: list[LTTextLine] = []
    for line in box:
        if not isinstance(line, LTTextLine):
            continue
        if run and not _same_size(run[-1].height, line.height):
            yield run
            run = []
        run.append(line)
    if run:
        yield run


def _same_size(a: float, b: float) -> bool:
    return max(a, b) <= _HEADING_SIZE_RATIO * min(a, b)


def without_glyph_numbers(paragraphs: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """Paragraphs without "(cid:N)" glyph numbers, and a warning when some were dropped.

    Raises ExtractionError when they are a large part of the text.
    """
    if not any("(cid:" in p for p in paragraphs):  # nearly every file: a look, no search
        return paragraphs, ()
    glyphs = sum(len(_CID.findall(p)) for p in paragraphs)
    if not glyphs:
        return paragraphs, ()
    letters = sum(len(_CID.sub("", p).replace(" ", "")) for p in paragraphs)
    if glyphs > _MAX_CID_SHARE * (glyphs + letters):
        raise ExtractionError(_NO_UNICODE)
    warning = f"{glyphs:,} characters could not be read from the PDF's fonts (left out)"
    return [_CID.sub("", p) for p in paragraphs], (warning,)


def analyzed_page(
    chars: Iterable[LTComponent], bbox: tuple[float, float, float, float], rotate: float = 0
) -> LTPage:
    """A page of `chars` (and other drawn items) after layout analysis, on whole visual lines."""
    page = VisualLinePage(1, bbox, rotate)
    page.extend(chars)
    page.analyze(LAParams())
    return page


def hidden_texts(pages: Iterable[LTPage]) -> Iterator[str]:
    """One joined, cleaned piece of text per text box of pages of hidden characters."""
    texts = (clean_paragraph(join_lines(t)) for page in pages for t in box_texts(page))
    return (text for text in texts if text)


def visible_area(
    media: tuple[float, float, float, float], crop: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """The part of the media box inside the crop box; the media box when they do not meet
    (a crop box off the page is ignored)."""
    shown = (
        max(media[0], crop[0]),
        max(media[1], crop[1]),
        min(media[2], crop[2]),
        min(media[3], crop[3]),
    )
    if shown[0] >= shown[2] or shown[1] >= shown[3]:
        return media
    return shown


# Pages of characters given as arrays (the PDFium reader's): the steps of `analyzed_page`
# and `box_texts`, pdfminer's rules and floating-point operations, without its objects.

_LAPARAMS = LAParams()
# the CJK ranges of `_CJK`, as code points
_CJK_RANGES = ((0x3000, 0x303F), (0x3400, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


def page_texts(text: str, bounds: np.ndarray, page: Rect) -> list[str]:
    """`box_texts(analyzed_page(chars, page))` for characters given as `text` (one character
    each, in drawing order) and `bounds` (their x0, y0, x1 and y1 rows): the same text boxes
    in the same order, built on arrays; in C where it is built and the page's numbers are
    finite and not huge (`_page_texts` else)."""
    if not text:
        return []
    if pdf_loops is not None:
        p = _LAPARAMS
        rows = np.ascontiguousarray(bounds, dtype=np.float64)
        params = (p.line_overlap, p.char_margin, p.word_margin, p.line_margin, p.boxes_flow)
        raw = pdf_loops.page_texts(text, rows, *page, *params)
        if raw is not None:
            texts = [box.strip() for box in raw]
            return [box for box in texts if box and not _PAGE_NUMBER.match(box)]
    return _page_texts(text, bounds, page)


def _page_texts(text: str, bounds: np.ndarray, page: Rect) -> list[str]:
    """`page_texts` in Python: the steps of `analyzed_page` and `box_texts` on arrays."""
    lines = visual_lines(text, bounds, _LAPARAMS)
    lines = [line for line in lines if not _empty_line(line)]
    if not lines:
        return []
    columns = np.array([line[:4] for line in lines]).T
    boxes, rects = [], []
    for box in line_boxes(columns, page, _LAPARAMS.line_margin):
        rect = box_rect(box, lines)
        if not _empty_box(rect):
            boxes.append(box)
            rects.append(rect)
    texts = []
    for members in boxes_in_order(boxes, rects, page, _LAPARAMS.boxes_flow):
        ordered = sorted(members, key=lambda i: -lines[i][3])  # LTTextBoxHorizontal.analyze
        run: list[Line] = []
        for i in ordered:
            line = lines[i]
            if run and not _same_size(run[-1][3] - run[-1][1], line[3] - line[1]):
                texts.extend(_box_text(run))
                run = []
            run.append(line)
        texts.extend(_box_text(run))
    return texts


def hidden_page_texts(text: str, bounds: np.ndarray, page: Rect) -> list[str]:
    """`hidden_texts` of a page of characters given as `page_texts` takes them."""
    texts = (clean_paragraph(join_lines(t)) for t in page_texts(text, bounds, page))
    return [text for text in texts if text]


# a line's box and text (pdfminer's spaces in it, without the line break)
Line = tuple[float, float, float, float, str]


def _box_text(run: list[Line]) -> list[str]:
    text = "".join([line[4] + "\n" for line in run]).strip()
    return [text] if text and not _PAGE_NUMBER.match(text) else []


def _empty_box(rect: Rect) -> bool:
    """`LTComponent.is_empty`."""
    return rect[2] - rect[0] <= 0 or rect[3] - rect[1] <= 0


def _empty_line(line: Line) -> bool:
    """`LTTextLine.is_empty`."""
    return line[2] - line[0] <= 0 or line[3] - line[1] <= 0 or line[4].isspace()


def cjk_mask(codes: np.ndarray) -> np.ndarray:
    """Which code points `_CJK_CHAR` matches."""
    mask = np.zeros(len(codes), dtype=bool)
    for low, high in _CJK_RANGES:
        mask |= (codes >= low) & (codes <= high)
    return mask


def visual_lines(text: str, bounds: np.ndarray, laparams: LAParams) -> list[Line]:
    """The lines `VisualLinePage.group_objects` makes of the characters, as (x0, y0, x1, y1,
    text): pdfminer's lines (`char_pairs`), those touching on one row merged
    (`merge_line_fragments`), the text as `line_text` gives it (no space guessed beside a
    CJK character)."""
    x0, y0, x1, y1 = bounds
    n = len(text)
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), "<u4")
    aligned, spaced, backward = char_pairs(x0, y0, x1, y1, laparams)
    breaks = np.flatnonzero(~aligned) + 1
    starts = np.concatenate(([0], breaks))
    ends = np.concatenate((breaks, [n]))
    # no CJK character below the first CJK range: most pages, told by one look
    cjk = cjk_mask(codes) if codes.max() >= _CJK_RANGES[0][0] else None
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
    chars = None
    finite = bool(np.isfinite(bounds).all())
    cjk_chars = np.zeros(n, dtype=bool) if cjk is None else cjk
    merged = []
    for group in groups:
        if len(group) == 1 and ltr[group[0]]:
            merged.append(lines[group[0]])
            continue
        indices = [k for f in group for k in range(starts_list[f], ends_list[f])]
        line = None
        if finite:
            line = _one_line_at_once(text, indices, bounds, cjk_chars, laparams.word_margin)
        if line is None:
            if chars is None:
                chars = (*bounds.tolist(), cjk_chars.tolist())
            line = _one_line(text, indices, chars, laparams.word_margin)
        merged.append(line)
    return merged


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
    """`merge_line_fragments`: the lines (indices) to merge, each group left to right, the
    groups in first-drawn order."""
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
    """`touching_runs` of a row of lines."""
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
    """`one_line`: the characters left to right, one of those printed twice over themselves,
    pdfminer's spaces between (`LTTextLineHorizontal.add`), none beside a CJK character on a
    line with one (`line_text`)."""
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


def _one_line_at_once(
    text: str, indices: list[int], bounds: np.ndarray, cjk: np.ndarray, word_margin: float
) -> Line | None:
    """`_one_line` on arrays, for characters of finite boxes (where numpy's sort, min and
    max give what Python's do) of which none is printed twice over itself; None when one is
    (the characters kept then depend on those dropped before: `_one_line` tells them)."""
    x0, y0, x1, y1 = bounds
    at = np.array(indices)
    at = at[np.argsort(x0[at], kind="stable")]  # `sorted` by x0 keeps ties in their order
    a0, b0, a1, b1 = x0[at], y0[at], x1[at], y1[at]
    j, k = slice(None, -1), slice(1, None)  # each character, the one right of it
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), "<u4")[at]
    overprints = (
        (codes[j] == codes[k])
        & (np.abs(a0[j] - a0[k]) < 0.5 * (a1[j] - a0[j]))
        & (b0[k] <= b1[j])
        & (b0[j] <= b1[k])
        & (np.minimum(np.abs(b0[j] - b1[k]), np.abs(b1[j] - b0[k])) > 0)
    )
    if overprints.any():
        return None
    if word_margin:
        margin = word_margin * np.maximum(a1 - a0, b1 - b0)
        # a space before each character but the first, which has one beyond pdfminer's INF
        spaced = np.concatenate(([INF], a1[j])) < a0 - margin
        kept_cjk = cjk[at]
        if kept_cjk.any():
            spaced &= ~(kept_cjk | np.concatenate(([False], kept_cjk[j])))
    else:
        spaced = np.zeros(len(at), dtype=bool)
    pieces = [text[i] for i in at.tolist()]
    for i in np.flatnonzero(spaced).tolist():
        pieces[i] = " " + pieces[i]
    return (
        float(min(INF, a0.min())),
        float(min(INF, b0.min())),
        float(max(-INF, a1.max())),
        float(max(-INF, b1.max())),
        "".join(pieces),
    )


def line_boxes(lines: np.ndarray, page: Rect, line_margin: float) -> list[list[int]]:
    """`_line_boxes`, in C where it is built and the page's numbers are finite and not
    huge (the same numbers and order)."""
    n = lines.shape[1]
    if pdf_loops is None or n == 0:
        return _line_boxes(lines, page, line_margin)
    members = np.empty(n, np.int32)
    starts = np.empty(n + 1, np.int32)
    rows = np.ascontiguousarray(lines, dtype=np.float64)
    count = pdf_loops.line_boxes(rows, *page, line_margin, members, starts)
    if not count:
        return _line_boxes(lines, page, line_margin)
    members, starts = members.tolist(), starts[: count + 1].tolist()
    return [members[a:b] for a, b in pairwise(starts)]


def _line_boxes(lines: np.ndarray, page: Rect, line_margin: float) -> list[list[int]]:
    """`LTLayoutContainer.group_textlines`: the text boxes of the lines (x0, y0, x1, y1
    rows), each a list of line indices in pdfminer's order, the boxes in its order (empty
    ones still in).

    A line's neighbours are the lines of about its height, aligned with it left, right or
    in the middle, within `line_margin` of its height above or below, that pdfminer's
    `Plane.find` finds (in a square of the plane the query covers), in the order it finds
    them: by the first such square (row by row), then in the order the lines were placed.

    A line is always its own neighbour, where it is on the plane or not. pdfminer's
    `find_neighbors` finds a line of no width (or one off the plane) not even itself: one
    found earlier as another's neighbour was then in two boxes, its first box left behind."""
    x0, y0, x1, y1 = lines
    n = len(x0)
    height = y1 - y0
    d = line_margin * height
    below, above = y0 - d, y1 + d
    (fx, tx, fy, ty), (qfx, qtx, qfy, qty) = _line_cells(lines, below, above, page)
    neighbours: list[list[int]] = [[] for _ in range(n)]
    step = max(1, _MATRIX_CELLS // n)  # query lines at a time: memory linear in n
    for start in range(0, n, step):
        col = slice(start, start + step), None  # the query lines: rows of the matrices below
        first_x = np.maximum(qfx[col], fx)
        first_y = np.maximum(qfy[col], fy)
        tolerance = d[col]
        found = (
            (first_x < np.minimum(qtx[col], tx))
            & (first_y < np.minimum(qty[col], ty))
            & ~((x1 <= x0[col]) | (x1[col] <= x0) | (y1 <= below[col]) | (above[col] <= y0))
            & (np.abs(height - height[col]) <= tolerance)
            & (
                (np.abs(x0 - x0[col]) <= tolerance)
                | (np.abs(x1 - x1[col]) <= tolerance)
                | (np.abs((x0 + x1) / 2 - ((x0 + x1) / 2)[col]) <= tolerance)
            )
        )
        own = np.arange(found.shape[0])
        found[own, own + start] = True
        rows, cols = np.nonzero(found)
        order = np.lexsort((cols, first_x[rows, cols], first_y[rows, cols], rows))
        for i, j in zip((rows[order] + start).tolist(), cols[order].tolist(), strict=True):
            neighbours[i].append(j)
    boxes: dict[int, list[int]] = {}
    for i in range(n):
        members = [i]
        for j in neighbours[i]:
            members.append(j)
            if j in boxes:
                members.extend(boxes.pop(j))
        box = list(dict.fromkeys(members))
        for j in box:
            boxes[j] = box
    done: set[int] = set()
    result = []
    for i in range(n):
        box = boxes.get(i)
        if box is None or id(box) in done:
            continue
        done.add(id(box))
        result.append(box)
    return result


def box_rect(box: list[int], lines: list[Line]) -> Rect:
    """The box of a text box of `lines`: an `LTExpandableContainer`'s, from (INF, INF,
    -INF, -INF) on."""
    x0 = y0 = INF
    x1 = y1 = -INF
    for i in box:  # min(INF, ...) and max(-INF, ...) written out: a new value replaces
        a, b, c, d, _ = lines[i]
        if a < x0:
            x0 = a
        if b < y0:
            y0 = b
        if c > x1:
            x1 = c
        if d > y1:
            y1 = d
    return (x0, y0, x1, y1)


def _cells(
    x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray, page: Rect
) -> tuple[np.ndarray, ...]:
    """`plane_cells` of many boxes at once."""
    off = (x1 <= page[0]) | (page[2] <= x0) | (y1 <= page[1]) | (page[3] <= y0)
    cells = []
    for low, high, low_edge, high_edge in ((x0, x1, page[0], page[2]), (y0, y1, page[1], page[3])):
        start = np.trunc(np.maximum(low_edge, low)).astype(np.int64) // _GRID
        stop = np.trunc(np.minimum(high_edge, high) + _GRID).astype(np.int64) // _GRID
        cells += [np.where(off, 0, start), np.where(off, 0, stop)]
    return tuple(cells)


def _line_cells(
    lines: np.ndarray, below: np.ndarray, above: np.ndarray, page: Rect
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """`_cells` of the lines (x0, y0, x1, y1 rows) and of their query boxes (from `below`
    to `above`), the same numbers: the rows' sides clipped at once, the boxes off the page
    looked for only when some side is off it."""
    x0, y0, x1, y1 = lines
    left, bottom, right, top = page
    low = np.trunc(np.maximum(np.array(((left,), (bottom,), (bottom,))), (x0, y0, below)))
    high = np.trunc(np.minimum(np.array(((right,), (top,), (top,))), (x1, y1, above)) + _GRID)
    (from_x, from_y, from_q), (to_x, to_y, to_q) = (
        low.astype(np.int64) // _GRID,
        high.astype(np.int64) // _GRID,
    )
    lines_cells = (from_x, to_x, from_y, to_y)
    query_cells = (from_x, to_x, from_q, to_q)
    inside = x1.min() > left and x0.max() < right  # False when a side is NaN
    inside = inside and y1.min() > bottom and y0.max() < top
    if inside and above.min() > bottom and below.max() < top:
        return lines_cells, query_cells
    off_x = (x1 <= left) | (right <= x0)
    off = off_x | (y1 <= bottom) | (top <= y0)
    off_query = off_x | (above <= bottom) | (top <= below)
    return (
        tuple(np.where(off, 0, cells) for cells in lines_cells),
        tuple(np.where(off_query, 0, cells) for cells in query_cells),
    )


def boxes_in_order(
    boxes: list[list[int]], rects: list[Rect], page: Rect, boxes_flow: float
) -> list[list[int]]:
    """The boxes in pdfminer's reading order: the tree of groups (`group_merges`), each
    group's two members ordered by `LTTextGroupLRTB.analyze`, boxes numbered as
    `IndexAssigner` numbers them; too many to group, as that orders one group's members."""
    if len(boxes) < 2:
        return boxes
    n = len(boxes)
    rects = list(rects)
    members: list[tuple[int, int]] = []

    def key(r: Rect) -> float:
        return (1 - boxes_flow) * r[0] - (1 + boxes_flow) * (r[1] + r[3])

    if n > _MAX_GROUPED_BOXES:
        return [boxes[i] for i in sorted(range(n), key=lambda i: key(rects[i]))]
    for i, j in group_merges(rects, page):
        a, b = rects[i], rects[j]
        members.append((j, i) if key(b) < key(a) else (i, j))
        rects.append((min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])))
    ordered = []
    stack = [len(rects) - 1]
    while stack:
        item = stack.pop()
        if item < n:
            ordered.append(boxes[item])
        else:
            first, second = members[item - n]
            stack += (second, first)
    return ordered
