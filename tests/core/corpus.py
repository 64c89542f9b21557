"""Small corpora of real text for scan tests: Python's own module documentation.

The text is what every Python install ships, not prose written for the tests.
"""

from __future__ import annotations

import importlib
import random
import re
from pathlib import Path

CHINESE_TEXT = Path(__file__).resolve().parents[1] / "data" / "zh_text"

MODULES = (
    "argparse", "json", "logging", "subprocess", "asyncio", "collections", "unittest",
    "email", "pickle", "tarfile", "zipfile", "optparse", "calendar", "decimal", "heapq",
)  # fmt: skip


def module_text(name: str) -> str:
    return importlib.import_module(name).__doc__ or ""


def long_texts(min_words: int = 120) -> dict[str, str]:
    """Module docs with at least `min_words` words, by module name."""
    texts = {name: module_text(name) for name in MODULES}
    return {name: text for name, text in texts.items() if len(text.split()) >= min_words}


def edit_words(text: str, n: int, seed: int) -> str:
    """`text` with n words replaced (a light edit, as in a re-post or a lazy copy)."""
    rng = random.Random(seed)
    words = text.split(" ")
    for i in rng.sample(range(len(words)), n):
        words[i] = "altered"
    return " ".join(words)


def write_corpus(root: Path) -> dict[str, Path]:
    """Originals, a lightly edited copy, an exact copy and a same-text copy; returns key paths."""
    texts = long_texts()
    (root / "sub").mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, text in texts.items():
        paths[name] = root / f"{name}.txt"
        paths[name].write_text(text, encoding="utf-8")
    first, second = sorted(texts)[:2]
    paths["edited"] = root / "sub" / f"{first} copy.txt"
    paths["edited"].write_text(edit_words(texts[first], 2, seed=1), encoding="utf-8")
    paths["exact"] = root / "sub" / f"{second} 副本.txt"
    paths["exact"].write_bytes(paths[second].read_bytes())
    paths["same_text"] = root / "sub" / f"{second}.html"
    body = "".join(f"<p>{p}</p>" for p in texts[second].split("\n\n"))
    paths["same_text"].write_text(
        f"<html><body><article>{body}</article></body></html>", encoding="utf-8"
    )
    paths["first"], paths["second"] = paths[first], paths[second]
    return paths


def chinese_paragraphs(chars: int = 160) -> list[str]:
    """Lines of the Chinese seed documents joined into paragraphs of ~`chars` characters."""
    out, current = [], ""
    for path in sorted(CHINESE_TEXT.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            current += line.strip()
            if len(current) >= chars:
                out.append(current)
                current = ""
    return list(dict.fromkeys(out))


def prose_paragraphs(module: str) -> list[str]:
    """Prose paragraphs (15+ words) of a module's documentation, whitespace collapsed."""
    blocks = (" ".join(b.split()) for b in re.split(r"\n\s*\n", module_text(module)))
    return [p for p in blocks if len(p.split()) >= 15]


def write_partial_copy(folder: Path) -> tuple[Path, Path]:
    """B: 8 paragraphs of argparse's docs; A: 3 of them + 5 paragraphs of json's docs."""
    folder.mkdir(parents=True, exist_ok=True)
    source = prose_paragraphs("argparse")[:8]
    other = prose_paragraphs("json")
    assert len(source) == 8 and len(other) >= 8
    copy = source[2:5] + [other[i] for i in (2, 5, 6, 7, 8)]
    a, b = folder / "essay_a.txt", folder / "source_b.txt"
    a.write_text("\n\n".join(copy), encoding="utf-8")
    b.write_text("\n\n".join(source), encoding="utf-8")
    return a, b
