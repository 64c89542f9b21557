"""Passage matching on real text: distance histograms, a planted set, 10,000-document timing.

    python -m bench.passages_bench distances   # edited vs unrelated passage distances
    python -m bench.passages_bench planted     # precision/recall of partial pairs
    python -m bench.passages_bench scale --docs 10000
    python -m bench.passages_bench stages DIR [--rounds 3]   # the passage stage, step by step

stages: DIR is read once through a catalog kept in /tmp (later runs read nothing), then the
passage stage (`analyze_passages`) and the meaning layer after it are run --rounds times on
its documents, each of the stage's steps timed (CPU time of the process, all its threads:
the machine is shared; the best round).

English text is Python's own documentation (pydoc topics and module docstrings),
Chinese text the seed documents (tests/data/zh_text); essays are paragraphs of that
text reshuffled sentence by sentence, so no two essays share a paragraph by accident.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import random
import re
import sys
import time

import numpy as np
from simsift.core.index.matches import hamming
from simsift.core.match.passages import (
    PassageOptions,
    analyze_passages,
    cut_passages,
    passage_fingerprints,
)
from simsift.core.text.features import FeatureWeights
from simsift.core.text.tokens import token_stream

from tests.core.corpus import chinese_paragraphs


def english_paragraphs(min_words: int = 25) -> list[str]:
    """Paragraphs of Python's bundled documentation."""
    import pydoc_data.topics

    texts = list(pydoc_data.topics.topics.values())
    for name in sorted(sys.stdlib_module_names):
        if name.startswith("_") or name in ("antigravity", "this", "idlelib", "tkinter", "turtle"):
            continue
        try:
            doc = importlib.import_module(name).__doc__
        except Exception:
            continue
        if doc:
            texts.append(doc)
    paragraphs = []
    for text in texts:
        for block in re.split(r"\n\s*\n", text):
            words = block.split()
            if len(words) >= min_words and sum(w.isalpha() for w in words) > 0.6 * len(words):
                paragraphs.append(" ".join(words))
    return list(dict.fromkeys(paragraphs))


def sentences(paragraphs: list[str]) -> list[str]:
    return [s for p in paragraphs for s in re.split(r"(?<=[.!?。！？])\s*", p) if len(s) > 20]


def edit_words(text: str, n: int, rng: random.Random) -> str:
    """Replace n words (English) or n two-character spans (Chinese)."""
    if " " in text:
        words = text.split(" ")
        for i in rng.sample(range(len(words)), min(n, len(words))):
            words[i] = rng.choice(["however", "notably", "various", "perhaps", "clearly"])
        return " ".join(words)
    chars = list(text)
    for i in rng.sample(range(len(chars) - 1), min(n, len(chars) - 1)):
        chars[i : i + 2] = list("修改")
    return "".join(chars)


class EssayMaker:
    """Essays of fresh paragraphs made from shuffled sentences of real text."""

    def __init__(self, paragraphs: list[str], seed: int, joiner: str = " ") -> None:
        self.pool = sentences(paragraphs)
        self.rng = random.Random(seed)
        self.joiner = joiner
        self.deck: list[str] = []

    def paragraph(self, n_sentences: int = 4) -> str:
        """Sentences dealt from a shuffled deck: reused only once the pool runs out."""
        if len(self.deck) < n_sentences:
            self.deck = self.rng.sample(self.pool, len(self.pool))
        dealt, self.deck = self.deck[:n_sentences], self.deck[n_sentences:]
        return self.joiner.join(dealt)

    def essay(self, n_paragraphs: int) -> list[str]:
        return [self.paragraph(self.rng.randint(3, 6)) for _ in range(n_paragraphs)]


# -- distances ------------------------------------------------------------------------------


def distance_histograms(
    paragraphs: list[str], edits: int, shingle: int, rng: random.Random
) -> tuple[np.ndarray, np.ndarray]:
    """Distances of (paragraph, lightly edited copy) and of unrelated paragraph pairs."""
    originals = [token_stream([p]) for p in paragraphs]
    edited = [token_stream([edit_words(p, edits, rng)]) for p in paragraphs]
    fps = []
    for streams in (originals, edited):
        opts = PassageOptions(min_tokens=1, max_tokens=10_000)
        passages = cut_passages(streams, opts)
        fps.append(passage_fingerprints(streams, passages, FeatureWeights(), shingle)[0])
    same = np.asarray(hamming(fps[0], fps[1]))
    a = np.array([rng.randrange(len(paragraphs)) for _ in range(20000)])
    b = np.array([rng.randrange(len(paragraphs)) for _ in range(20000)])
    a, b = a[a != b], b[a != b]
    return same, np.asarray(hamming(fps[0][a], fps[0][b]))


