"""The bad inputs for OCR, each in a real scan of a folder that also holds two good
text files, near-duplicates of each other: the bad file gets a clear result of its own
(an error or a warning), the good pair is still found, nothing else is lost.

Scanned pages are drawn with Pillow; PDFs the tests need byte by byte (a page shared by
500 pages, a corrupt JBIG2 or CCITT stream, a 20,000-pixel image, an open password) are
written by hand (`image_pdf`). Scans run in reader processes (`workers=1`) except where a
test changes OCR's constants or puts a fake `tesseract` on the PATH: readers, forked by
the fork server, see neither, so those scans read in this process (`workers=0`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import stat
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from simsift.core.index.plan import DEFAULT_K
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.progress import Cancelled, CancelToken
from simsift.core.read.extract import ocr
from simsift.core.read.reader import OUT_OF_MEMORY
from simsift.core.read.workers import MIN_READER_BYTES

from tests.core.corpus import edit_words, module_text

PIL = pytest.importorskip("PIL", reason="Pillow draws the scanned pages")
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

needs_tesseract = pytest.mark.skipif(
    ocr.tesseract_path() is None, reason="Tesseract is not installed (packaging/system-deps.sh)"
)

NO_TEXT = "no extractable text (scanned/image-only PDF?)"
ESSAY = module_text("argparse")
DPI = 300
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
FLATE = b"/Filter /FlateDecode"
# the head of Tesseract's TSV
TSV_HEAD = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight"
TSV_HEAD += "\tconf\ttext"


def prose(module: str, paragraphs: int) -> list[str]:
    """The lines of the first paragraphs of a module's documentation (real prose)."""
    text = module_text(module).strip().split("\n\n")
    return [line.strip() for p in text[:paragraphs] for line in p.splitlines() if line.strip()]


def face(size: int) -> ImageFont.FreeTypeFont:
    if not Path(SERIF).exists():
        pytest.skip(f"no font {SERIF}")
    return ImageFont.truetype(SERIF, size)


def page_of(lines: list[str], size: int = 40, mode: str = "L", width: int = 2200) -> Image.Image:
    """`lines` printed black on white (at 40 pixels, 10 pt type scanned at 300 dpi)."""
    step = int(size * 1.75)
    page = Image.new(mode, (width, 120 + step * len(lines)), 255)
    draw = ImageDraw.Draw(page)
    for i, line in enumerate(lines):
        draw.text((100, 60 + step * i), line, font=face(size), fill=0)
    return page


# --- PDFs written by hand -------------------------------------------------------------

_PAD = bytes.fromhex("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a")


def _rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


def image_pdf(
    path: Path,
    width: int,
    height: int,
    image: bytes,
    data: bytes,
    *,
    pages: int = 1,
    password: bytes | None = None,
) -> Path:
    """An image-only PDF, as a scanner writes it: `pages` pages, each showing the one image
    XObject (`image`: its dictionary's entries, `data`: its stream) at 300 dpi. With
    `password`, encrypted by the standard security handler (RC4, 40 bits, revision 2)
    with that open password ("" opens without one: an owner password only)."""
    width_pt, height_pt = width * 72 / DPI, height * 72 / DPI
    content = b"q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q" % (width_pt, height_pt)
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(pages))
    objects: list[tuple[bytes, bytes | None]] = [
        (b"<< /Type /Catalog /Pages 2 0 R >>", None),
        (b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages), None),
        (b"<< >>", content),
        (b"<< /Type /XObject /Subtype /Image " + image + b" >>", data),
    ]
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f]"
        b" /Resources << /XObject << /Im0 4 0 R >> >> /Contents 3 0 R >>" % (width_pt, height_pt)
    )
    objects += [(page, None)] * pages
    file_id = hashlib.md5(path.name.encode()).digest()
    trailer = b"/Root 1 0 R /ID [<%s> <%s>]" % (file_id.hex().encode(), file_id.hex().encode())
    key = None
    if password is not None:
        user = (password + _PAD)[:32]
        owner = _rc4(hashlib.md5((b"owner" + _PAD)[:32]).digest()[:5], user)
        permissions = (-4).to_bytes(4, "little", signed=True)
        key = hashlib.md5(user + owner + permissions + file_id).digest()[:5]
        objects.append(
            (
                b"<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O <%s> /U <%s> >>"
                % (owner.hex().encode(), _rc4(key, _PAD).hex().encode()),
                None,
            )
        )
        trailer += b" /Encrypt %d 0 R" % len(objects)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, (head, stream) in enumerate(objects, 1):
        offsets.append(len(out))
        if stream is not None:
            if key is not None:
                object_key = hashlib.md5(key + number.to_bytes(3, "little") + b"\0\0").digest()
                stream = _rc4(object_key[:10], stream)
            head = head[:-2] + b"/Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"
        out += b"%d 0 obj\n" % number + head + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer,
        xref,
    )
    path.write_bytes(bytes(out))
    return path


