"""Reported pairs that no label links, judged by their text (pooled judgement, as in TREC).

The labels know only the relations the generator planted. The real documents it starts
from already share text: NetworkX's graph classes repeat one warning paragraph, numpy's
Chebyshev and Legendre modules carry the same docstrings with the names changed, the
stdlib's sunau and aifc describe reading a file in the same sentences. A checker that
reports such a pair is right about the text, and the strict labels count it as wrong.

So each reported pair of documents no label links is looked at: when the two texts (as
read) share a run of `REUSE_WORDS` words, it is *pre-existing reuse*; otherwise a false
positive. The run is found by difflib on words split by a regular expression (a CJK
character counts half a word: the issue's "N words or 2N CJK characters"), independent of
SimSift's tokens and grams. Text lost in reading can only hide reuse (a pair then counts
as false), so the judgement leans against SimSift.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

import numpy as np

from bench.quality.score import Truth

REUSE_WORDS = 15
SENSITIVITY = (10, 15, 20, 25)
_WORD = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|\d+|[^\W\d_\u3400-\u9fff]+")


def words_of(paragraphs: Sequence[str]) -> list[str]:
    return _WORD.findall(" ".join(paragraphs).lower())


def longest_shared_words(a: list[str], b: list[str]) -> float:
    """Words in the longest run the two word lists share (CJK characters count half)."""
    match = difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match(
        0, len(a), 0, len(b)
    )
    return sum(0.5 if _is_cjk(w) else 1.0 for w in a[match.a : match.a + match.size])


def _is_cjk(word: str) -> bool:
    return "\u3400" <= word[0] <= "\u9fff" or "\uf900" <= word[0] <= "\ufaff"


def judge(truth: Truth, paragraphs: Sequence[Sequence[str]], left, right) -> dict:
    """Strict and reuse-aware precision of the reported pairs (left[i], right[i]), with
    the reuse-aware precision for each run length in `SENSITIVITY`."""
    keys = np.unique(truth.keys(np.asarray(left), np.asarray(right)))
    lo, hi = keys // truth.n, keys % truth.n
    scored = ~(truth.is_reference[lo] | truth.is_reference[hi])
    lo, hi = lo[scored], hi[scored]
    related = truth.related(lo, hi)
    cache: dict[int, list[str]] = {}

    def words(d: int) -> list[str]:
        if d not in cache:
            cache[d] = words_of(paragraphs[d])
        return cache[d]

    unrelated = zip(lo[~related].tolist(), hi[~related].tolist(), strict=True)
    runs = np.array([longest_shared_words(words(a), words(b)) for a, b in unrelated])
    reported, true = len(lo), int(related.sum())
    out = {
        "reported": reported,
        "related": true,
        "precision_strict": round(float(related.mean()) if reported else 1.0, 4),
    }
    for n in SENSITIVITY:
        reuse = int((runs >= n).sum())
        out[f"reuse_{n}"] = reuse
        out[f"precision_{n}"] = round((true + reuse) / reported, 4) if reported else 1.0
    out["false_positives"] = reported - true - out[f"reuse_{REUSE_WORDS}"]
    return out


def markdown(judged: dict[str, dict]) -> list[str]:
    """One row per reported set: strict precision, reuse found, reuse-aware precision."""
    head = " | ".join(f"reuse-aware, {n} words" for n in SENSITIVITY)
    lines = [
        f"| reported set | reported | strict precision | pre-existing reuse ({REUSE_WORDS} words)"
        f" | false | {head} |",
        "|---|---|---|---|---|" + "---|" * len(SENSITIVITY),
    ]
    for name, j in judged.items():
        cells = " | ".join(f"{j[f'precision_{n}']:.3f}" for n in SENSITIVITY)
        lines.append(
            f"| {name} | {j['reported']} | {j['precision_strict']:.3f} | "
            f"{j[f'reuse_{REUSE_WORDS}']} | {j['false_positives']} | {cells} |"
        )
    return lines
