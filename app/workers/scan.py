"""Background scanning: a QObject worker on a QThread that calls `core.pipeline.scan`.

The worker never touches a model or widget; it reports progress (throttled) and hands
its result back by signal, so every model change happens on the GUI thread.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QThread, Signal, Slot
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.pipeline.scan import reweight, scan
from simsift.core.progress import Cancelled, CancelToken, Progress
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


class ScanWorker(QObject):
    """Runs scans and reweightings; lives on the controller's thread."""

    progress = Signal(object)  # simsift.core.progress.Progress
    finished = Signal(object)  # simsift.core.pipeline.scan.ScanResult
    cancelled = Signal()
    failed = Signal(str)

    def __init__(self, catalog=None) -> None:
        super().__init__()
        self._catalog = catalog

    @Slot(object, object, object, object)
    def scan(
        self, options: ScanOptions, ignored: set, token: CancelToken, archive_folders: tuple
    ) -> None:
        if archive_folders:
            from simsift.core.pipeline.archive_folders import scan_with_archive

            self._run(
                lambda: scan_with_archive(
                    options,
                    archive_folders,
                    archive_base(self._catalog),
                    ignored=ignored,
                    progress=_Throttle(self.progress.emit),
                    cancel=token,
                )
            )
            return
        self._run(
            lambda: scan(
                options,
                catalog=self._catalog,
                ignored=ignored,
                progress=_Throttle(self.progress.emit),
                cancel=token,
            )
        )

    @Slot(object, object, object, object, object)
    def reweight(
        self,
        result: ScanResult,
        weights: FeatureWeights,
        passages: PassageOptions | None,
        ignored: set,
        token: CancelToken,
    ) -> None:
        self._run(
            lambda: reweight(
                result,
                weights,
                ignored=ignored,
                progress=_Throttle(self.progress.emit),
                cancel=token,
                passages=passages,
            )
        )

    def _run(self, job) -> None:
        try:
            result = job()
        except Cancelled:
            self.cancelled.emit()
        except Exception as error:  # shown to the user; the app must survive a failed scan
            self.failed.emit(f"{type(error).__name__}: {error}")
        else:
            _spare_from_collection()
            self.finished.emit(result)


class ScanController(QObject):
    """Owns the worker thread; the window's single entry point for background work."""

    progress = Signal(object)
    finished = Signal(object)
    cancelled = Signal()
    failed = Signal(str)
    started = Signal(str)  # "scan" or "reweight"

    _scan_requested = Signal(object, object, object, object)
    _reweight_requested = Signal(object, object, object, object, object)

    def __init__(self, catalog=None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread(self)
        self._thread.setObjectName("simsift-scan")
        self._worker = ScanWorker(catalog)
        self._worker.moveToThread(self._thread)
        self._token: CancelToken | None = None
        self.scans_started = 0
        self.reweights_started = 0
        self._scan_requested.connect(self._worker.scan)
        self._reweight_requested.connect(self._worker.reweight)
        self._worker.progress.connect(self.progress)
        self._worker.finished.connect(self._on_finished)
        self._worker.cancelled.connect(self._on_cancelled)
        self._worker.failed.connect(self._on_failed)
        self._thread.start()
        app = QCoreApplication.instance()
        if app is not None:  # never leave a running thread behind at exit (Qt aborts then)
            app.aboutToQuit.connect(self.shutdown)

    @property
    def busy(self) -> bool:
        return self._token is not None

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
        self._token = CancelToken()
        self.scans_started += 1
        self.started.emit("scan")
        self._scan_requested.emit(options, set(ignored), self._token, tuple(archive_folders))

    def start_reweight(
        self,
        result: ScanResult,
        weights: FeatureWeights,
        ignored: Iterable[frozenset[str]] = (),
        passages: PassageOptions | None = None,
    ) -> None:
        """Fingerprint the scanned documents again with new weights (no file is read),
        and match passages with new passage options if given."""
        if self.busy:
            return
        self._token = CancelToken()
        self.reweights_started += 1
        self.started.emit("reweight")
        self._reweight_requested.emit(result, weights, passages, set(ignored), self._token)

    def cancel(self) -> None:
        """Ask the running job to stop; `cancelled` follows once it has."""
        if self._token is not None:
            self._token.cancel()

    def shutdown(self) -> None:
        """Cancel any job and stop the thread once the job has stopped (call before the app
        quits): every stage honours Cancel within a second, so this returns about as fast,
        and the catalog is never closed under a running scan."""
        self.cancel()
        if not self._thread.isRunning():
            return
        self._thread.quit()
        self._thread.wait()

    def _on_finished(self, result: ScanResult) -> None:
        self._token = None
        self.finished.emit(result)

    def _on_cancelled(self) -> None:
        self._token = None
        self.cancelled.emit()

    def _on_failed(self, message: str) -> None:
        self._token = None
        self.failed.emit(message)
