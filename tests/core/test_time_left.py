"""The time left in a whole scan (`TimeLeft`): it counts down, and a stage change with
another pace never swings it far, unlike an estimate from the current stage alone."""

from __future__ import annotations

from itertools import pairwise

import pytest
from simsift.core.progress import Progress, TimeLeft, throughput

STEP = 0.1  # seconds between reports, as the worker throttles them


def uneven(x: float) -> float:
    """Passage matching's thousandths over its time: the first fifth of them take half
    the time (its steps are costed in advance, never exactly)."""
    return 0.4 * x if x < 0.5 else 0.2 + 1.6 * (x - 0.5)


def scan_reports(reading: float, passages: float, files: int = 1000, first: str = "finding"):
    """(time, report) of a synthetic scan, and its end: files found, read at a steady
    pace for `reading` seconds, fingerprinted, compared, then passages matched for
    `passages` seconds with their thousandths coming unevenly (`uneven`)."""
    out: list[tuple[float, Progress]] = []
    t = 0.0

    def run(stage: str, seconds: float, total: int, shape=lambda x: x) -> None:
        nonlocal t
        n = max(round(seconds / STEP), 1)
        for i in range(n + 1):
            out.append((t + i * STEP, Progress(stage, round(shape(i / n) * total), total)))
        t += seconds

    if first == "finding":
        run("finding", 1.0, 0)
        out.append((t, Progress("finding", files, files)))
        run("reading", reading, files)
    run("fingerprinting", 2.0, files)
    run("comparing", 2.0, 100)
    run("passages", passages, 1000, shape=uneven)
    return out, t


def each_second(reports):
    """(time, estimate, stage-only estimate) once a second, from the first estimate on."""
    left, stage, started, out = TimeLeft(), "", 0.0, []
    for now, report in reports:
        estimate = left.update(report, now)
        if report.stage != stage:
            stage, started = report.stage, now
        naive = throughput(report.done, report.total, now - started)[1]
        if estimate is not None and abs(now - round(now)) < 1e-9:
            out.append((now, estimate, naive))
    return out


def largest_swing(series) -> float:
    """The largest change from one second to the next beyond the second itself, over
    what the test allows (an eighth of the estimate and two seconds): at most 1 when the
    estimate never swings further; a steady countdown has no swing at all."""
    swings = [0.0]
    for (t0, a, _), (t1, b, _) in pairwise(series):
        if t1 > t0:
            swings.append(abs(b - (a - (t1 - t0))) / (0.125 * a + 2.0))
    return max(swings)


@pytest.mark.parametrize(
    ("reading", "passages"),
    [(40.0, 30.0), (10.0, 60.0), (80.0, 5.0)],  # the stage mix as costed, and far from it
)
def test_the_estimate_never_swings_by_more_than_an_eighth_in_a_second(reading, passages):
    reports, _ = scan_reports(reading, passages)
    series = each_second(reports)
    assert series and series[0][0] <= 3  # shown within the first seconds
    assert largest_swing(series) <= 1.0
    # an estimate from the stage alone jumps at a stage change (1 s left, then minutes)
    naive = [(t, n, None) for t, _, n in series if n is not None]
    assert largest_swing(naive) > 3.0


def test_the_estimate_closes_in_on_the_truth_when_the_stages_take_their_usual_shares():
    reports, end = scan_reports(40.0, 14.0)  # reading 68%, passages 24%: as STAGE_COSTS
    series = each_second(reports)
    for now, estimate, _ in series:
        if now >= end / 2:  # 4 s: the smoothing lags when the last stage speeds up
            assert abs(estimate - (end - now)) <= 0.5 * (end - now) + 4
    last, estimate, _ = series[-1]  # the last figure shown overstates by 3 s at most
    assert estimate - (end - last) <= 3


def test_a_reweighting_starts_at_fingerprinting_and_is_estimated_as_such():
    # no finding or reading runs: their share must not count as done
    reports, end = scan_reports(0.0, 5.0, first="fingerprinting")
    series = each_second(reports)
    assert largest_swing(series) <= 1.0
    late = [(t, e) for t, e, _ in series if t >= end / 2]
    assert all(abs(e - (end - t)) <= 0.5 * (end - t) + 4 for t, e in late)


def test_files_taken_from_the_catalog_take_no_share_of_reading():
    def after_reading(read: int) -> float:
        """The estimate once `read` of 1,000 files found were read in 2 s."""
        left = TimeLeft()
        left.update(Progress("finding", 1000, 1000), 0.0)
        for i in range(21):
            left.update(Progress("reading", read * i // 20, read), 0.1 * i)
        return left.update(Progress("fingerprinting", 0, 1000), 2.1)

    # 10 files read of 1,000 (the rest from the catalog) say little of the pace of the
    # rest, which still has all 1,000 documents to compare
    assert after_reading(10) > 5 * after_reading(1000)


def test_settle_must_be_positive():
    with pytest.raises(ValueError, match="settle"):
        TimeLeft(settle=0)


def test_no_time_left_is_told_while_a_stage_is_at_its_end():
    # a stage at 100% with more to come says nothing of what comes next: the result
    # cache may make it two seconds, as it did after "Comparing: 100% · 1:03 left"
    reports, _ = scan_reports(40.0, 30.0)
    left = TimeLeft()
    told = [(report, left.update(report, now)) for now, report in reports]
    at_end = [(r, e) for r, e in told if r.stage != "finding" and r.done == r.total]
    assert {r.stage for r, _ in at_end} == {"reading", "fingerprinting", "comparing", "passages"}
    assert all(e is None for _, e in at_end)
    # the next stage's first report tells it again, where the countdown had got to
    after = [e for (r, _), (_, e) in pairwise(told) if r.done == r.total and r.stage != "finding"]
    assert all(e is not None for e in after[:-1])


def test_an_unchanged_rescan_tells_no_time_left():
    # walking 2,500 files and looking them up in the catalog takes seconds; then nothing
    # is read and the comparison comes from the cache: no pace to tell anything from
    left = TimeLeft()
    told = [
        left.update(Progress("finding", n, 0), 0.5 * i) for i, n in enumerate(range(0, 2501, 500))
    ]
    told.append(left.update(Progress("finding", 2500, 2500), 2.5))
    told.append(left.update(Progress("reading", 0, 0), 4.0))
    assert told == [None] * len(told)


def test_the_walk_sets_no_pace_for_reading():
    # 100 files to read of 1,000 found, the others in the catalog: a slow walk (a slow
    # disk, a big catalog) would make them minutes
    left = TimeLeft()
    left.update(Progress("finding", 0, 0), 0.0)
    left.update(Progress("finding", 1000, 1000), 3.0)
    assert left.update(Progress("reading", 0, 100), 3.5) is None
    assert left.update(Progress("reading", 5, 100), 8.5) is not None  # reading's own pace
