"""The PDF reader's loops in C (`pdf_loops`) give what their Python twins give: PDFium's
per-character calls the same characters, boxes and looks on every page and the same refusal
of a font without Unicode values as through ctypes; the grouping of text boxes the same
tree, ties included, and pages it cannot group exactly go to Python. The loops are built
wherever a compiler is."""

from __future__ import annotations

import ctypes
import math
import random
import shutil
import sysconfig
from pathlib import Path

import numpy as np
import pypdfium2 as pypdfium
import pytest
from simsift.core.read.extract import pdf_boxes, pdf_layout, pdf_order, pdfium
from test_pdf_layout import as_arrays, random_page
from test_pdf_order import LEFT, LINE_WIDTH, MARGIN, RIGHT, column, write_pdf
from test_pdfium import write_raw_pdf

DATA = Path(__file__).resolve().parents[2] / "data" / "extract"


def _compiler_and_headers() -> bool:
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return include.exists() and any(shutil.which(cc) for cc in ("cc", "gcc", "clang"))


@pytest.mark.skipif(not _compiler_and_headers(), reason="no C compiler or Python headers")
def test_the_c_loops_are_built_where_a_compiler_is() -> None:
    """setup.py builds the loops as optional: a failed build would pass silently and leave
    every PDF read 2-3x slower per character."""
    assert pdfium.pdf_loops is not None


def _pdfs(tmp_path: Path) -> list[Path]:
    """The sample PDFs and pages written here: two columns, a font without Unicode values,
    text with spaces PDFium generates between words placed apart."""
    columns = tmp_path / "columns.pdf"
    runs = column(LEFT, MARGIN, LINE_WIDTH) + column(RIGHT, MARGIN + LINE_WIDTH + 10, LINE_WIDTH)
    write_pdf(columns, runs)
    spaced = tmp_path / "spaced.pdf"
    write_pdf(spaced, [(72.0 + 40 * i, 700.0 - 14 * (i % 3), "word") for i in range(12)])
    no_map = tmp_path / "no_tounicode.pdf"
    write_raw_pdf(
        no_map,
        b"BT /F1 12 Tf 72 700 Td <0024004500460047> Tj ET\n",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /NoMap /Encoding /Identity-H"
        b" /DescendantFonts [6 0 R] >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NoMap /CIDSystemInfo"
        b" << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 600 >>",
    )
    samples = sorted(p for p in DATA.glob("*.pdf") if p.name != "encrypted.pdf")
    return [*samples, columns, spaced, no_map]


def _pages(path: Path) -> list[object]:
    """`pdfium.page_chars` of each page: (shown, hidden, box, rotation), or the error."""
    document = pypdfium.PdfDocument(path)
    found: list[object] = []
    try:
        for page in document:
            try:
                found.append(pdfium.page_chars(page))
            except pdfium.Unsuited as error:
                found.append(("Unsuited", str(error)))
            page.close()
    finally:
        document.close()
    return found


def _same(a: object, b: object) -> bool:
    if isinstance(a, pdfium.Chars):
        return (
            a.text == b.text
            and a.letters == b.letters
            and a.bounds.dtype == b.bounds.dtype
            and np.array_equal(a.bounds, b.bounds)
        )
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@pytest.mark.skipif(pdfium.pdf_loops is None, reason="the C loops are not built here")
def test_c_loops_read_every_page_as_the_ctypes_calls_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _pdfs(tmp_path)
    in_c = {path: _pages(path) for path in paths}
    monkeypatch.setattr(pdfium, "pdf_loops", None)
    through_ctypes = {path: _pages(path) for path in paths}
    for path in paths:
        assert _same(in_c[path], through_ctypes[path]), path.name
    assert sum(len(pages) for pages in in_c.values()) > len(paths)
    assert ("Unsuited", "a font without a Unicode value for its glyphs") in in_c[paths[-1]]


@pytest.mark.skipif(pdfium.pdf_loops is None, reason="the C loops are not built here")
def test_the_loops_refuse_missing_handles_and_short_buffers() -> None:
    c_loops = pdfium.pdf_loops
    indices = np.arange(4, dtype=np.int32)
    with pytest.raises(ValueError):
        c_loops.rects(pdfium._address(pdfium._loose_box), 0, indices, np.zeros(16, np.float32))
    with pytest.raises(ValueError):  # four boxes need 16 floats
        c_loops.rects(pdfium._address(pdfium._loose_box), 1, indices, np.zeros(15, np.float32))
    with pytest.raises(ValueError):
        c_loops.ints(pdfium._address(pdfium._is_generated), 1, indices, np.zeros(3, np.int32))
    with pytest.raises(TypeError):  # answers must be writable
        c_loops.ints(pdfium._address(pdfium._is_generated), 1, indices, b"\0" * 16)


