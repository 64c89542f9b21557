"""The stages of a scan, each a function the scan, the check and the archive all call:
walk → read (isolated reader processes, the catalog) → fingerprints → pairs → passages."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np
from simsift.core.arrays import bounded_runs
from simsift.core.document import STATUS_ERROR, STATUS_SKIPPED, FileRecord
from simsift.core.index.matches import Matches
from simsift.core.index.pair_graph import Groups, PairSearch, search_pairs
from simsift.core.match.grams import KeptGrams
from simsift.core.match.meaning.kept import AlignmentStore
from simsift.core.match.meaning.matches import (
    MeaningMatches,
    meaning_matches,
    without_verbatim,
)
from simsift.core.match.meaning.sketch import MeaningSketch
from simsift.core.match.passages import PassageResult, analyze_passages
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.progress import CancelToken, Progress, ProgressCallback, no_progress
from simsift.core.read.extract.ocr import OCR_OFF, OCR_SECONDS
from simsift.core.read.reader import ReadTask, read_file
from simsift.core.read.walk import FoundFile, walk_files
from simsift.core.read.workers import (
    OVER_READER_MEMORY,
    TOO_BIG,
    Pages,
    PagesRead,
    TaskFailure,
    memory_budget_binds,
    over_reader_memory,
    reader_memory_limit,
    run_isolated,
)
from simsift.core.text.features import (
    FeatureCounts,
    FeatureWeights,
    corpus_counts,
    weighed_features,
)
from simsift.core.text.simhash import simhash_features

_STORE_BATCH = 100
_STORE_SECONDS = 2.0  # and at least this often: a kill early in a slow scan loses little
_FINGERPRINT_TOKENS = 1 << 20  # document tokens fingerprinted at once, between cancel checks
_PAIR_BUDGET = 1 << 22  # document pairs made at once from pairs of distinct fingerprints
# more identical copies than this are listed as pairs with the first copy, not all pairs
MAX_LISTED_COPIES = 1000
# a file gets the `file_timeout` once per this many bytes: plain text reads at about 5 MB/s
# on one core, so a 200 MB text (about 45 s) gets 600 s, a margin for a busy machine
_BYTES_PER_TIMEOUT = 20 * 2**20


def is_garbled_record(record: FileRecord) -> bool:
    from simsift.core.read.extract.checks import is_garbled

    return record.ok and is_garbled(record.warning)


class GuardedCatalog:
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
        from simsift.core.store.catalog import CatalogError

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


def find_passages(
    documents: Sequence[FileRecord],
    is_reference: np.ndarray,
    options: ScanOptions,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
    pair_search: PairSearch = search_pairs,
    known: tuple[np.ndarray, PassageResult] | None = None,
    sketches: Sequence[MeaningSketch] | None = None,
    fragments: MeaningMatches | None = None,
    kept: KeptGrams | None = None,
    alignments: AlignmentStore | None = None,
) -> PassageResult:
    """Passage matches, template and common text, containment of the documents' bodies,
    and the fragments they share in meaning only (paraphrased, translated; `sketches` are
    the documents' sentences and concepts, made here when None; `fragments` their
    `meaning_before_runs`, found here when None; `kept` their kept word grams, winnowed
    here when None; `alignments` keeps the pairs' alignments between scans)."""
    passages = analyze_passages(
        [d.tokens.body for d in documents],
        is_reference,
        options.weights,
        options.passages,
        progress=progress,
        cancel=cancel,
        pair_search=pair_search,
        known=known,
        kept=kept,
    )
    kinds = options.passages.meaning_kinds
    if not kinds:
        return passages
    left_out = (passages.left_out_start, passages.left_out_stop, passages.passages.offsets)
    if fragments is not None:
        return replace(passages, meaning=without_verbatim(fragments, passages.runs, left_out))
    meaning = meaning_matches(
        documents,
        is_reference,
        passages.runs,
        kinds,
        left_out=left_out,
        sketches=sketches,
        alignments=alignments,
        progress=progress,
        cancel=cancel,
    )
    return replace(passages, meaning=meaning)


def all_roots(options: ScanOptions) -> tuple[str, ...]:
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
        all_roots(options),
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


def read_with_catalog(
    found, options: ScanOptions, catalog: GuardedCatalog, progress, cancel
) -> tuple[list[FileRecord], int]:
    """Records for all found files: unchanged ones from the catalog, the rest read anew."""
    from simsift.core.read.extract import SUPPORTED_SUFFIXES

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
                    options.ocr,
                )
            )
    total = len(to_read)
    progress(Progress("reading", 0, total))
    batch: list[FileRecord] = []
    stored_at = time.monotonic()
    done = 0
    try:
        for record in _read_all(to_read, options, cancel):
            if isinstance(record, Pages):  # a long file's pages (OCR) move the progress
                progress(Progress("reading", done, total, record.path, (record.done, record.total)))
                continue
            done += 1
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
    return read_with_catalog(
        found, options, GuardedCatalog(None), progress, cancel or CancelToken()
    )[0]


def is_compared(record: FileRecord, options: ScanOptions) -> bool:
    """Whether a scan compares this record: read, and not garbled (unless asked)."""
    return record.ok and (options.compare_garbled or not is_garbled_record(record))


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
    # Scans are read with OCR only once a read without it found pictures of text, so only
    # they get OCR's time budget: a PDF that hangs its reader is still stopped soon.
    scans: list[ReadTask] = []
    for task, record in _read_isolated([replace(t, ocr=False) for t in tasks], options, cancel):
        if options.ocr and isinstance(record, FileRecord) and wants_ocr(record):
            scans.append(replace(task, ocr=True))
        else:
            yield record
    for _task, record in _read_isolated(scans, options, cancel):
        yield record


