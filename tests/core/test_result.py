"""ScanResult: distances, and edits without a rescan (files sent to the trash, pairs
dismissed or remembered as ignored) that leave the result itself, so clusters, partial
copies and reports agree."""

from __future__ import annotations

import numpy as np
import pytest
from simsift.core.index.matches import hamming
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.report.tables import cluster_rows, excluded_rows, pair_rows

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
    edited = result.without_files(_removed(result, docs["edited"], docs["exact"]))
    gone = {result.documents[d].path for d in (docs["edited"], docs["exact"])}
    assert gone <= _paths_in(pair_rows(result, 3))  # both were reported before
    assert not gone & _paths_in(pair_rows(edited, 3))
    assert not gone & _paths_in(cluster_rows(edited, edited.clusters(3)))
    # `first` lost its only copy; `second` keeps its same-text copy
    assert len(result.clusters(3)) == 2 and len(edited.clusters(3)) == 1
    assert result.without_files(_removed(result)) is result


def test_removed_files_leave_partial_copies(partial):
    result, docs = partial
    assert len(result.partial_pairs()) == 1
    edited = result.without_files(_removed(result, docs["copy"]))
    assert len(edited.partial_pairs()) == 0
    copy = result.documents[docs["copy"]].path
    assert copy not in _paths_in(pair_rows(edited, 8) + excluded_rows(edited))


def test_dismissed_pair_leaves_clusters_and_partial_copies(copies, partial):
    result, docs = copies
    edited = result.without_pair(docs["edited"], docs["first"])
    first, copy = result.documents[docs["first"]].path, result.documents[docs["edited"]].path
    assert {first, copy} in [{row["a"], row["b"]} for row in pair_rows(result, 3)]
    assert {first, copy} not in [{row["a"], row["b"]} for row in pair_rows(edited, 3)]
    assert len(edited.clusters(3)) == 1

    result, docs = partial
    edited = result.without_pair(docs["source"], docs["copy"])  # either order
    assert len(edited.partial_pairs()) == 0


def test_ignored_paths_drop_the_pair_like_dismissing_it(partial):
    result, docs = partial
    copy, source = (result.documents[docs[k]].path for k in ("copy", "source"))
    edited = result.without_ignored([frozenset((source, copy))])
    assert len(result.partial_pairs()) == 1 and len(edited.partial_pairs()) == 0
    assert result.without_ignored([frozenset((copy, "/elsewhere/gone.txt"))]) is result


def test_distance_is_the_hamming_distance_of_the_fingerprints(copies):
    result, _ = copies
    fps = [int(f) for f in result.fingerprints]
    n = len(fps)
    left, right = np.triu_indices(n, 1)
    expected = [hamming(fps[a], fps[b]) for a, b in zip(left, right, strict=True)]
    assert result.distance(left, right).tolist() == expected
    assert [result.distance(int(a), int(b)) for a, b in zip(left, right, strict=True)] == expected
    assert isinstance(result.distance(0, 1), int) and result.distance(1, 1) == 0
