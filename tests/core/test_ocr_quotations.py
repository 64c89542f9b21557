"""Quotation marks in text read by OCR: Tesseract reads specks as „ or “ and
apostrophes as " or ”, so a scanned essay's marks are no sign of disguise (no stray-quote
flag) and set apart only a real quotation; the same marks in a typed file still do."""

from __future__ import annotations

from pathlib import Path

import docx
import numpy as np
import pytest
from simsift.core.document import ExtractedText
from simsift.core.read.extract import ocr
from simsift.core.read.extract.ocr import OcrPage, ocr_summary, read_by_ocr
from simsift.core.read.reader import ReadTask, read_file
from simsift.core.text.integrity import integrity_flags
from simsift.core.text.quotations import QUOTATION, find_quotations
from simsift.core.text.tokens import document_tokens

# a page as OCR reads one: specks read as “ that open nothing, an apostrophe read as ”
SCANNED = [
    "Rivers shape the land they cross. Over thousands of years a river cuts its valley and "
    "carries sand to the sea. “ Farmers settled on these plains because the soil was rich "
    "and water was near, and the first towns grew where a river could be crossed. “ Floods "
    "were both a gift and a danger: they brought new soil every spring, but a high flood "
    "could sweep away houses, fields and the animals on them. The students” notes say "
    "people learned to build banks and channels, and later dams to store water for the dry "
    "months of the year. “ Today engineers measure rainfall to warn the towns below before "
    "a flood.",
    "As one farmer put it, “the river gives and the river takes” in every season, and the "
    "towns still listen to the water.",
]
REAL_QUOTE = "“the river gives and the river takes”"
OCR_WARNING = "read by OCR: 1 page, mean confidence 0.96"


def spans(text: str, **options) -> list[str]:
    return [text[a:b] for a, b in find_quotations(text, **options).spans]


def quoted_words(paragraphs, *, ocr: bool) -> int:
    body = document_tokens("", paragraphs, ocr=ocr).body
    return int(np.count_nonzero(np.asarray(body.marks) == QUOTATION))


# -- the judge ------------------------------------------------------------------------


def test_stray_marks_in_ocr_text_set_nothing_apart_and_count_as_no_unbalanced_mark():
    text = SCANNED[0]
    typed = find_quotations(text)
    assert typed.unbalanced >= 2 and typed.spans  # “ Floods … students” greys text
    read = find_quotations(text, ocr=True)
    assert read.spans == () and read.unbalanced == 0


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ('As Orwell wrote, "all animals are equal" and went on.', ['"all animals are equal"']),
        ("He said “don’t go” and left the room at once.", ["“don’t go”"]),
        ("He said „stay here“ and left the room at once.", ["„stay here“"]),  # „ and “ mixed
        (
            "他说：“这是一个引用。”然后他离开了房间，没有再说一句话，大家都很惊讶。",
            ["“这是一个引用。”"],
        ),
        ('I don"t think it"s right, but "this" is fine.', ['"this"']),  # misread apostrophes
        ("The farmer ” said nothing “ at all about the flood last year.", []),  # specks
        ("A „ speck and a students” note are no quotation, however close.", []),
    ],
)
def test_a_quotation_in_ocr_text_is_one_that_looks_like_one(text, kept):
    assert spans(text, ocr=True) == kept


def test_a_paragraph_that_is_one_quotation_or_mostly_one_is_own_text_in_ocr_text():
    whole = "“The whole paragraph is one quotation of many words, ended by its mark.”"
    assert spans(whole) == [whole]  # typed: the paragraph is set apart
    assert spans(whole, ocr=True) == []
    mostly = "He wrote “" + ("the river runs to the sea " * 3).strip() + "” here."
    assert spans(mostly, ocr=True) == []
    some = mostly + " My own words follow it, many more of them than it holds, " * 2
    assert spans(some, ocr=True) == [mostly[9:-6]]


def test_a_long_quotation_in_ocr_text_is_no_quotation():
    long = "“" + "word " * 45 + "”"
    text = "Before it " + "my own words " * 40 + long + " after it " + "my own words " * 40
    assert spans(text) == [long]  # typed: up to 80 words
    assert spans(text, ocr=True) == []


def test_tokens_of_ocr_text_keep_only_the_real_quotation():
    assert quoted_words(SCANNED, ocr=False) > 25
    assert quoted_words(SCANNED, ocr=True) == 7  # the river gives and the river takes


