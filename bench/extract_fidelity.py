"""HTML extraction fidelity: how much of each page's text an extractor keeps, against w3m.

    python -m bench.extract_fidelity                                 # SimSift, every page
    python -m bench.extract_fidelity --extractor simsift --extractor alltext --extractor trafilatura
    python -m bench.extract_fidelity --root /some/site --worst 20 --json /tmp/fidelity.json

Pages: every .html/.htm file under --root (default /usr/share/doc; directory symlinks not
followed). Reference: `w3m -dump -T text/html` of the same page, i.e. what a reader sees,
navigation included, so a perfect main-content extractor stays a little below 1.0.
Score of a page: words of the extracted title + paragraphs that are also in the w3m dump
(multiset overlap), divided by the dump's word count. Words are lower-cased runs of letters
and digits; every CJK character counts as one word. Pages whose dump has no word are left
out (and counted). Time per page is one extraction (read + decode + parse + extract) in this
process, after the references are made; the machine may be shared, so compare within a run.
Extractors: simsift (core.read.extract.extract, as a scan reads), alltext (every visible text,
SimSift's fallback), nochrome (every text outside the navigation, footer,
sidebar... blocks SimSift drops by tag, ARIA role, id or class: a ceiling for any extractor
that drops them), trafilatura (favor_recall=True; only if installed).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from simsift.core.document import ExtractionError

ROOT = Path(__file__).resolve().parents[1]

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
LOW_SCORE = 0.6


def words(text: str) -> Counter[str]:
    """Multiset of lower-cased words; each CJK character is a word."""
    return Counter(_WORD.findall(text.lower()))


def html_pages(root: Path) -> list[Path]:
    """Every .html/.htm file under `root`, sorted; directory symlinks are not followed."""
    pages = []
    for folder, _dirs, files in os.walk(root):
        for name in files:
            path = Path(folder, name)
            if name.lower().endswith((".html", ".htm")) and path.is_file():
                pages.append(path)
    return sorted(pages)


def w3m_dump(path: Path) -> str:
    """What w3m shows of the page, as UTF-8 text."""
    done = subprocess.run(
        ["w3m", "-dump", "-T", "text/html", "-O", "UTF-8", str(path)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    return done.stdout.decode("utf-8", errors="replace")


def simsift_text(path: Path) -> str:
    from simsift.core.read.extract import extract

    result = extract(path)
    return "\n".join((result.title, *result.paragraphs))


def alltext_text(path: Path) -> str:
    from simsift.core.read.extract.encoding import decode_bytes
    from simsift.core.read.extract.html import (
        all_text_paragraphs,
        declared_charset,
        page_title,
        parse_html,
    )

    data = path.read_bytes()
    root = parse_html(decode_bytes(data, declared_charset(data)))
    return "\n".join((page_title(root), *all_text_paragraphs(root)))


def nochrome_text(path: Path) -> str:
    """Every text outside the blocks SimSift drops as chrome: the most it could keep."""
    from simsift.core.read.extract.encoding import decode_bytes
    from simsift.core.read.extract.html import (
        all_text_paragraphs,
        declared_charset,
        drop_boilerplate_blocks,
        page_title,
        parse_html,
    )

    data = path.read_bytes()
    root = parse_html(decode_bytes(data, declared_charset(data)))
    title = page_title(root)
    drop_boilerplate_blocks(root)
    return "\n".join((title, *all_text_paragraphs(root)))


def trafilatura_text(path: Path) -> str:
    import trafilatura

    data = path.read_bytes()
    text = trafilatura.extract(data, favor_recall=True, include_comments=False) or ""
    meta = trafilatura.extract_metadata(data)
    title = meta.title if meta is not None and meta.title else ""
    return f"{title}\n{text}"


EXTRACTORS: dict[str, Callable[[Path], str]] = {
    "simsift": simsift_text,
    "alltext": alltext_text,
    "nochrome": nochrome_text,
    "trafilatura": trafilatura_text,
}


def measure(name: str, pages: list[Path], refs: list[Counter[str]]) -> dict:
    """Score and time of extractor `name` on every page."""
    extract = EXTRACTORS[name]
    rows = []
    for path, ref in zip(pages, refs, strict=True):
        start = time.perf_counter()
        try:
            text = extract(path)
        except ExtractionError:
            text = ""
        seconds = time.perf_counter() - start
        kept = sum((words(text) & ref).values())
        rows.append({"page": str(path), "score": kept / sum(ref.values()), "seconds": seconds})
    scores = [r["score"] for r in rows]
    times = sorted(r["seconds"] for r in rows)
    return {
        "extractor": name,
        "pages": len(rows),
        "median": statistics.median(scores),
        "mean": statistics.fmean(scores),
        "under": sum(s < LOW_SCORE for s in scores) / len(scores),
        "ms_mean": 1000 * statistics.fmean(times),
        "ms_p95": 1000 * times[int(0.95 * (len(times) - 1))],
        "rows": rows,
    }


def print_report(results: list[dict], root: Path, worst: int) -> None:
    print(f"\n| extractor | pages | median | mean | < {LOW_SCORE} | ms/page mean | ms/page p95 |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['extractor']} | {r['pages']} | {r['median']:.3f} | {r['mean']:.3f} "
            f"| {r['under']:.1%} | {r['ms_mean']:.1f} | {r['ms_p95']:.1f} |"
        )
    for r in results:
        print(f"\nWorst {worst} pages, {r['extractor']}:")
        for row in sorted(r["rows"], key=lambda row: row["score"])[:worst]:
            print(f"  {row['score']:.3f}  {Path(row['page']).relative_to(root)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/usr/share/doc"))
    parser.add_argument("--extractor", action="append", choices=sorted(EXTRACTORS))
    parser.add_argument("--worst", type=int, default=10)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="for w3m")
    parser.add_argument("--json", type=Path, help="write every page's score here")
    args = parser.parse_args()
    names = args.extractor or ["simsift"]

    pages = html_pages(args.root)
    with ProcessPoolExecutor(args.workers) as pool:
        dumps = list(pool.map(w3m_dump, pages, chunksize=8))
    refs = [words(d) for d in dumps]
    measured = [(p, r) for p, r in zip(pages, refs, strict=True) if r]
    print(f"{len(pages)} pages under {args.root}; {len(pages) - len(measured)} with no word in w3m")
    pages, refs = [p for p, _ in measured], [r for _, r in measured]

    results = [measure(name, pages, refs) for name in names]
    print_report(results, args.root, args.worst)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
