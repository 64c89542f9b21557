"""Text normalization applied before tokenization: invisible characters, width,
compatibility forms, look-alike letters, case."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
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
    text = fold_lookalikes(_nfkc(remove_invisible(text))) if may_be_disguised(text) else _nfkc(text)
    text = text.casefold()
    if traditional_to_simplified:
        text = _simplified(text)
    return text


def normalize_texts(texts: Sequence[str], *, traditional_to_simplified: bool = False) -> list[str]:
    """`normalize_text` of each of `texts`; those not ASCII normalized as one text where
    that gives the same (`_normalized_together`). ASCII text has a quick path of its own."""
    t2s = traditional_to_simplified
    together = iter(_normalized_together([text for text in texts if not text.isascii()], t2s))
    return [
        normalize_text(text, traditional_to_simplified=t2s) if text.isascii() else next(together)
        for text in texts
    ]


def _normalized_together(texts: list[str], traditional_to_simplified: bool) -> list[str]:
    """`normalize_text` of each of `texts` (none of them ASCII), normalized as one text
    where that gives the same: each step costs little a character but much a call, and a
    Chinese text file's paragraphs are short lines (about three times as fast together).

    A line break joins them, which nothing normalization does crosses: NFKC and case
    folding change no line break and compose nothing with one; OpenCC's words have no
    character below U+3400 (`_opencc_keeps_below_u3400`), so none spans one; look-alikes
    are judged by their neighbours, so texts that may hold one are normalized one by one.
    """
    t2s = traditional_to_simplified
    if len(texts) > 1:
        joined = "\n".join(texts)
        if (
            joined.count("\n") == len(texts) - 1
            and not may_be_disguised(joined)
            and (not t2s or _opencc_keeps_below_u3400())
        ):
            norm = _nfkc(joined).casefold()
            parts = (_simplified(norm) if t2s else norm).split("\n")
            if len(parts) == len(texts):
                return parts
    return [normalize_text(text, traditional_to_simplified=t2s) for text in texts]


# Chinese text's full-width punctuation and ellipsis, and what NFKD makes of them (ASCII).
_FULL_WIDTH_SIGNS = {sign: unicodedata.normalize("NFKD", sign) for sign in "，：（）；？！…"}


def _nfkc(text: str) -> str:
    """NFKC of `text`; one it must change has its full-width punctuation made ASCII first:
    NFKC depends only on what NFKD makes of a text, which a character's NFKD in its place
    does not change, and Chinese text is often NFKC but for its punctuation, which NFKC
    then tells at once (a text it has to change costs it four times as much)."""
    if unicodedata.is_normalized("NFKC", text):
        return text
    for sign, ascii_sign in _FULL_WIDTH_SIGNS.items():
        if sign in text:
            text = text.replace(sign, ascii_sign)
    return unicodedata.normalize("NFKC", text)


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
