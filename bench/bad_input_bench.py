"""Folders that used to make the compare stage explode, scanned end to end.

    python -m bench.bad_input_bench [--copies 50000] [--big-mb 200] [--only huge]

1. one passage in every document (2,000 essays sharing a paragraph);
2. many identical files (50,000 copies of one essay);
3. one huge text file (--big-mb of distinct paragraphs, just under the 200 MB limit);
4. many documents (`--only many`: --docs essays of 3 paragraphs of 5 random sentences of
   Python's documentation, as `bench/ingest_bench.py`'s 100,000-file rescan; not in the
   default run).

Each case runs in a fresh process so peak RSS is its own (process and reader workers).
`--stages` also prints the scan process's largest RSS in each stage, sampled every 20 ms
(the passage stage split into its steps by their share of its progress).
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
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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


def make_many(folder: Path, n: int) -> None:
    from bench.ingest_bench import sentence_essays

    for i, text in enumerate(sentence_essays(n, seed=9)):
        (folder / f"e{i:06}.txt").write_text("\n\n".join(text), encoding="utf-8")


# the passage stage's steps and their shares of its progress (core/match/passages/analyze.py)
PASSAGE_STEPS = {"fingerprints": 3, "index": 4, "extend": 2, "grams": 1, "seeds": 1, "runs": 1}


def passage_step(done: int, total: int) -> str:
    at, begin = done / max(total, 1) * sum(PASSAGE_STEPS.values()), 0
    for name, cost in PASSAGE_STEPS.items():
        begin += cost
        if at < begin:
            return f"passages/{name}"
    return "passages/runs"


class StagePeaks:
    """While entered: this process's largest RSS in each stage the progress names."""

    def __init__(self) -> None:
        self.stage, self.peaks = "start", {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> StagePeaks:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            rss = _rss_mb()
            self.peaks[self.stage] = max(self.peaks.get(self.stage, 0.0), rss)


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def run_case(name: str, folder: Path, stage_peaks: bool = False) -> None:
    """Scan `folder` in this process and print time, peak RSS and the summary."""
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.progress import Progress

    stages: list[str] = []
    began: dict[str, float] = {}  # seconds from the start to each stage's first report

    peaks = StagePeaks()

    def progress(p: Progress) -> None:
        if not stages or stages[-1] != p.stage:
            stages.append(p.stage)
            began.setdefault(p.stage, time.perf_counter() - start)
        peaks.stage = passage_step(p.done, p.total) if p.stage == "passages" else p.stage

    from bench.process_tree import ProcessTree

    start = time.perf_counter()
    with ProcessTree() as tree, peaks:
        result = scan(ScanOptions(roots=(str(folder),)), progress=progress)
        peaks.stage = "result"
    elapsed = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_SELF)
    own, cpu = usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
    clusters = result.clusters(8)
    print(
        f"{name}: {elapsed:.1f} s ({cpu:.1f} s CPU in the scan process), peak RSS {own:.0f} MB"
        f" (largest reader or fork server {tree.largest_mb:.0f} MB; the whole process tree's"
        f" PSS at most {tree.largest_pss_mb:.0f} MB); "
        f"{len(result.documents)} documents, {len(result.errors)} errors "
        f"({'; '.join(e.message for e in result.errors[:2])}), "
        f"{len(result.pairs)} pairs listed, {len(clusters)} clusters, "
        f"{len(result.partial_pairs())} partial, {len(result.passages.common_text)} common "
        f"passages; stages began at {', '.join(f'{k} {v:.1f} s' for k, v in began.items())}",
        flush=True,
    )
    if stage_peaks:
        by_stage = ", ".join(f"{k} {v:.0f} MB" for k, v in peaks.peaks.items())
        print(f"  largest RSS by stage: {by_stage}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=50_000)
    parser.add_argument("--big-mb", type=int, default=200)
    parser.add_argument("--docs", type=int, default=100_000, help="documents of --only many")
    cases = ("shared", "identical", "huge", "many")
    parser.add_argument("--only", choices=cases, help="one case")
    parser.add_argument("--case", choices=cases, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--stages", action="store_true", help="largest RSS in each stage")
    parser.add_argument("--keep", type=Path, help="make the folder here once and keep it")
    args = parser.parse_args()
    if args.case:  # the child process: scan one prepared folder
        run_case(args.case, args.folder, args.stages)
        return
    makers = {
        "shared": make_shared_passage,
        "identical": lambda f: make_identical(f, args.copies),
        "huge": lambda f: make_huge(f, args.big_mb),
        "many": lambda f: make_many(f, args.docs),
    }
    # a PYTHONPATH already set comes first (another checkout's simsift, to compare)
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)
    for name, make in makers.items():
        if (args.only and name != args.only) or (not args.only and name == "many"):
            continue
        if args.keep:  # one folder per case, made once and scanned by every run
            folder = args.keep / name
            if not folder.exists():
                folder.mkdir(parents=True)
                make(folder)
        else:
            folder = Path(tempfile.mkdtemp(prefix=f"simsift-bad-{name}-"))
            make(folder)
        try:
            command = [sys.executable, "-m", "bench.bad_input_bench", "--case", name]
            command += ["--folder", str(folder)]
            subprocess.run(
                command + ["--stages"] * args.stages,
                check=False,
                env={**os.environ, "PYTHONPATH": path},
            )
        finally:
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
