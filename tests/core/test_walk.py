"""Folder walking: recursion, unusual names, hidden folders, excludes, symlink loops."""

from __future__ import annotations

import os
from pathlib import Path

from simsift.core.read.walk import walk_files


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


OUTSIDE = "link to a file outside the scanned folders (not followed)"


def test_links_to_files_outside_the_roots_are_not_read(tmp_path):
    (tmp_path / "essays").mkdir()
    (tmp_path / "essays2").mkdir()  # shares the root's name as a prefix, still outside
    (tmp_path / "essays2" / "secret.txt").write_text("x")
    (tmp_path / "essays" / "essay.txt").write_text("x")
    os.symlink("../essays2/secret.txt", tmp_path / "essays" / "passwd.txt")
    left_out = []
    found = walk_files([tmp_path / "essays"], on_skip=lambda *skip: left_out.append(skip))
    assert names(found) == ["essay.txt"]
    assert left_out == [(str(tmp_path / "essays" / "passwd.txt"), OUTSIDE, False)]


def test_links_to_files_outside_are_read_when_asked(tmp_path):
    (tmp_path / "essays").mkdir()
    (tmp_path / "secret.txt").write_text("x")
    os.symlink(tmp_path / "secret.txt", tmp_path / "essays" / "link.txt")
    found = walk_files([tmp_path / "essays"], follow_outside_links=True)
    assert names(found) == ["link.txt"]


def test_links_into_another_root_are_read_once(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "essay.txt").write_text("x")
    os.symlink(tmp_path / "b" / "essay.txt", tmp_path / "a" / "link.txt")
    left_out = []
    roots = [tmp_path / "a", tmp_path / "b"]
    found = list(walk_files(roots, on_skip=lambda *skip: left_out.append(skip)))
    assert [f.path for f in found] == [str(tmp_path / "a" / "link.txt")]
    first = tmp_path / "a" / "link.txt"
    assert left_out == [
        (str(tmp_path / "b" / "essay.txt"), f"same file as {first} (a link)", False)
    ]


def test_a_folder_chosen_twice_or_inside_another_lists_each_file_once(tmp_path):
    (tmp_path / "prompt").mkdir()
    (tmp_path / "essay.txt").write_text("essay")
    (tmp_path / "prompt" / "prompt.txt").write_text("prompt")
    skipped = []
    roots = [tmp_path, tmp_path / "prompt", tmp_path, tmp_path / "prompt" / "prompt.txt"]
    found = [f.path for f in walk_files(roots, on_skip=lambda *a: skipped.append(a))]
    assert sorted(found) == [str(tmp_path / "essay.txt"), str(tmp_path / "prompt" / "prompt.txt")]
    assert skipped == []  # not "a link": the same path, chosen twice


def test_links_are_compared_with_the_real_path_of_a_linked_root(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "essay.txt").write_text("x")
    os.symlink("essay.txt", tmp_path / "real" / "alias.txt")
    os.symlink(tmp_path / "real", tmp_path / "dropped")
    found = walk_files([tmp_path / "dropped"])
    assert names(found) == ["alias.txt"]  # the alias sorts first; the essay is the same file


def os_walk_order(root) -> list[str]:
    """The order walk_files kept when it was built on os.walk (top-down, names sorted)."""
    paths = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        paths.extend(os.path.join(folder, name) for name in sorted(files))
    return paths


def test_files_come_in_os_walk_order(tmp_path):
    for folder in ("B/x", "a/z/deep", "a/b", "a b", "a-", "ä", "Z"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    for file in ("1.txt", "a.txt", "Z.txt", "ä.txt", "a/b.txt", "a/z/deep/f.txt", "a/z/g.txt"):
        (tmp_path / file).write_text("x")
    for file in ("a/b/c.txt", "a b/d.txt", "a-/e.txt", "B/x/h.txt", "B/y.txt", "Z/i.txt"):
        (tmp_path / file).write_text("x")
    assert [f.path for f in walk_files([tmp_path])] == os_walk_order(tmp_path)


def make_folder_chain(top: Path, depth: int) -> Path:
    """`depth` nested folders named "d" below `top` (os.makedirs recurses per level)."""
    folder = top
    for _ in range(depth):
        folder = folder / "d"
        folder.mkdir()
    return folder


def remove_folder_chain(bottom: Path, top: Path) -> None:
    """Remove a chain bottom-up; shutil.rmtree recurses too."""
    while bottom != top:
        for file in bottom.iterdir():
            file.unlink()
        bottom.rmdir()
        bottom = bottom.parent


def test_folders_nested_1100_deep_are_walked(tmp_path):
    bottom = make_folder_chain(tmp_path, 1100)
    (bottom / "essay.txt").write_text("x")
    try:
        found = list(walk_files([tmp_path]))
    finally:
        remove_folder_chain(bottom, tmp_path)
    assert [f.path for f in found] == [str(bottom / "essay.txt")]
