"""Status-bar widget for background work: progress, files done/total, rate, ETA, Cancel."""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget
from simsift.app.readable import plain, plain_label, readable
from simsift.core.progress import Progress, format_duration, throughput


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
        self._bar.setRange(0, 0)
        self._counts.clear()
        self._current.clear()
        self._rate.clear()
        self._cancel.setEnabled(True)
        self.show()

    def end(self) -> None:
        self.hide()

    def report(self, progress: Progress) -> None:
        """Show one report (already throttled by the worker)."""
        now = time.monotonic()
        if progress.stage != self._stage:
            self._stage, self._stage_started = progress.stage, now
        if progress.total > 0:
            self._bar.setRange(0, progress.total)
            self._bar.setValue(progress.done)
        else:
            self._bar.setRange(0, 0)  # unknown total: busy indicator
        self._counts.setText(self._counts_text(progress))
        name = readable(os.path.basename(progress.current))
        self._current.setText(name)
        self._current.setToolTip(plain(readable(progress.current)))
        self._rate.setText(self._rate_text(progress, now - self._stage_started))

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
        }
        return names.get(stage, stage)

    def _rate_text(self, progress: Progress, elapsed: float) -> str:
        rate, eta = throughput(progress.done, progress.total, elapsed)
        if rate is None:
            return ""
        if progress.stage in _STEPS_NOT_FILES:  # tables or thousandths: no rate to show
            return self.tr("%1 left").replace("%1", format_duration(eta)) if eta else ""
        text = self.tr("%1 files/s").replace("%1", f"{rate:,.1f}")
        if eta is not None:
            text += " · " + self.tr("%1 left").replace("%1", format_duration(eta))
        return text

    def _on_cancel(self) -> None:
        self._cancel.setEnabled(False)
        self.cancel_requested.emit()


# stages whose progress counts index tables or thousandths of the work, not files
_STEPS_NOT_FILES = frozenset({"comparing", "passages"})
