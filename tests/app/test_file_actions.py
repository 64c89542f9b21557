"""Reveal in folder: on Linux the file manager is asked over D-Bus to select the file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

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
