"""Time the meaning layer's collection driver (`find_meaning_copies`, translation alone as
a scan's default) on the sketches a scan kept, with and without the per-document shortcuts,
alternately in one process (a shared machine's load changes between runs: compare the
ratio), and check both give the same fragments.

    python -m bench.meaning_bench --cache CATALOG.cache/FOLDERSET [--rounds 2] [--every 4]

CATALOG.cache/FOLDERSET is the folder of `sketches.arrays` beside a scan's catalog (scan
the corpus with a catalog first, e.g. with bench.man_pages_bench's settings). `--every
K` keeps every K-th document. Times are this process's CPU seconds, which follow the work
more than the load does.
"""

from __future__ import annotations

import argparse
import resource
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from simsift.core.files import load_arrays
from simsift.core.match.meaning import candidates, copies, vectors
from simsift.core.match.meaning.packed import unpack_sketches


@contextmanager
def without_shortcuts():
    """Each English document projected on every partner, and `np.isin` sorting the held
    keys for every document: the code before the shortcuts."""
    one, isin = vectors.one_concept_a_word, candidates._isin_sorted
    vectors.one_concept_a_word = lambda x: False
    candidates._isin_sorted = lambda values, held: np.isin(values, held, assume_unique=True)
    try:
        yield
    finally:
        vectors.one_concept_a_word, candidates._isin_sorted = one, isin


def timed(sketches):
    start = time.process_time()
    found = copies.find_meaning_copies(sketches, across_languages_only=True)
    return found, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args()
    sketches = unpack_sketches(load_arrays(args.cache / "sketches.arrays"))[:: args.every]
    print(f"{len(sketches)} sketches", flush=True)
    answers, times = {}, {"before": [], "after": []}
    for r in range(args.rounds):
        for label in ("before", "after") if r % 2 == 0 else ("after", "before"):
            if label == "before":
                with without_shortcuts():
                    found, seconds = timed(sketches)
            else:
                found, seconds = timed(sketches)
            times[label].append(seconds)
            answers[label] = found
            print(f"round {r + 1} {label}: {seconds:.1f} s CPU, {len(found)} pairs", flush=True)
    ratio = min(times["after"]) / min(times["before"])
    same = answers["before"] == answers["after"]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"after / before (best of each): {ratio:.2f}; same fragments: {same}; peak {peak:.0f} MB")


if __name__ == "__main__":
    main()
