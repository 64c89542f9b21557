"""OpenDocument text (.odt: LibreOffice's and WPS's own format): body paragraphs, lists
and tables in document order, then footnotes; tracked deletions and comments left out.
Text the document does not show (a style with text:display="none", white on white, type
of 1 pt or less, hidden sections and fields) is kept apart as hidden text. With OCR on, text
in pictures (draw:image) follows the paragraph or table row holding them
(`core.read.extract.pictures`)."""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from urllib.parse import unquote

from lxml import etree
from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.read.extract.hidden import (
    ALL_HIDDEN,
    MAX_HIDDEN_POINTS,
    RGB,
    WHITE,
    hex_colour,
    length_points,
    unreadable,
)
from simsift.core.read.extract.package import open_package
from simsift.core.read.extract.paragraphs import (
    as_block_quote,
    build_result,
    clean_paragraph,
    is_quote_style,
    split_heading,
)
from simsift.core.read.extract.pictures import (
    PictureReader,
    PictureText,
    package_pictures,
    without_title,
)

_NOT_ODT = "not a valid ODT (corrupt or renamed file)"
_NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "xlink": "http://www.w3.org/1999/xlink",
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
_SECTION, _HIDDEN_TEXT, _HIDDEN_PARAGRAPH = (
    _q("text:section"),
    _q("text:hidden-text"),
    _q("text:hidden-paragraph"),
)
_DISPLAY, _IS_HIDDEN = _q("text:display"), _q("text:is-hidden")
_TABLE_STYLE = _q("table:style-name")
_STYLE_NAME, _FAMILY, _PARENT = _q("style:name"), _q("style:family"), _q("style:parent-style-name")
_STYLE_ELEMENT, _DEFAULT_STYLE = _q("style:style"), _q("style:default-style")
_TEXT_PROPS, _PARAGRAPH_PROPS = _q("style:text-properties"), _q("style:paragraph-properties")
_CELL_PROPS, _TABLE_PROPS = _q("style:table-cell-properties"), _q("style:table-properties")
_SECTION_PROPS = _q("style:section-properties")
_COLOR, _FONT_SIZE, _BACKGROUND = _q("fo:color"), _q("fo:font-size"), _q("fo:background-color")
_WINDOW_COLOR = _q("style:use-window-font-color")
_MASTER_PAGE, _PAGE_LAYOUT = _q("style:master-page"), _q("style:page-layout")
_PAGE_LAYOUT_NAME, _PAGE_PROPS = _q("style:page-layout-name"), _q("style:page-layout-properties")
_DEFAULT_POINTS = 12.0
_IMAGE, _HREF = _q("draw:image"), _q("xlink:href")


