"""File names for reports written in a batch, one per essay, made from the essays' names.

A name from a student's file is the student's, not ours: it may hold path separators, control
characters, bytes that are not UTF-8, characters Windows refuses (a report folder may be a USB
stick or a share), or be so long that the file system refuses it. Each name is made safe, cut
to `MAX_NAME_BYTES` bytes of UTF-8, and distinct from the others and from the files already in
the folder, as a case-insensitive file system compares them: a report never overwrites a file.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Sequence

MAX_NAME_BYTES = 200  # well under the 255 bytes of ext4, NTFS and APFS
FALLBACK_STEM = "report"
# characters Windows does not allow in a name (the separators among them)
_FORBIDDEN = re.compile(r'[<>:"/\\|?*]')
# device names Windows reserves, whatever the extension
_RESERVED = re.compile(r"(con|prn|aux|nul|com\d|lpt\d)(\..*)?", re.IGNORECASE)


def safe_stem(name: str) -> str:
    """`name` (a file's name less its extension) as the start of a file name: no path
    separators, control or invisible characters, bytes that are not UTF-8 or characters
    Windows refuses (each becomes "_"); no leading dots or spaces, no trailing dots or
    spaces; never empty or a reserved device name.

    >>> safe_stem("../../etc/passwd")
    '_.._etc_passwd'
    >>> safe_stem("ana\\x00\\n<b>x</b>")
    'ana___b_x__b_'
    >>> safe_stem("CON")
    '_CON'
    """
    out = []
    for char in name:
        category = unicodedata.category(char)
        # C*: controls, format characters (bidi overrides, zero width), lone surrogates
        # (bytes that were not UTF-8), private use and unassigned code points
        out.append("_" if category.startswith("C") or _FORBIDDEN.match(char) else char)
    stem = unicodedata.normalize("NFC", "".join(out)).strip(" .").strip()
    if not stem:
        return FALLBACK_STEM
    return "_" + stem if _RESERVED.fullmatch(stem) else stem


def report_file_names(
    names: Sequence[str], extension: str, existing: Iterable[str] = (), suffix: str = ""
) -> list[str]:
    """One file name per name in `names` (the essays' file names or paths): its stem made
    safe (`safe_stem`), then `suffix`, then `extension` (".pdf"), at most `MAX_NAME_BYTES`
    bytes of UTF-8, and unique among themselves and against `existing` (the folder's file
    names), ignoring case: a repeated name gets " (2)", " (3)" ... before the extension.

    >>> report_file_names(["a/ana.docx", "b/ana.txt", "Ana.pdf"], ".pdf", suffix=" - report")
    ['ana - report.pdf', 'ana - report (2).pdf', 'Ana - report (3).pdf']
    """
    taken = {_key(name) for name in existing}
    out = []
    for name in names:
        stem = safe_stem(os.path.splitext(os.path.basename(name))[0])
        for number in range(1, len(names) + len(taken) + 2):
            tail = f"{suffix}{'' if number == 1 else f' ({number})'}{extension}"
            chosen = _cut(stem, MAX_NAME_BYTES - len(tail.encode("utf-8"))) + tail
            if _key(chosen) not in taken:
                break
        taken.add(_key(chosen))
        out.append(chosen)
    return out


def _cut(stem: str, limit: int) -> str:
    """`stem` cut to at most `limit` bytes of UTF-8 at a character boundary."""
    raw = stem.encode("utf-8")
    if len(raw) <= limit:
        return stem
    return raw[: max(limit, 0)].decode("utf-8", "ignore").rstrip(" .") or FALLBACK_STEM[:limit]


def _key(name: str) -> str:
    """How a case-insensitive, normalizing file system (NTFS, APFS) compares names."""
    return unicodedata.normalize("NFC", name).casefold()
