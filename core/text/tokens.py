"""Tokenization: Chinese runs through jieba, Latin words and digit runs by regex.

Tokens are turned into stable 64-bit hashes (blake2b, identical across processes,
runs and platforms, unlike Python's `hash()`), so cached token streams can be
re-weighted later without re-reading or re-segmenting the text. Each body token also
gets a mark: own text, inside a quotation, in the bibliography (`core.text.quotations`),
or a printed page's chrome (as its reader says).
"""

from __future__ import annotations

import hashlib
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

import numpy as np
from simsift.core.text.normalize import normalize_text, normalize_texts
from simsift.core.text.quotations import (
    BIBLIOGRAPHY,
    CHROME,
    OWN_TEXT,
    QUOTATION,
    bibliography_ranges,
    find_quotations,
    may_hold_quotations,
)
from simsift.core.text.spacing import MIN_RUN_LETTERS, join_spaced_letters
from simsift.core.text.word_segmenter import cut_chinese

try:  # the tokenizer's loop in C (setup.py builds it where a compiler is)
    from simsift.core.text import token_loops
except ImportError:
    token_loops = None

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RUN = re.compile(
    rf"(?P<cjk>[{_CJK}]+)"
    r"|(?P<digit>\d+(?:[.,:/-]\d+)*)"
    rf"|(?P<word>[^\W\d_{_CJK}]+(?:['’][^\W\d_{_CJK}]+)*)"
)


def iter_tokens(text: str) -> Iterator[tuple[str, bool]]:
    """Yield (token, is_digit) from already-normalized text, in reading order; letters
    spaced out are joined into words first (`spacing`)."""
    for match in _TOKEN_RUN.finditer(join_spaced_letters(text)):
        kind = match.lastgroup
        if kind == "cjk":
            for word in cut_chinese(match.group()):
                yield word, False
        else:
            yield match.group(), kind == "digit"


def cut_as_hashed(text: str, hashes: np.ndarray) -> list[str] | None:
    """The tokens `iter_tokens` gives for normalized `text`, given their hashes as the
    reader stored them: a run of Chinese characters is cut where the hashes say, so jieba
    is not loaded (its dictionary takes a second); None when the hashes are not this
    text's (then `iter_tokens` cuts it)."""
    expected = np.asarray(hashes, np.uint64).tolist()
    words: list[str] = []
    for match in _TOKEN_RUN.finditer(join_spaced_letters(text)):
        if match.lastgroup != "cjk":
            words.append(match.group())
            continue
        run, at = match.group(), 0
        while at < len(run) and len(words) < len(expected):
            want = expected[len(words)]
            ends = range(at + 1, len(run) + 1)
            stop = next((end for end in ends if token_hash(run[at:end]) == want), None)
            if stop is None:
                return None
            words.append(run[at:stop])
            at = stop
        if at < len(run):
            return None
    same = len(words) == len(expected)
    return words if same and all(map(int.__eq__, map(token_hash, words), expected)) else None


def tokenize(text: str, *, traditional_to_simplified: bool = True) -> list[str]:
    """Normalized tokens of `text` (digits included)."""
    norm = normalize_text(text, traditional_to_simplified=traditional_to_simplified)
    return [token for token, _ in iter_tokens(norm)]


@lru_cache(maxsize=1 << 20)
def token_hash(token: str) -> int:
    """Stable 64-bit hash of a token: the first 8 bytes of blake2b, little-endian."""
    return int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest(), "little")


class _TokenHashes(dict):
    """token -> `token_hash(token)`, computed when first asked for: a hit through
    `__getitem__` is a dict lookup, cheaper than an lru_cache hit (no list to reorder)."""

    def __missing__(self, token: str) -> int:
        value = self[token] = token_hash.__wrapped__(token)
        return value


# Up to this many token hashes are remembered (about 150 MB at most, less than an lru_cache
# of as many), then forgotten all at once.
_HASHED_TOKENS = 1 << 20
_hashes = _TokenHashes()


def _token_hashes() -> _TokenHashes:
    """The remembered token hashes, emptied once there are more than `_HASHED_TOKENS`."""
    if len(_hashes) > _HASHED_TOKENS:
        _hashes.clear()
    return _hashes


def clear_token_cache() -> None:
    """Forget the remembered token hashes (benchmarks start from nothing)."""
    _hashes.clear()


def hash_tokens(tokens: Sequence[str]) -> np.ndarray:
    """Stable hashes of `tokens` as a uint64 array."""
    return np.fromiter((token_hash(t) for t in tokens), dtype=np.uint64, count=len(tokens))


