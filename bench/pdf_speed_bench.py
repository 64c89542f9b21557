"""PDF reading speed and sameness: `extract()` of every PDF with the committed engine and
with the work tree, in one run; whether both give the same result for each file, and the
CPU each takes per document, next to poppler's `pdftotext`.

    python -m bench.pdf_speed_bench                          # /tmp/editor/archive
    python -m bench.pdf_speed_bench --rounds 3 DIR [DIR ...]  # every .pdf under the folders
    python -m bench.pdf_speed_bench --base 1fc2ae8 --no-compare DIR   # time an older engine

The committed engine (--base, HEAD by default) is `bench.engine_at`'s engine of that
commit, imported by a subprocess; the work tree is imported, as installed, by another.
Each subprocess reads every file once unmeasured (imports, tables built on first use, the
files in the page cache), then once timed, a file at a time:
CPU seconds (`time.process_time`) of `extract(path, ocr=False)` (OCR is not what is measured;
an engine without the option is called without it). The engines take turns, --rounds times;
the figures are medians of the rounds, the ratio the median of each round's ratio.

Results are compared file by file: title, paragraphs, format, warnings, hidden text and
unread pictures, or the error's type and message; every difference is shown (--show
limits how many). pdftotext: `pdftotext -q FILE -`, a process per file, its CPU from
`resource.getrusage(RUSAGE_CHILDREN)` (process start included, as a user running it pays).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import inspect
import pickle
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.engine_at import Engine, engine_at

DEFAULT_DIRS = [Path("/tmp/editor/archive")]


def pdf_files(dirs: list[Path]) -> list[Path]:
    return sorted(
        p for d in dirs for p in d.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file()
    )


# --- the worker: runs in a subprocess, with one engine importable as `simsift`


def run_worker(list_file: Path, out_file: Path) -> None:
    """Extract every file of `list_file` once unmeasured, then once timed; pickle the
    results and CPU seconds per file to `out_file`."""
    from simsift.core.read.extract import extract

    paths = [Path(line) for line in list_file.read_text().splitlines() if line]
    options = {"ocr": False} if "ocr" in inspect.signature(extract).parameters else {}
    for path in paths:  # warm-up
        outcome(extract, path, options)
    results, seconds = [], []
    clock = time.process_time
    for path in paths:
        start = clock()
        result = outcome(extract, path, options)
        seconds.append(clock() - start)
        results.append(result)
    engine = str(Path(inspect.getfile(extract)).resolve())
    out_file.write_bytes(pickle.dumps({"engine": engine, "results": results, "cpu": seconds}))


def outcome(extract: object, path: Path, options: dict) -> tuple:
    """The result as plain values (comparable across engines), or the error's type and message."""
    try:
        result = extract(path, **options)  # type: ignore[operator]
    except Exception as error:  # an error is a result to compare too
        return ("error", type(error).__name__, str(error))
    fields = dataclasses.fields(result)
    return ("ok", tuple((f.name, getattr(result, f.name)) for f in fields))


# --- the parent: engines in subprocesses, pdftotext, comparison


def run_engine(engine: Engine, list_file: Path, work: Path) -> dict:
    """One worker subprocess of this bench whose `simsift` is `engine`."""
    out_file = Path(tempfile.mkstemp(suffix=".pkl", dir=work)[1])
    env = engine.env()
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    command = [sys.executable, "-m", "bench.pdf_speed_bench", "--worker", str(list_file)]
    subprocess.run([*command, str(out_file)], env=env, cwd=work, check=True)
    data = pickle.loads(out_file.read_bytes())
    out_file.unlink()
    return data


def pdftotext_cpu(paths: list[Path]) -> tuple[float, int]:
    """CPU seconds of `pdftotext -q FILE -` over the files, and how many it failed on."""
    failed = 0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for path in paths:
        done = subprocess.run(["pdftotext", "-q", str(path), "-"], capture_output=True)
        failed += done.returncode != 0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, failed


def differences(paths: list[Path], old: list[tuple], new: list[tuple]) -> list[str]:
    """A description of every file whose results differ."""
    found = []
    for path, a, b in zip(paths, old, new, strict=True):
        if a != b:
            found.append(f"{path}:\n{describe(a, b)}")
    return found


