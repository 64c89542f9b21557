"""What each stretch of a document's text is, as a report shows it: the writer's own,
copied from a source, quoted or bibliography (set apart), template or common text.

The scan decides per body token: token marks (`TokenStream.marks`, quotations and the
bibliography), the ranges that never count (`PassageResult.left_out_in`) and the matched
passages and runs (`PassageResult.links`); how many documents hold a stretch of common
text comes from the listed common runs and passages (`common_runs`, `common_text`). Here
those token ranges become character ranges of the paragraphs, so a run copied inside
one's own paragraph is coloured alone and a quotation is shown with its quotation marks.
What never counts wins over copying: a quotation inside a matched passage reads as a
quotation, and text a reference document holds reads as template text.
"""

from __future__ import annotations

import unicodedata
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np
from simsift.core.arrays import ragged_arange, sorted_unique
from simsift.core.index.matches import hamming
from simsift.core.match.verbatim import GRAM
from simsift.core.text.normalize import normalize_text
from simsift.core.text.quotations import (
    BIBLIOGRAPHY,
    QUOTATION,
    bibliography_ranges,
    find_quotations,
)
from simsift.core.text.tokens import CHUNK_CHARS, iter_tokens

OWN = "own"
COPIED = "copied"
QUOTED = "quoted"
LISTED = "bibliography"  # in the bibliography
TEMPLATE = "template"
COMMON = "common"
PARAPHRASED = "paraphrased"  # the same meaning as a source's passage, in other words
TRANSLATED = "translated"  # the same meaning in the other language (Chinese, English)
SET_APART = (QUOTED, LISTED)
BY_MEANING = (PARAPHRASED, TRANSLATED)

# kinds as small numbers, for numpy; a copied token is _SOURCE + its source's number
_KINDS = (OWN, QUOTED, LISTED, TEMPLATE, COMMON)
_OWN, _QUOTED, _LISTED, _TEMPLATE, _COMMON = range(len(_KINDS))
_SOURCE = len(_KINDS)
_NO_TOKEN = -1
_MUL = np.uint64(0x9E3779B97F4A7C15)


@dataclass(frozen=True, slots=True)
class Stretch:
    """Characters `start:end` of a paragraph and what they are (`kind`); `source` is the
    number of the source a COPIED, PARAPHRASED or TRANSLATED stretch was found in (in the
    order given), `documents`
    how many documents hold a COMMON stretch (0 when not known), `found_in` the document
    a QUOTED stretch's words are found in (-1: none)."""

    start: int
    end: int
    kind: str
    source: int = -1
    documents: int = 0
    found_in: int = -1


def document_stretches(result, doc: int, sources: Sequence[int]) -> list[list[Stretch]]:
    """The stretches of each paragraph of document `doc` of a `ScanResult`; `sources` are
    its sources' document numbers, the first winning where two hold the same text."""
    record = result.documents[doc]
    tokens = getattr(record.tokens, "body", None)
    if tokens is None:  # no tokens to map (text without a stream): paragraphs as found
        return _paragraph_stretches(result, doc, sources)
    kinds, documents = _token_kinds(result, doc, sources, tokens)
    t2s = result.options.traditional_to_simplified
    starts = np.r_[np.asarray(tokens.para_starts, np.int64), len(kinds)]
    out = []
    for number, paragraph in enumerate(record.paragraphs):
        if number + 1 >= len(starts):  # paragraphs without tokens at the end
            out.append([Stretch(0, len(paragraph), OWN)] if paragraph else [])
            continue
        first, stop = int(starts[number]), int(starts[number + 1])
        out.append(_stretches(paragraph, kinds[first:stop], documents[first:stop], t2s))
    return out