def _grid_boxes(rnd: random.Random, n: int) -> list[tuple[float, float, float, float]]:
    """Boxes on a coarse grid, many of one size: distances tie, and the order of ties
    decides the tree."""
    boxes = []
    for _ in range(n):
        x, y = 50.0 * rnd.randrange(-2, 14), 50.0 * rnd.randrange(-2, 17)
        boxes.append((x, y, x + rnd.choice([0.0, 10.0, 50.0, 100.0]), y + rnd.choice([0.0, 12.0])))
    return boxes


def _loose_boxes(rnd: random.Random, n: int) -> list[tuple[float, float, float, float]]:
    boxes = []
    for _ in range(n):
        x, y = rnd.uniform(-60.0, 660.0), rnd.uniform(-60.0, 860.0)
        boxes.append((x, y, x + rnd.choice([0.0, rnd.uniform(0.0, 300.0)]), y + rnd.uniform(0, 40)))
    return boxes


@pytest.mark.skipif(pdf_layout.pdf_loops is None, reason="the C loops are not built here")
@pytest.mark.parametrize("seed", range(300))
def test_boxes_are_grouped_in_c_as_in_python(seed: int) -> None:
    rnd = random.Random(seed)
    make = _grid_boxes if seed % 2 else _loose_boxes
    boxes = make(rnd, rnd.randint(2, 60))
    page = (0.0, 0.0, rnd.choice([612.0, 595.3]), rnd.choice([792.0, 841.9]))
    merges = np.empty(2 * len(boxes) - 2, np.int32)
    assert pdf_layout.pdf_loops.group_merges(np.array(boxes), *page, merges)  # in C
    assert pdf_order.group_merges(boxes, page) == pdf_order._group_merges(boxes, page)


@pytest.mark.skipif(pdf_layout.pdf_loops is None, reason="the C loops are not built here")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the Python twin meets inf - inf
@pytest.mark.parametrize("odd", [math.nan, math.inf, -math.inf, 1e300])
def test_boxes_c_cannot_group_exactly_go_to_python(odd: float) -> None:
    boxes = [(72.0, 700.0, 300.0, 712.0), (72.0, 680.0, odd, 692.0), (320.0, 700.0, 540.0, 712.0)]
    page = (0.0, 0.0, 612.0, 792.0)
    merges = np.empty(4, np.int32)
    assert not pdf_layout.pdf_loops.group_merges(np.array(boxes), *page, merges)
    assert pdf_order.group_merges(boxes, page) == pdf_order._group_merges(boxes, page)


def _page_looks(path: Path) -> list[tuple[list, list]]:
    """`_text_looks` and `_text_looks_one_by_one` listed for every page of the file."""
    document = pypdfium.PdfDocument(path)
    found = []
    try:
        for page in document:  # kept open while walked
            handle = pdfium._Handle(ctypes.cast(page.raw, ctypes.c_void_p).value)
            in_c = list(pdfium._text_looks(handle, pdfium._Colour()))
            found.append((in_c, list(pdfium._text_looks_one_by_one(handle, pdfium._Colour()))))
            page.close()
    finally:
        document.close()
    return found


@pytest.mark.skipif(pdfium.pdf_loops is None, reason="the C loops are not built here")
def test_text_objects_are_walked_in_c_as_one_by_one(tmp_path: Path) -> None:
    """Every text object's address, render mode, whiteness and size as drawn, in the same
    order, and the walk ended at the same object (None)."""
    hairline = tmp_path / "hairline.pdf"
    write_raw_pdf(
        hairline,
        b"BT /F1 12 Tf 72 700 Td (Shown) Tj ET 1 1 1 rg BT /F1 1 Tf 0.5 0 0 0.5 72 680 Tm"
        b" (white and small) Tj ET BT 3 Tr /F1 9 Tf 72 660 Td (invisible) Tj ET"
        b" BT 1 Tr 1 1 1 RG /F1 11 Tf 72 640 Td (stroked white) Tj ET"
        b" BT 0.2 0.5 -0.5 0.2 72 600 Tm /F1 10 Tf (turned) Tj ET\n",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    )
    walked = 0
    for path in [*_pdfs(tmp_path), hairline]:
        for in_c, one_by_one in _page_looks(path):
            assert in_c == one_by_one, path.name
            walked += len(in_c)
    assert walked > 100
    last_page_in_c, _ = _page_looks(hairline)[-1]
    assert len(last_page_in_c) == 5 and last_page_in_c[-1] is None  # ended at "turned"


