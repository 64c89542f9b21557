"""A page's lines into text boxes, as pdfminer groups them (`group_textlines`): lines of
about one height, aligned, close above or below each other are one box."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from pdfminer.utils import INF
from simsift.core.read.extract.pdf_lines import Line

try:  # the grouping in C (setup.py builds it where a compiler is); else the Python below
    from simsift.core.read.extract import pdf_loops
except ImportError:
    pdf_loops = None

Rect = tuple[float, float, float, float]

# the side of the squares pdfminer's `Plane` files boxes under (its `gridsize`)
GRID = 50
# cells of the line-by-line matrices `_line_boxes` builds at once
_MATRIX_CELLS = 1 << 20


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


def _line_cells(
    lines: np.ndarray, below: np.ndarray, above: np.ndarray, page: Rect
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """The squares of pdfminer's `Plane` the lines (x0, y0, x1, y1 rows) and their query
    boxes (from `below` to `above`) cover, (x from, x to, y from, y to) each: the part of a
    box on the page, none when it is off the page; the rows' sides clipped at once, the
    boxes off the page looked for only when some side is off it."""
    x0, y0, x1, y1 = lines
    left, bottom, right, top = page
    low = np.trunc(np.maximum(np.array(((left,), (bottom,), (bottom,))), (x0, y0, below)))
    high = np.trunc(np.minimum(np.array(((right,), (top,), (top,))), (x1, y1, above)) + GRID)
    (from_x, from_y, from_q), (to_x, to_y, to_q) = (
        low.astype(np.int64) // GRID,
        high.astype(np.int64) // GRID,
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
