"""One scanned PDF read by `extract` in this process with Tesseract loaded in the process (as
a reader reads it: `tesseract_api`) and with the program run for every reading, in turn:
wall and CPU seconds (this process and its Tesseract runs), and whether the text is the same.

    python bench/quality/ocr_file_ab.py /tmp/scan30/scan30.pdf --rounds 1
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

from simsift.core.read.extract import extract, tesseract_api


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    texts = set()
    for round_ in range(args.rounds):
        ways = ["loaded", "program"] if round_ % 2 == 0 else ["program", "loaded"]
        for way in ways:
            tesseract_api.allow_in_this_process(way == "loaded")
            start_cpu, start = cpu(), time.monotonic()
            result = extract(args.pdf)
            wall, used = time.monotonic() - start, cpu() - start_cpu
            texts.add(result.text)
            print(
                f"round {round_ + 1} {way}: {wall:.1f} s wall, {used:.1f} CPU s, "
                f"{len(result.paragraphs)} paragraphs, {'; '.join(result.warnings)} "
                f"(load {os.getloadavg()[0]:.1f})",
                flush=True,
            )
    print("the same text every time" if len(texts) == 1 else f"{len(texts)} different texts")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
