"""Hidden text: what a file holds but does not show is left out of the paragraphs (so the
comparison never sees it) and handed on as `ExtractedText.hidden`; text that shows (white
on a dark cell or page, light grey, a scan's OCR layer) stays text.

Samples: tests/data/extract/hidden_text.* and dark_mode.html, made by
`python tests/data/make_samples.py --hidden-only`.
"""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import RGBColor
from lxml import etree
from simsift.core.document import MAX_FILE_BYTES, ExtractionError
from simsift.core.read.extract import docx as docx_reader
from simsift.core.read.extract import extract
from simsift.core.read.extract import html as html_reader
from simsift.core.read.extract import odt as odt_reader
from simsift.core.read.extract import pdf as pdf_reader
from simsift.core.read.extract.docx_parts import read_parts
from simsift.core.read.extract.hidden import contrast, css_colour, length_points, unreadable
from simsift.core.text.integrity import integrity_flags

DATA = Path(__file__).resolve().parents[2] / "data" / "extract"
TITLE = "Why river deltas grow"

# Text that shows, in every sample: hidden runs are cut out of their paragraph.
SHOWN_START = (
    "Rivers carry sand and silt down to the sea. Where the current slows, the load settles.",
    "Deltas change shape every flood season. Engineers watch them closely.",
    "Some deltas grow by many metres a year.",
)
SHOWN_END = "The delta ends where the sea takes over."
WHITE_BETWEEN = "White words sit here unseen between two visible sentences on the page."
ONE_POINT = "This whole paragraph is set in one point type so nobody can read it on paper."
WHITE_PARAGRAPH = "A paragraph style makes this entire paragraph white on the white page."
GHOST_CELL = "Ghost cell words are hidden inside a table cell in white."


def test_docx_hidden_white_tiny_and_styled_runs_are_hidden_text() -> None:
    result = extract(DATA / "hidden_text.docx")
    assert result.title == TITLE
    assert result.paragraphs == (
        *SHOWN_START,
        "Sediment builds new land.",
        # light grey shows; white on a black highlight shows
        "Light grey notes like this one stay readable. White on a black highlight shows.",
        "Dark header cell Plain cell text",  # white text in a dark-shaded cell shows
        "Second row visible",
        SHOWN_END,
    )
    assert result.hidden == (
        "This sentence was copied from a source and hidden with the hidden font setting.",
        WHITE_BETWEEN,
        ONE_POINT,
        "A character style hides this clause through its style definition only.",
        WHITE_PARAGRAPH,
        "Nearly white text is as good as invisible on a white page.",
        GHOST_CELL,
    )


def test_odt_styles_that_hide_text_are_hidden_text() -> None:
    result = extract(DATA / "hidden_text.odt")
    assert result.title == TITLE
    assert result.paragraphs == (
        *SHOWN_START,
        "Light grey notes like this one stay readable.",
        "Dark header cell Plain cell text",
        "Second row visible",
        SHOWN_END,
    )
    assert result.hidden == (
        "This sentence was copied from a source and hidden with a style that does not display.",
        WHITE_BETWEEN,
        ONE_POINT,
        "A common style hides this clause through its style definition only.",  # styles.xml
        WHITE_PARAGRAPH,
        GHOST_CELL,
        "A hidden section keeps a whole passage out of sight of every reader.",
    )


def test_html_inline_styles_and_hidden_attribute_hide_text() -> None:
    result = extract(DATA / "hidden_text.html")
    assert result.title == TITLE
    assert result.paragraphs == (
        *SHOWN_START,
        "Sediment builds new land.",
        "White on a dark badge shows. Light grey notes like this one stay readable.",
        "White text in a black table cell is easy to read.",
        SHOWN_END,
    )
    assert result.hidden == (
        "This sentence was copied from a source and hidden with display none.",
        WHITE_BETWEEN,
        "This whole paragraph is set in zero size type so nobody can read it on screen.",
        "A clause made fully transparent stays in the page source only.",
        "The hidden attribute keeps this whole paragraph out of every browser view.",
        "Visibility hidden leaves an empty gap where these words would be.",
        "An old font tag paints these words white on the white page.",
    )
    # <script> and <style> are never page text: dropped, and not hidden text either
    assert not any("Scripts" in h or "line-height" in h for h in result.hidden)


def test_html_white_text_on_a_dark_page_shows() -> None:
    result = extract(DATA / "dark_mode.html")
    assert result.hidden == ()
    assert result.paragraphs == (
        "Rivers carry sand and silt down to the sea. "
        "Bright white words stand out on the dark page.",
        "Deltas change shape every flood season, and engineers watch them closely.",
        SHOWN_END,
    )


