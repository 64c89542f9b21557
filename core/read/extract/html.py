"""HTML pages: encoding, title, main content (boilerplate removed), all-text fallback.

Elements a browser does not show because of their inline style (display:none, visibility:
hidden, opacity:0, type of 1 pt or less, white on no background) or the hidden attribute
are left out of the text and kept apart as hidden text. With OCR on, the text of the
pictures (<img>) in the text kept takes their place (`core.read.extract.pictures`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import lxml.html
from lxml import etree
from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.read.extract.encoding import decode_bytes
from simsift.core.read.extract.hidden import (
    ALL_HIDDEN,
    MAX_HIDDEN_POINTS,
    WHITE,
    css_colour,
    length_points,
    unreadable,
)
from simsift.core.read.extract.paragraphs import as_block_quote, build_result, clean_paragraph
from simsift.core.read.extract.pictures import PictureReader, html_pictures

# Charset declarations live in the first bytes: <meta charset=...> or http-equiv content.
_META_SCAN_BYTES = 8192
_META_CHARSET = re.compile(
    rb"<meta\b[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE
)

# Elements whose text is never page content.
_NEVER_TEXT = ("script", "style", "noscript", "template", "head", "svg", "iframe", "object")
# Elements that start a new paragraph in the all-text fallback.
_BLOCK_TAGS = frozenset(
    {
        *("address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl"),
        *("dt", "fieldset", "figcaption", "figure", "footer", "form", "header", "hr", "li"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "main", "nav", "ol", "p", "pre", "section"),
        *("summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"),
    }
)

# Marks block boundaries in `text_of`; newlines in HTML source are mere spaces.
_BREAK = "\ue000"

# Stands in for an element the page hides; `_HIDDEN_INDEX` numbers its text in the list.
_HIDDEN_MARK, _HIDDEN_INDEX = "simsift-hidden", "n"
_MAX_HIDDEN_OPACITY = 0.05
_DARK_SCHEME = re.compile(r"\bdark\b", re.IGNORECASE)
_CSS_BACKGROUND = re.compile(r"background(?:-color)?\s*:\s*([^;}!]+)", re.IGNORECASE)

# Blocks never part of an article, by tag, or by a word in their id/class.
_BOILERPLATE_TAGS = ("nav", "footer", "aside", "form", "button", "select", "input", "textarea")
_BOILERPLATE_LABEL = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|menu|topmenu|header|footer|foot|sidebar|side|aside|banner|"
    r"ads?|adbox|advert\w*|sponsor\w*|comments?|postcomment|reply|related|recommend\w*|"
    r"share|social|breadcrumbs?|copyright|pages|pager|pagination|hot|rank\w*|login|"
    r"search|tags?|widget)(?:$|[\s_-])",
    re.IGNORECASE,
)
_BOILERPLATE_ROLES = ("navigation", "banner", "contentinfo", "complementary", "search")
# Containers whose own text makes them candidates for the main content.
_CONTAINER_TAGS = frozenset(
    {"div", "td", "th", "article", "section", "main", "body", "center", "blockquote", "dd"}
)
# Shorter text runs (labels, bylines, counters) say nothing about where the article is.
_MIN_SCORED_CHARS = 25

# The main block is the smallest one around the best container holding this share of
# the page's prose (non-link text runs long enough to be scored): documentation splits
# its article over many sibling blocks; site names, counters and menus are short runs.
_MAIN_PROSE_SHARE = 0.9
# A page whose prose is less than this share of its text (links included) is a link list.
_LINK_PAGE_PROSE_SHARE = 0.5
# Separators between an article title and the site name in <title>.
# Documentation generators end headings with a permalink sign.
_PERMALINK_SIGNS = "¶#§"
_SITE_SEPARATOR = re.compile(r"\s+[-|–—]\s+|_|\s+::\s+")

# Below this many characters the main-content extractor has probably missed the
# article (short page, unusual layout), so the all-text version is kept instead.
MIN_MAIN_CONTENT_CHARS = 100

# Short leftover lines that are page furniture, not prose: view/comment counters,
# bylines, share prompts, prev/next links, editor credits.
_COUNTER = re.compile(
    r"(?:阅读|浏览|点击|阅读量|浏览量|人气|评论|views?|reads?|comments?)\s*[:：(（]?\s*\d[\d,]*\s*[次条)）]?"
    r"|\d[\d,.]*\s*k?\s*(?:views?|reads?|comments?|likes?|shares?|replies|min(?:ute)?s? read)\b",
    re.IGNORECASE,
)
_PROMPT = re.compile(
    r"^\s*(?:分享到|上一篇|下一篇|责任编辑|返回顶部|相关阅读|相关文章)"
    r"|^\s*(?:share|print|previous|next|back to top)(?:\s*[:：].*|\s+this \w+)?\s*$"
    r"|^\s*(?:skip to (?:main )?(?:content|navigation|main)|跳到主要内容|跳转到内容)\s*$",
    re.IGNORECASE,
)
# What an English counter line may hold besides its counters: a byline and a time stamp.
_BYLINE = re.compile(
    r"\b(?:posted|published|updated|by|on|at)\b|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}:\d{2}",
    re.IGNORECASE,
)
# Every counter holds a digit and one of these words: a line without them is looked at no
# further (`_COUNTER` tries its alternatives at every digit: several times slower).
_DIGIT = re.compile(r"\d")
_COUNTER_WORD = re.compile(
    r"阅读|浏览|点击|人气|评论|view|read|comment|like|share|replies|min", re.IGNORECASE
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_FURNITURE_MAX_CHARS = 40
_ENGLISH_FURNITURE_MAX_CHARS = 120
# A counter line names at most a few words besides its counters: an author's name.
_BYLINE_MAX_WORDS = 3


def declared_charset(data: bytes) -> str | None:
    """Charset named by a <meta> tag near the start of the page, if any."""
    match = _META_CHARSET.search(data[:_META_SCAN_BYTES])
    return match.group(1).decode("ascii") if match else None


# Characters XML forbids (C0 controls but tab and line breaks): lxml stores them from the
# HTML parser but refuses them when the text is set again, so they become spaces first.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
# Browsers read on after a </body> or </html> (groff -Thtml writes both before the page's
# text); libxml2 drops everything after them, so they are taken out and it closes the page.
_EARLY_END = re.compile(r"</\s*(?:body|html)\s*>", re.IGNORECASE)
_TOO_DEEP = "the page is nested deeper than 2,048 levels: text below that was not read"
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])


def _without_early_end(text: str) -> bytes:
    """`text` without </body> and </html>, its control characters spaces, as UTF-8.

    Few pages hold control characters, and searching bytes for them is several times
    faster than searching the text. When none is left after the cut, the cut text is the
    answer: those the cut took were spaces to it as they would be once replaced.
    """
    data = _EARLY_END.sub("", text).encode("utf-8", errors="replace")
    if len(data.translate(None, _CONTROL_BYTES)) == len(data):
        return data
    return _EARLY_END.sub("", _CONTROL.sub(" ", text)).encode("utf-8", errors="replace")


class _Parser(etree.HTMLParser):
    """lxml.html's parser, its element classes picked in C: lxml.html picks them in a Python
    method called for every element the scorer touches (8% of the reading time). Form
    controls get the plain `HtmlElement`, whose text and tree methods are the same."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.set_element_class_lookup(
            etree.ElementDefaultClassLookup(
                element=lxml.html.HtmlElement,
                comment=lxml.html.HtmlComment,
                pi=lxml.html.HtmlProcessingInstruction,
                entity=lxml.html.HtmlEntity,
            )
        )