def grey(width: int, height: int, bits: int = 8) -> bytes:
    """An image XObject's entries for grey pixels."""
    return b"/Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent %d " % (
        width,
        height,
        bits,
    )


def grey_pdf(path: Path, picture: Image.Image, **options) -> Path:
    """`picture` (grey) as an image-only PDF page at 300 dpi."""
    width, height = picture.size
    data = zlib.compress(picture.convert("L").tobytes())
    return image_pdf(path, width, height, grey(width, height) + FLATE, data, **options)


# --- the scan -------------------------------------------------------------------------


def folder_with_essays(tmp_path: Path) -> Path:
    """A folder holding two good text files, near-duplicates of each other."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "essay.txt").write_text(ESSAY, encoding="utf-8")
    (folder / "essay copy.txt").write_text(edit_words(ESSAY, 2, seed=1), encoding="utf-8")
    return folder


def scanned(folder: Path, *, progress=None, cancel=None, **options):
    """The scan of `folder`: every file accounted for, the essays still paired."""
    result = scan(
        ScanOptions(roots=(str(folder),), **options),
        progress=progress or (lambda _: None),
        cancel=cancel,
    )
    read = {Path(d.path).name for d in result.documents}
    named = {Path(r.path).name for r in (*result.errors, *result.skipped, *result.garbled)}
    assert read | named == {p.name for p in folder.iterdir()}
    assert all(r.message for r in result.errors)
    assert {"essay.txt", "essay copy.txt"} <= read
    assert frozenset({"essay.txt", "essay copy.txt"}) in pairs(result)
    return result


def pairs(result) -> set[frozenset[str]]:
    found = result.pairs.within(DEFAULT_K)
    return {
        frozenset({Path(result.documents[a].path).name, Path(result.documents[b].path).name})
        for a, b in zip(found.left.tolist(), found.right.tolist(), strict=True)
    }


def errors(result) -> dict[str, str]:
    return {Path(r.path).name: r.message for r in result.errors}


def record(result, name: str):
    (found,) = [r for r in (*result.documents, *result.errors) if Path(r.path).name == name]
    return found


# --- the matrix -----------------------------------------------------------------------


@needs_tesseract
def test_a_500_page_scanned_book_is_too_long_for_ocr_and_the_scan_goes_on(tmp_path):
    folder = folder_with_essays(tmp_path)
    leaf = Image.new("L", (200, 260), 255)
    ImageDraw.Draw(leaf).rectangle((40, 40, 160, 60), fill=0)
    data = zlib.compress(leaf.tobytes())
    image_pdf(folder / "book.pdf", 200, 260, grey(200, 260) + FLATE, data, pages=500)
    seen = []
    result = scanned(
        folder,
        workers=1,
        progress=lambda p: seen.append((p.stage, p.done, p.total, Path(p.current or ".").name)),
    )
    assert errors(result) == {
        "book.pdf": "no extractable text (scanned PDF of 500 pages: too long to read by OCR, "
        "at most 100 pages)"
    }
    assert not record(result, "book.pdf").retry  # remembered: not read again every scan
    reading = [s for s in seen if s[0] == "reading" and s[1]]
    assert reading[-1][1:3] == (3, 3) and "book.pdf" in {s[3] for s in reading}


@needs_tesseract
def test_a_blank_page_has_no_extractable_text(tmp_path):
    folder = folder_with_essays(tmp_path)
    grey_pdf(folder / "blank.pdf", Image.new("L", (1240, 1754), 255))
    result = scanned(folder, workers=1)
    assert errors(result) == {"blank.pdf": NO_TEXT}
    assert not record(result, "blank.pdf").retry


def pdfium_draws_nothing(monkeypatch) -> None:
    """PDFium as it is short of memory for a page's picture: the page rendered all white,
    nothing said (seen under a 300 MB address-space limit with a 5000 x 7000 scan)."""
    import pypdfium2

    render = pypdfium2.PdfPage.render

    def blank(self, **options):
        bitmap = render(self, **options)
        bitmap.to_numpy()[...] = 255
        return bitmap

    monkeypatch.setattr(pypdfium2.PdfPage, "render", blank)


@needs_tesseract
def test_a_picture_pdfium_had_no_memory_to_draw_is_read_again_not_a_blank_page(
    tmp_path, monkeypatch
):
    pdfium_draws_nothing(monkeypatch)
    folder = folder_with_essays(tmp_path)
    grey_pdf(folder / "scan.pdf", page_of(prose("unittest", 1)))
    result = scanned(folder, workers=0)
    assert errors(result) == {"scan.pdf": OUT_OF_MEMORY}
    assert record(result, "scan.pdf").retry  # never remembered as a file without text


@needs_tesseract
def test_a_blank_scan_drawn_blank_is_still_a_blank_page(tmp_path, monkeypatch):
    pdfium_draws_nothing(monkeypatch)
    folder = folder_with_essays(tmp_path)
    grey_pdf(folder / "blank.pdf", Image.new("L", (1240, 1754), 255))
    result = scanned(folder, workers=0)
    assert errors(result) == {"blank.pdf": NO_TEXT}
    assert not record(result, "blank.pdf").retry


def cat() -> Image.Image:
    """A photograph as OCR sees it: a lit background, grain, fur-like strokes, a head with
    ears and eyes; no letters."""
    rng = np.random.default_rng(28)
    y, x = np.mgrid[0:1600, 0:1200]
    light = 90 + 80 * x / 1200 + 50 * y / 1600 + rng.normal(0, 18, x.shape)
    picture = Image.fromarray(light.clip(0, 255).astype(np.uint8)).convert("RGB")
    draw = ImageDraw.Draw(picture)
    draw.ellipse((250, 700, 950, 1450), fill=(150, 110, 70))  # body
    draw.ellipse((380, 300, 820, 740), fill=(160, 120, 80))  # head
    draw.polygon([(400, 420), (450, 180), (560, 330)], fill=(140, 100, 60))  # ears
    draw.polygon([(800, 420), (750, 180), (640, 330)], fill=(140, 100, 60))
    for cx in (520, 680):
        draw.ellipse((cx - 35, 460, cx + 35, 520), fill=(40, 160, 60))
    for i in range(300):  # fur
        fx, fy = 300 + (i * 211) % 600, 720 + (i * 137) % 700
        draw.line((fx, fy, fx + 12, fy + 30), fill=(100, 70, 40), width=3)
    return picture


@needs_tesseract
def test_a_photo_of_a_cat_has_no_extractable_text_and_pairs_with_nothing(tmp_path):
    folder = folder_with_essays(tmp_path)
    cat().save(folder / "cat.pdf", resolution=DPI)  # Pillow writes it as a JPEG page
    result = scanned(folder, workers=1)
    assert errors(result) == {"cat.pdf": NO_TEXT}
    assert pairs(result) == {frozenset({"essay.txt", "essay copy.txt"})}


@needs_tesseract
def test_a_page_turned_a_quarter_is_read_upright_and_pairs_with_its_text(tmp_path):
    folder = folder_with_essays(tmp_path)
    lines = prose("unittest", 2)
    grey_pdf(folder / "turned.pdf", page_of(lines).rotate(90, expand=True))
    (folder / "unittest.txt").write_text("\n".join(lines), encoding="utf-8")
    result = scanned(folder, workers=1)
    assert errors(result) == {}
    assert record(result, "turned.pdf").warning.startswith("read by OCR: 1 page, mean confidence")
    assert frozenset({"turned.pdf", "unittest.txt"}) in pairs(result)


def huge_pdf(path: Path, lines: list[str], side: int = 20_000) -> Path:
    """A page of one `side` × `side` 1-bit image (20,000: 400 million pixels, 400 MB of
    grey rendered at full size), `lines` printed large near its top; written row by row, so
    the test never holds the whole image."""
    text = page_of(lines, size=130, mode="1", width=side - 1200)
    block = Image.new("1", (side, text.height), 1)
    block.paste(text, (600, 0))
    rows = np.packbits(np.array(block, dtype=bool), axis=1)  # 1 is white in DeviceGray
    white = b"\xff" * (side // 8)
    top = 2000
    packer = zlib.compressobj(9)
    parts = [
        packer.compress(rows[y - top].tobytes() if top <= y < top + len(rows) else white)
        for y in range(side)
    ]
    parts.append(packer.flush())
    return image_pdf(path, side, side, grey(side, side, bits=1) + FLATE, b"".join(parts))


@needs_tesseract
def test_a_20000_pixel_square_page_is_read_smaller_within_a_tight_memory_limit(tmp_path):
    folder = folder_with_essays(tmp_path)
    lines = prose("subprocess", 2)
    huge_pdf(folder / "poster.pdf", lines)
    (folder / "subprocess.txt").write_text("\n".join(lines), encoding="utf-8")
    # the least memory a scan gives a reader: a page rendered at full size (20,000 pixels
    # square, 880 MB more at its peak) does not fit beside the reader's own 240 MB; the page
    # rendered at MAX_PIXELS (260 MB more) and Tesseract reading it (under 400 MB) do
    result = scanned(folder, workers=1, memory_limit=MIN_READER_BYTES)
    assert errors(result) == {}
    assert record(result, "poster.pdf").warning.startswith("read by OCR: 1 page")
    assert frozenset({"poster.pdf", "subprocess.txt"}) in pairs(result)


CORRUPT = {  # a half-size A4 page's image (1240 × 1754 pixels)
    "jbig2": b"/Filter /JBIG2Decode /DecodeParms << /JBIG2Globals 3 0 R >>",
    "ccitt g4": b"/Filter /CCITTFaxDecode /DecodeParms << /K -1 /Columns 1240 /Rows 1754 >>",
    "ccitt g3": b"/Filter /CCITTFaxDecode /DecodeParms << /K 0 /Columns 1240 /Rows 1754 >>",
}


@needs_tesseract
@pytest.mark.parametrize("kind", sorted(CORRUPT))
def test_a_corrupt_jbig2_or_ccitt_stream_is_a_clear_error(tmp_path, kind):
    """Random bytes where the compressed scan should be (and as the JBIG2 globals): PDFium
    draws nothing (JBIG2) or stripes (CCITT) and never crashes the reader; Tesseract (5.3)
    reads the G4 stripes as 14 "words" ("x", "Ya !", "Om E", "二"...) with a confidence of
    0.44, which are no text."""
    folder = folder_with_essays(tmp_path)
    garbage = random.Random(3).randbytes(5000)
    image_pdf(folder / "corrupt.pdf", 1240, 1754, grey(1240, 1754, bits=1) + CORRUPT[kind], garbage)
    result = scanned(folder, workers=1)
    assert errors(result) == {"corrupt.pdf": NO_TEXT}
    assert pairs(result) == {frozenset({"essay.txt", "essay copy.txt"})}


def test_an_encrypted_scan_is_password_protected(tmp_path):
    folder = folder_with_essays(tmp_path)
    grey_pdf(folder / "locked.pdf", page_of(prose("unittest", 1)), password=b"secret")
    result = scanned(folder, workers=1)
    assert errors(result) == {"locked.pdf": "password protected PDF"}
    assert not record(result, "locked.pdf").retry


@needs_tesseract
def test_a_scan_encrypted_with_only_an_owner_password_is_read_by_ocr(tmp_path):
    folder = folder_with_essays(tmp_path)
    lines = prose("unittest", 2)
    grey_pdf(folder / "restricted.pdf", page_of(lines), password=b"")
    (folder / "unittest.txt").write_text("\n".join(lines), encoding="utf-8")
    result = scanned(folder, workers=1)
    assert errors(result) == {}
    assert frozenset({"restricted.pdf", "unittest.txt"}) in pairs(result)


# --- Tesseract that hangs, dies or is slow: a fake `tesseract` first on the PATH -------------


def fake_tesseract(tmp_path: Path, monkeypatch, reads: str) -> Path:
    """A `tesseract` that knows English and Chinese and does `reads` (shell) for a page;
    each page's process id is appended to the returned file."""
    folder = tmp_path / "bin"
    folder.mkdir()
    pids = tmp_path / "pids"
    program = folder / "tesseract"
    program.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = --list-langs ]; then\n'
        "  printf 'List of available languages (2):\\neng\\nchi_sim\\n'; exit 0\n"
        "fi\n"
        f"echo $$ >> '{pids}'\n"
        f"{reads}\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    assert ocr.tesseract_path() == str(program)
    return pids


