"""The archive on a real collection: add it, add again unchanged, add 1% more, check new
documents against it, and (with --verify) compare with a full scan.

    python -m bench.man_pages_bench render --out /tmp/man_txt   # once: groff every page
    python -m bench.archive_bench --corpus /tmp/man_txt --new 224 [--verify]

A hard-linked copy of the corpus is split: `--new` random pages move to a folder of new
documents, the rest is archived. Times are wall clock on this machine (2 cores shared);
peak RSS is the largest of this process and its reader workers.

How a check's cost grows with the archive: the same 1,000 new documents (900 man pages
never archived, 100 planted copies of archived documents: whole with a few words changed,
partial, spliced from three) against archives of N documents. The archive is every other
man page, then documents assembled from 6 to 14 random paragraphs of those pages (seeded)
up to N; archives of a smaller N are a prefix of a larger one, and the planted copies'
sources are among the first 10,000. `scale-check` prints the check's time, peak memory,
size on disk per document and the planted copies found:

    python -m bench.archive_bench scale-build --corpus /tmp/man_txt --work /tmp/scale --docs 10000
    python -m bench.archive_bench scale-check --work /tmp/scale --docs 10000   # a fresh process
"""

from __future__ import annotations

import argparse
import json
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


CHUNK = 1_000  # archive documents per folder: an archive of N documents adds N / CHUNK folders
N_HELD_OUT, N_WHOLE, N_PARTIAL, N_SPLICED = 900, 40, 40, 20


def scale_corpus(corpus: Path, work: Path, n_docs: int, seed: int = 1) -> None:
    """The new documents (work/new, the planted copies' sources in work/planted.json) and
    the archive documents up to n_docs (work/archive-docs/CHUNK-NUMBER/), made once."""
    rng = random.Random(seed)
    pages = sorted(corpus.rglob("*.txt"))
    rng.shuffle(pages)
    held_out, archived = pages[:N_HELD_OUT], pages[N_HELD_OUT:]
    docs = work / "archive-docs"
    pool = None
    for number in range(n_docs):
        path = docs / f"{number // CHUNK:04d}" / f"{number:07d}.txt"
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if number < len(archived):
            os.link(archived[number], path)
            continue
        pool = pool or paragraph_pool(archived)
        own = random.Random(seed * 1_000_003 + number)
        path.write_text("\n\n".join(own.sample(pool, own.randint(6, 14))), encoding="utf-8")
    new = work / "new"
    if not new.exists():
        write_new(
            new, held_out, [docs / f"{i // CHUNK:04d}" / f"{i:07d}.txt" for i in range(10_000)], rng
        )


def paragraph_pool(pages: list[Path]) -> list[str]:
    """Paragraphs of at least 20 words of the archived pages."""
    pool = []
    for page in pages:
        for paragraph in page.read_text(encoding="utf-8", errors="replace").split("\n\n"):
            if len(paragraph.split()) >= 20:
                pool.append(paragraph.strip())
    return pool


