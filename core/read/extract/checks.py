"""Signs that extracted text is not what the file shows: undecodable bytes, a wrong
encoding guess (mojibake), text saved twice in the wrong encoding.

The user is always told. A file whose text is *garbled* (a warning containing that word:
mojibake, or mostly undecodable bytes) is also kept out of the comparison unless the user
asks (`ScanOptions.compare_garbled`): garbage would be silently "unique", or match other
garbage. A few undecodable bytes (a file cut mid-character) only warn.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

# Enough text to judge; checking more only costs time.
_SAMPLE_CHARS = 100_000
_CJK = re.compile(r"[\u4e00-\u9fff]")
# Real Chinese text, Simplified or Traditional, is ~99% common characters; UTF-8 read as
# GBK (or the reverse) gives 10-60% (measured on the seed notes).
_MIN_CJK_CHARS = 20
_MIN_COMMON_SHARE = 0.8
# UTF-8 read as cp1252/latin-1: "é" -> "Ã©", "’" -> "â€™", "你" -> "ä½ ".
_LATIN_MOJIBAKE = re.compile("[ÃÂâä][\u0080-\u00bf\u0152-\u0178\u2013-\u203a\u20ac\u2122]")
_MIN_LATIN_MOJIBAKE = 3
# More undecodable characters than this share (and count) means the text is garbage.
_GARBLED_REPLACED_SHARE = 0.01
_GARBLED_REPLACED_MIN = 20


def is_garbled(warning: str) -> bool:
    """True for a warning saying the text is garbled (not only a few bad bytes)."""
    return "garbled" in warning


def text_warnings(paragraphs: Sequence[str]) -> tuple[str, ...]:
    """Warnings for the user about text that was probably decoded wrongly."""
    warnings = []
    replaced = sum(p.count("\ufffd") for p in paragraphs)
    if replaced:
        plural = "s" if replaced > 1 else ""
        warning = f"{replaced:,} character{plural} could not be decoded (shown as �)"
        length = sum(len(p) for p in paragraphs)
        if replaced > max(_GARBLED_REPLACED_MIN, _GARBLED_REPLACED_SHARE * length):
            warning += ": the text is garbled"
        warnings.append(warning)
    sample = _sample(paragraphs)
    if looks_like_cjk_mojibake(sample):
        warnings.append("the Chinese text looks garbled: its encoding was probably misread")
    if len(_LATIN_MOJIBAKE.findall(sample)) >= _MIN_LATIN_MOJIBAKE:
        warnings.append("the text contains garbled letters such as “Ã©” or “â€™” (wrong encoding)")
    return tuple(warnings)


def looks_like_cjk_mojibake(text: str) -> bool:
    """True when too few of the text's Chinese characters are common ones."""
    chars = _CJK.findall(text)
    if len(chars) < _MIN_CJK_CHARS:
        return False
    common = common_cjk()
    return sum(c in common for c in chars) < _MIN_COMMON_SHARE * len(chars)


@functools.cache
def common_cjk() -> frozenset[str]:
    """GB2312 level 1 (3,755 Simplified) and Big5's frequent set (5,401 Traditional)."""
    gb = (
        bytes([hi, lo]).decode("gb2312", errors="ignore")
        for hi in range(0xB0, 0xD8)
        for lo in range(0xA1, 0xFF)
    )
    big5 = (
        bytes([hi, lo]).decode("big5", errors="ignore")
        for hi in range(0xA4, 0xC7)
        for lo in (*range(0x40, 0x7F), *range(0xA1, 0xFF))
        if (hi, lo) < (0xC6, 0x7F)
    )
    return frozenset(c for c in (*gb, *big5) if c and "\u4e00" <= c <= "\u9fff")


def _sample(paragraphs: Sequence[str]) -> str:
    parts, size = [], 0
    for p in paragraphs:
        parts.append(p)
        size += len(p)
        if size >= _SAMPLE_CHARS:
            break
    return "\n".join(parts)
