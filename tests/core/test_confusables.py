"""Look-alike letters and invisible characters are undone by normalize_text, so a disguised
copy normalizes like its original, and real Russian, Greek and Chinese text is left alone."""

from __future__ import annotations

import random
import unicodedata

import pytest
from simsift.core.text.confusables import (
    INVISIBLE,
    disguised_words,
    lookalike_table,
    may_be_disguised,
)
from simsift.core.text.normalize import normalize_text
from simsift.core.text.tokens import safe_pieces, tokenize

from tests.core.corpus import long_texts

ENGLISH = (
    "The essay argues that open access to research papers helps students in poor "
    "countries, a claim that is supported by a survey of over four hundred readers. "
    "It also looks at how the cost of journals grew and who pays for it today."
)
# Real text in other scripts: never folded (a Russian document stays Russian).
REAL = {
    "russian": "Москва — столица России. Я пою в хоре, а он — нет. У нас есть кот, "
    "и она сказала, что сор в избе оставлять нельзя. Ее ответ: о, да!",
    "ukrainian": "Київ — столиця України, і це місто має довгу історію.",
    "greek": "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας. Ο άνθρωπος και η φύση, οι "
    "άνθρωποι και ο κόσμος. Το σχολείο είναι κοντά.",
    "chinese": "这是一个关于开放获取的研究，它帮助贫穷国家的学生阅读论文。",
    "traditional": "這篇文章討論開放獲取對學生的幫助，以及期刊費用的增長。",
    "mixed_zh_en": "我们用 Python 和 SimHash 做网页去重，Google 在 2007 年发表了这个方法。",
    "quoted_russian": "The Russian word «хор» means a choir, and «сор» means litter; "
    "the word «он» means he.",
    "maths": "Let α be the angle and ρ the density, so that the pressure is p = ρgh "
    "and the torque τ = r × F.",
    "armenian": "Երևանը Հայաստանի մայրաքաղաքն է, և այնտեղ շատ մարդ է ապրում։",
}
VOWELS = str.maketrans({"a": "а", "e": "е", "o": "о", "i": "і", "A": "А", "E": "Е", "O": "О"})


def old_normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_text_of_other_scripts_is_not_folded(name):
    text = REAL[name]
    if name == "maths":  # a lone Greek letter is a symbol; "ρgh" mixes scripts: folded
        assert normalize_text(text) == old_normalize(text).replace("ρgh", "pgh")
        return
    assert normalize_text(text) == old_normalize(text)
    assert list(disguised_words(unicodedata.normalize("NFKC", text))) == []


def test_a_russian_document_keeps_its_tokens():
    assert tokenize(REAL["russian"])[:3] == ["москва", "столица", "россии"]
    assert "а" in tokenize(REAL["russian"])  # the Cyrillic conjunction, not a Latin "a"


def test_every_o_cyrillic():
    copy = ENGLISH.replace("o", "о")
    assert copy != ENGLISH
    assert normalize_text(copy) == normalize_text(ENGLISH)


def test_every_vowel_cyrillic_including_words_wholly_of_look_alikes():
    copy = ENGLISH.translate(VOWELS)
    assert " а " in copy  # the article "a" is wholly Cyrillic: folded among Latin words
    assert normalize_text(copy) == normalize_text(ENGLISH)
    assert tokenize(copy) == tokenize(ENGLISH)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("script", ["CYRILLIC", "GREEK"])
def test_thirty_percent_of_letters_swapped(seed, script):
    """A lone Greek letter is kept (a symbol in maths): the Greek "α" for the article "a"
    stays, every other word matches."""
    rng = random.Random(seed)
    by_target: dict[str, list[str]] = {}
    for source, target in lookalike_table().items():
        if unicodedata.name(source).startswith(script):
            by_target.setdefault(target, []).append(source)
    swappable = [i for i, c in enumerate(ENGLISH) if c in by_target]
    chars = list(ENGLISH)
    for i in rng.sample(swappable, int(0.3 * len(swappable))):
        chars[i] = rng.choice(by_target[chars[i]])
    copy = "".join(chars)
    expected = normalize_text(ENGLISH)
    if script == "GREEK":
        copy = copy.replace(" α ", " a ").replace(" Α ", " A ")
    assert normalize_text(copy) == expected


def test_capitals_that_only_look_latin_in_capitals():
    # Cyrillic Т, Н, В, М, К look Latin only as capitals: folded before case folding
    copy = "ТHE ВOOK МAKES ІT, Нe SAID"
    assert normalize_text(copy) == "the book makes it, he said"


@pytest.mark.parametrize(
    "char",
    [
        "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad",
        "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",
        "\u2066", "\u2067", "\u2068", "\u2069", "\u034f", "\U000e0041",
    ],
)  # fmt: skip
def test_invisible_characters_between_letters_are_removed(char):
    copy = " ".join(char.join(word) for word in ENGLISH.split(" "))
    assert INVISIBLE.search(copy)
    assert normalize_text(copy) == normalize_text(ENGLISH)


@pytest.mark.parametrize("filler", ["\u3164", "\uffa0"])
def test_hangul_filler_for_spaces_separates_words(filler):
    copy = ENGLISH.replace(" ", filler)
    assert tokenize(copy) == tokenize(ENGLISH)


def test_disguises_combined():
    copy = " ".join("\u200b".join(word) for word in ENGLISH.translate(VOWELS).split(" "))
    assert tokenize(copy) == tokenize(ENGLISH)


def test_the_quick_check_lets_clean_text_through():
    clean = [ENGLISH, *long_texts().values(), REAL["chinese"], REAL["mixed_zh_en"]]
    for text in [*clean, "naïve café “quoted” 10 000 €", "全角，标点。"]:
        assert not may_be_disguised(text)
    for text in [ENGLISH.replace("o", "о"), "x\u200by", "x\U000e0041y", "𝛂x"]:
        assert may_be_disguised(text)


def test_mixed_word_folding_is_the_same_in_pieces():
    """Mixed words are folded on their own: pieces cut before spaces fold the same."""
    text = ENGLISH.replace("o", "о") + " " + REAL["russian"]
    whole = normalize_text(text)
    for chunk in (1, 7, 40):
        assert "".join(normalize_text(p) for p in safe_pieces([text], chunk)) == whole


def test_table_comes_from_unicode_confusables():
    table = lookalike_table()
    assert table["а"] == "a" and table["о"] == "o" and table["Η"] == "H" and table["ο"] == "o"
    assert table["І"] == "I"  # a capital imitates a capital I, not the skeleton's "l"
    assert "т" not in table and "λ" not in table  # not look-alikes of a Latin letter
    assert all(len(t) == 1 and t.isascii() for t in table.values())