def write_new(new: Path, held_out: list[Path], sources: list[Path], rng: random.Random) -> None:
    """The held-out pages and the planted copies, their sources in planted.json."""
    new.mkdir(parents=True)
    for i, page in enumerate(held_out):
        os.link(page, new / f"page-{i:04d}.txt")
    paragraphs = {}

    def of(path: Path) -> list[str]:
        if path not in paragraphs:
            text = path.read_text(encoding="utf-8", errors="replace")
            paragraphs[path] = [p.strip() for p in text.split("\n\n") if len(p.split()) >= 8]
        return paragraphs[path]

    sources = [p for p in sources if len(of(p)) >= 6]
    own = [of(p) for p in held_out if len(of(p)) >= 6]
    planted = {}
    chosen = rng.sample(sources, N_WHOLE + N_PARTIAL + 3 * N_SPLICED)
    for i, source in enumerate(chosen[:N_WHOLE]):
        words = " ".join(of(source)).split(" ")
        for at in rng.sample(range(len(words)), 3):
            words[at] = "changed"
        planted[f"whole-{i:03d}.txt"] = (" ".join(words), [source])
    for i, source in enumerate(chosen[N_WHOLE : N_WHOLE + N_PARTIAL]):
        theirs = of(source)
        start = rng.randrange(0, len(theirs) // 2)
        copied = theirs[start : start + max(3, len(theirs) // 2)]
        mine = rng.choice(own)
        planted[f"partial-{i:03d}.txt"] = ("\n\n".join(mine[:3] + copied + mine[3:]), [source])
    for i in range(N_SPLICED):
        three = chosen[N_WHOLE + N_PARTIAL + 3 * i : N_WHOLE + N_PARTIAL + 3 * i + 3]
        pieces = rng.choice(own)[:4]
        for source in three:
            theirs = of(source)
            start = rng.randrange(0, len(theirs) - 2)
            pieces += theirs[start : start + 3]
        planted[f"spliced-{i:03d}.txt"] = ("\n\n".join(pieces), three)
    for name, (text, _) in planted.items():
        (new / name).write_text(text, encoding="utf-8")
    sources_of = {name: [str(s) for s in srcs] for name, (_, srcs) in planted.items()}
    (new.parent / "planted.json").write_text(json.dumps(sources_of, indent=1), encoding="utf-8")


def scale_build(args) -> None:
    """The archive of args.docs documents; from a copy of the largest smaller one when
    there is one (a school adding a year: its documents are not read again)."""
    scale_corpus(args.corpus, args.work, args.docs)
    folder = args.work / f"archive-{args.docs}"
    smaller = sorted(
        (int(p.name.split("-")[1]) for p in args.work.glob("archive-[0-9]*")), reverse=True
    )
    smaller = [n for n in smaller if n < args.docs]
    if smaller and not folder.exists():
        shutil.copytree(args.work / f"archive-{smaller[0]}", folder)
    roots = sorted(str(p) for p in (args.work / "archive-docs").iterdir())[: -(-args.docs // CHUNK)]
    options = ScanOptions(roots=tuple(roots), workers=args.workers)
    report, _ = timed("archive add", lambda p: add_folders(folder, options, progress=p))
    print(f"{'':>24}{len(report.archive)} documents, {len(report.not_added)} not added")
    print_disk(folder, len(report.archive))


def print_disk(folder: Path, n: int) -> None:
    """Size on disk of the segments the manifest names (a merge's old segments stay until
    the next write), by kind, and the rest per document."""
    names = [e["name"] for e in json.loads((folder / "manifest.json").read_text())["segments"]]

    def mb(suffix: str) -> float:
        paths = [p for name in names for p in folder.glob(f"{name}{suffix}")]
        return sum(folder_mb(p) if p.is_dir() else p.stat().st_size / 1e6 for p in paths)

    total, tokens, text = mb(".*"), mb(".token*"), mb(".text")
    rest = total - tokens - text
    print(
        f"{'':>24}on disk {total:.1f} MB: tokens {tokens:.1f} MB, texts {text:.1f} MB, "
        f"the rest {rest:.1f} MB = {rest * 1e6 / max(n, 1):.0f} bytes per document "
        f"(posting lists {mb('.*-postings'):.1f} MB, packed indexes "
        f"{mb('.docs') + mb('.passages'):.1f} MB)"
    )


def scale_check(args) -> None:
    folder = args.work / f"archive-{args.docs}"
    options = ScanOptions(roots=(str(args.work / "new"),), workers=args.workers)
    start = time.perf_counter()
    archive, _ = timed("open", lambda p: Archive.open(folder))
    (fresh, others), _ = timed("read new", lambda p: read_new(options, p))
    result, _ = timed(
        "check (after reading)",
        lambda p: compare_with_archive(archive, fresh, others, options, progress=p),
    )
    print(
        f"{'':>24}whole check {time.perf_counter() - start:.1f} s, peak RSS {peak_rss_mb():.0f} MB"
    )
    touched = sum(d.path.startswith(ARCHIVE_MARK) for d in result.documents)
    with_text = sum(
        d.path.startswith(ARCHIVE_MARK) and bool(d.paragraphs) for d in result.documents
    )
    print(f"{'':>24}{len(fresh)} new, {touched} archive documents compared ({with_text} with text)")
    planted = json.loads((args.work / "planted.json").read_text(encoding="utf-8"))
    found = {
        tuple(sorted((row["a"].removeprefix(ARCHIVE_MARK), row["b"].removeprefix(ARCHIVE_MARK))))
        for row in pair_rows(result, 8)
    }
    new = args.work / "new"
    for kind in ("whole", "partial", "spliced"):
        wanted = [
            tuple(sorted((str(new / name), source)))
            for name, sources in planted.items()
            if name.startswith(kind)
            for source in sources
        ]
        hits = sum(pair in found for pair in wanted)
        print(f"{'':>24}{kind}: {hits} of {len(wanted)} planted copies found")
    print_disk(folder, len(archive))


def scale_main() -> None:
    parser = argparse.ArgumentParser(description="a check's cost against archives of N documents")
    parser.add_argument("step", choices=("scale-build", "scale-check"))
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/man_txt"))
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--docs", type=int, required=True, help="archive documents")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    (scale_build if args.step == "scale-build" else scale_check)(args)


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] in (["scale-build"], ["scale-check"]):
        scale_main()
    else:
        main()
