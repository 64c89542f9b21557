"""A process pool that survives bad files: per-task time budget, crashed workers replaced.

`concurrent.futures` cannot stop one hung task (a PDF that loops pdfminer forever),
so each worker here has its own pipe; the parent hands out one task at a time,
watches deadlines, and kills and replaces a worker that overruns or dies. Cancelling
terminates all workers at once, so a cancel takes effect well within a second.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from simsift.core.progress import CancelToken

_POLL_SECONDS = 0.1
# a reader's log this old belongs to no running scan: its process was killed outright
_STALE_LOG_SECONDS = 7 * 24 * 3600
_LOG_PREFIX, _LOG_SUFFIX = "simsift-reader-", ".log"


@dataclass(frozen=True, slots=True)
class TaskFailure:
    """A task that produced no result: it overran its budget or its worker died."""

    message: str


@dataclass(frozen=True, slots=True)
class PagesRead:
    """News from a task still running: `done` of its `total` pages read (OCR of a scan,
    seconds a page), so a long file moves the progress too."""

    done: int
    total: int


@dataclass(frozen=True, slots=True)
class Pages:
    """How far the reading of the file at `path` has got: `done` of `total` pages."""

    path: str
    done: int
    total: int


# The pipe to the parent in a worker process; None elsewhere (in-process reading).
_parent: Connection | None = None
# Per thread, who else hears of pages read (`listen_to_pages`): a cluster worker's reader.
_here = threading.local()


def report_pages(done: int, total: int) -> None:
    """Tell the parent how far the task has got, when it runs in a worker, and this
    thread's listener, if any."""
    if _parent is not None:
        with contextlib.suppress(OSError):
            send_result(_parent, PagesRead(done, total))
    listener = getattr(_here, "listener", None)
    if listener is not None:
        listener(done, total)


def in_reader() -> bool:
    """Whether this process is a reader of `run_isolated` (a sandbox the scan survives)."""
    return _parent is not None


def listen_to_pages(listener: Callable[[int, int], None] | None) -> None:
    """Have `report_pages` in this thread call `listener(done, total)` too."""
    _here.listener = listener


def address_space_left() -> int | None:
    """Bytes this process may still map under its address-space limit (a reader's memory
    budget, `_limit_memory`); None without a limit or where it cannot be told."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        if limit == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError):
        return None
    return limit - used


# A reader that ran out of the memory SimSift gave it (not of the machine's: the OOM killer's
# SIGKILL, or a user's lower `ulimit -v`) will do so again on every scan: remembered.
OVER_READER_MEMORY = (
    "needs more memory than a reader has ({:.1f} GB); read again when the file changes"
)
TOO_BIG = "too big to read in a reader's memory"  # a C++ library aborted at the limit
_OUT_OF_READER_MEMORY = ("out of memory while reading this file", TOO_BIG)


def memory_budget_binds(max_bytes: int | None) -> bool:
    """Whether readers limited to `max_bytes` run out of that budget, not of a lower limit
    this process already had (a user's `ulimit -v`)."""
    if not max_bytes:
        return False
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, ValueError, OSError):
        return False
    return soft == resource.RLIM_INFINITY or soft > max_bytes


def over_reader_memory(message: str) -> bool:
    """Whether a failed read's `message` says the reader ran out of its memory."""
    return message.startswith(_OUT_OF_READER_MEMORY)


def _limit_memory(max_bytes: int | None) -> None:
    if not max_bytes:
        return
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))
    except (ImportError, ValueError, OSError):
        pass  # not available on this platform: the time budget still applies


_PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h)


def die_with_parent() -> None:
    """Ask Linux to kill this process when the process that started it ends: a reader busy
    with one long file (OCR) would otherwise outlive the app by that file's time."""
    if sys.platform.startswith("linux"):
        import ctypes

        # without prctl the reader still stops at the closed pipe, after its file
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _worker_main(
    conn: Connection, fn: Callable[[Any], Any], memory_limit: int | None, log: str
) -> None:
    global _parent
    _parent = conn
    die_with_parent()
    _stderr_to(log)
    _limit_memory(memory_limit)
    while True:
        try:
            task = conn.recv()
        except (EOFError, KeyboardInterrupt):
            return
        if task is None:
            return
        try:
            result = fn(task)
        except MemoryError:
            result = TaskFailure("out of memory while reading this file")
        except Exception as error:  # never a reader's traceback on the user's terminal
            result = TaskFailure(_failure_message(error))
        send_result(conn, result)
        del result


