"""The scan: folders in, a `ScanResult` (core/result.py) out; this module orchestrates.

walk → read (`core.reader`, in isolated worker processes, cached in the catalog)
→ features → SimHash → HammingIndex → pairs at k_max, and passages → partial copies.

The result keeps the token streams, so changing k (filter pairs, re-cluster) never
re-reads a file, and `reweight` recomputes fingerprints from them.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from core.arrays import bounded_runs
from core.document import (
    MAX_FILE_BYTES,
    STATUS_ERROR,
    STATUS_SKIPPED,
    FileRecord,
)
from core.features import Features, FeatureWeights, IdfTable, corpus_features
from core.index import Matches
from core.pair_graph import Groups, PairSearch, search_pairs
from core.passages import PassageOptions, PassageResult, analyze_passages
from core.progress import CancelToken, Progress, ProgressCallback, no_progress
from core.reader import ReadTask, read_file
from core.result import ScanResult
from core.result_cache import ComparisonCache, comparison_key
from core.signatures import SignatureOptions, find_signature_matches
from core.simhash import simhash_features
from core.walk import FoundFile, walk_files
from core.workers import TaskFailure, default_workers, reader_memory_limit, run_isolated

DEFAULT_K = 8  # chosen from docs/quality.md: recall 0.70 -> 0.99 at k=3 -> 8, precision 0.996
DEFAULT_K_MAX = 10  # the k slider reaches past the default without a rescan
MAX_K = 16
_STORE_BATCH = 100
_STORE_SECONDS = 2.0  # and at least this often: a kill early in a slow scan loses little
_FINGERPRINT_TOKENS = 1 << 20  # document tokens fingerprinted at once, between cancel checks
_PAIR_BUDGET = 1 << 22  # document pairs made at once from pairs of distinct fingerprints
# more identical copies than this are listed as pairs with the first copy, not all pairs
MAX_LISTED_COPIES = 1000
# a file gets the `file_timeout` once per this many bytes: plain text reads at about 5 MB/s
# on one core, so a 200 MB text (about 45 s) gets 600 s, a margin for a busy machine
_BYTES_PER_TIMEOUT = 20 * 2**20


@dataclass(frozen=True)
class ScanOptions:
    """What to scan and how.

    Args:
        roots: folders (or single files) to scan.
        reference_roots: folders whose files are compared with the others but never
            reported among themselves (assignment prompt, last year's essays).
        exclude: glob patterns for files and folders to leave out.
        compare_garbled: compare documents whose text is garbled (a misread encoding) too;
            by default they are listed with their warning and left out.
        follow_outside_links: read files that links inside the folders point to elsewhere
            (by default such links are listed as skipped: a link to /etc/passwd in an
            essays folder is not an essay).
        weights: feature weighting.
        k_max: pairs are computed once at this distance; any k <= k_max re-clusters instantly.
        workers: reader processes; 0 reads in this process (no time budget; tests, debugging).
        file_timeout: seconds one file may take to read before it is reported and skipped;
            a file larger than 20 MB gets this much per 20 MB (`read_budget`).
        max_file_bytes: larger files are reported, not read.
        memory_limit: bytes each reader process may use; None: half the machine's memory
            shared by the readers, 1-3 GB each (`core.workers.reader_memory_limit`).
        traditional_to_simplified: fold Traditional Chinese to Simplified before hashing.
        passages: passage sizes and thresholds for partial copying and template text.
        signatures: side signatures (keyword MD5, sentences) computed next to the SimHashes.
        scheduler: a Dask scheduler's address (tcp://HOST:8786): files are read on that
            cluster (`core.distributed`); empty: on this machine.
        ship_files: send each file's bytes to the cluster (workers without the files).
    """

    roots: tuple[str, ...]
    reference_roots: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    include_hidden: bool = False
    follow_outside_links: bool = False
    compare_garbled: bool = False
    weights: FeatureWeights = field(default_factory=FeatureWeights)
    k_max: int = DEFAULT_K_MAX
    workers: int = field(default_factory=default_workers)
    file_timeout: float = 60.0
    max_file_bytes: int = MAX_FILE_BYTES
    memory_limit: int | None = None
    traditional_to_simplified: bool = True
    passages: PassageOptions = field(default_factory=PassageOptions)
    signatures: SignatureOptions = field(default_factory=SignatureOptions)
    scheduler: str = ""
    ship_files: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.k_max <= MAX_K:
            raise ValueError(f"k_max must be between 0 and {MAX_K}, not {self.k_max}")


def scan(
    options: ScanOptions,
    *,
    catalog=None,
    ignored: Iterable[frozenset[str]] = (),
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> ScanResult:
    """Scan the folders in `options` and find near-duplicate pairs up to k_max.

    Args:
        catalog: a `core.catalog.Catalog` to reuse unchanged files from and store new
            results in (committed in batches, so an interrupted scan resumes), or None.
        ignored: pairs of paths the user marked "not a duplicate".
        progress: called with `Progress` reports (stages "finding", "reading",
            "fingerprinting", "comparing", "passages").
        cancel: set it to stop; raises `Cancelled`. Files already read stay in the catalog.
    """
    cancel = cancel or CancelToken()
    guarded = _GuardedCatalog(catalog)
    found, left_out = _find_files(options, progress, cancel)
    records, reused = _read_files(found, options, guarded, progress, cancel)
    records += left_out
    guarded.prune(_all_roots(options), {f.path for f in found})
    catalog = guarded.catalog
    garbled = () if options.compare_garbled else tuple(r for r in records if _garbled(r))
    documents = tuple(r for r in records if r.ok and (options.compare_garbled or not _garbled(r)))
    is_reference = np.array(
        [under_any(d.path, options.reference_roots) for d in documents], dtype=bool
    )
    fingerprints, pairs, passages = _compare(
        documents, is_reference, options, catalog, progress, cancel
    )
    result = ScanResult(
        options=options,
        documents=documents,
        errors=tuple(r for r in records if r.status == STATUS_ERROR),
        skipped=tuple(r for r in records if r.status == STATUS_SKIPPED),
        is_reference=is_reference,
        fingerprints=fingerprints,
        pairs=pairs,
        content_codes=hash_codes([d.content_hash for d in documents]),
        text_codes=hash_codes([d.text_hash for d in documents]),
        reference_rank=reference_rank_of(documents, is_reference),
        reused=reused,
        passages=passages,
        notices=guarded.notices(),
        garbled=garbled,
        signatures=find_signature_matches(
            documents, is_reference, options.weights, options.signatures
        ),
    )
    return result.without_ignored(ignored)


def reweight(
    result: ScanResult,
    weights: FeatureWeights,
    *,
    ignored: Iterable[frozenset[str]] = (),
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
    passages: PassageOptions | None = None,
) -> ScanResult:
    """The same documents fingerprinted with other weights (no file is read again),
    and with other passage options if given."""
    options = replace(result.options, weights=weights, passages=passages or result.options.passages)
    cancel = cancel or CancelToken()
    fingerprints = fingerprint_documents(result.documents, weights, progress, cancel)
    pairs = find_pairs(fingerprints, options.k_max, result.is_reference, progress, cancel)
    found = find_passages(result.documents, result.is_reference, options, progress, cancel)
    signatures = find_signature_matches(
        result.documents, result.is_reference, weights, options.signatures
    )
    edited = replace(
        result,
        options=options,
        fingerprints=fingerprints,
        pairs=pairs,
        passages=found,
        signatures=signatures,
    )
    return edited.without_ignored(ignored)


def _garbled(record: FileRecord) -> bool:
    from core.extract.checks import is_garbled

    return record.ok and is_garbled(record.warning)


class _GuardedCatalog:
    """The scan's use of the catalog: a catalog that fails (a full disk, a lock held too
    long) is dropped for the rest of the scan with a notice, and the scan goes on."""

    def __init__(self, catalog) -> None:
        self.catalog = catalog
        self.problem = ""
        self._recovery = getattr(catalog, "recovery", None)

    def lookup_many(self, keys) -> dict:
        return self._call(lambda c: c.lookup_many(keys), {})

    def store(self, records) -> None:
        self._call(lambda c: c.store(records), None)

    def prune(self, roots, keep) -> None:
        self._call(lambda c: c.prune(roots, keep), None)

    def _call(self, operation, fallback):
        from core.catalog import CatalogError

        if self.catalog is None:
            return fallback
        try:
            return operation(self.catalog)
        except CatalogError as error:
            self.problem = f"{error} This scan went on without the catalog."
            self.catalog = None
            return fallback

    def notices(self) -> tuple[str, ...]:
        recovery = getattr(self.catalog, "recovery", None)
        replaced = recovery is not None and recovery is not self._recovery
        return tuple(n for n in (recovery.message if replaced else "", self.problem) if n)


def _compare(documents, is_reference, options: ScanOptions, catalog, progress, cancel):
    """Fingerprints, pairs and passages of the documents. With a catalog: the last scan's
    results when nothing changed; otherwise its fingerprints of the unchanged documents
    and its pair graphs, so that only what changed is computed and searched."""
    cache = ComparisonCache.beside(catalog.path, _all_roots(options)) if catalog else None
    search = _from_scratch(options)
    if cache is None:
        fingerprints = fingerprint_documents(documents, options.weights, progress, cancel)
        pairs = find_pairs(
            fingerprints, options.k_max, is_reference, progress, cancel, pair_search=search
        )
        passages = find_passages(
            documents, is_reference, options, progress, cancel, pair_search=search
        )
        return fingerprints, pairs, passages
    key = _comparison_key(documents, is_reference, options)
    cached = cache.load(key, options.passages)
    if cached is not None:
        return cached
    doc_ids, reuse_key = _document_ids(documents, is_reference), _reuse_key(options)
    previous = cache.previous(doc_ids, reuse_key, options.passages)
    fingerprints = fingerprint_documents(
        documents, options.weights, progress, cancel, known=_known_fingerprints(previous)
    )
    pairs = find_pairs(
        fingerprints,
        options.k_max,
        is_reference,
        progress,
        cancel,
        pair_search=cache.pair_search("documents", search),
    )
    passages = find_passages(
        documents,
        is_reference,
        options,
        progress,
        cancel,
        pair_search=cache.pair_search("passages", search),
        known=(previous.old_of, previous.passages) if previous else None,
    )
    cache.store(key, fingerprints, pairs, passages, doc_ids, reuse_key)
    return fingerprints, pairs, passages


def _from_scratch(options: ScanOptions) -> PairSearch:
    """How an all-pairs search without earlier results runs: on this machine, or one task
    per permuted table on the options' cluster."""
    if not options.scheduler:
        return search_pairs

    def on_cluster(values, k, progress=None, cancel=None):
        from core.distributed import connect, pairs_on_cluster

        client = connect(options.scheduler)
        try:
            return pairs_on_cluster(client, values, k, progress, cancel)
        finally:
            client.close()

    return on_cluster


