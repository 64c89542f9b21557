"""Integrity flags appear on disguised copies (look-alike letters, invisible characters,
letters spaced out, spaces replaced) and not on clean real text; a disguised copy still
has the original's tokens, so it matches as a whole copy."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from simsift.core.document import ExtractedText
from simsift.core.text import integrity
from simsift.core.text.integrity import integrity_flags
from simsift.core.text.tokens import document_tokens, token_stream

from tests.core.corpus import chinese_paragraphs, long_texts
from tests.core.test_confusables import ENGLISH, REAL

ZH_TEXT = Path(__file__).resolve().parents[1] / "data" / "zh_text"
CYRILLIC = str.maketrans({"a": "а", "e": "е", "o": "о", "c": "с", "p": "р", "x": "х", "y": "у"})


def essay() -> list[str]:
    texts = list(long_texts().values())[:3]
    return [ENGLISH, *(t[:1500] for t in texts)]


def doc(paragraphs, title="") -> ExtractedText:
    return ExtractedText(title=title, paragraphs=tuple(paragraphs), format="txt")


def swap(text: str, share: float, seed: int = 0) -> str:
    rng = random.Random(seed)
    return "".join(
        c.translate(CYRILLIC) if c in "aeocpxy" and rng.random() < share else c for c in text
    )


def flag_kinds(extracted: ExtractedText) -> list[str]:
    return [f.split(":")[0] for f in integrity_flags(extracted)]


DISGUISES = {
    "every o Cyrillic": (lambda p: p.replace("o", "о"), "look-alike letters"),
    "30% of letters swapped": (lambda p: swap(p, 0.3), "look-alike letters"),
    "zero-width between letters": (
        lambda p: " ".join("\u200b".join(w) for w in p.split(" ")),
        "invisible characters",
    ),
    "bidi marks between letters": (
        lambda p: " ".join("\u200e".join(w) for w in p.split(" ")),
        "invisible characters",
    ),
    "letters spaced out": (lambda p: " ".join(p.replace(" ", "")), "letters spaced out"),
    "spaces replaced by Hangul fillers": (lambda p: p.replace(" ", "\u3164"), "spaces replaced"),
    "spaces replaced by Braille blanks": (lambda p: p.replace(" ", "\u2800"), "spaces replaced"),
}


@pytest.mark.parametrize("name", sorted(DISGUISES))
def test_disguised_copy_is_flagged(name):
    disguise, kind = DISGUISES[name]
    flags = integrity_flags(doc([disguise(p) for p in essay()]))
    assert kind in [f.split(":")[0] for f in flags], flags
    flag = next(f for f in flags if f.startswith(kind))
    assert "e.g." in flag or "of" in flag  # each flag gives its evidence


@pytest.mark.parametrize("gap", [" ", "   "])
def test_one_spaced_sentence_is_flagged(gap):
    """One sentence of an essay written letter by letter, words one or three spaces apart."""
    sentence = "Dams hold the sediment back, so many deltas now shrink each year."
    spaced = gap.join(" ".join(word) for word in sentence.split())
    paragraphs = essay()
    paragraphs[1] = paragraphs[1][:400] + " " + spaced + " " + paragraphs[1][400:]
    assert "letters spaced out" in flag_kinds(doc(paragraphs))


def test_one_spaced_chinese_sentence_is_flagged():
    """Chinese spaced out, its commas and quotation marks spaced too, in a Chinese essay."""
    sentence = "无 法 删 除 文 件 或 目 录 “ % s ” ： % m ， 无 法 把 文 件 重 命 名"
    paragraphs = chinese_paragraphs()
    paragraphs[1] = paragraphs[1][:60] + sentence + paragraphs[1][60:]
    assert "letters spaced out" in flag_kinds(doc(paragraphs))


@pytest.mark.parametrize(
    "lines",
    [
        ["T H E   R E S U L T   I S", "I N S T A N C E   A T T R I B U T E S : O P T I O N"],
        ["a b c d e f g i j k r x y z", "a x b y c z p d q", "b c d e f j k l m r s t"],
    ],
    ids=["capital headings", "lists of letters"],
)
def test_spaced_headings_and_letter_lists_are_not_flagged(lines):
    assert "letters spaced out" not in flag_kinds(doc([*essay(), *lines, *lines]))


@pytest.mark.parametrize("gap", [" ", "   "])
def test_spaced_sentence_reads_as_its_words(gap):
    """Letters spaced out are joined again before comparison: words three spaces apart give
    the original's tokens, words one space apart one token per stretch (near the original);
    Chinese spaced out gives the original's words."""
    sentence = "Dams hold the sediment back, so many deltas now shrink each year."
    spaced = ", ".join(gap.join(" ".join(w) for w in part.split()) for part in sentence.split(", "))
    original = document_tokens("", [ENGLISH, sentence]).body.hashes
    copy = document_tokens("", [ENGLISH, spaced]).body.hashes
    if gap == "   ":
        np.testing.assert_array_equal(copy, original)
    else:
        assert len(copy) == len(document_tokens("", [ENGLISH]).body.hashes) + 2
    chinese = "委员会审阅了年度报告发现预算主要用于教学材料"
    np.testing.assert_array_equal(
        document_tokens("", [" ".join(chinese)]).body.hashes,
        document_tokens("", [chinese]).body.hashes,
    )


