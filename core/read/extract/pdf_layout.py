"""PDF text layout shared by the PDF readers: characters placed on a page become visual
lines, text boxes in pdfminer's reading order, then paragraphs.

The readers (`pdf` with pdfminer.six, `pdfium` with PDFium) differ in how they get the
characters out of the file; from characters on, both go through this module, so the same
page gives the same paragraphs whichever reader drew its characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import pairwise

from pdfminer.layout import (
    LAParams,
    LTAnno,
    LTChar,
    LTComponent,
    LTPage,
    LTTextBox,
    LTTextLine,
    LTTextLineHorizontal,
)
from simsift.core.document import ExtractionError
from simsift.core.read.extract.paragraphs import clean_paragraph

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


class VisualLinePage(LTPage):
    """A page whose text lines are whole visual lines.

    pdfminer builds lines from characters in drawing order. LibreOffice draws a line's
    fallback-font runs (Latin in Chinese text, curly quotes) apart from the rest, so one
    visual line became several lines, then several boxes in the wrong order.
    """

    def group_objects(
        self, laparams: LAParams, objs: Iterable[LTComponent]
    ) -> Iterator[LTTextLine]:
        if laparams.detect_vertical:
            lines = list(super().group_objects(laparams, objs))
        else:
            lines = list(horizontal_lines(list(objs), laparams))
        return iter(merge_line_fragments(lines, laparams.word_margin))


def horizontal_lines(chars: list[LTChar], laparams: LAParams) -> Iterator[LTTextLine]:
    """pdfminer's lines of characters in drawing order when it does not look for vertical
    writing (`LTLayoutContainer.group_objects` without `detect_vertical`), the same lines
    built faster: a character joins the line when it overlaps the one before it vertically
    by more than `line_overlap` of the lower one and lies within `char_margin` of their
    widths beside it. As in pdfminer, a line that ends makes the next character start
    afresh: alone, or with the one after it."""
    overlap, margin, word_margin = laparams.line_overlap, laparams.char_margin, laparams.word_margin
    line: list[LTChar] | None = None
    for a, b in pairwise(chars):
        gap = 0.0 if a.x0 <= b.x1 and b.x0 <= a.x1 else min(abs(a.x0 - b.x1), abs(a.x1 - b.x0))
        aligned = (
            b.y0 <= a.y1
            and a.y0 <= b.y1
            and min(a.height, b.height) * overlap < min(abs(a.y0 - b.y1), abs(a.y1 - b.y0))
            and gap < max(a.width, b.width) * margin
        )
        if aligned and line is not None:
            line.append(b)
        elif line is not None:
            yield line_of(line, word_margin)
            line = None
        elif aligned:
            line = [a, b]
        else:
            yield line_of([a], word_margin)
    if line is not None:
        yield line_of(line, word_margin)
    elif chars:
        yield line_of([chars[-1]], word_margin)


def line_of(chars: list[LTChar], word_margin: float) -> LTTextLineHorizontal:
    """A line of `chars`, a space between two further apart than `word_margin` of the
    second's size (as `LTTextLineHorizontal.add` puts it), its box set once."""
    line = LTTextLineHorizontal(word_margin)
    objs = line._objs
    right = float("inf")
    for char in chars:
        if word_margin and right < char.x0 - word_margin * max(char.width, char.height):
            objs.append(LTAnno(" "))
        right = char.x1
        objs.append(char)
    line._x1 = right
    line.set_bbox(
        (
            min(c.x0 for c in chars),
            min(c.y0 for c in chars),
            max(c.x1 for c in chars),
            max(c.y1 for c in chars),
        )
    )
    return line


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


def analyzed_page(
    chars: Iterable[LTComponent], bbox: tuple[float, float, float, float], rotate: float = 0
) -> LTPage:
    """A page of `chars` (and other drawn items) after layout analysis, on whole visual lines."""
    page = VisualLinePage(1, bbox, rotate)
    page.extend(chars)
    page.analyze(LAParams())
    return page


def hidden_texts(pages: Iterable[LTPage]) -> Iterator[str]:
    """One joined, cleaned piece of text per text box of pages of hidden characters."""
    texts = (clean_paragraph(join_lines(t)) for page in pages for t in box_texts(page))
    return (text for text in texts if text)


def visible_area(
    media: tuple[float, float, float, float], crop: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
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
