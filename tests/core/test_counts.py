"""Characters and words of a document as the extracted-text dialog shows them."""

from __future__ import annotations

import re

from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.text.counts import text_counts
from simsift.core.text.tokens import tokenize

from tests.core.corpus import chinese_paragraphs

HAN = re.compile(r"[\u4e00-\u9fff]")


def test_a_chinese_essay_counts_its_characters_and_jieba_words(tmp_path):
    """The dialog said "2,168 characters · 179 words" for ~1,250 Chinese characters:
    words were runs between spaces, which Chinese text hardly has."""
    paragraphs = [p for p in chinese_paragraphs() if not re.search(r"[A-Za-z]", p)][:12]
    essay = ["　　" + p for p in paragraphs]  # paragraphs indented by two ideographic spaces
    path = tmp_path / "作文.txt"
    path.write_text("\n\n".join(essay), encoding="utf-8")
    [record] = scan(ScanOptions(roots=(str(tmp_path),), workers=0)).documents
    counts = text_counts(record.paragraphs, record.tokens.body)
    han = sum(len(HAN.findall(p)) for p in record.paragraphs)
    printed = sum(len(p.replace("　", "").replace(" ", "")) for p in record.paragraphs)
    assert han > 600
    assert counts.characters == printed  # punctuation counts, blanks do not
    assert han <= counts.characters < 1.4 * han  # with punctuation and digits
    whitespace_words = sum(len(p.split()) for p in record.paragraphs)
    assert whitespace_words < 0.25 * counts.words
    assert 0.4 * han < counts.words < 0.9 * han  # jieba words of one to four characters
    # without the scan's tokens the text is segmented again, to the same words
    again = text_counts(record.paragraphs)
    assert again == counts
    assert counts.words == sum(len(tokenize(p)) for p in record.paragraphs)


def test_english_words_are_words_and_invisible_characters_are_no_characters():
    counts = text_counts(["It's a\u00a0well-known fact.", "Zero\u200bwidth, 3.14 pi"])
    # It's, a, well, known, fact / Zerowidth (the scan drops the zero-width space), 3.14, pi
    assert counts.words == 8
    assert counts.characters == len("It'sawell-knownfact.") + len("Zerowidth,3.14pi")
