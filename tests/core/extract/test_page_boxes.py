"""Hidden means not drawn: a page's text is off the page only off the box PDFium and
poppler draw with. Media boxes written inverted, empty, short, as a string, NaN or absurd
are drawn as the renderers put them right (corners swapped, else US Letter), so their text
shows and the copy is compared; text off a real page stays hidden. Checked against
poppler's rendering where it is installed."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from simsift.core.document import ExtractionError
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.read.extract import pdf, pdfium
from simsift.core.read.extract.hidden import LETTER, drawn_box
from simsift.core.read.reader import ReadTask, read_file

from tests.core.corpus import long_texts
from tests.core.pdf_writer import pdf_bytes, stream

HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
LINE = "The rivers of the north run cold and clear in spring"

# (what the page dictionary says, whether the line at (72, 700) is drawn)
BOXES = {
    "inverted": (b"/MediaBox [612 792 0 0]", True),
    "inverted x": (b"/MediaBox [612 0 0 792]", True),
    "zero": (b"/MediaBox [0 0 0 0]", True),
    "short": (b"/MediaBox [0 0 612]", True),
    "empty": (b"/MediaBox []", True),
    "string": (b"/MediaBox (0 0 612 792)", True),
    "names": (b"/MediaBox [/a /b /c /d]", True),
    "NaN": (b"/MediaBox [0 0 nan 792]", True),
    "-1e38": (b"/MediaBox [-1e38 -1e38 612 792]", True),
    "1e13": (b"/MediaBox [0 0 1e13 1e13]", True),
    "missing": (b"", True),
    "crop box inverted": (b"/MediaBox [0 0 612 792] /CropBox [612 792 0 0]", True),
    "crop box empty": (b"/MediaBox [0 0 612 792] /CropBox [0 0 0 0]", True),
    # poppler and PDFium draw nothing, pdf.js the media box: shown, as one viewer shows it
    "crop box off the page": (b"/MediaBox [0 0 612 792] /CropBox [1000 1000 1200 1200]", True),
    # text off a real page is not drawn
    "page below the text": (b"/MediaBox [-612 -792 0 0]", False),
    "page of one point": (b"/MediaBox [0 0 1 1]", False),
    "crop box below the text": (b"/MediaBox [0 0 612 792] /CropBox [0 0 300 300]", False),
}


def page(box: bytes, content: bytes, contents: int) -> bytes:
    return (
        b"<< /Type /Page /Parent 2 0 R %s /Contents %d 0 R"
        b" /Resources << /Font << /F1 3 0 R >> >> >>" % (box, contents)
    )


def lines(texts: list[str], top: int = 700) -> bytes:
    shown = [b"(%s) Tj" % t.replace("(", "").replace(")", "").encode("latin-1") for t in texts]
    return b"BT /F1 12 Tf 14 TL 72 %d Td " % top + b" T* ".join(shown) + b" ET"


def pdf_of_pages(pages: list[tuple[bytes, bytes]]) -> bytes:
    """A PDF of (page box entries, content stream) pages, in Helvetica."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", HELVETICA]
    kids = []
    for box, content in pages:
        objects.append(stream(content))
        objects.append(page(box, content, len(objects)))
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Count %d /Kids [%s] >>" % (len(kids), b" ".join(kids))
    return pdf_bytes(objects)


def read_both(path: Path) -> dict[str, tuple[list[str], list[str]]]:
    """(shown boxes, hidden pieces) by reader."""
    read = {}
    for name, reader in (("pdfium", pdfium.page_paragraphs), ("pdfminer", pdf.page_paragraphs)):
        hidden: list[str] = []
        read[name] = (list(reader(path, hidden)), hidden)
    return read


@pytest.mark.parametrize("name", list(BOXES))
def test_text_is_hidden_only_off_the_box_the_renderers_draw(name: str, tmp_path: Path) -> None:
    box, drawn = BOXES[name]
    path = tmp_path / "page.pdf"
    path.write_bytes(pdf_of_pages([(box, lines([LINE]))]))
    for reader, (shown, hidden) in read_both(path).items():
        assert (shown, hidden) == (([LINE], []) if drawn else ([], [LINE])), reader


