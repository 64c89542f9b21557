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
  ('<u8', '|b1', '<i4', and '|u1' for the body's marks) and decoded with
  ``np.frombuffer`` without copying: the arrays in returned records are **read-only**,
  which also protects the cache.
* Paragraphs are one zlib-compressed JSON list (unambiguous for empty paragraphs
  and for any character inside them).

Threading: one connection opened with ``check_same_thread=False`` and every
operation serialized by a ``threading.Lock``, so the scanner thread may write
while the GUI thread reads through the same `Catalog`. Other processes may open
the same file; WAL mode lets their readers proceed during a write.

Damage and foreign files: the file is identified before anything writes to it, by its
header and a read-only connection, so a foreign SQLite file or a catalog of a newer
SimSift is refused byte-for-byte unchanged. The catalog is only a cache, so a damaged
one never stops a scan: when SQLite reports corruption (at open or in any later
operation) the file is renamed aside with its -wal/-shm files, a new empty catalog takes
its place, the ignored pairs are carried over if they can still be read, the operation
runs again on the new catalog and `Catalog.recovery` says what happened. A file whose
header is unreadable is refused instead: it might not be ours.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TypeVar

import numpy as np
import platformdirs
from simsift.core.document import READER_VERSION, STATUS_OK, FileRecord
from simsift.core.files import json_bytes, json_value
from simsift.core.store.verdicts import Verdict, Verdicts
from simsift.core.text.tokens import DocumentTokens, TokenStream

CATALOG_FILENAME = "catalog.sqlite3"

T = TypeVar("T")

# "SmSf": marks the file as a SimSift catalog, so a foreign SQLite file is refused.
APPLICATION_ID = 0x536D5366

# The SQLite file header (https://www.sqlite.org/fileformat.html#the_database_header).
_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100
_APPLICATION_ID_BYTES = slice(68, 72)
_SIMSIFT_ID_BYTES = APPLICATION_ID.to_bytes(4, "big")

_DELETE_OR_CHOOSE = (
    "If it is a SimSift catalog, it can be deleted (this never touches your files); "
    "otherwise choose another file for the catalog."
)

_HASH_DTYPE = np.dtype("<u8")
_DIGIT_DTYPE = np.dtype("|b1")
_START_DTYPE = np.dtype("<i4")
_MARK_DTYPE = np.dtype("|u1")

# SQLite limits the number of bound parameters per statement; stay well below.
_QUERY_CHUNK = 500
_PARAGRAPHS_AT_ONCE = 1000  # paragraphs made JSON and compressed at once

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
    (
        # the teacher's verdicts: path_b is x'' for a verdict on one document
        """
        CREATE TABLE verdicts (
            path_a BLOB NOT NULL,
            path_b BLOB NOT NULL,
            verdict TEXT NOT NULL,
            note TEXT NOT NULL,
            decided_at INTEGER NOT NULL,
            PRIMARY KEY (path_a, path_b),
            CHECK (path_b = x'' OR path_a < path_b)
        ) WITHOUT ROWID
        """,
    ),
    # integrity flags (hidden text, look-alike letters): a JSON list of sentences
    ("ALTER TABLE files ADD COLUMN flags BLOB NOT NULL DEFAULT x''",),
    (
        # the marks of the body's tokens (quotation, bibliography) and the count of its
        # unbalanced quotation marks; rows of an older reader have none and are not
        # served, so their files are read again (READER_VERSION)
        "ALTER TABLE files ADD COLUMN body_marks BLOB",
        "ALTER TABLE files ADD COLUMN unbalanced_quotes INTEGER NOT NULL DEFAULT 0",
    ),
)

SCHEMA_VERSION = len(_MIGRATIONS)

_COLUMNS = (
    "path, size, mtime_ns, status, message, format, title, content_hash, text_hash, "
    "paragraphs, title_hashes, title_is_digit, title_para_starts, "
    "body_hashes, body_is_digit, body_para_starts, body_marks, unbalanced_quotes, "
    "warning, flags, reader"
)
_PLACEHOLDERS = ", ".join("?" * len(_COLUMNS.split(",")))
_VERDICT_COLUMNS = "path_a, path_b, verdict, note, decided_at"


class CatalogError(Exception):
    """The catalog cannot be used (damaged, foreign or too new); the message says why."""


