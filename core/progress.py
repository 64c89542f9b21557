"""Progress reporting and cancellation shared by every long-running stage."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass


class Cancelled(Exception):
    """Raised by a stage when its cancel token was set; no partial result is returned."""


class CancelToken:
    """A thread-safe flag a caller sets to stop a running stage."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        """Raise `Cancelled` if cancellation was requested."""
        if self._event.is_set():
            raise Cancelled()


@dataclass(frozen=True, slots=True)
class Progress:
    """One progress report: `done` of `total` units in `stage`, about `current`."""

    stage: str
    done: int
    total: int
    current: str = ""


ProgressCallback = Callable[[Progress], None]


def no_progress(_: Progress) -> None:
    """Default callback that ignores reports."""


class StepProgress:
    """One stage made of consecutive steps of known relative cost, reported as thousandths.

    Each step gets a callback `(done, total)` that reports the stage's overall share
    and checks the cancel token, so a step only needs to call it between bounded pieces.
    """

    SCALE = 1000

    def __init__(
        self,
        stage: str,
        steps: dict[str, float],
        progress: ProgressCallback = no_progress,
        cancel: CancelToken | None = None,
    ) -> None:
        self._stage, self._progress = stage, progress
        self._cancel = cancel or CancelToken()
        whole = sum(steps.values())
        self._shown = -1
        self._spans, begin = {}, 0.0
        for name, cost in steps.items():
            self._spans[name] = (begin, cost / whole)
            begin += cost / whole

    @property
    def cancel(self) -> CancelToken:
        return self._cancel

    def step(self, name: str) -> Callable[[int, int], None]:
        begin, share = self._spans[name]

        def report(done: int, total: int) -> None:
            self._cancel.check()
            fraction = begin + share * (min(done / total, 1.0) if total else 1.0)
            # a step whose total grows as it runs never moves the bar backwards
            self._shown = max(self._shown, round(fraction * self.SCALE))
            self._progress(Progress(self._stage, self._shown, self.SCALE))

        return report


def throughput(done: int, total: int, elapsed: float) -> tuple[float | None, float | None]:
    """Items per second and seconds left; None where there is too little to tell."""
    if done <= 0 or elapsed < 0.5:
        return None, None
    rate = done / elapsed
    eta = (total - done) / rate if total > done else None
    return rate, eta


def format_duration(seconds: float) -> str:
    """75 -> "1:15", 3725 -> "1:02:05"."""
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"
