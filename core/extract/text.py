"""Plain text and Markdown files."""

from __future__ import annotations

import re

from core.document import ExtractedText
from core.extract.encoding import decode_bytes
from core.extract.paragraphs import build_result, split_heading

_BLANK_LINE = re.compile(r"\n[ \t\f\v\u3000]*\n")


def split_text_paragraphs(text: str) -> list[str]:
    """Paragraphs split on blank lines; on every line break if the text has no blank line.

    Files without blank lines are usually written one paragraph per line (common
    in Chinese text), so joining their lines would make one giant paragraph.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _BLANK_LINE.search(text):
        return _BLANK_LINE.split(text)
    return text.split("\n")


def text_result(text: str, fmt: str) -> ExtractedText:
    """Paragraphs of plain text, its first line as title when it is a heading."""
    title, body = split_heading(split_text_paragraphs(text))
    return build_result(title, body, fmt)


def extract_text(data: bytes) -> ExtractedText:
    """Decode a text file (BOM, UTF-8, else detected) and split it into paragraphs."""
    return text_result(decode_bytes(data), "text")
