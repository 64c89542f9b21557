"""The overview: spread of similarity indices, documents to read first, who copies whom."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from simsift.core.analysis.overview import HISTOGRAM_BINS, _groups, _layout, overview
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan

from tests.core.test_similarity import collage  # noqa: F401  (a fixture)


def test_histogram_top_and_median_follow_the_similarity_indices(collage):  # noqa: F811
    result, doc = collage
    sim = result.similarity()
    view = overview(result, sim, k=3)
    assert view.histogram.sum() == len(result.documents) == len(view.essays)
    for i in view.essays.tolist():
        assert view.histogram[min(int(sim.index[i] * HISTOGRAM_BINS), HISTOGRAM_BINS - 1)] > 0
    assert view.top[0] == doc["essay"] == view.highest_doc
    assert view.highest == pytest.approx(sim.index[doc["essay"]])
    assert doc["unrelated"] not in view.top.tolist()  # nothing of it found elsewhere
    assert list(sim.index[view.top]) == sorted(sim.index[view.top], reverse=True)
    assert view.median == pytest.approx(np.median(sim.index))


def test_the_collage_and_its_sources_are_one_group(collage):  # noqa: F811
    result, doc = collage
    graph = overview(result, result.similarity(), k=3, threshold=0.1).graph
    names = {doc[n] for n in ("essay", "source0", "source1", "source2")}
    assert set(graph.nodes.tolist()) == names and graph.group_count == 1
    pairs = {
        frozenset((graph.nodes[a], graph.nodes[b]))
        for a, b in zip(graph.edge_a, graph.edge_b, strict=True)
    }
    assert pairs == {frozenset((doc["essay"], doc[f"source{i}"])) for i in range(3)}
    assert (graph.x >= 0).all() and (graph.x <= 1).all()
    assert (graph.y >= 0).all() and (graph.y <= 1).all()
    strict = overview(result, result.similarity(), k=3, threshold=0.9).graph
    assert len(strict.nodes) == 0  # no pair reaches 90%, none is within k


def test_reference_documents_are_left_out(collage, tmp_path):  # noqa: F811
    result, _ = collage
    root = tmp_path / "class"
    reference = tmp_path / "prompt"
    folder = result.documents[0].path.rsplit("/", 1)[0]
    shutil.copytree(folder, root)
    reference.mkdir()
    (root / "source0.txt").rename(reference / "source0.txt")
    scanned = scan(
        ScanOptions(roots=(str(root), str(reference)), reference_roots=(str(reference),), workers=0)
    )
    view = overview(scanned, scanned.similarity(), k=3, threshold=0.1)
    ref = np.flatnonzero(scanned.is_reference)
    assert len(ref) == 1 and ref[0] not in view.essays and ref[0] not in view.graph.nodes
    assert len(view.essays) == len(scanned.documents) - 1


def test_groups_are_components_largest_first():
    group = _groups(7, np.array([0, 1, 4, 5]), np.array([1, 2, 5, 6]))
    assert group.tolist() == [0, 0, 0, 2, 1, 1, 1]  # the single document is the smallest


def test_groups_never_overlap_in_the_drawing():
    a, b = np.array([0, 1, 3, 4, 6]), np.array([1, 2, 4, 5, 7])
    group = _groups(8, a, b)
    x, y = _layout(8, a, b, group)
    boxes = [(x[group == g], y[group == g]) for g in range(group.max() + 1)]
    for i, (xi, yi) in enumerate(boxes):
        for xj, yj in boxes[i + 1 :]:
            apart_x = xi.max() < xj.min() or xj.max() < xi.min()
            apart_y = yi.max() < yj.min() or yj.max() < yi.min()
            assert apart_x or apart_y


def test_a_crowded_drawing_keeps_the_documents_most_found_elsewhere(collage, monkeypatch):  # noqa: F811
    result, doc = collage
    sim = result.similarity()
    monkeypatch.setattr("simsift.core.analysis.overview.MAX_GRAPH_NODES", 2)
    graph = overview(result, sim, k=3, threshold=0.1).graph
    assert graph.dropped == 2 and len(graph.nodes) == 2
    linked = [doc[n] for n in ("essay", "source0", "source1", "source2")]
    best_two = sorted(linked, key=lambda d: -sim.index[d])[:2]
    assert sorted(graph.nodes.tolist()) == sorted(best_two)


def test_archive_documents_are_sources_not_essays(tmp_path):
    """Last year's essays an archive check brings in are never ranked nor in the median:
    the essays copying from them are, with the archive essay as their source."""
    from simsift.core.pipeline.archive_folders import scan_with_archive

    from tests.core.test_passages import english_paragraphs

    paragraphs = english_paragraphs()
    old, new = tmp_path / "last year", tmp_path / "class"
    old.mkdir()
    new.mkdir()
    for i in range(4):
        text = "\n\n".join(paragraphs[300 + 8 * i : 308 + 8 * i])
        (old / f"old{i}.txt").write_text(text, encoding="utf-8")
    copied = paragraphs[300:306] + paragraphs[400:402]  # most of old0
    (new / "copier.txt").write_text("\n\n".join(copied), encoding="utf-8")
    for i in range(3):
        text = "\n\n".join(paragraphs[500 + 8 * i : 508 + 8 * i])
        (new / f"own{i}.txt").write_text(text, encoding="utf-8")
    options = ScanOptions(roots=(str(new),), workers=0)
    result = scan_with_archive(options, [str(old)], tmp_path / "catalog")
    names = {d.path.rsplit("/", 1)[-1]: i for i, d in enumerate(result.documents)}
    archived = np.flatnonzero(result.is_archive)
    assert [result.documents[i].path.rsplit("/", 1)[-1] for i in archived] == ["old0.txt"]
    assert not result.is_essay[archived].any()
    sim = result.similarity()
    view = overview(result, sim, k=3)
    assert sim.index[archived[0]] == 0 and sim.sources(int(archived[0])) == []
    assert view.top.tolist() == [names["copier.txt"]]
    assert sorted(view.essays.tolist()) == sorted(names[n] for n in names if "old" not in n)
    assert len(view.essays) == 4 and view.histogram.sum() == 4
    assert view.median == pytest.approx(np.median(sim.index[view.essays]))
    assert sim.top_source[names["copier.txt"]] == archived[0]
    assert sim.index[names["copier.txt"]] > 0.5
