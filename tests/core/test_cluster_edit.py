"""Edits without a rescan: files sent to the trash and pairs dismissed leave the result
itself, so clusters, partial copies and reports agree."""

from __future__ import annotations

import numpy as np
import pytest

from core.cluster_edit import without_files, without_pair
from core.report import cluster_rows, pair_rows, template_rows
from core.scan import ScanOptions, scan
from tests.core.corpus import write_corpus, write_partial_copy


def _scan(root, paths: dict):
    result = scan(ScanOptions(roots=(str(root),), workers=0))
    number = {d.path: i for i, d in enumerate(result.documents)}
    return result, {key: number[str(path)] for key, path in paths.items()}


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    """Near-duplicate clusters: `first` with its edited copy, `second` with two copies."""
    root = tmp_path_factory.mktemp("copies")
    return _scan(root, write_corpus(root))


@pytest.fixture(scope="module")
def partial(tmp_path_factory):
    """One essay that copied three paragraphs of a source."""
    root = tmp_path_factory.mktemp("partial")
    copy, source = write_partial_copy(root)
    return _scan(root, {"copy": copy, "source": source})


def _paths_in(rows: list[dict]) -> set[str]:
    return {row[key] for row in rows for key in ("a", "b", "path") if key in row}


def _removed(result, *docs: int) -> np.ndarray:
    removed = np.zeros(len(result.documents), dtype=bool)
    removed[list(docs)] = True
    return removed


def test_removed_files_leave_pairs_clusters_and_reports(copies):
    result, docs = copies
    edited = without_files(result, _removed(result, docs["edited"], docs["exact"]))
    gone = {result.documents[d].path for d in (docs["edited"], docs["exact"])}
    assert gone <= _paths_in(pair_rows(result, 3))  # both were reported before
    assert not gone & _paths_in(pair_rows(edited, 3))
    assert not gone & _paths_in(cluster_rows(edited, edited.clusters(3)))
    # `first` lost its only copy; `second` keeps its same-text copy
    assert len(result.clusters(3)) == 2 and len(edited.clusters(3)) == 1
    assert without_files(result, _removed(result)) is result


def test_removed_files_leave_partial_copies(partial):
    result, docs = partial
    assert len(result.partial_pairs()) == 1
    edited = without_files(result, _removed(result, docs["copy"]))
    assert len(edited.partial_pairs()) == 0
    copy = result.documents[docs["copy"]].path
    assert copy not in _paths_in(pair_rows(edited, 8) + template_rows(edited))


def test_dismissed_pair_leaves_clusters_and_partial_copies(copies, partial):
    result, docs = copies
    edited = without_pair(result, docs["edited"], docs["first"])
    first, copy = result.documents[docs["first"]].path, result.documents[docs["edited"]].path
    assert {first, copy} in [{row["a"], row["b"]} for row in pair_rows(result, 3)]
    assert {first, copy} not in [{row["a"], row["b"]} for row in pair_rows(edited, 3)]
    assert len(edited.clusters(3)) == 1

    result, docs = partial
    edited = without_pair(result, docs["source"], docs["copy"])  # either order
    assert len(edited.partial_pairs()) == 0
