"""Rescans: an unchanged folder reuses the last comparison, a changed one equals a cold scan."""

from __future__ import annotations

import os
import random
from pathlib import Path

import simsift.core.pipeline.scan as scan_module
import simsift.core.pipeline.stages as stages_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.store.catalog import Catalog

from tests.core.test_passages import english_paragraphs

PARAGRAPHS = english_paragraphs()


def write_essay(path: Path, rng: random.Random) -> None:
    """An essay of fresh paragraphs, sometimes with a run copied from a shared pool."""
    own = rng.sample(PARAGRAPHS[200:], 5)
    start = rng.randrange(0, 40)
    copied = PARAGRAPHS[start : start + rng.choice([0, 2, 4])]
    path.write_text("\n\n".join(own[:3] + copied + own[3:]), encoding="utf-8")


def write_folder(root: Path, n: int, seed: int) -> Path:
    """A folder of n essays."""
    root.mkdir()
    rng = random.Random(seed)
    for i in range(n):
        write_essay(root / f"e{i}.txt", rng)
    return root


def summary(result) -> dict:
    """Everything a user sees of a scan, by path, independent of document numbering."""
    paths = [d.path for d in result.documents]
    partial = result.partial_pairs(0.01)
    p = result.passages
    return {
        "documents": paths,
        "fingerprints": result.fingerprints.tolist(),
        "pairs": sorted(
            (paths[a], paths[b], int(d))
            for a, b, d in zip(
                result.pairs.left, result.pairs.right, result.pairs.distance, strict=True
            )
        ),
        "partial": sorted(
            (paths[a], paths[b], round(float(x), 6), round(float(y), 6))
            for a, b, x, y in zip(
                partial.left,
                partial.right,
                partial.containment_ab,
                partial.containment_ba,
                strict=True,
            )
        ),
        "matches": sorted(zip(p.matches.left.tolist(), p.matches.right.tolist(), strict=True)),
        "common": p.is_common.tolist(),
        "passage_fingerprints": p.fingerprints.tolist(),
        "features": p.n_features.tolist(),
        "excluded_tokens": p.excluded_tokens.tolist(),
    }


def options(root: Path) -> ScanOptions:
    return ScanOptions(roots=(str(root),), workers=0)


def test_unchanged_rescan_reuses_the_last_comparison(tmp_path, monkeypatch):
    root = write_folder(tmp_path / "essays", 12, 3)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options(root), catalog=catalog)

        def fail(*args, **kwargs):
            raise AssertionError("compared again")

        monkeypatch.setattr(scan_module, "find_passages", fail)
        monkeypatch.setattr(scan_module, "find_pairs", fail)
        again = scan(options(root), catalog=catalog)
    assert summary(again) == summary(first)
    assert len(first.partial_pairs()) > 0


def test_damaged_comparison_cache_is_recomputed(tmp_path):
    root = write_folder(tmp_path / "essays", 6, 4)
    path = tmp_path / "catalog.sqlite3"
    with Catalog(path) as catalog:
        first = scan(options(root), catalog=catalog)
    for cached in Path(str(path) + ".cache").rglob("*.arrays"):
        cached.write_bytes(cached.read_bytes()[:200])
    with Catalog(path) as catalog:
        again = scan(options(root), catalog=catalog)
    assert summary(again) == summary(first)


operations = st.lists(
    st.tuples(st.sampled_from(["add", "change", "delete", "touch"]), st.integers(0, 10**6)),
    min_size=1,
    max_size=4,
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10**6), steps=operations)
def test_incremental_rescan_equals_a_cold_scan(tmp_path_factory, seed, steps):
    tmp = tmp_path_factory.mktemp("rescan")
    root = write_folder(tmp / "essays", 8, seed)
    with Catalog(tmp / "catalog.sqlite3") as catalog:
        scan(options(root), catalog=catalog)
        for op, value in steps:
            files = sorted(root.glob("*.txt"))
            target = files[value % len(files)] if files else None
            if op == "add" or target is None:
                write_essay(root / f"new{value}.txt", random.Random(value))
            elif op == "change":
                write_essay(target, random.Random(value))
                os.utime(target, ns=(value, value + 10**9))
            elif op == "delete":
                target.unlink()
            else:
                os.utime(target, ns=(value, value + 2 * 10**9))
            incremental = scan(options(root), catalog=catalog)
            cold = scan(options(root))
            assert summary(incremental) == summary(cold)


