"""jieba, with its dictionary loaded in short steps so other threads keep running.

jieba's own loader unmarshals its 500,000-entry prefix dictionary from one file in about
0.6 s, holding the GIL for up to 190 ms at a time: a window whose side-by-side view or scan
thread loads it freezes that long. Here the dictionary is cached in 16 parts, each loaded
in about 20 ms, and the whole load takes half the time (bench/jieba_load_bench.py). The
first load ever builds it from jieba's word list in pure Python (about 0.5 s,
interruptible) and writes the cache.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import struct
import threading
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
