"""Word .docx files: body paragraphs and tables in document order, then footnotes.

Text Word does not show (hidden runs, white on white, 1-pt type) is cut out of the
paragraphs and kept apart as hidden text.
"""

from __future__ import annotations

import contextlib
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import docx
from docx.document import Document as DocxDocument
from docx.oxml.ns import qn
from lxml import etree
from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.read.extract.hidden import (
    ALL_HIDDEN,
    MAX_HIDDEN_POINTS,
    RGB,
    WHITE,
    hex_colour,
    unreadable,
)
from simsift.core.read.extract.package import check_package
from simsift.core.read.extract.paragraphs import build_result, clean_paragraph, split_heading

_NOT_DOCX = "not a valid DOCX (corrupt or renamed file)"

_P, _TBL, _TR, _TC = qn("w:p"), qn("w:tbl"), qn("w:tr"), qn("w:tc")
_SDT, _SDT_CONTENT = qn("w:sdt"), qn("w:sdtContent")
_T, _TAB, _BR, _CR = qn("w:t"), qn("w:tab"), qn("w:br"), qn("w:cr")
_FOOTNOTE, _FOOTNOTE_TYPE = qn("w:footnote"), qn("w:type")
_PPR, _PSTYLE, _VAL = qn("w:pPr"), qn("w:pStyle"), qn("w:val")
_R, _RPR, _RSTYLE = qn("w:r"), qn("w:rPr"), qn("w:rStyle")
_VANISH, _SPEC_VANISH, _COLOR, _SZ = qn("w:vanish"), qn("w:specVanish"), qn("w:color"), qn("w:sz")
_SHD, _HIGHLIGHT, _FILL, _COLOR_ATTR = qn("w:shd"), qn("w:highlight"), qn("w:fill"), qn("w:color")
_TCPR, _TBLPR, _TBLSTYLE, _BACKGROUND = (
    qn("w:tcPr"),
    qn("w:tblPr"),
    qn("w:tblStyle"),
    qn("w:background"),
)
_STYLE, _STYLE_ID, _STYLE_TYPE, _BASED_ON = (
    qn("w:style"),
    qn("w:styleId"),
    qn("w:type"),
    qn("w:basedOn"),
)
_DEFAULT, _DOC_DEFAULTS, _RPR_DEFAULT = qn("w:default"), qn("w:docDefaults"), qn("w:rPrDefault")
_OFF = frozenset({"0", "false", "off"})
_TINY = frozenset({"0", "1", "2"})  # w:sz in half-points: 1 pt or less
# w:highlight names (ECMA-376 17.18.40)
_HIGHLIGHTS = {
    "black": "000000", "blue": "0000FF", "cyan": "00FFFF", "green": "00FF00",
    "magenta": "FF00FF", "red": "FF0000", "yellow": "FFFF00", "white": "FFFFFF",
    "darkBlue": "000080", "darkCyan": "008080", "darkGreen": "008000",
    "darkMagenta": "800080", "darkRed": "800000", "darkYellow": "808000",
    "darkGray": "808080", "lightGray": "C0C0C0",
}  # fmt: skip
# python-docx names built-in styles in English whatever the language Word ran in
_TITLE_STYLES = frozenset({"Title", "Heading 1"})


