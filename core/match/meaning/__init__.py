"""Copying whose words did not survive: paraphrased and translated passages.

`sketch` turns a document's paragraphs into sentences and their concepts (English stems;
Chinese words through CC-CEDICT to English stems), once per document. `align` finds the
fragments two documents share in meaning; `find_meaning_copies` does it for a
collection, aligning only the candidate pairs that share rare concepts
(`candidate_pairs`), with the collection's `document_frequencies`.

Example:
    >>> a = sketch(("The cat sat on the mat.",))
    >>> b = sketch(("猫坐在垫子上。",))
    >>> align(a, b)  # a sentence is far too short to be a copy
    ()
"""

from simsift.core.match.meaning.align import (
    PARAPHRASED,
    TRANSLATED,
    VERBATIM,
    AlignParameters,
    MeaningFragment,
    align,
    with_kind,
)
from simsift.core.match.meaning.candidates import CandidateParameters, candidate_pairs
from simsift.core.match.meaning.copies import find_meaning_copies
from simsift.core.match.meaning.frequencies import DocumentFrequencies, document_frequencies
from simsift.core.match.meaning.sketch import CHINESE, ENGLISH, MeaningSketch, sketch

__all__ = [
    "CHINESE",
    "ENGLISH",
    "PARAPHRASED",
    "TRANSLATED",
    "VERBATIM",
    "AlignParameters",
    "CandidateParameters",
    "DocumentFrequencies",
    "MeaningFragment",
    "MeaningSketch",
    "align",
    "candidate_pairs",
    "document_frequencies",
    "find_meaning_copies",
    "sketch",
    "with_kind",
]
