"""A scan shows its clusters as soon as fingerprints are compared, while partial copying
is still matched: they can be used at once, and nothing done to them is lost when the
complete result comes, nor when the user cancels before it does."""

from __future__ import annotations

import threading

import pytest
import simsift.core.pipeline.scan
from PySide6.QtCore import Qt
from simsift.core.store.verdicts import COPYING, Verdict

from tests.app.test_verdicts import answer


class HeldPassages:
    """Passage matching that waits, before it starts, until the test releases it (or the
    scan is cancelled)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def wrap(self, real):
        def held(documents, is_reference, options, progress, cancel=None, **kwargs):
            self.started.set()
            while not self.release.wait(0.05):  # a wait on the test, with Cancel honoured
                cancel.check()
            return real(documents, is_reference, options, progress, cancel, **kwargs)

        return held


@pytest.fixture
def held(monkeypatch) -> HeldPassages:
    holder = HeldPassages()
    real = simsift.core.pipeline.scan.find_passages
    monkeypatch.setattr(simsift.core.pipeline.scan, "find_passages", holder.wrap(real))
    yield holder
    holder.release.set()  # never leave the scan's thread waiting


def scan_until_clusters(qtbot, window, corpus) -> dict[str, str]:
    """Start a scan of the corpus and wait until its clusters are shown, with partial
    copying held; returns the corpus' paths."""
    root, paths = corpus
    window.folders.add_paths([str(root)])
    window.params.set_k(3)
    with qtbot.waitSignal(window.controller.clusters_found, timeout=30_000):
        qtbot.mouseClick(window.scan_button, Qt.MouseButton.LeftButton)
    return {key: str(path) for key, path in paths.items()}


def number(window, path: str) -> int:
    return [d.path for d in window.result.documents].index(path)


def cluster_paths(window) -> set[frozenset[str]]:
    clusters, documents = window.model.clusters, window.result.documents
    return {
        frozenset(documents[d].path for d in clusters.doc[clusters.members(c)])
        for c in range(len(clusters))
    }


def finish(qtbot, window, held: HeldPassages) -> None:
    with qtbot.waitSignal(window.controller.finished, timeout=30_000):
        held.release.set()


def test_clusters_are_usable_while_partial_copying_runs(qtbot, window, corpus, held):
    paths = scan_until_clusters(qtbot, window, corpus)
    assert window.controller.busy and held.started.is_set() and not held.release.is_set()
    assert window.tabs.currentWidget() is window.clusters_panel  # the editor's tab
    assert frozenset({paths["first"], paths["edited"]}) in cluster_paths(window)
    assert window.tree.model().rowCount() > 0
    window.select_documents([number(window, paths["edited"])])
    assert window.side_by_side == (paths["first"], paths["edited"])
    assert not window.diff_view.isHidden()
    # the tabs filled from partial copying say so, and hold nothing yet
    for panel in (window.documents_panel, window.partial_panel):
        assert "still being matched" in window.pending.note_text(panel)
        assert window.tabs.tabText(window.tabs.indexOf(panel)).endswith("(…)")
    assert window.documents_panel.model.rowCount() == 0
    assert "Partial copying is still being matched" in window.summary.text()
    assert window.scan_status.isVisibleTo(window)  # its progress goes on in the status bar
    assert not window.export_csv_action.isEnabled()

    finish(qtbot, window, held)
    assert window.result.complete
    assert not window.pending.covers(window.documents_panel)
    assert window.documents_panel.model.rowCount() > 0
    assert "still being matched" not in window.summary.text()
    assert window.export_csv_action.isEnabled()


def test_what_the_user_did_to_the_early_clusters_is_kept(
    qtbot, window, corpus, held, catalog, monkeypatch
):
    paths = scan_until_clusters(qtbot, window, corpus)
    window.params.set_k(2)  # the slider moves, the clusters follow
    assert window.model.clusters.k == 2
    window.select_documents([number(window, paths["edited"])])
    answer(monkeypatch, Verdict(COPYING, "marked early"))
    window.verdict_action.trigger()
    exact = number(window, paths["exact"])
    index = window.clusters_panel.proxy_index_of(exact)
    window.proxy.setData(index, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert window.model.checked_documents() == [exact]

    finish(qtbot, window, held)
    assert window.result.complete
    assert window.model.clusters.k == 2 and window.params.k() == 2
    assert [window.result.documents[d].path for d in window.selected_documents()] == [
        paths["edited"]
    ]
    assert window.side_by_side == (paths["first"], paths["edited"])
    assert window.model.checked_documents() == [exact]
    verdict = window.editor.verdicts.of_pair(paths["first"], paths["edited"])
    assert verdict is not None and verdict.note == "marked early"
    assert catalog.verdicts().of_pair(paths["first"], paths["edited"]).verdict == COPYING


def test_cancel_during_partial_copying_keeps_the_clusters(qtbot, window, corpus, held):
    paths = scan_until_clusters(qtbot, window, corpus)
    shown = cluster_paths(window)
    with qtbot.waitSignal(window.controller.cancelled, timeout=5000):
        qtbot.mouseClick(window.scan_status._cancel, Qt.MouseButton.LeftButton)
    assert not window.controller.busy
    assert window.result is not None and not window.result.complete
    assert cluster_paths(window) == shown
    assert frozenset({paths["first"], paths["edited"]}) in shown
    assert "not finished" in window.pending.note_text(window.partial_panel)
    assert "Partial copying was not finished" in window.summary.text()
    assert "partial copying was not finished" in window.statusBar().currentMessage()
    assert window.right_stack.currentWidget() is window.right_splitter  # not the welcome page

    held.release.set()  # a rescan finishes it
    with qtbot.waitSignal(window.controller.finished, timeout=30_000):
        qtbot.mouseClick(window.scan_button, Qt.MouseButton.LeftButton)
    assert window.result.complete
    assert not window.pending.covers(window.partial_panel)
