"""Web pages printed to PDF carry their site's chrome (running header and footer, a cookie
banner, follow-us and copyright lines, a list of popular articles): two pages of one site
sharing only that are no copies; two essays sharing a copied paragraph still are."""

from __future__ import annotations

from pathlib import Path

import pytest
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.read.extract import extract

from tests.core.printed import wrapped, write_printed_page
from tests.core.test_boilerplate import essays
from tests.core.test_passages import english_paragraphs

SITE = "Daily Post"
NAV = "Daily Post Home News Science Opinion Video Newsletter"
COOKIES = (
    "We use cookies to improve your experience on our site and to show you relevant "
    "advertising. By continuing to browse you agree to our cookie policy. Accept Settings"
)
FOLLOW = "Follow us on Twitter, Facebook and WeChat for the latest stories from our newsroom."
POPULAR = [
    "Popular",
    "Why the city council voted against the new bridge",
    "Ten recipes for a rainy weekend at home",
    "How solar panels changed a mountain village",
    "The quiet return of the river otter",
]
COPYRIGHT = (
    "(c) 2024 Daily Post Media Group. All rights reserved. No part of this site may be "
    "reproduced without written permission of the publisher."
)
ADDRESS = "https://www.dailypost-media-group.example/en/science-and-nature/weekly-edition/print/archive/2024"


@pytest.fixture(scope="module")
def words() -> list[str]:
    text = " ".join(english_paragraphs()).split()
    return sorted({w.lower() for w in text if w.isascii() and w.isalpha()})


def printed_article(path: Path, title: str, body: list[str], slug: str) -> None:
    """An article of the site as a browser prints it, with all the site's chrome."""
    blocks = [[NAV], wrapped(COOKIES), [title]]
    blocks += [wrapped(p) for p in body]
    blocks += [wrapped(FOLLOW), POPULAR, wrapped(COPYRIGHT)]
    header = f"12/7/24, 11:59 PM {title} - {SITE}"
    write_printed_page(path, header, f"{ADDRESS}/{slug}", blocks)


def partial_pairs(folder: Path) -> set[tuple[str, str]]:
    result = scan(ScanOptions(roots=(str(folder),), workers=0))
    names = [Path(d.path).name for d in result.documents]
    return {
        tuple(sorted((names[int(a)], names[int(b)])))
        for a, b in zip(result.partial_pairs().left, result.partial_pairs().right, strict=True)
    }


def test_the_reader_marks_a_printed_pages_chrome_and_not_its_body(tmp_path, words):
    body = essays(words, 1, seed=21, paragraphs=6)[0]
    printed_article(tmp_path / "a.pdf", "On rivers", body, "on-rivers")
    text = extract(tmp_path / "a.pdf")
    chrome = {text.paragraphs[i] for i in text.chrome}
    own = [p for i, p in enumerate(text.paragraphs) if i not in text.chrome]
    assert own == body
    assert any(ADDRESS in p for p in chrome)  # the running footer, on both pages
    assert {FOLLOW, COOKIES, COPYRIGHT} <= chrome
    assert any("river otter" in p for p in chrome)


def test_two_printed_pages_of_one_site_sharing_only_chrome_are_not_a_partial_pair(tmp_path, words):
    for name, body in zip("ab", essays(words, 2, seed=22, paragraphs=4), strict=True):
        printed_article(tmp_path / f"{name}.pdf", f"Article {name}", body, f"article-{name}")
    assert partial_pairs(tmp_path) == set()


def test_a_running_footer_with_the_address_and_page_number_is_not_copying(tmp_path, words):
    for name, body in zip("ab", essays(words, 2, seed=23, paragraphs=8), strict=True):
        blocks = [wrapped(p) for p in body]
        header = f"12/7/24, 11:59 PM Report {name} - {SITE}"
        write_printed_page(tmp_path / f"{name}.pdf", header, f"{ADDRESS}/r{name}", blocks)
    assert partial_pairs(tmp_path) == set()


@pytest.mark.parametrize("where", ["opening", "conclusion"])
def test_two_printed_essays_sharing_a_copied_paragraph_are_still_a_partial_pair(
    tmp_path, words, where
):
    first, second = essays(words, 2, seed=24, paragraphs=5)
    at = 0 if where == "opening" else -1
    second[at] = first[at]
    for name, body in (("a", first), ("b", second)):
        printed_article(tmp_path / f"{name}.pdf", f"Essay {name}", body, f"essay-{name}")
    assert partial_pairs(tmp_path) == {("a.pdf", "b.pdf")}
