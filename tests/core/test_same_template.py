"""A near duplicate shares content, not only a template.

Pages of one template (the same headings and boilerplate, each with a paragraph of its
own) have fingerprints within k of each other yet share none of their own text: they are
"same template" pairs, listed in pairs.csv under that kind and never in a cluster, so
they are never offered for the trash. A re-post with small edits shares its content and
stays a near duplicate in a cluster, even when the page is short (no 15-word run needed
when containment is high), and so does a re-post of a page that is all boilerplate.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from simsift.core.analysis.cluster import (
    KIND_EXACT,
    KIND_NEAR,
    KIND_SAME_TEMPLATE,
    SAME_TEMPLATE_SHARE,
    same_template,
)
from simsift.core.analysis.overview import overview
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.report.tables import pair_rows

from tests.core.corpus import edit_words
from tests.core.test_passages import english_paragraphs

K = 8
PAGES = 12  # more than 10 pages hold the template: common text, left out of containment


@pytest.fixture(scope="module")
def template_pages(tmp_path_factory):
    root = tmp_path_factory.mktemp("template")
    paragraphs = english_paragraphs()
    random.Random(3).shuffle(paragraphs)
    template = paragraphs[:8]
    own = [p for p in paragraphs[8:200] if 25 <= len(p.split()) <= 35][:PAGES]

    def page(text: str) -> str:
        return "\n\n".join([*template[:4], text, *template[4:]])

    for i, text in enumerate(own):
        (root / f"page{i:02d}.txt").write_text(page(text), encoding="utf-8")
    # a short page re-posted with one word changed: about 30 words of its own
    (root / "repost.txt").write_text(page(edit_words(own[0], 1, seed=2)), encoding="utf-8")
    boiler = "\n\n".join(template)
    (root / "boiler.txt").write_text(boiler, encoding="utf-8")
    (root / "boiler repost.txt").write_text(edit_words(boiler, 2, seed=3), encoding="utf-8")
    result = scan(ScanOptions(roots=(str(root),), workers=0))
    return result, {Path(d.path).name: i for i, d in enumerate(result.documents)}


def _own(result) -> np.ndarray:
    return result.passages.passages.doc_lengths() - result.passages.excluded_tokens


def test_template_pages_with_different_content_form_no_cluster(template_pages):
    result, doc = template_pages
    own = _own(result)
    shortest = result.options.passages.shortest_run
    close = result.pairs.within(K)
    kinds = result.pair_kinds(close)
    assert (kinds == KIND_SAME_TEMPLATE).sum() >= PAGES  # near fingerprints, no shared content
    ab, ba, _ = result.overlap_many(close.left, close.right)
    assert np.maximum(ab, ba)[kinds == KIND_SAME_TEMPLATE].max() < SAME_TEMPLATE_SHARE
    re_posted = {doc["page00.txt"], doc["repost.txt"]}
    for cluster in result.clusters(K):
        members = {m.doc for m in cluster.members}
        with_content = {d for d in members if own[d] >= shortest}
        # a cluster holds one content and its copies: the re-post, or boilerplate pages
        assert with_content <= re_posted or len(with_content) <= 1, members


def test_a_re_post_with_small_edits_is_still_a_cluster(template_pages):
    result, doc = template_pages
    a, b = sorted((doc["page00.txt"], doc["repost.txt"]))
    assert result.passages.longest_run(a, b) < 60  # a short page
    clusters = [{m.doc for m in c.members} for c in result.clusters(K)]
    assert {a, b} in clusters
    boiler = {doc["boiler.txt"], doc["boiler repost.txt"]}
    assert any(boiler <= members for members in clusters)  # all boilerplate: still a duplicate


def test_pairs_csv_lists_same_template_pairs_by_their_kind(template_pages):
    result, _ = template_pages
    rows = pair_rows(result, K)
    kinds = {frozenset((Path(r["a"]).name, Path(r["b"]).name)): r["kind"] for r in rows if r["b"]}
    assert kinds[frozenset(("page00.txt", "repost.txt"))] == "near"
    assert kinds[frozenset(("boiler.txt", "boiler repost.txt"))] == "near"
    template = [r for r in rows if r["kind"] == "same template"]
    assert len(template) >= PAGES
    shares = [max(r["containment_ab"], r["containment_ba"]) for r in template]
    assert max(shares) < SAME_TEMPLATE_SHARE


def test_the_rule_in_figures():
    near = np.full(7, KIND_NEAR, np.int8)
    kinds = near.copy()
    kinds[6] = KIND_EXACT
    low = np.array([0.0, 0.04, 0.06, 0.0, 0.0, 0.0, 0.0])
    run = np.array([0, 14, 0, 15, 0, 0, 0])
    own_left = np.array([200, 30, 200, 200, 14, 0, 200])
    own_right = np.array([200, 30, 200, 200, 10, 40, 200])
    got = same_template(kinds, low, low[::-1] * 0, run, own_left, own_right, 15)
    # shares little; shares 6%; shares a 15-word run; neither has 15 words of its own;
    # one all template, the other 40 words found nowhere in it; exact copies stay exact
    assert got.tolist() == [True, True, False, False, False, True, False]


def test_the_overview_draws_no_link_between_pages_of_one_template(template_pages):
    result, doc = template_pages
    graph = overview(result, result.similarity(), k=K).graph
    linked = {
        frozenset((int(graph.nodes[a]), int(graph.nodes[b])))
        for a, b in zip(graph.edge_a, graph.edge_b, strict=True)
    }
    assert frozenset((doc["page00.txt"], doc["repost.txt"])) in linked
    pages = {doc[f"page{i:02d}.txt"] for i in range(1, PAGES)}
    assert not any(pair <= pages for pair in linked)
