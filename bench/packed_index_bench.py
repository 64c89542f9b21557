"""PackedIndex benchmark: an archive index built once, saved, loaded and queried.

    python -m bench.packed_index_bench  # 1,000,000 fingerprints, k=8
    python -m bench.packed_index_bench packed --sizes 10000 100000 1000000 --k 3 8 10
    python -m bench.packed_index_bench layouts  # the classic 4/10/20-table layouts at k=3
    python -m bench.packed_index_bench codes  # bits per entry: EF vs Rice vs h(n)+Huffman

Fingerprints are bench/index_bench.py's (random, 10% planted near-duplicates, 1% exact
copies); queries are 10,000 indexed fingerprints with one bit flipped. Load is timed in a
fresh Python process (the file is in the page cache, as right after saving). Query times
are the best of three; CPU is the process time of that run (2 worker threads).
"""

from __future__ import annotations

import argparse
import heapq
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
import simsift.core.index.packed as packed_index
from simsift.core.index.memory import HammingIndex
from simsift.core.index.packed import PackedIndex, _decode_groups, _extract, choose_packed_plan
from simsift.core.index.plan import make_plan

from bench.index_bench import planted


def queries_for(fps: np.ndarray, n: int) -> np.ndarray:
    rng = np.random.default_rng(1)
    bits = rng.integers(0, 64, n).astype(np.uint64)
    return fps[rng.integers(0, len(fps), n)] ^ (np.uint64(1) << bits)


def time_queries(index, queries: np.ndarray) -> tuple[float, float, int]:
    best = (np.inf, 0.0, 0)
    for _ in range(3):
        wall, cpu = time.perf_counter(), time.process_time()
        found = len(index.query(queries))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best = min(best, (wall, cpu, found))
    return best


