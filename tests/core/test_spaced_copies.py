"""A copy with a sentence or two written letter by letter ("e s s a y   i s": letters one
space apart, words three) is found as a copy of its original in every format: the readers
keep the word gaps their whitespace folding would lose (`keep_word_gaps`), and the
comparison joins the letters into the original's words (`join_spaced_letters`)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pytest
from simsift.core.read.extract import extract
from simsift.core.read.extract.paragraphs import clean_paragraph
from simsift.core.text.tokens import document_tokens, tokenize

from tests.core.corpus import long_texts

GAP = "   "


def spaced(sentence: str, gap: str = GAP) -> str:
    """ "e s s a y   i s": letters one space apart, words `gap` apart."""
    return gap.join(" ".join(word) for word in sentence.split())


def essay() -> tuple[str, list[str]]:
    """Title and paragraphs of real text (Python's module documentation)."""
    texts = long_texts()
    paragraphs = [
        " ".join(p.split()) for name in ("json", "heapq") for p in texts[name].split("\n\n")
    ]
    return "JSON and heaps", [p for p in paragraphs if len(p) > 40]


def disguised(paragraphs: list[str], gap: str = GAP) -> list[str]:
    """The paragraphs with the two longest sentences of the longest paragraph spaced out."""
    copy = list(paragraphs)
    i = max(range(len(copy)), key=lambda j: len(copy[j]))
    sentences = re.split(r"(?<=[.:])\s+", copy[i])
    for s in sorted(sentences, key=len)[-2:]:
        copy[i] = copy[i].replace(s, spaced(s, gap))
    assert copy[i] != paragraphs[i]
    return copy


def write_txt(path: Path, title: str, paragraphs: list[str]) -> None:
    path.write_text("\n\n".join([title, *paragraphs]) + "\n", encoding="utf-8")


def write_html(path: Path, title: str, paragraphs: list[str], space: str = " ") -> None:
    """A page whose source holds the spaces typed (`space` for every space but the first
    of a run: "&nbsp;" as Word saves a page)."""

    def body(text: str) -> str:
        return re.sub("(?<= ) ", space, html.escape(text))

    t = html.escape(title)
    ps = "\n".join(f"<p>{body(p)}</p>" for p in paragraphs)
    path.write_text(
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{t}</title></head>\n'
        f"<body><h1>{t}</h1>\n{ps}\n</body></html>\n",
        encoding="utf-8",
    )


def write_docx(path: Path, title: str, paragraphs: list[str]) -> None:
    from docx import Document

    document = Document()
    document.add_heading(title, level=1)
    for p in paragraphs:
        document.add_paragraph(p)  # spaces kept: w:t xml:space="preserve"
    document.save(str(path))


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    """An essay as text, its copies with two sentences spaced out as an HTML page (plain
    spaces, and &nbsp; as Word saves them) and a Word document, and unrelated essays."""
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan

    root = tmp_path_factory.mktemp("spaced")
    title, paragraphs = essay()
    copy = disguised(paragraphs)
    write_txt(root / "original.txt", title, paragraphs)
    write_html(root / "copy.html", title, copy)
    write_html(root / "copy_nbsp.html", title, copy, space="&nbsp;")
    write_docx(root / "copy.docx", title, copy)
    for name, text in long_texts().items():
        if name not in ("json", "heapq"):
            write_txt(root / f"{name}.txt", name, text.split("\n\n"))
    return scan(ScanOptions(roots=(str(root),), workers=0))


@pytest.mark.parametrize("copy", ["copy.html", "copy_nbsp.html", "copy.docx"])
def test_a_spaced_copy_is_found_as_a_whole_copy_of_its_original(scanned, copy):
    from simsift.core.pipeline.options import DEFAULT_K

    number = {Path(d.path).name: i for i, d in enumerate(scanned.documents)}
    a, b = number["original.txt"], number[copy]
    pairs = scanned.pairs.within(DEFAULT_K)
    found = {frozenset((int(x), int(y))) for x, y in zip(pairs.left, pairs.right, strict=True)}
    assert frozenset((a, b)) in found, scanned.distance(a, b)
    # its words are the original's: the same fingerprint
    assert scanned.distance(a, b) == 0
    assert any(f.startswith("letters spaced out") for f in scanned.documents[b].flags)
    assert scanned.documents[a].flags == ()


@pytest.mark.parametrize("suffix", [".html", ".docx", ".txt"])
def test_readers_keep_the_word_gaps_of_letters_spaced_out(tmp_path, suffix):
    title, paragraphs = essay()
    copy = disguised(paragraphs)
    path = tmp_path / f"copy{suffix}"
    {".html": write_html, ".docx": write_docx, ".txt": write_txt}[suffix](path, title, copy)
    extracted = extract(path)
    assert list(extracted.paragraphs) == copy
    np.testing.assert_array_equal(
        document_tokens(title, extracted.paragraphs).body.hashes,
        document_tokens(title, paragraphs).body.hashes,
    )


@pytest.mark.parametrize(
    ("read", "shown"),
    [
        ("the e s s a y   i s   h e r e .", "the e s s a y   i s   h e r e ."),
        ("e s s a y\u00a0\u00a0 i s\u00a0 h e r e", "e s s a y   i s  h e r e"),
        ("S U M M A R Y   O F   T H E   W E E K", "S U M M A R Y   O F   T H E   W E E K"),
        # ordinary whitespace folds as before
        ("Two spaces.  After  a sentence\n\tand a  b  c", "Two spaces. After a sentence and a b c"),
        ("f ( x )  =  a x + b y - c z", "f ( x ) = a x + b y - c z"),  # no word of 3 letters
        ("l l l l   l l l l", "l l l l l l l l"),  # a few letters repeated
        ("a b c d e f g h", "a b c d e f g h"),  # one gap width: nothing to keep
        ("无 法   删 除 文 件 内 容", "无 法 删 除 文 件 内 容"),  # Chinese joins whole anyway
        ("e s s a y\n  i s   a   b o o k", "e s s a y i s   a   b o o k"),  # a line break
    ],
)
def test_clean_paragraph_keeps_only_word_gaps_of_letters_spaced_out(read, shown):
    assert clean_paragraph(read) == shown


@pytest.mark.parametrize(
    "sentence",
    [
        "Dams hold the sediment back, so many deltas now shrink each year.",
        'window = np.bartlett(51); plt.title("Bartlett window") at 25.5 Hz.',
        "It is (exactly 3) one-sided: a[k] <= a[2*k+1] for all k.",
    ],
)
def test_a_spaced_stretch_with_word_gaps_reads_as_written(sentence):
    """Punctuation and digits inside words join too: the gaps between words tell where
    the words end. Quotation marks spaced out do not cut the stretch into pieces too short
    to join, and the quotation is found as in the original."""
    assert tokenize(spaced(sentence)) == tokenize(sentence)
    _, paragraphs = essay()
    copy = document_tokens("", [paragraphs[0], spaced(sentence)]).body
    original = document_tokens("", [paragraphs[0], sentence]).body
    np.testing.assert_array_equal(copy.hashes, original.hashes)
    np.testing.assert_array_equal(copy.marks, original.marks)


def test_letters_one_space_everywhere_still_join_into_one_word():
    assert tokenize(spaced("Dams hold the sediment back", " ")) == ["damsholdthesedimentback"]


@pytest.mark.parametrize(
    ("read", "words"),
    [
        (
            "(D a m s   h o l d   t h e   s e d i m e n t   b a c k, s o   m a n y).",
            "dams hold the sediment back so many",
        ),
        ('He said "t h e   e s s a y   i s   m i n e" twice', "he said the essay is mine twice"),
    ],
)
def test_punctuation_left_unspaced_next_to_a_stretch_cuts_no_word(read, words):
    assert tokenize(clean_paragraph(read)) == words.split()