def _document_ids(documents: Sequence[FileRecord], is_reference: np.ndarray) -> list[bytes]:
    """Per document, a digest of its path, content and role: equal ids, same tokens."""
    return [
        hashlib.blake2b(
            d.path.encode("utf-8", "surrogateescape") + d.content_hash + d.text_hash + bytes([r]),
            digest_size=16,
        ).digest()
        for d, r in zip(documents, is_reference.tolist(), strict=True)
    ]


def _reuse_key(options: ScanOptions) -> bytes:
    """What per-document fingerprints and the matches between two unchanged documents
    depend on, besides which passages are template or common (compared separately)."""
    p = options.passages
    sizes = (p.min_tokens, p.max_tokens, p.shingle_size, p.min_features)
    distances = (p.max_distance, p.extend_distance)
    settings = (options.weights, sizes, distances, options.traditional_to_simplified)
    return comparison_key([repr(settings).encode()])


def _known_fingerprints(previous) -> tuple[np.ndarray, np.ndarray] | None:
    """(the last scan's fingerprint per document, bool: known), or None."""
    if previous is None:
        return None
    have = previous.old_of >= 0
    known = np.zeros(len(have), np.uint64)
    known[have] = previous.fingerprints[previous.old_of[have]]
    return known, have


def _comparison_key(documents, is_reference: np.ndarray, options: ScanOptions) -> bytes:
    """Everything the comparison of a scan depends on."""
    settings = (options.weights, options.k_max, options.passages, options.traditional_to_simplified)
    files = "\0".join(f"{d.path}\t{d.size}\t{d.mtime_ns}" for d in documents)
    return comparison_key(
        [
            repr(settings).encode(),
            files.encode("utf-8", "surrogateescape"),
            b"".join(d.content_hash + d.text_hash for d in documents),
            np.packbits(is_reference).tobytes(),
        ]
    )


