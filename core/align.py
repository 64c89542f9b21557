"""Sentence alignment of two documents for the side-by-side view, the CLI and the report.

Both documents are cut into sentences; each sentence gets a key (its normalized text
without whitespace, punctuation and digits) and the two key sequences are aligned with
`difflib.SequenceMatcher`. Equal runs are "same"; inside each replaced run, sentences
whose token sets overlap enough (Jaccard >= `CHANGED_JACCARD`) are paired as "changed";
identical sentences that were moved elsewhere are paired as "same" afterwards. Whatever
is left is "unique".

Similarity is defined once, here, so every caller reports the same number:

* a pair's *matched tokens* is the size of the multiset intersection of its two
  sentences' tokens (`core.tokens` tokens, digits included); it is the same for both
  sides, so "same" pairs count all their tokens (unless only digits or punctuation
  differ) and "changed" pairs count the tokens they share;
* ``matched_tokens`` sums that over all pairs; ``left_similarity`` (A→B, how much of the
  left document is found in the right) is ``matched_tokens / left_tokens``,
  ``right_similarity`` (B→A) is ``matched_tokens / right_tokens``, and the symmetric
  ``similarity`` is ``2 * matched_tokens / (left_tokens + right_tokens)``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from math import ceil

from core.normalize import normalize_text
from core.progress import CancelToken
from core.tokens import iter_tokens

SAME = "same"
CHANGED = "changed"
UNIQUE = "unique"
PARAGRAPH_SEPARATOR = "\n\n"

CHANGED_JACCARD = 0.5
"""Token-set Jaccard from which two sentences in a replaced run count as one changed sentence."""

MIN_MOVED_TOKENS = 3
"""Moved identical sentences shorter than this stay unique (short stock phrases recur anyway)."""

# A sentence runs from a non-space character to a Chinese terminator (with closing quotes or
# brackets), to a Latin terminator followed by whitespace, or to the end of the paragraph.
_SENTENCE = re.compile(
    r"\S.*?(?:[。！？；…]+[”’\"'」』）)\]]*|[.!?]+[\"'”’)\]]*(?=\s)|(?=\s*\Z))",
    re.DOTALL,
)
_NOT_LETTERS = re.compile(r"[\W\d_]+")
_NOT_ALNUM = re.compile(r"[\W_]+")


@dataclass(frozen=True, slots=True)
class Span:
    """One sentence of a side: ``text[start:end]``, its kind and its pair's `match_id`.

    `match_id` indexes `Alignment.matches` and is None for "unique" sentences.
    """

    start: int
    end: int
    kind: str
    match_id: int | None


@dataclass(frozen=True, slots=True)
class Match:
    """A pair of aligned sentences: indexes into `left_spans` and `right_spans`.

    `in_order` is True for pairs of the order-preserving alignment (synchronized scrolling
    can anchor on them) and False for identical sentences found at another place.
    """

    match_id: int
    kind: str
    left: int
    right: int
    in_order: bool
    matched_tokens: int


@dataclass(frozen=True, slots=True)
class Alignment:
    """Sentence spans of both display texts, the pairs linking them, and token counts.

    `matches` are ordered by their left sentence (``matches[i].match_id == i``). `blocks`
    groups consecutive in-order pairs into (first, last) match ids, inclusive: the steps
    of next/previous-match navigation. Similarities are defined in the module docstring.
    """

    left_text: str
    right_text: str
    left_spans: tuple[Span, ...]
    right_spans: tuple[Span, ...]
    matches: tuple[Match, ...]
    blocks: tuple[tuple[int, int], ...]
    left_tokens: int
    right_tokens: int
    matched_tokens: int

    @property
    def left_similarity(self) -> float:
        """A→B: share of the left document's tokens matched in the right one."""
        return self.matched_tokens / self.left_tokens if self.left_tokens else 0.0

    @property
    def right_similarity(self) -> float:
        """B→A: share of the right document's tokens matched in the left one."""
        return self.matched_tokens / self.right_tokens if self.right_tokens else 0.0

    @property
    def similarity(self) -> float:
        """Symmetric similarity: 2 * matched / (left tokens + right tokens); 0.0 if both empty."""
        total = self.left_tokens + self.right_tokens
        return 2 * self.matched_tokens / total if total else 0.0


@dataclass(frozen=True, slots=True)
class _Side:
    """Sentences of one document: display text, offsets, keys and token ids."""

    text: str
    bounds: list[tuple[int, int]]
    keys: list[int]
    tokens: list[list[int]]


def display_text(paragraphs: Sequence[str]) -> str:
    """The text both panes show and all span offsets index: paragraphs joined by a blank line."""
    return PARAGRAPH_SEPARATOR.join(paragraphs)