def run_distances(_args) -> None:
    rng = random.Random(7)
    en = [p for p in english_paragraphs() if 40 <= len(p.split()) <= 200]
    zh = chinese_paragraphs()
    print(f"{len(en)} English paragraphs (40-200 words), {len(zh)} Chinese paragraphs (~160 chars)")
    for name, paras, edits in (("en", en, 3), ("en", en, 6), ("zh", zh, 3), ("zh", zh, 6)):
        for shingle in (1, 2):
            same, other = distance_histograms(paras, edits, shingle, rng)
            q = np.percentile(same, [50, 90, 95, 99])
            print(
                f"{name} {edits} edits, shingle {shingle}: edited p50/p90/p95/p99 = "
                f"{q[0]:.0f}/{q[1]:.0f}/{q[2]:.0f}/{q[3]:.0f}; "
                + " ".join(
                    f"k={k}: recall {np.mean(same <= k):.3f} false {np.mean(other <= k):.5f}"
                    for k in (6, 8, 10)
                )
                + f"; unrelated min {other.min()} p1 {np.percentile(other, 1):.0f}"
            )
            if shingle == 2 and edits == 3:
                print("   edited histogram  ", np.bincount(same, minlength=20)[:20].tolist())
                print("   unrelated histogram", np.bincount(other, minlength=33)[:33].tolist())


# -- planted set ----------------------------------------------------------------------------


