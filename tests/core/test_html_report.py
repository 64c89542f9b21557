"""The HTML report: complete, escaped, self-contained."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from core.cluster import Clusters
from core.html_report import render_html_report, write_html_report
from core.scan import ScanOptions, scan
from tests.core.corpus import write_corpus


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    paths = write_corpus(root)
    (root / "sub" / "<b>odd & name.txt").write_text(paths["first"].read_text("utf-8"))
    return scan(ScanOptions(roots=(str(root),), workers=0)), paths


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.srcs: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.srcs += [v for k, v in attrs if k in ("src", "href")]


def test_pairs_show_the_containments_the_app_and_csv_show(scanned):
    result, paths = scanned
    text = render_html_report(result, result.clusters(3))
    docs = [d.path for d in result.documents]
    a, b = sorted((docs.index(str(paths["first"])), docs.index(str(paths["edited"]))))
    a_in_b, b_in_a, _ = result.overlap(a, b)
    pairs_table = text[text.index("<h2>Pairs") :]
    row = next(r for r in pairs_table.split("<tr>") if f">{docs[a]}<" in r and f">{docs[b]}<" in r)
    assert f"{a_in_b:.0%}</td>" in row and f"{b_in_a:.0%}</td>" in row
    assert "<th>A in B</th><th>B in A</th>" in text


def test_report_lists_clusters_pairs_and_is_self_contained(scanned, tmp_path):
    result, paths = scanned
    clusters = result.clusters(3)
    out = write_html_report(result, clusters, tmp_path / "r" / "report.html")
    text = out.read_text("utf-8")
    for key in ("first", "edited", "exact", "same_text"):
        assert str(paths[key]) in text or str(paths[key]).replace("&", "&amp;") in text
    assert f"{len(clusters):,} clusters" in text
    assert "Pairs (" in text and "100%" in text
    parser = _Collector()
    parser.feed(text)
    assert "script" not in parser.tags
    assert parser.srcs == []  # nothing to fetch: opens offline
    assert "<b>odd" not in text and "&lt;b&gt;odd &amp; name" in text
    assert not list(out.parent.glob(".*.tmp"))


def test_empty_clusters_say_so(scanned):
    result, _ = scanned
    full = result.clusters(3)
    empty = Clusters(3, full.doc[:0], full.ptr[:1], full.distance[:0], full.kind[:0],
                     full.max_distance[:0])  # fmt: skip
    text = render_html_report(result, empty)
    assert "No near-duplicates" in text and "Pairs (0)" in text
