"""A scan on a Dask cluster against the same scan on this machine's process pool, in one run.

    python bench/man_pages_bench.py render --out /tmp/man_txt      # once
    python bench/cluster_bench.py scan --corpus /tmp/man_txt [--workers 2]
    python bench/cluster_bench.py pairs --n 10000000 --k 3 [--workers 2]

`scan`: cold scans (no catalog) of the corpus, local pool and a LocalCluster of as many
single-threaded worker processes, alternated (local, cluster, local, cluster) so machine
noise hits both; reports seconds, files per second and the cluster's overhead.
`pairs`: all pairs within k among N random fingerprints, one task per permuted table on
the cluster, against the same search in this process; time and peak memory per worker.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan


def local_cluster(workers: int):
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        host="127.0.0.1",
    )


def timed_scan(options: ScanOptions) -> tuple[float, int, dict[str, float]]:
    """Seconds, files and seconds per stage of one scan."""
    marks: dict[str, float] = {}
    started = time.perf_counter()
    result = scan(options, progress=lambda p: marks.setdefault(p.stage, time.perf_counter()))
    ended = time.perf_counter()
    starts = [*sorted(marks.items(), key=lambda item: item[1]), ("end", ended)]
    stages = {a: b1 - b0 for (a, b0), (_, b1) in pairwise(starts)}
    return ended - started, len(result.documents) + len(result.errors), stages


def bench_scan(corpus: Path, workers: int, rounds: int) -> None:
    cluster = local_cluster(workers)
    try:
        local = ScanOptions(roots=(str(corpus),), workers=workers)
        remote = ScanOptions(roots=(str(corpus),), scheduler=cluster.scheduler_address)
        times: dict[str, list[float]] = {"local": [], "cluster": []}
        for _ in range(rounds):
            for name, options in (("local", local), ("cluster", remote)):
                seconds, files, stages = timed_scan(options)
                times[name].append(seconds)
                split = " ".join(f"{stage} {t:.1f}" for stage, t in stages.items())
                print(f"{name:8s} {seconds:7.1f} s  {files / seconds:6.1f} files/s  ({split})")
        best = {name: min(values) for name, values in times.items()}
        overhead = best["cluster"] / best["local"] - 1
        print(
            f"{files:,} files, {workers} workers: local {best['local']:.1f} s, "
            f"cluster {best['cluster']:.1f} s, overhead {overhead:+.1%} (best of {rounds})"
        )
    finally:
        cluster.close()


def peak_mb() -> float:
    """This process's peak resident memory (runs on a worker when sent there)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_pairs(n: int, k: int, workers: int) -> None:
    import numpy as np
    from distributed import Client
    from simsift.core.index.memory import HammingIndex
    from simsift.core.pipeline.distributed import pairs_on_cluster

    rng = np.random.default_rng(0)
    fps = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    near = fps[: n // 10] ^ (np.uint64(1) << rng.integers(0, 64, n // 10).astype(np.uint64))
    fps = np.concatenate([fps, near])
    cluster = local_cluster(workers)  # first: its workers start small
    try:
        with Client(cluster.scheduler_address, set_as_default=False) as client:
            started = time.perf_counter()
            there = pairs_on_cluster(client, fps, k)
            cluster_seconds = time.perf_counter() - started
            peaks = client.run(peak_mb)
    finally:
        cluster.close()
    started = time.perf_counter()
    here = HammingIndex(fps, k).pairs()
    local_seconds = time.perf_counter() - started
    assert np.array_equal(here.left, there.left) and np.array_equal(here.right, there.right)
    print(f"{len(fps):,} fingerprints, k={k}: {len(here):,} pairs")
    print(f"this process: {local_seconds:.1f} s, peak {peak_mb():,.0f} MB (after the cluster run)")
    worker_peaks = ", ".join(f"{mb:,.0f}" for mb in peaks.values())
    print(f"cluster ({workers} workers): {cluster_seconds:.1f} s, worker peaks {worker_peaks} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("scan")
    s.add_argument("--corpus", type=Path, required=True)
    s.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    s.add_argument("--rounds", type=int, default=2)
    p = commands.add_parser("pairs")
    p.add_argument("--n", type=int, default=10_000_000)
    p.add_argument("--k", type=int, default=3)
    p.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    if args.command == "scan":
        bench_scan(args.corpus, args.workers, args.rounds)
    else:
        bench_pairs(args.n, args.k, args.workers)


if __name__ == "__main__":
    main()
