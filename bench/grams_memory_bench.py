"""Where the gram layer's memory and time go: a scan in this process, its steps timed.

    python -m bench.grams_memory_bench profile FOLDER
    python -m bench.grams_memory_bench dump OUT.pkl [--man DIR] [--streams S.pkl] [--pieces N]
    python -m bench.grams_memory_bench compare BEFORE.pkl AFTER.pkl

`profile` scans FOLDER (no catalog) with the passage stage's steps wrapped: for each, the
RSS when it starts and the largest while it runs (sampled every 5 ms), the memory the
passage stage had allocated when it started and the most it allocated above that
(tracemalloc, exact), its wall and CPU seconds (calls added up; nested steps inside).
`dump` runs the passage stage on fixed corpora (the gram tests' fixtures, Chinese text,
identical documents, one long document, essays sharing sentences, reference documents,
a rescan, a check against an archive, and man pages when `--man` is given) and stores
what the gram layer decides: kept grams, shared runs and their counted pieces, common
runs, left-out ranges, partial pairs and per-pair runs. `compare` says whether two dumps
are identical, array for array; run it with the code before and after a change
(PYTHONPATH=another checkout's simsift for the code before), with one `--streams` file
so both read the same tokens (the tokenizer may change in between); `--pieces 5000`
makes the gram layer work in pieces that small, to check the joins between pieces.
"""

from __future__ import annotations

import argparse
import functools
import pickle
import random
import resource
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

_STEPS = {
    "simsift.core.match.passages.analyze": (
        "passages_reusing",
        "find_matches",
        "extend_matches",
        "set_apart_mask",
        "kept_reusing",
        "concatenated",
        "winnow",
        "_gram_layer",
        "shared_runs",
        "stretches",
        "counted_pieces",
        "pair_overlaps",
        "credit_same_text",
        "with_runs",
    ),
    "simsift.core.match.grams": (
        "concatenated",
        "winnow",
        "_short_documents",
        "_holders",
        "_gram_cover",
        "_seeds",
        "_extended",
        "_template_cover",
        "_counted",
        "_common_runs",
        "_in_documents",
    ),
}


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Meter:
    """The open steps' largest RSS (sampled every 5 ms by a thread) and largest memory
    traced by tracemalloc (exact; numpy's arrays are traced) while they run."""

    def __init__(self) -> None:
        self.marks: list[list[float]] = []  # per open step: [largest RSS, largest traced]
        self._stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self._stop.wait(0.005):
            rss = _rss_mb()
            for mark in list(self.marks):
                mark[0] = max(mark[0], rss)

    def fold_traced(self) -> float:
        """Give the traced peak since the last fold to every open step; the current."""
        if not tracemalloc.is_tracing():
            return 0.0
        current, peak = tracemalloc.get_traced_memory()
        for mark in self.marks:
            mark[1] = max(mark[1], peak / 2**20)
        tracemalloc.reset_peak()
        return current / 2**20

    def stop(self) -> None:
        self._stop.set()


def wrap_steps(meter: Meter, rows: dict[str, list[float]]) -> None:
    import importlib

    for module_name, names in _STEPS.items():
        module = importlib.import_module(module_name)
        for name in names:
            fn = getattr(module, name, None)
            if fn is None or hasattr(fn, "__wrapped__"):
                continue
            label = f"{module_name.rsplit('.', 1)[1]}.{name}"

            def wrapper(*args, _fn=fn, _label=label, **kwargs):
                traced = meter.fold_traced()
                mark = [_rss_mb(), traced]
                start = tuple(mark)
                meter.marks.append(mark)
                t0, c0 = time.perf_counter(), time.process_time()
                try:
                    return _fn(*args, **kwargs)
                finally:
                    meter.fold_traced()
                    meter.marks[:] = [m for m in meter.marks if m is not mark]
                    row = rows.setdefault(_label, [0, 0.0, 0.0, *start, 0.0, 0.0])
                    row[0] += 1
                    row[1] += time.perf_counter() - t0
                    row[2] += time.process_time() - c0
                    row[5] = max(row[5], mark[0])
                    row[6] = max(row[6], mark[1] - start[1])

            setattr(module, name, functools.wraps(fn)(wrapper))


