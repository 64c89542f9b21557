"""HTML main content on small pages written here: what is kept, what is dropped, the title."""

from __future__ import annotations

import pytest
from simsift.core.read.extract.html import extract_html, is_furniture

# A Sphinx page: top and bottom navigation bars, a sidebar with the table of contents,
# a footer, and an article split over sections, API entries (dl/dt/dd) and code blocks.
# One section holds most of the prose, as the node reference does in Python's ast page.
SPHINX_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8">
<title>walker — Walking trees &#8212; Toolkit 3.2 documentation</title></head>
<body>
<div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3>
<ul><li><a href="genindex.html">index</a></li><li><a href="modules.html">modules</a> |</li>
<li><a href="next.html">next</a> |</li><li>Toolkit 3.2 Documentation &#187;</li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper">
<div class="body" role="main">
<section id="walker">
<h1>walker — Walking trees<a class="headerlink" href="#walker">¶</a></h1>
<p><strong>Source code:</strong> <a href="src/walker.py">src/walker.py</a></p>
<p>The walker module visits every node of a syntax tree in a fixed order and lets
callers rewrite the nodes it meets along the way.</p>
<section id="usage"><h2>Usage<a class="headerlink" href="#usage">¶</a></h2>
<p>Create a walker once and call it on as many trees as needed; it keeps no state
between two calls.</p>
<div class="highlight-python3"><div class="highlight"><pre><span></span>
<span class="n">w</span> <span class="o">=</span> <span class="n">Walker</span><span class="p">
()</span>
<span class="n">w</span><span class="o">.</span><span class="n">visit</span>
<span class="p">(</span><span class="n">tree_root</span><span class="p">)</span>
</pre></div></div>
</section>
<section id="tags"><h2>Tags<a class="headerlink" href="#tags">¶</a></h2>
<p>Every node carries a set of tags that a visitor may read or extend freely.</p>
</section>
<section id="reference"><h2>Node reference<a class="headerlink" href="#reference">¶</a></h2>
<dl class="py class">
<dt class="sig" id="walker.Walker"><em class="property">class </em>
<span class="sig-prename">walker.</span><span class="sig-name">Walker</span>
(<em>order='pre'</em>)</dt>
<dd><p>Visits nodes in pre-order or post-order. The order is fixed at construction time
and cannot change while a walk is in progress, because children are queued eagerly
before any of them is visited, and a changed order would visit some twice.</p>
<dl class="py method">
<dt class="sig" id="walker.Walker.visit"><span class="sig-name">visit</span>(<em>node</em>)</dt>
<dd><p>Visit <em>node</em> and all its descendants, calling the handler registered for
each node type; a handler that returns a new node replaces the old one in its parent,
and a handler that returns None removes the node from the tree altogether.</p>
<p>Handlers are looked up by the node's class name first, then by the names of its
base classes in method resolution order, so one handler can serve a family of
related node types without being registered for each of them separately.</p></dd>
</dl>
<dl class="py method">
<dt class="sig" id="walker.Walker.depth"><span class="sig-name">depth</span>()</dt>
<dd><p>Return how deep the node being visited sits below the root of the tree, counting
the root itself as depth zero and each step down through a child as one more.</p></dd>
</dl></dd></dl>
</section>
<section id="see-also"><h2>Notes<a class="headerlink" href="#see-also">¶</a></h2>
<p>Walking a tree of a million nodes takes about a second on an ordinary laptop.</p>
</section>
</section>
</div></div></div>
<div class="sphinxsidebar" role="navigation" aria-label="main navigation">
<div class="sphinxsidebarwrapper"><h3>Table of Contents</h3>
<ul><li><a href="#">walker — Walking trees</a><ul><li><a href="#usage">Usage</a></li></ul></li></ul>
<h4>Previous topic</h4><p class="topless"><a href="prev.html">parser — Reading source files</a></p>
<div role="note" aria-label="source link"><h3>This Page</h3>
<ul><li><a href="bugs.html">Report a Bug</a></li></ul></div></div></div>
</div>
<div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3>
<ul><li><a href="genindex.html">index</a></li></ul></div>
<div class="footer">&#169; Copyright 2001-2024, Toolkit Software Foundation.
Last updated on Jan 01, 2024. Found a bug?</div>
</body></html>
"""

SPHINX_CONTENT = (
    "Source code: src/walker.py",
    "The walker module visits every node",
    "Create a walker once",
    "w = Walker () w.visit (tree_root)",
    "Every node carries a set of tags",
    "class walker.Walker (order='pre')",
    "Visits nodes in pre-order or post-order.",
    "visit(node)",
    "Handlers are looked up by the node's class name first",
    "depth()",
    "Return how deep the node being visited sits",
    "Walking a tree of a million nodes takes about a second",
)
SPHINX_CHROME = ("Navigation", "modules", "Table of Contents", "Previous topic", "Report a Bug")


def test_documentation_page_keeps_every_section_and_drops_navigation() -> None:
    result = extract_html(SPHINX_PAGE.encode())
    text = "\n".join(result.paragraphs)
    for content in SPHINX_CONTENT:
        assert content in text, content
    for heading in ("Usage", "Tags", "Node reference", "Notes"):
        assert heading in result.paragraphs
    for chrome in SPHINX_CHROME:
        assert chrome not in text, chrome
    assert "Copyright" not in text and "Last updated" not in text


def test_documentation_title_is_the_heading_without_site_name_or_permalink() -> None:
    result = extract_html(SPHINX_PAGE.encode())
    assert result.title == "walker — Walking trees"
    assert not any(p.startswith("walker — Walking trees") for p in result.paragraphs)


ARTICLE = (
    "The river rose four metres overnight after three days of steady rain in the hills.",
    "Residents of the lower town were moved to the school hall before midnight, and the "
    "bridge on the main road was closed until engineers could inspect its piers.",
    "The council said the new flood wall had held, and that the damage would have been far "
    "worse without it; repairs to the road are expected to take a week.",
)

# A news page whose class names say nothing (as on many sites): a header with navigation,
# an ad, counters above and below the article, a sidebar of related links, a footer.
NEWS_PAGE = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>River floods lower town | Valley Courier</title></head>
<body>
<div class="w71"><b>Valley Courier</b><ul><li><a href="/">Home</a></li>
<li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></div>
<div class="x72"><a href="https://ads.example.com/">Cheap flights to the coast!</a></div>
<div class="c73"><h1>River floods lower town</h1>
<div class="u74">Posted 2023-09-03 13:46 · 69,425 views · 302 comments</div>
{"".join(f"<p>{p}</p>" for p in ARTICLE)}
<div class="u74">By Anna Berg · 8 min read</div>
<div>Share</div><div>Print</div></div>
<div class="blk75"><div><a href="/r1">Council approves new budget</a> (120)</div>
<div><a href="/r2">School reopens after repairs</a> (87)</div></div>
<div class="w76">About us | Contact | Advertise © 2023</div>
</body></html>
"""