def sentence_bounds(paragraphs: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) offsets of every sentence in `display_text(paragraphs)`, in order.

    Sentences exclude surrounding whitespace; they end at 。！？；… or at . ! ? followed
    by whitespace (closing quotes and brackets stay with the sentence), or at the end
    of the paragraph.
    """
    bounds: list[tuple[int, int]] = []
    offset = 0
    for paragraph in paragraphs:
        for match in _SENTENCE.finditer(paragraph):
            start, end = match.span()
            # The end-of-paragraph branch stops before trailing whitespace already.
            bounds.append((offset + start, offset + end))
        offset += len(paragraph) + len(PARAGRAPH_SEPARATOR)
    return bounds


def align(
    left: Sequence[str],
    right: Sequence[str],
    *,
    traditional_to_simplified: bool = True,
    cancel: CancelToken | None = None,
) -> Alignment:
    """Align two documents given as paragraphs (e.g. `FileRecord.paragraphs`).

    Args:
        left, right: the documents' paragraphs; spans index their `display_text`.
        traditional_to_simplified: fold Traditional Chinese first, as the scan does.
        cancel: checked between stages; raises `core.progress.Cancelled` when set.

    Examples:
        >>> a = align(["One sentence. Another one."], ["One sentence. Something else."])
        >>> [s.kind for s in a.left_spans]
        ['same', 'unique']
    """
    keys: dict[str, int] = {}
    segmented: dict[str, list[int]] = {}
    sides = []
    for paragraphs in (left, right):
        _check(cancel)
        sides.append(_side(paragraphs, keys, segmented, traditional_to_simplified))
    a, b = sides
    _check(cancel)
    pairs = _ordered_pairs(a, b)
    _check(cancel)
    pairs += _moved_pairs(a, b, pairs)
    pairs.sort()
    matches = tuple(
        Match(match_id, kind, i, j, in_order, _shared_tokens(a.tokens[i], b.tokens[j]))
        for match_id, (i, j, kind, in_order) in enumerate(pairs)
    )
    return Alignment(
        left_text=a.text,
        right_text=b.text,
        left_spans=_spans(a, matches, lambda m: m.left),
        right_spans=_spans(b, matches, lambda m: m.right),
        matches=matches,
        blocks=_blocks(matches),
        left_tokens=sum(map(len, a.tokens)),
        right_tokens=sum(map(len, b.tokens)),
        matched_tokens=sum(m.matched_tokens for m in matches),
    )


def _check(cancel: CancelToken | None) -> None:
    if cancel is not None:
        cancel.check()


def _side(
    paragraphs: Sequence[str],
    keys: dict[str, int],
    segmented: dict[str, list[int]],
    traditional_to_simplified: bool,
) -> _Side:
    """Cut one document into sentences, intern their keys and token ids (dicts shared by sides).

    `segmented` maps a normalized sentence to its token ids and grows as a side is read,
    so a sentence present on both sides is segmented (jieba's slow part) only once.
    """
    text = display_text(paragraphs)
    bounds = sentence_bounds(paragraphs)
    sentence_keys: list[int] = []
    sentence_tokens: list[list[int]] = []
    for start, end in bounds:
        norm = normalize_text(text[start:end], traditional_to_simplified=traditional_to_simplified)
        sentence_keys.append(keys.setdefault(_sentence_key(norm), len(keys)))
        tokens = segmented.get(norm)
        if tokens is None:
            tokens = segmented[norm] = [_token_id(token) for token, _ in iter_tokens(norm)]
        sentence_tokens.append(tokens)
    return _Side(text, bounds, sentence_keys, sentence_tokens)


def _token_id(token: str) -> int:
    """Tokens are compared by Python's string hash: collisions are vanishingly rare at 64 bits."""
    return hash(token)


def _sentence_key(norm: str) -> str:
    """What two sentences must share to be "same": letters only, else digits, else the text.

    Punctuation, spacing and numbers are what a copier tweaks first; a sentence made only
    of them keeps its digits (or its raw text) so that it does not equal every other one.
    """
    return _NOT_LETTERS.sub("", norm) or _NOT_ALNUM.sub("", norm) or norm


def _ordered_pairs(a: _Side, b: _Side) -> list[tuple[int, int, str, bool]]:
    """Order-preserving pairs: equal runs of keys, plus similar sentences in replaced runs."""
    matcher = SequenceMatcher(None, a.keys, b.keys, autojunk=False)
    pairs: list[tuple[int, int, str, bool]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend((i1 + k, j1 + k, SAME, True) for k in range(i2 - i1))
        elif tag == "replace":
            pairs.extend(
                (i, j, CHANGED, True)
                for i, j in _similar_pairs(a.tokens[i1:i2], b.tokens[j1:j2], i1, j1)
            )
    return pairs


def _similar_pairs(
    left: list[list[int]], right: list[list[int]], i0: int, j0: int
) -> list[tuple[int, int]]:
    """Non-crossing pairs of sentences with token-set Jaccard >= CHANGED_JACCARD, best first."""
    lefts: list[int] = []  # accepted pairs sorted by left index; rights follow the same order
    rights: list[int] = []
    used_right: set[int] = set()
    for _, i, j in sorted(_scored_candidates(left, right), reverse=True):
        k = bisect_left(lefts, i)
        if (k < len(lefts) and lefts[k] == i) or j in used_right:
            continue
        # Crossing pairs would break the order synchronized scrolling relies on.
        if (k > 0 and rights[k - 1] > j) or (k < len(rights) and rights[k] < j):
            continue
        lefts.insert(k, i)
        rights.insert(k, j)
        used_right.add(j)
    return [(i0 + i, j0 + j) for i, j in zip(lefts, rights, strict=True)]


def _scored_candidates(
    left: list[list[int]], right: list[list[int]]
) -> list[tuple[float, int, int]]:
    """(Jaccard, i, j) of the pairs reaching CHANGED_JACCARD.

    A prefix-filtering join: two token sets this similar share one of their rarest
    |s| - ceil(t * |s|) + 1 tokens, and their sizes differ by at most a factor t, so
    large replaced runs are not compared all against all.
    """
    left_sets = [set(tokens) for tokens in left]
    right_sets = [set(tokens) for tokens in right]
    frequency = Counter(t for s in left_sets for t in s)
    frequency.update(t for s in right_sets for t in s)
    index: defaultdict[int, list[int]] = defaultdict(list)
    for j, tokens in enumerate(right_sets):
        for token in _prefix(tokens, frequency):
            index[token].append(j)
    scored = []
    for i, x in enumerate(left_sets):
        candidates = {j for token in _prefix(x, frequency) for j in index.get(token, ())}
        for j in candidates:
            y = right_sets[j]
            if CHANGED_JACCARD * max(len(x), len(y)) > min(len(x), len(y)):
                continue
            shared = len(x & y)
            score = shared / (len(x) + len(y) - shared)
            if score >= CHANGED_JACCARD:
                scored.append((score, i, j))
    return scored


def _prefix(tokens: set[int], frequency: Counter[int]) -> list[int]:
    """The set's |s| - ceil(t * |s|) + 1 rarest tokens (ties broken by value)."""
    if not tokens:
        return []
    ranked = sorted(tokens, key=lambda t: (frequency[t], t))
    return ranked[: len(ranked) - ceil(CHANGED_JACCARD * len(ranked)) + 1]


def _moved_pairs(
    a: _Side, b: _Side, ordered: list[tuple[int, int, str, bool]]
) -> list[tuple[int, int, str, bool]]:
    """Identical sentences left unpaired because they moved (reordered paragraphs)."""
    paired_left = {i for i, _, _, _ in ordered}
    paired_right = {j for _, j, _, _ in ordered}
    waiting: defaultdict[int, deque[int]] = defaultdict(deque)
    for j, key in enumerate(b.keys):
        if j not in paired_right and len(b.tokens[j]) >= MIN_MOVED_TOKENS:
            waiting[key].append(j)
    moved = []
    for i, key in enumerate(a.keys):
        if i not in paired_left and len(a.tokens[i]) >= MIN_MOVED_TOKENS and waiting.get(key):
            moved.append((i, waiting[key].popleft(), SAME, False))
    return moved


def _shared_tokens(x: list[int], y: list[int]) -> int:
    """Size of the multiset intersection of two token lists."""
    if x == y:
        return len(x)
    return sum((Counter(x) & Counter(y)).values())


def _spans(side: _Side, matches: tuple[Match, ...], index_of) -> tuple[Span, ...]:
    """One span per sentence of `side`, linked to its match when it has one."""
    match_of = {index_of(m): m for m in matches}
    spans = []
    for index, (start, end) in enumerate(side.bounds):
        match = match_of.get(index)
        if match is None:
            spans.append(Span(start, end, UNIQUE, None))
        else:
            spans.append(Span(start, end, match.kind, match.match_id))
    return tuple(spans)


def _blocks(matches: tuple[Match, ...]) -> tuple[tuple[int, int], ...]:
    """Runs of in-order matches that are consecutive sentences on both sides."""
    blocks: list[tuple[int, int]] = []
    for m in matches:
        if blocks:
            prev = matches[blocks[-1][1]]
            if (
                m.in_order
                and prev.in_order
                and m.left == prev.left + 1
                and m.right == prev.right + 1
            ):
                blocks[-1] = (blocks[-1][0], m.match_id)
                continue
        blocks.append((m.match_id, m.match_id))
    return tuple(blocks)
