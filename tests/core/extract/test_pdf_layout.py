"""The layout steps `pdf_layout` builds faster against pdfminer's own as the oracle: lines
of characters (`group_objects`) and the tree of text groups that orders text boxes
(`group_textboxes`), on random characters and boxes and on the sample PDFs' own."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import (
    LAParams,
    LTChar,
    LTComponent,
    LTLayoutContainer,
    LTPage,
    LTTextBox,
    LTTextBoxHorizontal,
    LTTextGroup,
)
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from simsift.core.read.extract.pdf_layout import horizontal_lines, textbox_groups
from simsift.core.read.extract.pdfium import PlacedChar

DATA = Path(__file__).resolve().parents[2] / "data" / "extract"
SAMPLES = ["article_en.pdf", "article_zh.pdf", "hidden_text.pdf"]
PAGE = (0.0, 0.0, 612.0, 792.0)


def drawn_pages(path: Path) -> list[LTPage]:
    """Every page of the file as pdfminer's interpreter draws it, before layout analysis."""
    pages = []
    with path.open("rb") as file:
        resources = PDFResourceManager()
        device = PDFPageAggregator(resources)
        interpreter = PDFPageInterpreter(resources, device)
        for page in PDFPage.get_pages(file):
            interpreter.process_page(page)
            pages.append(device.get_result())
    return pages


def lines(chars: list[LTChar], laparams: LAParams) -> tuple[list[tuple], list[tuple]]:
    """(pdfminer's lines, ours) as (box, text) pairs."""
    oracle = LTLayoutContainer(PAGE).group_objects(laparams, chars)
    expected = [(line.bbox, line.get_text()) for line in oracle]
    return expected, [(line.bbox, line.get_text()) for line in horizontal_lines(chars, laparams)]


def tree(item: LTComponent, boxes: list[LTTextBox]) -> object:
    """A group as nested (kind, members) pairs, a box as its place in `boxes`."""
    if isinstance(item, LTTextGroup):
        return (type(item).__name__, [tree(member, boxes) for member in item])
    return boxes.index(item)


def groups(boxes: list[LTTextBox], page: tuple[float, float, float, float]) -> tuple[list, list]:
    """(pdfminer's tree of groups, ours), as `tree`s."""
    oracle = LTLayoutContainer(page).group_textboxes(LAParams(), boxes)
    fast = textbox_groups(boxes, page)
    return [tree(g, boxes) for g in oracle], [tree(g, boxes) for g in fast]


def random_boxes(rng: random.Random, page: tuple[float, float, float, float]) -> list[LTTextBox]:
    """Up to 60 boxes of random place and size, some partly or wholly off the page, none
    overlapping another (pdfminer breaks ties between equal distances, as a box inside two
    groups' rectangles has, by memory address: such trees differ from run to run)."""
    boxes: list[LTTextBox] = []
    for _ in range(rng.randint(0, 60)):
        x0 = rng.uniform(page[0] - 80, page[2] + 20)
        y0 = rng.uniform(page[1] - 80, page[3] + 20)
        bbox = (x0, y0, x0 + rng.uniform(1, 200), y0 + rng.uniform(1, 60))
        if all(not overlap(bbox, other.bbox) for other in boxes):
            box = LTTextBoxHorizontal()
            box.set_bbox(bbox)
            boxes.append(box)
    return boxes


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("seed", range(40))
def test_random_boxes_are_grouped_as_pdfminer_groups_them(seed: int) -> None:
    rng = random.Random(seed)
    page = PAGE if seed % 2 else (-30.5, 12.25, 400.0, 520.0)
    expected, fast = groups(random_boxes(rng, page), page)
    assert fast == expected


def test_boxes_in_columns_are_grouped_as_pdfminer_groups_them() -> None:
    """Paragraph-like boxes in two and three columns, of slightly uneven heights."""
    rng = random.Random(7)
    boxes = []
    for columns, top in ((2, 780.0), (3, 380.0)):
        width = 540 / columns
        for column in range(columns):
            y1 = top
            for _ in range(rng.randint(2, 6)):
                box = LTTextBoxHorizontal()
                height = rng.uniform(20, 60)
                x0 = 36 + column * width
                box.set_bbox((x0, y1 - height, x0 + width - 12, y1))
                boxes.append(box)
                y1 -= height + rng.uniform(4, 14)
    expected, fast = groups(boxes, PAGE)
    assert fast == expected


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_boxes_are_grouped_as_pdfminer_groups_them(name: str) -> None:
    laparams = LAParams()
    for drawn in drawn_pages(DATA / name):
        chars = [item for item in drawn if isinstance(item, LTChar)]
        if not chars:
            continue
        container = LTLayoutContainer(drawn.bbox)
        textlines = [line for line in horizontal_lines(chars, laparams) if not line.is_empty()]
        boxes = list(container.group_textlines(laparams, textlines))
        expected, fast = groups(boxes, drawn.bbox)
        assert fast == expected


def random_chars(rng: random.Random) -> list[LTChar]:
    """Characters along rows of random sizes, gaps (of letters, words, columns), small
    vertical shifts and jumps back, in drawing order."""
    chars: list[LTChar] = []
    y = 700.0
    for _ in range(rng.randint(1, 12)):
        size = rng.choice((6.0, 9.5, 10.0, 12.0, 18.0))
        x = rng.uniform(20, 300)
        for _ in range(rng.randint(1, 40)):
            width = size * rng.uniform(0.2, 0.7)
            shift = rng.choice((0.0, 0.0, 0.0, rng.uniform(-0.6, 0.6) * size))
            bbox = (x, y + shift, x + width, y + shift + size)
            chars.append(PlacedChar(rng.choice("abcxyz-. "), bbox, size))
            x += width + rng.choice((0.0, 0.0, 0.0, 0.15, 0.3, 1.0, 3.0, 20.0)) * size
            if rng.random() < 0.05:
                x -= rng.uniform(0, 200)
        y -= size * rng.uniform(0.5, 1.6)
    return chars


@pytest.mark.parametrize("seed", range(40))
def test_random_chars_make_the_lines_pdfminer_makes(seed: int) -> None:
    rng = random.Random(seed)
    laparams = LAParams(word_margin=rng.choice((0.1, 0.0, 0.5)))
    expected, fast = lines(random_chars(rng), laparams)
    assert fast == expected


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_chars_make_the_lines_pdfminer_makes(name: str) -> None:
    for drawn in drawn_pages(DATA / name):
        chars = [item for item in drawn if isinstance(item, LTChar)]
        expected, fast = lines(chars, LAParams())
        assert fast == expected
