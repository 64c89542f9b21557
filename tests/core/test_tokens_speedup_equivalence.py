"""The tokenizer's fast paths give exactly what the straightforward code gives.

`_append_tokens` finds tokens with an ASCII or a Latin regular expression where a text
allows, hashes and flags them with `map` and looks for letters spaced out in the tokens
joined; here it is held to a reference that walks the tokens one by one (the loop it
replaced, and `iter_tokens`). `normalize_text` skips NFKC for ASCII and OpenCC for text
without a Chinese character; jieba's HMM is unrolled: each against the library itself.
"""

from __future__ import annotations

import random
import shutil
import sysconfig
import unicodedata
from array import array
from pathlib import Path

import numpy as np
import pytest
from simsift.core.text import tokens as tokens_module
from simsift.core.text import word_segmenter
from simsift.core.text.normalize import _opencc_converter, _simplified, normalize_text
from simsift.core.text.quotations import find_quotations
from simsift.core.text.spacing import MIN_RUN_LETTERS, join_spaced_letters
from simsift.core.text.tokens import (
    _TOKEN_RUN,
    CHUNK_CHARS,
    _append_tokens,
    document_tokens,
    iter_tokens,
    token_hash,
    token_stream,
)

from tests.core.corpus import chinese_paragraphs

TRICKY = [
    "",
    " ",
    "x",
    "a b c d e",  # five single letters: no run
    "a b c d e f",  # six: a run, joined
    "t h i s   i s   a   s p a c e d   s e n t e n c e",
    "l l l l l l l l",  # single letters, too few different ones: left as they are
    "a, b, c, d, e, f, g and h",  # single letters apart, nothing spaced: searched, unchanged
    "a 1 b 2 c 3 d 4 e 5 f 6 g",  # digits between single letters end a run
    "x y z 1 a b c d e 9 f g h i j",
    "n p . z e r o s ( 5 1 )   i s   a   c a l l",
    "f ( x ) = a x + b",
    "e s s a y   i s   w r i t t e n",
    "中 文 字 符 间 隔 开 了",  # Chinese characters spaced out
    "我 a 你 b 他 c 她 d",  # one-character Chinese runs and single letters in a row
    "他说“不要走”然后离开了。“好的”",
    "He said \"don't go\" and left; the students' essays, rock ’n’ roll",
    "It’s 3.14, 2026-11-26, 10:30, 1,000,000 and 3/4 of v2.0.1 or ١٢٣ or ߁߂",
    "Don’t split re-entry, o'clock, 'quoted', ’tis, rock'n'roll and a' b",
    "这是 頭髮 乾燥 的 測試 中文 English 混合 的文本 2007年 Google 用於 網頁 去重",
    "mixed中文and English混合text123数字456",
    "Straße ΣΊΣΥΦΟΣ café cafe\u0301 ﬁnal Ａｐｐｌｅ １２３ x\u00b2 ½ ①",
    "Tеxt wіth Cyrillic lооk-аlikеs, in\u200bvis\u200cible jo\u2060iners и русский текст",
    "\x00a\x00b\x00c\x00d\x00e\x00f\x00",  # NUL characters between letters
    "a_b_c_d_e_f_g and __init__ 42_000",
    "\ufa6e\ufadb\u9fff\u4dbf\u3400 unassigned and edge Chinese code points",
    "emoji 😀 and astral 𠀋𠀌 characters, a lone \ud800 surrogate",
    "tabs\tand\nnewlines\r\nand\u00a0no-break\u3000ideographic spaces",
    "一个很长的中文句子没有任何空格所以它只能作为一个整体被切分成词语和短语" * 3,
]


def reference_append(norm: str, hashes: array, digits: bytearray) -> None:
    """The per-token loop `_append_tokens` replaced: one match at a time, counting the
    single-letter tokens in a row."""
    first = len(hashes)
    singles, run = 0, MIN_RUN_LETTERS
    for cjk, digit, word in _TOKEN_RUN.findall(norm):
        if word:
            hashes.append(token_hash(word))
            digits.append(False)
            if len(word) > 1:
                singles = 0
                continue
        elif digit:
            hashes.append(token_hash(digit))
            digits.append(True)
            singles = 0
            continue
        else:
            words = word_segmenter.cut_chinese(cjk)
            hashes.extend(map(token_hash, words))
            digits.extend(bytes(len(words)))
            if len(cjk) > 1:
                singles = 0
                continue
        singles += 1
        if singles == run:
            joined = join_spaced_letters(norm)
            if joined != norm:
                del hashes[first:], digits[first:]
                reference_append(joined, hashes, digits)
                return
            run = 0


