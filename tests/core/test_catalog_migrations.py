"""Catalogs written by past SimSift versions, opened by today's Catalog.

tests/data/catalogs/schema<N>.sqlite were written by the code of schema N itself
(tests/data/catalogs/make_catalogs.py: that commit's own scan of essays/ with one ignored
pair). Each is opened on a copy, migrated to the current schema, and compared with what the
old file holds and with a fresh scan of the same documents by today's code.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from simsift.core.document import READER_VERSION, FileRecord
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.store.catalog import SCHEMA_VERSION, Catalog

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "catalogs"
# as in make_catalogs.py: the folder the old versions scanned, and its files' mtime
FIXTURE_ROOT = "/tmp/simsift-catalog-fixture/essays"
MTIME_NS = 1_700_000_000_000_000_000

OLD_CATALOGS = sorted(FIXTURES.glob("schema*.sqlite"))


def version_of(fixture: Path) -> int:
    return int(fixture.stem.removeprefix("schema"))


def raw(path: Path, query: str) -> list[tuple]:
    # immutable: no -wal or -shm file is made beside a checked-in fixture
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        return conn.execute(query).fetchall()
    finally:
        conn.close()


def columns(path: Path) -> dict[str, list[tuple]]:
    """Each table's columns (name, type, not null, default, primary key) and its SQL."""
    tables = [name for (name,) in raw(path, "SELECT name FROM sqlite_master WHERE type='table'")]
    return {t: [c[1:] for c in raw(path, f"PRAGMA table_info({t})")] for t in sorted(tables)}


def stored_rows(fixture: Path) -> dict[str, tuple[str, bytes, int]]:
    """path -> (status, message, reader version) as the old file holds them (reader 0 before
    the column existed, as the migration sets it)."""
    has_reader = any(c[0] == "reader" for c in columns(fixture)["files"])
    reader = "reader" if has_reader else "0"
    rows = raw(fixture, f"SELECT path, status, message, {reader} FROM files")
    return {os.fsdecode(p): (status, os.fsdecode(msg), r) for p, status, msg, r in rows}


def comparable(record: FileRecord, root: str) -> tuple:
    """Everything a record holds, its path relative to `root`, its tokens as bytes."""
    tokens = None
    if record.tokens is not None:
        tokens = (
            *(
                np.asarray(getattr(stream, part)).tobytes()
                for stream in (record.tokens.title, record.tokens.body)
                for part in ("hashes", "is_digit", "para_starts", "marks")
            ),
            record.tokens.body.unbalanced_quotes,
        )
    return (
        os.path.relpath(record.path, root),
        record.size,
        record.mtime_ns,
        record.status,
        record.message,
        record.format,
        record.warning,
        tuple(record.flags),
        record.title,
        bytes(record.content_hash),
        bytes(record.text_hash),
        tuple(record.paragraphs),
        tokens,
    )


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> dict[str, FileRecord]:
    """Today's scan of the same documents (same names, sizes and mtimes), by relative path."""
    root = tmp_path_factory.mktemp("fresh") / "essays"
    shutil.copytree(FIXTURES / "essays", root)
    for path in root.iterdir():
        os.utime(path, ns=(MTIME_NS, MTIME_NS))
    with Catalog(root.parent / "catalog.sqlite") as catalog:
        scan(ScanOptions(roots=(str(root),), workers=0), catalog=catalog)
        records = catalog.records_under([str(root)])
    assert records, "the fresh scan stored nothing"
    return {os.path.relpath(r.path, root): r for r in records}


@pytest.fixture(params=OLD_CATALOGS, ids=lambda p: p.stem)
def migrated(request, tmp_path) -> tuple[Path, Path]:
    """(the checked-in old catalog, a copy of it opened once by today's Catalog)."""
    copy = tmp_path / request.param.name
    shutil.copyfile(request.param, copy)
    with Catalog(copy) as catalog:
        assert catalog.recovery is None
        assert catalog.schema_version == SCHEMA_VERSION
    return request.param, copy


