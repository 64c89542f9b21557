"""Tokenizer against its committed version: the same arrays, and the CPU time of each.

The committed tokenizer and integrity flags (`core/text/{tokens,normalize,word_segmenter,
spacing,quotations,confusables,integrity}.py`, `git show REV:...`, HEAD by default) are
written to a temporary package and imported beside the working tree's, so both run in one
process on the same extracted text:

    python -m bench.tokens_bench collect            # extract the corpora once (~30 s)
    python -m bench.tokens_bench compare            # every array of every document
    python -m bench.tokens_bench time --rounds 5    # CPU ms a document (tokens, flags)
    python -m bench.tokens_bench cut --rounds 7     # CPU ms a zh document in cut_chinese
    python -m bench.tokens_bench load --rounds 2    # loading the Chinese dictionary

Kinds: `en` (man pages as text, /tmp/man_txt), `zh` (Chinese text files: the archive's
.txt files with 50 Chinese characters or more, tests/data/zh_text), `html` and `docx`
(all of the archive's), `data` (everything else tests/data holds that extracts). Each
timing round runs every kind with old and new in turn, their caches emptied first (one
reader process reading the corpus), and CPU time (`time.process_time`) is what counts:
the machine is shared. The best round of each is reported, and the ratio new/old.

cut: `cut_chinese` alone, old and new in turn, on the runs of Chinese characters the `zh`
documents hand it, in their order (caches emptied each round). load: old and new each in
fresh processes, alternated: CPU and wall seconds of `jieba_module()` and a first cut, the
longest stretch a thread ticking every millisecond waits meanwhile (the GIL held by one
call: what a window would freeze for), and the memory the process gains (RSS, PSS).
"""

from __future__ import annotations

import argparse
import importlib
import pickle
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.engine_at import modules_at

ROOT = Path(__file__).resolve().parents[1]
# the tokenizer and what the integrity flags need: what a reader does after extracting
MODULES = ("tokens", "normalize", "word_segmenter", "spacing", "quotations", "confusables")
MODULES += ("integrity",)
CORPUS = Path(tempfile.gettempdir()) / "simsift_tokens_bench.pkl"
ARCHIVE = Path("/tmp/editor/archive")
MAN_PAGES = Path("/tmp/man_txt")
_HAN = re.compile("[\u4e00-\u9fff]")


