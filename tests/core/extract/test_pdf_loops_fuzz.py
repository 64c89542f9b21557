"""The C layout loops (`pdf_loops.line_boxes`, `page_texts`) against their Python twins on
odd numbers: lines of no or negative width, coordinates off the page and huge ones up to the
C path's cut-off (beyond pdfminer's INF, 2**31 - 1), many equal values; each line in exactly
one box; pages of more boxes than are grouped into a tree."""

from __future__ import annotations

import random
import resource
import threading
import time

import numpy as np
import pytest
from simsift.core.read.extract import pdf_boxes, pdf_layout, pdf_lines, pdf_order

PAGE = (0.0, 0.0, 612.0, 792.0)
needs_c = pytest.mark.skipif(pdf_layout.pdf_loops is None, reason="the C loops are not built")


def _c_line_boxes(lines: np.ndarray, page: tuple, margin: float) -> int:
    n = lines.shape[1]
    members, starts = np.empty(n, np.int32), np.empty(n + 1, np.int32)
    return pdf_layout.pdf_loops.line_boxes(lines.copy(), *page, margin, members, starts)


@needs_c
def test_a_line_not_its_own_neighbour_is_in_one_box() -> None:
    """Line 0 has no width: pdfminer's `find_neighbors` does not find it for itself, so line
    5 took it from its first box into a second; the C loop wrote 7 members into room for 6
    (heap-buffer-overflow)."""
    lines = np.array([[45.0, -1, 27, 18, 54, 36], [33.0, 53, 25, 23, 31, 46],
                      [45.0, 29, 30, 18, 54, 75], [35.0, 84, 28, 43, 69, 84]])  # fmt: skip
    boxes = pdf_boxes._line_boxes(lines, PAGE, 0.5)
    assert sorted(i for box in boxes for i in box) == list(range(6))
    assert _c_line_boxes(lines, PAGE, 0.5) == len(boxes)
    assert pdf_boxes.line_boxes(lines, PAGE, 0.5) == boxes


def _c_takes(boxes: np.ndarray, page: tuple) -> bool:
    """Whether the numbers are under the C path's cut-off (else it leaves them to Python)."""
    return bool(np.abs(boxes).max() <= 1e12 and max(map(abs, page)) <= 1e12)


def _value(rnd: random.Random, scale: float) -> float:
    """A coordinate: on a coarse grid (equal values), anywhere on or off the page, or huge."""
    kind = rnd.random()
    if kind < 0.4:
        return scale * 9.0 * rnd.randrange(-3, 80)
    if kind < 0.9:
        return scale * rnd.uniform(-60.0, 850.0)
    return rnd.choice([-1.0, 1.0]) * rnd.choice([2.0**31 - 1, 2.0**31, 1e11, 1e12])


def _boxes(rnd: random.Random, n: int, scale: float) -> np.ndarray:
    """n boxes as x0, y0, x1, y1 rows: some of no or negative width or height, some repeated."""
    rows: list[tuple[float, ...]] = []
    for _ in range(n):
        if rows and rnd.random() < 0.1:
            rows.append(rnd.choice(rows))
            continue
        x, y = _value(rnd, scale), _value(rnd, scale)
        width = rnd.choice([0.0, -scale * 3.0, scale * 9.0, scale * rnd.uniform(0.0, 200.0)])
        height = rnd.choice([0.0, -scale * 2.0, scale * 9.0, scale * rnd.uniform(0.0, 14.0)])
        rows.append((x, y, x + width, y + height))
    return np.array(rows, np.float64).T.copy()


@needs_c
def test_lines_of_odd_numbers_are_boxed_in_c_as_in_python() -> None:
    for seed in range(1500):
        rnd = random.Random(seed)
        scale = rnd.choice([1.0, 1.0, 1e7, 1e9])
        lines = _boxes(rnd, rnd.randint(1, 40), scale)
        page = rnd.choice([PAGE, (-50.0, -50.0, 300.0, 400.0), tuple(scale * v for v in PAGE)])
        margin = rnd.choice([0.5, 0.5, 0.0, 1.0, -0.5])
        expected = pdf_boxes._line_boxes(lines, page, margin)
        assert sorted(i for box in expected for i in box) == list(range(lines.shape[1])), seed
        taken = _c_line_boxes(lines, page, margin)
        assert taken == (len(expected) if _c_takes(lines, page) else 0), seed
        assert pdf_boxes.line_boxes(lines, page, margin) == expected, seed


