"""PDF files read with PDFium (pypdfium2): each character's text, box, size, colour and
render mode, laid out into text boxes as pdfminer lays them out (`pdf_layout`).

PDFium parses and interprets pages in C, where pdfminer.six does it in Python; the layout
(characters to lines to boxes) stays pdfminer's, so both readers give the same paragraphs.
Files whose text PDFium reads otherwise than pdfminer raise `Unsuited`, and `pdf` reads
them with pdfminer: glyphs without a Unicode value (pdfminer marks them "(cid:N)", which
`without_glyph_numbers` counts), vertical writing and pages of rotated text (pdfminer
builds their boxes from font metrics PDFium does not give), files PDFium cannot open.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pypdfium2 as pypdfium
import pypdfium2.raw as fpdf
from pdfminer.layout import LTChar
from simsift.core.read.extract.hidden import MAX_HIDDEN_POINTS, WHITE, unreadable
from simsift.core.read.extract.pdf_layout import (
    analyzed_page,
    box_columns,
    box_texts,
    hidden_texts,
    visible_area,
)

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


def _bare(function: object, restype: object) -> object:
    """A PDFium function called once per character (or text object), without pypdfium2's
    typed pointers and without argument types: ctypes then passes a `c_void_p` and an `int`
    as they are, where checking them against argument types would cost more than the call
    itself."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    return ctypes.CFUNCTYPE(restype)(address)


# each (text page, index), _loose_box with a pointer to an FS_RECTF after them
_is_generated = _bare(fpdf.FPDFText_IsGenerated, ctypes.c_int)
_map_error = _bare(fpdf.FPDFText_HasUnicodeMapError, ctypes.c_int)
_unicode = _bare(fpdf.FPDFText_GetUnicode, ctypes.c_uint)
_loose_box = _bare(fpdf.FPDFText_GetLooseCharBox, ctypes.c_int)
# characters are compared by their text object (one per text-showing operator, one font
# size, colour and render mode) to look those up once per object, not once per character
_text_object = _bare(fpdf.FPDFText_GetTextObject, ctypes.c_void_p)
# once per text object: (text page, index) and (object, pointers to four c_uint)
_font_size = _bare(fpdf.FPDFText_GetFontSize, ctypes.c_double)
_angle = _bare(fpdf.FPDFText_GetCharAngle, ctypes.c_float)
_render_mode = _bare(fpdf.FPDFTextObj_GetTextRenderMode, ctypes.c_int)
_fill_colour = _bare(fpdf.FPDFPageObj_GetFillColor, ctypes.c_int)
_stroke_colour = _bare(fpdf.FPDFPageObj_GetStrokeColor, ctypes.c_int)


class Unsuited(Exception):
    """PDFium cannot read this file's text as pdfminer does: read it with pdfminer."""


class PasswordProtected(Exception):
    """The PDF needs a password to open."""


class PlacedChar(LTChar):
    """A character as pdfminer's layout analysis takes it: text, box and size (points),
    without the font and graphic state pdfminer's interpreter keeps with it."""

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


@dataclass(frozen=True, slots=True)
class Look:
    """How a text object's characters are drawn: render mode, rotation, whiteness, size."""

    mode: int
    turned: bool
    white: bool
    size: float


