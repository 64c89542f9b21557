"""Text normalization applied before tokenization: width, compatibility forms, case."""

from __future__ import annotations

import unicodedata
from functools import lru_cache


def normalize_text(text: str, *, traditional_to_simplified: bool = False) -> str:
    """NFKC (full-width to half-width, ligatures) then case folding.

    Traditional-to-Simplified conversion is applied when asked and OpenCC is installed,
    so a converted copy of an article still matches the original.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    if traditional_to_simplified:
        converter = _opencc_converter()
        if converter is not None:
            text = converter.convert(_without_lone_surrogates(text))
    return text


def _without_lone_surrogates(text: str) -> str:
    """OpenCC needs valid UTF-8; undecodable bytes survive extraction as lone surrogates."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


@lru_cache(maxsize=1)
def _opencc_converter():
    try:
        import opencc
    except ImportError:
        return None
    return opencc.OpenCC("t2s")