def find_passages(
    documents: Sequence[FileRecord],
    is_reference: np.ndarray,
    options: ScanOptions,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
    pair_search: PairSearch = search_pairs,
    known: tuple[np.ndarray, PassageResult] | None = None,
) -> PassageResult:
    """Passage matches, template and common text, containment of the documents' bodies."""
    return analyze_passages(
        [d.tokens.body for d in documents],
        is_reference,
        options.weights,
        options.passages,
        progress=progress,
        cancel=cancel,
        pair_search=pair_search,
        known=known,
    )


def _all_roots(options: ScanOptions) -> tuple[str, ...]:
    return tuple(os.path.abspath(r) for r in (*options.roots, *options.reference_roots))


def _find_files(
    options: ScanOptions, progress: ProgressCallback, cancel: CancelToken
) -> tuple[list[FoundFile], list[FileRecord]]:
    """The files to read, and records of what the walk left out (skipped, or an error for
    a folder or file that cannot be opened)."""
    found: list[FoundFile] = []
    left_out: list[FileRecord] = []

    def on_skip(path: str, reason: str, is_error: bool) -> None:
        status = STATUS_ERROR if is_error else STATUS_SKIPPED
        left_out.append(FileRecord(path, 0, 0, status, reason))

    for f in walk_files(
        _all_roots(options),
        exclude=options.exclude,
        include_hidden=options.include_hidden,
        follow_outside_links=options.follow_outside_links,
        on_skip=on_skip,
    ):
        found.append(f)
        if len(found) % 500 == 0:
            cancel.check()
            progress(Progress("finding", len(found), 0, f.path))
    return found, left_out


