"""The HTML reader's fast paths against the plain code they replace, on tricky
pages (nested tables, hidden styles, <br> runs, entities, permalinks, code blocks, labels,
broken markup, a GBK page) and on random ones: each path must leave the tree, or give the
text, that the plain code does."""

from __future__ import annotations

import random
import re

import pytest
from lxml import etree
from simsift.core.read.extract import html
from simsift.core.read.extract.encoding import decode_bytes
from simsift.core.read.extract.html import extract_html, parse_html
from simsift.core.read.extract.paragraphs import _fold_whitespace, clean_paragraph
from simsift.core.text.spacing import keep_word_gaps

TRICKY_PAGES = (
    # nested tables, links and labels in cells, a <br> run, entities
    "<html><head><title>Tables &amp; more - Site</title></head><body>"
    "<table class='layout'><tr><td id='side'><a href='/'>Home</a><br><br><br>menu</td>"
    "<td><table><tr><td class='content'>Prose&nbsp;in a nested&#160;cell, long enough "
    "to count as prose here.<br/><br/>Second line &lt;b&gt; after a &quot;br&quot; run."
    "</td><td role='navigation'>nav cell</td></tr></table></td></tr></table></body></html>",
    # hidden styles: display, visibility with a visible child, white text, tiny type
    "<html><body><div style='display:none'>gone <b>too</b></div>"
    "<p style='visibility:hidden'>hidden <span style='visibility:visible'>shown</span></p>"
    "<p style='color:#fff'>white on white</p><p style='font-size:0.5pt'>tiny</p>"
    "<p hidden>attribute</p><h1>Heading</h1><p>Visible prose that is long enough to be"
    " scored as the main content of this page.</p></body></html>",
    # permalinks: signs alone, with spaces, inside other elements, doubled, nested links
    "<html><body><h1>Title <a href='#t'>¶</a></h1><h2>Two<a> # </a></h2>"
    "<h3>Three<a><span>§</span></a></h3><h3>Four<a>&nbsp;¶&nbsp;</a></h3>"
    "<p>Keep <a>¶¶</a> and <a>x¶</a> and <a><b>a</b>¶</a> and <a><b> </b>#<i></i></a>"
    " and <a>link text</a><a>¶<a>¶</a></a> in this long paragraph of page prose.</p>"
    "</body></html>",
    # code blocks: highlighter spans (a comment class), a link inside, a block in a link
    "<html><body><div class='post'><pre><span class='hljs-keyword'>fn</span> main() "
    "<span class='hljs-comment'>// a comment that is dropped</span>\n<a href='#'>link"
    "</a> { println!(\"hello world, this is code\"); }</pre><a href='#'><pre>code in a"
    " link that is long enough</pre></a><pre><pre>nested pre blocks with text</pre> tail"
    " of the inner pre</pre></div></body></html>",
    # labels: a section's id, the "section" class, ids and classes apart, upper case
    "<html><body><section id='tags'><p>Section about tags with enough prose to count.</p>"
    "</section><div class='section' id='nav'><p>A documentation section named nav.</p>"
    "</div><div id='NAV-bar'>menu</div><div class='post side-bar'>side</div>"
    "<div id='main' class='content'><p>The article itself, long enough to be the main "
    "content of this page, and then some more words.</p></div>"
    "<div class='hljs-comment footer_links'>foot</div><div id='' class=''>empty</div>"
    "</body></html>",
    # broken markup: unclosed tags, an early </body></html>, stray closers, a bad entity
    "<html><body><div><p>First <b>bold <i>both</p><p>Second &bogus; para</div></div>"
    "</body></html><p>Text after the end, as groff writes it, long enough to count.</p>"
    "<td>stray cell</td></span><li>stray item<ul><li>deep</ul></body>",
    # block quotations and inline quotations
    "<html><body><blockquote><p>Quoted paragraph one.</p><p>“Already marked.”</p>"
    "<blockquote><div>Inner <q>nested <q>quote</q></q></div></blockquote></blockquote>"
    "<p>After the quotation comes ordinary prose that is long enough to count.</p>"
    "</body></html>",
)


def random_page(seed: int) -> str:
    rng = random.Random(seed)
    tags = ("div", "p", "span", "a", "pre", "b", "td", "section", "li", "h1", "table", "br")
    labels = ("nav", "side_bar", "content", "section", "Tags", "post", "hljs-comment", "")
    words = ("prose", "¶", "#", "§", " ", "&nbsp;", "&amp;", "中文", "\n", "views 12", "x")

    def text() -> str:
        return "".join(rng.choice(words) for _ in range(rng.randint(0, 8)))

    def element(depth: int) -> str:
        tag = rng.choice(tags)
        attributes = ""
        for name in ("id", "class", "role", "style"):
            if rng.random() < 0.2:
                value = {"role": "navigation", "style": "display:none"}.get(name)
                attributes += f' {name}="{value or rng.choice(labels)}"'
        inner = text()
        if depth < 5:
            inner += "".join(element(depth + 1) + text() for _ in range(rng.randint(0, 3)))
        return f"<{tag}{attributes}>{inner}</{tag}>"

    body = "".join(element(0) for _ in range(rng.randint(1, 5)))
    return f"<html><head><title>{text()}</title></head><body>{body}</body></html>"


