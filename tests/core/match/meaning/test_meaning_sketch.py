"""Sentences and concepts of a document (`simsift.core.match.meaning.sketch`)."""

import numpy as np
from simsift.core.match.meaning import CHINESE, ENGLISH, MeaningSketch, concepts, sketch
from simsift.core.match.meaning.sentences import HAN_WEIGHT, MAX_SIZE

from .texts import SOURCE, TRANSLATION


def test_spans_are_sentences_of_the_display_text():
    paragraphs = (SOURCE, TRANSLATION, "  Spaces around.  ")
    text = "\n\n".join(paragraphs)
    s = sketch(paragraphs)
    pieces = [text[a:b] for a, b in zip(s.starts, s.ends, strict=True)]
    assert pieces[0].startswith("Glaciers in the Alps") and pieces[0].endswith("century.")
    assert pieces[5] == "自十九世纪中叶以来，阿尔卑斯山的冰川已经失去了一半以上的体积。"
    assert pieces[-1] == "Spaces around."
    assert np.all(s.starts[1:] >= s.ends[:-1]) and np.all(s.starts < s.ends)
    assert s.language.tolist() == [ENGLISH] * 5 + [CHINESE] * 5 + [ENGLISH]


def test_weights_of_each_word_add_up_to_one():
    s = sketch((SOURCE, TRANSLATION))
    sums = np.add.reduceat(s.weights, s.concept_offsets[:-1])
    assert np.allclose(sums, 1.0, atol=1e-5)


def test_english_and_chinese_words_meet_in_concepts():
    english, chinese = sketch(("Glaciers melt.",)), sketch(("冰川融化。",))
    assert set(english.concepts.tolist()) <= set(chinese.concepts.tolist())


def test_traditional_chinese_gives_the_concepts_of_simplified():
    assert (
        sketch(("冰川融化得很快。",)).concepts.tolist()
        == sketch(("冰川融化得很快。",)).concepts.tolist()
    )
    assert sketch(("氣候變遷",)).concepts.tolist() == sketch(("气候变迁",)).concepts.tolist()


def test_a_sentence_without_end_is_cut_into_bounded_pieces():
    s = sketch((" ".join([f"word{i % 50}" for i in range(5000)]),))
    assert len(s) >= 10_000 / MAX_SIZE  # "word12" is a word and a number
    assert s.size.max() <= MAX_SIZE


def test_arrays_round_trip():
    s = sketch((SOURCE, TRANSLATION))
    again = MeaningSketch.from_arrays(s.arrays())
    assert all(
        np.array_equal(a, b)
        for a, b in zip(s.arrays().values(), again.arrays().values(), strict=True)
    )


def test_an_empty_document_has_no_sentences():
    assert len(sketch(())) == 0 and len(sketch(("", "  ", "---"))) == 0


def test_a_sketch_does_not_depend_on_what_the_token_table_remembers(monkeypatch):
    text = (SOURCE, TRANSLATION, "Ünïcode 2019 x 1,000 e.g. this. 為什麼")
    warm = sketch(text)
    monkeypatch.setattr(concepts, "_table", concepts.TokenTable())
    cold = sketch(text)
    for name, values in warm.arrays().items():
        assert values.dtype == cold.arrays()[name].dtype
        assert np.array_equal(values, cold.arrays()[name]), name


def test_a_long_sentence_is_cut_where_its_units_say():
    words = " ".join(f"w{i}" for i in range(MAX_SIZE + 5))  # ASCII, longer than MAX_SIZE
    chinese = "字" * int(MAX_SIZE / HAN_WEIGHT + 5)
    for text in (words, chinese, words + " " + chinese):
        s = sketch((text,))
        assert len(s) >= 2 and s.size.max() <= MAX_SIZE