def profile(folder: Path) -> None:
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan

    meter, rows = Meter(), {}
    wrap_steps(meter, rows)
    stages: dict[str, float] = {}

    def progress(p) -> None:
        if p.stage not in stages:
            stages[p.stage] = time.perf_counter() - t0
            if p.stage == "passages":  # trace what the passage stage allocates
                tracemalloc.start()

    t0 = time.perf_counter()
    result = scan(ScanOptions(roots=(str(folder),)), progress=progress)
    elapsed = time.perf_counter() - t0
    meter.stop()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{folder}: {elapsed:.1f} s, peak RSS {peak:.0f} MB; {len(result.documents)} documents,"
        f" {len(result.partial_pairs())} partial pairs; stages began at "
        + ", ".join(f"{k} {v:.1f} s" for k, v in stages.items())
    )
    print("RSS in MB; traced: MB allocated by the passage stage (tracemalloc), at the step's")
    print("start and the most above that while it ran (its own transient arrays).")
    head = "step | calls | wall s | CPU s | RSS at start | traced at start | largest RSS"
    print(f"| {head} | largest traced above start |")
    print("|---|---|---|---|---|---|---|---|")
    for label, (calls, wall, cpu, rss, traced, top, extra) in rows.items():
        print(
            f"| {label} | {calls} | {wall:.1f} | {cpu:.1f} | {rss:.0f} | {traced:.0f} "
            f"| {top:.0f} | +{extra:.0f} |"
        )


# ---- identical results: the gram layer's decisions on fixed corpora ----


def _words() -> list[str]:
    from tests.core.test_passages import english_paragraphs

    text = " ".join(english_paragraphs()).split()
    return sorted({w.lower() for w in text if w.isascii() and w.isalpha()})


def corpora(man: Path | None) -> dict[str, tuple[list, np.ndarray]]:
    """name: (token streams, is_reference)."""
    from simsift.core.text.tokens import token_stream

    from bench.bad_input_bench import english_sentences, essay
    from tests.core.corpus import chinese_paragraphs
    from tests.core.test_grams import quoting_corpus, spliced_corpus

    words = _words()
    out = {}

    def plain(streams, reference=()):
        return streams, np.isin(np.arange(len(streams)), reference)

    out["spliced"] = plain(spliced_corpus(words, (15, 30, 50, 100) * 5))
    out["quoting"] = plain(quoting_corpus(words, "As Smith wrote, “{}” (Smith, 2019)."))
    out["stray quote"] = plain(quoting_corpus(words, "As Smith wrote, “{} and so on, as I see"))
    zh = chinese_paragraphs()
    rng = random.Random(5)
    zh_docs = [rng.sample(zh, min(6, len(zh))) for _ in range(60)]
    for i in range(0, 60, 3):  # copies with a paragraph swapped
        zh_docs.append([*zh_docs[i][:3], zh[i % len(zh)], *zh_docs[i][4:]])
    out["chinese"] = plain([token_stream(d) for d in zh_docs])
    sentences = english_sentences()
    rng = random.Random(11)
    shared = ". ".join(sentences[:6]) + "."
    essays = []
    for _ in range(800):
        text = essay(rng, sentences)
        text.insert(rng.randrange(len(text)), shared)
        essays.append(token_stream(text))
    out["shared paragraph"] = plain(essays)
    out["with references"] = plain(essays[:300], reference=(0, 5, 17, 100))
    one = essay(random.Random(2), sentences)
    out["identical"] = plain([token_stream(one) for _ in range(400)])
    out["identical, few"] = plain([token_stream(one) for _ in range(3)])
    rng = random.Random(3)
    out["one long"] = plain([token_stream(essay(rng, sentences, 4000))])
    rng = random.Random(4)
    out["long and short"] = plain(
        [token_stream(essay(rng, sentences, 2000)), *essays[:50], token_stream(["a b c"])]
    )
    out["empty and tiny"] = plain(
        [token_stream([""]), token_stream(["one two"]), *essays[:5], token_stream([""])]
    )
    rng = random.Random(9)
    repeated = [". ".join(sentences[:3])] * 300
    out["repeated sentence"] = plain(
        [token_stream(repeated), token_stream([*essay(rng, sentences), *repeated[:50]])]
    )
    if man is not None:
        files = sorted(man.rglob("*.txt"))
        rng = random.Random(1)
        picked = sorted(rng.sample(files, min(4000, len(files))))
        picked += [f for f in files if "/zh" in str(f)][:300]
        texts = [f.read_text(encoding="utf-8", errors="replace").split("\n\n") for f in picked]
        out["man pages"] = plain([token_stream(t) for t in texts])
    rng = random.Random(17)
    out["archive check"] = plain([token_stream(essay(rng, sentences)) for _ in range(200)])
    return out


def _fields(obj, names) -> dict:
    return {n: np.asarray(getattr(obj, n)).copy() for n in names}


def decisions(result) -> dict:
    run_fields = ("left", "right", "start_left", "start_right", "length", "counted")
    partial = result.partial()
    return {
        "kept": _fields(result.kept, ("value", "doc", "position")),
        "runs": _fields(result.runs, run_fields),
        "common_runs": _fields(result.common_runs, ("doc", "start", "length", "documents")),
        "left_out": (result.left_out_start.copy(), result.left_out_stop.copy()),
        "excluded_tokens": result.excluded_tokens.copy(),
        "excluded_digest": result.excluded_digest.copy(),
        "partial": (partial.left.copy(), partial.right.copy()),
        "overlaps": _fields(result.overlaps, result.overlaps.__slots__),
    }


