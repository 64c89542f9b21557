"""Reading files on a Dask cluster (`simsift scan --scheduler tcp://HOST:8786`).

Optional: `pip install "simsift[distributed]"`; nothing here is imported by a scan without
a scheduler, nor by the GUI. Files go to the workers in batches, a bounded number in
flight, so memory stays flat at any archive size. Workers that die mid-task (a crash, the
nanny's memory limit, a file over its time budget) have their tasks retried: the files
of such a batch are tried alone, and a file that fails alone twice is a per-file error,
never a failed scan.

Workers read the files from the same paths (a shared filesystem), or, with `ship_files`,
get each file's bytes from this machine.
"""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import tempfile
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import replace

from simsift.core import __version__
from simsift.core.document import STATUS_ERROR, FileRecord
from simsift.core.progress import Cancelled, CancelToken
from simsift.core.read.workers import (
    OVER_READER_MEMORY,
    Pages,
    listen_to_pages,
    reader_memory_limit,
)

BATCH_FILES = 32  # per task: amortizes scheduling (~1 ms a task) over ~1 s of reading
IN_FLIGHT_PER_THREAD = 3  # batches queued per worker thread: busy, yet bounded memory
_POLL_SECONDS = 0.1
CRASHED = "this file made a cluster worker fail (a crash, or over the time budget), twice"
# a file over its time budget, as a local scan says it (`workers._collect`)
OVER_BUDGET = "took longer than {:.0f} s to read; skipped"
# a worker whose reader overran waits this long for its word to the scan to leave, then exits
_LAST_WORD_SECONDS = 1.0
_MEMORY_CHECK_SECONDS = 0.1  # how often a reading worker looks at its memory
# a cluster without workers this long is given up on (tasks would wait for ever); tests
# shorten it
NO_WORKERS_SECONDS = 30.0
_WORKER_CHECK_SECONDS = 1.0
_MAX_SUFFIX_BYTES = 64  # longer "suffixes" are never a type SimSift reads


class ClusterError(Exception):
    """The cluster cannot be used: unreachable scheduler, no workers, another version."""


def connect(address: str, timeout: float = 10.0):
    """A `distributed.Client` for `address`, checked to run this SimSift version."""
    try:
        from distributed import Client
    except ImportError as error:
        raise ClusterError(
            'a cluster scan needs Dask: pip install "simsift[distributed]"'
        ) from error
    _check_address(address)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the scheduler at {address} ({error})") from error
    try:  # workers may still be starting (or restarting after a crash)
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        client.close()
        raise ClusterError(f"the scheduler at {address} has no workers") from None
    try:
        versions = set(client.run(_worker_version).values())
    except Exception as error:  # a worker without simsift fails to unpickle the call
        client.close()
        raise ClusterError(f"the workers cannot run SimSift ({error})") from error
    if not versions:
        client.close()
        raise ClusterError(f"the scheduler at {address} has no workers")
    if versions != {__version__}:
        client.close()
        found = ", ".join(sorted(versions))
        raise ClusterError(f"the workers run SimSift {found}, this is SimSift {__version__}")
    return client


def _check_address(address: str) -> None:
    """Raise ClusterError for an address Dask cannot parse (a Client built from one fails
    only after 20 s, with a traceback from its clean-up)."""
    from distributed.comm import get_address_host_port

    try:
        get_address_host_port(address if "://" in address else f"tcp://{address}")
    except (ValueError, TypeError) as error:
        raise ClusterError(
            f"{address!r} is not a scheduler address like tcp://HOST:8786 ({error})"
        ) from None


class _WorkerWatch:
    """Notices a cluster that lost all its workers, or its scheduler: tasks would then
    wait for ever, silently."""

    def __init__(self, client, patience: float | None) -> None:
        self.client = client
        self.patience = NO_WORKERS_SECONDS if patience is None else patience
        self.last_seen = self.last_check = time.monotonic()

    def check(self) -> None:
        now = time.monotonic()
        if now - self.last_check < min(_WORKER_CHECK_SECONDS, self.patience / 4):
            return
        self.last_check = now
        try:
            workers = len(self.client.nthreads())
        except Exception as error:  # the scheduler went away (Dask gives up after 30 s)
            raise ClusterError(
                f"lost the connection to the scheduler ({type(error).__name__}: {error}); "
                "restart it and its workers, or scan without --scheduler"
            ) from None
        if workers:
            self.last_seen = now
        elif now - self.last_seen > self.patience:
            raise ClusterError(
                f"the cluster has had no workers for {self.patience:.0f} s; start workers "
                "for its scheduler (dask worker ADDRESS), or scan without --scheduler"
            )


