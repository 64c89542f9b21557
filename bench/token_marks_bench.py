"""What marking quotations and the bibliography costs `token_stream`.

    python bench/token_marks_bench.py [--mb 20] [--runs 2] [--before FILE]

The corpus is about MB megabytes (UTF-8), half English (the docstrings of Python's own
library, read with ast, never imported), half Chinese (the sentences of tests/data/zh_text,
shuffled), in four versions: as it is; without any quotation mark; with a quotation in
every third paragraph; with one in every sentence (dialogue, the worst case). Each
version is tokenized with marks and without (`marks=False`), and, with --before, by
another tokens.py, such as the one before marks:
`git show dbe9466:core/text/tokens.py > /tmp/tokens_before.py`. The machine is often
shared, so each version is tokenized in batches of about 1 MB, every variant in turn on
each batch (the order rotating), and the process's CPU time is summed per variant, over
--runs runs after a warm-up (jieba, the token hash cache).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import random
import re
import sys
import sysconfig
import time
from pathlib import Path

from simsift.core.text.tokens import token_stream
from simsift.core.text.word_segmenter import jieba_module

ROOT = Path(__file__).resolve().parents[1]
QUOTE_CHARS = '"＂“”„«»「」『』‘’'


def english_paragraphs(limit: int) -> list[str]:
    """Docstring paragraphs of the standard library, up to `limit` characters."""
    out, size = [], 0
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
                continue
            for block in re.split(r"\n\s*\n", ast.get_docstring(node) or ""):
                paragraph = " ".join(block.split())
                if len(paragraph) >= 40:
                    out.append(paragraph)
                    size += len(paragraph.encode())
                    if size >= limit:
                        return out
    return out


def chinese_paragraphs(limit: int, seed: int = 1) -> list[str]:
    """Paragraphs of 3 to 12 shuffled sentences of the Chinese seed texts."""
    text = "".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "tests/data/zh_text").glob("*.txt")
    )
    sentences = [s for s in re.split(r"(?<=[。！？])", text.replace("\n", "")) if len(s) > 4]
    rng = random.Random(seed)
    out, size = [], 0
    while size < limit:
        paragraph = "".join(rng.choice(sentences) for _ in range(rng.randint(3, 12)))
        out.append(paragraph)
        size += len(paragraph.encode())
    return out


def versions(mb: float) -> dict[str, list[str]]:
    half = int(mb * 1e6 / 2)
    corpus = english_paragraphs(half) + chinese_paragraphs(half)
    random.Random(2).shuffle(corpus)
    strip = str.maketrans("", "", QUOTE_CHARS)
    rng = random.Random(3)
    quoted = [_with_quotation(p, rng) if i % 3 == 0 else p for i, p in enumerate(corpus)]
    return {
        "as it is": corpus,
        "no quotation marks": [p.translate(strip) for p in corpus],
        "a quotation in 1 of 3": quoted,
        "one in every sentence": [
            "".join(_with_quotation(s, rng) for s in _SENTENCE_END.split(p)) for p in corpus
        ],
    }


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])")


def _with_quotation(paragraph: str, rng: random.Random) -> str:
    """`paragraph` with a stretch of it (up to ~60 characters) put in quotation marks."""
    if len(paragraph) < 20:
        return paragraph
    start = rng.randrange(len(paragraph) // 2)
    end = min(len(paragraph), start + rng.randint(10, 60))
    opening, closing = ("“", "”") if paragraph.isascii() else ("「", "」")
    return f"{paragraph[:start]}{opening}{paragraph[start:end]}{closing}{paragraph[end:]}"


def load_tokens(path: Path):
    spec = importlib.util.spec_from_file_location("tokens_before", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def batches(paragraphs: list[str], size: int = 1_000_000) -> list[list[str]]:
    out, current, chars = [], [], 0
    for paragraph in paragraphs:
        current.append(paragraph)
        chars += len(paragraph.encode())
        if chars >= size:
            out.append(current)
            current, chars = [], 0
    return [*out, current] if current else out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=20)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--before", type=Path, help="another tokens.py to compare with")
    args = parser.parse_args()
    jieba_module()
    variants = {
        "marks": lambda ps: token_stream(ps),
        "marks=False": lambda ps: token_stream(ps, marks=False),
    }
    if args.before:
        before = load_tokens(args.before)
        variants["before"] = lambda ps: before.token_stream(ps)
    names = list(variants)
    for name, paragraphs in versions(args.mb).items():
        mb = sum(len(p.encode()) for p in paragraphs) / 1e6
        parts = batches(paragraphs)
        for variant in names:  # warm-up
            variants[variant](parts[0])
        total = dict.fromkeys(names, 0.0)
        marked = tokens = 0
        for _ in range(args.runs):
            for k, part in enumerate(parts):
                for variant in names[k % len(names) :] + names[: k % len(names)]:
                    started = time.process_time()
                    stream = variants[variant](part)
                    total[variant] += time.process_time() - started
                    if variant == "marks":
                        marked += int((stream.marks > 0).sum())
                        tokens += len(stream)
        line = ", ".join(f"{v} {t / args.runs:.1f} s" for v, t in total.items())
        base = "before" if "before" in total else "marks=False"
        print(
            f"{name:<22} {mb:.1f} MB, {tokens // args.runs:,} tokens, "
            f"{marked / tokens:.1%} marked; CPU: {line}; "
            f"marks / {base} = {total['marks'] / total[base]:.3f}"
        )


if __name__ == "__main__":
    main()