def text_of(element: etree._Element) -> str:
    """The text of every text node inside `element`: its text_content(), serialized in C.
    lxml.html's text_content() runs an XPath, which costs five times as much on the short
    texts of links, headings and labelled blocks."""
    return etree.tostring(element, method="text", encoding=str, with_tail=False)


def parse_html(text: str, warnings: list[str] | None = None) -> etree._Element:
    """Parse decoded HTML with lxml; never touches the network. Appends to `warnings`
    when the page was cut (libxml2 only logs that)."""
    # Re-encoding as UTF-8 with an explicit parser encoding sidesteps lxml's refusal
    # of str input carrying an XML encoding declaration, and any stale meta charset.
    # huge_tree: without it libxml2 silently drops everything below 256 levels, i.e.
    # most of a page whose paragraphs sit in unclosed <font> or <div> tags (it stops
    # at 2048 levels then). collect_ids: the table of ids libxml2 keeps for lookups by id
    # (none here) costs an eighth of the parse; the "already defined" errors it logs for
    # repeated ids go with it, never the fatal "Excessive depth" read below.
    parser = _Parser(
        encoding="utf-8",
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        huge_tree=True,
        collect_ids=False,
    )
    data = _without_early_end(text)
    root = lxml.html.document_fromstring(data, parser=parser)
    if root is None:
        raise ExtractionError("no text")
    if warnings is not None and any("Excessive depth" in e.message for e in parser.error_log):
        warnings.append(_TOO_DEEP)
    return root


