"""jieba, with its dictionary loaded in short steps so other threads keep running.

jieba's own loader unmarshals its 500,000-entry prefix dictionary from one file in about
0.6 s, holding the GIL for up to 190 ms at a time: a window whose side-by-side view or scan
thread loads it freezes that long. Here the dictionary is cached in 16 parts, each loaded
in about 20 ms, and the whole load takes half the time (bench/jieba_load_bench.py). The
first load ever builds it from jieba's word list in pure Python (about 0.5 s,
interruptible) and writes the cache.

`cut_chinese` gives the words jieba's `lcut(run, HMM=True)` gives. Its word graph and best
route, half of its time in Python (a dictionary lookup per fragment), are rjieba's (jieba-rs,
Rust): an empty rjieba segmenter is filled with jieba's own words and frequencies from the
part cache (about 0.45 s of CPU, a word per call, so interruptible; 30 MB instead of the
63 MB of jieba's prefix dictionary, which is then not loaded at all), and asked for its
route without HMM: the same sums in the same order and the same tie rule as jieba, seven
times as fast (bench/tokens_bench.py cut, load; docs/benchmarks.md, 2026-11-26k). The
characters the route leaves alone go, as in jieba, to jieba's HMM, in Python with jieba's
own probabilities (rjieba's HMM rounds them to six decimals), Viterbi unrolled for the four
states (five times as fast as jieba's, the same words). Without rjieba the graph and route
are built here in one pass from jieba's prefix dictionary.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import logging
import marshal
import mmap
import re
import struct
import sys
import threading
from collections.abc import Iterator
from functools import lru_cache
from itertools import accumulate
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
_graph = None  # rjieba's segmenter with jieba's words, or None (no rjieba): jieba's dictionary

# jieba's words take about 30 MB of memory in rjieba, its prefix dictionary about 90 MB
OUT_OF_MEMORY = "out of memory while loading the Chinese word dictionary (jieba, 30 to 90 MB)"


def jieba_module():
    """jieba, imported and the dictionary `cut_chinese` reads loaded once per process, on
    first use: rjieba's segmenter filled with jieba's words, or without rjieba jieba's own
    prefix dictionary (`jieba_tokenizer` loads that one when it is needed)."""
    global _jieba, _graph
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                graph = _new_word_graph()
                if graph is None:
                    _load_dictionary(jieba.dt)
                else:
                    graph = _fill_word_graph(graph, jieba.dt)
                _graph = graph
                _jieba = jieba
    return _jieba


def jieba_tokenizer():
    """jieba's default Tokenizer with its prefix dictionary loaded (from the part cache):
    for text that is not only Chinese characters, and the word graph without rjieba."""
    tokenizer = jieba_module().dt
    _load_dictionary(tokenizer)
    return tokenizer


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

    jieba's best route through its word graph comes from rjieba (`_cut_in_python` without
    it); unknown words between dictionary words go to jieba's HMM as in jieba.
    """
    if len(run) <= _CACHED_RUN_CHARS:
        return _cut_short(run)
    return _cut(run)


def _cut(run: str) -> tuple[str, ...]:
    jieba_module()
    if len(run) == 1:
        return (run,)
    if not _JIEBA_HAN.fullmatch(run):
        return _cut_other(run)
    graph = _graph
    if graph is None:
        return _cut_in_python(run)
    route = graph.cut(run, False)  # jieba's best route: its words, characters alone
    try:
        lengths = bytes(map(len, route))
    except ValueError:  # a word of 256 characters or more
        lengths = bytes(1 if len(word) == 1 else 2 for word in route)
    if b"\x01\x01" not in lengths:  # no two characters alone in a row: as they are
        return tuple(route)
    words: list[str] = []
    done = 0
    for stretch in _ALONE.finditer(lengths):  # for jieba's HMM, as jieba joins them
        start, stop = stretch.span()
        words += route[done:start]
        words += _singles("".join(route[start:stop]), graph.has_word)
        done = stop
    words += route[done:]
    return tuple(words)


