"""A recompute (a weight, k, a copying rule) keeps what the user had selected and the
side-by-side pane open on the same two documents, while they are in the new result."""

from __future__ import annotations

import pytest

from tests.app.conftest import scan_and_wait


@pytest.fixture
def scanned(qtbot, window, corpus):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    window.show()
    qtbot.waitExposed(window)
    return window, {key: str(path) for key, path in paths.items()}


def number(window, path: str) -> int:
    return [d.path for d in window.result.documents].index(path)


def selected_paths(window) -> list[str]:
    return [window.result.documents[d].path for d in window.selected_documents()]


def recompute(qtbot, window, change) -> None:
    """Make `change` to the parameters and wait until its new result is shown."""
    with qtbot.waitSignal(window.result_shown, timeout=30_000):
        change()
    qtbot.waitUntil(lambda: not window.controller.busy)


def test_a_new_weight_keeps_the_cluster_selection_and_the_pane(qtbot, scanned):
    window, paths = scanned
    window.select_documents([number(window, paths["edited"])])
    assert window.side_by_side == (paths["first"], paths["edited"])
    before = window.result
    recompute(qtbot, window, lambda: window.params._title_boost.setValue(3.0))
    assert window.result is not before
    assert window.result.options.weights.title_boost == 3.0
    assert selected_paths(window) == [paths["edited"]]
    assert not window.diff_view.isHidden()
    assert window.side_by_side == (paths["first"], paths["edited"])
    qtbot.waitUntil(lambda: window.diff_view.alignment is not None)  # aligned again


def test_another_k_keeps_the_cluster_selection_and_the_pane(qtbot, scanned):
    window, paths = scanned
    window.select_documents([number(window, paths["exact"])])
    pair = window.side_by_side
    assert pair is not None and paths["exact"] in pair
    recompute(qtbot, window, lambda: window.params.set_k(0))  # the exact copy still pairs
    assert selected_paths(window) == [paths["exact"]]
    assert not window.diff_view.isHidden()
    assert window.side_by_side == pair


def test_a_copying_rule_keeps_the_partial_pair_and_the_document(qtbot, scanned):
    window, paths = scanned
    recompute(qtbot, window, lambda: window.params.set_k(0))  # the edited copy: partial
    partial = window.partial_panel
    window.tabs.setCurrentWidget(partial)
    wanted = {paths["first"], paths["edited"]}
    rows = [
        row
        for row in range(partial.proxy.rowCount())
        if {window.result.documents[d].path for d in partial.model.pair(row)} == wanted
    ]
    assert rows, "the lightly edited copy is a partial copy beyond k = 0"
    partial.view.selectRow(partial.proxy.mapFromSource(partial.model.index(rows[0], 0)).row())
    assert set(window.side_by_side) == wanted
    window.documents_panel.select_document(number(window, paths["second"]))

    shortest = window.params.shortest_match()
    recompute(qtbot, window, lambda: window.params._shortest.setValue(shortest + 1))
    assert window.result.options.passages.partial_min_run == shortest + 1
    pair = partial.selected_pair()
    assert pair is not None and {window.result.documents[d].path for d in pair} == wanted
    assert set(window.side_by_side) == wanted
    assert not window.diff_view.isHidden()
    doc = window.documents_panel.selected_document
    assert doc is not None and window.result.documents[doc].path == paths["second"]


def test_the_pane_closes_when_a_document_of_its_pair_is_gone(qtbot, scanned, monkeypatch):
    window, paths = scanned
    window.select_documents([number(window, paths["edited"])])
    window.model.set_checked({number(window, paths["edited"])})
    monkeypatch.setattr(window, "confirm_trash", lambda paths: True)
    with qtbot.waitSignal(window.result_shown, timeout=20_000):
        window.trash_action.trigger()
    qtbot.waitUntil(lambda: not window.editor.busy)
    assert window.side_by_side is None
    assert window.diff_view.isHidden()
