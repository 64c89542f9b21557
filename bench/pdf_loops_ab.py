"""The PDF reader with its C loops (`core/read/extract/pdf_loops.c`) against their Python
twins, in one process, file by file, the order alternated: CPU ms a document for `extract`
of every PDF under the folders, and the ratio. Run by hand:

    python bench/pdf_loops_ab.py [--rounds 2] [DIR ...]      # default /tmp/editor/archive
"""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path

from simsift.core.read.extract import extract, pdf_boxes, pdf_layout, pdf_order, pdfium

LOOPS = pdfium.pdf_loops


def use_loops(on: bool) -> None:
    for module in (pdfium, pdf_layout, pdf_boxes, pdf_order):
        module.pdf_loops = LOOPS if on else None


def cpu_seconds(path: Path) -> float:
    start = time.process_time()
    with contextlib.suppress(Exception):  # errors cost what they cost in both
        extract(path)
    return time.process_time() - start


def one_round(paths: list[Path]) -> tuple[float, float]:
    """CPU seconds with the loops, and without."""
    spent = {True: 0.0, False: 0.0}
    for k, path in enumerate(paths):
        for on in (True, False) if k % 2 else (False, True):
            use_loops(on)
            spent[on] += cpu_seconds(path)
    use_loops(True)
    return spent[True], spent[False]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=[Path("/tmp/editor/archive")])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if LOOPS is None:
        raise SystemExit("the C loops are not built (pip install -e . with a C compiler)")
    paths = sorted(p for d in args.dirs for p in d.rglob("*") if p.suffix.lower() == ".pdf")
    print(f"{len(paths)} PDFs")
    for path in paths[:20]:  # imports and caches warmed
        cpu_seconds(path)
    for r in range(1, args.rounds + 1):
        on, off = one_round(paths)
        n = len(paths)
        print(
            f"round {r}: C loops {1000 * on / n:.2f} ms/doc, Python twins "
            f"{1000 * off / n:.2f} ms/doc, twins / loops {off / on:.3f}"
        )


if __name__ == "__main__":
    main()
