"""Folder walking: recursion, unusual names, hidden folders, excludes, symlink loops."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from core.walk import walk_files


def names(found) -> list[str]:
    return sorted(Path(f.path).name for f in found)


def test_walk_recurses_and_keeps_unusual_names(tmp_path):
    (tmp_path / "a b" / "中文 目录").mkdir(parents=True)
    (tmp_path / "a b" / "中文 目录" / "作文 1.docx").write_bytes(b"x")
    (tmp_path / "top.txt").write_text("t")
    assert names(walk_files([tmp_path])) == ["top.txt", "作文 1.docx"]


def test_hidden_and_system_folders_are_skipped_unless_asked(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.txt").write_text("x")
    (tmp_path / "__MACOSX").mkdir()
    (tmp_path / "__MACOSX" / "a.txt").write_text("x")
    (tmp_path / ".hidden.txt").write_text("x")
    (tmp_path / "seen.txt").write_text("x")
    assert names(walk_files([tmp_path])) == ["seen.txt"]
    assert "config.txt" in names(walk_files([tmp_path], include_hidden=True))


def test_exclude_patterns_match_names_and_paths(tmp_path):
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "d.txt").write_text("x")
    (tmp_path / "keep.txt").write_text("x")
    (tmp_path / "old.bak").write_text("x")
    assert names(walk_files([tmp_path], exclude=["*.bak", "*/drafts"])) == ["keep.txt"]


def test_symlink_loops_terminate_and_files_are_listed_once(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "f.txt").write_text("x")
    os.symlink(tmp_path, tmp_path / "sub" / "loop")
    os.symlink(tmp_path / "sub" / "f.txt", tmp_path / "alias.txt")
    found = list(walk_files([tmp_path, tmp_path / "sub"]))
    assert len(found) == 1  # the alias and the second root point at the same file


def test_everything_left_out_is_reported_with_its_reason(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.txt").write_text("x")
    (tmp_path / "__MACOSX").mkdir()
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "d.txt").write_text("x")
    (tmp_path / ".notes.txt").write_text("x")
    (tmp_path / "old.bak").write_text("x")
    (tmp_path / "essay.txt").write_text("x")
    os.symlink(tmp_path / "essay.txt", tmp_path / "link.txt")
    os.symlink(tmp_path / "drafts", tmp_path / "to_drafts")
    left_out = []
    found = walk_files(
        [tmp_path],
        exclude=["*.bak", "*/drafts"],
        on_skip=lambda path, reason, error: left_out.append((Path(path).name, reason, error)),
    )
    assert names(found) == ["essay.txt"]
    assert sorted(left_out) == [
        (".git", "hidden folder (not searched)", False),
        (".notes.txt", "hidden file", False),
        ("__MACOSX", "system folder (not searched)", False),
        ("drafts", "excluded by the pattern */drafts (folder not searched)", False),
        ("link.txt", f"same file as {tmp_path / 'essay.txt'} (a link)", False),
        ("old.bak", "excluded by the pattern *.bak", False),
        ("to_drafts", "link to a folder (not followed)", False),
    ]


def test_a_folder_that_cannot_be_opened_is_reported_as_an_error(tmp_path, monkeypatch):
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "a.txt").write_text("x")
    real_scandir = os.scandir

    def scandir(path):  # as chmod 000 does for a user who is not root
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    left_out = []
    assert list(walk_files([tmp_path], on_skip=lambda *skip: left_out.append(skip))) == []
    assert left_out == [(str(tmp_path / "locked"), "cannot open folder (Permission denied)", True)]


def test_a_single_file_can_be_a_root(tmp_path):
    (tmp_path / "one.txt").write_text("x")
    assert names(walk_files([tmp_path / "one.txt"])) == ["one.txt"]


def test_core_never_imports_qt():
    code = (
        "import sys, core.scan, core.cli, core.report, core.catalog, core.extract;"
        "qt = ('PySide6', 'PyQt5', 'PyQt6', 'shiboken6');"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in qt))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
