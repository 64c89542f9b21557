"""Text of scanned PDF pages: each page rendered with PDFium and read by Tesseract (OCR),
one page at a time: at 300 dpi with English and Chinese together, or at 200 dpi with
Chinese alone when the first lines of the file's first page are mostly Chinese.

`extract_pdf` reads a PDF this way when it has no visible text at all (an image-only scan)
or its text is mostly glyph numbers ("(cid:N)": fonts without Unicode values), and its
scanned pages among pages of text. Tesseract is a program of its own (apt `tesseract-ocr`
with the `eng`, `chi-sim` and `chi-tra` languages, or the frozen bundle's own copy; see
docs/extraction.md, "OCR"). A reader reads with the Tesseract library loaded in it
(`tesseract_api`: the models are loaded once, not for every reading); elsewhere, or for a
page too large for the reader's memory, the program is run with the page's pixels on its
standard input and its word table (TSV) on its standard output: the same text either way.
Where it is not installed, a scanned PDF is an error that says so, read again on the next
scan (it may be installed by then).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

import numpy as np
from simsift.core.document import ExtractionError, TransientError
from simsift.core.read.extract import tesseract_api
from simsift.core.read.workers import address_space_left, die_with_parent, report_pages

__all__ = [
    "MAX_OCR_PAGES",
    "OCR_OFF",
    "OCR_SECONDS",
    "OcrPage",
    "OcrUnavailable",
    "TesseractFailed",
    "ocr_summary",
    "read_by_ocr",
    "read_pages",
    "tesseract_path",
]

DPI = 300
# Pages of a mostly Chinese file are rendered at this resolution and read with `chi_sim` or
# `chi_tra` alone: faster than `eng+chi_sim` at 300 dpi, and with fewer errors on the
# quality corpus's scans, Latin words among the Chinese included (docs/scanned_quality.md).
CHINESE_DPI = 200
# A page rendered larger than this (a poster, a huge scan) is rendered smaller: 40 MB of grey.
MAX_PIXELS = 40_000_000
# Scans longer than this are reported rather than read (a 500-page book takes half an hour).
MAX_OCR_PAGES = 100
# OCR of one file stops with an error after this long; the reader's time budget of a PDF
# is raised by as much (`core.pipeline.stages.read_budget`).
OCR_SECONDS = 300.0
# One page may take this long in Tesseract before it is stopped.
_PAGE_SECONDS = 120.0
# When the OCR of the file `read_pages` is reading must end (`time.monotonic()`): Tesseract
# is stopped then, in the middle of a page (a page may take several readings).
_deadline: float | None = None
# Pages read with a mean word confidence below this are named in the warning, and are
# tried again in the orientation Tesseract's orientation detection gives.
LOW_CONFIDENCE = 0.6
# Pages read with a lower mean confidence have no text.
_MIN_CONFIDENCE = 0.3
# Latin and Simplified Chinese together: pages of a file that is not mostly Chinese. The
# first lines of a file's first page (a strip of `_STRIP_INK` ink cells, the left half of
# their width) tell (`_strip_script`): read with `eng`, a strip read with confidence at
# least `_LATIN_CONFIDENCE` is Latin, one under `_NOT_LATIN_CONFIDENCE` is not; otherwise it
# is mostly Chinese when `_MIN_CJK_SHARE` of the letters read with `chi_sim` are Chinese
# characters. A mostly Chinese file's pages are read with `chi_sim` alone at `CHINESE_DPI`,
# or `chi_tra` when the first page reads as Traditional (`_maybe_traditional`,
# `_reads_traditional`); a page of it that is not mostly Chinese is read with English too.
# A first page too bare for a strip is read with `_LANGUAGES`, and `_TRADITIONAL` too when
# mostly Chinese, and the next page decides. A file whose strip is Latin is read with `eng`
# alone, a page read so with less than `_LATIN_CONFIDENCE` again with `_LANGUAGES`
# (`_latin_page`).
_LANGUAGES = "eng+chi_sim"
_TRADITIONAL = "eng+chi_tra"
_CHINESE = ("chi_sim", "chi_tra")
_MIN_CJK_SHARE = 0.3
_STRIP_INK = 1500  # about a line of Chinese and the title above it
_MIN_LETTERS = 20  # letters a strip's reading needs to tell the language
_LATIN_CONFIDENCE = 0.75
_NOT_LATIN_CONFIDENCE = 0.5
# Words with characters written otherwise in the other script (这/這) are read with less
# confidence by the other script's model. A page read with `chi_sim` whose such words have a
# mean confidence `_SCRIPT_GAP` under its other Chinese words', or under
# `_SCRIPT_CONFIDENCE`, or fewer than `_SCRIPT_WORDS` of them, is read with `chi_tra` too;
# that reading is kept when its own such words are `_TRADITIONAL_MARGIN` more confident.
# Measured on first pages read with `chi_sim` (docs/scanned_quality.md, "evening"):
# Traditional print (31 pages, clean to photographed) has such words at 0.68-0.83 and gaps
# of -0.04 to 0.17, so the confidence test catches every page. Simplified scans (49 pages)
# have 0.87-0.94 and gaps up to 0.034. At the former gap of 0.03, two of those Simplified
# pages got a `chi_tra` reading of 2 CPU s that was not kept.
_SCRIPT_GAP = 0.05
_SCRIPT_CONFIDENCE = 0.85
_SCRIPT_WORDS = 10
_TRADITIONAL_MARGIN = 0.05
# Ink is found in square cells of this side (8 pixels at 300 dpi): a cell with a tenth of its
# pixels much darker than the paper around it, not near a dark area (a desk around a
# photographed page, a black bar).
_CELL_INCH = 8 / 300
# A page where Tesseract's page segmentation (`--psm 3`, its default) left at least this share
# of the ink, and this many cells, outside the words it read (a photographed page on a
# desk: the paper's edge taken for a picture holding the text) is read again as one block of
# text (`--psm 6`), and that reading kept when its words times their mean confidence are a
# quarter more.
_MISSED_INK_SHARE = 0.45
_MISSED_INK = 1000
_BETTER_BLOCK = 1.25
# Lines further apart than this many line heights start a new paragraph.
_PARAGRAPH_GAP = 1.2
_PAGE_NUMBER = re.compile(r"^\W*\d{1,4}\W*$")
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")

UNAVAILABLE = "OCR is not available: install Tesseract (tesseract-ocr) to read scanned PDFs"
# ends the error of a scanned PDF read with OCR off (`extract_pdf(ocr=False)`): a scan reads
# such files first without OCR, in the normal time budget, then these with OCR' time added
OCR_OFF = "; OCR is off"


class TesseractFailed(TransientError):
    """Tesseract ended with an error or was killed (out of memory under the reader's limit):
    read again on the next scan, never taken for a page without text."""


class OcrUnavailable(TransientError):
    """Tesseract is not installed (`UNAVAILABLE`): the file is read again on the next scan."""


@dataclass(frozen=True, slots=True)
class OcrPage:
    """One page read by OCR: its text boxes (lines apart, as `pdf_layout.page_texts` gives
    them), the mean confidence of its words (0 to 1) and how many words it has."""

    boxes: tuple[str, ...]
    confidence: float
    words: int
    number: int = 0  # the page's number in its file, from 1 (0: not known)
    # each word read: its text, confidence (0 to 1), and place in the image (left, top, width,
    # height in pixels); `read_pages` leaves them out of the pages it gives
    word_boxes: tuple[tuple[str, float, int, int, int, int], ...] = ()


class _Ink(NamedTuple):
    """Where a page image has the ink of text, by square cells (`_ink_cells`)."""

    text: np.ndarray  # rows and columns of cells, True where there is ink
    cell: int  # a cell's side in pixels


def tesseract_path() -> str | None:
    """Where the `tesseract` program is, or None. A frozen bundle runs its own copy
    (`_internal/tesseract/`, put there by packaging/simsift.spec) when it has one, else
    the system's."""
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:
        name = "tesseract.exe" if sys.platform == "win32" else "tesseract"
        bundled = Path(bundle, "tesseract", name)
        if bundled.is_file():
            return str(bundled)
    return shutil.which("tesseract")


def read_pages(path: Path, indexes: Sequence[int] | None = None) -> Iterator[OcrPage]:
    """The pages of the PDF at `path` (all, or those at `indexes`, from 0) read by OCR, in
    page order; each page done is reported with `report_pages`.

    Raises OcrUnavailable without Tesseract, and ExtractionError for a scan too long to
    read (`MAX_OCR_PAGES`) or one whose OCR takes longer than `OCR_SECONDS`.
    """
    import pypdfium2  # here: the scan's own process imports this module for its constants

    global _deadline
    program = tesseract_path()
    if program is None:
        raise OcrUnavailable(UNAVAILABLE)
    try:
        document = pypdfium2.PdfDocument(path)
    except pypdfium2.PdfiumError as error:  # pdfminer read it, PDFium cannot: no pixels
        raise ExtractionError(
            f"no extractable text; cannot render the PDF for OCR ({error})"
        ) from error
    try:
        chosen_pages = list(range(len(document)) if indexes is None else indexes)
        count = len(chosen_pages)
        if count > MAX_OCR_PAGES:
            raise ExtractionError(
                f"no extractable text (scanned PDF of {count} pages: too long to read by "
                f"OCR, at most {MAX_OCR_PAGES} pages)"
            )
        _deadline = time.monotonic() + OCR_SECONDS
        languages = ""  # chosen by the first page that can tell
        for done, index in enumerate(chosen_pages):
            report_pages(done, count)
            if time.monotonic() > _deadline:
                raise _out_of_time(done, count)

            def render(dpi: int, index: int = index) -> np.ndarray:
                try:
                    return _render(document, index, dpi)
                except pypdfium2.PdfiumError as error:
                    raise ExtractionError(
                        f"no extractable text; cannot render page {index + 1} for OCR ({error})"
                    ) from error

            try:
                if not languages:
                    page, languages = _first_page(program, render)
                else:
                    page = _later_page(program, render, languages)
            except _OutOfTime as error:
                raise _out_of_time(done, count) from error
            yield replace(page, number=index + 1, word_boxes=())
        report_pages(count, count)
    finally:
        _deadline = None
        document.close()


class _OutOfTime(Exception):
    """Tesseract stopped at the file's deadline (`_deadline`)."""


def _out_of_time(done: int, count: int) -> ExtractionError:
    return ExtractionError(
        f"no extractable text (scanned PDF: OCR took longer than {OCR_SECONDS:.0f} s, "
        f"{done} of {count} pages read)"
    )


# What a file's warning says of text OCR read: "read by OCR: 2 pages, …" (`ocr_summary`),
# "text of 3 pictures read by OCR, …" (`pictures.PictureReader.warnings`); never "not read
# by OCR".
_READ_BY_OCR = re.compile(r"(?<!not )\bread by OCR\b")


def read_by_ocr(warnings: Iterable[str]) -> bool:
    """Whether a file's `warnings` (`ExtractedText.warnings`) say some of its text was read
    by OCR: its quotation marks are then judged as OCR's (`quotations.find_quotations`)."""
    return any(_READ_BY_OCR.search(warning) for warning in warnings)


def ocr_summary(pages: Sequence[OcrPage]) -> str:
    """The warning of a file read by OCR: pages, mean confidence, pages read poorly."""
    read = [p for p in pages if p.words]
    words = sum(p.words for p in read)
    mean = sum(p.confidence * p.words for p in read) / words if words else 0.0
    low = [
        str(p.number or i)
        for i, p in enumerate(pages, start=1)
        if p.words and p.confidence < LOW_CONFIDENCE
    ]
    noun = "page" if len(pages) == 1 else "pages"
    said = f"read by OCR: {len(pages)} {noun}, mean confidence {mean:.2f}"
    if low:
        said += f"; low confidence on {'page' if len(low) == 1 else 'pages'} {', '.join(low)}"
    return said


def _render(document, index: int, dpi: int = DPI) -> np.ndarray:
    """Page `index` in grey (rows of bytes) at `dpi`, or smaller if that exceeds `MAX_PIXELS`."""
    page = document[index]
    try:
        width, height = page.get_size()
        scale = dpi / 72
        pixels = width * scale * height * scale
        if pixels > MAX_PIXELS:
            scale *= (MAX_PIXELS / pixels) ** 0.5
        bitmap = page.render(scale=scale, grayscale=True, may_draw_forms=True)
        try:
            pixels = bitmap.to_numpy()
            image = np.array(pixels.reshape(pixels.shape[:2]), dtype=np.uint8)  # a copy
        finally:
            bitmap.close()
        if image.min() == 255 and _pictures_not_drawn(page):
            raise MemoryError(f"page {index + 1} rendered blank: its picture was not decoded")
        return image
    finally:
        page.close()


def _pictures_not_drawn(page) -> bool:
    """Whether a page rendered all white has a picture with ink (more than one shade), or
    one that cannot be decoded for want of memory. PDFium draws nothing, and says nothing,
    for a picture it has no memory to decode (a large scan under the reader's memory
    limit): that page is no blank page, and its file must be read again, not remembered
    as one without text."""
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    for picture in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]):
        try:
            bitmap = picture.get_bitmap(render=False)
        except pypdfium2.PdfiumError:  # corrupt, or no memory to decode it
            if _short_of_memory_for(picture):
                return True
            continue
        pixels = bitmap.to_numpy()  # freed with the bitmap's buffer
        # not one shade: a blank scan stays blank whichever way its decoder writes white
        if pixels.min() != pixels.max():
            return True
    return False


