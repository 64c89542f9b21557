"""Paragraphs normalized together give what normalizing them one by one gives.

`normalize_texts` joins the paragraphs that are not ASCII with line breaks and normalizes
them as one text (a Chinese text file's short lines cost a call each otherwise), and
`token_stream` hands it a document's paragraphs in batches: held here to `normalize_text`
of each paragraph, with what could cross a line break (combining marks, OpenCC's phrases,
look-alikes judged by their neighbours, lone surrogates, line breaks inside a paragraph).
`may_be_disguised` lets text through on a first look: held to its test of every character.
"""

from __future__ import annotations

import random
import unicodedata

import numpy as np
import pytest
from simsift.core.text import confusables, normalize, tokens
from simsift.core.text.confusables import may_be_disguised
from simsift.core.text.normalize import normalize_text, normalize_texts
from simsift.core.text.tokens import safe_pieces, token_stream

from tests.core.corpus import chinese_paragraphs

# pieces whose neighbours could change how they normalize, were they not kept apart
PIECES = [
    *"abcXYZé中文字我他頭髮乾燥測試後臺ΣИо0123١",
    *" ,.:/-'’\"“”「」《》()_\u00a0\u3000\t",
    "\u0301",  # a combining acute: composes with a letter before it
    "\u0308",
    "\u1161",  # a Hangul vowel: composes with a leading consonant before it
    "\u1100",
    "\u2f00",  # a Kangxi radical: NFKC makes it a Chinese character
    "\uff21\uff0c\uff1a",  # full-width letters and punctuation
    *"，：（）；？！…",
    "\ufb01",  # a ligature
    "\u00ad\u200b\ufeff\uffa0\u3164",  # soft hyphen, invisible characters, Hangul fillers
    "\ud800",  # a lone surrogate (undecodable bytes)
    "\U00020000😀",
    "Tеxt",  # a Cyrillic look-alike in a Latin word
    "аnd оr",  # words wholly of look-alikes
    "русский",
    "\n",  # a line break inside a paragraph: never joined with others
    "頭髮",
    "乾燥",
    "後臺",
    "意志消沈",
]


# what makes a document's paragraphs normalized one by one
ONE_BY_ONE = {"\u00ad\u200b\ufeff\uffa0\u3164", "Tеxt", "аnd оr", "русский", "\n", *"ΣИо"}
JOINED_PIECES = [piece for piece in PIECES if piece not in ONE_BY_ONE]


def random_paragraphs(count: int, seed: int) -> list[list[str]]:
    """Documents of paragraphs of random pieces; most of them normalized together."""
    rng = random.Random(seed)
    documents = []
    for _ in range(count):
        pool = rng.choice([PIECES, JOINED_PIECES, JOINED_PIECES])
        paragraphs = [
            "".join(rng.choices(pool, k=rng.randint(0, 12))) for _ in range(rng.randint(0, 8))
        ]
        documents.append(paragraphs)
    return documents


def edge_documents() -> list[list[str]]:
    return [
        [],
        [""],
        ["", ""],
        ["a", "\u0301b"],  # a combining mark starting a paragraph stays alone
        ["\u1100", "\u1161"],  # Hangul jamo apart stay apart
        ["頭", "髮"],  # OpenCC's phrase split by paragraphs: each converted alone
        ["意志消", "沈"],
        ["ascii only", "and more"],
        ["ASCII", "中文", "Mixed 中文", "plain"],
        ["a\nb", "c"],  # a line break inside: one by one
        ["Tеxt", "text"],  # a look-alike: one by one
        ["x\ud800y", "頭髮"],
        ["\u2f00\u2f01", "一"],
        [*chinese_paragraphs()[:30], "Tail in English", "繁體中文的測試"],
    ]


@pytest.mark.parametrize("t2s", [True, False])
def test_normalize_texts_equals_normalize_text_of_each(t2s):
    for paragraphs in edge_documents() + random_paragraphs(3000, 29):
        expected = [normalize_text(p, traditional_to_simplified=t2s) for p in paragraphs]
        assert normalize_texts(paragraphs, traditional_to_simplified=t2s) == expected, paragraphs


