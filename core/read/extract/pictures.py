"""Text in pictures inside DOCX, ODT and HTML files, read by OCR (Tesseract).

A student may paste a screenshot of copied text into an essay so that a checker comparing
words does not see it. The readers hand each picture they meet, in reading order, to a
`PictureReader`, and place the text it gives at the picture's place. Pictures too small to
hold a line of text (icons, bullets, rules) are passed over, and so are pictures of a format
Tesseract does not read (EMF, WMF, SVG). Their dimensions come from the file's header before
anything is decoded, so a picture declaring 20,000 × 20,000 pixels is never unpacked.
Tesseract decodes the picture itself (PNG, JPEG, GIF, TIFF, BMP, WebP): nothing is decoded
in Python.

With OCR off, pictures that could hold text are counted (`unread`), and the file says so:
a scan reads it again with OCR (`core.pipeline.stages.wants_ocr`) and the catalog does not
keep it. Without Tesseract they are counted but nothing is said: most pictures in essays are
photographs and diagrams, and a warning on each would be noise.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import struct
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import NoReturn
from urllib.parse import unquote, unquote_to_bytes, urlsplit

from simsift.core.document import (
    ExtractedText,
    ExtractionError,
    TransientError,
    UnsupportedFormat,
)
from simsift.core.read.extract import ocr
from simsift.core.read.extract.paragraphs import build_result, clean_paragraph, split_heading

__all__ = [
    "MAX_PICTURES",
    "PICTURE_SECONDS",
    "PictureReader",
    "PictureText",
    "html_pictures",
    "package_pictures",
    "picture_size",
    "without_title",
]

# A picture smaller than this either way round holds no line of text worth reading.
MIN_LONG_SIDE = 200
MIN_SHORT_SIDE = 20
# Pictures of more pixels (all frames of a GIF together) are not read: Tesseract would
# unpack them whole. The same bound as a rendered scan page.
MAX_PIXELS = ocr.MAX_PIXELS
MAX_SIDE = 30_000
# A picture file larger than this is not read at all.
MAX_PICTURE_BYTES = 50 * 2**20
# At most this many pictures of one file are read, in this many seconds in all: the
# reader's time budget grows by `ocr.OCR_SECONDS` when OCR is on, so this ends first.
MAX_PICTURES = 50
PICTURE_SECONDS = 120.0
_EACH_SECONDS = 60.0
# Text read with a lower mean confidence is a photograph's shapes taken for letters; a
# screenshot of text reads at 0.9 or more.
MIN_CONFIDENCE = ocr.LOW_CONFIDENCE


class PictureText(str):
    """A paragraph read from a picture: placed in the text, never taken for its title."""

    __slots__ = ()


Load = Callable[[str], bytes | None]


class PictureReader:
    """Text of one file's pictures, each picture (by its key: a zip member, an <img> src)
    read once, within the file's limits; what it read and skipped, for the file's warning."""

    def __init__(self, load: Load, ocr_on: bool) -> None:
        self._load = load
        self._off = not ocr_on
        self._program: str | None = None  # Tesseract, looked for at the first picture
        self._looked = self._off
        self._read: dict[str, tuple[PictureText, ...]] = {}
        self._pages: list[ocr.OcrPage] = []
        self._languages = ""
        self._deadline = 0.0
        self._tried = 0
        self.unread = 0  # pictures that may hold text, not read: OCR off or unavailable
        self._too_large = 0
        self._over_count = 0
        self._late = 0
        self._failed = 0

    def paragraphs(self, key: str) -> tuple[PictureText, ...]:
        """The text of the picture `key` names, one paragraph per block of lines; none for
        a picture that is missing, unreadable, too small or too large, or holds no text."""
        if key not in self._read:
            self._read[key] = self._text_of(key)
        return self._read[key]

    def _text_of(self, key: str) -> tuple[PictureText, ...]:
        if self._tried + self.unread >= MAX_PICTURES:  # not even loaded
            self._over_count += 1
            return ()
        data = self._load(key) if key else None
        size = picture_size(data) if data else None
        if size is None or not _may_hold_text(size):
            return ()
        if not self._looked:
            self._program, self._looked = ocr.tesseract_path(), True
        if size[2] > MAX_PIXELS or max(size[:2]) > MAX_SIDE:
            if self._program is not None:  # with OCR off it would not be read anyway
                self._too_large += 1
            return ()
        if self._program is None:
            self.unread += 1
            return ()
        self._tried += 1
        return self._ocr(data)

    def _ocr(self, data: bytes) -> tuple[PictureText, ...]:
        if not self._deadline:
            self._deadline = time.monotonic() + PICTURE_SECONDS
        left = self._deadline - time.monotonic()
        if left <= 0:
            self._late += 1
            return ()
        try:
            page, languages = ocr.read_picture(
                self._program, data, self._languages, min(left, _EACH_SECONDS)
            )
        except ocr.OcrUnavailable:  # no language data, or it cannot run: as if not installed
            self._program = None
            self.unread += 1
            return ()
        except ocr.TesseractFailed:  # killed (memory?): read again next scan
            self.unread += 1
            self._failed += 1
            return ()
        except ExtractionError:  # it took too long
            self._late += 1
            return ()
        except ValueError:  # Tesseract's table did not read
            return ()
        if not _holds_text(page):
            return ()
        self._languages = languages  # the first picture with text decides, as in a scan
        self._pages.append(page)
        return tuple(PictureText(text) for text in _joined(page.boxes))

    def warnings(self) -> tuple[str, ...]:
        """What the file's warning says of its pictures (nothing when none was read)."""
        said = []
        if self._pages:
            words = sum(p.words for p in self._pages)
            mean = sum(p.confidence * p.words for p in self._pages) / words
            said.append(
                f"text of {_pictures(len(self._pages))} read by OCR, mean confidence {mean:.2f}"
            )
        if self._off and self.unread:
            said.append(f"text of {_pictures(self.unread)} not read{ocr.OCR_OFF}")
        if self._too_large:
            said.append(
                f"{_pictures(self._too_large)} not read by OCR: larger than "
                f"{MAX_PIXELS // 1_000_000} megapixels"
            )
        if self._over_count and self._tried:
            said.append(f"pictures after the first {MAX_PICTURES} not read by OCR")
        if self._failed:
            said.append(f"text of {_pictures(self._failed)} not read (Tesseract was killed)")
        if self._late:
            said.append(
                f"OCR of pictures stopped after {PICTURE_SECONDS:.0f} s: "
                f"{_pictures(self._late)} not read"
            )
        return tuple(said)

    def marked(self, result: ExtractedText) -> ExtractedText:
        """`result` with the warnings and the count of unread pictures."""
        return replace(
            result,
            warnings=result.warnings + self.warnings(),
            unread_pictures=result.unread_pictures + self.unread,
        )

    def raise_no_text(self, error: ExtractionError) -> NoReturn:
        """Raise the error of a file with no text of its own: `error`, or when the file holds
        pictures OCR did not read (OCR off or not installed) an error not remembered, so
        that the file is read again, with OCR once it is on."""
        if not self.unread:
            raise error
        if self._off:
            raise TransientError(f"{error}{ocr.OCR_OFF}") from error
        raise ocr.OcrUnavailable(f"{error}; {ocr.UNAVAILABLE}") from error


