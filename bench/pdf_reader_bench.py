"""PDF reading speed: documents per second of pdfminer.six, of SimSift's PDF reader (PDFium,
pdfminer where PDFium does not read a file as pdfminer does) and of poppler's `pdftotext`,
on the same PDFs in one run; with --before, also of SimSift's PDF reader at earlier
commits, and whether they give the same paragraphs and hidden text as today's.

    python -m bench.pdf_reader_bench DIR [DIR ...]        # every .pdf under the folders
    python -m bench.pdf_reader_bench --repeat 3 /tmp/pdfs
    python -m bench.pdf_reader_bench --before 1fc2ae8 --before HEAD~3 --rounds 3 /tmp/pdfs
    python -m bench.pdf_reader_bench --before /tmp/old_reader /tmp/pdfs   # pdf.py, pdfium.py...

pdfminer: `pdf.pdfminer_paragraphs` (pdfminer's interpreter, the shared layout, hidden
text), the reader of files PDFium does not suit. simsift: `pdf.extract_pdf`, as a scan
reads, OCR of image-only files off (the figures are about reading text, not Tesseract).
before: the same function of the `pdf`, `pdfium` and `pdf_layout` modules as they are at
a --before commit (`git show`), or as copies of them in a --before folder, loaded as a
package of their own. pdftotext: `pdftotext -q FILE -` (a process per file; skipped when
not installed). One process, one file at a time, the readers taking turns on each file;
per reader and file the best of --repeat runs. --rounds times it all that many times and
gives the median of each reader's time and of each ratio (the machine may be shared:
compare within a run). Files a reader fails on count, and are listed.
"""

from __future__ import annotations

import argparse
import inspect
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType

from simsift.core.read.extract import pdf, pdfium

from bench.engine_at import modules_at

ROOT = Path(__file__).resolve().parents[1]


def read_pdfminer(path: Path) -> None:
    pdf.joined_paragraphs(pdf.pdfminer_paragraphs(path, []))


def read_simsift(path: Path) -> None:
    extract(pdf, path)


def extract(module: ModuleType, path: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(paragraphs, hidden text) of `module.extract_pdf`, OCR off where it can be."""
    options = {"ocr": False} if "ocr" in inspect.signature(module.extract_pdf).parameters else {}
    result = module.extract_pdf(path, **options)
    return tuple(result.paragraphs), tuple(result.hidden)


def reader_at(source: str, package_name: str = "simsift_before") -> ModuleType:
    """The `pdf` module as it is at commit `source` (or as the copy in folder `source`), with
    its `pdfium` and `pdf_layout` if it had them, loaded as a package of its own
    (`package_name`) so several versions run in one process."""
    names = ("pdf", "pdfium", "pdf_layout")
    return modules_at(source, "core/read/extract", names, package_name)["pdf"]


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
    parser.add_argument("--rounds", type=int, default=1, help="time it all N times: medians")
    parser.add_argument(
        "--before",
        metavar="COMMIT",
        action="append",
        default=[],
        help="also time the reader at COMMIT (or in a folder of its modules); repeatable",
    )
    args = parser.parse_args()
    paths = sorted(p for d in args.dirs for p in d.rglob("*.pdf") if p.is_file())
    megabytes = sum(p.stat().st_size for p in paths) / 2**20
    print(f"{len(paths)} PDFs, {megabytes:.1f} MB")
    readers: dict[str, Callable[[Path], object]] = {"pdfminer": read_pdfminer}
    befores: dict[str, ModuleType] = {}
    for k, source in enumerate(args.before):
        name = f"before {source}"
        befores[name] = reader_at(source, f"simsift_before{k}")
        readers[name] = partial(extract, befores[name])
    readers["simsift"] = read_simsift
    if shutil.which("pdftotext"):
        readers["pdftotext"] = read_pdftotext
    rounds = [timed(readers, paths, args.repeat) for _ in range(args.rounds)]
    width = max(map(len, readers))
    for name in readers:
        seconds = statistics.median(result[name][0] for result in rounds)
        failed = rounds[0][name][1]
        speed = len(paths) / seconds
        print(f"{name:{width}} {seconds:7.2f} s  {speed:7.2f} documents/s  failed: {len(failed)}")
        for line in failed:
            print(f"    {line}")

    def ratio(fast: str, slow: str) -> float:
        """How many times faster `fast` read than `slow`: the median over the rounds."""
        return statistics.median(result[slow][0] / result[fast][0] for result in rounds)

    print(f"simsift / pdfminer: {ratio('simsift', 'pdfminer'):.2f}x")
    for name in befores:
        print(f"simsift / {name}: {ratio('simsift', name):.2f}x")
    if "pdftotext" in readers:
        print(f"pdftotext / simsift: {ratio('pdftotext', 'simsift'):.2f}x")
        print(f"pdftotext / pdfminer: {ratio('pdftotext', 'pdfminer'):.2f}x")
    if args.rounds > 1:
        print(f"(medians of {args.rounds} rounds)")
    for name, before in befores.items():
        names = differing(before, paths)
        print(f"other paragraphs or hidden text than {name}: {len(names)} {' '.join(names)}")
    routed = routed_to_pdfminer(paths)
    print(f"read by pdfminer (PDFium unsuited): {len(routed)}")
    for line in routed:
        print(f"    {line}")


if __name__ == "__main__":
    main()
