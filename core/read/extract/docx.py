"""Word .docx files: body paragraphs and tables in document order, then footnotes."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

import docx
from docx.document import Document as DocxDocument
from docx.oxml.ns import qn
from lxml import etree
from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.read.extract.package import check_package
from simsift.core.read.extract.paragraphs import build_result, clean_paragraph, split_heading

_NOT_DOCX = "not a valid DOCX (corrupt or renamed file)"

_P, _TBL, _TR, _TC = qn("w:p"), qn("w:tbl"), qn("w:tr"), qn("w:tc")
_SDT, _SDT_CONTENT = qn("w:sdt"), qn("w:sdtContent")
_T, _TAB, _BR, _CR = qn("w:t"), qn("w:tab"), qn("w:br"), qn("w:cr")
_FOOTNOTE, _FOOTNOTE_TYPE = qn("w:footnote"), qn("w:type")
_PPR, _PSTYLE, _VAL = qn("w:pPr"), qn("w:pStyle"), qn("w:val")
# python-docx names built-in styles in English whatever the language Word ran in
_TITLE_STYLES = frozenset({"Title", "Heading 1"})


def paragraph_text(p: etree._Element) -> str:
    """Visible text of one w:p: runs, hyperlinks, fields; tabs and breaks as spaces."""
    parts = []
    for node in p.iter(_T, _TAB, _BR, _CR):
        parts.append(node.text or "" if node.tag == _T else " ")
    return "".join(parts)


def block_texts(container: etree._Element) -> Iterator[str]:
    """Paragraph texts of a body or table cell, descending into tables and content controls."""
    for child in container.iterchildren():
        if child.tag == _P:
            yield paragraph_text(child)
        elif child.tag == _TBL:
            yield from table_rows(child)
        elif child.tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from block_texts(content)


def table_rows(table: etree._Element) -> Iterator[str]:
    """One paragraph per table row (cells joined by spaces); nested tables follow their row."""
    for row in table.iterchildren(_TR):
        cells, nested = [], []
        for cell in row.iterchildren(_TC):
            cell_paragraphs = [paragraph_text(p) for p in cell.iterchildren(_P)]
            cells.append(" ".join(cell_paragraphs))
            for inner in cell.iterchildren(_TBL):
                nested.extend(table_rows(inner))
        yield " ".join(cells)
        yield from nested


def footnote_texts(document: DocxDocument) -> Iterator[str]:
    """Paragraphs of real footnotes (separator pseudo-notes skipped); none if no part."""
    for rel in document.part.rels.values():
        if rel.reltype.endswith("/footnotes") and not rel.is_external:
            root = etree.fromstring(rel.target_part.blob)
            for note in root.iterchildren(_FOOTNOTE):
                if note.get(_FOOTNOTE_TYPE) is None:
                    yield from block_texts(note)


def extract_docx(path: Path, *, max_bytes: int) -> ExtractedText:
    """Text of a .docx: body paragraphs and table rows in order, then footnotes.

    Headers and footers are skipped: they repeat on every page and are usually
    template text (school, course name) that would make unrelated essays look alike.
    """
    check_package(path, max_bytes)
    try:
        document = docx.Document(str(path))
        body = list(block_texts(document.element.body))
        title, body = title_and_body(document, body)
        paragraphs = [*body, *footnote_texts(document)]
    except (KeyError, ValueError, zipfile.BadZipFile, etree.XMLSyntaxError) as error:
        raise ExtractionError(_NOT_DOCX) from error
    return build_result(title, paragraphs, "docx")


def title_and_body(document: DocxDocument, body: list[str]) -> tuple[str, list[str]]:
    """The title (a leading Title or Heading 1 paragraph, else the document property,
    else a leading heading line) and the body without it."""
    texts = [clean_paragraph(t) for t in body]
    first = next((i for i, t in enumerate(texts) if t), None)
    if first is None:
        return "", body
    if first_paragraph_style(document) in _TITLE_STYLES:
        return texts[first], body[first + 1 :]
    title = clean_paragraph(document.core_properties.title or "")
    if title:
        return title, body[first + 1 :] if texts[first] == title else body
    return split_heading(body)


def first_paragraph_style(document: DocxDocument) -> str:
    """Style name of the body's first non-empty block when it is a paragraph, else ''."""
    for child in document.element.body.iterchildren():
        if child.tag == _TBL or child.tag == _SDT:
            return ""
        if child.tag == _P and paragraph_text(child).strip():
            style = child.find(f"{_PPR}/{_PSTYLE}")
            if style is None:
                return ""
            names = {s.style_id: s.name for s in document.styles}
            return names.get(style.get(_VAL), "")
    return ""
