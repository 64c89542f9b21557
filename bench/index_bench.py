"""HammingIndex benchmark: all pairs within k and batch queries, against baselines, in one run.

    python -m bench.index_bench                 # N = 10k, 100k, 1M at k = 3
    python -m bench.index_bench --sizes 100000 --k 3 6

Fingerprints are random 64-bit values plus planted near-duplicates (10% of N, 0–k+1 bits
flipped) and some exact copies. Baselines run in the same process on the same data, so
compare ratios, not seconds (the machine is shared): vectorized numpy brute force (where
N²/2 fits in a few seconds) and the `simhash` package's pure-Python `SimhashIndex`
(pip install simhash; capped at --simhash-cap fingerprints, the rest would take hours).
Peak memory is the traced numpy/Python allocation of building + all pairs; RSS is the
process's peak resident memory when all pairs are done (run one N and k per process for a
meaningful figure). "CPU s" is the process time of all pairs (tables on worker threads).
The archive index saved to disk (PackedIndex) has its own benchmark: bench/packed_index_bench.py.
"""

from __future__ import annotations

import argparse
import logging
import resource
import time
import tracemalloc

import numpy as np
from simsift.core.index.memory import HammingIndex
from simsift.core.index.plan import BRUTE_FORCE


def planted(n: int, k: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n_base = n - n // 10 - n // 100
    base = rng.integers(0, 2**64 - 1, n_base, dtype=np.uint64, endpoint=True)
    near = base[rng.integers(0, n_base, n // 10)].copy()
    for _ in range(k + 1):
        bit = rng.integers(0, 64, len(near)).astype(np.uint64)
        near ^= np.where(rng.random(len(near)) < 0.7, np.uint64(1) << bit, np.uint64(0))
    exact = base[rng.integers(0, n_base, n // 100)]
    out = np.concatenate([base, near, exact])
    rng.shuffle(out)
    return out


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def bench_index(fps: np.ndarray, k: int, queries: np.ndarray) -> dict:
    tracemalloc.start()
    (index, build) = timed(lambda: HammingIndex(fps, k))
    cpu = time.process_time()
    pairs, t_pairs = timed(index.pairs)
    cpu = time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if len(queries):
        index.query(queries[:10])  # warm-up
        matches, t_query = timed(lambda: index.query(queries))
    else:
        matches, t_query = [], float("nan")
    return {
        "plan": index.plan.describe(),
        "build": build,
        "pairs_time": t_pairs,
        "pairs_cpu": cpu,
        "pairs": len(pairs),
        "query": t_query,
        "query_hits": len(matches),
        "peak_mb": peak / 2**20,
        "rss_mb": rss,
    }


def bench_brute(fps: np.ndarray, k: int, queries: np.ndarray) -> dict:
    index = HammingIndex(fps, k, plan=BRUTE_FORCE)
    pairs, t_pairs = timed(index.pairs)
    matches, t_query = timed(lambda: index.query(queries))
    return {
        "pairs_time": t_pairs,
        "pairs": len(pairs),
        "query": t_query,
        "query_hits": len(matches),
    }


def bench_simhash_package(fps: np.ndarray, k: int, queries: np.ndarray) -> dict:
    from simhash import Simhash, SimhashIndex

    logging.getLogger("simhash").setLevel(logging.ERROR)  # it warns on every bucket over 200
    objs = [(str(i), Simhash(int(v), f=64)) for i, v in enumerate(fps.tolist())]
    index, build = timed(lambda: SimhashIndex(objs, f=64, k=k))

    def all_pairs():
        found = set()
        for i, (_, h) in enumerate(objs):
            for j in index.get_near_dups(h):
                if int(j) > i:
                    found.add((i, int(j)))
        return found

    pairs, t_pairs = timed(all_pairs)
    hits, t_query = timed(
        lambda: sum(len(index.get_near_dups(Simhash(int(q), f=64))) for q in queries.tolist())
    )
    return {
        "build": build,
        "pairs_time": t_pairs,
        "pairs": len(pairs),
        "query": t_query,
        "query_hits": hits,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--k", type=int, nargs="+", default=[3])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--brute-cap", type=int, default=100_000, help="largest N for brute force")
    parser.add_argument(
        "--simhash-cap", type=int, default=10_000, help="largest N for the simhash package"
    )
    args = parser.parse_args()

    print(
        "| N | k | plan | build s | all pairs s (CPU s) | pairs | 10k queries ms | peak MB "
        "| RSS MB | brute pairs s (×) | brute query ms (×) "
        "| simhash pkg pairs s (×) | simhash pkg query ms (×) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for k in args.k:
            fps = planted(n, k)
            rng = np.random.default_rng(1)
            queries = fps[rng.integers(0, n, args.queries)] ^ (
                np.uint64(1) << rng.integers(0, 64, args.queries).astype(np.uint64)
            )
            ours = bench_index(fps, k, queries)
            total = ours["build"] + ours["pairs_time"]
            row = [
                f"{n:,}",
                str(k),
                ours["plan"],
                f"{ours['build']:.3f}",
                f"{ours['pairs_time']:.3f} ({ours['pairs_cpu']:.2f})",
                f"{ours['pairs']:,}",
                f"{1000 * ours['query']:.1f}",
                f"{ours['peak_mb']:.0f}",
                f"{ours['rss_mb']:.0f}",
            ]
            if n <= args.brute_cap and args.queries:
                brute = bench_brute(fps, k, queries)
                assert brute["pairs"] == ours["pairs"] and brute["query_hits"] == ours["query_hits"]
                row += [
                    f"{brute['pairs_time']:.2f} ({brute['pairs_time'] / total:.0f}×)",
                    f"{1000 * brute['query']:.0f} ({brute['query'] / ours['query']:.0f}×)",
                ]
            else:
                row += ["—", "—"]
            if n <= args.simhash_cap:
                pkg = bench_simhash_package(fps, k, queries)
                pkg_total = pkg["build"] + pkg["pairs_time"]
                row += [
                    f"{pkg_total:.1f} ({pkg_total / total:.0f}×)",
                    f"{1000 * pkg['query']:.0f} ({pkg['query'] / ours['query']:.0f}×)",
                ]
            else:
                row += ["—", "—"]
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
