"""PDF files read with PDFium (pypdfium2): each character's text, box, size, colour and
render mode, laid out into text boxes as pdfminer lays them out (`pdf_layout`).

PDFium parses and interprets pages in C, where pdfminer.six does it in Python; the layout
(characters to lines to boxes) stays pdfminer's, so both readers give the same paragraphs.
Files whose text PDFium reads otherwise than pdfminer raise `Unsuited`, and `pdf` reads
them with pdfminer: glyphs without a Unicode value (pdfminer marks them "(cid:N)", which
`without_glyph_numbers` counts), vertical writing and pages of rotated text (pdfminer
builds their boxes from font metrics PDFium does not give), files PDFium cannot open.

A page's characters are arrays (`Chars`: one string, a row of numbers per side of the
boxes), laid out by `pdf_layout.page_texts` without an object per character. PDFium is
asked as little as it can be: the page's text in one call, each character's box (there is
no call for many), whether a printable character has a Unicode value and whether a space
is one PDFium generated; the look (size, colour, render mode, angle) once per text object,
and once per page when all its text objects look alike (`_shared_look`). Documents and
pages are opened through PDFium's own functions, without pypdfium2's objects. The calls per
character run in C loops (`pdf_loops`, given the functions' addresses: through ctypes a
call's argument handling costs as much as PDFium's work), or through ctypes where the loops
are not built or pypdfium2 declares a function otherwise than they call it
(`pdfium_signatures`); handles are passed to the calls per object as ready ctypes arguments
(`_pointer`).
"""

from __future__ import annotations

import ctypes
import functools
import math
import sys
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pypdfium2 as pypdfium
import pypdfium2.raw as fpdf
from pdfminer.layout import LTChar
from simsift.core.read.extract.hidden import (
    LETTER,
    MAX_HIDDEN_POINTS,
    WHITE,
    drawn_box,
    unreadable,
)
from simsift.core.read.extract.pdf_chrome import page_boxes
from simsift.core.read.extract.pdf_layout import hidden_page_texts
from simsift.core.read.extract.pdfium_signatures import checked_loops

try:  # PDFium's per-character calls in C loops (setup.py builds it where a compiler is)
    from simsift.core.read.extract import pdf_loops
except ImportError:  # the same calls through ctypes, 2-3x their cost
    pdf_loops = None
# only where pypdfium2 declares PDFium's functions as the loops call them
pdf_loops = checked_loops(pdf_loops)

Box = tuple[float, float, float, float]

# Text render modes (PDF 32000 9.3.6): 3 draws nothing; 1 and 5 only stroke, 2 and 6 fill
# and stroke (0, 4 and 7 fill, or clip: the fill colour is what shows)
_INVISIBLE, _STROKED, _FILLED_AND_STROKED = 3, (1, 5), (2, 6)
# A page on which more than this share of the characters is rotated (or runs top to
# bottom) is read by pdfminer: its boxes come from font metrics PDFium does not report.
_MAX_TURNED_SHARE = 0.05
# Characters with an angle further than this from upright (radians) are turned.
_UPRIGHT_TOLERANCE = 0.01
# A page with at most this many characters and pictures over this share of it is a scan.
_MAX_SCAN_LETTERS = 40
_MIN_SCAN_SHARE = 0.5
# Form XObjects nested deeper than this are not searched for pictures.
_MAX_FORM_DEPTH = 8
# Pages with forms nested deeper than this have their characters' looks asked one by one.
_MAX_SHARED_DEPTH = 32
# The box buffer kept for a thread holds up to this many characters' boxes (a pointer each).
_MAX_KEPT_BOXES = 1 << 16


