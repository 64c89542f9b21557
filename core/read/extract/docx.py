"""Word .docx files: body paragraphs and tables in document order, then footnotes.

Text Word does not show (hidden runs, white on white, 1-pt type) is cut out of the
paragraphs and kept apart as hidden text. The parts are read with lxml
(`core.read.extract.docx_parts`), not through python-docx's objects. With OCR on, text in
the body's pictures follows the paragraph or table row holding them
(`core.read.extract.pictures`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import lru_cache, partial
from pathlib import Path

from lxml import etree
from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.read.extract.docx_parts import NOT_DOCX, PART_PARSER, read_parts
from simsift.core.read.extract.hidden import (
    ALL_HIDDEN,
    MAX_HIDDEN_POINTS,
    RGB,
    WHITE,
    hex_colour,
    unreadable,
)
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

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def qn(name: str) -> str:
    """Clark name of a WordprocessingML name: qn("w:p") is "{...main}p"."""
    return _W + name.removeprefix("w:")


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
_BODY, _NAME = qn("w:body"), qn("w:name")
# pictures: DrawingML's a:blip (r:embed) and VML's v:imagedata (r:id) name their part
_BLIP = "{http://schemas.openxmlformats.org/drawingml/2006/main}blip"
_IMAGEDATA = "{urn:schemas-microsoft-com:vml}imagedata"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_EMBED, _REL_ID = _REL + "embed", _REL + "id"
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
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


# python-docx's names for Word's built-in styles that styles.xml spells in lower case
_UI_NAMES = {"caption": "Caption", "footer": "Footer", "header": "Header"} | {
    f"heading {i}": f"Heading {i}" for i in range(1, 10)
}


class StyleSheet:
    """A document's styles (w:styles): run properties resolved through the document
    defaults and the basedOn chains, paragraph shading, which table styles shade cells.

    Answers depend on the styles alone, so documents with the same styles.xml (the same
    template) share one sheet (`style_sheet`).
    """

    def __init__(self, styles: etree._Element) -> None:
        self._styles: dict[str, etree._Element] = {
            s.get(_STYLE_ID): s for s in styles.iterchildren(_STYLE) if s.get(_STYLE_ID)
        }
        self._root = styles
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
        self._chains: dict[str | None, dict] = {}
        self._paragraphs: dict[str | None, dict] = {}
        self._shaded_table_styles: dict[str | None, bool] = {}
        self._names: dict[str | None, str | None] | None = None
        self._quotes: dict[str | None, bool] = {}

    def paragraph_props(self, style_id: str | None) -> dict:
        """Document defaults and the paragraph style's run properties."""
        if style_id not in self._paragraphs:
            own = self.style_props(style_id or self._default_paragraph_style)
            self._paragraphs[style_id] = {**self._defaults, **own}
        return self._paragraphs[style_id]

    def style_props(self, style_id: str | None) -> dict:
        """Run properties (and paragraph shading as "pshd") of a style and its basedOn chain."""
        if style_id not in self._chains:
            props: dict = {}
            for style in reversed(self._chain(style_id)):
                props.update(run_properties(style.find(_RPR)))
                shading = style.find(f"{_PPR}/{_SHD}")
                if shading is not None:
                    props["pshd"] = shading_colour(shading)
            self._chains[style_id] = props
        return self._chains[style_id]

    def shaded_table_style(self, style_id: str | None) -> bool:
        """Whether a table style (or one it is based on) shades any cell, row or band."""
        if style_id not in self._shaded_table_styles:
            self._shaded_table_styles[style_id] = any(
                shading_colour(s) not in (None, WHITE)
                for style in self._chain(style_id)
                for s in style.iter(_SHD)
            )
        return self._shaded_table_styles[style_id]

    def name(self, style_id: str | None) -> str | None:
        """A style's name as Word shows it ("Heading 1", "Title"), None when it has none."""
        if self._names is None:
            names: dict[str | None, str | None] = {}
            for style in self._root.iterchildren(_STYLE):
                name = style.find(_NAME)
                value = name.get(_VAL) if name is not None else None
                names[style.get(_STYLE_ID)] = _UI_NAMES.get(value, value) if value else value
            self._names = names
        return self._names.get(style_id, "")

    def is_quote(self, style_id: str | None) -> bool:
        """Whether the paragraph style (or one it is based on) sets a block quotation
        (asked of every paragraph, so kept by style)."""
        if style_id not in self._quotes:
            self._quotes[style_id] = any(
                is_quote_style(self.name(style.get(_STYLE_ID))) for style in self._chain(style_id)
            )
        return self._quotes[style_id]

    def _chain(self, style_id: str | None) -> list[etree._Element]:
        """The style and those it is based on, nearest first; a basedOn loop ends it."""
        chain: list[etree._Element] = []
        style = self._styles.get(style_id or "")
        while style is not None and style not in chain:
            chain.append(style)
            based_on = style.find(_BASED_ON)
            style = self._styles.get(based_on.get(_VAL) or "") if based_on is not None else None
        return chain


