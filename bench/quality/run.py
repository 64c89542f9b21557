"""Run the whole quality evaluation: corpus, SimSift sweeps, baselines, CLI check, report.

    python -m bench.quality.run --size small     # ~300 documents, about a minute on 2 cores
    python -m bench.quality.run --size large     # ~3,000 documents
    (--no-pdf without LibreOffice; --no-cli skips the end-to-end CLI check)

Writes docs/quality/results-<size>.md, results-<size>.json and quality-<size>.png.
The corpus is generated into /tmp/simsift-quality/<size> unless it is already there
for the same seed (use --regenerate to force).
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
from simsift.core.pipeline.options import DEFAULT_K, ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.pipeline.scan import reweight, scan
from simsift.core.text.features import FeatureWeights

from bench.quality import baselines, generate, report, reuse
from bench.quality.score import Scores, Truth, load_truth, recall_by_bucket, sweep_distances

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

K_MAX = 12
KS = list(range(K_MAX + 1))
JACCARDS = [round(x, 2) for x in np.arange(0.1, 0.95, 0.05)]
CONTAINMENTS = [round(x, 2) for x in np.arange(0.05, 0.95, 0.05)]
EDIT_RATES = (0.01, 0.02, 0.03, 0.04, 0.05)
COPY_SHARES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
HEAVY_EDIT_RATES = (0.05, 0.075, 0.1, 0.125, 0.15)
SMALL_COPY_SHARES = (0.1, 0.15, 0.2, 0.25, 0.3)


def weight_settings() -> dict[str, FeatureWeights]:
    """SimSift's defaults and one change at a time."""
    d = FeatureWeights()
    return {
        "default": d,
        "tf raw": replace(d, tf_scheme="raw"),
        "tf binary": replace(d, tf_scheme="binary"),
        "idf on": replace(d, use_idf=True),
        "shingle 2": replace(d, shingle_size=2),
        "shingle 3": replace(d, shingle_size=3),
        "digits kept": replace(d, ignore_digits=False),
        "title boost 1": replace(d, title_boost=1.0),
        "title boost 3": replace(d, title_boost=3.0),
        "stopwords kept": replace(d, remove_stopwords=False),
    }


def passage_pairs(result: ScanResult) -> tuple[np.ndarray, np.ndarray]:
    """Partial-copy pairs the scan reports."""
    partial = result.partial_pairs()
    return partial.left, partial.right


def simsift_curves(result: ScanResult, truth: Truth, name: str) -> dict[str, dict]:
    """Sweeps over k of one scan result: SimHash pairs alone, and with partial pairs."""
    p = result.pairs
    curves = {
        name: {
            "param": "k",
            "points": sweep_distances(truth, p.left, p.right, p.distance.astype(int), KS),
        }
    }
    curves[name + " + passages"] = {
        "param": "k",
        "points": sweep_distances(
            truth, p.left, p.right, p.distance.astype(int), KS, passage_pairs(result)
        ),
    }
    return curves


def containment_curve(result: ScanResult, truth: Truth) -> dict[str, dict]:
    """Partial pairs alone, swept over the containment threshold (larger direction)."""
    o = result.partial_pairs(min(CONTAINMENTS))
    score = np.round(1 - np.maximum(o.containment_ab, o.containment_ba), 4)
    points = sweep_distances(
        truth,
        np.asarray(o.left),
        np.asarray(o.right),
        score,
        [round(1 - t, 4) for t in CONTAINMENTS],
    )
    return {
        "passages only": {
            "param": "containment",
            "points": {round(1 - d, 2): v for d, v in points.items()},
        }
    }


def judge(result: ScanResult, truth: Truth, passages: bool = True) -> dict:
    """Strict and reuse-aware precision of what the scan reports at the default k."""
    p = result.pairs.within(DEFAULT_K)
    left, right = p.left, p.right
    if passages:
        extra = passage_pairs(result)
        left, right = np.r_[left, extra[0]], np.r_[right, extra[1]]
    return reuse.judge(truth, [d.paragraphs for d in result.documents], left, right)


