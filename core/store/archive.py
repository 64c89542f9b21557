"""A persistent archive of documents that new documents are checked against.

An archive is a folder. Each document keeps its identity (path, size, mtime, content
and text hashes), title, extracted text (zlib-compressed, so it stays viewable side by
side when the original folder is gone), its document fingerprint and the fingerprints of
its usable passages (the passage data partial copying needs; passages are cut again
from the text when a check needs more of one document).

Storage is log-structured: an add writes one new immutable segment (`seg-N.npz` with the
arrays, `seg-N.text` with the compressed texts) and never rewrites the others; a
removed or replaced document is a tombstone (its row in the manifest's dead list); when
there are more than `MAX_SEGMENTS` segments they are merged into one. `manifest.json`
names the live segments and is replaced atomically (temp file, fsync, `os.replace`,
fsync of the folder) after the segment files are on disk: a crash at any point leaves
the previous manifest, which names only complete files. Files no manifest names are
leftovers of an interrupted write and are deleted by the next write.

Each segment also stores two `PackedIndex`es (compressed permuted tables, memory-mapped
and decoded per probe): its document fingerprints (`seg-N.docs/`) and its distinct passage
fingerprints (`seg-N.passages/`). A check queries them and drops the rows of removed
documents from the answers; nothing is indexed at check time. And two posting lists
(`core.store.postings`, memory-mapped): passage fingerprint -> rows and word gram -> rows,
with which a check reads the document frequencies of only its own documents' values.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from simsift.core.document import FileRecord
from simsift.core.files import atomic_write, json_bytes, json_value
from simsift.core.index.matches import Matches
from simsift.core.index.packed import FILE_NAME as INDEX_FILE
from simsift.core.index.packed import PackedIndex, PackedIndexError
from simsift.core.index.plan import DEFAULT_K_MAX
from simsift.core.match.grams import kept_grams
from simsift.core.match.passages import PassageOptions, cut_passages, passage_fingerprints
from simsift.core.progress import CancelToken, Progress, ProgressCallback, no_progress
from simsift.core.shortage import raise_if_short
from simsift.core.store.archive_tokens import (
    SegmentTokens,
    merged_arrays,
    read_tokens,
    token_arrays,
    write_tokens,
)
from simsift.core.store.postings import Postings, PostingsError
from simsift.core.text.features import FeatureWeights
from simsift.core.text.tokens import document_tokens

FORMAT = "simsift-archive"
# 2: segments carry packed indexes; 3: posting lists (older ones are read, and get
# what they lack on the next write)
VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
# 2: the kept word grams (version 1 is read: its grams are made again); 3: the passages and
# grams only in the posting lists, not in seg-N.npz
SEGMENT_VERSION = 3
READABLE_SEGMENTS = (1, 2, 3)
INDEX_KINDS = ("docs", "passages")
POSTING_KINDS = ("passages", "grams")  # seg-N.passages-postings/, seg-N.grams-postings/
# Stored indexes answer within these distances (the defaults); a check asking for more
# builds that segment's index in memory for the session.
INDEX_DISTANCE = {"docs": DEFAULT_K_MAX, "passages": PassageOptions().max_distance}
MANIFEST = "manifest.json"
MAX_SEGMENTS = 8  # more are merged into one: a check queries every segment
_LOCK = ".lock"


class ArchiveError(Exception):
    """The archive cannot be used; the message is one line for the user."""


class ArchiveDamaged(ArchiveError):
    """A file of the archive is proven damaged (missing, a checksum or size that does not
    match, content that is not ours): only this makes an archive worth rebuilding. A
    shortage of memory or disk while reading is never damage (`core.shortage`)."""


@dataclass(frozen=True)
class ArchiveSettings:
    """What stored fingerprints depend on: an archive is checked with the settings it was
    built with, never mixed."""

    weights: FeatureWeights
    passages: PassageOptions
    traditional_to_simplified: bool = True

    def __post_init__(self) -> None:
        if self.weights.use_idf:
            raise ValueError("an archive needs weights without idf (idf changes every fingerprint)")

    def key(self) -> str:
        p = self.passages
        sizes = (p.min_tokens, p.max_tokens, p.shingle_size, p.min_features)
        if p.shortest_run != PassageOptions().shortest_run:  # the kept grams depend on it
            sizes += (p.shortest_run,)
        text = repr((self.weights, sizes, self.traditional_to_simplified))
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class AddSummary:
    """What an add did: documents added (new paths), replaced (changed files) and left
    as they were (same path and content)."""

    added: int
    replaced: int
    unchanged: int


@dataclass(frozen=True)
class _Segment:
    name: str
    fingerprint: np.ndarray  # uint64 per document
    size: np.ndarray  # int64
    mtime_ns: np.ndarray  # int64
    content_hash: np.ndarray  # uint8 (n, 16)
    text_hash: np.ndarray  # uint8 (n, 16)
    meta: list  # per document [path, format, warning, title]
    text_ptr: np.ndarray  # int64, n + 1: document i's text is bytes text_ptr[i]:text_ptr[i+1]
    passage_doc: np.ndarray | None  # int64 row of each usable passage's document
    passage_fp: np.ndarray | None  # uint64; both None from version 3 (in the postings)
    indexes: dict  # kind -> PackedIndex as stored (none in a version 1 archive)
    gram_doc: np.ndarray | None  # int64 row of each distinct (document, kept gram)
    gram_value: np.ndarray | None  # uint64; both None in a version 1 or 3 segment
    postings: dict  # kind -> Postings as stored, memory-mapped (none in an older segment)

    def __len__(self) -> int:
        return len(self.fingerprint)


@dataclass(frozen=True)
class PassageTable:
    """Usable passage fingerprints of the live archive documents, grouped by value.

    `values` are sorted distinct fingerprints; `docs_in[v]` counts the live documents
    holding value v, `times_in[v]` their passages; the documents of value v are
    `docs[ptr[v]:ptr[v + 1]]` (archive document numbers, distinct).
    """

    values: np.ndarray
    docs_in: np.ndarray
    times_in: np.ndarray
    ptr: np.ndarray
    docs: np.ndarray


class Archive:
    """The documents of an archive folder, as its manifest names them when opened.

    Documents are numbered 0..len-1 over the live documents (an add or remove renumbers).

    Examples:
        >>> add_folders("essay-archive", ScanOptions(roots=("2024",)))  # doctest: +SKIP
        >>> Archive.open("essay-archive").paths()  # doctest: +SKIP
        ['/home/t/2024/essay 1.docx', ...]
    """

    def __init__(self, directory: Path, manifest: dict, segments: list[_Segment]) -> None:
        self.directory = directory
        self._manifest = manifest
        self._segments = segments
        self._dead = [set(entry["dead"]) for entry in manifest["segments"]]
        self._live = [
            np.flatnonzero(~np.isin(np.arange(len(s)), sorted(dead)))
            for s, dead in zip(segments, self._dead, strict=True)
        ]
        self._starts = np.r_[0, np.cumsum([len(rows) for rows in self._live])].astype(np.int64)
        self._by_path = {
            segment.meta[row][0]: (i, int(row))
            for i, (segment, rows) in enumerate(zip(segments, self._live, strict=True))
            for row in rows.tolist()
        }
        self._passage_table: PassageTable | None = None
        self._postings: dict[tuple[int, str], Postings] = {}  # built for older segments
        self._numbers: list[np.ndarray] | None = None
        self._indexes: dict[tuple[int, str, int], PackedIndex] = {}  # (segment, kind, k)
        self._value_numbers: list[np.ndarray] | None = None
        self._tokens: dict[int, SegmentTokens | None] = {}  # read when first needed

    # -- opening ----------------------------------------------------------------------

    @classmethod
    def create(cls, directory: Path | str, settings: ArchiveSettings) -> Archive:
        """An empty archive in `directory` (created if missing), or the one already there
        when it was built with the same settings."""
        directory = Path(directory)
        if (directory / MANIFEST).exists():
            archive = cls.open(directory)
            archive.require(settings)
            return archive
        if directory.exists() and any(directory.iterdir()):
            raise ArchiveError(f"{directory} is not an archive and not empty; choose a new folder")
        try:
            directory.mkdir(parents=True, exist_ok=True)
            manifest = {
                "format": FORMAT,
                "version": VERSION,
                "settings": settings.key(),
                "generation": 0,
                "segments": [],
            }
            _write_manifest(directory, manifest)
        except OSError as error:
            raise ArchiveError(
                f"cannot create an archive in {directory}: {_reason(error)}"
            ) from error
        return cls(directory, manifest, [])

    @classmethod
    def open(cls, directory: Path | str) -> Archive:
        """The archive in `directory`; raises `ArchiveError` if there is none, it was
        written by another archive format version, or a file is damaged."""
        directory = Path(directory)
        manifest = _read_manifest(directory)
        segments = [_read_segment(directory, entry) for entry in manifest["segments"]]
        return cls(directory, manifest, segments)

    def require(self, settings: ArchiveSettings) -> None:
        """Raise `ArchiveError` unless the archive was built with these settings."""
        if self._manifest["settings"] != settings.key():
            raise ArchiveError(
                f"the archive {self.directory} was built with other weights or passage sizes; "
                "check with the settings it was built with, or build a new archive"
            )

    # -- reading ----------------------------------------------------------------------

    def __len__(self) -> int:
        return int(self._starts[-1])

    def __contains__(self, path: str) -> bool:
        return path in self._by_path

    def number(self, path: str) -> int:
        """Document number of the live document stored under `path` (KeyError if none)."""
        s, row = self._by_path[path]
        return int(self._starts[s] + np.searchsorted(self._live[s], row))

    @property
    def segment_count(self) -> int:
        return len(self._segments)

    def paths(self) -> list[str]:
        """Paths of the live documents, in document order."""
        return [self._segments[s].meta[r][0] for s, r in self._locations(np.arange(len(self)))]

    def fingerprints(self) -> np.ndarray:
        """Document fingerprints of the live documents."""
        parts = [s.fingerprint[rows] for s, rows in zip(self._segments, self._live, strict=True)]
        return np.concatenate(parts) if parts else np.zeros(0, np.uint64)

    def is_unchanged(self, path: str, size: int, mtime_ns: int) -> bool:
        """Whether the archive holds this file as it is now (same path, size and mtime)."""
        where = self._by_path.get(path)
        if where is None:
            return False
        segment, row = self._segments[where[0]], where[1]
        return int(segment.size[row]) == size and int(segment.mtime_ns[row]) == mtime_ns

    def record(
        self, doc: int, traditional_to_simplified: bool = True, *, with_text: bool = True
    ) -> FileRecord:
        """Document `doc` as a scan's record: identity, text and tokens (as stored beside
        the segment, or cut again from the stored text exactly as the reader cut them);
        without text, no paragraphs and empty token streams (`text` reads them when
        needed)."""
        [(s, row)] = self._locations(np.array([doc]))
        segment = self._segments[s]
        path, fmt, warning, title = segment.meta[row]
        paragraphs = ()
        if with_text:
            title, paragraphs = self.text(doc)
        stored = self._segment_tokens(s) if with_text else None
        tokens = None
        if stored is not None and stored.traditional_to_simplified == traditional_to_simplified:
            tokens = stored.document(row, title)  # None: the row is damaged
        if tokens is None:
            tokens = document_tokens(
                title, paragraphs, traditional_to_simplified=traditional_to_simplified
            )
        return FileRecord(
            path,
            int(segment.size[row]),
            int(segment.mtime_ns[row]),
            "ok",
            format=fmt,
            warning=warning,
            title=title,
            content_hash=segment.content_hash[row].tobytes(),
            text_hash=segment.text_hash[row].tobytes(),
            paragraphs=paragraphs,
            tokens=tokens,
        )

    def _segment_tokens(self, s: int) -> SegmentTokens | None:
        if s not in self._tokens:
            entry = self._manifest["segments"][s]
            self._tokens[s] = read_tokens(self.directory, entry, len(self._segments[s]))
        return self._tokens[s]

    def text(self, doc: int) -> tuple[str, tuple[str, ...]]:
        """(title, paragraphs) of document `doc`, from the archive alone."""
        [(s, row)] = self._locations(np.array([doc]))
        segment = self._segments[s]
        lo, hi = int(segment.text_ptr[row]), int(segment.text_ptr[row + 1])
        path = self.directory / f"{segment.name}.text"
        try:
            with open(path, "rb") as f:
                f.seek(lo)
                title, paragraphs = json_value(zlib.decompress(f.read(hi - lo)))
        except (OSError, zlib.error, ValueError) as error:
            if isinstance(error, OSError):
                raise _unreadable(path, error) from error
            raise_if_short(error)
            raise ArchiveDamaged(f"{path}: damaged archive file ({_reason(error)})") from error
        return title, tuple(paragraphs)

    def passage_table(self) -> PassageTable:
        """The live documents' usable passage fingerprints grouped by value (kept): a
        pass over every archived passage, for inspection and tests; a check asks `holders`
        and `near_values` for its own values only."""
        if self._passage_table is None:
            self._passage_table = _passage_table(self._live_passages())
        return self._passage_table

    def holders(
        self, kind: str, values: np.ndarray, settings: ArchiveSettings | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(value number, live document, times) of every live document holding one of
        `values` (`kind`: "passages", usable passage fingerprints; "grams", kept word
        grams, each once per document), from the segments' posting lists: the archive's
        document frequencies of only these values."""
        parts = [(np.zeros(0, np.int64),) * 3]
        for s, number in enumerate(self._doc_numbers()):
            value, row, times = self._segment_postings(s, kind, settings).lookup(values)
            doc = number[row]
            live = doc >= 0
            parts.append((value[live], doc[live], times[live]))
        return tuple(np.concatenate(column) for column in zip(*parts, strict=True))

    def near_values(
        self, fingerprints: np.ndarray, k: int, cancel: CancelToken | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(query row, passage fingerprint) of every archive passage fingerprint within k
        of a query, each pair once, from the segments' passage indexes (a value only
        removed documents hold may be among them: it has no live `holders`)."""
        left, value = [np.zeros(0, np.int64)], [np.zeros(0, np.uint64)]
        for s in range(len(self._segments)):
            found = self._query(s, "passages", fingerprints, k, cancel)
            left.append(found.left.astype(np.int64))
            value.append(_indexed(self._segments[s], "passages")[found.right])
        left, value = np.concatenate(left), np.concatenate(value)
        order = np.lexsort((value, left))
        left, value = left[order], value[order]
        first = np.r_[True, (left[1:] != left[:-1]) | (value[1:] != value[:-1])]
        return left[first[: len(left)]], value[first[: len(left)]]

    def _doc_numbers(self) -> list[np.ndarray]:
        """Per segment, per row: its live document number, or -1 when removed."""
        if self._numbers is None:
            self._numbers = []
            for segment, rows, start in zip(self._segments, self._live, self._starts, strict=False):
                number = np.full(len(segment), -1, np.int64)
                number[rows] = start + np.arange(len(rows))
                self._numbers.append(number)
        return self._numbers

    def _segment_postings(self, s: int, kind: str, settings: ArchiveSettings | None) -> Postings:
        """Segment s's stored postings of `kind`, or (a segment written before them) ones
        built in memory from its arrays, kept for the session."""
        stored = self._segments[s].postings.get(kind)
        if stored is not None:
            return stored
        if (s, kind) not in self._postings:
            items = _posting_items(self.directory, self._segments[s], kind, settings)
            self._postings[s, kind] = Postings.build(*items)
        return self._postings[s, kind]

    def near_passages(
        self, fingerprints: np.ndarray, k: int, cancel: CancelToken | None = None
    ) -> Matches:
        """`passage_table` values within k of each fingerprint (right: value number),
        from the segments' passage indexes; values only removed documents hold are left
        out."""
        if self._value_numbers is None:
            self._value_numbers = self._segment_value_numbers()
        parts = []
        for s in range(len(self._segments)):
            found = self._query(s, "passages", fingerprints, k, cancel)
            value = self._value_numbers[s][found.right]
            parts.append(Matches(found.left, value, found.distance).subset(value >= 0))
        # a value held in several segments is found once per segment
        return _distinct_matches(parts, len(self.passage_table().values))

    def near_documents(
        self, fingerprints: np.ndarray, k: int, cancel: CancelToken | None = None
    ) -> Matches:
        """Live documents within k of each fingerprint (left: query row, right: document),
        from the segments' document indexes."""
        parts = []
        for s, (segment, rows) in enumerate(zip(self._segments, self._live, strict=True)):
            found = self._query(s, "docs", fingerprints, k, cancel)
            number = np.full(len(segment), -1, np.int64)
            number[rows] = self._starts[s] + np.arange(len(rows))
            doc = number[found.right]
            parts.append(Matches(found.left, doc, found.distance).subset(doc >= 0))
        return _distinct_matches(parts, len(self))

    def _query(self, s: int, kind: str, fingerprints, k: int, cancel) -> Matches:
        """Rows of segment s's `kind` index within k (documents: segment rows; passages:
        the segment's distinct passage fingerprints, sorted)."""
        index = self._index(s, kind, k)
        try:
            return index.query(fingerprints, k, cancel=cancel)
        except PackedIndexError as error:  # a table's checksum is checked on first use
            raise _index_error(error) from error

    def _index(self, s: int, kind: str, k: int) -> PackedIndex:
        """Segment s's stored index of `kind` when it answers within k, else one built
        in memory (a version 1 segment, or k beyond the stored distance), kept."""
        stored = self._segments[s].indexes.get(kind)
        if stored is not None and stored.max_distance >= k:
            return stored
        key = (s, kind, k)
        if key not in self._indexes:
            self._indexes[key] = PackedIndex.build(_indexed(self._segments[s], kind), k)
        return self._indexes[key]

    def _segment_value_numbers(self) -> list[np.ndarray]:
        """Per segment, per distinct passage fingerprint of its index: its number in
        `passage_table`, or -1 when only removed documents hold it."""
        values = self.passage_table().values
        numbers = []
        for segment, rows in zip(self._segments, self._live, strict=True):
            indexed = _indexed(segment, "passages")
            number = np.searchsorted(values, indexed).astype(np.int64)
            if len(rows) < len(segment):  # values only removed documents hold
                alive = np.zeros(len(segment), bool)
                alive[rows] = True
                passage_doc, passage_fp = _passages_of(segment)
                live = np.isin(indexed, passage_fp[alive[passage_doc]])
                number[~live] = -1
            numbers.append(number)
        return numbers

    def _live_passages(self) -> tuple[np.ndarray, np.ndarray]:
        """(document number, fingerprint) of every usable passage of a live document."""
        docs, fps = [np.zeros(0, np.int64)], [np.zeros(0, np.uint64)]
        for segment, rows, start in zip(self._segments, self._live, self._starts, strict=False):
            number = np.full(len(segment), -1, np.int64)
            number[rows] = start + np.arange(len(rows))
            passage_doc, passage_fp = _passages_of(segment)
            doc = number[passage_doc]
            docs.append(doc[doc >= 0])
            fps.append(passage_fp[doc >= 0])
        return np.concatenate(docs), np.concatenate(fps)

    def _locations(self, docs: np.ndarray) -> list[tuple[int, int]]:
        segment = np.searchsorted(self._starts, docs, side="right") - 1
        return [
            (int(s), int(self._live[s][d - self._starts[s]]))
            for s, d in zip(segment.tolist(), docs.tolist(), strict=True)
        ]

    # -- writing ----------------------------------------------------------------------

    def add(
        self,
        records: Sequence[FileRecord],
        fingerprints: np.ndarray,
        settings: ArchiveSettings,
        *,
        progress: ProgressCallback = no_progress,
        cancel: CancelToken | None = None,
    ) -> tuple[Archive, AddSummary]:
        """Add read documents (records with tokens) and their document fingerprints.

        A path already archived with the same content is left as it is; with other
        content its old version is replaced. Returns the archive as it is now.
        Cancelling before the manifest is replaced leaves the archive unchanged.
        """
        cancel = cancel or CancelToken()
        self.require(settings)
        new, replaced, unchanged = [], [], 0
        for i, record in enumerate(records):
            where = self._by_path.get(record.path)
            if where is None:
                new.append(i)
            elif self._segments[where[0]].content_hash[where[1]].tobytes() == record.content_hash:
                unchanged += 1
            else:
                new.append(i)
                replaced.append(where)
        summary = AddSummary(len(new) - len(replaced), len(replaced), unchanged)
        if not new:
            return self, summary
        chosen = [records[i] for i in new]
        passage_doc, passage_fp = _usable_passages(chosen, settings, progress, cancel)
        grams = _distinct_grams([r.tokens.body for r in chosen], settings)
        with self._writing(progress, cancel) as manifest:
            generation = manifest["generation"] + 1
            name = f"seg-{generation:06d}"
            progress(Progress("archiving", 0, len(chosen)))
            entry = _write_segment(self.directory, name, chosen, fingerprints[new], cancel)
            entry["indexes"] = _write_indexes(
                self.directory, name, fingerprints[new], passage_fp, progress, cancel
            )
            entry["postings"] = _write_postings(
                self.directory, name, {"passages": (passage_doc, passage_fp), "grams": grams}
            )
            t2s = settings.traditional_to_simplified
            entry |= write_tokens(self.directory, name, token_arrays(chosen, t2s))
            cancel.check()
            for s, row in replaced:
                manifest["segments"][s]["dead"] = sorted({*manifest["segments"][s]["dead"], row})
            manifest["segments"].append(entry)
            manifest["generation"] = generation
            if len(manifest["segments"]) > MAX_SEGMENTS:
                manifest = _merged(self.directory, manifest, settings, progress, cancel)
            _write_manifest(self.directory, manifest)
            progress(Progress("archiving", len(chosen), len(chosen)))
        return Archive.open(self.directory), summary

    def remove(self, paths: Iterable[str]) -> tuple[Archive, int]:
        """Remove documents by path (as stored); returns the archive and how many went."""
        doomed = [self._by_path[p] for p in dict.fromkeys(paths) if p in self._by_path]
        if not doomed:
            return self, 0
        with self._writing() as manifest:
            for s, row in doomed:
                manifest["segments"][s]["dead"] = sorted({*manifest["segments"][s]["dead"], row})
            manifest["generation"] += 1
            _write_manifest(self.directory, manifest)
        return Archive.open(self.directory), len(doomed)

    @contextlib.contextmanager
    def _writing(self, progress: ProgressCallback = no_progress, cancel: CancelToken | None = None):
        """The manifest to change, under the archive's lock, as it was when this archive
        was opened (another writer in between: an error, never a lost update); leftover
        files of an interrupted write are deleted first, and a version 1 archive's
        segments get their indexes."""
        try:
            lock = open(self.directory / _LOCK, "a+b")  # noqa: SIM115 - held for the block
        except OSError as error:
            raise ArchiveError(f"cannot write to {self.directory}: {_reason(error)}") from error
        with lock:
            if not _try_lock(lock):
                raise ArchiveError(f"{self.directory} is being changed by another SimSift")
            current = _read_manifest(self.directory)
            if current["generation"] != self._manifest["generation"]:
                raise ArchiveError(f"{self.directory} changed since it was opened; open it again")
            _delete_leftovers(self.directory, current)
            try:
                _index_old_segments(self.directory, current, progress, cancel or CancelToken())
                yield current
            except BaseException as error:
                # a full disk, a cancel, a crash: files the manifest on disk does not name
                # go now, not at the next successful write
                _delete_leftovers_quietly(self.directory)
                if isinstance(error, OSError):
                    raise ArchiveError(
                        f"cannot write to {self.directory}: {_reason(error)}"
                    ) from error
                raise