def _pictures(count: int) -> str:
    return f"{count} picture" if count == 1 else f"{count} pictures"


def _may_hold_text(size: tuple[int, int, int]) -> bool:
    width, height, _ = size
    return max(width, height) >= MIN_LONG_SIDE and min(width, height) >= MIN_SHORT_SIDE


def _holds_text(page: ocr.OcrPage) -> bool:
    """Whether a picture's reading is text: read with confidence, and not bars and dashes of
    a chart taken for words (fewer than 1.5 letters or digits a word, as for scans)."""
    text = " ".join(page.boxes)
    words = len(text.split())
    letters = sum(c.isalnum() for c in text)
    return page.confidence >= MIN_CONFIDENCE and words > 0 and letters >= 1.5 * words


def _joined(boxes: Sequence[str]) -> list[str]:
    """Each block's lines joined as a scanned page's are (hyphens, Chinese line wraps)."""
    from simsift.core.read.extract.pdf_text import joined_paragraphs

    return [text for text in joined_paragraphs(list(boxes)) if clean_paragraph(text)]


def without_title(paragraphs: Sequence[str], title: str) -> list[str]:
    """`paragraphs` less the first one with text when it is `title` and not a picture's.

    Readers find the title in their paragraphs without the pictures' text (so a screenshot
    above the title does not change it); this takes it out of those with the pictures."""
    kept = list(paragraphs)
    for index, text in enumerate(kept):
        if isinstance(text, PictureText) or not clean_paragraph(text):
            continue
        if title and clean_paragraph(text) == title:
            del kept[index]
        break
    return kept