def page_title(root: etree._Element) -> str:
    """The page's title: <title> less a site-name suffix, else the first <h1>, else ''."""
    title_element = next(root.iterdescendants("title"), None)
    title = clean_paragraph(text_of(title_element)) if title_element is not None else ""
    heading = first_heading(root)
    if not title:
        return heading
    return title_without_site_name(title, heading) if heading else title


def first_heading(root: etree._Element) -> str:
    """Cleaned text of the page's first <h1> less a permalink sign (¶, #), or ''."""
    h1 = body_heading(root)
    return heading_text(h1) if h1 is not None else ""


def body_heading(root: etree._Element) -> etree._Element | None:
    """The first <h1> inside a <body>: what root.find(".//body//h1") finds, without the
    element path's Python generators."""
    for h1 in root.iterdescendants("h1"):
        if next(h1.iterancestors("body"), None) is not None:
            return h1
    return None


def heading_text(heading: etree._Element) -> str:
    return clean_paragraph(text_of(heading)).rstrip(_PERMALINK_SIGNS).rstrip()


def title_without_site_name(title: str, heading: str) -> str:
    """`title` cut before a " - Site" suffix when the rest equals or begins the heading.

    "Article - Site" and <h1>Article</h1> give "Article", as the same text saved as
    TXT or DOCX would be titled. The longest such rest wins.
    """
    heading = heading.casefold()
    if heading.startswith(title.casefold()):
        return title  # "conf_cache_factors" is a name, not "conf" on site "cache_factors"
    for match in reversed(list(_SITE_SEPARATOR.finditer(title))):
        rest = title[: match.start()].strip()
        if rest and heading.startswith(rest.casefold()):
            return rest
    return title


def all_text_paragraphs(
    root: etree._Element,
    hidden: list[str] | None = None,
    pictures: PictureReader | None = None,
) -> list[str]:
    """Every visible text of the page, one paragraph per block element; text the page hides
    goes to `hidden`; with `pictures`, the text of each picture at its place. Mutates `root`."""
    white_hides = light_text_hides(root)
    etree.strip_elements(root, *_NEVER_TEXT, with_tail=False)
    pieces = pull_hidden(root, white_hides)
    body = root.find("body")
    container = body if body is not None else root
    if hidden is not None:
        hidden.extend(hidden_in(container, pieces))
    if pictures is not None:
        put_picture_text(container, pictures)
    return block_lines(container)