# -- the flag -------------------------------------------------------------------------


def test_stray_quotation_marks_of_ocr_text_are_not_flagged():
    scanned = ExtractedText("", tuple(SCANNED), "pdf", warnings=(OCR_WARNING,))
    assert integrity_flags(scanned)[0].startswith("stray quotation marks: 2")
    assert integrity_flags(scanned, ocr=True) == ()
    # other disguises are still flagged in OCR text
    spaced = (*SCANNED, "t h e   r i v e r   g i v e s   a n d   t a k e s   a l w a y s")
    flags = integrity_flags(ExtractedText("", spaced, "pdf"), ocr=True)
    assert [f.split(":")[0] for f in flags] == ["letters spaced out"]


def test_the_warnings_of_text_read_by_ocr_are_known():
    page = OcrPage(("text",), 0.9, 10, number=2)
    assert read_by_ocr([ocr_summary([page])])
    assert read_by_ocr([f"scanned page 2 {ocr_summary([page])}"])
    assert read_by_ocr(["text of 2 pictures read by OCR, mean confidence 0.91"])
    assert read_by_ocr(["read by OCR: 1 picture, mean confidence 0.93"])
    assert not read_by_ocr(["1 picture not read by OCR: larger than 40 megapixels"])
    assert not read_by_ocr(
        ["pictures after the first 50 not read by OCR", "text of 2 pictures not read"]
    )
    assert not read_by_ocr([])


# -- whole files ----------------------------------------------------------------------


def record(path: Path):
    return read_file(ReadTask(str(path), path.stat().st_size, 0, 10**9, True))


def test_the_same_marks_in_typed_files_still_flag_and_set_apart(tmp_path):
    text = tmp_path / "typed.txt"
    text.write_text("\n\n".join(SCANNED), encoding="utf-8")
    word = tmp_path / "typed.docx"
    document = docx.Document()
    for paragraph in SCANNED:
        document.add_paragraph(paragraph)
    document.save(word)
    for path in (text, word):
        got = record(path)
        assert got.ok, got.message
        assert [f.split(":")[0] for f in got.flags] == ["stray quotation marks"], path
        assert np.count_nonzero(got.tokens.body.marks == QUOTATION) > 25, path


FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
# the page as printed: SCANNED's words, line by line
PAGE = [
    "Rivers shape the land they cross. Over thousands of years a river",
    "cuts its valley and carries sand to the sea. “ Farmers settled on",
    "these plains because the soil was rich and water was near, and the",
    "first towns grew where a river could be crossed. “ Floods were both",
    "a gift and a danger: they brought new soil every spring, but a high",
    "flood could sweep away houses, fields and the animals on them. The",
    "students” notes say people learned to build banks and channels, and",
    "later dams to store water for the dry months of the year. “ Today",
    "engineers measure rainfall to warn the towns below before a flood.",
    "",
    "As one farmer put it, “the river gives and the river takes” in every",
    "season, and the towns still listen to the water.",
]


@pytest.mark.skipif(ocr.tesseract_path() is None, reason="Tesseract is not installed")
def test_a_scanned_essay_with_stray_marks_is_not_accused(tmp_path):
    image = pytest.importorskip("PIL.Image")
    font = pytest.importorskip("PIL.ImageFont")
    draw = pytest.importorskip("PIL.ImageDraw")
    if not Path(FONT).exists():
        pytest.skip(f"no font {FONT}")
    face = font.truetype(FONT, 40)
    page = image.new("L", (1700, 2200), 255)
    pen = draw.Draw(page)
    for i, line in enumerate(PAGE):
        pen.text((150, 200 + 62 * i), line, font=face, fill=0)
    path = tmp_path / "scan.pdf"
    page.save(path, resolution=200)
    got = record(path)
    assert got.ok and "read by OCR" in got.warning, got.message
    assert got.flags == ()
    marks = np.asarray(got.tokens.body.marks)
    # at most the real quotation is set apart, never the text after a speck
    assert np.count_nonzero(marks == QUOTATION) <= 7
    assert got.tokens.body.unbalanced_quotes == 0
    # read as typed text, the same page would be accused and greyed
    typed = ExtractedText("", got.paragraphs, "pdf")
    assert integrity_flags(typed), got.paragraphs
    assert quoted_words(got.paragraphs, ocr=False) > 7
