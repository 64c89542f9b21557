"""GUI responsiveness during a scan: the longest GUI-thread stall while scanning N files.

    QT_QPA_PLATFORM=offscreen python -m bench.gui_stall_bench --files 10000

A 5 ms QTimer runs on the GUI thread while the main window scans a folder of N text essays
(random sentences of Python's module documentation, bench/ingest_bench.py) with 2 readers;
every gap between ticks longer than the timer interval is time the GUI could not react.
Prints the longest gap, the 99.9th percentile, and when the longest ones happened.
`--scans N` scans the same folder N times and prints the memory in use after each scan
(results of earlier scans must be freed).
"""

from __future__ import annotations

import argparse
import itertools
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication
from simsift.app.main_window import MainWindow
from simsift.app.settings import Settings

from bench.ingest_bench import sentence_essays

ROOT = Path(__file__).resolve().parents[1]


def measure_scan(window: MainWindow, files: int) -> None:
    """Scan the window's folders once and print the GUI thread's longest stalls."""
    ticks: list[float] = []
    stages: list[str] = []
    stage = ["starting"]
    done = QEventLoop()

    def on_progress(report) -> None:
        stage[0] = report.stage

    def on_finished(_) -> None:
        stage[0] = "showing result"
        QTimer.singleShot(200, done.quit)

    def tick() -> None:
        ticks.append(time.perf_counter())
        stages.append(stage[0])

    window.controller.progress.connect(on_progress)
    window.controller.finished.connect(on_finished)
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(tick)
    started = time.perf_counter()
    timer.start()
    window.start_scan()
    done.exec()
    timer.stop()
    window.controller.progress.disconnect(on_progress)
    window.controller.finished.disconnect(on_finished)
    gaps = sorted(
        (b - a, a - started, stages[i + 1]) for i, (a, b) in enumerate(itertools.pairwise(ticks))
    )
    worst, at, _ = gaps[-1]
    p999 = gaps[int(0.999 * (len(gaps) - 1))][0]
    print(
        f"{files} files scanned in {ticks[-1] - started:.1f} s; GUI-thread stalls: "
        f"longest {1000 * worst:.0f} ms (at {at:.1f} s), 99.9th percentile {1000 * p999:.0f} ms"
    )
    print(
        "longest stalls: "
        + ", ".join(f"{1000 * gap:.0f} ms at {at:.1f} s ({name})" for gap, at, name in gaps[:-6:-1])
    )


def resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--scans", type=int, default=1)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])  # noqa: F841 - must outlive the window
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "essays"
        folder.mkdir()
        for i, essay in enumerate(sentence_essays(args.files, seed=5)):
            (folder / f"essay {i}.txt").write_text("\n\n".join(essay), encoding="utf-8")
        settings = Settings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(settings, None, workers=2)
        window.show()
        window.folders.add_paths([str(folder)])
        for number in range(args.scans):
            measure_scan(window, args.files)
            print(f"after scan {number + 1}: {resident_mb():.0f} MB resident")
        window.controller.shutdown()


if __name__ == "__main__":
    main()
