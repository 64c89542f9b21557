"""Text in pictures inside DOCX, ODT and HTML read by OCR: screenshots drawn with Pillow,
put into real documents (python-docx, an ODT zip, HTML with data: URIs and a saved page's
folder)."""

from __future__ import annotations

import base64
import io
import re
import struct
import zipfile
from pathlib import Path

import docx
import pytest
from simsift.core.document import TransientError
from simsift.core.pipeline import stages
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.read.extract import ocr, pictures
from simsift.core.read.extract.docx import extract_docx
from simsift.core.read.extract.html import extract_html
from simsift.core.read.extract.odt import extract_odt
from simsift.core.read.reader import ReadTask, read_file

PIL = pytest.importorskip("PIL", reason="Pillow draws the screenshots")
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

needs_tesseract = pytest.mark.skipif(
    ocr.tesseract_path() is None, reason="Tesseract is not installed (packaging/system-deps.sh)"
)

SHOT = [
    "The committee reviewed the annual report and found that",
    "the budget was spent mostly on teaching materials,",
    "laboratory equipment and travel for the students.",
]
OWN = "This introduction is the student's own work, written for this essay alone."
CLOSING = "In conclusion, the student closes the essay with a sentence of their own."
ESSAY = [
    "Rivers shape the land they cross. Over thousands of years a river cuts its valley,",
    "carries sand and gravel to the sea, and builds wide plains where its water slows.",
    "Farmers settled on these plains because the soil was rich and water was near, and",
    "the first towns grew where a river could be crossed or where two rivers met.",
    "Floods were both a gift and a danger: they brought new soil every spring, but a",
    "high flood could sweep away houses, fields and the animals that grazed on them.",
    "People learned to build banks and channels to guide the water, and later dams to",
    "store it for dry months. Today engineers measure rainfall and snow in the hills",
    "to warn the towns below days before a flood arrives, and cities plan their parks",
    "as places where a swollen river may spread without harming anyone living nearby.",
]
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
MEMBER_PNG = "word/media/image1.png"


def words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def found_share(lines: list[str], text: str) -> float:
    got = set(words(text))
    wanted = words(" ".join(lines))
    return sum(w in got for w in wanted) / len(wanted)


def screenshot(lines: list[str], fmt: str = "PNG", size: int = 22) -> bytes:
    """`lines` as a screen shows them: dark text on white, `size` pixels high."""
    if not Path(FONT).exists():
        pytest.skip(f"no font {FONT}")
    face = ImageFont.truetype(FONT, size)
    width = 40 + max(int(face.getlength(line)) for line in lines)
    picture = Image.new("RGB", (width, 20 + int(size * 1.5) * len(lines)), "white")
    draw = ImageDraw.Draw(picture)
    for i, line in enumerate(lines):
        draw.text((20, 10 + int(size * 1.5) * i), line, font=face, fill=(20, 20, 20))
    out = io.BytesIO()
    picture.save(out, fmt)
    return out.getvalue()


