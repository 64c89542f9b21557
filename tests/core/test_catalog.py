"""Tests of the SQLite catalog: roundtrips, cache hits, atomic batches, crash safety, pruning."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from simsift.core.document import FileRecord
from simsift.core.store import catalog as catalog_module
from simsift.core.store.catalog import SCHEMA_VERSION, Catalog, CatalogError, default_catalog_path
from simsift.core.store.verdicts import COPYING, NOT_COPYING, Verdict
from simsift.core.text.tokens import DocumentTokens, TokenStream, document_tokens

REPO_ROOT = Path(__file__).resolve().parents[2]


def ok_record(path: str, size: int = 100, mtime_ns: int = 1, **fields) -> FileRecord:
    """An "ok" record with real tokens of its paragraphs."""
    title = fields.pop("title", "标题")
    paragraphs = fields.pop("paragraphs", ("段落一 text", "second paragraph"))
    return FileRecord(
        path=path,
        size=size,
        mtime_ns=mtime_ns,
        status="ok",
        format="txt",
        title=title,
        content_hash=b"\x01" * 32,
        text_hash=b"\x02" * 32,
        paragraphs=tuple(paragraphs),
        tokens=document_tokens(title, list(paragraphs)),
        **fields,
    )


def skipped_record(path: str, size: int = 10, mtime_ns: int = 1) -> FileRecord:
    return FileRecord(path=path, size=size, mtime_ns=mtime_ns, status="skipped")


def assert_streams_equal(actual: TokenStream, expected: TokenStream) -> None:
    for name in ("hashes", "is_digit", "para_starts", "marks"):
        got, want = getattr(actual, name), getattr(expected, name)
        assert got.dtype == want.dtype, name
        np.testing.assert_array_equal(got, want, err_msg=name)
    assert actual.unbalanced_quotes == expected.unbalanced_quotes


def assert_records_equal(actual: FileRecord, expected: FileRecord) -> None:
    for name in ("path", "size", "mtime_ns", "status", "message", "format", "title"):
        assert getattr(actual, name) == getattr(expected, name), name
    assert actual.content_hash == expected.content_hash
    assert actual.text_hash == expected.text_hash
    assert actual.paragraphs == expected.paragraphs
    assert isinstance(actual.tokens, DocumentTokens)
    assert_streams_equal(actual.tokens.title, expected.tokens.title)
    assert_streams_equal(actual.tokens.body, expected.tokens.body)


@pytest.fixture
def catalog_path(tmp_path: Path) -> Path:
    return tmp_path / "catalog.sqlite3"


# -- roundtrips ----------------------------------------------------------------


def test_chinese_record_with_tokens_roundtrips_across_reopen(catalog_path: Path) -> None:
    record = ok_record("/文档/论文 一.txt", size=1234, mtime_ns=1_700_000_000_123_456_789)
    assert len(record.tokens.body) > 0 and len(record.tokens.title) > 0
    with Catalog(catalog_path) as catalog:
        catalog.store([record])
    with Catalog(catalog_path) as catalog:
        loaded = catalog.lookup(record.path, record.size, record.mtime_ns)
    assert loaded is not None
    assert_records_equal(loaded, record)


def test_loaded_token_arrays_are_read_only(tmp_path: Path) -> None:
    with Catalog(tmp_path / "c.sqlite3") as catalog:
        catalog.store([ok_record("/a.txt")])
        loaded = catalog.lookup("/a.txt", 100, 1)
    with pytest.raises(ValueError, match="read-only"):
        loaded.tokens.body.hashes[0] = 0


def test_empty_paragraphs_keep_their_count(catalog_path: Path) -> None:
    record = ok_record("/a.txt", paragraphs=("", "x\x1ey", ""))
    with Catalog(catalog_path) as catalog:
        catalog.store([record, ok_record("/none.txt", paragraphs=())])
        assert catalog.lookup("/a.txt", 100, 1).paragraphs == ("", "x\x1ey", "")
        assert catalog.lookup("/none.txt", 100, 1).paragraphs == ()


def test_loaded_paragraphs_are_unpacked_only_when_read(catalog_path: Path) -> None:
    import pickle

    paragraphs = ("first paragraph", "第二段", "")
    with Catalog(catalog_path) as catalog:
        catalog.store([ok_record("/a.txt", paragraphs=paragraphs)])
        loaded = catalog.lookup("/a.txt", 100, 1)
    assert loaded.paragraphs._items is None  # a rescan compares tokens, not text
    assert loaded.paragraphs == paragraphs and loaded.paragraphs[1:] == paragraphs[1:]
    assert len(loaded.paragraphs) == 3 and hash(loaded.paragraphs) == hash(paragraphs)
    sent = pickle.loads(pickle.dumps(loaded))  # to a worker or a cluster: a plain tuple
    assert type(sent.paragraphs) is tuple and sent.paragraphs == paragraphs


def test_many_paragraphs_roundtrip_in_order(catalog_path: Path) -> None:
    """A huge file's paragraphs are compressed in batches; they come back as they were."""
    paragraphs = tuple(f'{i} "quoted" \\ 段落 {"" if i % 7 else chr(10)}' for i in range(2500))
    paragraphs = ("", *paragraphs, "")
    record = ok_record("/big.txt", paragraphs=paragraphs)
    with Catalog(catalog_path) as catalog:
        catalog.store([record])
    with Catalog(catalog_path) as catalog:
        assert catalog.lookup("/big.txt", 100, 1).paragraphs == paragraphs


