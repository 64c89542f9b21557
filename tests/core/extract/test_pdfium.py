"""The PDFium reader against pdfminer's as the oracle: the same paragraphs and hidden text
on the sample PDFs (made by LibreOffice and qpdf) and on PDFs written here; files PDFium
does not read as pdfminer does go to pdfminer; broken files give clear per-file errors.
The reader's shortcuts against the long way: a page's text in one call against each
character's code point, one look for the page against each character's text object."""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pypdfium2 as pypdfium
import pypdfium2.raw as fpdf
import pytest
from simsift.core.document import ExtractionError
from simsift.core.read.extract import extract, pdfium
from simsift.core.read.extract import pdf as pdf_reader
from test_pdf_order import LEFT, LINE_WIDTH, MARGIN, RIGHT, column, write_pdf

from tests.core.pdf_writer import pdf_bytes

DATA = Path(__file__).resolve().parents[2] / "data" / "extract"
SAMPLES = ["article_en.pdf", "article_zh.pdf", "hidden_text.pdf"]


def both_readers(path: Path) -> tuple[tuple[list[str], list[str]], tuple[list[str], list[str]]]:
    """(boxes, hidden) as pdfminer reads the file, and as PDFium does."""
    miner_hidden: list[str] = []
    fast_hidden: list[str] = []
    miner = list(pdf_reader.page_paragraphs(path, miner_hidden))
    fast = list(pdfium.page_paragraphs(path, fast_hidden))
    return (miner, miner_hidden), (fast, fast_hidden)


def no_pdfminer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make reading with pdfminer fail the test: the file must be read by PDFium."""

    def fail(path: Path, hidden: list[str]) -> list[str]:
        raise AssertionError(f"{path.name} was read by pdfminer")

    monkeypatch.setattr(pdf_reader, "pdfminer_paragraphs", fail)


@pytest.mark.parametrize("name", SAMPLES)
def test_pdfium_reads_the_samples_as_pdfminer_does(name: str) -> None:
    (miner, miner_hidden), (fast, fast_hidden) = both_readers(DATA / name)
    assert fast == miner
    assert sorted(fast_hidden) == sorted(miner_hidden)


@pytest.mark.parametrize("name", SAMPLES)
def test_extract_reads_the_samples_with_pdfium(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = extract(DATA / name)
    no_pdfminer(monkeypatch)
    assert extract(DATA / name) == expected


def test_hidden_text_is_kept_apart_by_pdfium(monkeypatch: pytest.MonkeyPatch) -> None:
    no_pdfminer(monkeypatch)
    result = extract(DATA / "hidden_text.pdf")
    assert "White on a dark bar shows." in result.paragraphs  # white on a dark rectangle
    assert "Scanned words under an OCR layer." in result.paragraphs  # mode 3 over a picture
    assert sorted(result.hidden) == sorted(
        (
            "This line is drawn in render mode three and never shows.",
            "White words sit here unseen between two visible lines.",
            "Half point type is a hairline on paper and on screen.",
            "These words are placed beyond the right edge of the page.",
            "Below the crop box these words are cut from every view.",
        )
    )


def test_two_columns_read_by_pdfium_as_by_pdfminer(tmp_path: Path) -> None:
    runs = column(LEFT, MARGIN, LINE_WIDTH) + column(RIGHT, MARGIN + LINE_WIDTH + 10, LINE_WIDTH)
    write_pdf(tmp_path / "columns.pdf", runs)
    (miner, _), (fast, _) = both_readers(tmp_path / "columns.pdf")
    assert fast == miner


@pytest.mark.parametrize("name", SAMPLES)
def test_characters_pdfium_generates_are_whitespace(name: str) -> None:
    """The reader asks whether a character is generated (a space or line break PDFium adds
    between words and lines) only of whitespace."""
    document = pypdfium.PdfDocument(DATA / name)
    try:
        for page in document:
            textpage = page.get_textpage()
            for i in range(fpdf.FPDFText_CountChars(textpage.raw)):
                if fpdf.FPDFText_IsGenerated(textpage.raw, i):
                    assert chr(fpdf.FPDFText_GetUnicode(textpage.raw, i)).isspace()
            textpage.close()
            page.close()
    finally:
        document.close()


def write_raw_pdf(path: Path, content: bytes, font: bytes, *more: bytes) -> None:
    """A one-page PDF drawing `content` with font object `font` as /F1."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
        b" /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        font,
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream",
        *more,
    ]
    path.write_bytes(pdf_bytes(objects))


