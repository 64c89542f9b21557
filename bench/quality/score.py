"""Precision and recall of SimSift (and of baselines) on a labeled corpus.

A pair of documents is *related* when both come from the same base text (same family:
exact copies, other formats, re-posts, light and heavy edits, reordered copies) or one
holds a partial copy of the other's text (linked families). Reported pairs that are
related are true positives, all others false positives; false positives are broken down
into the hard negatives "topic" (same source package or catalog) and "template" (shared
assignment title and prompt only), and "other". Recall is measured per relation kind on
the labeled pairs (original, derived document).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np

POSITIVE_KINDS = (
    "exact",
    "format",
    "repost",
    "edit",
    "partial",
    "collage",
    "heavy_edit",
    "reorder",
    "small_partial",
    "printed",
    "edge_copy",
)
DUPLICATE_KINDS = ("exact", "format", "repost", "edit")  # whole-document near-duplicates
NEGATIVE_KINDS = ("topic", "template", "other")


@dataclass(frozen=True)
class Truth:
    """Labels of a corpus, indexed by the document numbers of one scan."""

    n: int
    family: np.ndarray  # int64 per document
    group: np.ndarray  # int64 per document (topic)
    template: np.ndarray  # int64 per document, -1 when none
    linked: frozenset[tuple[int, int]]  # (family, family) of partial copies, both orders
    labeled: dict[str, np.ndarray]  # kind -> sorted pair keys (left * n + right, left < right)
    is_reference: np.ndarray  # bool per document: files of reference/ (never scored)

    def keys(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        lo, hi = np.minimum(left, right), np.maximum(left, right)
        return lo.astype(np.int64) * self.n + hi

    def related(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """True where the two documents share a family or a partial-copy link."""
        same = self.family[left] == self.family[right]
        if self.linked and len(left):
            pairs = zip(self.family[left].tolist(), self.family[right].tolist(), strict=True)
            same |= np.fromiter((p in self.linked for p in pairs), bool, len(left))
        return same

    def negative_kind(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """0 topic, 1 template, 2 other, for unrelated pairs."""
        template = (self.template[left] >= 0) & (self.template[left] == self.template[right])
        topic = self.group[left] == self.group[right]
        return np.where(template, 1, np.where(topic, 0, 2))


def load_truth(corpus: Path, paths: Sequence[str]) -> Truth:
    """Truth for documents numbered by `paths` (absolute paths as a scan lists them)."""
    labels = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    number = {str(Path(p).resolve()): i for i, p in enumerate(paths)}
    docs = {str((corpus / d["file"]).resolve()): d for d in labels["documents"]}
    for i, ref in enumerate(labels.get("reference", [])):
        ref_doc = {"family": -1 - i, "group": "reference", "template": None, "reference": True}
        docs[str((corpus / ref).resolve())] = ref_doc
    missing = {p for p, d in docs.items() if not d.get("reference")} - set(number)
    if missing:
        raise RuntimeError(f"{len(missing)} labeled documents were not read, e.g. {min(missing)}")
    rows = [docs[str(Path(p).resolve())] for p in paths]
    groups = {g: i for i, g in enumerate(sorted({d["group"] for d in rows}))}
    n = len(paths)
    truth = Truth(
        n=n,
        family=np.array([d["family"] for d in rows], np.int64),
        group=np.array([groups[d["group"]] for d in rows], np.int64),
        template=np.array([-1 if d["template"] is None else d["template"] for d in rows]),
        linked=frozenset(pair for a, b in labels["partial_links"] for pair in ((a, b), (b, a))),
        labeled={},
        is_reference=np.array([bool(d.get("reference")) for d in rows]),
    )
    for kind in POSITIVE_KINDS:
        pairs = [p for p in labels["pairs"] if p["kind"] == kind]
        left = np.array([number[str((corpus / p["a"]).resolve())] for p in pairs], np.int64)
        right = np.array([number[str((corpus / p["b"]).resolve())] for p in pairs], np.int64)
        truth.labeled[kind] = np.unique(truth.keys(left, right))
    return truth


@dataclass(frozen=True)
class Scores:
    """Quality of one set of reported pairs."""

    reported: int
    true_positives: int
    recall: dict[str, float]  # per positive kind, plus "duplicates" (all but partial)
    false_positives: dict[str, int]  # per negative kind

    @property
    def precision(self) -> float:
        return self.true_positives / self.reported if self.reported else 1.0

    def as_dict(self) -> dict:
        return {
            "reported": self.reported,
            "precision": round(self.precision, 4),
            "recall": {k: round(v, 4) for k, v in self.recall.items()},
            "false_positives": self.false_positives,
        }


def score_pairs(truth: Truth, left: np.ndarray, right: np.ndarray) -> Scores:
    """Scores of the reported pairs (left[i], right[i]); duplicates in the input count once."""
    keys = np.unique(truth.keys(np.asarray(left), np.asarray(right)))
    lo, hi = keys // truth.n, keys % truth.n
    scored = ~(truth.is_reference[lo] | truth.is_reference[hi])
    keys, lo, hi = keys[scored], lo[scored], hi[scored]
    related = truth.related(lo, hi)
    negative = truth.negative_kind(lo[~related], hi[~related])
    recall = {
        kind: float(np.isin(truth.labeled[kind], keys).mean()) if len(truth.labeled[kind]) else 0.0
        for kind in POSITIVE_KINDS
    }
    dup = np.concatenate([truth.labeled[k] for k in DUPLICATE_KINDS])
    recall["duplicates"] = float(np.isin(dup, keys).mean()) if len(dup) else 0.0
    return Scores(
        reported=len(keys),
        true_positives=int(related.sum()),
        recall=recall,
        false_positives={k: int((negative == i).sum()) for i, k in enumerate(NEGATIVE_KINDS)},
    )


def sweep_distances(
    truth: Truth,
    left: np.ndarray,
    right: np.ndarray,
    distance: np.ndarray,
    ks: Sequence[int],
    extra: tuple[np.ndarray, np.ndarray] | None = None,
) -> dict[int, Scores]:
    """Scores at each k of pairs with distance <= k (plus `extra` pairs reported at every k)."""
    out: dict = {}
    for k in ks:
        keep = distance <= k
        lo, hi = left[keep], right[keep]
        if extra is not None:
            lo, hi = np.concatenate([lo, extra[0]]), np.concatenate([hi, extra[1]])
        out[k] = score_pairs(truth, lo, hi)
    return out


def popcount64(x: np.ndarray) -> np.ndarray:
    """Bits set in each uint64."""
    return np.unpackbits(x.astype(">u8").view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1)


def all_pairs_within(fingerprints: np.ndarray, k_max: int, chunk: int = 256):
    """Brute-force (left, right, distance) of all pairs within k_max (independent of core)."""
    fps = np.asarray(fingerprints, np.uint64)
    lefts, rights, dists = [], [], []
    for start in range(0, len(fps), chunk):
        block = fps[start : start + chunk]
        x = block[:, None] ^ fps[None, :]
        d = popcount64(x.ravel()).reshape(x.shape)
        rows, cols = np.nonzero(d <= k_max)
        rows = rows + start
        keep = cols > rows
        lefts.append(rows[keep])
        rights.append(cols[keep])
        dists.append(d[rows[keep] - start, cols[keep]])
    if not lefts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(lefts), np.concatenate(rights), np.concatenate(dists)


def recall_by_bucket(
    corpus: Path,
    truth: Truth,
    paths: Sequence[str],
    keys: np.ndarray,
    kind: str,
    field: str,
    edges: Sequence[float],
) -> dict[str, str]:
    """Recall of labeled `kind` pairs by ranges of a detail `field` (e.g. edit rate)."""
    labels = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    number = {str(Path(p).resolve()): i for i, p in enumerate(paths)}
    found: dict[str, list[bool]] = {}
    for p in labels["pairs"]:
        if p["kind"] != kind:
            continue
        a, b = number[str((corpus / p["a"]).resolve())], number[str((corpus / p["b"]).resolve())]
        key = truth.keys(np.array([a]), np.array([b]))[0]
        bucket = next(
            (f"{lo:g}-{hi:g}" for lo, hi in pairwise(edges) if p[field] < hi),
            f">={edges[-1]:g}",
        )
        found.setdefault(bucket, []).append(bool(np.isin(key, keys)))
    return {b: f"{sum(v)}/{len(v)}" for b, v in sorted(found.items())}