def with_meaning(
    result, doc: int, sources: Sequence[int], stretches: list[list[Stretch]]
) -> list[list[Stretch]]:
    """`stretches` (`document_stretches`) with the writer's own text inside fragments found
    by meaning (`PassageResult.meaning`) marked PARAPHRASED or TRANSLATED, in the colour
    of their source (its number in `sources`, the first winning); text copied word for
    word, set apart or left out stays what it is."""
    spans = meaning_spans(result, doc, sources)
    if not spans:
        return stretches
    record = result.documents[doc]
    out, offset = [], 0
    for paragraph, pieces in zip(record.paragraphs, stretches, strict=True):
        local = [
            (max(a - offset, 0), min(b - offset, len(paragraph)), kind, number)
            for a, b, kind, number in spans
            if a < offset + len(paragraph) and b > offset
        ]
        out.append(_split_own(pieces, local) if local else pieces)
        offset += len(paragraph) + 2  # the display text's "\n\n"
    return out


def meaning_spans(result, doc: int, sources: Sequence[int]) -> list[tuple[int, int, str, int]]:
    """(start, end, kind, source number) of the fragments of `doc` found by meaning, in
    characters of its display text, for the sources listed (`sources`), the first source's
    first."""
    from simsift.core.match.meaning.matches import KINDS

    m = result.passages.meaning
    number_of = {int(s): i for i, s in reversed(list(enumerate(sources)))}
    found = []
    for row in np.flatnonzero((m.left == doc) | (m.right == doc)).tolist():
        mine = int(m.left[row]) == doc
        other = int(m.right[row]) if mine else int(m.left[row])
        if other not in number_of:
            continue
        start, end = (
            (int(m.start_left[row]), int(m.end_left[row]))
            if mine
            else (int(m.start_right[row]), int(m.end_right[row]))
        )
        found.append((start, end, KINDS[int(m.kind[row])], number_of[other]))
    return sorted(found, key=lambda span: (span[3], span[0]))


def _split_own(pieces: list[Stretch], spans) -> list[Stretch]:
    """`pieces` with their OWN characters inside `spans` ((start, end, kind, source),
    the first winning) cut out as stretches of that kind and source."""
    out = []
    for piece in pieces:
        if piece.kind != OWN:
            out.append(piece)
            continue
        marks = [None] * (piece.end - piece.start)
        for start, end, kind, number in reversed(spans):  # the first painted last: it wins
            for c in range(max(start, piece.start), min(end, piece.end)):
                marks[c - piece.start] = (kind, number)
        begin = 0
        for c in range(1, len(marks) + 1):
            if c == len(marks) or marks[c] != marks[begin]:
                mark = marks[begin]
                a, b = piece.start + begin, piece.start + c
                out.append(Stretch(a, b, OWN) if mark is None else Stretch(a, b, *mark))
                begin = c
    return out


def left_out_spans(
    result, doc: int, paragraphs: Sequence[str] | None = None
) -> list[tuple[int, int, int, str]]:
    """(paragraph, start, end, kind) of the text of document `doc` that never counts as
    copying, to be shown greyed wherever it matches: template and common text, and the
    quotations and bibliography the scan sets apart; a reference document's text is all
    template. `paragraphs` is the text shown when it is not the result's (an archive
    document's text read later): its set-apart text only."""
    record = result.documents[doc]
    shown = record.paragraphs if paragraphs is None else tuple(paragraphs)
    if result.is_reference[doc]:
        return [(i, 0, len(text), TEMPLATE) for i, text in enumerate(shown) if text]
    if shown != record.paragraphs or getattr(record.tokens, "body", None) is None:
        t2s = result.options.traditional_to_simplified
        return set_apart_spans(shown, result.options.passages.set_apart, t2s=t2s)
    return [
        (i, piece.start, piece.end, piece.kind)
        for i, pieces in enumerate(document_stretches(result, doc, ()))
        for piece in pieces
        if piece.kind != OWN
    ]


def set_apart_spans(
    paragraphs: Sequence[str], set_apart: Sequence[int], *, t2s: bool = True
) -> list[tuple[int, int, int, str]]:
    """(paragraph, start, end, QUOTED or LISTED) of the text that `set_apart` (marks of
    `core.text.quotations`, `PassageOptions.set_apart`) leaves out of copying, found in the
    text as the tokenizer finds it (`core.text.tokens.token_stream`): the bibliography's
    paragraphs whole, and the quotations of the other paragraphs, marks included."""
    listed = bibliography_ranges(paragraphs)
    out = []
    if BIBLIOGRAPHY in set_apart:
        out += [(i, 0, len(paragraphs[i]), LISTED) for a, b in listed for i in range(a, b)]
    if QUOTATION in set_apart:
        in_list = {i for a, b in listed for i in range(a, b)}
        for i, paragraph in enumerate(paragraphs):
            if i not in in_list:
                out += [(i, a, b, QUOTED) for a, b in quotation_spans(paragraph, t2s)]
    return sorted(out)


