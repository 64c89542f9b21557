"""The one way SimSift runs work off the GUI thread: a `Job` on a thread pool.

A job calls `work(report, cancel)` on a pool thread. `report` sends progress, `cancel` is
the job's `CancelToken`; the outcome, the exception or the cancellation comes back by
the signals of `job.signals`. Those are created with the job, on the GUI thread, so
slots connected to them run there: models and widgets are only ever touched on the GUI
thread. Scans, re-weightings, alignments and file work (trash, exports) all run this way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot
from simsift.core.progress import Cancelled, CancelToken

Report = Callable[..., None]
Work = Callable[[Report, CancelToken], Any]

# Jobs stay referenced until the GUI thread has received their last signal, whatever
# happens to the object that started them; they are then freed there, never on the pool.
_running: set[Job] = set()


class _Reaper(QObject):
    """Lives on the GUI thread and forgets ended jobs there."""

    @Slot(object)
    def forget(self, job: Job) -> None:
        _running.discard(job)


_reaper: _Reaper | None = None


class JobSignals(QObject):
    """What a job sends back (a QRunnable is not a QObject, so it cannot have signals)."""

    progress = Signal(object)  # report(value) sends value; report(done, total) the tuple
    finished = Signal(object)  # what the work returned
    failed = Signal(object)  # the exception the work raised
    cancelled = Signal()  # the work stopped on its cancel token
    ended = Signal(object)  # the job, after any of the above: for the reaper


class Job(QRunnable):
    """`work(report, cancel)` to run once on a pool thread; connect `signals`, then `start`."""

    def __init__(self, work: Work, cancel: CancelToken | None = None) -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python owns the job; the reaper lets it go
        self.work = work
        self.cancel = cancel or CancelToken()
        self.signals = JobSignals()

    def start(self, pool: QThreadPool | None = None) -> None:
        """Queue the job on `pool` (Qt's global pool by default)."""
        global _reaper
        if _reaper is None:
            _reaper = _Reaper()
        self.signals.ended.connect(_reaper.forget)
        _running.add(self)
        (pool or QThreadPool.globalInstance()).start(self)

    def run(self) -> None:
        try:
            outcome = self.work(self._report, self.cancel)
        except Cancelled:
            self.signals.cancelled.emit()
        except Exception as error:  # sent to the GUI instead of killing the pool thread
            self.signals.failed.emit(error)
        else:
            self.signals.finished.emit(outcome)
        finally:
            self.signals.ended.emit(self)

    def _report(self, *values: Any) -> None:
        self.signals.progress.emit(values[0] if len(values) == 1 else values)


def running_jobs() -> int:
    """How many jobs were started and have not yet delivered their last signal."""
    return len(_running)


def error_text(error: BaseException) -> str:
    """An exception as a line for the user: its type and message."""
    return f"{type(error).__name__}: {error}"
