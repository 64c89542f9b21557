"""Paraphrased and translated copies of a scan, as parallel arrays (`MeaningMatches`).

A fragment two documents share in meaning (`find_meaning_copies`) that holds a shared
run of words (`core.match.grams.SharedRuns`) is verbatim copying, already counted by the
runs: it is left out here, so the kinds never mix in one figure. Fragments with a
reference document (a prompt, a template) are template text and never count either.
Character spans are placed on each document's body tokens through its paragraphs, so a
share is a share of the same own text the verbatim figures count.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from simsift.core.arrays import pair_keys
from simsift.core.document import FileRecord
from simsift.core.match.meaning.align import PARAPHRASED, TRANSLATED, MeaningFragment
from simsift.core.match.meaning.copies import find_meaning_copies
from simsift.core.match.meaning.kept import AlignmentStore
from simsift.core.match.meaning.sketch import MeaningSketch, sketch
from simsift.core.progress import CancelToken, Progress, ProgressCallback, no_progress

KINDS = (PARAPHRASED, TRANSLATED)  # a fragment's `kind` is its place here
SKETCHING = "sentences"  # the progress stage of `document_sketches`
_SEPARATOR = 2  # characters between paragraphs in the display text ("\n\n")
# a sentence's worth of each language: a translation needs one on each side
_CHINESE = re.compile(r"[\u4e00-\u9fff]{8}")
_ENGLISH = re.compile(r"(?:[A-Za-z]{2,}[ ,;:'-]+){6}[A-Za-z]")


@dataclass(frozen=True, slots=True)
class MeaningMatches:
    """Fragments two documents (left < right) share in meaning without a shared run of
    words. Characters `start_*:end_*` of each side's display text, tokens
    `token_start_*:token_stop_*` of its body stream; `kind` indexes `KINDS`."""

    left: np.ndarray  # int64
    right: np.ndarray  # int64
    kind: np.ndarray  # int64
    score: np.ndarray  # float64
    start_left: np.ndarray  # int64
    end_left: np.ndarray  # int64
    start_right: np.ndarray  # int64
    end_right: np.ndarray  # int64
    token_start_left: np.ndarray  # int64
    token_stop_left: np.ndarray  # int64
    token_start_right: np.ndarray  # int64
    token_stop_right: np.ndarray  # int64

    def __len__(self) -> int:
        return len(self.left)

    @classmethod
    def empty(cls) -> MeaningMatches:
        return cls(*(np.zeros(0, np.float64 if name == "score" else np.int64) for name in _FIELDS))

    def subset(self, keep: np.ndarray) -> MeaningMatches:
        return MeaningMatches(*(getattr(self, name)[keep] for name in _FIELDS))

    def of_kind(self, kind: str) -> MeaningMatches:
        return self.subset(self.kind == KINDS.index(kind))


_FIELDS = MeaningMatches.__slots__


def meaning_matches(
    documents: Sequence[FileRecord],
    is_reference: np.ndarray,
    runs,
    kinds: tuple[str, ...] = KINDS,
    *,
    left_out: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    sketches: Sequence[MeaningSketch] | None = None,
    alignments: AlignmentStore | None = None,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> MeaningMatches:
    """The paraphrased and translated fragments of `documents` (those of `kinds`), with
            fragments holding one of `runs` (the scan's `SharedRuns`) and pairs of two reference
            documents or with one left out, and fragments that say what a reference document says
        (template text), or whose text is mostly left out on either side (`left_out`: the
    global token ranges that never count, sorted and apart, and each document's first global
    token: common text, boilerplate, quotations). `sketches` are the documents' own (made when
    None); `alignments` keeps each candidate pair's fragments between scans (`kept`)."""
    fragments = meaning_before_runs(
        documents,
        is_reference,
        kinds,
        sketches=sketches,
        alignments=alignments,
        progress=progress,
        cancel=cancel,
    )
    return without_verbatim(fragments, runs, left_out)


