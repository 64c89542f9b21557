"""Pictures of text as documents (a scan saved as PNG or JPEG, a screenshot): read by OCR,
paired with their text twins; photographs and pictures without text are skipped."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from simsift.core.document import STATUS_SKIPPED
from simsift.core.pipeline import stages
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.read.extract import extract, ocr, reader_for
from simsift.core.read.reader import ReadTask, read_file

from tests.core.extract.test_ocr import ENGLISH, LATIN_FONTS, font, found_share

PIL = pytest.importorskip("PIL", reason="Pillow draws the pictures")
from PIL import Image, ImageDraw  # noqa: E402

needs_tesseract = pytest.mark.skipif(
    ocr.tesseract_path() is None, reason="Tesseract is not installed (packaging/system-deps.sh)"
)
LINES = [
    *ENGLISH,
    "Most of the money went to the new chemistry laboratory,",
    "and the rest paid for two field trips to the river delta.",
]


def text_picture(path: Path, lines: list[str]) -> Path:
    page = Image.new("L", (1900, 120 + 70 * len(lines)), 255)
    draw = ImageDraw.Draw(page)
    face = font(LATIN_FONTS, 40)
    for i, line in enumerate(lines):
        draw.text((100, 60 + 70 * i), line, font=face, fill=0)
    page.save(path)
    return path


def photo(path: Path) -> Path:
    rng = random.Random(3)
    image = Image.new("RGB", (800, 600))
    image.putdata([(rng.randrange(256), rng.randrange(120), 90) for _ in range(800 * 600)])
    image.save(path, quality=80)
    return path


@needs_tesseract
@pytest.mark.parametrize("suffix", [".png", ".jpg"])
def test_a_picture_of_text_is_read_by_ocr(tmp_path, suffix):
    result = extract(text_picture(tmp_path / f"scan{suffix}", LINES))
    assert found_share(LINES, result.text) >= 0.9
    assert result.format == "picture"
    assert result.warnings[0].startswith("read by OCR: 1 picture, mean confidence")


def test_with_ocr_off_a_picture_is_skipped_and_read_again_later(tmp_path):
    path = text_picture(tmp_path / "scan.png", LINES)
    record = read_file(ReadTask(str(path), path.stat().st_size, 0, 1 << 30, True, False))
    assert record.status == STATUS_SKIPPED and record.retry
    assert record.message == "a picture: read only by OCR; OCR is off"
    assert stages.wants_ocr(record)


@needs_tesseract
def test_photos_icons_and_broken_pictures_are_skipped(tmp_path):
    Image.new("RGB", (32, 32), (200, 0, 0)).save(tmp_path / "icon.png")
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0" + os.urandom(300))
    expected = {
        photo(tmp_path / "cat.jpg"): "a picture without text (read by OCR)",
        tmp_path / "icon.png": "a picture too small to hold text",
        tmp_path / "broken.jpg": "a picture SimSift cannot decode (or a TIFF of several pages)",
    }
    for path, message in expected.items():
        record = read_file(ReadTask(str(path), path.stat().st_size, 0, 1 << 30, True))
        assert (record.status, record.message, record.retry) == (STATUS_SKIPPED, message, False)


@needs_tesseract
def test_a_screenshot_of_an_essay_is_paired_with_the_essay(tmp_path):
    """Read in reader processes: first without OCR, skipped to be read again, then by OCR."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "essay.txt").write_text("\n".join(LINES), "utf-8")
    text_picture(folder / "screenshot.png", LINES)
    result = scan(ScanOptions(roots=(str(folder),), workers=1, file_timeout=60))
    names = {os.path.basename(d.path) for d in result.documents}
    assert names == {"essay.txt", "screenshot.png"}
    assert len(result.clusters(result.k_max)) == 1


def test_a_damaged_picture_whose_bytes_pass_for_text_is_still_a_picture(tmp_path):
    path = tmp_path / "damaged.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"words after the header " * 20)
    assert reader_for(path) == "picture"
