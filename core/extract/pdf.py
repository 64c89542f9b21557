"""PDF files: pdfminer.six layout analysis, page by page, one paragraph per text box."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from pdfminer.high_level import extract_pages
from pdfminer.layout import LAParams, LTTextBox, LTTextLine
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.pdfparser import PDFSyntaxError
from pdfminer.psparser import PSException

from core.document import ExtractedText, ExtractionError
from core.extract.paragraphs import build_result, split_heading

_NO_TEXT = "no extractable text (scanned/image-only PDF?)"
_CJK = r"\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
# "exam-\nple" -> "example": a hyphen between letters at a line end, lowercase after.
_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])-\n(?=[a-z])")
# Lines of Chinese text wrap mid-sentence; joining them with a space would split words.
_CJK_BREAK = re.compile(rf"(?<=[{_CJK}])\n(?=[{_CJK}])")
# a line this much taller than the one before (or after) is set in another font size
_HEADING_SIZE_RATIO = 1.15
_PAGE_NUMBER = re.compile(r"^\s*[-–—]?\s*\d{1,4}\s*[-–—]?\s*$")
# pdfminer writes "(cid:N)" for a glyph whose font does not say which character it is
# (no ToUnicode map); such text is glyph numbers, and different texts would look alike.
_CID = re.compile(r"\(cid:\d+\)")
_MAX_CID_SHARE = 0.2
_NO_UNICODE = "the PDF's fonts do not say which letters they show (no ToUnicode map); no text"


def join_lines(box_text: str) -> str:
    """One paragraph from a text box's lines: undo hyphenation and CJK line wraps."""
    text = _HYPHEN_BREAK.sub("", box_text.strip())
    text = _CJK_BREAK.sub("", text)
    return text.replace("\n", " ")


def page_paragraphs(path: Path) -> Iterator[str]:
    """Text boxes of every page in pdfminer's reading order, page numbers dropped; a box
    whose font size changes (a heading above its text) is split there."""
    for page in extract_pages(path, laparams=LAParams()):
        for element in page:
            if isinstance(element, LTTextBox):
                for lines in runs_of_one_size(element):
                    text = join_lines("".join(line.get_text() for line in lines))
                    if text and not _PAGE_NUMBER.match(text):
                        yield text


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


def extract_pdf(path: Path, *, max_bytes: int) -> ExtractedText:
    """Text of a PDF, one paragraph per text box; clear errors for encrypted or image-only files.

    `max_bytes` is enforced by the caller before the file is opened.
    """
    try:
        paragraphs = list(page_paragraphs(path))
    except (PDFPasswordIncorrect, PDFEncryptionError) as error:
        raise ExtractionError("password protected PDF") from error
    except (PDFSyntaxError, PSException) as error:
        raise ExtractionError("not a valid PDF (corrupt or truncated)") from error
    paragraphs, warnings = without_glyph_numbers(paragraphs)
    title, body = split_heading(paragraphs)
    result = build_result(title, body, "pdf", no_text_message=_NO_TEXT)
    return replace(result, warnings=warnings)


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