def test_every_old_schema_version_has_a_fixture():
    assert [version_of(f) for f in OLD_CATALOGS] == list(range(1, SCHEMA_VERSION))


@pytest.mark.parametrize("fixture", OLD_CATALOGS, ids=lambda p: p.stem)
def test_each_fixture_is_the_version_its_name_says_and_small(fixture):
    assert raw(fixture, "PRAGMA user_version") == [(version_of(fixture),)]
    assert fixture.stat().st_size < 64 * 1024
    assert stored_rows(fixture), "an empty fixture tests nothing"


def test_migrated_schema_is_exactly_a_new_catalogs(migrated, tmp_path):
    old, copy = migrated
    with Catalog(tmp_path / "new.sqlite"):
        pass
    assert raw(copy, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert columns(copy) == columns(tmp_path / "new.sqlite")
    assert columns(copy) != columns(old)  # the fixture really was older


def test_migration_keeps_every_record_and_ignored_pair(migrated):
    old, copy = migrated
    stored = stored_rows(old)
    old_pairs = {
        frozenset(map(os.fsdecode, pair)) for pair in raw(old, "SELECT * FROM ignored_pairs")
    }
    with Catalog(copy) as catalog:
        records = catalog.records_under([FIXTURE_ROOT])
        assert {r.path: (r.status, r.message) for r in records} == {
            path: (status, message) for path, (status, message, _) in stored.items()
        }
        assert catalog.ignored_pairs() == old_pairs
        assert old_pairs
        assert catalog.verdicts() is not None  # the table added since is usable


def test_migrated_records_are_served_only_if_todays_reader_wrote_them(migrated, fresh):
    """A lookup returns exactly the records a reader of today's version wrote, and those
    equal a fresh scan's; records of an older reader are read again, as the scan does."""
    old, copy = migrated
    stored = stored_rows(old)
    keys = [(f"{FIXTURE_ROOT}/{name}", r.size, r.mtime_ns) for name, r in fresh.items()]
    assert {key[0] for key in keys} == set(stored)
    with Catalog(copy) as catalog:
        served = catalog.lookup_many(keys)
        assert set(served) == {p for p, (*_, reader) in stored.items() if reader == READER_VERSION}
        for path, record in served.items():
            assert comparable(record, FIXTURE_ROOT) == comparable(
                fresh[os.path.relpath(path, FIXTURE_ROOT)], fresh_root(fresh)
            )
        # what a scan then does: read the others again and store them over the old rows
        again = [
            replace(r, path=f"{FIXTURE_ROOT}/{name}")
            for name, r in fresh.items()
            if f"{FIXTURE_ROOT}/{name}" not in served
        ]
        catalog.store(again)
        records = catalog.lookup_many(keys)
    assert sorted(comparable(r, FIXTURE_ROOT) for r in records.values()) == sorted(
        comparable(r, fresh_root(fresh)) for r in fresh.values()
    )


def test_old_records_decode_to_their_stored_tokens(migrated, fresh):
    """Rows of every old version decode: tokens of the old reader come back as arrays of
    the stored lengths, and where that reader tokenized as today's does, equal today's."""
    old, copy = migrated
    lengths = {
        os.fsdecode(p): n
        for p, n in raw(old, "SELECT path, length(body_hashes) FROM files WHERE status = 'ok'")
    }
    with Catalog(copy) as catalog:
        records = {r.path: r for r in catalog.records_under([FIXTURE_ROOT])}
    assert lengths
    for path, n in lengths.items():
        body = records[path].tokens.body
        assert body.hashes.dtype == np.uint64 and len(body.hashes) * 8 == n
        today = fresh[os.path.relpath(path, FIXTURE_ROOT)]
        if records[path].paragraphs == today.paragraphs:
            assert np.array_equal(body.hashes, today.tokens.body.hashes)


def fresh_root(fresh: dict[str, FileRecord]) -> str:
    name, record = next(iter(fresh.items()))
    return record.path[: -len(name) - 1]