@lru_cache(maxsize=4)
def style_sheet(styles_xml: bytes) -> StyleSheet:
    """The sheet of a styles.xml, kept for the next files: parsing python-docx's or a big
    template's styles (some 350 KB) costs more than reading the rest of an essay, and a
    folder of essays made from one template repeats the same bytes. Four are kept: a sheet
    of 350 KB of styles holds about 5 MB."""
    return StyleSheet(etree.fromstring(styles_xml, PART_PARSER))


class RunVisibility:
    """Which runs of one document Word shows: run properties resolved through the
    document defaults, the paragraph style and the character style (with their basedOn
    chains), then the run's own; background from the run, paragraph, cell, table, page."""

    def __init__(self, styles: StyleSheet, document: etree._Element) -> None:
        self._sheet = styles
        page = document.find(_BACKGROUND)
        self._page = (hex_colour(page.get(_COLOR_ATTR)) if page is not None else None) or WHITE
        # the paragraph last asked about, its style's run properties, whether they hide a
        # run, and the colour behind its text (as a 1-tuple: None is an answer)
        self._paragraph: etree._Element | None = None
        self._marked: set[etree._Element] = set()
        self._base: dict = {}
        self._base_hides = False
        self._background: tuple[RGB | None] | None = None

    def block_quote(self, paragraph: etree._Element) -> bool:
        """Whether `paragraph` (a w:p) is styled as a block quotation."""
        return self._sheet.is_quote(_paragraph_style(paragraph))

    def hides(self, run: etree._Element, paragraph: etree._Element) -> bool:
        """Whether Word shows none of `run` (a w:r inside `paragraph`)."""
        if paragraph is not self._paragraph:  # runs come paragraph by paragraph
            self._paragraph, self._background = paragraph, None
            self._base = self._sheet.paragraph_props(_paragraph_style(paragraph))
            self._base_hides = self._props_hide(self._base, paragraph)
        # a run's own properties matter when they may hide it, or show it in a paragraph
        # whose style hides its text
        if not self._base_hides and run not in self._marked:
            return False
        rpr = _first_child(run, _RPR)
        own = run_properties(rpr) if rpr is not None else None
        if not own:
            return self._base_hides
        char_style = self._sheet.style_props(own["rstyle"]) if "rstyle" in own else {}
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

    def _paragraph_background(self, paragraph: etree._Element) -> RGB | None:
        """Colour behind a paragraph's text; None when it cannot be told (a table style's
        shading), so that light text there is taken as shown."""
        ppr = _first_child(paragraph, _PPR)
        shading = ppr.find(_SHD) if ppr is not None else None
        if shading is not None and (colour := shading_colour(shading)):
            return colour
        if colour := self._sheet.style_props(_paragraph_style(paragraph)).get("pshd"):
            return colour
        for ancestor in paragraph.iterancestors(_TC, _TBL):
            props = ancestor.find(_TCPR if ancestor.tag == _TC else _TBLPR)
            if props is None:
                continue
            shading = props.find(_SHD)
            if shading is not None and (colour := shading_colour(shading)):
                return colour
            table_style = props.find(_TBLSTYLE)
            if table_style is not None and self._sheet.shaded_table_style(table_style.get(_VAL)):
                return None
        return self._page


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


PictureTexts = Callable[[etree._Element], list[PictureText]]


def block_texts(
    container: etree._Element,
    runs: RunVisibility | None = None,
    hidden: list[str] | None = None,
    pictures: PictureTexts | None = None,
) -> Iterator[str]:
    """Paragraph texts of a body or table cell, descending into tables and content controls;
    with `pictures`, the text of each paragraph's pictures after it."""
    for child in container.iterchildren():
        if child.tag == _P:
            text = paragraph_text(child, runs, hidden)
            yield as_block_quote(text) if runs is not None and runs.block_quote(child) else text
            if pictures is not None:
                yield from pictures(child)
        elif child.tag == _TBL:
            yield from table_rows(child, runs, hidden, pictures)
        elif child.tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from block_texts(content, runs, hidden, pictures)


def table_rows(
    table: etree._Element,
    runs: RunVisibility | None = None,
    hidden: list[str] | None = None,
    pictures: PictureTexts | None = None,
) -> Iterator[str]:
    """One paragraph per table row (cells joined by spaces), then the text of the row's
    pictures; nested tables follow their row."""
    for row in table.iterchildren(_TR):
        cells, nested, pictured = [], [], []
        for cell in row.iterchildren(_TC):
            cell_paragraphs = [paragraph_text(p, runs, hidden) for p in cell.iterchildren(_P)]
            cells.append(" ".join(cell_paragraphs))
            if pictures is not None:
                pictured.extend(text for p in cell.iterchildren(_P) for text in pictures(p))
            for inner in cell.iterchildren(_TBL):
                nested.extend(table_rows(inner, runs, hidden, pictures))
        yield " ".join(cells)
        yield from pictured
        yield from nested


