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


def _class_folder(root, paragraphs) -> tuple:
    """A class folder of 5 essays holding its reference folder (the prompt), an
    unreadable file, an empty one, an excluded one, a hidden one, a file of another type
    and a link to an essay: 12 files on disk."""
    import os

    essays, reference = root / "class", root / "class" / "prompt"
    reference.mkdir(parents=True)
    for i in range(5):
        text = "\n\n".join(paragraphs[5 * i : 5 * i + 5])
        (essays / f"e{i}.txt").write_text(text, encoding="utf-8")
    (reference / "prompt.txt").write_text(paragraphs[40], encoding="utf-8")
    (essays / "broken.docx").write_bytes(b"not a zip")
    (essays / "empty.txt").write_text("", encoding="utf-8")
    (essays / "draft.bak.txt").write_text(paragraphs[50], encoding="utf-8")
    (essays / ".notes.txt").write_text(paragraphs[51], encoding="utf-8")
    (essays / "marks.xyz").write_text("12", encoding="utf-8")
    os.symlink(essays / "e0.txt", essays / "link.txt")
    return essays, reference


def test_every_file_found_is_read_not_read_or_skipped(tmp_path):
    """37 files, "Read 34 · 1 not read", "of 33": the counts now add up, and say which of
    the files read are essays (the overview's documents) and which are references."""
    from simsift.core.analysis.overview import overview

    from tests.core.test_passages import english_paragraphs

    essays, reference = _class_folder(tmp_path, english_paragraphs())
    on_disk = sum(1 for p in essays.rglob("*") if p.is_file() or p.is_symlink())
    options = ScanOptions(
        roots=(str(essays),),
        reference_roots=(str(reference),),
        exclude=("*.bak.txt",),
        workers=0,
    )
    result = scan(options)
    counts = result.file_counts()
    assert counts.found == on_disk == 12
    assert (counts.essays, counts.references, counts.garbled) == (5, 1, 0)
    assert counts.read == len(result.documents) + len(result.garbled) == 6
    assert counts.not_read == len(result.errors) == 2  # the broken and the empty file
    assert all(r.message for r in (*result.errors, *result.skipped))
    assert counts.skipped == len(result.skipped) == 4  # excluded, hidden, .xyz, the link
    assert (counts.archive, counts.archive_problems) == (0, 0)
    view = overview(result, result.similarity(), k=3)
    assert len(view.essays) == counts.essays


def test_archive_documents_are_counted_apart_from_the_files_found(tmp_path):
    from simsift.core.pipeline.archive_folders import scan_with_archive

    from tests.core.extract.test_decoding import ESSAY
    from tests.core.test_passages import english_paragraphs

    paragraphs = english_paragraphs()
    essays, reference = _class_folder(tmp_path, paragraphs)
    old = tmp_path / "last year"
    old.mkdir()
    (old / "old0.txt").write_text("\n\n".join(paragraphs[0:5]), encoding="utf-8")  # as e0
    (old / "old1.txt").write_text("\n\n".join(paragraphs[60:65]), encoding="utf-8")
    (old / "broken.docx").write_bytes(b"not a zip either")
    misread = ESSAY.encode("utf-8").decode("gbk", errors="ignore")  # read, but garbled
    (old / "misread.txt").write_text(misread, encoding="utf-8")
    options = ScanOptions(
        roots=(str(essays),),
        reference_roots=(str(reference),),
        exclude=("*.bak.txt",),
        workers=0,
    )
    result = scan_with_archive(options, [str(old)], tmp_path / "catalog")
    counts = result.file_counts()
    assert counts.found == 12 and (counts.essays, counts.references) == (5, 1)
    assert counts.archive == int(result.is_archive.sum()) == 1  # old0, a source of e0
    # the archive's broken file (listed with the errors) and its garbled one
    assert counts.archive_problems == 2 and counts.garbled == 0
    assert len(result.errors) + len(result.garbled) == counts.not_read + counts.archive_problems