def appended(append, norm: str) -> tuple[list[int], list[int]]:
    hashes, digits = array("Q"), bytearray()
    append(norm, hashes, digits)
    return hashes.tolist(), list(digits)


def random_texts(count: int, seed: int) -> list[str]:
    """Texts of the characters that matter to the tokenizer, mixed at random."""
    rng = random.Random(seed)
    pieces = [
        *"abcdefxyzAEIé中文字我他ΣИ0123456789١",
        *" ,.:/-'’\"“”「」《》()_\u00a0\u3000\n\t",
        "  ",
        "   ",
        "the",
        "3.14",
        "2026-11-26",
        "don’t",
        "中文句子",
        "😀",
        "\ufa6e",
    ]
    return ["".join(rng.choices(pieces, k=rng.randint(0, 60))) for _ in range(count)]


def spaced_texts(count: int, seed: int) -> list[str]:
    """Letters spaced out, with word gaps, punctuation and digits among them."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        letters = rng.choices("abcdefghij中文1.(", k=rng.randint(4, 14))
        gaps = rng.choices([" ", " ", "  ", "   ", ", "], k=len(letters))
        text = "".join(a + b for a, b in zip(letters, gaps, strict=True))
        out.append(rng.choice(["", "word ", "中文"]) + text + rng.choice(["", " end", "。"]))
    return out


@pytest.mark.parametrize("t2s", [True, False])
def test_append_tokens_equals_the_per_token_loop(t2s):
    texts = TRICKY + chinese_paragraphs()[:20] + random_texts(3000, 29) + spaced_texts(2000, 7)
    joined = 0
    for text in texts:
        norm = normalize_text(text, traditional_to_simplified=t2s)
        assert appended(_append_tokens, norm) == appended(reference_append, norm), repr(text)
        joined += join_spaced_letters(norm) != norm
    assert joined > 100  # the spaced-out letters were really joined, many times


def test_append_tokens_gives_the_tokens_of_iter_tokens():
    for text in TRICKY + chinese_paragraphs()[:20] + random_texts(1000, 3):
        norm = normalize_text(text, traditional_to_simplified=True)
        expected = [(token_hash(t), int(d)) for t, d in iter_tokens(norm)]
        hashes, digits = appended(_append_tokens, norm)
        assert list(zip(hashes, digits, strict=True)) == expected, repr(text)


def reference_stream(paragraphs: list[str]) -> tuple[list[int], list[int], list[int]]:
    hashes, digits, starts = array("Q"), bytearray(), []
    for paragraph in paragraphs:
        starts.append(len(hashes))
        norm = normalize_text(paragraph, traditional_to_simplified=True)
        reference_append(norm, hashes, digits)
    return hashes.tolist(), list(digits), starts


def test_token_stream_equals_the_reference_stream_with_quotations_and_long_paragraphs():
    long_english = " ".join(
        ["word", "3.14", "x", "don’t", "“quoted text here”"] * (CHUNK_CHARS // 20)
    )
    long_chinese = "中文字符没有空格的很长段落，“引号”里面的话。" * (CHUNK_CHARS // 20)
    spaced = "t h i s   i s   s p a c e d " * 1000
    paragraphs = [*TRICKY, long_english, long_chinese, spaced, *chinese_paragraphs()[:10]]
    assert max(map(len, paragraphs)) > CHUNK_CHARS
    stream = token_stream(paragraphs)
    hashes, digits, starts = reference_stream(paragraphs)
    # quotation marks cut a paragraph, never a token: without marks the tokens are the same
    plain = token_stream(paragraphs, marks=False)
    np.testing.assert_array_equal(plain.hashes, np.array(hashes, np.uint64))
    np.testing.assert_array_equal(plain.is_digit, np.array(digits, bool))
    np.testing.assert_array_equal(plain.para_starts, np.array(starts, np.int32))
    np.testing.assert_array_equal(stream.hashes, plain.hashes)
    assert stream.marks.any()
    assert find_quotations("他说“不要走，明天再来”然后离开了。").spans


def test_document_tokens_of_empty_and_spaced_documents():
    empty = document_tokens("", [])
    assert len(empty.title) == len(empty.body) == 0
    assert empty.body.hashes.dtype == np.uint64 and empty.body.is_digit.dtype == bool
    spaced = document_tokens("t h i s   i s", ["e s s a y   i s   h e r e", ""])
    words = [token_hash(w) for w in ("essay", "is", "here")]
    assert spaced.body.hashes.tolist() == words
    assert spaced.body.para_starts.tolist() == [0, 3]


def reference_normalize(text: str, t2s: bool) -> str:
    """`normalize_text` without its fast paths (confusables aside: ASCII has none)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    converter = _opencc_converter()
    if t2s and converter is not None:
        text = converter.convert(text.encode("utf-8", "replace").decode("utf-8"))
    return text


