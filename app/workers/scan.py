"""Background scanning: scans and re-weightings (`core.pipeline.scan`) as jobs.

A job (`app.workers.jobs`) never touches a model or widget; it reports progress
(throttled) and hands its result back by signal, so every model change happens on the
GUI thread. The controller runs one job at a time on its own pool of one thread.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QThreadPool, Signal, Slot
from simsift.app.workers.jobs import Job, Report, Work, error_text
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.pipeline.scan import reweight, scan
from simsift.core.progress import CancelToken, Progress
from simsift.core.text.features import FeatureWeights

PROGRESS_INTERVAL = 0.1  # seconds between progress signals: smooth, yet cheap for the GUI


def _spare_from_collection() -> None:
    """Move every object alive now out of the cyclic collector's reach (gc.freeze).

    A full collection walks every tracked object while holding the GIL: 50 ms with the
    records of 10,000 documents, half a second with 100,000, during which the window
    cannot paint. Records and token streams hold no reference cycles, so they are still
    freed by reference counting once a newer result replaces them.
    """
    gc.freeze()


def archive_base(catalog) -> Path:
    """The folder the archives of archive folders are kept in: beside the catalog."""
    if catalog is not None:
        return Path(catalog.path).parent
    from simsift.core.store.catalog import default_catalog_path

    return default_catalog_path().parent


class _Throttle:
    """Passes a report on at most every `interval` seconds, and always at a stage change or end."""

    def __init__(self, emit, interval: float = PROGRESS_INTERVAL) -> None:
        self._emit = emit
        self._interval = interval
        self._last = 0.0
        self._stage = ""

    def __call__(self, report: Progress) -> None:
        now = time.monotonic()
        boundary = report.stage != self._stage or report.done == report.total
        if boundary or now - self._last >= self._interval:
            self._last = now
            self._stage = report.stage
            _spare_from_collection()
            self._emit(report)


def _scan_work(
    options: ScanOptions, ignored: set, archive_folders: tuple, catalog, on_clusters
) -> Work:
    """The work of a scan job: a scan, or with archive folders a check against them; a
    scan hands `on_clusters` its result before partial copying (`scan`'s callback)."""

    def work(report: Report, cancel: CancelToken) -> ScanResult:
        if archive_folders:
            from simsift.core.pipeline.archive_folders import scan_with_archive

            return scan_with_archive(
                options,
                archive_folders,
                archive_base(catalog),
                catalog=catalog,
                ignored=ignored,
                progress=_Throttle(report),
                cancel=cancel,
            )
        return scan(
            options,
            catalog=catalog,
            ignored=ignored,
            progress=_Throttle(report),
            cancel=cancel,
            on_clusters=on_clusters,
        )

    return work


def _reweight_work(
    result: ScanResult,
    weights: FeatureWeights,
    passages: PassageOptions | None,
    ignored: set,
    catalog,
) -> Work:
    """The work of a re-weighting job: compare again what the weights change, no file read
    (what they leave alone comes from the comparison cache beside the catalog)."""

    def work(report: Report, cancel: CancelToken) -> ScanResult:
        return reweight(
            result,
            weights,
            catalog=catalog,
            ignored=ignored,
            progress=_Throttle(report),
            cancel=cancel,
            passages=passages,
        )

    return work


def _spared(work: Work) -> Work:
    """`work` whose result is kept out of the cyclic collector's reach (see above)."""

    def spared(report: Report, cancel: CancelToken) -> ScanResult:
        result = work(report, cancel)
        _spare_from_collection()
        return result

    return spared


class ScanController(QObject):
    """Runs scans and re-weightings one at a time, as jobs on a pool of one thread;
    the window's single entry point for scanning."""

    progress = Signal(object)  # simsift.core.progress.Progress
    # a scan's ScanResult before its partial copying (not `complete`); then, as ever, one
    # of finished (the complete result), cancelled or failed
    clusters_found = Signal(object)
    finished = Signal(object)  # simsift.core.pipeline.result.ScanResult
    cancelled = Signal()
    failed = Signal(str)
    started = Signal(str)  # "scan" or "reweight"

    def __init__(self, catalog=None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._catalog = catalog
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)  # one job at a time: they share the catalog
        self._job: Job | None = None
        self.scans_started = 0
        self.reweights_started = 0
        app = QCoreApplication.instance()
        if app is not None:  # never leave a running thread behind at exit (Qt aborts then)
            app.aboutToQuit.connect(self.shutdown)

    @property
    def busy(self) -> bool:
        return self._job is not None

    def start_scan(
        self,
        options: ScanOptions,
        ignored: Iterable[frozenset[str]] = (),
        archive_folders: Iterable[str] = (),
    ) -> None:
        """Start a scan in the background (no-op while another job runs); with archive
        folders, they are brought up to date and the others checked against them."""
        if self.busy:
            return
        self.scans_started += 1
        work = _scan_work(
            options, set(ignored), tuple(archive_folders), self._catalog, self._found_clusters
        )
        self._start("scan", work)

    def start_reweight(
        self,
        result: ScanResult,
        weights: FeatureWeights,
        ignored: Iterable[frozenset[str]] = (),
        passages: PassageOptions | None = None,
    ) -> None:
        """Compare the scanned documents again with new weights and passage options (no
        file is read; what the change leaves alone is taken from the comparison cache)."""
        if self.busy:
            return
        self.reweights_started += 1
        work = _reweight_work(result, weights, passages, set(ignored), self._catalog)
        self._start("reweight", work)

    def cancel(self) -> None:
        """Ask the running job to stop; `cancelled` follows once it has."""
        if self._job is not None:
            self._job.cancel.cancel()

    def shutdown(self) -> None:
        """Cancel any job and return once it has stopped (call before the app quits):
        every stage honours Cancel within a second, so this returns about as fast, and
        the catalog is never closed under a running scan."""
        self.cancel()
        self._pool.waitForDone()

    def _start(self, kind: str, work: Work) -> None:
        job = Job(_spared(work))
        # slots of this object, not lambdas: Qt then runs them on the GUI thread
        job.signals.progress.connect(self.progress)
        job.signals.finished.connect(self._on_finished)
        job.signals.cancelled.connect(self._on_cancelled)
        job.signals.failed.connect(self._on_failed)
        self._job = job
        self.started.emit(kind)
        job.start(self._pool)

    def _found_clusters(self, result: ScanResult) -> None:
        """On the job's thread: a signal of this object, queued to the GUI thread (after
        the progress reports sent before it)."""
        _spare_from_collection()
        self.clusters_found.emit(result)

    @Slot(object)
    def _on_finished(self, result: ScanResult) -> None:
        self._job = None
        self.finished.emit(result)

    @Slot()
    def _on_cancelled(self) -> None:
        self._job = None
        self.cancelled.emit()

    @Slot(object)
    def _on_failed(self, error: Exception) -> None:
        self._job = None
        self.failed.emit(error_text(error))
