"""Scanned PDFs read by OCR: pages drawn with Pillow and saved as image-only PDFs."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from simsift.core.cli import build_parser, scan_options
from simsift.core.document import ExtractionError, TransientError
from simsift.core.pipeline import stages
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.pipeline.stages import read_budget
from simsift.core.read.extract import extract, ocr
from simsift.core.read.extract import pdf as pdf_reader
from simsift.core.read.reader import ReadTask, read_file
from simsift.core.store.catalog import Catalog

PIL = pytest.importorskip("PIL", reason="Pillow draws the scanned pages")
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "data" / "extract"
NO_TEXT = "no extractable text (scanned/image-only PDF?)"

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "extract"
needs_tesseract = pytest.mark.skipif(
    ocr.tesseract_path() is None, reason="Tesseract is not installed (packaging/system-deps.sh)"
)

ENGLISH = [
    "The committee reviewed the annual report and found that",
    "the budget was spent mostly on teaching materials,",
    "laboratory equipment and travel for the students.",
]
CHINESE = [
    "委员会审阅了年度报告，发现预算主要用于教学材料、",
    "实验室设备和差旅。迟交论文的学生获得了第二次机会。",
]
LATIN_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",)
CJK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
)


def font(candidates: tuple[str, ...], size: int) -> ImageFont.FreeTypeFont:
    for name in candidates:
        if Path(name).exists():
            return ImageFont.truetype(name, size)
    pytest.skip(f"no font among {candidates}")


def scanned_pdf(path: Path, lines: list[str], face: ImageFont.FreeTypeFont, turn: int = 0) -> Path:
    """A one-page image-only PDF (300 dpi) showing `lines`, the page turned `turn` degrees."""
    page = Image.new("L", (1900, 120 + 70 * len(lines)), 255)
    draw = ImageDraw.Draw(page)
    for i, line in enumerate(lines):
        draw.text((100, 60 + 70 * i), line, font=face, fill=0)
    page.rotate(turn, expand=True).save(path, resolution=300)
    return path


def words(text: str) -> list[str]:
    """Latin words and single CJK characters, lower-cased."""
    return re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", text.lower())


def found_share(expected: list[str], text: str) -> float:
    got = set(words(text))
    wanted = words(" ".join(expected))
    return sum(w in got for w in wanted) / len(wanted)


@needs_tesseract
def test_scanned_english_page_is_read_by_ocr_with_a_warning(tmp_path):
    path = scanned_pdf(tmp_path / "scan.pdf", ENGLISH, font(LATIN_FONTS, 40))
    result = extract(path)
    assert found_share(ENGLISH, result.text) >= 0.95
    assert result.format == "pdf"
    assert result.warnings[0].startswith("read by OCR: 1 page, mean confidence 0.")
    assert "low confidence" not in result.warnings[0]


@needs_tesseract
def test_scanned_chinese_page_is_read_by_ocr(tmp_path):
    path = scanned_pdf(tmp_path / "scan.pdf", CHINESE, font(CJK_FONTS, 44))
    result = extract(path)
    assert found_share(CHINESE, result.text) >= 0.95
    assert result.warnings[0].startswith("read by OCR")


@needs_tesseract
def test_page_turned_a_quarter_is_read_upright(tmp_path):
    path = scanned_pdf(tmp_path / "scan.pdf", ENGLISH[:2], font(LATIN_FONTS, 40), turn=90)
    assert found_share(ENGLISH[:2], extract(path).text) >= 0.95


def photo() -> Image.Image:
    """Shapes in shades of grey, no letters: a photograph as OCR sees it."""
    picture = Image.new("L", (1200, 1600), 200)
    draw = ImageDraw.Draw(picture)
    for i in range(40):
        x, y = (i * 397) % 1100, (i * 613) % 1500
        draw.ellipse((x, y, x + 40 + i * 5, y + 60 + i * 3), fill=(i * 53) % 256)
    return picture


@needs_tesseract
@pytest.mark.parametrize("page", ["blank", "photo"])
def test_scan_of_no_text_has_no_extractable_text(tmp_path, page):
    path = tmp_path / f"{page}.pdf"
    (photo() if page == "photo" else Image.new("L", (1200, 1600), 255)).save(path, resolution=150)
    with pytest.raises(ExtractionError) as raised:
        extract(path)
    assert str(raised.value) == NO_TEXT
    assert not isinstance(raised.value, TransientError)  # remembered: OCR found nothing


def test_without_ocr_a_scan_is_the_old_error_read_again_next_time(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf_reader, "read_pages", _no_ocr)
    path = scanned_pdf(tmp_path / "scan.pdf", ENGLISH, font(LATIN_FONTS, 40))
    stat = path.stat()
    record = read_file(ReadTask(str(path), stat.st_size, stat.st_mtime_ns, 1 << 30, True, False))
    assert not record.ok
    assert record.message == NO_TEXT + ocr.OCR_OFF
    assert record.retry  # not cached: turning OCR on reads the file


@needs_tesseract
def test_catalog_reads_a_scan_once_with_ocr_and_again_after_ocr_was_off(tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    scanned_pdf(folder / "scan.pdf", ENGLISH, font(LATIN_FONTS, 40))
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        off = scan(ScanOptions(roots=(str(folder),), workers=0, ocr=False), catalog=catalog)
        assert [e.message for e in off.errors] == [NO_TEXT + ocr.OCR_OFF]
        on = scan(ScanOptions(roots=(str(folder),), workers=0), catalog=catalog)
        assert on.reused == 0  # the error without OCR was not remembered
        assert on.documents[0].warning.startswith("read by OCR: 1 page")
        monkeypatch.setattr(pdf_reader, "read_pages", _no_ocr)
        again = scan(ScanOptions(roots=(str(folder),), workers=0), catalog=catalog)
        assert again.reused == 1
        assert again.documents[0].paragraphs == on.documents[0].paragraphs


def test_text_of_unreadable_glyph_numbers_is_read_by_ocr(monkeypatch):
    """Fonts without Unicode values: pdfminer's "(cid:N)" text is replaced by OCR's."""
    glyphs = ["(cid:3)(cid:4)(cid:5) (cid:9)(cid:3)(cid:7)", "(cid:7)(cid:1)(cid:2)(cid:8)"]
    monkeypatch.setattr(
        pdf_reader.pdfium, "page_paragraphs", lambda path, hidden, scanned, places: iter(glyphs)
    )
    read = [ocr.OcrPage(("Text read from the page's pixels.",), 0.9, 6)]
    monkeypatch.setattr(pdf_reader, "read_pages", lambda path: iter(read))
    result = extract(DATA / "article_en.pdf")
    assert result.paragraphs == ("Text read from the page's pixels.",)
    assert result.warnings == ("read by OCR: 1 page, mean confidence 0.90",)
    with pytest.raises(TransientError, match="no ToUnicode map"):
        extract(DATA / "article_en.pdf", ocr=False)


def test_no_ocr_flag_turns_ocr_off(tmp_path):
    parser = build_parser()
    assert scan_options(parser.parse_args(["scan", str(tmp_path)])).ocr
    assert not scan_options(parser.parse_args(["scan", str(tmp_path), "--no-ocr"])).ocr


def test_pdf_with_a_text_layer_never_calls_ocr(monkeypatch):
    monkeypatch.setattr(pdf_reader, "read_pages", _no_ocr)
    result = extract(DATA / "article_en.pdf")
    assert len(result.paragraphs) > 3
    assert not any(w.startswith("read by OCR") for w in result.warnings)


def test_without_tesseract_a_scan_says_ocr_is_unavailable(tmp_path, monkeypatch):
    monkeypatch.setattr(ocr, "tesseract_path", lambda: None)
    path = scanned_pdf(tmp_path / "scan.pdf", ENGLISH, font(LATIN_FONTS, 40))
    with pytest.raises(TransientError, match="OCR is not available"):
        extract(path)


def test_scan_too_long_for_ocr_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(ocr, "tesseract_path", lambda: "/nonexistent/tesseract")
    monkeypatch.setattr(ocr, "MAX_OCR_PAGES", 1)
    path = tmp_path / "book.pdf"
    pages = [Image.new("L", (300, 400), 255) for _ in range(2)]
    pages[0].save(path, resolution=50, save_all=True, append_images=pages[1:])
    with pytest.raises(ExtractionError, match="scanned PDF of 2 pages: too long to read by OCR"):
        extract(path)


@needs_tesseract
def test_reader_processes_read_a_scan_by_ocr_after_a_read_without_it(tmp_path, monkeypatch):
    """In worker processes every PDF is read first with OCR off, in the normal time budget;
    only what that found to be a scan is read again with OCR and OCR's budget."""
    folder = tmp_path / "docs"
    folder.mkdir()
    scanned_pdf(folder / "scan.pdf", ENGLISH, font(LATIN_FONTS, 40))
    (folder / "text.pdf").write_bytes(SAMPLES.joinpath("article_en.pdf").read_bytes())
    budgets = []
    real = stages.read_budget

    def noted(task, file_timeout):
        budgets.append((task.ocr, task.path))
        return real(task, file_timeout)

    monkeypatch.setattr(stages, "read_budget", noted)
    result = scan(ScanOptions(roots=(str(folder),), workers=1, file_timeout=60))
    assert {os.path.basename(d.path) for d in result.documents} == {"scan.pdf", "text.pdf"}
    assert [os.path.basename(p) for ocr_on, p in budgets if ocr_on] == ["scan.pdf"]