def quotation_spans(paragraph: str, t2s: bool) -> tuple[tuple[int, int], ...]:
    """The quotations of `paragraph` as character ranges, marks included, found in its
    normalized text as the tokenizer finds them (in the text itself where normalizing
    changes its length)."""
    norm = normalize_text(paragraph, traditional_to_simplified=t2s)
    text = norm if len(norm) == len(paragraph) else paragraph
    return find_quotations(text, whole_paragraph=len(paragraph) <= CHUNK_CHARS).spans


# -- per token ---------------------------------------------------------------------------


def _token_kinds(result, doc: int, sources: Sequence[int], tokens) -> tuple[np.ndarray, ...]:
    """(kind number, documents holding it) per body token of `doc`."""
    n = len(tokens.hashes)
    kinds = np.full(n, _OWN, np.int64)
    passages = result.passages
    for number in reversed(range(len(sources))):  # the first source is painted last: it wins
        for link in passages.links(doc, sources[number]):
            kinds[link.tokens_a[0] : link.tokens_a[1]] = _SOURCE + number
    documents = np.zeros(n, np.int64)
    if not result.is_reference[doc]:  # a reference document is all left out: nothing to tell
        left_out = np.zeros(n, bool)
        for start, stop in passages.left_out_in(doc):
            left_out[start:stop] = True
        shared = _shared_text(result)
        documents = shared.documents_of(tokens.hashes)
        _add_common_passages(result, doc, documents)
        kinds[left_out] = _COMMON
        # text a reference document holds is template text, copied or not, even a prompt's
        # line too short to be left out by the scan: never shown as copied
        kinds[_template_tokens(result, doc, shared, tokens.hashes)] = _TEMPLATE
    set_apart = result.options.passages.set_apart
    marks = np.asarray(tokens.marks)
    for mark, kind in ((QUOTATION, _QUOTED), (BIBLIOGRAPHY, _LISTED)):
        if mark in set_apart:
            kinds[marks == mark] = kind
    counts = _filled_counts(kinds == _COMMON, documents)
    quoted = kinds == _QUOTED
    if quoted.any():  # a quotation's key carries where its words are found, plus one
        counts[quoted] = _quoted_sources(result.passages.kept, doc, quoted) + 1
    return kinds, counts


def quotes_found_elsewhere(result) -> np.ndarray:
    """bool per document: it quotes words another document holds (one of its kept word
    grams lies inside a quotation and another document has it too), though a quotation
    never counts: a teacher opens it to see what it quotes and from where."""
    kept = result.passages.kept
    out = np.zeros(len(result.documents), bool)
    if kept is None or not len(kept.value):
        return out
    starts = np.flatnonzero(np.r_[True, kept.value[1:] != kept.value[:-1]])
    size = np.diff(np.r_[starts, len(kept.value)])
    lowest = np.minimum.reduceat(kept.doc, starts)
    highest = np.maximum.reduceat(kept.doc, starts)
    rows = np.flatnonzero(np.repeat(lowest != highest, size))
    rows = rows[np.argsort(kept.doc[rows], kind="stable")]
    docs = kept.doc[rows]
    for doc, record in enumerate(result.documents):
        marks = np.asarray(record.tokens.body.marks) if record.tokens is not None else ()
        if not len(marks) or not (marks == QUOTATION).any():
            continue
        lo, hi = np.searchsorted(docs, [doc, doc + 1])
        at = kept.position[rows[lo:hi]].astype(np.int64)
        at = at[at + GRAM <= len(marks)]
        out[doc] = bool(((marks[at] == QUOTATION) & (marks[at + GRAM - 1] == QUOTATION)).any())
    return out