def main_content_paragraphs(
    root: etree._Element,
    title: str = "",
    hidden: list[str] | None = None,
    pictures: PictureReader | None = None,
) -> list[str]:
    """Paragraphs of the page's main content, minus counters, share lines and the title.

    The main content is the smallest block around the best-scored text container
    that holds most of the page's prose, so an article split over many sections,
    definition lists and code blocks is kept whole. Text the page hides is left out; the
    hidden text of the main content goes to `hidden`. With `pictures`, the text of each
    picture in the main content takes its place (pictures elsewhere are not read). Mutates
    `root`.
    """
    white_hides = light_text_hides(root)
    etree.strip_elements(root, *_NEVER_TEXT, with_tail=False)
    pieces = pull_hidden(root, white_hides)
    drop_heading_repeating_title(root, title)
    drop_permalinks(root)
    drop_boilerplate_blocks(root)
    body = root.find("body")
    main = main_container(body if body is not None else root)
    if hidden is not None:
        hidden.extend(hidden_in(main, pieces))
    if pictures is not None:
        put_picture_text(main, pictures)
    return content_lines(block_lines(main))


def content_lines(lines: list[str]) -> list[str]:
    """`lines` less the blank ones and the furniture (`is_furniture`): a line longer than
    furniture is kept without the call."""
    kept = []
    for line in lines:
        length = len(line.strip())
        if length > _ENGLISH_FURNITURE_MAX_CHARS or (length and not is_furniture(line)):
            kept.append(line)
    return kept


def drop_permalinks(root: etree._Element) -> None:
    """Remove the links whose whole text is a permalink sign (¶, #, §)."""
    for link in list(root.iter("a")):  # listed first: a dropped link would end the walk
        # Most links hold text only: their .text is their whole text. One whose own text
        # holds two characters besides spaces is no permalink, whatever else it holds.
        text = link.text
        if len(link) and not (text and len(text.strip()) > 1):
            text = text_of(link)
        if text and len(sign := text.strip()) == 1 and sign in _PERMALINK_SIGNS:
            link.drop_tree()


def put_picture_text(container: etree._Element, pictures: PictureReader) -> None:
    """Replace each <img> in `container` whose picture holds text by a block of that text,
    one <p> per paragraph (set as text, never parsed). Mutates `container`."""
    for image in list(container.iter("img")):
        texts = pictures.paragraphs(image.get("src", "").strip())
        parent = image.getparent()
        if not texts or parent is None:
            continue
        block = image.makeelement("div", {})
        for text in texts:
            paragraph = image.makeelement("p", {})
            paragraph.text = _CONTROL.sub(" ", text)
            block.append(paragraph)
        block.tail = image.tail
        parent.replace(image, block)


def light_text_hides(root: etree._Element) -> bool:
    """Whether light text on no background of its own is hidden: not when the page may be
    dark (a dark colour scheme, a style sheet setting a background that is not light, an
    external style sheet that may set one). Read before <head> and <style> are dropped."""
    for meta in root.iter("meta"):
        if meta.get("name", "").lower() == "color-scheme" and _DARK_SCHEME.search(
            meta.get("content", "")
        ):
            return False
    for link in root.iter("link"):
        if "stylesheet" in link.get("rel", "").lower().split():
            return False
    for style in root.iter("style"):
        for value in _CSS_BACKGROUND.findall(style.text or ""):
            value = value.strip().lower()
            if value in ("none", "transparent", "initial", "inherit"):
                continue
            colour = css_colour(value)
            if colour is None or not unreadable(colour, WHITE):  # not a light colour
                return False
    return True


# The elements "//*[@style or @hidden or @color]" in page order, found in a third of the
# time: attribute paths are walked without testing every element (few pages style many).
_MAY_HIDE = etree.XPath("(//@style | //@hidden | //@color)/..")


def pull_hidden(root: etree._Element, white_hides: bool = True) -> list[str]:
    """Replace each element the page hides by an empty placeholder; the hidden texts, the
    placeholder's `_HIDDEN_INDEX` numbering them."""
    pieces: list[str] = []
    pulled: set[etree._Element] = set()
    for element in _MAY_HIDE(root):
        if not element_hides(element, white_hides) or (
            pulled and any(a in pulled for a in element.iterancestors())
        ):
            continue
        parent = element.getparent()
        if parent is None or element.tag == "body":  # a page hidden until its scripts run
            continue
        pulled.add(element)
        mark = etree.Element(_HIDDEN_MARK, {_HIDDEN_INDEX: str(len(pieces))})
        mark.tail, element.tail = element.tail, None
        parent.replace(element, mark)
        pieces.append(" ".join(line for line in block_lines(element) if line.strip()))
    return pieces


