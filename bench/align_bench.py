"""Time `core.match.align.align` (and, with --gui, DiffView from set_pair to painted)
on 50-page pairs.

Run: python -m bench.align_bench [--gui] [--pages 50]

English text is Python's own documentation (docstrings of the standard library), Chinese
text is drawn from jieba's dictionary by word frequency; a page is about 500 words.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import random
import re
import sys
import time
import warnings

from simsift.core.match.align import align

WORDS_PER_PAGE = 500


def english_paragraphs(words: int) -> list[str]:
    """Docstring paragraphs of standard-library modules until about `words` words."""
    paragraphs: list[str] = []
    seen: set[str] = set()
    count = 0
    warnings.simplefilter("ignore")
    for name in sorted(sys.stdlib_module_names):
        if name.startswith("_") or name in {"antigravity", "this", "idlelib", "tkinter", "turtle"}:
            continue
        try:
            module = importlib.import_module(name)
        except Exception:
            continue
        docs = [module.__doc__ or ""]
        docs += [inspect.getdoc(obj) or "" for _, obj in inspect.getmembers(module)]
        for doc in docs:
            for block in re.split(r"\n\s*\n", doc):
                paragraph = " ".join(block.split())
                if len(paragraph.split()) >= 12 and paragraph not in seen:
                    seen.add(paragraph)
                    paragraphs.append(paragraph)
                    count += len(paragraph.split())
                    if count >= words:
                        return paragraphs
    return paragraphs


def chinese_paragraphs(chars: int, seed: int) -> list[str]:
    """Paragraphs of dictionary words drawn by frequency, with Chinese punctuation."""
    import jieba

    entries = []
    with jieba.get_dict_file() as f:
        for line in f:
            word, freq, *_ = line.decode("utf-8").split()
            entries.append((word, int(freq)))
    entries.sort(key=lambda e: -e[1])
    words = [w for w, _ in entries[:20000]]
    weights = [f for _, f in entries[:20000]]
    rng = random.Random(seed)
    paragraphs, count = [], 0
    while count < chars:
        sentences = []
        for _ in range(rng.randint(3, 7)):
            body = "".join(rng.choices(words, weights, k=rng.randint(8, 20)))
            sentences.append(body + rng.choice("。。。！？；"))
        paragraphs.append("".join(sentences))
        count += len(paragraphs[-1])
    return paragraphs


def copy_with_edits(source: list[str], other: list[str], share: float, seed: int) -> list[str]:
    """`share` of source's paragraphs in order (a few words edited), mixed with `other`'s."""
    rng = random.Random(seed)
    kept = sorted(rng.sample(range(len(source)), int(len(source) * share)))
    out = list(other[: len(source) - len(kept)])
    for k, i in enumerate(kept):
        paragraph = source[i]
        if k % 3 == 0:  # a light edit: one word (or two Chinese characters) replaced
            words = paragraph.split(" ") if " " in paragraph else list(paragraph)
            where = rng.randrange(len(words))
            words[where] = "altered" if " " in paragraph else "改动"
            paragraph = (" " if " " in paragraph else "").join(words)
        out.insert(min(i, len(out)), paragraph)
    return out


def time_align(label: str, left: list[str], right: list[str], repeat: int = 5):
    align(left, right)  # warm-up: jieba's dictionary, caches
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = align(left, right)
        best = min(best, time.perf_counter() - start)
    print(
        f"{label:<28} {len(result.left_spans):>5}/{len(result.right_spans):<5} sentences "
        f"{result.left_tokens:>6}/{result.right_tokens:<6} tokens  "
        f"sim {result.aligned_share:6.1%} (A→B {result.left_aligned_share:6.1%}, "
        f"B→A {result.right_aligned_share:6.1%})  best of {repeat}: {best * 1000:7.1f} ms"
    )
    return result


def time_gui(left: list[str], right: list[str]) -> None:
    """Seconds from DiffView.set_pair to both panes highlighted and painted."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop
    from PySide6.QtWidgets import QApplication
    from simsift.app.diff.view import DiffView
    from simsift.core.document import FileRecord

    app = QApplication.instance() or QApplication([])
    view = DiffView()
    view.resize(1400, 900)
    view.show()
    records = [
        FileRecord(f"/bench/{name}.txt", 1, 0, "ok", format="txt", paragraphs=tuple(p))
        for name, p in (("left", left), ("right", right))
    ]
    for run in range(3):
        view.clear()
        app.processEvents()
        loop = QEventLoop()
        view.alignment_ready.connect(loop.quit)
        start = time.perf_counter()
        view.set_pair(records[0], records[1])
        shown = time.perf_counter()
        loop.exec()
        ready = time.perf_counter()
        view.repaint()
        painted = time.perf_counter()
        view.alignment_ready.disconnect(loop.quit)
        print(
            f"GUI run {run}: set_pair returned {1000 * (shown - start):.0f} ms, highlighted "
            f"{1000 * (ready - start):.0f} ms, painted {1000 * (painted - start):.0f} ms "
            f"(highlighting {1000 * view.last_highlight_seconds:.0f} ms)"
        )
    del app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--gui", action="store_true", help="also time DiffView")
    args = parser.parse_args()
    words = args.pages * WORDS_PER_PAGE

    corpus = english_paragraphs(2 * words)
    half = len(corpus) // 2
    a, other = corpus[:half], corpus[half:]
    copied = copy_with_edits(a, other, 0.3, seed=1)
    print(
        f"English: {sum(len(p.split()) for p in a)} words vs {sum(len(p.split()) for p in copied)}"
    )
    time_align("identical", a, list(a))
    time_align("30% copied, some edited", a, copied)
    time_align("unrelated", a, other)

    zh = chinese_paragraphs(2 * words, seed=2)  # about two characters a word
    zh_other = chinese_paragraphs(2 * words, seed=3)
    print(f"Chinese: {sum(map(len, zh))} characters")
    time_align("zh identical", zh, list(zh))
    time_align("zh 30% copied", zh, copy_with_edits(zh, zh_other, 0.3, seed=4))
    time_align("zh unrelated", zh, zh_other)

    if args.gui:
        time_gui(a, copied)


if __name__ == "__main__":
    main()
