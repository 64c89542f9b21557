"""HTML reading and Chinese tokenizing: the code as of HEAD against the working tree, in one run.

    python bench/html_chinese_bench.py                      # both parts, default corpora
    python bench/html_chinese_bench.py --html-root /usr/share/doc --html-root /some/site
    python bench/html_chinese_bench.py --zh-mb 20 --rounds 3

HTML: `extract_html` of every .html/.htm file under the --html-root folders (default
/usr/share/doc and tests/data/extract), bytes read into memory first. The old reader is
`core/read/extract/html.py` from `git show HEAD:...`, loaded under another module name (it
shares the working tree's encoding, hidden-text and paragraph helpers). Their results
(title, paragraphs, hidden text, warnings, or the error) must be identical.

Chinese: `token_stream` (normalization, jieba, hashes, quotation marks) of real Chinese
paragraphs (tests/data/zh_text; if present, the zh_CN and zh_TW manual pages rendered as text
in /tmp/man_txt and the Chinese messages of the programs in /usr/share/locale), each once,
then shuffled and repeated to --zh-mb MB of UTF-8. The old tokens.py from HEAD, loaded under
another name, calls `jieba.lcut`. Token hashes, digit flags, paragraph starts and marks must
be identical. The repeated corpus repeats clauses as a class of similar essays does (the new
code remembers the last 16,384 clauses of up to 32 characters), so its ratio is the upper
figure, the once-only one the lower; caches are cleared before every timed run.

Old and new alternate within each round, the best of --rounds counts; the machine may be
shared, so compare the ratio, not the seconds, across runs.
"""

from __future__ import annotations

import argparse
import gc
import gettext
import importlib.util
import os
import random
import re
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simsift.core.document import ExtractionError  # noqa: E402

ZH_SOURCES = (ROOT / "tests/data/zh_text", Path("/tmp/man_txt/zh_CN"), Path("/tmp/man_txt/zh_TW"))
# Programs' Chinese messages: real text, little of it repeated.
ZH_MESSAGES = (
    Path("/usr/share/locale/zh_CN/LC_MESSAGES"),
    Path("/usr/share/locale/zh_TW/LC_MESSAGES"),
)


