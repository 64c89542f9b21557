"""Each aligned pair's fragments kept between scans, so that a rescan aligns only the
pairs whose inputs changed.

`align` reads two documents' sketches and, from the collection, which of their sentences
are common text and the idf of the concepts it keeps: each word's own concept, and the
senses of a word that the other document holds (`vectors`): nothing else. When one of the
two is made of words that are their own one concept (English), every sense kept is one of
its words, so the idf of both documents' own concepts is all the pair reads; otherwise
(two Chinese documents) the idf of their senses counts too. A document's *alignment keys*
digest exactly those inputs (`own` and `whole`, with the alignment's parameters), so a
pair whose keys are unchanged aligns as it did, and its fragments are taken from the
last scan's (`KeptAlignments`). A document whose text changed, or whose concepts are now
held by more or fewer documents (or by a collection of another size), has new keys and
its pairs are aligned again: the result is always the one a fresh scan gives. (A Chinese
page holds the sense "edit" of 版本 "edition" whatever it says: keyed by all its
concepts, its pairs would be aligned again whenever a page gained or lost that word.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Protocol

import numpy as np
from simsift.core.match.meaning.align import (
    PARAPHRASED,
    TRANSLATED,
    AlignParameters,
    MeaningFragment,
)
from simsift.core.match.meaning.frequencies import DocumentFrequencies
from simsift.core.match.meaning.sketch import MeaningSketch
from simsift.core.match.meaning.vectors import one_concept_a_word

# bump when `align` gives other fragments for the same inputs: kept ones are then dropped
ALIGN_VERSION = 1
_KINDS = (PARAPHRASED, TRANSLATED)
_KEY_BYTES = 16


@dataclass(frozen=True, slots=True)
class KeptAlignments:
    """Pairs aligned by a scan and their fragments, as flat arrays.

    Pair p is the alignment of a document with key `left_keys[p]` (16 bytes) with one of
    key `right_keys[p]`, in that order; fragment f belongs to pair `pair[f]`, and its
    seeds are rows `seed_offsets[f]:seed_offsets[f + 1]` of `seeds` (sentence of A,
    sentence of B)."""

    left_keys: np.ndarray  # uint8, pairs x 16
    right_keys: np.ndarray  # uint8, pairs x 16
    pair: np.ndarray  # int64, one per fragment
    start_a: np.ndarray  # int64
    end_a: np.ndarray  # int64
    start_b: np.ndarray  # int64
    end_b: np.ndarray  # int64
    kind: np.ndarray  # uint8: index of `_KINDS`
    score: np.ndarray  # float64
    seed_offsets: np.ndarray  # int64, fragments + 1
    seeds: np.ndarray  # int64, seeds x 2

    @classmethod
    def of(
        cls,
        left_keys: np.ndarray,
        right_keys: np.ndarray,
        aligned: Sequence[tuple[MeaningFragment, ...]],
    ) -> KeptAlignments:
        """The pairs of keys `left_keys[p]`, `right_keys[p]` and the fragments
        `aligned[p]` their alignment gave (often none)."""
        frags = [(p, f) for p, found in enumerate(aligned) for f in found]
        seeds = [np.asarray(f.sentence_pairs, np.int64).reshape(-1, 2) for _, f in frags]

        def column(name: str, dtype) -> np.ndarray:
            return np.array([getattr(f, name) for _, f in frags], dtype)

        return cls(
            left_keys=np.asarray(left_keys, np.uint8).reshape(-1, _KEY_BYTES),
            right_keys=np.asarray(right_keys, np.uint8).reshape(-1, _KEY_BYTES),
            pair=np.array([p for p, _ in frags], np.int64),
            start_a=column("start_a", np.int64),
            end_a=column("end_a", np.int64),
            start_b=column("start_b", np.int64),
            end_b=column("end_b", np.int64),
            kind=np.array([_KINDS.index(f.kind) for _, f in frags], np.uint8),
            score=column("score", np.float64),
            seed_offsets=np.r_[0, np.cumsum([len(s) for s in seeds], dtype=np.int64)],
            seeds=np.concatenate(seeds) if seeds else np.zeros((0, 2), np.int64),
        )

    def __len__(self) -> int:
        return len(self.left_keys)

    def lookup(
        self, left_keys: np.ndarray, right_keys: np.ndarray
    ) -> list[tuple[MeaningFragment, ...] | None]:
        """For each pair of keys, its kept fragments, or None if it was not aligned."""
        row = {
            (bytes(a), bytes(b)): p
            for p, (a, b) in enumerate(zip(self.left_keys, self.right_keys, strict=True))
        }
        first = np.searchsorted(self.pair, np.arange(len(self) + 1))
        out: list[tuple[MeaningFragment, ...] | None] = []
        for a, b in zip(left_keys, right_keys, strict=True):
            p = row.get((bytes(a), bytes(b)))
            out.append(None if p is None else self._fragments(first[p], first[p + 1]))
        return out

    def _fragments(self, lo: int, hi: int) -> tuple[MeaningFragment, ...]:
        return tuple(
            MeaningFragment(
                start_a=int(self.start_a[f]),
                end_a=int(self.end_a[f]),
                start_b=int(self.start_b[f]),
                end_b=int(self.end_b[f]),
                kind=_KINDS[self.kind[f]],
                score=float(self.score[f]),
                sentence_pairs=tuple(
                    (int(x), int(y))
                    for x, y in self.seeds[self.seed_offsets[f] : self.seed_offsets[f + 1]]
                ),
            )
            for f in range(lo, hi)
        )

    def arrays(self) -> dict[str, np.ndarray]:
        """The fields by name (`core.files.save_arrays` stores them; `from_arrays` reads)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> KeptAlignments:
        """The alignments `arrays` holds; ValueError when they do not fit together."""
        try:
            kept = cls(**{f.name: arrays[f.name] for f in fields(cls)})
        except KeyError as error:
            raise ValueError(f"no {error} among the kept alignments") from error
        n, m = len(kept.left_keys), len(kept.pair)
        shapes_fit = kept.left_keys.shape == kept.right_keys.shape == (n, _KEY_BYTES)
        columns_fit = all(len(getattr(kept, f.name)) == m for f in fields(cls)[2:9])
        seeds_fit = len(kept.seed_offsets) == m + 1 and kept.seed_offsets[-1] == len(kept.seeds)
        ordered = not m or (np.all(np.diff(kept.pair) >= 0) and kept.pair[-1] < n)
        if not (shapes_fit and columns_fit and seeds_fit and ordered):
            raise ValueError("kept alignments of different lengths")
        return kept