@dataclass(frozen=True)
class CatalogRecovery:
    """A damaged catalog was replaced by a new, empty one, so files are read again.

    Attributes:
        path: the catalog file.
        set_aside: where the damaged file was moved (safe to delete), or None when another
            SimSift process had already replaced it.
        reason: SQLite's description of the damage.
        ignored_pairs_lost: the pairs marked "not a duplicate" and the verdicts could not
            be read from it.
    """

    path: str
    set_aside: Path | None
    reason: str
    ignored_pairs_lost: bool

    @property
    def message(self) -> str:
        """A warning for the user, in one paragraph."""
        text = (
            f"The catalog {self.path} was damaged ({self.reason}) and was replaced by a new, "
            "empty one: files are read again."
        )
        if self.set_aside is not None:
            text += f" The damaged file was kept as {self.set_aside}; it can be deleted."
        if self.ignored_pairs_lost:
            text += (
                ' The pairs marked "not a duplicate" and the verdicts could not be read from '
                "it and are lost."
            )
        return text


def default_catalog_path() -> Path:
    """Where the catalog lives: the user data directory (created if missing)."""
    folder = Path(platformdirs.user_data_dir("SimSift", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / CATALOG_FILENAME


def _is_file(path: str) -> bool:
    """False for SQLite's in-memory and temporary databases."""
    return path not in ("", ":memory:")


def _error_code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF  # the primary code, without the extended bits


def _is_damage(error: sqlite3.Error) -> bool:
    """SQLite found the file corrupt or not a database (not: locked, full, read-only)."""
    return _error_code(error) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _catalog_error(path: str, error: sqlite3.Error) -> CatalogError:
    """A `CatalogError` whose message says what the user can do about `error`."""
    code = _error_code(error)
    if code == sqlite3.SQLITE_FULL:
        message = (
            f"The disk holding the catalog {path} is full; free some space there. "
            "What the catalog already holds is kept."
        )
    elif code == sqlite3.SQLITE_READONLY:
        message = (
            f"The catalog {path} cannot be written (the file, its folder or its disk is "
            "read-only). What it already holds can still be read."
        )
    elif _is_damage(error):
        message = (
            f"The catalog {path} is damaged or is not a SimSift catalog ({error}). "
            + _DELETE_OR_CHOOSE
        )
    else:
        message = f"Catalog {path}: {error}"
    return CatalogError(message)


@contextmanager
def _as_catalog_errors(path: str) -> Iterator[None]:
    """SQLite errors become `CatalogError`; programming errors still raise as they are."""
    try:
        yield
    except sqlite3.ProgrammingError:
        raise
    except sqlite3.DatabaseError as error:
        raise _catalog_error(path, error) from error


def _read_header(path: str) -> bytes:
    """The first bytes of the file; empty if it is missing or empty."""
    try:
        with open(path, "rb") as file:
            return file.read(_HEADER_SIZE)
    except FileNotFoundError:
        return b""
    except OSError as error:
        raise CatalogError(f"Cannot open the catalog {path}: {error}") from error


def _header_says_simsift(header: bytes) -> bool:
    return header.startswith(_SQLITE_MAGIC) and header[_APPLICATION_ID_BYTES] == _SIMSIFT_ID_BYTES


def _file_id(path: str) -> tuple[int, int] | None:
    """Which file is at `path` now: it changes when another process replaces it."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def _connect(path: str, *, read_only: bool = False) -> sqlite3.Connection:
    # Autocommit mode: transactions are opened explicitly, so their extent is visible.
    target = f"{Path(path).resolve().as_uri()}?mode=ro" if read_only else path
    return sqlite3.connect(
        target, timeout=10.0, isolation_level=None, check_same_thread=False, uri=read_only
    )


def _too_new(path: str, version: int) -> CatalogError:
    return CatalogError(
        f"The catalog {path} has schema version {version}, written by a "
        f"newer SimSift; this version understands up to {SCHEMA_VERSION}."
    )


def _not_simsift(path: str) -> CatalogError:
    return CatalogError(
        f"{path} is an SQLite database but not a SimSift catalog; "
        "choose another file for the catalog."
    )


def _check_identity(path: str) -> None:
    """Raise `CatalogError` unless `path` is missing, empty or a SimSift catalog this
    version understands. Only reads, so a refused file is left exactly as it was; SQLite
    errors (damage) propagate.
    """
    header = _read_header(path)
    if not header:
        return
    if len(header) < _HEADER_SIZE or not header.startswith(_SQLITE_MAGIC):
        raise CatalogError(
            f"{path} is not a SimSift catalog: it is not an SQLite database, or its header "
            "is damaged. " + _DELETE_OR_CHOOSE
        )
    if header[_APPLICATION_ID_BYTES] not in (bytes(4), _SIMSIFT_ID_BYTES):
        raise _not_simsift(path)
    # The header may be stale: a catalog's first transaction may still be in its WAL file.
    look = _connect(path, read_only=True)
    try:
        app_id = look.execute("PRAGMA application_id").fetchone()[0]
        version = look.execute("PRAGMA user_version").fetchone()[0]
        has_tables = look.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
    finally:
        look.close()
    if app_id not in (0, APPLICATION_ID) or (app_id == 0 and (version or has_tables)):
        raise _not_simsift(path)
    if version > SCHEMA_VERSION:
        raise _too_new(path, version)


def _configure(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a committed batch survives a crash of the app.
    conn.execute("PRAGMA synchronous=NORMAL")


def _in_transaction(conn: sqlite3.Connection, operation: Callable[[sqlite3.Connection], T]) -> T:
    """Run `operation` in one write transaction: committed whole or rolled back whole."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = operation(conn)
        conn.execute("COMMIT")
    except BaseException:
        # SQLite has already rolled back after some errors (a full disk); the first error
        # is the one to report.
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    return result


def _schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def _migrate_one_step(conn: sqlite3.Connection, path: str) -> bool:
    """Apply the next pending migration with its version bump; False if none is pending."""
    # Read inside the write lock: another process may have migrated meanwhile.
    version = _schema_version(conn)
    if version > SCHEMA_VERSION:
        raise _too_new(path, version)
    if version == SCHEMA_VERSION:
        return False
    for statement in _MIGRATIONS[version]:
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version + 1}")
    return True


def _migrate(conn: sqlite3.Connection, path: str) -> None:
    """Apply pending migrations in order, each in its own transaction."""
    while _in_transaction(conn, lambda c: _migrate_one_step(c, path)):
        pass


def _readable_decisions(path: str) -> tuple[list, list] | None:
    """(ignored pairs, verdict rows) a damaged catalog still holds, or None if they cannot
    be read. A catalog from before verdicts has none."""
    try:
        look = _connect(path, read_only=True)
        try:
            pairs = look.execute("SELECT path_a, path_b FROM ignored_pairs").fetchall()
            try:
                verdicts = look.execute(f"SELECT {_VERDICT_COLUMNS} FROM verdicts").fetchall()
            except sqlite3.OperationalError:  # no such table: an older catalog
                verdicts = []
            return pairs, verdicts
        finally:
            look.close()
    except sqlite3.Error:
        return None


def _set_aside(path: Path) -> Path:
    """Rename a damaged catalog and its -wal/-shm files next to it; return the new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while any(Path(f"{aside}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
        number += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    # Sidecars first: an old -wal left beside the new catalog would be replayed into it.
    for suffix in ("-wal", "-shm", ""):
        with suppress(FileNotFoundError):
            os.replace(f"{path}{suffix}", f"{aside}{suffix}")
    return aside


def _text_to_blob(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _blob_to_text(blob: bytes) -> str:
    return blob.decode("utf-8", "surrogatepass")


def _encode_paragraphs(paragraphs: tuple[str, ...]) -> bytes:
    """The JSON list of the paragraphs, compressed as it is written: a 200 MB text is
    never held as one JSON string and its UTF-8 bytes besides."""
    if not all(isinstance(p, str) for p in paragraphs):
        raise TypeError("FileRecord.paragraphs must contain only str")
    compressor = zlib.compressobj()
    out = [compressor.compress(b"[")]
    for lo in range(0, len(paragraphs), _PARAGRAPHS_AT_ONCE):
        batch = paragraphs[lo : lo + _PARAGRAPHS_AT_ONCE]
        items = ", ".join(json.dumps(p, ensure_ascii=False) for p in batch)
        out.append(compressor.compress(_text_to_blob(", " + items if lo else items)))
    out.append(compressor.compress(b"]"))
    out.append(compressor.flush())
    return b"".join(out)


def _decode_paragraphs(blob: bytes) -> tuple[str, ...]:
    return tuple(json_value(zlib.decompress(blob)))


class StoredParagraphs(Sequence):
    """A record's paragraphs as the catalog stores them, decoded on first use: a rescan
    compares tokens, so 20,000 unchanged documents need not have their text unpacked
    (a second of a man-page rescan). Pickles, hashes and compares as the tuple."""

    __slots__ = ("_blob", "_items")

    def __init__(self, blob: bytes) -> None:
        self._blob: bytes | None = bytes(blob)
        self._items: tuple[str, ...] | None = None

    def _decoded(self) -> tuple[str, ...]:
        items = self._items
        if items is None:  # two threads may both decode: the same tuple either way
            items = self._items = _decode_paragraphs(self._blob)
            self._blob = None
        return items

    def __getitem__(self, index):
        return self._decoded()[index]

    def __len__(self) -> int:
        return len(self._decoded())

    def __iter__(self):
        return iter(self._decoded())

    def __eq__(self, other) -> bool:
        if isinstance(other, StoredParagraphs | tuple | list):
            return self._decoded() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._decoded())

    def __repr__(self) -> str:
        return repr(self._decoded())

    def __reduce__(self):
        return tuple, (self._decoded(),)


def _encode_stream(stream: TokenStream) -> tuple[memoryview, memoryview, memoryview]:
    """The arrays' bytes as views, not copies: SQLite copies a bound BLOB anyway."""
    return (
        _bytes_of(stream.hashes, _HASH_DTYPE),
        _bytes_of(stream.is_digit, _DIGIT_DTYPE),
        _bytes_of(stream.para_starts, _START_DTYPE),
    )


def _bytes_of(values: np.ndarray, dtype: np.dtype) -> memoryview:
    return memoryview(np.ascontiguousarray(values, dtype=dtype)).cast("B")


def _decode_stream(
    hashes: bytes,
    is_digit: bytes,
    para_starts: bytes,
    marks: bytes | None = None,
    unbalanced_quotes: int = 0,
) -> TokenStream:
    # Zero-copy views over the fetched bytes: read-only by design. A title has no marks
    # stored (it is never marked); neither has a row of a reader before marks, which
    # `lookup_many` does not serve (READER_VERSION).
    return TokenStream(
        hashes=np.frombuffer(hashes, dtype=_HASH_DTYPE),
        is_digit=np.frombuffer(is_digit, dtype=_DIGIT_DTYPE),
        para_starts=np.frombuffer(para_starts, dtype=_START_DTYPE),
        marks=None if marks is None else np.frombuffer(marks, dtype=_MARK_DTYPE),
        unbalanced_quotes=unbalanced_quotes,
    )


def _encode_tokens(record: FileRecord) -> tuple[memoryview | int | None, ...]:
    """Six token BLOBs, the body's marks and its unbalanced quotation marks; or NULLs and
    0: only "ok" records cache tokens."""
    if record.status != STATUS_OK or record.tokens is None:
        return (None,) * 7 + (0,)
    if not isinstance(record.tokens, DocumentTokens):
        raise TypeError(f"FileRecord.tokens must be DocumentTokens, not {type(record.tokens)}")
    body = record.tokens.body
    return (
        *_encode_stream(record.tokens.title),
        *_encode_stream(body),
        _bytes_of(body.marks, _MARK_DTYPE),
        body.unbalanced_quotes,
    )


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
        json_bytes(list(record.flags)) if record.flags else b"",
        READER_VERSION,
    )