def test_glyph_numbers_without_unicode_go_to_pdfminer_and_are_garbled(tmp_path: Path) -> None:
    path = tmp_path / "no_tounicode.pdf"
    write_raw_pdf(
        path,
        b"BT /F1 12 Tf 72 700 Td <0024004500460047> Tj ET\n",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /NoMap /Encoding /Identity-H"
        b" /DescendantFonts [6 0 R] >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NoMap /CIDSystemInfo"
        b" << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 600 >>",
    )
    with pytest.raises(pdfium.Unsuited):
        list(pdfium.page_paragraphs(path))
    with pytest.raises(ExtractionError, match="no ToUnicode map"):
        extract(path)


def test_text_set_top_to_bottom_goes_to_pdfminer(tmp_path: Path) -> None:
    path = tmp_path / "vertical.pdf"
    write_pdf(path, [(300.0, 700.0 - 12 * i, letter) for i, letter in enumerate("Vertical" * 3)])
    with pytest.raises(pdfium.Unsuited, match="vertical"):
        list(pdfium.page_paragraphs(path))
    miner = pdf_reader.pdfminer_paragraphs(path, [])
    assert miner
    assert extract(path).paragraphs == tuple(pdf_reader.joined_paragraphs(miner))


def test_encrypted_pdf_gives_the_same_error() -> None:
    with pytest.raises(pdfium.PasswordProtected):
        list(pdfium.page_paragraphs(DATA / "encrypted.pdf"))
    with pytest.raises(ExtractionError, match=r"^password protected PDF$"):
        extract(DATA / "encrypted.pdf")


def test_truncated_pdf_is_a_clear_per_file_error(tmp_path: Path) -> None:
    path = tmp_path / "truncated.pdf"
    path.write_bytes((DATA / "article_en.pdf").read_bytes()[:20000])
    with pytest.raises(ExtractionError, match="not a valid PDF"):
        extract(path)


