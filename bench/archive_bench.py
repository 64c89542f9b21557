"""The archive on a real collection: add it, add again unchanged, add 1% more, check new
documents against it, and (with --verify) compare with a full scan.

    python -m bench.man_pages_bench render --out /tmp/man_txt   # once: groff every page
    python -m bench.archive_bench --corpus /tmp/man_txt --new 224 [--verify]

A hard-linked copy of the corpus is split: `--new` random pages move to a folder of new
documents, the rest is archived. Times are wall clock on this machine (2 cores shared);
peak RSS is the largest of this process and its reader workers.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
from simsift.core.index.memory import HammingIndex
from simsift.core.pipeline.archiving import add_folders
from simsift.core.pipeline.check import (
    ARCHIVE_MARK,
    _cut_and_fingerprint,
    compare_with_archive,
    read_new,
)
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.pipeline.stages import fingerprint_documents
from simsift.core.progress import Progress
from simsift.core.report.tables import pair_rows
from simsift.core.store.archive import Archive

from bench.process_tree import ProcessTree


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class StageTimes:
    """Seconds per progress stage."""

    def __init__(self) -> None:
        self.stages: dict[str, float] = {}
        self.last = [time.perf_counter(), ""]

    def __call__(self, p: Progress) -> None:
        now = time.perf_counter()
        self.stages[self.last[1]] = self.stages.get(self.last[1], 0.0) + now - self.last[0]
        self.last = [now, p.stage]

    def __str__(self) -> str:
        self(Progress("", 0, 0))
        return ", ".join(f"{k} {v:.1f}" for k, v in self.stages.items() if k)


def split_corpus(corpus: Path, work: Path, n_new: int, seed: int) -> tuple[Path, Path]:
    """Hard-linked copy of the corpus as old/, with n_new random pages moved to new/."""
    old, new = work / "old", work / "new"
    shutil.copytree(corpus, old, copy_function=os.link)
    files = sorted(old.rglob("*.txt"))
    for i, path in enumerate(random.Random(seed).sample(files, n_new)):
        target = new / f"{i:05d}_{path.parent.parent.name}_{path.name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        path.rename(target)
    return old, new


def cpu_seconds() -> float:
    """CPU time of this process (the machine is shared: wall clock alone says as much
    about the neighbours as about us)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def timed(label: str, run):
    """Run, and print wall time, CPU time (this process and the readers below it) and
    peak RSS (this process's; the readers' sampled from /proc)."""
    times = StageTimes()
    start, cpu = time.perf_counter(), cpu_seconds()
    with ProcessTree() as tree:
        value = run(times)
    elapsed, used = time.perf_counter() - start, cpu_seconds() - cpu + tree.cpu_seconds
    print(
        f"{label:>22}: {elapsed:7.2f} s  CPU {used:7.2f} s  peak RSS {peak_rss_mb():6.0f} MB"
        f" (readers {tree.largest_mb:4.0f} MB)  ({times})",
        flush=True,
    )
    return value, elapsed


def folder_mb(folder: Path, pattern: str = "*") -> float:
    return sum(p.stat().st_size for p in folder.rglob(pattern) if p.is_file()) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--new", type=int, default=224, help="pages checked as new documents")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verify", action="store_true", help="compare with a full scan")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        old, new = split_corpus(args.corpus, work, args.new, args.seed)
        archive_dir = work / "archive"
        options = ScanOptions(roots=(str(old),), workers=args.workers)
        report, _ = timed("add (cold)", lambda p: add_folders(archive_dir, options, progress=p))
        print(
            f"{'':>24}{report.summary.added} documents, {len(report.not_added)} not added, "
            f"archive {folder_mb(archive_dir):.1f} MB on disk, of which packed indexes "
            f"{folder_mb(archive_dir, 'packed_index.bin'):.1f} MB"
        )
        timed("add again (unchanged)", lambda p: add_folders(archive_dir, options, progress=p))
        archive, _ = timed("open", lambda p: Archive.open(archive_dir))
        new_options = ScanOptions(roots=(str(new),), workers=args.workers)
        (fresh, others), _ = timed("read new", lambda p: read_new(new_options, p))
        timed("passage table", lambda p: archive.passage_table())
        k = new_options.passages.max_distance
        timed("neighbour counts (once)", lambda p: archive.neighbour_counts(k))
        result, _ = timed(
            "check (after reading)",
            lambda p: compare_with_archive(archive, fresh, others, new_options, progress=p),
        )
        touched = sum(d.path.startswith(ARCHIVE_MARK) for d in result.documents)
        rows = pair_rows(result, 8)
        print(
            f"{'':>24}{len(fresh)} new documents, {touched} archive documents compared, "
            f"{len(rows)} pair rows at k=8"
        )
        timed(
            "check (reopened)",
            lambda p: compare_with_archive(
                Archive.open(archive_dir), fresh, others, new_options, progress=p
            ),
        )
        compare_index_step(Archive.open(archive_dir), fresh, new_options)
        more = ScanOptions(roots=(str(new),), workers=args.workers)
        added, _ = timed(
            "add the new (1 segment)", lambda p: add_folders(archive_dir, more, progress=p)
        )
        print(f"{'':>24}{added.archive.segment_count} segments, {len(added.archive)} documents")
        if args.verify:
            both = ScanOptions(roots=(str(old), str(new)), workers=args.workers)
            full, _ = timed("full scan (verify)", lambda p: scan(both, progress=p))
            print(f"{'':>24}pairs with a new document equal: {same_pairs(result, full, new)}")


def compare_index_step(archive: Archive, fresh, options: ScanOptions) -> None:
    """The check's index work alone, both ways in this run: the new documents' passages
    (and fingerprints) against the archive's stored packed indexes, and against a
    `HammingIndex` built over the archive's values as checks did before."""
    _, fps, n_features = _cut_and_fingerprint(fresh, options)
    queries = np.unique(fps[n_features >= options.passages.min_features])
    k = options.passages.max_distance
    values = archive.passage_table().values
    print(f"{'':>24}{len(queries)} distinct new passages against {len(values)} archive values")
    packed, _ = timed("passages: packed", lambda p: archive.near_passages(queries, k))
    memory, _ = timed("passages: HammingIndex", lambda p: HammingIndex(values, k).query(queries, k))
    assert np.array_equal(packed.left, memory.left) and np.array_equal(packed.right, memory.right)
    doc_fps = fingerprint_documents(fresh, options.weights)
    fingerprints = archive.fingerprints()
    timed("documents: packed", lambda p: archive.near_documents(doc_fps, options.k_max))
    timed(
        "documents: HammingIndex",
        lambda p: HammingIndex(fingerprints, options.k_max).query(doc_fps, options.k_max),
    )


def same_pairs(checked, full, new: Path) -> bool:
    def by_pair(result):
        out = {}
        for row in pair_rows(result, 8):
            a, b = (row[x].removeprefix(ARCHIVE_MARK) for x in ("a", "b"))
            if str(new) in (a[: len(str(new))], b[: len(str(new))]):
                key = tuple(sorted((a, b)))
                out[key] = (row["kind"], row["distance"], row["overlap"])
        return out

    mine, theirs = by_pair(checked), by_pair(full)
    if mine != theirs:
        print(f"  differ: {len(set(mine.items()) ^ set(theirs.items()))} rows")
    return mine == theirs


if __name__ == "__main__":
    main()
