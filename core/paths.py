"""Where SimSift finds its bundled resources and keeps its own data."""

from __future__ import annotations

import sys
from importlib import resources as importlib_resources
from pathlib import Path


def resource_path(*parts: str) -> Path:
    """Path of a file under `resources/`, in a source tree, an install or a frozen bundle."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root, "resources", *parts)
    source_tree = Path(__file__).resolve().parents[1] / "resources"
    if source_tree.is_dir():
        return source_tree.joinpath(*parts)
    return Path(str(importlib_resources.files("simsift.resources").joinpath(*parts)))