def _stderr_to(log: str) -> None:
    """Send this reader's standard error to the file `log`: an interpreter that gives up
    under the memory limit ("Fatal Python error: Cannot recover from MemoryErrors") writes
    its dump there, not on the user's terminal; the parent reads why the reader died."""
    with contextlib.suppress(OSError):
        fd = os.open(log, os.O_WRONLY | os.O_TRUNC)
        os.dup2(fd, 2)
        os.close(fd)


def _failure_message(error: Exception) -> str:
    """A task's unexpected exception in words (Python failing under the reader's memory
    limit raises SystemError, not MemoryError)."""
    said = type(error).__name__  # a library's own words are not for the user
    if isinstance(error, SystemError):
        return f"out of memory while reading this file? (Python failed: {said})"
    return f"reader failed on this file ({said})"


def send_result(conn: Connection, result: Any) -> None:
    """Send `result` with its numpy arrays out of band: a huge file's token arrays go
    down the pipe as they are, never copied into one pickle beside themselves."""
    buffers: list[pickle.PickleBuffer] = []
    head = pickle.dumps(result, protocol=5, buffer_callback=buffers.append)
    conn.send_bytes(len(buffers).to_bytes(4, "little"))
    conn.send_bytes(head)
    del head
    for buffer in buffers:
        conn.send_bytes(buffer.raw())


def receive_result(conn: Connection) -> Any:
    """What `send_result` sent; arrays are read-only views of the received bytes."""
    count = int.from_bytes(conn.recv_bytes(), "little")
    head = conn.recv_bytes()
    return pickle.loads(head, buffers=[conn.recv_bytes() for _ in range(count)])


class _Worker:
    def __init__(self, ctx, fn, memory_limit):
        self.conn, child = ctx.Pipe()
        fd, self.log = tempfile.mkstemp(prefix=_LOG_PREFIX, suffix=_LOG_SUFFIX)
        os.close(fd)
        self.last_words = ""  # the end of what the reader wrote on its standard error
        self.process = ctx.Process(
            target=_worker_main, args=(child, fn, memory_limit, self.log), daemon=True
        )
        self.process.start()
        child.close()
        self.task: Any = None
        self.started = 0.0
        self.budget = 0.0

    def give(self, task: Any, budget: float) -> None:
        self.task = task
        self.started = time.monotonic()
        self.budget = budget
        self.conn.send(task)

    def kill(self) -> None:
        self.process.kill()
        self.process.join(timeout=2)
        self.conn.close()
        self._drop_log()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.process.kill()
        self.conn.close()
        self._drop_log()

    def _drop_log(self) -> None:
        with contextlib.suppress(OSError), open(self.log, "rb") as f:
            f.seek(max(0, os.fstat(f.fileno()).st_size - 4096))
            self.last_words = f.read().decode("utf-8", "replace")
        with contextlib.suppress(OSError):
            os.unlink(self.log)


def process_context():
    """Forkserver where there is one: fork is unsafe beside GUI threads, and each spawned
    reader imports SimSift again (0.4 s before the first file of every scan); the fork
    server is started once per process, with the readers' parsers and jieba loaded
    (`core.read.preload`), and forks readers.
    A frozen bundle spawns: its readers are its own children (.ci/frozen-smoke.sh checks
    that no reader starts processes of its own).
    Under an address-space limit (ulimit -v) too small for a fork server's start-up (a
    fresh interpreter importing everything), a process without other threads forks its
    readers itself: they start with what is already loaded, and memory running out is
    then an error of the file being read, not a reader that cannot start (with
    tracebacks of its own)."""
    if getattr(sys, "frozen", False) or "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    if _tight_address_space() and threading.active_count() == 1:
        return mp.get_context("fork")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["simsift.core.read.preload"])
    return ctx


# a fork server with the readers' parsers and jieba's dictionary loaded maps about 190 MB
# (under a limit near that it fails to start, with tracebacks; above it, its readers
# read more than readers forked from the scan's own process)
FORK_SERVER_BYTES = 200 * 1024**2


def _remove_stale_logs() -> None:
    """Delete readers' logs older than `_STALE_LOG_SECONDS` from the temp folder: a reader
    removes its own when it stops or is killed by its pool, but not when the whole app was
    killed (SIGKILL, a power cut)."""
    cutoff = time.time() - _STALE_LOG_SECONDS
    with contextlib.suppress(OSError), os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            name = entry.name
            if name.startswith(_LOG_PREFIX) and name.endswith(_LOG_SUFFIX):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                        os.unlink(entry.path)


