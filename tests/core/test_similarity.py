"""The teacher's view: per document, the share found in other documents and its sources."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from simsift.core.analysis.similarity import document_similarity
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan

from tests.core.test_passages import english_paragraphs

PARAGRAPHS = english_paragraphs()


def write(path: Path, paragraphs: list[str]) -> None:
    path.write_text("\n\n".join(paragraphs), encoding="utf-8")


@pytest.fixture(scope="module")
def collage(tmp_path_factory):
    """An essay of 20 paragraphs: 3 from each of three sources, 11 of its own."""
    root = tmp_path_factory.mktemp("collage")
    rng = random.Random(5)
    pool = rng.sample(PARAGRAPHS[100:], 80)
    sources = [pool[i * 20 : (i + 1) * 20] for i in range(3)]
    own = pool[60:71]
    for i, source in enumerate(sources):
        write(root / f"source{i}.txt", source)
    essay = own[:3] + sources[0][2:5] + own[3:6] + sources[1][8:11] + own[6:9]
    essay += sources[2][14:17] + own[9:]
    write(root / "essay.txt", essay)
    write(root / "unrelated.txt", pool[71:80])
    # the docs' own quotation marks counted: the shares below are paragraphs of text
    counted = PassageOptions(count_quotations=True)
    result = scan(ScanOptions(roots=(str(root),), workers=0, passages=counted))
    return result, {Path(d.path).stem: i for i, d in enumerate(result.documents)}


def test_a_collage_of_three_small_sources_has_their_sum_as_index(collage):
    result, doc = collage
    sim = document_similarity(result.passages, result.is_reference)
    essay = doc["essay"]
    shares = {s.doc: s.share for s in sim.sources(essay)}
    assert set(shares) == {doc["source0"], doc["source1"], doc["source2"]}
    assert all(0.08 < share < 0.2 for share in shares.values())  # each under the threshold
    assert sim.index[essay] == pytest.approx(sum(shares.values()), abs=0.02)
    assert 0.3 < sim.index[essay] < 0.5
    assert sim.source_count[essay] == 3
    assert sim.top_source[essay] == max(shares, key=shares.get)
    assert sim.index[doc["unrelated"]] == 0 and sim.top_source[doc["unrelated"]] == -1
    assert sim.sources(doc["unrelated"]) == []


def test_each_source_sees_the_share_of_itself_in_the_essay(collage):
    result, doc = collage
    sim = document_similarity(result.passages, result.is_reference)
    for name in ("source0", "source1", "source2"):
        [source] = sim.sources(doc[name])
        assert source.doc == doc["essay"] and 0.1 < source.share < 0.2  # 3 of 20 paragraphs


def test_reference_documents_have_no_index(collage):
    result, doc = collage
    is_reference = np.zeros(len(result.documents), bool)
    is_reference[doc["source0"]] = True
    sim = document_similarity(result.passages, is_reference)
    assert sim.index[doc["source0"]] == 0 and sim.source_count[doc["source0"]] == 0


def test_documents_csv_lists_the_collage_first(collage, tmp_path):
    import csv

    from simsift.core.report.tables import write_report

    result, _ = collage
    write_report(result, 8, tmp_path)
    with (tmp_path / "documents.csv").open(encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert Path(rows[0]["path"]).stem == "essay"
    assert 0.3 < float(rows[0]["similarity_index"]) < 0.5 and rows[0]["sources"] == "3"
    assert Path(rows[0]["largest_source"]).stem == "source0"
    assert "unrelated" not in {Path(r["path"]).stem for r in rows}


def test_a_source_under_the_share_threshold_is_partial_by_a_verbatim_run(collage):
    from dataclasses import replace

    result, doc = collage
    essay = doc["essay"]
    share_only = replace(result.passages.options, partial_min_run=0)
    by_share = replace(result.passages, options=share_only).partial()
    assert essay not in {*by_share.left.tolist(), *by_share.right.tolist()}
    assert result.passages.options.partial_min_run == 15  # the default
    by_run = result.passages.partial()
    pairs = {frozenset(p) for p in zip(by_run.left.tolist(), by_run.right.tolist(), strict=True)}
    for name in ("source0", "source1", "source2"):  # whole paragraphs copied: long runs
        assert frozenset({essay, doc[name]}) in pairs
    assert not any(doc["unrelated"] in p for p in pairs)