@contextlib.contextmanager
def package_pictures(path: Path, ocr_on: bool) -> Iterator[PictureReader]:
    """A reader of the pictures of the zip package (DOCX, ODT) at `path` by member name;
    the zip is opened again, on the first picture asked for."""
    archive: list[zipfile.ZipFile] = []

    def load(member: str) -> bytes | None:
        try:
            if not archive:
                archive.append(zipfile.ZipFile(path))
            info = archive[0].getinfo(member)
            if info.file_size > MAX_PICTURE_BYTES:
                return None
            return archive[0].read(info)
        except (KeyError, OSError, EOFError, RuntimeError, NotImplementedError, ValueError,
                zipfile.BadZipFile, zlib.error):  # fmt: skip
            return None  # missing, encrypted, damaged: a picture not read

    try:
        yield PictureReader(load, ocr_on)
    finally:
        if archive:
            archive[0].close()


def html_pictures(folder: Path | None, ocr_on: bool) -> PictureReader:
    """A reader of an HTML page's pictures by their <img> src: data: URIs, and files
    named relative to the page (a saved page's "page_files/" folder) when `folder` (the
    page's own) is known. Nothing is fetched from the network."""
    return PictureReader(lambda src: _html_picture(src, folder), ocr_on)


def _html_picture(src: str, folder: Path | None) -> bytes | None:
    src = src.strip()
    if src[:5].lower() == "data:":
        return _data_uri(src)
    parts = urlsplit(src)
    if folder is None or parts.scheme or parts.netloc or not parts.path:
        return None  # the network, another drive, file:// URLs: never read
    name = unquote(parts.path)
    if name.startswith(("/", "\\")):
        return None
    try:
        base = folder.resolve()
        file = (base / name).resolve()
        if not file.is_relative_to(base) or not file.is_file():
            return None
        if file.stat().st_size > MAX_PICTURE_BYTES:
            return None
        return file.read_bytes()
    except (OSError, ValueError, RuntimeError):  # unreadable, a name the system refuses
        return None


def _data_uri(src: str) -> bytes | None:
    """The bytes of a data: URI (base64 or percent-encoded); None when too large or bad."""
    header, comma, payload = src[5:].partition(",")
    if not comma or len(payload) > MAX_PICTURE_BYTES * 4 // 3 + 4:
        return None
    try:
        if header.lower().endswith(";base64"):
            return base64.b64decode(payload)
        return unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None


def picture_size(data: bytes) -> tuple[int, int, int] | None:
    """(width, height, pixels to decode) of a PNG, JPEG, GIF, TIFF, BMP or WebP picture
    from its header, None for another format or a header that does not read. Only bytes
    that pass this go to Tesseract, which takes other bytes for a list of file names."""
    for magic, size_of in _FORMATS:
        if data.startswith(magic):
            try:
                size = size_of(data)
            except (struct.error, IndexError):
                return None
            if size is None or min(size) <= 0:
                return None
            return size
    return None


def _plain(width: int, height: int) -> tuple[int, int, int]:
    return width, height, width * height


def _png_size(data: bytes) -> tuple[int, int, int] | None:
    if data[12:16] != b"IHDR":
        return None
    return _plain(*struct.unpack(">II", data[16:24]))