def page_paragraphs(
    path: Path, hidden: list[str] | None = None, scanned: list[ScannedPage] | None = None
) -> Iterator[str]:
    """Text boxes of every page in pdfminer's reading order, lines still apart, page numbers
    dropped, a box split where its font size changes (as `pdf.page_paragraphs`).

    The text of characters the page does not show goes to `hidden`, one piece per box;
    pages that are pictures of text (`ScannedPage`) go to `scanned`.
    Raises PasswordProtected, or Unsuited when pdfminer should read the file instead.
    """
    try:
        document = pypdfium.PdfDocument(path)
    except pypdfium.PdfiumError as error:
        if getattr(error, "err_code", None) == fpdf.FPDF_ERR_PASSWORD:
            raise PasswordProtected(str(error)) from error
        raise Unsuited(f"PDFium cannot open the file ({error})") from error
    try:
        boxes = 0
        for index in range(len(document)):
            try:
                page = document[index]
            except pypdfium.PdfiumError as error:  # a damaged page: pdfminer may read it
                raise Unsuited(f"PDFium cannot load page {index + 1} ({error})") from error
            try:
                shown, unseen, bbox, rotate = page_chars(page)
                pictured = scanned is not None and _scanned(page, shown, unseen, bbox)
            except pypdfium.PdfiumError as error:
                raise Unsuited(f"PDFium cannot read page {index + 1} ({error})") from error
            finally:
                page.close()
            if shown:
                for text in box_texts(analyzed_page(shown, bbox, rotate)):
                    boxes += 1
                    yield text
            if pictured:
                scanned.append(ScannedPage(index, boxes))
            if unseen and hidden is not None:
                hidden.extend(hidden_texts([analyzed_page(unseen, bbox, rotate)]))
    finally:
        document.close()


@dataclass(frozen=True, slots=True)
class ScannedPage:
    """A page that is a picture with (almost) no text of its own: `index` from 0, and how
    many text boxes the pages before it and its own few gave (where its OCR text goes)."""

    index: int
    boxes_before: int


def _scanned(page: pypdfium.PdfPage, shown: list, unseen: list, bbox: Box) -> bool:
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


def page_chars(page: pypdfium.PdfPage) -> tuple[list[PlacedChar], list[PlacedChar], Box, int]:
    """(characters shown, characters not shown, page box, rotation) of a page, each list in
    drawing order (lines are built from it), in pdfminer's page space (media box at the
    origin, turned as displayed)."""
    media = page.get_mediabox()
    x0, y0, x1, y1 = visible_area(media, page.get_cropbox())
    rotate = page.get_rotation()
    to_page = _page_space(media, rotate)
    as_is = rotate == 0 and media[0] == 0 and media[1] == 0  # page space is PDFium's
    textpage = page.get_textpage()
    try:
        chars, looks = _drawn_chars(textpage)
    finally:
        textpage.close()
    _check_upright(chars, looks)
    shown: list[tuple[int, PlacedChar]] = []
    hidden: list[tuple[int, PlacedChar]] = []
    undecided: list[tuple[int, PlacedChar, Box, Look]] = []  # invisible or white
    for order, (text, box, size, look) in enumerate(chars):
        char = PlacedChar(text, box if as_is else to_page(box), size)
        outside = box[2] <= x0 or box[0] >= x1 or box[3] <= y0 or box[1] >= y1
        if outside or (size <= MAX_HIDDEN_POINTS and text.strip()):
            hidden.append((order, char))
        elif look.mode == _INVISIBLE or look.white:
            undecided.append((order, char, box, look))
        else:
            shown.append((order, char))
    if undecided:  # invisible over a picture: a scan's OCR text; white over a dark ground
        pictures, grounds = _backdrops(page)
        for order, char, box, look in undecided:
            behind = pictures if look.mode == _INVISIBLE else grounds
            (shown if _over(box, behind) else hidden).append((order, char))
        shown.sort(key=_first)
        hidden.sort(key=_first)
    width, height = _size(media, rotate)
    return [c for _, c in shown], [c for _, c in hidden], (0.0, 0.0, width, height), rotate


def _first(item: tuple[int, PlacedChar]) -> int:
    return item[0]


