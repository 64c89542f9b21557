"""CPU seconds a page of OCR, one file at a time, on the scans `scanned.py` made.

Each file of the chosen degradation is read by `extract` in this process; CPU is this
process and its Tesseract runs (RUSAGE_CHILDREN), so it depends little on other load.
With `--runs`, every Tesseract run of each file is listed (image size, dpi, languages,
page segmentation, CPU seconds): where a page's time goes.

    python bench/quality/ocr_page_cost.py --work /tmp/simsift-scanned/small-120-7-1
    python bench/quality/ocr_page_cost.py --work /tmp/ss28/small-120-7-1 --runs --language zh
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
from pathlib import Path

from simsift.core.read.extract import extract, ocr


def language(plan: dict, name: str) -> str:
    """ "zh" for a file whose known title and first paragraphs are a fifth Chinese or more."""
    title, paragraphs = plan["known"][name]
    text = title + "".join(paragraphs[:3])
    return "zh" if len(re.findall(r"[\u4e00-\u9fff]", text)) > len(text) * 0.2 else "en"


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def recording_runs(log: list) -> None:
    """Record every Tesseract run in `log`."""
    real = ocr._run

    def run(program, image, dpi, *args, check=True):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = real(program, image, dpi, *args, check=check)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        options = dict(zip(args[:-1:2], args[1::2], strict=False))
        said = (options.get("-l", ""), options.get("--psm", ""))
        log.append((image.shape, dpi, *said, round(used, 2)))
        return out

    ocr._run = run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="a scanned.py work folder")
    parser.add_argument("--degradation", default="clean-300")
    parser.add_argument("--language", choices=("en", "zh"), action="append")
    parser.add_argument("--runs", action="store_true", help="list each file's Tesseract runs")
    args = parser.parse_args()
    plan = json.loads((args.work / "plan.json").read_text(encoding="utf-8"))
    docs = args.work / "scanned" / "docs"
    log: list = []
    if args.runs:
        recording_runs(log)
    chosen = [
        name
        for name, degradation in plan["degradation"].items()
        if degradation == args.degradation and not plan["copy_of"].get(name)
    ]
    extract(docs / chosen[0])  # imports and first loads, untimed
    for lang in args.language or ["en", "zh"]:
        names = [name for name in chosen if language(plan, name) == lang]
        used = pages = 0
        for name in names:
            log.clear()
            start = cpu()
            extract(docs / name)
            used += cpu() - start
            pages += plan["pages"][name]
            if args.runs:
                print(f"  {name} ({plan['pages'][name]} pages): {log}")
        print(
            f"{lang}: {len(names)} files, {pages} pages, {used / max(1, pages):.2f} CPU s a page "
            f"(load average {os.getloadavg()[0]:.1f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
