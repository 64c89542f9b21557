"""The DOCX reader's shortcuts against reading each file afresh: a styles part
is not inflated again when the zip stores it exactly as one read before, and the zip the
format sniff opened is handed on to the reader. Where a shortcut could go wrong (styles
with the same CRC-32 and size, a file replaced after the sniff), the answer is the one
a fresh reading gives."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path

import docx
import pytest
from docx.shared import RGBColor
from lxml import etree
from simsift.core.document import MAX_FILE_BYTES, ExtractionError
from simsift.core.read.extract import docx as docx_reader
from simsift.core.read.extract import docx_parts, extract, sniff_format
from simsift.core.read.extract.docx_parts import NOT_DOCX, read_parts
from simsift.core.read.extract.package import hand_on, take_opened
from simsift.core.read.extract.sniff import is_docx_zip, is_odt_zip

DATA = Path(__file__).resolve().parents[2] / "data" / "extract"
STYLES = "word/styles.xml"
SLOTS = 48  # letters "a"/"c" in a comment of styles.xml, set so that the CRC-32 matches
DEFAULTS = b"<w:rPrDefault><w:rPr>"


def forget_styles() -> None:
    docx_parts._INFLATED_STYLES.clear()
    docx_reader.style_sheet.cache_clear()


def fresh_extract(path: Path) -> tuple:
    """`extract` of `path` with no styles kept from earlier files."""
    forget_styles()
    return outcome(path)


def outcome(path: Path) -> tuple:
    try:
        result = extract(path, ocr=False)
    except ExtractionError as error:
        return ("error", str(error))
    return ("ok", result.title, result.paragraphs, result.hidden, result.warnings)


def essay_bytes() -> bytes:
    """A python-docx document: a plain paragraph, then one whose run is black."""
    document = docx.Document()
    document.add_paragraph("The river carries silt down to the delta every spring.")
    run = document.add_paragraph().add_run("Floods spread the sand over the low fields.")
    run.font.color.rgb = RGBColor.from_string("000000")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def with_styles(package: bytes, styles: bytes) -> bytes:
    """`package` with its styles part replaced by `styles` (deflated)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = styles if info.filename == STYLES else source.read(info)
            target.writestr(info.filename, data, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def slotted(styles: bytes, colour: bytes, letters: list[int]) -> bytes:
    """`styles` with a default run colour and a comment of "a"/"c" letters (1 is "c")."""
    comment = b"<!--" + bytes(0x63 if bit else 0x61 for bit in letters) + b"-->"
    declaration_end = styles.index(b"?>") + 2
    styles = styles[:declaration_end] + comment + styles[declaration_end:]
    assert styles.count(DEFAULTS) == 1
    return styles.replace(DEFAULTS, DEFAULTS + b'<w:color w:val="' + colour + b'"/>')


def letters_matching(styles: bytes, colour: bytes, crc: int) -> list[int]:
    """Letters for `slotted(styles, colour, ...)` whose CRC-32 is `crc`: the CRC is affine
    over GF(2), so each letter flips a fixed set of its bits; Gaussian elimination."""
    base = zlib.crc32(slotted(styles, colour, [0] * SLOTS))
    effects = []
    for i in range(SLOTS):
        letters = [0] * SLOTS
        letters[i] = 1
        effects.append(zlib.crc32(slotted(styles, colour, letters)) ^ base)
    rows: list[tuple[int, int]] = []  # (effect, which letters make it), by leading bit
    for i, effect in enumerate(effects):
        combo = 1 << i
        for row_effect, row_combo in rows:
            if effect ^ row_effect < effect:
                effect, combo = effect ^ row_effect, combo ^ row_combo
        if effect:
            rows.append((effect, combo))
            rows.sort(reverse=True)
    wanted, chosen = crc ^ base, 0
    for row_effect, row_combo in rows:
        if wanted ^ row_effect < wanted:
            wanted, chosen = wanted ^ row_effect, chosen ^ row_combo
    assert wanted == 0, "no letters give that CRC"
    return [(chosen >> i) & 1 for i in range(SLOTS)]


@pytest.fixture
def twin_styles(tmp_path: Path) -> tuple[Path, Path]:
    """Two documents alike but for styles.xml: black text by default in one, white (so
    hidden) in the other, the two styles parts of the same CRC-32 and size."""
    package = essay_bytes()
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        styles = archive.read(STYLES)
    black = slotted(styles, b"000000", [0] * SLOTS)
    white = slotted(styles, b"FFFFFF", letters_matching(styles, b"FFFFFF", zlib.crc32(black)))
    assert black != white and len(black) == len(white)
    assert zlib.crc32(black) == zlib.crc32(white)
    first, second = tmp_path / "black.docx", tmp_path / "white.docx"
    first.write_bytes(with_styles(package, black))
    second.write_bytes(with_styles(package, white))
    return first, second


def test_styles_of_the_same_crc_and_size_never_share_a_sheet(twin_styles) -> None:
    black, white = twin_styles
    alone = {path: fresh_extract(path) for path in twin_styles}
    assert alone[black] != alone[white]
    assert alone[white][3]  # the white paragraph is hidden text
    forget_styles()
    for path in (black, white, black, white):  # each read just after the other
        assert outcome(path) == alone[path]


def test_a_styles_part_stored_alike_comes_back_without_inflating(twin_styles) -> None:
    black, _ = twin_styles
    forget_styles()
    first = read_parts(black, MAX_FILE_BYTES).styles
    again = read_parts(black, MAX_FILE_BYTES).styles
    assert again is first  # so the sheet's cache finds it at once
    with zipfile.ZipFile(black) as archive:
        assert first == archive.read(STYLES)


def with_directory_crc(package: bytes, member: str, crc: int) -> bytes:
    """`package` with the CRC-32 that its local header and central directory give
    `member` set to `crc`, the stored bytes left as they are."""
    data = bytearray(package)
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        info = archive.getinfo(member)
        directory = archive.start_dir
    struct.pack_into("<I", data, info.header_offset + 14, crc)  # local header: CRC at 14
    entry = directory
    while True:  # central directory entries: CRC at 16, name after 46 bytes
        name_length, extra, comment = struct.unpack_from("<HHH", data, entry + 28)
        if data[entry + 46 : entry + 46 + name_length] == member.encode():
            struct.pack_into("<I", data, entry + 16, crc)
            return bytes(data)
        entry += 46 + name_length + extra + comment


def test_stored_bytes_alike_but_another_crc_is_refused_as_before(twin_styles) -> None:
    black, _ = twin_styles
    broken = black.with_name("broken.docx")
    with zipfile.ZipFile(black) as archive:
        crc = archive.getinfo(STYLES).CRC
    broken.write_bytes(with_directory_crc(black.read_bytes(), STYLES, crc ^ 1))
    assert fresh_extract(broken) == ("error", NOT_DOCX)
    assert outcome(black)[0] == "ok"  # its styles now kept, stored as the broken one's
    assert outcome(broken) == ("error", NOT_DOCX)


@pytest.mark.parametrize("how", ["in place", "renamed over"])
def test_a_file_replaced_after_the_sniff_is_read_as_it_is_now(
    twin_styles, tmp_path: Path, how: str
) -> None:
    black, _ = twin_styles
    article = DATA / "article_en.docx"
    path = tmp_path / "replaced.docx"
    path.write_bytes(black.read_bytes())
    assert is_docx_zip(path)  # keeps the zip open for the reader
    if how == "in place":
        path.write_bytes(article.read_bytes())
    else:
        (tmp_path / "new.docx").write_bytes(article.read_bytes())
        (tmp_path / "new.docx").replace(path)
    document = read_parts(path, MAX_FILE_BYTES).document
    expected = read_parts(article, MAX_FILE_BYTES).document
    assert etree.tostring(document) == etree.tostring(expected)


def test_the_sniff_of_a_file_leaves_nothing_open(twin_styles, tmp_path: Path) -> None:
    black, _ = twin_styles
    assert sniff_format(black) == "docx"
    assert take_opened(black) is None
    assert not is_odt_zip(black)  # the zip kept by is_docx_zip is closed, not kept
    assert take_opened(black) is None


def test_a_zip_kept_and_never_taken_is_closed_by_the_next(twin_styles) -> None:
    black, white = twin_styles
    first, second = zipfile.ZipFile(black), zipfile.ZipFile(white)
    hand_on(black, first)
    hand_on(white, second)
    assert first.fp is None  # closed
    assert take_opened(black) is None  # kept for another path: closed, not handed over
    assert second.fp is None


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"plain words, not a zip at all\n", "renamed.docx", NOT_DOCX),
        (b"PK\x03\x04" + bytes(range(256)) * 8, "corrupt.docx", NOT_DOCX),
    ],
)
def test_renamed_and_corrupt_files_give_the_same_errors(
    tmp_path: Path, content: bytes, name: str, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert fresh_extract(path) == ("error", message)


def test_a_docx_named_odt_and_an_odt_named_docx_read_by_their_content(twin_styles) -> None:
    black, _ = twin_styles
    renamed = black.with_name("essay.odt")
    renamed.write_bytes(black.read_bytes())
    assert fresh_extract(renamed) == fresh_extract(black)
    odt = DATA / "article_en.odt"
    as_docx = black.with_name("article.docx")
    as_docx.write_bytes(odt.read_bytes())
    assert outcome(as_docx)[:3] == outcome(odt)[:3]