def hidden_in(container: etree._Element, pieces: list[str]) -> list[str]:
    """Cleaned hidden texts whose placeholders are in `container`, in page order."""
    found = (pieces[int(mark.get(_HIDDEN_INDEX))] for mark in container.iter(_HIDDEN_MARK))
    return [text for text in map(clean_paragraph, found) if text]


def inline_style(element: etree._Element) -> dict[str, str]:
    """Declarations of an element's style attribute, names lower-cased, !important dropped."""
    declarations = {}
    for declaration in element.get("style", "").split(";"):
        name, _, value = declaration.partition(":")
        if value:
            value = value.replace("!important", "").strip()
            declarations[name.strip().lower()] = value
    return declarations


def element_hides(element: etree._Element, white_hides: bool = True) -> bool:
    """Whether the browser shows none of the element's text: the hidden attribute,
    display:none, visibility:hidden, opacity 0, type of 1 pt or less, or (`white_hides`)
    light text on no background of its own or its ancestors' (inline or bgcolor)."""
    if element.get("hidden") is not None:
        return True
    style = inline_style(element)
    if style.get("display", "").lower() == "none":
        return True
    if style.get("visibility", "").lower() in ("hidden", "collapse"):
        return not _descendant_sets(element, "visibility")
    if _opacity(style.get("opacity", "")) <= _MAX_HIDDEN_OPACITY:
        return True
    points = length_points(style.get("font-size"))
    if points is not None and points <= MAX_HIDDEN_POINTS:
        return not _descendant_sets(element, "font-size")
    colour = css_colour(style.get("color") or element.get("color"))
    if not white_hides or colour is None or _descendant_sets(element, "color"):
        return False
    for holder in (element, *element.iterancestors()):
        background = _background(holder)
        if background is not None:  # "" when it is not a plain colour: cannot tell
            behind = css_colour(background)
            return behind is not None and unreadable(colour, behind)
    return unreadable(colour, WHITE)


def _opacity(value: str) -> float:
    """An opacity declaration's value, 1 when there is none or it cannot be read."""
    try:
        return float(value[:-1]) / 100 if value.endswith("%") else float(value or 1)
    except ValueError:
        return 1.0


def _background(element: etree._Element) -> str | None:
    """The element's own background colour as written, "" for another background (an
    image, a gradient), None when it sets none."""
    style = inline_style(element)
    for name in ("background-color", "background"):
        value = style.get(name)
        if value is not None and value.lower() not in ("none", "transparent", "initial"):
            return value if css_colour(value) is not None else ""
    return element.get("bgcolor")


def _descendant_sets(element: etree._Element, prop: str) -> bool:
    """Whether an element inside sets `prop` again (its text may show after all)."""
    attribute = "color" if prop == "color" else None
    for inner in element.iterdescendants(tag=etree.Element):
        if prop in inner.get("style", "").lower() or (attribute and inner.get(attribute)):
            return True
    return False


def drop_heading_repeating_title(root: etree._Element, title: str) -> None:
    """Remove the first <h1> when its text is the title, so the title is not also a paragraph."""
    h1 = body_heading(root)
    if h1 is not None and title and heading_text(h1).casefold() == title.casefold():
        h1.drop_tree()


# The elements "//*[@id or @class or @role]" in page order, found in three quarters of the
# time: most elements have no attribute at all and fail the first test, the cheaper one.
_LABELLED = etree.XPath("descendant-or-self::*[@*][@id or @class or @role]")


