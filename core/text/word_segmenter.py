"""jieba, with its dictionary loaded in short steps so other threads keep running.

jieba's own loader unmarshals its 500,000-entry prefix dictionary from one file in about
0.6 s, holding the GIL for up to 190 ms at a time: a window whose side-by-side view or scan
thread loads it freezes that long. Here the dictionary is cached in 16 parts, each loaded
in about 20 ms, and the whole load takes half the time (bench/jieba_load_bench.py). The
first load ever builds it from jieba's word list in pure Python (about 0.5 s,
interruptible) and writes the cache.

`cut_chinese` gives the words jieba's `lcut(run, HMM=True)` gives, in one pass over a run of
Chinese characters instead of jieba's three (word graph, best route, words).
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import re
import struct
import threading
from functools import lru_cache
from math import log
from pathlib import Path

import platformdirs
from simsift.core.files import atomic_write

_PARTS = 16
_FORMAT = 1  # bump when the file layout changes
_HEADER = struct.Struct("<4sII")  # magic, format, header length
_MAGIC = b"SSJB"

_lock = threading.Lock()
_jieba = None

# the prefix dictionary takes about 90 MB of memory once loaded
OUT_OF_MEMORY = "out of memory while loading the Chinese word dictionary (jieba, about 90 MB)"


def jieba_module():
    """jieba, imported and its dictionary loaded once per process, on first use."""
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                _load_dictionary(jieba.dt)
                _jieba = jieba
    return _jieba


# What jieba cuts with its word graph (`jieba.re_han_default` less the Latin letters, digits
# and signs, which a run of Chinese characters never holds); it passes other characters on
# one by one.
_JIEBA_HAN = re.compile("[\u4e00-\u9fd5]+")


# Clauses up to this long are remembered, the last this many of them (essays of a class
# share their clauses, a text its short ones): a few MB, some tens at worst.
_CACHED_RUN_CHARS = 32
_CACHED_RUNS = 1 << 14


def cut_chinese(run: str) -> tuple[str, ...]:
    """The words of a run of Chinese characters (a clause), exactly as jieba's
    `lcut(run, HMM=True)`; short runs are remembered.

    The best route is found from the run's end while its word graph is read (jieba builds
    the graph first and looks every word up again), each word's frequency looked up once;
    unknown words between dictionary words go to jieba's HMM as in jieba.
    """
    if len(run) <= _CACHED_RUN_CHARS:
        return _cut_short(run)
    return _cut(run)


def _cut(run: str) -> tuple[str, ...]:
    jieba = jieba_module()
    if len(run) == 1:
        return (run,)
    if not _JIEBA_HAN.fullmatch(run):
        return tuple(jieba.lcut(run, HMM=True))
    tokenizer = jieba.dt
    get = tokenizer.FREQ.get
    logtotal = log(tokenizer.total)
    n = len(run)
    score = [0.0] * (n + 1)
    route = list(range(n + 1))  # route[k]: last character of the best word from k
    for k in range(n - 1, -1, -1):
        best, end = None, k
        i, frequency = k, get(run[k])
        while frequency is not None:  # a word or the prefix of one (frequency 0)
            if frequency:
                # jieba takes the max of (score, end) pairs: a later end wins a tie
                candidate = log(frequency) - logtotal + score[i + 1]
                if best is None or candidate >= best:
                    best, end = candidate, i
            i += 1
            if i >= n:
                break
            frequency = get(run[k : i + 1])
        if best is None:  # no word starts here: the character alone, frequency 1
            best = log(1) - logtotal + score[k + 1]
        score[k], route[k] = best, end
    words: list[str] = []
    single = ""  # characters the route leaves alone, for jieba's HMM
    k = 0
    while k < n:
        stop = route[k] + 1
        if stop - k == 1:
            single += run[k]
        else:
            if single:
                words.extend(_singles(single, get))
                single = ""
            words.append(run[k:stop])
        k = stop
    if single:
        words.extend(_singles(single, get))
    return tuple(words)


_cut_short = lru_cache(maxsize=_CACHED_RUNS)(_cut)


def _singles(characters: str, get) -> tuple[str, ...] | str:
    """Words of characters jieba's route left alone: one character as it is, a dictionary
    word character by character, anything else cut by jieba's HMM."""
    if len(characters) == 1 or get(characters):
        return characters
    if len(characters) <= _CACHED_RUN_CHARS:
        return _hmm_cut(characters)
    return _hmm_words(characters)