def test_normalize_texts_joins_chinese_paragraphs(monkeypatch):
    # the case it is for: many short paragraphs of Chinese, normalized in one call
    paragraphs = chinese_paragraphs(40)[:50]
    calls = []

    class Counting:
        @staticmethod
        def is_normalized(form: str, text: str) -> bool:
            calls.append(text)
            return unicodedata.is_normalized(form, text)

        @staticmethod
        def normalize(form: str, text: str) -> str:
            assert text.count("\n") == len(paragraphs) - 1
            return unicodedata.normalize(form, text)

    monkeypatch.setattr(normalize, "unicodedata", Counting)
    normalize_texts(paragraphs, traditional_to_simplified=True)
    assert len(calls) == 1


def per_paragraph_pieces(paragraphs, traditional_to_simplified, chunk_chars):
    """`token_stream`'s normalized pieces as before: each paragraph's pieces one by one."""
    for paragraph in paragraphs:
        yield [
            normalize_text(piece, traditional_to_simplified=traditional_to_simplified)
            for piece in safe_pieces((paragraph,), chunk_chars)
        ]


def stream_arrays(stream) -> list:
    return [
        stream.hashes,
        stream.is_digit,
        stream.para_starts,
        stream.marks,
        np.array(stream.unbalanced_quotes),
    ]


@pytest.mark.parametrize("chunk_chars", [1, 7, 40, tokens.CHUNK_CHARS])
def test_token_stream_equals_paragraph_by_paragraph(monkeypatch, chunk_chars):
    documents = edge_documents() + random_paragraphs(400, 3)
    documents.append(["References", "Smith, J. (2010). Rivers. 中文", "“引号”里的话", "e s s a y"])
    documents.append(["“他说” " * 20, "中文 " * 30, "a b c d e f g 中 文"])
    for t2s in (True, False):
        for marks in (True, False):
            new = [
                token_stream(p, traditional_to_simplified=t2s, chunk_chars=chunk_chars, marks=marks)
                for p in documents
            ]
            with monkeypatch.context() as patch:
                patch.setattr(tokens, "_normalized_pieces", per_paragraph_pieces)
                old = [
                    token_stream(
                        p, traditional_to_simplified=t2s, chunk_chars=chunk_chars, marks=marks
                    )
                    for p in documents
                ]
            for paragraphs, a, b in zip(documents, new, old, strict=True):
                for x, y in zip(stream_arrays(a), stream_arrays(b), strict=True):
                    assert x.dtype == y.dtype and np.array_equal(x, y), paragraphs


def encoded_may_be_disguised(text: str) -> bool:
    """`may_be_disguised` without its first look: the high bytes of the text's UTF-16."""
    if text.isascii():
        return False
    high_bytes = text.encode("utf-16-le", "surrogatepass")[1::2]
    if not high_bytes.translate(None, confusables._quiet_high_bytes()):
        if "\uffa0" in text:
            return True
        if b"\x20" not in high_bytes:
            return "\xad" in text
        if text.isprintable() or "".join(text.split()).isprintable():
            return False
    patterns = confusables._patterns()
    return bool(patterns["suspect"].search(text) or patterns["suspect_astral"].search(text))


def test_may_be_disguised_equals_the_test_of_high_bytes():
    for code in range(0x110000):  # every character, in Chinese text and alone
        character = chr(code)
        for text in (character, f"中文{character}字", f"a{character}\u2014"):
            assert may_be_disguised(text) == encoded_may_be_disguised(text), hex(code)
    rng = random.Random(41)
    pool = [*PIECES, "\u2028", "\u2014", "\u2060", "\ufe0f", "\U000e0041", "\udc00", "\x01", "\x85"]
    for _ in range(20000):
        text = "".join(rng.choices(pool, k=rng.randint(0, 10)))
        assert may_be_disguised(text) == encoded_may_be_disguised(text), repr(text)
