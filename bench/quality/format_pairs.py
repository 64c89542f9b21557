"""Same text in two formats: how many labeled format pairs get identical fingerprints.

    python -m bench.quality.format_pairs [--size small] [--show 10]

Scans the generated corpus (run `bench/quality/run.py` first; with LibreOffice it has PDFs)
and prints, per format combination, the share of format pairs at Hamming distance 0 and with
the same normalized text, then the pairs that differ (in fingerprint or text) with the first
words where their texts part. The issue's target: >= 95% at distance 0.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan

ROOT = Path(__file__).resolve().parents[2]


def first_difference(a: str, b: str, context: int = 40) -> str:
    """Where two texts part, with some words of each."""
    wa, wb = a.split(), b.split()
    i = next((i for i, (x, y) in enumerate(zip(wa, wb, strict=False)) if x != y), None)
    if i is None:
        return f"one is a prefix of the other ({len(wa)} vs {len(wb)} words)"
    left, right = " ".join(wa[i : i + 8]), " ".join(wb[i : i + 8])
    return f"word {i}: {left[:context]!r} vs {right[:context]!r}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="small")
    parser.add_argument("--show", type=int, default=20, help="differing pairs to print")
    args = parser.parse_args()
    corpus = Path("/tmp/simsift-quality") / args.size
    labels = json.loads((corpus / "labels.json").read_text())
    result = scan(ScanOptions(roots=(str(corpus / "docs"),)))
    number = {d.path: i for i, d in enumerate(result.documents)}
    by_kind: dict[str, list[tuple[int, int]]] = defaultdict(list)
    differing = []
    for pair in labels["pairs"]:
        if pair["kind"] != "format":
            continue
        a, b = number[str(corpus / pair["a"])], number[str(corpus / pair["b"])]
        kind = "-".join(sorted(pair["formats"].split("-")))
        distance = int(np.bitwise_count(result.fingerprints[a] ^ result.fingerprints[b]))
        same_text = result.text_codes[a] == result.text_codes[b]
        by_kind[kind].append((distance, same_text))
        if distance or not same_text:
            differing.append((distance, a, b))
    total = sum(len(v) for v in by_kind.values())
    at_zero = sum(d == 0 for v in by_kind.values() for d, _ in v)
    print(f"format pairs at distance 0: {at_zero}/{total} = {at_zero / total:.1%}")
    for kind, values in sorted(by_kind.items()):
        zero = sum(d == 0 for d, _ in values)
        same = sum(s for _, s in values)
        worst = max(d for d, _ in values)
        print(f"  {kind:10s} {zero}/{len(values)} at 0, {same} same text, largest distance {worst}")
    for distance, a, b in sorted(differing, reverse=True)[: args.show]:
        da, db = result.documents[a], result.documents[b]
        text_a = " ".join((da.title, *da.paragraphs))
        text_b = " ".join((db.title, *db.paragraphs))
        print(f"d={distance} {Path(da.path).name} {Path(db.path).name}: ")
        print(f"    {first_difference(text_a, text_b)}")


if __name__ == "__main__":
    main()
