"""Tesseract kept loaded in the reader (`tesseract_api`) reads a page as the
`tesseract` program does (the same TSV, the same turn of a page), stops a page at its
budget, and is what a scan's readers read with; outside a reader the program reads."""

from __future__ import annotations

import io
import os
import re
import stat
import subprocess
from pathlib import Path

import numpy as np
import pytest
from simsift.core.index.plan import DEFAULT_K
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.read.extract import extract, ocr, tesseract_api

from tests.core.test_ocr_languages import (
    CJK_FONT,
    ENGLISH,
    LATIN_FONT,
    SIMPLIFIED,
    face,
    needs,
    page_image,
    save_pdf,
)

pytestmark = pytest.mark.skipif(ocr.tesseract_path() is None, reason="no Tesseract")


@pytest.fixture
def engine(monkeypatch) -> tesseract_api.TesseractApi:
    monkeypatch.setattr(tesseract_api, "_allowed", True)
    loaded = tesseract_api.api()
    if loaded is None:
        pytest.skip("libtesseract cannot be loaded here")
    return loaded


def grey(lines: list[str], font_path: str, size: int) -> np.ndarray:
    return np.asarray(page_image(lines, face(font_path, size)).convert("L"))


def program_tsv(image: np.ndarray, dpi: int, languages: str, psm: str) -> str:
    return ocr._run(ocr.tesseract_path(), image, dpi, "-l", languages, "--psm", psm, "tsv")


@needs("eng", "chi_sim")
@pytest.mark.parametrize(
    ("script", "dpi", "languages", "psm"),
    [
        ("english", 300, "eng", "3"),
        ("english", 300, "eng", "6"),
        ("chinese", 200, "chi_sim", "3"),
        ("chinese", 300, "eng+chi_sim", "3"),
    ],
)
def test_the_loaded_tesseract_reads_a_page_as_the_program_does(engine, script, dpi, languages, psm):
    image = grey(ENGLISH, LATIN_FONT, 40) if script == "english" else grey(SIMPLIFIED, CJK_FONT, 40)
    table = engine.tsv(image, dpi, languages, psm, 60)
    assert table == program_tsv(image, dpi, languages, psm)
    assert ocr.page_from_tsv(table).words > 20
    # a second reading of the same page, after others, is the same: nothing carried over
    engine.tsv(grey(ENGLISH[:3], LATIN_FONT, 40), 300, "eng", "3", 60)
    assert engine.tsv(image, dpi, languages, psm, 60) == table


def program_picture_tsv(data: bytes, languages: str) -> str:
    done = subprocess.run(
        [ocr.tesseract_path(), "stdin", "stdout", "-l", languages, "tsv"],
        input=data,
        capture_output=True,
        env=ocr._environment(),
    )
    return done.stdout.decode("utf-8", "replace")


@needs("eng", "chi_sim")
@pytest.mark.parametrize(("kind", "dpi"), [("PNG", None), ("JPEG", 150), ("GIF", None)])
def test_the_loaded_tesseract_reads_a_picture_file_as_the_program_does(engine, kind, dpi):
    picture = page_image(ENGLISH[:4] + SIMPLIFIED[:3], face(CJK_FONT, 40)).crop((0, 0, 1700, 700))
    out = io.BytesIO()
    picture.save(out, kind, **({"dpi": (dpi, dpi)} if dpi else {}))
    data = out.getvalue()
    assert engine.picture_pixels(data) == 1700 * 700
    table = engine.picture_tsv(data, "eng+chi_sim", 60)
    assert table == program_picture_tsv(data, "eng+chi_sim")
    assert ocr.page_from_tsv(table).words > 10


def test_bytes_that_are_no_picture_read_as_nothing(engine):
    assert engine.picture_pixels(b"not a picture") is None
    assert ocr.page_from_tsv(engine.picture_tsv(b"not a picture", "eng", 60)).words == 0