class RunVisibility:
    """Which runs of one document Word shows: run properties resolved through the
    document defaults, the paragraph style and the character style (with their basedOn
    chains), then the run's own; background from the run, paragraph, cell, table, page."""

    def __init__(self, document: DocxDocument) -> None:
        styles = document.styles.element
        self._styles: dict[str, etree._Element] = {
            s.get(_STYLE_ID): s for s in styles.iterchildren(_STYLE) if s.get(_STYLE_ID)
        }
        defaults = styles.find(f"{_DOC_DEFAULTS}/{_RPR_DEFAULT}/{_RPR}")
        self._defaults = run_properties(defaults)
        self._default_paragraph_style = next(
            (
                s.get(_STYLE_ID)
                for s in self._styles.values()
                if s.get(_STYLE_TYPE) == "paragraph" and s.get(_DEFAULT) in ("1", "true", "on")
            ),
            None,
        )
        page = document.element.find(_BACKGROUND)
        self._page = (hex_colour(page.get(_COLOR_ATTR)) if page is not None else None) or WHITE
        self._chains: dict[str | None, dict] = {}
        self._paragraphs: dict[str | None, dict] = {}
        self._shaded_table_styles: dict[str, bool] = {}
        # the paragraph last asked about, its style's run properties, whether they hide a
        # run, and the colour behind its text (as a 1-tuple: None is an answer)
        self._paragraph: etree._Element | None = None
        self._marked: set[etree._Element] = set()
        self._base: dict = {}
        self._base_hides = False
        self._background: tuple[RGB | None] | None = None

    def hides(self, run: etree._Element, paragraph: etree._Element) -> bool:
        """Whether Word shows none of `run` (a w:r inside `paragraph`)."""
        if paragraph is not self._paragraph:  # runs come paragraph by paragraph
            self._paragraph, self._background = paragraph, None
            self._base = self._paragraph_props(_paragraph_style(paragraph))
            self._base_hides = self._props_hide(self._base, paragraph)
        # a run's own properties matter when they may hide it, or show it in a paragraph
        # whose style hides its text
        if not self._base_hides and run not in self._marked:
            return False
        rpr = _first_child(run, _RPR)
        own = run_properties(rpr) if rpr is not None else None
        if not own:
            return self._base_hides
        char_style = self._style_props(own["rstyle"]) if "rstyle" in own else {}
        return self._props_hide({**self._base, **char_style, **own}, paragraph)

    def mark(self, container: etree._Element) -> None:
        """Note the runs under `container` whose own properties may hide them (one pass in
        C: the other runs, nearly all, are decided by their paragraph alone)."""
        for prop in container.iter(_VANISH, _SPEC_VANISH, _COLOR, _SZ, _RSTYLE, _SHD, _HIGHLIGHT):
            tag, value = prop.tag, prop.get(_VAL)
            if (tag == _COLOR and value == "auto") or (tag == _SZ and value not in _TINY):
                continue
            rpr = prop.getparent()
            if rpr is not None and rpr.tag == _RPR and (run := rpr.getparent()) is not None:
                self._marked.add(run)

    def _props_hide(self, props: dict, paragraph: etree._Element) -> bool:
        if props.get("vanish") or props.get("sz", 24) <= 2 * MAX_HIDDEN_POINTS:
            return True
        colour = hex_colour(props.get("color"))
        if colour is None:  # "auto": black on light, white on dark
            return False
        background = props.get("highlight") or props.get("shd")
        if background is None:
            if self._background is None:
                self._background = (self._paragraph_background(paragraph),)
            background = self._background[0]
        return background is not None and unreadable(colour, background)

    def _paragraph_props(self, style_id: str | None) -> dict:
        """Document defaults and the paragraph style's run properties."""
        if style_id not in self._paragraphs:
            own = self._style_props(style_id or self._default_paragraph_style)
            self._paragraphs[style_id] = {**self._defaults, **own}
        return self._paragraphs[style_id]

    def _style_props(self, style_id: str | None) -> dict:
        """Run properties (and paragraph shading as "pshd") of a style and its basedOn chain."""
        if style_id in self._chains:
            return self._chains[style_id]
        self._chains[style_id] = {}  # a basedOn loop ends here
        style = self._styles.get(style_id or "")
        if style is None:
            return {}
        based_on = style.find(_BASED_ON)
        props = dict(self._style_props(based_on.get(_VAL))) if based_on is not None else {}
        props.update(run_properties(style.find(_RPR)))
        shading = style.find(f"{_PPR}/{_SHD}")
        if shading is not None:
            props["pshd"] = shading_colour(shading)
        self._chains[style_id] = props
        return props

    def _paragraph_background(self, paragraph: etree._Element) -> RGB | None:
        """Colour behind a paragraph's text; None when it cannot be told (a table style's
        shading), so that light text there is taken as shown."""
        ppr = _first_child(paragraph, _PPR)
        shading = ppr.find(_SHD) if ppr is not None else None
        if shading is not None and (colour := shading_colour(shading)):
            return colour
        if colour := self._style_props(_paragraph_style(paragraph)).get("pshd"):
            return colour
        for ancestor in paragraph.iterancestors(_TC, _TBL):
            props = ancestor.find(_TCPR if ancestor.tag == _TC else _TBLPR)
            if props is None:
                continue
            shading = props.find(_SHD)
            if shading is not None and (colour := shading_colour(shading)):
                return colour
            table_style = props.find(_TBLSTYLE)
            if table_style is not None and self._shaded_table_style(table_style.get(_VAL)):
                return None
        return self._page

    def _shaded_table_style(self, style_id: str | None) -> bool:
        """Whether a table style (or one it is based on) shades any cell, row or band."""
        if style_id not in self._shaded_table_styles:
            self._shaded_table_styles[style_id] = False  # a basedOn loop ends here
            style = self._styles.get(style_id or "")
            shaded = False
            if style is not None:
                shaded = any(shading_colour(s) not in (None, WHITE) for s in style.iter(_SHD))
                based_on = style.find(_BASED_ON)
                if not shaded and based_on is not None:
                    shaded = self._shaded_table_style(based_on.get(_VAL))
            self._shaded_table_styles[style_id] = shaded
        return self._shaded_table_styles[style_id]


