"""The HTML reader's faster element searches find what the plain ones find, in the same
order, on random pages: hidden-text candidates, labelled blocks, elements inside links,
and the counter pattern's word check lets every counter through."""

from __future__ import annotations

import random

import pytest
from simsift.core.read.extract import html
from simsift.core.read.extract.html import parse_html

_TAGS = ("div", "p", "span", "a", "b", "section", "li", "font", "td", "code")
_ATTRIBUTES = (
    'style="display:none"',
    'style="color: #fff"',
    'style="margin: 0"',
    "hidden",
    'color="white"',
    'id="nav"',
    'class="post side-bar"',
    'class="content"',
    'role="navigation"',
    'role="main"',
    'href="#x"',
    'align="left"',
    'title="t"',
)


def _element(rng: random.Random, depth: int) -> str:
    tag = rng.choice(_TAGS)
    attributes = " ".join(rng.sample(_ATTRIBUTES, rng.choice((0, 0, 1, 2))))
    children = ""
    if depth < 5:
        for _ in range(rng.randint(0, 4)):
            children += _element(rng, depth + 1) + rng.choice(("", " tail ", "\n"))
    return f"<{tag} {attributes}>{rng.choice(('', 'text', ' '))}{children}</{tag}>"


def random_page(seed: int) -> str:
    rng = random.Random(seed)
    blocks = "".join(_element(rng, 0) for _ in range(rng.randint(1, 5)))
    body = f"<body {rng.choice(_ATTRIBUTES)}>" if rng.random() < 0.2 else "<body>"
    return f"<html>{body}{blocks}</body></html>"


@pytest.mark.parametrize("seed", range(200))
def test_element_searches_find_the_plain_searches_elements(seed: int) -> None:
    root = parse_html(random_page(seed))
    assert html._MAY_HIDE(root) == root.xpath("//*[@style or @hidden or @color]")
    plain = root.xpath("descendant-or-self::*[@id or @class or @role]")
    assert html._LABELLED(root) == plain


def test_every_counter_holds_a_counter_word() -> None:
    # Letters the pattern takes for others when it ignores case: "ſ" for "s", "K" for "k",
    # "İ" and "ı" for "i"; both patterns ignore case alike.
    pieces = ("views", "VIEW", "vİews", "vıew", "ſhares", "likes", "LiKe", "replies", "min read")
    pieces += ("minutes read", "阅读", "浏览量", "点击", "人气", "评论", "comments", "reads", "k")
    pieces += ("12", "3,400", "1.2", " ", ":", "（", "次", "条", "by", "Ann", "2024-01-02", "x")
    rng = random.Random(29)
    found = 0
    for _ in range(20000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        if html._COUNTER.search(line):
            found += 1
            assert html._COUNTER_WORD.search(line), line
    assert found > 1000