def _read_files(found, options, catalog, progress, cancel) -> tuple[list[FileRecord], int]:
    """Records for all found files: unchanged ones from the catalog, the rest read anew."""
    from core.extract import SUPPORTED_SUFFIXES

    cached = catalog.lookup_many([(f.path, f.size, f.mtime_ns) for f in found])
    records: list[FileRecord] = []
    to_read: list[ReadTask] = []
    for f in found:
        suffix = os.path.splitext(f.path)[1].lower()
        if f.path in cached:
            records.append(cached[f.path])
        elif suffix and suffix not in SUPPORTED_SUFFIXES:
            reason = f"not a document type SimSift reads ({suffix})"
            records.append(FileRecord(f.path, f.size, f.mtime_ns, STATUS_SKIPPED, reason))
        else:
            to_read.append(
                ReadTask(
                    f.path,
                    f.size,
                    f.mtime_ns,
                    options.max_file_bytes,
                    options.traditional_to_simplified,
                )
            )
    total = len(to_read)
    progress(Progress("reading", 0, total))
    batch: list[FileRecord] = []
    stored_at = time.monotonic()
    try:
        for done, record in enumerate(_read_all(to_read, options, cancel), start=1):
            records.append(record)
            if not record.retry:
                batch.append(record)
            due = time.monotonic() - stored_at >= _STORE_SECONDS
            if len(batch) >= _STORE_BATCH or due:
                catalog.store(batch)
                batch, stored_at = [], time.monotonic()
            progress(Progress("reading", done, total, record.path))
    finally:
        # files read before a cancel (or a crash in a later stage) are kept for the next scan
        if batch:
            catalog.store(batch)
    order = {f.path: i for i, f in enumerate(found)}
    records.sort(key=lambda r: order[r.path])
    return records, len(cached)


