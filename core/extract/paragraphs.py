"""Shared last step of every extractor: tidy paragraphs and build the result."""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.document import ExtractedText, ExtractionError

_WHITESPACE = re.compile(r"\s+")
# Zero-width and soft-hyphen characters are invisible in every viewer but split tokens.
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")


def clean_paragraph(text: str) -> str:
    """Collapse whitespace runs to one space, drop invisible characters, strip."""
    return _WHITESPACE.sub(" ", _INVISIBLE.sub("", text)).strip()


def clean_paragraphs(paragraphs: Iterable[str]) -> tuple[str, ...]:
    """Cleaned, non-empty paragraphs in order."""
    cleaned = (clean_paragraph(p) for p in paragraphs)
    return tuple(p for p in cleaned if p)


def build_result(
    title: str, paragraphs: Iterable[str], fmt: str, *, no_text_message: str = "no text"
) -> ExtractedText:
    """ExtractedText with cleaned title and paragraphs; raise when nothing is left."""
    cleaned = clean_paragraphs(paragraphs)
    if not cleaned:
        raise ExtractionError(no_text_message)
    return ExtractedText(title=clean_paragraph(title), paragraphs=cleaned, format=fmt)
