"""The frozen bundle carries its OCR engine. packaging/simsift.spec puts Tesseract in
`_internal/tesseract/` (with `tessdata/`) and its libraries in `_internal/`; a frozen app runs
that copy with the bundle's libraries first on the library path and the bundle's language
data, and the system's Tesseract (no bundled copy) with the library path the app was started
with. Not frozen, nothing changes.

A frozen app is imitated in this process: `sys.frozen`, `sys._MEIPASS` and the variables
PyInstaller's bootloader leaves (`LD_LIBRARY_PATH` with the bundle first, the user's own
value in `LD_LIBRARY_PATH_ORIG`).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from simsift.core.read.extract import extract, ocr

ROOT = Path(__file__).resolve().parents[2]
SCAN = ROOT / "packaging" / "smoke" / "scan_en.pdf"  # article_en.pdf printed and scanned
TEXT = ROOT / "tests" / "data" / "extract" / "article_en.pdf"
USER_LIBS = "/opt/user/lib"


def program(folder: Path, name: str = "tesseract") -> Path:
    """An executable file `name` in `folder` (never run)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexit 1\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def frozen(monkeypatch, bundle: Path, *, user_libs: str | None = USER_LIBS) -> None:
    """This process as a frozen app whose `_internal/` is `bundle`."""
    bundle.mkdir(parents=True, exist_ok=True)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    if user_libs:
        monkeypatch.setenv("LD_LIBRARY_PATH", f"{bundle}{os.pathsep}{user_libs}")
        monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", user_libs)
    else:
        monkeypatch.setenv("LD_LIBRARY_PATH", str(bundle))
        monkeypatch.delenv("LD_LIBRARY_PATH_ORIG", raising=False)


def test_not_frozen_runs_the_tesseract_on_path_with_the_environment_as_it_is(tmp_path, monkeypatch):
    monkeypatch.delattr(sys, "frozen", raising=False)
    # a `_MEIPASS` alone (not frozen) is no bundle
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path / "bundle"), raising=False)
    program(tmp_path / "bundle" / "tesseract")
    on_path = program(tmp_path / "bin")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("LD_LIBRARY_PATH", USER_LIBS)
    monkeypatch.setenv("TESSDATA_PREFIX", "/opt/user/tessdata")
    assert ocr.tesseract_path() == str(on_path)
    assert ocr._environment() == dict(os.environ, OMP_THREAD_LIMIT="1")


def test_frozen_bundle_runs_its_own_tesseract_with_its_libraries_and_data(tmp_path, monkeypatch):
    bundle = tmp_path / "SimSift" / "_internal"
    bundled = program(bundle / "tesseract")
    program(tmp_path / "bin")  # a system one too: the bundle's is preferred
    frozen(monkeypatch, bundle)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("TESSDATA_PREFIX", "/opt/user/tessdata")
    assert ocr.tesseract_path() == str(bundled)
    env = ocr._environment()
    assert env["LD_LIBRARY_PATH"] == f"{bundle}{os.pathsep}{USER_LIBS}"
    assert env["TESSDATA_PREFIX"] == str(bundle / "tesseract" / "tessdata")
    assert env["OMP_THREAD_LIMIT"] == "1"
    assert "LD_LIBRARY_PATH_ORIG" not in env


def test_frozen_bundle_without_a_user_library_path_gives_the_bundle_alone(tmp_path, monkeypatch):
    bundle = tmp_path / "_internal"
    program(bundle / "tesseract")
    frozen(monkeypatch, bundle, user_libs=None)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert ocr._environment()["LD_LIBRARY_PATH"] == str(bundle)


@pytest.mark.parametrize("user_libs", [USER_LIBS, None])
def test_frozen_bundle_without_tesseract_runs_the_systems_without_the_bundles_libraries(
    tmp_path, monkeypatch, user_libs
):
    bundle = tmp_path / "_internal"
    (bundle / "tesseract").mkdir(parents=True)  # a folder, but no program in it
    system = program(tmp_path / "bin")
    frozen(monkeypatch, bundle, user_libs=user_libs)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("TESSDATA_PREFIX", "/opt/user/tessdata")
    assert ocr.tesseract_path() == str(system)
    env = ocr._environment()
    assert env.get("LD_LIBRARY_PATH") == user_libs
    assert env["TESSDATA_PREFIX"] == "/opt/user/tessdata"  # the user's own, untouched
    assert "LD_LIBRARY_PATH_ORIG" not in env


def test_frozen_bundle_without_any_tesseract_has_none(tmp_path, monkeypatch):
    frozen(monkeypatch, tmp_path / "_internal")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert ocr.tesseract_path() is None


@pytest.mark.skipif(
    shutil.which("tesseract") is None,
    reason="Tesseract is not installed (packaging/system-deps.sh)",
)
def test_bundled_tesseract_reads_a_scan_with_the_bundles_data_and_no_tesseract_on_path(
    tmp_path, monkeypatch
):
    """The system's program copied into a bundle with English data only: its languages are
    the bundle's (the system has more), and it reads the smoke test's scanned page."""
    system = Path(shutil.which("tesseract"))
    listed = subprocess.run([system, "--list-langs"], capture_output=True, text=True).stdout
    tessdata = Path(re.search(r'"([^"]+)"', listed)[1])
    bundle = tmp_path / "SimSift" / "_internal"
    data = bundle / "tesseract" / "tessdata"
    (data / "configs").mkdir(parents=True)
    shutil.copy(system, bundle / "tesseract" / "tesseract")
    (data / "eng.traineddata").symlink_to(tessdata / "eng.traineddata")
    (data / "configs" / "tsv").symlink_to(tessdata / "configs" / "tsv")
    frozen(monkeypatch, bundle)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("TESSDATA_PREFIX", raising=False)

    found = ocr.tesseract_path()
    assert found == str(bundle / "tesseract" / "tesseract")
    assert ocr.installed_languages(found) == frozenset({"eng"})
    pages = list(ocr.read_pages(SCAN, [0]))
    assert pages[0].words > 100 and pages[0].confidence > 0.8
    read = set(re.findall(r"[a-z]+", " ".join(pages[0].boxes).lower()))
    original = set(re.findall(r"[a-z]+", extract(TEXT).text.lower()))
    assert len(read & original) / len(read) > 0.9
