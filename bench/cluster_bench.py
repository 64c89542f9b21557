"""Clusters at scale: a scan on a Dask cluster against this machine's process pool, and
rebuilding the clusters of near-duplicates when k changes.

    python -m bench.man_pages_bench render --out /tmp/man_txt      # once
    python -m bench.cluster_bench scan --corpus /tmp/man_txt [--workers 2]
    python -m bench.cluster_bench pairs --n 10000000 --k 3 [--workers 2]
    python -m bench.cluster_bench rebuild --docs 100000 [--rounds 7]

`scan`: cold scans (no catalog) of the corpus, local pool and a LocalCluster of as many
single-threaded worker processes, alternated (local, cluster, local, cluster) so machine
noise hits both; reports seconds, files per second and the cluster's overhead.
`pairs`: all pairs within k among N random fingerprints, one task per permuted table on
the cluster, against the same search in this process; time and peak memory per worker.
`rebuild`: `build_clusters` at each k from pairs found once at k_max = 10, on synthetic
fingerprints shaped like a teacher's folders: families of drafts that drift a few bits per
edit (chains), byte-identical copies, two large families of licence-like files, and
unrelated documents; then one chain of 10,000 versions, each a bit from the one before and
ranked after it (the slowest case for choosing originals). The median of `--rounds` runs
per k, and the clusters' shape.
"""

from __future__ import annotations

import argparse
import os
import time
from itertools import pairwise
from pathlib import Path

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


def drifting_families(n: int, seed: int = 0):
    """n fingerprints: 40 % in families that drift 1-3 bits from a random earlier member,
    5 % exact copies of family members, two families of 500 and 125, the rest unrelated."""
    import numpy as np

    rng = np.random.default_rng(seed)
    fps: list[np.ndarray] = []
    family_members = int(n * 0.4)
    sizes = [500, 125]
    while sum(sizes) < family_members:
        sizes.append(int(min(rng.geometric(0.25) + 1, 30)))
    for size in sizes:
        family = np.empty(size, np.uint64)
        family[0] = rng.integers(0, 2**64 - 1, dtype=np.uint64, endpoint=True)
        for i in range(1, size):
            flips = rng.choice(64, int(rng.integers(1, 4)), replace=False).astype(np.uint64)
            family[i] = family[rng.integers(0, i)] ^ np.bitwise_or.reduce(np.uint64(1) << flips)
        fps.append(family)
    drafts = np.concatenate(fps)
    copies = drafts[rng.integers(0, len(drafts), int(n * 0.05))]
    others = rng.integers(0, 2**64 - 1, n - len(drafts) - len(copies), np.uint64, endpoint=True)
    return rng.permutation(np.concatenate([drafts, copies, others]))[:n]


def bench_rebuild(n: int, rounds: int) -> None:
    import numpy as np
    from simsift.core.pipeline.stages import find_pairs

    fps = drifting_families(n)
    started = time.perf_counter()
    pairs = find_pairs(fps, 10, np.zeros(n, bool))
    print(
        f"{n:,} documents, {len(pairs):,} pairs within 10 ({time.perf_counter() - started:.1f} s)"
    )
    rng = np.random.default_rng(1)
    rank = rng.permutation(n)  # oldest first, in no relation to the families
    rebuild_times(fps, pairs, rank, rounds)
    # versions of one file, each edited from the one before and saved after it
    steps = np.uint64(1) << rng.integers(0, 64, 10_000).astype(np.uint64)
    chain = np.bitwise_xor.accumulate(steps)
    pairs = find_pairs(chain, 10, np.zeros(len(chain), bool))
    print(f"a chain of {len(chain):,} versions, oldest first: {len(pairs):,} pairs within 10")
    rebuild_times(chain, pairs, np.arange(len(chain)), rounds)


def rebuild_times(fps, pairs, rank, rounds: int) -> None:
    import numpy as np
    from simsift.core.analysis.cluster import build_clusters

    codes = np.arange(len(fps))
    for k in (0, 3, 6, 8, 10):
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            clusters = build_clusters(pairs, k, fps, codes, codes, rank)
            times.append(time.perf_counter() - started)
        sizes = np.diff(clusters.ptr)
        print(
            f"k={k:2d}: {1000 * float(np.median(times)):6.1f} ms (median of {rounds}), "
            f"{len(clusters):,} clusters, {len(clusters.doc):,} files, largest "
            f"{int(sizes.max()) if len(sizes) else 0}, farthest member "
            f"{int(clusters.distance.max()) if len(clusters.doc) else 0}, "
            f"{int(np.count_nonzero(clusters.distance > k)):,} members farther than k"
        )


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
    r = commands.add_parser("rebuild")
    r.add_argument("--docs", type=int, default=100_000)
    r.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    if args.command == "scan":
        bench_scan(args.corpus, args.workers, args.rounds)
    elif args.command == "rebuild":
        bench_rebuild(args.docs, args.rounds)
    else:
        bench_pairs(args.n, args.k, args.workers)


if __name__ == "__main__":
    main()