def test_budget_grows_by_the_ocr_time_only_with_ocr_on():
    """Files are read with OCR on only after a read without it found pictures of text."""
    pdf = ReadTask("a.PDF", 1000, 0, 1 << 30, True)
    assert read_budget(pdf, 60.0) == 60.0 + ocr.OCR_SECONDS
    assert read_budget(ReadTask("a.pdf", 1000, 0, 1 << 30, True, False), 60.0) == 60.0
    assert read_budget(ReadTask("a.docx", 1000, 0, 1 << 30, True, False), 60.0) == 60.0


def test_tsv_lines_become_paragraphs_at_gaps_and_chinese_joins_without_spaces():
    head = "level\tpage\tblock\tpar\tline\tword\tleft\ttop\twidth\theight\tconf\ttext"
    rows = [
        (1, 1, 1, "Hello", 96, 100),
        (1, 1, 1, "world", 90, 100),
        (1, 1, 2, "again.", 93, 150),
        (1, 1, 3, "Far", 80, 400),  # a gap of five line heights: a paragraph of its own
        (2, 1, 1, "中文", 70, 600),
        (2, 1, 1, "句子", 70, 600),
        (3, 1, 1, "12", 99, 900),  # a page number
        (3, 1, 1, " ", -1, 900),
    ]
    table = "\n".join(
        [head]
        + [f"5\t1\t{b}\t{p}\t{ln}\t1\t0\t{top}\t10\t40\t{c}\t{t}" for b, p, ln, t, c, top in rows]
    )
    page = ocr.page_from_tsv(table)
    assert page.boxes == ("Hello world\nagain.", "Far", "中文句子")
    assert page.words == 7
    assert page.confidence == pytest.approx((96 + 90 + 93 + 80 + 70 + 70 + 99) / 700)