def _quoted_sources(kept, doc: int, quoted: np.ndarray) -> np.ndarray:
    """Per quoted token of `doc`, the other document holding most of its quotation's kept
    word grams (`PassageResult.kept`: every shared run as long as the shortest match has
    one), -1 where none does."""
    found = np.full(int(quoted.sum()), -1, np.int64)
    if kept is None or not len(kept.value):
        return found
    own = np.flatnonzero(kept.doc == doc)
    edges = np.flatnonzero(np.diff(np.r_[0, quoted.view(np.int8), 0]))
    done = 0
    for start, stop in zip(edges[0::2].tolist(), edges[1::2].tolist(), strict=True):
        inside = own[(kept.position[own] >= start) & (kept.position[own] + GRAM <= stop)]
        values = kept.value[inside]
        low = np.searchsorted(kept.value, values, "left")
        high = np.searchsorted(kept.value, values, "right")
        owner, k = ragged_arange(high - low)
        holders = kept.doc[low[owner] + k].astype(np.int64)
        holders = holders[holders != doc]
        if len(holders):
            found[done : done + stop - start] = np.bincount(holders).argmax()
        done += stop - start
    return found


def _filled_counts(common: np.ndarray, documents: np.ndarray) -> np.ndarray:
    """`documents` on common tokens, where a stretch of common text holds tokens of unknown
    count (outside the listed example, left out by a common passage) those taking the
    count of the nearest known token of the stretch; 0 elsewhere."""
    out = np.where(common, documents, 0)
    edges = np.flatnonzero(np.diff(np.r_[0, common.view(np.int8), 0]))
    for start, stop in zip(edges[0::2].tolist(), edges[1::2].tolist(), strict=True):
        part = out[start:stop]
        known = np.flatnonzero(part)
        if 0 < len(known) < len(part):
            nearest = np.searchsorted(known, np.arange(len(part))).clip(max=len(known) - 1)
            before = np.maximum(nearest - 1, 0)
            closer = np.abs(known[before] - np.arange(len(part))) < np.abs(
                known[nearest] - np.arange(len(part))
            )
            out[start:stop] = np.where(
                part > 0, part, part[known[np.where(closer, before, nearest)]]
            )
    return out


def _add_common_passages(result, doc: int, documents: np.ndarray) -> None:
    """Give the tokens of `doc`'s common passages that no listed common run counts the
    documents of the listed common passage nearest in fingerprint (`CommonText` lists one
    passage of each group of near-identical ones)."""
    passages = result.passages
    listed = passages.common_text
    p = passages.passages
    lo, hi = np.searchsorted(p.doc, [doc, doc + 1])
    rows = lo + np.flatnonzero(passages.is_common[lo:hi])
    if not len(rows) or not len(listed):
        return
    listed_prints = passages.fingerprints[listed.passage]
    base = int(p.offsets[doc])
    for row in rows.tolist():
        distance = hamming(passages.fingerprints[row], listed_prints)
        nearest = int(np.argmin(distance))
        if distance[nearest] <= passages.options.extend_distance:
            part = documents[int(p.start[row]) - base : int(p.stop[row]) - base]
            part[part == 0] = listed.documents[nearest]


def _template_tokens(result, doc: int, shared: _SharedText, hashes: np.ndarray) -> np.ndarray:
    """Tokens of `doc` in a passage matching a reference document or in a word gram that a
    reference document holds."""
    template = shared.in_reference(hashes)
    p = result.passages.passages
    lo, hi = np.searchsorted(p.doc, [doc, doc + 1])
    rows = lo + np.flatnonzero(result.passages.is_template[lo:hi])
    base = int(p.offsets[doc])
    for start, stop in zip(p.start[rows].tolist(), p.stop[rows].tolist(), strict=True):
        template[start - base : stop - base] = True
    return template


