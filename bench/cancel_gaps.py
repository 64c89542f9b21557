"""The longest stretches of a scan's main thread without a Cancel check.

Every `CancelToken.check` in the scanning thread is timed with that thread's CPU clock; a
stretch longer than `--over` seconds is listed with the check that ended it. CPU time is
used because it depends little on other load (wall time on a loaded machine is 2-3 times
it). Reading is cached by the catalog; delete FILE.cache/ first so that the comparison
stages run again.

    rm -rf /tmp/cat.sqlite.cache && python -m bench.cancel_gaps /tmp/man_txt /tmp/cat.sqlite
"""

from __future__ import annotations

import argparse
import threading
import time
import traceback
from pathlib import Path

from simsift.core import progress as progress_module
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.store.catalog import Catalog


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("catalog", type=Path)
    parser.add_argument("--over", type=float, default=0.3, help="CPU seconds listed (0.3)")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    scanning = threading.get_ident()
    state = {"last": None, "stage": ""}
    stretches: list[tuple[float, str, str]] = []
    check = progress_module.CancelToken.check

    def timed_check(token) -> None:
        if threading.get_ident() == scanning:
            now = time.thread_time()
            if state["last"] is not None and now - state["last"] > args.over:
                frames = traceback.extract_stack(limit=6)[:-1]
                where = " <- ".join(
                    f"{Path(f.filename).name}:{f.lineno}:{f.name}" for f in reversed(frames)
                )
                stretches.append((now - state["last"], state["stage"], where))
            state["last"] = now
        check(token)

    def stage_changes(report) -> None:
        if report.stage != state["stage"]:
            state["stage"], state["last"] = report.stage, time.thread_time()

    progress_module.CancelToken.check = timed_check
    with Catalog(args.catalog) as catalog:
        result = scan(
            ScanOptions(roots=(args.folder,), workers=2), progress=stage_changes, catalog=catalog
        )
    print(f"{len(result.documents)} documents")
    for seconds, stage, where in sorted(stretches, reverse=True)[: args.top]:
        print(f"{seconds:.2f} CPU s, {stage}, ended by the check at {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
