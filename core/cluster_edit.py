"""Edits of a scan result that need no rescan: files moved away, pairs dismissed.

Both edit the result itself (pairs, partial-copy overlaps, template counts), so clusters
at any k, the partial-copies list and every export agree on what is left.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from core.index import Matches
from core.scan import ScanResult


def without_files(result: ScanResult, removed: np.ndarray) -> ScanResult:
    """`result` as if the documents flagged in `removed` (bool per document) were gone.

    Their pairs and partial-copy overlaps are dropped, so clusters are rebuilt from the
    pairs that remain: a cluster held together only by a removed document falls apart.
    """
    if not removed.any():
        return result
    edited = _keep_pairs(result, lambda left, right: ~(removed[left] | removed[right]))
    if edited.passages is None:
        return edited
    passages = edited.passages  # nor do they count among documents holding template text
    template_tokens = np.where(removed, 0, passages.template_tokens)
    return replace(edited, passages=replace(passages, template_tokens=template_tokens))


def without_pair(result: ScanResult, a: int, b: int) -> ScanResult:
    """`result` with the pair of documents (a, b) dismissed as "not a duplicate"."""
    low, high = min(a, b), max(a, b)
    return _keep_pairs(result, lambda left, right: ~((left == low) & (right == high)))


def _keep_pairs(result: ScanResult, keep) -> ScanResult:
    """`result` with only the document pairs (left < right) for which `keep` is true."""
    pairs = result.pairs
    kept = keep(pairs.left, pairs.right)
    kept_pairs = Matches(pairs.left[kept], pairs.right[kept], pairs.distance[kept])
    edited = replace(result, pairs=kept_pairs)
    if result.passages is None:
        return edited
    overlaps = result.passages.overlaps
    overlaps = overlaps.subset(keep(overlaps.left, overlaps.right))
    return replace(edited, passages=replace(result.passages, overlaps=overlaps))
