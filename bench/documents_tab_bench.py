"""The Documents tab at scale: 10,000 documents shown, sorted and filtered.

    QT_QPA_PLATFORM=offscreen python -m bench.documents_tab_bench [--docs 10000]

A synthetic result (similarity indices, sources) is shown in the real panel at 1000 x 600;
each step is timed until the view has painted. Target: shown and re-sorted in
at most 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from types import SimpleNamespace

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from simsift.app.models.documents import COL_FOLDER, COL_INDEX, COL_NAME, COL_VERDICT
from simsift.app.panels.documents import DocumentsPanel
from simsift.core.document import FileRecord


class SyntheticResult:
    """What the Documents tab reads from a ScanResult: documents, options, similarity()."""

    def __init__(self, n: int, seed: int = 1) -> None:
        rng = np.random.default_rng(seed)
        self.documents = tuple(
            FileRecord(f"/class/{i % 97:02d}/essay {i:05d}.txt", 1, 0, "ok") for i in range(n)
        )
        self.options = SimpleNamespace(roots=("/class",), reference_roots=())
        index = rng.random(n)
        self._similarity = SimpleNamespace(
            index=index,
            source_count=rng.integers(1, 5, n),
            top_source=np.roll(np.arange(n), 1),
            top_share=index / 2,
        )

    def similarity(self):
        return self._similarity


def timed(app: QApplication, step) -> float:
    started = time.perf_counter()
    step()
    app.processEvents()  # until painted
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    args = parser.parse_args()
    app = QApplication(sys.argv[:1])
    panel = DocumentsPanel()
    panel.resize(1000, 600)
    panel.show()
    result = SyntheticResult(args.docs)
    steps = {
        "show": lambda: panel.set_result(result),
        "sort by name": lambda: panel.table.sortByColumn(COL_NAME, Qt.SortOrder.AscendingOrder),
        "sort by folder": lambda: panel.table.sortByColumn(COL_FOLDER, Qt.SortOrder.AscendingOrder),
        "sort by verdict": lambda: panel.table.sortByColumn(
            COL_VERDICT, Qt.SortOrder.DescendingOrder
        ),
        "sort by index": lambda: panel.table.sortByColumn(COL_INDEX, Qt.SortOrder.DescendingOrder),
        "filter 'essay 0001'": lambda: panel.filter.setText("essay 0001"),
        "clear filter": lambda: panel.filter.clear(),
    }
    for name, step in steps.items():
        print(f"{name:22s} {timed(app, step) * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
