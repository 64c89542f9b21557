"""Decoding that knows when it failed: broken UTF-8 stays UTF-8, garbled text is flagged."""

from __future__ import annotations

from pathlib import Path

import pytest
from simsift.core.document import ExtractionError
from simsift.core.read.extract import extract
from simsift.core.read.extract.pdf import without_glyph_numbers

DATA = Path(__file__).resolve().parents[2] / "data" / "extract"
ESSAY = (DATA / "zh_utf8_lines.txt").read_text(encoding="utf-8")


def test_utf8_essay_cut_mid_character_stays_utf8_and_says_so(tmp_path) -> None:
    data = (ESSAY.rstrip() + "。").encode("utf-8")
    cut = data[:-1]  # the last character loses its last byte
    middle = len(data) // 2
    while data[middle] & 0xC0 == 0x80:  # a byte inside a character: drop it too
        middle += 1
    broken = cut[: middle + 1] + cut[middle + 2 :]
    (tmp_path / "essay.txt").write_bytes(broken)
    result = extract(tmp_path / "essay.txt")
    assert result.text[:40] == ESSAY[:40]  # not "鏉庡悓瀛︾殑…"
    assert result.warnings == ("2 characters could not be decoded (shown as �)",)


def test_valid_files_in_any_encoding_have_no_warning() -> None:
    for name in ("zh_gbk.txt", "zh_big5.txt", "zh_utf16.txt", "zh_utf8_lines.txt"):
        assert extract(DATA / name).warnings == (), name
    for name in ("article_zh.docx", "article_zh.pdf", "repost_zh_gbk_nometa.html"):
        assert extract(DATA / name).warnings == (), name


def test_text_saved_after_a_wrong_decoding_is_flagged(tmp_path) -> None:
    garbled = ESSAY.encode("utf-8").decode("gbk", errors="ignore")
    (tmp_path / "garbled.txt").write_text(garbled, encoding="utf-8")
    assert "the Chinese text looks garbled" in extract(tmp_path / "garbled.txt").warnings[0]


def test_traditional_chinese_is_not_mistaken_for_garbage(tmp_path) -> None:
    import opencc

    traditional = opencc.OpenCC("s2t").convert(ESSAY)
    (tmp_path / "big5.txt").write_bytes(traditional.encode("big5", errors="ignore"))
    assert extract(tmp_path / "big5.txt").warnings == ()


def test_latin_mojibake_is_flagged(tmp_path) -> None:
    text = "It’s a café — naïve, déjà vu, résumé. " * 5
    (tmp_path / "m.txt").write_text(text.encode("utf-8").decode("cp1252"), encoding="utf-8")
    (tmp_path / "ok.txt").write_text(text, encoding="utf-8")
    assert "garbled letters" in extract(tmp_path / "m.txt").warnings[0]
    assert extract(tmp_path / "ok.txt").warnings == ()


def test_pdf_glyph_numbers_are_left_out_with_a_warning_or_refused() -> None:
    text, warnings = without_glyph_numbers(["Hello (cid:12)world and more words here"])
    assert text == ["Hello world and more words here"]
    assert warnings == ("1 characters could not be read from the PDF's fonts (left out)",)
    with pytest.raises(ExtractionError, match="no ToUnicode map"):
        without_glyph_numbers(["(cid:3)(cid:4)(cid:5) (cid:9)(cid:3)", "(cid:7)(cid:1)"])


def test_utf16_without_bom_is_read_as_text(tmp_path) -> None:
    english = "An essay saved by a Windows tool without a byte order mark.\n" * 20
    for codec, text in (("utf-16-le", ESSAY), ("utf-16-be", ESSAY), ("utf-16-le", english)):
        (tmp_path / "essay.txt").write_bytes(text.encode(codec))
        result = extract(tmp_path / "essay.txt")
        assert result.text.split()[:5] == text.split()[:5], codec
        assert result.warnings == ()


def test_binary_with_nul_bytes_stays_unsupported(tmp_path) -> None:
    import random

    from simsift.core.document import UnsupportedFormat

    (tmp_path / "data.txt").write_bytes(b"text\x00" + random.Random(1).randbytes(4000))
    with pytest.raises(UnsupportedFormat, match="binary data"):
        extract(tmp_path / "data.txt")


def test_garbled_text_is_left_out_of_the_comparison_unless_asked(tmp_path) -> None:
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan

    garbled = ESSAY.encode("utf-8").decode("gbk", errors="ignore")
    (tmp_path / "garbled.txt").write_text(garbled, encoding="utf-8")
    (tmp_path / "garbled copy.txt").write_text(garbled, encoding="utf-8")
    (tmp_path / "essay.txt").write_text(ESSAY, encoding="utf-8")
    cut = (ESSAY.rstrip() + "。").encode("utf-8")[:-1]
    (tmp_path / "cut.txt").write_bytes(cut)  # a few bad bytes only warn
    default = scan(ScanOptions(roots=(str(tmp_path),), workers=0))
    assert sorted(Path(r.path).name for r in default.garbled) == ["garbled copy.txt", "garbled.txt"]
    assert sorted(Path(d.path).name for d in default.documents) == ["cut.txt", "essay.txt"]
    assert [Path(d.path).name for d in default.warned] == ["cut.txt"]
    asked = scan(ScanOptions(roots=(str(tmp_path),), workers=0, compare_garbled=True))
    assert len(asked.documents) == 4 and asked.garbled == ()
    names = [Path(d.path).name for d in asked.documents]
    pairs = asked.pairs
    pairs = {frozenset((names[a], names[b])) for a, b in zip(pairs.left, pairs.right, strict=True)}
    assert frozenset({"garbled.txt", "garbled copy.txt"}) in pairs


def test_mostly_undecodable_text_is_garbled() -> None:
    from simsift.core.read.extract.checks import is_garbled, text_warnings

    [few] = text_warnings(["Good text " * 100 + "\ufffd"])
    [many] = text_warnings(["\ufffd\ufffd text " * 100])
    assert not is_garbled(few) and is_garbled(many)