def test_damaged_pdf_is_read_or_a_clear_per_file_error(tmp_path: Path) -> None:
    data = bytearray((DATA / "article_en.pdf").read_bytes())
    for offset in range(len(data) // 3, len(data), 997):  # bytes spoiled all over the file
        data[offset] ^= 0x5A
    path = tmp_path / "damaged.pdf"
    path.write_bytes(bytes(data))
    try:
        result = extract(path)
    except ExtractionError as error:
        assert str(error)
    else:
        assert result.format == "pdf"


@contextmanager
def opened(path: Path) -> Iterator[list[tuple[pypdfium.PdfPage, pypdfium.PdfTextPage]]]:
    """(page, text page) of every page of the file, closed after use."""
    document = pypdfium.PdfDocument(path)
    pages = [(page, page.get_textpage()) for page in document]
    try:
        yield pages
    finally:
        for page, textpage in pages:
            textpage.close()
            page.close()
        document.close()


@pytest.mark.parametrize("name", [*SAMPLES, "image_only.pdf"])
def test_a_pages_text_read_in_one_call_is_each_characters_code_point(name: str) -> None:
    with opened(DATA / name) as pages:
        for _, textpage in pages:
            handle = textpage.raw
            count = fpdf.FPDFText_CountChars(handle)
            one_by_one = [fpdf.FPDFText_GetUnicode(handle, i) for i in range(count)]
            address = ctypes.c_void_p(ctypes.cast(handle, ctypes.c_void_p).value)
            assert pdfium._unicodes(handle, address, count).tolist() == one_by_one


def chars_of(path: Path) -> list[tuple]:
    """Every page's characters as `page_chars` gives them."""
    result = []
    with opened(path) as pages:
        for page, _ in pages:
            shown, hidden, bbox, _ = pdfium.page_chars(page)
            for chars in (shown, hidden):
                result.append((chars.text, chars.bounds.tolist(), chars.letters, bbox))
    return result


@pytest.mark.parametrize("name", SAMPLES)
def test_one_look_for_a_page_gives_the_characters_their_own_looks_give(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shortcut = chars_of(DATA / name)
    monkeypatch.setattr(pdfium, "_shared_look", lambda page, colour: None)
    assert shortcut == chars_of(DATA / name)


def page_handle(page: pypdfium.PdfPage) -> ctypes.c_void_p:
    return ctypes.c_void_p(ctypes.cast(page.raw, ctypes.c_void_p).value)


def shared_looks(path: Path) -> list[pdfium.Look | None]:
    with opened(path) as pages:
        return [pdfium._shared_look(page_handle(page), pdfium._Colour()) for page, _ in pages]


def test_a_page_of_hidden_text_has_no_one_look() -> None:
    assert shared_looks(DATA / "hidden_text.pdf")[0] is None
    plain = shared_looks(DATA / "article_en.pdf")
    assert all(look is not None and not look.turned and not look.white for look in plain)


@pytest.mark.parametrize(
    ("matrix", "shared"),
    [("1 0 0 1", True), ("2 0 0 0.5", True), ("0 1 -1 0", False), ("1 0 0.3 1", False)],
)
def test_a_page_of_turned_or_slanted_text_has_no_one_look(
    tmp_path: Path, matrix: str, shared: bool
) -> None:
    """Text set by a text matrix that turns or slants it (b or c not 0) is asked about
    character by character, where its angle is PDFium's own: half the page turned, the page
    goes to pdfminer."""
    path = tmp_path / "turned.pdf"
    content = (
        b"BT /F1 12 Tf 72 700 Td (Upright words) Tj ET\n"
        b"BT /F1 12 Tf %s 300 400 Tm (Other words) Tj ET\n" % matrix.encode()
    )
    write_raw_pdf(path, content, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    (look,) = shared_looks(path)
    assert (look is not None) == shared
    with opened(path) as ((page, _),):
        if not shared:
            with pytest.raises(pdfium.Unsuited, match="rotated"):
                pdfium.page_chars(page)
            return
        shown, _, _, _ = pdfium.page_chars(page)
    assert "Upright" in shown.text
    assert "Other" in shown.text


def test_characters_are_arrays_in_page_space() -> None:
    with opened(DATA / "article_en.pdf") as pages:
        shown, _, bbox, _ = pdfium.page_chars(pages[0][0])
    assert len(shown) == len(shown.text) == shown.bounds.shape[1]
    x0, y0, x1, y1 = shown.bounds
    assert np.all(x0 <= x1) and np.all(y0 <= y1)
    assert x0.min() >= 0 and y0.min() >= 0 and x1.max() <= bbox[2] and y1.max() <= bbox[3]
    assert shown.letters == sum(not c.isspace() for c in shown.text)


@pytest.mark.parametrize("name", SAMPLES)
def test_the_objects_looks_are_those_their_first_characters_give(name: str) -> None:
    """`_object_looks` (a look per text object from the page's objects) against `_look`
    (the look through the object's first character), on every page of the samples."""
    with opened(DATA / name) as pages:
        for page, textpage in pages:
            known = pdfium._object_looks(page_handle(page), pdfium._Colour())
            handle = pdfium._pointer(ctypes.cast(textpage.raw, ctypes.c_void_p).value)
            first: dict[int, int] = {}
            for index in range(fpdf.FPDFText_CountChars(textpage.raw)):
                first.setdefault(pdfium._text_object(handle, index), index)
            first.pop(0, None)  # the spaces and line breaks PDFium generates
            assert set(known) == set(first)
            for address, index in first.items():
                assert known[address] == pdfium._look(handle, index, address, pdfium._Colour())


def test_a_page_of_mixed_looks_gives_the_characters_their_own_looks_give(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """hidden_text.pdf's first page mixes looks: read with the objects' looks and with
    every object asked through its first character, the same characters."""
    assert shared_looks(DATA / "hidden_text.pdf")[0] is None
    with_objects = chars_of(DATA / "hidden_text.pdf")
    monkeypatch.setattr(pdfium, "_object_looks", lambda page, colour: {})
    assert with_objects == chars_of(DATA / "hidden_text.pdf")


def test_turned_text_objects_have_no_looks_of_their_own(tmp_path: Path) -> None:
    path = tmp_path / "turned.pdf"
    content = (
        b"BT /F1 12 Tf 72 700 Td (Upright words) Tj ET\n"
        b"BT /F1 12 Tf 0 1 -1 0 300 400 Tm (Other words) Tj ET\n"
    )
    write_raw_pdf(path, content, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    with opened(path) as ((page, _),):
        assert pdfium._object_looks(page_handle(page), pdfium._Colour()) == {}


def test_files_opened_without_pypdfium2s_wrapper_fail_as_they_did(tmp_path: Path) -> None:
    """The document opened by its raw handle: a missing file, a file that is no PDF and a
    PDF of no pages give the errors `pypdfium2.PdfDocument` led to."""
    with pytest.raises(FileNotFoundError):
        list(pdfium.page_paragraphs(tmp_path / "missing.pdf"))
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"not a PDF at all")
    with pytest.raises(pdfium.Unsuited, match="cannot open"):
        list(pdfium.page_paragraphs(junk))
    with pytest.raises(pypdfium.PdfiumError):
        pypdfium.PdfDocument(junk)


def test_the_page_box_and_rotation_are_pypdfium2s() -> None:
    with opened(DATA / "article_en.pdf") as pages:
        for page, _ in pages:
            handle = pdfium._Handle(ctypes.cast(page.raw, ctypes.c_void_p).value)
            assert pdfium._page_box(handle) == page.get_mediabox()
            assert pdfium._drawn_area(handle, page.get_mediabox()) == page.get_bbox()
            assert pdfium._rotation(handle) == page.get_rotation()


HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
SCALED_UP = b"BT /F1 1 Tf 12 0 0 12 72 700 Tm (Set at one point and scaled to twelve.) Tj ET\n"
SCALED_DOWN = b"BT /F1 12 Tf 0.05 0 0 0.05 72 650 Tm (Twelve point shrunk to a hairline.) Tj ET\n"


def looks_asked(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the reader take its looks one way: one for the page, per object, per character."""
    no_pdfminer(monkeypatch)
    if how != "page":
        monkeypatch.setattr(pdfium, "_shared_look", lambda page, colour: None)
    if how == "character":
        monkeypatch.setattr(pdfium, "_object_looks", lambda page, colour: {})


@pytest.mark.parametrize("how", ["page", "object", "character"])
def test_text_set_at_one_point_and_scaled_by_its_matrix_is_shown(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # macOS writes every PDF this way: the whole essay was "hidden text" before
    looks_asked(how, monkeypatch)
    path = tmp_path / "quartz.pdf"
    write_raw_pdf(path, SCALED_UP, HELVETICA)
    result = extract(path)
    assert result.paragraphs == ("Set at one point and scaled to twelve.",)
    assert not result.hidden


@pytest.mark.parametrize("how", ["object", "character"])
def test_type_shrunk_to_a_hairline_by_its_matrix_is_hidden(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    looks_asked(how, monkeypatch)
    path = tmp_path / "shrunk.pdf"
    write_raw_pdf(path, SCALED_UP + SCALED_DOWN, HELVETICA)
    result = extract(path)
    assert result.paragraphs == ("Set at one point and scaled to twelve.",)
    assert result.hidden == ("Twelve point shrunk to a hairline.",)