def collect(man_pages: int, out: Path) -> None:
    """Extract the corpora (title, paragraphs per file) and pickle them to `out`."""
    from simsift.core.read.extract import extract

    corpus: dict[str, list[tuple[str, str, tuple[str, ...]]]] = {}

    def add(kind: str, path: Path) -> None:
        try:
            extracted = extract(path, ocr=False)
        except Exception:  # unreadable files are no tokenizer input
            return
        corpus.setdefault(kind, []).append((str(path), extracted.title, extracted.paragraphs))

    man = sorted(MAN_PAGES.rglob("*.txt"))
    for path in man[:: max(1, len(man) // man_pages)][:man_pages]:
        add("en", path)
    for path in sorted(ARCHIVE.rglob("*.txt")) + sorted((ROOT / "tests/data/zh_text").glob("*")):
        if len(_HAN.findall(path.read_text(errors="replace"))) >= 50:
            add("zh", path)
    for path in sorted(ARCHIVE.rglob("*.htm*")):
        add("html", path)
    for path in sorted(ARCHIVE.rglob("*.docx")):
        add("docx", path)
    for path in sorted((ROOT / "tests/data").rglob("*")):
        if path.is_file() and path.parent.name != "zh_text":
            add("data", path)
    for kind, docs in corpus.items():
        chars = sum(len(p) for _, _, paragraphs in docs for p in paragraphs)
        print(f"{kind}: {len(docs)} files, {chars / 1e6:.1f} M characters")
    out.write_bytes(pickle.dumps(corpus))


def old_modules(rev: str):
    """The committed tokenizer modules as a package of their own (`_old_text`), importing
    one another, so old and new share no cache."""
    return modules_at(rev, "core/text", MODULES, "_old_text")


def new_modules():
    return {name: importlib.import_module(f"simsift.core.text.{name}") for name in MODULES}


# what a reader process loads or checks once: kept
_ONCE_A_PROCESS = ("jieba_module", "_opencc_converter", "_opencc_keeps_below_u3400")


def empty_caches(modules) -> None:
    """Every cache of the tokenizer emptied: a reader process that starts."""
    for module in modules.values():
        for value in vars(module).values():
            if (
                hasattr(value, "cache_clear")
                and value.__module__ == module.__name__
                and value.__name__ not in _ONCE_A_PROCESS
            ):
                value.cache_clear()
    clear = getattr(modules["tokens"], "clear_token_cache", None)
    if clear is not None:
        clear()


def arrays(tokens) -> list[tuple[str, object]]:
    fields = []
    for name in ("title", "body"):
        stream = getattr(tokens, name)
        for field in ("hashes", "is_digit", "para_starts", "marks", "unbalanced_quotes"):
            fields.append((f"{name}.{field}", getattr(stream, field)))
    return fields


def compare(corpus, old, new) -> int:
    """Count of documents whose arrays differ between old and new (each one printed)."""
    differing = 0
    for kind, docs in corpus.items():
        same = 0
        for path, title, paragraphs in docs:
            for t2s in (True, False):
                a = old["tokens"].document_tokens(title, paragraphs, traditional_to_simplified=t2s)
                b = new["tokens"].document_tokens(title, paragraphs, traditional_to_simplified=t2s)
                bad = [
                    name
                    for (name, x), (_, y) in zip(arrays(a), arrays(b), strict=True)
                    if not (
                        np.array_equal(x, y) and getattr(x, "dtype", 0) == getattr(y, "dtype", 0)
                    )
                ]
                if bad:
                    differing += 1
                    print(f"DIFFERENT {kind} {path} t2s={t2s}: {', '.join(bad)}")
                    break
            else:
                same += 1
        tokens = sum(len(new["tokens"].document_tokens(t, p).body) for _, t, p in docs)
        print(f"{kind}: {same}/{len(docs)} documents identical ({tokens:,} tokens)")
    return differing


def cpu_ms_per_doc(modules, docs) -> float:
    """CPU ms a document of what a reader does after extracting: tokens and flags."""
    from simsift.core.document import ExtractedText

    empty_caches(modules)
    document_tokens = modules["tokens"].document_tokens
    integrity = modules["integrity"]
    texts = [ExtractedText(title, paragraphs, "text") for _, title, paragraphs in docs]
    start = time.process_time()
    for extracted in texts:
        tokens = document_tokens(extracted.title, extracted.paragraphs)
        integrity.integrity_flags(extracted) + integrity.set_apart_flags(tokens.body)
    return (time.process_time() - start) * 1000 / len(docs)


def timing(corpus, old, new, rounds: int) -> None:
    best: dict[tuple[str, str], float] = {}
    for _ in range(rounds):
        for kind, docs in corpus.items():
            for label, modules in (("old", old), ("new", new)):
                ms = cpu_ms_per_doc(modules, docs)
                key = (kind, label)
                best[key] = min(best.get(key, ms), ms)
    print(f"CPU ms a document (best of {rounds} rounds, caches emptied each round)")
    for kind, docs in corpus.items():
        before, after = best[kind, "old"], best[kind, "new"]
        print(
            f"  {kind:5} {len(docs):5} docs: old {before:7.3f}  new {after:7.3f}  "
            f"new/old {after / before:.3f}  ({before / after:.2f}x)"
        )


def zh_runs(corpus, modules) -> list[str]:
    """The runs `document_tokens` hands `cut_chinese` for the `zh` documents, in order."""
    tokens = modules["tokens"]
    runs: list[str] = []
    real = tokens.cut_chinese

    def recording(run: str):
        runs.append(run)
        return real(run)

    tokens.cut_chinese = recording
    try:
        empty_caches(modules)
        for _, title, paragraphs in corpus["zh"]:
            tokens.document_tokens(title, paragraphs)
    finally:
        tokens.cut_chinese = real
    return runs


def cut_timing(corpus, old, new, rounds: int) -> None:
    runs = zh_runs(corpus, new)
    documents = len(corpus["zh"])
    best: dict[str, float] = {}
    for _ in range(rounds):
        for label, modules in (("old", old), ("new", new)):
            empty_caches(modules)
            cut = modules["word_segmenter"].cut_chinese
            start = time.process_time()
            for run in runs:
                cut(run)
            ms = (time.process_time() - start) * 1000 / documents
            best[label] = min(best.get(label, ms), ms)
    print(
        f"cut_chinese, {len(runs):,} runs ({sum(map(len, runs)):,} characters) of {documents} "
        f"zh documents, CPU ms a document (best of {rounds} rounds, caches emptied): "
        f"old {best['old']:.3f}  new {best['new']:.3f}  ({best['old'] / best['new']:.2f}x)"
    )


def _memory() -> tuple[float, float]:
    """(RSS, PSS) of this process in MB."""
    rss = pss = float("nan")
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    try:
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1]) / 1024
    except OSError:
        pass
    return rss, pss


