"""A real archive: every man page on this machine rendered to text, scanned cold and rescanned.

    python -m bench.man_pages_bench render --out /tmp/man_txt   # once: groff every page
    python -m bench.man_pages_bench scan --corpus /tmp/man_txt  # cold, unchanged, 1% changed
    python -m bench.man_pages_bench cancel --corpus /tmp/man_txt  # Cancel latency, passages

Man pages are full of shared boilerplate (licence blocks, "Report bugs to ...", section
skeletons, translations of the same page), which is what a real archive looks like.
Install `manpages manpages-dev manpages-zh` first for the Chinese and the section 2/3 pages.
Peak RSS is this process's; the readers' (forked by a fork server, so not its children)
is sampled from /proc.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import resource
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from simsift.core.match.meaning import copies
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.progress import Progress
from simsift.core.store.catalog import Catalog

from bench.process_tree import ProcessTree


def man_sources(root: Path = Path("/usr/share/man")) -> list[Path]:
    """Every real man page file (symlinks and .so redirections left out)."""
    pages = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink() and "/man" in str(path.parent):
            pages.append(path)
    return pages


def render_page(source: Path, root: Path, out: Path) -> bool:
    """groff one page to UTF-8 text; False for .so stubs and pages groff cannot render."""
    raw = gzip.decompress(source.read_bytes()) if source.suffix == ".gz" else source.read_bytes()
    if raw.lstrip().startswith(b".so "):
        return False
    target = out / source.relative_to(root).with_suffix("").with_suffix(".txt")
    target = target.with_name(source.name.removesuffix(".gz") + ".txt")
    target.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["groff", "-man", "-Tutf8", "-P-c", "-P-b", "-P-u", "-k"],
        input=raw,
        capture_output=True,
        timeout=60,
        env={**os.environ, "LC_ALL": "C.UTF-8"},
    )
    if done.returncode != 0 or not done.stdout.strip():
        return False
    target.write_bytes(done.stdout)
    return True


def render(out: Path) -> None:
    root = Path("/usr/share/man")
    sources = man_sources(root)
    start = time.perf_counter()
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        ok = sum(pool.map(lambda s: render_page(s, root, out), sources))
    files = [p for p in out.rglob("*.txt")]
    size = sum(p.stat().st_size for p in files)
    langs = {p.relative_to(out).parts[0] for p in files}
    print(
        f"{len(sources)} sources -> {ok} pages rendered ({size / 1e6:.0f} MB, "
        f"{len(langs)} folders) in {time.perf_counter() - start:.0f} s"
    )


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed_scan(options: ScanOptions, catalog_path: Path, label: str) -> float:
    stages: dict[str, float] = {}
    last = [time.perf_counter(), ""]

    def progress(p: Progress) -> None:
        now = time.perf_counter()
        stages[last[1]] = stages.get(last[1], 0.0) + now - last[0]
        last[0], last[1] = now, p.stage

    aligned, align = [0], copies.align

    def counted(*args, **kwargs):  # pairs aligned by meaning, not taken from the cache
        aligned[0] += 1
        return align(*args, **kwargs)

    copies.align = counted
    with Catalog(catalog_path) as catalog, ProcessTree() as tree:
        start = time.perf_counter()
        result = scan(options, catalog=catalog, progress=progress)
        elapsed = time.perf_counter() - start
    copies.align = align
    stages[last[1]] = stages.get(last[1], 0.0) + time.perf_counter() - last[0]
    stages.pop("", None)
    partial = result.partial_pairs()
    per_stage = ", ".join(f"{k} {v:.1f}" for k, v in stages.items())
    print(
        f"{label:>12}: {elapsed:7.1f} s  peak RSS {peak_rss_mb():6.0f} MB "
        f"(readers {tree.largest_mb:4.0f} MB)  "
        f"{len(result.documents)} docs, {len(result.errors)} errors, {len(result.pairs)} pairs, "
        f"{len(partial)} partial, {int(result.passages.is_common.sum())} common passages, "
        f"{len(result.passages.meaning)} meaning fragments, {aligned[0]} pairs aligned "
        f"(stages s: {per_stage})",
        flush=True,
    )
    return elapsed


def change_some(corpus: Path, share: float, seed: int = 1) -> int:
    """Append a line to `share` of the files, as an edit would."""
    files = sorted(corpus.rglob("*.txt"))
    chosen = random.Random(seed).sample(files, max(1, int(len(files) * share)))
    for path in chosen:
        with open(path, "a", encoding="utf-8") as f:
            f.write("\nEdited for the rescan benchmark.\n")
    return len(chosen)


def meaning_options(meaning: str) -> PassageOptions:
    """The copying-by-meaning layers a run looks for: the defaults (translation), none, or
    both (paraphrase too)."""
    if meaning == "off":
        return PassageOptions(paraphrase=False, translation=False)
    return PassageOptions(paraphrase=meaning == "both")


def scan_bench(corpus: Path, workers: int, meaning: str = "default") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "corpus"
        shutil.copytree(corpus, work)
        options = ScanOptions(
            roots=(str(work),), workers=workers, passages=meaning_options(meaning)
        )
        print(f"meaning layers: {meaning}", flush=True)
        catalog = Path(tmp) / "catalog.sqlite"
        cold = timed_scan(options, catalog, "cold")
        warm = timed_scan(options, catalog, "unchanged")
        n = change_some(work, 0.01)
        changed = timed_scan(options, catalog, f"{n} changed")
        print(
            f"unchanged rescan {warm / cold:.1%} of cold; 1% changed {changed / cold:.1%} of cold"
        )


def cancel_bench(corpus: Path, workers: int) -> None:
    """How long the compare stage takes to stop after Cancel, at several points in it."""
    import threading

    from simsift.core.pipeline.stages import find_passages
    from simsift.core.progress import Cancelled, CancelToken

    result = scan(ScanOptions(roots=(str(corpus),), workers=workers))
    options = result.options
    for delay in (0.5, 2, 5, 10, 20, 30, 45):
        token, stopped = CancelToken(), {}

        def run(token=token, stopped=stopped) -> None:
            try:
                find_passages(result.documents, result.is_reference, options, cancel=token)
            except Cancelled:
                stopped["at"] = time.perf_counter()

        thread = threading.Thread(target=run)
        thread.start()
        time.sleep(delay)
        asked = time.perf_counter()
        token.cancel()
        thread.join()
        if "at" in stopped:
            print(f"cancel after {delay:4.1f} s: stopped {stopped['at'] - asked:.3f} s later")
        else:
            print(f"cancel after {delay:4.1f} s: the stage had already finished")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render")
    r.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("scan")
    s.add_argument("--corpus", type=Path, required=True)
    s.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    s.add_argument(
        "--meaning",
        choices=("default", "off", "both"),
        default="default",
        help="copying by meaning: the defaults (translation), none, or paraphrase too",
    )
    c = sub.add_parser("cancel")
    c.add_argument("--corpus", type=Path, required=True)
    c.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    if args.command == "render":
        render(args.out)
    elif args.command == "cancel":
        cancel_bench(args.corpus, args.workers)
    else:
        scan_bench(args.corpus, args.workers, args.meaning)


if __name__ == "__main__":
    main()
