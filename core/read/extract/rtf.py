"""RTF documents (WordPad's format, and a common export of WPS and Word).

striprtf turns RTF into text: it follows the document's code page and the fonts'
character sets, so Chinese written as GBK escapes (\\'d6\\'d0) or as \\u escapes comes out
right, and it drops pictures, font tables and other groups that are not text. Each
paragraph mark (\\par) ends a paragraph.
"""

from __future__ import annotations

from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.read.extract.text import paragraphs_result


def extract_rtf(data: bytes) -> ExtractedText:
    """Title and paragraphs of an RTF file's bytes."""
    from striprtf.striprtf import rtf_to_text

    # RTF is 7-bit text with escapes; stray 8-bit bytes are kept one character each
    try:
        text = rtf_to_text(data.decode("latin-1"), errors="replace")
    except (ValueError, LookupError, IndexError) as error:
        raise ExtractionError(f"not a valid RTF document ({error})") from error
    return paragraphs_result(text.replace("\r", "\n").split("\n"), "rtf")