def wants_ocr(record: FileRecord) -> bool:
    """Whether a file read with OCR off holds pictures of text OCR would read: a scan (its
    error says OCR is off), or scanned pages or pictures among its text."""
    if record.ok:
        return record.retry and OCR_OFF in record.warning
    return record.message.endswith(OCR_OFF)


def _read_isolated(tasks: list[ReadTask], options: ScanOptions, cancel: CancelToken):
    """(task, record) of each task read in worker processes, with its time budget, and
    (task, `Pages`) while a long file is read."""
    if not tasks:
        return
    limit = options.memory_limit or reader_memory_limit(options.workers)
    remember = memory_budget_binds(limit)
    for task, result in run_isolated(
        read_file,
        tasks,
        workers=options.workers,
        timeout=lambda task: read_budget(task, options.file_timeout),
        cancel=cancel,
        memory_limit=limit,
    ):
        if isinstance(result, PagesRead):
            yield task, Pages(task.path, result.done, result.total)
            continue
        if isinstance(result, TaskFailure):  # a time-out, crash or memory limit: retried
            message = result.message
            result = FileRecord(
                task.path, task.size, task.mtime_ns, STATUS_ERROR, message, retry=True
            )
        if remember and not result.ok and over_reader_memory(result.message):
            # the file's own need, not a shortage of the moment: not read on every scan
            said = result.message
            message = said if said.startswith(TOO_BIG) else OVER_READER_MEMORY.format(limit / 2**30)
            result = replace(result, message=message, retry=False)
        yield task, result


def read_budget(task: ReadTask, file_timeout: float) -> float:
    """Seconds `task` may take to read: `file_timeout`, scaled up with the file's size
    (a huge text takes long to tokenize; a small file that hangs is still stopped soon),
    and for a file read with OCR on, the time OCR may take (`ocr.OCR_SECONDS`: OCR stops a
    scan too long to read with an error of its own before the reader is stopped)."""
    budget = file_timeout * max(1.0, task.size / _BYTES_PER_TIMEOUT)
    if task.ocr:
        budget += OCR_SECONDS
    return budget


def _read_on_cluster(tasks: list[ReadTask], options: ScanOptions, cancel: CancelToken):
    from simsift.core.pipeline.distributed import connect, read_on_cluster

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
    return fingerprints_of(count_features(documents, weights, progress, cancel), weights)


def count_features(
    documents: Sequence[FileRecord],
    weights: FeatureWeights,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> FeatureCounts:
    """The documents' features and their occurrences (`FeatureCounts`), from their cached
    tokens: a change of the tf scheme, the title boost or idf weighs them again
    (`fingerprints_of`) without counting them again."""
    cancel = cancel or CancelToken()
    total = len(documents)
    progress(Progress("fingerprinting", 0, total))
    tokens = [d.tokens for d in documents]
    parts = []
    sizes = np.array([len(t.body) + len(t.title) for t in tokens], dtype=np.int64)
    for lo, hi in bounded_runs(sizes, _FINGERPRINT_TOKENS):
        cancel.check()
        # a huge document alone is counted in pieces, with cancel checks between them
        parts.append(corpus_counts(tokens[lo:hi], weights, between_pieces=cancel.check))
        progress(Progress("fingerprinting", hi, total))
    return FeatureCounts.concat(parts)


def fingerprints_of(counts: FeatureCounts, weights: FeatureWeights) -> np.ndarray:
    """SimHash fingerprints of counted documents weighed as `weights` say (idf over all)."""
    return simhash_features(weighed_features(counts, weights))


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


def original_rank_of(documents: Sequence[FileRecord], is_reference: np.ndarray) -> np.ndarray:
    """Rank of each document as a cluster's original (the copy to keep), best first: in a
    reference folder, then oldest, then largest."""
    if not documents:
        return np.zeros(0, np.int64)
    mtime = np.array([d.mtime_ns for d in documents], dtype=np.int64)
    size = np.array([d.size for d in documents], dtype=np.int64)
    order = np.lexsort((-size, mtime, ~is_reference))
    rank = np.empty(len(documents), dtype=np.int64)
    rank[order] = np.arange(len(documents))
    return rank


def build_result(
    options: ScanOptions,
    documents: tuple[FileRecord, ...],
    not_compared: Sequence[FileRecord],
    is_reference: np.ndarray,
    comparison: tuple[np.ndarray, Matches, PassageResult],
    *,
    first_as_original: np.ndarray | None = None,
    reused: int = 0,
    notices: tuple[str, ...] = (),
    complete: bool = True,
) -> ScanResult:
    """The `ScanResult` of compared `documents` and the records `not_compared` (errors,
    skipped files, and read but garbled ones), from (fingerprints, pairs, passages).

    Args:
        first_as_original: bool per document, ranked first as a cluster's original
            (default: `is_reference`).
        complete: False when `passages` are not found yet (`PassageResult.empty`).
    """
    fingerprints, pairs, passages = comparison
    first = is_reference if first_as_original is None else first_as_original
    return ScanResult(
        options=options,
        documents=documents,
        errors=tuple(r for r in not_compared if r.status == STATUS_ERROR),
        skipped=tuple(r for r in not_compared if r.status == STATUS_SKIPPED),
        is_reference=is_reference,
        fingerprints=fingerprints,
        pairs=pairs,
        content_codes=hash_codes([d.content_hash for d in documents]),
        text_codes=hash_codes([d.text_hash for d in documents]),
        original_rank=original_rank_of(documents, first),
        reused=reused,
        passages=passages,
        notices=notices,
        garbled=tuple(r for r in not_compared if r.ok),
        complete=complete,
    )