def _bare(function: object, restype: object, *, long: bool = False) -> object:
    """A PDFium function called once per character (or text object), without pypdfium2's
    typed pointers and without argument types: ctypes then passes a `c_void_p` and an `int`
    as they are, where checking them against argument types would cost more than the call
    itself. It keeps the GIL (`PYFUNCTYPE`): letting it go and taking it back around each
    call of a microsecond cost a fifth of the call. A `long` call (a document or a page
    parsed, a form bomb's for ever) lets it go (`CFUNCTYPE`): held, it would stop every
    other thread, and the time budget watching the reader with them."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    return (ctypes.CFUNCTYPE if long else ctypes.PYFUNCTYPE)(restype)(address)


# each (text page, index), _loose_box with a pointer to an FS_RECTF after them
_is_generated = _bare(fpdf.FPDFText_IsGenerated, ctypes.c_int)
_map_error = _bare(fpdf.FPDFText_HasUnicodeMapError, ctypes.c_int)
_unicode = _bare(fpdf.FPDFText_GetUnicode, ctypes.c_uint)
_loose_box = _bare(fpdf.FPDFText_GetLooseCharBox, ctypes.c_int)
# characters are compared by their text object (one per text-showing operator, one font
# size, colour and render mode) to look those up once per object, not once per character;
# an address as an int (0: none)
_text_object = _bare(fpdf.FPDFText_GetTextObject, ctypes.c_size_t)
# FS_RECTF is left, top, right, bottom: the columns of x0, y0, x1, y1
_BOX_COLUMNS = [0, 3, 2, 1]


class _Handle(ctypes.c_void_p):
    """A pointer a `_bare` function returns, kept a pointer (a `c_void_p` result becomes an
    int, which ctypes would pass on as a C int)."""


# A pointer given as a ready argument (an address made one by `_pointer`): ctypes passes it
# on as it is, where for a `c_void_p` it makes one anew at each call, which costs as much as
# a call of a simple PDFium function itself.
_pointer = ctypes.c_void_p.from_param
# the page's objects, and those of its forms: (page, int index), (form, c_ulong index);
# addresses, made ready arguments by `_pointer`
_page_objects = _bare(fpdf.FPDFPage_CountObjects, ctypes.c_int)
_page_object = _bare(fpdf.FPDFPage_GetObject, ctypes.c_size_t)
_form_objects = _bare(fpdf.FPDFFormObj_CountObjects, ctypes.c_int)
_form_object = _bare(fpdf.FPDFFormObj_GetObject, ctypes.c_size_t)
_object_kind = _bare(fpdf.FPDFPageObj_GetType, ctypes.c_int)
# (object, pointer to an FS_MATRIX), (text object, pointer to a c_float), (text object)
_object_matrix = _bare(fpdf.FPDFPageObj_GetMatrix, ctypes.c_int)
_object_font_size = _bare(fpdf.FPDFTextObj_GetFontSize, ctypes.c_int)
_object_font = _bare(fpdf.FPDFTextObj_GetFont, ctypes.c_size_t)
# once per text object: (text page, index) and (object, pointers to four c_uint)
_font_size = _bare(fpdf.FPDFText_GetFontSize, ctypes.c_double)
_char_matrix = _bare(fpdf.FPDFText_GetMatrix, ctypes.c_int)  # then a pointer to an FS_MATRIX
_angle = _bare(fpdf.FPDFText_GetCharAngle, ctypes.c_float)
_render_mode = _bare(fpdf.FPDFTextObj_GetTextRenderMode, ctypes.c_int)
_fill_colour = _bare(fpdf.FPDFPageObj_GetFillColor, ctypes.c_int)
_stroke_colour = _bare(fpdf.FPDFPageObj_GetStrokeColor, ctypes.c_int)


# documents and pages: (path as bytes, password), (document), (document, index), (handle)
_load_document = _bare(fpdf.FPDF_LoadDocument, _Handle, long=True)
_page_count = _bare(fpdf.FPDF_GetPageCount, ctypes.c_int, long=True)
_close_document = _bare(fpdf.FPDF_CloseDocument, None, long=True)
_load_page = _bare(fpdf.FPDF_LoadPage, _Handle, long=True)  # parses the page's content
_close_page = _bare(fpdf.FPDF_ClosePage, None, long=True)
_load_textpage = _bare(fpdf.FPDFText_LoadPage, _Handle, long=True)
_close_textpage = _bare(fpdf.FPDFText_ClosePage, None, long=True)
_count_chars = _bare(fpdf.FPDFText_CountChars, ctypes.c_int)
_get_text = _bare(fpdf.FPDFText_GetText, ctypes.c_int, long=True)
# (page, pointers to four c_float), (page, pointer to an FS_RECTF), (page)
_media_box = _bare(fpdf.FPDFPage_GetMediaBox, ctypes.c_int)
_bounding_box = _bare(fpdf.FPDF_GetPageBoundingBox, ctypes.c_int)
_page_rotation = _bare(fpdf.FPDFPage_GetRotation, ctypes.c_int)
# how pypdfium2 encodes a path for FPDF_LoadDocument
_NAME_ERRORS = "strict" if sys.platform.startswith("win32") else "surrogateescape"


class Unsuited(Exception):
    """PDFium cannot read this file's text as pdfminer does: read it with pdfminer."""


class PasswordProtected(Exception):
    """The PDF needs a password to open."""


class PlacedChar(LTChar):
    """A character as pdfminer's layout analysis takes it: text, box and size (points),
    without the font and graphic state pdfminer's interpreter keeps with it (`Chars.placed`
    makes them for `_scanned`)."""

    def __init__(self, text: str, bbox: Box, size: float) -> None:
        self._text = text
        self.size = size
        self.upright = True
        self.fontname = ""
        # `set_bbox` written out: a call less for each of a page's thousands of characters
        self.x0, self.y0, self.x1, self.y1 = bbox
        self.width = bbox[2] - bbox[0]
        self.height = bbox[3] - bbox[1]
        self.bbox = bbox


class Look(NamedTuple):
    """How a text object's characters are drawn: render mode, rotation, whiteness, size."""

    mode: int
    turned: bool
    white: bool
    size: float