def planted_corpus(n_pairs: int, seed: int, prompt: list[str], maker: EssayMaker):
    """(essays, truth): pairs (copy, source, copied share) plus unrelated essays.

    Every essay starts with the prompt; copies take 10-60% of their source's paragraphs,
    every other copy lightly edited.
    """
    rng = random.Random(seed)
    essays: list[list[str]] = []
    truth = []
    for i in range(n_pairs):
        source = maker.essay(10)
        share = rng.choice([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        taken = sorted(rng.sample(range(10), round(share * 10)))
        copied = [source[j] for j in taken]
        if i % 2:
            copied = [edit_words(p, 2, rng) for p in copied]
        own = maker.essay(10 - len(copied))
        copy = own[: len(own) // 2] + copied + own[len(own) // 2 :]
        truth.append((len(essays) + 1, len(essays), share, i % 2 == 1))
        essays += [prompt + source, prompt + copy]
    for _ in range(n_pairs):
        essays.append(prompt + maker.essay(10))
    return essays, truth


def run_planted(args) -> None:
    results = []
    for lang in ("en", "zh"):
        paras = english_paragraphs() if lang == "en" else chinese_paragraphs()
        maker = EssayMaker(paras, seed=3, joiner=" " if lang == "en" else "")
        print(f"{lang}: {len(maker.pool)} sentences in the pool")
        prompt = [maker.paragraph(4)]
        essays, truth = planted_corpus(args.pairs, 11, prompt, maker)
        streams = [token_stream(e) for e in essays]
        reference = [token_stream(prompt)]
        is_ref = np.r_[np.zeros(len(streams), bool), True]
        result = analyze_passages(streams + reference, is_ref, FeatureWeights(), PassageOptions())
        results.append((lang, result, truth, essays))
    for threshold in (0.1, 0.15, 0.2, 0.3):
        for lang, result, truth, essays in results:
            report_planted(lang, result, truth, essays, threshold)


def report_planted(lang, result, truth, essays, threshold) -> None:
    """Recall over planted pairs at or above the threshold; a found pair is false only
    when it was not planted and its essays share no sentence (the generator reuses
    sentences once its pool runs out, and such pairs really do share text)."""
    partial = result.partial(threshold)
    found = {(int(a), int(b)) for a, b in zip(partial.left, partial.right, strict=True)}
    planted = {(min(c, s), max(c, s)) for c, s, share, _ in truth if share >= threshold}
    all_planted = {(min(c, s), max(c, s)) for c, s, _, _ in truth}
    own = [set(sentences(e[1:])) for e in essays]  # without the prompt
    tp = len(found & planted)
    fp = sum(1 for a, b in found - all_planted if not own[a] & own[b])
    shared = len(found - all_planted) - fp
    errors = []
    for c, s, share, _edited in truth:
        cin, _, _ = result.overlap(c, s)
        errors.append(cin - share)
    share = result.excluded_share[: len(essays)]
    print(
        f"{lang} threshold {threshold}: recall {tp}/{len(planted)} = "
        f"{tp / max(len(planted), 1):.3f},"
        f" precision {tp}/{tp + fp} = {tp / max(tp + fp, 1):.3f} (+{shared} unplanted pairs "
        f"sharing sentences); containment error mean "
        f"{np.mean(errors):+.3f}, max |err| {np.max(np.abs(errors)):.3f}; template share of "
        f"essays mean {share.mean():.3f}"
    )


# -- scale ----------------------------------------------------------------------------------


def run_scale(args) -> None:
    maker = EssayMaker(english_paragraphs(), seed=5)
    rng = random.Random(9)
    prompt = [maker.paragraph(4)]
    t0 = time.perf_counter()
    essays = [prompt + maker.essay(rng.randint(8, 14)) for _ in range(args.docs)]
    for i in range(0, args.docs - 1, 50):  # plant a partial copy every 50 essays
        essays[i + 1] = essays[i + 1][:6] + essays[i][3:7]
    streams = [token_stream(e) for e in essays]
    print(f"made and tokenized {args.docs} essays in {time.perf_counter() - t0:.1f} s")
    tokens = sum(len(s) for s in streams)
    for repeat in range(2):
        t0 = time.perf_counter()
        result = analyze_passages(
            streams, np.zeros(len(streams), bool), FeatureWeights(), PassageOptions()
        )
        seconds = time.perf_counter() - t0
        print(
            f"run {repeat + 1}: {args.docs} documents, {tokens} tokens, {len(result.passages)} "
            f"passages: {seconds:.2f} s; {len(result.matches)} passage matches, "
            f"{len(result.overlaps)} overlapping pairs, {len(result.partial())} partial, "
            f"template share {result.excluded_share.mean():.3f}"
        )
    _time_stages(streams)


def _time_stages(streams) -> None:
    from simsift.core.index.memory import HammingIndex

    opts = PassageOptions()
    t0 = time.perf_counter()
    passages = cut_passages(streams, opts)
    t1 = time.perf_counter()
    fps, counts = passage_fingerprints(streams, passages, FeatureWeights(), opts.shingle_size)
    t2 = time.perf_counter()
    # distinct fingerprints, as analyze_passages indexes them (the prompt is one entry)
    index = HammingIndex(np.unique(fps[counts >= opts.min_features]), opts.max_distance)
    pairs = index.pairs()
    t3 = time.perf_counter()
    print(
        f"stages: cut {t1 - t0:.2f} s, fingerprint {t2 - t1:.2f} s, "
        f"index+pairs {t3 - t2:.2f} s ({index.plan.describe()}, {len(pairs)} distinct pairs)"
    )


_STEPS = {  # analyze's module-level names timed by `stages`
    "cut + fingerprints": "passages_reusing",
    "passage pairs": "find_matches",
    "extend": "extend_matches",
    "kept grams": "kept_reusing",
    "shared runs (grams)": "_gram_layer",
    "containment": "pair_overlaps",
    "same text": "credit_same_text",
    "longest runs": "with_runs",
}
_PAIR_COMPARISON = "  of which pairs compared"  # verbatim.longest_runs inside "longest runs"


def run_stages(args) -> None:
    """Each step of the passage stage on a real folder, CPU time, best of the rounds."""
    from pathlib import Path

    from simsift.core.match.passages import analyze as analyze_module
    from simsift.core.match.passages import overlaps as overlaps_module
    from simsift.core.pipeline import stages as stages_module
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.store.catalog import Catalog

    folder = Path(args.folder).resolve()
    options = ScanOptions(roots=(str(folder),), workers=2)
    with Catalog(Path("/tmp") / f"passages-bench-{folder.name}.sqlite3") as catalog:
        result = scan(options, catalog=catalog)
    documents = [d for d in result.documents if d.tokens is not None]
    is_reference = np.zeros(len(documents), bool)
    tokens = sum(len(d.tokens.body.hashes) for d in documents)
    print(f"{len(documents)} documents, {tokens:,} tokens")
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        spent = dict.fromkeys([*_STEPS, _PAIR_COMPARISON, "passage stage"], 0.0)
        with contextlib.ExitStack() as stack:
            for label, name in _STEPS.items():
                stack.enter_context(_timed(analyze_module, name, label, spent))
            stack.enter_context(_timed(overlaps_module, "longest_runs", _PAIR_COMPARISON, spent))
            stack.enter_context(_timed(stages_module, "analyze_passages", "passage stage", spent))
            t0 = time.process_time()
            passages = stages_module.find_passages(documents, is_reference, options)
            spent["meaning"] = time.process_time() - t0 - spent["passage stage"]
        for k, v in spent.items():
            best[k] = min(best.get(k, v), v)
        print(f"round: {len(passages.overlaps)} pairs, {len(passages.matches)} passage matches")
    for k, v in best.items():
        print(f"  {k:22} {v:7.2f} s")


@contextlib.contextmanager
def _timed(module, name: str, label: str, spent: dict[str, float]):
    original = getattr(module, name)

    def wrapper(*a, **kw):
        t0 = time.process_time()
        try:
            return original(*a, **kw)
        finally:
            spent[label] += time.process_time() - t0

    setattr(module, name, wrapper)
    try:
        yield
    finally:
        setattr(module, name, original)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    sub.add_parser("distances")
    planted = sub.add_parser("planted")
    planted.add_argument("--pairs", type=int, default=60)
    scale = sub.add_parser("scale")
    scale.add_argument("--docs", type=int, default=10_000)
    stages = sub.add_parser("stages")
    stages.add_argument("folder")
    stages.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    modes = {"distances": run_distances, "planted": run_planted, "scale": run_scale}
    modes["stages"] = run_stages
    modes[args.mode](args)


if __name__ == "__main__":
    main()
