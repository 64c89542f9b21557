"""Cold scans of one corpus with an older engine and this tree's, alternated in one run.

    python -m bench.cold_scan_ab /tmp/man_txt --before dbe9466 --rounds 2

Each round copies the corpus, scans the copy cold into a fresh catalog in a new process,
once with `--before`'s engine (`bench.engine_at`) and once with this tree's, and prints
the wall time, the scan process's CPU and its readers' (`process_tree.ProcessTree`: the
fork server's readers are not its children).
Compare CPU: wall time on a shared machine follows the load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.engine_at import engine_at


def cold_scan(corpus: Path, label: str) -> None:
    """One cold scan of a copy of `corpus` with whichever `simsift` imports first."""
    import simsift.core
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.store.catalog import Catalog

    from bench.process_tree import ProcessTree

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "corpus"
        shutil.copytree(corpus, work)
        start, before = time.perf_counter(), os.times()
        with ProcessTree() as tree, Catalog(Path(tmp) / "catalog.sqlite") as catalog:
            result = scan(ScanOptions(roots=(str(work),), workers=2), catalog=catalog)
        wall, after = time.perf_counter() - start, os.times()
    own = after.user - before.user + after.system - before.system
    engine = Path(simsift.core.__file__).resolve().parents[1]
    print(
        f"{label:>8} ({engine}): wall {wall:.1f} s, CPU {own:.1f} s scan process + "
        f"{tree.cpu_seconds:.1f} s readers = {own + tree.cpu_seconds:.1f} s; "
        f"{len(result.documents)} documents, {len(result.pairs)} pairs, "
        f"{len(result.partial_pairs())} partial",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--before", required=True, help="commit of the older engine")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child: scan once, this label
    args = parser.parse_args()
    if args.one:
        cold_scan(args.corpus, args.one)
        return 0
    engines = {"before": engine_at(args.before), "now": engine_at("installed")}
    for _ in range(args.rounds):
        for label, engine in engines.items():
            command = [sys.executable, "-m", "bench.cold_scan_ab", str(args.corpus)]
            command += ["--before", args.before, "--one", label]
            subprocess.run(command, env=engine.env(), check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