def test_summary_names_the_pages_read_poorly():
    pages = [ocr.OcrPage(("a",), 0.9, 10), ocr.OcrPage((), 0.0, 0), ocr.OcrPage(("b",), 0.4, 10)]
    assert ocr.ocr_summary(pages) == (
        "read by OCR: 3 pages, mean confidence 0.65; low confidence on page 3"
    )


def _no_ocr(path: Path):
    raise AssertionError("OCR must not run")


def mixed_pdf(tmp_path: Path) -> Path:
    """article_en.pdf (two pages of text) with a scanned page of ENGLISH between them."""
    import pypdfium2

    scan = scanned_pdf(tmp_path / "page.pdf", ENGLISH, font(LATIN_FONTS, 40))
    document = pypdfium2.PdfDocument(SAMPLES / "article_en.pdf")
    document.import_pages(pypdfium2.PdfDocument(scan), index=1)
    path = tmp_path / "mixed.pdf"
    document.save(path)
    return path


def first_page_words(text: str) -> list[str]:
    return words(text)[:5]


@needs_tesseract
def test_scanned_page_among_text_pages_is_read_by_ocr_at_its_place(tmp_path):
    path = mixed_pdf(tmp_path)
    plain = extract(SAMPLES / "article_en.pdf")
    mixed = extract(path)
    assert found_share(ENGLISH, mixed.text) >= 0.9
    # the scanned page's text lies between the two text pages' text
    first, second = plain.paragraphs[0], plain.paragraphs[-1]
    text = mixed.text
    assert text.index(first) < text.lower().index("committee") < text.index(second)
    assert any(w.startswith("scanned page 2 read by OCR: 1 page") for w in mixed.warnings)
    assert mixed.unread_pictures == 0