def picture_texts(
    element: etree._Element, images: dict[str, str], reader: PictureReader
) -> list[PictureText]:
    """Text read from the pictures in `element`, in document order. A picture in the
    mc:Fallback of an mc:AlternateContent is the one of its mc:Choice again."""
    texts: list[PictureText] = []
    for picture in element.iter(_BLIP, _IMAGEDATA):
        member = images.get(picture.get(_EMBED) or picture.get(_REL_ID) or "")
        if member and next(picture.iterancestors(_FALLBACK), None) is None:
            texts.extend(reader.paragraphs(member))
    return texts


def footnote_texts(
    footnotes: tuple[bytes, ...], runs: RunVisibility | None = None, hidden: list[str] | None = None
) -> Iterator[str]:
    """Paragraphs of real footnotes (separator pseudo-notes skipped), part by part."""
    for xml in footnotes:
        root = etree.fromstring(xml)
        if runs is not None:
            runs.mark(root)
        for note in root.iterchildren(_FOOTNOTE):
            if note.get(_FOOTNOTE_TYPE) is None:
                yield from block_texts(note, runs, hidden)


def extract_docx(path: Path, *, max_bytes: int, ocr: bool = False) -> ExtractedText:
    """Text of a .docx: body paragraphs and table rows in order, then footnotes; with `ocr`,
    the text of the body's pictures read by OCR, each after its paragraph or table row.

    Headers and footers are skipped: they repeat on every page and are usually
    template text (school, course name) that would make unrelated essays look alike.
    """
    parts = read_parts(path, max_bytes)
    body = parts.document.find(_BODY)
    if body is None:
        raise ExtractionError(NOT_DOCX)
    hidden: list[str] = []
    with package_pictures(path, ocr) as reader:
        pictures = partial(picture_texts, images=parts.images, reader=reader)
        try:
            styles = style_sheet(parts.styles)
            runs = RunVisibility(styles, parts.document)
            runs.mark(body)
            blocks = list(block_texts(body, runs, hidden, pictures if parts.images else None))
            title, blocks = title_and_pictured_body(body, blocks, styles, parts.title, runs)
            paragraphs = [*blocks, *footnote_texts(parts.footnotes, runs, hidden)]
        except (KeyError, ValueError, etree.XMLSyntaxError) as error:
            raise ExtractionError(NOT_DOCX) from error
    no_text = ALL_HIDDEN if hidden else "no text"
    try:
        result = build_result(title, paragraphs, "docx", no_text_message=no_text)
    except ExtractionError as error:
        reader.raise_no_text(error)
    return reader.marked(replace(result, hidden=tuple(hidden)))


def title_and_pictured_body(
    body_element: etree._Element,
    body: list[str],
    styles: StyleSheet,
    core_title: Callable[[], str],
    runs: RunVisibility | None = None,
) -> tuple[str, list[str]]:
    """`title_and_body` of the document's own text; text read from pictures stays in place
    and is never the title."""
    own = [text for text in body if not isinstance(text, PictureText)]
    title, rest = title_and_body(body_element, own, styles, core_title, runs)
    return (title, rest) if len(own) == len(body) else (title, without_title(body, title))


def title_and_body(
    body_element: etree._Element,
    body: list[str],
    styles: StyleSheet,
    core_title: Callable[[], str],
    runs: RunVisibility | None = None,
) -> tuple[str, list[str]]:
    """The title (a leading Title or Heading 1 paragraph, else the document property,
    else a leading heading line) and the body without it."""
    first, text = first_text(body)
    if first is None:
        return "", body
    if first_paragraph_style(body_element, styles, runs) in _TITLE_STYLES:
        return text, body[first + 1 :]
    title = clean_paragraph(core_title())
    if title:
        return title, body[first + 1 :] if text == title else body
    return split_heading(body)


def first_text(body: list[str]) -> tuple[int | None, str]:
    """Index and cleaned text of the first paragraph with text ((None, "") when none);
    the ones after it are left uncleaned (`build_result` cleans them)."""
    for i, paragraph in enumerate(body):
        if text := clean_paragraph(paragraph):
            return i, text
    return None, ""


def first_paragraph_style(
    body: etree._Element, styles: StyleSheet, runs: RunVisibility | None = None
) -> str | None:
    """Style name of the body's first non-empty block when it is a paragraph, else ''."""
    for child in body.iterchildren():
        if child.tag == _TBL or child.tag == _SDT:
            return ""
        if child.tag == _P and paragraph_text(child, runs).strip():
            style = child.find(f"{_PPR}/{_PSTYLE}")
            if style is None:
                return ""
            return styles.name(style.get(_VAL))
    return ""
