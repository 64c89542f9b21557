"""The DOCX reader (lxml over the package's parts) against python-docx's own reading of
documents python-docx writes: paragraphs, headings, tables (nested too), tabs and breaks,
and runs hidden by their own properties, by a character style or by a paragraph style.

The oracle takes each run's text and properties from python-docx's objects
(`run.font`, `run.style`, `paragraph.style` and their `base_style` chains) and applies the
rules of `core.read.extract.hidden` by hand.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.shared import Pt, RGBColor
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simsift.core.document import ExtractionError
from simsift.core.read.extract import docx_parts, extract
from simsift.core.read.extract.hidden import hex_colour, unreadable
from simsift.core.read.extract.paragraphs import as_block_quote, clean_paragraph, is_quote_style

WORDS = ["river", "delta", "silt", "flood", "sea", "sand", "年", "河流", "current", "land"]
# (name, what the run's own properties are): colours near white hide, light grey shows
LOOKS = ["plain", "hidden", "white", "near-white", "light-grey", "red", "tiny", "quiet", "small"]
PARAGRAPH_STYLES = [None, "Heading 1", "Heading 2", "Title", "Quote", "Pale", "Body"]


def text_strategy() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join)


run_strategy = st.tuples(
    text_strategy(), st.sampled_from(LOOKS), st.sampled_from(["", "tab", "br"])
)
paragraph_strategy = st.tuples(
    st.sampled_from(PARAGRAPH_STYLES), st.lists(run_strategy, min_size=1, max_size=5)
)
table_strategy = st.lists(
    st.lists(st.lists(run_strategy, min_size=1, max_size=3), min_size=1, max_size=3),
    min_size=1,
    max_size=3,
).filter(lambda rows: len({len(r) for r in rows}) == 1)
block_strategy = st.one_of(
    paragraph_strategy.map(lambda p: ("p", p)),
    st.tuples(table_strategy, st.booleans()).map(lambda t: ("t", t)),
)


def add_runs(paragraph, runs) -> None:
    for text, look, extra in runs:
        run = paragraph.add_run(text) if look != "quiet" else paragraph.add_run(text, "Quiet")
        if look == "hidden":
            run.font.hidden = True
        elif look in ("white", "near-white", "light-grey", "red"):
            rgb = {"white": "FFFFFF", "near-white": "F5F5F5", "light-grey": "E0E0E0"}
            run.font.color.rgb = RGBColor.from_string(rgb.get(look, "FF0000"))
        elif look == "tiny":
            run.font.size = Pt(1)
        elif look == "small":
            run.font.size = Pt(6)
        if extra == "tab":
            run.add_tab()
            run.add_text("x")
        elif extra == "br":
            run.add_break()
            run.add_text("y")


def write(path: Path, blocks) -> docx.document.Document:
    document = docx.Document()
    document.core_properties.title = ""
    quiet = document.styles.add_style("Quiet", WD_STYLE_TYPE.CHARACTER)
    quiet.font.hidden = True
    pale = document.styles.add_style("Pale", WD_STYLE_TYPE.PARAGRAPH)
    pale.font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
    body = document.styles.add_style("Body", WD_STYLE_TYPE.PARAGRAPH)
    body.base_style = pale  # white through its basedOn chain
    body.font.size = Pt(11)
    for kind, block in blocks:
        if kind == "p":
            style, runs = block
            add_runs(document.add_paragraph(style=style), runs)
        else:
            rows, nested = block
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, runs in enumerate(row):
                    add_runs(table.cell(r, c).paragraphs[0], runs)
            if nested:
                inner = table.cell(0, 0).add_table(rows=1, cols=1)
                add_runs(inner.cell(0, 0).paragraphs[0], rows[0][0])
    document.save(str(path))
    return docx.Document(str(path))


def _chain(style):
    while style is not None:
        yield style
        style = style.base_style


def _first(values):
    return next((v for v in values if v is not None), None)


def run_hidden(run, paragraph) -> bool:
    """Whether Word hides a run, from python-docx's objects: own > character style >
    paragraph style properties."""
    fonts = [
        run.font,
        *(s.font for s in _chain(run.style)),
        *(s.font for s in _chain(paragraph.style)),
    ]
    if _first(f.hidden for f in fonts):
        return True
    size = _first(f.size for f in fonts)
    if size is not None and size <= Pt(1):
        return True
    colour = _first(f.color.rgb if f.color.type is not None else None for f in fonts)
    return colour is not None and unreadable(hex_colour(str(colour)))


def paragraph_texts(paragraph, hidden: list[str]) -> str:
    shown, unseen = [], []
    for run in paragraph.runs:
        if run_hidden(run, paragraph):
            unseen.append(run.text)
            continue
        if unseen and run.text.strip():
            hidden.append(clean_paragraph("".join(unseen)))
            unseen = []
        shown.append(run.text)
    if unseen:
        hidden.append(clean_paragraph("".join(unseen)))
    return "".join(shown)


def table_texts(table, hidden: list[str]) -> list[str]:
    """One text per row, cells joined; a cell's nested tables follow its row (their
    hidden text comes after the cell's own)."""
    rows = []
    for row in table.rows:
        cells, nested = [], []
        for cell in row.cells:
            cells.append(" ".join(paragraph_texts(p, hidden) for p in cell.paragraphs))
            for inner in cell.tables:
                nested.extend(table_texts(inner, hidden))
        rows.extend([" ".join(cells), *nested])
    return rows