_LETTERS = "ab x.1中 "


def _odd_page(seed: int) -> tuple[str, np.ndarray, tuple]:
    """Characters as random boxes, each most often beside the one before (lines, words,
    jumps back), some printed twice over themselves; pages up to the C path's cut-off."""
    rnd = random.Random(seed)
    scale = rnd.choice([1.0, 1.0, 1e6, 1e8, 1e9, 1e10])
    n = rnd.randint(1, 60)
    bounds = _boxes(rnd, n, scale)
    for k in range(1, n):
        if rnd.random() < 0.6:  # beside the one before: on its line
            x0, y0, x1, y1 = bounds[:, k - 1]
            step = (x1 - x0) + rnd.choice([0.0, 0.0, 0.3, 3.0]) * (y1 - y0)
            bounds[:, k] = (x0 + step, y0, x1 + step, y1)
        elif rnd.random() < 0.1:  # printed again over the one before
            bounds[:, k] = bounds[:, k - 1] + (0.1 * scale, 0.0, 0.1 * scale, 0.0)
    text = "".join(rnd.choice(_LETTERS) for _ in range(n))
    if rnd.random() < 0.2:
        text = "".join(text[k - 1] if rnd.random() < 0.5 and k else text[k] for k in range(n))
    return text, bounds, rnd.choice([PAGE, tuple(min(scale * v, 1e12) for v in PAGE)])


@needs_c
def test_pages_of_odd_numbers_are_laid_out_in_c_as_in_python() -> None:
    params = (0.5, 2.0, 0.1, 0.5, 0.5)  # LAParams' defaults
    for seed in range(600):
        text, bounds, page = _odd_page(seed)
        taken = pdf_layout.pdf_loops.page_texts(text, bounds, *page, *params) is not None
        assert taken == _c_takes(bounds, page), seed
        expected = pdf_layout._page_texts(text, bounds, page)
        assert pdf_layout.page_texts(text, bounds, page) == expected, seed


@needs_c
def test_boxes_beyond_pdfminers_inf_are_ordered_in_c_as_in_python() -> None:
    """pdfminer's boxes start from INF = 2**31 - 1, not infinity: a box whose lines all lie
    right of it has x0 = INF, and the reading order follows; C started from infinity."""
    c = (768144674167.9, 585848992093.8, 772894674167.9, 595348992093.8)
    y = (289404545474.6, 574448992093.8, 295404545474.6, 580448992093.8)
    bounds = np.array([c, y]).T
    page = (0.0, 0.0, 612e9, 792e9)
    assert pdf_layout._page_texts("cy", bounds, page) == ["c", "y"]
    assert pdf_layout.page_texts("cy", bounds.copy(), page) == ["c", "y"]


def test_a_line_of_characters_beyond_inf_starts_with_a_space_and_is_cut_at_inf() -> None:
    """A space before the first character beyond INF (where pdfminer's `_x1` starts) and
    the line's box cut at INF."""
    x0 = np.array([3e9, 3.1e9, 2.9e9])
    bounds = np.array([x0, [10.0] * 3, x0 + 0.9e8, [20.0] * 3])
    cjk = np.zeros(3, dtype=bool)
    chars = (*bounds.tolist(), cjk.tolist())
    line = pdf_lines._one_line("abc", [0, 1, 2], chars, 0.1)
    assert line[0] == 2**31 - 1 and line[4].startswith(" ")


