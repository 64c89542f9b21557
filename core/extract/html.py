"""HTML pages: encoding, title, main content (boilerplate removed), all-text fallback."""

from __future__ import annotations

import re

import lxml.html
from lxml import etree

from core.document import ExtractedText, ExtractionError
from core.extract.encoding import decode_bytes
from core.extract.paragraphs import build_result, clean_paragraph

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

# Marks block boundaries in text_content(); newlines in HTML source are mere spaces.
_BREAK = "\ue000"

# Blocks never part of an article, by tag, or by a word in their id/class.
_BOILERPLATE_TAGS = ("nav", "footer", "aside", "form", "button", "select", "input", "textarea")
_BOILERPLATE_LABEL = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|menu|topmenu|header|footer|foot|sidebar|side|aside|banner|"
    r"ads?|adbox|advert\w*|sponsor\w*|comments?|postcomment|reply|related|recommend\w*|"
    r"share|social|breadcrumbs?|copyright|pages|pager|pagination|hot|rank\w*|login|"
    r"search|tags?|widget)(?:$|[\s_-])",
    re.IGNORECASE,
)
# Containers whose own text makes them candidates for the main content.
_CONTAINER_TAGS = frozenset(
    {"div", "td", "th", "article", "section", "main", "body", "center", "blockquote", "dd"}
)
# Shorter text runs (labels, bylines, single links) say nothing about where the article is.
_MIN_SCORED_CHARS = 25

# Below this many characters the main-content extractor has probably missed the
# article (short page, unusual layout), so the all-text version is kept instead.
MIN_MAIN_CONTENT_CHARS = 100

# Short leftover lines that are page furniture, not prose: view/comment counters,
# share prompts, prev/next links, editor credits. Only short paragraphs are tested.
_FURNITURE_MAX_CHARS = 40
_FURNITURE = re.compile(
    r"(?:阅读|浏览|点击|阅读量|浏览量|人气|评论|views?|reads?|comments?)\s*[:：(（]?\s*\d[\d,]*\s*[次条)）]?"
    r"|^\s*(?:分享到|上一篇|下一篇|责任编辑|返回顶部|相关阅读|相关文章|share\b|print\b|previous\b|next\b)",
    re.IGNORECASE,
)


def declared_charset(data: bytes) -> str | None:
    """Charset named by a <meta> tag near the start of the page, if any."""
    match = _META_CHARSET.search(data[:_META_SCAN_BYTES])
    return match.group(1).decode("ascii") if match else None


def parse_html(text: str) -> etree._Element:
    """Parse decoded HTML with lxml; never touches the network."""
    # Re-encoding as UTF-8 with an explicit parser encoding sidesteps lxml's refusal
    # of str input carrying an XML encoding declaration, and any stale meta charset.
    parser = lxml.html.HTMLParser(
        encoding="utf-8", remove_comments=True, remove_pis=True, no_network=True
    )
    root = lxml.html.document_fromstring(text.encode("utf-8", errors="replace"), parser=parser)
    if root is None:
        raise ExtractionError("no text")
    return root


def page_title(root: etree._Element) -> str:
    """Text of the first <title> element, or ''."""
    title = root.find(".//title")
    return clean_paragraph(title.text_content()) if title is not None else ""


def all_text_paragraphs(root: etree._Element) -> list[str]:
    """Every visible text of the page, one paragraph per block element. Mutates `root`."""
    etree.strip_elements(root, *_NEVER_TEXT, with_tail=False)
    body = root.find("body")
    return block_lines(body if body is not None else root)


def main_content_paragraphs(root: etree._Element) -> list[str]:
    """Paragraphs of the page's main content, minus counters and share lines.

    The main content is the block container holding the most non-link text
    (a readability-style score, half of it credited to the parent so an article
    split over sibling blocks is kept whole). Mutates `root`.
    """
    etree.strip_elements(root, *_NEVER_TEXT, with_tail=False)
    drop_boilerplate_blocks(root)
    best = best_container(root)
    if best is None:
        return []
    return [p for p in block_lines(best) if not is_furniture(p)]


def drop_boilerplate_blocks(root: etree._Element) -> None:
    """Remove nav, footer, sidebar, comment, ad and "related" blocks by tag, id or class."""
    for element in list(root.iter(*_BOILERPLATE_TAGS)):
        element.drop_tree()
    page_chars = len(root.text_content())
    for element in list(root.xpath("//*[@id or @class]")):
        label = f"{element.get('id', '')} {element.get('class', '')}"
        if element.tag in ("html", "body") or not _BOILERPLATE_LABEL.search(label):
            continue
        # A label like "page-header" on a wrapper of the whole page must not empty it.
        if len(element.text_content()) < page_chars / 2:
            element.drop_tree()


def best_container(root: etree._Element) -> etree._Element | None:
    """Block container with the highest score of own (non-link) text."""
    scores: dict[etree._Element, float] = {}
    for element in root.iter(tag=etree.Element):
        if element.tag == "a" or _inside_link(element):
            continue
        length = len(_own_text(element))
        if length < _MIN_SCORED_CHARS:
            continue
        container = _container_of(element)
        scores[container] = scores.get(container, 0.0) + length
        parent = container.getparent()
        if parent is not None:
            scores[parent] = scores.get(parent, 0.0) + length / 2
    return max(scores, key=scores.__getitem__) if scores else None


def _own_text(element: etree._Element) -> str:
    """Text directly inside `element` (its text and its children's tails), whitespace-free."""
    parts = [element.text or "", *(child.tail or "" for child in element)]
    return "".join("".join(parts).split())


def _inside_link(element: etree._Element) -> bool:
    return any(ancestor.tag == "a" for ancestor in element.iterancestors())


def _container_of(element: etree._Element) -> etree._Element:
    """`element` if it is a container (div, td, ...), else its nearest container ancestor."""
    if element.tag in _CONTAINER_TAGS:
        return element
    for ancestor in element.iterancestors():
        if ancestor.tag in _CONTAINER_TAGS:
            return ancestor
    return element


def block_lines(element: etree._Element) -> list[str]:
    """Text of `element`, one line per block element or <br>."""
    for node in element.iter(tag=etree.Element):
        if node.tag in _BLOCK_TAGS:
            node.text = _BREAK + (node.text or "")
            node.tail = _BREAK + (node.tail or "")
    return element.text_content().split(_BREAK)


def is_furniture(paragraph: str) -> bool:
    """True for a short line that is a counter, share prompt or navigation link."""
    stripped = paragraph.strip()
    return len(stripped) <= _FURNITURE_MAX_CHARS and bool(_FURNITURE.search(stripped))


def extract_html(data: bytes) -> ExtractedText:
    """Title and main content of an HTML page; all text when the main content is too short."""
    text = decode_bytes(data, declared_charset(data))
    title = page_title(parse_html(text))
    main = main_content_paragraphs(parse_html(text))
    if sum(len(p.strip()) for p in main) >= MIN_MAIN_CONTENT_CHARS:
        return build_result(title, main, "html")
    return build_result(title, all_text_paragraphs(parse_html(text)), "html")