def poppler_draws_text(path: Path, tmp_path: Path) -> bool:
    """Whether pdftoppm draws any dark pixel on the page as a viewer shows it (crop box)."""
    out = tmp_path / "drawn"
    subprocess.run(
        ["pdftoppm", "-cropbox", "-r", "36", "-gray", "-singlefile", str(path), str(out)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    from PIL import Image

    with Image.open(out.with_suffix(".pgm")) as picture:
        return bool((np.asarray(picture) < 128).any())


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm is not installed")
@pytest.mark.parametrize("name", [name for name in BOXES if name != "crop box off the page"])
def test_what_is_called_hidden_poppler_does_not_draw(name: str, tmp_path: Path) -> None:
    box, _ = BOXES[name]
    path = tmp_path / "page.pdf"
    path.write_bytes(pdf_of_pages([(box, lines([LINE]))]))
    shown, hidden = read_both(path)["pdfium"]
    assert poppler_draws_text(path, tmp_path) == bool(shown) != bool(hidden)


@pytest.mark.parametrize("name", ["inverted", "zero", "short", "string", "NaN", "-1e38", "1e13"])
def test_a_copy_on_a_page_of_an_odd_box_is_compared(name: str, tmp_path: Path) -> None:
    essay = long_texts()["argparse"].split()
    rows = [" ".join(essay[i : i + 10]) for i in range(0, len(essay), 10)][:45]
    (tmp_path / "original.pdf").write_bytes(
        pdf_of_pages([(b"/MediaBox [0 0 612 792]", lines(rows, 760))])
    )
    cover = lines(["An essay on command lines", "by a student of the course"])
    (tmp_path / "copy.pdf").write_bytes(
        pdf_of_pages([(b"/MediaBox [0 0 612 792]", cover), (BOXES[name][0], lines(rows, 760))])
    )
    result = scan(ScanOptions(roots=(tmp_path,), workers=0))
    assert not result.errors
    names = [Path(d.path).name for d in result.documents]
    copy = result.documents[names.index("copy.pdf")]
    assert not [flag for flag in copy.flags if flag.startswith("hidden text")]
    assert result.similarity().index[names.index("copy.pdf")] > 0.8


def test_boxes_are_put_right_as_the_renderers_do() -> None:
    assert drawn_box([612, 792, 0, 0]) == (0, 0, 612, 792)
    assert drawn_box((10.5, 0, -3, 5)) == (-3, 0, 10.5, 5)
    odd = [[0, 0, 0, 0], [0, 0, 612], [], "0 0 612 792", b"0 0 612 792", None, [5, 0, 5, 9]]
    odd += [[0, 0, math.nan, 792], [0, 0, math.inf, 792], [0, 0, True, 792]]
    for box in odd:
        assert drawn_box(box) is None, box
    assert LETTER == (0, 0, 612, 792)


def type3_page(matrix: bytes) -> bytes:
    """A page of upright Type3 letters without Unicode values and a line turned on its side:
    PDFium leaves it to pdfminer, which loads the Type3 font and its FontMatrix."""
    glyph = stream(b"1000 0 0 0 750 750 d1 0 0 750 750 re f")
    font = (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 750 750] /FontMatrix %s"
        b" /CharProcs << /a 6 0 R /b 6 0 R >> /FirstChar 97 /LastChar 98 /Widths [1000 1000]"
        b" /Encoding << /Type /Encoding /Differences [97 /a /b] >> /Resources << >> >>" % matrix
    )
    content = (
        b"BT /F2 12 Tf 0 1 -1 0 300 100 Tm (" + LINE.encode() + b") Tj ET"
        b" BT /F1 12 Tf 72 700 Td (abab) Tj ET"
    )
    return pdf_bytes(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Count 1 /Kids [4 0 R] >>",
            font,
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R"
            b" /Resources << /Font << /F1 3 0 R /F2 7 0 R >> >> >>",
            stream(content),
            glyph,
            HELVETICA,
        ]
    )


@pytest.mark.parametrize("matrix", [b"[0.001 0 0 0.001 0 0 0]", b"[0.001 0 0 0.001]", b"(x)"])
def test_a_damaged_type3_font_is_a_plain_message(matrix: bytes, tmp_path: Path) -> None:
    path = tmp_path / "font.pdf"
    path.write_bytes(type3_page(matrix))
    with pytest.raises(ExtractionError, match="damaged font"):
        pdf.extract_pdf(path, ocr=False)
    size = path.stat().st_size
    record = read_file(ReadTask(str(path), size, 0, 10**8, False, ocr=False))
    assert record.message == pdf.DAMAGED_FONT


def test_a_sound_type3_font_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "font.pdf"
    path.write_bytes(type3_page(b"[0.001 0 0 0.001 0 0]"))
    assert pdf.extract_pdf(path, ocr=False).paragraphs
