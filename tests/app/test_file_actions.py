"""Reveal in folder: on Linux the file manager is asked over D-Bus to select the file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from simsift.core.analysis.cluster import KIND_ORIGINAL

ROOT = Path(__file__).resolve().parents[2]
FAKE = Path(__file__).parent / "helpers" / "fake_file_manager.py"


@pytest.mark.skipif(
    sys.platform != "linux" or shutil.which("dbus-run-session") is None,
    reason="needs a D-Bus session daemon (Linux desktops have one)",
)
def test_reveal_asks_the_file_manager_to_select_the_file(tmp_path):
    target = tmp_path / "essay 1.txt"
    target.write_text("x", encoding="utf-8")
    log = tmp_path / "shown.txt"
    # a private session bus: the fake file manager and the app's call meet only there
    script = textwrap.dedent(
        f"""
        "{sys.executable}" "{FAKE}" "{log}" &
        for i in $(seq 50); do [ -e "{log}.ready" ] && break; sleep 0.1; done
        "{sys.executable}" -c 'from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from simsift.app.file_actions import reveal_in_folder
        print(reveal_in_folder("{target}"))'
        kill $!
        """
    )
    run = subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert "True" in run.stdout, run.stderr
    assert log.read_text(encoding="utf-8").splitlines() == [target.as_uri()]


# -- "Move or copy checked to a folder…" ---------------------------------------------


def test_move_and_copy_never_replace_a_file_and_number_the_new_one(tmp_path):
    from simsift.app.file_moves import COPY, MOVE, move_or_copy

    source, target = tmp_path / "essays", tmp_path / "kept"
    source.mkdir()
    target.mkdir()
    for name in ("essay.txt", "essay (1).txt", "notes", ".hidden"):
        (source / name).write_text(f"new {name}", encoding="utf-8")
    (target / "essay.txt").write_text("already there", encoding="utf-8")
    (target / "notes").write_text("already there", encoding="utf-8")
    names = [str(source / n) for n in ("essay.txt", "essay (1).txt", "notes", ".hidden")]
    seen = []
    done, failed = move_or_copy(names, str(target), COPY, lambda d, t: seen.append((d, t)))
    assert failed == [] and seen[0] == (0, 4) and seen[-1] == (4, 4)
    assert [os.path.basename(new) for _, new in done] == [
        "essay (1).txt",  # essay.txt was taken
        "essay (1) (1).txt",  # and so, by then, was essay (1).txt
        "notes (1)",
        ".hidden",
    ]
    assert (target / "essay.txt").read_text(encoding="utf-8") == "already there"
    assert (target / "essay (1).txt").read_text(encoding="utf-8") == "new essay.txt"
    assert all(os.path.exists(n) for n in names)  # copying leaves the originals
    before = os.stat(names[2])
    done, failed = move_or_copy(names, str(target), MOVE)
    assert failed == []
    assert [os.path.basename(new) for _, new in done] == [
        "essay (2).txt",
        "essay (1) (2).txt",
        "notes (2)",
        ".hidden (1)",
    ]
    assert not any(os.path.exists(n) for n in names)  # moved: gone from where they were
    moved = os.stat(target / "notes (2)")
    assert moved.st_mtime_ns == before.st_mtime_ns  # the same file, dates kept
    assert (target / "notes").read_text(encoding="utf-8") == "already there"


def test_move_across_devices_copies_then_removes(tmp_path, monkeypatch):
    import errno

    from simsift.app.file_moves import MOVE, move_or_copy

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    essay = tmp_path / "a" / "essay.txt"
    essay.write_text("text", encoding="utf-8")

    def no_links(src, dst):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_links)
    done, failed = move_or_copy([str(essay)], str(tmp_path / "b"), MOVE)
    assert failed == [] and done == [(str(essay), str(tmp_path / "b" / "essay.txt"))]
    assert not essay.exists()
    assert (tmp_path / "b" / "essay.txt").read_text(encoding="utf-8") == "text"


def test_move_reports_each_file_it_could_not_move(tmp_path):
    from simsift.app.file_moves import MOVE, move_or_copy

    folder = tmp_path / "kept"
    folder.mkdir()
    here = tmp_path / "here.txt"
    here.write_text("x", encoding="utf-8")
    inside = folder / "inside.txt"
    inside.write_text("x", encoding="utf-8")
    paths = [str(tmp_path / "gone.txt"), "archive:/2024/essay.txt", str(inside), str(here)]
    done, failed = move_or_copy(paths, str(folder), MOVE)
    assert done == [(str(here), str(folder / "here.txt"))]
    assert failed == [
        (paths[0], "the file is not there any more"),
        (paths[1], "an archive document: kept in the archive"),
        (paths[2], "it is in that folder already"),
    ]
    with pytest.raises(ValueError):
        move_or_copy(paths, str(folder), "delete")


def test_the_question_lists_the_files_as_plain_text_and_offers_move_or_copy(qtbot):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    from simsift.app.dialogs.move_files import ask_move_or_copy

    paths = [f"/essays/<b>copy</b> {i}.txt" for i in range(12)]
    seen = {}

    def answer(button):
        def press():
            box = QApplication.activeModalWidget()
            seen["text"], seen["format"] = box.text(), box.textFormat()
            seen["buttons"] = [b.text() for b in box.buttons()]
            box.button(box.StandardButton.Cancel).click() if button is None else next(
                b for b in box.buttons() if b.text() == button
            ).click()

        QTimer.singleShot(0, press)

    answer("Copy")
    assert ask_move_or_copy(paths, "/kept") == "copy"
    assert seen["format"] == Qt.TextFormat.PlainText
    assert "Move or copy 12 checked files into /kept?" in seen["text"]
    assert "/essays/<b>copy</b> 0.txt" in seen["text"] and "… and 2 more" in seen["text"]
    assert {"Move", "Copy"} <= set(seen["buttons"])
    answer("Move")
    assert ask_move_or_copy(paths[:1], "/kept") == "move"
    assert "Move or copy 1 checked file into /kept?" in seen["text"]
    answer(None)
    assert ask_move_or_copy(paths, "/kept") is None


def test_move_checked_to_a_folder_from_the_window(qtbot, window, corpus, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from tests.app.conftest import scan_and_wait

    root, _ = corpus
    target = tmp_path / "kept"
    target.mkdir()
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    window.mark_all_but_original()
    assert window.statusBar().currentMessage().startswith("Marked 3 files")
    checked = [window.result.documents[d].path for d in window.model.checked_documents()]
    (target / os.path.basename(checked[0])).write_text("already there", encoding="utf-8")
    asked = []
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(target))
    monkeypatch.setattr(
        window, "confirm_move", lambda files, folder: asked.append((files, folder)) or "copy"
    )
    assert window.move_action.isEnabled()
    window.move_action.trigger()
    qtbot.waitUntil(lambda: not window.editor.busy, timeout=20_000)
    assert asked == [(checked, str(target))]
    assert all(os.path.exists(p) for p in checked)  # copied: still there, still shown
    assert len(list(target.iterdir())) == 4  # three copies beside the file already there
    assert "Copied 3 files to" in window.statusBar().currentMessage()
    assert len(window.model.clusters.doc) == 5
    os.remove(checked[1])  # gone meanwhile: reported, the others still moved
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warned.append((a[1], a[2])))
    monkeypatch.setattr(window, "confirm_move", lambda files, folder: "move")
    window.move_action.trigger()
    qtbot.waitUntil(lambda: not window.editor.busy, timeout=20_000)
    assert not any(os.path.exists(p) for p in checked)
    assert len(list(target.iterdir())) == 6
    assert "Moved 2 files to" in window.statusBar().currentMessage()
    assert warned[0][0] == "Some files were not moved"
    assert "the file is not there any more" in warned[0][1]
    assert os.path.basename(checked[1]) in warned[0][1]
    moved = {window.result.documents[d].path for d in window.model.clusters.doc}
    assert not moved & {checked[0], checked[2]}  # moved away: out of the results
    assert window.model.checked_documents() == []


def test_files_in_a_reference_folder_are_never_marked_or_trashed(
    qtbot, window, corpus, monkeypatch
):
    from tests.app.conftest import scan_and_wait

    root, _ = corpus
    window.folders.add_paths([str(root / "sub")], reference=True)
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    docs, c = window.result.documents, window.model.clusters
    in_reference = set(np.flatnonzero(window.result.is_reference).tolist())
    assert {d.path for d in (docs[i] for i in in_reference)} == {
        str(p) for p in (root / "sub").iterdir()
    }
    member = set(c.doc[c.kind != KIND_ORIGINAL].tolist())
    assert in_reference & member  # a reference file is a copy in a cluster: it could be marked
    window.mark_all_but_original()
    assert "in reference or archive folders were not marked" in (
        window.statusBar().currentMessage()
    )
    window.model.set_checked(set(range(len(docs))))  # even when asked to, by hand
    assert window.model.checked_documents()
    assert not in_reference & set(window.model.checked_documents())
    asked = []  # the list the user confirms is all that goes (answered No here: the real
    # trash is left alone, as send2trash fixes its folder on first use)
    monkeypatch.setattr(window, "confirm_trash", lambda files: asked.append(files) or False)
    window.trash_action.trigger()
    assert asked and not {docs[i].path for i in in_reference} & set(asked[0])