def describe(old: tuple, new: tuple) -> str:
    if old[0] != "ok" or new[0] != "ok":
        return f"    committed: {old}\n    work tree: {new}"
    lines = []
    old_fields, new_fields = dict(old[1]), dict(new[1])
    for name in dict.fromkeys([*old_fields, *new_fields]):
        if name not in old_fields or name not in new_fields:  # engines of other fields
            where = "work tree" if name in new_fields else "committed"
            lines.append(f"    {name}: only in the {where} engine's result")
            continue
        a, b = old_fields[name], new_fields[name]
        if a == b:
            continue
        if isinstance(a, tuple) and isinstance(b, tuple):
            diff = difflib.unified_diff(list(map(repr, a)), list(map(repr, b)), lineterm="", n=1)
            lines.append(f"    {name}:\n" + "\n".join(f"      {line}" for line in diff))
        else:
            lines.append(f"    {name}: {a!r} -> {b!r}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=DEFAULT_DIRS)
    parser.add_argument("--base", default="HEAD", help="commit of the committed engine")
    parser.add_argument("--rounds", type=int, default=1, help="time it all N times: medians")
    parser.add_argument("--show", type=int, default=20, help="differences shown at most")
    parser.add_argument("--no-compare", action="store_true", help="time only")
    parser.add_argument("--no-pdftotext", action="store_true")
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        run_worker(*args.worker)
        return
    paths = pdf_files(args.dirs)
    if not paths:
        sys.exit("no PDF files found")
    megabytes = sum(p.stat().st_size for p in paths) / 2**20
    print(f"{len(paths)} PDFs, {megabytes:.1f} MB, {args.rounds} round(s)")
    committed, installed = engine_at(args.base), engine_at("installed")
    use_pdftotext = not args.no_pdftotext and shutil.which("pdftotext")
    with tempfile.TemporaryDirectory(prefix="pdf_speed_") as folder:
        work = Path(folder)
        list_file = work / "files.txt"
        list_file.write_text("".join(f"{p}\n" for p in paths))
        old_cpu, new_cpu, ratios, tool_cpu = [], [], [], []
        old = new = {}
        for _ in range(args.rounds):
            old = run_engine(committed, list_file, work)
            new = run_engine(installed, list_file, work)
            old_cpu.append(sum(old["cpu"]))
            new_cpu.append(sum(new["cpu"]))
            ratios.append(old_cpu[-1] / new_cpu[-1])
            if use_pdftotext:
                used, tool_failed = pdftotext_cpu(paths)
                tool_cpu.append(used)
    print(f"committed ({args.base}): {old['engine']}")
    print(f"work tree: {new['engine']}")
    report_speed(len(paths), old_cpu, new_cpu, ratios, tool_cpu, args.base)
    if use_pdftotext and tool_failed:
        print(f"pdftotext failed on {tool_failed} files")
    if not args.no_compare:
        report_sameness(paths, old["results"], new["results"], args.show)


def report_speed(
    count: int,
    old_cpu: list[float],
    new_cpu: list[float],
    ratios: list[float],
    tool_cpu: list[float],
    base: str,
) -> None:
    def per_doc(seconds: list[float]) -> float:
        return statistics.median(seconds) * 1000 / count

    print(f"CPU ms/doc  committed: {per_doc(old_cpu):.2f}  work tree: {per_doc(new_cpu):.2f}")
    print(f"committed / work tree: {statistics.median(ratios):.2f}x  (rounds: ", end="")
    print(", ".join(f"{r:.2f}" for r in ratios) + ")")
    if tool_cpu:
        tool = per_doc(tool_cpu)
        print(f"pdftotext CPU ms/doc: {tool:.2f}")
        print(f"work tree / pdftotext: {per_doc(new_cpu) / tool:.2f}  ", end="")
        print(f"committed ({base}) / pdftotext: {per_doc(old_cpu) / tool:.2f}")


def report_sameness(paths: list[Path], old: list[tuple], new: list[tuple], show: int) -> None:
    found = differences(paths, old, new)
    errors = sum(1 for result in new if result[0] == "error")
    print(f"same result: {len(paths) - len(found)} of {len(paths)} files ({errors} errors alike)")
    for text in found[:show]:
        print(text)
    if len(found) > show:
        print(f"... and {len(found) - show} more")


if __name__ == "__main__":
    main()
