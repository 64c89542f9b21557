"""What a scan compared, kept beside the catalog so that a rescan compares only what changed.

- The whole comparison (document fingerprints, pairs, passages) is stored under a key
  made of every input that shapes it: a rescan with no file changed and the same
  settings loads it and compares nothing.
- The pair graphs of distinct fingerprints (documents at k_max, passages at their match
  distance) are kept too: after some files changed, only the new fingerprints are
  searched (`core.index.pair_graph`), and the result is the one a cold scan gives.
- So are each document's sentences and concepts (`sketches.arrays`) and each candidate
  pair's alignment by meaning (`alignments.arrays`, `core.match.meaning.kept`): a rescan
  sketches only the changed documents and aligns only pairs whose inputs changed.

Files are written atomically; a missing, stale or damaged file is recomputed, never an
error, and a cache that cannot be written (read-only folder, full disk) is skipped.
"""

from __future__ import annotations

import hashlib
import os
from collections import ChainMap
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
from simsift.core import __version__
from simsift.core.files import load_arrays, save_arrays
from simsift.core.index.matches import Matches
from simsift.core.index.pair_graph import PairGraph, PairSearch, search_pairs
from simsift.core.match.grams import CommonRuns, KeptGrams, SharedRuns
from simsift.core.match.meaning.kept import ALIGN_VERSION, KeptAlignments
from simsift.core.match.meaning.matches import MeaningMatches
from simsift.core.match.meaning.packed import SKETCH_VERSION, pack_sketches, unpack_sketches
from simsift.core.match.meaning.sketch import MeaningSketch
from simsift.core.match.passages import (
    CommonText,
    PairOverlaps,
    PassageOptions,
    PassageResult,
    Passages,
)

# bump when the engine's results change for the same inputs
# 9: shared runs, common runs, kept grams, left-out ranges (arrays stored by field name)
# 10: identical texts credited in full (same_text), archive documents sources only
# 11: a passage matched to one left out in its own document counts for neither
# 12: boilerplate (a short paragraph of its own at the start or end of 3+ documents) is common
# 13: paraphrased and translated fragments (`PassageResult.meaning`)
# 14: how many times each listed common run stands in the documents
RESULT_FORMAT = 14
KEEP_FOLDER_SETS = 8  # caches of the folder sets scanned most recently; older ones go
_PARTS = {
    "passages": Passages,
    "matches": Matches,
    "overlaps": PairOverlaps,
    "common_text": CommonText,
    "runs": SharedRuns,
    "common_runs": CommonRuns,
    "kept": KeptGrams,
    "meaning": MeaningMatches,
}


@dataclass(frozen=True)
class Previous:
    """The last scan's results, for reuse on the documents that did not change."""

    old_of: np.ndarray  # per document, its number in the last scan; -1 if new or changed
    fingerprints: np.ndarray  # the last scan's document fingerprints
    passages: PassageResult  # the last scan's passages


class ComparisonCache:
    """Comparison results of one set of scanned folders, in `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._read: dict[str, np.ndarray] | None = None  # comparison.arrays, read once

    @classmethod
    def beside(cls, catalog_path: str, roots: tuple[str, ...]) -> ComparisonCache | None:
        """The cache for these folders next to the catalog file (None for an in-memory one)."""
        if catalog_path == ":memory:" or not catalog_path:
            return None
        name = hashlib.blake2b("\0".join(sorted(roots)).encode("utf-8", "surrogateescape"))
        return cls(Path(catalog_path + ".cache") / name.hexdigest()[:24])

    def pair_search(
        self, name: str, from_scratch: PairSearch = search_pairs, *, reuse: bool = True
    ) -> PairSearch:
        """A pair search that starts from the graph kept under `name` and keeps the new one;
        without one, or with `reuse` False (values that are nearly all new: updating
        would cost more than searching), `from_scratch` searches."""

        def search(values, k, progress=None, cancel=None) -> Matches:
            path = self.folder / f"{name}-pairs.arrays"
            previous = PairGraph.load(path, k) if reuse else None
            if previous is None:
                graph = PairGraph.search(values, k, progress, cancel, from_scratch)
            else:
                graph = previous.update(values, progress, cancel)
            if cancel is not None:  # the search's last step and the write: a second each
                cancel.check()
            self._write(path, graph.save)
            return Matches(*graph.pairs())

        return search

    def load(self, key: bytes, options: PassageOptions):
        """(fingerprints, pairs, passages) stored under `key`, or None."""
        arrays = self._arrays()
        if arrays is None or bytes(arrays["key"]) != key:
            return None
        pairs = Matches(arrays["pairs.left"], arrays["pairs.right"], arrays["pairs.distance"])
        return arrays["fingerprints"], pairs, _passages_from(arrays, options)

    def previous(
        self, doc_ids: list[bytes], reuse_key: bytes, options: PassageOptions
    ) -> Previous | None:
        """What the last scan computed for the documents that did not change, when it
        fingerprinted them the same way (`reuse_key`); None otherwise."""
        arrays = self._arrays()
        if arrays is None or "reuse_key" not in arrays or bytes(arrays["reuse_key"]) != reuse_key:
            return None
        number = {row.tobytes(): i for i, row in enumerate(arrays["doc_ids"])}
        old_of = np.array([number.get(d, -1) for d in doc_ids], dtype=np.int64)
        return Previous(old_of, arrays["fingerprints"], _passages_from(arrays, options))

    def store(
        self,
        key: bytes,
        fingerprints: np.ndarray,
        pairs: Matches,
        passages: PassageResult,
        doc_ids: list[bytes],
        reuse_key: bytes,
    ) -> None:
        arrays = {"key": np.frombuffer(key, np.uint8), "fingerprints": fingerprints}
        arrays["reuse_key"] = np.frombuffer(reuse_key, np.uint8)
        arrays["doc_ids"] = _id_rows(doc_ids)
        arrays |= _flat("pairs", pairs)
        arrays |= _passages_flat(passages)

        self._write(self.folder / "comparison.arrays", lambda path: save_arrays(path, arrays))

    def sketches(self, doc_ids: list[bytes]) -> list[MeaningSketch | None]:
        """The last scan's sentences and concepts of each document that did not change
        (`MeaningSketch`), None for the others."""
        try:
            arrays = load_arrays(self.folder / "sketches.arrays")
            if bytes(arrays["key"]) != _sketch_key():
                raise ValueError("sketched by another version")
            stored = unpack_sketches(arrays)
            number = {row.tobytes(): i for i, row in enumerate(arrays["doc_ids"])}
        except (OSError, ValueError, EOFError, KeyError):
            return [None] * len(doc_ids)
        return [stored[number[d]] if d in number else None for d in doc_ids]

    def store_sketches(self, doc_ids: list[bytes], sketches: list[MeaningSketch]) -> None:
        key = {"doc_ids": _id_rows(doc_ids), "key": np.frombuffer(_sketch_key(), np.uint8)}
        arrays = ChainMap(key, pack_sketches(sketches))  # packed a field at a time
        self._write(self.folder / "sketches.arrays", lambda path: save_arrays(path, arrays))

    def alignment_store(self) -> AlignmentFile:
        """Where the meaning layer finds and keeps its pairs' alignments."""
        return AlignmentFile(self, self.folder / "alignments.arrays")

    def _arrays(self) -> dict[str, np.ndarray] | None:
        """The stored comparison, read at most once per cache object (`load` and then
        `previous` on a changed rescan would otherwise read it twice)."""
        if self._read is None:
            try:
                self._read = load_arrays(self.folder / "comparison.arrays")
            except (OSError, ValueError, EOFError):
                self._read = {}
        return self._read or None

    def _write(self, path: Path, write) -> None:
        try:
            os.makedirs(self.folder, exist_ok=True)
            write(path)
            for legacy in self.folder.glob("*.npz"):  # how earlier builds stored them
                legacy.unlink(missing_ok=True)
            _forget_old_folder_sets(self.folder.parent)
        except OSError:
            pass  # the cache only saves time; the scan's results are complete without it


