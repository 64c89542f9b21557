"""Persistent catalog of scanned files: an embedded SQLite database.

The catalog caches what a scan learned about each file (extraction outcome, hashes,
paragraphs and token streams) keyed by path, size and modification time, so a
rescan of an unchanged folder skips extraction and tokenization. It also remembers
pairs the user chose to ignore. It only ever stores paths and derived data: deleting
the catalog file never touches user files.

Storage choices:

* Paths, titles, messages and paragraphs are stored as UTF-8 BLOBs encoded with
  ``surrogatepass``: file names that are not valid UTF-8 reach Python as lone
  surrogates (``os.fsdecode``), which SQLite TEXT cannot hold. Byte order equals
  code-point order, so prefix queries over paths still work on the BLOBs.
* Token arrays are stored with ``tobytes()`` using explicit little-endian dtypes
  ('<u8', '|b1', '<i4') and decoded with ``np.frombuffer`` without copying: the
  arrays in returned records are **read-only**, which also protects the cache.
* Paragraphs are one zlib-compressed JSON list (unambiguous for empty paragraphs
  and for any character inside them).

Threading: one connection opened with ``check_same_thread=False`` and every
operation serialized by a ``threading.Lock``, so the scanner thread may write
while the GUI thread reads through the same `Catalog`. Other processes may open
the same file; WAL mode lets their readers proceed during a write.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

import numpy as np
import platformdirs

from core.document import READER_VERSION, STATUS_OK, FileRecord
from core.tokens import DocumentTokens, TokenStream

CATALOG_FILENAME = "catalog.sqlite3"

# "SmSf": marks the file as a SimSift catalog, so a foreign SQLite file is refused.
APPLICATION_ID = 0x536D5366

_HASH_DTYPE = np.dtype("<u8")
_DIGIT_DTYPE = np.dtype("|b1")
_START_DTYPE = np.dtype("<i4")

# SQLite limits the number of bound parameters per statement; stay well below.
_QUERY_CHUNK = 500

# Only the platform's own separators: on POSIX a backslash is an ordinary name character.
_SEPARATORS = tuple(sep for sep in (os.sep, os.altsep) if sep)

# Migration i (0-based) upgrades the schema from version i to version i + 1.
_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        f"PRAGMA application_id = {APPLICATION_ID}",
        """
        CREATE TABLE files (
            path BLOB PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            status TEXT NOT NULL,
            message BLOB NOT NULL,
            format TEXT NOT NULL,
            title BLOB NOT NULL,
            content_hash BLOB NOT NULL,
            text_hash BLOB NOT NULL,
            paragraphs BLOB NOT NULL,
            title_hashes BLOB,
            title_is_digit BLOB,
            title_para_starts BLOB,
            body_hashes BLOB,
            body_is_digit BLOB,
            body_para_starts BLOB
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE ignored_pairs (
            path_a BLOB NOT NULL,
            path_b BLOB NOT NULL,
            PRIMARY KEY (path_a, path_b),
            CHECK (path_a < path_b)
        ) WITHOUT ROWID
        """,
    ),
    (
        "ALTER TABLE files ADD COLUMN warning BLOB NOT NULL DEFAULT x''",
        # records read by an older reader are read again (see READER_VERSION)
        "ALTER TABLE files ADD COLUMN reader INTEGER NOT NULL DEFAULT 0",
    ),
)

SCHEMA_VERSION = len(_MIGRATIONS)

_COLUMNS = (
    "path, size, mtime_ns, status, message, format, title, content_hash, text_hash, "
    "paragraphs, title_hashes, title_is_digit, title_para_starts, "
    "body_hashes, body_is_digit, body_para_starts, warning, reader"
)
_PLACEHOLDERS = ", ".join("?" * len(_COLUMNS.split(",")))


class CatalogError(Exception):
    """The catalog cannot be used (damaged, foreign or too new); the message says why."""


def default_catalog_path() -> Path:
    """Where the catalog lives: the user data directory (created if missing)."""
    folder = Path(platformdirs.user_data_dir("SimSift", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / CATALOG_FILENAME


def _text_to_blob(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _blob_to_text(blob: bytes) -> str:
    return blob.decode("utf-8", "surrogatepass")


def _encode_paragraphs(paragraphs: tuple[str, ...]) -> bytes:
    if not all(isinstance(p, str) for p in paragraphs):
        raise TypeError("FileRecord.paragraphs must contain only str")
    return zlib.compress(_text_to_blob(json.dumps(list(paragraphs), ensure_ascii=False)))


def _decode_paragraphs(blob: bytes) -> tuple[str, ...]:
    return tuple(json.loads(_blob_to_text(zlib.decompress(blob))))


def _encode_stream(stream: TokenStream) -> tuple[bytes, bytes, bytes]:
    return (
        np.asarray(stream.hashes, dtype=_HASH_DTYPE).tobytes(),
        np.asarray(stream.is_digit, dtype=_DIGIT_DTYPE).tobytes(),
        np.asarray(stream.para_starts, dtype=_START_DTYPE).tobytes(),
    )


def _decode_stream(hashes: bytes, is_digit: bytes, para_starts: bytes) -> TokenStream:
    # Zero-copy views over the fetched bytes: read-only by design.
    return TokenStream(
        hashes=np.frombuffer(hashes, dtype=_HASH_DTYPE),
        is_digit=np.frombuffer(is_digit, dtype=_DIGIT_DTYPE),
        para_starts=np.frombuffer(para_starts, dtype=_START_DTYPE),
    )


def _encode_tokens(record: FileRecord) -> tuple[bytes | None, ...]:
    """Six token BLOBs, or six NULLs: only "ok" records cache tokens."""
    if record.status != STATUS_OK or record.tokens is None:
        return (None,) * 6
    if not isinstance(record.tokens, DocumentTokens):
        raise TypeError(f"FileRecord.tokens must be DocumentTokens, not {type(record.tokens)}")
    return _encode_stream(record.tokens.title) + _encode_stream(record.tokens.body)


def _record_to_row(record: FileRecord) -> tuple:
    return (
        _text_to_blob(record.path),
        record.size,
        record.mtime_ns,
        record.status,
        _text_to_blob(record.message),
        record.format,
        _text_to_blob(record.title),
        bytes(record.content_hash),
        bytes(record.text_hash),
        _encode_paragraphs(record.paragraphs),
        *_encode_tokens(record),
        _text_to_blob(record.warning),
        READER_VERSION,
    )


def _row_to_record(row: tuple) -> FileRecord:
    path, size, mtime_ns, status, message, fmt, title, content_hash, text_hash = row[:9]
    paragraphs, token_blobs, warning = row[9], row[10:16], row[16]
    tokens = None
    if token_blobs[0] is not None:
        tokens = DocumentTokens(
            title=_decode_stream(*token_blobs[:3]), body=_decode_stream(*token_blobs[3:])
        )
    return FileRecord(
        path=_blob_to_text(path),
        size=size,
        mtime_ns=mtime_ns,
        status=status,
        message=_blob_to_text(message),
        format=fmt,
        title=_blob_to_text(title),
        content_hash=content_hash,
        text_hash=text_hash,
        paragraphs=_decode_paragraphs(paragraphs),
        tokens=tokens,
        warning=_blob_to_text(warning),
    )


def _root_ranges(root: str) -> Iterator[tuple[bytes, bytes, bytes]]:
    """(root, low, high) BLOB bounds: paths under root are root itself or in [low, high).

    A byte range after "root/" instead of LIKE: no wildcard escaping, and "/a/b" can
    never match "/a/bc". On Windows both separators are covered.
    """
    trimmed = root.rstrip("".join(_SEPARATORS))
    base = _text_to_blob(trimmed)
    for sep in _SEPARATORS:
        low = base + sep.encode()
        high = base + bytes([ord(sep) + 1])
        yield base, low, high


def _ranges_of(roots: Iterable[str]) -> Iterator[tuple[bytes, bytes, bytes]]:
    for root in roots:
        yield from _root_ranges(root)


def _pair_key(path_a: str, path_b: str) -> tuple[bytes, bytes]:
    a, b = sorted((_text_to_blob(path_a), _text_to_blob(path_b)))
    return a, b


def _chunks(items: list, size: int) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class Catalog:
    """The SQLite catalog of scanned files and ignored pairs.

    Args:
        path: the catalog file (created if missing) or ":memory:" for tests.

    Raises:
        CatalogError: the file is damaged, is not a SimSift catalog, or was written
            by a newer SimSift with a schema this version does not know.

    Examples:
        >>> with Catalog(":memory:") as catalog:
        ...     catalog.store([FileRecord("/docs/a.txt", 10, 1, "skipped")])
        ...     catalog.lookup("/docs/a.txt", 10, 1).status
        'skipped'
    """

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._closed = False
        try:
            # Autocommit mode: transactions are opened explicitly, so their extent is visible.
            self._conn = sqlite3.connect(
                self.path, timeout=10.0, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise CatalogError(f"Cannot open the catalog {self.path}: {error}") from error
        try:
            self._configure()
            self._check_identity()
            self._migrate()
        except sqlite3.DatabaseError as error:
            self._conn.close()
            raise CatalogError(
                f"The catalog {self.path} is damaged or is not a SimSift catalog ({error}). "
                "It can be deleted and recreated; this never touches your files."
            ) from error
        except CatalogError:
            self._conn.close()
            raise

    # -- opening -------------------------------------------------------------

    def _configure(self) -> None:
        self._conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a committed batch survives a crash of the app.
        self._conn.execute("PRAGMA synchronous=NORMAL")

    def _check_identity(self) -> None:
        app_id = self._conn.execute("PRAGMA application_id").fetchone()[0]
        version = self.schema_version
        has_tables = self._conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and (version or has_tables)):
            raise CatalogError(
                f"{self.path} is an SQLite database but not a SimSift catalog; "
                "choose another file for the catalog."
            )

    def _migrate(self) -> None:
        """Apply pending migrations in order, each with its version bump in one transaction."""
        while True:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                # Re-read inside the write lock: another process may have migrated meanwhile.
                version = self.schema_version
                if version > SCHEMA_VERSION:
                    raise CatalogError(
                        f"The catalog {self.path} has schema version {version}, written by a "
                        f"newer SimSift; this version understands up to {SCHEMA_VERSION}."
                    )
                if version == SCHEMA_VERSION:
                    self._conn.execute("COMMIT")
                    return
                for statement in _MIGRATIONS[version]:
                    self._conn.execute(statement)
                self._conn.execute(f"PRAGMA user_version = {version + 1}")
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    @property
    def schema_version(self) -> int:
        """The schema version stored in the file (PRAGMA user_version)."""
        return self._conn.execute("PRAGMA user_version").fetchone()[0]

    # -- lifetime ------------------------------------------------------------

    def close(self) -> None:
        """Close the connection; further calls raise `CatalogError`. Idempotent."""
        with self._lock:
            self._conn.close()
            self._closed = True

    def __enter__(self) -> Catalog:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _locked(self) -> Iterator[sqlite3.Connection]:
        """The connection, held exclusively; database failures become `CatalogError`."""
        with self._lock:
            if self._closed:
                raise CatalogError(f"The catalog {self.path} is closed.")
            try:
                yield self._conn
            except sqlite3.ProgrammingError:
                raise
            except sqlite3.DatabaseError as error:
                raise CatalogError(f"Catalog {self.path}: {error}") from error

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed whole or rolled back whole."""
        with self._locked() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # -- files ---------------------------------------------------------------

    def store(self, records: Iterable[FileRecord]) -> None:
        """Insert or replace `records` in one transaction: all of them are stored or none.

        Tokens are kept only for "ok" records. Raises `TypeError` for a malformed
        record (paragraphs that are not str, tokens that are not `DocumentTokens`);
        the whole batch is then rolled back.
        """
        with self._transaction() as conn:
            conn.executemany(
                f"INSERT OR REPLACE INTO files ({_COLUMNS}) VALUES ({_PLACEHOLDERS})",
                (_record_to_row(record) for record in records),
            )

    def lookup(self, path: str, size: int, mtime_ns: int) -> FileRecord | None:
        """The stored record of `path` if its size and mtime are unchanged, else None."""
        return self.lookup_many([(path, size, mtime_ns)]).get(path)

    def lookup_many(self, keys: Iterable[tuple[str, int, int]]) -> dict[str, FileRecord]:
        """Records of the unchanged files among (path, size, mtime_ns) keys, by path.

        Files missing from the catalog, whose size or mtime differ, or that an older
        SimSift read differently (`READER_VERSION`) are absent from the result. Queries
        run in chunks of a few hundred paths.
        """
        wanted = {_text_to_blob(path): (size, mtime_ns) for path, size, mtime_ns in keys}
        found: dict[str, FileRecord] = {}
        with self._locked() as conn:
            for chunk in _chunks(list(wanted), _QUERY_CHUNK):
                marks = ", ".join("?" * len(chunk))
                rows = conn.execute(
                    f"SELECT {_COLUMNS} FROM files WHERE path IN ({marks})", chunk
                ).fetchall()
                for row in rows:
                    # Compare before decoding: changed files cost no decompression.
                    if wanted[row[0]] == (row[1], row[2]) and row[-1] == READER_VERSION:
                        record = _row_to_record(row)
                        found[record.path] = record
        return found

    def records_under(self, roots: Iterable[str]) -> list[FileRecord]:
        """All stored records under any of `roots` (folders), sorted by path."""
        rows: dict[bytes, tuple] = {}
        with self._locked() as conn:
            for base, low, high in _ranges_of(roots):
                for row in conn.execute(
                    f"SELECT {_COLUMNS} FROM files WHERE path = ? OR (path >= ? AND path < ?)",
                    (base, low, high),
                ):
                    rows[row[0]] = row  # overlapping roots yield a file once
        return [_row_to_record(rows[path]) for path in sorted(rows)]

    def prune(self, roots: Iterable[str], keep_paths: set[str]) -> int:
        """Delete records under `roots` whose path is not in `keep_paths`; return how many.

        Called after a scan with the paths it found, so files deleted from disk leave
        the catalog. Records outside `roots` are never touched.
        """
        keep = {_text_to_blob(path) for path in keep_paths}
        with self._transaction() as conn:
            doomed = {
                path
                for base, low, high in _ranges_of(roots)
                for (path,) in conn.execute(
                    "SELECT path FROM files WHERE path = ? OR (path >= ? AND path < ?)",
                    (base, low, high),
                )
                if path not in keep
            }
            conn.executemany("DELETE FROM files WHERE path = ?", ((p,) for p in doomed))
        return len(doomed)

    # -- ignored pairs -------------------------------------------------------

    def ignore_pair(self, path_a: str, path_b: str) -> None:
        """Remember that the user dismissed the pair (a, b); order does not matter."""
        if path_a == path_b:
            raise ValueError("a pair needs two different paths")
        with self._transaction() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO ignored_pairs (path_a, path_b) VALUES (?, ?)",
                _pair_key(path_a, path_b),
            )

    def unignore_pair(self, path_a: str, path_b: str) -> None:
        """Forget a dismissed pair (no-op if it was not ignored); order does not matter."""
        with self._transaction() as conn:
            conn.execute(
                "DELETE FROM ignored_pairs WHERE path_a = ? AND path_b = ?",
                _pair_key(path_a, path_b),
            )

    def ignored_pairs(self) -> set[frozenset[str]]:
        """All dismissed pairs, each as a frozenset of its two paths."""
        with self._locked() as conn:
            rows = conn.execute("SELECT path_a, path_b FROM ignored_pairs").fetchall()
        return {frozenset((_blob_to_text(a), _blob_to_text(b))) for a, b in rows}