def small_scan(path: Path, pages: int = 1) -> Path:
    leaf = Image.new("L", (600, 800), 255)
    data = zlib.compress(leaf.tobytes())
    return image_pdf(path, 600, 800, grey(600, 800) + FLATE, data, pages=pages)


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_tesseract_that_hangs_is_stopped_after_the_page_budget(tmp_path, monkeypatch):
    pids = fake_tesseract(tmp_path, monkeypatch, "exec sleep 600")
    monkeypatch.setattr(ocr, "_PAGE_SECONDS", 1.0)
    folder = folder_with_essays(tmp_path)
    small_scan(folder / "scan.pdf")
    result = scanned(folder, workers=0)
    assert errors(result) == {
        "scan.pdf": "no extractable text (scanned PDF: OCR of one page took longer than 1 s)"
    }
    (pid,) = map(int, pids.read_text().split())
    assert not running(pid)  # killed, not left behind


@pytest.mark.parametrize(
    ("reads", "said"),
    [
        ("kill -9 $$", "Tesseract was killed (signal 9: out of memory?)"),
        (
            "echo 'Error during processing.' >&2; exit 1",
            "Tesseract failed: Error during processing.",
        ),
    ],
)
def test_tesseract_that_dies_is_an_error_read_again_next_scan(tmp_path, monkeypatch, reads, said):
    fake_tesseract(tmp_path, monkeypatch, reads)
    folder = folder_with_essays(tmp_path)
    small_scan(folder / "scan.pdf")
    result = scanned(folder, workers=0)
    assert errors(result) == {"scan.pdf": f"no extractable text (scanned PDF: {said})"}
    assert record(result, "scan.pdf").retry  # not remembered as a file without text