def find_files(
    options: ScanOptions,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> tuple[list[FoundFile], list[FileRecord]]:
    """The files under the options' roots to read, as a scan finds them, and records of
    what the walk left out."""
    return _find_files(options, progress, cancel or CancelToken())


def read_files(
    found: Sequence[FoundFile],
    options: ScanOptions,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> list[FileRecord]:
    """Records of the found files, read as a scan reads them (worker processes, time and
    memory budgets) but without a catalog."""
    return _read_files(found, options, _GuardedCatalog(None), progress, cancel or CancelToken())[0]


def is_compared(record: FileRecord, options: ScanOptions) -> bool:
    """Whether a scan compares this record: read, and not garbled (unless asked)."""
    return record.ok and (options.compare_garbled or not _garbled(record))


def _read_all(tasks: list[ReadTask], options: ScanOptions, cancel: CancelToken):
    """Read files in worker processes (or in-process when workers == 0), or on a cluster."""
    if options.scheduler and tasks:
        yield from _read_on_cluster(tasks, options, cancel)
        return
    if options.workers == 0 or not tasks:
        for task in tasks:
            cancel.check()
            yield read_file(task)
        return
    for task, result in run_isolated(
        read_file,
        tasks,
        workers=options.workers,
        timeout=lambda task: read_budget(task, options.file_timeout),
        cancel=cancel,
        memory_limit=options.memory_limit or reader_memory_limit(options.workers),
    ):
        if isinstance(result, TaskFailure):  # a time-out, crash or memory limit: retried
            yield FileRecord(
                task.path, task.size, task.mtime_ns, STATUS_ERROR, result.message, retry=True
            )
        else:
            yield result


def read_budget(task: ReadTask, file_timeout: float) -> float:
    """Seconds `task` may take to read: `file_timeout`, scaled up with the file's size
    (a huge text takes long to tokenize; a small file that hangs is still stopped soon)."""
    return file_timeout * max(1.0, task.size / _BYTES_PER_TIMEOUT)


def _read_on_cluster(tasks: list[ReadTask], options: ScanOptions, cancel: CancelToken):
    from core.distributed import connect, read_on_cluster

    client = connect(options.scheduler)
    try:
        yield from read_on_cluster(
            client,
            tasks,
            ship_files=options.ship_files,
            timeout=options.file_timeout,
            cancel=cancel,
        )
    finally:
        client.close()


def fingerprint_documents(
    documents: Sequence[FileRecord],
    weights: FeatureWeights,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
    known: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """SimHash fingerprints of documents from their cached tokens.

    Args:
        known: (fingerprints, bool per document) from an earlier scan with the same
            weights: those are kept, unless idf makes every fingerprint depend on all.
    """
    cancel = cancel or CancelToken()
    if known is not None and not weights.use_idf:
        values, have = known
        fresh = np.flatnonzero(~have)
        out = values.copy()
        out[fresh] = fingerprint_documents([documents[i] for i in fresh], weights, progress, cancel)
        return out
    total = len(documents)
    progress(Progress("fingerprinting", 0, total))
    tokens = [d.tokens for d in documents]
    fingerprints = np.zeros(total, np.uint64)
    with_idf = []  # idf needs the whole corpus' document frequencies first
    sizes = np.array([len(t.body) + len(t.title) for t in tokens], dtype=np.int64)
    for lo, hi in bounded_runs(sizes, _FINGERPRINT_TOKENS):
        cancel.check()
        # a huge document alone is weighed in pieces, with cancel checks between them
        features = corpus_features(tokens[lo:hi], weights, idf=False, between_pieces=cancel.check)
        if weights.use_idf:
            with_idf.append(features)
        else:
            fingerprints[lo:hi] = simhash_features(features)
        progress(Progress("fingerprinting", hi, total))
    if weights.use_idf:
        features = Features.concat(with_idf)
        fingerprints = simhash_features(IdfTable.from_features(features).apply(features))
    return fingerprints


def find_pairs(
    fingerprints: np.ndarray,
    k_max: int,
    is_reference: np.ndarray,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
    pair_search: PairSearch = search_pairs,
) -> Matches:
    """Pairs within k_max, minus pairs of two reference documents.

    Reports `Progress("comparing", tables done, tables)`.
    """
    progress(Progress("comparing", 0, 1))
    groups = Groups.of(fingerprints)
    found = pair_search(
        groups.values,
        k_max,
        lambda done, total: progress(Progress("comparing", done, total)),
        cancel,
    )
    pairs = groups.matches(found, _PAIR_BUDGET, MAX_LISTED_COPIES)
    progress(Progress("comparing", 1, 1))
    return pairs.subset(~(is_reference[pairs.left] & is_reference[pairs.right]))


def hash_codes(hashes: Sequence[bytes]) -> np.ndarray:
    """Small integer codes, equal exactly where the hashes are equal."""
    table: dict[bytes, int] = {}
    return np.array([table.setdefault(h, len(table)) for h in hashes], dtype=np.int64)


def under_any(path: str, roots: Iterable[str]) -> bool:
    """Whether `path` is one of `roots` or lies below one."""
    for root in roots:
        root = os.path.abspath(root)
        if path == root or path.startswith(root.rstrip(os.sep) + os.sep):
            return True
    return False


def reference_rank_of(documents: Sequence[FileRecord], is_reference: np.ndarray) -> np.ndarray:
    """Best cluster reference first: in a reference folder, then oldest, then largest."""
    if not documents:
        return np.zeros(0, np.int64)
    mtime = np.array([d.mtime_ns for d in documents], dtype=np.int64)
    size = np.array([d.size for d in documents], dtype=np.int64)
    order = np.lexsort((-size, mtime, ~is_reference))
    rank = np.empty(len(documents), dtype=np.int64)
    rank[order] = np.arange(len(documents))
    return rank
