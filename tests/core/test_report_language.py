"""The HTML report in the reader's language: every string of it translated."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
import simsift.core.report.essay as essay
import simsift.core.report.html as html_report
from simsift.core.analysis.cluster import KIND_NAMES
from simsift.core.report.language import (
    FLAG_TEMPLATES,
    LANGUAGES,
    environment_language,
    report_language,
)
from simsift.core.text.features import TF_SCHEMES
from simsift.core.text.integrity import lookalike_flag

from tests.core.test_integrity import every_flag

TRANSLATED = [code for code in LANGUAGES if code != "en"]


def report_strings() -> set[str]:
    """Every English string the report passes through its words: the literals given to
    `w(...)`, `w.count(...)` and `_header_row(w, ...)`, and the tables of names."""
    tree = ast.parse(Path(html_report.__file__).read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = (isinstance(func, ast.Name) and func.id in ("w", "_header_row")) or (
            isinstance(func, ast.Attribute) and func.attr == "count"
        )
        if called:
            literals = [a.value for a in node.args if isinstance(a, ast.Constant)]
            found |= {value for value in literals if isinstance(value, str)}
    found |= {name for _, name in html_report._SECTIONS}
    found |= {text for pair in html_report._MEASURES for text in pair}
    found |= {text for title, column, _ in _file_lists() for text in (title, column)}
    flags = {template for _, template in FLAG_TEMPLATES}
    return found | set(KIND_NAMES) | set(TF_SCHEMES) | essay_meaning_strings() | flags


def essay_meaning_strings() -> set[str]:
    """The essay report's labels of copying found by meaning, translated with the report's
    words (`core.report.essay.meaning_labels`)."""
    defaults = essay.EssayLabels()
    return {getattr(defaults, name) for name in essay.MEANING_LABELS}


def _file_lists():
    """The (title, column) names of the Problems section's lists, from its source."""
    source = Path(html_report.__file__).read_text(encoding="utf-8")
    body = source[source.index("def _files_section") :]
    body = body[: body.index("out = [")]
    return [(t, c, None) for t, c in re.findall(r'\(\s*"([^"]+)",\s*"([^"]+)",', body)]


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_report_string_is_translated_and_no_stale_ones_are_kept(code):
    table = report_language(code).table
    strings = report_strings()
    assert len(strings) > 80
    assert sorted(strings - set(table)) == []
    assert sorted(set(table) - strings) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_their_placeholders(code):
    placeholders = re.compile(r"\{(\w*)\}")
    for english, translated in report_language(code).table.items():
        assert sorted(placeholders.findall(translated)) == sorted(placeholders.findall(english))
        assert translated.strip()


def test_locale_settings_choose_the_language(monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert environment_language() == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert environment_language() == "zh_CN"
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")  # LC_ALL overrides LANG
    assert environment_language() == "en"
    assert report_language("zh_TW").code == "zh_CN"
    assert report_language("fr").code == "en"


def test_resource_tables_are_valid_json_objects_of_strings():
    for code in TRANSLATED:
        path = Path(__file__).parents[2] / "resources" / "report" / f"{code}.json"
        pairs = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=list)
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in pairs)
        assert len({k for k, _ in pairs}) == len(pairs), "a string is translated twice"


def test_the_essay_labels_of_copying_by_meaning_are_translated():
    from dataclasses import replace

    labels = replace(essay.EssayLabels(), **essay.meaning_labels("zh_CN"))
    assert labels.all_kinds == "各类合计 {total}：{parts}"
    assert labels.shares(0.09, 0.06, 0.03) == "逐字 9%，改写 6%，翻译 3%"
    assert essay.meaning_labels("en")["evidence"] == essay.EssayLabels().evidence


def test_every_integrity_flag_reads_in_each_language_with_its_evidence_as_written():
    """Each template, filled as the engine fills it, is recognised and translated."""
    evidence = ("12", "34", "56", "а→a ×3, {n} %1", "p{а}ss\\1")
    for code in TRANSLATED:
        words = report_language(code)
        for _, template in FLAG_TEMPLATES:
            filled = template.format(None, *evidence)
            out = words.flag(filled)
            assert out == words.table[template].format(None, *evidence) != filled
    for flag in every_flag():
        assert report_language("zh_CN").flag(flag) != flag
        assert report_language("en").flag(flag) == flag
    flag = lookalike_flag(["The pаssаge wаs cоpied frоm sоmewhere"])
    assert report_language("zh_CN").flag(flag).startswith("形近字母：5 个拉丁字母单词中混有 6 个")
