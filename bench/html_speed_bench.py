"""HTML reading speed: `extract` of every HTML page by the engine of a commit and
by the work tree, in one run, with the text out compared page by page.

    python -m bench.html_speed_bench                        # HEAD against the work tree
    python -m bench.html_speed_bench --before 1fc2ae8       # an older commit too
    python -m bench.html_speed_bench --root /tmp/editor/archive --rounds 3

Pages: the .html/.htm/.xhtml files under each --root (default /tmp/editor/archive and
/usr/share/doc). Each engine runs in a process of its own whose `simsift` is that engine:
`bench.engine_at`'s engine of a commit, or of the work tree copied at the start of the run
(edits made meanwhile do not mix in). A process reads
one page untimed (imports), then every page with `extract(path, ocr=False)` (the baseline
had no OCR), timing each by CPU time (the machine is shared: compare the ratios, not the
milliseconds, across runs); engines alternate within a round and each page keeps its best.

Equivalence: the work tree's result (title, paragraphs, format, warnings, hidden text, or the
error's message) must equal that of HEAD (the committed engine) for every page. Older
commits are timed only: their reader differs by design (block quotations, OCR).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from bench.engine_at import Engine, engine_at

DEFAULT_ROOTS = (Path("/tmp/editor/archive"), Path("/usr/share/doc"))
SUFFIXES = frozenset({".html", ".htm", ".xhtml"})


def pages(roots: list[Path]) -> list[Path]:
    found = set()
    for root in roots:
        for path in root.rglob("*"):
            if path.suffix.lower() in SUFFIXES and path.is_file() and not path.is_symlink():
                found.add(path)
    return sorted(found)


def read_child(listing: Path, out: Path) -> None:
    """In an engine's process: every page of `listing` read, its result and CPU seconds."""
    import inspect

    import simsift.core
    from simsift.core.document import ExtractionError, UnsupportedFormat
    from simsift.core.read.extract import extract

    paths = [Path(line) for line in listing.read_text().splitlines()]
    options = {"ocr": False} if "ocr" in inspect.signature(extract).parameters else {}

    def read(path: Path) -> dict:
        try:
            result = asdict(extract(path, **options))
        except (ExtractionError, UnsupportedFormat) as error:
            return {"error": f"{type(error).__name__}: {error}"}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in result.items()}

    read(paths[0])  # imports, caches
    results, seconds = [], []
    for path in paths:
        started = time.process_time()
        results.append(read(path))
        seconds.append(time.process_time() - started)
    engine_dir = str(Path(next(iter(simsift.core.__path__))).resolve())
    out.write_text(json.dumps({"engine": engine_dir, "results": results, "seconds": seconds}))


def run_engine(engine: Engine, listing: Path) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
        pass
    command = [sys.executable, "-m", "bench.html_speed_bench", "child", str(listing), out.name]
    subprocess.run(command, env=engine.env(), cwd="/tmp", check=True)
    data = json.loads(Path(out.name).read_text())
    os.unlink(out.name)
    expected = str((engine.shim / "simsift" / "core").resolve())
    if data["engine"] != expected:
        raise SystemExit(f"the child imported {data['engine']}, not {expected}")
    return data


def compare(paths: list[Path], old: list[dict], new: list[dict]) -> list[str]:
    """Pages whose results differ, with the first differing field."""
    differing = []
    for path, a, b in zip(paths, old, new, strict=True):
        if a != b:
            field = next(k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
            differing.append(f"{path}: {field}")
    return differing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    child = sub.add_parser("child")
    child.add_argument("listing", type=Path)
    child.add_argument("out", type=Path)
    parser.add_argument("--root", type=Path, action="append")
    parser.add_argument("--before", action="append", default=[], help="older commits, timed only")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if args.command == "child":
        read_child(args.listing, args.out)
        return

    roots = args.root or [r for r in DEFAULT_ROOTS if r.exists()]
    paths = pages(roots)
    group = [next(i for i, r in enumerate(roots) if p.is_relative_to(r)) for p in paths]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("\n".join(map(str, paths)))
    names = ["HEAD", *args.before, "worktree"]
    engines = {name: engine_at(name) for name in names}
    for name, engine in engines.items():
        print(f"{name:10s} {engine.description}")
    print(f"{len(paths)} pages under {', '.join(map(str, roots))}")
    best: dict[str, list[float]] = {}
    results: dict[str, list[dict]] = {}
    for round_ in range(args.rounds):
        for name in names if round_ % 2 == 0 else reversed(names):
            data = run_engine(engines[name], Path(listing.name))
            results.setdefault(name, data["results"])
            seconds = best.setdefault(name, data["seconds"])
            best[name] = [min(a, b) for a, b in zip(seconds, data["seconds"], strict=True)]
    os.unlink(listing.name)

    differing = compare(paths, results["HEAD"], results["worktree"])
    print(f"\nsame result as HEAD: {len(paths) - len(differing)} of {len(paths)} pages")
    for line in differing[:20]:
        print("  differs:", line)
    print(f"\nCPU ms per page (best of {args.rounds} rounds):")
    print(f"{'engine':10s} " + " ".join(f"{str(r)[:24]:>24s}" for r in roots) + f" {'all':>10s}")
    for name in names:
        cells = []
        for index in range(len(roots)):
            own = [s for s, g in zip(best[name], group, strict=True) if g == index]
            cells.append(f"{1000 * sum(own) / max(len(own), 1):24.2f}")
        total = 1000 * sum(best[name]) / len(paths)
        print(f"{name:10s} " + " ".join(cells) + f" {total:10.2f}")
    now = sum(best["worktree"])
    for name in names[:-1]:
        before = sum(best[name])
        print(f"work tree / {name}: {now / before:.3f} (speed-up {before / now:.2f}x)")
    if differing:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