def page_paragraphs(
    path: Path,
    hidden: list[str] | None = None,
    scanned: list[ScannedPage] | None = None,
    places: list[tuple[int, bool]] | None = None,
) -> Iterator[str]:
    """Text boxes of every page in pdfminer's reading order, lines still apart, page numbers
    dropped, a box split where its font size changes (as `pdf.page_paragraphs`).

    The text of characters the page does not show goes to `hidden`, one piece per box;
    pages that are pictures of text (`ScannedPage`) go to `scanned`; each box's page and
    whether it is in the page's margin to `places` (`pdf_chrome.page_boxes`).
    Raises PasswordProtected, or Unsuited when pdfminer should read the file instead.
    """
    document = _open_document(path)
    try:
        boxes = 0
        for index in range(_page_count(document)):
            page = _load_page(document, index)
            if not page:  # a damaged page: pdfminer may read it
                raise Unsuited(f"PDFium cannot load page {index + 1}")
            try:
                shown, unseen, bbox, _ = _page_chars(page)
                pictured = scanned is not None and _maybe_scanned(page, shown, unseen, bbox)
            except pypdfium.PdfiumError as error:
                raise Unsuited(f"PDFium cannot read page {index + 1} ({error})") from error
            finally:
                _close_page(page)
            if shown:
                for text, margin in page_boxes(shown.text, shown.bounds, bbox):
                    boxes += 1
                    if places is not None:
                        places.append((index, margin))
                    yield text
            if pictured:
                scanned.append(ScannedPage(index, boxes))
            if unseen and hidden is not None:
                hidden.extend(hidden_page_texts(unseen.text, unseen.bounds, bbox))
    finally:
        _close_document(document)


def _open_document(path: Path) -> _Handle:
    """The document's handle, opened as `pypdfium2.PdfDocument` opens a path (the same
    checks and errors), without its wrapper objects and their finalizers."""
    path = Path(path).expanduser().resolve()
    if not path.is_file():
        raise FileNotFoundError(path)
    name = (str(path) + "\x00").encode("utf-8", errors=_NAME_ERRORS)
    document = _load_document(name, None)
    if _page_count(document) < 1:
        code = fpdf.FPDF_GetLastError()
        if document:
            _close_document(document)
        if code == fpdf.FPDF_ERR_PASSWORD:
            raise PasswordProtected("PDFium: the file needs a password")
        raise Unsuited(f"PDFium cannot open the file (error {code})")
    return document


@dataclass(frozen=True, slots=True)
class ScannedPage:
    """A page that is a picture with (almost) no text of its own: `index` from 0, and how
    many text boxes the pages before it and its own few gave (where its OCR text goes)."""

    index: int
    boxes_before: int


def _scanned(page: _Handle, shown: list, unseen: list, bbox: Box) -> bool:
    """Whether the page is a scan: hardly a character of its own (a page number, a stamp)
    and pictures over at least half of it. Invisible text over a scan (an OCR layer) counts
    as its text: such a page has been read already."""
    letters = sum(1 for c in shown if not c.get_text().isspace()) + len(unseen)
    if letters > _MAX_SCAN_LETTERS:
        return False
    pictures, _ = _backdrops(page)
    width, height = bbox[2], bbox[3]
    covered = sum(max(0.0, x1 - x0) * max(0.0, y1 - y0) for x0, y0, x1, y1 in pictures)
    return width > 0 and height > 0 and covered >= _MIN_SCAN_SHARE * width * height


def _maybe_scanned(page: _Handle, shown: Chars, unseen: Chars, bbox: Box) -> bool:
    """`_scanned`, asked only of a page with few enough letters to be a scan (the others
    are not, and need no characters made for it)."""
    if shown.letters + len(unseen) > _MAX_SCAN_LETTERS:
        return False
    return _scanned(page, shown.placed(), unseen.placed(), bbox)


@dataclass(frozen=True, slots=True)
class Chars:
    """Characters of a page in drawing order: `text` one character each, `bounds` their x0,
    y0, x1 and y1 rows in pdfminer's page space, `letters` how many are not whitespace."""

    text: str
    bounds: np.ndarray
    letters: int

    def __len__(self) -> int:
        return len(self.text)

    def placed(self) -> list[PlacedChar]:
        return [
            PlacedChar(text, box, 0.0)
            for text, box in zip(self.text, self.bounds.T.tolist(), strict=True)
        ]


def page_chars(page: pypdfium.PdfPage) -> tuple[Chars, Chars, Box, int]:
    """`_page_chars` of a pypdfium2 page."""
    return _page_chars(_Handle(ctypes.cast(page.raw, ctypes.c_void_p).value))


def _page_chars(page: _Handle) -> tuple[Chars, Chars, Box, int]:
    """(characters shown, characters not shown, page box, rotation) of a page (its handle),
    each in drawing order (lines are built from it), in pdfminer's page space (media box at
    the origin, turned as displayed)."""
    media = drawn_box(_page_box(page)) or LETTER
    x0, y0, x1, y1 = _drawn_area(page, media)
    rotate = _rotation(page)
    textpage = _load_textpage(page)
    if not textpage:
        raise pypdfium.PdfiumError("Failed to load text page.")
    try:
        codes, space, raw, look_of, looks = _drawn_chars(textpage, page)
    finally:
        _close_textpage(textpage)
    _check_upright(raw, look_of, looks)
    shown, hidden = _shown_and_hidden(page, raw, space, look_of, looks, (x0, y0, x1, y1))
    bounds = _to_page_space(raw, media, rotate)
    width, height = _size(media, rotate)
    return (
        _chars(codes, bounds, space, shown),
        _chars(codes, bounds, space, hidden),
        (0.0, 0.0, width, height),
        rotate,
    )


def _page_box(page: _Handle) -> Box:
    """The page's media box as written (ANSI A when it has none, as pypdfium2 gives it)."""
    sides = _box_sides
    if _media_box(page, *sides.places):
        values = sides.values
        return (values[0], values[1], values[2], values[3])
    return (0, 0, 612, 792)


