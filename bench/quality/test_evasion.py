"""The evasion bench's disguises and writers (fast: no corpus, no scan)."""

from __future__ import annotations

import random

from bench.quality import evasion
from bench.quality.render import Text


def test_lookalike_rates():
    text = "Cooperation of two processes or more"
    every_o = evasion.lookalike(text, "o", random.Random(1))
    assert "o" not in every_o and every_o.count("\u043e") == text.count("o")
    assert evasion.lookalike(text, 0.0, random.Random(1)) == text
    full = evasion.lookalike(text, 1.0, random.Random(1))
    assert len(full) == len(text)
    assert all(b in evasion.LOOKALIKES[a] for a, b in zip(text, full, strict=True) if a != b)
    assert not any(c in evasion.LOOKALIKES for c in full)


def test_invisible_between_letters_only():
    text = "an essay, 2024"
    out = evasion.invisible(text, 1.0, random.Random(2))
    assert "".join(c for c in out if c not in evasion.INVISIBLES) == text
    assert len(out) - len(text) == 1 + 4  # "an", "essay": gaps between adjacent letters
    zh = evasion.invisible("抄袭检测", 1.0, random.Random(2))
    assert len(zh) == 7


def test_spaced_sentences():
    text = Text("t", ("First one. Second one here. Third.",))
    out, n = evasion.spaced(text, random.Random(3))
    assert n in (1, 2) and out.paragraphs[0] != text.paragraphs[0]
    assert evasion.space_letters("an essay") == "a n   e s s a y"


def test_padded_share_and_segments():
    text = Text("t", ("One sentence here. And another one.", "Third sentence."))
    segs, share = evasion.padded(text, ["unrelated words of padding text"] * 3, "en")
    visible = "".join(t for para in segs for t, hidden in para if not hidden)
    assert visible.split() == " ".join(text.paragraphs).split()
    assert 0.4 < share < 0.7


def test_pdf_hidden_text_is_in_the_file(tmp_path):
    from pdfminer.high_level import extract_text

    text = Text("Title words", ("Visible sentence one. Visible sentence two.",))
    segs, _ = evasion.padded(text, ["padding words go here"], "en")
    for style in ("invisible", "white"):
        path = tmp_path / f"{style}.pdf"
        evasion.write_pdf(path, text.title, segs, style)
        got = extract_text(str(path))  # pdfminer alone keeps hidden text: the reader must not
        assert "Visible sentence two." in got and "padding" in got
    evasion.write_pdf(tmp_path / "clean.pdf", text.title, evasion.plain_segments(text))
    assert "padding" not in extract_text(str(tmp_path / "clean.pdf"))


def test_flag_kind():
    assert evasion.flag_kind("hidden text: 40 words the file does not show") == "hidden"
    assert evasion.flag_kind("look-alike letters: 12 Cyrillic letters in Latin words") == (
        "lookalike"
    )
    assert evasion.flag_kind("invisible characters: 30 zero-width spaces") == "invisible"
    assert evasion.flag_kind("something else") == "other"