def oracle(document) -> tuple[list[str], list[str]]:
    """(non-empty blocks, hidden pieces) as python-docx reads the document."""
    hidden: list[str] = []
    blocks: list[str] = []
    for item in document.iter_inner_content():
        if isinstance(item, docx.table.Table):
            blocks.extend(table_texts(item, hidden))
        else:
            text = paragraph_texts(item, hidden)
            if any(is_quote_style(style.name) for style in _chain(item.style)):
                text = as_block_quote(text)  # a block quotation reads between marks
            blocks.append(text)
    return [b for b in map(clean_paragraph, blocks) if b], [h for h in hidden if h]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(block_strategy, min_size=1, max_size=8))
def test_reader_reads_what_python_docx_reads(tmp_path: Path, blocks) -> None:
    path = tmp_path / "essay.docx"
    expected, expected_hidden = oracle(write(path, blocks))
    try:
        result = extract(path)
    except ExtractionError as error:  # nothing but a title, or nothing shown
        assert len(expected) <= 1, error
        return
    # the title is the first block or none: together they are the blocks in order
    assert [t for t in (result.title, *result.paragraphs) if t] == expected
    assert list(result.hidden) == expected_hidden


def test_mixed_document_against_python_docx(tmp_path: Path) -> None:
    runs = [("the river", "plain", "tab"), ("secret copy", "hidden", ""), ("the sea", "red", "br")]
    blocks = [
        ("p", ("Title", [("Why deltas grow", "plain", "")])),
        ("p", (None, runs)),
        ("t", ([[runs, [("white cell", "white", "")]], [runs[:1], runs[2:]]], True)),
        ("p", ("Body", [("white through basedOn", "plain", "")])),
        ("p", ("Heading 2", [("Floods", "plain", ""), ("quiet clause", "quiet", "")])),
        ("p", (None, [("one point", "tiny", ""), ("shown", "light-grey", "")])),
    ]
    document = write(tmp_path / "mixed.docx", blocks)
    expected, expected_hidden = oracle(document)
    result = extract(tmp_path / "mixed.docx")
    assert result.title == "Why deltas grow"
    assert list(result.paragraphs) == expected[1:]
    assert list(result.hidden) == expected_hidden
    assert "secret copy" in result.hidden and "white through basedOn" in result.hidden


# The package: parts found through relationships, as Word finds them


