"""End-to-end scans on real text with planted duplicates and broken files."""

from __future__ import annotations

from pathlib import Path

import pytest
from simsift.core.analysis.cluster import KIND_EXACT, KIND_NAMES, KIND_NEAR, KIND_SAME_TEXT
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import reweight, scan
from simsift.core.progress import Cancelled, CancelToken
from simsift.core.text.features import FeatureWeights

from tests.core.corpus import write_corpus


def pair_set(result, k):
    pairs = result.pairs.within(k)
    kinds = result.pair_kinds(pairs)
    return {
        (frozenset((result.documents[a].path, result.documents[b].path)), KIND_NAMES[kind])
        for a, b, kind in zip(
            pairs.left.tolist(), pairs.right.tolist(), kinds.tolist(), strict=True
        )
    }


@pytest.fixture()
def corpus(tmp_path):
    paths = write_corpus(tmp_path / "docs")
    (tmp_path / "docs" / "broken.docx").write_text("this is not a zip")
    (tmp_path / "docs" / "empty.txt").write_bytes(b"")
    (tmp_path / "docs" / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0 not text")
    return tmp_path / "docs", paths


def test_scan_finds_planted_duplicates_and_reports_bad_files(corpus):
    root, paths = corpus
    result = scan(ScanOptions(roots=(str(root),), k_max=3, workers=0))
    found = pair_set(result, 3)
    first, second = str(paths["first"]), str(paths["second"])
    assert (frozenset((first, str(paths["edited"]))), "near") in found
    assert (frozenset((second, str(paths["exact"]))), "exact") in found
    assert (frozenset((second, str(paths["same_text"]))), "same text") in found
    # nothing else pairs up: the other modules' docs are unrelated
    assert len(found) == 4  # edited pair + the three copies of `second` pairwise
    errors = {Path(r.path).name: r.message for r in result.errors}
    assert errors == {
        "broken.docx": "not a valid DOCX (corrupt or renamed file)",
        "empty.txt": "empty file",
    }
    assert [Path(r.path).name for r in result.skipped] == ["photo.jpg"]


def test_clusters_group_copies_with_kinds(corpus):
    root, paths = corpus
    result = scan(ScanOptions(roots=(str(root),), k_max=3, workers=0))
    clusters = list(result.clusters(3))
    assert len(clusters) == 2
    by_path = {result.documents[m.doc].path: m for c in clusters for m in c.members}
    assert by_path[str(paths["exact"])].kind in (KIND_EXACT,)
    assert by_path[str(paths["same_text"])].kind == KIND_SAME_TEXT
    assert (
        by_path[str(paths["edited"])].kind == KIND_NEAR
        or by_path[str(paths["first"])].kind == KIND_NEAR
    )


def test_reference_folder_documents_are_not_paired_among_themselves(tmp_path):
    write_corpus(tmp_path / "ref")
    result = scan(
        ScanOptions(roots=(), reference_roots=(str(tmp_path / "ref"),), k_max=3, workers=0)
    )
    assert len(result.documents) > 5 and len(result.pairs) == 0


def test_ignored_pair_is_not_reported(corpus):
    root, paths = corpus
    pair = frozenset((str(paths["first"]), str(paths["edited"])))
    result = scan(ScanOptions(roots=(str(root),), k_max=3, workers=0), ignored=[pair])
    assert all(p != pair for p, _ in pair_set(result, 3))


def test_reweighting_reuses_tokens_and_changes_fingerprints(corpus):
    root, _ = corpus
    result = scan(ScanOptions(roots=(str(root),), k_max=3, workers=0))
    other = reweight(result, FeatureWeights(shingle_size=2, tf_scheme="binary"))
    assert other.documents is result.documents
    assert (other.fingerprints != result.fingerprints).any()
    assert other.options.weights.shingle_size == 2


def test_scan_in_worker_processes_matches_in_process(corpus):
    root, _ = corpus
    inline = scan(ScanOptions(roots=(str(root),), k_max=3, workers=0))
    pooled = scan(ScanOptions(roots=(str(root),), k_max=3, workers=2))
    assert pair_set(inline, 3) == pair_set(pooled, 3)
    assert {r.path for r in inline.errors} == {r.path for r in pooled.errors}


def test_cancel_raises_cancelled(corpus):
    root, _ = corpus
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        scan(ScanOptions(roots=(str(root),), workers=0), cancel=token)


def test_folder_where_every_file_is_broken_still_finishes(tmp_path):
    for i in range(3):
        (tmp_path / f"bad{i}.pdf").write_bytes(b"%PDF-1.4 garbage " * i)
    result = scan(ScanOptions(roots=(str(tmp_path),), workers=0))
    assert len(result.documents) == 0 and len(result.errors) == 3
    assert len(result.clusters(3)) == 0


def test_files_read_are_stored_at_least_every_few_seconds(tmp_path, monkeypatch):
    """A slow scan killed early keeps what it read, not only whole batches."""
    import simsift.core.pipeline.stages as stages_module
    from simsift.core.progress import Progress
    from simsift.core.store.catalog import Catalog

    root = tmp_path / "docs"
    write_corpus(root)
    monkeypatch.setattr(stages_module, "_STORE_BATCH", 10_000)
    monkeypatch.setattr(stages_module, "_STORE_SECONDS", 0.0)
    stored = []
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:

        def progress(p: Progress) -> None:
            if p.stage == "reading" and p.done:
                stored.append((p.done, len(catalog.records_under([str(root)]))))

        scan(ScanOptions(roots=(str(root),), workers=0), catalog=catalog, progress=progress)
    assert stored and all(done == kept for done, kept in stored)
