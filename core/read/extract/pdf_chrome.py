"""Site chrome printed into a PDF: the text boxes that are page furniture or sit outside
the body, told by where they are and what shape they have (never by their words).

A web page printed to PDF keeps what the browser's main-content reader would drop:
the running header and footer the browser adds (date, title, URL, "1/3"), a cookie
banner, navigation, follow-us and copyright lines, lists of other articles. Such a box
is *chrome* (`chrome_boxes`) when it is

* in the page's margin: every character within `MARGIN_SHARE` of the page's height from
  its top or bottom edge (`page_boxes` lays those characters out apart), where browsers
  and word processors print running headers and footers;
* repeated: its text, digits aside, stands on two pages or more of the document (a
  running header, a page footer, a banner fixed to the window, which prints on every
  page);
* outside the body: before the document's first body paragraph or after its last one,
  a body paragraph being a box of three lines or more, or of at least `BODY_TOKENS`
  words, that is not a list of short title-like lines (the "popular" list of a site).
  So what lies outside is lines and short boxes: a banner, a copyright line, a list. A
  document without a body paragraph (slides, a list) has no outside.

Chrome is marked, not dropped (`ExtractedText.chrome`): it is shown as read, and the gram
layer takes text two documents share where both have it as chrome as boilerplate
(`core.match.grams.boilerplate`). A copied opening or closing paragraph is a body
paragraph of both documents, hence never chrome.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import compress

import numpy as np
from simsift.core.read.extract.pdf_layout import page_texts

# characters wholly this share of the page's height from its top or bottom edge are in
# its margin: browsers print their header and footer in the 0.4 in margin of the page
MARGIN_SHARE = 1 / 30
BODY_TOKENS = 40  # as long as the boilerplate rule's longest paragraph (grams.py)
_BODY_LINES = 3  # a paragraph of wrapped prose; a banner or a copyright line is shorter
_CJK_PER_TOKEN = 1.6  # Chinese characters per jieba word, about
_MIN_LIST_LINES = 3
_TITLE_WORDS = 15  # a title-like line: at most this many words ...
_TITLE_CJK = 35  # ... or Chinese characters, not ending like a clause
_FULL_LINE = 0.85  # lines of wrapped prose reach this share of the longest one
_CLAUSE_ENDS = tuple(",，;；:：、")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_CLAUSE = re.compile(r"[，。；：！？]")
_WORD = re.compile(r"[^\W\d_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|\d+")
_DIGITS = re.compile(r"\d+")


def page_boxes(
    text: str, bounds: np.ndarray, page: tuple, glyphs: dict[int, str] | None = None
) -> list[tuple[str, bool]]:
    """`pdf_layout.page_texts` of a page, each box with whether it is in the page's margin:
    the margin's characters are laid out apart (a header is never joined to the body's
    first line), the top margin's boxes first and the bottom margin's last."""
    if not text:
        return []
    top, bottom = margin_chars(bounds, page)
    if not (top.any() or bottom.any()):
        return [(box, False) for box in page_texts(text, bounds, page, glyphs)]
    body = ~(top | bottom)
    out = []
    for which, margin in ((top, True), (body, False), (bottom, True)):
        if which.any():
            chars = "".join(compress(text, which.tolist()))
            boxes = page_texts(chars, np.ascontiguousarray(bounds[:, which]), page, glyphs)
            out += [(box, margin) for box in boxes]
    return out


def margin_chars(bounds: np.ndarray, page: tuple) -> tuple[np.ndarray, np.ndarray]:
    """(in the top margin, in the bottom margin) per character: wholly within
    `MARGIN_SHARE` of the page's height from that edge."""
    band = MARGIN_SHARE * (page[3] - page[1])
    return bounds[1] >= page[3] - band, bounds[3] <= page[1] + band


def furniture_boxes(
    boxes: Sequence[str], pages: Sequence[int], margins: Sequence[bool]
) -> list[bool]:
    """Per text box, whether it is page furniture: in a page's margin or repeated on
    another page (a running header or footer); never a document's title."""
    furniture = [bool(m) for m in margins]
    for i in _repeated(boxes, pages):
        furniture[i] = True
    return furniture


def chrome_boxes(boxes: Sequence[str], furniture: Sequence[bool]) -> list[bool]:
    """Per text box (its lines apart, as `page_texts` gives them), whether it is chrome:
    page furniture (`furniture_boxes`) or outside the body (see the module)."""
    body = [not f and _body_paragraph(box) for box, f in zip(boxes, furniture, strict=True)]
    if not any(body):
        return list(furniture)
    first = body.index(True)
    last = len(body) - 1 - body[::-1].index(True)
    return [f or not first <= i <= last for i, f in enumerate(furniture)]


def _body_paragraph(box: str) -> bool:
    """Whether a box is a paragraph of the body: three lines or more, or as long as the
    boilerplate rule's longest paragraph, and not a list of title-like lines."""
    lines = box.strip().count("\n") + 1
    return (lines >= _BODY_LINES or _tokens(box) >= BODY_TOKENS) and not _listed(box)


def _repeated(boxes: Sequence[str], pages: Sequence[int]) -> list[int]:
    """The boxes whose text, digits aside, stands on two pages or more."""
    seen: dict[str, set[int]] = {}
    keys = []
    for box, page in zip(boxes, pages, strict=True):
        key = _DIGITS.sub("#", " ".join(box.split())).casefold()
        keys.append(key)
        if len(key) > 1:
            seen.setdefault(key, set()).add(page)
    return [i for i, key in enumerate(keys) if len(seen.get(key, ())) > 1]


def _tokens(box: str) -> float:
    """About how many tokens a box holds: its words, Chinese characters by jieba's rate."""
    cjk = len(_CJK.findall(box))
    return len(_WORD.findall(box)) + cjk / _CJK_PER_TOKEN


def _listed(box: str) -> bool:
    """Whether a box is a list of short title-like lines (links to other articles), not
    wrapped prose: three lines or more, each short and not ending like a clause, at least
    half opening like a title (a long title wraps), and some line before the last not as
    long as the longest (wrapped prose fills its lines up to the last)."""
    lines = [line.strip() for line in box.split("\n") if line.strip()]
    if len(lines) < _MIN_LIST_LINES or not all(map(_short_line, lines)):
        return False
    if 2 * sum(map(_title_opening, lines)) < len(lines):
        return False
    longest = max(map(len, lines))
    return any(len(line) < _FULL_LINE * longest for line in lines[:-1])


def _short_line(line: str) -> bool:
    """A line short enough for a title, not ending like a clause; in Chinese without a
    clause's punctuation."""
    if line.endswith(_CLAUSE_ENDS):
        return False
    cjk = len(_CJK.findall(line))
    if cjk:
        return cjk <= _TITLE_CJK and not _CJK_CLAUSE.search(line[:-1])
    return 0 < len(_WORD.findall(line)) <= _TITLE_WORDS


def _title_opening(line: str) -> bool:
    """A line opening as a title does: in Chinese, or with a capital or a digit."""
    words = _WORD.findall(line)
    return bool(_CJK.match(line)) or (bool(words) and not words[0][0].islower())