def meaning_before_runs(
    documents: Sequence[FileRecord],
    is_reference: np.ndarray,
    kinds: tuple[str, ...] = KINDS,
    *,
    sketches: Sequence[MeaningSketch] | None = None,
    alignments: AlignmentStore | None = None,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> MeaningMatches:
    """`meaning_matches` before its fragments holding a run or mostly left out are
    dropped (`without_verbatim`): what no weight nor passage option changes."""
    translations_only = PARAPHRASED not in kinds
    if not kinds or len(documents) < 2 or (translations_only and not two_languages(documents)):
        return MeaningMatches.empty()
    if sketches is None:
        sketches = document_sketches(documents, progress, cancel)
    found = find_meaning_copies(
        sketches, progress, cancel, across_languages_only=translations_only, store=alignments
    )
    template = _template_spans(found, is_reference)
    rows = []
    for i, j, fragments in found:
        if is_reference[i] or is_reference[j]:
            continue
        for f in fragments:
            if f.kind in kinds and not _in_template(template, i, j, f):
                rows.append(_row(documents[i], documents[j], i, j, f))
    if not rows:
        return MeaningMatches.empty()
    table = np.array(rows, dtype=np.float64)
    columns = [table[:, c] for c in range(table.shape[1])]
    return MeaningMatches(
        *(
            c if name == "score" else c.astype(np.int64)
            for name, c in zip(_FIELDS, columns, strict=True)
        )
    )


def without_verbatim(
    fragments: MeaningMatches,
    runs,
    left_out: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> MeaningMatches:
    """`fragments` without those holding one of `runs` or mostly `left_out`."""
    if len(fragments) == 0:
        return fragments
    keep = ~_holds_a_run(fragments, runs)
    if left_out is not None:
        keep &= ~_mostly_left_out(fragments, *left_out)
    return fragments.subset(keep)


def _template_spans(found, is_reference: np.ndarray) -> dict[int, list[tuple[int, int]]]:
    """Per document, the character spans that say what a reference document says: two
    essays that both reword the prompt share it, they do not copy each other."""
    spans: dict[int, list[tuple[int, int]]] = {}
    for i, j, fragments in found:
        if is_reference[i] == is_reference[j]:
            continue
        for f in fragments:
            own, span = (j, (f.start_b, f.end_b)) if is_reference[i] else (i, (f.start_a, f.end_a))
            spans.setdefault(own, []).append(span)
    return spans


def _in_template(template: dict, i: int, j: int, f: MeaningFragment) -> bool:
    sides = ((i, f.start_a, f.end_a), (j, f.start_b, f.end_b))
    return any(
        start < stop and begin < end
        for doc, begin, end in sides
        for start, stop in template.get(doc, ())
    )


def two_languages(documents: Sequence[FileRecord]) -> bool:
    """Whether one document holds Chinese sentences and another English ones: else no
    translation can be found, and documents need not be sketched for it. A first match
    of each pattern ends the search, so this reads little of most documents."""
    chinese = [any(_CHINESE.search(p) for p in d.paragraphs) for d in documents]
    english = [any(_ENGLISH.search(p) for p in d.paragraphs) for d in documents]
    english_documents = sum(english)
    return any(c and english_documents - e > 0 for c, e in zip(chinese, english, strict=True))


def document_sketches(
    documents: Sequence[FileRecord],
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> list[MeaningSketch]:
    """Each document's sentences and concepts (`sketch`), with progress and cancel."""
    out = []
    for done, record in enumerate(documents):
        if done % 16 == 0:
            if cancel is not None:
                cancel.check()
            progress(Progress(SKETCHING, done, len(documents)))
        out.append(sketch(record.paragraphs))
    progress(Progress(SKETCHING, len(documents), len(documents)))
    return out


def _row(a: FileRecord, b: FileRecord, i: int, j: int, f: MeaningFragment) -> list[float]:
    ta = token_span(a, f.start_a, f.end_a)
    tb = token_span(b, f.start_b, f.end_b)
    spans = (f.start_a, f.end_a, f.start_b, f.end_b)
    return [i, j, KINDS.index(f.kind), f.score, *spans, *ta, *tb]


def token_span(record: FileRecord, start: int, end: int) -> tuple[int, int]:
    """Body tokens of characters `start:end` of the record's display text: whole
    paragraphs' tokens where the span covers them, a proportional share of a paragraph
    it covers in part."""
    stream = record.tokens.body
    starts = np.asarray(stream.para_starts, np.int64)
    lengths = np.array([len(p) for p in record.paragraphs], np.int64)
    if not len(lengths) or len(starts) != len(lengths):
        return 0, 0
    offsets = np.r_[0, np.cumsum(lengths + _SEPARATOR)]
    stops = np.r_[starts[1:], len(stream)]
    return _token_at(start, offsets, lengths, starts, stops), _token_at(
        end, offsets, lengths, starts, stops
    )


def _token_at(char: int, offsets, lengths, starts, stops) -> int:
    p = int(np.clip(np.searchsorted(offsets, char, side="right") - 1, 0, len(lengths) - 1))
    within = min(max(char - int(offsets[p]), 0), int(lengths[p]))
    share = within / lengths[p] if lengths[p] else 0.0
    return int(starts[p] + round(share * (stops[p] - starts[p])))


def _mostly_left_out(matches: MeaningMatches, starts, stops, offsets) -> np.ndarray:
    """Per fragment: more than half of either side is text that never counts (a page
    footer or option boilerplate says the same in every page: not copying, reworded or not)."""
    if not len(starts):
        return np.zeros(len(matches), bool)
    before = np.r_[0, np.cumsum(stops - starts)]

    def left_out_before(at: np.ndarray) -> np.ndarray:
        k = np.searchsorted(stops, at, side="right")  # ranges ending at or before `at`
        inside = np.maximum(at - starts[np.minimum(k, len(starts) - 1)], 0)
        return before[k] + np.where(k < len(starts), inside, 0)

    mostly = np.zeros(len(matches), bool)
    for doc, lo, hi in (
        (matches.left, matches.token_start_left, matches.token_stop_left),
        (matches.right, matches.token_start_right, matches.token_stop_right),
    ):
        base = offsets[doc]
        out = left_out_before(base + hi) - left_out_before(base + lo)
        mostly |= 2 * out > np.maximum(hi - lo, 1)
    return mostly


def _holds_a_run(matches: MeaningMatches, runs) -> np.ndarray:
    """Per fragment: a shared run of the same pair starts inside it on both sides."""
    held = np.zeros(len(matches), bool)
    if not len(runs) or not len(matches):
        return held
    n = int(max(runs.right.max(), matches.right.max())) + 1
    runs = runs.subset(
        np.isin(pair_keys(runs.left, runs.right, n), pair_keys(matches.left, matches.right, n))
    )
    by_pair: dict[tuple[int, int], list[int]] = {}
    for r, key in enumerate(zip(runs.left.tolist(), runs.right.tolist(), strict=True)):
        by_pair.setdefault(key, []).append(r)
    for m, key in enumerate(zip(matches.left.tolist(), matches.right.tolist(), strict=True)):
        rows = np.array(by_pair.get(key, ()), np.int64)
        if not len(rows):
            continue
        a_lo, a_hi = matches.token_start_left[m], matches.token_stop_left[m]
        b_lo, b_hi = matches.token_start_right[m], matches.token_stop_right[m]
        ends_a = runs.start_left[rows] + runs.length[rows]
        ends_b = runs.start_right[rows] + runs.length[rows]
        inside = (runs.start_left[rows] < a_hi) & (ends_a > a_lo)
        inside &= (runs.start_right[rows] < b_hi) & (ends_b > b_lo)
        held[m] = bool(inside.any())
    return held
