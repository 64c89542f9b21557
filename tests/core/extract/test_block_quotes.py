"""Block quotations (Word's Quote styles, LibreOffice's Quotations, HTML <blockquote>) are
read between quotation marks, so a quoted passage is set apart like one in marks."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx
import pytest
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.read.extract import extract
from simsift.core.read.reader import ReadTask, read_file
from simsift.core.report.essay import essay_html
from simsift.core.text.quotations import QUOTATION

from tests.core.corpus import prose_paragraphs

PROSE = prose_paragraphs("argparse")
QUOTE = PROSE[3]  # about 50 words


def docx_with_quote(path: Path, style: str = "Quote") -> Path:
    document = docx.Document()
    document.add_paragraph(PROSE[0])
    document.add_paragraph(QUOTE, style=style)
    document.add_paragraph(PROSE[1])
    document.save(path)
    return path


def odt_with_quote(path: Path) -> Path:
    """An ODT whose quotation paragraph has an automatic style made from "Quotations"."""
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
        '<office:automatic-styles><style:style style:name="P1" style:family="paragraph" '
        'style:parent-style-name="Quotations"/></office:automatic-styles>'
        f"<office:body><office:text><text:p>{PROSE[0]}</text:p>"
        f'<text:p text:style-name="P1">{QUOTE}</text:p><text:p>{PROSE[1]}</text:p>'
        "</office:text></office:body></office:document-content>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content)
    return path


def html_with_quote(path: Path) -> Path:
    half = len(QUOTE) // 2
    cut = QUOTE.index(". ", half) + 1 if ". " in QUOTE[half:] else half
    page = (
        f"<html><body><article><p>{PROSE[0]}</p><blockquote><p>{QUOTE[:cut]}</p>"
        f"<p><em>{QUOTE[cut:].strip()}</em></p></blockquote><p>{PROSE[1]}</p>"
        "</article></body></html>"
    )
    path.write_text(page, "utf-8")
    return path


@pytest.mark.parametrize("style", ["Quote", "Intense Quote"])
def test_a_docx_quote_paragraph_reads_between_marks(tmp_path, style):
    paragraphs = extract(docx_with_quote(tmp_path / "q.docx", style)).paragraphs
    assert f"“{QUOTE}”" in paragraphs
    assert f"“{PROSE[0]}”" not in paragraphs and PROSE[0] in paragraphs


def test_an_odt_quotations_paragraph_reads_between_marks(tmp_path):
    paragraphs = extract(odt_with_quote(tmp_path / "q.odt")).paragraphs
    assert f"“{QUOTE}”" in paragraphs and PROSE[0] in paragraphs


def test_each_paragraph_of_an_html_blockquote_reads_between_marks(tmp_path):
    paragraphs = extract(html_with_quote(tmp_path / "q.html")).paragraphs
    quoted = [p for p in paragraphs if p.startswith("“")]
    assert len(quoted) == 2 and all(p.endswith("”") for p in quoted)
    assert " ".join(p.strip("“”") for p in quoted).split() == QUOTE.split()


def test_a_block_quote_already_in_marks_gets_none_more(tmp_path):
    document = docx.Document()
    document.add_paragraph(f"“{QUOTE}”", style="Quote")
    document.save(tmp_path / "q.docx")
    assert extract(tmp_path / "q.docx").paragraphs == (f"“{QUOTE}”",)


def test_block_quote_tokens_are_quotation_and_the_text_hash_ignores_the_marks(tmp_path):
    quoted = docx_with_quote(tmp_path / "q.docx")
    (tmp_path / "q.txt").write_text("\n\n".join([PROSE[0], QUOTE, PROSE[1]]), "utf-8")
    records = [
        read_file(ReadTask(str(p), p.stat().st_size, 0, 1 << 30, True))
        for p in (quoted, tmp_path / "q.txt")
    ]
    body = records[0].tokens.body
    second = int(body.para_starts[1])
    assert (body.marks[second : int(body.para_starts[2])] == QUOTATION).all()
    assert not (body.marks[:second] == QUOTATION).any()
    assert records[0].text_hash == records[1].text_hash  # same text in two formats


def test_a_classmates_words_in_a_block_quote_are_not_a_partial_copy(tmp_path):
    """Ben block-quotes 50 words of Ana's essay (Word's Quote style): no partial copy, and
    his report says whose words they are."""
    folder = tmp_path / "class"
    folder.mkdir()
    ana = [*PROSE[2:6]]
    (folder / "ana.txt").write_text("\n\n".join(ana), "utf-8")
    ben = docx.Document()
    for text in prose_paragraphs("heapq")[:3]:
        ben.add_paragraph(text)
    ben.add_paragraph(QUOTE, style="Quote")
    ben.add_paragraph(prose_paragraphs("subprocess")[0])
    ben.save(folder / "ben.docx")
    result = scan(ScanOptions(roots=(str(folder),), workers=0))
    docs = [d.path for d in result.documents]
    b = docs.index(str(folder / "ben.docx"))
    assert result.similarity().sources(b) == []
    assert "quoted, also in ana.txt (not counted)" in essay_html(result, result.similarity(), b)