def load_in_fresh_process(directory: Path) -> float:
    code = (
        "import time; t = time.perf_counter();"
        "from simsift.core.index.packed import PackedIndex;"
        "t = time.perf_counter();"
        f"PackedIndex.load({str(directory)!r});"
        "print(time.perf_counter() - t)"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    return float(out.stdout.strip())


def bytes_per_entry(index: PackedIndex) -> tuple[float, float, float]:
    per = np.array(index.table_bytes()) / max(index.distinct_count, 1)
    if not len(per):  # brute force: no tables
        return 0.0, 0.0, 0.0
    return float(per.mean()), float(per.min()), float(per.max())


def bench_packed(sizes: list[int], ks: list[int], n_queries: int, check: bool) -> None:
    print(
        "| N | k | plan | build s | bytes/entry mean (min–max) | file MB | load s "
        "| 10k queries s (CPU s) | matches |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        for k in ks:
            fps = planted(n, k)
            queries = queries_for(fps, n_queries)
            start = time.perf_counter()
            index = PackedIndex.build(fps, k)
            build = time.perf_counter() - start
            with tempfile.TemporaryDirectory() as tmp:
                path = index.save(tmp)
                size = path.stat().st_size
                load = min(load_in_fresh_process(Path(tmp)) for _ in range(3))
                loaded = PackedIndex.load(tmp)
                loaded.query(queries[:10])  # checks every table's CRC once
                wall, cpu, found = time_queries(loaded, queries)
                if check:
                    expected = HammingIndex(fps, k).query(queries)
                    got = loaded.query(queries)
                    assert np.array_equal(expected.left, got.left)
                    assert np.array_equal(expected.right, got.right)
                del loaded
            mean, low, high = bytes_per_entry(index)
            print(
                f"| {n:,} | {k} | {index.plan.describe()} | {build:.1f} "
                f"| {mean:.2f} ({low:.2f}–{high:.2f}) | {size / 2**20:.1f} | {load:.3f} "
                f"| {wall:.2f} ({cpu:.2f}) | {found:,} |",
                flush=True,
            )


def bench_layouts(n: int, n_queries: int) -> None:
    """Seed 002's layouts at k=3 against the planner's choice, packed and in memory."""
    k = 3
    fps = planted(n, k)
    queries = queries_for(fps, n_queries)
    plans = {
        "seed: 4 tables (16-bit)": make_plan(4, k),
        "seed: 10 tables (2 of 5 blocks)": make_plan(5, k),
        "Manku: 20 tables (3 of 6 blocks)": make_plan(6, k),
        "planner (packed)": choose_packed_plan(n, k),
    }
    print(
        "| layout | plan | packed bytes/entry mean | packed MB | packed 10k queries s "
        "| in-memory MB | in-memory all pairs s |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, plan in plans.items():
        index = PackedIndex.build(fps, k, plan=plan)
        mean, _, _ = bytes_per_entry(index)
        index.query(queries[:10])
        wall, _, _ = time_queries(index, queries)
        memory = HammingIndex(fps, k, plan=plan)
        start = time.perf_counter()
        memory.pairs()
        pairs = time.perf_counter() - start
        print(
            f"| {name} | {plan.describe()} | {mean:.2f} | {sum(index.table_bytes()) / 2**20:.1f} "
            f"| {wall:.3f} | {8 * len(plan.tables) * index.distinct_count / 2**20:.0f} "
            f"| {pairs:.2f} |",
            flush=True,
        )


def huffman_lengths(counts: Counter) -> dict[int, int]:
    """Code length of each symbol of a Huffman code for these counts."""
    if len(counts) == 1:
        return {next(iter(counts)): 1}
    heap = [(c, i, (s,)) for i, (s, c) in enumerate(counts.items())]
    heapq.heapify(heap)
    length = Counter()
    tie = len(heap)
    while len(heap) > 1:
        c1, _, s1 = heapq.heappop(heap)
        c2, _, s2 = heapq.heappop(heap)
        for s in s1 + s2:
            length[s] += 1
        heapq.heappush(heap, (c1 + c2, tie, s1 + s2))
        tie += 1
    return dict(length)


def seed_bits(gaps: np.ndarray) -> float:
    """Seed 002's code: h(n) (position of the first differing bit, Huffman-coded) and the
    bits below it, per gap between consecutive sorted values (here on the gap itself)."""
    lengths = np.zeros(len(gaps), np.int64)
    nz = gaps > 0
    lengths[nz] = np.floor(np.log2(gaps[nz].astype(np.float64))).astype(np.int64) + 1
    code = huffman_lengths(Counter(lengths.tolist()))
    return float(
        sum(code[b] * c for b, c in Counter(lengths.tolist()).items())
        + np.maximum(lengths - 1, 0).sum()
    )


def rice_bits(gaps: np.ndarray) -> float:
    best = np.inf
    for r in range(0, 40):
        best = min(best, float(len(gaps) * (r + 1) + (gaps >> np.uint64(r)).sum()))
    return best


def table_values(index: PackedIndex, t: int) -> np.ndarray:
    table = index._table(t)
    groups = np.arange(table.layout.groups)
    _, values = _decode_groups(table, groups, table.heads(groups), table.heads(groups + 1))
    return values


def bench_codes(n: int, k: int, tables: int) -> None:
    """Bits per entry of one table's sorted values under each code, over a few tables."""
    fps = planted(n, k)
    index = PackedIndex.build(fps, k)
    rows = []
    for t in range(min(tables, len(index.plan.tables))):
        values = table_values(index, t)
        gaps = np.diff(values, prepend=np.uint64(0))
        layout = index._tables[t].layout
        per = index.distinct_count  # bits per fingerprint: equal values are stored once
        stored = index.table_bytes()[t] * 8 / per
        # the seed's own layout: the whole fingerprint, permuted so the key comes first, sorted
        permuted = np.sort(
            (_extract(fps, layout.mask) << np.uint64(64 - layout.key_bits))
            | _extract(fps, ~layout.mask & (2**64 - 1))
        )
        seed_full = seed_bits(np.diff(permuted, prepend=np.uint64(0))) / per
        rows.append(
            (
                t,
                layout.key_bits,
                layout.rest_bits,
                stored,
                rice_bits(gaps) / per,
                seed_bits(gaps) / per,
                seed_full,
            )
        )
    print(
        "| table | key bits | rest bits | stored (Elias–Fano + heads) | Rice, best parameter "
        "| seed h(n)+Huffman | seed layout: whole permuted fingerprint, h(n)+Huffman |"
    )
    print("|---|---|---|---|---|---|---|")
    for t, p, w, stored, rice, seed, full in rows:
        print(f"| {t} | {p} | {w} | {stored:.1f} | {rice:.1f} | {seed:.1f} | {full:.1f} |")
    mean = np.mean([r[3:] for r in rows], axis=0)
    print(
        f"| mean | | | {mean[0]:.1f} bits = {mean[0] / 8:.2f} B | {mean[1]:.1f} "
        f"| {mean[2]:.1f} | {mean[3]:.1f} bits = {mean[3] / 8:.2f} B |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", nargs="?", default="packed", choices=["packed", "layouts", "codes"])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--k", type=int, nargs="+", default=[8])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=12, help="tables measured by `codes`")
    parser.add_argument("--check", action="store_true", help="compare with HammingIndex")
    parser.add_argument("--workers", type=int, help="query threads (default: up to 4 cores)")
    args = parser.parse_args()
    if args.workers:
        packed_index._WORKERS = args.workers
    if args.mode == "packed":
        bench_packed(args.sizes, args.k, args.queries, args.check)
    elif args.mode == "layouts":
        bench_layouts(args.sizes[0], args.queries)
    else:
        bench_codes(args.sizes[0], args.k[0], args.tables)


if __name__ == "__main__":
    main()