def _first_child(element: etree._Element, tag: str) -> etree._Element | None:
    """The element's first child when it has `tag` (w:pPr, w:rPr come first)."""
    return element[0] if len(element) and element[0].tag == tag else None


def _paragraph_style(paragraph: etree._Element) -> str | None:
    ppr = _first_child(paragraph, _PPR)
    style = _first_child(ppr, _PSTYLE) if ppr is not None else None
    return style.get(_VAL) if style is not None else None


def run_properties(rpr: etree._Element | None) -> dict:
    """The properties of a w:rPr that decide whether its text shows."""
    props: dict = {}
    if rpr is None:
        return props
    for child in rpr.iterchildren():
        tag = child.tag
        if tag in (_VANISH, _SPEC_VANISH):
            props["vanish"] = (child.get(_VAL) or "true").lower() not in _OFF
        elif tag == _COLOR:
            props["color"] = child.get(_VAL)
        elif tag == _SZ:
            with contextlib.suppress(ValueError):
                props["sz"] = float(child.get(_VAL) or "")
        elif tag == _SHD:
            props["shd"] = shading_colour(child)
        elif tag == _HIGHLIGHT:  # painted over any shading
            props["highlight"] = hex_colour(_HIGHLIGHTS.get(child.get(_VAL) or ""))
        elif tag == _RSTYLE:
            props["rstyle"] = child.get(_VAL)
    return props


def shading_colour(shading: etree._Element) -> RGB | None:
    """Colour a w:shd paints, None for none: a solid pattern paints its colour, others
    (clear, percentages) mostly their fill."""
    pattern = shading.get(_VAL) or "clear"
    if pattern == "nil":
        return None
    if pattern == "solid":
        colour = shading.get(_COLOR_ATTR) or "auto"
        return hex_colour("000000" if colour == "auto" else colour)
    return hex_colour(shading.get(_FILL))


def paragraph_text(
    p: etree._Element, runs: RunVisibility | None = None, hidden: list[str] | None = None
) -> str:
    """Visible text of one w:p: runs, hyperlinks, fields; tabs and breaks as spaces.

    With `runs`, text of runs Word does not show is left out and appended to `hidden`
    (one piece per stretch of hidden runs).
    """
    if runs is None:
        return "".join(
            node.text or "" if node.tag == _T else " " for node in p.iter(_T, _TAB, _BR, _CR)
        )
    parts: list[str] = []
    unseen: list[str] = []
    last_run, run_hidden = None, False
    for node in p.iter(_T, _TAB, _BR, _CR):
        piece = node.text or "" if node.tag == _T else " "
        run = node.getparent()
        if run is not None and run.tag == _R:
            if run is not last_run:
                paragraph = p if run.getparent() is p else next(run.iterancestors(_P), p)
                last_run, run_hidden = run, runs.hides(run, paragraph)
            if run_hidden:
                unseen.append(piece)
                continue
        if unseen and piece.strip():
            _keep_hidden(unseen, hidden)
        parts.append(piece)
    if unseen:
        _keep_hidden(unseen, hidden)
    return "".join(parts)


