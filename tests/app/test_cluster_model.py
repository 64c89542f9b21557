"""The cluster tree model: Qt's model invariants, laziness at scale, checks and filtering."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from simsift.app.models.clusters import (
    COL_DISTANCE,
    COL_FOLDER,
    COL_KIND,
    COL_NAME,
    COL_SIZE,
    COL_TITLE,
    ClusterFilterProxy,
    ClusterModel,
    Marking,
)
from simsift.app.models.roles import DocRole
from simsift.core.analysis.cluster import KIND_NEAR, KIND_ORIGINAL, Clusters, build_clusters
from simsift.core.document import FileRecord
from simsift.core.index.matches import Matches
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan


@pytest.fixture(scope="module")
def result(corpus_template):
    root, _ = corpus_template
    return scan(ScanOptions(roots=(str(root),), workers=0))


def synthetic(n_docs: int, size: int) -> tuple[list[FileRecord], Clusters]:
    """n_docs documents in clusters of `size`; member i is at distance i % 4 from its reference."""
    docs = [FileRecord(f"/data/f{i // 1000}/doc{i}.html", 1000 + i, i, "ok") for i in range(n_docs)]
    n_clusters = n_docs // size
    ptr = np.arange(0, n_clusters * size + 1, size, dtype=np.int64)
    position = np.arange(n_clusters * size) % size
    kind = np.where(position == 0, KIND_ORIGINAL, KIND_NEAR).astype(np.int8)
    distance = (position % 4).astype(np.int8)
    max_distance = np.full(n_clusters, min(size - 1, 3), np.int8)
    return docs, Clusters(3, np.arange(n_clusters * size), ptr, distance, kind, max_distance)


def test_model_passes_qtmodeltester_on_real_clusters(qtmodeltester, result):
    model = ClusterModel()
    model.set_clusters(result.documents, result.clusters(3))
    assert model.rowCount() == 2
    qtmodeltester.check(model, force_py=True)


def test_proxy_passes_qtmodeltester(qtmodeltester, result):
    model = ClusterModel()
    model.set_clusters(result.documents, result.clusters(3))
    proxy = ClusterFilterProxy()
    proxy.setSourceModel(model)
    proxy.sort(COL_DISTANCE, Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(proxy, force_py=True)


def test_tree_shape_and_member_rows(result):
    model = ClusterModel()
    clusters = result.clusters(3)
    model.set_clusters(result.documents, clusters)
    for c in range(len(clusters)):
        parent = model.index(c, 0)
        assert model.rowCount(parent) == len(clusters.doc[clusters.members(c)])
        reference = model.index(0, 0, parent)
        assert model.data(reference, DocRole) == clusters.doc[clusters.ptr[c]]
        assert model.data(model.index(0, COL_KIND, parent)) == "original"
        assert model.parent(reference) == parent
    assert model.parent(model.index(0, 0)) == QModelIndex()


def test_hundred_thousand_documents_are_served_lazily(qtmodeltester):
    # speed is measured in bench/, not here; this checks the model copes with the size
    docs, clusters = synthetic(100_000, 4)
    model = ClusterModel()
    model.set_clusters(docs, clusters)
    assert model.rowCount() == 25_000
    last = model.index(24_999, 0)
    assert model.data(model.index(3, COL_NAME, last)) == "doc99999.html"


def test_check_all_but_original_and_set_data(result):
    model = ClusterModel()
    clusters = result.clusters(3)
    model.set_clusters(result.documents, clusters)
    model.check_all_but_original()
    references = set(clusters.doc[clusters.ptr[:-1]].tolist())
    assert set(model.checked_documents()) == set(clusters.doc.tolist()) - references
    member = model.index(1, COL_NAME, model.index(0, 0))
    assert model.setData(member, Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    assert model.data(member, DocRole) not in model.checked_documents()


def test_filter_keeps_whole_matching_clusters(result):
    model = ClusterModel()
    model.set_clusters(result.documents, result.clusters(3))
    proxy = ClusterFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_filter_text("副本")
    assert proxy.rowCount() == 1
    assert proxy.rowCount(proxy.index(0, 0)) == 3  # the whole cluster, not just the match
    proxy.set_filter_text("no such file")
    assert proxy.rowCount() == 0
    proxy.set_filter_text("")
    assert proxy.rowCount() == 2


def _shown(model, column, role=Qt.ItemDataRole.DisplayRole):
    """Top-level rows as [(cluster text, [member values...]), ...]."""
    rows = []
    for r in range(model.rowCount()):
        parent = model.index(r, 0)
        count = model.rowCount(parent)
        members = [model.data(model.index(i, column, parent), role) for i in range(count)]
        rows.append((model.data(model.index(r, COL_NAME)), members))
    return rows


def test_sorting_orders_clusters_and_members_and_keeps_the_reference_first(qtmodeltester):
    docs, clusters = synthetic(12, 4)  # sizes grow with the document number
    model = ClusterModel()
    model.set_clusters(docs, clusters)
    model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
    shown = _shown(model, COL_NAME, DocRole)
    assert [name for name, _ in shown] == [
        "Cluster 3 · 4 files",
        "Cluster 2 · 4 files",
        "Cluster 1 · 4 files",
    ]
    assert shown[0][1] == [8, 11, 10, 9]  # reference, then the largest first
    model.sort(COL_DISTANCE, Qt.SortOrder.AscendingOrder)
    assert _shown(model, COL_DISTANCE)[0][1] == ["—", "1", "2", "3"]
    qtmodeltester.check(model, force_py=True)


def test_sorting_keeps_persistent_indexes_on_their_documents():
    docs, clusters = synthetic(12, 4)
    model = ClusterModel()
    model.set_clusters(docs, clusters)
    member = QPersistentModelIndex(model.index(2, COL_NAME, model.index(1, 0)))
    cluster = QPersistentModelIndex(model.index(1, 0))
    doc = model.data(member, DocRole)
    model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
    assert model.data(member, DocRole) == doc
    assert member.parent() == cluster
    assert model.data(cluster) == "Cluster 2 · 4 files"


def test_new_clusters_keep_the_chosen_sort_and_the_proxy_delegates_it():
    docs, clusters = synthetic(12, 4)
    model = ClusterModel()
    proxy = ClusterFilterProxy()
    proxy.setSourceModel(model)
    proxy.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
    model.set_clusters(docs, clusters)
    assert proxy.data(proxy.index(0, COL_NAME)) == "Cluster 3 · 4 files"
    proxy.set_filter_text("doc1.html")
    assert proxy.rowCount() == 1
    assert proxy.data(proxy.index(0, COL_NAME)) == "Cluster 1 · 4 files"


def test_sorting_by_folder_and_title_at_scale():
    docs, clusters = synthetic(100_000, 4)
    model = ClusterModel()
    model.set_clusters(docs, clusters)
    model.sort(COL_FOLDER, Qt.SortOrder.DescendingOrder)
    first = model.index(0, 0)
    assert model.data(model.index(0, COL_FOLDER, first)) == "/data/f99"
    model.sort(COL_TITLE)
    assert model.rowCount() == 25_000


def test_mark_all_but_original_skips_members_beyond_k():
    # built clusters keep every member within k; clusters made otherwise may not
    docs, clusters = synthetic(8, 4)  # distances 0 (original), 1, 2, 3
    far = Clusters(2, clusters.doc, clusters.ptr, clusters.distance, clusters.kind,
                   clusters.max_distance)  # fmt: skip
    model = ClusterModel()
    model.set_clusters(docs, far)
    assert model.check_all_but_original() == Marking(4, 2, 0, 0)  # two at 3 > k=2
    assert sorted(model.checked_documents()) == [1, 2, 5, 6]


def test_files_in_reference_and_archive_folders_are_never_checked(qtmodeltester):
    docs, clusters = synthetic(8, 4)
    docs[6] = FileRecord("archive:/2024/essays/doc6.html", 1006, 6, "ok")
    reference = np.zeros(8, bool)
    reference[2] = True
    model = ClusterModel()
    model.set_clusters(docs, clusters, reference)
    assert model.check_all_but_original() == Marking(4, 0, 2, 0)
    assert model.checked_documents() == [1, 3, 5, 7]
    model.set_checked({1, 2, 6})
    assert model.checked_documents() == [1]
    for row, doc in ((2, 2), (2, 6)):
        index = model.index(row, COL_NAME, model.index(doc // 4, 0))
        assert model.data(index, DocRole) == doc
        assert model.data(index, Qt.ItemDataRole.CheckStateRole) is None  # no box
        assert not model.flags(index) & Qt.ItemFlag.ItemIsUserCheckable
        assert not model.setData(index, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
        tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
        assert "never marked or moved" in tip
    assert model.checked_documents() == [1]
    qtmodeltester.check(model, force_py=True)


def test_mark_and_trash_twice_on_a_chain_never_takes_a_file_far_from_every_kept_one():
    """A-B-C-D, each step within k = 2, the ends farther: "Mark all but the original",
    trash the marked files (their pairs go, as `ScanResult.without_files` does), rebuild
    the clusters and mark again. No marked file may be farther than k from every kept one,
    whichever file is the best original."""
    fps = np.array([0b000000, 0b000011, 0b001111, 0b111111], np.uint64)
    k, codes = 2, np.arange(4)
    dist = np.bitwise_count(fps[:, None] ^ fps[None, :])
    docs = [FileRecord(f"/licences/{name}.txt", 100, 0, "ok") for name in "ABCD"]
    left, right = np.triu_indices(4, 1)
    all_pairs = Matches(left, right, dist[left, right].astype(np.int8))
    for order in itertools.permutations(range(4)):
        rank = np.array(order)
        model, trashed, marked_each_time = ClusterModel(), set(), []
        for _ in range(2):
            gone = np.isin(all_pairs.left, list(trashed)) | np.isin(all_pairs.right, list(trashed))
            clusters = build_clusters(all_pairs.subset(~gone), k, fps, codes, codes, rank)
            model.set_clusters(docs, clusters)
            marking = model.check_all_but_original()
            marked = set(model.checked_documents())
            assert marking.marked == len(marked) and marking.farther == 0
            marked_each_time.append(marked)
            trashed |= marked
        kept = set(range(4)) - trashed
        for doc in trashed:
            assert any(dist[doc, other] <= k for other in kept), (order, doc, kept)
        assert marked_each_time[1] == set()  # nothing new to mark after the trash


def test_the_status_line_says_how_many_were_marked_and_why_others_were_not(qtbot):
    from simsift.app.panels.clusters import ClustersPanel

    panel = ClustersPanel()
    qtbot.addWidget(panel)
    fps = np.array([0b0000, 0b0001, 0b0011, 0b0111, 0b1111], np.uint64)  # a chain of 1 bit
    codes = np.arange(5)
    docs = [FileRecord(f"/essays/{i}.txt", 100, 0, "ok") for i in range(5)]
    pairs = Matches(np.array([0, 1, 2, 3]), np.array([1, 2, 3, 4]), np.ones(4, np.int8))
    reference = np.array([False, False, False, True, False])
    panel.show_clusters(docs, build_clusters(pairs, 1, fps, codes, codes, codes), reference)
    text = panel.mark_all_but_original()
    assert text.startswith("Marked 1 file: all but its cluster's original.")  # 1, not 3
    assert "1 files in reference or archive folders were not marked." in text  # 3
    assert "1 files within k of a marked file but farther than k from every original" in text
    assert panel.model.checked_documents() == [1]
    assert panel.marking_text(Marking(1_250, 0, 0, 0)) == (
        "Marked 1,250 files: all but each cluster's original."
    )