def test_with_ocr_off_scanned_pages_are_named_and_counted_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf_reader, "read_pages", _no_ocr)
    path = mixed_pdf(tmp_path)
    mixed = extract(path, ocr=False)
    assert mixed.paragraphs == extract(SAMPLES / "article_en.pdf", ocr=False).paragraphs
    assert "scanned page 2 not read; OCR is off" in mixed.warnings
    assert mixed.unread_pictures == 1
    record = read_file(ReadTask(str(path), path.stat().st_size, 0, 1 << 30, True, False))
    assert record.ok and record.retry  # never cached: turning OCR on reads the page
    assert stages.wants_ocr(record)


def test_without_tesseract_scanned_pages_are_named_and_the_text_pages_read(tmp_path, monkeypatch):
    monkeypatch.setattr(ocr, "tesseract_path", lambda: None)
    path = mixed_pdf(tmp_path)
    mixed = extract(path)
    assert mixed.paragraphs == extract(SAMPLES / "article_en.pdf").paragraphs
    assert any(
        w.startswith("scanned page 2 not read (OCR is not available") for w in mixed.warnings
    )
    assert mixed.unread_pictures == 1


def test_text_page_with_a_picture_is_no_scan(tmp_path, monkeypatch):
    """A page of text with a large figure keeps to its text: pages are scans only when they
    have hardly a character of their own."""
    import pypdfium2

    monkeypatch.setattr(pdf_reader, "read_pages", _no_ocr)
    document = pypdfium2.PdfDocument(SAMPLES / "article_en.pdf")
    picture = pypdfium2.PdfImage.new(document)
    bitmap = pypdfium2.PdfBitmap.from_pil(Image.new("RGB", (400, 400), (200, 30, 30)))
    picture.set_bitmap(bitmap)
    width, height = document[0].get_size()
    picture.set_matrix(pypdfium2.PdfMatrix().scale(width, height * 0.9))
    page = document[0]
    page.insert_obj(picture)
    page.gen_content()
    path = tmp_path / "figure.pdf"
    document.save(path)
    assert extract(path).paragraphs == extract(SAMPLES / "article_en.pdf").paragraphs


@needs_tesseract
def test_reader_processes_report_the_pages_of_a_scan_as_they_are_read(tmp_path):
    """A scan's pages move the progress while its reader works (seconds a page), and a
    mixed PDF is read again with OCR after the read without it."""
    folder = tmp_path / "docs"
    folder.mkdir()
    mixed_pdf(tmp_path).rename(folder / "mixed.pdf")
    reports = []
    result = scan(
        ScanOptions(roots=(str(folder),), workers=1, file_timeout=60), progress=reports.append
    )
    (document,) = result.documents
    assert os.path.basename(document.path) == "mixed.pdf"
    pages = [r.pages for r in reports if r.stage == "reading" and r.pages]
    assert pages and pages[-1] == (1, 1)
    assert all(r.done == 0 for r in reports if r.stage == "reading" and r.pages)


def test_summary_names_low_pages_by_their_number_in_the_file():
    pages = [ocr.OcrPage(("a",), 0.9, 10, number=3), ocr.OcrPage(("b",), 0.4, 10, number=7)]
    assert ocr.ocr_summary(pages).endswith("low confidence on page 7")