def _short_of_memory_for(picture) -> bool:
    """Whether decoding `picture` (twice its pixels' bytes) would pass this process's
    address-space limit (the reader's memory budget); False where that cannot be told."""
    import pypdfium2

    left = address_space_left()
    if left is None:
        return False
    try:
        meta = picture.get_metadata()
    except pypdfium2.PdfiumError:
        return False
    need = meta.width * meta.height * max(1, meta.bits_per_pixel // 8)
    return 2 * need > left


def _first_page(program: str, render) -> tuple[OcrPage, str]:
    """The first page not yet decided read, and the languages of the file's other pages
    ("" when this page cannot tell: the next page decides). `render(dpi)` renders the page.

    When a strip of its first lines is mostly Chinese (`_strip_script`), the page is read
    at `CHINESE_DPI` with `chi_sim`, or `chi_tra` (`_chinese_page`), and so is the file,
    unless the page turns out not mostly Chinese (`_english_too`). A Latin strip: the page
    and the file are read with `eng` alone (`_latin_page`). Otherwise the page is read
    with `_LANGUAGES` at `DPI`, and when it is mostly Chinese after all, with `_TRADITIONAL`
    too (the better reading kept) and the file's other pages with Chinese alone. A page
    without such a strip (a few words) decides nothing. Languages whose data is not
    installed are left out."""
    known = installed_languages(program)
    languages = _installed(program, _LANGUAGES)
    if "chi_sim" not in known:
        return read_image(program, render(DPI), languages), languages
    image = render(CHINESE_DPI)
    ink = _ink_cells(image, CHINESE_DPI)
    strip = _text_strip(image, ink)
    script = None if strip is None else _strip_script(program, strip, known)
    chinese = None if script is None else script == "chinese"
    if chinese:
        page, chosen = _chinese_page(program, image, ink, "chi_tra" in known)
        del image
        mixed = _english_too(program, render, page, chosen)
        if mixed is not None:  # Chinese and English: the file is read with both
            return mixed, _installed(program, f"eng+{chosen}")
        return page, chosen
    del image
    image = render(DPI)
    if script == "latin":
        page, chosen = _latin_page(program, image, languages)
        if chosen == "eng":
            return page, chosen
    else:
        page = read_image(program, image, languages)
    share, letters = _cjk_share(page)
    if letters < _MIN_LETTERS or share < _MIN_CJK_SHARE:
        return page, ("" if chinese is None else languages)
    chosen = "chi_sim"
    if "chi_tra" in known:
        other = read_image(program, image, _installed(program, _TRADITIONAL))
        if _reads_traditional(page, other):
            page, chosen = other, "chi_tra"
    return page, ("" if chinese is None else chosen)


def _strip_script(program: str, strip: np.ndarray, known: frozenset[str]) -> str | None:
    """What a strip of a page's first lines (at `CHINESE_DPI`) is written in: "latin",
    "chinese" (mostly Chinese), "other" (neither for sure), or None when it reads as too
    few letters to tell. Read with `eng` first (the cheaper model): confident, it is Latin;
    hardly confident, Chinese. Else it is read with `chi_sim` and is mostly Chinese when
    `_MIN_CJK_SHARE` of its letters are Chinese characters."""
    if "eng" in known:
        latin = _tesseract(program, strip, "eng", CHINESE_DPI)
        if _cjk_share(latin)[1] >= _MIN_LETTERS:
            if latin.confidence >= _LATIN_CONFIDENCE:
                return "latin"
            if latin.confidence < _NOT_LATIN_CONFIDENCE:
                return "chinese"
    share, letters = _cjk_share(_tesseract(program, strip, "chi_sim", CHINESE_DPI))
    if letters < _MIN_LETTERS:
        return None
    return "chinese" if share >= _MIN_CJK_SHARE else "other"


def _latin_page(program: str, image: np.ndarray, languages: str) -> tuple[OcrPage, str]:
    """A page of a file whose first lines are Latin read with `eng` alone (at 300 dpi a
    quarter to a third less CPU than with Chinese too); read again with `languages` when
    read with less than `_LATIN_CONFIDENCE` (Chinese on it, or a poor scan: "no text" too),
    the better reading kept. The reading and the languages that made it."""
    page = read_image(program, image, "eng")
    if page.confidence >= _LATIN_CONFIDENCE or languages == "eng":
        return page, "eng"
    other = read_image(program, image, languages)
    return (other, languages) if other.confidence > page.confidence else (page, "eng")


def _chinese_page(
    program: str, image: np.ndarray, ink: _Ink, traditional: bool
) -> tuple[OcrPage, str]:
    """A mostly Chinese page (at `CHINESE_DPI`, its `_ink_cells`) read with `chi_sim`, and
    with `chi_tra` too when it may be Traditional and `traditional` is installed; the better
    reading and its language."""
    page = read_image(program, image, "chi_sim", CHINESE_DPI, ink)
    if traditional and _maybe_traditional(page):
        other = read_image(program, image, "chi_tra", CHINESE_DPI, ink)
        if _reads_traditional(page, other):
            return other, "chi_tra"
    return page, "chi_sim"


def _english_too(program: str, render, page: OcrPage, chinese: str) -> OcrPage | None:
    """A page read with `chinese` alone that is not mostly Chinese (an English appendix, a
    page half English) read again with English added, at `DPI`, when that reading has the
    higher confidence; None otherwise."""
    share, letters = _cjk_share(page)
    if letters < _MIN_LETTERS or share >= _MIN_CJK_SHARE:
        return None
    other = read_image(program, render(DPI), _installed(program, f"eng+{chinese}"))
    return other if other.confidence > page.confidence else None


def _script_words(page: OcrPage, config: str) -> tuple[list[float], list[float]] | None:
    """Confidences of a reading's Chinese words that OpenCC's `config` (s2t or t2s) writes
    otherwise, and of its other Chinese words; None without OpenCC."""
    convert = _converter(config)
    if convert is None:
        return None
    specific: list[float] = []
    shared: list[float] = []
    for text, confidence, *_ in page.word_boxes:
        if _CJK.search(text):
            (specific if convert(text) != text else shared).append(confidence)
    return specific, shared


def _maybe_traditional(page: OcrPage) -> bool:
    """Whether a page read with `chi_sim` may be Traditional Chinese: its words written
    otherwise in Traditional are read with less confidence than its other words, or little
    confidence, or are too few to tell."""
    found = _script_words(page, "s2t")
    if found is None:
        return True
    specific, shared = found
    if len(specific) < _SCRIPT_WORDS or not shared:
        return True
    mean = sum(specific) / len(specific)
    return mean < _SCRIPT_CONFIDENCE or mean <= sum(shared) / len(shared) - _SCRIPT_GAP


def _reads_traditional(simplified: OcrPage, traditional: OcrPage) -> bool:
    """Whether the reading with Traditional Chinese is the better: its words written
    otherwise in Simplified are `_TRADITIONAL_MARGIN` more confident than the Simplified
    reading's words written otherwise in Traditional (without OpenCC, or without such words,
    its mean confidence is higher)."""
    ours, theirs = _script_words(traditional, "t2s"), _script_words(simplified, "s2t")
    if ours is None or theirs is None or not ours[0] or not theirs[0]:
        return traditional.confidence > simplified.confidence
    return sum(ours[0]) / len(ours[0]) > sum(theirs[0]) / len(theirs[0]) + _TRADITIONAL_MARGIN


@functools.cache
def _converter(config: str):
    """OpenCC's conversion `config` (a function of text), or None when OpenCC is missing."""
    try:
        import opencc
    except ImportError:
        return None
    return opencc.OpenCC(config).convert


def _later_page(program: str, render, languages: str) -> OcrPage:
    """A page after the first read with the file's `languages`: one not mostly Chinese in a
    mostly Chinese file is read with English too (`_english_too`)."""
    if languages == "eng":
        return _latin_page(program, render(DPI), _installed(program, _LANGUAGES))[0]
    if languages not in _CHINESE:
        return read_image(program, render(DPI), languages)
    page = read_image(program, render(CHINESE_DPI), languages, CHINESE_DPI)
    return _english_too(program, render, page, languages) or page


def _cjk_share(page: OcrPage) -> tuple[float, int]:
    """The share of Chinese characters among the letters of a reading, and its letters."""
    text = "".join(page.boxes)
    letters = sum(1 for c in text if c.isalnum())
    return (len(_CJK.findall(text)) / letters if letters else 0.0), letters


def _ink_cells(image: np.ndarray, dpi: int) -> _Ink:
    """Which cells of the image (rows and columns of `_CELL_INCH` squares) hold the ink of
    text: a tenth of their pixels darker than 0.6 of the paper around them (the brightest
    cell within two cells), and not within two cells of a dark area (a cell whose brightest
    pixel is that dark: a desk around a photographed page, a photograph, a black bar).
    Pages of `DPI` are looked at in every other pixel of every other row (as fine as
    150 dpi)."""
    step = 2 if dpi >= 2 * 125 else 1
    pixels = image[::step, ::step]
    cell = max(2, round(dpi / step * _CELL_INCH))
    rows, columns = pixels.shape[0] // cell, pixels.shape[1] // cell
    if rows < 5 or columns < 5:
        return _Ink(np.zeros((max(rows, 0), max(columns, 0)), dtype=bool), cell * step)
    blocks = pixels[: rows * cell, : columns * cell].reshape(rows, cell, columns, cell)
    brightest = blocks.max(axis=(1, 3))
    padded = np.pad(brightest, 2, mode="edge")
    paper = brightest.copy()
    for dy in range(5):
        for dx in range(5):
            np.maximum(paper, padded[dy : dy + rows, dx : dx + columns], out=paper)
    limit = (paper.astype(np.uint16) * 3 // 5).astype(np.uint8)
    dark = (blocks < limit[:, None, :, None]).sum(axis=(1, 3), dtype=np.int32)
    shade = np.pad(brightest < limit, 2)
    near = np.zeros((rows, columns), dtype=bool)
    for dy in range(5):
        for dx in range(5):
            near |= shade[dy : dy + rows, dx : dx + columns]
    return _Ink((dark * 10 >= cell * cell) & ~near, cell * step)


def _text_strip(image: np.ndarray, ink: _Ink) -> np.ndarray | None:
    """The first lines of a page (its `_ink_cells`), the left half of their width: rows from
    its first ink down to where `_STRIP_INK` ink cells lie above, ended at the next gap
    between lines (when one comes soon: turned lines leave none). None for a page with less
    than twice that ink."""
    cells, cell = ink
    per_row = cells.sum(axis=1)
    if per_row.sum() < 2 * _STRIP_INK:
        return None
    quiet = max(2, int(per_row.max()) // 50)  # specks (noise, a page's edge), not a line
    first = int(np.flatnonzero(per_row > quiet)[0])
    end = first + int(np.searchsorted(np.cumsum(per_row[first:]), _STRIP_INK))
    gaps = np.flatnonzero(per_row[end : end + 1 + (end - first) // 2] <= quiet)
    if gaps.size:
        end += int(gaps[0])
    columns = np.flatnonzero(cells[first : end + 1].sum(axis=0) > 0)
    left, right = int(columns[0]), int(columns[-1]) + 1
    top, bottom = max(0, first - 1) * cell, min(image.shape[0], (end + 1) * cell)
    return np.ascontiguousarray(image[top:bottom, left * cell : (left + right + 1) // 2 * cell])


def _missed_text(page: OcrPage, ink: _Ink) -> bool:
    """Whether much of the ink of text on a page (`_Ink`) lies outside the words read
    (`_MISSED_INK_SHARE`)."""
    cells, cell = ink
    total = int(cells.sum())
    if total < _MISSED_INK:
        return False
    read = np.zeros_like(cells)
    for _, _, x, y, width, height in page.word_boxes:
        read[y // cell : (y + height) // cell + 1, x // cell : (x + width) // cell + 1] = True
    missed = int(np.count_nonzero(cells & ~read))
    return missed >= _MISSED_INK and missed >= _MISSED_INK_SHARE * total


def _installed(program: str, languages: str) -> str:
    """`languages` without those Tesseract has no data for; OcrUnavailable if none is left."""
    known = installed_languages(program)
    kept = "+".join(name for name in languages.split("+") if name in known)
    if not kept:
        raise OcrUnavailable(
            "OCR is not available: Tesseract has no English or Chinese data "
            "(install tesseract-ocr-eng)"
        )
    return kept


@functools.cache
def installed_languages(program: str) -> frozenset[str]:
    """The languages Tesseract has data for."""
    try:
        listed = subprocess.run(
            [program, "--list-langs"], capture_output=True, timeout=30, env=_environment()
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise OcrUnavailable(UNAVAILABLE) from error
    lines = listed.stdout.decode("utf-8", "replace").splitlines()
    return frozenset(line.strip() for line in lines[1:] if line.strip())


def read_image(
    program: str,
    image: np.ndarray,
    languages: str,
    dpi: int = DPI,
    ink: _Ink | None = None,
) -> OcrPage:
    """Text of one page image (rendered at `dpi`; `ink`: its `_ink_cells` if known); read
    again as one block of text when Tesseract's page segmentation left much of its ink
    unread (`_missed_text`), and turned upright when read poorly and Tesseract's orientation
    detection finds it turned. A page read with hardly any confidence (a photograph's shapes
    taken for letters) has no text."""
    page = _tesseract(program, image, languages, dpi)
    if _missed_text(page, ink or _ink_cells(image, dpi)):
        block = _tesseract(program, image, languages, dpi, "6")
        if block.words * block.confidence > _BETTER_BLOCK * page.words * page.confidence:
            page = block
    if page.words and page.confidence < LOW_CONFIDENCE:
        turn = _orientation(program, image, dpi)
        if turn:
            upright = np.ascontiguousarray(np.rot90(image, -turn // 90))  # clockwise
            turned = _tesseract(program, upright, languages, dpi)
            if turned.confidence > page.confidence:
                page = turned
    # Stripes or shapes read as "words" of dashes, bars and stray letters (a corrupt CCITT
    # stream, a photograph), however confident: fewer than 1.5 letters or digits a word
    # (English has about 5, a Chinese line joins its characters into one word) is no text.
    text = " ".join(page.boxes)
    letters = sum(c.isalnum() for c in text)
    if page.confidence < _MIN_CONFIDENCE or letters < 1.5 * len(text.split()):
        return OcrPage((), page.confidence, 0)
    return page


def _run(program: str, image: np.ndarray, dpi: int, *args: str, check: bool = True) -> str:
    """Tesseract's standard output for `image` (as PGM on its standard input, at `dpi`).

    With `check`, a Tesseract that fails or dies (out of memory under the reader's limit,
    a crash) is a TransientError, read again on the next scan: its empty output is not a
    page without text."""
    height, width = image.shape
    header = f"P5 {width} {height} 255\n".encode("ascii")
    timeout = _page_seconds()
    try:
        done = subprocess.run(
            [program, "stdin", "stdout", "--dpi", str(dpi), *args],
            input=header + image.tobytes(),
            capture_output=True,
            timeout=timeout,
            env=_environment(),
            preexec_fn=die_with_parent,  # killed with the reader
        )
    except subprocess.TimeoutExpired as error:
        raise _out_of_page_time(timeout) from error
    except OSError as error:
        raise OcrUnavailable(UNAVAILABLE) from error
    code = done.returncode
    if check and code:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        if code == -9:  # SIGKILL: the kernel's out-of-memory killer, or someone
            why = "Tesseract was killed (signal 9: out of memory?)"
        elif code < 0:
            why = f"Tesseract crashed (signal {-code})"
        elif said:
            why = f"Tesseract failed: {said[-1].strip()[:200]}"
        else:
            why = f"Tesseract failed (exit code {code})"
        raise TesseractFailed(f"no extractable text (scanned PDF: {why})")
    return done.stdout.decode("utf-8", "replace")


def _page_seconds() -> float:
    """How long the next reading may take: `_PAGE_SECONDS`, or less before the deadline."""
    if _deadline is None:
        return _PAGE_SECONDS
    return min(_PAGE_SECONDS, max(0.0, _deadline - time.monotonic()))


def _out_of_page_time(seconds: float) -> Exception:
    """The error of a reading stopped after `seconds` (`_page_seconds`): the file's deadline
    (`_OutOfTime`) or the page's own budget."""
    if seconds < _PAGE_SECONDS:
        return _OutOfTime()
    return ExtractionError(
        f"no extractable text (scanned PDF: OCR of one page took longer than {_PAGE_SECONDS:.0f} s)"
    )


def _environment() -> dict[str, str]:
    """Tesseract's environment: one thread (readers already use every core). In a frozen
    bundle its own Tesseract (`tesseract_path`) gets the bundle's libraries first on the
    library path and the bundle's language data; the system's gets the library path the
    app was started with, without the bundle's libraries."""
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    if getattr(sys, "frozen", False):
        original = env.pop("LD_LIBRARY_PATH_ORIG", None)
        env.pop("LD_LIBRARY_PATH", None)
        bundle = getattr(sys, "_MEIPASS", None)
        program = tesseract_path()
        if bundle and program and Path(program).parent == Path(bundle, "tesseract"):
            env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (bundle, original) if p)
            env["TESSDATA_PREFIX"] = str(Path(bundle, "tesseract", "tessdata"))
        elif original:
            env["LD_LIBRARY_PATH"] = original
    return env


def _orientation(program: str, image: np.ndarray, dpi: int = DPI) -> int:
    """Degrees the page is turned clockwise from upright (0, 90, 180 or 270) as
    Tesseract's orientation detection says, 0 when it cannot tell."""
    engine = tesseract_api.api()
    if engine is not None and tesseract_api.fits(image.size):
        return engine.rotation(image, dpi) or 0
    # unchecked: Tesseract fails here on a page with too few letters to tell
    found = re.search(r"Rotate: (\d+)", _run(program, image, dpi, "--psm", "0", check=False))
    return int(found[1]) % 360 if found else 0


def _tesseract(
    program: str, image: np.ndarray, languages: str, dpi: int = DPI, segmentation: str = "3"
) -> OcrPage:
    """One page image read by Tesseract, its words grouped into paragraphs; `segmentation`
    is its page segmentation mode (3: automatic, 6: one block of text)."""
    engine = tesseract_api.api()
    if engine is not None and tesseract_api.fits(image.size):
        table = _in_process(engine, image, dpi, languages, segmentation)
    else:
        table = _run(program, image, dpi, "-l", languages, "--psm", segmentation, "tsv")
    return page_from_tsv(table)


def _in_process(
    engine: tesseract_api.TesseractApi, image: np.ndarray, dpi: int, languages: str, psm: str
) -> str:
    """`_run`'s TSV, read by the Tesseract loaded in this reader (`tesseract_api`), with the
    same page budget and file deadline."""
    seconds = _page_seconds()
    try:
        return engine.tsv(image, dpi, languages, psm, seconds)
    except tesseract_api.OutOfTime as error:
        raise _out_of_page_time(seconds) from error
    except tesseract_api.Failed as error:
        raise TesseractFailed(f"no extractable text (scanned PDF: {error})") from error


def page_from_tsv(table: str) -> OcrPage:
    """An `OcrPage` from Tesseract's TSV: lines as Tesseract found them, a paragraph for
    each of its paragraphs, split again where lines lie far apart; page numbers left out."""
    lines: dict[tuple[int, int, int], list[tuple[str, int, int]]] = {}
    confidences: list[float] = []
    found: list[tuple[str, float, int, int, int, int]] = []
    for row in table.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5":
            continue
        text = cells[11].strip()
        conf = float(cells[10])
        if not text or conf < 0:
            continue
        top, height = int(cells[7]), int(cells[9])
        lines.setdefault((int(cells[2]), int(cells[3]), int(cells[4])), []).append(
            (text, top, height)
        )
        confidences.append(conf / 100)
        found.append((text, conf / 100, int(cells[6]), top, int(cells[8]), height))
    boxes: list[str] = []
    current: list[str] = []
    last: tuple[int, int, int, int] | None = None  # block, paragraph, bottom, line height
    for (block, par, _), words in lines.items():
        top = min(w[1] for w in words)
        bottom = max(w[1] + w[2] for w in words)
        height = max(1, bottom - top)
        if last is not None and (
            (block, par) != last[:2] or top - last[2] > _PARAGRAPH_GAP * max(height, last[3])
        ):
            boxes.append("\n".join(current))
            current = []
        current.append(_line_text([w[0] for w in words]))
        last = (block, par, bottom, height)
    if current:
        boxes.append("\n".join(current))
    kept = tuple(b for b in boxes if b.strip() and not _PAGE_NUMBER.match(b))
    mean = sum(confidences) / len(confidences) if confidences else 0.0
    return OcrPage(kept, mean, len(confidences), word_boxes=tuple(found))


def _line_text(words: list[str]) -> str:
    """A line's words joined by spaces, except between Chinese characters."""
    text = words[0]
    for word in words[1:]:
        if _CJK.match(text[-1]) and _CJK.match(word[0]):
            text += word
        else:
            text += " " + word
    return text


# Pictures inside documents (`core.read.extract.pictures`): Tesseract decodes their files.


def read_picture(program: str, data: bytes, languages: str, seconds: float) -> tuple[OcrPage, str]:
    """A picture's text from its file's bytes (PNG, JPEG, GIF, TIFF, BMP or WebP, which the
    caller has checked: other bytes Tesseract takes for a list of file names) and the
    languages it was read with; without `languages` they are chosen as for a scan's first
    page. ExtractionError when one reading takes longer than `seconds`, OcrUnavailable when
    Tesseract cannot run or has no English or Chinese data."""
    if languages:
        return _picture_page(program, data, languages, seconds), languages
    languages = _installed(program, _LANGUAGES)
    page = _picture_page(program, data, languages, seconds)
    text = "".join(page.boxes)
    letters = sum(1 for c in text if c.isalnum())
    mostly_chinese = letters and len(_CJK.findall(text)) / letters >= _MIN_CJK_SHARE
    if mostly_chinese and "chi_tra" in installed_languages(program):
        traditional = _installed(program, _TRADITIONAL)
        other = _picture_page(program, data, traditional, seconds)
        if other.confidence > page.confidence:
            return other, traditional
    return page, languages


def _picture_page(program: str, data: bytes, languages: str, seconds: float) -> OcrPage:
    """One picture file read by Tesseract (no `--dpi`: it finds the size of the type): by
    the one loaded in the reader when it may (not a TIFF, which may hold several pages,
    nor one too large for the memory left), else by the program."""
    engine = tesseract_api.api()
    if engine is not None and not data.startswith((b"II*\0", b"MM\0*")):
        pixels = engine.picture_pixels(data)
        if pixels is not None and tesseract_api.fits(pixels):
            try:
                table = engine.picture_tsv(data, languages, seconds)
            except tesseract_api.OutOfTime as error:
                raise _picture_out_of_time(seconds) from error
            except tesseract_api.Failed as error:
                raise TesseractFailed(str(error)) from error
            return replace(page_from_tsv(table), word_boxes=())
    try:
        done = subprocess.run(
            [program, "stdin", "stdout", "-l", languages, "tsv"],
            input=data,
            capture_output=True,
            timeout=seconds,
            env=_environment(),
            preexec_fn=die_with_parent,  # killed with the reader
        )
    except subprocess.TimeoutExpired as error:
        raise _picture_out_of_time(seconds) from error
    except OSError as error:
        raise OcrUnavailable(UNAVAILABLE) from error
    if done.returncode < 0:  # killed (out of memory?): an error of a picture it cannot decode
        raise TesseractFailed(f"Tesseract was killed (signal {-done.returncode})")
    return replace(page_from_tsv(done.stdout.decode("utf-8", "replace")), word_boxes=())


def _picture_out_of_time(seconds: float) -> ExtractionError:
    return ExtractionError(f"OCR of a picture took longer than {seconds:.0f} s")
