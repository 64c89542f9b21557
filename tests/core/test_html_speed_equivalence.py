"""The HTML reader's faster paths give what the plain definitions give, on random pages:
the prose lengths of the main-content scorer, the main block it picks, the page's bytes
for the parser, whitespace-free lengths, furniture lines."""

from __future__ import annotations

import random
import re

import pytest
from lxml import etree
from simsift.core.read.extract import html
from simsift.core.read.extract.html import parse_html

_WORDS = ("prose", "text", "Lorem", "ipsum", "中文段落", "dolor", "x", "¶", "#", "views 12")
_SPACES = (" ", "  ", "\n", "\t", "\u00a0", "\u3000", "\u2009", "\x85", "")
_TAGS = ("div", "p", "span", "a", "pre", "b", "td", "section", "li", "article", "code", "em")
_LABELS = ("nav", "menu-item", "content", "side bar", "post", "ad", "section", "main")


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(_WORDS) + rng.choice(_SPACES) for _ in range(rng.randint(0, 12)))


def _element(rng: random.Random, depth: int) -> str:
    tag = rng.choice(_TAGS)
    attributes = ""
    if rng.random() < 0.3:
        attributes += f' class="{rng.choice(_LABELS)}"'
    if rng.random() < 0.1:
        attributes += f' id="{rng.choice(_LABELS)}"'
    if rng.random() < 0.05:
        attributes += ' role="navigation"'
    children = ""
    if depth < 6:
        for _ in range(rng.randint(0, 4)):
            children += _element(rng, depth + 1) + _text(rng)
    return f"<{tag}{attributes}>{_text(rng)}{children}</{tag}>"


def random_page(seed: int) -> str:
    rng = random.Random(seed)
    blocks = "".join(_element(rng, 0) + _text(rng) for _ in range(rng.randint(1, 6)))
    return f"<html><body>{_text(rng)}{blocks}</body></html>"


def _body(page: str) -> etree._Element:
    root = parse_html(page)
    body = root.find("body")
    return body if body is not None else root


def _reference_main_container(body: etree._Element) -> etree._Element:
    """The scorer as written before it was made faster: every element's own text, prose
    summed into every ancestor."""
    own, in_link = html._own_text_lengths(body)
    prose = {e: n if n >= 25 and e not in in_link else 0 for e, n in own.items()}
    for element in reversed(prose):
        parent = element.getparent()
        if parent in prose:
            prose[parent] += prose[element]
    scored = [(e, n) for e, n in own.items() if e not in in_link and n >= 25]
    seed = html.best_container(scored)
    if seed is None:
        return body
    if prose[body] < 0.5 * sum(own.values()):
        return body
    return next(e for e in (seed, *seed.iterancestors()) if prose[e] >= 0.9 * prose[body])


@pytest.mark.parametrize("seed", range(300))
def test_scored_lengths_and_main_block_are_the_definitions(seed: int) -> None:
    body = _body(random_page(seed))
    own, in_link = html._own_text_lengths(body)
    expected = [(e, n) for e, n in own.items() if e not in in_link and n >= 25]
    assert html.scored_text_lengths(body) == expected
    assert html.main_container(body) is _reference_main_container(body)


def test_page_bytes_are_the_control_free_text_without_early_end() -> None:
    pieces = ("</", "body", "BODY", "html", ">", " ", "\x1c", "\x01", "\x0b", "\x0c", "\x1f")
    pieces += ("\x00", "a", "\ud800", "\xa0", "\x85", "\u3000", "\n", "\t", "\x0e", "é")
    rng = random.Random(29)
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        plain = html._EARLY_END.sub("", html._CONTROL.sub(" ", text))
        assert html._without_early_end(text) == plain.encode("utf-8", errors="replace")


def test_non_space_length_counts_what_split_keeps() -> None:
    every_space = "".join(c for c in map(chr, range(0x110000)) if c.isspace())
    assert sorted(html._SPACES) == sorted(every_space)
    rng = random.Random(7)
    alphabet = [*every_space, "a", "é", "中", "𝒜", "\u200b"]
    for size in (0, 5, 40, 999, 1000, 5000):
        for _ in range(20):
            text = "".join(rng.choice(alphabet) for _ in range(size))
            assert html._non_space_length(text) == len("".join(text.split()))
            ascii_text = re.sub(r"[^\x00-\x7f]", "b", text)
            assert html._non_space_length(ascii_text) == len("".join(ascii_text.split()))


def test_long_lines_are_never_furniture() -> None:
    line = "12 views " + "word " * 30
    assert len(line.strip()) > 120
    assert not html.is_furniture(line)