def drop_boilerplate_blocks(root: etree._Element) -> None:
    """Remove nav, footer, sidebar, comment, ad and "related" blocks by tag, role, id or class."""
    for element in list(root.iter(*_BOILERPLATE_TAGS)):
        element.drop_tree()
    page_chars = len(text_of(root))
    for element in _LABELLED(root):
        if not _labelled_boilerplate(element):
            continue
        # A label like "page-header" on a wrapper of the whole page must not empty it.
        if element.tag not in ("html", "body") and len(text_of(element)) < page_chars / 2:
            element.drop_tree()


def _labelled_boilerplate(element: etree._Element) -> bool:
    """Whether the element's role, class or id names a boilerplate block. The id of a
    document section (a <section>, class "section") names its heading ("Tags").

    The class and the id are matched apart (no word spans the space between them), each
    value's verdict cached: code highlighters give thousands of elements a few classes.
    The tag is read only for an id that names a block."""
    get = element.get
    if get("role") in _BOILERPLATE_ROLES:
        return True
    classes = get("class")
    if classes is not None and _names_boilerplate(classes):
        return True
    ident = get("id")
    return (
        bool(ident)
        and _names_boilerplate(ident)
        and element.tag != "section"
        and (classes is None or "section" not in classes.split())
    )


@lru_cache(maxsize=4096)
def _names_boilerplate(label: str) -> bool:
    """Whether an id or class attribute holds a boilerplate word (pages repeat them)."""
    return _BOILERPLATE_LABEL.search(label) is not None


def main_container(body: etree._Element) -> etree._Element:
    """Smallest ancestor of the best-scored container holding most of the page's prose."""
    prose = scored_text_lengths(body)
    seed = best_container(prose)
    if seed is None:
        return body
    chain = [seed, *_ancestors_up_to(seed, body)]
    sums = _chain_prose_sums(chain, prose)
    # Indexes and tables of contents are mostly links: no block holds their text.
    if _mostly_links(body, sums[body]):
        return body
    return next(e for e in chain if sums[e] >= _MAIN_PROSE_SHARE * sums[body])


def _mostly_links(body: etree._Element, prose: int) -> bool:
    """Whether `prose` is less than `_LINK_PAGE_PROSE_SHARE` of the whitespace-free length
    of `body`'s text. Spaces are counted only when the text's whole length leaves it open:
    that length is an upper bound, and most pages' prose is more than half of it."""
    text = text_of(body)
    share = _LINK_PAGE_PROSE_SHARE
    return prose < share * len(text) and prose < share * _non_space_length(text)


def scored_text_lengths(body: etree._Element) -> list[tuple[etree._Element, int]]:
    """The prose of `body`: (element, whitespace-free length of its own text) for each
    element outside links whose own text (its text and its children's tails; a code block's
    whole text, highlighters split it into tiny spans) has `_MIN_SCORED_CHARS` or more, in
    page order: what `_own_text_lengths` counts, less the rest.

    One walk down the tree from `body`, children last first on a stack (so taken in page
    order): each element is made once, by its parent, which reads their tails as it does;
    a link's elements and a code block's are never walked. Only the lengths of an own
    text's pieces count, so they are joined in any order.
    """
    scored = []
    stack = [body]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        tag = node.tag
        if tag == "a" or tag.__class__ is not str:  # a link, or a comment
            continue
        if tag == "pre":
            own = text_of(node)
        else:
            own = node.text
            if children := node[::-1]:
                # joined once: adding tails one by one is quadratic in a block of many
                tails = [tail for child in children if (tail := child.tail)]
                if tails:
                    own = "".join((own, *tails) if own else tails)
                push(children)
        # A text shorter than the threshold has fewer characters outside spaces too.
        if own and len(own) >= _MIN_SCORED_CHARS:
            length = _non_space_length(own)
            if length >= _MIN_SCORED_CHARS:
                scored.append((node, length))
    return scored


