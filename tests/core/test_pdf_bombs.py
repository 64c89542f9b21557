"""PDFs built to exhaust a reader: ten thousand pages, and forms nested
to be drawn a trillion times. The first is read whole; the second takes a reader process
past its memory limit, PDFium aborts, and the scan names the file and reads the others."""

from __future__ import annotations

import shutil
from pathlib import Path

from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan

from tests.core.pdf_writer import pdf_bytes, stream

DATA = Path(__file__).resolve().parents[1] / "data" / "extract"
FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
FONT_RESOURCE = b"/Resources << /Font << /F1 3 0 R >> >>"


def many_pages(count: int) -> bytes:
    """`count` pages, a line of text each, naming its page."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", FONT]
    pages = []
    for number in range(1, count + 1):
        line = b"Page %d of a long report on rivers and the cities along them" % number
        objects.append(stream(b"BT /F1 12 Tf 72 720 Td (" + line + b") Tj ET"))
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R"
            b" /Resources << /Font << /F1 3 0 R >> >> >>" % len(objects)
        )
        pages.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Count %d /Kids [%s] >>" % (count, b" ".join(pages))
    return pdf_bytes(objects)


def nested_forms(depth: int, fan: int) -> bytes:
    """A page drawing a form that draws the next one `fan` times, `depth` forms deep:
    `fan ** depth` copies of the innermost form's letter."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Count 1 /Kids [4 0 R] >>",
        FONT,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R"
        b" /Resources << /Font << /F1 3 0 R >> /XObject << /X %d 0 R >> >> >>" % (6 + depth),
        stream(b"BT /F1 12 Tf 72 720 Td (A page of nested forms) Tj ET q /X Do Q"),
    ]
    form = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
    objects.append(stream(b"BT /F1 1 Tf 0 0 Td (x) Tj ET", form + FONT_RESOURCE))
    for inner in range(6, 6 + depth):
        draws = b" ".join(b"q 1 0 0 1 %d 0 cm /X Do Q" % k for k in range(fan))
        objects.append(stream(draws, form + b"/Resources << /XObject << /X %d 0 R >> >>" % inner))
    return pdf_bytes(objects)


def test_ten_thousand_pages_are_read_to_the_last(tmp_path: Path) -> None:
    (tmp_path / "long.pdf").write_bytes(many_pages(10_000))
    result = scan(ScanOptions(roots=(tmp_path,), workers=1))
    assert not result.errors
    (document,) = result.documents
    text = " ".join((document.title, *document.paragraphs))
    assert text.count("of a long report on rivers") == 10_000
    assert "Page 10000 of" in text


def test_a_bomb_of_nested_forms_is_a_per_file_error_and_the_rest_is_read(tmp_path: Path) -> None:
    (tmp_path / "bomb.pdf").write_bytes(nested_forms(depth=12, fan=10))
    shutil.copy(DATA / "article_en.pdf", tmp_path / "article.pdf")
    result = scan(ScanOptions(roots=(tmp_path,), workers=1, memory_limit=1024**3))
    assert [Path(d.path).name for d in result.documents] == ["article.pdf"]
    (error,) = result.errors
    assert Path(error.path).name == "bomb.pdf"
    assert "memory" in error.message and "crashed" in error.message
