"""The layout's steps against pdfminer's own as the oracle: lines of characters
(`char_pairs` against `group_objects`) and the tree of text groups that orders text boxes
(`group_merges` against `group_textboxes`), on random characters and boxes and on the
sample PDFs' own; glyphs of more than one character laid out as one (`one_code_each`)."""

from __future__ import annotations

import heapq
import random
from pathlib import Path

import numpy as np
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
from simsift.core.read.extract import pdf
from simsift.core.read.extract.pdf_layout import _page_texts, one_code_each, page_texts
from simsift.core.read.extract.pdf_lines import char_pairs
from simsift.core.read.extract.pdf_order import any_between, group_merges, spot
from simsift.core.read.extract.pdfium import PlacedChar
from test_pdfium import write_raw_pdf

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
    """(pdfminer's lines, ours) as (box, text) pairs: ours the runs of characters each on
    one line with the next, a space where `char_pairs` puts one."""
    oracle = LTLayoutContainer(PAGE).group_objects(laparams, chars)
    expected = [(line.bbox, line.get_text()) for line in oracle]
    if not chars:
        return expected, []
    x0, y0, x1, y1 = np.array([char.bbox for char in chars], np.float64).T
    aligned, spaced, _ = char_pairs(x0, y0, x1, y1, laparams)
    found, start = [], 0
    for end in [*(np.flatnonzero(~aligned) + 1).tolist(), len(chars)]:
        text = "".join(
            (" " if k > start and spaced[k - 1] else "") + chars[k].get_text()
            for k in range(start, end)
        )
        box = (x0[start:end].min(), y0[start:end].min(), x1[start:end].max(), y1[start:end].max())
        found.append((tuple(map(float, box)), text))
        start = end
    return expected, found


def tree(item: LTComponent, boxes: list[LTTextBox]) -> object:
    """A group as nested (kind, members) pairs, a box as its place in `boxes`."""
    if isinstance(item, LTTextGroup):
        return (type(item).__name__, [tree(member, boxes) for member in item])
    return boxes.index(item)


def groups(boxes: list[LTTextBox], page: tuple[float, float, float, float]) -> tuple[list, list]:
    """(pdfminer's tree of groups, ours), as `tree`s."""
    oracle = LTLayoutContainer(page).group_textboxes(LAParams(), boxes)
    if len(boxes) < 2:
        return [tree(g, boxes) for g in oracle], [tree(box, boxes) for box in boxes]
    items: list[object] = list(range(len(boxes)))
    for i, j in group_merges([box.bbox for box in boxes], page):
        items.append(("LTTextGroupLRTB", [items[i], items[j]]))
    return [tree(g, boxes) for g in oracle], [items[-1]]


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
        drawn_lines = container.group_objects(laparams, chars)
        textlines = [line for line in drawn_lines if not line.is_empty()]
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


def heap_merges(boxes: list[tuple], page: tuple[float, float, float, float]) -> list[tuple]:
    """pdfminer's `group_textboxes` written plainly (one heap of every pair, `dist` as it is),
    ties between equal distances broken by the items' order: `group_merges`' oracle."""

    def dist(a: tuple, b: tuple) -> float:
        x0, y0 = min(a[0], b[0]), min(a[1], b[1])
        x1, y1 = max(a[2], b[2]), max(a[3], b[3])
        return (x1 - x0) * (y1 - y0) - (a[2] - a[0]) * (a[3] - a[1]) - (b[2] - b[0]) * (b[3] - b[1])

    items = list(boxes)
    spots = [spot(box, page) for box in items]
    heap = [
        (False, dist(items[i], items[j]), i, j)
        for i in range(len(items))
        for j in range(i + 1, len(items))
    ]
    heapq.heapify(heap)
    placed, done, merges = list(range(len(items))), set(), []
    while heap:
        checked, d, i, j = heapq.heappop(heap)
        if i in done or j in done:
            continue
        if not checked and any_between(i, j, placed, spots, page):
            heapq.heappush(heap, (True, d, i, j))
            continue
        merges.append((i, j))
        done.update((i, j))
        placed.remove(i)
        placed.remove(j)
        a, b = items[i], items[j]
        group = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
        items.append(group)
        spots.append(spot(group, page))
        for other in placed:
            heapq.heappush(heap, (False, dist(group, items[other]), len(items) - 1, other))
        placed.append(len(items) - 1)
    return merges