_ALONE = re.compile(b"\x01{2,}")  # characters the route leaves alone, two or more


# tokens' Chinese characters (`tokens._CJK`), which jieba's `cut` passes on one by one
# where its word graph does not take them (`_JIEBA_HAN`)
_CHINESE_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_JIEBA_HAN_BLOCKS = re.compile("([\u4e00-\u9fd5]+)")


def _cut_other(run: str) -> tuple[str, ...]:
    """jieba's `lcut(run, HMM=True)` of a run that is not all `_JIEBA_HAN`: for Chinese
    characters only, its blocks of `_JIEBA_HAN` cut as such and the other characters one by
    one, as jieba does; anything else by jieba itself."""
    if not _CHINESE_RUN.fullmatch(run):
        return tuple(jieba_tokenizer().lcut(run, HMM=True))
    words: list[str] = []
    for block in _JIEBA_HAN_BLOCKS.split(run):
        if _JIEBA_HAN.fullmatch(block):
            words.extend(_cut(block))
        else:
            words.extend(block)
    return tuple(words)


def _cut_in_python(run: str) -> tuple[str, ...]:
    """`_cut` of a run of `_JIEBA_HAN` with jieba's prefix dictionary, without rjieba.

    The best route is found from the run's end while its word graph is read (jieba builds
    the graph first and looks every word up again), each word's frequency looked up once.
    """
    tokenizer = jieba_tokenizer()
    get = tokenizer.FREQ.get
    weights = _word_weights(tokenizer.total)
    alone = weights[1]  # a character that starts no word counts as frequency 1
    n = len(run)
    score = [0.0] * (n + 1)
    route = list(range(n + 1))  # route[k]: last character of the best word from k
    for k in range(n - 1, -1, -1):
        frequency = get(run[k])
        if frequency is None:  # no word starts here: the character alone
            score[k] = alone + score[k + 1]
            continue
        best, end, i = _NO_WORD, k, k
        while True:  # a word or the prefix of one (frequency 0)
            if frequency:
                # jieba takes the max of (score, end) pairs: a later end wins a tie
                candidate = weights[frequency] + score[i + 1]
                if candidate >= best:
                    best, end = candidate, i
            i += 1
            if i == n:
                break
            frequency = get(run[k : i + 1])
            if frequency is None:
                break
        if best == _NO_WORD:  # only the prefix of a word starts here
            best = alone + score[k + 1]
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


_NO_WORD = float("-inf")


class _WordWeights(dict):
    """frequency -> log(frequency) - log(total), the weight jieba gives a word, computed
    when first asked for (a dict lookup costs less than the logarithm)."""

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total
        self.logtotal = log(total)

    def __missing__(self, frequency: int) -> float:
        value = self[frequency] = log(frequency) - self.logtotal
        return value


_weights = _WordWeights(1)


def _word_weights(total: int) -> _WordWeights:
    """The word weights of a dictionary of `total`, the last one's kept."""
    global _weights
    if _weights.total != total:
        _weights = _WordWeights(total)
    return _weights


_cut_short = lru_cache(maxsize=_CACHED_RUNS)(_cut)


def _singles(characters: str, get) -> tuple[str, ...] | str:
    """Words of characters jieba's route left alone: one character as it is, a dictionary
    word character by character, anything else cut by jieba's HMM. `get(word)` is true for
    a word of nonzero frequency."""
    if len(characters) == 1 or get(characters):
        return characters
    if len(characters) <= _CACHED_RUN_CHARS:
        return _hmm_cut(characters)
    return _hmm_words(characters)