@dataclass(frozen=True)
class _SharedText:
    """Word grams of the listed common text, with how many documents hold each, and the
    word grams of the reference documents (sorted, distinct)."""

    common: np.ndarray  # uint64
    common_documents: np.ndarray  # int64
    reference: np.ndarray  # uint64

    def documents_of(self, hashes: np.ndarray) -> np.ndarray:
        """Per token, the most documents holding a common gram it is in (0 if none)."""
        keys = _gram_keys(hashes)
        counts = np.zeros(len(keys), np.int64)
        if len(self.common) and len(keys):
            at = np.searchsorted(self.common, keys).clip(max=len(self.common) - 1)
            hit = self.common[at] == keys
            counts[hit] = self.common_documents[at[hit]]
        return _spread(counts, len(hashes), np.maximum)

    def in_reference(self, hashes: np.ndarray) -> np.ndarray:
        """Per token: in a word gram that a reference document holds."""
        keys = _gram_keys(hashes)
        held = np.zeros(len(keys), bool)
        if len(self.reference) and len(keys):
            at = np.searchsorted(self.reference, keys).clip(max=len(self.reference) - 1)
            held = self.reference[at] == keys
        return _spread(held, len(hashes), np.logical_or)


_known: list = [None, None]  # (weak reference to a result, its _SharedText)


def _shared_text(result) -> _SharedText:
    """The result's `_SharedText`, kept for the last result asked (the Documents tab shows
    one essay after another of one result)."""
    known, shared = _known  # one read: the side-by-side view asks from a worker thread
    if known is not None and known() is result:
        return shared
    runs = result.passages.common_runs
    keys, counts = [np.zeros(0, np.uint64)], [np.zeros(0, np.int64)]
    for doc, start, length, documents in zip(
        runs.doc.tolist(),
        runs.start.tolist(),
        runs.length.tolist(),
        runs.documents.tolist(),
        strict=True,
    ):
        found = _gram_keys(_hashes(result, doc)[start : start + length])
        keys.append(found)
        counts.append(np.full(len(found), documents, np.int64))
    key, count = np.concatenate(keys), np.concatenate(counts)
    order = np.lexsort((-count, key))  # the most documents first among equal grams
    key, count = key[order], count[order]
    first = np.r_[True, key[1:] != key[:-1]] if len(key) else np.zeros(0, bool)
    reference = [_gram_keys(_hashes(result, d)) for d in np.flatnonzero(result.is_reference)]
    reference_keys = sorted_unique(np.concatenate([np.zeros(0, np.uint64), *reference]))
    shared = _SharedText(key[first], count[first], reference_keys)
    _known[:] = [weakref.ref(result), shared]
    return shared


def _hashes(result, doc: int) -> np.ndarray:
    body = getattr(result.documents[doc].tokens, "body", None)
    return np.zeros(0, np.uint64) if body is None else np.asarray(body.hashes, np.uint64)


def _gram_keys(hashes: np.ndarray) -> np.ndarray:
    """A 64-bit key of each `GRAM` tokens in a row (the same tokens, the same key)."""
    n = len(hashes) - GRAM + 1
    if n <= 0:
        return np.zeros(0, np.uint64)
    key = np.zeros(n, np.uint64)
    for j in range(GRAM):
        key = key * _MUL + hashes[j : j + n]
    return key


def _spread(per_gram: np.ndarray, n_tokens: int, combine) -> np.ndarray:
    """Per token, `combine` of the values of the grams holding it."""
    out = np.zeros(n_tokens, per_gram.dtype)
    n = len(per_gram)
    for j in range(GRAM if n else 0):
        out[j : j + n] = combine(out[j : j + n], per_gram)
    return out


# -- per character -----------------------------------------------------------------------


def _stretches(
    paragraph: str, kinds: np.ndarray, documents: np.ndarray, t2s: bool
) -> list[Stretch]:
    """The stretches of one paragraph from its tokens' kinds."""
    if not paragraph:
        return []
    keys = kinds * (1 << 32) + documents
    if len(keys) == 0 or (keys == keys[0]).all():
        return [_stretch(0, len(paragraph), int(keys[0]) if len(keys) else _OWN)]
    bounds = _token_bounds(paragraph, len(keys), t2s)
    if bounds is None:  # the text does not map onto its tokens: the most common kind, whole
        values, counts = np.unique(keys, return_counts=True)
        return [_stretch(0, len(paragraph), int(values[np.argmax(counts)]))]
    chars = _character_keys(len(paragraph), keys, *bounds)
    if (kinds == _QUOTED).any():  # a quotation with set-apart tokens is shown whole, marks too
        for start, end in quotation_spans(paragraph, t2s):
            inside = chars[start:end]
            quoted = inside[inside >> 32 == _QUOTED]
            if len(quoted):
                chars[start:end] = quoted.max()
    cuts = np.r_[0, np.flatnonzero(chars[1:] != chars[:-1]) + 1, len(chars)]
    return [_stretch(int(a), int(b), int(chars[a])) for a, b in pairwise(cuts)]