def picture_bytes(picture: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    picture.save(out, fmt, **options)
    return out.getvalue()


def photo() -> bytes:
    """Shapes in shades of grey, no letters: a photograph as OCR sees it."""
    picture = Image.new("L", (900, 600), 200)
    draw = ImageDraw.Draw(picture)
    for i in range(40):
        x, y = (i * 397) % 800, (i * 613) % 500
        draw.ellipse((x, y, x + 40 + i * 5, y + 60 + i * 3), fill=(i * 53) % 256)
    return picture_bytes(picture, "JPEG")


def huge_png_header() -> bytes:
    """A PNG declaring 20,000 × 20,000 pixels (1.6 GB as RGBA) with no pixels after."""
    ihdr = struct.pack(">IIBBBBB", 20_000, 20_000, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + b"\0\0\0\0"


def docx_with(path: Path, *parts: str | bytes, title: str = "") -> Path:
    """A .docx of paragraphs (str) and pictures (bytes, one paragraph each), in order."""
    document = docx.Document()
    if title:
        document.add_paragraph(title, style="Title")
    for part in parts:
        if isinstance(part, bytes):
            document.add_picture(io.BytesIO(part))
        else:
            document.add_paragraph(part)
    document.save(path)
    return path


def replace_member(path: Path, member: str, data: bytes) -> None:
    """`member` of the zip at `path` given other bytes (python-docx refuses bad pictures)."""
    with zipfile.ZipFile(path) as archive:
        items = [(info, archive.read(info)) for info in archive.infolist()]
    with zipfile.ZipFile(path, "w") as archive:
        for info, content in items:
            archive.writestr(info, data if info.filename == member else content)


def odt_with(path: Path, body: str, pictures_by_name: dict[str, bytes]) -> Path:
    """A minimal OpenDocument text whose office:text holds `body`, with its Pictures/."""
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
        'xmlns:xlink="http://www.w3.org/1999/xlink">'
        f"<office:body><office:text>{body}</office:text></office:body>"
        "</office:document-content>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
        for name, data in pictures_by_name.items():
            archive.writestr(f"Pictures/{name}", data)
    return path


def odt_picture(name: str) -> str:
    return f'<draw:frame><draw:image xlink:href="Pictures/{name}"/></draw:frame>'


def fake_ocr(monkeypatch, read: list[bytes] | None = None) -> None:
    """Tesseract stood in for: every picture reads as one confident sentence."""
    monkeypatch.setattr(ocr, "tesseract_path", lambda: "/nonexistent/tesseract")

    def read_picture(program, data, languages, seconds):
        if read is not None:
            read.append(data)
        return ocr.OcrPage(("Text read from a picture.",), 0.9, 5), "eng"

    monkeypatch.setattr(ocr, "read_picture", read_picture)


# -- the documents' pictures read by Tesseract ------------------------------------------


@needs_tesseract
def test_screenshot_in_a_docx_is_read_at_its_place_with_a_warning(tmp_path):
    path = docx_with(tmp_path / "essay.docx", OWN, screenshot(SHOT), CLOSING, title="My Essay")
    result = extract_docx(path, max_bytes=1 << 30, ocr=True)
    assert result.title == "My Essay"
    assert result.paragraphs[0] == OWN and result.paragraphs[-1] == CLOSING
    assert found_share(SHOT, " ".join(result.paragraphs[1:-1])) >= 0.95
    assert len(result.warnings) == 1
    assert re.fullmatch(
        r"text of 1 picture read by OCR, mean confidence 0\.\d\d", result.warnings[0]
    )
    assert result.unread_pictures == 0


@needs_tesseract
def test_jpeg_screenshot_in_an_odt_paragraph_and_table_is_read_at_its_place(tmp_path):
    body = (
        f"<text:p>{OWN}{odt_picture('shot.jpg')}</text:p>"
        "<table:table><table:table-row><table:table-cell><text:p>cell "
        f"{odt_picture('icon.png')}</text:p></table:table-cell></table:table-row></table:table>"
        f"<text:p>{CLOSING}</text:p>"
    )
    icon = picture_bytes(Image.new("RGB", (16, 16), "red"), "PNG")
    path = odt_with(
        tmp_path / "essay.odt", body, {"shot.jpg": screenshot(SHOT, "JPEG"), "icon.png": icon}
    )
    result = extract_odt(path, max_bytes=1 << 30, ocr=True)
    assert result.paragraphs[0] == OWN
    assert result.paragraphs[-2:] == ("cell", CLOSING)
    assert found_share(SHOT, " ".join(result.paragraphs[1:-2])) >= 0.95
    assert result.warnings[0].startswith("text of 1 picture read by OCR, mean confidence 0.")


@needs_tesseract
def test_html_pictures_as_data_uri_and_in_a_saved_pages_folder_are_read(tmp_path):
    (tmp_path / "page_files").mkdir()
    (tmp_path / "page_files" / "shot 2.png").write_bytes(screenshot(ESSAY[:3]))
    inline = base64.b64encode(screenshot(SHOT)).decode("ascii")
    page = (
        f"<html><head><title>Essay</title></head><body><p>{OWN}</p>"
        f'<p><img src="data:image/png;base64,{inline}"></p><p>{CLOSING}</p>'
        '<img src="page_files/shot%202.png"><img src="https://example.com/remote.png">'
        "</body></html>"
    )
    result = extract_html(page.encode(), ocr=True, folder=tmp_path)
    text = " ".join(result.paragraphs)
    assert found_share(SHOT, text) >= 0.95 and found_share(ESSAY[:3], text) >= 0.95
    assert result.paragraphs[0] == OWN
    assert text.index(OWN) < text.lower().index("committee") < text.index(CLOSING)
    assert text.index(CLOSING) < text.lower().index("rivers shape")
    assert result.warnings[0].startswith("text of 2 pictures read by OCR, mean confidence 0.")


@needs_tesseract
def test_photo_and_corrupt_pictures_give_no_text_and_the_document_still_reads(tmp_path):
    good = screenshot(SHOT)
    truncated = good[: len(good) // 2]
    garbage = good[:33] + b"\x00not a png stream" * 50  # a header that reads, then nothing
    path = docx_with(tmp_path / "essay.docx", OWN, photo(), good, good, CLOSING)
    with zipfile.ZipFile(path) as archive:
        media = sorted(n for n in archive.namelist() if n.startswith("word/media/"))
    assert len(media) == 2  # python-docx stores the same picture once
    replace_member(path, media[1], truncated)
    result = extract_docx(path, max_bytes=1 << 30, ocr=True)
    assert result.paragraphs == (OWN, CLOSING)
    assert result.warnings == ()
    replace_member(path, media[1], garbage)
    assert extract_docx(path, max_bytes=1 << 30, ocr=True).paragraphs == (OWN, CLOSING)


@needs_tesseract
def test_screenshot_copy_in_a_docx_is_paired_with_its_text_original_by_a_scan(tmp_path):
    folder = tmp_path / "essays"
    folder.mkdir()
    docx_with(folder / "original.docx", " ".join(ESSAY[:5]), " ".join(ESSAY[5:]))
    docx_with(folder / "copy.docx", OWN, screenshot(ESSAY, size=18))
    docx_with(folder / "other.docx", OWN, CLOSING, " ".join(SHOT))
    result = scan(ScanOptions(roots=(str(folder),), workers=0))
    names = {Path(d.path).name: i for i, d in enumerate(result.documents)}
    copy = result.documents[names["copy.docx"]]
    assert copy.warning.startswith("text of 1 picture read by OCR")
    pairs = result.pairs.within(result.k_max)
    found = {
        frozenset((Path(result.documents[a].path).name, Path(result.documents[b].path).name))
        for a, b in zip(pairs.left.tolist(), pairs.right.tolist(), strict=True)
    }
    assert frozenset(("original.docx", "copy.docx")) in found
    assert frozenset(("original.docx", "other.docx")) not in found


@needs_tesseract
def test_reader_processes_read_a_docx_with_pictures_again_with_ocr(tmp_path):
    """Worker processes read every file with OCR off first; a document holding pictures
    that may hold text is read again with OCR, as a scanned PDF is."""
    folder = tmp_path / "essays"
    folder.mkdir()
    docx_with(folder / "copy.docx", OWN, screenshot(SHOT))
    result = scan(ScanOptions(roots=(str(folder),), workers=1, file_timeout=60))
    [document] = result.documents
    assert found_share(SHOT, " ".join(document.paragraphs)) >= 0.95
    assert document.warning.startswith("text of 1 picture read by OCR")


# -- OCR off, not installed, and limits (no Tesseract needed) ------------------------------


def test_with_ocr_off_pictures_are_counted_unread_and_the_text_reads(tmp_path, monkeypatch):
    monkeypatch.setattr(ocr, "read_picture", _no_ocr)
    path = docx_with(tmp_path / "essay.docx", OWN, screenshot(SHOT), CLOSING)
    result = extract_docx(path, max_bytes=1 << 30, ocr=False)
    assert result.paragraphs == (OWN, CLOSING)
    assert result.warnings == ("text of 1 picture not read; OCR is off",)
    assert result.unread_pictures == 1
    record = read_file(ReadTask(str(path), path.stat().st_size, 0, 1 << 30, True, False))
    assert record.ok and record.paragraphs == (OWN, CLOSING)
    assert record.retry and stages.wants_ocr(record)  # not cached: read with OCR once it is on


def test_without_tesseract_pictures_are_skipped_silently(tmp_path, monkeypatch):
    monkeypatch.setattr(ocr, "tesseract_path", lambda: None)
    path = docx_with(tmp_path / "essay.docx", OWN, screenshot(SHOT), CLOSING)
    result = extract_docx(path, max_bytes=1 << 30, ocr=True)
    assert result.paragraphs == (OWN, CLOSING)
    assert result.warnings == ()
    assert result.unread_pictures == 1  # read again once Tesseract is installed


def test_document_of_only_pictures_with_ocr_off_is_an_error_read_again(tmp_path, monkeypatch):
    monkeypatch.setattr(ocr, "read_picture", _no_ocr)
    path = docx_with(tmp_path / "essay.docx", screenshot(SHOT))
    with pytest.raises(TransientError, match=r"^no text; OCR is off$"):
        extract_docx(path, max_bytes=1 << 30, ocr=False)


def test_icons_unknown_formats_and_huge_headers_never_reach_ocr(tmp_path, monkeypatch):
    read: list[bytes] = []
    fake_ocr(monkeypatch, read)
    icon = picture_bytes(Image.new("RGB", (32, 32), "blue"), "PNG")
    rule = picture_bytes(Image.new("RGB", (600, 4), "black"), "PNG")
    shots = [screenshot(SHOT[:1]), screenshot(SHOT[1:])]
    path = docx_with(tmp_path / "essay.docx", OWN, icon, rule, *shots, CLOSING)
    with zipfile.ZipFile(path) as archive:
        media = sorted(n for n in archive.namelist() if n.startswith("word/media/"))
    assert len(media) == 4
    replace_member(path, media[2], huge_png_header())
    replace_member(path, media[3], b"\x01\x00\x00\x00 an EMF drawing")
    result = extract_docx(path, max_bytes=1 << 30, ocr=True)
    assert result.paragraphs == (OWN, CLOSING)
    assert read == []
    assert result.warnings == ("1 picture not read by OCR: larger than 40 megapixels",)


def test_pictures_beyond_the_count_or_the_time_are_named_in_the_warning(tmp_path, monkeypatch):
    fake_ocr(monkeypatch)
    shots = [screenshot([f"Line number {i} of the pasted text."]) for i in range(3)]
    path = docx_with(tmp_path / "essay.docx", OWN, *shots)
    monkeypatch.setattr(pictures, "MAX_PICTURES", 2)
    result = extract_docx(path, max_bytes=1 << 30, ocr=True)
    assert result.paragraphs == (OWN, "Text read from a picture.", "Text read from a picture.")
    assert result.warnings == (
        "text of 2 pictures read by OCR, mean confidence 0.90",
        "pictures after the first 2 not read by OCR",
    )
    monkeypatch.setattr(pictures, "MAX_PICTURES", 50)
    monkeypatch.setattr(pictures, "PICTURE_SECONDS", 0.0)
    result = extract_docx(path, max_bytes=1 << 30, ocr=True)
    assert result.paragraphs == (OWN,)
    assert result.warnings == ("OCR of pictures stopped after 0 s: 3 pictures not read",)


def test_screenshot_above_the_title_is_not_the_title(tmp_path, monkeypatch):
    fake_ocr(monkeypatch)
    document = docx.Document()
    document.add_picture(io.BytesIO(screenshot(SHOT)))
    document.add_paragraph("My Essay", style="Title")
    document.add_paragraph(OWN)
    path = tmp_path / "essay.docx"
    document.save(path)
    result = extract_docx(path, max_bytes=1 << 30, ocr=True)
    assert result.title == "My Essay"
    assert result.paragraphs == ("Text read from a picture.", OWN)


def test_html_pictures_outside_the_page_folder_or_on_the_network_are_never_read(tmp_path):
    (tmp_path / "secret.png").write_bytes(screenshot(SHOT))
    folder = tmp_path / "site"
    folder.mkdir()
    for src in ("../secret.png", str(tmp_path / "secret.png"), "file:///etc/hostname",
                "https://example.com/a.png", "//example.com/a.png"):  # fmt: skip
        assert pictures._html_picture(src, folder) is None, src
    assert pictures._html_picture("../secret.png", folder / "inner") is None


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF", "BMP", "TIFF", "WEBP"])
def test_picture_sizes_come_from_the_header(fmt):
    data = picture_bytes(Image.new("RGB", (321, 123), "white"), fmt)
    assert pictures.picture_size(data) == (321, 123, 321 * 123)


def test_animated_gif_counts_every_frame_and_several_page_tiffs_are_not_read():
    frames = [Image.new("RGB", (300, 100), colour) for colour in ("red", "green", "blue")]
    gif = picture_bytes(frames[0], "GIF", save_all=True, append_images=frames[1:])
    assert pictures.picture_size(gif) == (300, 100, 3 * 300 * 100)
    tiff = picture_bytes(frames[0], "TIFF", save_all=True, append_images=frames[1:])
    assert pictures.picture_size(tiff) is None
    assert pictures.picture_size(huge_png_header()) == (20_000, 20_000, 400_000_000)
    for data in (b"", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF89a", b"<svg/>", b"BM"):
        assert pictures.picture_size(data) is None


def _no_ocr(*args):
    raise AssertionError("OCR must not run")
