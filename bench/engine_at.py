"""The engine at another commit, for the benchmarks that compare it with this tree's.

Two ways, one per need:

- `engine_at(source)`: a whole engine, for a process of its own. A folder whose package
  `simsift` is core/ and resources/ of `source` (a commit, `git archive`, made once under
  /tmp/simsift-engines; or "worktree", this tree's copied now, so edits made during a run
  do not mix in; or "installed", this tree as installed), some of the work tree's files
  put over a commit if asked (`overlay`). `Engine.env()` runs a subprocess with it
  (`python -m bench.NAME` still imports `bench`), `Engine.use()` (or `use_engine_at`)
  imports it in this process. A commit's engine has no C loops built: it runs their Python twins.
- `modules_at(source, stage, names, package)`: a few modules as they are at a commit (or
  copies of them in a folder) loaded beside today's, in one process, under a package of
  their own, importing one another; everything else they import is today's.

Example:
    >>> engine = engine_at("HEAD~3")
    >>> subprocess.run([sys.executable, "-m", "bench.cold_scan_ab", ...], env=engine.env())
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
ENGINES = Path("/tmp/simsift-engines")
ENGINE_PARTS = ("core", "resources")


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


@dataclass(frozen=True)
class Engine:
    """An engine to import as `simsift`: the package under `shim` (None: as installed)."""

    shim: Path | None
    description: str

    def env(self) -> dict[str, str]:
        """The environment of a subprocess whose `simsift` is this engine and that can
        import `bench` and `tests` from this tree."""
        paths = [str(self.shim)] if self.shim is not None else []
        return {**os.environ, "PYTHONPATH": os.pathsep.join([*paths, str(ROOT)])}

    def use(self) -> None:
        """Import `simsift` from this engine in this process (call it before `simsift` is
        first imported) and in the processes it starts."""
        if self.shim is None:
            return
        sys.path.insert(0, str(self.shim))
        os.environ["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(self.shim), os.environ.get("PYTHONPATH")])
        )


def engine_at(source: str, overlay: Sequence[str] = ()) -> Engine:
    """The engine of `source`: a commit, "worktree" or "installed"; with `overlay`, the
    work tree's copies of those files (paths under core/ or resources/) over a commit's."""
    if source == "installed":
        return Engine(None, work_tree_state())
    if source == "worktree":
        ENGINES.mkdir(parents=True, exist_ok=True)
        base = Path(tempfile.mkdtemp(prefix="worktree-", dir=ENGINES))
        for part in ENGINE_PARTS:
            shutil.copytree(
                ROOT / part, base / "src" / part, ignore=shutil.ignore_patterns("__pycache__")
            )
        return Engine(_shim(base), work_tree_state())
    full = git("rev-parse", source)
    for name in overlay:
        if Path(name).parts[0] not in ENGINE_PARTS or not (ROOT / name).is_file():
            raise SystemExit(f"{name} is no file under core/ or resources/")
    folder, description = full[:12], f"commit {full[:9]}"
    if overlay:
        digest = hashlib.sha1()
        for name in sorted(overlay):
            digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes())
        folder += f"-{digest.hexdigest()[:10]}"
        description += f" with {', '.join(overlay)} of the work tree"
    base = ENGINES / folder
    if not (base / "shim" / "simsift" / "core").exists():
        shutil.rmtree(base, ignore_errors=True)
        (base / "src").mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", full, *ENGINE_PARTS], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(base / "src")], input=archive, check=True)
        for name in overlay:
            shutil.copyfile(ROOT / name, base / "src" / name)
    return Engine(_shim(base), description)


def use_engine_at(commit: str | None, overlay: Sequence[str] = ()) -> str:
    """Import `simsift` in this process (and its subprocesses) from the engine of `commit`
    (with `overlay`), or from this tree as installed when `commit` is None; a description
    of the engine."""
    engine = engine_at(commit or "installed", overlay)
    engine.use()
    return engine.description


def _shim(base: Path) -> Path:
    """base/shim, whose `simsift` is a namespace package (as installed) of base/src's parts."""
    package = base / "shim" / "simsift"
    if not package.exists():
        package.mkdir(parents=True)
        for part in ENGINE_PARTS:
            (package / part).symlink_to(base / "src" / part)
    return base / "shim"


def work_tree_state() -> str:
    """ "work tree on <commit>", with the files changed in core/ and resources/ if any."""
    dirty = git("status", "--porcelain", *ENGINE_PARTS).splitlines()
    what = f"work tree on {git('rev-parse', '--short=9', 'HEAD')}"
    if dirty:
        what += f" ({len(dirty)} files changed in core/resources: "
        what += ", ".join(line[3:] for line in dirty) + ")"
    return what


def modules_at(
    source: str, stage: str, names: Sequence[str], package: str
) -> dict[str, ModuleType]:
    """The modules `names` of folder `stage` (e.g. "core/text") as they are at commit
    `source`, or as the copies in folder `source`, imported as `package.NAME`; imports
    among them point into `package`. A module missing there (not written yet) is left out.
    """
    folder = Path(tempfile.mkdtemp(prefix=f"{package}_"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    (folder / package).mkdir()
    (folder / package / "__init__.py").write_text("")
    dotted = re.escape("simsift." + stage.replace("/", "."))
    among = "|".join(map(re.escape, names))
    found = []
    for name in names:
        text = _module_text(source, f"{stage}/{name}.py")
        if text is None:
            continue
        text = re.sub(rf"\bfrom {dotted} import ({among})\b", rf"from {package} import \1", text)
        text = re.sub(rf"\b{dotted}\.({among})\b", rf"{package}.\1", text)
        (folder / package / f"{name}.py").write_text(text)
        found.append(name)
    sys.path.insert(0, str(folder))
    return {name: importlib.import_module(f"{package}.{name}") for name in found}


def _module_text(source: str, path: str) -> str | None:
    if Path(source).is_dir():
        copy = Path(source) / Path(path).name
        return copy.read_text() if copy.is_file() else None
    shown = subprocess.run(
        ["git", "show", f"{source}:{path}"], cwd=ROOT, capture_output=True, text=True
    )
    return None if shown.returncode else shown.stdout