def _worker_version() -> str:
    from simsift.core import __version__ as version

    return version


def read_on_cluster(
    client,
    tasks: Sequence,
    *,
    ship_files: bool,
    timeout: float,
    cancel: CancelToken,
    no_workers_timeout: float | None = None,
) -> Iterator[FileRecord | Pages]:
    """Read `tasks` (`core.read.reader.ReadTask`) on the cluster; records in completion order,
    and `Pages` while a long file (OCR of a scan) is read.

    Raises `Cancelled` (after cancelling the cluster's work) when `cancel` is set, and
    `ClusterError` when the cluster has had no workers for `no_workers_timeout` seconds
    (default `NO_WORKERS_SECONDS`) or lost its scheduler.
    """
    threads = max(sum(client.nthreads().values()), 1)
    limit = threads * IN_FLIGHT_PER_THREAD
    batches = [list(tasks[i : i + BATCH_FILES]) for i in range(0, len(tasks), BATCH_FILES)]
    batches.reverse()
    suspects: deque = deque()  # (file, times tried alone) of batches a worker died with
    running: dict = {}  # future -> (its batch, times tried alone; 0 for a batch)
    topic = f"simsift-pages-{uuid.uuid4().hex}"  # this scan's workers' page reports
    pages: queue.SimpleQueue = queue.SimpleQueue()
    client.subscribe_topic(topic, lambda event: pages.put(Pages(*event[1])))
    overruns: queue.SimpleQueue = queue.SimpleQueue()  # (file, budget) a worker overran
    client.subscribe_topic(_overrun_topic(topic), lambda event: overruns.put(event[1]))

    def submit(batch: list, tries: int) -> None:
        running[_submit(client, batch, ship_files, timeout, topic)] = (batch, tries)

    watch = _WorkerWatch(client, no_workers_timeout)
    try:
        while batches or suspects or running:
            while batches and len(running) < limit:
                submit(batches.pop(), 0)
            # one suspect at a time: a worker's death then names its file, not a bystander
            if suspects and not any(tries for _, tries in running.values()):
                task, tries = suspects.popleft()
                submit([task], tries + 1)
            cancel.check()
            while not pages.empty():
                yield pages.get()
            done = [future for future in running if future.done()]
            # after `done`: a worker says it overran before it dies, so a batch done by its
            # death has its overrun here
            while not overruns.empty():
                yield from _overran(client, running, done, batches, *overruns.get())
            if not done:
                watch.check()
                time.sleep(_POLL_SECONDS)
            for future in done:
                batch, tries = running.pop(future)
                records, again = _outcome(future, batch, tries)
                yield from records
                suspects.extend(again)
    except (Cancelled, ClusterError):
        client.cancel(list(running), force=True)
        raise
    finally:
        # a client cut off from its scheduler refuses to send: the scan's own error matters
        with contextlib.suppress(Exception):
            client.unsubscribe_topic(topic)
            client.unsubscribe_topic(_overrun_topic(topic))


def _overrun_topic(topic: str) -> str:
    return f"{topic}-overran"


def _overran(
    client, running: dict, done: list, batches: list, path: str, message: str, remember: bool
) -> Iterator[FileRecord]:
    """The record of the file at `path`, whose reader overran its budget of time or memory
    (`message` says which): its task is cancelled (the worker is going down) and its other
    files read again, so the file is reported at once, not after the worker died three
    times. Over its memory budget, the file is remembered (as a local scan does)."""
    found = [(f, batch) for f, (batch, _) in running.items() if path in _paths(batch)]
    if not found:  # reported already
        return
    future, batch = found[0]
    del running[future]
    if future in done:
        done.remove(future)
    client.cancel([future], force=True)
    task = batch[_paths(batch).index(path)]
    yield FileRecord(task.path, task.size, task.mtime_ns, STATUS_ERROR, message, retry=not remember)
    rest = [other for other in batch if other is not task]
    if rest:
        batches.append(rest)


def _paths(batch: list) -> list[str]:
    return [task.path for task in batch]


def _submit(client, batch: list, ship_files: bool, timeout: float, topic: str):
    shipped = [_file_bytes(task) for task in batch] if ship_files else None
    # pure=False: the same batch after a crash is a new task, not a cached failure
    return client.submit(read_batch, batch, shipped, timeout, topic, pure=False)


