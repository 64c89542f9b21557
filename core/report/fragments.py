"""Every fragment two documents share, of each kind, as a report lists it: *verbatim*
(a shared run of words, `PassageResult.runs`), *paraphrased* or *translated* (the same
meaning in other words or another language, `PassageResult.meaning`).

Spans are characters of each document's display text, `"\\n\\n".join(paragraphs)` (what
the window and the reports show); an excerpt is a short plain-text piece of that text.
The kinds are shown apart and never mixed into one figure: a fragment that holds a shared
run of words is verbatim copying and is listed once, as verbatim.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import pair_keys
from simsift.core.match.meaning.matches import KINDS
from simsift.core.text.excerpt import paragraph_hashes, token_position

VERBATIM = "verbatim"
PARAPHRASED, TRANSLATED = KINDS
FRAGMENT_KINDS = (VERBATIM, *KINDS)  # the words `meaning.csv` and the reports use
SEPARATOR = "\n\n"  # between paragraphs in the display text
EXCERPT_CHARS = 160


@dataclass(frozen=True, slots=True)
class Fragment:
    """Characters `start_a:end_a` of document `a`'s display text and `start_b:end_b` of
    `b`'s (a < b), of `kind` (`FRAGMENT_KINDS`); `score` is the meaning layer's (1.0 for
    a verbatim run), `words` the run's length in words (0 for a meaning fragment)."""

    a: int
    b: int
    kind: str
    score: float
    start_a: int
    end_a: int
    start_b: int
    end_b: int
    words: int = 0


def display_text(record) -> str:
    """A document's text as the reports and the window show it, paragraphs apart."""
    return SEPARATOR.join(record.paragraphs)


def excerpt(text: str, start: int, end: int, limit: int = EXCERPT_CHARS) -> str:
    """Characters `start:end` of `text` on one line (paragraph breaks as spaces), cut to
    `limit` characters with an ellipsis; plain text, for a CSV cell or to be escaped."""
    piece = " ".join(text[max(start, 0) : max(end, 0)].split())
    return piece if len(piece) <= limit else piece[: limit - 1].rstrip() + "…"


def meaning_fragments(result, kinds: tuple[str, ...] = KINDS) -> list[Fragment]:
    """The scan's paraphrased and translated fragments (those of `kinds`), in pair order."""
    m = result.passages.meaning
    out = []
    for row in range(len(m)):
        kind = KINDS[int(m.kind[row])]
        if kind in kinds:
            out.append(
                Fragment(
                    int(m.left[row]),
                    int(m.right[row]),
                    kind,
                    round(float(m.score[row]), 3),
                    int(m.start_left[row]),
                    int(m.end_left[row]),
                    int(m.start_right[row]),
                    int(m.end_right[row]),
                )
            )
    return out


def verbatim_fragments(result) -> list[Fragment]:
    """The shared runs of words of the pairs still reported (ignored and removed pairs no
    longer count), as character spans."""
    passages = result.passages
    runs, overlaps = passages.runs, passages.overlaps
    if not len(runs):
        return []
    n = max(len(result.documents), 1)
    reported = np.isin(
        pair_keys(runs.left, runs.right, n), pair_keys(overlaps.left, overlaps.right, n)
    )
    t2s = result.options.traditional_to_simplified
    places: dict[int, _Places] = {}

    def place(doc: int) -> _Places:
        if doc not in places:
            places[doc] = _Places(result.documents[doc], t2s)
        return places[doc]

    out = []
    for row in np.flatnonzero(reported & (runs.counted > 0)).tolist():
        a, b, length = int(runs.left[row]), int(runs.right[row]), int(runs.length[row])
        sa, sb = int(runs.start_left[row]), int(runs.start_right[row])
        start_a, end_a = place(a).span(sa, sa + length)
        start_b, end_b = place(b).span(sb, sb + length)
        out.append(Fragment(a, b, VERBATIM, 1.0, start_a, end_a, start_b, end_b, length))
    return out


def all_fragments(result) -> list[Fragment]:
    """Verbatim runs, then paraphrased and translated fragments, each pair's in order."""
    found = verbatim_fragments(result) + meaning_fragments(result)
    found.sort(key=lambda f: (f.a, f.b, FRAGMENT_KINDS.index(f.kind), f.start_a))
    return found


def pair_meaning_kinds(result) -> dict[tuple[int, int], list[str]]:
    """Per pair (a < b) sharing fragments in meaning: its kinds, the one covering more of
    the two texts first."""
    m = result.passages.meaning
    sizes: dict[tuple[int, int], dict[str, int]] = {}
    for a, b, k, size in zip(
        m.left.tolist(),
        m.right.tolist(),
        m.kind.tolist(),
        ((m.end_left - m.start_left) + (m.end_right - m.start_right)).tolist(),
        strict=True,
    ):
        per_kind = sizes.setdefault((a, b), {})
        per_kind[KINDS[k]] = per_kind.get(KINDS[k], 0) + size
    return {
        pair: sorted(per_kind, key=lambda kind: (-per_kind[kind], KINDS.index(kind)))
        for pair, per_kind in sizes.items()
    }


class _Places:
    """Where body tokens of one document are in its display text."""

    def __init__(self, record, t2s: bool) -> None:
        self.record = record
        self.t2s = t2s
        starts = np.asarray(getattr(record.tokens.body, "para_starts", ()), np.int64)
        self.para_starts = starts if len(starts) else np.zeros(1, np.int64)
        lengths = [len(p) for p in record.paragraphs]
        self.offsets = np.r_[0, np.cumsum(np.add(lengths, len(SEPARATOR)))].astype(np.int64)

    def span(self, start: int, stop: int) -> tuple[int, int]:
        """Characters of body tokens `start:stop` in the display text."""
        if not self.record.paragraphs:
            return 0, 0
        first = self._paragraph(start)
        last = self._paragraph(max(stop - 1, start))
        paragraph = self.record.paragraphs[first]
        begin = token_position(
            paragraph,
            start - int(self.para_starts[first]),
            self.t2s,
            0,
            paragraph_hashes(self.record, first),
        )
        paragraph = self.record.paragraphs[last]
        end = token_position(
            paragraph,
            stop - int(self.para_starts[last]),
            self.t2s,
            len(paragraph),
            paragraph_hashes(self.record, last),
        )
        while end > 0 and not paragraph[end - 1].isalnum():  # no space or comma after it
            end -= 1
        return int(self.offsets[first]) + begin, int(self.offsets[last]) + max(end, 0)

    def _paragraph(self, token: int) -> int:
        found = int(np.searchsorted(self.para_starts, token, side="right")) - 1
        return min(max(found, 0), len(self.record.paragraphs) - 1)
