"""Shared last step of every extractor: tidy paragraphs and build the result."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.text.spacing import keep_word_gaps

# Soft hyphens are layout, not text. Zero-width characters stay: comparison drops them
# (`normalize_text`), and the integrity flags must see them, since inserting them between
# letters is how a copy is hidden from a checker that compares words.
_SOFT_HYPHEN = "\u00ad"

# A first line is a heading when it is short and does not end like a sentence.
_MAX_HEADING_CHARS = 120
_MAX_HEADING_WORDS = 20
_SENTENCE_ENDS = tuple(".。!！?？:：;；,，、")


def clean_paragraph(text: str) -> str:
    """Collapse whitespace runs to one space, drop soft hyphens, strip. Letters spaced out
    keep their word gaps ("e s s a y   i s"): the comparison joins them into words
    (`core.text.spacing`), where one space everywhere would make them one long word."""
    if _SOFT_HYPHEN in text:
        text = text.replace(_SOFT_HYPHEN, "")
    return keep_word_gaps(text, _fold_whitespace).strip()


def _fold_whitespace(text: str) -> str:
    r"""`text` with each whitespace run one space, the runs at its ends too: what
    re.sub(r"\s+", " ", text) gives (\s is str.isspace), in a third of the time."""
    words = text.split()
    if not words:
        return " " if text else ""
    folded = " ".join(words)
    if text[0].isspace():
        folded = " " + folded
    return folded + " " if text[-1].isspace() else folded


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


def split_heading(paragraphs: Sequence[str]) -> tuple[str, list[str]]:
    """(title, body) of a format without marked titles (TXT, PDF, unstyled DOCX).

    The first paragraph is the title when it is clearly a heading: a single short line
    not ending like a sentence, followed by more text than itself. So the same text gets
    the same title in every format (HTML <title>, DOCX Title style).
    """
    raw = [p for p in paragraphs if p.strip()]
    if len(raw) < 2 or "\n" in raw[0].strip():
        return "", list(paragraphs)
    first = clean_paragraph(raw[0])
    rest = sum(len(p.strip()) for p in raw[1:])
    heading = (
        len(first) <= _MAX_HEADING_CHARS
        and len(first.split()) <= _MAX_HEADING_WORDS
        and not first.endswith(_SENTENCE_ENDS)
        and rest > 2 * len(first)
    )
    return (first, raw[1:]) if heading else ("", list(paragraphs))


# Paragraph styles of block quotations: Word's built-in names (English in styles.xml
# whatever the language Word runs in), LibreOffice's, and common custom ones.
_QUOTE_STYLES = frozenset(
    {"quote", "intense quote", "block text", "quotation", "quotations", "block quote"}
)
_OPENING_MARKS = '"“„«「『‘'


def is_quote_style(name: str | None) -> bool:
    """Whether a paragraph style of this name sets a block quotation."""
    return bool(name) and name.strip().lower() in _QUOTE_STYLES


def as_block_quote(text: str) -> str:
    """A block quotation's text between quotation marks, as a reader takes it: the
    comparison then sets it apart as it does a quotation in marks (a paragraph that is one
    quotation, however long). Text that opens with a mark already is left as it is."""
    stripped = text.strip()
    if not stripped or stripped[0] in _OPENING_MARKS:
        return text
    return f"“{stripped}”"
