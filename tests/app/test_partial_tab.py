"""The "Partial copies" tab: model checks, a planted partial copy found by a scan, and the
side-by-side view following the selected row."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from simsift.app.models.partial import (
    COL_CONTAINMENT_AB,
    COL_CONTAINMENT_BA,
    COL_DISTANCE,
    COL_KIND,
    COL_NAME_A,
    COL_NAME_B,
    COL_RUN,
    PARAPHRASED,
    TRANSLATED,
    VERBATIM,
    PartialModel,
    PartialProxy,
)
from simsift.app.models.roles import PairRole, SortRole
from simsift.core.document import FileRecord

from tests.app.conftest import scan_and_wait
from tests.core.corpus import write_partial_copy


def _record(path: str) -> FileRecord:
    return FileRecord(path, 10, 0, "ok", format="txt", paragraphs=("text",))


@pytest.fixture
def filled_model() -> PartialModel:
    model = PartialModel()
    docs = tuple(_record(f"/data/{name}.txt") for name in ("a", "b", "c"))
    model.set_pairs(
        docs,
        np.array([0, 0, 1]),
        np.array([1, 2, 2]),
        np.array([0.4, 0.9, 0.25]),
        np.array([0.1, 0.3, 0.5]),
        np.array([0.15, 0.45, 0.3]),
        np.array([12, 3, 20]),
        longest_run=np.array([40, 15, 0]),
        kind=np.array([VERBATIM, VERBATIM | PARAPHRASED, TRANSLATED]),
        meaning_ab=np.array([0.0, 0.2, 0.35]),
        meaning_ba=np.array([0.0, 0.1, 0.6]),
    )
    return model


def test_the_kind_of_each_pair_is_named_and_sorts(filled_model):
    texts = [filled_model.index(r, COL_KIND).data() for r in range(3)]
    assert texts == ["verbatim", "verbatim, paraphrased too", "translated"]
    # a pair found by meaning only shows its shares by meaning as A in B, B in A
    assert filled_model.index(2, COL_CONTAINMENT_AB).data() == "35 %"
    assert filled_model.index(2, COL_CONTAINMENT_BA).data() == "60 %"
    assert filled_model.index(1, COL_CONTAINMENT_AB).data() == "90 %"  # verbatim
    assert "20% of A's own text" in filled_model.index(1, COL_KIND).data(
        Qt.ItemDataRole.ToolTipRole
    )
    assert filled_model.index(0, COL_KIND).data(Qt.ItemDataRole.ToolTipRole) is None
    filled_model.sort(COL_KIND, Qt.SortOrder.DescendingOrder)
    assert filled_model.index(0, COL_KIND).data() == "translated"
    filled_model.sort(COL_CONTAINMENT_AB, Qt.SortOrder.DescendingOrder)
    assert [filled_model.index(r, COL_CONTAINMENT_AB).data() for r in range(3)] == [
        "90 %",
        "40 %",
        "35 %",
    ]


def test_model_passes_qtmodeltester(qtmodeltester, filled_model):
    assert filled_model.rowCount() == 3
    assert filled_model.columnCount() == 11
    qtmodeltester.check(filled_model, force_py=True)


def test_empty_model_and_proxy_pass_qtmodeltester(qtmodeltester, filled_model):
    qtmodeltester.check(PartialModel(), force_py=True)
    proxy = PartialProxy()
    proxy.setSourceModel(filled_model)
    qtmodeltester.check(proxy, force_py=True)


def test_model_texts_and_numeric_sort(filled_model):
    index = filled_model.index(0, COL_NAME_A)
    assert filled_model.data(index) == "a.txt"
    assert filled_model.data(filled_model.index(0, COL_NAME_B)) == "b.txt"
    assert filled_model.data(filled_model.index(0, COL_CONTAINMENT_AB)) == "40 %"
    assert filled_model.data(filled_model.index(0, COL_DISTANCE)) == "12"
    assert filled_model.data(filled_model.index(2, COL_DISTANCE), SortRole) == 20
    assert filled_model.data(filled_model.index(1, 0), PairRole) == (0, 2)
    proxy = PartialProxy()
    proxy.setSourceModel(filled_model)
    proxy.sort(COL_DISTANCE)
    assert [proxy.data(proxy.index(r, COL_DISTANCE)) for r in range(3)] == ["3", "12", "20"]
    proxy.sort(COL_CONTAINMENT_AB)
    assert [proxy.data(proxy.index(r, 0), PairRole) for r in range(3)] == [(1, 2), (0, 1), (0, 2)]
    proxy.sort(COL_RUN, Qt.SortOrder.DescendingOrder)
    assert [proxy.data(proxy.index(r, COL_RUN)) for r in range(3)] == ["40", "15", "0"]


def test_scan_lists_planted_partial_copy_and_selection_shows_pair(
    qtbot, window, tmp_path, monkeypatch
):
    path_a, path_b = write_partial_copy(tmp_path / "essays")
    window.folders.add_paths([str(tmp_path / "essays")])
    scan_and_wait(qtbot, window)

    model, proxy = window.partial_panel.model, window.partial_panel.proxy
    assert model.rowCount() == 1
    assert window.tabs.count() == 6  # clusters, problems, partial, common text, documents, overview
    assert window.tabs.tabText(2) == "Partial copies (1)"

    documents = window.result.documents
    a, b = proxy.data(proxy.index(0, 0), PairRole)
    names = {documents[a].path: a, documents[b].path: b}
    doc_a, doc_b = names[str(path_a)], names[str(path_b)]
    # The copy is A; the column A→B holds the share of A found in B whichever side it is on.
    a_in_b = COL_CONTAINMENT_AB if doc_a == a else COL_CONTAINMENT_AB + 1
    share = proxy.data(proxy.index(0, a_in_b), SortRole)
    assert 0.30 <= share <= 0.45, share
    b_in_a = proxy.data(proxy.index(0, 2 * COL_CONTAINMENT_AB + 1 - a_in_b), SortRole)
    assert 0.0 < b_in_a < 1.0  # B's three copied paragraphs are a share of B too

    calls = []
    original = window.diff_view.set_pair
    monkeypatch.setattr(
        window.diff_view,
        "set_pair",
        lambda left, right, evidence, rarity, **options: (
            calls.append((left, right, evidence)),
            original(left, right, evidence, rarity, **options),
        ),
    )
    window.partial_panel.view.selectionModel().select(
        proxy.index(0, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    assert len(calls) == 1
    left, right, evidence = calls[0]
    assert {left.path, right.path} == {str(path_a), str(path_b)}
    fps = window.result.fingerprints
    assert evidence.distance == int(np.bitwise_count(fps[doc_a] ^ fps[doc_b]))
    left_in_right = share if left.path == str(path_a) else b_in_a
    assert evidence.containment_ab == pytest.approx(left_in_right)  # as the Partial tab shows
    assert evidence.shared_passages >= 1 and evidence.longest_passage > 0
    assert proxy.data(proxy.index(0, COL_DISTANCE)) == str(evidence.distance)
    assert proxy.data(proxy.index(0, COL_RUN)) == str(evidence.longest_run)
    assert evidence.longest_run >= 15  # copied paragraphs: a long verbatim run


def test_new_pairs_keep_the_chosen_sort_order(filled_model):
    proxy = PartialProxy()
    proxy.setSourceModel(filled_model)
    proxy.sort(COL_CONTAINMENT_AB, Qt.SortOrder.DescendingOrder)
    docs = tuple(_record(f"/data/{name}.txt") for name in ("a", "b", "c", "d"))
    filled_model.set_pairs(
        docs,
        np.array([0, 1, 2]),
        np.array([3, 3, 3]),
        np.array([0.2, 0.7, 0.5]),
        np.zeros(3),
        np.zeros(3),
        np.array([1, 2, 3]),
    )
    shown = [proxy.data(proxy.index(r, 0), PairRole) for r in range(3)]
    assert shown == [(1, 3), (2, 3), (0, 3)]


def test_sorting_by_name_and_folder_follows_the_file_names():
    model = PartialModel()
    docs = tuple(_record(path) for path in ("/z/Beta.txt", "/a/gamma.txt", "/m/alpha.txt"))
    model.set_pairs(
        docs, np.array([0, 1, 0]), np.array([2, 2, 1]), *np.zeros((3, 3)), np.zeros(3, int)
    )
    proxy = PartialProxy()
    proxy.setSourceModel(model)
    names = lambda column: [proxy.data(proxy.index(r, column)) for r in range(3)]  # noqa: E731
    proxy.sort(COL_NAME_A)
    assert names(COL_NAME_A) == ["Beta.txt", "Beta.txt", "gamma.txt"]  # case-insensitive
    proxy.sort(COL_NAME_B, Qt.SortOrder.DescendingOrder)
    assert names(COL_NAME_B) == ["gamma.txt", "alpha.txt", "alpha.txt"]
    proxy.sort(COL_NAME_B + 1)  # folder B
    assert [proxy.data(proxy.index(r, COL_NAME_B + 1)) for r in range(3)] == ["/a", "/m", "/m"]


def test_not_a_duplicate_on_a_partial_copy_is_remembered(qtbot, window, tmp_path, catalog):
    path_a, path_b = write_partial_copy(tmp_path / "essays")
    window.folders.add_paths([str(tmp_path / "essays")])
    scan_and_wait(qtbot, window)
    window.tabs.setCurrentWidget(window.partial_panel)
    assert not window.ignore_action.isEnabled()
    window.partial_panel.view.selectRow(0)
    assert window.ignore_action.isEnabled()
    window.ignore_action.trigger()
    assert window.partial_panel.model.rowCount() == 0
    assert window.tabs.tabText(2) == "Partial copies (0)"
    assert frozenset({str(path_a), str(path_b)}) in catalog.ignored_pairs()
    scan_and_wait(qtbot, window)
    assert window.partial_panel.model.rowCount() == 0


def test_whole_copies_already_in_clusters_are_not_listed_again(qtbot, window, tmp_path):
    import shutil

    path_a, path_b = write_partial_copy(tmp_path / "essays")
    shutil.copy(path_b, tmp_path / "essays" / "source_b copy.txt")  # a whole copy: a cluster
    window.folders.add_paths([str(tmp_path / "essays")])
    scan_and_wait(qtbot, window)
    documents = window.result.documents
    whole = {str(path_b), str(tmp_path / "essays" / "source_b copy.txt")}
    assert any(  # the engine still finds the whole copy's shared passages ...
        {documents[a].path, documents[b].path} == whole
        for a, b in zip(
            *(window.result.partial_pairs().left, window.result.partial_pairs().right), strict=True
        )
    )
    listed = [window.partial_panel.proxy.data(window.partial_panel.proxy.index(r, 0), PairRole)
              for r in range(window.partial_panel.proxy.rowCount())]  # fmt: skip
    assert all({documents[a].path, documents[b].path} != whole for a, b in listed)  # ... not here
    assert {str(path_a)} <= {documents[d].path for pair in listed for d in pair}
    assert window.tabs.tabText(2) == f"Partial copies ({len(listed)})"
