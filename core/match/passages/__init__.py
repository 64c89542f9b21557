"""Passages and partial copying: passage fingerprints, template text, containment.

Each document's body token stream is cut into passages along paragraph boundaries.
Every paragraph is a passage (one longer than `max_tokens` is cut into equal pieces),
and a paragraph shorter than `min_tokens` also starts a passage that runs on over the
following paragraphs until it holds `min_tokens` tokens, so passages overlap. Anchoring
passages at every paragraph start makes a copied run of paragraphs produce the same
passages in the copy as in the source wherever the run starts; merging paragraphs into
disjoint groups would not.

Every passage gets a SimHash fingerprint from the same features as whole documents
(computed for all passages at once on flat arrays), all passages go into one
`HammingIndex`, and passages of different documents within `max_distance` match.
SimHash of ~50 features is noisy (a few changed words move it 5-15 bits), so every
match is extended along its two documents: the passages around it, in both, are
compared at the looser `extend_distance`, and each new match is extended in turn
(seed and extend, as in sequence alignment). Work follows the matches, never the
product of two documents' passage counts.

Template text (passages matching a reference document) and common text (passages
found in many documents: licences, boilerplate, an unmarked prompt, site chrome)
never count. Containment(A in B) is the share of A's non-template tokens covered by
passages that match a passage of B; their overlap is the symmetric share
(matched_a + matched_b) / (tokens_a + tokens_b).

One module per job: `options` (`PassageOptions`), `cutting` (`Passages`, `cut_passages`),
`fingerprints`, `common` (template and common text), `matching` (seed and extend),
`overlaps` (containment, `PairOverlaps`), `result` (`PassageResult`), `reuse` (an earlier
result's passages and matches carried over) and `analyze` (`analyze_passages`, the whole).
"""

from simsift.core.match.passages.analyze import analyze_passages
from simsift.core.match.passages.common import CommonText, OutsideCounts, distinct_near, near_sum
from simsift.core.match.passages.cutting import Passages, cut_passages
from simsift.core.match.passages.fingerprints import passage_fingerprints
from simsift.core.match.passages.options import PassageOptions
from simsift.core.match.passages.overlaps import PairOverlaps, covered_mask, per_doc_sum
from simsift.core.match.passages.result import PassageResult

__all__ = [
    "CommonText",
    "OutsideCounts",
    "PairOverlaps",
    "PassageOptions",
    "PassageResult",
    "Passages",
    "analyze_passages",
    "covered_mask",
    "cut_passages",
    "distinct_near",
    "near_sum",
    "passage_fingerprints",
    "per_doc_sum",
]