def _drawn_area(page: _Handle, media: Box) -> Box:
    """The part of the page PDFium draws (its crop box within its media box, each put right
    as PDFium puts it right); `media` when that has no area (a crop box off the page, which
    poppler ignores)."""
    sides = _box_sides
    if not _bounding_box(page, sides.places[0]):
        return media
    left, top, right, bottom = sides.values
    return drawn_box((left, bottom, right, top)) or media


def _rotation(page: _Handle) -> int:
    """The page's clockwise rotation in degrees (pypdfium2's `get_rotation`)."""
    turns = _page_rotation(page)
    if turns not in (0, 1, 2, 3):
        raise pypdfium.PdfiumError("Failed to get page rotation.")
    return 90 * turns


class _BoxSides(threading.local):
    """Four c_float a page box is read into, and their pointers (made once a thread)."""

    def __init__(self) -> None:
        self.floats = (ctypes.c_float * 4)()
        self.places = [ctypes.byref(self.floats, 4 * k) for k in range(4)]

    @property
    def values(self) -> list[float]:
        return self.floats[:]


_box_sides = _BoxSides()


def _shown_and_hidden(
    page: _Handle,
    raw: np.ndarray,
    space: np.ndarray,
    look_of: np.ndarray,
    looks: list[Look],
    area: Box,
) -> tuple[np.ndarray, np.ndarray]:
    """Which characters the page shows, which it does not: those outside the visible
    `area`, of 1 pt or less (but whitespace), invisible and not over a picture, white on
    nothing darker. Looks are asked about once each, characters only for looks that may
    hide them (most pages have none)."""
    hidden = _outside(raw, area)
    tiny = np.array([look.size <= MAX_HIDDEN_POINTS for look in looks], dtype=bool)
    if tiny.any():
        hidden |= tiny[look_of] & ~space
    shown = ~hidden
    odd = np.array([look.mode == _INVISIBLE or look.white for look in looks], dtype=bool)
    if not odd.any():
        return shown, hidden
    undecided = shown & odd[look_of]
    if undecided.any():  # invisible over a picture: a scan's OCR text; white over a dark ground
        shown &= ~undecided
        left, bottom, right, top = raw
        pictures, grounds = _backdrops(page)
        for k in np.flatnonzero(undecided).tolist():
            behind = pictures if looks[look_of[k]].mode == _INVISIBLE else grounds
            box = (float(left[k]), float(bottom[k]), float(right[k]), float(top[k]))
            if _over(box, behind):
                shown[k] = True
            else:
                hidden[k] = True
    return shown, hidden


def _outside(raw: np.ndarray, area: Box) -> np.ndarray:
    """Which boxes lie wholly outside `area` (none, most often: told by four extremes)."""
    x0, y0, x1, y1 = area
    left, bottom, right, top = raw
    if len(left) and right.min() > x0 and left.max() < x1 and top.min() > y0 and bottom.max() < y1:
        return np.zeros(len(left), dtype=bool)
    return (right <= x0) | (left >= x1) | (top <= y0) | (bottom >= y1)


def _chars(codes: np.ndarray, bounds: np.ndarray, space: np.ndarray, which: np.ndarray) -> Chars:
    count = int(np.count_nonzero(which))
    if count == 0:
        return Chars("", bounds[:, :0], 0)
    if count < len(which):
        codes, bounds, space = codes[which], bounds[:, which], space[which]
    text = codes.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
    return Chars(text, bounds, count - int(np.count_nonzero(space)))


def _drawn_chars(
    textpage: _Handle, page_handle: _Handle
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[Look]]:
    """Every character PDFium read from the page (not the spaces and line breaks it adds):
    code points, which are whitespace, loose boxes (the advance wide, from the font's
    descent to its ascent: near pdfminer's box, which is one em high from the descent) as
    left, bottom, right and top rows, and looks (`looks[look_of[k]]` of character k).

    Raises Unsuited at a glyph without a Unicode value.
    """
    page = _pointer(textpage.value)  # a ready argument for the calls per character
    found = _kept_chars_in_c(textpage) if pdf_loops is not None else None
    codes, spaces, indices, raw = _kept_chars(textpage) if found is None else found
    m = len(indices)
    colour = _Colour()
    shared = _shared_look(page_handle, colour) if m else None
    if shared is not None:
        return codes, spaces, raw, np.zeros(m, dtype=np.intp), [shared]
    objects = _each(_text_object, textpage, indices)
    addresses, first, look_of = np.unique(objects, return_index=True, return_inverse=True)
    # the looks of upright text objects as the page's objects give them (a few calls each),
    # the others' through their first character (`_look`)
    known = _object_looks(page_handle, colour)
    looks = [
        known[address] if address in known else _look(page, int(indices[k]), address, colour)
        for address, k in zip(addresses.tolist(), first.tolist(), strict=True)
    ]
    return codes, spaces, raw, look_of.reshape(-1), looks


