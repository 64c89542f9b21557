"""PDF files: PDFium reads them, pdfminer.six where it reads better; one paragraph per
text box either way (`pdf_layout`).

`extract_pdf` reads with PDFium (`pdfium`), which parses pages in C (PDFs read twice as
fast as with pdfminer alone), and falls back to pdfminer's own interpreter, kept in this
module, for files PDFium cannot open or whose text it cannot read as pdfminer does: fonts
without a ToUnicode map (pdfminer's "(cid:N)" glyph numbers mark them as unreadable),
vertical or rotated writing. A file without any visible text (a scan), or whose text is
mostly such glyph numbers, is read by OCR (`ocr`), with a warning that says so.

Characters a viewer does not show are kept apart as hidden text: invisible ones (text
render mode 3) not lying over a picture (there they are a scan's OCR layer, which stands
for the picture's text), white ones on nothing darker, ones of 1 pt or less, and ones
wholly outside the page's visible area (crop box within the media box, each as PDFium and
poppler draw it: `hidden.drawn_box`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import (
    LTChar,
    LTComponent,
    LTCurve,
    LTFigure,
    LTImage,
    LTPage,
)
from pdfminer.pdfcolor import PDFColorSpace
from pdfminer.pdfdevice import PDFTextSeq
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.pdfinterp import (
    PDFGraphicState,
    PDFPageInterpreter,
    PDFResourceManager,
    PDFTextState,
)
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFSyntaxError
from pdfminer.pdftypes import resolve1
from pdfminer.psparser import PSException
from pdfminer.utils import apply_matrix_rect
from simsift.core.document import ExtractedText, ExtractionError, TransientError
from simsift.core.read.extract import pdfium
from simsift.core.read.extract.hidden import (
    ALL_HIDDEN,
    LETTER,
    MAX_HIDDEN_POINTS,
    WHITE,
    drawn_box,
    unreadable,
)
from simsift.core.read.extract.ocr import OCR_OFF, OcrUnavailable, ocr_summary, read_pages
from simsift.core.read.extract.paragraphs import (
    build_result,
    clean_paragraph,
    clean_paragraphs,
    split_heading,
)
from simsift.core.read.extract.pdf_chrome import chrome_boxes, furniture_boxes, page_boxes
from simsift.core.read.extract.pdf_layout import hidden_page_texts, one_code_each
from simsift.core.read.extract.pdf_text import join_lines, joined_paragraphs, without_glyph_numbers

__all__ = ["extract_pdf", "join_lines", "joined_paragraphs"]

_NO_TEXT = "no extractable text (scanned/image-only PDF?)"
PASSWORD_PROTECTED = "password protected PDF"
NOT_A_PDF = "not a valid PDF (corrupt or truncated)"
DAMAGED_FONT = "damaged font in the PDF (corrupt file); no text"

Box = tuple[float, float, float, float]

# Text render modes (PDF 32000 9.3.6): 3 draws nothing; 1 and 5 only stroke, 2 and 6 fill
# and stroke (0, 4 and 7 fill, or clip: the fill colour is what shows)
_INVISIBLE, _STROKED, _FILLED_AND_STROKED = 3, (1, 5), (2, 6)
# Colour spaces whose components are grey, RGB or CMYK values
_PLAIN_SPACES = frozenset(
    {"DeviceGray", "DeviceRGB", "DeviceCMYK", "ICCBased", "CalGray", "CalRGB"}
)


def extract_pdf(path: Path, *, ocr: bool = True) -> ExtractedText:
    """Text of a PDF, one paragraph per text box; clear errors for encrypted or image-only files.

    Read with PDFium; with pdfminer when PDFium cannot open the file or cannot read its
    text as pdfminer does (`pdfium.Unsuited`). A file with no visible text at all (a scan)
    is read by OCR (`ocr.read_pages`) when `ocr` is set, with a warning that says so;
    without `ocr` it is an error not remembered, so turning OCR on reads it. Scanned pages
    among pages of text are read by OCR too, their text at their place; without `ocr` they
    are counted in `unread_pictures`. The size limit is enforced by the caller before the
    file is opened.
    """
    hidden: list[str] = []
    scanned: list[pdfium.ScannedPage] = []
    places: list[tuple[int, bool]] = []
    try:
        boxes = list(pdfium.page_paragraphs(path, hidden, scanned, places))
    except pdfium.PasswordProtected as error:
        raise ExtractionError(PASSWORD_PROTECTED) from error
    except pdfium.Unsuited:
        hidden, scanned, places = [], [], []
        boxes = pdfminer_paragraphs(path, hidden, places)
    try:
        paragraphs, warnings = without_glyph_numbers(joined_paragraphs(boxes))
    except ExtractionError as error:  # fonts without Unicode values: the glyphs can be read
        if not ocr:  # not remembered either: turning OCR on reads the file
            raise TransientError(f"{error}{OCR_OFF}") from error
        return _read_by_ocr(path, error)
    if not hidden and not any_text(paragraphs):
        if not ocr:
            raise TransientError(_NO_TEXT + OCR_OFF)
        return _read_by_ocr(path, ExtractionError(_NO_TEXT))
    if scanned:
        return _with_scanned_pages(path, boxes, scanned, hidden, ocr=ocr)
    furniture = furniture_boxes(boxes, *zip(*places, strict=True)) if places else []
    title, body, marked = split_title(paragraphs, furniture, chrome_boxes(boxes, furniture))
    result = build_result(title, body, "pdf", no_text_message=ALL_HIDDEN if hidden else _NO_TEXT)
    return replace(
        result, warnings=warnings, hidden=tuple(hidden), chrome=kept_indices(body, marked)
    )


def split_title(
    paragraphs: list[str], furniture: list[bool], chrome: list[bool]
) -> tuple[str, list[str], list[bool]]:
    """(title, body, chrome flag per body paragraph): `split_heading` of the paragraphs,
    a running header or footer (`furniture`) never the title (the first paragraph a
    browser prints is its date and the page's title)."""
    if not any(chrome):
        title, body = split_heading(paragraphs)
        return title, body, [False] * len(body)
    first = next((i for i, p in enumerate(paragraphs) if p.strip() and not furniture[i]), None)
    if first is None:
        return "", paragraphs, chrome
    title, _ = split_heading(paragraphs[first:])
    if not title:
        return "", paragraphs, chrome
    body = [*paragraphs[:first], *paragraphs[first + 1 :]]
    return title, body, [*chrome[:first], *chrome[first + 1 :]]


def kept_indices(body: list[str], chrome: list[bool]) -> tuple[int, ...]:
    """The numbers the chrome paragraphs of `body` have once `build_result` has dropped
    the paragraphs that clean to nothing."""
    kept = [flag for p, flag in zip(body, chrome, strict=True) if clean_paragraph(p)]
    return tuple(i for i, flag in enumerate(kept) if flag)


def any_text(paragraphs: list[str]) -> bool:
    """Whether `clean_paragraphs` leaves any paragraph: asked up to the first that it
    leaves (`build_result` cleans them all afterwards)."""
    return any(map(clean_paragraph, paragraphs))


def _read_by_ocr(path: Path, unread: ExtractionError) -> ExtractedText:
    """The PDF read by OCR, with a warning that says so; `unread` when OCR finds no text."""
    try:
        pages = list(read_pages(path))
    except OcrUnavailable as error:
        raise OcrUnavailable(f"{unread}; {error}") from error
    paragraphs = joined_paragraphs([box for page in pages for box in page.boxes])
    if not clean_paragraphs(paragraphs):
        raise unread
    title, body = split_heading(paragraphs)
    result = build_result(title, body, "pdf")
    return replace(result, warnings=(ocr_summary(pages),))


def _with_scanned_pages(
    path: Path,
    boxes: list[str],
    scanned: list[pdfium.ScannedPage],
    hidden: list[str],
    *,
    ocr: bool,
) -> ExtractedText:
    """A PDF of text pages and scanned pages: the scanned pages' OCR text placed after the
    boxes of the pages before them, with a warning naming them. Without `ocr`, or without
    Tesseract, the text pages alone, and the scanned pages counted as unread."""
    numbers = ", ".join(str(page.index + 1) for page in scanned)
    noun = "page" if len(scanned) == 1 else "pages"
    try:
        if not ocr:
            raise OcrUnavailable("OCR is off")
        read = list(read_pages(path, [page.index for page in scanned]))
    except (OcrUnavailable, ExtractionError) as error:
        said = f"scanned {noun} {numbers} not read" + (f" ({error})" if ocr else OCR_OFF)
        paragraphs, warnings = without_glyph_numbers(joined_paragraphs(boxes))
        title, body = split_heading(paragraphs)
        result = build_result(title, body, "pdf")
        unread = len(scanned) if isinstance(error, OcrUnavailable) else 0
        return replace(
            result, warnings=(*warnings, said), hidden=tuple(hidden), unread_pictures=unread
        )
    merged: list[str] = []
    start = 0
    for page, text in zip(scanned, read, strict=True):
        merged.extend(boxes[start : page.boxes_before])
        merged.extend(text.boxes)
        start = page.boxes_before
    merged.extend(boxes[start:])
    paragraphs, warnings = without_glyph_numbers(joined_paragraphs(merged))
    title, body = split_heading(paragraphs)
    result = build_result(title, body, "pdf")
    summary = f"scanned {noun} {numbers} {ocr_summary(read)}"
    return replace(result, warnings=(*warnings, summary), hidden=tuple(hidden))


def pdfminer_paragraphs(
    path: Path, hidden: list[str], places: list[tuple[int, bool]] | None = None
) -> list[str]:
    """`page_paragraphs` of the whole file, pdfminer's errors in words."""
    try:
        return list(page_paragraphs(path, hidden, places))
    except (PDFPasswordIncorrect, PDFEncryptionError) as error:
        raise ExtractionError(PASSWORD_PROTECTED) from error
    except (PDFSyntaxError, PSException) as error:
        raise ExtractionError(NOT_A_PDF) from error
    except _DamagedFont as error:
        raise ExtractionError(DAMAGED_FONT) from error


def page_paragraphs(
    path: Path, hidden: list[str] | None = None, places: list[tuple[int, bool]] | None = None
) -> Iterator[str]:
    """Text boxes of every page read by pdfminer, in its reading order, lines still apart,
    page numbers dropped; a box whose font size changes (a heading above its text) is split
    there (`pdf_layout.page_texts`). The text of characters the page does not show goes to
    `hidden`, one piece per box; each box's page and whether it is in the page's margin to
    `places` (`pdf_chrome.page_boxes`)."""
    for index, (shown, unseen, page) in enumerate(drawn_pages(path)):
        for text, margin in page_boxes(*_as_arrays(shown, page)):
            if places is not None:
                places.append((index, margin))
            yield text
        if unseen and hidden is not None:
            hidden.extend(hidden_page_texts(*_as_arrays(unseen, page)))


def drawn_pages(path: Path) -> Iterator[tuple[list[LTChar], list[LTChar], Box]]:
    """The characters of every page as pdfminer's interpreter draws them (text in forms
    left out, as pdfminer's layout leaves it): those the page shows and those it does not,
    each in drawing order, and the page's box."""
    with path.open("rb") as file:
        resources = _FontCheckingManager()
        device = RenderModeAggregator(resources)  # no laparams: characters as drawn
        interpreter = PDFPageInterpreter(resources, device)
        for pdf_page in _DrawnPage.get_pages(file):
            interpreter.process_page(pdf_page)
            drawn = device.get_result()
            shown, hidden = split_unseen(drawn, device.render_modes, device.visible_area)
            yield [item for item in shown if isinstance(item, LTChar)], hidden, drawn.bbox


def _as_arrays(
    chars: list[LTChar], page: Box
) -> tuple[str, np.ndarray, Box, dict[int, str] | None]:
    """The arguments of `page_texts` for the characters on the page: their texts a code
    point each, their boxes' x0, y0, x1 and y1 rows, the page, what stand-ins stand for
    (`one_code_each`: a glyph may be read as more than one character, "ﬁ" as "fi")."""
    text, glyphs = one_code_each([char.get_text() for char in chars])
    bounds = np.array([char.bbox for char in chars], np.float64).reshape(-1, 4).T
    return text, bounds, page, glyphs


def visible_area(media: Box, crop: Box) -> Box:
    """The part of the media box inside the crop box; the media box when they do not meet
    (a crop box off the page is ignored)."""
    shown = (
        max(media[0], crop[0]),
        max(media[1], crop[1]),
        min(media[2], crop[2]),
        min(media[3], crop[3]),
    )
    if shown[0] >= shown[2] or shown[1] >= shown[3]:
        return media
    return shown


class _DamagedFont(Exception):
    """pdfminer failed to load a font of the file (a FontMatrix not of six numbers)."""


class _FontCheckingManager(PDFResourceManager):
    """Fonts pdfminer cannot load raise `_DamagedFont`, not the error deep in pdfminer
    ("too many values to unpack") that the user would be shown."""

    def get_font(self, objid: object, spec: dict) -> object:
        try:
            return super().get_font(objid, spec)
        except (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError) as error:
            raise _DamagedFont(f"{type(error).__name__}: {error}") from error


class _DrawnPage(PDFPage):
    """A page whose boxes are read as PDFium and poppler draw with them (`drawn_box`):
    pdfminer keeps an inverted or empty media box (and fails on NaN), which called all of
    a page's text off the page."""

    def _parse_mediabox(self, value: object) -> tuple[float, float, float, float]:
        return _box(value) or LETTER

    def _parse_cropbox(self, value: object, mediabox: tuple) -> tuple[float, float, float, float]:
        return _box(value) or mediabox


def _box(value: object) -> tuple[float, float, float, float] | None:
    value = resolve1(value)
    return drawn_box([resolve1(v) for v in value] if isinstance(value, list) else value)


class RenderModeAggregator(PDFPageAggregator):
    """PDFPageAggregator that notes the text render mode of characters not simply filled
    (by the character's id, for this page) and the page's visible area."""

    def __init__(self, rsrcmgr: PDFResourceManager) -> None:
        super().__init__(rsrcmgr)
        self.render_modes: dict[int, int] = {}
        self.visible_area = (0.0, 0.0, 0.0, 0.0)

    def begin_page(self, page: PDFPage, ctm: tuple) -> None:
        super().begin_page(page, ctm)
        self.render_modes = {}
        shown = visible_area(page.mediabox, page.cropbox)
        self.visible_area = apply_matrix_rect(ctm, shown)

    def render_string(
        self,
        textstate: PDFTextState,
        seq: PDFTextSeq,
        ncs: PDFColorSpace,
        graphicstate: PDFGraphicState,
    ) -> None:
        mode = textstate.render
        if not mode:  # filled, by far the most text: nothing to note
            super().render_string(textstate, seq, ncs, graphicstate)
            return
        objs = self.cur_item._objs
        start = len(objs)
        super().render_string(textstate, seq, ncs, graphicstate)
        for obj in objs[start:]:
            self.render_modes[id(obj)] = mode


def split_unseen(
    drawn: LTPage, render_modes: dict[int, int], area: tuple[float, float, float, float]
) -> tuple[list[LTComponent], list[LTChar]]:
    """The page's drawn items the viewer shows, and the characters it does not show."""
    x0, y0, x1, y1 = area
    shown: list[LTComponent] = []
    hidden: list[LTChar] = []
    white: list[LTChar] = []
    invisible: list[LTChar] = []
    painted_white: dict[tuple[int, int], bool] = {}  # the characters of a string share a state
    for item in drawn:
        if not isinstance(item, LTChar):
            shown.append(item)
            continue
        mode = render_modes.get(id(item), 0) if render_modes else 0
        outside = item.x1 <= x0 or item.x0 >= x1 or item.y1 <= y0 or item.y0 >= y1
        if outside or (item.size <= MAX_HIDDEN_POINTS and item.get_text().strip()):
            hidden.append(item)
            continue
        if mode == _INVISIBLE:
            invisible.append(item)
            continue
        key = (id(item.graphicstate), mode)
        if key not in painted_white:
            painted_white[key] = white_char(item, mode)
        (white if painted_white[key] else shown).append(item)
    if invisible:  # over a picture: a scan's OCR text, which shows as the picture
        pictures = [i.bbox for i in drawn if isinstance(i, LTFigure) for i in _images(i)]
        for char in invisible:
            (shown if _over(char, pictures) else hidden).append(char)
    if white:  # over a filled shape or a picture that is not white: shows
        grounds = [i.bbox for i in drawn if _ground(i)]
        for char in white:
            (shown if _over(char, grounds) else hidden).append(char)
    if invisible or white:  # characters keep their drawing order: lines are built from it
        order = {id(item): i for i, item in enumerate(drawn)}
        shown.sort(key=lambda item: order[id(item)])
        hidden.sort(key=lambda item: order[id(item)])
    return shown, hidden


def white_char(char: LTChar, mode: int) -> bool:
    """Whether the character is painted only in white (or nearly)."""
    state = char.graphicstate
    if mode in _STROKED:
        return _white(state.scolor, state.scs)
    if mode in _FILLED_AND_STROKED:
        return _white(state.ncolor, state.ncs) and _white(state.scolor, state.scs)
    return _white(state.ncolor, state.ncs)


def _white(colour: object, space: object) -> bool:
    """Whether a grey, RGB or CMYK colour is white or nearly."""
    if space is not None and getattr(space, "name", None) not in _PLAIN_SPACES:
        return False
    if colour == 0 or colour == (0, 0, 0) or colour == (0, 0, 0, 1):  # black: most text
        return False
    values = (colour,) if isinstance(colour, (int, float)) else colour
    if not isinstance(values, (tuple, list)) or not all(
        isinstance(v, (int, float)) for v in values
    ):
        return False
    if len(values) == 1:
        rgb = (values[0],) * 3
    elif len(values) == 3:
        rgb = tuple(values)
    elif len(values) == 4:
        c, m, y, k = values
        rgb = ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    else:
        return False
    return unreadable(rgb, WHITE)


def _images(figure: LTFigure) -> Iterator[LTImage]:
    for item in figure:
        if isinstance(item, LTImage):
            yield item
        elif isinstance(item, LTFigure):
            yield from _images(item)


def _ground(item: LTComponent) -> bool:
    """Whether a drawn item may lie behind white text and show it: a picture, a form, a
    filled shape of any colour but white."""
    if isinstance(item, LTFigure):
        return True
    if isinstance(item, LTCurve) and item.fill:
        return not _white(item.non_stroking_color, None)  # a pattern: not white
    return False


def _over(char: LTChar, boxes: list[tuple[float, float, float, float]]) -> bool:
    """Whether the middle of the character lies inside one of the boxes."""
    x = (char.x0 + char.x1) / 2
    y = (char.y0 + char.y1) / 2
    return any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes)
