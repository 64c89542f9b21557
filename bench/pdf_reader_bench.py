"""PDF reading speed: documents per second of pdfminer.six, of SimSift's PDF reader (PDFium,
pdfminer where PDFium does not read a file as pdfminer does) and of poppler's `pdftotext`,
on the same PDFs in one run; with --before, also of SimSift's PDF reader at an earlier
commit, and whether both give the same paragraphs and hidden text.

    python bench/pdf_reader_bench.py DIR [DIR ...]        # every .pdf under the folders
    python bench/pdf_reader_bench.py --repeat 3 /tmp/pdfs
    python bench/pdf_reader_bench.py --before HEAD --repeat 3 /tmp/pdfs

pdfminer: `pdf.pdfminer_paragraphs` (pdfminer's interpreter, the shared layout, hidden
text), the reader of files PDFium does not suit. simsift: `pdf.extract_pdf`, as a scan
reads, OCR of image-only files off (the figures are about reading text, not Tesseract).
before: the same function of the `pdf`, `pdfium` and `pdf_layout` modules as they are at
the --before commit (`git show`, loaded as a package of their own). pdftotext:
`pdftotext -q FILE -` (a process per file; skipped when not installed). One process, one
file at a time, the readers taking turns on each file; per reader and file the best of
--repeat runs. Files a reader fails on count, and are listed.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simsift.core.read.extract import pdf, pdfium  # noqa: E402


def read_pdfminer(path: Path) -> None:
    pdf.joined_paragraphs(pdf.pdfminer_paragraphs(path, []))


def read_simsift(path: Path) -> None:
    extract(pdf, path)


def extract(module: ModuleType, path: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(paragraphs, hidden text) of `module.extract_pdf`, OCR off where it can be."""
    options = {"ocr": False} if "ocr" in inspect.signature(module.extract_pdf).parameters else {}
    result = module.extract_pdf(path, **options)
    return tuple(result.paragraphs), tuple(result.hidden)


def reader_at(commit: str) -> ModuleType:
    """The `pdf` module as it is at `commit`, with its `pdfium` and `pdf_layout` if it had
    them, loaded from a temporary package (`simsift_before`) so both versions run in one process."""
    folder = Path(tempfile.mkdtemp(prefix="pdf_before_"))
    package = folder / "simsift_before"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in ("pdf", "pdfium", "pdf_layout"):
        shown = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:core/read/extract/{name}.py"],
            capture_output=True,
            text=True,
        )
        if shown.returncode:  # not there yet (pdfminer alone read PDFs before PDFium)
            continue
        source = shown.stdout
        source = source.replace(
            "from simsift.core.read.extract import pdfium", "from simsift_before import pdfium"
        ).replace("from simsift.core.read.extract.pdf_layout", "from simsift_before.pdf_layout")
        (package / f"{name}.py").write_text(source)
    sys.path.insert(0, str(folder))
    return importlib.import_module("simsift_before.pdf")


def differing(before: ModuleType, paths: list[Path]) -> list[str]:
    """Files the two readers give different paragraphs or hidden text (or errors) for."""
    names = []
    for path in paths:
        results = []
        for module in (before, pdf):
            try:
                results.append(extract(module, path))
            except Exception as error:  # the same error on both sides is the same result
                results.append(type(error).__name__)
        if results[0] != results[1]:
            names.append(path.name)
    return names


def read_pdftotext(path: Path) -> None:
    subprocess.run(
        ["pdftotext", "-q", str(path), "-"], capture_output=True, timeout=120, check=True
    )


def timed(
    readers: dict[str, Callable[[Path], object]], paths: list[Path], repeat: int
) -> dict[str, tuple[float, list[str]]]:
    """Each reader's seconds over all files (the best of `repeat` runs per file, the readers
    taking turns on each file: a burst of load elsewhere slows them alike) and failures."""
    best = {(name, path): float("inf") for name in readers for path in paths}
    failed: dict[str, list[str]] = {name: [] for name in readers}
    for run in range(repeat):
        for path in paths:
            for name, read in readers.items():
                start = time.perf_counter()
                try:
                    read(path)
                except Exception as error:  # a reader's failure is a result here
                    if run == 0:
                        failed[name].append(f"{path.name}: {type(error).__name__}")
                seconds = time.perf_counter() - start
                best[name, path] = min(best[name, path], seconds)
    return {name: (sum(best[name, p] for p in paths), failed[name]) for name in readers}


def routed_to_pdfminer(paths: list[Path]) -> list[str]:
    names = []
    for path in paths:
        try:
            list(pdfium.page_paragraphs(path))
        except pdfium.Unsuited as error:
            names.append(f"{path.name} ({error})")
        except pdfium.PasswordProtected:
            pass
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--before", metavar="COMMIT", help="also time the reader at COMMIT")
    args = parser.parse_args()
    paths = sorted(p for d in args.dirs for p in d.rglob("*.pdf") if p.is_file())
    megabytes = sum(p.stat().st_size for p in paths) / 2**20
    print(f"{len(paths)} PDFs, {megabytes:.1f} MB")
    readers: dict[str, Callable[[Path], object]] = {"pdfminer": read_pdfminer}
    if args.before:
        before = reader_at(args.before)
        readers["before"] = partial(extract, before)
    readers["simsift"] = read_simsift
    if shutil.which("pdftotext"):
        readers["pdftotext"] = read_pdftotext
    speeds = {}
    for name, (seconds, failed) in timed(readers, paths, args.repeat).items():
        speeds[name] = len(paths) / seconds
        print(f"{name:10} {seconds:7.2f} s  {speeds[name]:7.2f} documents/s  failed: {len(failed)}")
        for line in failed:
            print(f"    {line}")
    print(f"simsift / pdfminer: {speeds['simsift'] / speeds['pdfminer']:.1f}x")
    if "before" in speeds:
        print(f"simsift / before: {speeds['simsift'] / speeds['before']:.2f}x")
    if "pdftotext" in speeds:
        print(f"pdftotext / simsift: {speeds['pdftotext'] / speeds['simsift']:.1f}x")
        print(f"pdftotext / pdfminer: {speeds['pdftotext'] / speeds['pdfminer']:.1f}x")
    if args.before:
        names = differing(before, paths)
        print(f"other paragraphs or hidden text than before: {len(names)} {' '.join(names)}")
    routed = routed_to_pdfminer(paths)
    print(f"read by pdfminer (PDFium unsuited): {len(routed)}")
    for line in routed:
        print(f"    {line}")


if __name__ == "__main__":
    main()
