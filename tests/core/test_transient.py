"""Failures that may pass (permission denied, a time-out, out of memory) are retried on the
next scan, never remembered as the file's result (R3)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import simsift.core.pipeline.stages as stages_module
import simsift.core.read.extract
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.store.catalog import Catalog

from tests.core.corpus import write_corpus


def pairs_with(result, name: str) -> int:
    paths = [Path(d.path).name for d in result.documents]
    pairs = result.pairs.within(8)
    return sum(name in (paths[a], paths[b]) for a, b in zip(pairs.left, pairs.right, strict=True))


def test_a_file_unreadable_once_is_read_on_the_next_scan(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    paths = write_corpus(docs)
    shutil.copy(paths["first"], docs / "locked.txt")
    real = simsift.core.read.extract._run_reader

    def locked(fmt, path, *options):  # what chmod 000 does to a user who is not root
        if path.name == "locked.txt":
            raise PermissionError(13, "Permission denied", str(path))
        return real(fmt, path, *options)

    options = ScanOptions(roots=(str(docs),), workers=0)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        monkeypatch.setattr(simsift.core.read.extract, "_run_reader", locked)
        first = scan(options, catalog=catalog)
        assert [Path(r.path).name for r in first.errors] == ["locked.txt"]
        assert first.errors[0].message == "cannot read file (Permission denied)"
        monkeypatch.undo()  # chmod 644
        second = scan(options, catalog=catalog)
    assert second.errors == () and pairs_with(second, "locked.txt") >= 1


def test_time_outs_and_crashes_are_not_stored(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    write_corpus(docs)
    real = stages_module._read_all

    def one_times_out(tasks, options, cancel):
        for record in real(tasks, options, cancel):
            if Path(record.path).name == sorted(Path(t.path).name for t in tasks)[0]:
                yield stages_module.FileRecord(
                    record.path, record.size, record.mtime_ns, "error",
                    "took longer than 60 s to read; skipped", retry=True,
                )  # fmt: skip
            else:
                yield record

    options = ScanOptions(roots=(str(docs),), workers=0)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        monkeypatch.setattr(stages_module, "_read_all", one_times_out)
        first = scan(options, catalog=catalog)
        monkeypatch.undo()
        second = scan(options, catalog=catalog)
    assert len(first.errors) == 1 and second.errors == ()
    assert second.reused == len(first.documents)  # only the timed-out file was read again


def test_a_catalog_that_fails_mid_scan_is_dropped_with_a_notice(tmp_path, monkeypatch):
    from simsift.core.store.catalog import CatalogError

    docs = tmp_path / "docs"
    write_corpus(docs)

    def disk_full(self, records):
        raise CatalogError("The disk holding the catalog is full; free some space there.")

    options = ScanOptions(roots=(str(docs),), workers=0)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        monkeypatch.setattr(Catalog, "store", disk_full)
        result = scan(options, catalog=catalog)
    cold = scan(options)
    assert [d.path for d in result.documents] == [d.path for d in cold.documents]
    assert result.pairs.left.tolist() == cold.pairs.left.tolist()
    assert result.notices == (
        "The disk holding the catalog is full; free some space there. "
        "This scan went on without the catalog.",
    )


@pytest.mark.parametrize("failure", ["python", "libxml2"])
def test_running_out_of_memory_is_never_kept_as_the_files_verdict(tmp_path, monkeypatch, failure):
    """Under a tight memory limit a DOCX failed with 'not a valid DOCX', cached for good."""
    from lxml import etree
    from simsift.core.read.extract import docx_parts
    from simsift.core.read.reader import OUT_OF_MEMORY, ReadTask, read_file

    def no_memory(*args, **kwargs):
        if failure == "python":
            raise MemoryError
        raise etree.XMLSyntaxError("Memory allocation failed", 2, 1, 1)

    source = Path(__file__).parents[1] / "data" / "extract" / "article_en.docx"
    path = tmp_path / "essay.docx"
    shutil.copy(source, path)
    task = ReadTask(str(path), path.stat().st_size, path.stat().st_mtime_ns, 1 << 30, True)
    monkeypatch.setattr(docx_parts, "_read", no_memory)  # parsing the package's parts
    record = read_file(task)
    assert record.retry and record.message == OUT_OF_MEMORY
    monkeypatch.undo()
    assert read_file(task).ok
