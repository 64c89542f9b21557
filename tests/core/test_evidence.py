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


def test_rarest_shared_words_leave_out_short_words_stopwords_and_text_that_never_counts(
    tmp_path,
):
    """'am' and 'act' were shown as the rarest shared words: short words and stopwords say
    nothing, nor do words of quotations, the bibliography or the prompt (template text)."""
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan

    from tests.core.test_passages import english_paragraphs

    paragraphs = english_paragraphs()
    prompt = (
        "Describe the lighthousekeeping traditions of your hometown and explain how the "
        "harbour festivals changed over the last fifty years in at least three paragraphs."
    )
    (tmp_path / "prompt").mkdir()
    (tmp_path / "class").mkdir()
    (tmp_path / "prompt" / "prompt.txt").write_text(prompt, encoding="utf-8")
    copied = "The obfuscatory ledger was kept by the harbour master until the storm. " * 3
    for name, own in (("a", paragraphs[10:14]), ("b", paragraphs[20:24])):
        essay = [
            own[0],
            prompt,
            "I am going to act now.",
            f'As one critic put it, "the serendipitous marmalade of memory" {own[1]}',
            copied,
            *own[2:],
            "References",
            "Smith, J. (2001). Zanzibarian chronicles. Oxford: Oxford University Press.",
        ]
        (tmp_path / "class" / f"{name}.txt").write_text("\n\n".join(essay), encoding="utf-8")
    for i in range(3):
        text = "\n\n".join(paragraphs[40 + 4 * i : 44 + 4 * i])
        (tmp_path / "class" / f"other{i}.txt").write_text(text, encoding="utf-8")
    options = ScanOptions(
        roots=(str(tmp_path / "class"),),
        reference_roots=(str(tmp_path / "prompt"),),
        workers=0,
    )
    result = scan(options)
    doc = {d.path.rsplit("/", 1)[-1]: i for i, d in enumerate(result.documents)}
    a, b = result.documents[doc["a.txt"]], result.documents[doc["b.txt"]]
    rarity = TermRarity(result.documents, passages=result.passages)
    words = [word for word, _ in rarity.rarest_shared(a, b, count=500)]
    assert {"obfuscatory", "ledger"} <= set(words)  # the copied sentence's rare words
    never = {"am", "act", "now", "serendipitous", "marmalade", "memory", "zanzibarian"}
    never |= {"chronicles", "lighthousekeeping", "festivals", "traditions"}
    assert not never & set(words)
    assert all(len(word) >= 4 for word in words)
    # without the scan's passages, set-apart text and short words are still left out
    words = [word for word, _ in TermRarity(result.documents).rarest_shared(a, b, count=500)]
    assert not {"am", "act", "serendipitous", "zanzibarian"} & set(words)
    assert "lighthousekeeping" in words  # the prompt is known as such from the scan only