def printed_site_pairs(corpus: Path, result: ScanResult) -> dict:
    """Reported pairs of two printed pages of one site (unrelated texts sharing its chrome)
    out of all such pairs, at the default k with partial pairs."""
    labels = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    site = {corpus / d["file"]: d.get("site") for d in labels["documents"]}
    sites = [site.get(Path(d.path)) for d in result.documents]
    p = result.pairs.within(DEFAULT_K)
    extra = passage_pairs(result)
    left, right = np.r_[p.left, extra[0]].tolist(), np.r_[p.right, extra[1]].tolist()
    reported = {(min(a, b), max(a, b)) for a, b in zip(left, right, strict=True)}
    same = [
        (a, b)
        for a in range(len(sites))
        for b in range(a + 1, len(sites))
        if sites[a] is not None and sites[a] == sites[b]
    ]
    return {"pairs": len(same), "reported": sum(pair in reported for pair in same)}


def reported_keys(result: ScanResult, truth: Truth, k: int) -> np.ndarray:
    """Keys of the pairs SimSift reports at k (whole-document pairs and partial pairs)."""
    p = result.pairs.within(k)
    left, right = p.left, p.right
    extra = passage_pairs(result)
    left, right = np.concatenate([left, extra[0]]), np.concatenate([right, extra[1]])
    return np.unique(truth.keys(left, right))


def buckets(corpus: Path, result: ScanResult, truth: Truth, ks: list[int]) -> dict:
    """Recall of edits by edit rate and of partial copies by copied share, at each k."""
    paths = [d.path for d in result.documents]
    out = {}
    for k in ks:
        keys = reported_keys(result, truth, k)
        out[k] = {
            "edit by rate": recall_by_bucket(
                corpus, truth, paths, keys, "edit", "rate", EDIT_RATES
            ),
            "partial by share of source": recall_by_bucket(
                corpus, truth, paths, keys, "partial", "share_of_source", COPY_SHARES
            ),
            "heavy edit by rate": recall_by_bucket(
                corpus, truth, paths, keys, "heavy_edit", "rate", HEAVY_EDIT_RATES
            ),
            "small partial by share of copy": recall_by_bucket(
                corpus, truth, paths, keys, "small_partial", "share_of_copy", SMALL_COPY_SHARES
            ),
        }
    return out


def all_text_documents(result: ScanResult) -> tuple:
    """The scan's documents with HTML pages read as all text (main content extraction off)."""
    from simsift.core.read.extract.encoding import decode_bytes
    from simsift.core.read.extract.html import (
        all_text_paragraphs,
        declared_charset,
        page_title,
        parse_html,
    )
    from simsift.core.read.extract.paragraphs import build_result
    from simsift.core.text.tokens import document_tokens

    docs = []
    for d in result.documents:
        if d.format == "html":
            data = Path(d.path).read_bytes()
            text = decode_bytes(data, declared_charset(data))
            ext = build_result(
                page_title(parse_html(text)), all_text_paragraphs(parse_html(text)), "html"
            )
            tokens = document_tokens(ext.title, ext.paragraphs, traditional_to_simplified=True)
            d = replace(d, title=ext.title, paragraphs=ext.paragraphs, tokens=tokens)
        docs.append(d)
    return tuple(docs)


def baseline_curves(result: ScanResult, truth: Truth) -> dict[str, dict]:
    """The simhash package over k, and MinHash over Jaccard thresholds."""
    from bench.quality.score import all_pairs_within

    texts = [baselines.document_text(d.title, d.paragraphs) for d in result.documents]
    fps = baselines.simhash_fingerprints(texts)
    left, right, dist = all_pairs_within(fps, K_MAX)
    curves = {
        "simhash package": {
            "param": "k",
            "points": sweep_distances(truth, left, right, dist, KS),
        }
    }
    hashes = baselines.minhashes(texts)
    left, right, jac = baselines.minhash_pairs(baselines.signatures(hashes), min(JACCARDS))
    points = sweep_distances(
        truth, left, right, np.round(1 - jac, 4), [round(1 - t, 4) for t in JACCARDS]
    )
    curves["MinHash (Jaccard)"] = {
        "param": "jaccard",
        "points": {round(1 - d, 2): s for d, s in points.items()},
    }
    lsh = baselines.lsh_candidates(hashes, 0.5)
    exact = {(int(a), int(b)) for a, b, j in zip(left, right, jac, strict=True) if j >= 0.5}
    curves["MinHash (Jaccard)"]["lsh_check"] = {
        "threshold": 0.5,
        "lsh_pairs": len(lsh),
        "exact_pairs": len(exact),
        "lsh_found_of_exact": len(lsh & exact),
    }
    return curves