def _outcome(future, batch: list, tries: int) -> tuple[list[FileRecord], list]:
    """(records, [(file, times tried alone)] to try alone) of a finished batch.

    A worker's death fails every task it held, not only the culprit's: the files of a
    batch are tried alone, and a file is an error only when it failed alone twice.
    """
    from distributed import KilledWorker

    try:
        return future.result(), []
    except KilledWorker:
        if tries < 2:
            return [], [(task, tries) for task in batch]
        task = batch[0]
        return [FileRecord(task.path, task.size, task.mtime_ns, STATUS_ERROR, CRASHED)], []
    except Exception as error:  # a worker's own trouble (its disk full), a lost scheduler
        if future.cancelled():
            raise ClusterError(
                "the cluster dropped this scan's work (its scheduler restarted or went "
                "away); restart it and its workers, or scan without --scheduler"
            ) from None
        message = f"a cluster worker could not read this file ({type(error).__name__}: {error})"
        return [
            FileRecord(task.path, task.size, task.mtime_ns, STATUS_ERROR, message[:300], retry=True)
            for task in batch
        ], []


def _file_bytes(task) -> bytes | None:
    """The file's bytes for a worker without the file; None when it is too big to ship or
    cannot be read here (the worker then reports it)."""
    if task.size > task.max_bytes:
        return None
    try:
        with open(task.path, "rb") as f:
            return f.read(task.max_bytes + 1)
    except OSError:
        return None


def read_batch(
    batch: list, shipped: list[bytes | None] | None, timeout: float, topic: str = ""
) -> list[FileRecord]:
    """Runs on a worker: read a batch of files, each a record (errors included); the
    pages of a long file are reported under the event `topic`."""
    if shipped is None:
        return _read_here(batch, timeout, [task.path for task in batch], topic)
    with tempfile.TemporaryDirectory(prefix="simsift-") as folder:
        local = []
        for i, (task, data) in enumerate(zip(batch, shipped, strict=True)):
            path = os.path.join(folder, shipped_name(i, task.path))
            if data is not None:
                with open(path, "wb") as f:
                    f.write(data)
            local.append(replace(task, path=path))
        records = _read_here(local, timeout, [task.path for task in batch], topic)
        return [
            _as_original(record, here.path, task.path)
            for record, here, task in zip(records, local, batch, strict=True)
        ]


def shipped_name(i: int, path: str) -> str:
    """The temporary name of a batch's `i`th shipped file: short whatever the original's
    length (a name has at most 255 bytes), with its suffix, which the reader uses."""
    suffix = os.path.splitext(os.path.basename(path))[1]
    if len(os.fsencode(suffix)) > _MAX_SUFFIX_BYTES:
        suffix = ""
    return f"{i}{suffix}"


def _as_original(record: FileRecord, here: str, original: str) -> FileRecord:
    """`record` of the shipped copy at `here`, as the file at `original`."""
    fields = {"path": original}
    for name in ("message", "warning"):
        text = getattr(record, name, None)
        if isinstance(text, str) and here in text:
            fields[name] = text.replace(here, original)
    return replace(record, **fields)


def _read_here(batch: list, timeout: float, names: list[str], topic: str) -> list[FileRecord]:
    """Read files in this worker process, each within its time budget (`_read_one`), its
    pages reported as those of the file `names` gives. A file over its budget takes the
    worker down (a hung parser cannot be stopped otherwise), once it has told the scan
    (`_overran`); the nanny starts a new worker. A file whose overrun the scan did not hear
    of is tried alone, then reported."""
    worker = _this_worker() if topic else None
    records = []
    for task, name in zip(batch, names, strict=True):
        try:
            record = _read_one(task, timeout, functools.partial(_tell, worker, topic, name))
        except _OverBudget as error:
            if worker is not None:
                worker.log_event(_overrun_topic(topic), [name, error.message, error.remember])
                time.sleep(_LAST_WORD_SECONDS)
            record = None
        if record is None:
            os._exit(3)
        records.append(record)
    return records


class _OverBudget(Exception):
    """A file's reader overran its budget of time or memory; `message` is the file's, and
    `remember` says whether it will overrun again (memory) or may not (time)."""

    def __init__(self, message: str, remember: bool = False) -> None:
        super().__init__(message)
        self.message, self.remember = message, remember


