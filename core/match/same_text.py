"""Documents with the same text contain each other in full.

Passages and shared runs credit a document's text only where they reach: a stretch
shorter than the shortest match between two left-out ranges (a signature line after a
quoted prompt, a date under the template) is too short to be evidence between two
different documents, so identical files came out at 98-99.9% containment. When two
documents' body tokens and left-out ranges are the same, every counted token is shared:
their matched tokens are their own tokens, whatever passages and runs found.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
from simsift.core.text.tokens import TokenStream

if TYPE_CHECKING:  # match/passages/ imports this module
    from simsift.core.match.passages import PairOverlaps


def credit_same_text(
    overlaps: PairOverlaps,
    streams: Sequence[TokenStream],
    own_tokens: np.ndarray,
    left_out_digest: np.ndarray,
) -> PairOverlaps:
    """`overlaps` with each pair of documents holding the same body tokens and the same
    left-out ranges matched in full (containment 1 each way).

    Args:
        overlaps: the pairs measured from passages and shared runs.
        streams: body token streams, one per document.
        own_tokens: per document, body tokens that are not left out.
        left_out_digest: per document, a digest of its left-out ranges.
    """
    left, right = overlaps.left, overlaps.right
    lengths = np.array([len(s) for s in streams], np.int64)
    todo = (lengths[left] == lengths[right]) & (left_out_digest[left] == left_out_digest[right])
    short = overlaps.matched_left < own_tokens[left]
    todo &= short | (overlaps.matched_right < own_tokens[right])
    rows = np.flatnonzero(todo)
    if not len(rows):
        return overlaps
    digests: dict[int, bytes] = {}

    def digest(doc: int) -> bytes:
        if doc not in digests:
            digests[doc] = hashlib.blake2b(streams[doc].hashes.tobytes(), digest_size=16).digest()
        return digests[doc]

    same = np.array([digest(int(left[i])) == digest(int(right[i])) for i in rows], bool)
    rows = rows[same]
    if not len(rows):
        return overlaps
    matched_left, matched_right = overlaps.matched_left.copy(), overlaps.matched_right.copy()
    matched_left[rows] = own_tokens[left[rows]]
    matched_right[rows] = own_tokens[right[rows]]
    full = (own_tokens[left[rows]] > 0).astype(np.float64)
    shares = {}
    for name in ("containment_ab", "containment_ba", "overlap"):
        shares[name] = getattr(overlaps, name).copy()
        shares[name][rows] = full
    return replace(overlaps, matched_left=matched_left, matched_right=matched_right, **shares)
