"""The status bar's progress line: files for reading, a percentage for comparing."""

from __future__ import annotations

from itertools import pairwise

from simsift.app.panels.scan_status import ScanStatus
from simsift.core.progress import Progress


def test_passage_matching_shows_a_percentage_not_files(qtbot):
    status = ScanStatus()
    qtbot.addWidget(status)
    status.begin()
    status.report(Progress("reading", 40, 200, "/essays/a.txt"))
    assert "40 of 200" in status._counts.text()
    status.report(Progress("passages", 350, 1000))
    assert status._counts.text().endswith("35%")
    assert "files/s" not in status._rate.text()


def test_the_stage_is_shown_with_its_progress(qtbot):
    status = ScanStatus()
    qtbot.addWidget(status)
    status.begin()
    status.report(Progress("reading", 1204, 2502, "/essays/b.txt"), now=0.0)
    assert status._counts.text() == "Reading: 1,204 of 2,502"
    assert status._current.text() == "b.txt"
    for stage, name in (
        ("finding", "Finding files"),
        ("fingerprinting", "Fingerprinting"),
        ("comparing", "Comparing"),
        ("passages", "Matching passages"),
        ("archiving", "Adding to the archive"),
        ("indexing", "Indexing the archive"),
        ("archive", "Checking against the archive"),
    ):
        status.report(Progress(stage, 1, 4), now=1.0)
        assert status._counts.text().startswith(name + ": ")


def test_a_scan_read_by_ocr_shows_the_page_being_read(qtbot):
    status = ScanStatus()
    qtbot.addWidget(status)
    status.begin()
    status.report(Progress("reading", 3, 30, "/essays/scan.pdf", (4, 12)), now=0.0)
    assert status._current.text() == "scan.pdf (OCR: page 5 of 12)"
    assert status._counts.text() == "Reading: 3 of 30"
    status.report(Progress("reading", 4, 30, "/essays/next.txt"), now=1.0)
    assert status._current.text() == "next.txt"


def test_the_time_left_counts_down_across_a_stage_change(qtbot):
    # reading 100 files in 20 s, then matching passages: a time left from the stage alone
    # would read 0:01 at the end of reading and minutes at the start of matching
    status = ScanStatus()
    qtbot.addWidget(status)
    status.begin()
    shown = []
    for second in range(21):
        status.report(Progress("reading", 5 * second, 100), now=float(second))
        shown.append(status._rate.text())
    for second in range(1, 4):
        status.report(Progress("passages", 10 * second, 1000), now=20.0 + second)
        shown.append(status._rate.text())
    times = [_seconds(t.split("· ")[-1]) for t in shown if "left" in t]
    assert len(times) >= 20
    assert all(abs(b - a) <= 0.125 * a + 3 for a, b in pairwise(times))
    assert "files/s" in shown[20] and "files/s" not in shown[-1]


def _seconds(text: str) -> int:
    minutes, seconds = text.removesuffix(" left").split(":")
    return 60 * int(minutes) + int(seconds)