# Shorter texts are split into words faster than their 10 or 29 kinds of space are counted.
_LONG_TEXT = 1000
# What str.split() takes for whitespace (str.isspace): the ASCII ones, then the others.
_ASCII_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f "
_SPACES = (
    _ASCII_SPACES
    + "\x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)


def _non_space_length(text: str) -> int:
    """len("".join(text.split())); for a long text (a page's thousands of words) without
    making the words: each kind of space counted in C."""
    if len(text) < _LONG_TEXT:
        return len("".join(text.split()))
    length = len(text)
    for space in _ASCII_SPACES if text.isascii() else _SPACES:
        if space in text:
            length -= text.count(space)
    return length


def _ancestors_up_to(element: etree._Element, top: etree._Element) -> list[etree._Element]:
    """Ancestors of `element` from its parent up to `top` (none when it is `top`)."""
    found = []
    if element is not top:
        for ancestor in element.iterancestors():
            found.append(ancestor)
            if ancestor is top:
                break
    return found


def _chain_prose_sums(
    chain: list[etree._Element], prose: list[tuple[etree._Element, int]]
) -> dict[etree._Element, int]:
    """Per element of `chain` (an element, then its ancestors), the prose in its subtree.

    Each prose element adds its length to the lowest chain element above it; the walk up
    stops at elements already walked, so no element is passed twice.
    """
    lowest = {element: index for index, element in enumerate(chain)}
    get = lowest.get
    added = [0] * len(chain)
    for element, length in prose:
        index = get(element)
        if index is None:  # most walks are one step, to a parent walked already
            walked = [element]
            while (index := get(element := element.getparent())) is None:
                walked.append(element)
            for step in walked:
                lowest[step] = index
        added[index] += length
    sums, total = {}, 0
    for element, length in zip(chain, added, strict=True):
        total += length
        sums[element] = total
    return sums


def _own_text_lengths(body: etree._Element) -> tuple[dict, set]:
    """Whitespace-free length of each element's own text (its text and its children's
    tails), in page order, and the elements inside links: the scorer's definition, which
    `scored_text_lengths` computes for the elements that count (tests hold them equal).

    A code block counts as one run of text: highlighters split it into tiny spans.
    """
    own: dict[etree._Element, int] = {}
    in_link: set[etree._Element] = set()
    code: dict[etree._Element, etree._Element] = {}  # element in a code block -> its <pre>
    for node in body.iter():
        parent = node.getparent()
        if node is not body:  # a tail is text of the parent (of its code block)
            tail = node.tail
            if tail:
                owner = code.get(parent, parent)
                own[owner] += sum(map(len, tail.split()))  # whitespace-free length
        if not isinstance(node.tag, str):  # a comment or processing instruction
            continue
        if node.tag == "a" or parent in in_link:
            in_link.add(node)
        own[node] = 0
        pre = code.get(parent)
        if pre is None and node.tag == "pre":
            pre = node
        if pre is not None:
            code[node] = pre
        text = node.text
        if text:
            own[node if pre is None else pre] += sum(map(len, text.split()))
    return own, in_link


def best_container(prose: list[tuple[etree._Element, int]]) -> etree._Element | None:
    """Block container with the highest score of own (non-link) text (`prose`, in page
    order: the first of equal scores wins).

    Half of each score is credited to the parent, so an article split over
    sibling blocks scores above any one of them (a readability-style score).
    """
    scores: dict[etree._Element, float] = {}
    for element, length in prose:
        container = _container_of(element)
        scores[container] = scores.get(container, 0.0) + length
        parent = container.getparent()
        if parent is not None:
            scores[parent] = scores.get(parent, 0.0) + length / 2
    return max(scores, key=scores.__getitem__) if scores else None


def _container_of(element: etree._Element) -> etree._Element:
    """`element` if it is a container (div, td, ...), else its nearest container ancestor."""
    if element.tag in _CONTAINER_TAGS:
        return element
    for ancestor in element.iterancestors():
        if ancestor.tag in _CONTAINER_TAGS:
            return ancestor
    return element


def block_lines(element: etree._Element) -> list[str]:
    """Text of `element`, one line per block element or <br>, <q> and each paragraph of a
    <blockquote> in quotation marks."""
    show_inline_quotations(element)
    show_block_quotations(element)
    for node in element.iter(*_BLOCK_TAGS):
        node.text = _BREAK + (node.text or "")
        node.tail = _BREAK + (node.tail or "")
    return text_of(element).split(_BREAK)


def show_inline_quotations(element: etree._Element) -> None:
    """Put around each <q> the quotation marks a browser shows (“…”, ‘…’ inside another
    <q>): the text then holds the quotation as the page shows it, and the comparison can
    tell it from the student's own words. Mutates `element`."""
    for quotation in element.iter("q"):
        inner = any(ancestor.tag == "q" for ancestor in quotation.iterancestors())
        opening, closing = ("‘", "’") if inner else ("“", "”")
        quotation.text = opening + (quotation.text or "")
        if len(quotation):
            quotation[-1].tail = (quotation[-1].tail or "") + closing
        else:
            quotation.text += closing


def show_block_quotations(element: etree._Element) -> None:
    """Put each paragraph of a <blockquote> between quotation marks (`as_block_quote`), so
    the comparison sets it apart as it does a quotation in marks. Mutates `element`."""
    for quote in element.iter("blockquote"):
        if any(ancestor.tag == "blockquote" for ancestor in quote.iterancestors()):
            continue
        blocks = [n for n in quote.iter(*_BLOCK_TAGS) if n.tag != "br"]
        for block in blocks:
            if any(n.tag != "br" for n in block.iterdescendants(*_BLOCK_TAGS)):
                continue  # marks go around the innermost blocks, one paragraph each
            text = text_of(block).strip()
            if not text or as_block_quote(text) == text:
                continue
            block.text = "“" + (block.text or "").lstrip()
            if len(block):
                block[-1].tail = (block[-1].tail or "").rstrip() + "”"
            else:
                block.text = block.text.rstrip() + "”"


def is_furniture(paragraph: str) -> bool:
    """True for a counter, byline, share prompt or navigation line; never for prose."""
    line = paragraph.strip()
    if len(line) > _ENGLISH_FURNITURE_MAX_CHARS:  # prose: no pattern needs looking at
        return False
    if len(line) <= _FURNITURE_MAX_CHARS and _PROMPT.search(line):
        return True
    if (
        line.endswith((".", "!", "?", "。", "！", "？"))
        or not _DIGIT.search(line)
        or not _COUNTER_WORD.search(line)
        or not _COUNTER.search(line)
    ):
        return False
    if _CJK.search(line):
        return len(line) <= _FURNITURE_MAX_CHARS
    rest = _BYLINE.sub(" ", _COUNTER.sub(" ", line))
    words = re.findall(r"[^\W\d_]+", rest)
    return len(line) <= _ENGLISH_FURNITURE_MAX_CHARS and len(words) <= _BYLINE_MAX_WORDS


def extract_html(data: bytes, *, ocr: bool = False, folder: Path | None = None) -> ExtractedText:
    """Title and main content of an HTML page; all text when the main content is too short.

    With `ocr`, the text of its pictures read by OCR: data: URIs, and files named relative
    to the page when `folder` (the page's own) is given; nothing from the network.
    """
    text = decode_bytes(data, declared_charset(data))
    warnings: list[str] = []
    root = parse_html(text, warnings)
    title = page_title(root)
    hidden: list[str] = []
    pictures = html_pictures(folder, ocr)
    main = main_content_paragraphs(root, title, hidden, pictures)
    if sum(len(p.strip()) for p in main) < MIN_MAIN_CONTENT_CHARS:
        hidden = []
        main = all_text_paragraphs(parse_html(text), hidden, pictures)
    no_text = ALL_HIDDEN if hidden else "no text"
    try:
        result = build_result(title, main, "html", no_text_message=no_text)
    except ExtractionError as error:
        pictures.raise_no_text(error)
    return pictures.marked(replace(result, warnings=tuple(warnings), hidden=tuple(hidden)))