def test_error_record_keeps_message_and_stores_no_tokens(catalog_path: Path) -> None:
    tokens = document_tokens("t", ["body"])
    record = FileRecord(
        "/a/broken.pdf", 5, 7, "error", message="文件已损坏 (damaged)", tokens=tokens
    )
    with Catalog(catalog_path) as catalog:
        catalog.store([record])
        loaded = catalog.lookup("/a/broken.pdf", 5, 7)
    assert loaded.status == "error"
    assert loaded.message == "文件已损坏 (damaged)"
    assert loaded.tokens is None


def test_path_and_text_that_are_not_valid_utf8_roundtrip(catalog_path: Path) -> None:
    # A POSIX file name with a non-UTF-8 byte reaches Python as a lone surrogate.
    path = os.fsdecode(b"/docs/bad\xff name.txt") if os.name == "posix" else "/docs/bad\udcff.txt"
    # Tokens come from clean text: the tokenizer itself does not accept lone surrogates.
    record = replace(
        ok_record(path), paragraphs=("lone \ud800 surrogate",), message="cannot \udcff"
    )
    with Catalog(catalog_path) as catalog:
        catalog.store([record])
    with Catalog(catalog_path) as catalog:
        loaded = catalog.lookup(path, 100, 1)
        assert [r.path for r in catalog.records_under(["/docs"])] == [path]
    assert_records_equal(loaded, record)


def test_store_replaces_the_previous_record_of_a_path(catalog_path: Path) -> None:
    with Catalog(catalog_path) as catalog:
        catalog.store([ok_record("/a.txt", size=1, paragraphs=("old",))])
        catalog.store([ok_record("/a.txt", size=2, paragraphs=("new",))])
        assert catalog.lookup("/a.txt", 1, 1) is None
        assert catalog.lookup("/a.txt", 2, 1).paragraphs == ("new",)
        assert len(catalog.records_under(["/"])) == 1


# -- cache lookups -------------------------------------------------------------


def test_lookup_misses_when_size_or_mtime_changed(catalog_path: Path) -> None:
    with Catalog(catalog_path) as catalog:
        catalog.store([ok_record("/a.txt", size=100, mtime_ns=5)])
        assert catalog.lookup("/a.txt", 100, 5) is not None
        assert catalog.lookup("/a.txt", 101, 5) is None
        assert catalog.lookup("/a.txt", 100, 6) is None
        assert catalog.lookup("/b.txt", 100, 5) is None


def test_lookup_many_returns_only_unchanged_files(catalog_path: Path) -> None:
    with Catalog(catalog_path) as catalog:
        catalog.store([skipped_record(f"/d/{i}.bin", size=i, mtime_ns=i) for i in range(5)])
        found = catalog.lookup_many(
            [
                ("/d/0.bin", 0, 0),
                ("/d/1.bin", 1, 1),
                ("/d/2.bin", 99, 2),  # size changed
                ("/d/3.bin", 3, 99),  # mtime changed
                ("/d/new.bin", 1, 1),  # never scanned
            ]
        )
    assert sorted(found) == ["/d/0.bin", "/d/1.bin"]
    assert found["/d/1.bin"].size == 1


