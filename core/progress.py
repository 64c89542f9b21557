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
