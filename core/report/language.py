"""The HTML report's words in the reader's language.

The report is written in English in `core.report.html`; a translation is a table from
those English strings (placeholders and all) to the language's, kept in
`resources/report/<language>.json`. A string missing from a table stays English, and
tests/core/test_report_language.py checks that no string of the report is missing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache

from simsift.core.paths import resource_path

ENGLISH = "en"
LANGUAGES = (ENGLISH, "zh_CN")


@dataclass(frozen=True)
class ReportLanguage:
    """`words("{n} files", n=3)`: the text in this language, with its placeholders filled."""

    code: str = ENGLISH
    table: dict[str, str] = field(default_factory=dict)

    def __call__(self, text: str, **values: object) -> str:
        translated = self.table.get(text, text)
        return translated.format(**values) if values else translated

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