PAGES = (*TRICKY_PAGES, *(random_page(seed) for seed in range(150)))


def _tree(page: str) -> etree._Element:
    root = parse_html(page)
    etree.strip_elements(root, *html._NEVER_TEXT, with_tail=False)
    return root


@pytest.mark.parametrize("page", PAGES)
def test_text_of_is_text_content(page: str) -> None:
    for element in parse_html(page).iter():
        assert html.text_of(element) == element.text_content()


@pytest.mark.parametrize("page", PAGES)
def test_title_and_heading_are_found_where_element_paths_find_them(page: str) -> None:
    root = parse_html(page)
    assert html.body_heading(root) is root.find(".//body//h1")
    title = root.find(".//title")
    expected = clean_paragraph(title.text_content()) if title is not None else ""
    heading = root.find(".//body//h1")
    heading_text = html.heading_text(heading) if heading is not None else ""
    if expected and heading_text:
        expected = html.title_without_site_name(expected, heading_text)
    assert html.page_title(root) == (expected or heading_text)


def test_a_heading_outside_the_body_is_passed_by() -> None:
    root = etree.fromstring("<html><head><h1>head</h1></head><body><h1>body</h1></body></html>")
    assert html.body_heading(root) is root.find(".//body//h1")
    assert html.body_heading(root).text == "body"


def _reference_drop_permalinks(root: etree._Element) -> None:
    """The links whose text is one permalink sign, found by an XPath over every link."""
    for link in root.xpath("//a[contains(translate(., '#§', '¶¶'), '¶')]"):
        if len(sign := link.text_content().strip()) == 1 and sign in html._PERMALINK_SIGNS:
            link.drop_tree()


@pytest.mark.parametrize("page", PAGES)
def test_permalinks_dropped_are_the_xpath_ones(page: str) -> None:
    fast, plain = _tree(page), _tree(page)
    html.drop_permalinks(fast)
    _reference_drop_permalinks(plain)
    assert etree.tostring(fast) == etree.tostring(plain)


def test_permalinks_in_tricky_links() -> None:
    root = _tree(TRICKY_PAGES[2])
    html.drop_permalinks(root)
    kept = [html.text_of(link) for link in root.iter("a")]
    assert kept == ["¶¶", "x¶", "a¶", "link text"]


def _reference_drop_boilerplate_blocks(root: etree._Element) -> None:
    """Labels matched on "id class" together, as one string, for every labelled element."""
    for element in list(root.iter(*html._BOILERPLATE_TAGS)):
        element.drop_tree()
    page_chars = len(root.text_content())
    for element in root.xpath("descendant-or-self::*[@id or @class or @role]"):
        if element.tag in ("html", "body"):
            continue
        ident, classes = element.get("id", ""), element.get("class", "")
        if element.tag == "section" or "section" in classes.split():
            ident = ""
        labelled = html._BOILERPLATE_LABEL.search(f"{ident} {classes}") is not None
        if element.get("role") not in html._BOILERPLATE_ROLES and not labelled:
            continue
        if len(element.text_content()) < page_chars / 2:
            element.drop_tree()


@pytest.mark.parametrize("page", PAGES)
def test_boilerplate_dropped_is_what_the_joined_label_drops(page: str) -> None:
    fast, plain = _tree(page), _tree(page)
    html.drop_boilerplate_blocks(fast)
    _reference_drop_boilerplate_blocks(plain)
    assert etree.tostring(fast) == etree.tostring(plain)


def test_labels_matched_apart_as_joined() -> None:
    rng = random.Random(29)
    pieces = ("nav", "side", "bar", "_", "-", " ", "x", "ads", "section", "\n", "Tags", "é")
    for _ in range(5000):
        ident = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
        classes = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
        for tag in ("div", "section"):
            element = etree.Element(tag, {"id": ident, "class": classes})
            joined = ident
            if tag == "section" or "section" in classes.split():
                joined = ""
            expected = html._BOILERPLATE_LABEL.search(f"{joined} {classes}") is not None
            assert html._labelled_boilerplate(element) == expected, (tag, ident, classes)


@pytest.mark.parametrize("page", PAGES)
def test_scored_lengths_are_the_definition(page: str) -> None:
    root = _tree(page)
    body = root.find("body")
    own, in_link = html._own_text_lengths(body)
    expected = [(e, n) for e, n in own.items() if e not in in_link and n >= 25]
    assert html.scored_text_lengths(body) == expected


