"""Many documents' `MeaningSketch`es as one set of flat arrays, to keep them between scans:
a rescan sketches only the documents that changed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

import numpy as np
from simsift.core.match.meaning.sketch import MeaningSketch

# bump when `sketch` gives other arrays for the same text: kept sketches are then made again
SKETCH_VERSION = 1
_FIELDS = tuple(f.name for f in fields(MeaningSketch))


def pack_sketches(sketches: Sequence[MeaningSketch]) -> dict[str, np.ndarray]:
    """Each field of every sketch put end to end, with each sketch's length of it."""
    out = {}
    for name in _FIELDS:
        parts = [getattr(s, name) for s in sketches]
        out[f"{name}.lengths"] = np.array([len(p) for p in parts], np.int64)
        out[name] = np.concatenate(parts) if parts else np.zeros(0)
    return out


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
