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
    (r"too big to read in a reader's memory, or damaged \(the reader crashed: (\w+)\)", lambda: QCoreApplication.translate("Messages", "too big to read in a reader's memory, or damaged (the reader crashed: %1)")),
    (r"reader crashed on this file \((.+)\)", lambda: QCoreApplication.translate("Messages", "reader crashed on this file (%1)")),
    (r"the (\w+) reader failed on this file: its content is damaged or of a kind SimSift does not read \((\w+)\)", lambda: QCoreApplication.translate("Messages", "the %1 reader failed on this file: its content is damaged or of a kind SimSift does not read (%2)")),
    (r"needs more memory than a reader has \(([\d.]+) GB\); read again when the file changes", lambda: QCoreApplication.translate("Messages", "needs more memory than a reader has (%1 GB); read again when the file changes")),
    (r"reader was killed \(out of memory\?\)", lambda: QCoreApplication.translate("Messages", "reader was killed (out of memory?)")),
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
    (r"damaged font in the PDF \(corrupt file\); no text", lambda: QCoreApplication.translate("Messages", "damaged font in the PDF (corrupt file); no text")),
    (r"1 character could not be decoded \(shown as �\): the text is garbled", lambda: QCoreApplication.translate("Messages", "1 character could not be decoded (shown as �): the text is garbled")),
    (r"1 character could not be decoded \(shown as �\)", lambda: QCoreApplication.translate("Messages", "1 character could not be decoded (shown as �)")),
    (r"([\d,]+) characters could not be decoded \(shown as �\): the text is garbled", lambda: QCoreApplication.translate("Messages", "%1 characters could not be decoded (shown as �): the text is garbled")),
    (r"([\d,]+) characters could not be decoded \(shown as �\)", lambda: QCoreApplication.translate("Messages", "%1 characters could not be decoded (shown as �)")),
    (r"the Chinese text looks garbled: its encoding was probably misread", lambda: QCoreApplication.translate("Messages", "the Chinese text looks garbled: its encoding was probably misread")),
    (r"the text contains garbled letters such as “Ã©” or “â€™” \(wrong encoding\)", lambda: QCoreApplication.translate("Messages", "the text contains garbled letters such as “Ã©” or “â€™” (wrong encoding)")),
    (r"this file made a cluster worker fail \(a crash, or over the time budget\), twice", lambda: QCoreApplication.translate("Messages", "this file made a cluster worker fail (a crash, or over the time budget), twice")),
    (r"read by OCR: 1 page, mean confidence (\d\.\d\d)", lambda: QCoreApplication.translate("Messages", "read by OCR: 1 page, mean confidence %1")),
    (r"read by OCR: (\d+) pages, mean confidence (\d\.\d\d)", lambda: QCoreApplication.translate("Messages", "read by OCR: %1 pages, mean confidence %2")),
    (r"low confidence on page (\d+)", lambda: QCoreApplication.translate("Messages", "low confidence on page %1")),
    (r"low confidence on pages ([\d, ]+)", lambda: QCoreApplication.translate("Messages", "low confidence on pages %1")),
    (r"scanned page (\d+) read by OCR: 1 page, mean confidence (\d\.\d\d)", lambda: QCoreApplication.translate("Messages", "scanned page %1 read by OCR: 1 page, mean confidence %2")),
    (r"scanned pages ([\d, ]+) read by OCR: (\d+) pages, mean confidence (\d\.\d\d)", lambda: QCoreApplication.translate("Messages", "scanned pages %1 read by OCR: %2 pages, mean confidence %3")),
    (r"scanned page (\d+) not read", lambda: QCoreApplication.translate("Messages", "scanned page %1 not read")),
    (r"scanned pages ([\d, ]+) not read", lambda: QCoreApplication.translate("Messages", "scanned pages %1 not read")),
    (r"scanned page (\d+) not read \((.+)\)", lambda: QCoreApplication.translate("Messages", "scanned page %1 not read (%2)")),
    (r"scanned pages ([\d, ]+) not read \((.+)\)", lambda: QCoreApplication.translate("Messages", "scanned pages %1 not read (%2)")),
    (r"OCR is off", lambda: QCoreApplication.translate("Messages", "OCR is off")),
    (r"OCR is not available: install Tesseract \(tesseract-ocr\) to read scanned PDFs", lambda: QCoreApplication.translate("Messages", "OCR is not available: install Tesseract (tesseract-ocr) to read scanned PDFs")),
    (r"no extractable text \(scanned/image-only PDF\?\)", lambda: QCoreApplication.translate("Messages", "no extractable text (scanned/image-only PDF?)")),
    (r"no extractable text \(scanned PDF of (\d+) pages: too long to read by OCR, at most (\d+) pages\)", lambda: QCoreApplication.translate("Messages", "no extractable text (scanned PDF of %1 pages: too long to read by OCR, at most %2 pages)")),
    (r"no extractable text \(scanned PDF: OCR took longer than (\d+) s, (\d+) of (\d+) pages read\)", lambda: QCoreApplication.translate("Messages", "no extractable text (scanned PDF: OCR took longer than %1 s, %2 of %3 pages read)")),
    (r"no extractable text \(scanned PDF: OCR of one page took longer than (\d+) s\)", lambda: QCoreApplication.translate("Messages", "no extractable text (scanned PDF: OCR of one page took longer than %1 s)")),
    (r"no extractable text \(scanned PDF: (.+)\)", lambda: QCoreApplication.translate("Messages", "no extractable text (scanned PDF: %1)")),
    (r"text of 1 picture read by OCR, mean confidence (\d\.\d\d)", lambda: QCoreApplication.translate("Messages", "text of 1 picture read by OCR, mean confidence %1")),
    (r"text of (\d+) pictures read by OCR, mean confidence (\d\.\d\d)", lambda: QCoreApplication.translate("Messages", "text of %1 pictures read by OCR, mean confidence %2")),
    (r"text of 1 picture not read", lambda: QCoreApplication.translate("Messages", "text of 1 picture not read")),
    (r"text of (\d+) pictures not read", lambda: QCoreApplication.translate("Messages", "text of %1 pictures not read")),
    (r"1 picture not read by OCR: larger than (\d+) megapixels", lambda: QCoreApplication.translate("Messages", "1 picture not read by OCR: larger than %1 megapixels")),
    (r"(\d+) pictures not read by OCR: larger than (\d+) megapixels", lambda: QCoreApplication.translate("Messages", "%1 pictures not read by OCR: larger than %2 megapixels")),
    (r"pictures after the first (\d+) not read by OCR", lambda: QCoreApplication.translate("Messages", "pictures after the first %1 not read by OCR")),
    (r"OCR of pictures stopped after (\d+) s: 1 picture not read", lambda: QCoreApplication.translate("Messages", "OCR of pictures stopped after %1 s: 1 picture not read")),
    (r"OCR of pictures stopped after (\d+) s: (\d+) pictures not read", lambda: QCoreApplication.translate("Messages", "OCR of pictures stopped after %1 s: %2 pictures not read")),
    (r"text of 1 picture not read \(Tesseract was killed\)", lambda: QCoreApplication.translate("Messages", "text of 1 picture not read (Tesseract was killed)")),
    (r"text of (\d+) pictures not read \(Tesseract was killed\)", lambda: QCoreApplication.translate("Messages", "text of %1 pictures not read (Tesseract was killed)")),
    (r"a picture: read only by OCR", lambda: QCoreApplication.translate("Messages", "a picture: read only by OCR")),
    (r"a picture", lambda: QCoreApplication.translate("Messages", "a picture")),
    (r"a picture SimSift cannot decode \(or a TIFF of several pages\)", lambda: QCoreApplication.translate("Messages", "a picture SimSift cannot decode (or a TIFF of several pages)")),
    (r"a picture larger than (\d+) megapixels", lambda: QCoreApplication.translate("Messages", "a picture larger than %1 megapixels")),
    (r"a picture too small to hold text", lambda: QCoreApplication.translate("Messages", "a picture too small to hold text")),
    (r"a picture without text \(read by OCR\)", lambda: QCoreApplication.translate("Messages", "a picture without text (read by OCR)")),
    (r"read by OCR: 1 picture, mean confidence (\d\.\d\d)", lambda: QCoreApplication.translate("Messages", "read by OCR: 1 picture, mean confidence %1")),
    # integrity flags (core/text/integrity.py), their evidence kept as written
    (r"(?s)hidden text: (\d+) words the file does not show, in 1 place, e\.g\. “(.*)”", lambda: QCoreApplication.translate("Messages", "hidden text: %1 words the file does not show, in 1 place, e.g. “%2”")),
    (r"(?s)hidden text: (\d+) words the file does not show, in (\d+) places, e\.g\. “(.*)”", lambda: QCoreApplication.translate("Messages", "hidden text: %1 words the file does not show, in %2 places, e.g. “%3”")),
    (r"(?s)look-alike letters: (\d+) (.+?) letters in (\d+) Latin words \((.*)\), e\.g\. “(.*)”", lambda: QCoreApplication.translate("Messages", "look-alike letters: %1 %2 letters in %3 Latin words (%4), e.g. “%5”")),
    (r"(?s)invisible characters: (\d+) \((.*)\) between the letters of words in (\d+) places, e\.g\. “(.*)” \(· marks one\)", lambda: QCoreApplication.translate("Messages", "invisible characters: %1 (%2) between the letters of words in %3 places, e.g. “%4” (· marks one)")),
    (r"(?s)letters spaced out: (\d+) letters written one by one with spaces between, in (\d+) places, e\.g\. “(.*)”", lambda: QCoreApplication.translate("Messages", "letters spaced out: %1 letters written one by one with spaces between, in %2 places, e.g. “%3”")),
    (r"spaces replaced: (\d+) of (\d+) spaces between words are other blanks \((.*)\)", lambda: QCoreApplication.translate("Messages", "spaces replaced: %1 of %2 spaces between words are other blanks (%3)")),
    (r"(?s)stray quotation marks: (\d+) open no quotation, so the text after them counts as the writer's own, e\.g\. “(.*)…”", lambda: QCoreApplication.translate("Messages", "stray quotation marks: %1 open no quotation, so the text after them counts as the writer's own, e.g. “%2…”")),
    (r"mostly quoted: (\d+)% of the text is in quotation marks", lambda: QCoreApplication.translate("Messages", "mostly quoted: %1% of the text is in quotation marks")),
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