@dataclass(frozen=True, slots=True)
class TokenStream:
    """Hashed tokens of one field (title or body) with paragraph starts.

    `para_starts[i]` is the index of the first token of paragraph i, so passages
    can be cut from the cached stream without tokenizing again. `marks[i]` says whose
    words token i is: `OWN_TEXT` (0), `QUOTATION` (1), `BIBLIOGRAPHY` (2) or `CHROME` (3)
    of `core.text.quotations`; all own text when not given (a title is never marked).
    `unbalanced_quotes` counts the quotation marks that open or close nothing.
    """

    hashes: np.ndarray  # uint64
    is_digit: np.ndarray  # bool
    para_starts: np.ndarray  # int32
    marks: np.ndarray | None = None  # uint8; never None once made (None: all own text)
    unbalanced_quotes: int = 0

    def __post_init__(self) -> None:
        if self.marks is None:
            object.__setattr__(self, "marks", np.zeros(len(self.hashes), np.uint8))
        elif len(self.marks) != len(self.hashes):
            raise ValueError(f"{len(self.marks)} marks for {len(self.hashes)} tokens")

    def __len__(self) -> int:
        return len(self.hashes)


@dataclass(frozen=True, slots=True)
class DocumentTokens:
    """The cached, re-weightable representation of a document."""

    title: TokenStream
    body: TokenStream


# Text is normalized and tokenized this many characters at a time: a 200 MB file costs
# bounded extra memory, not several copies of itself and a Python object per token.
CHUNK_CHARS = 1 << 20


def safe_pieces(texts: Iterable[str], chunk_chars: int = CHUNK_CHARS) -> Iterator[str]:
    """The concatenation of `texts`, in pieces of about `chunk_chars` characters cut only
    before an ASCII space, so each piece can be normalized and tokenized on its own.

    An ASCII space is never part of a token, cannot combine with the character before
    it (NFKC), and OpenCC's phrases hold none: normalizing or tokenizing the pieces one
    by one gives exactly what doing it to the whole text gives. Text without spaces
    (Chinese) runs on until the next space, however long.
    """
    buffer: list[str] = []
    size = 0
    for text in texts:
        pos = 0
        while True:
            cut = _space_to_cut_before(text, pos, chunk_chars - size, empty=not size)
            if cut < 0:
                buffer.append(text[pos:] if pos else text)
                size += len(text) - pos
                break
            buffer.append(text[pos:cut])
            yield "".join(buffer)
            buffer, size, pos = [], 0, cut
    if buffer:
        yield "".join(buffer)


def _space_to_cut_before(text: str, pos: int, room: int, *, empty: bool) -> int:
    """Index of the space in `text` after `pos` to end the current piece before: the last
    one within `room` characters, else the first one after them; -1 when the rest of the
    text fits in `room` or has no space. Never cuts an `empty` piece to nothing."""
    if len(text) - pos <= room:
        return -1
    lo = pos + 1 if empty else pos
    if room > 0:
        cut = text.rfind(" ", lo, pos + room + 1)
        if cut >= 0:
            return cut
    return text.find(" ", max(lo, pos + room + 1))


def token_stream(
    paragraphs: Sequence[str],
    *,
    traditional_to_simplified: bool = True,
    chunk_chars: int = CHUNK_CHARS,
    marks: bool = True,
    ocr: bool = False,
    chrome: Sequence[int] = (),
) -> TokenStream:
    """Tokenize and hash paragraphs into one stream, recording where each paragraph starts
    and, with `marks`, which tokens are quotation or bibliography (`ocr`: the text was read
    by OCR, its quotations judged as such, `find_quotations`), and the own text of the
    paragraphs numbered in `chrome` chrome.

    Paragraphs are normalized together, about `chunk_chars` at a time (`normalize_texts`:
    a Chinese text's short lines cost a call each otherwise), long ones in pieces of about
    `chunk_chars` (`safe_pieces`); hashes go straight into machine arrays, so memory stays
    near 10 bytes per token.
    Quotations are found in the normalized text and its tokens are cut at their marks,
    which no token holds: the tokens are those of the whole text. A paragraph longer
    than `chunk_chars` is searched piece by piece (a quotation across a cut is missed).
    """
    hashes = array("Q")
    digits = bytearray()
    starts = array("l")
    quoted = array("q")  # [start, stop) token ranges inside quotations, flat
    bibliography = bibliography_ranges(paragraphs) if marks else []
    listed = _paragraph_flags(len(paragraphs), bibliography)
    unbalanced = 0
    normalized = _normalized_pieces(paragraphs, traditional_to_simplified, chunk_chars)
    for number, (paragraph, norms) in enumerate(zip(paragraphs, normalized, strict=True)):
        starts.append(len(hashes))
        find = marks and not listed[number]
        whole = len(paragraph) <= chunk_chars
        for norm in norms:
            if find and may_hold_quotations(norm):
                unbalanced += _append_quoted_tokens(norm, whole, hashes, digits, quoted, ocr)
            else:
                _append_tokens(norm, hashes, digits)
    token_marks = _token_marks(len(hashes), quoted, bibliography, starts)
    if marks and len(chrome):
        _mark_chrome(token_marks, starts, chrome)
    return TokenStream(
        hashes=np.frombuffer(hashes, dtype=np.uint64),
        is_digit=np.frombuffer(digits, dtype=bool),
        para_starts=np.array(starts, dtype=np.int32),
        marks=token_marks,
        unbalanced_quotes=unbalanced,
    )