def _tight_address_space() -> bool:
    """Whether this process's address-space limit leaves a fork server too little room."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, ValueError, OSError):
        return False
    return soft != resource.RLIM_INFINITY and soft < FORK_SERVER_BYTES


def run_isolated(
    fn: Callable[[Any], Any],
    tasks: Iterable[Any],
    *,
    workers: int,
    timeout: float | Callable[[Any], float],
    cancel: CancelToken,
    memory_limit: int | None = None,
) -> Iterator[tuple[Any, Any]]:
    """Yield (task, result) as workers finish; result is a `TaskFailure` on timeout or crash,
    or a `PagesRead` when the task, still running, reports how far it has got.

    `fn` must be a picklable top-level function. `timeout` is each task's time budget in
    seconds, or a function giving it per task. Raises `Cancelled` (after stopping all
    workers) when `cancel` is set. Results come in completion order.
    """
    budget = timeout if callable(timeout) else lambda _task: timeout
    _remove_stale_logs()
    ctx = process_context()
    pending = list(tasks)
    pending.reverse()
    pool = [_Worker(ctx, fn, memory_limit) for _ in range(max(1, min(workers, len(pending))))]

    def hand_out(w: _Worker) -> None:
        if pending:
            task = pending.pop()
            w.give(task, budget(task))

    try:
        for w in pool:
            hand_out(w)
        while any(w.task is not None for w in pool):
            cancel.check()
            busy = [w for w in pool if w.task is not None]
            ready = wait([w.conn for w in busy], timeout=_POLL_SECONDS)
            for i, w in enumerate(pool):
                if w.task is None:
                    continue
                outcome = _collect(w, ready)
                if outcome is None:
                    continue
                task, result, healthy = outcome
                if isinstance(result, PagesRead):
                    yield task, result
                    continue
                if not healthy:
                    pool[i] = w = _Worker(ctx, fn, memory_limit)
                w.task = None
                hand_out(w)
                yield task, result
                cancel.check()
    finally:
        for w in pool:
            (w.kill if cancel.cancelled or w.task is not None else w.stop)()


def _collect(w: _Worker, ready: list) -> tuple[Any, Any, bool] | None:
    """(task, result, worker still usable) if the worker's task ended, else None."""
    if w.conn in ready:
        try:
            return w.task, receive_result(w.conn), True
        except (EOFError, OSError):
            w.kill()
            return w.task, TaskFailure(_death_message(w)), False
    if not w.process.is_alive():
        w.kill()
        return w.task, TaskFailure(_death_message(w)), False
    if time.monotonic() - w.started > w.budget:
        w.kill()
        return w.task, TaskFailure(f"took longer than {w.budget:.0f} s to read; skipped"), False
    return None


def _death_message(w: _Worker) -> str:
    code = w.process.exitcode
    if code is not None and code < 0 and -code == 9:
        return "reader was killed (out of memory?)"
    # the interpreter, or a C++ library in the reader (Tesseract), gave up at the memory limit
    if "MemoryError" in w.last_words or "std::bad_alloc" in w.last_words:
        return "out of memory while reading this file"
    if code is not None and -code == signal.SIGABRT:
        # PDFium and other C++ libraries abort when an allocation fails at the reader's
        # memory limit (a PDF of forms nested to draw a trillion letters) or a check of theirs
        # fails: what it means comes first, as a long message is cut in the middle
        return f"{TOO_BIG}, or damaged (the reader crashed: SIGABRT)"
    if code is not None and code < 0:
        return f"reader crashed on this file ({_signal_name(-code)})"
    return f"reader crashed on this file (exit code {code})"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


# Address space per reader: enough for jieba's dictionary and a big PDF (a reader peaks
# near 270 MB), never so much that a few zip bombs together exhaust the machine.
MAX_READER_BYTES = 3 * 1024**3
MIN_READER_BYTES = 1024**3


def reader_memory_limit(workers: int) -> int:
    """Memory cap of each of `workers` readers: together at most half the machine's
    memory, each between 1 and 3 GB."""
    total = physical_memory()
    if total is None:
        return MAX_READER_BYTES
    share = total // 2 // max(1, workers)
    return max(MIN_READER_BYTES, min(MAX_READER_BYTES, share))


def physical_memory() -> int | None:
    """Bytes of RAM, or None where the platform does not say (Windows without psutil)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def default_workers() -> int:
    """All cores (at least one)."""
    return max(1, os.cpu_count() or 1)
