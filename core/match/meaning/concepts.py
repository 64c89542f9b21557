"""Concepts of sentences: each content word of a sentence as weighted concepts.

An English word (or any Latin-letter word, also inside Chinese text: names, terms) is one
concept, its stem, weight 1.0. A Chinese word (jieba's words, as the tokenizer cuts them)
is the English stems of its CC-CEDICT senses, weights adding up to 1.0; a word the
dictionary lacks is cut into the longest words it has (forward maximum matching), and a
character it lacks is a concept of its own. A number of `MIN_DIGITS` digits or more is
a concept ("#2019"): the same in both languages, a strong anchor. Stopwords of both
languages are left out. Every word also keeps a concept of its own (its stem, or the
Chinese word itself), which stands for it when none of its senses is in the other text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from simsift.core.match.meaning.dictionary import Dictionary, dictionary
from simsift.core.match.meaning.sentences import HAN
from simsift.core.match.meaning.stems import (
    StemHashes,
    chinese_stopwords,
    concept_hash,
    english_stopwords,
)
from simsift.core.text.normalize import normalize_texts
from simsift.core.text.word_segmenter import cut_chinese

MIN_DIGITS = 2  # a lone digit (list numbers, "1 of 3") anchors nothing
_TOKEN = re.compile(rf"(?P<han>[{HAN}]+)|(?P<digit>\d+(?:[.,]\d+)*)|(?P<word>[^\W\d_{HAN}]+)")
_HAN_CHAR = re.compile(f"[{HAN}]")
_MAX_REMEMBERED = 1 << 20  # word hashes remembered, then forgotten all at once
_stem_hashes = StemHashes()
_word_hashes: dict[str, int] = {}


@dataclass(slots=True)
class SentenceWords:
    """The words of sentences, built sentence by sentence, as flat arrays' lists."""

    word_offsets: list[int] = field(default_factory=lambda: [0])
    word_hashes: list[int] = field(default_factory=list)
    concept_offsets: list[int] = field(default_factory=lambda: [0])
    concepts: list[int] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    latin: list[int] = field(default_factory=list)  # Latin-letter words of each sentence
    han: list[int] = field(default_factory=list)  # Chinese characters of each sentence

    def add_word(self, own: int, concepts, weights) -> None:
        self.word_hashes.append(own)
        self.concepts.extend(concepts)
        self.weights.extend(weights)
        self.concept_offsets.append(len(self.concepts))

    def end_sentence(self, latin: int, han: int) -> None:
        self.word_offsets.append(len(self.word_hashes))
        self.latin.append(latin)
        self.han.append(han)


def sentence_words(texts: Sequence[str]) -> SentenceWords:
    """The words and concepts of each of `texts` (sentences as extracted: normalized
    here, Traditional Chinese made Simplified as the tokenizer does)."""
    if len(_stem_hashes) > _MAX_REMEMBERED:
        _stem_hashes.clear()
        _word_hashes.clear()
    found = SentenceWords()
    words = dictionary() if any(_has_han(t) for t in texts) else None
    english, chinese = english_stopwords(), chinese_stopwords()
    for text in normalize_texts(texts, traditional_to_simplified=True):
        latin = han = 0
        for match in _TOKEN.finditer(text):
            token, kind = match[0], match.lastgroup
            if kind == "word":
                latin += 1
                if len(token) > 1 and token not in english:
                    own = _stem_hashes[token]
                    found.add_word(own, (own,), (1.0,))
            elif kind == "digit":
                latin += 1
                digits = token.replace(",", "").replace(".", "")
                if len(digits) >= MIN_DIGITS:
                    own = _own_hash("#" + digits)
                    found.add_word(own, (own,), (1.0,))
            else:
                han += len(token)
                for word in cut_chinese(token):
                    if word not in chinese:
                        _add_chinese(found, word, words)
        found.end_sentence(latin, han)
    return found


def _add_chinese(found: SentenceWords, word: str, words: Dictionary) -> None:
    for piece in _dictionary_pieces(word, words):
        senses = words.lookup(piece)
        own = _own_hash(piece)
        if senses is None:
            found.add_word(own, (own,), (1.0,))
        else:
            found.add_word(own, senses[0].tolist(), senses[1].tolist())


def _dictionary_pieces(word: str, words: Dictionary) -> list[str]:
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


def _own_hash(word: str) -> int:
    value = _word_hashes.get(word)
    if value is None:
        value = _word_hashes[word] = concept_hash("=" + word)
    return value


def _has_han(text: str) -> bool:
    return _HAN_CHAR.search(text) is not None


def as_arrays(found: SentenceWords) -> dict[str, np.ndarray]:
    """The lists as numpy arrays, named as `MeaningSketch`'s fields."""
    return {
        "word_offsets": np.array(found.word_offsets, np.int64),
        "word_hashes": np.array(found.word_hashes, np.uint64),
        "concept_offsets": np.array(found.concept_offsets, np.int64),
        "concepts": np.array(found.concepts, np.uint64),
        "weights": np.array(found.weights, np.float32),
        "latin": np.array(found.latin, np.int32),
        "han": np.array(found.han, np.int32),
    }
