"""The HTML report's words in the reader's language.

The report is written in English in `core.report.html`; a translation is a table from
those English strings (placeholders and all) to the language's, kept in
`resources/report/<language>.json`. A string missing from a table stays English, and
tests/core/test_report_language.py checks that no string of the report is missing.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache

from simsift.core.paths import resource_path

ENGLISH = "en"
LANGUAGES = (ENGLISH, "zh_CN")

# The integrity flags' sentences (`core.text.integrity`) as English templates: {1}, {2}…
# are their evidence, kept as written.
FLAG_TEMPLATES = (
    (
        r"(?s)hidden text: (\d+) words the file does not show, in 1 place, e\.g\. “(.*)”",
        "hidden text: {1} words the file does not show, in 1 place, e.g. “{2}”",
    ),
    (
        r"(?s)hidden text: (\d+) words the file does not show, in (\d+) places, e\.g\. “(.*)”",
        "hidden text: {1} words the file does not show, in {2} places, e.g. “{3}”",
    ),
    (
        r"(?s)look-alike letters: (\d+) (.+?) letters in (\d+) Latin words \((.*)\), e\.g\. “(.*)”",
        "look-alike letters: {1} {2} letters in {3} Latin words ({4}), e.g. “{5}”",
    ),
    (
        r"(?s)invisible characters: (\d+) \((.*)\) between the letters of words in (\d+) "
        r"places, e\.g\. “(.*)” \(· marks one\)",
        "invisible characters: {1} ({2}) between the letters of words in {3} places, "
        "e.g. “{4}” (· marks one)",
    ),
    (
        r"(?s)letters spaced out: (\d+) letters written one by one with spaces between, in "
        r"(\d+) places, e\.g\. “(.*)”",
        "letters spaced out: {1} letters written one by one with spaces between, in {2} "
        "places, e.g. “{3}”",
    ),
    (
        r"spaces replaced: (\d+) of (\d+) spaces between words are other blanks \((.*)\)",
        "spaces replaced: {1} of {2} spaces between words are other blanks ({3})",
    ),
    (
        r"(?s)stray quotation marks: (\d+) open no quotation, so the text after them counts "
        r"as the writer's own, e\.g\. “(.*)…”",
        "stray quotation marks: {1} open no quotation, so the text after them counts as "
        "the writer's own, e.g. “{2}…”",
    ),
    (
        r"mostly quoted: (\d+)% of the text is in quotation marks",
        "mostly quoted: {1}% of the text is in quotation marks",
    ),
)
_FLAGS = tuple((re.compile(pattern), template) for pattern, template in FLAG_TEMPLATES)


@dataclass(frozen=True)
class ReportLanguage:
    """`words("{n} files", n=3)`: the text in this language, with its placeholders filled."""

    code: str = ENGLISH
    table: dict[str, str] = field(default_factory=dict)

    def __call__(self, text: str, **values: object) -> str:
        translated = self.table.get(text, text)
        return translated.format(**values) if values else translated

    def flag(self, text: str) -> str:
        """An integrity flag in this language, its evidence as written (a flag of
        unknown form as written)."""
        for pattern, template in _FLAGS:
            found = pattern.fullmatch(text)
            if found:
                return self.table.get(template, template).format(None, *found.groups())
        return text

    def count(self, n: int, one: str, many: str) -> str:
        """`one` or `many` (each with an {n} placeholder) as English counts them."""
        return self(one if n == 1 else many, n=f"{n:,}")

    @property
    def html_lang(self) -> str:
        return self.code.replace("_", "-")


@lru_cache(maxsize=4)
def report_language(code: str) -> ReportLanguage:
    """The report's words in `code` ("en", "zh_CN"; "zh_TW", "zh" and other variants of a
    language take its table); English for any other."""
    chosen = _supported(code)
    if chosen == ENGLISH:
        return ReportLanguage()
    with open(resource_path("report", f"{chosen}.json"), encoding="utf-8") as f:
        return ReportLanguage(chosen, json.load(f))


def environment_language() -> str:
    """The supported language of the user's locale settings (LC_ALL, LC_MESSAGES, LANG),
    as a terminal program reads them; English when none is set or supported."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            return _supported(value.split(".")[0])
    return ENGLISH


def _supported(code: str) -> str:
    if code in LANGUAGES:
        return code
    base = code.split("_")[0].lower()
    return next((c for c in LANGUAGES if c.split("_")[0] == base), ENGLISH)