def old_module(path: str) -> types.ModuleType:
    """`path` (relative to the repository) as of HEAD, loaded under another module name."""
    source = subprocess.run(
        ["git", "show", f"HEAD:{path}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    name = "simsift_old_" + Path(path).stem
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    exec(compile(source, f"HEAD:{path}", "exec"), module.__dict__)
    return module


def best_of(rounds: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Best time of each run over `rounds` rounds, the runs alternating within a round."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            gc.collect()
            started = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - started)
    return best


# ---------------------------------------------------------------- HTML


def html_pages(roots: list[Path]) -> list[Path]:
    pages = []
    for root in roots:
        for folder, _dirs, files in os.walk(root):
            for name in files:
                path = Path(folder, name)
                if name.lower().endswith((".html", ".htm")) and path.is_file():
                    pages.append(path)
    return sorted(pages)


def html_results(extract: Callable, pages: list[bytes]) -> list:
    results = []
    for data in pages:
        try:
            r = extract(data)
            results.append((r.title, r.paragraphs, r.hidden, r.warnings))
        except ExtractionError as error:
            results.append(f"error: {error}")
    return results


def bench_html(roots: list[Path], rounds: int) -> None:
    from simsift.core.read.extract import html as new

    old = old_module("core/read/extract/html.py")
    paths = html_pages(roots)
    pages = [p.read_bytes() for p in paths]
    same = html_results(old.extract_html, pages) == html_results(new.extract_html, pages)
    size = sum(map(len, pages)) / 2**20
    print(f"HTML: {len(pages)} pages, {size:.1f} MB; results identical: {same}")
    times = best_of(
        rounds,
        {
            "HEAD": lambda: html_results(old.extract_html, pages),
            "now": lambda: html_results(new.extract_html, pages),
        },
    )
    report(times, len(pages), "pages")


# ---------------------------------------------------------------- Chinese


def zh_paragraphs() -> list[str]:
    """Paragraphs holding Chinese, of every .txt file under `ZH_SOURCES` and every message of
    the .mo files in `ZH_MESSAGES` (whitespace runs made single spaces)."""
    paragraphs = []
    for folder in ZH_SOURCES:
        for path in sorted(folder.rglob("*.txt")) if folder.is_dir() else []:
            text = path.read_text(encoding="utf-8", errors="replace")
            for paragraph in re.split(r"\n\s*\n", text):
                paragraph = " ".join(paragraph.split())
                if re.search(r"[\u4e00-\u9fff]", paragraph):
                    paragraphs.append(paragraph)
    for folder in ZH_MESSAGES:
        for path in sorted(folder.glob("*.mo")) if folder.is_dir() else []:
            try:
                with path.open("rb") as f:
                    catalog = gettext.GNUTranslations(f)._catalog
            except (OSError, UnicodeDecodeError):
                continue
            for message in catalog.values():
                message = " ".join(str(message).split())
                if re.search(r"[\u4e00-\u9fff]", message):
                    paragraphs.append(message)
    return paragraphs


def repeated(paragraphs: list[str], megabytes: float, seed: int = 29) -> list[str]:
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    shuffled = list(paragraphs)
    while size < megabytes * 2**20:
        rng.shuffle(shuffled)
        out.extend(shuffled)
        size += sum(len(p.encode()) for p in shuffled)
    return out


def stream_fields(stream) -> tuple:
    return (
        stream.hashes.tobytes(),
        stream.is_digit.tobytes(),
        stream.para_starts.tobytes(),
        stream.marks.tobytes(),
        stream.unbalanced_quotes,
    )


def clear_caches(*modules: types.ModuleType) -> None:
    """Forget cached hashes, clauses and HMM words, so a run starts as a fresh process would."""
    from simsift.core.text import word_segmenter

    for module in modules:
        module.token_hash.cache_clear()
    word_segmenter._cut_short.cache_clear()
    word_segmenter._hmm_cut.cache_clear()


def bench_chinese(megabytes: float, rounds: int) -> None:
    from simsift.core.text import tokens as new
    from simsift.core.text.word_segmenter import jieba_module

    jieba_module()
    old = old_module("core/text/tokens.py")
    once = zh_paragraphs()
    corpus = repeated(once, megabytes)
    size = sum(len(p.encode()) for p in corpus) / 2**20
    once_size = sum(len(p.encode()) for p in once) / 2**20
    same = stream_fields(old.token_stream(corpus)) == stream_fields(new.token_stream(corpus))
    print(
        f"Chinese: {len(once)} paragraphs ({once_size:.2f} MB), repeated to {len(corpus)}"
        f" paragraphs, {size:.1f} MB; tokens identical: {same}"
    )

    def fresh(module, paragraphs):
        def run():
            clear_caches(old, new)
            module.token_stream(paragraphs)

        return run

    print("each paragraph once:")
    report(best_of(rounds, {"HEAD": fresh(old, once), "now": fresh(new, once)}), once_size, "MB")
    print(f"{size:.1f} MB:")
    report(best_of(rounds, {"HEAD": fresh(old, corpus), "now": fresh(new, corpus)}), size, "MB")


def report(times: dict[str, float], amount: float, unit: str) -> None:
    for name, took in times.items():
        print(f"  {name:<5} {took:7.2f} s  {amount / took:9.2f} {unit}/s")
    print(f"  ratio HEAD/now: {times['HEAD'] / times['now']:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html-root", type=Path, action="append")
    parser.add_argument("--zh-mb", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=("html", "chinese"))
    args = parser.parse_args()
    roots = args.html_root or [Path("/usr/share/doc"), ROOT / "tests/data/extract"]
    if args.only != "chinese":
        bench_html(roots, args.rounds)
    if args.only != "html":
        bench_chinese(args.zh_mb, args.rounds)


if __name__ == "__main__":
    main()
