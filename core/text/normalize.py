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
    if may_be_disguised(text):
        text = fold_lookalikes(unicodedata.normalize("NFKC", remove_invisible(text)))
    else:
        text = unicodedata.normalize("NFKC", text)
    text = text.casefold()
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