def _mark_chrome(marks: np.ndarray, starts: array, chrome: Sequence[int]) -> None:
    """Mark the own text of the paragraphs numbered in `chrome` CHROME (a quotation in a
    banner stays a quotation)."""
    bounds = np.r_[np.array(starts, dtype=np.int64), len(marks)]
    for number in chrome:
        piece = marks[bounds[number] : bounds[number + 1]]
        piece[piece == OWN_TEXT] = CHROME


def _normalized_pieces(
    paragraphs: Sequence[str], traditional_to_simplified: bool, chunk_chars: int
) -> Iterator[Sequence[str]]:
    """Per paragraph, its pieces (`safe_pieces`) normalized: paragraphs that are a piece
    each are normalized together, up to about `chunk_chars` at a time (`normalize_texts`:
    the same, in less time than a call each), a longer one piece by piece."""
    batch: list[str] = []
    size = 0
    for paragraph in paragraphs:
        if size + len(paragraph) > chunk_chars and batch:
            yield from zip(
                normalize_texts(batch, traditional_to_simplified=traditional_to_simplified)
            )
            batch, size = [], 0
        if len(paragraph) > chunk_chars:
            yield [
                normalize_text(piece, traditional_to_simplified=traditional_to_simplified)
                for piece in safe_pieces((paragraph,), chunk_chars)
            ]
        else:
            batch.append(paragraph)
            size += len(paragraph) + 1
    if batch:
        yield from zip(normalize_texts(batch, traditional_to_simplified=traditional_to_simplified))


def _paragraph_flags(count: int, ranges: list[tuple[int, int]]) -> bytearray:
    """One byte per paragraph, 1 inside `ranges`."""
    flags = bytearray(count)
    for first, stop in ranges:
        flags[first:stop] = b"\x01" * (stop - first)
    return flags


def _append_quoted_tokens(
    norm: str,
    whole_paragraph: bool,
    hashes: array,
    digits: bytearray,
    quoted: array,
    ocr: bool = False,
) -> int:
    """`_append_tokens` of normalized text, cut at its quotations, whose token ranges go to
    `quoted`; returns the count of unbalanced quotation marks. A quotation begins and ends
    with a mark that is no token character (a closing ’ never stands between letters), so
    no token crosses a cut and jieba sees the same Chinese runs. Letters spaced out are
    joined first: their quotation marks, spaced out too, would cut them into pieces too
    short to be joined."""
    norm = join_spaced_letters(norm)
    scan = find_quotations(norm, whole_paragraph=whole_paragraph, ocr=ocr)
    done = 0
    for start, end in scan.spans:
        _append_tokens(norm[done:start], hashes, digits)
        first = len(hashes)
        _append_tokens(norm[start:end], hashes, digits)
        if len(hashes) > first:
            quoted.extend((first, len(hashes)))
        done = end
    _append_tokens(norm[done:] if done else norm, hashes, digits)
    return scan.unbalanced


def _token_marks(
    count: int, quoted: array, bibliography: list[tuple[int, int]], starts: array
) -> np.ndarray:
    """Per token: QUOTATION inside the `quoted` token ranges, BIBLIOGRAPHY in the
    `bibliography` paragraph ranges, else own text."""
    marks = np.zeros(count, np.uint8)
    if quoted:
        ranges = np.frombuffer(quoted, dtype=np.int64).reshape(-1, 2)
        change = np.zeros(count + 1, np.int8)  # disjoint ranges: +1 at a start, -1 at a stop
        change[ranges[:, 0]] += 1
        change[ranges[:, 1]] -= 1
        marks[np.cumsum(change[:count], dtype=np.int8) > 0] = QUOTATION
    for first, stop in bibliography:
        marks[starts[first] : starts[stop] if stop < len(starts) else count] = BIBLIOGRAPHY
    return marks