@pytest.mark.parametrize("seed", range(40))
def test_boxes_of_equal_distances_are_grouped_in_their_order(seed: int) -> None:
    """Boxes of a few sizes on a few places (many equal distances, boxes on top of each
    other): the pairs a plain heap of every pair merges, ties broken by the items' order."""
    rng = random.Random(seed)
    page = PAGE if seed % 2 else (0.0, 0.0, 300.0, 400.0)
    boxes = []
    for _ in range(rng.randint(0, 50)):
        x = rng.choice((36.0, 72.0, 300.0, rng.uniform(-50, 600)))
        y = rng.choice((100.0, 400.0, 700.0, rng.uniform(-50, 780)))
        boxes.append((x, y, x + rng.choice((50.0, 200.0, rng.uniform(1, 200))), y + 10.0))
    assert group_merges(boxes, page) == heap_merges(boxes, page)


LETTERS = "abcxyz-. 12中文。\u3000"


def random_page(rng: random.Random) -> list[LTChar]:
    """Characters in rows of random sizes and gaps (letters, words, columns), Chinese ones
    among them, small vertical shifts, jumps back and elsewhere on the page (some off it),
    characters printed twice over themselves, drawing order rotated."""
    chars: list[LTChar] = []
    y = rng.uniform(300, 780)
    for _ in range(rng.randint(1, 30)):
        size = rng.choice((6.0, 9.5, 10.0, 12.0, 18.0))
        x = rng.choice((36.0, 72.0, rng.uniform(-20, 500)))
        for _ in range(rng.randint(1, 40)):
            width = size * rng.choice((0.5, 0.5, rng.uniform(0.2, 0.7), 1.0))
            shift = rng.choice((0.0, 0.0, 0.0, rng.uniform(-0.6, 0.6) * size))
            bbox = (x, y + shift, x + width, y + shift + size)
            chars.append(PlacedChar(rng.choice(LETTERS), bbox, size))
            if rng.random() < 0.05:
                again = (bbox[0] + 0.1, bbox[1], bbox[2] + 0.1, bbox[3])
                chars.append(PlacedChar(chars[-1].get_text(), again, size))
            x += width + rng.choice((0.0, 0.0, 0.0, 0.15, 0.3, 1.0, 3.0, 20.0)) * size
            if rng.random() < 0.05:
                x -= rng.uniform(0, 200)
        y -= size * rng.choice((1.2, 1.2, rng.uniform(0.5, 2.5)))
        if rng.random() < 0.1:
            y = rng.uniform(-20, 800)
    if rng.random() < 0.3:
        k = rng.randint(1, len(chars))
        chars = chars[k:] + chars[:k]
    return chars


def as_arrays(chars: list[LTChar]) -> tuple[str, np.ndarray]:
    text = "".join(char.get_text() for char in chars)
    return text, np.array([char.bbox for char in chars], dtype=np.float64).T


def test_glyphs_of_more_than_one_character_are_laid_out_as_one() -> None:
    """A ligature read as "fi", pdfminer's "(cid:N)" and a glyph of no text lie out as a
    letter of their own would, a glyph of whitespace as a whitespace character (a line of
    them is empty); on a page that holds the first stand-in."""
    rng = random.Random(3)
    chars = random_page(rng)
    mine = {"fi": "①", "(cid:12)": "②", "": "③", "  ": "\u2003"}
    texts = [
        rng.choice([*mine, "\U000f0000"]) if rng.random() < 0.2 else c.get_text() for c in chars
    ]
    text, glyphs = one_code_each(texts)
    letters = "".join(mine.get(t, t) for t in texts)
    stands_for = {ord(letter): t for t, letter in mine.items()}
    bounds = as_arrays(chars)[1]
    assert len(text) == len(texts) and "\U000f0000" not in glyphs.values()
    expected = _page_texts(letters, bounds, PAGE, stands_for)
    assert any("(cid:12)" in box for box in expected)
    assert page_texts(text, bounds, PAGE, glyphs) == expected
    assert one_code_each(["a", "b"]) == ("ab", None)


def test_the_pdfminer_reader_keeps_glyph_numbers(tmp_path: Path) -> None:
    """A font without a ToUnicode map: pdfminer reads its glyphs as "(cid:N)", which tell
    such text (`without_glyph_numbers`)."""
    path = tmp_path / "no_tounicode.pdf"
    write_raw_pdf(
        path,
        b"BT /F1 12 Tf 72 700 Td <0024004500460047> Tj ET\n",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /NoMap /Encoding /Identity-H"
        b" /DescendantFonts [6 0 R] >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NoMap /CIDSystemInfo"
        b" << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 600 >>",
    )
    assert list(pdf.page_paragraphs(path)) == ["(cid:36)(cid:69)(cid:70)(cid:71)"]
