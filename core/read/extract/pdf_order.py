"""A page's text boxes in reading order, as pdfminer orders them: a tree of groups, the
nearest two items (boxes or groups) grouped first (`group_textboxes`), each group's two
members ordered by their place (`LTTextGroupLRTB`)."""

from __future__ import annotations

import functools
import heapq

import numpy as np
from simsift.core.read.extract.pdf_boxes import GRID, Rect

try:  # the grouping in C (setup.py builds it where a compiler is); else the Python below
    from simsift.core.read.extract import pdf_loops
except ImportError:
    pdf_loops = None

# The tree is made from every pair of boxes: memory grows with their square (16 bytes a
# pair, as much again for the groups' pairs), time a little faster. A page of more boxes (a
# table of thousands of cells, a page of scattered letters) is one group, its boxes in the
# order pdfminer gives a group's members: the tree orders columns of paragraphs, and a page
# of text has far fewer boxes (as `pdf_loops.MAX_GROUPED_BOXES`).
MAX_GROUPED_BOXES = 1000


def group_merges(boxes: list[Rect], page: Rect) -> list[tuple[int, int]]:
    """`_group_merges`, in C where it is built and the page's numbers are finite and not
    huge (about 20x faster; the same floating-point operations in the same order), of at
    most `MAX_GROUPED_BOXES` boxes."""
    if len(boxes) > MAX_GROUPED_BOXES:
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
    """(added area, other) of a new group and every item on the plane, from the last to
    the first the heap pops: the area the rectangle around both adds to theirs, pdfminer's
    `dist` written out (the same floating-point operations)."""
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
    """Every pair of boxes (i < j), sorted as the heap pops them: by added area (computed
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
    """The box, its area and the squares of pdfminer's `Plane` it covers, [x from, x to) by
    [y from, y to): the part of the box on the page, none when it is off the page."""
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
        int(x0 if x0 > left else left) // GRID,
        int((x1 if x1 < right else right) + GRID) // GRID,
        int(y0 if y0 > bottom else bottom) // GRID,
        int((y1 if y1 < top else top) + GRID) // GRID,
    )


def any_between(i: int, j: int, placed: list[int], spots: list[Spot], page: Rect) -> bool:
    """Whether an item on the plane other than i and j overlaps the rectangle around both
    in a square of the plane they share (pdfminer's `isany`)."""
    a, b = spots[i], spots[j]
    x0 = a[0] if a[0] < b[0] else b[0]
    y0 = a[1] if a[1] < b[1] else b[1]
    x1 = a[2] if a[2] > b[2] else b[2]
    y1 = a[3] if a[3] > b[3] else b[3]
    left, bottom, right, top = page
    if x1 <= left or right <= x0 or y1 <= bottom or top <= y0:
        return False  # no square of the plane: nothing found there
    from_x = int(max(left, x0)) // GRID
    to_x = int(min(right, x1) + GRID) // GRID
    from_y = int(max(bottom, y0)) // GRID
    to_y = int(min(top, y1) + GRID) // GRID
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

    if n > MAX_GROUPED_BOXES:
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