def test_ocr_of_a_file_stops_at_its_time_budget_in_the_middle_of_a_page(tmp_path, monkeypatch):
    """A page's Tesseract is stopped when the file's budget runs out, not only between
    pages: the page budget (2 minutes) is not waited for."""
    pids = fake_tesseract(tmp_path, monkeypatch, "exec sleep 600")
    monkeypatch.setattr(ocr, "OCR_SECONDS", 1.0)
    folder = folder_with_essays(tmp_path)
    small_scan(folder / "scan.pdf", pages=3)
    result = scanned(folder, workers=0)
    assert errors(result) == {
        "scan.pdf": "no extractable text (scanned PDF: OCR took longer than 1 s, 0 of 3 pages read)"
    }
    (pid,) = map(int, pids.read_text().split())
    assert not running(pid)
    assert record(result, "scan.pdf").retry is False  # a file too slow to read stays so


def test_ocr_of_a_file_stops_at_its_time_budget(tmp_path, monkeypatch):
    """The first page is read, the second hangs until the file's budget is spent."""
    row = "5\t1\t1\t1\t1\t1\t10\t10\t100\t30\t95\tcommittee"
    pids = tmp_path / "pids"
    fake_tesseract(
        tmp_path,
        monkeypatch,
        f"[ $(wc -l < '{pids}') -ge 2 ] && exec sleep 600\n"
        f"cat > /dev/null; printf '{TSV_HEAD}\\n{row}\\n'",
    )
    monkeypatch.setattr(ocr, "OCR_SECONDS", 3.0)
    folder = folder_with_essays(tmp_path)
    small_scan(folder / "scan.pdf", pages=3)
    result = scanned(folder, workers=0)
    assert errors(result) == {
        "scan.pdf": "no extractable text (scanned PDF: OCR took longer than 3 s, 1 of 3 pages read)"
    }


