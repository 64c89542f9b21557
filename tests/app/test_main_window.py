"""The real main window driven offscreen: scan, re-cluster, cancel, drop, trash, ignore, export."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
import simsift.app.workers.scan
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox
from simsift.core.pipeline.scan import scan as real_scan
from simsift.core.store.verdicts import COPYING, Verdict

from tests.app.conftest import scan_and_wait


def cluster_paths(window) -> set[frozenset[str]]:
    model = window.model
    clusters = model.clusters
    return {
        frozenset(window.result.documents[d].path for d in clusters.doc[clusters.members(c)])
        for c in range(len(clusters))
    }


def test_window_opens_without_heavy_imports():
    """Parsers and jieba load only in scan workers, on demand, so start-up stays fast."""
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication; app = QApplication([])\n"
        "from PySide6.QtCore import QSettings\n"
        "from simsift.app.main_window import MainWindow\n"
        "from simsift.app.settings import Settings\n"
        "w = MainWindow(Settings(QSettings(sys.argv[1], QSettings.Format.IniFormat)))\n"
        "w.show(); app.processEvents()\n"
        "heavy = [m for m in ('jieba', 'pdfminer', 'docx', 'lxml') if m in sys.modules]\n"
        "print(heavy)\n"
        "w.close()\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [sys.executable, "-c", code, os.path.join(tmp, "s.ini")],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        ).stdout
    assert out.strip() == "[]"


def test_scan_from_window_shows_expected_clusters(qtbot, window, corpus):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    expected = {
        frozenset({str(paths["first"]), str(paths["edited"])}),
        frozenset({str(paths["second"]), str(paths["exact"]), str(paths["same_text"])}),
    }
    assert cluster_paths(window) == expected
    assert window.proxy.rowCount() == 2
    assert "2" in window.summary.text()


def test_k_slider_reclusters_without_rescan(qtbot, window, corpus):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    assert window.controller.scans_started == 1
    with qtbot.waitSignal(window.result_shown, timeout=1000):
        window.params.set_k(0)
    assert cluster_paths(window) == {
        frozenset({str(paths["second"]), str(paths["exact"]), str(paths["same_text"])})
    }
    window.params.set_k(3)
    assert len(cluster_paths(window)) == 2
    assert window.controller.scans_started == 1
    assert window.controller.reweights_started == 0


def test_weight_change_reweights_without_reading(qtbot, window, corpus):
    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    documents = window.result.documents
    weights = window.params.weights()
    with qtbot.waitSignal(window.result_shown, timeout=10_000):
        window.params._shingle.setValue(2)
    assert window.controller.scans_started == 1
    assert window.controller.reweights_started == 1
    assert window.result.documents is documents
    assert window.result.options.weights != weights


def test_cancel_stops_scan_and_keeps_read_files(qtbot, window, corpus, catalog, monkeypatch):
    root, _ = corpus

    def slow_scan(options, *, progress, **kwargs):
        def slow(report):
            time.sleep(0.15)  # a file takes a while: enough time to press Cancel mid-scan
            progress(report)

        return real_scan(options, progress=slow, **kwargs)

    monkeypatch.setattr(simsift.app.workers.scan, "scan", slow_scan)
    window.folders.add_paths([str(root)])
    reading = []
    window.controller.progress.connect(
        lambda p: reading.append(p) if p.stage == "reading" and p.done >= 2 else None
    )
    qtbot.mouseClick(window.scan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(reading), timeout=10_000)
    assert window.scan_status.isVisible() or not window.isVisible()
    started = time.monotonic()
    with qtbot.waitSignal(window.controller.cancelled, timeout=2000):
        qtbot.mouseClick(window.scan_status._cancel, Qt.MouseButton.LeftButton)
    assert time.monotonic() - started < 5.0  # stops mid-scan, not after the last file
    assert window.result is None
    assert not window.controller.busy
    assert window.scan_button.isEnabled()
    assert catalog.records_under([str(root)])  # what was read is kept for the next scan


def test_drop_of_folder_urls_adds_folders(qtbot, window, tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(first)), QUrl.fromLocalFile(str(second))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.folders.dropEvent(event)
    assert window.folders.folders() == [str(first), str(second)]
    assert event.isAccepted()
    assert window.scan_button.isEnabled()


def test_reference_folder_is_passed_to_scan(window, tmp_path):
    window.folders.add_paths([str(tmp_path)], reference=True)
    assert window.scan_options().reference_roots == (str(tmp_path),)
    assert window.scan_options().roots == ()


@pytest.mark.parametrize(
    "answer", [QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Yes]
)
def test_trash_asks_first_and_moves_only_checked(qtbot, window, corpus, monkeypatch, answer):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    asked = []

    def fake_confirm(paths):
        asked.append(paths)
        return answer == QMessageBox.StandardButton.Yes

    monkeypatch.setattr(window, "confirm_trash", fake_confirm)
    window.model.check_all_but_original()
    checked = {window.result.documents[d].path for d in window.model.checked_documents()}
    assert len(checked) == 3
    window.trash_action.trigger()
    wait_for_files(qtbot, window)
    assert asked and set(asked[0]) == checked  # the user sees exactly what goes
    all_files = {str(p) for p in paths.values()}
    if answer == QMessageBox.StandardButton.Cancel:
        assert all(p.exists() for p in map(__import__("pathlib").Path, all_files))
        return
    remaining = {str(p) for p in root.rglob("*") if p.is_file()}
    assert remaining == all_files - checked  # the checked files, and only those, are gone
    trash = list((window.settings_dir / "xdg-data" / "Trash" / "files").iterdir())
    assert len(trash) == 3
    assert window.model.rowCount() == 0  # every cluster lost all but its reference


def test_not_a_duplicate_is_remembered(qtbot, window, corpus, catalog):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    edited = next(
        i for i, d in enumerate(window.result.documents) if d.path == str(paths["edited"])
    )
    window.select_documents([edited])
    assert window.ignore_action.isEnabled()
    window.ignore_action.trigger()
    assert frozenset({str(paths["first"]), str(paths["edited"])}) in catalog.ignored_pairs()
    assert len(cluster_paths(window)) == 1
    scan_and_wait(qtbot, window)  # a new scan remembers it
    assert len(cluster_paths(window)) == 1


def test_export_html_and_csv(qtbot, window, corpus, tmp_path, monkeypatch):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    out = tmp_path / "report.html"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path / "csv"))
    window.export_html_action.trigger()
    wait_for_files(qtbot, window)
    assert str(paths["edited"]) in out.read_text("utf-8")
    window.export_csv_action.trigger()
    wait_for_files(qtbot, window)
    assert (tmp_path / "csv" / "clusters.csv").exists()


def test_html_report_records_the_decisions_made_in_the_window(
    qtbot, window, corpus, tmp_path, monkeypatch
):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    edited = next(
        i for i, d in enumerate(window.result.documents) if d.path == str(paths["edited"])
    )
    window.select_documents([edited])
    window.ignore_action.trigger()  # "Not a duplicate": the pair leaves every table
    window.editor.set_verdict((str(paths["exact"]),), Verdict(COPYING, "same bytes as another"))
    out = tmp_path / "report.html"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    window.export_html_action.trigger()
    wait_for_files(qtbot, window)
    decisions = out.read_text("utf-8").split('<h2 id="decisions">')[1].split("<h2 ")[0]
    assert "Not a duplicate” (1)" in decisions
    assert str(paths["first"]) in decisions and str(paths["edited"]) in decisions
    assert "same bytes as another" in decisions and "copying confirmed" in decisions


def test_selection_feeds_the_side_by_side_view(qtbot, window, corpus):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    calls = []
    window.diff_view.set_pair = lambda a, b, e, r, **_: calls.append((a.path, b.path, e.distance))
    window.diff_view.clear = lambda: calls.append(None)
    docs = {d.path: i for i, d in enumerate(window.result.documents)}
    window.select_documents([docs[str(paths["edited"])]])
    assert calls[-1][:2] == (str(paths["first"]), str(paths["edited"]))
    window.select_documents([docs[str(paths["exact"])], docs[str(paths["same_text"])]])
    assert calls[-1][:2] == (str(paths["exact"]), str(paths["same_text"]))
    assert calls[-1][2] == 0


def test_settings_persist(qtbot, window, settings, tmp_path):
    window.folders.add_paths([str(tmp_path)])
    window.params.set_k(5)
    window.save_settings()
    assert settings.folders == [str(tmp_path)]
    assert settings.k == 5


def test_app_entry_point_starts_and_quits_cleanly(tmp_path):
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "simsift.app", "--quit-after", "300"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


def test_exports_leave_out_files_moved_to_the_trash(qtbot, window, corpus, tmp_path, monkeypatch):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    edited = next(
        i for i, d in enumerate(window.result.documents) if d.path == str(paths["edited"])
    )
    window.model.set_checked({edited})
    monkeypatch.setattr(window, "confirm_trash", lambda paths: True)
    window.trash_action.trigger()
    wait_for_files(qtbot, window)
    assert not paths["edited"].exists()
    out = tmp_path / "out"
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(out))
    window.export_csv_action.trigger()
    wait_for_files(qtbot, window)
    written = (out / "pairs.csv").read_text(encoding="utf-8") + (out / "clusters.csv").read_text(
        encoding="utf-8"
    )
    assert str(paths["second"]) in written
    assert str(paths["edited"]) not in written


def slow_passages(monkeypatch, reports: list):
    """Passage matching that takes a while per progress step, so Cancel lands mid-stage."""
    import simsift.core.pipeline.scan

    real = simsift.core.pipeline.scan.find_passages

    def slow(documents, is_reference, options, progress, cancel=None, **kwargs):
        def report(p):
            reports.append(p)
            time.sleep(0.3)
            progress(p)

        return real(documents, is_reference, options, report, cancel, **kwargs)

    monkeypatch.setattr(simsift.core.pipeline.scan, "find_passages", slow)


def cancel_when_passages_start(qtbot, window, reports: list) -> None:
    qtbot.waitUntil(lambda: any(r.stage == "passages" for r in reports), timeout=20_000)
    started = time.monotonic()
    with qtbot.waitSignal(window.controller.cancelled, timeout=3000):
        qtbot.mouseClick(window.scan_status._cancel, Qt.MouseButton.LeftButton)
    assert time.monotonic() - started < 1.5  # within a step, not after the whole stage
    assert not window.controller.busy


def test_cancel_stops_a_scan_while_comparing(qtbot, window, corpus, monkeypatch):
    root, _ = corpus
    reports = []
    slow_passages(monkeypatch, reports)
    window.folders.add_paths([str(root)])
    qtbot.mouseClick(window.scan_button, Qt.MouseButton.LeftButton)
    cancel_when_passages_start(qtbot, window, reports)
    assert not window.result.complete  # its clusters, found before passages, stay


def test_cancel_stops_a_reweight_and_keeps_the_last_result(qtbot, window, corpus, monkeypatch):
    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    shown = window.result
    reports = []
    slow_passages(monkeypatch, reports)
    window.params._stopwords.toggle()  # passages are made without stopwords: matched again
    cancel_when_passages_start(qtbot, window, reports)
    assert window.controller.reweights_started == 1
    assert window.result is shown


def test_common_text_tab_lists_shared_boilerplate_with_its_document_count(qtbot, window, tmp_path):
    from tests.core.test_passages import english_paragraphs

    english = english_paragraphs()
    site = tmp_path / "site"
    site.mkdir()
    for i in range(8):
        (site / f"page{i}.txt").write_text(
            "\n\n".join([*english[6 * i : 6 * i + 5], english[140]]), encoding="utf-8"
        )
    window.folders.add_paths([str(site)])
    scan_and_wait(qtbot, window)
    model = window.common_panel.model
    assert model.rowCount() >= 1
    assert model.index(0, 1).data() == "8"
    assert model.index(0, 2).data() == "8"  # times it stands in them
    assert model.index(0, 0).data()[:30] == english[140][:30]
    assert window.tabs.tabText(3).endswith(f"({model.rowCount()})")
    assert window.partial_panel.model.rowCount() == 0


def test_common_text_threshold_rematches_passages_without_reading(qtbot, window, tmp_path):
    from tests.core.test_passages import english_paragraphs

    english = english_paragraphs()
    site = tmp_path / "site"
    site.mkdir()
    for i in range(48):  # a footer in 8 of 48 pages: under the 20% share rule
        footer = [english[140]] if i < 8 else []
        (site / f"page{i}.txt").write_text(
            "\n\n".join([*english[150 + 5 * i : 155 + 5 * i], *footer]), encoding="utf-8"
        )
    window.params.set_common_docs(7)
    window.folders.add_paths([str(site)])
    scan_and_wait(qtbot, window)
    assert window.common_panel.model.rowCount() >= 1
    documents = window.result.documents
    with qtbot.waitSignal(window.result_shown, timeout=10_000):
        window.params._common_docs.setValue(50)
    assert window.controller.scans_started == 1
    assert window.result.documents is documents
    assert window.result.options.passages.common_max_docs == 50
    assert window.common_panel.model.rowCount() == 0  # the footer in 8 pages is now copying
    pairs = window.result.partial_pairs(0.05)
    names = [os.path.basename(d.path) for d in window.result.documents]
    found = {frozenset((names[a], names[b])) for a, b in zip(pairs.left, pairs.right, strict=True)}
    with_footer = [f"page{i}.txt" for i in range(8)]
    assert found >= {frozenset((a, b)) for a in with_footer for b in with_footer if a != b}
    window.save_settings()
    assert window.settings.common_docs == 50


def test_trash_confirmation_lists_every_file(qtbot, window, monkeypatch):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    paths = [f"/essays/copy {i}.txt" for i in range(25)]
    seen = {}

    def answer_cancel():
        box = QApplication.activeModalWidget()
        seen["text"], seen["details"] = box.text(), box.detailedText()
        box.reject()

    QTimer.singleShot(0, answer_cancel)
    assert window.confirm_trash(paths) is False
    assert "Move 25 checked files to the trash?" in seen["text"]
    assert "/essays/copy 0.txt" in seen["text"] and "… and 15 more" in seen["text"]
    assert seen["details"].splitlines() == paths


def test_mark_all_leaves_reference_and_far_members_unmarked(qtbot, window, corpus):
    from simsift.app.models.clusters import COL_NAME
    from simsift.core.analysis.cluster import KIND_ORIGINAL

    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    c = window.model.clusters
    window.mark_all_but_original()
    marked = set(window.model.checked_documents())
    near = {int(d) for d, kd, dist in zip(c.doc, c.kind, c.distance, strict=True)
            if kd != KIND_ORIGINAL and dist <= c.k}  # fmt: skip
    assert marked == near
    reference = next(int(d) for d, kd in zip(c.doc, c.kind, strict=True) if kd == KIND_ORIGINAL)
    window.model.set_checked({reference})
    assert window.model.checked_documents() == []  # the copy to keep cannot be marked
    window.tree.expandAll()
    index = window.clusters_panel.proxy_index_of(reference).siblingAtColumn(COL_NAME)
    assert not index.flags() & Qt.ItemFlag.ItemIsUserCheckable


def test_shutdown_waits_for_the_cancelled_scan(qtbot, window, corpus, monkeypatch):
    root, _ = corpus
    stopped = []

    running = threading.Event()

    def slow_scan(options, *, progress, cancel, **kwargs):
        running.set()
        try:
            while not cancel.cancelled:
                time.sleep(0.05)
            time.sleep(5.5)  # a job slow to stop: the old 5 s limit returned before it ended
            cancel.check()
        finally:
            stopped.append(time.monotonic())

    monkeypatch.setattr(simsift.app.workers.scan, "scan", slow_scan)
    window.folders.add_paths([str(root)])
    with qtbot.waitSignal(window.controller.started, timeout=5000):
        window.start_scan()
    qtbot.waitUntil(running.is_set, timeout=5000)  # the job is inside the scan
    began = time.monotonic()
    window.controller.shutdown()
    assert stopped and stopped[0] >= began  # the job had ended when shutdown returned
    assert window.controller._pool.activeThreadCount() == 0


def test_undo_puts_trashed_files_back_and_in_the_results(qtbot, window, corpus, monkeypatch):
    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    before = {frozenset(c) for c in cluster_paths(window)}
    window.mark_all_but_original()
    checked = {window.result.documents[d].path for d in window.model.checked_documents()}
    contents = {p: Path(p).read_bytes() for p in checked}
    among = f"among {len(window.result.documents)} documents"
    assert among in window.summary.text()
    monkeypatch.setattr(window, "confirm_trash", lambda paths: True)
    window.trash_action.trigger()
    wait_for_files(qtbot, window)
    assert not any(os.path.exists(p) for p in checked)
    left = len(window.result.documents) - len(checked)
    assert f"among {left} documents" in window.summary.text()  # the trashed ones are gone
    assert window.undo_action.isEnabled()
    window.undo_action.trigger()
    wait_for_files(qtbot, window)
    assert {p: Path(p).read_bytes() for p in checked} == contents  # the same files, back
    assert among in window.summary.text()
    from urllib.parse import quote

    from simsift.app.trash import _home_trash  # fixed when send2trash is first imported

    infos = " ".join(i.read_text() for i in (_home_trash() / "info").iterdir())
    assert not any(quote(p) in infos for p in checked)  # their trash entries are gone
    assert {frozenset(c) for c in cluster_paths(window)} == before
    assert not window.undo_action.isEnabled()


def test_undo_leaves_a_file_alone_if_a_new_one_took_its_place(qtbot, window, corpus, monkeypatch):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    doc = [d.path for d in window.result.documents].index(str(paths["edited"]))
    window.model.set_checked({doc})
    monkeypatch.setattr(window, "confirm_trash", lambda paths: True)
    window.trash_action.trigger()
    wait_for_files(qtbot, window)
    paths["edited"].write_text("a new essay written since")
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warned.append(a[2]))
    window.undo_action.trigger()
    wait_for_files(qtbot, window)
    assert paths["edited"].read_text() == "a new essay written since"
    assert "a file of that name exists there again" in warned[0]
    assert doc not in set(window.model.clusters.doc.tolist())  # still out of the results


def wait_for_files(qtbot, window) -> None:
    """File work (trash, exports) runs on a pool thread: wait until it has ended."""
    qtbot.waitUntil(lambda: not window.editor.busy, timeout=20_000)


def test_not_a_duplicate_can_be_undone(qtbot, window, corpus, catalog):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    before = {frozenset(c) for c in cluster_paths(window)}
    edited = [d.path for d in window.result.documents].index(str(paths["edited"]))
    window.select_documents([edited])
    window.ignore_action.trigger()
    pair = frozenset({str(paths["first"]), str(paths["edited"])})
    assert pair in catalog.ignored_pairs()
    assert window.undo_action.isEnabled() and window.undo_action.text() == "Undo not a duplicate"
    window.undo_action.trigger()
    assert pair not in catalog.ignored_pairs()  # the next scan shows it again too
    assert {frozenset(c) for c in cluster_paths(window)} == before
    assert not window.undo_action.isEnabled() and window.undo_action.text() == "Undo"


def test_undo_takes_back_the_last_action_first(qtbot, window, corpus, catalog, monkeypatch):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    docs = [d.path for d in window.result.documents]
    window.select_documents([docs.index(str(paths["edited"]))])
    window.ignore_action.trigger()
    window.model.set_checked({docs.index(str(paths["exact"]))})
    monkeypatch.setattr(window, "confirm_trash", lambda paths: True)
    window.trash_action.trigger()
    wait_for_files(qtbot, window)
    assert window.undo_action.text() == "Undo move to trash"
    window.undo_action.trigger()
    wait_for_files(qtbot, window)
    assert paths["exact"].exists()
    assert window.undo_action.text() == "Undo not a duplicate"  # then the dismissed pair


def test_moving_to_the_trash_reports_progress_off_the_gui_thread(
    qtbot, window, corpus, monkeypatch
):

    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    window.mark_all_but_original()
    checked = len(window.model.checked_documents())
    monkeypatch.setattr(window, "confirm_trash", lambda paths: True)
    threads, reports = [], []
    import send2trash

    real = send2trash.send2trash

    def record_thread(path):
        threads.append(threading.current_thread())
        return real(path)

    monkeypatch.setattr(send2trash, "send2trash", record_thread)
    window.editor.progress.connect(lambda done, total: reports.append((done, total)))
    window.trash_action.trigger()
    assert not window.export_csv_action.isEnabled()  # no export while files move
    wait_for_files(qtbot, window)
    assert len(threads) == checked and threading.main_thread() not in threads
    assert reports[0] == (0, checked) and reports[-1] == (checked - 1, checked)
    assert window.export_csv_action.isEnabled()


def test_a_failed_export_says_why(qtbot, window, corpus, tmp_path, monkeypatch):
    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(blocker))
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warned.append(a[1:]))
    window.export_csv_action.trigger()
    wait_for_files(qtbot, window)
    assert warned and warned[0][0] == "Export failed" and "a file" in warned[0][1]
    assert blocker.read_text() == "not a folder"


def test_the_summary_says_when_the_folder_list_changed_since_the_scan(
    qtbot, window, corpus, tmp_path
):
    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    assert "folder list changed" not in window.summary.text()
    other = tmp_path / "other"
    other.mkdir()
    window.folders.add_paths([str(other)])
    assert window.summary.text().startswith("The folder list changed since this scan")
    scan_and_wait(qtbot, window)
    assert "folder list changed" not in window.summary.text()


def test_last_results_reopen_at_start_without_reading_a_file(qtbot, window, corpus, monkeypatch):
    import simsift.core.pipeline.stages

    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    first = window.result
    window.editor.result = None  # as a new window: nothing shown yet
    read = []
    real = simsift.core.pipeline.stages.read_file
    monkeypatch.setattr(
        simsift.core.pipeline.stages, "read_file", lambda task: read.append(task) or real(task)
    )
    with qtbot.waitSignal(window.result_shown, timeout=30_000):
        window.reopen_last_results()
    assert read == []  # taken from the catalog
    assert [d.path for d in window.result.documents] == [d.path for d in first.documents]


def test_after_a_weight_change_the_status_line_says_what_happened(qtbot, window, corpus):
    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    weights = window.params.weights()
    with qtbot.waitSignal(window.result_shown, timeout=30_000):
        window.apply_weights(replace(weights, title_boost=weights.title_boost + 1.0))
    qtbot.waitUntil(lambda: "Re-weighted" in window.statusBar().currentMessage(), timeout=30_000)


def test_make_original_changes_the_copy_to_keep(qtbot, window, corpus):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    docs = [d.path for d in window.result.documents]
    edited = docs.index(str(paths["edited"]))
    first = docs.index(str(paths["first"]))
    assert window.model.original_of(edited) == first
    window.select_documents([edited])
    assert window.original_action.isEnabled()
    window.original_action.trigger()
    assert window.model.original_of(first) == edited  # now the copy to keep
    window.model.check_all_but_original()
    assert edited not in window.model.checked_documents()
    assert first in window.model.checked_documents()
    window.select_documents([edited])
    assert not window.original_action.isEnabled()  # it is the original already


def test_rows_are_tall_enough_for_chinese_names_with_underscores(qtbot, window, tmp_path):
    from PySide6.QtGui import QFontDatabase
    from simsift.app.row_height import text_line_height

    if not any("CJK" in family for family in QFontDatabase.families()):
        pytest.skip("no CJK font installed: Chinese falls back to boxes of the Latin height")
    text = "这是一个关于相似文档检测的例子。" * 30
    (tmp_path / "学生_论文_一.txt").write_text(text, encoding="utf-8")
    (tmp_path / "学生_论文_二.txt").write_text(text + "改动", encoding="utf-8")
    window.folders.add_paths([str(tmp_path)])
    scan_and_wait(qtbot, window)
    needed = text_line_height(window.tree.font())
    member = window.proxy.index(0, 0, window.proxy.index(0, 0))
    assert window.tree.rowHeight(member) >= needed  # the underscores are not clipped
    assert window.documents_panel.table.verticalHeader().defaultSectionSize() >= needed


def test_ctrl_z_in_a_filter_box_undoes_the_trash_whenever_typed(qtbot, window, corpus, monkeypatch):
    """Ctrl+Z undoes the last file action wherever the focus is, even in a filter box
    typed in before or after it (README); with no file action left, the typing."""
    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    window.tabs.setCurrentWidget(window.documents_panel)
    box = window.documents_panel.filter
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    qtbot.keyClicks(box, "xyz")
    qtbot.keyClick(box, Qt.Key.Key_Backspace, delay=0)
    qtbot.keyClick(box, Qt.Key.Key_Backspace)
    qtbot.keyClick(box, Qt.Key.Key_Backspace)
    assert box.isUndoAvailable()
    window.mark_all_but_original()
    checked = {window.result.documents[d].path for d in window.model.checked_documents()}
    monkeypatch.setattr(window, "confirm_trash", lambda paths: True)
    window.trash_action.trigger()
    wait_for_files(qtbot, window)
    assert not any(os.path.exists(p) for p in checked)
    assert box.hasFocus()

    qtbot.keyClick(box, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_for_files(qtbot, window)
    assert all(os.path.exists(p) for p in checked)  # the files are back
    assert box.text() == ""  # and the earlier typing was left alone

    window.mark_all_but_original()
    window.trash_action.trigger()
    wait_for_files(qtbot, window)
    qtbot.keyClicks(box, "essay")  # looking for another document after the trash
    qtbot.keyClick(box, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_for_files(qtbot, window)
    assert all(os.path.exists(p) for p in checked)
    assert box.text() == "essay"
    assert not window.undo_action.isEnabled()
    qtbot.keyClick(box, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert box.text() == ""  # nothing left to put back: the box undoes its own typing


def test_ctrl_z_in_a_spin_box_with_nothing_typed_undoes_not_a_duplicate(
    qtbot, window, corpus, catalog
):
    root, paths = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    window.tree.expandAll()
    doc = [d.path for d in window.result.documents].index(str(paths["edited"]))
    window.select_documents([doc])
    window.ignore_action.trigger()
    assert window.undo_action.text() == "Undo not a duplicate"
    spin = window.params._shingle
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.undo_action.text() == "Undo"  # the pair is back