def load_child(which: str, rev: str) -> None:
    """Load one version's dictionary in this fresh process; print its figures as JSON."""
    import gc
    import json
    import threading

    modules = old_modules(rev) if which == "old" else new_modules()
    import jieba  # imported before: both versions import it
    from jieba import finalseg  # noqa: F401

    segmenter = modules["word_segmenter"]
    gc.collect()
    rss, pss = _memory()
    gaps: list[float] = []
    done = threading.Event()

    def tick() -> None:
        last = time.perf_counter()
        while not done.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    time.sleep(0.05)
    gaps.clear()
    cpu, wall = time.process_time(), time.perf_counter()
    segmenter.jieba_module()
    segmenter.cut_chinese("我们在北京大学学习自然语言处理")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    done.set()
    ticker.join()
    gc.collect()
    rss_after, pss_after = _memory()
    figures = {
        "cpu": cpu,
        "wall": wall,
        "gap_ms": max(gaps) * 1000,
        "rss": rss_after - rss,
        "pss": pss_after - pss,
        "process_rss": rss_after,
        "jieba_prefix_dictionary": bool(jieba.dt.initialized),
    }
    print(json.dumps(figures))


def load_timing(rev: str, rounds: int) -> None:
    import json

    rows: dict[str, list[dict]] = {"old": [], "new": []}
    for r in range(rounds):
        for which in ("old", "new") if r % 2 == 0 else ("new", "old"):
            out = subprocess.run(
                [sys.executable, "-m", "bench.tokens_bench", "_load", which, "--rev", rev],
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            rows[which].append(json.loads(out.splitlines()[-1]))
    print(f"loading the dictionary in a fresh process (best of {rounds}; memory of the last)")
    for which, figures in rows.items():
        last = figures[-1]
        print(
            f"  {which}: CPU {min(f['cpu'] for f in figures):.3f} s, "
            f"wall {min(f['wall'] for f in figures):.3f} s, longest wait of another thread "
            f"{min(f['gap_ms'] for f in figures):.0f} ms; RSS +{last['rss']:.1f} MB, "
            f"PSS +{last['pss']:.1f} MB (process RSS {last['process_rss']:.0f} MB); "
            f"jieba's prefix dictionary loaded: {last['jieba_prefix_dictionary']}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("collect", "compare", "time", "cut", "load", "_load"))
    parser.add_argument("which", nargs="?", help=argparse.SUPPRESS)  # _load: old or new
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--man-pages", type=int, default=2500)
    parser.add_argument("--rev", default="HEAD", help="the old version (git revision)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kinds", default="", help="comma-separated kinds (default: all)")
    args = parser.parse_args()
    if args.action == "collect":
        collect(args.man_pages, args.corpus)
        return
    if args.action == "_load":
        load_child(args.which, args.rev)
        return
    if args.action == "load":
        load_timing(args.rev, args.rounds)
        return
    corpus = pickle.loads(args.corpus.read_bytes())
    if args.kinds:
        corpus = {kind: corpus[kind] for kind in args.kinds.split(",")}
    old, new = old_modules(args.rev), new_modules()
    new["word_segmenter"].jieba_module()
    old["word_segmenter"].jieba_module()
    if args.action == "compare":
        sys.exit(1 if compare(corpus, old, new) else 0)
    if args.action == "cut":
        cut_timing(corpus, old, new, args.rounds)
        return
    timing(corpus, old, new, args.rounds)


if __name__ == "__main__":
    main()