def _kept_chars(textpage: _Handle) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The code points, whitespace, indices and loose boxes (left, bottom, right and top
    rows) of the characters PDFium read from the page, not the spaces it generated.

    Raises Unsuited at a glyph without a Unicode value.
    """
    page = _pointer(textpage.value)
    count = _count_chars(page)
    codes = _unicodes(page, page, count)
    spaces, glyphs = _kinds(codes)
    # PDFium generates only spaces and line breaks: ask about those alone
    kept = np.ones(count, dtype=bool)
    at_spaces = _indices(spaces)
    kept[at_spaces] = _each(_is_generated, textpage, at_spaces) == 0
    if _each(_map_error, textpage, _indices(glyphs)).any():
        raise Unsuited("a font without a Unicode value for its glyphs")
    indices = _indices(kept)
    return codes[kept], spaces[kept], indices, _loose_boxes(textpage, indices)


def _kept_chars_in_c(
    textpage: _Handle,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """`_kept_chars` in one C loop (`pdf_loops.drawn_chars`); None for a page of a code
    point beyond Unicode (`_kept_chars` tells it)."""
    found = pdf_loops.drawn_chars(textpage.value, _char_functions())
    if found is None:
        return None
    codes, spaces, indices, boxes, unmapped = found
    if unmapped:
        raise Unsuited("a font without a Unicode value for its glyphs")
    return (
        np.frombuffer(codes, np.uint32),
        np.frombuffer(spaces, bool),
        np.frombuffer(indices, np.int32),
        np.frombuffer(boxes, np.float64).reshape(4, -1),
    )


@functools.cache
def _char_functions() -> tuple[int, ...]:
    """The addresses of the functions `_kept_chars` calls, in the order the C loop takes
    them."""
    functions = (_count_chars, _get_text, _unicode, _is_generated, _map_error, _loose_box)
    return tuple(_address(function) for function in functions)


def _loose_boxes(textpage: _Handle, indices: np.ndarray) -> np.ndarray:
    """The loose boxes of the characters at `indices`, as left, bottom, right and top rows
    (empty where PDFium gives none)."""
    m = len(indices)
    if pdf_loops is not None:
        rects = np.zeros(4 * m, np.float32)
        pdf_loops.rects(_address(_loose_box), textpage.value, indices, rects)
        boxes = rects.reshape(-1, 4).T
    else:  # into a buffer kept for the thread, whose pointers are made once
        buffer, places = _box_buffer(m)
        ctypes.memset(buffer, 0, 16 * m)
        deque(map(_loose_box, repeat(_pointer(textpage.value)), indices.tolist(), places), maxlen=0)
        boxes = np.frombuffer(buffer, np.float32, 4 * m).reshape(-1, 4).T
    return boxes[_BOX_COLUMNS].astype(np.float64)


def _address(function: object) -> int:
    """A `_bare` function's address, as the C loops take it."""
    return ctypes.cast(function, ctypes.c_void_p).value


def _indices(which: np.ndarray) -> np.ndarray:
    """The places of `which`'s true values, as the C loops take them (int32)."""
    return np.flatnonzero(which).astype(np.int32)


def _each(function: object, textpage: _Handle, indices: np.ndarray) -> np.ndarray:
    """`function(textpage, i)` for each i of `indices`: int32 answers, or uint64 for
    `_text_object`'s addresses."""
    kind = np.uint64 if function is _text_object else np.int32
    answers = np.empty(len(indices), kind)
    if pdf_loops is not None:
        loop = pdf_loops.pointers if kind is np.uint64 else pdf_loops.ints
        loop(_address(function), textpage.value, indices, answers)
    else:
        page = _pointer(textpage.value)
        answers[:] = np.fromiter(map(function, repeat(page), indices.tolist()), kind, len(indices))
    return answers


class _BoxBuffer(threading.local):
    def __init__(self) -> None:
        self.rects: ctypes.Array = (ctypes.c_float * 0)()
        self.places: list = []


_box_buffers = _BoxBuffer()


def _box_buffer(count: int) -> tuple[ctypes.Array, list]:
    """This thread's buffer of at least `count` FS_RECTF and a pointer to each (a buffer
    of its own for a page of more than _MAX_KEPT_BOXES characters: not kept)."""
    if count > _MAX_KEPT_BOXES:
        rects = (ctypes.c_float * (4 * count))()
        return rects, [ctypes.byref(rects, 16 * k) for k in range(count)]
    buffer = _box_buffers
    size = len(buffer.places)
    if size < count:
        size = max(count, 2 * size, 4096)
        buffer.rects = (ctypes.c_float * (4 * size))()
        buffer.places = [ctypes.byref(buffer.rects, 16 * k) for k in range(size)]
    return buffer.rects, buffer.places