def _usable_passages(records, settings: ArchiveSettings, progress, cancel: CancelToken):
    """(record row, fingerprint) of every passage with enough features to match."""
    streams = [r.tokens.body for r in records]
    passages = cut_passages(streams, settings.passages)

    def report(done: int, total: int) -> None:
        cancel.check()
        progress(Progress("passages", done, total))

    fps, n_features = passage_fingerprints(
        streams, passages, settings.weights, settings.passages.shingle_size, progress=report
    )
    usable = n_features >= settings.passages.min_features
    return passages.doc[usable], fps[usable]


def _distinct_grams(streams, settings: ArchiveSettings) -> tuple[np.ndarray, np.ndarray]:
    """(stream number, value) of each distinct word gram a stream keeps (`core.match.grams`)."""
    kept = kept_grams(streams, settings.passages.shortest_run)
    first = np.r_[True, (kept.value[1:] != kept.value[:-1]) | (kept.doc[1:] != kept.doc[:-1])]
    return kept.doc[first[: len(kept)]], kept.value[first[: len(kept)]]


def _passages_of(segment: _Segment) -> tuple[np.ndarray, np.ndarray]:
    """(row, fingerprint) of each usable passage of a segment."""
    if segment.passage_doc is not None:
        return segment.passage_doc, segment.passage_fp
    return segment.postings["passages"].items()