def _rewrite(path: Path, change) -> None:
    with zipfile.ZipFile(path) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    change(members)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def _essay(path: Path) -> Path:
    document = docx.Document()
    document.core_properties.title = ""
    document.add_paragraph("Deltas in spring")
    document.add_paragraph("Rivers carry sand and silt down to the sea, where the current slows.")
    document.save(str(path))
    return path


def test_a_file_without_core_properties_has_no_made_up_title(tmp_path: Path) -> None:
    def drop_core(members: dict) -> None:
        del members["docProps/core.xml"]
        rels = members["_rels/.rels"].decode()
        start = rels.rindex("<Relationship", 0, rels.index("core-properties"))
        members["_rels/.rels"] = (rels[:start] + rels[rels.index("/>", start) + 2 :]).encode()

    path = _essay(tmp_path / "essay.docx")
    _rewrite(path, drop_core)
    result = extract(path)  # python-docx made up "Word Document"
    assert result.title == "Deltas in spring"


def test_a_missing_picture_does_not_stop_the_reading(tmp_path: Path) -> None:
    rel = (
        '<Relationship Id="rId99" Target="media/image1.png" Type="http://schemas.'
        'openxmlformats.org/officeDocument/2006/relationships/image"/></Relationships>'
    )
    path = _essay(tmp_path / "essay.docx")
    _rewrite(
        path,
        lambda m: m.__setitem__(
            "word/_rels/document.xml.rels",
            m["word/_rels/document.xml.rels"].replace(b"</Relationships>", rel.encode()),
        ),
    )
    assert extract(path).title == "Deltas in spring"


MAIN = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"


@pytest.mark.parametrize(
    "content_type, suffix",
    [
        ("application/vnd.ms-word.document.macroEnabled.main+xml", ".docm"),
        (
            "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
            ".dotx",
        ),
        ("application/vnd.ms-word.template.macroEnabledTemplate.main+xml", ".dotm"),
    ],
)
def test_a_macro_enabled_document_or_a_template_is_read_as_word(
    tmp_path: Path, content_type: str, suffix: str
) -> None:
    path = _essay(tmp_path / f"essay{suffix}")
    expected = extract(path)
    _rewrite(
        path,
        lambda m: m.__setitem__(
            "[Content_Types].xml", m["[Content_Types].xml"].replace(MAIN, content_type.encode())
        ),
    )
    assert extract(path).paragraphs == expected.paragraphs


def test_a_main_part_that_is_not_a_word_document_is_refused(tmp_path: Path) -> None:
    sheet = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
    path = _essay(tmp_path / "essay.docx")
    _rewrite(
        path,
        lambda m: m.__setitem__(
            "[Content_Types].xml", m["[Content_Types].xml"].replace(MAIN, sheet)
        ),
    )
    with pytest.raises(ExtractionError, match="not a valid DOCX"):
        extract(path)


def test_a_document_without_a_body_is_not_a_valid_docx(tmp_path: Path) -> None:
    path = _essay(tmp_path / "essay.docx")
    _rewrite(
        path,
        lambda m: m.__setitem__(
            "word/document.xml",
            m["word/document.xml"][: m["word/document.xml"].index(b"<w:body>")] + b"</w:document>",
        ),
    )
    with pytest.raises(ExtractionError, match="not a valid DOCX"):
        extract(path)


def _without_styles_part(members: dict) -> None:
    del members["word/styles.xml"]
    rels = members["word/_rels/document.xml.rels"].decode()
    start = rels.rindex("<Relationship", 0, rels.index('relationships/styles"'))
    members["word/_rels/document.xml.rels"] = (
        rels[:start] + rels[rels.index("/>", start) + 2 :]
    ).encode()


def test_a_file_without_styles_reads_where_python_docx_is_not_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _essay(tmp_path / "essay.docx")
    _rewrite(path, _without_styles_part)
    expected = extract(path)
    docx_parts.default_styles.cache_clear()
    monkeypatch.setitem(sys.modules, "docx", None)  # python-docx is a test dependency only
    try:
        assert extract(path) == expected
    finally:
        docx_parts.default_styles.cache_clear()
