"""Folders that used to make the compare stage explode, scanned end to end.

    python bench/bad_input_bench.py [--copies 50000] [--big-mb 200] [--only huge]

1. one passage in every document (2,000 essays sharing a paragraph);
2. many identical files (50,000 copies of one essay);
3. one huge text file (--big-mb of distinct paragraphs, just under the 200 MB limit).

Each case runs in a fresh process so peak RSS is its own (process and reader workers).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def english_sentences() -> list[str]:
    from tests.core.test_passages import english_paragraphs

    return [s for p in english_paragraphs() for s in p.split(". ") if len(s.split()) > 6]


def essay(rng: random.Random, sentences: list[str], paragraphs: int = 6) -> list[str]:
    return [". ".join(rng.sample(sentences, 5)) + "." for _ in range(paragraphs)]


def make_shared_passage(folder: Path, n: int = 2000) -> None:
    rng, sentences = random.Random(1), english_sentences()
    shared = ". ".join(sentences[:6]) + "."
    for i in range(n):
        text = essay(rng, sentences)
        text.insert(rng.randrange(len(text)), shared)
        (folder / f"essay{i:05}.txt").write_text("\n\n".join(text), encoding="utf-8")


def make_identical(folder: Path, n: int) -> None:
    text = "\n\n".join(essay(random.Random(2), english_sentences()))
    for i in range(n):
        (folder / f"copy{i:05}.txt").write_text(text, encoding="utf-8")


def make_huge(folder: Path, megabytes: int) -> None:
    rng, sentences = random.Random(3), english_sentences()
    limit = megabytes * 2**20 - 4096
    with open(folder / "huge.txt", "w", encoding="utf-8") as f:
        while f.tell() < limit:
            f.write(". ".join(rng.sample(sentences, 5)) + ".\n\n")


def run_case(name: str, folder: Path) -> None:
    """Scan `folder` in this process and print time, peak RSS and the summary."""
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.progress import Progress

    stages: list[str] = []

    def progress(p: Progress) -> None:
        if not stages or stages[-1] != p.stage:
            stages.append(p.stage)

    from bench.process_tree import ProcessTree

    start = time.perf_counter()
    with ProcessTree() as tree:
        result = scan(ScanOptions(roots=(str(folder),)), progress=progress)
    elapsed = time.perf_counter() - start
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    clusters = result.clusters(8)
    print(
        f"{name}: {elapsed:.1f} s, peak RSS {own:.0f} MB (largest reader or fork server "
        f"{tree.largest_mb:.0f} MB); "
        f"{len(result.documents)} documents, {len(result.errors)} errors "
        f"({'; '.join(e.message for e in result.errors[:2])}), "
        f"{len(result.pairs)} pairs listed, {len(clusters)} clusters, "
        f"{len(result.partial_pairs())} partial, {len(result.passages.common_text)} common "
        f"passages; stages reported: {', '.join(stages)}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=50_000)
    parser.add_argument("--big-mb", type=int, default=200)
    parser.add_argument("--only", choices=("shared", "identical", "huge"), help="one case")
    parser.add_argument("--case", choices=("shared", "identical", "huge"), help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path)
    args = parser.parse_args()
    if args.case:  # the child process: scan one prepared folder
        run_case(args.case, args.folder)
        return
    makers = {
        "shared": make_shared_passage,
        "identical": lambda f: make_identical(f, args.copies),
        "huge": lambda f: make_huge(f, args.big_mb),
    }
    for name, make in makers.items():
        if args.only and name != args.only:
            continue
        folder = Path(tempfile.mkdtemp(prefix=f"simsift-bad-{name}-"))
        try:
            make(folder)
            subprocess.run(
                [sys.executable, __file__, "--case", name, "--folder", str(folder)],
                check=False,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
