"""Many documents' `MeaningSketch`es as one set of flat arrays, to keep them between scans:
a rescan sketches only the documents that changed."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import fields

import numpy as np
from simsift.core.match.meaning.sketch import MeaningSketch

# bump when `sketch` gives other arrays for the same text: kept sketches are then made again
SKETCH_VERSION = 1
_FIELDS = tuple(f.name for f in fields(MeaningSketch))


def pack_sketches(sketches: Sequence[MeaningSketch]) -> Mapping[str, np.ndarray]:
    """Each field of every sketch put end to end, with each sketch's length of it. Each
    array is made when asked for, so that writing them one by one holds one field's copy
    at a time, not a second copy of every sketch (a bilingual archive's peak memory)."""
    return _Packed(sketches)


class _Packed(Mapping):
    def __init__(self, sketches: Sequence[MeaningSketch]) -> None:
        self._sketches = sketches
        self._names = [n for name in _FIELDS for n in (f"{name}.lengths", name)]

    def __getitem__(self, key: str) -> np.ndarray:
        if key not in self._names:
            raise KeyError(key)
        parts = [getattr(s, key.removesuffix(".lengths")) for s in self._sketches]
        if key.endswith(".lengths"):
            return np.array([len(p) for p in parts], np.int64)
        return np.concatenate(parts) if parts else np.zeros(0)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def unpack_sketches(arrays: dict[str, np.ndarray]) -> list[MeaningSketch]:
    """The sketches `pack_sketches` packed; ValueError when the arrays do not fit."""
    try:
        ends = {name: np.cumsum(arrays[f"{name}.lengths"]) for name in _FIELDS}
        data = {name: arrays[name] for name in _FIELDS}
    except KeyError as error:
        raise ValueError(f"no {error} among the packed sketches") from error
    counts = {len(e) for e in ends.values()}
    if len(counts) != 1 or any(len(e) and e[-1] != len(data[name]) for name, e in ends.items()):
        raise ValueError("packed sketches of different lengths")
    (n,) = counts
    starts = {name: np.r_[0, e[:-1]] if n else e for name, e in ends.items()}
    return [
        MeaningSketch(**{name: data[name][starts[name][i] : ends[name][i]] for name in _FIELDS})
        for i in range(n)
    ]
