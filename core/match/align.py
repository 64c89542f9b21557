"""Sentence alignment of two documents for the side-by-side view.

Both documents are cut into sentences; each sentence gets a key (its normalized text
without whitespace, punctuation and digits) and the two key sequences are aligned with
`difflib.SequenceMatcher`. Equal runs are "same"; inside each replaced run, sentences
whose token sets overlap enough (Jaccard >= `CHANGED_JACCARD`) are paired as "changed";
identical sentences that were moved elsewhere are paired as "same" afterwards. Whatever
is left is "unique".

Inside each pair whose tokens differ, the differing words are found by aligning the two
token lists with `SequenceMatcher` (`Match.edits`): what a teacher reads as the copier's
edits. Tokens are compared normalized, so case, width, punctuation and spacing alone
never count as an edit.

The aligned share is defined once, here, so every caller reports the same number:

* a pair's *matched tokens* is the size of the multiset intersection of its two
  sentences' tokens (`core.text.tokens` tokens, digits included); it is the same for both
  sides, so "same" pairs count all their tokens (unless only digits or punctuation
  differ) and "changed" pairs count the tokens they share;
* ``matched_tokens`` sums that over all pairs; ``left_aligned_share`` (how much of the
  left document is found in the right) is ``matched_tokens / left_tokens``,
  ``right_aligned_share`` is ``matched_tokens / right_tokens``, and the symmetric
  ``aligned_share`` is ``2 * matched_tokens / (left_tokens + right_tokens)``.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import Counter, defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import pairwise
from math import ceil

from simsift.core.progress import CancelToken
from simsift.core.text.normalize import normalize_text
from simsift.core.text.tokens import iter_tokens

SAME = "same"
CHANGED = "changed"
UNIQUE = "unique"
INSERTED = "inserted"
DELETED = "deleted"
PARAGRAPH_SEPARATOR = "\n\n"

CHANGED_JACCARD = 0.5
"""Token-set Jaccard from which two sentences in a replaced run count as one changed sentence."""

MIN_MOVED_TOKENS = 3
"""Moved identical sentences shorter than this stay unique (short stock phrases recur anyway)."""

MAX_EDIT_TOKENS = 1000
"""Pairs with a longer sentence (a paragraph without terminators) get no word edits: a
word diff of two such sentences costs up to quadratic time and marks little a reader uses."""

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
class WordEdit:
    """Words that differ inside a matched pair: ``left_text[slice(*left)]`` became
    ``right_text[slice(*right)]``.

    `kind` is CHANGED (words replaced), DELETED (`right` is empty) or INSERTED (`left` is
    empty). An empty range is the place where the other side's words would go. A range
    runs from the first differing word to the last, so it may hold spaces or punctuation.
    """

    kind: str
    left: tuple[int, int]
    right: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Match:
    """A pair of aligned sentences: indexes into `left_spans` and `right_spans`.

    `in_order` is True for pairs of the order-preserving alignment (synchronized scrolling
    can anchor on them) and False for identical sentences found at another place.
    `edits` are the word edits from the left sentence to the right one, in reading order;
    empty when their tokens are equal (or a sentence exceeds `MAX_EDIT_TOKENS` tokens).
    """

    match_id: int
    kind: str
    left: int
    right: int
    in_order: bool
    matched_tokens: int
    edits: tuple[WordEdit, ...] = ()


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
    def left_aligned_share(self) -> float:
        """A→B: share of the left document's tokens matched in the right one."""
        return self.matched_tokens / self.left_tokens if self.left_tokens else 0.0

    @property
    def right_aligned_share(self) -> float:
        """B→A: share of the right document's tokens matched in the left one."""
        return self.matched_tokens / self.right_tokens if self.right_tokens else 0.0

    @property
    def aligned_share(self) -> float:
        """Both documents' aligned share: 2 * matched / (left + right tokens); 0.0 if both empty."""
        total = self.left_tokens + self.right_tokens
        return 2 * self.matched_tokens / total if total else 0.0