def test_look_alike_flag_names_the_letters():
    flags = integrity_flags(doc([p.replace("o", "о") for p in essay()], title="Тhe Essay"))
    (flag,) = [f for f in flags if f.startswith("look-alike")]
    assert "Cyrillic letters" in flag and "о→o ×" in flag and "e.g. “" in flag


@pytest.mark.parametrize(
    "name", ["every o Cyrillic", "30% of letters swapped", "zero-width between letters"]
)
def test_disguised_copy_has_the_original_tokens(name):
    """Normalization undoes the disguise: the copy would match as a whole copy."""
    disguise, _ = DISGUISES[name]
    original = document_tokens("An Essay", essay())
    copy = document_tokens(disguise("An Essay"), [disguise(p) for p in essay()])
    np.testing.assert_array_equal(copy.body.hashes, original.body.hashes)
    np.testing.assert_array_equal(copy.title.hashes, original.title.hashes)


def clean_documents() -> dict[str, ExtractedText]:
    docs = {name: doc([text]) for name, text in REAL.items()}
    docs["english essay"] = doc(essay(), title="On Open Access")
    docs["python docstrings"] = doc(list(long_texts().values()))
    docs["chinese"] = doc(chinese_paragraphs())
    for path in sorted(ZH_TEXT.glob("*.txt")):
        docs[path.name] = doc([p for p in path.read_text(encoding="utf-8").split("\n") if p])
    docs["slide deck"] = doc(
        [
            *("S U M M A R Y", "I N T R O D U C T I O N", "R E S U L T S", "T H A N K Y O U"),
            *("Key points: a b c d", "Plan A — x y z"),
        ]
    )
    docs["maths"] = doc(
        [
            "Let α, β and γ be angles of a triangle, so α + β + γ = π; for small x, "
            "sin x ≈ x and the series a b c d e f converge. ρgh is the pressure, "
            "ωt the phase and νλ = c the wave relation."
        ]
        * 5
    )
    docs["code listing"] = doc(
        ["for i in range(n): x = a[i] * b[i] + c", "if (p && q || r) { s = t ? u : v; }"] * 10
    )
    docs["french"] = doc(
        ["Il a dit\u00a0: «\u00a0Bonjour\u00a0!\u00a0» Le prix est de 10\u202f000\u00a0€."] * 20
    )
    docs["table column specs"] = doc(["l l l l l l l l l l l l l l l l l l l l l l l l l"] * 6)
    docs["full-width punctuation"] = doc(["中文，全角标点：“引号”！（括号）Ａ１２３。"] * 20)
    return docs


@pytest.mark.parametrize("name", sorted(clean_documents()))
def test_clean_real_text_is_not_flagged(name):
    assert integrity_flags(clean_documents()[name]) == ()


def test_hidden_text_flag_kept():
    hidden = ("this text is hidden from the reader " * 3,)
    extracted = ExtractedText("", (ENGLISH,), "docx", hidden=hidden)
    assert flag_kinds(extracted) == ["hidden text"]


