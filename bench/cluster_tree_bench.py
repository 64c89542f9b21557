"""The cluster tree at scale: showing, sorting, filtering and checking 100,000 documents.

    QT_QPA_PLATFORM=offscreen python -m bench.cluster_tree_bench [--docs 100000]

Documents fall into clusters of 2-5 (about 22,000 clusters at 100,000 documents), shown in
the main window's tree view (model + filter proxy) at 900 x 600. Each step is timed until
the view has painted.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from simsift.app.models.clusters import COL_SIZE, COL_TITLE
from simsift.app.panels.clusters import ClustersPanel
from simsift.core.analysis.cluster import build_clusters
from simsift.core.document import FileRecord
from simsift.core.index.matches import Matches


def synthetic_clusters(n: int, seed: int = 1):
    """n documents, most of them in clusters of 2-5 members with a gap document between."""
    rng = np.random.default_rng(seed)
    left, right, doc = [], [], 0
    while doc < n - 6:
        size = int(rng.integers(2, 6))
        left += [doc] * (size - 1)
        right += range(doc + 1, doc + size)
        doc += size + 1
    fps = rng.integers(0, 2**63, n, dtype=np.int64).astype(np.uint64)
    pairs = Matches(np.array(left), np.array(right), np.zeros(len(left), np.int8))
    codes = np.arange(n)
    clusters = build_clusters(pairs, 8, fps, codes, codes, codes)
    docs = tuple(
        FileRecord(f"/data/f{i % 97}/essay {i}.txt", 1000 + i % 5000, 0, "ok", title=f"T {i}")
        for i in range(n)
    )
    return docs, clusters


def timed(app: QApplication, label: str, step) -> None:
    started = time.perf_counter()
    step()
    app.processEvents()
    print(f"{label:<34} {1000 * (time.perf_counter() - started):7.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--docs", type=int, default=100_000)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    docs, clusters = synthetic_clusters(args.docs)
    print(f"{len(docs):,} documents, {len(clusters):,} clusters")
    panel = ClustersPanel()  # the window's own tree, model and proxy
    model, proxy, tree = panel.model, panel.proxy, panel.tree
    tree.resize(900, 600)
    tree.show()
    app.processEvents()
    timed(app, "show clusters", lambda: model.set_clusters(docs, clusters))
    timed(app, "sort by size", lambda: tree.sortByColumn(COL_SIZE, Qt.SortOrder.AscendingOrder))
    timed(app, "sort by title", lambda: tree.sortByColumn(COL_TITLE, Qt.SortOrder.DescendingOrder))
    timed(app, "filter 'essay 77'", lambda: proxy.set_filter_text("essay 77"))
    timed(app, "clear the filter", lambda: proxy.set_filter_text(""))
    timed(app, "mark all but the original", model.check_all_but_original)
    timed(app, "expand all", tree.expandAll)


if __name__ == "__main__":
    main()
