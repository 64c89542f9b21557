"""Edits of shown results that need no rescan: files moved away, pairs dismissed."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from core.cluster import KIND_REFERENCE, Clusters, pair_kinds
from core.index import Matches
from core.scan import ScanResult


def without_documents(clusters: Clusters, removed: np.ndarray, result: ScanResult) -> Clusters:
    """`clusters` minus the documents flagged in `removed` (bool per document).

    Clusters left with one member disappear; where the reference itself was removed, the
    next member becomes the reference and distances and kinds are taken to it.
    """
    if not removed.any() or len(clusters) == 0:
        return clusters
    keep = ~removed[clusters.doc]
    cluster_of = np.repeat(np.arange(len(clusters)), np.diff(clusters.ptr))[keep]
    doc = clusters.doc[keep]
    counts = np.bincount(cluster_of, minlength=len(clusters))
    big = counts[cluster_of] > 1
    doc, cluster_of = doc[big], cluster_of[big]
    starts = np.flatnonzero(np.r_[True, cluster_of[1:] != cluster_of[:-1]]) if len(doc) else doc
    ptr = np.r_[starts, len(doc)].astype(np.int64)
    ref = np.repeat(doc[starts], np.diff(ptr))
    fps = result.fingerprints
    distance = np.bitwise_count(fps[doc] ^ fps[ref]).astype(np.int8)
    kind = pair_kinds(doc, ref, result.content_codes, result.text_codes)
    kind[doc == ref] = KIND_REFERENCE
    max_distance = (
        np.maximum.reduceat(distance, starts) if len(doc) else np.zeros(0, np.int8)
    ).astype(np.int8)
    return Clusters(clusters.k, doc, ptr, distance, kind, max_distance)


def without_pair(result: ScanResult, a: int, b: int) -> ScanResult:
    """`result` with the pair of documents (a, b) dismissed as "not a duplicate"."""
    left, right = min(a, b), max(a, b)
    pairs = result.pairs
    keep = ~((pairs.left == left) & (pairs.right == right))
    return replace(result, pairs=Matches(pairs.left[keep], pairs.right[keep], pairs.distance[keep]))
