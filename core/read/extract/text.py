"""Plain text and Markdown files."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from simsift.core.document import ExtractedText
from simsift.core.read.extract.encoding import decode_bytes
from simsift.core.read.extract.paragraphs import build_result, split_heading

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
    return paragraphs_result(split_text_paragraphs(text), fmt)


def extract_text(data: bytes) -> ExtractedText:
    """Decode a text file (BOM, UTF-8, else detected) and split it into paragraphs."""
    return text_result(decode_bytes(data), "text")


def extract_text_file(path: Path) -> ExtractedText:
    """`extract_text` of the file at `path`, holding less at once: the bytes are dropped
    once decoded, the text once split, each raw paragraph once cleaned (a 200 MB file)."""
    return paragraphs_result(_file_paragraphs(path), "text")


def _file_paragraphs(path: Path) -> list[str]:
    text = decode_bytes(path.read_bytes())
    return split_text_paragraphs(text)


def paragraphs_result(paragraphs: list[str], fmt: str) -> ExtractedText:
    """Cleaned paragraphs, the first as title when it is a heading (consumes `paragraphs`)."""
    title, body = split_heading(paragraphs)
    # only `body` holds the raw paragraphs now, and lets go of each once it is cleaned
    paragraphs.clear()
    return build_result(title, _taken(body), fmt)


def _taken(items: list[str]) -> Iterator[str]:
    """The items of `items`, each removed from the list as it is yielded."""
    for i in range(len(items)):
        item, items[i] = items[i], ""
        yield item
