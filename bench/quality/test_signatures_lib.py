"""Seed 003's signatures (core/signatures.py): what each is meant to survive and to separate."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from simsift.core.text.features import FeatureWeights, document_features
from simsift.core.text.simhash import simhash_features
from simsift.core.text.tokens import document_tokens

from bench.quality import signatures_lib as sig
from bench.quality.signatures_lib import FeatureVector, as_features, per_document

ZH = ("今天天气很好，我们一起去公园散步。公园里有很多人在跑步！", "晚上我们回家吃饭，然后看书。")
EN = (
    "The parser reads the whole file first, then it builds the tree. It never streams.",
    "Callers get a tree object back, or an error when the file is broken.",
)


def test_contexts_hold_the_units_around_each_mark():
    contexts = sig.punctuation_contexts(["我们一起去公园，然后回家。"])
    assert contexts == ["公 园,然 后", "回 家."]
    english = sig.punctuation_contexts(["The cat sat, and the dog ran."])
    assert english == ["cat sat,and the", "dog ran."]


def test_contexts_ignore_a_substitution_away_from_punctuation():
    edited = ("今天天气很好，我们一起去花园散步。公园里有很多人在跑步！", ZH[1])
    assert sig.punctuation_contexts(edited) == sig.punctuation_contexts(ZH)
    near_mark = ("今天天气不错，我们一起去公园散步。公园里有很多人在跑步！", ZH[1])
    changed = set(sig.punctuation_contexts(near_mark)) ^ set(sig.punctuation_contexts(ZH))
    assert changed  # the context left of the comma changed


def test_full_width_and_ascii_punctuation_give_the_same_contexts():
    assert sig.punctuation_contexts(["你好，世界！"]) == sig.punctuation_contexts(["你好,世界!"])


def test_punctuation_features_ignore_paragraph_order():
    a = sig.punctuation_features(EN)
    b = sig.punctuation_features(EN[::-1])
    assert np.array_equal(a.hashes, b.hashes) and np.array_equal(a.weights, b.weights)
    assert len(sig.punctuation_features(["no marks here"])) == 0


def test_punctuation_weight_zero_keeps_the_word_fingerprint():
    [words] = per_document(document_features(document_tokens("", EN), FeatureWeights()))
    punct = sig.punctuation_features(EN)
    alone, mixed_zero, mixed = simhash_features(
        as_features(
            [
                words,
                sig.with_punctuation(words, punct, 0.0),
                sig.with_punctuation(words, punct, 5.0),
            ]
        )
    )
    assert alone == mixed_zero
    assert alone != mixed  # heavy punctuation features move the fingerprint


def _segments(*docs):
    return np.array([sig.segment_signature(title, paragraphs) for title, paragraphs in docs])


def test_segment_pairs_follow_the_seeds_weights():
    parts = [f"第{i}段，内容{i}。" for i in range(9)]
    other = [f"别的{i}，文本{i}。" for i in range(9)]
    docs = [
        ("标题", parts),
        ("标题", parts[:6] + other[6:]),  # title + 2 parts: 3.5
        ("另一个", parts),  # 3 parts: 3.0
        ("另一个", parts[:6] + other[6:]),  # 2 parts only: 2.0 with doc 0
        ("标题", parts[:3] + other[3:]),  # title + 1 part: 2.5
    ]
    pairs = sig.segment_pairs(_segments(*docs))
    found = set(zip(pairs.left.tolist(), pairs.right.tolist(), strict=True))
    assert (0, 1) in found and (0, 2) in found
    assert (0, 3) not in found and (0, 4) not in found


def test_documents_without_title_or_marks_never_pair_on_empty_parts():
    pairs = sig.segment_pairs(_segments(("", ["no marks"]), ("", ["none here either"])))
    assert len(pairs) == 0


def _vector(title, paragraphs):
    [vector] = per_document(document_features(document_tokens(title, paragraphs), FeatureWeights()))
    return vector


def test_keyword_signature_survives_reordering_and_catches_other_top_terms():
    text = ["alpha alpha alpha beta beta gamma delta", "epsilon zeta alpha beta eta"]
    same = sig.keyword_signature(_vector("", text), 3)
    assert same == sig.keyword_signature(_vector("", text[::-1]), 3)
    assert same == sig.keyword_signature(
        _vector("", [" ".join(reversed(" ".join(text).split()))]), 3
    )
    other = ["theta theta theta iota iota kappa", "alpha"]
    assert same != sig.keyword_signature(_vector("", other), 3)


def test_sorted_keywords_ignore_ranks_ordered_do_not():
    hashes = np.array([11, 22, 33, 44], np.uint64)
    a = FeatureVector(hashes, np.array([4.0, 3.0, 2.0, 1.0]))
    b = FeatureVector(hashes, np.array([3.0, 4.0, 2.0, 1.0]))  # same top 3, other ranks
    assert sig.keyword_signature(a, 3, "sorted") == sig.keyword_signature(b, 3, "sorted")
    assert sig.keyword_signature(a, 3, "ordered") != sig.keyword_signature(b, 3, "ordered")


def test_short_documents_have_no_keyword_signature_and_never_pair():
    tiny = FeatureVector(np.array([1, 2], np.uint64), np.ones(2))
    signatures = sig.keyword_signatures([tiny, tiny], 3)
    assert signatures.tolist() == [0, 0]
    assert len(sig.equal_signature_pairs(signatures)) == 0


def test_equal_signature_pairs_lists_every_pair_of_a_group():
    pairs = sig.equal_signature_pairs(np.array([5, 7, 5, 5, 9], np.uint64))
    assert sorted(zip(pairs.left.tolist(), pairs.right.tolist(), strict=True)) == [
        (0, 2),
        (0, 3),
        (2, 3),
    ]


def test_a_huge_group_of_equal_signatures_pairs_with_its_first_member_only():
    signatures = np.array([7, 3, 7, 7, 7, 3], np.uint64)
    pairs = sig.equal_signature_pairs(signatures, max_group=3)
    assert sorted(zip(pairs.left.tolist(), pairs.right.tolist(), strict=True)) == [
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 5),
    ]


def test_sentences_split_at_sentence_ends_not_inside_names():
    assert sig.sentences(["Use os.path.join here. Then stop! 然后回家。好吗？"]) == [
        "Use os.path.join here.",
        "Then stop!",
        "然后回家。",
        "好吗？",
    ]


def test_sentence_overlaps_measure_shared_text():
    source = [
        "The first sentence is long enough to count right here.",
        "A second sentence also has plenty of words in it.",
        "A third one closes the little source document right now.",
    ]
    copy = ["Something new is said in this other paragraph first.", source[1], source[2]]
    unrelated = ["Nothing of this text appears anywhere else at all."]
    signatures = sig.sentence_signatures([source, copy, unrelated], min_units=5)
    overlaps = sig.sentence_overlaps(signatures)
    assert overlaps.left.tolist() == [0] and overlaps.right.tolist() == [1]
    assert overlaps.shared_units[0] == 20  # two sentences of ten words
    assert overlaps.containment_ab[0] == pytest.approx(20 / 30)
    partial = overlaps.partial(0.9, 100)
    assert len(partial) == 0
    assert len(overlaps.partial(0.5, 100)) == 1


def test_short_and_common_sentences_never_count():
    common = "This sentence is pasted into every single document here."
    docs = [[common, f"Own text number {i} is different in each of them."] for i in range(4)]
    signatures = sig.sentence_signatures(docs, min_units=5)
    assert len(sig.sentence_overlaps(signatures, max_docs=3).left) == 0
    assert len(sig.sentence_overlaps(signatures, max_docs=4).left) == 6
    short = sig.sentence_signatures([["Returns None."], ["Returns None."]], min_units=5)
    assert len(sig.sentence_overlaps(short).left) == 0


def test_cjk_sentences_count_two_characters_as_one_unit():
    _, units = sig.sentence_key("我们一起去公园。")
    assert units == 3.5
    assert sig.sentence_key("Two words.")[1] == 2


@pytest.mark.parametrize(
    "options",
    [
        {"sentence_threshold": 1.5},
        {"sentence_max_docs": 1},
        {"keyword_terms": -1},
        {"keyword_order": "random"},
        {"sentence_min_units": -2},
    ],
)
def test_options_reject_impossible_values(options):
    with pytest.raises(ValueError):
        sig.SignatureOptions(**options)


def _essay(seed: int) -> list[str]:
    """Six paragraphs of distinct words (a vocabulary per seed), two sentences each."""
    letters = "bcdfghjklmnpqrstvwxz"
    words = ["q" + letters[seed] + letters[i // 20] + letters[i % 20] + "o" for i in range(120)]
    return [
        " ".join(words[j * 20 : j * 20 + 10])
        + ". "
        + " ".join(words[j * 20 + 10 : j * 20 + 20])
        + "."
        for j in range(6)
    ]


def test_scan_reports_side_signature_matches_when_asked(tmp_path):
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import reweight, scan

    docs, ref = tmp_path / "docs", tmp_path / "ref"
    docs.mkdir()
    ref.mkdir()
    source = _essay(1)
    (docs / "source.txt").write_text("\n\n".join(source))
    (docs / "reordered.txt").write_text("\n\n".join(source[::-1]))
    borrowed = _essay(2) + source[:3]  # half of source's sentences in another essay
    (docs / "borrower.txt").write_text("\n\n".join(borrowed))
    (docs / "alone.txt").write_text("\n\n".join(_essay(3)))
    (ref / "prompt.txt").write_text("\n\n".join(_essay(4)))
    (ref / "prompt copy.txt").write_text("\n\n".join(_essay(4)))
    base = ScanOptions(roots=(str(docs),), reference_roots=(str(ref),), workers=0)
    assert scan(base).signatures is None

    options = replace(base, signatures=sig.SignatureOptions(keyword_terms=10, sentence_min_units=5))
    result = scan(options)
    names = [Path(d.path).name for d in result.documents]

    def named(pairs):
        return {
            frozenset((names[a], names[b]))
            for a, b in zip(pairs.left.tolist(), pairs.right.tolist(), strict=True)
        }

    assert named(result.signatures.keyword) == {frozenset(("source.txt", "reordered.txt"))}
    partial = named(result.signatures.sentence_partial)
    assert frozenset(("source.txt", "borrower.txt")) in partial
    assert not any(
        "alone.txt" in p or ("prompt.txt" in p and "prompt copy.txt" in p) for p in partial
    )
    reweighted = reweight(result, result.options.weights)
    assert named(reweighted.signatures.keyword) == named(result.signatures.keyword)