class AlignmentStore(Protocol):
    """Where a scan finds the last scan's alignments and leaves its own (the comparison
    cache)."""

    def load(self) -> KeptAlignments | None: ...

    def store(self, kept: KeptAlignments) -> None: ...


def alignment_keys(
    sketches: Sequence[MeaningSketch],
    frequencies: DocumentFrequencies,
    parameters: AlignParameters,
    documents: np.ndarray,
    check: Callable[[], None] = lambda: None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The alignment keys of each of `documents` (rows of 16 bytes, in their order):
    `own`, a digest of its sketch, its common sentences and the idf of its words' own
    concepts; `whole`, of those and the idf of all its concepts; and whether its words are
    each their own one concept (`one_concept_a_word`). A pair with such a document reads
    only what `own` of each digests; any other pair `whole` of each (`pair_keys`). `check`
    is called between documents (it may raise `Cancelled`)."""
    settings = f"align {ALIGN_VERSION} {parameters!r}".encode()
    own = np.zeros((len(documents), _KEY_BYTES), np.uint8)
    whole = np.zeros((len(documents), _KEY_BYTES), np.uint8)
    fixed = np.zeros(len(documents), bool)
    for row, d in enumerate(documents.tolist()):
        check()
        x = sketches[d]
        digest = hashlib.blake2b(settings, digest_size=_KEY_BYTES)
        for value in x.arrays().values():
            digest.update(np.ascontiguousarray(value).tobytes())
            digest.update(len(value).to_bytes(8, "little"))
        digest.update(frequencies.common_sentences(x).tobytes())
        digest.update(frequencies.idf(x.word_hashes).tobytes())
        own[row] = np.frombuffer(digest.digest(), np.uint8)
        digest.update(b"senses")
        digest.update(frequencies.idf(x.concepts).tobytes())
        whole[row] = np.frombuffer(digest.digest(), np.uint8)
        fixed[row] = one_concept_a_word(x)
    return own, whole, fixed


def pair_keys(
    keys: tuple[np.ndarray, np.ndarray, np.ndarray], left: np.ndarray, right: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The keys of pairs (rows `left[p]`, `right[p]` of `alignment_keys`' answer) under
    which their alignments are kept."""
    own, whole, fixed = keys
    narrow = (fixed[left] | fixed[right])[:, None]
    return np.where(narrow, own[left], whole[left]), np.where(narrow, own[right], whole[right])
