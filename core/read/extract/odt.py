"""OpenDocument text (.odt: LibreOffice's and WPS's own format): body paragraphs, lists
and tables in document order, then footnotes; tracked deletions and comments left out."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

from lxml import etree
from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.read.extract.package import check_package
from simsift.core.read.extract.paragraphs import build_result, clean_paragraph, split_heading

_NOT_ODT = "not a valid ODT (corrupt or renamed file)"
_NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
}


def _q(name: str) -> str:
    prefix, local = name.split(":")
    return f"{{{_NS[prefix]}}}{local}"


_P, _H = _q("text:p"), _q("text:h")
_S, _TAB, _BREAK, _NOTE, _NOTE_BODY = (
    _q("text:s"),
    _q("text:tab"),
    _q("text:line-break"),
    _q("text:note"),
    _q("text:note-body"),
)
_TABLE, _ROW, _CELL = _q("table:table"), _q("table:table-row"), _q("table:table-cell")
# not the document's text: deleted text kept for review, comments, field declarations
_SKIPPED = frozenset(
    {_q("text:tracked-changes"), _q("office:annotation"), _q("text:sequence-decls")}
)
_OUTLINE_LEVEL, _STYLE = _q("text:outline-level"), _q("text:style-name")


def extract_odt(path: Path, *, max_bytes: int) -> ExtractedText:
    """Text of an .odt: paragraphs, headings, list items and table rows, then footnotes."""
    check_package(path, max_bytes, member="content.xml", label="ODT")
    try:
        with zipfile.ZipFile(path) as archive:
            content = archive.read("content.xml")
        parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
        root = etree.fromstring(content, parser)
    except (KeyError, zipfile.BadZipFile, etree.XMLSyntaxError) as error:
        raise ExtractionError(_NOT_ODT) from error
    body = root.find(f"{_q('office:body')}/{_q('office:text')}")
    if body is None:
        raise ExtractionError(_NOT_ODT)
    notes: list[str] = []
    blocks = list(_blocks(body, notes))
    title, paragraphs = _title_and_body(blocks)
    return build_result(title, [*paragraphs, *notes], "odt")


def _blocks(container: etree._Element, notes: list[str]) -> Iterator[tuple[str, bool]]:
    """(text, is a title) of each paragraph or table row, descending into lists and sections."""
    for child in container.iterchildren():
        if child.tag in _SKIPPED:
            continue
        if child.tag in (_P, _H):
            yield _paragraph_text(child, notes), _is_title(child)
        elif child.tag == _TABLE:
            yield from ((row, False) for row in _table_rows(child, notes))
        else:  # lists, list items, sections, table headers: their paragraphs in order
            yield from _blocks(child, notes)


def _is_title(p: etree._Element) -> bool:
    if p.tag == _H:
        return p.get(_OUTLINE_LEVEL, "1") == "1"
    return p.get(_STYLE, "") == "Title"


def _paragraph_text(p: etree._Element, notes: list[str]) -> str:
    """Visible text of one paragraph; its footnotes' text goes to `notes`."""
    parts = [p.text or ""]
    for child in p.iterchildren():
        if child.tag == _NOTE:
            body = child.find(_NOTE_BODY)
            if body is not None:
                notes.extend(text for text, _ in _blocks(body, notes))
        elif child.tag == _S:
            parts.append(" " * int(child.get(_q("text:c"), "1")))
        elif child.tag in (_TAB, _BREAK):
            parts.append(" ")
        elif child.tag not in _SKIPPED:
            parts.append(_paragraph_text(child, notes))  # spans, links, fields
        parts.append(child.tail or "")
    return "".join(parts)


def _table_rows(table: etree._Element, notes: list[str]) -> Iterator[str]:
    """One paragraph per row (cells joined by spaces), as for DOCX."""
    for row in table.iter(_ROW):
        cells = [
            " ".join(text for text, _ in _blocks(cell, notes)) for cell in row.iterchildren(_CELL)
        ]
        yield " ".join(cells)


def _title_and_body(blocks: list[tuple[str, bool]]) -> tuple[str, list[str]]:
    """A leading Title or level-1 heading is the title; else a leading heading line."""
    first = next((i for i, (text, _) in enumerate(blocks) if clean_paragraph(text)), None)
    texts = [text for text, _ in blocks]
    if first is not None and blocks[first][1]:
        return clean_paragraph(texts[first]), texts[first + 1 :]
    return split_heading(texts)
