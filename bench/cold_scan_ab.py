"""Cold scans of one corpus with an older engine and this tree's, alternated in one run.

    python bench/cold_scan_ab.py /tmp/man_txt --before dbe9466 --rounds 2

Each round copies the corpus, scans the copy cold into a fresh catalog in a new process,
once with `--before`'s engine (a git worktree, imported as `simsift` ahead of this tree)
and once with this tree's, and prints the wall time, the scan process's CPU and its
readers' (`process_tree.ProcessTree`: the fork server's readers are not its children).
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def cold_scan(corpus: Path, label: str) -> None:
    """One cold scan of a copy of `corpus` with whichever `simsift` imports first."""
    sys.path.insert(0, str(HERE))
    import simsift.core
    from process_tree import ProcessTree
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.store.catalog import Catalog

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
    with tempfile.TemporaryDirectory() as tmp:
        tree, package = Path(tmp) / "engine", Path(tmp) / "package"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-f", "--detach", str(tree), args.before],
            check=True,
            capture_output=True,
        )
        package.mkdir()
        (package / "simsift").symlink_to(tree)
        try:
            for _ in range(args.rounds):
                for label, path in (("before", str(package)), ("now", "")):
                    env = dict(os.environ, PYTHONPATH=path)
                    command = [
                        sys.executable,
                        __file__,
                        str(args.corpus),
                        "--before",
                        args.before,
                        "--one",
                        label,
                    ]
                    subprocess.run(command, env=env, check=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