def test_pdf_invisible_white_tiny_and_off_page_text_is_hidden_text() -> None:
    result = extract(DATA / "hidden_text.pdf")
    assert result.title == TITLE
    assert result.paragraphs == (
        "Rivers carry sand and silt down to the sea.",
        "Deltas change shape every flood season.",
        "Some deltas grow by many metres a year.",
        "White on a dark bar shows.",  # white on a dark filled rectangle
        SHOWN_END,
        "Scanned words under an OCR layer.",  # render mode 3 over a picture: OCR text
        "A caption under the scanned picture.",
    )
    assert sorted(result.hidden) == sorted(
        (
            "This line is drawn in render mode three and never shows.",
            "White words sit here unseen between two visible lines.",
            "Half point type is a hairline on paper and on screen.",
            "These words are placed beyond the right edge of the page.",
            "Below the crop box these words are cut from every view.",  # outside the crop box
        )
    )


@pytest.mark.parametrize("suffix", ["docx", "odt", "html", "pdf"])
def test_hidden_text_is_flagged_for_the_teacher(suffix: str) -> None:
    flags = integrity_flags(extract(DATA / f"hidden_text.{suffix}"))
    assert [f for f in flags if f.startswith("hidden text: ")], flags


# Clean documents: nothing hidden, and the paragraphs are those read without the check.


@pytest.mark.parametrize("stem", ["article_en", "article_zh"])
@pytest.mark.parametrize("suffix", ["docx", "odt", "html", "pdf", "rtf"])
def test_clean_samples_have_no_hidden_text(stem: str, suffix: str) -> None:
    result = extract(DATA / f"{stem}.{suffix}")
    assert result.hidden == ()
    assert not [f for f in integrity_flags(result) if f.startswith("hidden text")]


@pytest.mark.parametrize(
    "name", ["repost_en_chrome.html", "repost_zh_gbk_nometa.html", "repost_zh_gbk_wrongmeta.html"]
)
def test_real_pages_with_chrome_have_no_hidden_text(name: str) -> None:
    assert extract(DATA / name).hidden == ()


@pytest.mark.parametrize("stem", ["article_en", "article_zh"])
def test_clean_docx_paragraphs_are_unchanged(stem: str) -> None:
    parts = read_parts(DATA / f"{stem}.docx", MAX_FILE_BYTES)
    body = parts.document.find(qn("w:body"))
    unchecked = [t for t in docx_reader.block_texts(body) if t.strip()]
    runs = docx_reader.RunVisibility(docx_reader.style_sheet(parts.styles), parts.document)
    checked = list(docx_reader.block_texts(body, runs, []))
    assert [t for t in checked if t.strip()] == unchecked


