"""Text normalization applied before tokenization: invisible characters, width,
compatibility forms, look-alike letters, case."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from simsift.core.text.confusables import fold_lookalikes, may_be_disguised, remove_invisible


def normalize_text(text: str, *, traditional_to_simplified: bool = False) -> str:
    """NFKC (full-width to half-width, ligatures) then case folding.

    Invisible format characters (zero-width space and joiners, soft hyphen, bidi
    controls, ...) are removed first, and look-alike letters disguising Latin words
    (a Cyrillic "о" in "tооk") are made Latin after NFKC (`confusables`), so a disguised
    copy normalizes like its original; a real Russian or Greek text is left as it is.
    Text with neither (nearly all) pays only for a quick check (`may_be_disguised`).

    Traditional-to-Simplified conversion is applied when asked and OpenCC is installed,
    so a converted copy of an article still matches the original.
    """
    if text.isascii():  # NFKC leaves ASCII as it is, and casefold() is lower() there
        return _simplified(text.lower()) if traditional_to_simplified else text.lower()
    if may_be_disguised(text):
        text = fold_lookalikes(unicodedata.normalize("NFKC", remove_invisible(text)))
    else:
        text = unicodedata.normalize("NFKC", text)
    text = text.casefold()
    if traditional_to_simplified:
        text = _simplified(text)
    return text


def _simplified(text: str) -> str:
    """`text` converted by OpenCC, if installed; text without a character from U+3400 on
    is not converted, as none of OpenCC's words has one (a call costs more than NFKC)."""
    if _below_u3400(text) and _opencc_keeps_below_u3400():
        return text
    converter = _opencc_converter()
    if converter is None:
        return text
    return converter.convert(_without_lone_surrogates(text))


_HIGH_BYTES_BELOW_U3400 = bytes(range(0x34))


def _below_u3400(text: str) -> bool:
    """Whether every character of `text` is below U+3400 (CJK Extension A): the high
    bytes of its UTF-16 code units are all below 0x34 (a regular expression would take
    ten times as long)."""
    if text.isascii():
        return True
    high_bytes = text.encode("utf-16-le", "surrogatepass")[1::2]
    return not high_bytes.translate(None, _HIGH_BYTES_BELOW_U3400)


def _without_lone_surrogates(text: str) -> str:
    """OpenCC needs valid UTF-8; undecodable bytes survive extraction as lone surrogates."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


@lru_cache(maxsize=1)
def _opencc_keeps_below_u3400() -> bool:
    """Whether OpenCC (when installed) leaves every character below U+3400 as it is, as
    its dictionaries (words of Chinese characters only) do: checked once, not assumed."""
    converter = _opencc_converter()
    below = "".join(map(chr, range(0x3400)))
    return converter is None or converter.convert(below) == below


@lru_cache(maxsize=1)
def _opencc_converter():
    try:
        import opencc
    except ImportError:
        return None
    return opencc.OpenCC("t2s")
