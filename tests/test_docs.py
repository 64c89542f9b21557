"""The docs a maintainer and a user read first say what is true of the code: every module has
its line in docs/architecture.md, and the README names every file type a scan reads."""

from __future__ import annotations

import re
from pathlib import Path

from simsift.core.read.extract import SUPPORTED_SUFFIXES

ROOT = Path(__file__).resolve().parents[1]


def modules(package: str) -> list[str]:
    """Paths of a package's modules (Python and C) under its folder, package inits left out."""
    folder = ROOT / package
    return sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.suffix in (".py", ".c") and path.name != "__init__.py"
    )


def test_every_module_has_its_row_in_the_architecture() -> None:
    rows = set(re.findall(r"^\| `([^`]+)` \|", (ROOT / "docs/architecture.md").read_text(), re.M))
    missing = [f"{p}/{m}" for p in ("core", "app") for m in modules(p) if m not in rows]
    assert not missing, f"docs/architecture.md has no row for {missing}"


def test_the_readme_names_every_file_type_read() -> None:
    readme = (ROOT / "README.md").read_text()
    unnamed = sorted(s for s in SUPPORTED_SUFFIXES if not re.search(re.escape(s) + r"\b", readme))
    assert not unnamed, f"README.md does not name {unnamed}"
