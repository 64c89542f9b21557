"""Data passed between stages: what extraction yields for one file."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ExtractedText:
    """Text of one file as extraction yields it.

    `paragraphs` keeps the document's paragraph boundaries (passages and the
    side-by-side view rely on them); `title` is empty when the format has none.
    """

    title: str
    paragraphs: tuple[str, ...]
    format: str

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)


class ExtractionError(Exception):
    """A file could not be read; the message is shown to the user as is."""


class UnsupportedFormat(ExtractionError):
    """The file is not a format SimSift reads; listed as skipped, not as an error."""
