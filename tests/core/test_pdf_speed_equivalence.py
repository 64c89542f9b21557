"""The PDF reader's shortcuts give what the steps they stand for give: the same numbers,
the same text, also for boxes off the page, of zero size, infinite or not a number."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from simsift.core.read.extract import pdf, pdf_boxes, pdf_lines, pdfium
from simsift.core.read.extract.paragraphs import clean_paragraphs

PAGE = (0.0, 0.0, 612.0, 792.0)
ODD = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 612.0, 792.0, -5.0]


def _value(rnd: random.Random, odd: bool) -> float:
    if odd and rnd.random() < 0.2:
        return rnd.choice(ODD)
    return rnd.uniform(-50.0, 850.0)


def _boxes(rnd: random.Random, n: int, odd: bool) -> np.ndarray:
    """n boxes as x0, y0, x1, y1 rows, mostly small and on the page."""
    x0 = np.array([_value(rnd, odd) for _ in range(n)])
    y0 = np.array([_value(rnd, odd) for _ in range(n)])
    width = np.array([rnd.choice([0.0, rnd.uniform(0.0, 12.0)]) for _ in range(n)])
    height = np.array([rnd.uniform(0.0, 14.0) for _ in range(n)])
    return np.array((x0, y0, x0 + width, y0 + height))


def _cells(
    x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray, page: tuple
) -> tuple[np.ndarray, ...]:
    """The squares of pdfminer's `Plane` boxes cover, written plainly: `_line_cells`' oracle."""
    off = (x1 <= page[0]) | (page[2] <= x0) | (y1 <= page[1]) | (page[3] <= y0)
    cells = []
    for low, high, low_edge, high_edge in ((x0, x1, page[0], page[2]), (y0, y1, page[1], page[3])):
        start = np.trunc(np.maximum(low_edge, low)).astype(np.int64) // pdf_boxes.GRID
        stop = (
            np.trunc(np.minimum(high_edge, high) + pdf_boxes.GRID).astype(np.int64)
            // pdf_boxes.GRID
        )
        cells += [np.where(off, 0, start), np.where(off, 0, stop)]
    return tuple(cells)


@pytest.mark.parametrize("seed", range(40))
def test_line_cells_are_the_cells_of_lines_and_queries(seed: int) -> None:
    rnd = random.Random(seed)
    lines = _boxes(rnd, rnd.randint(1, 30), odd=seed % 2 == 1)
    x0, y0, x1, y1 = lines
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # inf - inf; NaN cast to int
        margin = 0.5 * (y1 - y0)
        below, above = y0 - margin, y1 + margin
        expected = (
            _cells(x0, y0, x1, y1, PAGE),
            _cells(x0, below, x1, above, PAGE),
        )
        found = pdf_boxes._line_cells(lines, below, above, PAGE)
    for want, got in zip(expected, found, strict=True):
        for a, b in zip(want, got, strict=True):
            assert a.dtype == b.dtype
            assert np.array_equal(a, b)


@pytest.mark.parametrize("seed", range(30))
def test_spaced_text_places_lines_as_a_spaced_copy_of_every_character(seed: int) -> None:
    rnd = random.Random(seed)
    n = rnd.randint(1, 60)
    text = "".join(rnd.choice("abc中") for _ in range(n))
    space = np.array([rnd.random() < 0.3 for _ in range(n - 1)], dtype=bool)
    breaks = np.array(sorted(rnd.sample(range(1, n), rnd.randint(0, n - 1))), dtype=np.intp)
    space[breaks - 1] = False  # no space at a line break, as `visual_lines` has it
    starts = np.concatenate(([0], breaks)).astype(np.intp)
    ends = np.concatenate((breaks, [n])).astype(np.intp)
    spaced, line_from, line_to = pdf_lines._spaced_text(
        text, np.flatnonzero(space) + 1, starts, ends
    )
    where, pieces = [], []
    for k, char in enumerate(text):  # a space before character k + 1 where space[k]
        if k and space[k - 1]:
            pieces.append(" ")
        where.append(len(pieces))
        pieces.append(char)
    assert spaced == "".join(pieces)
    for start, end, a, b in zip(starts, ends, line_from, line_to, strict=True):
        assert (a, b) == (where[start], where[end - 1] + 1)


@pytest.mark.parametrize("seed", range(20))
def test_characters_outside_the_visible_area_are_found_as_before(seed: int) -> None:
    rnd = random.Random(seed)
    raw = _boxes(rnd, rnd.randint(0, 20), odd=seed % 2 == 1)
    area = (10.0, 20.0, 600.0, 780.0)
    x0, y0, x1, y1 = area
    left, bottom, right, top = raw
    expected = (right <= x0) | (left >= x1) | (top <= y0) | (bottom >= y1)
    assert np.array_equal(pdfium._outside(raw, area), expected)


@pytest.mark.parametrize(
    "paragraphs", [[], [""], [" \n "], ["\u00ad"], ["", "a"], ["text", ""], ["\t", " b "]]
)
def test_any_text_is_whether_cleaning_leaves_a_paragraph(paragraphs: list[str]) -> None:
    assert pdf.any_text(paragraphs) == bool(clean_paragraphs(paragraphs))


def test_the_box_buffer_grows_and_keeps_a_pointer_per_box() -> None:
    rects, places = pdfium._box_buffer(5000)
    assert len(places) >= 5000
    assert len(rects) == 4 * len(places)
    again, same = pdfium._box_buffer(10)
    assert again is rects and same is places