def cli_check(corpus: Path, result: ScanResult, k: int, workers: int) -> dict:
    """Run `python -m simsift.core.cli scan` and compare its pairs with the in-process scan at k."""
    with tempfile.TemporaryDirectory() as out:
        command = [
            sys.executable,
            "-m",
            "simsift.core.cli",
            "scan",
            str(corpus / "docs"),
            "--k",
            str(k),
        ]
        command += ["--out", out, "--format", "csv", "--no-catalog", "--quiet"]
        command += ["--workers", str(workers)]
        started = time.monotonic()
        subprocess.run(command, check=True, cwd=ROOT, capture_output=True, timeout=1800)
        seconds = time.monotonic() - started
        with open(Path(out) / "pairs.csv", encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
    paths = [d.path for d in result.documents]
    within = result.pairs.within(k)
    ours = {frozenset((paths[a], paths[b])) for a, b in zip(within.left, within.right, strict=True)}
    cli = {frozenset((str(Path(r["a"]).resolve()), str(Path(r["b"]).resolve()))) for r in rows}
    whole = {
        frozenset((str(Path(r["a"]).resolve()), str(Path(r["b"]).resolve())))
        for r in rows
        if r.get("kind") != "partial"
    }
    return {
        "k": k,
        "cli_seconds": round(seconds, 1),
        "cli_rows": len(rows),
        "cli_kinds": dict(Counter(r.get("kind", "") for r in rows)),
        "in_process_pairs": len(ours),
        "same_whole_document_pairs": whole == ours,
        "cli_pairs_not_in_process": len(cli - ours),
        "in_process_not_in_cli": len(ours - cli),
    }


def corpus_summary(corpus: Path) -> dict:
    labels = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    docs = labels["documents"]
    return {
        "documents": len(docs),
        "formats": dict(Counter(Path(d["file"]).suffix[1:] for d in docs)),
        "languages": dict(Counter(d["lang"] for d in docs)),
        "labeled_pairs": dict(Counter(p["kind"] for p in labels["pairs"])),
        "seed": labels["seed"],
    }


def ensure_corpus(
    size: str, seed: int, pdf: bool, regenerate: bool, printed: bool = False, where=None
) -> Path:
    corpus = where or Path(f"/tmp/simsift-quality/{size}")
    labels = corpus / "labels.json"
    fresh = False
    if labels.exists():
        data = json.loads(labels.read_text(encoding="utf-8"))
        converted = [d for d in data["documents"] if d["role"] != "printed"]
        fresh = (
            data["seed"] == seed
            and any(d["file"].endswith(".pdf") for d in converted) == pdf
            and data.get("printed", False) == printed
        )
    if regenerate or not fresh:
        generate.generate(corpus, size, seed, pdf, printed)
    return corpus


def evaluate(corpus: Path, workers: int, cli: bool) -> dict:
    """Every measurement of the evaluation on one corpus."""
    timings: dict[str, float] = {}
    started = time.monotonic()
    options = ScanOptions(roots=(str(corpus / "docs"),), k_max=K_MAX, workers=workers)
    result = scan(options)
    timings["scan"] = time.monotonic() - started
    truth = load_truth(corpus, [d.path for d in result.documents])
    curves: dict[str, dict] = {}
    for name, weights in weight_settings().items():
        t = time.monotonic()
        reweighted = result if name == "default" else reweight(result, weights)
        curves.update(simsift_curves(reweighted, truth, name))
        timings[name] = time.monotonic() - t
    curves.update(containment_curve(result, truth))
    t = time.monotonic()
    with_reference = scan(replace(options, reference_roots=(str(corpus / "reference"),)))
    ref_truth = load_truth(corpus, [d.path for d in with_reference.documents])
    curves.update(simsift_curves(with_reference, ref_truth, "default, prompts as reference"))
    curves.update(
        {
            f"{k} (prompts as reference)": v
            for k, v in containment_curve(with_reference, ref_truth).items()
        }
    )
    timings["scan with reference"] = time.monotonic() - t
    t = time.monotonic()
    judged = {
        "defaults (k=8 + partial pairs), prompts as reference": judge(with_reference, ref_truth),
        "word SimHash alone (k=8), prompts as reference": judge(
            with_reference, ref_truth, passages=False
        ),
        "defaults (k=8 + partial pairs), no reference": judge(result, truth),
    }
    timings["reuse judgement"] = time.monotonic() - t
    t = time.monotonic()
    all_text = reweight(
        replace(result, documents=all_text_documents(result)), result.options.weights
    )
    curves.update(simsift_curves(all_text, truth, "main content off"))
    timings["main content off"] = time.monotonic() - t
    t = time.monotonic()
    curves.update(baseline_curves(result, truth))
    timings["baselines"] = time.monotonic() - t
    out = {
        "corpus": corpus_summary(corpus),
        "errors": [f"{Path(e.path).name}: {e.message}" for e in result.errors],
        "curves": curves,
        "buckets": buckets(corpus, result, truth, [DEFAULT_K, 6, 8, 10]),
        "reuse": judged,
        "printed_site_pairs": printed_site_pairs(corpus, result),
    }
    if cli:
        out["cli_check"] = cli_check(corpus, result, DEFAULT_K, workers)
        timings["cli"] = out["cli_check"]["cli_seconds"]
    out["timings"] = {k: round(v, 1) for k, v in timings.items()}
    return out


def to_json(results: dict) -> dict:
    """Results with Scores turned into plain dictionaries."""
    data = dict(results)
    data["curves"] = {
        name: {
            **{k: v for k, v in c.items() if k != "points"},
            "points": {str(p): s.as_dict() for p, s in c["points"].items()},
        }
        for name, c in results["curves"].items()
    }
    return data


def from_json(data: dict) -> dict:
    """Results read back from results-<size>.json (to redraw tables and plot)."""
    results = dict(data)
    results["curves"] = {}
    for name, c in data["curves"].items():
        cast = int if c["param"] == "k" else float
        points = {
            cast(p): Scores(s["reported"], 0, s["recall"], s["false_positives"])
            for p, s in c["points"].items()
        }
        for (p, s), raw in zip(points.items(), c["points"].values(), strict=True):
            tp = round(raw["precision"] * raw["reported"])
            points[p] = Scores(s.reported, tp, s.recall, s.false_positives)
        results["curves"][name] = {**c, "points": points}
    results["buckets"] = {int(k): v for k, v in data.get("buckets", {}).items()}
    return results


def write_report(results: dict, out: Path, size: str) -> str:
    markdown = report.markdown(results, size)
    (out / f"results-{size}.md").write_text(markdown, encoding="utf-8")
    report.plot(results, out / f"quality-{size}.png", size)
    return markdown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="SimSift quality evaluation")
    parser.add_argument("--size", choices=sorted(generate.SIZES), default="small")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--no-pdf", dest="pdf", action="store_false", help="no PDF variants (no LibreOffice)"
    )
    parser.add_argument(
        "--no-printed", dest="printed", action="store_false", help="no printed pages (Chromium)"
    )
    parser.add_argument(
        "--corpus", type=Path, default=None, help="corpus folder (/tmp/simsift-quality/SIZE)"
    )
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-cli", action="store_true", help="skip the end-to-end CLI check")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "quality")
    parser.add_argument(
        "--report-only", action="store_true", help="redraw tables and plot from the JSON"
    )
    args = parser.parse_args(argv)
    if args.report_only:
        data = json.loads((args.out / f"results-{args.size}.json").read_text())
        print(write_report(from_json(data), args.out, args.size))
        return 0
    started = time.monotonic()
    args.pdf = args.pdf and generate.soffice() is not None
    args.printed = args.printed and generate.browser() is not None
    corpus = ensure_corpus(
        args.size, args.seed, args.pdf, args.regenerate, args.printed, args.corpus
    )
    results = evaluate(corpus, args.workers, not args.no_cli)
    results["total_seconds"] = round(time.monotonic() - started, 1)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"results-{args.size}.json").write_text(json.dumps(to_json(results), indent=1))
    print(write_report(results, args.out, args.size))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
