"""PDF files: pdfminer.six layout analysis, page by page, one paragraph per text box.

Characters a viewer does not show are kept apart as hidden text: invisible ones (text
render mode 3) not lying over a picture (there they are a scan's OCR layer, which stands
for the picture's text), white ones on nothing darker, ones of 1 pt or less, and ones
wholly outside the page's visible area (crop box within the media box).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import (
    LAParams,
    LTAnno,
    LTChar,
    LTComponent,
    LTCurve,
    LTFigure,
    LTImage,
    LTPage,
    LTTextBox,
    LTTextLine,
    LTTextLineHorizontal,
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
from pdfminer.psparser import PSException
from pdfminer.utils import apply_matrix_rect
from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.read.extract.hidden import ALL_HIDDEN, MAX_HIDDEN_POINTS, WHITE, unreadable
from simsift.core.read.extract.paragraphs import build_result, clean_paragraph, split_heading

_NO_TEXT = "no extractable text (scanned/image-only PDF?)"
_CJK = r"\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
# A hyphen between letters at a line end, lowercase after: "exam-\nple", "quoted-\nprintable".
_HYPHEN_BREAK = re.compile(r"([^\W\d_]+)-\n([a-z][^\W\d_]*)")
_WORD = re.compile(r"[^\W\d_]+")
_CJK_CHAR = re.compile(f"[{_CJK}]")
# Lines of Chinese text wrap mid-sentence, also beside a Latin word ("使用\nGSSAPI"); a space
# in the text there is drawn as a character, so the break itself is no space.
_CJK_BREAK = re.compile(rf"(?<=[{_CJK}])\n|\n(?=[{_CJK}])")
# a line this much taller than the one before (or after) is set in another font size
_HEADING_SIZE_RATIO = 1.15
# Lines overlapping by more than this share of the lower one's height are on one row.
_ROW_OVERLAP = 0.5
# Parts of one row closer than this share of their height (about a word gap) are one line.
_FRAGMENT_GAP = 0.6
_PAGE_NUMBER = re.compile(r"^\s*[-–—]?\s*\d{1,4}\s*[-–—]?\s*$")
# pdfminer writes "(cid:N)" for a glyph whose font does not say which character it is
# (no ToUnicode map); such text is glyph numbers, and different texts would look alike.
_CID = re.compile(r"\(cid:\d+\)")
_MAX_CID_SHARE = 0.2
_NO_UNICODE = "the PDF's fonts do not say which letters they show (no ToUnicode map); no text"
# Text render modes (PDF 32000 9.3.6): 3 draws nothing; 1 and 5 only stroke, 2 and 6 fill
# and stroke (0, 4 and 7 fill, or clip: the fill colour is what shows)
_INVISIBLE, _STROKED, _FILLED_AND_STROKED = 3, (1, 5), (2, 6)
# Colour spaces whose components are grey, RGB or CMYK values
_PLAIN_SPACES = frozenset(
    {"DeviceGray", "DeviceRGB", "DeviceCMYK", "ICCBased", "CalGray", "CalRGB"}
)


def joined_paragraphs(boxes: list[str]) -> list[str]:
    """One paragraph per text box, its lines joined (see `join_lines`)."""
    words = frozenset(word.casefold() for box in boxes for word in _WORD.findall(box))
    return [join_lines(box, words) for box in boxes]


def join_lines(box_text: str, words: frozenset[str] = frozenset()) -> str:
    """One paragraph from a text box's lines: undo CJK line wraps and hyphenation.

    A line-end hyphen is dropped only when the joined word is among the document's `words`.
    Word processors do not hyphenate by default, so there the hyphen belongs to the word
    ("quoted-printable"); TeX does, and a word it breaks usually occurs whole elsewhere.
    """
    text = _HYPHEN_BREAK.sub(lambda m: unhyphenated(m[1], m[2], words), box_text.strip())
    text = _CJK_BREAK.sub("", text)
    return text.replace("\n", " ")


def unhyphenated(head: str, tail: str, words: frozenset[str]) -> str:
    whole = head + tail
    return whole if whole.casefold() in words else f"{head}-{tail}"


def page_paragraphs(path: Path, hidden: list[str] | None = None) -> Iterator[str]:
    """Text boxes of every page in pdfminer's reading order, lines still apart, page numbers
    dropped; a box whose font size changes (a heading above its text) is split there.
    The text of characters the page does not show goes to `hidden`, one piece per box."""
    unseen: list[LTPage] = []
    for page in analyzed_pages(path, unseen):
        yield from box_texts(page)
        if hidden is not None:
            texts = (clean_paragraph(join_lines(t)) for page in unseen for t in box_texts(page))
            hidden.extend(text for text in texts if text)
        unseen.clear()


def box_texts(page: LTPage) -> Iterator[str]:
    """The page's text boxes, split where the font size changes, page numbers left out."""
    for element in page:
        if isinstance(element, LTTextBox):
            for lines in runs_of_one_size(element):
                text = "".join(line_text(line) for line in lines).strip()
                if text and not _PAGE_NUMBER.match(text):
                    yield text