def _hmm_words(characters: str) -> tuple[str, ...]:
    """jieba's HMM words of `characters`: names and other words not in the dictionary."""
    from jieba import finalseg

    if finalseg.Force_Split_Words or not _JIEBA_HAN.fullmatch(characters):
        return tuple(finalseg.cut(characters))
    states = _hmm_states(characters, _hmm_model(finalseg))
    words: list[str] = []
    begin = done = 0
    for i, state in enumerate(states):  # as jieba's finalseg.__cut reads them
        if state == _B:
            begin = i
        elif state == _E:
            words.append(characters[begin : i + 1])
            done = i + 1
        elif state == _S:
            words.append(characters[i])
            done = i + 1
    if done < len(characters):
        words.append(characters[done:])
    return tuple(words)


_B, _M, _E, _S = range(4)


@lru_cache(maxsize=1)
def _hmm_model(finalseg) -> tuple:
    """jieba's HMM as `_hmm_states` reads it: the start weights of B, M, E, S, the emission
    tables' `get`, and the weights of the eight transitions jieba's Viterbi looks at."""
    start, trans, emit = finalseg.start_P, finalseg.trans_P, finalseg.emit_P
    low = finalseg.MIN_FLOAT

    def t(a: str, b: str) -> float:
        return trans[a].get(b, low)

    return (
        tuple(start[y] for y in "BMES"),
        tuple(emit[y].get for y in "BMES"),
        (t("E", "B"), t("S", "B"), t("M", "M"), t("B", "M")),
        (t("B", "E"), t("M", "E"), t("S", "S"), t("E", "S")),
        low,
    )


def _hmm_states(characters: str, model: tuple) -> list[int]:
    """The B/M/E/S states of jieba's `finalseg.viterbi` for `characters`: the same sums
    in the same order, and its ties broken as its max of (weight, state) pairs breaks
    them (the later letter wins: S over E, M over B), unrolled for its four states."""
    (sB, sM, sE, sS), (gB, gM, gE, gS), (EB, SB, MM, BM), (BE, ME, SS, ES), low = model
    c = characters[0]
    vB, vM, vE, vS = sB + gB(c, low), sM + gM(c, low), sE + gE(c, low), sS + gS(c, low)
    back = []
    for c in characters[1:]:
        em = gB(c, low)
        e, s = vE + EB + em, vS + SB + em
        nB, fB = (s, _S) if s >= e else (e, _E)
        em = gM(c, low)
        m, b = vM + MM + em, vB + BM + em
        nM, fM = (m, _M) if m >= b else (b, _B)
        em = gE(c, low)
        b, m = vB + BE + em, vM + ME + em
        nE, fE = (m, _M) if m >= b else (b, _B)
        em = gS(c, low)
        s, e = vS + SS + em, vE + ES + em
        nS, fS = (s, _S) if s >= e else (e, _E)
        back.append((fB, fM, fE, fS))
        vB, vM, vE, vS = nB, nM, nE, nS
    state = _S if vS >= vE else _E
    states = [state]
    for pointers in reversed(back):
        state = pointers[state]
        states.append(state)
    states.reverse()
    return states


_hmm_cut = lru_cache(maxsize=_CACHED_RUNS)(_hmm_words)  # a text repeats its names


def _new_word_graph():
    """An empty rjieba segmenter (jieba-rs: jieba's word graph and route in Rust), or None
    without rjieba.

    Importing the rjieba package builds a segmenter of rjieba's own copy of jieba's words
    (0.17 s in one hold of the GIL, 32 MB) that is never used here: its extension module is
    loaded alone when it can be found, the package imported otherwise.
    """
    name = "rjieba.rjieba"
    module = sys.modules.get(name)
    if module is None:
        try:
            package = importlib.util.find_spec("rjieba")
            spec = importlib.machinery.PathFinder.find_spec(
                name, package.submodule_search_locations
            )
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            sys.modules[name] = module
        except (ImportError, AttributeError, TypeError, OSError):
            try:
                import rjieba as module  # the package, its segmenter too
            except ImportError:
                return None
    return module.Jieba.empty()