def test_news_page_keeps_only_the_article() -> None:
    result = extract_html(NEWS_PAGE.encode())
    assert result.title == "River floods lower town"
    assert result.paragraphs == ARTICLE


@pytest.mark.parametrize(
    ("title", "h1", "expected"),
    [
        ("River floods - Valley Courier", "River floods", "River floods"),
        ("River floods | Valley Courier", "River floods", "River floods"),
        ("River floods – Valley Courier", "River floods", "River floods"),
        ("River floods — Valley Courier", "River floods", "River floods"),
        ("河水上涨_山谷日报", "河水上涨", "河水上涨"),
        ("River floods :: Valley Courier", "River floods", "River floods"),
        # Compared after whitespace cleanup, case-insensitively; the longest rest wins.
        ("  River   Floods | Valley Courier", "river floods", "River Floods"),
        (
            "Part 1 - River floods - Valley Courier",
            "Part 1 - River floods",
            "Part 1 - River floods",
        ),
        # The rest may be the beginning of a longer heading.
        ("River floods - Courier", "River floods lower town overnight", "River floods"),
        # Kept whole when the whole title is the heading: "_" inside a name is no separator.
        ("conf_cache_factors : list", "conf_cache_factors : list", "conf_cache_factors : list"),
        # Kept whole when the rest is not the heading.
        ("Release notes - Version 2", "Changes", "Release notes - Version 2"),
        ("River floods - Valley Courier", "", "River floods - Valley Courier"),
    ],
)
def test_title_drops_site_name_only_when_the_rest_is_the_heading(
    title: str, h1: str, expected: str
) -> None:
    heading = f"<h1>{h1}</h1>" if h1 else ""
    page = (
        f"<html><head><title>{title}</title></head><body>{heading}<p>{ARTICLE[1]}</p></body></html>"
    )
    assert extract_html(page.encode()).title == expected