@pytest.mark.parametrize("t2s", [True, False])
def test_ascii_text_normalizes_as_without_the_fast_path(t2s):
    rng = random.Random(5)
    texts = ["".join(map(chr, range(128))), "Hello WORLD 3.14", ""]
    texts += ["".join(rng.choices([chr(i) for i in range(128)], k=50)) for _ in range(2000)]
    for text in texts:
        assert normalize_text(text, traditional_to_simplified=t2s) == reference_normalize(text, t2s)


def test_opencc_leaves_text_without_chinese_characters_as_it_is():
    converter = _opencc_converter()
    if converter is None:
        pytest.skip("OpenCC not installed")
    rng = random.Random(11)
    below = [chr(i) for i in range(0x3400)]
    for _ in range(2000):
        text = "".join(rng.choices(below, k=rng.randint(1, 40)))
        assert _simplified(text) == converter.convert(text) == text
    # from U+3400 on, OpenCC converts
    for text in ("頭髮乾燥", "測試 text", "a\U00020000b", "x\ud800y"):
        assert _simplified(text) == converter.convert(
            text.encode("utf-8", "replace").decode("utf-8")
        )
    assert _simplified("頭髮") == "头发"


def test_hmm_words_are_jiebas():
    from jieba import finalseg

    word_segmenter.jieba_module()
    rng = random.Random(17)
    characters = "".join(chinese_paragraphs())
    characters = "".join(c for c in characters if word_segmenter._JIEBA_HAN.fullmatch(c))
    unknown = [chr(i) for i in range(0x4E00, 0x9FD6)]
    texts = ["一", "丁一", "了了了了"]
    for _ in range(3000):
        pool = rng.choice([characters, unknown, "一丁七"])
        texts.append("".join(rng.choices(pool, k=rng.randint(1, 30))))
    for text in texts:
        assert word_segmenter._hmm_words(text) == tuple(finalseg.cut(text)), text


def _compiler_and_headers() -> bool:
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return include.exists() and any(shutil.which(cc) for cc in ("cc", "gcc", "clang"))


@pytest.mark.skipif(not _compiler_and_headers(), reason="no C compiler or Python headers")
def test_the_c_token_loop_is_built_where_a_compiler_is():
    """setup.py builds it as optional: a failed build would pass silently and leave every
    reader's tokens a third slower."""
    assert tokens_module.token_loops is not None


def unicode_texts(count: int, seed: int) -> list[str]:
    """Texts of characters whose classes the regular expressions and the C loop must agree
    on: digits of other scripts, numbers that are no decimal digits (², ½, Ⅻ), combining
    marks, letters of many scripts, underscores, both apostrophes, every separator."""
    rng = random.Random(seed)
    pieces = [
        *"aZé\u0301ßΣиא\u05d0ب\u0915\u093fğ",  # letters, combining marks among them
        *"09١٢۳߁\u0966\uff11\U0001d7ce",  # decimal digits of many scripts
        *"²½Ⅻ①\u2155",  # numeric, not decimal: letters to \\w
        *"_'’.,:/-  \t\n\u00a0\u2019\u02bc\u2018",
        "don’t",
        "1.2.3",
        "a'b'c",
        "x_y",
        "𝐀𝐁",
        "\U00010400",
    ]
    return ["".join(rng.choices(pieces, k=rng.randint(0, 50))) for _ in range(count)]


@pytest.mark.skipif(tokens_module.token_loops is None, reason="the C loop is not built here")
def test_the_c_token_loop_gives_the_regular_expressions_tokens(monkeypatch):
    texts = [*TRICKY, *chinese_paragraphs()[:40], *random_texts(3000, 5), *spaced_texts(1000, 11)]
    texts += unicode_texts(5000, 17)
    norms = [normalize_text(text) for text in texts]
    in_c = [appended(_append_tokens, norm) for norm in norms]
    monkeypatch.setattr(tokens_module, "token_loops", None)
    for norm, found in zip(norms, in_c, strict=True):
        assert found == appended(_append_tokens, norm), repr(norm)
    assert sum(len(hashes) for hashes, _ in in_c) > 50_000
