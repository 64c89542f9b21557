"""PDF text layout shared by the PDF readers: characters placed on a page become visual
lines, text boxes in pdfminer's reading order, then paragraphs.

The readers (`pdf` with pdfminer.six, `pdfium` with PDFium) differ in how they get the
characters out of the file; from characters on, both go through this module, so the same
page gives the same paragraphs whichever reader drew its characters.
"""

from __future__ import annotations

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
from simsift.core.document import ExtractionError
from simsift.core.read.extract.paragraphs import clean_paragraph

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

Rect = tuple[float, float, float, float]


def joined_paragraphs(boxes: list[str]) -> list[str]:
    """One paragraph per text box, its lines joined (see `join_lines`)."""
    words = frozenset(word.casefold() for box in boxes for word in _WORD.findall(box))
    return [join_lines(box, words) for box in boxes]


def join_lines(box_text: str, words: frozenset[str] = frozenset()) -> str:
    """One paragraph from a text box's lines: undo CJK line wraps and hyphenation.

    A line-end hyphen is dropped only when the joined word is among the document's `words`.
    Word processors do not hyphenate by default, so there the hyphen belongs to the word
    ("quoted-printable"); TeX does, and a word it breaks usually occurs whole elsewhere.
    """
    text = _HYPHEN_BREAK.sub(lambda m: unhyphenated(m[1], m[2], words), box_text.strip())
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
    """pdfminer's tree of text groups (`LTLayoutContainer.group_textboxes`), built faster.

    The same steps: the two nearest items (boxes or groups; nearest: the least area their
    common rectangle adds to theirs) become a group, first the pairs with nothing else
    between them; the pairs wait in a heap ordered as pdfminer's, ties broken by the
    items' `id`. pdfminer files every item under each square of its `Plane` the item
    covers, to find items between two; here the few items on the page are looked through,
    a square shared with the pair's rectangle still required (items off the page are never
    between). Distances are computed inline, from tuples.
    """
    items: list[LTComponent] = list(boxes)
    if len(items) < 2:
        return items  # type: ignore[return-value]
    spots = [spot(item, page) for item in items]
    heap = [
        (False, added_area(spots[i], spots[j]), id(items[i]), id(items[j]), i, j)
        for i in range(len(items))
        for j in range(i + 1, len(items))
    ]
    heapq.heapify(heap)
    placed = list(range(len(items)))  # on the plane, in the order put there
    grouped: set[int] = set()
    while heap:
        checked, area, id1, id2, i, j = heapq.heappop(heap)
        if i in grouped or j in grouped:
            continue
        if not checked and any_between(i, j, placed, spots, page):
            heapq.heappush(heap, (True, area, id1, id2, i, j))
            continue
        pair = [items[i], items[j]]
        turned = any(isinstance(obj, (LTTextBoxVertical, LTTextGroupTBRL)) for obj in pair)
        group = LTTextGroupTBRL(pair) if turned else LTTextGroupLRTB(pair)
        grouped.update((i, j))
        placed.remove(i)
        placed.remove(j)
        k = len(items)
        items.append(group)
        spots.append(spot(group, page))
        for other in placed:
            area = added_area(spots[k], spots[other])
            heapq.heappush(heap, (False, area, id(group), id(items[other]), k, other))
        placed.append(k)
    return [items[placed[0]]]  # type: ignore[list-item]


# an item's x0, y0, x1, y1, width * height and squares of the plane (x from, x to, y from, y to)
Spot = tuple[float, float, float, float, float, int, int, int, int]


def spot(item: LTComponent, page: Rect) -> Spot:
    box = (item.x0, item.y0, item.x1, item.y1)
    return (*box, item.width * item.height, *plane_cells(box, page))


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
    in a square of the plane they share (pdfminer's `isany`)."""
    a, b = spots[i], spots[j]
    x0 = a[0] if a[0] < b[0] else b[0]
    y0 = a[1] if a[1] < b[1] else b[1]
    x1 = a[2] if a[2] > b[2] else b[2]
    y1 = a[3] if a[3] > b[3] else b[3]
    from_x, to_x, from_y, to_y = plane_cells((x0, y0, x1, y1), page)
    for k in placed:
        c = spots[k]
        if k in (i, j) or c[2] <= x0 or x1 <= c[0] or c[3] <= y0 or y1 <= c[1]:
            continue
        if max(c[5], from_x) < min(c[6], to_x) and max(c[7], from_y) < min(c[8], to_y):
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
    built faster: a character joins the line when it overlaps the one before it vertically
    by more than `line_overlap` of the lower one and lies within `char_margin` of their
    widths beside it. As in pdfminer, a line that ends makes the next character start
    afresh: alone, or with the one after it. Which neighbours are aligned is worked out
    for the whole page at once, with pdfminer's floating-point operations."""
    if not chars:
        return
    x0, y0, x1, y1 = box_columns([char.bbox for char in chars])
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
    ).tolist()
    # a space before a character further than word_margin of its size from the one before
    margin = laparams.word_margin
    spaced = (x1[a] < x0[b] - margin * np.maximum(width[b], height[b])).tolist() if margin else []
    # how many characters up to each one lie left of the one before them
    backward = np.concatenate(([0], np.cumsum(x0[b] < x0[a]))).tolist()
    bounds = (x0, y0, x1, y1)
    start: int | None = None  # of the line being built
    for k, joined in enumerate(aligned):
        if joined and start is not None:
            continue
        if start is not None:
            yield line_of(chars, start, k + 1, bounds, spaced, backward, margin)
            start = None
        elif joined:
            start = k
        else:
            yield line_of(chars, k, k + 1, bounds, spaced, backward, margin)
    if start is not None:
        yield line_of(chars, start, len(chars), bounds, spaced, backward, margin)
    else:
        yield line_of(chars, len(chars) - 1, len(chars), bounds, spaced, backward, margin)


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
