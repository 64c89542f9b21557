"""The alternative signatures (segment, keyword MD5, sentence, punctuation) against the weighted
word SimHash, by relation kind.

    python -m bench.quality.signatures --size small     # corpus of run.py, generated if missing
    python -m bench.quality.signatures --size large

One scan with today's defaults; every other signature is computed from the scan's
documents (title, paragraphs, tokens). A signature with a threshold is shown at the
loosest setting whose precision is at least that of today's defaults for the same layer:
whole-document signatures against the word SimHash at DEFAULT_K, passage-level ones
against today's partial pairs. Cost = seconds per document to compute the signature and
its pairs, on this shared machine (compare ratios within one run).
Writes docs/quality/signatures-<size>.md, .json and .png (precision against recall).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
from simsift.core.pipeline.options import DEFAULT_K, ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.pipeline.scan import scan
from simsift.core.pipeline.stages import find_passages, fingerprint_documents
from simsift.core.text.features import corpus_features
from simsift.core.text.simhash import simhash_features

from bench.quality import generate
from bench.quality import signatures_lib as sig
from bench.quality.score import Scores, Truth, all_pairs_within, load_truth, score_pairs

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def simhash_batch(vectors):
    """SimHashes of per-document feature vectors."""
    return simhash_features(sig.as_features(vectors))


K_MAX = 12
KINDS = (
    ("exact", "exact"),
    ("format", "format"),
    ("repost", "re-post"),
    ("edit", "edits ≤ 5%"),
    ("heavy_edit", "edits 5–15%"),
    ("reorder", "reordered"),
    ("partial", "partial 10–60% of source"),
    ("small_partial", "partial 10–30% of copy"),
    ("collage", "collage source"),
)
THRESHOLDS = (0.1, 0.15, 0.2, 0.3, 0.4, 0.5)
SENTENCE_MIN_UNITS = (4, 6, 8, 12)
MIN_SHARED = (100, 150, 200, float("inf"))
PARTIAL_KINDS = ("partial", "small_partial", "collage")
Pairs = tuple[np.ndarray, np.ndarray]


def timed(function: Callable, *args):
    started = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - started


def union(*pairs: Pairs) -> Pairs:
    return np.concatenate([p[0] for p in pairs]), np.concatenate([p[1] for p in pairs])


def within(fingerprints: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return all_pairs_within(fingerprints, K_MAX)


def at_precision(truth: Truth, left, right, distance, floor: float) -> tuple[int, Scores]:
    """The largest k whose pairs keep precision >= floor (k=0 if none does)."""
    best = 0, score_pairs(truth, left[distance <= 0], right[distance <= 0])
    for k in range(K_MAX + 1):
        s = score_pairs(truth, left[distance <= k], right[distance <= k])
        if s.precision >= floor - 1e-9:
            best = k, s
    return best


def sweep(truth: Truth, left, right, distance) -> list[Scores]:
    return [score_pairs(truth, left[distance <= k], right[distance <= k]) for k in range(K_MAX + 1)]


def whole_document_rows(
    result: ScanResult, truth: Truth, curves: dict
) -> tuple[list, Pairs, float]:
    """Rows of whole-document signatures; today's pairs at DEFAULT_K; its precision.
    Fills `curves` (name -> Scores per k, or one Scores) for the plot."""
    docs = result.documents
    n = len(docs)
    rows = []
    vectors, t_vectors = timed(
        lambda: sig.per_document(corpus_features([d.tokens for d in docs], result.options.weights))
    )
    words, t_words = timed(simhash_batch, vectors)
    wl, wr, wd = within(words)
    curves["word SimHash (today)"] = sweep(truth, wl, wr, wd)
    today = score_pairs(truth, wl[wd <= DEFAULT_K], wr[wd <= DEFAULT_K])
    floor = today.precision
    today_pairs = wl[wd <= DEFAULT_K], wr[wd <= DEFAULT_K]
    base_cost = t_vectors + t_words
    rows.append((f"word SimHash, k={DEFAULT_K} (today)", today, base_cost / n))
    k, s = at_precision(truth, wl, wr, wd, floor)
    rows.append((f"word SimHash, k={k} (loosest at today's precision)", s, base_cost / n))

    weights = replace(result.options.weights, title_boost=1.5)
    seed_title, t = timed(fingerprint_documents, docs, weights)
    left, right, dist = within(seed_title)
    curves["word SimHash, title 1.5"] = sweep(truth, left, right, dist)
    k, s = at_precision(truth, left, right, dist, floor)
    rows.append((f"word SimHash, title weight 1.5 (seed), k={k}", s, t / n))

    punct, t_punct = timed(lambda: [sig.punctuation_features(d.paragraphs) for d in docs])
    fps, t = timed(simhash_batch, punct)
    left, right, dist = within(fps)
    curves["punctuation contexts"] = sweep(truth, left, right, dist)
    k, s = at_precision(truth, left, right, dist, floor)
    rows.append((f"punctuation-context SimHash, k={k}", s, (t_punct + t) / n))
    for weight in (0.5, 1.0):
        mixed, t = timed(
            lambda w=weight: simhash_batch(
                [sig.with_punctuation(v, p, w) for v, p in zip(vectors, punct, strict=True)]
            )
        )
        left, right, dist = within(mixed)
        curves[f"words + punctuation × {weight:g}"] = sweep(truth, left, right, dist)
        k, s = at_precision(truth, left, right, dist, floor)
        label = f"words + punctuation contexts × {weight:g}, k={k}"
        rows.append((label, s, (base_cost + t_punct + t) / n))

    segments, t = timed(
        lambda: np.array([sig.segment_signature(d.title, d.paragraphs) for d in docs])
    )
    seg, t_seg = timed(sig.segment_pairs, segments)
    curves["segment signature"] = [score_pairs(truth, seg.left, seg.right)]
    rows.append(
        (
            "segment signature: title 1.5 + 3 parts, score ≥ 3",
            score_pairs(truth, seg.left, seg.right),
            (t + t_seg) / n,
        )
    )

    keyword_pairs = {}
    for order in ("sorted", "ordered"):
        for terms in (5, 10, 20):
            signatures, t = timed(sig.keyword_signatures, vectors, terms, order)
            p, t_p = timed(sig.equal_signature_pairs, signatures)
            keyword_pairs[order, terms] = p.left, p.right
            curves[f"keyword MD5 top {terms} {order}"] = [score_pairs(truth, p.left, p.right)]
            label = f"keyword MD5, top {terms}, {order} (+ the word features)"
            rows.append((label, score_pairs(truth, p.left, p.right), (t + t_p) / n))
    both = union(today_pairs, keyword_pairs["sorted", 10])
    rows.append(
        (f"word SimHash k={DEFAULT_K} + keyword MD5 top 10 sorted", score_pairs(truth, *both), None)
    )
    return rows, today_pairs, floor


def best_sentence_setting(truth: Truth, overlaps, floor: float, base: Pairs):
    """(label, scores) of the sentence rule that, added to `base`, finds the most partial
    copies and collage sources at precision >= floor (the strictest rule if none does)."""
    found = []
    for min_shared in MIN_SHARED:
        for threshold in THRESHOLDS:
            p = overlaps.partial(threshold, min_shared)
            s = score_pairs(truth, *union(base, (p.left, p.right)))
            found.append((s.precision >= floor - 1e-9, sum(s.recall[k] for k in PARTIAL_KINDS), s))
            found[-1] += (f"containment ≥ {threshold:g} or {min_shared:g} units",)
    ok = [f for f in found if f[0]]
    chosen = max(ok, key=lambda f: f[1]) if ok else max(found, key=lambda f: f[2].precision)
    return chosen[3], chosen[2]


def passage_rows(result: ScanResult, truth: Truth, today_pairs: Pairs) -> tuple[list, float]:
    """Rows of the passage layer and sentence signatures, and of the full combinations."""
    docs = result.documents
    n = len(docs)
    rows = []
    partial = result.partial_pairs()
    passages = np.asarray(partial.left), np.asarray(partial.right)
    p_today = score_pairs(truth, *passages)
    _, t = timed(find_passages, docs, result.is_reference, result.options)
    rows.append(("passages (today)", p_today, t / n))
    floor = p_today.precision
    nothing = np.zeros(0, np.int64), np.zeros(0, np.int64)
    overlaps_of = {}
    for min_units in SENTENCE_MIN_UNITS:
        signatures, t = timed(sig.sentence_signatures, [d.paragraphs for d in docs], min_units)
        overlaps, t_o = timed(sig.sentence_overlaps, signatures)
        overlaps_of[min_units] = overlaps
        rule, s = best_sentence_setting(truth, overlaps, floor, nothing)
        rows.append((f"sentence signatures ≥ {min_units} units, {rule}", s, (t + t_o) / n))
    full = union(today_pairs, passages)
    full_today = score_pairs(truth, *full)
    label = f"today's defaults: word SimHash k={DEFAULT_K} + passages"
    rows.append((label, full_today, None))
    for min_units in (6, 8):
        overlaps = overlaps_of[min_units]
        rule, s = best_sentence_setting(truth, overlaps, full_today.precision, today_pairs)
        label = f"word SimHash k={DEFAULT_K} + sentences ≥ {min_units} units ({rule}), no passages"
        rows.append((label, s, None))
        rule, s = best_sentence_setting(truth, overlaps, full_today.precision, full)
        rows.append((f"today's defaults + sentences ≥ {min_units} units ({rule})", s, None))
    return rows, floor


WHOLE_KINDS = ("exact", "format", "repost", "edit", "heavy_edit", "reorder")


def pooled_recall(truth: Truth, s: Scores, kinds=WHOLE_KINDS) -> float:
    counts = [len(truth.labeled[k]) for k in kinds]
    return sum(s.recall[k] * c for k, c in zip(kinds, counts, strict=True)) / sum(counts)


def plot(truth: Truth, curves: dict, path: Path, size: str) -> None:
    """Precision against recall of whole-document kinds, and of heavy edits, over k."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2))
    low = max(0.8, min(s.precision for points in curves.values() for s in points) - 0.01)
    panels = (
        (axes[0], lambda s: pooled_recall(truth, s), "recall: " + " + ".join(WHOLE_KINDS)),
        (axes[1], lambda s: s.recall["heavy_edit"], "recall: edits 5–15%"),
    )
    for axis, recall, label in panels:
        for name, points in curves.items():
            x, y = [recall(s) for s in points], [s.precision for s in points]
            if len(points) > 1:
                axis.plot(x, y, marker=".", label=f"{name} (k 0–{K_MAX})")
                axis.plot([x[DEFAULT_K]], [y[DEFAULT_K]], "ko", ms=4)
            else:
                axis.plot(x, y, marker="s", ls="", label=name)
        axis.set(xlabel=label, ylabel="precision", ylim=(low, 1.005))
    axes[0].set_title(f"whole-document signatures ({size} corpus); dots: k={DEFAULT_K}")
    axes[1].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def table(rows: list) -> list[str]:
    head = (
        "| signature | reported | precision | "
        + " | ".join(k[1] for k in KINDS)
        + " | cost ms/doc |"
    )
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for label, s, cost in rows:
        cells = [label, str(s.reported), f"{s.precision:.3f}"]
        cells += [f"{s.recall[k]:.3f}" for k, _ in KINDS]
        cells.append("–" if cost is None else f"{1000 * cost:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=sorted(generate.SIZES), default="small")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "quality")
    args = parser.parse_args(argv)
    corpus = Path(f"/tmp/simsift-quality/{args.size}")
    if not (corpus / "labels.json").exists():
        raise SystemExit(f"no corpus in {corpus}: run bench/quality/run.py --size {args.size}")
    started = time.monotonic()
    options = ScanOptions(roots=(str(corpus / "docs"),), k_max=K_MAX, workers=args.workers)
    result, t_scan = timed(scan, options)
    truth = load_truth(corpus, [d.path for d in result.documents])
    curves: dict = {}
    whole, today_pairs, doc_floor = whole_document_rows(result, truth, curves)
    parts, part_floor = passage_rows(result, truth, today_pairs)
    lines = [
        f"# Signatures by relation kind: {args.size} corpus",
        "",
        f"`python -m bench.quality.signatures --size {args.size}`; {len(result.documents)} "
        f"documents; scan {t_scan:.0f} s, total {time.monotonic() - started:.0f} s.",
        "",
        f"## Whole-document signatures (today's precision: {doc_floor:.3f})",
        "",
        *table(whole),
        "",
        f"## Passage layer (today's partial-pair precision: {part_floor:.3f})",
        "",
        *table(parts),
        "",
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    plot(truth, curves, args.out / f"signatures-{args.size}.png", args.size)
    lines[4:4] = [f"![precision and recall](signatures-{args.size}.png)", ""]
    (args.out / f"signatures-{args.size}.md").write_text("\n".join(lines), encoding="utf-8")
    data = {
        label: {**s.as_dict(), "cost_ms_per_doc": None if c is None else round(1000 * c, 3)}
        for label, s, c in whole + parts
    }
    (args.out / f"signatures-{args.size}.json").write_text(json.dumps(data, indent=1))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
