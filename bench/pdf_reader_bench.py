"""PDF reading speed: documents per second of pdfminer.six, of SimSift's PDF reader (PDFium,
pdfminer where PDFium does not read a file as pdfminer does) and of poppler's `pdftotext`,
on the same PDFs in one run.

    python bench/pdf_reader_bench.py DIR [DIR ...]        # every .pdf under the folders
    python bench/pdf_reader_bench.py --repeat 3 /tmp/pdfs

pdfminer: `pdf.pdfminer_paragraphs` (interpreter, layout, hidden text), as SimSift read every
PDF before. simsift: `pdf.extract_pdf`, as a scan reads. pdftotext: `pdftotext -q FILE -`
(a process per file; skipped when not installed). One process, one file at a time; the best
of --repeat runs per reader. Files a reader fails on count, and are listed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simsift.core.read.extract import pdf, pdfium  # noqa: E402


def read_pdfminer(path: Path) -> None:
    pdf.joined_paragraphs(pdf.pdfminer_paragraphs(path, []))


def read_simsift(path: Path) -> None:
    pdf.extract_pdf(path)


def read_pdftotext(path: Path) -> None:
    subprocess.run(
        ["pdftotext", "-q", str(path), "-"], capture_output=True, timeout=120, check=True
    )


def timed(read: Callable[[Path], None], paths: list[Path]) -> tuple[float, list[str]]:
    failed = []
    start = time.perf_counter()
    for path in paths:
        try:
            read(path)
        except Exception as error:  # a reader's failure is a result here
            failed.append(f"{path.name}: {type(error).__name__}")
    return time.perf_counter() - start, failed


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
    args = parser.parse_args()
    paths = sorted(p for d in args.dirs for p in d.rglob("*.pdf") if p.is_file())
    megabytes = sum(p.stat().st_size for p in paths) / 2**20
    print(f"{len(paths)} PDFs, {megabytes:.1f} MB")
    readers = {"pdfminer": read_pdfminer, "simsift": read_simsift}
    if shutil.which("pdftotext"):
        readers["pdftotext"] = read_pdftotext
    speeds = {}
    for name, read in readers.items():
        seconds, failed = min((timed(read, paths) for _ in range(args.repeat)), key=lambda r: r[0])
        speeds[name] = len(paths) / seconds
        print(f"{name:10} {seconds:7.2f} s  {speeds[name]:7.2f} documents/s  failed: {len(failed)}")
        for line in failed:
            print(f"    {line}")
    print(f"simsift / pdfminer: {speeds['simsift'] / speeds['pdfminer']:.1f}x")
    if "pdftotext" in speeds:
        print(f"pdftotext / simsift: {speeds['pdftotext'] / speeds['simsift']:.1f}x")
        print(f"pdftotext / pdfminer: {speeds['pdftotext'] / speeds['pdfminer']:.1f}x")
    routed = routed_to_pdfminer(paths)
    print(f"read by pdfminer (PDFium unsuited): {len(routed)}")
    for line in routed:
        print(f"    {line}")


if __name__ == "__main__":
    main()