def _row_to_record(row: tuple) -> FileRecord:
    path, size, mtime_ns, status, message, fmt, title, content_hash, text_hash = row[:9]
    paragraphs, token_blobs, warning, flags = row[9], row[10:18], row[18], row[19]
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
        paragraphs=StoredParagraphs(paragraphs),
        tokens=tokens,
        warning=_blob_to_text(warning),
        flags=tuple(json_value(flags)) if flags else (),
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


def _verdict_key(paths: tuple[str, ...]) -> tuple[bytes, bytes]:
    if len(paths) == 1:
        return _text_to_blob(paths[0]), b""
    if len(paths) == 2 and paths[0] != paths[1]:
        return _pair_key(*paths)
    raise ValueError("a verdict is on one document or on a pair of two different ones")


def _chunks(items: list, size: int) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class Catalog:
    """The SQLite catalog of scanned files and ignored pairs.

    A damaged catalog is replaced by a new, empty one, at open or in any later operation;
    `recovery` then tells what happened (see the module docstring).

    Args:
        path: the catalog file (created if missing) or ":memory:" for tests.

    Attributes:
        recovery: set when a damaged catalog was replaced; a warning to show the user.

    Raises:
        CatalogError: the file is not a SimSift catalog (or its header is unreadable), was
            written by a newer SimSift, or cannot be opened; operations raise it when the
            disk is full or read-only. The file is then left unchanged.

    Examples:
        >>> with Catalog(":memory:") as catalog:
        ...     catalog.store([FileRecord("/docs/a.txt", 10, 1, "skipped")])
        ...     catalog.lookup("/docs/a.txt", 10, 1).status
        'skipped'
    """

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self.recovery: CatalogRecovery | None = None
        self._lock = threading.Lock()
        self._closed_because: str | None = None
        self._conn: sqlite3.Connection
        self._file_id: tuple[int, int] | None = None
        try:
            self._open()
        except sqlite3.DatabaseError as error:
            if not (_is_damage(error) and _header_says_simsift(_read_header(self.path))):
                raise _catalog_error(self.path, error) from error
            self._recover(error, set_aside=True)
        if self._closed_because is not None:
            raise CatalogError(self._closed_because)

    # -- opening and recovering ----------------------------------------------

    def _open(self) -> None:
        """Connect to the file, once it is known to be ours, and bring its schema up to date."""
        if _is_file(self.path):
            _check_identity(self.path)
        conn = _connect(self.path)
        try:
            _configure(conn)
            _migrate(conn, self.path)
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        self._file_id = _file_id(self.path) if _is_file(self.path) else None

    def _recover(self, damage: sqlite3.DatabaseError, *, set_aside: bool) -> None:
        """Go on with a new, empty catalog in place of the damaged one (closed by now).

        Without `set_aside`, another process already replaced the file: just reopen it.
        On failure the catalog becomes unusable and says why.
        """
        decisions = _readable_decisions(self.path) if set_aside else ([], [])
        try:
            aside = _set_aside(Path(self.path)) if set_aside else None
            self._open()
        except (OSError, sqlite3.Error, CatalogError) as error:
            self._closed_because = (
                f"The catalog {self.path} is damaged ({damage}) and could not be replaced "
                f"by a new one ({error}). It can be deleted; this never touches your files."
            )
            return
        lost = decisions is None or not self._carry_over(*decisions)
        self.recovery = CatalogRecovery(self.path, aside, str(damage), ignored_pairs_lost=lost)

    def _carry_over(self, pairs: list, verdicts: list) -> bool:
        """Store the ignored pairs and verdicts saved from a damaged catalog; False if that
        fails."""
        try:
            self._conn.executemany(
                "INSERT OR IGNORE INTO ignored_pairs (path_a, path_b) VALUES (?, ?)", pairs
            )
            self._conn.executemany(
                f"INSERT OR IGNORE INTO verdicts ({_VERDICT_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                verdicts,
            )
        except sqlite3.Error:
            return False
        return True

    @property
    def schema_version(self) -> int:
        """The schema version stored in the file (PRAGMA user_version)."""
        return _schema_version(self._conn)

    # -- lifetime ------------------------------------------------------------

    def close(self) -> None:
        """Close the connection; further calls raise `CatalogError`. Idempotent."""
        with self._lock:
            self._conn.close()
            self._closed_because = f"The catalog {self.path} is closed."

    def __enter__(self) -> Catalog:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _run(self, operation: Callable[[sqlite3.Connection], T]) -> T:
        """`operation(connection)`, holding the connection exclusively.

        SQLite errors become `CatalogError`, except damage: the catalog is then replaced
        by a new, empty one and `operation` runs again there, so callers go on.
        """
        with self._lock:
            try:
                return self._run_once(operation)
            except sqlite3.ProgrammingError:
                raise
            except sqlite3.DatabaseError as error:
                if not (_is_damage(error) and _is_file(self.path)):
                    raise _catalog_error(self.path, error) from error
                self._conn.close()
                self._recover(error, set_aside=_file_id(self.path) == self._file_id)
            with _as_catalog_errors(self.path):
                return self._run_once(operation)

    def _run_once(self, operation: Callable[[sqlite3.Connection], T]) -> T:
        if self._closed_because is not None:
            raise CatalogError(self._closed_because)
        return operation(self._conn)

    def _write(self, operation: Callable[[sqlite3.Connection], T]) -> T:
        """`_run` in one write transaction: committed whole or rolled back whole."""
        return self._run(lambda conn: _in_transaction(conn, operation))

    # -- files ---------------------------------------------------------------
    # Each operation is a function of the connection that can run again from scratch:
    # after a damaged catalog was replaced, it runs on the new one.

    def store(self, records: Iterable[FileRecord]) -> None:
        """Insert or replace `records` in one transaction: all of them are stored or none.

        Tokens are kept only for "ok" records. Raises `TypeError` for a malformed
        record (paragraphs that are not str, tokens that are not `DocumentTokens`),
        before anything is written.
        """
        # Encoded before the transaction: the batch can be written again on a new
        # catalog, and compressing does not hold the lock.
        rows = [_record_to_row(record) for record in records]
        self._write(
            lambda conn: conn.executemany(
                f"INSERT OR REPLACE INTO files ({_COLUMNS}) VALUES ({_PLACEHOLDERS})", rows
            )
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

        def unchanged(conn: sqlite3.Connection) -> dict[str, FileRecord]:
            found: dict[str, FileRecord] = {}
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

        return self._run(unchanged)

    def records_under(self, roots: Iterable[str]) -> list[FileRecord]:
        """All stored records under any of `roots` (folders), sorted by path."""
        ranges = list(_ranges_of(roots))

        def rows_under(conn: sqlite3.Connection) -> dict[bytes, tuple]:
            rows: dict[bytes, tuple] = {}
            for base, low, high in ranges:
                for row in conn.execute(
                    f"SELECT {_COLUMNS} FROM files WHERE path = ? OR (path >= ? AND path < ?)",
                    (base, low, high),
                ):
                    rows[row[0]] = row  # overlapping roots yield a file once
            return rows

        rows = self._run(rows_under)
        return [_row_to_record(rows[path]) for path in sorted(rows)]

    def prune(self, roots: Iterable[str], keep_paths: set[str]) -> int:
        """Delete records under `roots` whose path is not in `keep_paths`; return how many.

        Called after a scan with the paths it found, so files deleted from disk leave
        the catalog. Records outside `roots` are never touched.
        """
        ranges = list(_ranges_of(roots))
        keep = {_text_to_blob(path) for path in keep_paths}

        def delete_missing(conn: sqlite3.Connection) -> int:
            doomed = {
                path
                for base, low, high in ranges
                for (path,) in conn.execute(
                    "SELECT path FROM files WHERE path = ? OR (path >= ? AND path < ?)",
                    (base, low, high),
                )
                if path not in keep
            }
            conn.executemany("DELETE FROM files WHERE path = ?", ((p,) for p in doomed))
            return len(doomed)

        return self._write(delete_missing)

    # -- ignored pairs -------------------------------------------------------

    def ignore_pair(self, path_a: str, path_b: str) -> None:
        """Remember that the user dismissed the pair (a, b); order does not matter."""
        if path_a == path_b:
            raise ValueError("a pair needs two different paths")
        key = _pair_key(path_a, path_b)
        self._write(
            lambda conn: conn.execute(
                "INSERT OR IGNORE INTO ignored_pairs (path_a, path_b) VALUES (?, ?)", key
            )
        )

    def unignore_pair(self, path_a: str, path_b: str) -> None:
        """Forget a dismissed pair (no-op if it was not ignored); order does not matter."""
        key = _pair_key(path_a, path_b)
        self._write(
            lambda conn: conn.execute(
                "DELETE FROM ignored_pairs WHERE path_a = ? AND path_b = ?", key
            )
        )

    # -- verdicts --------------------------------------------------------------

    def set_verdict(self, paths: tuple[str, ...], verdict: Verdict | None) -> None:
        """Record the verdict on one document (one path) or a pair (two paths, any
        order); None forgets it."""
        key = _verdict_key(paths)

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM verdicts WHERE path_a = ? AND path_b = ?", key)
            if verdict is not None:
                conn.execute(
                    f"INSERT INTO verdicts ({_VERDICT_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                    (*key, verdict.verdict, verdict.note, verdict.decided_at),
                )

        self._write(write)

    def verdicts(self) -> Verdicts:
        """Every verdict recorded."""
        rows = self._run(
            lambda conn: conn.execute(f"SELECT {_VERDICT_COLUMNS} FROM verdicts").fetchall()
        )
        documents, pairs = {}, {}
        for path_a, path_b, verdict, note, decided_at in rows:
            value = Verdict(verdict, note, decided_at)
            if path_b == b"":
                documents[_blob_to_text(path_a)] = value
            else:
                pairs[frozenset((_blob_to_text(path_a), _blob_to_text(path_b)))] = value
        return Verdicts(documents, pairs)

    def ignored_pairs(self) -> set[frozenset[str]]:
        """All dismissed pairs, each as a frozenset of its two paths."""
        rows = self._run(
            lambda conn: conn.execute("SELECT path_a, path_b FROM ignored_pairs").fetchall()
        )
        return {frozenset((_blob_to_text(a), _blob_to_text(b))) for a, b in rows}