def test_lookup_many_handles_more_keys_than_one_query_holds(catalog_path: Path) -> None:
    count = 3 * catalog_module._QUERY_CHUNK + 7
    records = [skipped_record(f"/d/{i:05}.bin", size=i) for i in range(count)]
    with Catalog(catalog_path) as catalog:
        catalog.store(records)
        found = catalog.lookup_many((r.path, r.size, r.mtime_ns) for r in records)
    assert len(found) == count


# -- atomicity and crash safety ------------------------------------------------


@pytest.mark.parametrize(
    "bad_record",
    [
        FileRecord("/b/bad.txt", 1, 1, "ok", paragraphs=("fine", 42)),  # type: ignore[arg-type]
        FileRecord("/b/bad.txt", 1, 1, "ok", tokens="not tokens"),
    ],
    ids=["non-str paragraph", "bogus tokens"],
)
def test_a_failing_record_rolls_back_its_whole_batch(
    catalog_path: Path, bad_record: FileRecord
) -> None:
    with Catalog(catalog_path) as catalog:
        catalog.store([ok_record("/a/1.txt"), ok_record("/a/2.txt")])
        batch = [ok_record("/b/before.txt"), bad_record, ok_record("/b/after.txt")]
        with pytest.raises(TypeError):
            catalog.store(batch)
        assert catalog.records_under(["/b"]) == []
        # The failed batch leaves no open transaction behind: the next batch commits.
        catalog.store([ok_record("/c/next.txt")])
    with Catalog(catalog_path) as catalog:
        assert [r.path for r in catalog.records_under(["/a", "/b", "/c"])] == [
            "/a/1.txt",
            "/a/2.txt",
            "/c/next.txt",
        ]


