"""Progress reporting and cancellation shared by every long-running stage."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


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

    def checked(self, items: Iterable[T]) -> Iterator[T]:
        """`items`, with a check before each (pieces of work made by a generator)."""
        for item in items:
            self.check()
            yield item


@dataclass(frozen=True, slots=True)
class Progress:
    """One progress report: `done` of `total` units in `stage`, about `current`; `pages`
    is how far a long file (an OCR scan) has got, (pages done, pages), or None."""

    stage: str
    done: int
    total: int
    current: str = ""
    pages: tuple[int, int] | None = None


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


# A scan's stages in the order they run, each with its rough share of a cold scan's time
# (2,500 and 10,000 essays with 2 readers, `python -m bench.reweight_bench`: reading 65%,
# passages 20-26%, fingerprinting 5-9%, comparing 4%). A stage that does not run takes no
# share: nothing to read (every file in the catalog), no reading at all (a re-weighting).
# The archive's stages count only once seen, and a check against an archive runs the
# first stages twice (the archive's folders, then the others).
STAGE_COSTS: dict[str, float] = {
    "finding": 0.01,
    "reading": 0.65,
    "fingerprinting": 0.07,
    "archiving": 0.05,
    "indexing": 0.02,
    "archive": 0.02,
    "comparing": 0.04,
    "passages": 0.23,
    # copying by meaning, when it runs (two languages, or paraphrase on): 4,000 man pages
    # with both kinds, 4 s of sentences and 22 s of alignment in a 40 s scan
    "sentences": 0.05,
    "meaning": 0.15,
}
_SEEN_ONLY = frozenset({"archiving", "indexing", "archive", "sentences", "meaning"})
# beyond counting down, the estimate moves at most this share of itself plus these
# seconds per second, however far the raw figure is: 1:00 left may become 1:07.5 or 0:52.5
# a second later, never 0:30
_SWING_SHARE, _SWING_SECONDS = 0.1, 1.5


class TimeLeft:
    """Seconds left in a whole job of stages (a scan, a re-weighting) from its progress
    reports, smoothed so that it counts down steadily instead of jumping.

    The pace is the seconds per unit of cost (`STAGE_COSTS`; reading in proportion to
    the files read of those found) seen so far. The current stage's length is first the
    pace times its cost, then more and more what its own progress says as it runs longer
    than that; the stages after it take the pace times their costs. The real mix of
    stages differs from the costs, so that raw figure moves at a stage change; the
    estimate counts down with the clock and moves towards the raw figure gradually (63%
    of the way in `settle` seconds, and at most a tenth of itself and 1.5 s in a second),
    so no one report swings it far.

    Nothing is told (None) until a stage after finding the files has made progress (a
    walk says nothing of the pace of reading and comparing), nor while a stage is at its
    end or has nothing to do: what comes next may be quick (taken from the result cache)
    or slow, and no report says which until the next stage starts. The estimate goes on
    being smoothed meanwhile, so it picks up where it was when that stage reports.

    Example:
        >>> left = TimeLeft()
        >>> left.update(Progress("reading", 0, 100), now=0.0) is None
        True
        >>> round(left.update(Progress("reading", 50, 100), now=10.0))  # half read in 10 s
        20
    """

    def __init__(self, costs: dict[str, float] = STAGE_COSTS, settle: float = 8.0) -> None:
        if settle <= 0:
            raise ValueError(f"settle must be > 0 seconds, not {settle}")
        self._costs, self._order = costs, list(costs)
        self._settle = settle
        self._last: float | None = None
        self._shown: float | None = None
        self._done_cost = 0.0  # costs of the stages finished so far ...
        self._done_time = 0.0  # ... and the seconds they took
        self._seen: set[str] = set()
        self._stage = ""
        self._stage_started = 0.0
        self._stage_cost = 0.0
        self._stage_share = 0.0
        self._found = 0  # files found so far

    def update(self, report: Progress, now: float) -> float | None:
        """The estimate after `report`, at monotonic time `now`; None until there is enough
        to tell (a second of work, and 2% of it done past finding the files), and while
        the stage reported is at its end."""
        if self._last is None:
            self._last = self._stage_started = now
        if report.stage != self._stage:
            self._done_cost += self._stage_cost  # a stage left is done
            self._done_time += now - self._stage_started
            self._stage, self._stage_started, self._stage_share = report.stage, now, 0.0
            self._seen.add(report.stage)
        if report.stage == "finding":
            self._found = max(self._found, report.done)
        self._stage_cost = self._cost_of(report)
        if report.total > 0:
            self._stage_share = max(self._stage_share, min(report.done / report.total, 1.0))
        raw = self._raw(now - self._stage_started)
        dt, self._last = max(now - self._last, 0.0), now
        if raw is None or self._shown is None:  # no figure of before is carried on alone
            self._shown = raw
        else:
            countdown = max(self._shown - dt, 0.0)
            move = (1.0 - math.exp(-dt / self._settle)) * (raw - countdown)
            most = (_SWING_SHARE * countdown + _SWING_SECONDS) * dt
            self._shown = countdown + min(max(move, -most), most)
        at_end = report.total <= 0 or report.done >= report.total
        return None if at_end else self._shown

    def _cost_of(self, report: Progress) -> float:
        cost = self._costs.get(report.stage, 0.0)
        if report.stage == "reading":  # only the files not in the catalog are read
            cost *= report.total / max(self._found, report.total, 1)
        return cost

    def _raw(self, in_stage: float) -> float | None:
        cost, share = self._stage_cost, self._stage_share
        done = self._done_cost + cost * share
        elapsed = self._done_time + in_stage
        here = self._order.index(self._stage) if self._stage in self._order else len(self._order)
        later = sum(
            self._costs[s]
            for s in self._order[here + 1 :]
            if s not in _SEEN_ONLY or s in self._seen
        )
        # finding files (walking folders, looking up the catalog) says nothing about the
        # pace of the rest: an unchanged rescan reads and compares nothing after it
        found = self._costs.get("finding", 0.0) if "finding" in self._seen else 0.0
        if elapsed < 1.0 or done <= found or done < 0.02 * (done + cost * (1 - share) + later):
            return None
        pace = elapsed / done  # seconds per unit of cost
        expected = cost * pace  # the current stage's length at that pace ...
        if share > 0:  # ... and as its own progress tells, trusted as it runs on
            trust = in_stage / (in_stage + expected) if in_stage + expected > 0 else 1.0
            expected = (1 - trust) * expected + trust * in_stage / share
        return max(expected - in_stage, 0.0) + later * pace


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