def extract_odt(path: Path, *, max_bytes: int, ocr: bool = False) -> ExtractedText:
    """Text of an .odt: paragraphs, headings, list items and table rows, then footnotes;
    with `ocr`, the text of its pictures read by OCR, each after its paragraph or row."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    try:
        with open_package(path, max_bytes, member="content.xml", label="ODT") as archive:
            content = archive.read("content.xml")
            styles_xml = archive.read("styles.xml") if "styles.xml" in archive.namelist() else b""
        root = etree.fromstring(content, parser)
    except (KeyError, zipfile.BadZipFile, etree.XMLSyntaxError) as error:
        raise ExtractionError(_NOT_ODT) from error
    body = root.find(f"{_q('office:body')}/{_q('office:text')}")
    if body is None:
        raise ExtractionError(_NOT_ODT)
    try:  # styles decide only what shows: a damaged styles.xml costs the hidden-text check
        styles_root = etree.fromstring(styles_xml, parser) if styles_xml else None
    except etree.XMLSyntaxError:
        styles_root = None
    styles = Styles.read(styles_root, root)
    notes: list[str] = []
    with package_pictures(path, ocr) as reader:
        pictures = partial(_picture_texts, reader=reader) if _has_pictures(body) else None
        blocks = list(_blocks(body, notes, styles, styles.page, pictures))
    title, paragraphs = _title_and_pictured_body(blocks)
    no_text = ALL_HIDDEN if styles.hidden else "no text"
    try:
        result = build_result(title, [*paragraphs, *notes], "odt", no_text_message=no_text)
    except ExtractionError as error:
        reader.raise_no_text(error)
    return reader.marked(replace(result, hidden=tuple(styles.hidden)))


PictureTexts = Callable[[etree._Element], list[PictureText]]


def _has_pictures(body: etree._Element) -> bool:
    return next(body.iter(_IMAGE), None) is not None


def _picture_texts(element: etree._Element, reader: PictureReader) -> list[PictureText]:
    """Text read from the pictures in `element` (the package's Pictures/...), in order."""
    return [
        text
        for image in element.iter(_IMAGE)
        for text in reader.paragraphs(unquote(image.get(_HREF, "")).removeprefix("./"))
    ]


@dataclass(frozen=True, slots=True)
class Look:
    """What decides whether text shows: display, colour (None: automatic), size in points,
    and the colour behind it."""

    shown: bool = True
    colour: RGB | None = None
    points: float = _DEFAULT_POINTS
    background: RGB = WHITE

    def hides(self) -> bool:
        return (
            not self.shown
            or self.points <= MAX_HIDDEN_POINTS
            or (self.colour is not None and unreadable(self.colour, self.background))
        )


_SHOWN = Look()


@dataclass
class Styles:
    """The document's styles by (family, name), their parents, and the hidden text found."""

    styles: dict[tuple[str, str], etree._Element] = field(default_factory=dict)
    defaults: dict[str, etree._Element] = field(default_factory=dict)
    page: Look = field(default_factory=Look)
    hidden: list[str] = field(default_factory=list)
    applied: dict[tuple[Look, str, str | None], Look] = field(default_factory=dict)

    @classmethod
    def read(cls, styles_root: etree._Element | None, content_root: etree._Element) -> Styles:
        """Common styles of styles.xml and automatic styles of content.xml (those of
        styles.xml style its headers and footers, which are not read)."""
        found = cls()
        sources = []
        if styles_root is not None:
            sources.append(styles_root.find(_q("office:styles")))
        sources.append(content_root.find(_q("office:automatic-styles")))
        for source in sources:
            if source is None:
                continue
            for style in source.iterchildren(_STYLE_ELEMENT, _DEFAULT_STYLE):
                family = style.get(_FAMILY, "")
                if style.tag == _DEFAULT_STYLE:
                    found.defaults[family] = style
                else:
                    found.styles[(family, style.get(_STYLE_NAME, ""))] = style
        if styles_root is not None:
            found.page = Look(background=_page_background(styles_root))
        return found

    def apply(self, look: Look, family: str, name: str | None) -> Look:
        """`look` changed by the named style of `family` (and the styles it inherits)."""
        key = (look, family, name)
        if key not in self.applied:
            self.applied[key] = self._apply(look, family, name)
        return self.applied[key]

    def block_quote(self, name: str | None) -> bool:
        """Whether the paragraph style (or one it inherits) sets a block quotation; an
        automatic style ("P3") carries the name of the style it was made from as its
        parent ("Quotations")."""
        chain = self._chain("paragraph", name)
        names = [name or "", *(style.get(_PARENT, "") for style in chain)]
        return any(is_quote_style(n.replace("_20_", " ")) for n in names)

    def _chain(self, family: str, name: str | None) -> list[etree._Element]:
        chain: list[etree._Element] = []
        style = self.styles.get((family, name)) if name else None
        while style is not None and style not in chain and len(chain) < 32:
            chain.append(style)
            parent = style.get(_PARENT)
            style = self.styles.get((family, parent)) if parent else None
        return chain

    def _apply(self, look: Look, family: str, name: str | None) -> Look:
        chain = self._chain(family, name)
        if family == "paragraph" and family in self.defaults:
            chain.append(self.defaults[family])
        for style in reversed(chain):
            look = _with_style(look, style)
        return look


def _with_style(look: Look, style: etree._Element) -> Look:
    """`look` changed by one style's own text, paragraph, cell and table properties."""
    changes: dict = {}
    for props in style.iterchildren(_PARAGRAPH_PROPS, _CELL_PROPS, _TABLE_PROPS, _SECTION_PROPS):
        background = props.get(_BACKGROUND)
        if background and background != "transparent" and (colour := hex_colour(background)):
            changes["background"] = colour
    text = style.find(_TEXT_PROPS)
    if text is not None:
        display = text.get(_DISPLAY)
        if display is not None:
            changes["shown"] = display != "none"
        background = text.get(_BACKGROUND)
        if background and background != "transparent" and (colour := hex_colour(background)):
            changes["background"] = colour
        if text.get(_WINDOW_COLOR) == "true":
            changes["colour"] = None
        elif text.get(_COLOR):
            changes["colour"] = hex_colour(text.get(_COLOR))
        points = length_points(text.get(_FONT_SIZE), look.points)
        if points is not None:
            changes["points"] = points
    return replace(look, **changes) if changes else look


def _page_background(styles_root: etree._Element) -> RGB:
    """Background colour of the first master page's page layout (white when none)."""
    master = next(styles_root.iter(_MASTER_PAGE), None)
    if master is None:
        return WHITE
    for layout in styles_root.iter(_PAGE_LAYOUT):
        if layout.get(_STYLE_NAME) == master.get(_PAGE_LAYOUT_NAME):
            props = layout.find(_PAGE_PROPS)
            colour = props.get(_BACKGROUND) if props is not None else None
            return (hex_colour(colour) if colour and colour != "transparent" else None) or WHITE
    return WHITE


def _blocks(
    container: etree._Element,
    notes: list[str],
    styles: Styles | None = None,
    look: Look = _SHOWN,
    pictures: PictureTexts | None = None,
) -> Iterator[tuple[str, bool]]:
    """(text, is a title) of each paragraph or table row, descending into lists and sections.

    With `styles`, paragraphs and spans the document does not show go to `styles.hidden`.
    With `pictures`, the text of the pictures of each paragraph shown follows it.
    """
    for child in container.iterchildren():
        if child.tag in _SKIPPED:
            continue
        if child.tag in (_P, _H):
            if styles is None:
                yield _paragraph_text(child, notes), _is_title(child)
                continue
            p_look = styles.apply(look, "paragraph", child.get(_STYLE))
            if p_look.hides() or _hidden_paragraph(child):
                _keep_hidden(styles, _paragraph_text(child, notes))
                continue
            text = _paragraph_text(child, notes, styles, p_look)
            if styles.block_quote(child.get(_STYLE)):
                text = as_block_quote(text)
            yield text, _is_title(child)
            if pictures is not None:
                yield from ((text, False) for text in pictures(child))
        elif child.tag == _TABLE:
            t_look = styles.apply(look, "table", child.get(_TABLE_STYLE)) if styles else look
            rows = _table_rows(child, notes, styles, t_look, pictures)
            yield from ((row, False) for row in rows)
        elif child.tag == _SECTION and styles is not None:
            s_look = styles.apply(look, "section", child.get(_STYLE))
            if child.get(_DISPLAY) == "none" or child.get(_IS_HIDDEN) == "true":
                s_look = replace(s_look, shown=False)
            if s_look.shown:
                yield from _blocks(child, notes, styles, s_look, pictures)
            else:
                for text, _ in _blocks(child, notes):
                    _keep_hidden(styles, text)
        elif child.tag == _IMAGE and pictures is not None:  # in a frame anchored to the page
            yield from ((text, False) for text in pictures(child))
        else:  # lists, list items, sections, table headers, frames: their paragraphs in order
            yield from _blocks(child, notes, styles, look, pictures)


def _hidden_paragraph(p: etree._Element) -> bool:
    """Whether the paragraph holds a hidden-paragraph field that hides it."""
    return any(f.get(_IS_HIDDEN) == "true" for f in p.iterchildren(_HIDDEN_PARAGRAPH))


def _keep_hidden(styles: Styles, text: str) -> None:
    if text := clean_paragraph(text):
        styles.hidden.append(text)


def _is_title(p: etree._Element) -> bool:
    if p.tag == _H:
        return p.get(_OUTLINE_LEVEL, "1") == "1"
    return p.get(_STYLE, "") == "Title"


def _paragraph_text(
    p: etree._Element, notes: list[str], styles: Styles | None = None, look: Look = _SHOWN
) -> str:
    """Visible text of one paragraph; its footnotes' text goes to `notes`. With `styles`,
    spans `look` (the paragraph's) and their styles hide go to `styles.hidden`."""
    parts = [p.text or ""]
    for child in p.iterchildren():
        if child.tag == _NOTE:
            body = child.find(_NOTE_BODY)
            if body is not None:
                notes.extend(
                    text
                    for text, _ in _blocks(body, notes, styles, styles.page if styles else _SHOWN)
                )
        elif child.tag == _S:
            parts.append(" " * int(child.get(_q("text:c"), "1")))
        elif child.tag in (_TAB, _BREAK):
            parts.append(" ")
        elif styles is not None and child.tag == _HIDDEN_TEXT:
            text = _paragraph_text(child, notes) or child.get(_q("text:string-value"), "")
            if child.get(_IS_HIDDEN) == "false":
                parts.append(text)
            else:
                _keep_hidden(styles, text)
        elif child.tag not in _SKIPPED:  # spans, links, fields
            if styles is None:
                parts.append(_paragraph_text(child, notes))
            else:
                span_look = styles.apply(look, "text", child.get(_STYLE))
                if span_look.hides():
                    _keep_hidden(styles, _paragraph_text(child, notes))
                else:
                    parts.append(_paragraph_text(child, notes, styles, span_look))
        parts.append(child.tail or "")
    return "".join(parts)


def _table_rows(
    table: etree._Element,
    notes: list[str],
    styles: Styles | None = None,
    look: Look = _SHOWN,
    pictures: PictureTexts | None = None,
) -> Iterator[str]:
    """One paragraph per row (cells joined by spaces), as for DOCX, then the text of the
    row's pictures."""
    for row in table.iter(_ROW):
        cells, pictured = [], []
        for cell in row.iterchildren(_CELL):
            texts = [
                text
                for text, _ in _blocks(
                    cell, notes, styles, _cell_look(cell, styles, look), pictures
                )
            ]
            cells.append(" ".join(t for t in texts if not isinstance(t, PictureText)))
            pictured.extend(t for t in texts if isinstance(t, PictureText))
        yield " ".join(cells)
        yield from pictured


def _cell_look(cell: etree._Element, styles: Styles | None, look: Look) -> Look:
    return styles.apply(look, "table-cell", cell.get(_TABLE_STYLE)) if styles else look


def _title_and_pictured_body(blocks: list[tuple[str, bool]]) -> tuple[str, list[str]]:
    """`_title_and_body` of the document's own text; text read from pictures stays in place
    and is never the title."""
    own = [block for block in blocks if not isinstance(block[0], PictureText)]
    title, rest = _title_and_body(own)
    if len(own) == len(blocks):
        return title, rest
    return title, without_title([text for text, _ in blocks], title)


def _title_and_body(blocks: list[tuple[str, bool]]) -> tuple[str, list[str]]:
    """A leading Title or level-1 heading is the title; else a leading heading line."""
    first = next((i for i, (text, _) in enumerate(blocks) if clean_paragraph(text)), None)
    texts = [text for text, _ in blocks]
    if first is not None and blocks[first][1]:
        return clean_paragraph(texts[first]), texts[first + 1 :]
    return split_heading(texts)
