"""Status-bar widget for background work: the stage and its progress, files done/total,
rate, the time left in the whole job (`core.progress.TimeLeft`: smoothed over the stages),
Cancel."""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget
from simsift.app.readable import plain, plain_label, readable
from simsift.core.progress import Progress, TimeLeft, format_duration, throughput


class ScanStatus(QWidget):
    """Shows `Progress` reports; hidden while no job runs."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bar = QProgressBar()
        self._bar.setMaximumWidth(220)
        self._counts = QLabel()
        self._current = plain_label(QLabel())
        self._current.setMinimumWidth(120)
        self._rate = QLabel()
        self._cancel = QPushButton()
        self._cancel.clicked.connect(self._on_cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self._bar, self._counts, self._current, self._rate, self._cancel):
            layout.addWidget(widget)
        self._stage = ""
        self._stage_started = 0.0
        self._left = TimeLeft()
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self._cancel.setText(self.tr("Cancel"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def begin(self) -> None:
        """A job started: show the widget and reset the clocks."""
        self._stage = ""
        self._left = TimeLeft()
        self._bar.setRange(0, 0)
        self._counts.clear()
        self._current.clear()
        self._rate.clear()
        self._cancel.setEnabled(True)
        self.show()

    def end(self) -> None:
        self.hide()

    def report(self, progress: Progress, now: float | None = None) -> None:
        """Show one report (already throttled by the worker), received at monotonic time
        `now` (default: now)."""
        now = time.monotonic() if now is None else now
        left = self._left.update(progress, now)
        if progress.stage != self._stage:
            self._stage, self._stage_started = progress.stage, now
        if progress.total > 0:
            self._bar.setRange(0, progress.total)
            self._bar.setValue(progress.done)
        else:
            self._bar.setRange(0, 0)  # unknown total: busy indicator
        self._counts.setText(self._counts_text(progress))
        name = readable(os.path.basename(progress.current))
        if progress.pages:  # a scan read by OCR, seconds a page
            done, total = progress.pages
            name = (
                self.tr("%1 (OCR: page %2 of %3)")
                .replace("%1", name)
                .replace("%2", str(min(done + 1, total)))
                .replace("%3", str(total))
            )
        self._current.setText(name)
        self._current.setToolTip(plain(readable(progress.current)))
        self._rate.setText(self._rate_text(progress, now - self._stage_started, left))

    def _counts_text(self, progress: Progress) -> str:
        stage = self._stage_name(progress.stage)
        if progress.stage in _STEPS_NOT_FILES and progress.total > 0:
            share = f"{100 * progress.done // progress.total}"
            return self.tr("%1: %2%").replace("%1", stage).replace("%2", share)
        if progress.total > 0:
            return (
                self.tr("%1: %2 of %3")
                .replace("%1", stage)
                .replace("%2", f"{progress.done:,}")
                .replace("%3", f"{progress.total:,}")
            )
        return self.tr("%1: %2").replace("%1", stage).replace("%2", f"{progress.done:,}")

    def _stage_name(self, stage: str) -> str:
        names = {
            "finding": self.tr("Finding files"),
            "reading": self.tr("Reading"),
            "fingerprinting": self.tr("Fingerprinting"),
            "comparing": self.tr("Comparing"),
            "passages": self.tr("Matching passages"),
            "sentences": self.tr("Reading sentences for meaning"),
            "meaning": self.tr("Finding copies by meaning"),
            "archiving": self.tr("Adding to the archive"),
            "indexing": self.tr("Indexing the archive"),
            "archive": self.tr("Checking against the archive"),
        }
        return names.get(stage, stage)

    def _rate_text(self, progress: Progress, elapsed: float, left: float | None) -> str:
        """Files per second while reading, and the time left in the whole job."""
        parts = []
        rate, _ = throughput(progress.done, progress.total, elapsed)
        if rate is not None and progress.stage in _FILE_STAGES:
            parts.append(self.tr("%1 files/s").replace("%1", f"{rate:,.1f}"))
        if left is not None and left >= 1:
            parts.append(self.tr("%1 left").replace("%1", format_duration(left)))
        return " · ".join(parts)

    def _on_cancel(self) -> None:
        self._cancel.setEnabled(False)
        self.cancel_requested.emit()


# stages whose progress counts index tables or thousandths of the work, not files
_STEPS_NOT_FILES = frozenset({"comparing", "passages", "meaning"})
_FILE_STAGES = frozenset({"reading"})  # stages that count files read: a rate to show
