"""Web pages as a browser prints them, written object by object: the date and the page's
title at the top of every page, its address and "n/m" at the bottom, in the margin; the
article's paragraphs wrapped in Helvetica; the site's lines and lists after it."""

from __future__ import annotations

from pathlib import Path

from pdfminer.fontmetrics import FONT_METRICS

from tests.core.pdf_writer import pdf_bytes

WIDTH, HEIGHT = 612, 792
SIZE, LEADING, MARGIN_SIZE = 10, 12, 8
TOP, BOTTOM, LEFT, LINE_WIDTH = 740.0, 60.0, 50.0, 500.0


def _width(text: str, size: float) -> float:
    widths = FONT_METRICS["Helvetica"][1]
    return sum(widths.get(c, 556) for c in text) * size / 1000


def wrapped(text: str) -> list[str]:
    """`text` in lines no wider than the column, words kept whole."""
    lines = [""]
    for word in text.split():
        candidate = f"{lines[-1]} {word}".strip()
        if _width(candidate, SIZE) <= LINE_WIDTH or not lines[-1]:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def write_printed_page(path: Path, header: str, address: str, blocks: list[list[str]]) -> None:
    """A PDF of `blocks` (each a paragraph's lines, set one under the other, a blank line
    between blocks) over as many pages as they need, `header` and `address` with the page
    number printed in every page's margin."""
    pages: list[list[tuple[float, float, float, str]]] = [[]]
    y = TOP
    for block in blocks:
        if y - LEADING * len(block) < BOTTOM and pages[-1]:
            pages.append([])
            y = TOP
        for line in block:
            pages[-1].append((LEFT, y, SIZE, line))
            y -= LEADING
        y -= LEADING
    for number, runs in enumerate(pages, 1):
        runs.append((20.0, HEIGHT - 14, MARGIN_SIZE, header))
        runs.append((20.0, 10.0, MARGIN_SIZE, address))
        runs.append((WIDTH - 40, 10.0, MARGIN_SIZE, f"{number}/{len(pages)}"))
    path.write_bytes(_pdf(pages))


def _pdf(pages: list[list[tuple[float, float, float, str]]]) -> bytes:
    n = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n)).encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n),
    ]
    font = 3 + 2 * n
    for i, runs in enumerate(pages):
        content = "".join(
            f"BT /F1 {size} Tf {x:.2f} {y:.2f} Td ({_escaped(text)}) Tj ET\n"
            for x, y, size, text in runs
        ).encode("latin-1")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d]"
            b" /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>"
            % (WIDTH, HEIGHT, font, 4 + 2 * i)
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream")
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    )
    return pdf_bytes(objects)


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