_KILLED_WRITER = textwrap.dedent(
    """
    import sys, time
    from simsift.core.store.catalog import Catalog
    from simsift.core.document import FileRecord

    catalog = Catalog(sys.argv[1])
    catalog.store(FileRecord(f"/done/{i}.txt", i, i, "skipped") for i in range(50))
    print("committed", flush=True)

    inserts = 0

    def pause_after_the_first_insert(statement):
        global inserts
        if statement.startswith("INSERT"):
            inserts += 1
            if inserts == 2:
                print("writing", flush=True)
                time.sleep(60)  # killed here, inside the open transaction

    catalog._conn.set_trace_callback(pause_after_the_first_insert)
    catalog.store(FileRecord(f"/half/{i}.txt", i, i, "skipped") for i in range(2))
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_mid_batch_keeps_committed_batches(catalog_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WRITER, str(catalog_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        env=env,
    )
    try:
        assert child.stdout.readline().strip() == "committed"
        assert child.stdout.readline().strip() == "writing"
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL

    with Catalog(catalog_path) as catalog:
        assert len(catalog.records_under(["/done"])) == 50
        assert catalog.records_under(["/half"]) == []
        assert catalog.lookup("/done/7.txt", 7, 7) is not None


def test_scanner_thread_writes_while_another_thread_reads(catalog_path: Path) -> None:
    errors: list[BaseException] = []
    catalog = Catalog(catalog_path)

    def write() -> None:
        try:
            for batch in range(40):
                catalog.store(skipped_record(f"/w/{batch}/{i}") for i in range(50))
        except BaseException as error:
            errors.append(error)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while writer.is_alive():
            catalog.lookup_many([(f"/w/0/{i}", 10, 1) for i in range(50)])
            catalog.records_under(["/w/1"])
    finally:
        writer.join()
    assert errors == []
    assert len(catalog.records_under(["/w"])) == 40 * 50
    catalog.close()


# -- pruning and reopening -----------------------------------------------------

TRICKY_PATHS = [
    "/a/b/x.txt",
    "/a/b/sub/y.txt",
    "/a/bc/x.txt",
    "/a/b%/z.txt",
    "/a/b_/z.txt",
    "/a/bXc/z.txt",
    "/a/b c/中文 文件.txt",
    "/a/中文/论文 1.txt",
    "/a/中文2/other.txt",
    "/a/50%_off/q.txt",
    "/ab/x.txt",
]


def under_oracle(root: str, paths: list[str]) -> set[str]:
    """Brute-force meaning of "under root": the root itself or below it."""
    root = root.rstrip("/")
    return {p for p in paths if p == root or p.startswith(root + "/")}


@pytest.fixture
def tricky_catalog(tmp_path: Path):
    with Catalog(tmp_path / "tricky.sqlite3") as catalog:
        catalog.store(skipped_record(p) for p in TRICKY_PATHS)
        yield catalog


@pytest.mark.parametrize(
    ("root", "expected"),
    [
        ("/a/b", {"/a/b/x.txt", "/a/b/sub/y.txt"}),
        ("/a/b/", {"/a/b/x.txt", "/a/b/sub/y.txt"}),
        ("/a/b%", {"/a/b%/z.txt"}),
        ("/a/b_", {"/a/b_/z.txt"}),
        ("/a/b c", {"/a/b c/中文 文件.txt"}),
        ("/a/中文", {"/a/中文/论文 1.txt"}),
        ("/a/50%_off", {"/a/50%_off/q.txt"}),
        ("/a/b/x.txt", {"/a/b/x.txt"}),
        ("/a/nothing", set()),
        ("/", set(TRICKY_PATHS)),
    ],
)
def test_prune_deletes_exactly_the_files_under_root(
    tricky_catalog: Catalog, root: str, expected: set[str]
) -> None:
    assert under_oracle(root, TRICKY_PATHS) == expected
    deleted = tricky_catalog.prune([root], keep_paths=set())
    remaining = {r.path for r in tricky_catalog.records_under(["/"])}
    assert deleted == len(expected)
    assert remaining == set(TRICKY_PATHS) - expected


def test_prune_keeps_files_still_on_disk(tricky_catalog: Catalog) -> None:
    deleted = tricky_catalog.prune(["/a/b", "/a/中文"], keep_paths={"/a/b/x.txt", "/a/bc/x.txt"})
    assert deleted == 2
    remaining = {r.path for r in tricky_catalog.records_under(["/"])}
    assert remaining == set(TRICKY_PATHS) - {"/a/b/sub/y.txt", "/a/中文/论文 1.txt"}


def test_records_under_overlapping_roots_lists_each_file_once_sorted(
    tricky_catalog: Catalog,
) -> None:
    records = tricky_catalog.records_under(["/a/b", "/a/b/sub", "/a/b c"])
    expected = sorted(under_oracle("/a/b", TRICKY_PATHS) | under_oracle("/a/b c", TRICKY_PATHS))
    assert [r.path for r in records] == expected


# -- ignored pairs -------------------------------------------------------------


def test_ignored_pairs_are_order_independent_and_persist(catalog_path: Path) -> None:
    with Catalog(catalog_path) as catalog:
        catalog.ignore_pair("/x/甲.txt", "/x/a b.txt")
        catalog.ignore_pair("/x/a b.txt", "/x/甲.txt")
        catalog.ignore_pair("/x/1", "/x/2")
    with Catalog(catalog_path) as catalog:
        assert catalog.ignored_pairs() == {
            frozenset({"/x/甲.txt", "/x/a b.txt"}),
            frozenset({"/x/1", "/x/2"}),
        }
        catalog.unignore_pair("/x/甲.txt", "/x/a b.txt")
        catalog.unignore_pair("/x/never", "/x/ignored")
    with Catalog(catalog_path) as catalog:
        assert catalog.ignored_pairs() == {frozenset({"/x/1", "/x/2"})}


def test_a_file_cannot_be_paired_with_itself(catalog_path: Path) -> None:
    with Catalog(catalog_path) as catalog, pytest.raises(ValueError):
        catalog.ignore_pair("/x/a", "/x/a")


# -- schema, identity, damage --------------------------------------------------


def test_new_catalog_has_current_schema_version_and_wal(catalog_path: Path) -> None:
    with Catalog(catalog_path) as catalog:
        assert catalog.schema_version == SCHEMA_VERSION == 5
    with sqlite3.connect(catalog_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA application_id").fetchone()[0] == catalog_module.APPLICATION_ID
    raw.close()


def test_catalog_from_a_newer_simsift_is_refused(catalog_path: Path) -> None:
    Catalog(catalog_path).close()
    raw = sqlite3.connect(catalog_path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(CatalogError, match="newer SimSift"):
        Catalog(catalog_path)


def test_garbage_file_raises_catalog_error_and_is_left_alone(catalog_path: Path) -> None:
    garbage = bytes(range(256)) * 64
    catalog_path.write_bytes(garbage)
    with pytest.raises(CatalogError, match="damaged"):
        Catalog(catalog_path)
    assert catalog_path.read_bytes() == garbage


def test_foreign_sqlite_database_is_refused(catalog_path: Path) -> None:
    raw = sqlite3.connect(catalog_path)
    raw.execute("CREATE TABLE files (name TEXT)")
    raw.commit()
    raw.close()
    with pytest.raises(CatalogError, match="not a SimSift catalog"):
        Catalog(catalog_path)


def test_empty_file_becomes_a_catalog(catalog_path: Path) -> None:
    catalog_path.write_bytes(b"")
    with Catalog(catalog_path) as catalog:
        assert catalog.schema_version == SCHEMA_VERSION


def test_closed_catalog_raises_catalog_error() -> None:
    catalog = Catalog(":memory:")
    with catalog:
        catalog.store([skipped_record("/a")])
    with pytest.raises(CatalogError, match="closed"):
        catalog.lookup("/a", 10, 1)


def test_default_catalog_path_is_in_user_data_dir(tmp_path: Path, monkeypatch) -> None:
    data_dir = tmp_path / "data" / "SimSift"
    monkeypatch.setattr(
        catalog_module.platformdirs, "user_data_dir", lambda name, appauthor: str(data_dir)
    )
    path = default_catalog_path()
    assert path == data_dir / "catalog.sqlite3"
    assert data_dir.is_dir()


def test_warnings_are_kept_with_the_record(catalog_path: Path) -> None:
    record = ok_record("/w/a.txt", warning="3 characters could not be decoded (shown as �)")
    with Catalog(catalog_path) as catalog:
        catalog.store([record])
        assert catalog.lookup("/w/a.txt", 100, 1).warning == record.warning


# -- damaged catalogs, foreign files, full disks --------------------------------


def damage(path: Path, start: int, end: int) -> None:
    """Overwrite bytes [start, end) of `path` with random bytes, as a failing disk might."""
    with path.open("r+b") as file:
        file.seek(start)
        file.write(np.random.default_rng(7).bytes(end - start))


def filled_catalog(path: Path, records: int = 300) -> None:
    """A closed catalog of several pages (files on page 2, ignored pairs on page 3)."""
    with Catalog(path) as catalog:
        catalog.store(skipped_record(f"/d/{i:04}.txt", size=i) for i in range(records))
        catalog.ignore_pair("/d/a.txt", "/d/b.txt")
        catalog.set_verdict(("/d/c.txt", "/d/d.txt"), Verdict(COPYING, "same errors", 1700000000))
    assert path.stat().st_size > 8192


def set_aside_files(path: Path) -> list[Path]:
    """The damaged catalogs set aside next to `path` (without their -wal/-shm files)."""
    found = path.parent.glob(path.name + ".damaged-*")
    return sorted(p for p in found if not p.name.endswith(("-wal", "-shm")))


def journal_mode(path: Path) -> str:
    raw = sqlite3.connect(path)
    try:
        return raw.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        raw.close()


def foreign_database(path: Path, application_id: int = 0) -> None:
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA application_id = {application_id}")
    raw.execute("CREATE TABLE notes (body TEXT)")
    raw.executemany("INSERT INTO notes VALUES (?)", [("x" * 500,)] * 40)
    raw.commit()
    raw.close()


@pytest.mark.parametrize(
    "operation",
    [
        lambda c: c.lookup_many([("/d/0001.txt", 1, 1)]),
        lambda c: c.store([skipped_record("/d/new.txt")]),
        lambda c: c.prune(["/d"], keep_paths=set()),
        lambda c: c.records_under(["/d"]),
    ],
    ids=["lookup_many", "store", "prune", "records_under"],
)
def test_a_damaged_page_found_later_sets_the_catalog_aside_and_keeps_going(
    catalog_path: Path, operation
) -> None:
    filled_catalog(catalog_path)
    damage(catalog_path, 4096, 8192)
    damaged_bytes = catalog_path.read_bytes()
    with Catalog(catalog_path) as catalog:
        operation(catalog)  # no CatalogError: the scan goes on with an empty catalog
        assert catalog.recovery is not None
        assert catalog.lookup("/d/0001.txt", 1, 1) is None  # read again
        assert catalog.ignored_pairs() == {frozenset({"/d/a.txt", "/d/b.txt"})}
        assert catalog.verdicts().of_pair("/d/d.txt", "/d/c.txt").note == "same errors"
        catalog.store([skipped_record("/d/after.txt")])
    [aside] = set_aside_files(catalog_path)
    assert aside.read_bytes() == damaged_bytes
    assert catalog.recovery.set_aside == aside
    assert "lost" not in catalog.recovery.message
    assert str(aside) in catalog.recovery.message
    with Catalog(catalog_path) as catalog:
        assert catalog.recovery is None
        assert catalog.lookup("/d/after.txt", 10, 1) is not None
        assert catalog.ignored_pairs() == {frozenset({"/d/a.txt", "/d/b.txt"})}


def test_damage_found_at_open_sets_the_catalog_aside_and_says_pairs_are_lost(
    catalog_path: Path,
) -> None:
    filled_catalog(catalog_path)
    damage(catalog_path, 100, 4096)  # the schema on page 1, after the file header
    with Catalog(catalog_path) as catalog:
        assert catalog.recovery is not None
        assert catalog.schema_version == SCHEMA_VERSION
        assert catalog.records_under(["/"]) == []
        assert catalog.ignored_pairs() == set()
    assert "lost" in catalog.recovery.message
    assert len(set_aside_files(catalog_path)) == 1


def test_setting_aside_moves_the_wal_and_shm_files_and_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "catalog.sqlite3"
    sidecars = ("", "-wal", "-shm")
    asides = []
    for damaged in ("first", "second"):  # within the same second
        for suffix in sidecars:
            Path(f"{path}{suffix}").write_text(damaged + suffix)
        asides.append(catalog_module._set_aside(path))
    assert asides[0] != asides[1]
    assert asides == set_aside_files(path)
    assert asides[0].name.startswith("catalog.sqlite3.damaged-")
    for aside, damaged in zip(asides, ("first", "second"), strict=True):
        for suffix in sidecars:
            assert Path(f"{aside}{suffix}").read_text() == damaged + suffix
    assert not any(Path(f"{path}{suffix}").exists() for suffix in sidecars)


def test_a_catalog_another_process_already_replaced_is_not_set_aside_again(
    catalog_path: Path,
) -> None:
    filled_catalog(catalog_path)
    damage(catalog_path, 4096, 8192)
    first, second = Catalog(catalog_path), Catalog(catalog_path)
    try:
        first.lookup_many([("/d/0001.txt", 1, 1)])
        first.store([skipped_record("/d/kept.txt")])
        second.lookup_many([("/d/0001.txt", 1, 1)])  # still on the damaged file
        assert second.recovery is not None
        assert second.lookup("/d/kept.txt", 10, 1) is not None
    finally:
        first.close()
        second.close()
    assert len(set_aside_files(catalog_path)) == 1


def test_a_damaged_foreign_database_is_refused_and_left_alone(catalog_path: Path) -> None:
    foreign_database(catalog_path)
    damage(catalog_path, 100, 4096)
    before = catalog_path.read_bytes()
    with pytest.raises(CatalogError):
        Catalog(catalog_path)
    assert catalog_path.read_bytes() == before
    assert list(catalog_path.parent.iterdir()) == [catalog_path]


@pytest.mark.parametrize("application_id", [0, 0x12345678], ids=["no id", "another id"])
def test_foreign_sqlite_file_is_refused_and_byte_for_byte_unchanged(
    catalog_path: Path, application_id: int
) -> None:
    foreign_database(catalog_path, application_id)
    before = catalog_path.read_bytes()
    with pytest.raises(CatalogError, match="not a SimSift catalog"):
        Catalog(catalog_path)
    assert catalog_path.read_bytes() == before
    assert list(catalog_path.parent.iterdir()) == [catalog_path]
    assert journal_mode(catalog_path) == "delete"


def test_catalog_from_a_newer_simsift_is_byte_for_byte_unchanged(catalog_path: Path) -> None:
    filled_catalog(catalog_path)
    raw = sqlite3.connect(catalog_path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    before = catalog_path.read_bytes()
    with pytest.raises(CatalogError, match="newer SimSift"):
        Catalog(catalog_path)
    assert catalog_path.read_bytes() == before
    assert set_aside_files(catalog_path) == []


def big_records(prefix: str, count: int) -> list[FileRecord]:
    """Records of incompressible paragraphs: each needs pages of its own."""
    rng = np.random.default_rng(3)
    return [
        ok_record(f"{prefix}/{i}.txt", paragraphs=(rng.bytes(6000).hex(),)) for i in range(count)
    ]


def test_a_full_disk_raises_a_clear_catalog_error_and_keeps_the_stored_records(
    catalog_path: Path,
) -> None:
    with Catalog(catalog_path) as catalog:
        catalog.store(big_records("/old", 3))
        pages = catalog._conn.execute("PRAGMA page_count").fetchone()[0]
        catalog._conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLITE_FULL from here on
        with pytest.raises(CatalogError, match=r"disk holding the catalog .* is full"):
            catalog.store(big_records("/new", 3))
        assert len(catalog.records_under(["/old"])) == 3
        assert catalog.records_under(["/new"]) == []
        assert catalog.recovery is None
        catalog._conn.execute(f"PRAGMA max_page_count = {pages * 100}")  # space freed
        catalog.store(big_records("/new", 3))
    with Catalog(catalog_path) as catalog:
        assert len(catalog.records_under(["/old", "/new"])) == 6


def test_a_read_only_catalog_raises_a_clear_catalog_error(catalog_path: Path) -> None:
    with Catalog(catalog_path) as catalog:
        catalog.store([skipped_record("/a")])
        catalog._conn.execute("PRAGMA query_only = 1")  # as a read-only file or disk answers
        with pytest.raises(CatalogError, match="cannot be written"):
            catalog.store([skipped_record("/b")])
        assert catalog.lookup("/a", 10, 1) is not None


def test_a_folder_given_as_catalog_raises_catalog_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="Cannot open"):
        Catalog(tmp_path)


# -- verdicts ------------------------------------------------------------------


def test_verdicts_on_documents_and_pairs_are_kept_across_sessions(catalog_path: Path) -> None:
    with Catalog(catalog_path) as catalog:
        catalog.set_verdict(("/e/b.txt", "/e/a.txt"), Verdict(COPYING, "identical typos"))
        catalog.set_verdict(("/e/c.txt",), Verdict(NOT_COPYING, "quotes the prompt"))
        catalog.set_verdict(("/e/文章.txt", "/e/a.txt"), Verdict(NOT_COPYING))
    with Catalog(catalog_path) as catalog:
        verdicts = catalog.verdicts()
        assert len(verdicts) == 3
        pair = verdicts.of_pair("/e/a.txt", "/e/b.txt")  # either order
        assert (pair.verdict, pair.note) == (COPYING, "identical typos")
        assert verdicts.of_document("/e/c.txt").verdict == NOT_COPYING
        assert verdicts.of_pair("/e/a.txt", "/e/文章.txt").verdict == NOT_COPYING
        assert verdicts.of_document("/e/a.txt") is None  # a pair's verdict is not the file's


def test_a_verdict_can_be_changed_and_withdrawn(catalog_path: Path) -> None:
    with Catalog(catalog_path) as catalog:
        catalog.set_verdict(("/e/a.txt",), Verdict(COPYING, "first look"))
        catalog.set_verdict(("/e/a.txt",), Verdict(NOT_COPYING, "second look"))
        assert catalog.verdicts().of_document("/e/a.txt").note == "second look"
        catalog.set_verdict(("/e/a.txt",), None)
        assert len(catalog.verdicts()) == 0
        with pytest.raises(ValueError):
            catalog.set_verdict(("/e/a.txt", "/e/a.txt"), Verdict(COPYING))
    with pytest.raises(ValueError):
        Verdict("maybe")


def test_integrity_flags_round_trip(tmp_path):
    flags = ("212 words of hidden text (white text in 3 places)", "look-alike letters: а→a ×14")
    record = ok_record("/essays/a.txt", flags=flags)
    with Catalog(tmp_path / "c.sqlite3") as catalog:
        catalog.store([record, ok_record("/essays/b.txt")])
    with Catalog(tmp_path / "c.sqlite3") as catalog:
        found = catalog.lookup_many([("/essays/a.txt", 100, 1), ("/essays/b.txt", 100, 1)])
    assert found["/essays/a.txt"].flags == flags and found["/essays/b.txt"].flags == ()