def _kinds(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which code points are whitespace (`str.isspace`), which are printable and not
    whitespace (`str.isprintable`): looked up in tables of the Basic Multilingual Plane,
    asked of Python beyond it."""
    space_table, glyph_table = _kind_tables()
    if not len(codes) or codes.max() < 0x10000:
        return space_table[codes], glyph_table[codes]
    distinct, which = np.unique(codes, return_inverse=True)
    chars = [chr(code) for code in distinct.tolist()]
    which = which.reshape(-1)
    spaces = np.array([char.isspace() for char in chars], dtype=bool)[which]
    glyphs = np.array([char.isprintable() for char in chars], dtype=bool)[which]
    return spaces, glyphs & ~spaces


@functools.cache
def _kind_tables() -> tuple[np.ndarray, np.ndarray]:
    chars = [chr(code) for code in range(0x10000)]
    spaces = np.array([char.isspace() for char in chars], dtype=bool)
    glyphs = np.array([char.isprintable() for char in chars], dtype=bool) & ~spaces
    return spaces, glyphs


def _unicodes(handle: object, page: ctypes.c_void_p, count: int) -> np.ndarray:
    """The code points of the text page's characters, read in one call where the page's
    text is one UTF-16 unit per character, as it is but for characters outside the Basic
    Multilingual Plane and control characters PDFium leaves out of its text (those pages
    are read a character at a time); PDFium's text has U+FFFE for a glyph without a code
    point of its own (and a line-end hyphen it marks), where the character's own value is
    asked for."""
    buffer = (ctypes.c_ushort * (count + 1))()
    written = _get_text(handle, 0, count, buffer) if count else 0
    units = np.frombuffer(buffer, np.uint16, count)
    if written == count + 1 and not ((units >= 0xD800) & (units <= 0xDFFF)).any():
        codes = units.astype(np.uint32)
        for i in np.flatnonzero(units == 0xFFFE).tolist():
            codes[i] = _unicode(page, i)
        return codes
    return np.array([_unicode(page, i) for i in range(count)], dtype=np.uint32)


def _look(textpage: ctypes.c_void_p, index: int, address: int, colour: _Colour) -> Look:
    """The look of the text object (at `address`, 0 for none) drawing character `index`."""
    if not address:
        return Look(0, False, False, _drawn_size(textpage, index))
    obj = _pointer(address)
    mode = _render_mode(obj)
    angle = _angle(textpage, index)
    turned = min(angle, 2 * math.pi - angle) > _UPRIGHT_TOLERANCE if angle >= 0 else False
    if mode in _STROKED:
        white = colour.white(obj, _stroke_colour)
    elif mode in _FILLED_AND_STROKED:
        white = colour.white(obj, _fill_colour) and colour.white(obj, _stroke_colour)
    else:
        white = mode != _INVISIBLE and colour.white(obj, _fill_colour)
    return Look(mode, turned, white, _drawn_size(textpage, index))


def _drawn_size(textpage: ctypes.c_void_p, index: int) -> float:
    """Character `index`'s font size as drawn, in points: the size set (`Tf`) times the
    height its matrix gives a unit of text space. macOS writes every PDF at 1 pt scaled
    by the text matrix; the size set alone would call all of its text hidden."""
    matrix = fpdf.FS_MATRIX()
    if not _char_matrix(textpage, index, ctypes.byref(matrix)):
        return _font_size(textpage, index)
    return _font_size(textpage, index) * math.hypot(matrix.c, matrix.d)


def _shared_look(page: ctypes.c_void_p, colour: _Colour) -> Look | None:
    """A look every character of the page has as `_look` sees it, when the page's text
    objects (those in its forms too) all look alike in what tells characters shown from
    characters hidden (a font size up to MAX_HIDDEN_POINTS, render mode 3, whiteness) and
    all stand upright; else None, and the characters' own text objects are asked about.

    Every character PDFium reads (but the spaces and line breaks it generates) comes from
    a text object of the page or of a form on it; its angle is that of its text matrix
    times the matrices of the forms around it (`FPDFText_GetCharAngle`: atan2 of the matrix'
    c and a). Matrices without b and c and with a > 0 multiply into one of the same kind:
    angle 0. Its size is the text object's font size (1 without a font) as drawn: times
    the vertical scale of its matrix and its forms' (`_drawn_size`).
    """
    walked = _walked_looks(page) if pdf_loops is not None else None
    if walked is not None:
        return _shared_of(*walked)
    shared: Look | None = None
    shared_kind = None  # what tells shown from hidden: (tiny, invisible, white)
    for look in _text_looks(page, colour):
        if look is None:
            return None
        _, mode, white, size = look
        look_kind = (size <= MAX_HIDDEN_POINTS, mode == _INVISIBLE, white)
        if shared_kind is None:
            shared_kind = look_kind
            shared = Look(mode, False, white, size)
        elif look_kind != shared_kind:
            return None
    return shared


def _shared_of(
    modes: np.ndarray, white: np.ndarray, sizes: np.ndarray, complete: bool
) -> Look | None:
    """`_shared_look` of the text objects walked in C (`_walked_looks`), on their arrays."""
    if not complete or not len(modes):
        return None
    for kind in (sizes <= MAX_HIDDEN_POINTS, modes == _INVISIBLE, white):
        if kind.any() and not kind.all():
            return None
    return Look(int(modes[0]), False, bool(white[0]), float(sizes[0]))


def _walked_looks(page: ctypes.c_void_p) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool] | None:
    """(render modes, whiteness, font sizes as drawn, whether the walk went to the end) of
    the page's text objects as `_text_looks` gives them, as arrays; None when a mode or
    colour did not fit its key (then `_text_looks` asks again one by one)."""
    found = pdf_loops.text_objects(page.value, _walk_functions(), _MAX_SHARED_DEPTH)
    _, modes, sizes, keys, complete, packed = found
    if not packed:
        return None
    keys = np.frombuffer(keys, np.uint64).tolist()
    white = {key: _white_object(key) for key in set(keys)}
    return (
        np.frombuffer(modes, np.int32),
        np.fromiter(map(white.__getitem__, keys), bool, len(keys)),
        np.frombuffer(sizes, np.float64),
        complete,
    )


def _object_looks(page: ctypes.c_void_p, colour: _Colour) -> dict[int, Look]:
    """The look of each text object of the page and of its forms, by its address, as
    `_look` gives it, when they all stand upright (as `_shared_look` tells them); else
    none (then `_look` asks about each object through its characters)."""
    looks = {}
    for look in _text_looks(page, colour):
        if look is None:
            return {}
        address, mode, white, size = look
        looks[address] = Look(mode, False, white, size)
    return looks


def _text_looks(
    page: ctypes.c_void_p, colour: _Colour
) -> Iterator[tuple[int, int, bool, float] | None]:
    """(address, render mode, whiteness, font size as drawn) of every text object of the page and
    of its forms, in the order `_shared_look` asks about them; None, and nothing after
    it, at an object that is turned, slanted or flipped (or a form's), at a font size
    PDFium does not give, or at forms nested deeper than _MAX_SHARED_DEPTH. Walked in C
    (`pdf_loops.text_objects`) where it is built, by `_text_looks_one_by_one` else."""
    if pdf_loops is None:
        yield from _text_looks_one_by_one(page, colour)
        return
    found = pdf_loops.text_objects(page.value, _walk_functions(), _MAX_SHARED_DEPTH)
    addresses, modes, sizes, keys, complete, packed = found
    if not packed:  # a mode or colour PDFium does not give: asked again one by one
        yield from _text_looks_one_by_one(page, colour)
        return
    keys = np.frombuffer(keys, np.uint64).tolist()
    white = {key: _white_object(key) for key in set(keys)}
    yield from zip(
        np.frombuffer(addresses, np.uint64).tolist(),
        np.frombuffer(modes, np.int32).tolist(),
        map(white.__getitem__, keys),
        np.frombuffer(sizes, np.float64).tolist(),
        strict=True,
    )
    if not complete:
        yield None


@functools.cache
def _walk_functions() -> tuple[int, ...]:
    """The addresses of the functions `_text_looks_one_by_one` calls, in the order the C
    walk takes them."""
    functions = (
        _page_objects,
        _page_object,
        _form_objects,
        _form_object,
        _object_kind,
        _object_matrix,
        _object_font_size,
        _object_font,
        _render_mode,
        _fill_colour,
        _stroke_colour,
    )
    return tuple(_address(function) for function in functions)


def _white_object(key: int) -> bool:
    """`_Colour.white` of a text object of the render mode and colours packed in `key`
    (`look_key` in pdf_loops.c)."""
    mode = (key >> 48 & 0xFF) - 1
    fill = bool(key >> 57 & 1) and _whitish(key >> 40 & 0xFF, key >> 32 & 0xFF, key >> 24 & 0xFF)
    stroke = bool(key >> 56 & 1) and _whitish(key >> 16 & 0xFF, key >> 8 & 0xFF, key & 0xFF)
    if mode in _STROKED:
        return stroke
    if mode in _FILLED_AND_STROKED:
        return fill and stroke
    return mode != _INVISIBLE and fill


def _text_looks_one_by_one(
    page: ctypes.c_void_p, colour: _Colour
) -> Iterator[tuple[int, int, bool, float] | None]:
    """`_text_looks` through ctypes, a call at a time."""
    matrix = fpdf.FS_MATRIX()
    at_matrix = ctypes.byref(matrix)
    size = ctypes.c_float()
    at_size = ctypes.byref(size)
    rgba, places = colour.rgba, colour.places
    text_kind, form_kind, inf = fpdf.FPDF_PAGEOBJ_TEXT, fpdf.FPDF_PAGEOBJ_FORM, math.inf
    # the page or a form, its objects, its depth, the height of its unit on the page
    holders = [(page, _page_objects(page), 0, 1.0)]
    while holders:
        holder, count, depth, scale = holders.pop()
        if depth > _MAX_SHARED_DEPTH:
            yield None
            return
        if depth:
            addresses = map(_form_object, repeat(holder), map(ctypes.c_ulong, range(count)))
        else:
            addresses = map(_page_object, repeat(holder), range(count))
        for address in addresses:
            obj = _pointer(address)
            kind = _object_kind(obj)
            if kind != text_kind and kind != form_kind:
                continue
            # the matrix only scales (a > 0) and moves: no turn, shear or flip
            if not (
                _object_matrix(obj, at_matrix)
                and matrix.b == 0
                and matrix.c == 0
                and 0 < matrix.a < inf
                and -inf < matrix.d < inf
            ):
                yield None
                return
            if kind == form_kind:
                holders.append((obj, _form_objects(obj), depth + 1, scale * abs(matrix.d)))
                continue
            mode = _render_mode(obj)
            if not _object_font(obj):
                size.value = 1.0
            elif not _object_font_size(obj, at_size):
                yield None
                return
            # `_Colour.white` written out: a call less for each of a page's text objects
            if mode in _STROKED:
                white = bool(_stroke_colour(obj, *places)) and _whitish(rgba[0], rgba[1], rgba[2])
            elif mode in _FILLED_AND_STROKED:
                white = colour.white(obj, _fill_colour) and colour.white(obj, _stroke_colour)
            else:
                white = (
                    mode != _INVISIBLE
                    and bool(_fill_colour(obj, *places))
                    and _whitish(rgba[0], rgba[1], rgba[2])
                )
            yield address, mode, white, size.value * abs(matrix.d) * scale


class _Colour:
    """Reads page objects' colours with a `_bare` function into one array: `white` is
    `_white` without making four numbers and their pointers for each object."""

    def __init__(self) -> None:
        self.rgba = (ctypes.c_uint * 4)()
        self.places = [ctypes.byref(self.rgba, 4 * k) for k in range(4)]

    def white(self, obj: object, get_colour: object) -> bool:
        if not get_colour(obj, *self.places):  # a pattern, or no colour
            return False
        rgba = self.rgba
        return _whitish(rgba[0], rgba[1], rgba[2])


def _white(obj: object, get_colour: object) -> bool:
    """Whether the page object's fill (or stroke) colour is white or nearly."""
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not get_colour(obj, *map(ctypes.byref, (r, g, b, a))):  # a pattern, or no colour
        return False
    return _whitish(r.value, g.value, b.value)


@functools.lru_cache(maxsize=4096)
def _whitish(red: int, green: int, blue: int) -> bool:
    return unreadable((red / 255, green / 255, blue / 255), WHITE)


def _check_upright(raw: np.ndarray, look_of: np.ndarray, looks: list[Look]) -> None:
    """Raise Unsuited when much of the page is rotated or runs top to bottom (one character
    below the one before it, as in vertical writing)."""
    count = raw.shape[1]
    turned = 0
    if any(look.turned for look in looks):
        turned = int(np.array([look.turned for look in looks], dtype=bool)[look_of].sum())
    downward = 0
    if count > 1:
        x0, y0, x1, y1 = raw
        a, b = slice(None, -1), slice(1, None)  # each character, the one after it
        below = (np.abs(x0[b] - x0[a]) < 0.5 * (x1[a] - x0[a])) & (
            y0[a] - y0[b] > 0.5 * (y1[a] - y0[a])
        )
        downward = int(below.sum())
    if max(turned, downward) > _MAX_TURNED_SHARE * count + 1:
        raise Unsuited("vertical or rotated text")


def _backdrops(page: _Handle) -> tuple[list[Box], list[Box]]:
    """Boxes of the page's pictures, and of what may lie behind white text and show it: a
    picture, a form, a filled shape of any colour but white."""
    pictures: list[Box] = []
    grounds: list[Box] = []
    raw = ctypes.cast(page, fpdf.FPDF_PAGE)
    for i in range(fpdf.FPDFPage_CountObjects(raw)):
        obj = fpdf.FPDFPage_GetObject(raw, i)
        kind = fpdf.FPDFPageObj_GetType(obj)
        if kind == fpdf.FPDF_PAGEOBJ_IMAGE or (
            kind == fpdf.FPDF_PAGEOBJ_FORM and _holds_picture(obj, 1)
        ):
            pictures.append(_bounds(obj))
        if kind in (fpdf.FPDF_PAGEOBJ_IMAGE, fpdf.FPDF_PAGEOBJ_FORM) or (
            kind == fpdf.FPDF_PAGEOBJ_PATH
            and _filled(obj)
            and not _white(obj, fpdf.FPDFPageObj_GetFillColor)
        ):
            grounds.append(_bounds(obj))
    return pictures, grounds


def _holds_picture(form: object, depth: int) -> bool:
    """Whether a form XObject draws a picture (in forms of its own too)."""
    if depth > _MAX_FORM_DEPTH:
        return False
    for i in range(fpdf.FPDFFormObj_CountObjects(form)):
        obj = fpdf.FPDFFormObj_GetObject(form, i)
        kind = fpdf.FPDFPageObj_GetType(obj)
        if kind == fpdf.FPDF_PAGEOBJ_IMAGE:
            return True
        if kind == fpdf.FPDF_PAGEOBJ_FORM and _holds_picture(obj, depth + 1):
            return True
    return False


def _filled(path: object) -> bool:
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    return bool(fpdf.FPDFPath_GetDrawMode(path, fill_mode, stroke)) and fill_mode.value != 0


def _bounds(obj: object) -> Box:
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    fpdf.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
    return (left.value, bottom.value, right.value, top.value)


def _over(box: Box, backdrops: list[Box]) -> bool:
    """Whether the middle of the character's box lies inside one of the backdrops."""
    x = (box[0] + box[2]) / 2
    y = (box[1] + box[3]) / 2
    return any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in backdrops)


def _size(media: Box, rotate: int) -> tuple[float, float]:
    width, height = abs(media[2] - media[0]), abs(media[3] - media[1])
    return (height, width) if rotate in (90, 270) else (width, height)


def _to_page_space(raw: np.ndarray, media: Box, rotate: int) -> np.ndarray:
    """Boxes (x0, y0, x1, y1 rows) on the page in pdfminer's page space: the media box's lower
    left corner at the origin, the page turned as it is displayed (`/Rotate`)."""
    x0, y0, x1, y1 = media
    a, b, c, d = raw
    if rotate == 0 and x0 == 0 and y0 == 0:  # page space is PDFium's
        return raw
    if rotate == 90:
        return np.array((b - y0, x1 - c, d - y0, x1 - a))
    if rotate == 180:
        return np.array((x1 - c, y1 - d, x1 - a, y1 - b))
    if rotate == 270:
        return np.array((y1 - d, a - x0, y1 - b, c - x0))
    return np.array((a - x0, b - y0, c - x0, d - y0))