def test_a_block_of_a_hundred_thousand_children_is_scored_whole() -> None:
    # its own text is its children's tails: joined once, not added one by one (quadratic)
    body = parse_html("<html><body><div>" + "<b>x</b> tail" * 100_000 + "</div></body></html>")
    ((block, length),) = html.scored_text_lengths(body.find("body"))
    assert block.tag == "div" and length == 4 * 100_000


def test_scored_lengths_count_a_comment_s_tail_not_its_text() -> None:
    root = parse_html("<html><body><div>short <b>bold</b></div></body></html>")
    comment = etree.Comment(" a comment that is long enough to be scored as prose ")
    comment.tail = " and a tail of the comment long enough to count"
    root.find("body/div").append(comment)
    body = root.find("body")
    own, in_link = html._own_text_lengths(body)
    expected = [(e, n) for e, n in own.items() if e not in in_link and n >= 25]
    assert html.scored_text_lengths(body) == expected
    assert [e.tag for e, _ in expected] == ["div"]


def test_link_page_test_is_the_whitespace_free_share() -> None:
    rng = random.Random(3)
    for _ in range(300):
        text = "".join(rng.choice(("ab", " ", "\n", "\xa0", "中")) for _ in range(40))
        body = etree.Element("body")
        body.text = text
        for prose in range(0, len(text) + 2):
            share = html._LINK_PAGE_PROSE_SHARE
            expected = prose < share * len("".join(text.split()))
            assert html._mostly_links(body, prose) == expected


@pytest.mark.parametrize("page", PAGES)
def test_content_lines_are_the_non_blank_non_furniture_lines(page: str) -> None:
    lines = html.block_lines(_tree(page))
    lines += ["", " ", "\u3000", "views 12", "阅读 12", "Share", "x" * 121, " 2 comments "]
    expected = [p for p in lines if not p.isspace() and p and not html.is_furniture(p)]
    assert html.content_lines(lines) == expected


def test_fold_whitespace_is_the_regex_fold() -> None:
    every_space = [c for c in map(chr, range(0x110000)) if c.isspace()]
    assert all(re.fullmatch(r"\s", c) for c in every_space)
    rng = random.Random(11)
    alphabet = [*every_space, "a", "é", "中", "\u00ad", "\u200b", "e s s a y"]
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        assert _fold_whitespace(text) == re.sub(r"\s{2,}|[^\S ]", " ", text)
        plain = keep_word_gaps(text.replace("\u00ad", ""), lambda t: re.sub(r"\s+", " ", t))
        assert clean_paragraph(text) == plain.strip()


def test_ids_left_uncollected_still_warn_of_depth() -> None:
    # libxml2 logs at most 100 "ID already defined" errors; the depth error is fatal
    page = "<html><body>" + "<p id='a'>x</p>" * 150 + "<div>" * 2100 + "deep</body></html>"
    warnings: list[str] = []
    parse_html(page, warnings)
    assert warnings == [html._TOO_DEEP]


@pytest.mark.parametrize("page", PAGES[:3])
def test_ids_left_uncollected_leave_the_same_tree(page: str) -> None:
    page = page.replace("<p", "<p id='same'")  # repeated ids, logged when collected
    options = {"remove_comments": True, "remove_pis": True, "huge_tree": True}
    parser = etree.HTMLParser(encoding="utf-8", collect_ids=True, **options)
    collected = etree.fromstring(html._without_early_end(page), parser=parser)
    assert etree.tostring(parse_html(page)) == etree.tostring(collected)


def test_gbk_page_decodes_by_its_meta_charset() -> None:
    prose = "这是一个用国标码写的段落，足够长，可以算作正文内容。" * 5
    text = "<html><head><meta charset='gbk'><title>中文标题</title></head><body>"
    text += f"<div><p>{prose}</p></div></body></html>"
    data = text.encode("gbk")  # not UTF-8: read by its declaration, after UTF-8 fails
    assert decode_bytes(data, html.declared_charset(data)) == text
    result = extract_html(data)
    assert (result.title, result.paragraphs) == ("中文标题", (prose,))


@pytest.mark.parametrize(
    "data",
    [
        "<p>café prose ¶ long enough to be a paragraph of text, yes indeed.</p>".encode(),
        b"<p>caf\xc3\xa9 " * 20 + b"\xff one broken byte in mostly UTF-8 text</p>",
        "<p>\ufeffBOM and text after it, long enough to be prose.</p>".encode("utf-8-sig"),
    ],
)
def test_utf8_pages_decode_as_before(data: bytes) -> None:
    try:
        expected = data.decode("utf-8")
    except UnicodeDecodeError:
        expected = data.decode("utf-8", errors="replace")
    if data.startswith(b"\xef\xbb\xbf"):
        expected = data[3:].decode("utf-8")
    assert decode_bytes(data) == expected