@dataclass(frozen=True)
class AlignmentFile:
    """The alignments of the last scan's candidate pairs (`core.match.meaning.kept`'s
    `AlignmentStore`); a missing, stale or damaged file holds none."""

    cache: ComparisonCache
    path: Path

    def load(self) -> KeptAlignments | None:
        try:
            arrays = load_arrays(self.path)
            if bytes(arrays.pop("key")) != _alignments_key():
                return None
            return KeptAlignments.from_arrays(arrays)
        except (OSError, ValueError, EOFError, KeyError):
            return None

    def store(self, kept: KeptAlignments) -> None:
        arrays = {"key": np.frombuffer(_alignments_key(), np.uint8)} | kept.arrays()
        self.cache._write(self.path, lambda path: save_arrays(path, arrays))


def _forget_old_folder_sets(parent: Path) -> None:
    """Keep the caches of the `KEEP_FOLDER_SETS` folder sets written last (they are large)."""
    sets = sorted(parent.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in sets[KEEP_FOLDER_SETS:]:
        for file in old.iterdir():
            file.unlink()
        old.rmdir()


def _id_rows(ids: list[bytes]) -> np.ndarray:
    """Equal-length ids as one row of raw bytes each (numpy's "S" strings would drop
    trailing NUL bytes, and an id ending in one would never match again)."""
    width = len(ids[0]) if ids else 0
    return np.frombuffer(b"".join(ids), np.uint8).reshape(len(ids), width)


def comparison_key(parts: list[bytes]) -> bytes:
    """A digest of `parts`, the cache format and the SimSift version (a new release may
    compare differently, so it never reuses an older one's results)."""
    digest = hashlib.blake2b(f"{__version__} format {RESULT_FORMAT}".encode(), digest_size=24)
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.digest()


def _sketch_key() -> bytes:
    return comparison_key([f"sketches {SKETCH_VERSION}".encode()])


def _alignments_key() -> bytes:
    return comparison_key([f"alignments {ALIGN_VERSION}".encode()])


def _flat(prefix: str, value) -> dict[str, np.ndarray]:
    return {f"{prefix}.{f.name}": getattr(value, f.name) for f in fields(value)}


def _passages_flat(result: PassageResult) -> dict[str, np.ndarray]:
    out = {}
    for f in fields(result):
        value = getattr(result, f.name)
        if f.name in _PARTS:
            out |= _flat(f"p.{f.name}", value)
        elif isinstance(value, np.ndarray):
            out[f"p.{f.name}"] = value
    return out


def _passages_from(arrays: dict[str, np.ndarray], options: PassageOptions) -> PassageResult:
    values = {"options": options}
    for f in fields(PassageResult):
        if f.name in _PARTS:
            cls = _PARTS[f.name]
            values[f.name] = cls(*(arrays[f"p.{f.name}.{g.name}"] for g in fields(cls)))
        elif f.name != "options":
            values[f.name] = arrays[f"p.{f.name}"]
    return PassageResult(**values)
