"""Text of scanned PDF pages: each page rendered with PDFium at 300 dpi and read by
Tesseract (OCR), one page at a time.

`extract_pdf` reads a PDF this way when it has no visible text at all (an image-only scan)
or its text is mostly glyph numbers ("(cid:N)": fonts without Unicode values), and its
scanned pages among pages of text. Tesseract is a program of its own (apt `tesseract-ocr`
with the `eng`, `chi-sim` and `chi-tra` languages, or the frozen bundle's own copy; see
docs/extraction.md, "OCR"): it is run once per page with the page's pixels on its
standard input and its word table (TSV) on its standard output.
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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from simsift.core.document import ExtractionError, TransientError
from simsift.core.read.workers import die_with_parent, report_pages

__all__ = [
    "MAX_OCR_PAGES",
    "OCR_OFF",
    "OCR_SECONDS",
    "OcrPage",
    "OcrUnavailable",
    "TesseractFailed",
    "ocr_summary",
    "read_pages",
    "tesseract_path",
]

DPI = 300
# A page rendered larger than this (a poster, a huge scan) is rendered smaller: 40 MB of grey.
MAX_PIXELS = 40_000_000
# Scans longer than this are reported rather than read (a 500-page book takes half an hour).
MAX_OCR_PAGES = 100
# OCR of one file stops with an error after this long; the reader's time budget of a PDF
# is raised by as much (`core.pipeline.stages.read_budget`).
OCR_SECONDS = 300.0
# One page may take this long in Tesseract before it is stopped.
_PAGE_SECONDS = 120.0
# Pages read with a mean word confidence below this are named in the warning, and are
# tried again in the orientation Tesseract's orientation detection gives.
LOW_CONFIDENCE = 0.6
# Pages read with a lower mean confidence have no text.
_MIN_CONFIDENCE = 0.3
# Latin and Simplified Chinese together; a page mostly in Chinese characters is read again
# with Traditional Chinese, and the better of both (by confidence) is kept for the file.
_LANGUAGES = "eng+chi_sim"
_TRADITIONAL = "eng+chi_tra"
_MIN_CJK_SHARE = 0.3
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
    """One page read by OCR: its text boxes (lines apart, as `pdf_layout.box_texts` gives
    them), the mean confidence of its words (0 to 1) and how many words it has."""

    boxes: tuple[str, ...]
    confidence: float
    words: int
    number: int = 0  # the page's number in its file, from 1 (0: not known)


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
        deadline = time.monotonic() + OCR_SECONDS
        languages = ""
        for done, index in enumerate(chosen_pages):
            report_pages(done, count)
            if time.monotonic() > deadline:
                raise ExtractionError(
                    f"no extractable text (scanned PDF: OCR took longer than "
                    f"{OCR_SECONDS:.0f} s, {done} of {count} pages read)"
                )
            try:
                image = _render(document, index)
            except pypdfium2.PdfiumError as error:
                raise ExtractionError(
                    f"no extractable text; cannot render page {index + 1} for OCR ({error})"
                ) from error
            if not languages:  # the first page with words decides Simplified or Traditional
                page, chosen = _first_page(program, image)
                languages = chosen if page.words else ""
            else:
                page = read_image(program, image, languages)
            del image
            yield replace(page, number=index + 1)
        report_pages(count, count)
    finally:
        document.close()


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


def _render(document, index: int) -> np.ndarray:
    """Page `index` in grey (rows of bytes) at `DPI`, or smaller if that exceeds `MAX_PIXELS`."""
    page = document[index]
    try:
        width, height = page.get_size()
        scale = DPI / 72
        pixels = width * scale * height * scale
        if pixels > MAX_PIXELS:
            scale *= (MAX_PIXELS / pixels) ** 0.5
        bitmap = page.render(scale=scale, grayscale=True, may_draw_forms=True)
        try:
            pixels = bitmap.to_numpy()
            return np.array(pixels.reshape(pixels.shape[:2]), dtype=np.uint8)  # a copy
        finally:
            bitmap.close()
    finally:
        page.close()


def _first_page(program: str, image: np.ndarray) -> tuple[OcrPage, str]:
    """A file's first page read with `_LANGUAGES`, and again with Traditional Chinese when
    it is mostly Chinese; the better reading and its languages. Languages whose data is
    not installed are left out."""
    languages = _installed(program, _LANGUAGES)
    page = read_image(program, image, languages)
    text = "".join(page.boxes)
    letters = sum(1 for c in text if c.isalnum())
    traditional = _installed(program, _TRADITIONAL)
    if letters and len(_CJK.findall(text)) / letters >= _MIN_CJK_SHARE and "chi_tra" in traditional:
        other = read_image(program, image, traditional)
        if other.confidence > page.confidence:
            return other, traditional
    return page, languages


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


def read_image(program: str, image: np.ndarray, languages: str) -> OcrPage:
    """Text of one page image; read again turned upright when read poorly and Tesseract's
    orientation detection finds it turned. A page read with hardly any confidence (a
    photograph's shapes taken for letters) has no text."""
    page = _tesseract(program, image, languages)
    if page.words and page.confidence < LOW_CONFIDENCE:
        turn = _orientation(program, image)
        if turn:
            upright = np.ascontiguousarray(np.rot90(image, -turn // 90))  # clockwise
            turned = _tesseract(program, upright, languages)
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


def _run(program: str, image: np.ndarray, *args: str, check: bool = True) -> str:
    """Tesseract's standard output for `image` (as PGM on its standard input).

    With `check`, a Tesseract that fails or dies (out of memory under the reader's limit,
    a crash) is a TransientError, read again on the next scan: its empty output is not a
    page without text."""
    height, width = image.shape
    header = f"P5 {width} {height} 255\n".encode("ascii")
    try:
        done = subprocess.run(
            [program, "stdin", "stdout", "--dpi", str(DPI), *args],
            input=header + image.tobytes(),
            capture_output=True,
            timeout=_PAGE_SECONDS,
            env=_environment(),
            preexec_fn=die_with_parent,  # killed with the reader
        )
    except subprocess.TimeoutExpired as error:
        raise ExtractionError(
            f"no extractable text (scanned PDF: OCR of one page took longer than "
            f"{_PAGE_SECONDS:.0f} s)"
        ) from error
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


def _orientation(program: str, image: np.ndarray) -> int:
    """Degrees the page is turned clockwise from upright (0, 90, 180 or 270) as
    Tesseract's orientation detection says, 0 when it cannot tell."""
    # unchecked: Tesseract fails here on a page with too few letters to tell
    found = re.search(r"Rotate: (\d+)", _run(program, image, "--psm", "0", check=False))
    return int(found[1]) % 360 if found else 0


def _tesseract(program: str, image: np.ndarray, languages: str) -> OcrPage:
    """One page image read by Tesseract, its words grouped into paragraphs."""
    table = _run(program, image, "-l", languages, "tsv")
    return page_from_tsv(table)


def page_from_tsv(table: str) -> OcrPage:
    """An `OcrPage` from Tesseract's TSV: lines as Tesseract found them, a paragraph for
    each of its paragraphs, split again where lines lie far apart; page numbers left out."""
    lines: dict[tuple[int, int, int], list[tuple[str, int, int]]] = {}
    confidences: list[float] = []
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
    return OcrPage(kept, mean, len(confidences))


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
    """One picture file read by Tesseract (no `--dpi`: it finds the size of the type)."""
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
        raise ExtractionError(f"OCR of a picture took longer than {seconds:.0f} s") from error
    except OSError as error:
        raise OcrUnavailable(UNAVAILABLE) from error
    if done.returncode < 0:  # killed (out of memory?): an error of a picture it cannot decode
        raise TesseractFailed(f"Tesseract was killed (signal {-done.returncode})")
    return page_from_tsv(done.stdout.decode("utf-8", "replace"))
