"""The fragments two documents share in meaning (paraphrased or translated) as the
side-by-side view shows them: each side's character span, linked to the other side's.

The spans come from the scan (`core.match.meaning.matches.MeaningMatches`) and index
each document's display text (`core.match.align.display_text`), the text both panes
show, so no realignment is needed. Such a fragment is evidence for a person to read, not
proof: the view names its kind and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from simsift.core.match.meaning.matches import KINDS, MeaningMatches

PARAPHRASED, TRANSLATED = KINDS  # a fragment's kind, and its format key in the panes


@dataclass(frozen=True, slots=True)
class Fragment:
    """A fragment shared in meaning: characters `left` of the left pane's text and
    `right` of the right pane's, of `kind` (PARAPHRASED or TRANSLATED)."""

    kind: str
    left: tuple[int, int]
    right: tuple[int, int]
    score: float

    def side(self, left: bool) -> tuple[int, int]:
        return self.left if left else self.right


def pair_fragments(meaning: MeaningMatches, a: int, b: int) -> list[Fragment]:
    """The fragments documents `a` (shown left) and `b` (right) share in meaning, in the
    left text's order."""
    low, high = min(a, b), max(a, b)
    rows = np.flatnonzero((meaning.left == low) & (meaning.right == high))
    fragments = []
    for r in rows.tolist():
        on_low = (int(meaning.start_left[r]), int(meaning.end_left[r]))
        on_high = (int(meaning.start_right[r]), int(meaning.end_right[r]))
        left, right = (on_low, on_high) if a == low else (on_high, on_low)
        kind = KINDS[int(meaning.kind[r])]
        fragments.append(Fragment(kind, left, right, float(meaning.score[r])))
    return sorted(fragments, key=lambda f: (f.left, f.right))


def fragment_runs(fragments: list[Fragment], left: bool) -> list[tuple[int, int, str]]:
    """(start, end, kind) of each fragment on one side, sorted, for the pane's formats."""
    return sorted((*f.side(left), f.kind) for f in fragments if f.side(left)[0] < f.side(left)[1])


def fragment_at(fragments: list[Fragment], position: int, left: bool) -> Fragment | None:
    """The fragment holding character `position` of one side's text (the shortest one
    where fragments overlap), or None."""
    holding = [f for f in fragments if f.side(left)[0] <= position < f.side(left)[1]]
    return min(holding, key=lambda f: f.side(left)[1] - f.side(left)[0], default=None)


def kinds_found(fragments: list[Fragment]) -> list[str]:
    """The kinds among `fragments`, in `KINDS` order."""
    present = {f.kind for f in fragments}
    return [kind for kind in KINDS if kind in present]