def _append_tokens(norm: str, hashes: array, digits: bytearray) -> None:
    """`iter_tokens` of normalized text, hashed into the arrays: the same tokens, in less
    time. In C where it is built (`token_loops.text_tokens`: one pass, no list of tokens).
    Else by regular expressions (findall makes no match objects; 34 million tokens in a
    200 MB text): text without Chinese characters, nearly all, is matched by a pattern
    without them (by ASCII classes if ASCII) and its tokens hashed and flagged by `map`.

    Letters spaced out are seen as single-letter tokens in a row (`_has_single_letter_run`):
    only then is the text searched for them and tokenized again (a search of every text
    would cost as much as normalizing it)."""
    if token_loops is not None:  # the same tokens in one C pass; None: letters spaced out
        found = token_loops.text_tokens(norm, _token_hashes(), MIN_RUN_LETTERS, cut_chinese)
        if found is not None:
            hashes.frombytes(found[0])
            digits.extend(found[1])
            return
    ascii = norm.isascii()
    if not ascii and _HAS_CJK.search(norm):
        _append_mixed_tokens(norm, hashes, digits)
        return
    tokens = (_ASCII_TOKEN if ascii else _LATIN_TOKEN).findall(norm)
    if len(tokens) >= MIN_RUN_LETTERS and _has_single_letter_run(tokens):
        joined = join_spaced_letters(norm)
        if joined != norm:
            _append_tokens(joined, hashes, digits)
            return
    hashes.extend(map(_token_hashes().__getitem__, tokens))
    if ascii:
        digits.extend(map(_BEFORE_LETTERS, tokens))  # ASCII digits sort before letters
    else:
        digits.extend(map(str.isdecimal, map(_first, tokens)))  # no word starts with one


# `_TOKEN_RUN` for text without Chinese characters, and for ASCII text: the same tokens
# without empty groups, found in less time (an ASCII character class is a bitmap lookup).
_LATIN_TOKEN = re.compile(r"\d+(?:[.,:/-]\d+)*" rf"|[^\W\d_{_CJK}]+(?:['’][^\W\d_{_CJK}]+)*")
_ASCII_TOKEN = re.compile(r"[0-9]+(?:[.,:/-][0-9]+)*|[A-Za-z]+(?:'[A-Za-z]+)*")
_HAS_CJK = re.compile(f"[{_CJK}]")
_BEFORE_LETTERS = "A".__gt__
_first = itemgetter(0)
# MIN_RUN_LETTERS tokens of one character in a row, none a digit, in the tokens joined
# by NULs (no token holds one).
_SINGLE_LETTER_RUN = re.compile(r"\x00" + r"[^\d\x00]\x00" * MIN_RUN_LETTERS)


def _has_single_letter_run(tokens: list[str]) -> bool:
    """Whether MIN_RUN_LETTERS tokens in a row are one letter each (a digit is no letter):
    the trace of letters spaced out."""
    return _SINGLE_LETTER_RUN.search("\0" + "\0".join(tokens) + "\0") is not None


def _append_mixed_tokens(norm: str, hashes: array, digits: bytearray) -> None:
    """`_append_tokens` of text with Chinese characters, match by match: a Chinese run is
    cut into words, and a run of one character counts as a letter (spaced out, it is
    joined whole)."""
    first = len(hashes)
    token_hashes = _token_hashes()
    singles, run = 0, MIN_RUN_LETTERS  # single-letter tokens in a row; run: 0 once searched
    for cjk, digit, word in _TOKEN_RUN.findall(norm):
        if word:
            hashes.append(token_hashes[word])
            digits.append(False)
            if len(word) > 1:
                singles = 0
                continue
        elif digit:
            hashes.append(token_hashes[digit])
            digits.append(True)
            singles = 0
            continue
        else:
            words = cut_chinese(cjk)
            hashes.extend(map(token_hashes.__getitem__, words))
            digits.extend(bytes(len(words)))
            if len(cjk) > 1:
                singles = 0
                continue
        singles += 1
        if singles == run:
            joined = join_spaced_letters(norm)
            if joined != norm:
                del hashes[first:], digits[first:]
                _append_tokens(joined, hashes, digits)
                return
            run = 0


def document_tokens(
    title: str,
    paragraphs: Sequence[str],
    *,
    traditional_to_simplified: bool = True,
    ocr: bool = False,
    chrome: Sequence[int] = (),
) -> DocumentTokens:
    """Token streams of a document's title and body; only the body's tokens are marked
    (`ocr`: text read by OCR, its quotations judged as such; `chrome`: the numbers of the
    paragraphs that are a printed page's chrome)."""
    return DocumentTokens(
        title=token_stream(
            [title] if title else [],
            traditional_to_simplified=traditional_to_simplified,
            marks=False,
        ),
        body=token_stream(
            paragraphs,
            traditional_to_simplified=traditional_to_simplified,
            ocr=ocr,
            chrome=chrome,
        ),
    )
