"""Huge texts are normalized and tokenized in pieces: the pieces must give exactly what
the whole text gives, wherever a piece would end (inside a word, a number, a Chinese run)."""

from __future__ import annotations

import numpy as np
import pytest
from simsift.core.text.normalize import normalize_text
from simsift.core.text.tokens import hash_tokens, iter_tokens, safe_pieces, token_stream, tokenize

from tests.core.corpus import chinese_paragraphs

TRICKY = [
    "Don’t split the word re-entry, the number 3.14 or 2024-01-02 at 10:30 please",
    "café cafe\u0301 e \u0301x Ａｐｐｌｅ １２３ ﬁnal ﬂow Straße ΣΊΣΥΦΟΣ",  # NFKC and casefold
    "這是 頭髮 乾燥 的 測試 中文 English 混合 的文本 2007年 Google 用於 網頁 去重",
    "一个很长的中文句子没有任何空格所以它只能作为一个整体被切分成词语和短语" * 3,
    "a  b \u3000 c\u00a0d   e",
    # look-alikes in mixed words and invisible characters: folded and removed word by word
    "Tеxt wіth Cyrillic lооk-аlikеs, in\u200bvis\u200cible jo\u2060iners и русский текст",
    "x",
    "",
]


def paragraphs() -> list[str]:
    return TRICKY + chinese_paragraphs()[:6]


def assert_same_stream(a, b) -> None:
    for name in ("hashes", "is_digit", "para_starts"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("chunk_chars", [1, 2, 3, 7, 40])
@pytest.mark.parametrize("t2s", [True, False])
def test_tokenizing_in_pieces_equals_tokenizing_whole(chunk_chars, t2s):
    whole = token_stream(paragraphs(), traditional_to_simplified=t2s)
    pieces = token_stream(paragraphs(), traditional_to_simplified=t2s, chunk_chars=chunk_chars)
    assert len(whole) > 100
    assert_same_stream(whole, pieces)


@pytest.mark.parametrize("chunk_chars", [1, 2, 5, 40])
def test_pieces_normalize_like_the_joined_text(chunk_chars):
    """The text hash normalizes the title and paragraphs joined without a separator."""
    parts = paragraphs()
    pieces = list(safe_pieces(parts, chunk_chars))
    assert "".join(pieces) == "".join(parts)
    assert len(pieces) > 10  # really cut, inside paragraphs and across them
    normalized = "".join(normalize_text(p, traditional_to_simplified=True) for p in pieces)
    assert normalized == normalize_text("".join(parts), traditional_to_simplified=True)


def test_pieces_stay_near_the_chunk_size_and_end_before_a_space():
    text = " ".join(["word"] * 10_000)
    pieces = list(safe_pieces([text], 100))
    assert max(len(p) for p in pieces) <= 100
    assert all(p.startswith(" ") for p in pieces[1:])


def test_token_stream_holds_the_tokens_of_each_paragraph():
    stream = token_stream(paragraphs())
    expected = [hash_tokens(tokenize(p)) for p in paragraphs()]
    np.testing.assert_array_equal(stream.hashes, np.concatenate(expected))
    starts = np.cumsum([0] + [len(e) for e in expected[:-1]])
    np.testing.assert_array_equal(stream.para_starts, starts)
    normalized = [normalize_text(p, traditional_to_simplified=True) for p in paragraphs()]
    digits = [is_digit for n in normalized for _, is_digit in iter_tokens(n)]
    assert sum(digits) > 5
    np.testing.assert_array_equal(stream.is_digit, digits)