@pytest.mark.parametrize("stem", ["article_en", "article_zh"])
def test_clean_odt_html_pdf_paragraphs_are_unchanged(
    stem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = {suffix: extract(DATA / f"{stem}.{suffix}") for suffix in ("odt", "html", "pdf")}
    monkeypatch.setattr(odt_reader.Look, "hides", lambda self: False)
    monkeypatch.setattr(html_reader, "element_hides", lambda element, white=True: False)
    monkeypatch.setattr(pdf_reader, "split_unseen", lambda drawn, modes, area: (list(drawn), []))
    for suffix, result in results.items():
        assert extract(DATA / f"{stem}.{suffix}").paragraphs == result.paragraphs, suffix


# DOCX: backgrounds decide whether white text shows


def _docx_with_white_cell(tmp_path: Path, table_style: str | None) -> Path:
    document = docx.Document()
    document.add_paragraph("An essay about the weather in spring and in autumn.")
    table = document.add_table(rows=2, cols=1)
    if table_style:
        table.style = document.styles[table_style]
    run = table.cell(0, 0).paragraphs[0].add_run("White heading words in the first row")
    run.font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
    table.cell(1, 0).paragraphs[0].add_run("Body row")
    path = tmp_path / "table.docx"
    document.save(str(path))
    return path


def test_docx_white_text_in_a_shaded_table_style_shows(tmp_path: Path) -> None:
    # Word's "Medium Shading 1 Accent 1" paints its header row dark blue
    result = extract(_docx_with_white_cell(tmp_path, "Medium Shading 1 Accent 1"))
    assert "White heading words in the first row" in result.paragraphs
    assert result.hidden == ()


def test_docx_white_text_in_a_plain_table_is_hidden(tmp_path: Path) -> None:
    result = extract(_docx_with_white_cell(tmp_path, "Table Grid"))
    assert "Body row" in result.paragraphs
    assert result.hidden == ("White heading words in the first row",)


def test_docx_dark_page_background_shows_white_text(tmp_path: Path) -> None:
    document = docx.Document()
    background = OxmlElement("w:background")
    background.set(qn("w:color"), "1E1E1E")
    document.element.insert(0, background)  # w:background comes before w:body
    paragraph = document.add_paragraph()
    paragraph.add_run("White words on a page painted dark grey.").font.color.rgb = RGBColor(
        0xFF, 0xFF, 0xFF
    )
    path = tmp_path / "dark.docx"
    document.save(str(path))
    result = extract(path)
    assert result.paragraphs == ("White words on a page painted dark grey.",)
    assert result.hidden == ()


# HTML: what counts as hidden by style


def _element(markup: str) -> etree._Element:
    root = html_reader.parse_html(f"<html><body>{markup}</body></html>")
    return root.find("body")[0]


@pytest.mark.parametrize(
    "markup",
    [
        '<p style="display:none">x</p>',
        '<p style="DISPLAY: None !important">x</p>',
        '<p style="visibility: hidden">x</p>',
        '<p style="opacity:0">x</p>',
        '<p style="font-size: 1px">x</p>',
        '<p style="font-size:0">x</p>',
        '<p style="color: rgb(255, 255, 255)">x</p>',
        '<p style="color:#fefefe">x</p>',
        "<p hidden>x</p>",
    ],
)
def test_html_styles_that_hide(markup: str) -> None:
    assert html_reader.element_hides(_element(markup))


@pytest.mark.parametrize(
    "markup",
    [
        '<p style="display:block">x</p>',
        '<p style="opacity:0.8">x</p>',
        '<p style="font-size: 9px">x</p>',
        '<p style="color:#999">x</p>',
        '<p style="color:yellow">x</p>',
        '<p style="color: rgba(255,255,255,0.2)">x</p>',  # see-through: shows what is behind
        '<div style="background:#000"><p style="color:#fff">x</p></div>',
        '<div style="background: url(bg.png)"><p style="color:#fff">x</p></div>',
        '<p style="color:#fff">x <b style="color:#000">y</b></p>',  # an inner colour shows
        '<p style="visibility:hidden">x <b style="visibility:visible">y</b></p>',
    ],
)
def test_html_styles_that_show(markup: str) -> None:
    assert not html_reader.element_hides(_element(markup))


@pytest.mark.parametrize(
    "head",
    [
        '<meta name="color-scheme" content="dark light">',
        '<link rel="stylesheet" href="site.css">',
        "<style>.page { background-color: #202124 }</style>",
    ],
)
def test_html_white_text_counts_as_shown_when_the_page_may_be_dark(head: str) -> None:
    prose = "A long enough paragraph of ordinary prose about rivers, deltas and the sea. " * 3
    page = (
        f"<html><head>{head}</head><body><div class=page><p>{prose}</p>"
        f'<p style="color:#ffffff">White words the page shows on its dark background.</p>'
        f"</div></body></html>"
    )
    result = html_reader.extract_html(page.encode())
    assert result.hidden == ()
    assert "White words the page shows on its dark background." in result.paragraphs


def test_html_hidden_text_in_navigation_is_not_reported() -> None:
    """A hidden drop-down menu is boilerplate: dropped with the navigation, not flagged."""
    prose = "A long enough paragraph of ordinary prose about rivers, deltas and the sea. " * 3
    page = (
        "<html><body><nav><ul style='display:none'><li>Home</li><li>About our site</li>"
        f"<li>Contact the editors of this site</li></ul></nav><article><p>{prose}</p>"
        "</article></body></html>"
    )
    result = html_reader.extract_html(page.encode())
    assert result.hidden == ()


def test_html_page_hidden_until_its_scripts_run_is_read() -> None:
    """Anti-flicker snippets hide the whole body until scripts show it: not hidden text."""
    prose = "A long enough paragraph of ordinary prose about rivers, deltas and the sea. " * 3
    for attributes in ('style="display:none"', 'style="opacity:0"', "hidden"):
        page = f"<html><body {attributes}><article><p>{prose}</p></article></body></html>"
        result = html_reader.extract_html(page.encode())
        assert result.paragraphs == (prose.strip(),)
        assert result.hidden == ()


# Shared colour and size tests


def test_colour_contrast() -> None:
    white, black = (1.0, 1.0, 1.0), (0.0, 0.0, 0.0)
    assert round(contrast(white, black)) == 21
    assert unreadable(white, white)
    assert unreadable((0.96, 0.96, 0.96), white)
    assert not unreadable((0.75, 0.75, 0.75), white)
    assert not unreadable(white, (0.12, 0.22, 0.39))
    assert not unreadable((1.0, 1.0, 0.0), white)  # yellow on white: faint, but shows
    assert css_colour("#FFF") == white
    assert css_colour("White") == white
    assert css_colour("rgb(100%, 100%, 100%)") == white
    assert css_colour("currentColor") is None


def test_length_points() -> None:
    assert length_points("1pt") == 1
    assert length_points("0") == 0
    assert length_points("1px") == 0.75
    assert length_points("50%", 12) == 6
    assert length_points("0.05em", 12) == pytest.approx(0.6)
    assert length_points("12") is None
    assert length_points("large") is None


def test_a_file_whose_text_is_all_hidden_says_so(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph().add_run("Every word of this essay is hidden.").font.hidden = True
    path = tmp_path / "all_hidden.docx"
    document.save(str(path))
    with pytest.raises(ExtractionError, match="all of the file's text is hidden"):
        extract(path)
    page = (
        b"<html><body><p style='display:none'>Every word of this page is hidden.</p></body></html>"
    )
    with pytest.raises(ExtractionError, match="all of the file's text is hidden"):
        html_reader.extract_html(page)
