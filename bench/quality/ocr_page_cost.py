"""CPU seconds a page of OCR, one file at a time, on the scans `scanned.py` made.

Each file of the chosen degradation is read by `extract` in this process; CPU is this
process and its Tesseract runs (RUSAGE_CHILDREN), so it depends little on other load.
Pages are read as a reader reads them: by the Tesseract loaded in this process
(`tesseract_api`; an ocr.py older than that runs the program), or with `--program` by the
`tesseract` program for every reading. With `--runs` (with `--program`), every Tesseract
run of each file is listed (image size, dpi, languages, page segmentation, CPU seconds):
where a page's time goes.

With `--ocr FILE` given twice or more, each file is read by each of these versions of
`core/read/extract/ocr.py` in turn (A/B on a noisy machine: the versions share its load),
`--repeat` times; each version's CPU s a page is printed, and how many files it reads to
another text than the first version does.

    python -m bench.quality.ocr_page_cost --work /tmp/simsift-scanned/small-120-7-1
    python -m bench.quality.ocr_page_cost --work /tmp/ss28/small-120-7-1 --runs --language zh
    git show HEAD:core/read/extract/ocr.py > /tmp/ocr_before.py
    python -m bench.quality.ocr_page_cost --work /tmp/ss28/small-120-7-1 \\
        --ocr /tmp/ocr_before.py --ocr core/read/extract/ocr.py --repeat 2
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import resource
import sys
from pathlib import Path
from types import ModuleType

from simsift.core.read.extract import extract, ocr, pdf, tesseract_api


def language(plan: dict, name: str) -> str:
    """ "zh" for a file whose known title and first paragraphs are a fifth Chinese or more."""
    title, paragraphs = plan["known"][name]
    text = title + "".join(paragraphs[:3])
    return "zh" if len(re.findall(r"[\u4e00-\u9fff]", text)) > len(text) * 0.2 else "en"


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def recording_runs(module: ModuleType, log: list) -> None:
    """Record every Tesseract run of `module` (an ocr.py) in `log`."""
    real = module._run

    def run(program, image, dpi, *args, check=True):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = real(program, image, dpi, *args, check=check)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        options = dict(zip(args[:-1:2], args[1::2], strict=False))
        said = (options.get("-l", ""), options.get("--psm", ""))
        log.append((image.shape, dpi, *said, round(used, 2)))
        return out

    module._run = run


def load_version(path: Path, number: int) -> ModuleType:
    """The ocr.py at `path` as a module of its own."""
    name = f"simsift.core.read.extract._ocr_version_{number}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def use(module: ModuleType) -> None:
    """Read scanned PDFs with `module`'s OCR (what `pdf` took from ocr.py)."""
    pdf.read_pages, pdf.ocr_summary = module.read_pages, module.ocr_summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="a scanned.py work folder")
    parser.add_argument("--degradation", default="clean-300")
    parser.add_argument("--language", choices=("en", "zh"), action="append")
    parser.add_argument("--runs", action="store_true", help="list each file's Tesseract runs")
    parser.add_argument(
        "--ocr",
        type=Path,
        action="append",
        metavar="FILE",
        help="a version of ocr.py to read with (twice or more: each file by each in turn)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="read every file this often")
    parser.add_argument(
        "--program",
        action="store_true",
        help="run the tesseract program for every reading, as outside a reader",
    )
    args = parser.parse_args()
    if not args.program:  # read as a reader does: with the Tesseract loaded in this process
        tesseract_api.allow_in_this_process()
    plan = json.loads((args.work / "plan.json").read_text(encoding="utf-8"))
    docs = args.work / "scanned" / "docs"
    log: list = []
    versions = [load_version(p, i) for i, p in enumerate(args.ocr)] if args.ocr else [ocr]
    labels = [str(p) for p in args.ocr] if args.ocr else ["ocr.py"]
    if args.runs:
        for module in versions:
            recording_runs(module, log)
    chosen = [
        name
        for name, degradation in plan["degradation"].items()
        if degradation == args.degradation and not plan["copy_of"].get(name)
    ]
    for module in versions:  # imports and first loads, untimed
        use(module)
        extract(docs / chosen[0])
    for lang in args.language or ["en", "zh"]:
        names = [name for name in chosen if language(plan, name) == lang]
        pages = sum(plan["pages"][name] for name in names) * args.repeat
        used = [0.0] * len(versions)
        differ = [0] * len(versions)
        for _ in range(args.repeat):
            for name in names:
                texts = []
                for v, module in enumerate(versions):
                    use(module)
                    log.clear()
                    start = cpu()
                    texts.append(extract(docs / name).text)
                    used[v] += cpu() - start
                    if args.runs:
                        tag = f" [{v}]" if len(versions) > 1 else ""
                        print(f"  {name}{tag} ({plan['pages'][name]} pages): {log}")
                for v, text in enumerate(texts):
                    differ[v] += text != texts[0]
        for v, label in enumerate(labels):
            said = f", {differ[v]} of {len(names) * args.repeat} texts differ" if v else ""
            print(
                f"{lang}: {len(names)} files, {pages} pages, {used[v] / max(1, pages):.2f} CPU s "
                f"a page{said} (load average {os.getloadavg()[0]:.1f}){'  ' + label}"
            )
    use(ocr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
