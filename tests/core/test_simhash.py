"""SimHash: a hand-computed example, stability and the locality property on real-looking text."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from simsift.core.index.matches import hamming
from simsift.core.text.features import Features, FeatureWeights, corpus_features
from simsift.core.text.simhash import simhash, simhash_features
from simsift.core.text.tokens import document_tokens, token_hash


def test_hand_computed_fingerprint():
    # h1 = 1011 (w=2), h2 = 0110 (w=1): bit sums are +1, +3, -1, +1 and -3 elsewhere -> 1011
    assert simhash(np.array([0b1011, 0b0110], np.uint64), np.array([2.0, 1.0])) == 0b1011
    # with h2 weighted 3 it wins bits 0 and 2: sums -1, +5, +1, -1 -> 0110
    assert simhash(np.array([0b1011, 0b0110], np.uint64), np.array([2.0, 3.0])) == 0b0110


def test_high_bit_and_empty_input():
    top = np.uint64(1) << np.uint64(63)
    assert simhash(np.array([top], np.uint64), np.array([1.0])) == 1 << 63
    assert simhash(np.zeros(0, np.uint64), np.zeros(0)) == 0


def test_bit_i_of_the_fingerprint_is_bit_i_of_the_features():
    assert simhash(np.array([0b101], np.uint64), np.array([1.0])) == 0b101
    assert simhash(np.array([1 << 40, 1 << 40, 1], np.uint64), np.array([1.0, 1.0, 1.5])) == (
        1 << 40
    )


def test_many_feature_sets_at_once_equal_one_by_one(monkeypatch):
    import simsift.core.text.simhash

    monkeypatch.setattr(
        simsift.core.text.simhash, "_CHUNK_FEATURES", 64
    )  # sets cross chunk boundaries
    rng = np.random.default_rng(3)
    sizes = [0, 1, 5, 300, 2, 0, 70]
    sets = [
        (np.unique(rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)), rng.random(n))
        for n in sizes
    ]
    features = Features(
        np.repeat(np.arange(len(sets)), [len(h) for h, _ in sets]),
        np.concatenate([h for h, _ in sets]),
        np.concatenate([w[: len(h)] for h, w in sets]),
        len(sets) + 1,  # and an owner with no features at the end
    )
    expected = [simhash(h, w[: len(h)]) for h, w in sets] + [0]
    assert simhash_features(features).tolist() == expected


def test_token_hash_is_stable_across_processes():
    code = (
        "from simsift.core.text.tokens import token_hash; "
        "print(token_hash('相似度'), token_hash('simhash'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(token_hash("相似度")), str(token_hash("simhash"))]
    # pinned value: blake2b-64 little-endian, the same on every platform and release
    assert token_hash("simhash") == int.from_bytes(
        __import__("hashlib").blake2b(b"simhash", digest_size=8).digest(), "little"
    )


ARTICLE = [
    "Near-duplicate detection finds documents that are almost the same, such as a news "
    "article reposted on another site with different navigation, advertisements and a new "
    "timestamp. Exact hashing fails here because a single changed byte changes the digest.",
    "SimHash maps each document to a short fingerprint so that similar documents get "
    "fingerprints that differ in only a few bit positions. Each feature votes on every bit "
    "with its weight, and the sign of the total decides the bit.",
    "To find all fingerprints within a few bits of a query, the bits are split into blocks; "
    "by the pigeonhole principle, close fingerprints agree exactly on some blocks, so sorted "
    "tables keyed on those blocks find the candidates quickly.",
]
UNRELATED = [
    "The recipe calls for two cups of flour, a spoon of sugar and warm milk. Knead the dough "
    "for ten minutes, cover it with a cloth and let it rise in a warm kitchen until doubled.",
    "Meanwhile prepare the filling: chop onions, fry them slowly in butter until golden, and "
    "season with salt, pepper and a little nutmeg before folding in the grated cheese.",
]


def fingerprints(*docs: list[str]) -> np.ndarray:
    tokens = [document_tokens("", paragraphs) for paragraphs in docs]
    return simhash_features(corpus_features(tokens, FeatureWeights()))


def test_small_edit_gives_small_distance_and_unrelated_text_about_half():
    # one word changed among ~90 distinct features: a few bits move (SimHash on short texts
    # is sensitive; whole essays have hundreds of features and move less)
    edited = [p.replace("quickly", "fast") for p in ARTICLE]
    original, near, other = fingerprints(ARTICLE, edited, UNRELATED)
    assert hamming(int(original), int(near)) <= 8
    assert 20 <= hamming(int(original), int(other)) <= 44


def test_chinese_small_edit_is_close():
    text = [
        "从附加赛第三轮以3比0力擒素可泰，到小组赛首轮以1比0绝杀首尔，再到此役大比分战胜西悉尼流浪者，"
        "上海上港在新赛季的亚冠赛场上一举拿到三连胜，为球队在赛季初始阶段开了个好头。",
        "此役战胜西悉尼流浪者后，上港不但继续保持着主场不败的金身，而且在小组积分榜上稳居头名，"
        "出线形势一片大好。主教练赛后表示，球队还有很多需要改进的地方。",
    ]
    edited = [text[0].replace("一举", ""), text[1].replace("一片大好", "非常乐观")]
    a, b, c = fingerprints(text, edited, UNRELATED)
    assert hamming(int(a), int(b)) <= 8
    assert hamming(int(a), int(c)) >= 18


def test_timestamps_and_counters_do_not_move_the_fingerprint_when_digits_are_ignored():
    a = [*ARTICLE, "Posted 2024-03-01 12:30, read 1532 times, 17 comments"]
    b = [*ARTICLE, "Posted 2025-11-21 08:02, read 98211 times, 403 comments"]
    fa, fb = fingerprints(a, b)
    assert fa == fb


@pytest.mark.parametrize("use_idf", [False, True])
def test_documents_fingerprinted_in_steps_equal_all_at_once(monkeypatch, use_idf):
    import simsift.core.pipeline.stages

    monkeypatch.setattr(
        simsift.core.pipeline.stages, "_FINGERPRINT_TOKENS", 40
    )  # steps of a few documents
    texts = [ARTICLE, UNRELATED, ARTICLE[:1], [], ARTICLE[1:] + UNRELATED]
    tokens = [document_tokens(f"title {i}", t) for i, t in enumerate(texts)]
    weights = FeatureWeights(use_idf=use_idf, shingle_size=2)
    documents = [type("Doc", (), {"tokens": t})() for t in tokens]
    stepwise = simsift.core.pipeline.stages.fingerprint_documents(documents, weights)
    assert stepwise.tolist() == simhash_features(corpus_features(tokens, weights)).tolist()
    assert stepwise[3] != 0  # a document of a title alone