def _stretch(start: int, end: int, key: int) -> Stretch:
    kind, documents = divmod(key, 1 << 32)
    if kind >= _SOURCE:
        return Stretch(start, end, COPIED, source=kind - _SOURCE)
    if kind == _QUOTED:
        return Stretch(start, end, QUOTED, found_in=documents - 1)
    return Stretch(start, end, _KINDS[kind], documents=documents if kind == _COMMON else 0)


def _character_keys(length: int, keys: np.ndarray, starts, ends) -> np.ndarray:
    """Per character, the key of its token; between two tokens of one key that key (the
    spaces and punctuation of a copied run), else own text; before the first token the
    first one's, after the last the last one's."""
    chars = np.full(length, _NO_TOKEN, np.int64)
    owner, k = ragged_arange(ends - starts)
    chars[starts[owner] + k] = keys[owner]
    known = chars != _NO_TOKEN
    if not known.any():
        return np.zeros(length, np.int64)
    positions = np.arange(length)
    before = np.maximum.accumulate(np.where(known, positions, -1))
    after = np.minimum.accumulate(np.where(known, positions, length)[::-1])[::-1]
    previous = np.where(before >= 0, chars[before.clip(min=0)], chars[after.clip(max=length - 1)])
    following = np.where(after < length, chars[after.clip(max=length - 1)], previous)
    gaps = ~known
    chars[gaps] = np.where(previous[gaps] == following[gaps], previous[gaps], _OWN)
    # a quotation ends at its marks (`quotation_spans`), not at the paragraph's full stop
    edges = gaps & ((before < 0) | (after >= length)) & (chars >> 32 == _QUOTED)
    chars[edges] = _OWN
    return chars


def _token_bounds(paragraph: str, count: int, t2s: bool) -> tuple[np.ndarray, ...] | None:
    """(start, end) arrays of the paragraph's `count` tokens in its characters, or None
    where its normalized text does not map back onto it."""
    norm = normalize_text(paragraph, traditional_to_simplified=t2s)
    source = None
    if len(norm) != len(paragraph):
        source = _sources(paragraph)
        if len(source) != len(norm):
            return None
    starts, ends, position = [], [], 0
    for word, _ in iter_tokens(norm):
        position = norm.index(word, position)
        starts.append(position)
        position += len(word)
        ends.append(position)
    if len(starts) != count:
        return None
    first, stop = np.array(starts, np.int64), np.array(ends, np.int64)
    if source is None:
        return first, stop
    return source[first], source[stop - 1] + 1


def _sources(text: str) -> np.ndarray:
    """Per character of `text` normalized one character (with its combining marks) at a
    time, the character of `text` it came from ("…" becomes "..." from one character)."""
    cuts = [k for k, c in enumerate(text) if k == 0 or not unicodedata.combining(c)]
    out: list[int] = []
    for start, end in pairwise([*cuts, len(text)]):
        out += [start] * len(_normalized(text[start:end]))
    return np.array(out, np.int64)


@lru_cache(maxsize=1 << 14)
def _normalized(character: str) -> str:
    return normalize_text(character)


def _paragraph_stretches(result, doc: int, sources: Sequence[int]) -> list[list[Stretch]]:
    """Without tokens: whole paragraphs in their first source's colour."""
    source_of: dict[int, int] = {}
    for number, source in enumerate(sources):
        for link in result.passages.links(doc, source):
            for paragraph in range(*link.paragraphs_a):
                source_of.setdefault(paragraph, number)
    out = []
    for i, paragraph in enumerate(result.documents[doc].paragraphs):
        kind = COPIED if i in source_of else OWN
        out.append([Stretch(0, len(paragraph), kind, source_of.get(i, -1))] if paragraph else [])
    return out
