"""Ingest benchmark: documents/s and MB/s per format, on 1 and 2 reader processes, cold and warm.

    python -m bench.ingest_bench         # 300 files per format, then a 10,000-file rescan
    python -m bench.ingest_bench --per-format 100 --rescan-files 2000

Corpus (built in a temporary folder from real text):
- txt: Python standard-library module documentation, shuffled into ~600-word essays;
- html: the same essays inside site chrome (navigation, counters, footer);
- docx: the essays written by python-docx;
- pdf: copies of the LibreOffice-made sample PDFs in tests/data/extract (English and Chinese);
- zh: Chinese essays from the seed notes (UTF-8 text).
"Cold" reads every file into a fresh catalog; "warm" rescans the unchanged folder with that
catalog (only stat + catalog lookup). The machine is shared: compare within one run.
"""

from __future__ import annotations

import argparse
import importlib
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.store.catalog import Catalog

ROOT = Path(__file__).resolve().parents[1]

SEEDS = ROOT / "tests" / "data" / "zh_text"
CHROME = (
    "<html><head><meta charset='utf-8'><title>{title}</title></head><body>"
    "<div class='nav'><a href='/'>Home</a> <a href='/news'>News</a> <a href='/a'>About</a></div>"
    "<div class='ad'>Advertisement: buy now</div><article><h1>{title}</h1>{body}</article>"
    "<div class='counter'>Read {views} times</div><footer>Copyright 2026 Example Site</footer>"
    "</body></html>"
)


def english_paragraphs() -> list[str]:
    paragraphs = []
    for name in sorted(sys.stdlib_module_names):
        if name.startswith("_") or name in ("antigravity", "this", "idlelib", "tkinter", "turtle"):
            continue
        try:
            doc = importlib.import_module(name).__doc__ or ""
        except Exception:  # any module that fails to import is just left out
            continue
        paragraphs += [p.strip() for p in doc.split("\n\n") if len(p.split()) > 15]
    return paragraphs


def chinese_paragraphs() -> list[str]:
    out = []
    for path in sorted(SEEDS.glob("*.txt")):
        out += [
            p.strip() for p in path.read_text(encoding="utf-8").split("\n") if len(p.strip()) > 40
        ]
    return out


def essays(paragraphs: list[str], n: int, words: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    result = []
    for _ in range(n):
        chosen: list[str] = []
        while sum(len(p.split()) for p in chosen) < words:
            chosen.append(rng.choice(paragraphs))
        result.append(chosen)
    return result


def build_corpus(folder: Path, per_format: int) -> dict[str, Path]:
    from docx import Document

    en = english_paragraphs()
    zh = chinese_paragraphs()
    dirs = {name: folder / name for name in ("txt", "html", "docx", "pdf", "zh")}
    for d in dirs.values():
        d.mkdir(parents=True)
    for i, essay in enumerate(essays(en, per_format, 600, seed=1)):
        (dirs["txt"] / f"essay {i}.txt").write_text("\n\n".join(essay), encoding="utf-8")
    for i, essay in enumerate(essays(en, per_format, 600, seed=2)):
        body = "".join(f"<p>{p}</p>" for p in essay)
        html = CHROME.format(title=f"Article {i}", body=body, views=i * 37)
        (dirs["html"] / f"article_{i}.html").write_text(html, encoding="utf-8")
    for i, essay in enumerate(essays(en, per_format, 600, seed=3)):
        doc = Document()
        for p in essay:
            doc.add_paragraph(p)
        doc.save(dirs["docx"] / f"report_{i}.docx")
    samples = [
        ROOT / "tests/data/extract/article_en.pdf",
        ROOT / "tests/data/extract/article_zh.pdf",
    ]
    for i in range(per_format):
        shutil.copy(samples[i % 2], dirs["pdf"] / f"paper_{i}.pdf")
    for i, essay in enumerate(essays(zh, per_format, 40, seed=4)):
        (dirs["zh"] / f"作文 {i}.txt").write_text("\n\n".join(essay), encoding="utf-8")
    return dirs


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20


def timed_scan(folder: Path, workers: int, catalog_path: Path):
    with Catalog(catalog_path) as catalog:
        start = time.perf_counter()
        result = scan(ScanOptions(roots=(str(folder),), workers=workers), catalog=catalog)
        return result, time.perf_counter() - start


def per_format_table(dirs: dict[str, Path], tmp: Path) -> None:
    print("| format | files | MB | workers | cold docs/s | cold MB/s | warm rescan s | errors |")
    print("|---|---|---|---|---|---|---|---|")
    for name, folder in dirs.items():
        mb = folder_mb(folder)
        for workers in (1, 2):
            catalog = tmp / f"{name}-{workers}.sqlite3"
            cold, t_cold = timed_scan(folder, workers, catalog)
            warm, t_warm = timed_scan(folder, workers, catalog)
            assert warm.reused == len(cold.documents) + len(cold.errors) + len(cold.skipped)
            files = len(cold.documents) + len(cold.errors)
            print(
                f"| {name} | {files} | {mb:.1f} | {workers} | {files / t_cold:.1f} "
                f"| {mb / t_cold:.2f} | {t_warm:.2f} | {len(cold.errors)} |",
                flush=True,
            )


def sentence_essays(n: int, seed: int) -> list[list[str]]:
    """Essays of 3 paragraphs of 5 random sentences: documents that share sentences but
    (almost) never whole passages, like a class of independently written essays."""
    sentences = [s for p in english_paragraphs() for s in p.split(". ") if len(s.split()) > 6]
    rng = random.Random(seed)
    return [[". ".join(rng.sample(sentences, 5)) for _ in range(3)] for _ in range(n)]


def rescan_figure(tmp: Path, n_files: int, kind: str) -> None:
    """Time to rescan an unchanged folder of n_files text essays."""
    folder = tmp / f"rescan-{kind}"
    folder.mkdir()
    if kind == "collage":
        docs = essays(english_paragraphs(), n_files, 300, seed=9)
    else:
        docs = sentence_essays(n_files, seed=9)
    for i, essay in enumerate(docs):
        (folder / f"e{i}.txt").write_text("\n\n".join(essay), encoding="utf-8")
    catalog = tmp / f"rescan-{kind}.sqlite3"
    cold, t_cold = timed_scan(folder, 2, catalog)
    peak_cold = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    warm, t_warm = timed_scan(folder, 2, catalog)
    print(
        f"\nRescan of an unchanged {n_files:,}-file folder of {kind} essays: {t_warm:.1f} s "
        f"(first scan {t_cold:.1f} s, {len(cold.documents) / t_cold:.0f} docs/s on 2 processes; "
        f"{warm.reused:,} files reused; peak RSS of this process {peak_cold:.0f} MB, "
        f"{len(cold.partial_pairs()):,} partial pairs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-format", type=int, default=300)
    parser.add_argument("--rescan-files", type=int, default=10_000)
    parser.add_argument(
        "--rescan-kind",
        choices=("sentences", "collage"),
        default="sentences",
        help="essays of random sentences, or collages of whole shared paragraphs (worst case "
        "for passage matching: every essay shares paragraphs with ~1%% of the others)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        dirs = build_corpus(tmp / "corpus", args.per_format)
        per_format_table(dirs, tmp)
        if args.rescan_files:
            rescan_figure(tmp, args.rescan_files, args.rescan_kind)


if __name__ == "__main__":
    main()