def _hmm_words(characters: str) -> tuple[str, ...]:
    """jieba's HMM words of `characters`: names and other words not in the dictionary."""
    from jieba import finalseg

    return tuple(finalseg.cut(characters))


_hmm_cut = lru_cache(maxsize=_CACHED_RUNS)(_hmm_words)  # a text repeats its names


def _load_dictionary(tokenizer) -> None:
    """Fill a default jieba Tokenizer's prefix dictionary from the part cache."""
    with tokenizer.lock:
        if tokenizer.initialized:
            return
        with tokenizer.get_dict_file() as f:
            words = f.read()
        cache = cache_path(words)
        loaded = read_cache(cache)
        if loaded is None:
            try:
                loaded = tokenizer.gen_pfdict(_BytesLines(words))
            except MemoryError:
                loaded = None  # raised below, the half-built dictionary freed
            if loaded is None:
                raise MemoryError(OUT_OF_MEMORY)
            write_cache(cache, *loaded)
        tokenizer.FREQ, tokenizer.total = loaded
        tokenizer.initialized = True


def cache_path(words: bytes) -> Path:
    """Where the parts of the dictionary built from `words` are cached (keyed by content)."""
    digest = hashlib.blake2b(words, digest_size=8).hexdigest()
    folder = Path(platformdirs.user_cache_dir("SimSift", appauthor=False))
    return folder / f"jieba-{digest}-v{_FORMAT}.dict"


def write_cache(path: Path, freq: dict[str, int], total: int) -> None:
    """Write the dictionary in parts, atomically; a failure only costs speed later."""
    items = list(freq.items())
    step = -(-len(items) // _PARTS)
    parts = [marshal.dumps(dict(items[i : i + step])) for i in range(0, len(items), step)]
    header = marshal.dumps((total, [len(p) for p in parts]))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(path) as out:
            out.write(_HEADER.pack(_MAGIC, _FORMAT, len(header)))
            out.write(header)
            out.writelines(parts)
    except OSError as error:
        logging.getLogger(__name__).info("jieba dictionary cache not written: %s", error)


def read_cache(path: Path) -> tuple[dict[str, int], int] | None:
    """The cached (prefix dictionary, total), or None if missing or unreadable.

    Raises MemoryError saying what could not be loaded when memory runs out (building
    the dictionary instead would need as much), the parts read so far freed.
    """
    try:
        return _read_parts(path)
    except MemoryError:
        pass  # out of the except clause: the traceback no longer holds the parts read
    raise MemoryError(OUT_OF_MEMORY)


def _read_parts(path: Path) -> tuple[dict[str, int], int] | None:
    try:
        data = memoryview(path.read_bytes())
        magic, version, header_size = _HEADER.unpack_from(data)
        if magic != _MAGIC or version != _FORMAT:
            return None
        offset = _HEADER.size
        total, sizes = marshal.loads(data[offset : offset + header_size])
        offset += header_size
        freq: dict[str, int] = {}
        for size in sizes:  # one short GIL hold per part
            freq.update(marshal.loads(data[offset : offset + size]))
            offset += size
        return freq, total
    except (OSError, ValueError, EOFError, TypeError, struct.error):
        return None


class _BytesLines:
    """The lines of `data` as a binary file would yield them, for `Tokenizer.gen_pfdict`."""

    def __init__(self, data: bytes) -> None:
        self.name = "jieba dict.txt"
        self._lines = data.splitlines(keepends=True)

    def __iter__(self):
        return iter(self._lines)

    def close(self) -> None:
        pass
