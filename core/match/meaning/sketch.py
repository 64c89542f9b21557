"""`MeaningSketch`: a document's sentences and their concepts, as numpy arrays.

Computed once per document from its paragraphs (`sketch`), independent of every other
document, so it can be cached beside the document's tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np
from simsift.core.match.meaning.concepts import sentence_words
from simsift.core.match.meaning.sentences import HAN_WEIGHT, sentence_spans

ENGLISH, CHINESE = 0, 1  # a sentence's language: mostly Latin-letter words, or Chinese


@dataclass(frozen=True, slots=True, eq=False)
class MeaningSketch:
    """Sentences of one document and the concepts of their words.

    Sentence i spans `starts[i]:ends[i]` of the display text (`"\\n\\n".join(paragraphs)`),
    is in `language[i]` (`ENGLISH` or `CHINESE`) and holds words
    `word_offsets[i]:word_offsets[i + 1]`; word w stands for concepts
    `concept_offsets[w]:concept_offsets[w + 1]` (stable 64-bit hashes, `weights` adding
    up to 1.0 per word) and has a concept of its own, `word_hashes[w]`. `latin` and `han`
    count each sentence's Latin-letter words and Chinese characters.
    """

    starts: np.ndarray  # int64
    ends: np.ndarray  # int64
    language: np.ndarray  # uint8
    latin: np.ndarray  # int32
    han: np.ndarray  # int32
    word_offsets: np.ndarray  # int64, sentences + 1
    word_hashes: np.ndarray  # uint64
    concept_offsets: np.ndarray  # int64, words + 1
    concepts: np.ndarray  # uint64
    weights: np.ndarray  # float32

    def __post_init__(self) -> None:
        n = len(self.starts)
        if not (len(self.ends) == len(self.language) == n and len(self.word_offsets) == n + 1):
            raise ValueError("a MeaningSketch's sentence arrays differ in length")
        if len(self.concept_offsets) != len(self.word_hashes) + 1 or len(self.concepts) != len(
            self.weights
        ):
            raise ValueError("a MeaningSketch's word or concept arrays differ in length")

    def __len__(self) -> int:
        return len(self.starts)

    @property
    def size(self) -> np.ndarray:
        """Each sentence's length in English word units (a Chinese character is
        `HAN_WEIGHT` of one)."""
        return self.latin + HAN_WEIGHT * self.han

    def arrays(self) -> dict[str, np.ndarray]:
        """The fields by name (`core.files.save_arrays` stores them; `from_arrays` reads)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> MeaningSketch:
        return cls(**{f.name: arrays[f.name] for f in fields(cls)})


def sketch(paragraphs: Sequence[str]) -> MeaningSketch:
    """The sentences and concepts of a document given as its paragraphs (as extracted).

    Example:
        >>> s = sketch(("Cats chase mice.", "猫追老鼠。"))
        >>> len(s), s.starts.tolist(), s.language.tolist()
        (2, [0, 18], [0, 1])
    """
    spans = sentence_spans(paragraphs)
    text = "\n\n".join(paragraphs)
    found = sentence_words([text[s:e] for s, e in spans])
    language = np.where(HAN_WEIGHT * found["han"] > found["latin"], CHINESE, ENGLISH)
    return MeaningSketch(
        starts=np.ascontiguousarray(spans[:, 0]),
        ends=np.ascontiguousarray(spans[:, 1]),
        language=language.astype(np.uint8),
        **found,
    )
