"""PDF text in reading order, on small PDFs written here: the order text is drawn in
is not the order it is read in (LibreOffice draws fallback-font runs apart), yet
two columns must not be read across."""

from __future__ import annotations

from pathlib import Path

from pdfminer.fontmetrics import FONT_METRICS
from simsift.core.read.extract import extract
from simsift.core.read.extract.pdf import join_lines, joined_paragraphs

from tests.core.pdf_writer import pdf_bytes

SIZE = 10
LEADING = 12
# (x, y, text): one Helvetica text run drawn at that baseline
Run = tuple[float, float, str]


def width(text: str) -> float:
    widths = FONT_METRICS["Helvetica"][1]
    return sum(widths[c] for c in text) * SIZE / 1000


def write_pdf(path: Path, runs: list[Run]) -> None:
    """A one-page PDF drawing `runs` in the given order in standard Helvetica."""
    escaped = (t.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") for *_, t in runs)
    content = "".join(
        f"BT /F1 {SIZE} Tf {x:.2f} {y:.2f} Td ({text}) Tj ET\n"
        for (x, y, _), text in zip(runs, escaped, strict=True)
    ).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
        b" /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream",
    ]
    path.write_bytes(pdf_bytes(objects))


def wrapped(text: str, line_width: float) -> list[str]:
    """`text` in lines no wider than `line_width`, words kept whole."""
    lines = [""]
    for word in text.split():
        candidate = f"{lines[-1]} {word}".strip()
        if width(candidate) <= line_width or not lines[-1]:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def column(paragraphs: list[str], x: float, line_width: float) -> list[Run]:
    """Runs of the paragraphs set justified in a column at `x` (one run per word, as TeX
    draws), a blank line between paragraphs."""
    runs, y = [], 720.0
    for paragraph in paragraphs:
        lines = wrapped(paragraph, line_width)
        for number, line in enumerate(lines, 1):
            words = line.split()
            gaps = len(words) - 1
            space = width(" ")
            if number < len(lines) and gaps:
                space = (line_width - sum(width(w) for w in words)) / gaps
            left = x
            for word in words:
                runs.append((left, y, word))
                left += width(word) + space
            y -= LEADING
        y -= LEADING
    return runs


def texts(path: Path) -> list[str]:
    result = extract(path)
    return [text for text in (result.title, *result.paragraphs) if text]


LEFT = [
    "The first column opens with a paragraph long enough to wrap over several lines of "
    "the narrow column, as in a journal article set in two columns.",
    "A second paragraph in the first column goes on with other words that belong only "
    "to the left side of the page and nowhere else.",
]
# A 10 pt gutter at 10 pt type, as LaTeX's twocolumn sets it: narrower than most.
MARGIN, LINE_WIDTH, GUTTER = 40.0, 260.0, 10.0
RIGHT = [
    "Meanwhile the second column carries its own paragraph, which a reader takes up "
    "only after finishing the whole of the first column.",
    "Its last paragraph closes the page with words that must not be mixed into the "
    "lines of the left column by any reading order.",
]


def assert_columns_read_apart(paragraphs: list[str]) -> None:
    """Every paragraph whole (no line read across the gutter), each column in order.

    Which column's paragraph comes first at the same height is pdfminer's box order.
    """
    assert sorted(paragraphs) == sorted(LEFT + RIGHT)
    assert [p for p in paragraphs if p in LEFT] == LEFT
    assert [p for p in paragraphs if p in RIGHT] == RIGHT


def test_two_columns_are_read_one_after_the_other(tmp_path: Path) -> None:
    runs = column(LEFT, MARGIN, LINE_WIDTH) + column(
        RIGHT, MARGIN + LINE_WIDTH + GUTTER, LINE_WIDTH
    )
    left_ends = [x + width(t) for x, _, t in runs if x < MARGIN + LINE_WIDTH]
    assert max(left_ends) > MARGIN + LINE_WIDTH - 0.1  # justified: lines reach the gutter
    write_pdf(tmp_path / "columns.pdf", runs)
    assert_columns_read_apart(texts(tmp_path / "columns.pdf"))


def test_two_columns_drawn_line_across_both_are_still_read_column_by_column(
    tmp_path: Path,
) -> None:
    # A 2 pc gutter (ACM). Narrower, pdfminer itself joins characters drawn one after the
    # other across the gutter (it did before visual lines too): most PDFs draw column by column.
    gutter = 24.0
    left = column(LEFT, MARGIN, LINE_WIDTH)
    right = column(RIGHT, MARGIN + LINE_WIDTH + gutter, LINE_WIDTH)
    runs = sorted(left + right, key=lambda run: (-run[1], run[0]))
    write_pdf(tmp_path / "across.pdf", runs)
    assert_columns_read_apart(texts(tmp_path / "across.pdf"))


def test_a_line_drawn_in_pieces_out_of_order_reads_left_to_right(tmp_path: Path) -> None:
    # As LibreOffice draws a line's fallback-font runs: quotes and a space first, then the rest.
    pieces = ['He said "', "yes", '" and', " ", "left the room."]
    starts = [72 + width("".join(pieces[:i])) for i in range(len(pieces))]
    line = list(zip(starts, [700.0] * len(pieces), pieces, strict=True))
    drawn = [line[i] for i in (3, 0, 2, 4, 1)]
    write_pdf(tmp_path / "pieces.pdf", [*drawn, (72, 688, "A second line of the paragraph.")])
    assert texts(tmp_path / "pieces.pdf") == [
        'He said "yes" and left the room. A second line of the paragraph.'
    ]


def test_text_printed_twice_over_itself_is_read_once(tmp_path: Path) -> None:
    # Fake bold: the same words drawn again a fraction of a point to the right.
    runs = [(72, 700, "Bold words here"), (72.3, 700, "Bold words here")]
    write_pdf(tmp_path / "bold.pdf", [*runs, (72, 688, "and plain ones after them.")])
    assert texts(tmp_path / "bold.pdf") == ["Bold words here and plain ones after them."]


def test_line_end_hyphen_is_dropped_only_for_words_found_whole_elsewhere() -> None:
    boxes = ["An example of it.", "One exam-\nple and quoted-\nprintable text."]
    assert joined_paragraphs(boxes)[1] == "One example and quoted-printable text."


def test_chinese_wrapped_beside_a_latin_word_joins_without_a_space() -> None:
    assert join_lines("不支持使用\nGSSAPI，在客户端\n连接") == "不支持使用GSSAPI，在客户端连接"
    assert join_lines("two English\nlines") == "two English lines"