@pytest.mark.parametrize("disguise", ["cyrillic", "zero_width"])
def test_a_disguised_copy_on_disk_is_the_same_text_and_flagged(tmp_path, disguise):
    """End to end, as a teacher meets it: the copy pairs with its source as the same text,
    and the copy, only the copy, carries the flag."""
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan

    original = ENGLISH
    if disguise == "cyrillic":
        copy = original.replace("o", "\u043e").replace("a", "\u0430")
    else:
        copy = " ".join(w[:2] + "\u200b" + w[2:] if len(w) > 4 else w for w in original.split(" "))
    (tmp_path / "source.txt").write_text(original, encoding="utf-8")
    (tmp_path / "copy.txt").write_text(copy, encoding="utf-8")
    result = scan(ScanOptions(roots=(str(tmp_path),), workers=0))
    by_name = {Path(d.path).name: d for d in result.documents}
    assert by_name["source.txt"].text_hash == by_name["copy.txt"].text_hash
    assert len(result.pairs.within(0)) == 1
    assert by_name["source.txt"].flags == ()
    kind = "look-alike letters" if disguise == "cyrillic" else "invisible characters"
    assert any(f.startswith(kind) for f in by_name["copy.txt"].flags), by_name["copy.txt"].flags


def test_an_essay_mostly_in_quotation_marks_is_flagged():
    from simsift.core.text.integrity import set_apart_flags
    from simsift.core.text.tokens import token_stream

    quoted = token_stream(["He said “" + "the river runs to the sea " * 10 + "” and left."])
    assert set_apart_flags(quoted)[0].startswith("mostly quoted: 9")
    own = token_stream(["He said “the river runs” and left. " + "my own words here " * 20])
    assert set_apart_flags(own) == ()


def test_a_stray_opening_quotation_mark_is_flagged_and_straight_quotes_are_not():
    from simsift.core.text.integrity import stray_quotes_flag

    stray = ["He said “ " + "the river runs to the sea " * 30]
    assert stray_quotes_flag(stray) == ""  # one is as likely a typo
    assert stray_quotes_flag(stray * 2).startswith("stray quotation marks: 2 open no quotation")
    assert stray_quotes_flag(["He said “the river runs” and left."]) == ""
    assert stray_quotes_flag(['the quote character (") is doubled: "a ""b"" c"']) == ""


def spaced_out_texts(count: int, seed: int) -> list[str]:
    """Words written letter by letter with gaps of 0 to 4 blanks of several kinds between
    the letters (a tab, a no-break space, a line break, a comma among them), amid words."""
    rng = random.Random(seed)
    words = ["essay", "students", "written", "Plagiarism", "中文字符", "x1.(y)", "the", "a"]
    gaps = ["", " ", " ", " ", "  ", "   ", "    ", "\t", "\u00a0", "\n", ", "]
    texts = []
    for _ in range(count):
        letters = "".join(rng.choices(words, k=rng.randint(1, 6)))
        spaced = "".join(letter + rng.choice(gaps) for letter in letters)
        texts.append(rng.choice(["", "Here ", "见 "]) + spaced + rng.choice(["", " end.", "。"]))
    return texts


def test_the_quick_look_for_spaced_runs_never_drops_one(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [p for text in long_texts().values() for p in text.split("\n\n")]
    texts += chinese_paragraphs() + spaced_out_texts(20_000, 5)
    fast = [[m.span() for m in integrity.spaced_runs(text)] for text in texts]
    monkeypatch.setattr(integrity, "_SPACED_RUN_INSIDE", re.compile(""))  # every text searched
    assert fast == [[m.span() for m in integrity.spaced_runs(text)] for text in texts]
    assert sum(map(bool, fast)) > 500  # runs were found, in many texts


def every_flag() -> list[str]:
    """One flag of each kind, as the engine writes them."""
    stray = "He said “ " + "the river runs to the sea " * 30
    flags = [
        integrity.hidden_text_flag(("words nobody sees " * 6,)),
        integrity.hidden_text_flag(("words nobody sees " * 3, "and more hidden here " * 3)),
        integrity.lookalike_flag(["Тhе соmmіttее rеvіеwеd thе аnnuаl rероrt"]),
        integrity.invisible_flag(["es\u200bsay wri\u200bting " * 5]),
        integrity.spaced_letters_flag(["t h e   r i v e r   g i v e s   a n d   t a k e s"]),
        integrity.odd_spaces_flag(["the\u2800river\u2800runs\u2800to\u2800the\u2800sea " * 5]),
        integrity.stray_quotes_flag([stray, stray]),
        *integrity.set_apart_flags(token_stream(["“" + "the river runs to the sea " * 10 + "”"])),
    ]
    assert all(flags), flags
    kinds = {flag.split(":")[0] for flag in flags}
    assert len(kinds) == 7, kinds  # every kind the engine has
    return flags