@dataclass(frozen=True, slots=True)
class _Side:
    """Sentences of one document: display text, offsets, keys, token ids, normalized texts
    and their tokens (kept for word edits)."""

    text: str
    bounds: list[tuple[int, int]]
    keys: list[int]
    tokens: list[list[int]]
    norms: list[str]
    words: list[list[str]]


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
    segmented: dict[str, tuple[list[str], list[int]]] = {}
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
    _check(cancel)
    matches = tuple(
        Match(
            match_id,
            kind,
            i,
            j,
            in_order,
            matched_tokens=_shared_tokens(a.tokens[i], b.tokens[j]),
            edits=_word_edits(a, i, b, j, traditional_to_simplified),
        )
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
    segmented: dict[str, tuple[list[str], list[int]]],
    traditional_to_simplified: bool,
) -> _Side:
    """Cut one document into sentences, intern their keys and token ids (dicts shared by sides).

    `segmented` maps a normalized sentence to its tokens and their ids and grows as a side
    is read, so a sentence present on both sides is segmented (jieba's slow part) only once.
    """
    text = display_text(paragraphs)
    bounds = sentence_bounds(paragraphs)
    side = _Side(text, bounds, [], [], [], [])
    for start, end in bounds:
        norm = normalize_text(text[start:end], traditional_to_simplified=traditional_to_simplified)
        side.keys.append(keys.setdefault(_sentence_key(norm), len(keys)))
        found = segmented.get(norm)
        if found is None:
            words = [token for token, _ in iter_tokens(norm)]
            found = segmented[norm] = (words, [_token_id(word) for word in words])
        side.norms.append(norm)
        side.words.append(found[0])
        side.tokens.append(found[1])
    return side


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


def _word_edits(a: _Side, i: int, b: _Side, j: int, t2s: bool) -> tuple[WordEdit, ...]:
    """The edits turning sentence i of `a` into sentence j of `b`, by whole tokens."""
    if a.tokens[i] == b.tokens[j] or max(len(a.tokens[i]), len(b.tokens[j])) > MAX_EDIT_TOKENS:
        return ()
    left, left_words = _located_words(a, i, t2s)
    right, right_words = _located_words(b, j, t2s)
    matcher = SequenceMatcher(None, left_words, right_words, autojunk=False)
    return tuple(
        WordEdit(
            {"replace": CHANGED, "delete": DELETED, "insert": INSERTED}[tag],
            _covering(left, i1, i2, a.bounds[i]),
            _covering(right, j1, j2, b.bounds[j]),
        )
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    )


def _located_words(side: _Side, i: int, t2s: bool) -> tuple[list[tuple[int, int]], list[str]]:
    """Tokens of sentence i and their (start, end) in the display text."""
    start, end = side.bounds[i]
    norm, starts, ends = _normalized_with_sources(side.text[start:end], t2s)
    # Almost always the text the alignment segmented: reuse its tokens instead of jieba.
    words = side.words[i] if norm == side.norms[i] else [w for w, _ in iter_tokens(norm)]
    located = []
    position = 0
    for word in words:
        # Tokens are substrings in reading order, and the text between two tokens holds
        # no letter, digit or Han character: the next occurrence is the token itself.
        position = norm.index(word, position)
        located.append((start + starts[position], start + ends[position + len(word) - 1]))
        position += len(word)
    return located, words


def _normalized_with_sources(text: str, t2s: bool) -> tuple[str, Sequence[int], Sequence[int]]:
    """`text` normalized like `normalize_text`, with each normalized character's source range.

    Normalizing may change lengths (ligatures, "ß", combining marks), so where it does,
    characters are normalized one at a time with their combining marks. Traditional-to-
    Simplified conversion is applied to the whole text, for its phrase rules, and kept
    only if it keeps the length (it does in practice). Normalized character k comes from
    ``text[starts[k]:ends[k]]``.
    """
    folded = "".join(map(_fold_character, text))
    if len(folded) == len(text) and folded == _fold(text):
        starts: Sequence[int] = range(len(text))
        ends: Sequence[int] = range(1, len(text) + 1)
    else:
        folded, starts, ends = _fold_by_character(text)
    converted = normalize_text(folded, traditional_to_simplified=t2s)
    return (converted if len(converted) == len(folded) else folded), starts, ends


def _fold_by_character(text: str) -> tuple[str, list[int], list[int]]:
    """NFKC and case folding per character (with its combining marks), tracking sources."""
    cuts = sorted({0, len(text), *(k for k, c in enumerate(text) if not unicodedata.combining(c))})
    parts, starts, ends = [], [], []
    for start, end in pairwise(cuts):
        part = _fold_character(text[start:end])
        parts.append(part)
        starts += [start] * len(part)
        ends += [end] * len(part)
    return "".join(parts), starts, ends


def _fold(text: str) -> str:
    """NFKC then case folding, as `normalize_text` does before Traditional-to-Simplified."""
    return unicodedata.normalize("NFKC", text).casefold()


_fold_character = lru_cache(maxsize=1 << 14)(_fold)
"""`_fold` of one character (with its combining marks): few distinct ones recur."""


def _covering(
    located: list[tuple[int, int]], first: int, last: int, sentence: tuple[int, int]
) -> tuple[int, int]:
    """The range from token `first` to token `last - 1`; if empty, the place before `first`."""
    if first < last:
        return located[first][0], located[last - 1][1]
    if first < len(located):
        return located[first][0], located[first][0]
    place = located[-1][1] if located else sentence[0]
    return place, place


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