def _lines(rnd: random.Random, n: int, ruled: bool) -> np.ndarray:
    """n lines as x0, y0, x1, y1 rows: on a ruled page (columns, line heights and margins
    alike: neighbours and merged boxes everywhere), or anywhere, some off the page."""
    rows = []
    for _ in range(n):
        if ruled:
            x, y = 36.0 * rnd.randrange(0, 15), 12.0 * rnd.randrange(-3, 70)
            width, height = rnd.choice([36.0, 100.0, 200.0]), rnd.choice([10.0, 11.0, 12.0])
        else:
            x, y = rnd.uniform(-40.0, 640.0), rnd.uniform(-40.0, 830.0)
            width, height = rnd.uniform(0.0, 300.0), rnd.uniform(0.0, 20.0)
        rows.append((x, y, x + width, y + height))
    return np.array(rows).T


@pytest.mark.skipif(pdf_layout.pdf_loops is None, reason="the C loops are not built here")
@pytest.mark.parametrize("seed", range(300))
def test_lines_are_boxed_in_c_as_in_python(seed: int) -> None:
    rnd = random.Random(seed)
    lines = _lines(rnd, rnd.randint(1, 80), ruled=seed % 2 == 1)
    page = (0.0, 0.0, 612.0, 792.0)
    margin = rnd.choice([0.5, 0.3, 1.0])
    members, starts = np.empty(lines.shape[1], np.int32), np.empty(lines.shape[1] + 1, np.int32)
    assert pdf_layout.pdf_loops.line_boxes(lines.copy(), *page, margin, members, starts) > 0
    assert pdf_boxes.line_boxes(lines, page, margin) == pdf_boxes._line_boxes(lines, page, margin)


@pytest.mark.skipif(pdf_layout.pdf_loops is None, reason="the C loops are not built here")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the Python twin meets NaN
@pytest.mark.parametrize("odd", [math.nan, math.inf, 1e300])
def test_lines_c_cannot_box_exactly_go_to_python(odd: float) -> None:
    lines = np.array([(72.0, 72.0, 72.0), (700.0, 688.0, 676.0), (300.0, odd, 290.0),
                      (712.0, 700.0, 688.0)])  # fmt: skip
    page = (0.0, 0.0, 612.0, 792.0)
    members, starts = np.empty(3, np.int32), np.empty(4, np.int32)
    assert pdf_layout.pdf_loops.line_boxes(lines, *page, 0.5, members, starts) == 0
    assert pdf_boxes.line_boxes(lines, page, 0.5) == pdf_boxes._line_boxes(lines, page, 0.5)


@pytest.mark.skipif(pdf_layout.pdf_loops is None, reason="the C loops are not built here")
@pytest.mark.parametrize("seed", range(400))
def test_pages_are_laid_out_in_c_as_in_python(seed: int) -> None:
    """Random pages (rows of words, columns, Chinese, characters printed twice over
    themselves, jumps back, characters off the page): the same boxes, texts and order."""
    rnd = random.Random(seed)
    page = (0.0, 0.0, 612.0, 792.0) if seed % 3 else (0.0, 0.0, 400.0, 500.0)
    text, bounds = as_arrays(random_page(rnd))
    params = (0.5, 2.0, 0.1, 0.5, 0.5)  # LAParams' defaults
    rows = np.ascontiguousarray(bounds)
    assert pdf_layout.pdf_loops.page_texts(text, rows, *page, *params) is not None  # in C
    assert pdf_layout.page_texts(text, bounds, page) == pdf_layout._page_texts(text, bounds, page)


@pytest.mark.skipif(pdf_layout.pdf_loops is None, reason="the C loops are not built here")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the Python twin meets NaN
@pytest.mark.parametrize("odd", [math.nan, math.inf, -math.inf, 1e300])
def test_pages_c_cannot_lay_out_exactly_go_to_python(odd: float) -> None:
    text = "Two lines of text"
    bounds = np.array([[72.0 + 6 * k, 700.0 - 14 * (k > 8), 78.0 + 6 * k, 712.0 - 14 * (k > 8)]
                       for k in range(len(text))]).T.copy()  # fmt: skip
    bounds[2, 3] = odd
    params = (0.5, 2.0, 0.1, 0.5, 0.5)
    assert pdf_layout.pdf_loops.page_texts(text, bounds, 0.0, 0.0, 612.0, 792.0, *params) is None
    page = (0.0, 0.0, 612.0, 792.0)
    assert pdf_layout.page_texts(text, bounds, page) == pdf_layout._page_texts(text, bounds, page)


@pytest.mark.skipif(pdf_layout.pdf_loops is None, reason="the C loops are not built here")
def test_page_layout_refuses_bounds_of_another_length() -> None:
    with pytest.raises(ValueError):
        pdf_layout.pdf_loops.page_texts("abc", np.zeros((4, 2)), 0, 0, 612, 792, *[0.5] * 5)
