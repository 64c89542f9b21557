"""File names as a person can read them.

A name that is not valid UTF-8 reaches Python with lone surrogates (os.fsdecode), and Qt
silently drops those: "b_\\xff.txt" would be shown as "b_.txt", another file's name. The
GUI shows such bytes as � instead and keeps the real path for every action.
"""

from __future__ import annotations


def readable(path: str) -> str:
    """`path` for display: bytes that are not UTF-8 become �, nothing is dropped."""
    try:
        raw = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that is not an escaped byte
        raw = path.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "replace")
