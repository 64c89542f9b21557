"""Turn bytes of unknown encoding into text: BOM, declared charset, then a detector."""

from __future__ import annotations

import codecs

import charset_normalizer

# Longest BOMs first: the UTF-32 LE BOM starts with the UTF-16 LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# Declared names widened to the superset browsers actually use: Chinese pages
# labelled gb2312/gbk routinely contain GB18030-only characters, Western pages
# labelled latin-1 contain cp1252 quotes, Big5 pages contain HKSCS characters.
_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "big5": "big5hkscs",
    "iso8859_1": "cp1252",
    "latin_1": "cp1252",
    "ascii": "cp1252",
}

# Text with invalid bytes is still UTF-8 when this many of its non-ASCII characters
# decode (another encoding's text is almost never valid UTF-8, even in part), and enough
# of them to tell; a file cut mid-character or with one stray byte stays readable.
_MOSTLY_UTF8_SHARE = 0.95
_MOSTLY_UTF8_MIN_CHARS = 8

# UTF-16 without a BOM: judged on this many bytes, read as text when this share of the
# characters are ordinary ones (random bytes give about 10%).
_UTF16_SAMPLE_BYTES = 4096
_UTF16_TEXT_SHARE = 0.9

# A detector's verdict on very little text is noise; this much is enough.
_DETECT_SAMPLE_BYTES = 256 * 1024


def bom_encoding(data: bytes) -> tuple[str, int] | None:
    """Return (codec, BOM length) when `data` starts with a Unicode BOM."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec, len(bom)
    return None


def bomless_utf16(data: bytes) -> str | None:
    """'utf-16-le' or 'utf-16-be' when `data` reads as text in it although it has no BOM
    (Windows tools write such files); None otherwise.

    Text in UTF-16 decodes to letters, CJK, digits, spaces and punctuation; other
    binary data decodes to rare characters and controls.
    """
    sample = data[:_UTF16_SAMPLE_BYTES]
    sample = sample[: len(sample) // 2 * 2]
    if len(sample) < 8:
        return None
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError:
            continue
        if _reads_as_text(text):
            return codec
    return None


def _reads_as_text(text: str) -> bool:
    from simsift.core.read.extract.checks import common_cjk

    common = common_cjk()
    ordinary = sum(_is_ordinary(c, common) for c in text)
    return ordinary >= _UTF16_TEXT_SHARE * len(text) and "\x00" not in text


def _is_ordinary(c: str, common_cjk: frozenset[str]) -> bool:
    """A printable ASCII character, a common Chinese one, or CJK punctuation."""
    if c.isascii():
        return c.isprintable() or c in "\t\n\r"
    return c in common_cjk or "\u3000" <= c <= "\u303f" or "\uff00" <= c <= "\uffef"


def canonical_codec(name: str | None) -> str | None:
    """Python codec for a declared charset name (widened to its superset), or None."""
    if not name:
        return None
    try:
        codec = codecs.lookup(name.strip().strip("\"'").lower()).name
    except LookupError:
        return None
    return _SUPERSETS.get(codec.replace("-", "_"), codec)


def is_single_byte(codec: str) -> bool:
    """True for 8-bit codecs, which decode any bytes and so prove nothing."""
    return codec.startswith(("cp125", "iso8859", "latin", "koi8", "mac", "cp437", "cp850"))


def decodes_cleanly(data: bytes, codec: str) -> bool:
    """True when `data` is valid in `codec` (strict decoding)."""
    try:
        data.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def mostly_utf8(data: bytes) -> bool:
    """True when nearly all non-ASCII characters of `data` are valid UTF-8."""
    text = data.decode("utf-8", errors="replace")
    replaced = text.count("\ufffd")
    bad = replaced - data.count("\ufffd".encode())
    non_ascii = len(text) - len(text.encode("ascii", errors="ignore"))
    good = non_ascii - replaced
    return good >= _MOSTLY_UTF8_MIN_CHARS and good >= _MOSTLY_UTF8_SHARE * (good + bad)


def detect_codec(data: bytes) -> str | None:
    """Best guess of charset-normalizer, widened to its superset; None if no guess."""
    best = charset_normalizer.from_bytes(data[:_DETECT_SAMPLE_BYTES]).best()
    if best is None:
        return None
    return canonical_codec(best.encoding)


def decode_bytes(data: bytes, declared: str | None = None) -> str:
    """Decode `data`: BOM, then (mostly) valid UTF-8, then a fitting declared charset,
    then detection. Undecodable bytes become U+FFFD (counted in the file's warnings).

    Valid UTF-8 wins over a declaration because non-ASCII text in another
    encoding is almost never valid UTF-8 by chance, while wrong declarations
    are common; the same holds for text where a few bytes are broken. A declared
    single-byte charset only wins when the detector has no better idea, since such
    codecs accept any bytes (e.g. GBK labelled latin-1).
    """
    bom = bom_encoding(data)
    if bom is not None:
        codec, skip = bom
        return data[skip:].decode(codec, errors="replace")
    utf16 = bomless_utf16(data) if b"\x00" in data[:_UTF16_SAMPLE_BYTES] else None
    if utf16 is not None:
        return data[: len(data) // 2 * 2].decode(utf16, errors="replace")
    try:  # decoded once: most pages are UTF-8
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if mostly_utf8(data):
        return data.decode("utf-8", errors="replace")
    codec = canonical_codec(declared)
    if codec and not is_single_byte(codec) and decodes_cleanly(data, codec):
        return data.decode(codec)
    guess = detect_codec(data)
    if guess and not (codec and is_single_byte(guess)):
        return data.decode(guess, errors="replace")
    return data.decode(codec or guess or "gb18030", errors="replace")