def test_rescan_after_a_change_updates_the_pair_graphs_instead_of_searching(tmp_path, monkeypatch):
    from simsift.core.index.pair_graph import PairGraph

    root = write_folder(tmp_path / "essays", 10, 5)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        scan(options(root), catalog=catalog)
        calls = []
        search, update = PairGraph.search.__func__, PairGraph.update

        def counting_search(cls, values, k, progress=None, cancel=None):
            calls.append("search")
            return search(cls, values, k, progress, cancel)

        def counting_update(self, values, progress=None, cancel=None):
            calls.append("update")
            return update(self, values, progress, cancel)

        monkeypatch.setattr(PairGraph, "search", classmethod(counting_search))
        monkeypatch.setattr(PairGraph, "update", counting_update)
        write_essay(root / "late.txt", random.Random(99))
        result = scan(options(root), catalog=catalog)
    assert calls == ["update", "update"]  # documents, then passages
    assert summary(result) == summary(scan(options(root)))


def test_cache_keeps_only_the_most_recent_folder_sets(tmp_path, monkeypatch):
    import simsift.core.store.result_cache as cache_module

    monkeypatch.setattr(cache_module, "KEEP_FOLDER_SETS", 2)
    rng = random.Random(6)
    path = tmp_path / "catalog.sqlite3"
    for name in ("a", "b", "c"):
        root = tmp_path / name
        root.mkdir()
        for i in range(3):
            write_essay(root / f"e{i}.txt", rng)
        with Catalog(path) as catalog:
            scan(options(root), catalog=catalog)
    kept = list(Path(str(path) + ".cache").iterdir())
    assert len(kept) == 2


def test_rescan_after_a_change_fingerprints_only_the_changed_documents(tmp_path, monkeypatch):
    import simsift.core.match.passages.reuse as reuse_module

    root = write_folder(tmp_path / "essays", 10, 8)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        scan(options(root), catalog=catalog)
        documents, passages = [], []
        real_docs, real_passages = (
            scan_module.fingerprint_documents,
            reuse_module.passage_fingerprints,
        )

        def count_docs(docs, *args, **kwargs):
            documents.append(len(docs))
            return real_docs(docs, *args, **kwargs)

        def count_passages(streams, *args, **kwargs):
            passages.append(len(streams))
            return real_passages(streams, *args, **kwargs)

        # the scan calls it, and it calls itself for the documents it does not know
        monkeypatch.setattr(scan_module, "fingerprint_documents", count_docs)
        monkeypatch.setattr(stages_module, "fingerprint_documents", count_docs)
        monkeypatch.setattr(reuse_module, "passage_fingerprints", count_passages)
        write_essay(root / "e3.txt", random.Random(42))
        result = scan(options(root), catalog=catalog)
    assert documents[-1] == 1 and passages == [1]  # the changed essay alone
    monkeypatch.undo()
    assert summary(result) == summary(scan(options(root)))


def test_unchanged_pair_loses_its_match_when_the_shared_text_becomes_common(tmp_path):
    root = write_folder(tmp_path / "essays", 10, 9)
    shared = PARAGRAPHS[150:152]

    def with_shared(name: str, seed: int) -> None:
        own = random.Random(seed).sample(PARAGRAPHS[200:], 3)
        (root / name).write_text("\n\n".join([*own, *shared]), encoding="utf-8")

    with_shared("a.txt", 1)
    with_shared("b.txt", 2)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        before = summary(scan(options(root), catalog=catalog))
        assert any(
            {"a.txt", "b.txt"} == {Path(x).name, Path(y).name} for x, y, *_ in before["partial"]
        )
        for i in range(5):  # the same two paragraphs in five more essays: now common text
            with_shared(f"more{i}.txt", 10 + i)
        after = summary(scan(options(root), catalog=catalog))
    assert after == summary(scan(options(root)))
    assert not any(
        {"a.txt", "b.txt"} == {Path(x).name, Path(y).name} for x, y, *_ in after["partial"]
    )


def test_a_document_whose_id_ends_in_a_zero_byte_is_still_recognised(tmp_path, monkeypatch):
    # numpy "S" strings drop trailing NUL bytes; 1 id in 256 ends in one
    real_ids = scan_module._document_ids

    def ids_ending_in_zero(documents, is_reference):
        return [i[:-1] + b"\0" for i in real_ids(documents, is_reference)]

    monkeypatch.setattr(scan_module, "_document_ids", ids_ending_in_zero)
    root = write_folder(tmp_path / "essays", 6, 4)
    counted = []
    real_docs = scan_module.fingerprint_documents

    def count_docs(docs, *args, **kwargs):
        counted.append(len(docs))
        return real_docs(docs, *args, **kwargs)

    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        scan(options(root), catalog=catalog)
        monkeypatch.setattr(scan_module, "fingerprint_documents", count_docs)
        monkeypatch.setattr(stages_module, "fingerprint_documents", count_docs)
        write_essay(root / "e1.txt", random.Random(7))
        scan(options(root), catalog=catalog)
    assert counted[-1] == 1  # the changed essay alone
