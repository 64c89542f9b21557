"""Paraphrased and translated fragments of two documents (`align`)."""

import numpy as np
import pytest
from simsift.core.match.meaning import PARAPHRASED, TRANSLATED, align, find_meaning_copies, sketch

from .texts import OTHER, OTHER_CHINESE, PARAPHRASE, SAME_TOPIC, SOURCE, TRANSLATION


def _place(paragraphs: tuple[str, ...], passage: str) -> tuple[int, int]:
    start = "\n\n".join(paragraphs).index(passage)
    return start, start + len(passage)


def _overlap(span: tuple[int, int], other: tuple[int, int]) -> float:
    """The share of `other` that `span` covers."""
    return max(0, min(span[1], other[1]) - max(span[0], other[0])) / (other[1] - other[0])


def test_a_paraphrase_inside_other_text_is_found_and_placed():
    a_text, b_text = (OTHER, SOURCE, OTHER_CHINESE), (SAME_TOPIC, PARAPHRASE)
    (fragment,) = align(sketch(a_text), sketch(b_text))
    assert fragment.kind == PARAPHRASED
    assert _overlap((fragment.start_a, fragment.end_a), _place(a_text, SOURCE)) > 0.9
    assert _overlap((fragment.start_b, fragment.end_b), _place(b_text, PARAPHRASE)) > 0.9
    assert _overlap(_place(b_text, PARAPHRASE), (fragment.start_b, fragment.end_b)) > 0.9
    assert fragment.sentence_pairs == tuple(sorted(fragment.sentence_pairs))


@pytest.mark.parametrize("english_first", [True, False])
def test_a_translation_aligns_in_both_directions(english_first):
    english, chinese = (OTHER, SOURCE), (OTHER_CHINESE, TRANSLATION)
    a, b = (english, chinese) if english_first else (chinese, english)
    (fragment,) = align(sketch(a), sketch(b))
    assert fragment.kind == TRANSLATED
    on_a, on_b = (SOURCE, TRANSLATION) if english_first else (TRANSLATION, SOURCE)
    assert _overlap((fragment.start_a, fragment.end_a), _place(a, on_a)) > 0.7
    assert _overlap((fragment.start_b, fragment.end_b), _place(b, on_b)) > 0.7
    assert 0.0 < fragment.score <= 1.0


def test_documents_on_the_same_topic_share_nothing():
    assert align(sketch((SOURCE,)), sketch((SAME_TOPIC,))) == ()
    assert align(sketch((SOURCE, OTHER)), sketch((SAME_TOPIC, OTHER_CHINESE))) == ()


def test_a_bilingual_essay_is_no_copy_of_itself():
    bilingual = sketch((SOURCE, TRANSLATION, OTHER, OTHER_CHINESE))
    with pytest.raises(ValueError, match="itself"):
        align(bilingual, bilingual)
    assert find_meaning_copies([bilingual]) == []
    assert find_meaning_copies([bilingual, sketch((SAME_TOPIC,))]) == []


def test_the_english_half_of_a_bilingual_essay_is_a_copy_of_it():
    bilingual = sketch((SOURCE, TRANSLATION, OTHER))
    english = sketch((SAME_TOPIC, SOURCE))
    fragments = align(bilingual, english)
    assert fragments and fragments[0].start_a == 0
    assert all(f.start_b >= len(SAME_TOPIC) for f in fragments)


@pytest.mark.parametrize("with_frequencies", [True, False])
def test_a_document_ofone_concept_a_word_has_the_vectors_projection_gives(
    with_frequencies, monkeypatch
):
    """An English document's vectors are made once (`Prepared.fixed_vectors`); projecting
    it on each other document, as a Chinese one is, is their oracle."""
    from simsift.core.match.meaning import document_frequencies
    from simsift.core.match.meaning import vectors as v

    english = [sketch((SOURCE, OTHER, "Version 2019 of 12 pages.")), sketch((PARAPHRASE,))]
    others = [sketch((TRANSLATION, OTHER_CHINESE)), sketch((SAME_TOPIC, "猫坐在垫子上。"))]
    frequencies = document_frequencies(english + others) if with_frequencies else None
    pairs = [(a, b) for a in english for b in others + english if b is not a]
    assert all(v.one_concept_a_word(a) for a in english)
    got = [v.vector_pair(a, b, frequencies) for a, b in pairs]
    monkeypatch.setattr(v, "one_concept_a_word", lambda x: False)
    want = [v.vector_pair(a, b, frequencies) for a, b in pairs]
    for pair_got, pair_want in zip(got, want, strict=True):
        for g, w in zip(pair_got, pair_want, strict=True):
            for name in v.SentenceVectors.__slots__:
                assert np.array_equal(getattr(g, name), getattr(w, name)), name
