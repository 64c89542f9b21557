"""Rebuild the catalogs of past schema versions in this folder, each written by the SimSift
of that version (tests/core/test_catalog_migrations.py opens them with today's code).

    . .venv/bin/activate && python tests/data/catalogs/make_catalogs.py

For each old schema version, the last commit that wrote it is exported with `git archive`
into a temporary folder and its own scan (`core.scan.scan` before the stage packages,
`simsift.core.pipeline.scan.scan` after, through a `simsift` folder of links put first on
PYTHONPATH, ahead of the editable install) scans a copy of essays/ at
FIXTURE_ROOT (mtimes set to MTIME_NS) into a new catalog, then ignores one pair. The
catalog file is copied here as schema<version>.sqlite. When the schema changes, add the
last commit of the old version to WRITERS and run it (the files of the older versions are
rewritten by their own old code, so they hold the same records).

Schema history (`git log -G"ALTER TABLE|CREATE TABLE" -- core/catalog.py core/store/catalog.py`):
  1  2713930  files + ignored_pairs                  (last writer: 1d6ad3e^)
  2  1d6ad3e  files.warning, files.reader            (last writer: 230ceb1^)
  3  230ceb1  verdicts                               (last writer: 9ba9b6f^)
  4  9ba9b6f  files.flags                            (last writer: dbe9466)
  5  (next)   files.body_marks, files.unbalanced_quotes  (current)
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
FIXTURE_ROOT = "/tmp/simsift-catalog-fixture/essays"  # the paths the catalogs hold
MTIME_NS = 1_700_000_000_000_000_000
IGNORED = ("essay_a.txt", "essay_zh.txt")

# schema version -> the last commit whose code wrote it
WRITERS = {1: "1d6ad3e^", 2: "230ceb1^", 3: "9ba9b6f^", 4: "dbe9466"}

FLAT = """
from core.catalog import Catalog
from core.scan import ScanOptions, scan
"""
STAGES = """
from simsift.core.store.catalog import Catalog
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
"""
SCAN = """
import os, sys
tree, root, catalog_path, a, b = sys.argv[1:]
module = sys.modules[Catalog.__module__].__file__
assert os.path.realpath(module).startswith(os.path.realpath(tree)), module
with Catalog(catalog_path) as catalog:
    scan(ScanOptions(roots=(root,), workers=0), catalog=catalog)
    catalog.ignore_pair(f"{root}/{a}", f"{root}/{b}")
"""


def make(version: int, commit: str, work: Path) -> Path:
    tree = work / f"tree{version}"
    tree.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", commit], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    root = Path(FIXTURE_ROOT)
    shutil.rmtree(root.parent, ignore_errors=True)
    shutil.copytree(HERE / "essays", root)
    for path in root.iterdir():
        os.utime(path, ns=(MTIME_NS, MTIME_NS))
    catalog = work / f"schema{version}.sqlite"
    if (tree / "core" / "store" / "catalog.py").exists():  # one package, simsift.core
        path = work / f"path{version}"
        (path / "simsift").mkdir(parents=True)
        for folder in ("core", "resources"):
            (path / "simsift" / folder).symlink_to(tree / folder)
        code = STAGES + SCAN
    else:
        path, code = tree, FLAT + SCAN
    env = {**os.environ, "PYTHONPATH": str(path)}
    subprocess.run(
        [sys.executable, "-c", code, str(tree), str(root), str(catalog), *IGNORED],
        cwd=work,
        env=env,
        check=True,
    )
    shutil.rmtree(root.parent)
    raw = sqlite3.connect(catalog)
    try:
        written = raw.execute("PRAGMA user_version").fetchone()[0]
    finally:
        raw.close()
    if written != version:
        raise SystemExit(f"{commit} wrote schema {written}, not {version}")
    if Path(f"{catalog}-wal").exists():
        raise SystemExit(f"{catalog} left a WAL file behind")
    return catalog


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for version, commit in WRITERS.items():
            made = make(version, commit, Path(tmp))
            shutil.copyfile(made, HERE / made.name)
            print(f"schema {version}: {commit} -> {made.name} ({made.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