@needs("eng", "osd")
def test_the_loaded_tesseract_tells_how_a_page_is_turned_as_the_program_does(engine):
    page = grey(ENGLISH, LATIN_FONT, 40)
    turns = {}
    for quarter in range(4):
        image = np.ascontiguousarray(np.rot90(page, quarter))  # anticlockwise
        turns[quarter] = engine.rotation(image, 300) or 0
        assert turns[quarter] == ocr._orientation(ocr.tesseract_path(), image, 300)
    assert turns == {0: 0, 1: 90, 2: 180, 3: 270}  # the clockwise turn back upright


@needs("eng")
def test_a_page_past_its_budget_is_stopped_in_the_loaded_tesseract(engine, monkeypatch, tmp_path):
    page = page_image(ENGLISH * 3, face(LATIN_FONT, 30))
    with pytest.raises(tesseract_api.OutOfTime):
        engine.tsv(np.asarray(page.convert("L")), 300, "eng", "3", 0.001)
    monkeypatch.setattr(ocr, "_PAGE_SECONDS", 0.001)
    with pytest.raises(ocr.ExtractionError, match="OCR of one page took longer than"):
        extract(save_pdf(tmp_path / "scan.pdf", [page]))


def test_outside_a_reader_tesseract_is_not_loaded_in_the_process(monkeypatch):
    """A failure inside Tesseract ends its process: never the app's own."""
    monkeypatch.setattr(tesseract_api, "_allowed", False)
    assert tesseract_api.api() is None


@needs("eng")
def test_a_scan_s_readers_read_with_the_loaded_tesseract(tmp_path, monkeypatch):
    """The `tesseract` program first on the PATH notes every page it is asked to read and
    reads it with the real one: the readers never ask it, and the scan is read all the same."""
    real = ocr.tesseract_path()
    folder, bin_folder = tmp_path / "class", tmp_path / "bin"
    folder.mkdir()
    bin_folder.mkdir()
    asked = tmp_path / "asked"
    wrapper = bin_folder / "tesseract"
    wrapper.write_text(
        f'#!/bin/sh\n[ "$1" = --list-langs ] || echo "$@" >> \'{asked}\'\nexec \'{real}\' "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_folder}{os.pathsep}{os.environ['PATH']}")
    assert ocr.tesseract_path() == str(wrapper)
    save_pdf(folder / "scan.pdf", [page_image(ENGLISH, face(LATIN_FONT, 40))])
    (folder / "typed.txt").write_text(" ".join(ENGLISH), encoding="utf-8")
    result = scan(ScanOptions(roots=(str(folder),), workers=1))
    assert not result.errors
    (scanned,) = [d for d in result.documents if Path(d.path).name == "scan.pdf"]
    assert scanned.warning.startswith("read by OCR: 1 page")
    found = result.pairs.within(DEFAULT_K)
    names = [Path(d.path).name for d in result.documents]
    assert [(names[a], names[b]) for a, b in zip(found.left, found.right, strict=True)] in (
        [("scan.pdf", "typed.txt")],
        [("typed.txt", "scan.pdf")],
    )
    assert not asked.exists()


@needs("eng")
def test_without_orientation_data_the_turn_of_a_page_is_not_told(engine, tmp_path):
    """Tesseract without `osd` data: the page is taken as upright (the program says nothing
    either), and a language without data fails as the program does, as an error."""
    listed = subprocess.run([ocr.tesseract_path(), "--list-langs"], capture_output=True, text=True)
    found = re.search(r'"([^"]+)"', listed.stdout + listed.stderr)  # List of ... in "DIR/"
    if found is None:
        pytest.skip("Tesseract does not say where its data is")
    tessdata = tmp_path / "tessdata"
    tessdata.mkdir()
    (tessdata / "eng.traineddata").symlink_to(Path(found[1], "eng.traineddata"))
    bare = tesseract_api.TesseractApi(engine._lib, engine._lept, str(tessdata))
    try:
        image = np.ascontiguousarray(np.rot90(grey(ENGLISH, LATIN_FONT, 40)))
        assert bare.rotation(image, 300) is None
        assert ocr.page_from_tsv(bare.tsv(image, 300, "eng", "3", 60)).words > 0
        with pytest.raises(tesseract_api.Failed):
            bare.tsv(image, 300, "chi_sim", "3", 60)
    finally:
        bare.end()