def line_text(line: LTTextLine) -> str:
    """The line's text, without the spaces pdfminer guessed from gaps beside CJK characters:
    LibreOffice sets Latin letters apart from Chinese by a gap, not a space character."""
    objs = list(line)
    return "".join(
        obj.get_text()
        for i, obj in enumerate(objs)
        if not (isinstance(obj, LTAnno) and obj.get_text() == " " and beside_cjk(objs, i))
    )


def beside_cjk(objs: list[LTComponent], i: int) -> bool:
    return any(_CJK_CHAR.match(objs[j].get_text()) for j in (i - 1, i + 1) if 0 <= j < len(objs))


def analyzed_pages(path: Path, unseen: list[LTPage] | None = None) -> Iterator[LTPage]:
    """pdfminer's layout analysis of every page, on whole visual lines, without the
    characters the page does not show; those, when there are any and `unseen` is given,
    are analyzed on a page of their own appended to `unseen` before the page is yielded."""
    laparams = LAParams()
    with path.open("rb") as file:
        resources = PDFResourceManager()
        device = RenderModeAggregator(resources)  # no laparams: characters as drawn
        interpreter = PDFPageInterpreter(resources, device)
        for pdf_page in PDFPage.get_pages(file):
            interpreter.process_page(pdf_page)
            drawn = device.get_result()
            shown, hidden = split_unseen(drawn, device.render_modes, device.visible_area)
            page = VisualLinePage(drawn.pageid, drawn.bbox, drawn.rotate)
            page.extend(shown)
            page.analyze(laparams)
            if hidden and unseen is not None:
                hidden_page = VisualLinePage(drawn.pageid, drawn.bbox, drawn.rotate)
                hidden_page.extend(hidden)
                hidden_page.analyze(laparams)
                unseen.append(hidden_page)
            yield page


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
        media, crop = page.mediabox, page.cropbox
        shown = (
            max(media[0], crop[0]),
            max(media[1], crop[1]),
            min(media[2], crop[2]),
            min(media[3], crop[3]),
        )
        if shown[0] >= shown[2] or shown[1] >= shown[3]:  # a crop box off the page: ignored
            shown = media
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


class VisualLinePage(LTPage):
    """A page whose text lines are whole visual lines.

    pdfminer builds lines from characters in drawing order. LibreOffice draws a line's
    fallback-font runs (Latin in Chinese text, curly quotes) apart from the rest, so one
    visual line became several lines, then several boxes in the wrong order.
    """

    def group_objects(
        self, laparams: LAParams, objs: Iterable[LTComponent]
    ) -> Iterator[LTTextLine]:
        lines = list(super().group_objects(laparams, objs))
        return iter(merge_line_fragments(lines, laparams.word_margin))


def merge_line_fragments(lines: list[LTTextLine], word_margin: float) -> list[LTTextLine]:
    """`lines` with the horizontal ones that touch on one row merged, in first-drawn order."""
    drawn = {id(line): i for i, line in enumerate(lines)}
    groups = [[line] for line in lines if not isinstance(line, LTTextLineHorizontal)]
    for row in rows(line for line in lines if isinstance(line, LTTextLineHorizontal)):
        groups.extend(touching_runs(row))
    groups.sort(key=lambda group: min(drawn[id(line)] for line in group))
    return [one_line(group, word_margin) for group in groups]