def _letters_apart(columns: int, rows: int) -> tuple[str, np.ndarray]:
    """One letter a line and a box: 2 pt squares 4 pt apart across (not one line), 2.5 pt
    apart down (not one box)."""
    x0 = np.tile(np.arange(columns) * 6.0, rows)
    y0 = np.repeat(np.arange(rows) * 4.5, columns)
    rnd = random.Random(columns * rows)
    return "".join(rnd.choice("abcxyz") for _ in x0), np.array([x0, y0, x0 + 2, y0 + 2])


def test_a_page_of_too_many_boxes_to_group_is_read_as_one_group() -> None:
    """Past `MAX_GROUPED_BOXES` no tree (every pair of boxes): the boxes in the order of
    LTTextGroupLRTB's key, in C and in Python alike."""
    text, bounds = _letters_apart(36, 30)
    assert len(text) > pdf_order.MAX_GROUPED_BOXES
    page = (0.0, 0.0, 612.0, 792.0)
    x0, y0, _, y1 = bounds
    flow = sorted(range(len(text)), key=lambda i: 0.5 * x0[i] - 1.5 * (y0[i] + y1[i]))
    expected = [text[i] for i in flow]
    assert pdf_layout.page_texts(text, bounds, page) == expected
    assert pdf_layout._page_texts(text, bounds, page) == expected
    if pdf_layout.pdf_loops is not None:
        assert pdf_layout.pdf_loops.MAX_GROUPED_BOXES == pdf_order.MAX_GROUPED_BOXES
        with pytest.raises(ValueError):  # group_merges of so many boxes: refused, not made
            pdf_order.group_merges([(0.0, 0.0, 1.0, 1.0)] * 1001, page)


@needs_c
def test_a_page_of_20000_one_letter_lines_is_laid_out_in_little_time_and_memory() -> None:
    """Every pair of 20,000 boxes took 6.1 GB and a minute."""
    text, bounds = _letters_apart(200, 100)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    texts = pdf_layout.page_texts(text, bounds, (0.0, 0.0, 1200.0, 1000.0))
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 200_000  # KiB
    assert len(texts) == 20_000


@needs_c
def test_a_page_of_50000_boxes_yields_each_box_in_the_order_of_one_group() -> None:
    """Past `MAX_GROUPED_BOXES` boxes no pair of boxes is made: 50,000 one-letter boxes are
    read, each one, in the order of LTTextGroupLRTB's key."""
    text, bounds = _letters_apart(250, 200)
    x0, y0, _, y1 = bounds
    flow = np.lexsort((np.arange(len(text)), 0.5 * x0 - 1.5 * (y0 + y1)))
    assert pdf_layout.page_texts(text, bounds, (0.0, 0.0, 1500.0, 1000.0)) == [
        text[i] for i in flow.tolist()
    ]


def test_the_python_twin_boxes_many_lines_in_linear_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_line_boxes` compares every pair of lines a block of query lines at a time."""
    monkeypatch.setattr(pdf_boxes, "_MATRIX_CELLS", 5000)
    lines = _boxes(random.Random(7), 300, 1.0)
    blocked = pdf_boxes._line_boxes(lines, PAGE, 0.5)
    monkeypatch.setattr(pdf_boxes, "_MATRIX_CELLS", 1 << 20)
    assert blocked == pdf_boxes._line_boxes(lines, PAGE, 0.5)


@needs_c
def test_a_large_page_is_laid_out_without_holding_the_gil() -> None:
    """Another thread runs while C lays out a large page: the loops let the GIL go where
    they touch no Python object. Holding it, the C call would leave this thread no turn
    between its start and its end; a few turns are counted, not times."""
    text, bounds = _letters_apart(200, 100)
    params = (0.5, 2.0, 0.1, 0.5, 0.5)
    started = threading.Event()

    def lay_out() -> None:
        started.set()
        pdf_layout.pdf_loops.page_texts(text, bounds, 0.0, 0.0, 1200.0, 1000.0, *params)

    worker = threading.Thread(target=lay_out)
    worker.start()
    started.wait()
    turns = 0
    while worker.is_alive():
        time.sleep(0.001)
        turns += 1
    worker.join()
    assert turns >= 20
