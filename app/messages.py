# ruff: noqa: E501  (a message table reads best one entry per line)
"""The engine's per-file messages in the user's language.

`core` writes its reasons in English (they also go into CSV files and logs); the window
shows them translated. Each known message is a pattern with its variable parts (sizes,
suffixes, the system's own error text) kept as they are; an unknown message is shown as
written.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

# (pattern of the English message, its translation with %1, %2 for the groups); each
# translate call is literal so that lupdate finds it
_MESSAGES: tuple[tuple[str, Callable[[], str]], ...] = (
    (r"file too large \((.+) MB\)", lambda: QCoreApplication.translate("Messages", "file too large (%1 MB)")),
    (r"empty file", lambda: QCoreApplication.translate("Messages", "empty file")),
    (r"cannot read file \((.+)\)", lambda: QCoreApplication.translate("Messages", "cannot read file (%1)")),
    (r"cannot open file \((.+)\)", lambda: QCoreApplication.translate("Messages", "cannot open file (%1)")),
    (r"cannot open folder \((.+)\)", lambda: QCoreApplication.translate("Messages", "cannot open folder (%1)")),
    (r"not a valid ODT \(corrupt or renamed file\)", lambda: QCoreApplication.translate("Messages", "not a valid ODT (corrupt or renamed file)")),
    (r"ODT unpacks to (\d+) MB \(possible zip bomb\)", lambda: QCoreApplication.translate("Messages", "ODT unpacks to %1 MB (possible zip bomb)")),
    (r"not a valid RTF document \(corrupt or renamed file\)", lambda: QCoreApplication.translate("Messages", "not a valid RTF document (corrupt or renamed file)")),
    (r"not a valid RTF document \((.+)\)", lambda: QCoreApplication.translate("Messages", "not a valid RTF document (%1)")),
    (r"not a valid DOCX \(corrupt or renamed file\)", lambda: QCoreApplication.translate("Messages", "not a valid DOCX (corrupt or renamed file)")),
    (r"not a valid PDF \(corrupt or renamed file\)", lambda: QCoreApplication.translate("Messages", "not a valid PDF (corrupt or renamed file)")),
    (r"not a valid PDF \(corrupt or truncated\)", lambda: QCoreApplication.translate("Messages", "not a valid PDF (corrupt or truncated)")),
    (r"unsupported file type \((.+)\)", lambda: QCoreApplication.translate("Messages", "unsupported file type (%1)")),
    (r"password protected document", lambda: QCoreApplication.translate("Messages", "password protected document")),
    (r"password protected PDF", lambda: QCoreApplication.translate("Messages", "password protected PDF")),
    (r"old binary Office file \(not a Word document\)", lambda: QCoreApplication.translate("Messages", "old binary Office file (not a Word document)")),
    (r"no text", lambda: QCoreApplication.translate("Messages", "no text")),
    (r"no words found in the text", lambda: QCoreApplication.translate("Messages", "no words found in the text")),
    (r"document is nested too deeply to read", lambda: QCoreApplication.translate("Messages", "document is nested too deeply to read")),
    (r"took longer than (\d+) s to read; skipped", lambda: QCoreApplication.translate("Messages", "took longer than %1 s to read; skipped")),
    (r"out of memory while reading this file", lambda: QCoreApplication.translate("Messages", "out of memory while reading this file")),
    (r"DOCX unpacks to (\d+) MB \(possible zip bomb\)", lambda: QCoreApplication.translate("Messages", "DOCX unpacks to %1 MB (possible zip bomb)")),
    (r"not a document type SimSift reads \((.+)\)", lambda: QCoreApplication.translate("Messages", "not a document type SimSift reads (%1)")),
    (r"excluded by the pattern (.+) \(folder not searched\)", lambda: QCoreApplication.translate("Messages", "excluded by the pattern %1 (folder not searched)")),
    (r"excluded by the pattern (.+)", lambda: QCoreApplication.translate("Messages", "excluded by the pattern %1")),
    (r"same file as (.+) \(a link\)", lambda: QCoreApplication.translate("Messages", "same file as %1 (a link)")),
    (r"not a regular file \(device, pipe or socket\)", lambda: QCoreApplication.translate("Messages", "not a regular file (device, pipe or socket)")),
    (r"hidden file", lambda: QCoreApplication.translate("Messages", "hidden file")),
    (r"hidden folder \(not searched\)", lambda: QCoreApplication.translate("Messages", "hidden folder (not searched)")),
    (r"system folder \(not searched\)", lambda: QCoreApplication.translate("Messages", "system folder (not searched)")),
    (r"link to a folder \(not followed\)", lambda: QCoreApplication.translate("Messages", "link to a folder (not followed)")),
    (r"link to a file outside the scanned folders \(not followed\)", lambda: QCoreApplication.translate("Messages", "link to a file outside the scanned folders (not followed)")),
    (r"Word 97–2003 \.doc file: save it as \.docx \(or install antiword or LibreOffice to read it\)", lambda: QCoreApplication.translate("Messages", "Word 97–2003 .doc file: save it as .docx (or install antiword or LibreOffice to read it)")),
    (r"the PDF's fonts do not say which letters they show \(no ToUnicode map\); no text", lambda: QCoreApplication.translate("Messages", "the PDF's fonts do not say which letters they show (no ToUnicode map); no text")),
    (r"1 character could not be decoded \(shown as �\): the text is garbled", lambda: QCoreApplication.translate("Messages", "1 character could not be decoded (shown as �): the text is garbled")),
    (r"1 character could not be decoded \(shown as �\)", lambda: QCoreApplication.translate("Messages", "1 character could not be decoded (shown as �)")),
    (r"([\d,]+) characters could not be decoded \(shown as �\): the text is garbled", lambda: QCoreApplication.translate("Messages", "%1 characters could not be decoded (shown as �): the text is garbled")),
    (r"([\d,]+) characters could not be decoded \(shown as �\)", lambda: QCoreApplication.translate("Messages", "%1 characters could not be decoded (shown as �)")),
    (r"the Chinese text looks garbled: its encoding was probably misread", lambda: QCoreApplication.translate("Messages", "the Chinese text looks garbled: its encoding was probably misread")),
    (r"the text contains garbled letters such as “Ã©” or “â€™” \(wrong encoding\)", lambda: QCoreApplication.translate("Messages", "the text contains garbled letters such as “Ã©” or “â€™” (wrong encoding)")),
    (r"this file made a cluster worker fail \(a crash, or over the time budget\), twice", lambda: QCoreApplication.translate("Messages", "this file made a cluster worker fail (a crash, or over the time budget), twice")),
)  # fmt: skip
_COMPILED = tuple((re.compile(pattern), text) for pattern, text in _MESSAGES)


def translated(message: str) -> str:
    """`message` in the UI language; warnings joined by "; " are translated one by one."""
    whole = _one(message)
    if whole is not None:
        return whole
    return "; ".join(_one(part) or part for part in message.split("; "))


def _one(message: str) -> str | None:
    """The translation of one known message, or None."""
    for pattern, text in _COMPILED:
        found = pattern.fullmatch(message)
        if found:
            out = text()
            for i, group in enumerate(found.groups(), 1):
                out = out.replace(f"%{i}", group)
            return out
    return None