@needs_tesseract
def test_cancel_during_ocr_stops_the_reader_that_reads_it(tmp_path):
    """Cancel while a reader reads a page of a 20-page scan (with the Tesseract loaded in
    it, or the program's process): the scan stops, and the reader and any Tesseract of its
    own are killed. They are paused (SIGSTOP) before the cancel, so they cannot end by
    finishing the page: only by being killed."""
    psutil = pytest.importorskip("psutil")
    folder = folder_with_essays(tmp_path)
    grey_pdf(folder / "scan.pdf", page_of(prose("unittest", 2)), pages=20)
    token = CancelToken()
    seen: list = []

    def cancel_once_a_page_is_read(event) -> None:
        if token.cancelled or not (event.pages and event.pages[0] >= 1):
            return
        me = psutil.Process()
        # readers are the fork server's children (or the scan's own, where it forks them)
        for child in me.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if child.ppid() != me.pid or child.name() == "tesseract":
                    child.suspend()
                    seen.append(child)
        token.cancel()

    try:
        with pytest.raises(Cancelled):
            scan(
                ScanOptions(roots=(str(folder),), workers=1),
                progress=cancel_once_a_page_is_read,
                cancel=token,
            )
        assert seen and all(ended(process) for process in seen)
    finally:
        token.cancel()
        for process in seen:  # left behind only if the test failed
            with contextlib.suppress(psutil.Error):
                process.kill()


def ended(process) -> bool:
    """Whether `process` ends (or is a zombie no one reaps) within half a minute: a
    liveness check, not a measure of speed."""
    import psutil

    for _ in range(300):
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.1)
    return False


def test_a_page_of_marks_and_stray_letters_is_no_text(monkeypatch):
    """What Tesseract makes of stripes (a corrupt CCITT stream), read with some confidence:
    dashes, bars and single letters, not words."""
    junk = ["—s", "—_", "—", "|", "i", "ok", ":", "=", "一"]
    rows = [f"5\t1\t{i}\t1\t1\t1\t0\t{100 * i}\t40\t30\t70\t{w}" for i, w in enumerate(junk)]
    table = "\n".join([TSV_HEAD, *rows])
    monkeypatch.setattr(ocr, "_tesseract", lambda *_: ocr.page_from_tsv(table))
    monkeypatch.setattr(ocr, "_orientation", lambda *_: 0)
    page = ocr.read_image("tesseract", np.zeros((10, 10), np.uint8), "eng")
    assert page.boxes == () and page.words == 0
