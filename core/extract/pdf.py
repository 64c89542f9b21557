"""PDF files: pdfminer.six layout analysis, page by page, one paragraph per text box."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from pdfminer.high_level import extract_pages
from pdfminer.layout import LAParams, LTTextBox
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.pdfparser import PDFSyntaxError
from pdfminer.psparser import PSException

from core.document import ExtractedText, ExtractionError
from core.extract.paragraphs import build_result

_NO_TEXT = "no extractable text (scanned/image-only PDF?)"
_CJK = r"\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
# "exam-\nple" -> "example": a hyphen between letters at a line end, lowercase after.
_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])-\n(?=[a-z])")
# Lines of Chinese text wrap mid-sentence; joining them with a space would split words.
_CJK_BREAK = re.compile(rf"(?<=[{_CJK}])\n(?=[{_CJK}])")
_PAGE_NUMBER = re.compile(r"^\s*[-–—]?\s*\d{1,4}\s*[-–—]?\s*$")


def join_lines(box_text: str) -> str:
    """One paragraph from a text box's lines: undo hyphenation and CJK line wraps."""
    text = _HYPHEN_BREAK.sub("", box_text.strip())
    text = _CJK_BREAK.sub("", text)
    return text.replace("\n", " ")


def page_paragraphs(path: Path) -> Iterator[str]:
    """Text boxes of every page in pdfminer's reading order, page numbers dropped."""
    for page in extract_pages(path, laparams=LAParams()):
        for element in page:
            if isinstance(element, LTTextBox):
                text = join_lines(element.get_text())
                if not _PAGE_NUMBER.match(text):
                    yield text


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
    return build_result("", paragraphs, "pdf", no_text_message=_NO_TEXT)