# SOF markers (frame headers); C4, C8 and CC are other segments
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(data: bytes) -> tuple[int, int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
        elif marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            at += 2
        elif marker in _JPEG_FRAMES:
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return _plain(width, height)
        elif marker in (0xD9, 0xDA):  # the image ends or its data starts: no frame header
            return None
        else:
            at += 2 + struct.unpack(">H", data[at + 2 : at + 4])[0]
    return None


def _gif_size(data: bytes) -> tuple[int, int, int] | None:
    """The screen's size, and the pixels of all frames (Tesseract's GIF reader unpacks
    every frame of an animation)."""
    width, height, packed = struct.unpack("<HHB", data[6:11])
    at = 13 + (3 << ((packed & 7) + 1) if packed & 0x80 else 0)
    pixels = 0
    while at < len(data):
        block = data[at]
        if block == 0x3B:  # trailer
            break
        if block == 0x2C:  # a frame: its size, colour table, then its data in sub-blocks
            frame_width, frame_height, packed = struct.unpack("<HHB", data[at + 5 : at + 10])
            pixels += frame_width * frame_height
            at += 11 + (3 << ((packed & 7) + 1) if packed & 0x80 else 0)
        elif block == 0x21:  # an extension: its label, then sub-blocks
            at += 2
        else:
            return None
        while at < len(data) and data[at]:
            at += data[at] + 1
        at += 1
    return (width, height, pixels) if pixels else None


def _bmp_size(data: bytes) -> tuple[int, int, int] | None:
    header = struct.unpack("<I", data[14:18])[0]
    if header == 12:  # OS/2 BITMAPCOREHEADER
        return _plain(*struct.unpack("<HH", data[18:22]))
    width, height = struct.unpack("<ii", data[18:26])
    return _plain(width, abs(height))  # a negative height: rows stored top down


def _tiff_size(data: bytes) -> tuple[int, int, int] | None:
    """The first page's size; None for a TIFF of several pages (Tesseract reads them all)."""
    order = "<" if data[:2] == b"II" else ">"
    first = struct.unpack(order + "I", data[4:8])[0]
    count = struct.unpack(order + "H", data[first : first + 2])[0]
    found: dict[int, int] = {}
    for at in range(first + 2, first + 2 + 12 * count, 12):
        tag, kind = struct.unpack(order + "HH", data[at : at + 4])
        if tag in (256, 257):  # ImageWidth, ImageLength: SHORT or LONG
            value = data[at + 8 : at + 10] if kind == 3 else data[at + 8 : at + 12]
            found[tag] = struct.unpack(order + ("H" if kind == 3 else "I"), value)[0]
    after = first + 2 + 12 * count
    if struct.unpack(order + "I", data[after : after + 4])[0] != 0 or len(found) < 2:
        return None
    return _plain(found[256], found[257])


def _webp_size(data: bytes) -> tuple[int, int, int] | None:
    if data[8:12] != b"WEBP":
        return None
    chunk = data[12:16]
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return _plain(width & 0x3FFF, height & 0x3FFF)
    if chunk == b"VP8L" and data[20] == 0x2F:
        bits = struct.unpack("<I", data[21:25])[0]
        return _plain((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    if chunk == b"VP8X" and not data[20] & 0x02:  # an animation is not read
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return _plain(width, height)
    return None


_FORMATS: tuple[tuple[bytes, Callable[[bytes], tuple[int, int, int] | None]], ...] = (
    (b"\x89PNG\r\n\x1a\n", _png_size),
    (b"\xff\xd8", _jpeg_size),
    (b"GIF87a", _gif_size),
    (b"GIF89a", _gif_size),
    (b"BM", _bmp_size),
    (b"II*\x00", _tiff_size),
    (b"MM\x00*", _tiff_size),
    (b"RIFF", _webp_size),
)


# -- a picture as a document -------------------------------------------------------------


class PictureNotRead(UnsupportedFormat, TransientError):
    """A picture file not read because OCR is off: skipped, and read again (with OCR) by
    the next scan that has it on."""


def extract_picture(path: Path, *, ocr_on: bool = False) -> ExtractedText:
    """A picture file's text (a scanned page saved as PNG, JPEG or TIFF, a screenshot) read
    by OCR. Pictures without text (photographs), too small or too large, or that cannot be
    decoded are skipped, not errors: a class folder holds photos as well as essays."""
    data = path.read_bytes()  # the size limit is enforced by the caller
    size = picture_size(data)
    if size is None:
        raise UnsupportedFormat("a picture SimSift cannot decode (or a TIFF of several pages)")
    if size[2] > MAX_PIXELS or max(size[:2]) > MAX_SIDE:
        raise UnsupportedFormat(f"a picture larger than {MAX_PIXELS // 1_000_000} megapixels")
    if not _may_hold_text(size):
        raise UnsupportedFormat("a picture too small to hold text")
    if not ocr_on:
        raise PictureNotRead(f"a picture: read only by OCR{ocr.OCR_OFF}")
    program = ocr.tesseract_path()
    if program is None:
        raise ocr.OcrUnavailable(f"a picture; {ocr.UNAVAILABLE}")
    page, _ = ocr.read_picture(program, data, "", _EACH_SECONDS)
    if not _holds_text(page):
        raise UnsupportedFormat("a picture without text (read by OCR)")
    title, body = split_heading(_joined(page.boxes))
    result = build_result(title, body, "picture")
    said = f"read by OCR: 1 picture, mean confidence {page.confidence:.2f}"
    return replace(result, warnings=(said,))
