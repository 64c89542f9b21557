"""File names of reports written in a batch: safe on every file system, at most 200 bytes,
unique as a case-insensitive file system sees them, and never a file already there."""

from __future__ import annotations

import os
import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from simsift.core.report.file_names import MAX_NAME_BYTES, report_file_names, safe_stem

FORBIDDEN = set('<>:"/\\|?*')


def is_safe(name: str) -> bool:
    return (
        not any(c in FORBIDDEN or unicodedata.category(c).startswith("C") for c in name)
        and len(name.encode("utf-8")) <= MAX_NAME_BYTES
        and name not in (".", "..")
        and not name.startswith((".", " "))
    )


names = st.text(min_size=0, max_size=300)


@given(st.lists(names, min_size=1, max_size=12), st.lists(names, max_size=5))
def test_names_are_safe_short_and_unique(essays, existing):
    existing = sorted({safe_stem(e) + ".pdf" for e in existing})  # a folder's names
    out = report_file_names(essays, ".pdf", existing, " - similarity report")
    assert len(out) == len(essays)
    assert all(is_safe(name) and name.endswith(".pdf") for name in out)
    assert all(" - similarity report" in name for name in out)
    folded = [unicodedata.normalize("NFC", n).casefold() for n in out]
    assert len(set(folded)) == len(folded)
    assert not set(folded) & {unicodedata.normalize("NFC", n).casefold() for n in existing}


def test_names_keep_the_essay_s_name_readable():
    out = report_file_names(
        ["/class/ana.docx", "/other/Ana.txt", "/class/李明_作文.txt", "/class/ben <&> essay.txt"],
        ".pdf",
        existing=["ANA.pdf"],
    )
    assert out == ["ana (2).pdf", "Ana (3).pdf", "李明_作文.pdf", "ben _&_ essay.pdf"]


def test_odd_names_are_made_safe():
    odd = os.fsdecode(b"b_\xff.txt")  # not UTF-8: a lone surrogate in Python
    out = report_file_names(
        [odd, "a\u202egnp.txt", "../../etc/passwd", "CON.txt", "   .txt", "x\ny.txt"], ".html"
    )
    assert out == [
        "b__.html",
        "a_gnp.html",
        "passwd.html",  # the name only, never its folders
        "_CON.html",
        "report.html",
        "x_y.html",
    ]
    assert all(is_safe(name) for name in out)


def test_a_long_name_is_cut_at_a_character_and_keeps_its_number():
    long = "论" * 150 + ".txt"  # 450 bytes of UTF-8
    first, second = report_file_names([long, long], ".pdf")
    assert len(first.encode()) <= MAX_NAME_BYTES and len(second.encode()) <= MAX_NAME_BYTES
    assert first.endswith("论.pdf") and second.endswith("论 (2).pdf")
