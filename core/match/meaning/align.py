"""Fragments two documents share in meaning (PAN text alignment, after Sanchez-Perez,
Sidorov and Gelbukh, "A Winning Approach to Text Alignment", PAN 2014).

Sentence pairs whose tf-idf vectors (`vectors`) have cosine and Dice over thresholds are
*seeds*; each sentence keeps its best `max_links` seeds (a translator may merge two
sentences into one or split one, never one sentence into ten). Seeds at most `max_gap`
sentences apart on both sides are merged into fragments; a fragment is kept when both
sides are long enough, mostly made of seeded sentences, and similar as a whole, and
fragments overlapping a better one are dropped. A fragment whose sides are in different
languages is *translated*, else *paraphrased*; whether it is *verbatim* instead is for
the caller to say from the shared runs it holds (`with_kind`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from simsift.core.match.meaning.frequencies import DocumentFrequencies
from simsift.core.match.meaning.sketch import MeaningSketch
from simsift.core.match.meaning.vectors import similarities, span_similarity, vector_pair
from simsift.core.progress import CancelToken

PARAPHRASED, TRANSLATED, VERBATIM = "paraphrased", "translated", "verbatim"


@dataclass(frozen=True, slots=True)
class AlignParameters:
    """Thresholds of `align`. Sizes are in English word units (`MeaningSketch.size`)."""

    # meaning corpus (bench/quality/meaning.py), pairs aligned alone: seeds at 0.25 instead
    # of 0.33, min_size 40 instead of 60 and min_shared 5 instead of 8 find 161 instead of
    # 84 of 199 translated and 192 instead of 145 of 200 paraphrased passages; fragments on
    # the hard negative pairs: 1 (54 paraphrase pairs) and 0 (80 translation pairs)
    seed_cosine: float = 0.25
    seed_dice: float = 0.25
    max_links: int = 2  # seeds one sentence may keep
    max_gap: int = 3  # sentences without a seed inside a fragment, on either side
    # of each side: about 40 words, 57 Chinese characters (a passage of 50 English words
    # translated, or of 80 characters, covers only its matched sentences)
    min_size: float = 40.0
    min_density: float = 0.4  # share of each side's size in seeded sentences
    min_score: float = 0.4  # cosine of the fragment's two sides as wholes
    # across languages a word's senses blur its vector: a whole translated passage scores
    # 0.3-0.4 where its sentences score 0.7 (meaning corpus: 0.3 finds 10 more of 199,
    # none on the 80 hard negative pairs)
    min_score_translated: float = 0.3
    min_shared: int = 5  # distinct concepts, not common, both sides hold

    def __post_init__(self) -> None:
        if self.max_links < 1 or self.max_gap < 0 or self.min_size < 0:
            raise ValueError(f"invalid alignment parameters: {self}")


@dataclass(frozen=True, slots=True)
class MeaningFragment:
    """Characters `start_a:end_a` of A's display text share their meaning with
    `start_b:end_b` of B's; `sentence_pairs` are the seeds, (sentence of A, sentence of
    B); `score` is the cosine of the two sides; `kind` is `PARAPHRASED` or `TRANSLATED`
    (`VERBATIM` once the caller finds a shared run in it)."""

    start_a: int
    end_a: int
    start_b: int
    end_b: int
    kind: str
    score: float
    sentence_pairs: tuple[tuple[int, int], ...]


def with_kind(fragment: MeaningFragment, kind: str) -> MeaningFragment:
    """`fragment` of another kind (the caller's verdict: `VERBATIM`)."""
    return replace(fragment, kind=kind)


def align(
    a: MeaningSketch,
    b: MeaningSketch,
    frequencies: DocumentFrequencies | None = None,
    parameters: AlignParameters = AlignParameters(),
    cancel: CancelToken | None = None,
    cache: dict | None = None,
) -> tuple[MeaningFragment, ...]:
    """The fragments `a` and `b` share in meaning, in A's order; `frequencies` gives the
    collection's idf (else the two documents' sentences give it); `cache` keeps what each
    document's vectors need between pairs (`vectors.prepared`). A document is never
    aligned with itself: its paragraphs and their translations are not a copy.
    Raises `Cancelled` when `cancel` is set."""
    if a is b:
        raise ValueError("a document is never aligned with itself")
    check = cancel.check if cancel is not None else _never
    if not len(a) or not len(b):
        return ()
    va, vb = vector_pair(a, b, frequencies, cache)
    pairs = similarities(va, vb, len(b), check)
    seeded = (pairs.cosine >= parameters.seed_cosine) & (pairs.dice >= parameters.seed_dice)
    seeds = _linked(pairs.a[seeded], pairs.b[seeded], pairs.cosine[seeded], parameters.max_links)
    fragments = []
    # most groups are a seed or two far too short: sized from running sums, in Python
    ends_a = np.cumsum(np.concatenate([[0.0], va.counted])).tolist()
    ends_b = np.cumsum(np.concatenate([[0.0], vb.counted])).tolist()
    for group in _clusters(seeds, parameters.max_gap):
        check()
        first_a, last_a = min(s for s, _ in group), max(s for s, _ in group)
        first_b, last_b = min(s for _, s in group), max(s for _, s in group)
        whole_a = ends_a[last_a + 1] - ends_a[first_a]
        whole_b = ends_b[last_b + 1] - ends_b[first_b]
        if min(whole_a, whole_b) < parameters.min_size - 1e-6:  # `_fragment` judges the edge
            continue
        fragment = _fragment(a, b, va, vb, group, parameters)
        if fragment is not None:
            fragments.append(fragment)
    return tuple(sorted(_without_overlaps(fragments), key=lambda f: f.start_a))


def _never() -> None:
    pass


def _linked(a, b, cosine, max_links: int) -> list[tuple[int, int]]:
    """The seeds, best first, each sentence in at most `max_links` of them."""
    links_a, links_b, kept = {}, {}, []
    for i in np.argsort(-cosine, kind="stable"):
        sa, sb = int(a[i]), int(b[i])
        if links_a.get(sa, 0) < max_links and links_b.get(sb, 0) < max_links:
            links_a[sa] = links_a.get(sa, 0) + 1
            links_b[sb] = links_b.get(sb, 0) + 1
            kept.append((sa, sb))
    return sorted(kept)


def _clusters(seeds: list[tuple[int, int]], max_gap: int) -> list[list[tuple[int, int]]]:
    """Seeds (sorted by A) grouped by single linkage: two seeds at most `max_gap`
    sentences apart on both sides are in one fragment. A seed far off the others' line
    (a sentence like many) stays alone instead of widening a fragment."""
    parent = list(range(len(seeds)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    reach = max_gap + 1
    for i, (sa, sb) in enumerate(seeds):
        j = i - 1
        while j >= 0 and sa - seeds[j][0] <= reach:
            if abs(sb - seeds[j][1]) <= reach:
                parent[root(j)] = root(i)
            j -= 1
    groups: dict[int, list[tuple[int, int]]] = {}
    for i, seed in enumerate(seeds):
        groups.setdefault(root(i), []).append(seed)
    return list(groups.values())


def _fragment(a, b, va, vb, seeds, parameters: AlignParameters) -> MeaningFragment | None:
    span_a = (min(s for s, _ in seeds), max(s for s, _ in seeds))
    span_b = (min(s for _, s in seeds), max(s for _, s in seeds))
    size_a, size_b = va.counted, vb.counted  # common text counts for nothing
    whole_a = size_a[span_a[0] : span_a[1] + 1].sum()
    whole_b = size_b[span_b[0] : span_b[1] + 1].sum()
    if min(whole_a, whole_b) < parameters.min_size:
        return None
    seeded_a = size_a[sorted({s for s, _ in seeds})].sum()
    seeded_b = size_b[sorted({s for _, s in seeds})].sum()
    if min(seeded_a / whole_a, seeded_b / whole_b) < parameters.min_density:
        return None
    # Chinese man pages keep English option lines: the seeds' majority decides, by size
    crossing = sum(size_a[i] for i, j in seeds if a.language[i] != b.language[j])
    kind = TRANSLATED if 2 * crossing > sum(size_a[i] for i, _ in seeds) else PARAPHRASED
    score, shared = span_similarity(va, vb, span_a, span_b)
    least = parameters.min_score_translated if kind == TRANSLATED else parameters.min_score
    if score < least or shared < parameters.min_shared:
        return None
    return MeaningFragment(
        start_a=int(a.starts[span_a[0]]),
        end_a=int(a.ends[span_a[1]]),
        start_b=int(b.starts[span_b[0]]),
        end_b=int(b.ends[span_b[1]]),
        kind=kind,
        score=round(score, 4),
        sentence_pairs=tuple(seeds),
    )


def _without_overlaps(fragments: list[MeaningFragment]) -> list[MeaningFragment]:
    """The fragments, best first, each dropped that overlaps a better one on either side."""
    kept: list[MeaningFragment] = []
    for f in sorted(fragments, key=lambda f: -f.score):
        if not any(_overlap(f, k) for k in kept):
            kept.append(f)
    return kept


def _overlap(f: MeaningFragment, g: MeaningFragment) -> bool:
    on_a = f.start_a < g.end_a and g.start_a < f.end_a
    return on_a or (f.start_b < g.end_b and g.start_b < f.end_b)