def _keep_hidden(unseen: list[str], hidden: list[str] | None) -> None:
    text = clean_paragraph("".join(unseen))
    if text and hidden is not None:
        hidden.append(text)
    unseen.clear()


def block_texts(
    container: etree._Element, runs: RunVisibility | None = None, hidden: list[str] | None = None
) -> Iterator[str]:
    """Paragraph texts of a body or table cell, descending into tables and content controls."""
    for child in container.iterchildren():
        if child.tag == _P:
            yield paragraph_text(child, runs, hidden)
        elif child.tag == _TBL:
            yield from table_rows(child, runs, hidden)
        elif child.tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from block_texts(content, runs, hidden)


def table_rows(
    table: etree._Element, runs: RunVisibility | None = None, hidden: list[str] | None = None
) -> Iterator[str]:
    """One paragraph per table row (cells joined by spaces); nested tables follow their row."""
    for row in table.iterchildren(_TR):
        cells, nested = [], []
        for cell in row.iterchildren(_TC):
            cell_paragraphs = [paragraph_text(p, runs, hidden) for p in cell.iterchildren(_P)]
            cells.append(" ".join(cell_paragraphs))
            for inner in cell.iterchildren(_TBL):
                nested.extend(table_rows(inner, runs, hidden))
        yield " ".join(cells)
        yield from nested


def footnote_texts(
    document: DocxDocument, runs: RunVisibility | None = None, hidden: list[str] | None = None
) -> Iterator[str]:
    """Paragraphs of real footnotes (separator pseudo-notes skipped); none if no part."""
    for rel in document.part.rels.values():
        if rel.reltype.endswith("/footnotes") and not rel.is_external:
            root = etree.fromstring(rel.target_part.blob)
            if runs is not None:
                runs.mark(root)
            for note in root.iterchildren(_FOOTNOTE):
                if note.get(_FOOTNOTE_TYPE) is None:
                    yield from block_texts(note, runs, hidden)


def extract_docx(path: Path, *, max_bytes: int) -> ExtractedText:
    """Text of a .docx: body paragraphs and table rows in order, then footnotes.

    Headers and footers are skipped: they repeat on every page and are usually
    template text (school, course name) that would make unrelated essays look alike.
    """
    check_package(path, max_bytes)
    hidden: list[str] = []
    try:
        document = docx.Document(str(path))
        runs = RunVisibility(document)
        runs.mark(document.element.body)
        body = list(block_texts(document.element.body, runs, hidden))
        title, body = title_and_body(document, body, runs)
        paragraphs = [*body, *footnote_texts(document, runs, hidden)]
    except (KeyError, ValueError, zipfile.BadZipFile, etree.XMLSyntaxError) as error:
        raise ExtractionError(_NOT_DOCX) from error
    no_text = ALL_HIDDEN if hidden else "no text"
    result = build_result(title, paragraphs, "docx", no_text_message=no_text)
    return replace(result, hidden=tuple(hidden))


def title_and_body(
    document: DocxDocument, body: list[str], runs: RunVisibility | None = None
) -> tuple[str, list[str]]:
    """The title (a leading Title or Heading 1 paragraph, else the document property,
    else a leading heading line) and the body without it."""
    texts = [clean_paragraph(t) for t in body]
    first = next((i for i, t in enumerate(texts) if t), None)
    if first is None:
        return "", body
    if first_paragraph_style(document, runs) in _TITLE_STYLES:
        return texts[first], body[first + 1 :]
    title = clean_paragraph(document.core_properties.title or "")
    if title:
        return title, body[first + 1 :] if texts[first] == title else body
    return split_heading(body)


def first_paragraph_style(document: DocxDocument, runs: RunVisibility | None = None) -> str:
    """Style name of the body's first non-empty block when it is a paragraph, else ''."""
    for child in document.element.body.iterchildren():
        if child.tag == _TBL or child.tag == _SDT:
            return ""
        if child.tag == _P and paragraph_text(child, runs).strip():
            style = child.find(f"{_PPR}/{_PSTYLE}")
            if style is None:
                return ""
            names = {s.style_id: s.name for s in document.styles}
            return names.get(style.get(_VAL), "")
    return ""