def _drawn_chars(
    textpage: pypdfium.PdfTextPage,
) -> tuple[list[tuple[str, Box, float, Look]], dict[int, Look]]:
    """Every character PDFium read from the page (not the spaces and line breaks it adds):
    text, loose box (the advance wide, from the font's descent to its ascent: near pdfminer's
    box, which is one em high from the descent), size, look.

    Raises Unsuited at a glyph without a Unicode value.
    """
    handle = textpage.raw
    page = ctypes.c_void_p(ctypes.cast(handle, ctypes.c_void_p).value)
    rect = fpdf.FS_RECTF()
    rect_pointer = ctypes.byref(rect)
    looks: dict[int, Look] = {}
    chars: list[tuple[str, Box, float, Look]] = []
    last_object = None
    look = Look(0, False, False, 0.0)
    for i in range(fpdf.FPDFText_CountChars(handle)):
        text = chr(_unicode(page, i))
        # PDFium generates only spaces and line breaks: ask about those alone
        if text.isspace() and _is_generated(page, i):
            continue
        if text.isprintable() and not text.isspace() and _map_error(page, i):
            raise Unsuited("a font without a Unicode value for its glyphs")
        obj = _text_object(page, i)
        if obj != last_object:
            last_object = obj
            look = looks.get(obj) or looks.setdefault(obj, _look(page, i, obj))
        _loose_box(page, i, rect_pointer)
        chars.append((text, (rect.left, rect.bottom, rect.right, rect.top), look.size, look))
    return chars, looks


def _look(textpage: ctypes.c_void_p, index: int, address: int | None) -> Look:
    """The look of the text object drawing character `index`."""
    if not address:
        return Look(0, False, False, _font_size(textpage, index))
    obj = ctypes.c_void_p(address)
    mode = _render_mode(obj)
    angle = _angle(textpage, index)
    turned = min(angle, 2 * math.pi - angle) > _UPRIGHT_TOLERANCE if angle >= 0 else False
    if mode in _STROKED:
        white = _white(obj, _stroke_colour)
    elif mode in _FILLED_AND_STROKED:
        white = _white(obj, _fill_colour) and _white(obj, _stroke_colour)
    else:
        white = mode != _INVISIBLE and _white(obj, _fill_colour)
    return Look(mode, turned, white, _font_size(textpage, index))


def _white(obj: object, get_colour: object) -> bool:
    """Whether the page object's fill (or stroke) colour is white or nearly."""
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not get_colour(obj, *map(ctypes.byref, (r, g, b, a))):  # a pattern, or no colour
        return False
    return unreadable((r.value / 255, g.value / 255, b.value / 255), WHITE)


def _check_upright(chars: list[tuple[str, Box, float, Look]], looks: dict[int, Look]) -> None:
    """Raise Unsuited when much of the page is rotated or runs top to bottom (one character
    below the one before it, as in vertical writing)."""
    turned = (
        sum(1 for *_, look in chars if look.turned)
        if any(look.turned for look in looks.values())
        else 0
    )
    downward = 0
    if len(chars) > 1:
        x0, y0, x1, y1 = box_columns([box for _, box, _, _ in chars])
        a, b = slice(None, -1), slice(1, None)  # each character, the one after it
        below = (np.abs(x0[b] - x0[a]) < 0.5 * (x1[a] - x0[a])) & (
            y0[a] - y0[b] > 0.5 * (y1[a] - y0[a])
        )
        downward = int(below.sum())
    if max(turned, downward) > _MAX_TURNED_SHARE * len(chars) + 1:
        raise Unsuited("vertical or rotated text")


def _backdrops(page: pypdfium.PdfPage) -> tuple[list[Box], list[Box]]:
    """Boxes of the page's pictures, and of what may lie behind white text and show it: a
    picture, a form, a filled shape of any colour but white."""
    pictures: list[Box] = []
    grounds: list[Box] = []
    for i in range(fpdf.FPDFPage_CountObjects(page.raw)):
        obj = fpdf.FPDFPage_GetObject(page.raw, i)
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


def _page_space(media: Box, rotate: int):
    """A function taking a box on the page to pdfminer's page space: the media box's lower
    left corner at the origin, the page turned as it is displayed (`/Rotate`)."""
    x0, y0, x1, y1 = media

    def turned(box: Box) -> Box:
        a, b, c, d = box
        if rotate == 90:
            return (b - y0, x1 - c, d - y0, x1 - a)
        if rotate == 180:
            return (x1 - c, y1 - d, x1 - a, y1 - b)
        if rotate == 270:
            return (y1 - d, a - x0, y1 - b, c - x0)
        return (a - x0, b - y0, c - x0, d - y0)

    return turned
