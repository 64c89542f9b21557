"""Concepts of English words: stems of content words, hashed to stable 64-bit ints.

Both languages meet here: an English word of a text and an English word of a Chinese
word's dictionary glosses become the same concept when their Snowball stems agree
("arranged" in an essay, "to arrange" in CC-CEDICT's 整理).
"""

from __future__ import annotations

import hashlib
import threading
from functools import lru_cache

import snowballstemmer
from simsift.core.paths import resource_path

# Words of dictionary glosses that say how a word is used, not what it means.
_GLOSS_NOISE = frozenset(
    [
        "sth",
        "sb",
        "etc",
        "oneself",
        "one's",
        "someone",
        "somebody",
        "something",
        "used",
        "particle",
        "classifier",
        "abbr",
        "lit",
        "fig",
        "esp",
        "pr",
        "also",
        "see",
        "variant",
        "archaic",
        "dialect",
        "loanword",
        "slang",
        "coll",
        "idiom",
        "interjection",
        "onomatopoeia",
    ]
)

_local = threading.local()  # a Snowball stemmer keeps state between calls: one per thread


@lru_cache(maxsize=1)
def english_stopwords() -> frozenset[str]:
    """The bundled English stopwords (resources/stopwords/en.txt)."""
    return _read_words("en.txt")


@lru_cache(maxsize=1)
def chinese_stopwords() -> frozenset[str]:
    """The bundled Chinese stopwords (resources/stopwords/zh.txt)."""
    return _read_words("zh.txt")


@lru_cache(maxsize=1)
def gloss_stopwords() -> frozenset[str]:
    """Stopwords of dictionary glosses: English stopwords and words about usage."""
    return english_stopwords() | _GLOSS_NOISE


def _read_words(name: str) -> frozenset[str]:
    lines = resource_path("stopwords", name).read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and line[0] != "#")


@lru_cache(maxsize=1 << 18)
def stem(word: str) -> str:
    """The English Snowball stem of a lower-case word (remembered: Snowball in pure Python
    takes about 20 µs a word, and a text or the dictionary repeats its words)."""
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word)


def concept_hash(concept: str) -> int:
    """Stable 64-bit hash of a concept: the first 8 bytes of blake2b, little-endian."""
    digest = hashlib.blake2b(concept.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


class StemHashes(dict):
    """word -> hash of its stem's concept, computed when first asked for."""

    def __missing__(self, word: str) -> int:
        value = self[word] = concept_hash(stem(word))
        return value
