"""Fixtures for GUI tests: a sample corpus, and a main window whose settings, catalog
and trash all live in the test's temporary folder (never the user's)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from simsift.app.main_window import MainWindow
from simsift.app.settings import Settings
from simsift.core.store.catalog import Catalog

from tests.core.corpus import write_corpus


@pytest.fixture(scope="session")
def corpus_template(tmp_path_factory) -> tuple[Path, dict[str, Path]]:
    root = tmp_path_factory.mktemp("corpus")
    return root, write_corpus(root)


@pytest.fixture
def corpus(corpus_template, tmp_path) -> tuple[Path, dict[str, Path]]:
    """A fresh copy per test, so tests may move files to the trash."""
    template, paths = corpus_template
    root = tmp_path / "corpus"
    shutil.copytree(template, root)
    return root, {key: root / path.relative_to(template) for key, path in paths.items()}


@pytest.fixture
def isolated_user_dirs(tmp_path, monkeypatch):
    """Point XDG dirs (trash, data) and QSettings into tmp_path."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    _trash_in(tmp_path / "xdg-data", monkeypatch)
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    return tmp_path


def _trash_in(data: Path, monkeypatch) -> None:
    """send2trash reads $XDG_DATA_HOME once, when first imported: the first test that
    trashed a file would otherwise set every later test's trash."""
    if not sys.platform.startswith("linux"):
        return
    from send2trash import plat_other

    home = os.fsencode(data)
    monkeypatch.setattr(plat_other, "XDG_DATA_HOME", home)
    monkeypatch.setattr(plat_other, "HOMETRASH_B", os.path.join(home, b"Trash"))
    monkeypatch.setattr(plat_other, "HOMETRASH", os.fsdecode(os.path.join(home, b"Trash")))


@pytest.fixture(autouse=True)
def no_blocking_message_boxes(monkeypatch):
    """A message box nobody answers would hang the test run: a test that expects one
    patches it; any other fails the test (e.g. "Scan failed" with the reason)."""
    from PySide6.QtWidgets import QMessageBox

    shown: list[str] = []

    def unexpected(kind):
        def show(parent, title, text, *args, **kwargs):
            shown.append(f"{kind}: {title}: {text}")
            return QMessageBox.StandardButton.Ok

        return show

    for kind in ("warning", "critical", "information"):
        monkeypatch.setattr(QMessageBox, kind, unexpected(kind))
    yield
    assert not shown, f"unexpected message box: {shown}"


@pytest.fixture
def settings(isolated_user_dirs) -> Settings:
    return Settings(QSettings(str(isolated_user_dirs / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def catalog(isolated_user_dirs):
    with Catalog(isolated_user_dirs / "catalog.db") as cat:
        yield cat


@pytest.fixture
def window(qtbot, settings, catalog, isolated_user_dirs) -> MainWindow:
    win = MainWindow(settings, catalog, workers=0)
    win.settings_dir = isolated_user_dirs
    qtbot.addWidget(win)
    yield win
    win.controller.shutdown()


def scan_and_wait(qtbot, window: MainWindow, timeout: int = 30_000) -> None:
    """Start a scan from the window and wait until its complete result is shown (its
    clusters come first, before partial copying: `finished` follows once it is found)."""
    with qtbot.waitSignal(window.controller.finished, timeout=timeout):
        qtbot.mouseClick(window.scan_button, _left())


def _left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton
