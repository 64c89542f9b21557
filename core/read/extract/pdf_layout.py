"""A PDF page's characters laid out into text boxes in reading order, as pdfminer lays them
out, whichever reader drew the characters (`pdfium` with PDFium, `pdf` with pdfminer).

The steps: visual lines (`pdf_lines`), lines into boxes (`pdf_boxes`), boxes in reading
order (`pdf_order`), each box's lines in runs of one font size, page numbers left out.
Characters are arrays (one string, a row of numbers per side of their boxes), without an
object per character, line or box; the whole layout runs in C (`pdf_loops.page_texts`)
where it is built and the page's numbers are finite and not huge, its Python twin
(`_page_texts`) otherwise. Where pdfminer leaves the reading order to memory addresses
(equal distances between text boxes), the boxes' order decides (`pdf_order`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from pdfminer.layout import LAParams
from simsift.core.read.extract.paragraphs import clean_paragraph
from simsift.core.read.extract.pdf_boxes import Rect, box_rect, line_boxes
from simsift.core.read.extract.pdf_lines import Line, visual_lines
from simsift.core.read.extract.pdf_order import boxes_in_order
from simsift.core.read.extract.pdf_text import join_lines

try:  # the layout in C (setup.py builds it where a compiler is); else the Python below
    from simsift.core.read.extract import pdf_loops
except ImportError:
    pdf_loops = None

_LAPARAMS = LAParams()
# a line this much taller than the one before (or after) is set in another font size
_HEADING_SIZE_RATIO = 1.15
_PAGE_NUMBER = re.compile(r"^\s*[-–—]?\s*\d{1,4}\s*[-–—]?\s*$")
# Stand-ins for glyphs of more (or fewer) than one character ("ﬁ" read as "fi", pdfminer's
# "(cid:N)"): code points of no script and no CJK range, whitespace ones for whitespace;
# the layout asks of a character only whether it is whitespace, CJK or another's equal.
_FIRST_STAND_IN = 0xF0000
_WHITE_STAND_INS = "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u205f"


def page_texts(
    text: str, bounds: np.ndarray, page: Rect, glyphs: dict[int, str] | None = None
) -> list[str]:
    """The texts of the page's text boxes in reading order, lines apart, a box split where
    its font size changes, page numbers left out. `text` holds the characters one code
    point each, in drawing order, `bounds` their x0, y0, x1 and y1 rows in pdfminer's page
    space; `glyphs` what stand-ins in `text` stand for (`one_code_each`)."""
    if not text:
        return []
    runs = None
    if pdf_loops is not None:
        p = _LAPARAMS
        rows = np.ascontiguousarray(bounds, dtype=np.float64)
        params = (p.line_overlap, p.char_margin, p.word_margin, p.line_margin, p.boxes_flow)
        runs = pdf_loops.page_texts(text, rows, *page, *params)
    if runs is None:
        runs = _run_texts(text, bounds, page)
    return _kept(runs, glyphs)


def _page_texts(
    text: str, bounds: np.ndarray, page: Rect, glyphs: dict[int, str] | None = None
) -> list[str]:
    """`page_texts` in Python: the C loop's twin."""
    return _kept(_run_texts(text, bounds, page), glyphs) if text else []


def hidden_page_texts(
    text: str, bounds: np.ndarray, page: Rect, glyphs: dict[int, str] | None = None
) -> list[str]:
    """One joined, cleaned piece of text per text box of a page of hidden characters."""
    texts = (clean_paragraph(join_lines(t)) for t in page_texts(text, bounds, page, glyphs))
    return [text for text in texts if text]


def one_code_each(texts: Sequence[str]) -> tuple[str, dict[int, str] | None]:
    """The characters' texts as one string of a code point each, as `page_texts` takes
    them, and what the stand-ins put for texts of another length stand for (None: none).
    A stand-in is a code point the page does not hold, one for each such text."""
    odd = sorted({t for t in texts if len(t) != 1})
    if not odd:
        return "".join(texts), None
    held = set("".join(texts))
    white = (c for c in _WHITE_STAND_INS if c not in held)
    other = (chr(c) for c in range(_FIRST_STAND_IN, 0x110000) if chr(c) not in held)
    stand_in = {t: next(white, " ") if t.isspace() else next(other) for t in odd}
    glyphs = {ord(s): t for t, s in stand_in.items() if s != " "}  # " ": out of stand-ins
    return "".join([stand_in.get(t, t) for t in texts]), glyphs


def _kept(runs: list[str], glyphs: dict[int, str] | None) -> list[str]:
    """The runs of lines as box texts: stand-ins put back, stripped, page numbers dropped."""
    if glyphs:
        runs = [run.translate(glyphs) for run in runs]
    texts = [run.strip() for run in runs]
    return [text for text in texts if text and not _PAGE_NUMBER.match(text)]


def _run_texts(text: str, bounds: np.ndarray, page: Rect) -> list[str]:
    """The page's runs of lines of one font size, each line ending in a line break, box by
    box in reading order: what `pdf_loops.page_texts` gives."""
    lines = [line for line in visual_lines(text, bounds, _LAPARAMS) if not _empty_line(line)]
    if not lines:
        return []
    columns = np.array([line[:4] for line in lines]).T
    boxes, rects = [], []
    for box in line_boxes(columns, page, _LAPARAMS.line_margin):
        rect = box_rect(box, lines)
        if not _empty_box(rect):
            boxes.append(box)
            rects.append(rect)
    runs = []
    for members in boxes_in_order(boxes, rects, page, _LAPARAMS.boxes_flow):
        ordered = sorted(members, key=lambda i: -lines[i][3])  # LTTextBoxHorizontal.analyze
        run: list[Line] = []
        for i in ordered:
            line = lines[i]
            if run and not _same_size(run[-1][3] - run[-1][1], line[3] - line[1]):
                runs.append(_run_text(run))
                run = []
            run.append(line)
        runs.append(_run_text(run))
    return runs


def _run_text(run: list[Line]) -> str:
    return "".join([line[4] + "\n" for line in run])


def _same_size(a: float, b: float) -> bool:
    return max(a, b) <= _HEADING_SIZE_RATIO * min(a, b)


def _empty_box(rect: Rect) -> bool:
    """`LTComponent.is_empty`."""
    return rect[2] - rect[0] <= 0 or rect[3] - rect[1] <= 0


def _empty_line(line: Line) -> bool:
    """`LTTextLine.is_empty`."""
    return line[2] - line[0] <= 0 or line[3] - line[1] <= 0 or line[4].isspace()
