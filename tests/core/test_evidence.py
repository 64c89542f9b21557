"""Why two documents were paired: the measures shown for a pair agree with the scan's."""

from __future__ import annotations

import numpy as np
import pytest
from simsift.core.match.evidence import PairEvidence, TermRarity, _merged_runs
from simsift.core.text.tokens import token_hash, tokenize

from tests.core.test_similarity import collage  # noqa: F401  (a fixture)


def test_longest_shared_passage_is_the_copied_run(collage):  # noqa: F811
    result, doc = collage
    essay, source = doc["essay"], doc["source0"]
    evidence = PairEvidence.of(result, essay, source)
    assert evidence.shared_passages >= 1
    copied = result.documents[source].paragraphs[2:5]
    words = len(tokenize(" ".join(copied)))
    assert 0.8 * words <= evidence.longest_passage <= 1.2 * words
    assert words <= evidence.longest_run <= words + 2  # the three paragraphs, verbatim
    fps = result.fingerprints
    assert evidence.distance == int(np.bitwise_count(fps[essay] ^ fps[source]))
    assert (evidence.containment_ab, evidence.containment_ba) == result.overlap(essay, source)[:2]
    assert 0.08 < evidence.containment_ab < 0.2


def test_unrelated_documents_share_no_passage(collage):  # noqa: F811
    result, doc = collage
    evidence = PairEvidence.of(result, doc["essay"], doc["unrelated"])
    assert evidence.shared_passages == 0 and evidence.longest_passage == 0
    assert evidence.longest_run == 0
    assert evidence.containment_ab == evidence.containment_ba == 0.0


def test_rarest_shared_words_come_first_with_their_document_counts(collage):  # noqa: F811
    result, doc = collage
    rarity = TermRarity(result.documents)
    essay, source = result.documents[doc["essay"]], result.documents[doc["source1"]]
    terms = rarity.rarest_shared(essay, source, count=5)
    assert len(terms) == 5
    counts = [n for _, n in terms]
    assert counts == sorted(counts) and counts[0] == 2  # only these two documents use it
    for record in (essay, source):
        assert terms[0][0] in tokenize(" ".join(record.paragraphs))
    the = rarity.document_frequency(np.array([token_hash("the")], np.uint64))[0]
    assert the == len(result.documents)


@pytest.mark.parametrize(
    ("ranges", "runs"),
    [
        ([], []),
        ([(5, 9), (0, 3)], [(0, 3), (5, 9)]),
        ([(0, 4), (2, 6), (6, 8), (10, 12)], [(0, 8), (10, 12)]),
    ],
)
def test_overlapping_passages_merge_into_runs(ranges, runs):
    assert _merged_runs(ranges) == runs
