"""The status bar's progress line: files for reading, a percentage for comparing."""

from __future__ import annotations

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