def _segment_grams(directory: Path, segment: _Segment, settings: ArchiveSettings):
    """A segment's (row, value) of distinct kept grams; a version 1 segment's are made
    again from its stored text."""
    if segment.gram_doc is not None:
        return segment.gram_doc, segment.gram_value
    if "grams" in segment.postings:
        return segment.postings["grams"].items()
    streams = []
    with open(directory / f"{segment.name}.text", "rb") as f:
        blob = f.read()
    for i in range(len(segment)):
        title, paragraphs = json_value(
            zlib.decompress(blob[segment.text_ptr[i] : segment.text_ptr[i + 1]])
        )
        tokens = document_tokens(
            title, paragraphs, traditional_to_simplified=settings.traditional_to_simplified
        )
        streams.append(tokens.body)
    return _distinct_grams(streams, settings)


def _passage_table(live: tuple[np.ndarray, np.ndarray]) -> PassageTable:
    doc, fp = live
    values, value_of = np.unique(fp, return_inverse=True)
    times_in = np.bincount(value_of, minlength=len(values))
    n_docs = int(doc.max()) + 1 if len(doc) else 1
    keys = np.unique(value_of * n_docs + doc)
    docs_in = np.bincount(keys // n_docs, minlength=len(values))
    ptr = np.r_[0, np.cumsum(docs_in)].astype(np.int64)
    return PassageTable(values, docs_in, times_in, ptr, (keys % n_docs).astype(np.int64))


# -- files -------------------------------------------------------------------------------


def _write_segment(directory: Path, name: str, records, fingerprints, cancel):
    """Write `name`.text and `name`.npz, each complete on disk before the manifest names it."""
    ptr = [0]
    with atomic_write(directory / f"{name}.text", durable=True) as f:
        for i, r in enumerate(records):
            if i % 256 == 0:
                cancel.check()
            blob = zlib.compress(json_bytes([r.title, list(r.paragraphs)]), 6)
            f.write(blob)
            ptr.append(ptr[-1] + len(blob))
    arrays = {
        "version": np.array([SEGMENT_VERSION], np.int64),
        "fingerprint": np.asarray(fingerprints, np.uint64),
        "size": np.array([r.size for r in records], np.int64),
        "mtime_ns": np.array([r.mtime_ns for r in records], np.int64),
        "content_hash": _hash_rows([r.content_hash for r in records]),
        "text_hash": _hash_rows([r.text_hash for r in records]),
        "meta": np.frombuffer(
            zlib.compress(json_bytes([[r.path, r.format, r.warning, r.title] for r in records])),
            np.uint8,
        ),
        "text_ptr": np.array(ptr, np.int64),
    }
    return _write_arrays(directory, name, arrays)


def _write_arrays(directory: Path, name: str, arrays: dict) -> dict:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    data = buffer.getvalue()
    with atomic_write(directory / f"{name}.npz", durable=True) as f:
        f.write(data)
    return {
        "name": name,
        "documents": len(arrays["fingerprint"]),
        "bytes": len(data),
        "digest": hashlib.blake2b(data, digest_size=16).hexdigest(),
        "text_bytes": int(arrays["text_ptr"][-1]),
        "dead": [],
    }


def _hash_rows(hashes: list[bytes]) -> np.ndarray:
    out = np.zeros((len(hashes), 16), np.uint8)
    for i, h in enumerate(hashes):
        out[i, : len(h)] = np.frombuffer(h[:16], np.uint8)
    return out


def _read_segment(directory: Path, entry: dict) -> _Segment:
    name = entry["name"]
    path = directory / f"{name}.npz"
    try:
        data = path.read_bytes()
    except OSError as error:
        raise _unreadable(path, error) from error
    if hashlib.blake2b(data, digest_size=16).hexdigest() != entry["digest"]:
        raise ArchiveDamaged(f"{path}: damaged archive file (its checksum does not match)")
    text = directory / f"{name}.text"
    if not text.is_file() or text.stat().st_size != entry["text_bytes"]:
        raise ArchiveDamaged(f"{text}: archive file missing or damaged (wrong size)")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            a = {key: z[key] for key in z.files}
        if int(a["version"][0]) not in READABLE_SEGMENTS:
            raise ArchiveDamaged(f"{path}: written by another archive version")
        meta = json_value(zlib.decompress(a["meta"].tobytes()))
        segment = _Segment(
            name,
            a["fingerprint"],
            a["size"],
            a["mtime_ns"],
            a["content_hash"],
            a["text_hash"],
            meta,
            a["text_ptr"],
            a.get("passage_doc"),
            a.get("passage_fp"),
            _read_indexes(directory, entry),
            a.get("gram_doc"),
            a.get("gram_value"),
            _read_postings(directory, entry),
        )
    except ArchiveError:
        raise
    except Exception as error:  # a file that passed the checksum but is not ours
        raise_if_short(error)
        raise ArchiveDamaged(f"{path}: damaged archive file ({type(error).__name__})") from error
    n = len(segment)
    if not (len(meta) == n == entry["documents"] and len(segment.text_ptr) == n + 1):
        raise ArchiveDamaged(f"{path}: damaged archive file (inconsistent sizes)")
    if segment.passage_doc is None and set(segment.postings) != set(POSTING_KINDS):
        raise ArchiveDamaged(f"{path}: archive files missing (its posting lists)")
    docs = segment.indexes.get("docs")
    if docs is not None and not np.array_equal(docs.fingerprints, segment.fingerprint):
        raise ArchiveDamaged(f"{_index_path(directory, name, 'docs')}: not this segment's index")
    return segment


def _index_path(directory: Path, name: str, kind: str) -> Path:
    return directory / f"{name}.{kind}" / INDEX_FILE


def _indexed(segment: _Segment, kind: str) -> np.ndarray:
    """What a segment's index of `kind` holds: document fingerprints by row, or the
    distinct passage fingerprints (a licence in 10,000 documents is one entry)."""
    stored = segment.indexes.get(kind)
    if stored is not None:
        return stored.fingerprints
    return segment.fingerprint if kind == "docs" else np.unique(_passages_of(segment)[1])


def _write_indexes(directory: Path, name: str, doc_fps, passage_fps, progress, cancel) -> dict:
    """Build and save the segment's packed indexes; their manifest entry."""
    entry = {}
    for step, (kind, fps) in enumerate((("docs", doc_fps), ("passages", np.unique(passage_fps)))):

        def report(done: int, total: int, step: int = step) -> None:
            progress(Progress("indexing", step * total + done, 2 * total))

        k = INDEX_DISTANCE[kind]
        index = PackedIndex.build(fps, k, progress=report, cancel=cancel)
        path = index.save(directory / f"{name}.{kind}")
        entry[kind] = {"k": k, "bytes": path.stat().st_size}
    return entry


def _read_indexes(directory: Path, entry: dict) -> dict:
    """The segment's packed indexes as the manifest names them (memory-mapped; none for
    a version 1 segment). Tables are checksummed when a query first uses them."""
    indexes = {}
    for kind, stored in entry.get("indexes", {}).items():
        path = _index_path(directory, entry["name"], kind)
        try:
            size = path.stat().st_size
        except OSError as error:
            raise _unreadable(path, error) from error
        if size != stored["bytes"]:
            raise ArchiveDamaged(f"{path}: archive file damaged (wrong size)")
        try:
            index = PackedIndex.load(path.parent)
        except PackedIndexError as error:
            raise _index_error(error) from error
        if index.max_distance != stored["k"]:
            raise ArchiveDamaged(f"{path}: archive file damaged (not the index named)")
        indexes[kind] = index
    return indexes


def _postings_path(directory: Path, name: str, kind: str) -> Path:
    return directory / f"{name}.{kind}-postings"


def _write_postings(directory: Path, name: str, items: dict) -> dict:
    """Build and save the segment's posting lists (kind -> (rows, values)); their
    manifest entry: kind -> bytes."""
    return {
        kind: Postings.build(*items[kind]).save(_postings_path(directory, name, kind))
        for kind in POSTING_KINDS
    }


def _read_postings(directory: Path, entry: dict) -> dict:
    """The segment's posting lists as the manifest names them, memory-mapped (none for
    a segment written before them)."""
    postings = {}
    for kind, size in entry.get("postings", {}).items():
        try:
            postings[kind] = Postings.load(_postings_path(directory, entry["name"], kind), size)
        except PostingsError as error:
            raise ArchiveDamaged(str(error)) from error
        except OSError as error:
            raise _unreadable(_postings_path(directory, entry["name"], kind), error) from error
    return postings


def _posting_items(directory: Path, segment: _Segment, kind: str, settings):
    """(row, value) of a segment's usable passages or kept grams."""
    if kind == "passages":
        return _passages_of(segment)
    return _segment_grams(directory, segment, settings)


def _index_old_segments(directory: Path, manifest: dict, progress, cancel: CancelToken) -> None:
    """Give the segments of an older archive their indexes and posting lists (the
    manifest then says version 2): the first write after an upgrade pays for them once."""
    for entry in manifest["segments"]:
        if "indexes" in entry and "postings" in entry:
            continue
        segment = _read_segment(directory, entry)
        if "indexes" not in entry:
            fps = _passages_of(segment)[1]
            entry["indexes"] = _write_indexes(
                directory, entry["name"], segment.fingerprint, fps, progress, cancel
            )
        if "postings" not in entry and segment.gram_doc is not None:
            items = {kind: _posting_items(directory, segment, kind, None) for kind in POSTING_KINDS}
            entry["postings"] = _write_postings(directory, entry["name"], items)
    manifest["version"] = VERSION


def _distinct_matches(parts: list[Matches], n_right: int) -> Matches:
    """The matches of all parts, each (left, right) once, sorted as an index's answer."""
    parts = [m for m in parts if len(m)]
    if not parts:
        return Matches.empty()
    left = np.concatenate([m.left for m in parts]).astype(np.int64)
    right = np.concatenate([m.right for m in parts]).astype(np.int64)
    distance = np.concatenate([m.distance for m in parts])
    _, first = np.unique(left * max(n_right, 1) + right, return_index=True)
    return Matches(left[first], right[first], distance[first])


def _merged(
    directory: Path, manifest: dict, settings: ArchiveSettings, progress, cancel: CancelToken | None
) -> dict:
    """The manifest with all segments merged into one new segment of the live documents."""
    cancel = cancel or CancelToken()
    segments = [_read_segment(directory, e) for e in manifest["segments"]]
    generation = manifest["generation"] + 1
    name = f"seg-{generation:06d}"
    parts: dict[str, list] = {key: [] for key in ("fingerprint", "size", "mtime_ns")}
    hashes, texts, meta, ptr, p_doc, p_fp, g_doc, g_value = [], [], [], [0], [], [], [], []
    tokens: list[tuple[SegmentTokens | None, np.ndarray]] = []
    n_before = 0
    with atomic_write(directory / f"{name}.text", durable=True) as out:
        for segment, entry in zip(segments, manifest["segments"], strict=True):
            cancel.check()
            live = np.setdiff1d(np.arange(len(segment)), entry["dead"])
            tokens.append((read_tokens(directory, entry, len(segment)), live))
            for key in parts:
                parts[key].append(getattr(segment, key)[live])
            hashes.append((segment.content_hash[live], segment.text_hash[live]))
            meta += [segment.meta[i] for i in live.tolist()]
            with open(directory / f"{segment.name}.text", "rb") as f:
                blob = f.read()
            for i in live.tolist():
                chunk = blob[segment.text_ptr[i] : segment.text_ptr[i + 1]]
                out.write(chunk)
                ptr.append(ptr[-1] + len(chunk))
            number = np.full(len(segment), -1, np.int64)
            number[live] = n_before + np.arange(len(live))
            passage_doc, passage_fp = _passages_of(segment)
            doc = number[passage_doc]
            p_doc.append(doc[doc >= 0])
            p_fp.append(passage_fp[doc >= 0])
            gram_doc, gram_value = _segment_grams(directory, segment, settings)
            doc = number[gram_doc]
            g_doc.append(doc[doc >= 0])
            g_value.append(gram_value[doc >= 0])
            n_before += len(live)
            texts.append(len(blob))
    arrays = {
        "version": np.array([SEGMENT_VERSION], np.int64),
        **{key: np.concatenate(v) for key, v in parts.items()},
        "content_hash": np.concatenate([h[0] for h in hashes]).reshape(-1, 16),
        "text_hash": np.concatenate([h[1] for h in hashes]).reshape(-1, 16),
        "meta": np.frombuffer(zlib.compress(json_bytes(meta)), np.uint8),
        "text_ptr": np.array(ptr, np.int64),
    }
    p_doc, p_fp, g_doc, g_value = (np.concatenate(x) for x in (p_doc, p_fp, g_doc, g_value))
    entry = _write_arrays(directory, name, arrays)
    entry["indexes"] = _write_indexes(
        directory, name, arrays["fingerprint"], p_fp, progress, cancel
    )
    entry["postings"] = _write_postings(
        directory, name, {"passages": (p_doc, p_fp), "grams": (g_doc, g_value)}
    )
    rows = merged_arrays(tokens) if all(t is not None for t, _ in tokens) else None
    if rows is not None:  # else cut again when needed
        entry |= write_tokens(directory, name, rows)
    return {**manifest, "version": VERSION, "generation": generation, "segments": [entry]}


def _read_manifest(directory: Path) -> dict:
    path = directory / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise ArchiveError(f"{directory} is not a SimSift archive (no {MANIFEST})") from error
    except OSError as error:
        raise_if_short(error)
        raise ArchiveError(f"cannot read {path}: {_reason(error)}") from error
    except ValueError as error:
        raise ArchiveDamaged(f"{path}: damaged archive file (not JSON)") from error
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArchiveError(f"{directory} is not a SimSift archive ({MANIFEST} is not ours)")
    if manifest.get("version") not in READABLE_VERSIONS:
        raise ArchiveError(
            f"{directory} was written by another archive version ({manifest.get('version')}; "
            f"this SimSift reads version {VERSION}); build the archive again"
        )
    try:
        for entry in manifest["segments"]:
            _check_entry(entry)
        int(manifest["generation"]), str(manifest["settings"])
    except (KeyError, TypeError, ValueError) as error:
        raise ArchiveDamaged(f"{path}: damaged archive file (bad entry {error})") from error
    return manifest


def _check_entry(entry: dict) -> None:
    """Raise KeyError, TypeError or ValueError for a segment entry that is not ours."""
    texts = (entry["name"], entry["digest"])
    counts = (entry["documents"], entry["text_bytes"], *entry["dead"])
    if not all(isinstance(x, str) for x in texts) or not all(type(x) is int for x in counts):
        raise ValueError("name")
    if not entry["name"].startswith("seg-") or "/" in entry["name"]:
        raise ValueError(entry["name"])
    indexes = entry.get("indexes", {})
    for kind, stored in indexes.items():
        if kind not in INDEX_KINDS or not all(type(stored[x]) is int for x in ("k", "bytes")):
            raise ValueError(kind)
    if indexes and set(indexes) != set(INDEX_KINDS):
        raise ValueError("indexes")
    postings = entry.get("postings", {})
    if set(postings) - set(POSTING_KINDS) or not all(type(x) is int for x in postings.values()):
        raise ValueError("postings")


def _write_manifest(directory: Path, manifest: dict) -> None:
    with atomic_write(directory / MANIFEST, durable=True) as f:
        f.write(json.dumps(manifest, indent=1).encode("utf-8"))


def _try_lock(f) -> bool:
    """Take the writer's lock on the open lock file without waiting; False if held."""
    try:
        if os.name == "nt":
            import msvcrt

            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _delete_leftovers(directory: Path, manifest: dict) -> None:
    """Segment files no manifest names (an interrupted add or merge), temp files, and
    the neighbour counts earlier versions kept (`counts-*.npy`)."""
    named = {e["name"] for e in manifest["segments"]}
    for path in directory.iterdir():
        stem = path.name.split(".")[0] if not path.name.startswith(".") else ""
        leftover = path.name.endswith(".tmp") or (stem.startswith("seg-") and stem not in named)
        leftover |= stem.startswith("counts-")
        if leftover and path.is_dir():  # an unnamed segment's indexes
            shutil.rmtree(path, ignore_errors=True)
        elif leftover and path.is_file():
            path.unlink(missing_ok=True)


def _delete_leftovers_quietly(directory: Path) -> None:
    """`_delete_leftovers` after a failed write, against the manifest as it is on disk
    (the one in memory may already name the segment that failed)."""
    with contextlib.suppress(OSError, ArchiveError):
        _delete_leftovers(directory, _read_manifest(directory))


def _unreadable(path: Path, error: OSError) -> ArchiveError:
    """The error for an archive file that could not be read: damage only when it is
    missing; a shortage is raised as it is (`core.shortage`)."""
    raise_if_short(error)
    if isinstance(error, FileNotFoundError):
        return ArchiveDamaged(f"{path}: archive file missing")
    return ArchiveError(f"{path}: archive file unreadable ({_reason(error)})")


def _index_error(error: PackedIndexError) -> ArchiveError:
    raise_if_short(error)
    return ArchiveDamaged(str(error).replace("packed index", "archive file"))


def _reason(error: Exception) -> str:
    return getattr(error, "strerror", None) or str(error) or type(error).__name__
