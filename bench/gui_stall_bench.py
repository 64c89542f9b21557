"""GUI responsiveness during a scan: the longest GUI-thread stall while scanning N files.

    QT_QPA_PLATFORM=offscreen python bench/gui_stall_bench.py --files 10000

A 5 ms QTimer runs on the GUI thread while the main window scans a folder of N text essays
(random sentences of Python's module documentation, bench/ingest_bench.py) with 2 readers;
every gap between ticks longer than the timer interval is time the GUI could not react.
Prints the longest gap, the 99.9th percentile, and when the longest one happened.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ingest_bench import sentence_essays  # noqa: E402
from PySide6.QtCore import QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import Settings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=10_000)
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
        ticks: list[float] = []
        stages: list[str] = []
        stage = ["starting"]
        window.controller.progress.connect(lambda report: stage.__setitem__(0, report.stage))
        window.controller.finished.connect(lambda _: stage.__setitem__(0, "showing result"))

        def tick() -> None:
            ticks.append(time.perf_counter())
            stages.append(stage[0])

        timer = QTimer()
        timer.setInterval(5)
        timer.timeout.connect(tick)
        done = QEventLoop()
        window.controller.finished.connect(lambda _: QTimer.singleShot(200, done.quit))
        started = time.perf_counter()
        timer.start()
        window.start_scan()
        done.exec()
        timer.stop()
        gaps = sorted(
            (b - a, a - started, stages[i + 1])
            for i, (a, b) in enumerate(itertools.pairwise(ticks))
        )
        worst, at, _ = gaps[-1]
        p999 = gaps[int(0.999 * (len(gaps) - 1))][0]
        print(
            f"{args.files} files scanned in {ticks[-1] - started:.1f} s; GUI-thread stalls: "
            f"longest {1000 * worst:.0f} ms (at {at:.1f} s), 99.9th percentile {1000 * p999:.0f} ms"
        )
        print(
            "longest stalls: "
            + ", ".join(
                f"{1000 * gap:.0f} ms at {at:.1f} s ({name})" for gap, at, name in gaps[:-6:-1]
            )
        )
        window.controller.shutdown()


if __name__ == "__main__":
    main()
