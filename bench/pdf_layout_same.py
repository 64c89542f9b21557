"""Whether two trees' PDF readers give the same text: every PDF under the folders read by
both readers (PDFium's `pdfium.page_paragraphs`, pdfminer's `pdf.pdfminer_paragraphs`, each
forced), at this tree and at another (its own virtualenv), text boxes and hidden text
compared file by file.

    python -m bench.pdf_layout_same --other /work/main DIR [DIR ...]

Prints how many files each reader read, how many differ, and the first differing box of
each file that does; exits 1 when any differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

# a file a reader takes longer than this on, or more memory, is recorded as such (a bomb)
_SECONDS_PER_FILE = 120
_MEMORY = 4 << 30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--other", type=Path, help="the other tree (with .venv/)")
    parser.add_argument("--extract", type=Path, help="only write this tree's texts there")
    parser.add_argument("--skip", type=int, default=0, help="with --extract: files done")
    args = parser.parse_args()
    if args.extract:
        resource.setrlimit(resource.RLIMIT_AS, (_MEMORY, _MEMORY))
        write_texts(unique_pdfs(args.folders)[args.skip :], args.extract)
        return
    with tempfile.TemporaryDirectory() as folder:
        ours, theirs = Path(folder, "ours.jsonl"), Path(folder, "theirs.jsonl")
        run_in(Path(sys.executable), args.folders, ours)
        run_in(args.other / ".venv/bin/python", args.folders, theirs)
        sys.exit(report(load(theirs), load(ours)))


def unique_pdfs(folders: list[Path]) -> list[Path]:
    """The PDFs under the folders, one per content, by path."""
    seen: dict[str, Path] = {}
    for path in sorted(p for folder in folders for p in folder.rglob("*.pdf") if p.is_file()):
        seen.setdefault(hashlib.sha1(path.read_bytes()).hexdigest(), path)
    return sorted(seen.values())


def run_in(python: Path, folders: list[Path], out: Path) -> None:
    """Every file's texts read by that Python's tree into `out`, a file that crashes the
    reader recorded as such and the rest read by a new process."""
    files = unique_pdfs(folders)
    out.touch()
    while (done := len(out.read_text().splitlines())) < len(files):
        command = [str(python), __file__, "--extract", str(out), "--skip", str(done)]
        if subprocess.run([*command, *map(str, folders)]).returncode:
            crashed = {"error": "the reader's process died"}
            at = len(out.read_text().splitlines())
            record = {"file": str(files[at]), "pdfium": crashed, "pdfminer": crashed}
            with out.open("a") as lines:
                lines.write(json.dumps(record) + "\n")


def write_texts(files: list[Path], out: Path) -> None:
    from simsift.core.read.extract import pdf, pdfium

    def by_pdfium(path: Path) -> dict:
        hidden: list[str] = []
        return {"boxes": list(pdfium.page_paragraphs(path, hidden, [])), "hidden": hidden}

    def by_pdfminer(path: Path) -> dict:
        hidden: list[str] = []
        return {"boxes": pdf.pdfminer_paragraphs(path, hidden), "hidden": hidden}

    with out.open("a") as lines:
        for path in files:
            record = {"file": str(path)}
            for name, read in (("pdfium", by_pdfium), ("pdfminer", by_pdfminer)):
                record[name] = timed(read, path)
            lines.write(json.dumps(record) + "\n")
            lines.flush()


def timed(read, path: Path) -> dict:
    """The reader's texts, or its error's type and message."""

    def late(*_: object) -> None:
        raise TimeoutError(f"over {_SECONDS_PER_FILE} s")

    signal.signal(signal.SIGALRM, late)
    signal.alarm(_SECONDS_PER_FILE)
    try:
        return read(path)
    except Exception as error:  # recorded, compared like a text
        return {"error": f"{type(error).__name__}: {error}"}
    finally:
        signal.alarm(0)


def load(path: Path) -> dict[str, dict]:
    return {r["file"]: r for r in map(json.loads, path.read_text().splitlines())}


def report(before: dict[str, dict], after: dict[str, dict]) -> int:
    differ = 0
    for reader in ("pdfium", "pdfminer"):
        read = sum("error" not in r[reader] for r in after.values())
        changed = [f for f in sorted(after) if before[f][reader] != after[f][reader]]
        print(f"{reader}: {len(after)} files, {read} read without error, {len(changed)} differ")
        for file in changed:
            print(f"  {file}: {first_difference(before[file][reader], after[file][reader])}")
        differ += len(changed)
    return 1 if differ else 0


def first_difference(before: dict, after: dict) -> str:
    if "error" in before or "error" in after:
        return f"{before.get('error', 'read')} -> {after.get('error', 'read')}"
    for key in ("boxes", "hidden"):
        a, b = before[key], after[key]
        for k, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return f"{key}[{k}]: {x!r} -> {y!r}"
        if len(a) != len(b):
            return f"{key}: {len(a)} -> {len(b)}"
    return "?"


if __name__ == "__main__":
    main()