def test_heading_repeating_the_title_is_not_a_paragraph() -> None:
    page = f"<html><head><title>Floods</title></head><body><h1>Floods</h1><p>{ARTICLE[1]}</p>"
    result = extract_html(page.encode())
    assert (result.title, result.paragraphs) == ("Floods", (ARTICLE[1],))


def test_without_title_element_the_heading_is_the_title() -> None:
    page = f"<html><body><h1>Floods</h1><p>{ARTICLE[0]}</p><p>{ARTICLE[1]}</p></body></html>"
    result = extract_html(page.encode())
    assert (result.title, result.paragraphs) == ("Floods", ARTICLE[:2])


def test_text_after_an_early_end_of_page_is_read_as_a_browser_shows_it() -> None:
    # groff -Thtml writes </body></html> before the page's text; browsers show it anyway
    page = (
        "<html><head><title>Floods</title></head><body>\n</body>\n</html>\n"
        f"<table><tr><td><a href='a.html'>Index</a></td><td><p>{ARTICLE[0]}</p>"
        f"<p>{ARTICLE[1]}</p></td></tr></table></BODY></HTML>"
    )
    result = extract_html(page.encode())
    assert result.paragraphs[-2:] == ARTICLE[:2]


def test_heading_other_than_the_title_stays_in_the_body() -> None:
    page = f"<html><head><title>Site</title></head><body><h1>Floods</h1><p>{ARTICLE[1]}</p>"
    result = extract_html(page.encode())
    assert (result.title, result.paragraphs) == ("Site", ("Floods", ARTICLE[1]))


@pytest.mark.parametrize(
    "line",
    [
        "Posted 2023-09-03 13:46 · 69,425 views · 302 comments",
        "Posted 2024-01-05 · 107,209 views · 67 comments · 8 min read",
        "By Anna Berg · 8 min read",
        "123 views",
        "8 min read",
        "Views: 5,120",
        "Share",
        "Print",
        "Share this article",
        "Skip to content",
        "阅读：1234 评论：5",
    ],
)
def test_counter_and_byline_lines_are_furniture(line: str) -> None:
    assert is_furniture(line)


@pytest.mark.parametrize(
    "line",
    [
        "The essay drew 2,000 views in its first week, far more than we expected.",
        "Different views of the same data lead to different conclusions",
        "Readers left 300 comments under the first post and 12 under the second one",
        "Share prices fell sharply on Monday",
        "Printing the report takes a minute",
        "Next steps",
        "Skip to the next chapter if you know the basics",
    ],
)
def test_prose_mentioning_views_or_comments_is_kept(line: str) -> None:
    assert not is_furniture(line)
    page = f"<html><body><p>{line}</p><p>{ARTICLE[1]}</p><p>{ARTICLE[2]}</p></body></html>"
    assert line in extract_html(page.encode()).paragraphs


def test_own_text_lengths_count_text_and_tails_code_blocks_whole_and_links_apart() -> None:
    from lxml import etree
    from simsift.core.read.extract.html import _own_text_lengths, parse_html

    page = (
        "<html><body><div id='a'>Some  prose\u00a0here <b>bold</b> tail text "
        "<a href='#'>a link <i>inside</i> it</a> after the link"
        "<pre>code <span>span</span> more <b>x</b>\n end</pre> after code</div>"
        "<p>\u3000中文 段落<br>第二行</p></body></html>"
    )
    body = parse_html(page).find("body")
    own, in_link = _own_text_lengths(body)

    def oracle(element) -> int:  # whitespace-free own text, as the scorer defines it
        if element.tag == "pre":
            return len("".join(element.text_content().split()))
        if any(a.tag == "pre" for a in element.iterancestors()):
            return 0
        parts = [element.text or "", *(child.tail or "" for child in element)]
        return len("".join("".join(parts).split()))

    elements = list(body.iter(tag=etree.Element))
    assert list(own) == elements
    assert {e: own[e] for e in elements} == {e: oracle(e) for e in elements}
    assert {e.tag for e in in_link} == {"a", "i"}