def dump(out: Path, man: Path | None, streams_file: Path | None, pieces: int = 0) -> None:
    from simsift.core.match import grams
    from simsift.core.match.passages import PassageOptions, analyze_passages
    from simsift.core.text.features import FeatureWeights

    for name in ("_WINNOW_CHUNK", "_ROW_CHUNK", "_SEED_CHUNK", "_EXTEND_TOKENS"):
        if pieces and hasattr(grams, name):  # many small pieces: the joins between them
            setattr(grams, name, pieces)

    if streams_file is not None and streams_file.exists():  # the same tokens as last time
        with open(streams_file, "rb") as f:
            inputs = pickle.load(f)
    else:
        inputs = corpora(man)
        if streams_file is not None:
            with open(streams_file, "wb") as f:
                pickle.dump(inputs, f)
    found = {}
    for name, (streams, is_reference) in inputs.items():
        t0 = time.perf_counter()
        if name == "archive check":
            found[name] = archive_check(streams)
            continue
        result = analyze_passages(streams, is_reference, FeatureWeights(), PassageOptions())
        found[name] = decisions(result)
        for option in ("count_quotations", "count_bibliography"):
            if name in ("quoting", "spliced"):
                other = PassageOptions(**{option: True})
                again = analyze_passages(streams, is_reference, FeatureWeights(), other)
                found[f"{name}, {option}"] = decisions(again)
        if len(streams) > 4:  # a rescan with every fourth document changed
            old_of = np.arange(len(streams))
            old_of[::4] = -1
            changed = list(streams)
            rng = random.Random(len(streams))
            for d in range(0, len(streams), 4):
                donor = streams[rng.randrange(len(streams))]
                changed[d] = type(donor)(
                    donor.hashes.copy(), donor.is_digit.copy(), donor.para_starts.copy()
                )
            known = (old_of, result)
            again = analyze_passages(
                changed, is_reference, FeatureWeights(), PassageOptions(), known=known
            )
            found[f"{name}, rescan"] = decisions(again)
        print(f"{name}: {len(streams)} documents, {time.perf_counter() - t0:.1f} s", flush=True)
    with open(out, "wb") as f:
        pickle.dump(found, f)
    print(f"{len(found)} results in {out}")


def archive_check(streams) -> dict:
    """Runs of new documents against an archive (outside grams counted as common)."""
    from simsift.core.match.grams import OutsideGrams
    from simsift.core.match.passages import PassageOptions, analyze_passages
    from simsift.core.text.features import FeatureWeights

    plain = analyze_passages(streams, np.zeros(200, bool), FeatureWeights(), PassageOptions())
    values = np.unique(plain.kept.value)
    outside = OutsideGrams(values[::3], np.full(len(values[::3]), 4, np.int64), 30)
    result = analyze_passages(
        streams, np.zeros(200, bool), FeatureWeights(), PassageOptions(), outside_grams=outside
    )
    return decisions(result)


def compare(a: Path, b: Path) -> None:
    with open(a, "rb") as f:
        left = pickle.load(f)
    with open(b, "rb") as f:
        right = pickle.load(f)
    bad = 0
    for name in sorted(set(left) | set(right)):
        if name not in left or name not in right:
            print(f"{name}: only in one dump")
            bad += 1
            continue
        diffs = _differences(left[name], right[name])
        size = len(left[name]["kept"]["value"]), len(left[name]["runs"]["left"])
        partial = len(left[name]["partial"][0])
        state = "identical" if not diffs else "DIFFERENT: " + ", ".join(diffs)
        print(f"{name}: {size[0]} kept grams, {size[1]} runs, {partial} partial pairs: {state}")
        bad += bool(diffs)
    print(f"{len(left)} results compared, {bad} different")
    sys.exit(1 if bad else 0)


def _differences(x, y, path="") -> list[str]:
    if isinstance(x, dict):
        return [d for k in x for d in _differences(x[k], y.get(k), f"{path}/{k}")]
    if isinstance(x, tuple):
        return [d for i, v in enumerate(x) for d in _differences(v, y[i], f"{path}[{i}]")]
    same = y is not None and x.shape == y.shape and np.array_equal(x, y)
    return [] if same else [path]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("profile")
    p.add_argument("folder", type=Path)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--man", type=Path)
    d.add_argument(
        "--pieces", type=int, default=0, help="the gram layer's pieces this small (tokens, rows)"
    )
    d.add_argument(
        "--streams", type=Path, help="the corpora's token streams: made once, then read back"
    )
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "profile":
        profile(args.folder)
    elif args.command == "dump":
        dump(args.out, args.man, args.streams, args.pieces)
    else:
        compare(args.before, args.after)


if __name__ == "__main__":
    main()
