"""Copying whose words did not survive: paraphrased and translated passages.

`sketch` turns a document's paragraphs into sentences and their concepts (English stems;
Chinese words through CC-CEDICT to English stems), `align` finds the fragments two
documents share in meaning, and `find_meaning_copies` does both for a collection, its
candidate pairs found from sentences' rare concepts (`candidate_pairs`).
"""

from simsift.core.match.meaning.sketch import CHINESE, ENGLISH, MeaningSketch, sketch

__all__ = ["CHINESE", "ENGLISH", "MeaningSketch", "sketch"]