def _read_one(task, timeout: float, pages) -> FileRecord | None:
    """`task` read in a thread: `read_budget` seconds, and OCR's time more once the file
    turns out to be a scan (its first page reported to `pages(done, total)`), and as much
    memory as a local reader has (`_memory_budget`: a nested-form PDF would otherwise grow
    the worker until its nanny kills it, and the file is tried again and again); raises
    `_OverBudget` when it overran, and gives None when the reader ended without a record."""
    from simsift.core.pipeline.stages import read_budget
    from simsift.core.read.extract.ocr import OCR_SECONDS

    outcome: list[FileRecord] = []
    scanned = threading.Event()

    def heard(done: int, total: int) -> None:
        scanned.set()
        pages(done, total)

    def read() -> None:
        listen_to_pages(heard)
        outcome.append(_read_file(task))

    memory = _memory_budget()
    used = _resident_bytes()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    budget = read_budget(replace(task, ocr=False), timeout)
    deadline = time.monotonic() + budget
    extended = False
    while reader.is_alive():
        if scanned.is_set() and not extended:
            deadline, budget, extended = deadline + OCR_SECONDS, budget + OCR_SECONDS, True
        left = deadline - time.monotonic()
        if left <= 0:
            raise _OverBudget(OVER_BUDGET.format(budget))
        if memory and _resident_bytes() - used > memory:
            raise _OverBudget(OVER_READER_MEMORY.format(memory / 2**30), remember=True)
        reader.join(min(left, _MEMORY_CHECK_SECONDS))
    return outcome[0] if outcome else None


def _memory_budget() -> int | None:
    """Bytes one file's reading may add to this worker: a local reader's budget, and at
    most half what the worker's nanny allows (beyond that it kills the worker)."""
    budget = reader_memory_limit(1)
    worker = _this_worker()
    limit = getattr(getattr(worker, "memory_manager", None), "memory_limit", None)
    return min(budget, limit // 2) if limit else budget


def _resident_bytes() -> int:
    import psutil  # comes with distributed

    return psutil.Process().memory_info().rss


def _tell(worker, topic: str, name: str, done: int, total: int) -> None:
    """Report `done` of `total` pages of the file `name` to the scan, under `topic`."""
    if worker is not None:
        worker.log_event(topic, [name, done, total])


def _read_file(task) -> FileRecord:
    from simsift.core.read.reader import read_file

    return read_file(task)


def _this_worker():
    """The Dask worker running this task, or None (a task run outside a worker)."""
    try:
        from distributed import get_worker

        return get_worker()
    except (ImportError, ValueError):
        return None


def wait_for_workers(client, count: int, timeout: float = 30.0) -> None:
    """Block until the cluster has `count` workers (tests, benchmarks)."""
    end = time.monotonic() + timeout
    while len(client.scheduler_info()["workers"]) < count:
        if time.monotonic() > end:
            raise ClusterError(f"fewer than {count} workers after {timeout:.0f} s")
        time.sleep(0.1)


def cluster_tables(client):
    """A `core.index.memory.RunTables` that runs each permuted table of an all-pairs search as a
    task on the cluster (the index is sent to every worker once); parts come back here."""

    def run(index, k: int, n_tables: int, progress, cancel: CancelToken) -> list:
        shared = client.scatter(index, broadcast=True, hash=False)
        futures = [client.submit(_table_task, shared, t, k, pure=False) for t in range(n_tables)]
        parts: list = []
        pending = list(futures)
        watch = _WorkerWatch(client, None)
        try:
            while pending:
                cancel.check()
                done = [f for f in pending if f.done()]
                if not done:
                    watch.check()
                    time.sleep(_POLL_SECONDS)
                for future in done:
                    pending.remove(future)
                    parts.extend(future.result())
                    progress(n_tables - len(pending), n_tables)
        except (Cancelled, ClusterError):
            client.cancel(pending, force=True)
            raise
        return parts

    return run


def _table_task(index, table: int, k: int) -> list:
    """Runs on a worker: one table's pairs."""
    return index.table_pairs(table, k)


def pairs_on_cluster(client, fingerprints, k: int, progress=None, cancel=None):
    """All pairs within k of `fingerprints` (`core.index.memory.Matches`), one task per table."""
    from simsift.core.index.memory import HammingIndex

    return HammingIndex(fingerprints, k).pairs(
        progress=progress, cancel=cancel, run_tables=cluster_tables(client)
    )