def _fill_word_graph(graph, tokenizer):
    """`graph` (or a new one, if the cache was damaged midway) with the words of nonzero
    frequency of a default jieba Tokenizer's dictionary and its total, from the part cache,
    a part at a time (jieba's prefix dictionary is never held whole)."""
    with tokenizer.get_dict_file() as f:
        words = f.read()
    cache = cache_path(words)
    try:
        _check_headroom()
        if _fill_from_cache(cache, graph):
            return graph
        graph = _new_word_graph()
        loaded = tokenizer.gen_pfdict(_BytesLines(words))
        if loaded is not None:
            write_cache(cache, *loaded)
            freq, total = loaded
            del loaded
            _check_headroom()
            _add_total(graph, total, _add_words(graph, freq))
            return graph
    except MemoryError:
        pass  # raised below, the half-built dictionary freed
    raise MemoryError(OUT_OF_MEMORY)


# Address space filling the segmenter takes at its peak: the cache file, a part, rjieba's
# arrays as they grow (52 MB measured; 33 MB kept). Rust ends the process where it cannot
# allocate, where Python raises MemoryError: under a memory limit (a reader's) that room
# is mapped first, untouched, and unmapped.
_FILL_HEADROOM = 80 << 20


def _check_headroom() -> None:
    try:
        mmap.mmap(-1, _FILL_HEADROOM).close()
    except OSError as error:
        raise MemoryError(OUT_OF_MEMORY) from error


def _fill_from_cache(path: Path, graph) -> bool:
    """Add the cached dictionary's words to `graph`; False if the cache is missing or
    unreadable (`graph` may then hold some of them)."""
    try:
        opened = _cached_parts(path)
        if opened is None:
            return False
        total, parts = opened
        added = sum(_add_words(graph, part) for part in parts)  # a word per call
        _add_total(graph, total, added)
        return True
    except _UNREADABLE:
        return False


def _add_words(graph, freq: dict[str, int]) -> int:
    """Add the words of nonzero frequency of `freq` (prefixes of words are 0) to `graph`;
    the sum of their frequencies."""
    add = graph.add_word
    added = 0
    for word, frequency in freq.items():
        if frequency:
            add(word, frequency, None)
            added += frequency
    return added


# A word no run of `_JIEBA_HAN` holds: jieba's total counts the frequencies of the words
# its word list repeats (dict.txt: 3 more than its dictionary's sum), rjieba's only its
# words'. This word makes up the difference, so both weigh a word alike.
_MAKEWEIGHT = "\x00"


def _add_total(graph, total: int, added: int) -> None:
    if total > added:
        graph.add_word(_MAKEWEIGHT, total - added, None)


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
        opened = _cached_parts(path)
        if opened is None:
            return None
        total, parts = opened
        freq: dict[str, int] = {}
        for part in parts:
            freq.update(part)
        return freq, total
    except _UNREADABLE:
        return None


_UNREADABLE = (OSError, ValueError, EOFError, TypeError, struct.error)


def _cached_parts(path: Path) -> tuple[int, Iterator[dict[str, int]]] | None:
    """(total, the cache's parts, each read when reached: one short GIL hold a part), or
    None for a cache of another format; raises one of `_UNREADABLE` for a damaged one."""
    data = memoryview(path.read_bytes())
    magic, version, header_size = _HEADER.unpack_from(data)
    if magic != _MAGIC or version != _FORMAT:
        return None
    offset = _HEADER.size
    total, sizes = marshal.loads(data[offset : offset + header_size])
    starts = list(accumulate(sizes, initial=offset + header_size))[:-1]
    parts = (marshal.loads(data[at : at + size]) for at, size in zip(starts, sizes, strict=True))
    return total, parts


class _BytesLines:
    """The lines of `data` as a binary file would yield them, for `Tokenizer.gen_pfdict`."""

    def __init__(self, data: bytes) -> None:
        self.name = "jieba dict.txt"
        self._lines = data.splitlines(keepends=True)

    def __iter__(self):
        return iter(self._lines)

    def close(self) -> None:
        pass
