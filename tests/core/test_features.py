"""Tokenization and feature weighting."""

from __future__ import annotations

import numpy as np
import pytest
from simsift.core.text.features import (
    FeatureWeights,
    IdfTable,
    corpus_features,
    document_features,
    shingle_hashes,
)
from simsift.core.text.tokens import document_tokens, hash_tokens, token_hash, tokenize


def weight_of(vector, token: str) -> float:
    pos = np.searchsorted(vector.hashes, np.uint64(token_hash(token)))
    assert vector.hashes[pos] == np.uint64(token_hash(token)), f"{token!r} is not a feature"
    return float(vector.weights[pos])


def has(vector, token: str) -> bool:
    return bool(np.isin(np.uint64(token_hash(token)), vector.hashes))


def test_tokenize_mixed_chinese_latin_digits_with_nfkc_and_case_folding():
    tokens = tokenize("ＳｉｍＨａｓｈ算法在2007年由Google用于网页去重")
    assert "simhash" in tokens and "google" in tokens and "2007" in tokens
    assert "算法" in tokens and "网页" in tokens


def test_traditional_chinese_is_folded_to_simplified():
    assert tokenize("這是網頁去重") == tokenize("这是网页去重")


def test_stopwords_and_digits_are_dropped_by_default_and_kept_on_request():
    tokens = document_tokens("", ["The cat and the dog saw 42 birds 的"])
    default = document_features(tokens, FeatureWeights())
    assert has(default, "cat") and not has(default, "the") and not has(default, "42")
    keep_all = document_features(
        tokens, FeatureWeights(remove_stopwords=False, ignore_digits=False)
    )
    assert has(keep_all, "the") and has(keep_all, "42") and has(keep_all, "的")


def test_tf_schemes_and_title_boost():
    tokens = document_tokens("apple", ["apple apple apple pear"])
    raw = document_features(tokens, FeatureWeights(tf_scheme="raw", title_boost=1.5))
    assert weight_of(raw, "apple") == pytest.approx(4.5) and weight_of(raw, "pear") == 1.0
    log = document_features(tokens, FeatureWeights(tf_scheme="log", title_boost=1.0))
    assert weight_of(log, "apple") == pytest.approx(1 + np.log(4))
    binary = document_features(tokens, FeatureWeights(tf_scheme="binary"))
    assert weight_of(binary, "apple") == 1.0


def test_user_term_weights_boost_and_remove():
    tokens = document_tokens("", ["template essay about rivers rivers"])
    weights = FeatureWeights(tf_scheme="raw", term_weights=(("template", 0.0), ("rivers", 3.0)))
    vector = document_features(tokens, weights)
    assert not has(vector, "template")
    assert weight_of(vector, "rivers") == pytest.approx(6.0)


def test_shingles_depend_on_order_and_are_stable():
    h = hash_tokens(["a", "b", "c"])
    forward = shingle_hashes(h, 2)
    backward = shingle_hashes(h[::-1].copy(), 2)
    assert len(forward) == 2 and not set(forward.tolist()) & set(backward.tolist())
    assert forward.tolist() == shingle_hashes(hash_tokens(["a", "b", "c"]), 2).tolist()


def test_idf_downweights_common_features():
    docs = [document_tokens("", [f"common {word}"]) for word in ("alpha", "beta", "gamma", "delta")]
    features = corpus_features(docs, FeatureWeights(use_idf=True, tf_scheme="raw"))
    first = features.owner == 0
    weights = dict(zip(features.hashes[first].tolist(), features.weights[first], strict=True))
    assert weights[token_hash("common")] < weights[token_hash("alpha")]
    table = IdfTable.from_features(corpus_features(docs, FeatureWeights()))
    assert table.default > table.idf.max() - 1e-9


def test_invalid_weights_are_rejected():
    with pytest.raises(ValueError, match="tf_scheme"):
        FeatureWeights(tf_scheme="sqrt")
    with pytest.raises(ValueError, match="shingle_size"):
        FeatureWeights(shingle_size=0)


@pytest.mark.parametrize("shingle_size", [1, 2, 3])
@pytest.mark.parametrize("tokens_at_once", [1, 2, 5, 64])
def test_long_documents_weighed_in_pieces_get_the_same_features(shingle_size, tokens_at_once):
    """A huge file's features are counted piece by piece; nothing may change, bit for bit."""
    from tests.core.corpus import chinese_paragraphs

    paragraphs = [*chinese_paragraphs()[:4], "The 12 cats and the dogs 34 saw the cats again"]
    docs = [
        document_tokens("Cats and dogs title", paragraphs),
        document_tokens("", ["the of and"]),  # only stopwords: no features
        document_tokens("one two", ["two"]),  # shorter than a shingle
        document_tokens("", paragraphs[1:3]),
    ]
    for weights in (
        FeatureWeights(shingle_size=shingle_size, title_boost=1.5, ignore_digits=False),
        FeatureWeights(shingle_size=shingle_size, tf_scheme="raw", use_idf=True),
    ):
        whole = corpus_features(docs, weights)
        pieces = corpus_features(docs, weights, tokens_at_once=tokens_at_once)
        assert whole.n == pieces.n == 4 and len(whole) > 50
        for name in ("owner", "hashes", "weights"):
            np.testing.assert_array_equal(getattr(whole, name), getattr(pieces, name))


def test_cancel_is_checked_inside_one_long_document(monkeypatch):
    """Fingerprinting a 200 MB text takes seconds: Cancel must not wait for the end."""
    import simsift.core.text.features as features_module
    from simsift.core.pipeline.stages import fingerprint_documents
    from simsift.core.progress import Cancelled, CancelToken

    class CancelOnThirdCheck(CancelToken):
        checks = 0

        def check(self) -> None:
            self.checks += 1
            if self.checks == 3:
                self.cancel()
            super().check()

    monkeypatch.setattr(features_module, "DOCUMENT_TOKENS_AT_ONCE", 10)
    record = type("Record", (), {"tokens": document_tokens("", ["word " * 100])})()
    token = CancelOnThirdCheck()
    with pytest.raises(Cancelled):
        fingerprint_documents([record], FeatureWeights(), cancel=token)
    assert token.checks == 3  # one before the document, then between its pieces