def rows(lines: Iterable[LTTextLine]) -> Iterator[list[LTTextLine]]:
    """Lines in rows that overlap vertically (one visual line, or lines of side-by-side
    columns), top to bottom."""
    row: list[LTTextLine] = []
    for line in sorted(lines, key=lambda line: -line.y1):
        if row and row[0].voverlap(line) <= _ROW_OVERLAP * min(row[0].height, line.height):
            yield row
            row = []
        row.append(line)
    if row:
        yield row


def touching_runs(row: list[LTTextLine]) -> Iterator[list[LTTextLine]]:
    """A row's lines, left to right, in runs no further apart than a word gap: a column
    gutter is wider, so columns stay apart."""
    run: list[LTTextLine] = []
    right = 0.0
    for line in sorted(row, key=lambda line: line.x0):
        if run and line.x0 - right > _FRAGMENT_GAP * line.height:
            yield run
            run = []
        right = max(right, line.x1) if run else line.x1
        run.append(line)
    if run:
        yield run


def one_line(fragments: list[LTTextLine], word_margin: float) -> LTTextLine:
    """One line of the fragments' characters, left to right; a character printed twice over
    itself (fake bold) once. A line drawn left to right is kept as it is."""
    if len(fragments) == 1 and drawn_left_to_right(fragments[0]):
        return fragments[0]
    line = LTTextLineHorizontal(word_margin)
    chars = sorted((c for f in fragments for c in f if isinstance(c, LTChar)), key=lambda c: c.x0)
    last: LTChar | None = None
    for char in chars:
        if last is None or not overprints(last, char):
            line.add(char)
            last = char
    return line


def drawn_left_to_right(line: LTTextLine) -> bool:
    """Whether the line's characters come left to right (LibreOffice may draw a space first)."""
    chars = [obj for obj in line if isinstance(obj, LTChar)]
    return all(a.x0 <= b.x0 for a, b in pairwise(chars))


def overprints(a: LTChar, b: LTChar) -> bool:
    return a.get_text() == b.get_text() and abs(a.x0 - b.x0) < 0.5 * a.width and a.voverlap(b) > 0


def runs_of_one_size(box: LTTextBox) -> Iterator[list[LTTextLine]]:
    """The box's lines in runs of about the same height."""
    run: list[LTTextLine] = []
    for line in box:
        if not isinstance(line, LTTextLine):
            continue
        if run and not _same_size(run[-1].height, line.height):
            yield run
            run = []
        run.append(line)
    if run:
        yield run


def _same_size(a: float, b: float) -> bool:
    return max(a, b) <= _HEADING_SIZE_RATIO * min(a, b)


def extract_pdf(path: Path) -> ExtractedText:
    """Text of a PDF, one paragraph per text box; clear errors for encrypted or image-only files.

    The size limit is enforced by the caller before the file is opened.
    """
    hidden: list[str] = []
    try:
        boxes = list(page_paragraphs(path, hidden))
    except (PDFPasswordIncorrect, PDFEncryptionError) as error:
        raise ExtractionError("password protected PDF") from error
    except (PDFSyntaxError, PSException) as error:
        raise ExtractionError("not a valid PDF (corrupt or truncated)") from error
    paragraphs, warnings = without_glyph_numbers(joined_paragraphs(boxes))
    title, body = split_heading(paragraphs)
    result = build_result(title, body, "pdf", no_text_message=ALL_HIDDEN if hidden else _NO_TEXT)
    return replace(result, warnings=warnings, hidden=tuple(hidden))


def without_glyph_numbers(paragraphs: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """Paragraphs without "(cid:N)" glyph numbers, and a warning when some were dropped.

    Raises ExtractionError when they are a large part of the text.
    """
    glyphs = sum(len(_CID.findall(p)) for p in paragraphs)
    if not glyphs:
        return paragraphs, ()
    letters = sum(len(_CID.sub("", p).replace(" ", "")) for p in paragraphs)
    if glyphs > _MAX_CID_SHARE * (glyphs + letters):
        raise ExtractionError(_NO_UNICODE)
    warning = f"{glyphs:,} characters could not be read from the PDF's fonts (left out)"
    return [_CID.sub("", p) for p in paragraphs], (warning,)
