"""Concepts of sentences: each content word of a sentence as weighted concepts.

An English word (or any Latin-letter word, also inside Chinese text: names, terms) is one
concept, its stem, weight 1.0. A Chinese word (jieba's words, as the tokenizer cuts them)
is the English stems of its CC-CEDICT senses, weights adding up to 1.0; a word the
dictionary lacks is cut into the longest words it has (forward maximum matching), and a
character it lacks is a concept of its own. A number of `MIN_DIGITS` digits or more is
a concept ("#2019"): the same in both languages, a strong anchor. Stopwords of both
languages are left out. Every word also keeps a concept of its own (its stem, or the
Chinese word itself), which stands for it when none of its senses is in the other text.

Each distinct token (a Latin word, a number, a run of Chinese characters) is worked out
once per process (`TokenTable`); a document's arrays are then gathered from the table
with numpy, so a text costs about a regular expression and a dictionary lookup a token.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from itertools import chain

import numpy as np
from simsift.core.arrays import ragged_arange
from simsift.core.match.meaning.dictionary import Dictionary, dictionary
from simsift.core.match.meaning.sentences import HAN
from simsift.core.match.meaning.stems import (
    chinese_stopwords,
    concept_hash,
    english_stopwords,
    stem,
)
from simsift.core.text.normalize import normalize_texts
from simsift.core.text.word_segmenter import cut_chinese

MIN_DIGITS = 2  # a lone digit (list numbers, "1 of 3") anchors nothing
_TOKEN = re.compile(rf"[{HAN}]+|\d+(?:[.,]\d+)*|[^\W\d_{HAN}]+")
_MAX_REMEMBERED = 1 << 20  # tokens remembered, then forgotten all at once


class _Column:
    """A numpy array that grows at its end (capacity doubled: appends cost O(1) each)."""

    def __init__(self, dtype, first=()) -> None:
        self._buffer = np.zeros(max(16, len(first)), dtype)
        self._size = 0
        self.extend(first)

    def extend(self, values) -> None:
        need = self._size + len(values)
        if need > len(self._buffer):
            grown = np.zeros(max(need, 2 * len(self._buffer)), self._buffer.dtype)
            grown[: self._size] = self._buffer[: self._size]
            self._buffer = grown
        self._buffer[self._size : need] = values
        self._size = need

    def __len__(self) -> int:
        return self._size

    @property
    def array(self) -> np.ndarray:
        return self._buffer[: self._size]


class TokenTable(dict):
    """token -> entry: its Latin words and Chinese characters (for sentence sizes) and its
    words (`entry_words`); a word has a concept of its own and weighted concepts."""

    def __init__(self) -> None:
        super().__init__()
        self.latin, self.han = _Column(np.int32), _Column(np.int32)
        self.word_start, self.entry_words = _Column(np.int64, [0]), _Column(np.int64)
        self.own, self.concept_start = _Column(np.uint64), _Column(np.int64, [0])
        self.concepts, self.weights = _Column(np.uint64), _Column(np.float32)
        self.words: dict[str, int] = {}  # a word's key -> its place in `own`
        self.english, self.chinese = english_stopwords(), chinese_stopwords()

    def __missing__(self, token: str) -> int:
        if token[0].isdecimal():  # as `\d` sees digits
            digits = token.replace(",", "").replace(".", "")
            words = [self._word("#" + digits)] if len(digits) >= MIN_DIGITS else []
            return self._entry(token, 1, 0, words)
        if re.match(f"[{HAN}]", token) is None:
            words = [self._english(token)] if len(token) > 1 and token not in self.english else []
            return self._entry(token, 1, 0, words)
        words, found = [], dictionary()
        for word in cut_chinese(token):
            if word not in self.chinese:
                words.extend(self._chinese(piece, found) for piece in _pieces(word, found))
        return self._entry(token, 0, len(token), words)

    def _entry(self, token: str, latin: int, han: int, words: list[int]) -> int:
        entry = self[token] = len(self.latin)
        self.latin.extend((latin,))
        self.han.extend((han,))
        self.entry_words.extend(words)
        self.word_start.extend((len(self.entry_words),))
        return entry

    def _english(self, token: str) -> int:
        key = "e" + token
        if key not in self.words:
            own = concept_hash(stem(token))
            self._add_word(key, own, (own,), (1.0,))
        return self.words[key]

    def _word(self, word: str) -> int:
        """A word that is its own concept only (a number, a Chinese word not in CC-CEDICT)."""
        key = "=" + word
        if key not in self.words:
            own = concept_hash(key)
            self._add_word(key, own, (own,), (1.0,))
        return self.words[key]

    def _chinese(self, piece: str, found: Dictionary) -> int:
        key = "=" + piece
        if key not in self.words:
            senses = found.lookup(piece)
            if senses is None:
                return self._word(piece)
            self._add_word(key, concept_hash(key), *senses)
        return self.words[key]

    def _add_word(self, key: str, own: int, concepts, weights) -> None:
        self.words[key] = len(self.own)
        self.own.extend((own,))
        self.concepts.extend(concepts)
        self.weights.extend(weights)
        self.concept_start.extend((len(self.concepts),))


def _pieces(word: str, words: Dictionary) -> list[str]:
    """`word` if the dictionary has it, else the longest words it has, left to right."""
    if word in words.index or len(word) == 1:
        return [word]
    pieces, i = [], 0
    while i < len(word):
        for j in range(min(len(word), i + words.longest), i, -1):
            if j == i + 1 or word[i:j] in words.index:
                pieces.append(word[i:j])
                i = j
                break
    return pieces


_lock = threading.Lock()  # the table grows as documents are read, from any thread
_table = TokenTable()


def sentence_words(texts: Sequence[str]) -> dict[str, np.ndarray]:
    """The words and concepts of each of `texts` (sentences as extracted: normalized
    here, Traditional Chinese made Simplified as the tokenizer does), as numpy arrays
    named as `MeaningSketch`'s fields."""
    global _table
    normalized = normalize_texts(texts, traditional_to_simplified=True)
    tokens = [_TOKEN.findall(text) for text in normalized]
    counts = np.fromiter(map(len, tokens), np.int64, len(tokens))
    with _lock:
        if len(_table) > _MAX_REMEMBERED:
            _table = TokenTable()
        table = _table
        lookup = table.__getitem__  # an unseen token is worked out (`__missing__`)
        ids = np.array(list(map(lookup, chain.from_iterable(tokens))), np.int64)
        return _gathered(table, ids, np.repeat(np.arange(len(tokens)), counts), len(tokens))


def _gathered(table: TokenTable, ids: np.ndarray, sentence: np.ndarray, n: int) -> dict:
    latin = np.bincount(sentence, table.latin.array[ids], minlength=n).astype(np.int32)
    han = np.bincount(sentence, table.han.array[ids], minlength=n).astype(np.int32)
    starts = table.word_start.array[ids]
    token, k = ragged_arange(table.word_start.array[ids + 1] - starts)
    words = table.entry_words.array[starts[token] + k]
    per_sentence = np.bincount(sentence[token], minlength=n)
    starts = table.concept_start.array[words]
    sizes = table.concept_start.array[words + 1] - starts
    word, k = ragged_arange(sizes)
    at = starts[word] + k
    return {
        "word_offsets": np.r_[0, np.cumsum(per_sentence)].astype(np.int64),
        "word_hashes": table.own.array[words].copy(),
        "concept_offsets": np.r_[0, np.cumsum(sizes)].astype(np.int64),
        "concepts": table.concepts.array[at].copy(),
        "weights": table.weights.array[at].copy(),
        "latin": latin,
        "han": han,
    }
