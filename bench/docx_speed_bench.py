"""DOCX and ODT reading speed and sameness (issue 29): `extract()` and the whole
`read_file()` (extract, file hash, tokens) of every .docx/.odt with an old engine (--base,
1fc2ae8 by default), the committed one (HEAD) and the work tree, in one run.

    python bench/docx_speed_bench.py                           # /tmp/editor/archive
    python bench/docx_speed_bench.py --rounds 5 DIR [DIR ...]  # every .docx/.odt under them

Each engine runs in its own subprocess (the committed ones as `git archive` behind a shim
package on PYTHONPATH, made by `pdf_speed_bench.committed_engine`): every file read once
unmeasured (imports, caches, page cache), then once timed with `extract(path, ocr=False)`,
then once timed with `read_file`; CPU seconds (`time.process_time`) per file. The engines
take turns, their order turned round each round; figures are medians of the rounds, each
ratio the median of the rounds' ratios (docs/s of the work tree over the other's).
Results of `extract` are compared file by file with each older engine: title, paragraphs,
format, warnings, hidden text, or the error's type and message.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pdf_speed_bench import committed_engine, differences, outcome, run_engine

DEFAULT_DIRS = [Path("/tmp/editor/archive")]
DEFAULT_ENGINE_DIR = Path("/tmp/eng_docx")
SUFFIXES = (".docx", ".docm", ".dotx", ".odt", ".ott")
WORK_TREE = "work tree"


def package_files(dirs: list[Path]) -> list[Path]:
    return sorted(
        p for d in dirs for p in d.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file()
    )


# --- the worker: runs in a subprocess, with one engine importable as `simsift`


def run_worker(list_file: Path, out_file: Path) -> None:
    """Read every file of `list_file` once unmeasured, then time `extract` and `read_file`
    on each; pickle the results and CPU seconds per file to `out_file`."""
    from simsift.core.read.extract import extract
    from simsift.core.read.reader import read_file

    paths = [Path(line) for line in list_file.read_text().splitlines() if line]
    options = {"ocr": False} if "ocr" in inspect.signature(extract).parameters else {}
    tasks = [read_task(path) for path in paths]
    for path, task in zip(paths, tasks, strict=True):  # warm-up
        outcome(extract, path, options)
        read_file(task)
    clock = time.process_time
    results, extract_cpu, read_cpu = [], [], []
    for path in paths:
        start = clock()
        results.append(outcome(extract, path, options))
        extract_cpu.append(clock() - start)
    for task in tasks:
        start = clock()
        read_file(task)
        read_cpu.append(clock() - start)
    engine = str(Path(inspect.getfile(extract)).resolve())
    data = {"engine": engine, "results": results, "extract": extract_cpu, "read": read_cpu}
    out_file.write_bytes(pickle.dumps(data))


def read_task(path: Path) -> object:
    """A ReadTask for `path` as a scan makes it, OCR off where the engine has the field."""
    from simsift.core.document import MAX_FILE_BYTES
    from simsift.core.read.reader import ReadTask

    stat = path.stat()
    values = {
        "path": str(path),
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
        "max_bytes": MAX_FILE_BYTES,
        "traditional_to_simplified": False,
        "ocr": False,
    }
    names = {f.name for f in dataclasses.fields(ReadTask)}
    return ReadTask(**{k: v for k, v in values.items() if k in names})


# --- the parent: engines in subprocesses taking turns, then the figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=DEFAULT_DIRS)
    parser.add_argument("--base", default="1fc2ae8", help="the old engine's commit")
    parser.add_argument("--engine-dir", type=Path, default=DEFAULT_ENGINE_DIR)
    parser.add_argument("--rounds", type=int, default=3, help="time it all N times: medians")
    parser.add_argument("--show", type=int, default=10, help="differences shown at most")
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        run_worker(*args.worker)
        return
    paths = package_files(args.dirs)
    if not paths:
        sys.exit("no .docx or .odt files found")
    kinds = {kind: [p.suffix.lower() == kind for p in paths] for kind in (".docx", ".odt")}
    print(f"{len(paths)} files ({', '.join(f'{sum(m)} {k}' for k, m in kinds.items())})")
    shims = {
        args.base: committed_engine(args.base, args.engine_dir),
        "HEAD": committed_engine("HEAD", args.engine_dir),
        WORK_TREE: None,
    }
    runs: dict[str, list[dict]] = {name: [] for name in shims}
    with tempfile.TemporaryDirectory(prefix="docx_speed_") as folder:
        work = Path(folder)
        list_file = work / "files.txt"
        list_file.write_text("".join(f"{p}\n" for p in paths))
        order = list(shims)
        for _ in range(args.rounds):
            for name in order:
                runs[name].append(run_engine(shims[name], list_file, work, Path(__file__)))
            order.reverse()
    for name, data in runs.items():
        print(f"{name}: {data[-1]['engine']}")
    report_speed(runs, {"all": [True] * len(paths), **kinds})
    for name in (args.base, "HEAD"):
        report_sameness(name, paths, runs[name][-1]["results"], runs[WORK_TREE][-1]["results"])
        if name == "HEAD":
            found = differences(paths, runs[name][-1]["results"], runs[WORK_TREE][-1]["results"])
            for text in found[: args.show]:
                print(text)


def report_speed(runs: dict[str, list[dict]], kinds: dict[str, list[bool]]) -> None:
    """CPU ms/doc of each engine, and the work tree's docs/s over each other engine's."""
    for measure in ("extract", "read"):
        print(f"\n{'read_file' if measure == 'read' else 'extract'}: CPU ms/doc (median)")
        for kind, chosen in kinds.items():
            count = sum(chosen)
            if not count:
                continue

            def seconds(data: dict, chosen: list[bool] = chosen, measure: str = measure) -> float:
                return sum(s for s, keep in zip(data[measure], chosen, strict=True) if keep)

            line = [f"  {kind:>5} ({count}):"]
            for name, data in runs.items():
                ms = statistics.median(seconds(d) for d in data) * 1000 / count
                line.append(f"{name} {ms:.2f}")
            for name, data in runs.items():
                if name != WORK_TREE:
                    ratios = [
                        seconds(old) / seconds(new)
                        for old, new in zip(data, runs[WORK_TREE], strict=True)
                    ]
                    line.append(f"x{statistics.median(ratios):.2f} vs {name}")
            print("  ".join(line))


def report_sameness(name: str, paths: list[Path], old: list, new: list) -> None:
    found = differences(paths, old, new)
    errors = sum(1 for result in new if result[0] == "error")
    print(
        f"same extract() result as {name}: {len(paths) - len(found)} of {len(paths)} files"
        f" ({errors} errors in the work tree)"
    )


if __name__ == "__main__":
    main()
