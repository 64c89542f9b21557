"""The engine's architecture rules, checked on the source rather than trusted to review:

- core/ never imports Qt (the CLI, the cluster workers and the tests run without a display);
- core/'s stage packages are layered: a lower stage never imports a higher one;
- no module imports another module's private (underscore) names, and app/ uses only
  core's public API.

The import graph is read with ast, function-local imports included; imports under
`if TYPE_CHECKING:` are left out (they never run).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE_FOLDERS = {"core": REPO / "core", "app": REPO / "app"}

# Lowest first. Ground modules are core's top-level modules; a stage is a core/ package.
GROUND = ("progress", "document", "files", "arrays", "paths", "shortage")
LAYERS = ("ground", "index", "text", "read", "match", "analysis", "store", "pipeline", "report")
LAYERS += ("cli",)

QT_PACKAGES = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "shiboken2", "PySide2")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, e.g. simsift.core.index.memory
    line: int
    target: str  # the module imported from, e.g. simsift.core.text.simhash
    name: str | None  # the name imported from it (`from target import name`), or None

    def __str__(self) -> str:
        what = f"{self.target}.{self.name}" if self.name else self.target
        return f"{self.module}:{self.line} imports {what}"


def module_files(folder: str) -> dict[str, Path]:
    """simsift.<folder>.* module name -> source file, packages by their __init__.py."""
    root = PACKAGE_FOLDERS[folder]
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(["simsift", folder, *parts])] = path
    return found


CORE = module_files("core")
# modules compiled from C (setup.py; optional, so present only where they were built)
C_MODULES = {
    ".".join(["simsift", "core", *path.relative_to(PACKAGE_FOLDERS["core"]).with_suffix("").parts])
    for path in PACKAGE_FOLDERS["core"].rglob("*.c")
}
APP = module_files("app")
ALL_MODULES = {**CORE, **APP}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST):
    """Every node of the tree except those under `if TYPE_CHECKING:` (its else runs)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imports_of(module: str, path: Path) -> list[Import]:
    """The simsift imports a module makes at run time, relative ones resolved."""
    is_package = path.name == "__init__.py"
    found = []
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "simsift":
                    found.append(Import(module, node.lineno, alias.name, None))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target.split(".")[0] != "simsift":
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                if submodule in ALL_MODULES:  # `from package import module`
                    found.append(Import(module, node.lineno, submodule, None))
                else:
                    found.append(Import(module, node.lineno, target, alias.name))
    return sorted(found, key=lambda imp: imp.line)


def layer_of(module: str) -> str:
    parts = module.split(".")
    assert parts[:2] == ["simsift", "core"], module
    if len(parts) == 2 or parts[2] in GROUND:
        return "ground"
    assert parts[2] in LAYERS, f"{module} is in no layer: add its stage to LAYERS"
    return parts[2]


def _private(name: str | None) -> bool:
    return bool(name) and name.startswith("_") and not name.startswith("__")


# --- Qt -------------------------------------------------------------------------------------


def test_core_never_imports_qt():
    """Every module of simsift.core imported in one fresh interpreter loads no Qt binding.

    Nothing is skipped: core/pipeline/distributed.py imports `distributed` only inside its
    functions, so the module itself imports without it."""
    code = f"""
import importlib, json, pkgutil, sys
import simsift.core
names = ["simsift.core"] + [
    m.name for m in pkgutil.walk_packages(simsift.core.__path__, "simsift.core.")
]
for name in names:
    importlib.import_module(name)
qt = [m for m in sys.modules if m.split(".")[0] in {QT_PACKAGES!r}]
print(json.dumps({{"imported": names, "qt": sorted(qt)}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["qt"] == []
    # The walk really reached every module on disk, not a stale or partial install.
    assert sorted(set(report["imported"]) - C_MODULES) == sorted(CORE)


# --- Layering -------------------------------------------------------------------------------


# Known violations, each reported and each expected to go: (importing module, target module).
def layer_violations() -> list[Import]:
    found = []
    for module, path in CORE.items():
        for imp in imports_of(module, path):
            if imp.target.split(".")[1] != "core":
                found.append(imp)  # core importing app: always wrong
            elif LAYERS.index(layer_of(imp.target)) > LAYERS.index(layer_of(module)):
                found.append(imp)
    return found


def test_every_core_module_has_a_layer():
    assert {layer_of(m) for m in CORE} <= set(LAYERS)
    assert len(CORE) > 40  # the walk found the tree


def test_lower_stages_never_import_higher_ones():
    assert [str(v) for v in layer_violations()] == []


def test_layer_check_sees_function_local_imports_and_skips_type_checking(tmp_path):
    """The checker itself: a function-local upward import counts, a TYPE_CHECKING one not."""
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from simsift.core.report.html import write_html\n"
        "def f():\n"
        "    from simsift.core.pipeline.scan import scan\n"
        "    from ..store import catalog\n"
    )
    found = imports_of("simsift.core.index.probe", source)
    assert [(i.line, i.target, i.name) for i in found] == [
        (5, "simsift.core.pipeline.scan", "scan"),
        (6, "simsift.core.store.catalog", None),
    ]


# --- Private names --------------------------------------------------------------------------


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def private_attribute_uses(module: str, path: Path) -> list[Import]:
    """`module_alias._name` where the alias is bound to another simsift module by an
    import (`from simsift.core.store import catalog`, `import simsift.core.x as x`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound = {"simsift": "simsift"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("simsift"):
            for alias in node.names:
                if f"{node.module}.{alias.name}" in ALL_MODULES:
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("simsift.") and alias.asname:
                    bound[alias.asname] = alias.name
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            name = _dotted(node.value)
            head, _, rest = (name or "").partition(".")
            target = ".".join(filter(None, [bound.get(head), rest]))
            if target in ALL_MODULES and target != module:
                found.append(Import(module, node.lineno, target, node.attr))
    return found


def private_imports(modules: dict[str, Path]) -> list[Import]:
    """Imports of another simsift module's underscore names, or of an underscore module,
    and underscore names read through an imported module."""
    found = []
    for module, path in modules.items():
        for imp in imports_of(module, path):
            if imp.target == module:
                continue
            tail = imp.target.split(".")[2:]
            if _private(imp.name) or any(_private(part) for part in tail):
                found.append(imp)
        found.extend(private_attribute_uses(module, path))
    return found


def test_no_core_module_imports_private_names():
    assert [str(v) for v in private_imports(CORE)] == []


def test_app_never_imports_private_names_from_core():
    found = [str(v) for v in private_imports(APP) if v.target.startswith("simsift.core")]
    assert found == []


def test_no_app_module_imports_private_names_from_another():
    found = [str(v) for v in private_imports(APP) if v.target.startswith("simsift.app")]
    assert found == []


def test_private_check_sees_names_and_modules(tmp_path):
    source = tmp_path / "probe.py"
    source.write_text(
        "from simsift.core.index.memory import _sorted, HammingIndex\n"
        "def f():\n"
        "    from simsift.core.text.simhash import _top\n"
        "    from simsift.core.store import catalog\n"
        "    import simsift.core.index.plan as plan\n"
        "    import simsift.core.arrays\n"
        "    return catalog._QUERY_CHUNK, plan._COVER_BLOCKS, catalog.Catalog,\n"
        "    return simsift.core.arrays._x\n"
    )
    found = private_imports({"simsift.app.probe": source})
    assert sorted((i.line, i.name) for i in found) == sorted(
        [(1, "_sorted"), (3, "_top"), (7, "_QUERY_CHUNK"), (7, "_COVER_BLOCKS"), (8, "_x")]
    )
