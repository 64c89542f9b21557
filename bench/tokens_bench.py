"""Tokenizer against its committed version: the same arrays, and the CPU time of each.

The committed `core/text/{tokens,normalize,word_segmenter,spacing}.py` (`git show REV:...`,
HEAD by default) are written to a temporary package and imported beside the working
tree's, so both run in one process on the same extracted text:

    python bench/tokens_bench.py collect            # extract the corpora once (~30 s)
    python bench/tokens_bench.py compare            # every array of every document
    python bench/tokens_bench.py time --rounds 5    # CPU ms a document, old and new

Kinds: `en` (man pages as text, /tmp/man_txt), `zh` (Chinese text files: the archive's
.txt files with 50 Chinese characters or more, tests/data/zh_text), `html` and `docx`
(all of the archive's), `data` (everything else tests/data holds that extracts). Each
timing round runs every kind with old and new in turn, their caches emptied first (one
reader process reading the corpus), and CPU time (`time.process_time`) is what counts:
the machine is shared. The best round of each is reported, and the ratio new/old.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("tokens", "normalize", "word_segmenter", "spacing")
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
    folder = Path(tempfile.mkdtemp(prefix="tokens_bench_"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    package = folder / "_old_text"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in MODULES:
        source = subprocess.run(
            ["git", "show", f"{rev}:core/text/{name}.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for other in MODULES:
            source = source.replace(f"simsift.core.text.{other} ", f"_old_text.{other} ")
        (package / f"{name}.py").write_text(source)
    sys.path.insert(0, str(folder))
    return {name: importlib.import_module(f"_old_text.{name}") for name in MODULES}


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
    empty_caches(modules)
    document_tokens = modules["tokens"].document_tokens
    start = time.process_time()
    for _, title, paragraphs in docs:
        document_tokens(title, paragraphs)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("collect", "compare", "time"))
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--man-pages", type=int, default=2500)
    parser.add_argument("--rev", default="HEAD", help="the old version (git revision)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kinds", default="", help="comma-separated kinds (default: all)")
    args = parser.parse_args()
    if args.action == "collect":
        collect(args.man_pages, args.corpus)
        return
    corpus = pickle.loads(args.corpus.read_bytes())
    if args.kinds:
        corpus = {kind: corpus[kind] for kind in args.kinds.split(",")}
    old, new = old_modules(args.rev), new_modules()
    new["word_segmenter"].jieba_module()
    old["word_segmenter"].jieba_module()
    if args.action == "compare":
        sys.exit(1 if compare(corpus, old, new) else 0)
    timing(corpus, old, new, args.rounds)


if __name__ == "__main__":
    main()
