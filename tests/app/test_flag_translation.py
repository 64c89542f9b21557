"""The integrity flags read in the UI language: every sentence the engine writes
(`core/text/integrity.py`) has a pattern in `app/messages.py` and a Chinese translation,
its evidence kept as written."""

from __future__ import annotations

import re

import pytest
from simsift.core.document import ExtractedText
from simsift.core.text import integrity

from tests.core.test_integrity import every_flag

CJK = re.compile("[\u4e00-\u9fff]")


@pytest.fixture
def chinese(qapp):
    from simsift.app.i18n import Translations

    translations = Translations()
    assert translations.install("zh_CN")
    yield
    translations.install("en")


def test_every_integrity_flag_reads_in_chinese(chinese):
    from simsift.app.messages import translated

    for flag in every_flag():
        shown = translated(flag)
        assert shown != flag and CJK.search(shown.split("：")[0]), flag
        evidence = re.findall(r"“([^”]*)”", flag)
        assert all(e in shown for e in evidence), (flag, shown)
        assert all(n in shown for n in re.findall(r"\d+", flag)), (flag, shown)


def test_a_flag_of_a_document_in_english_stays_english(qapp):
    from simsift.app.messages import translated

    flags = integrity.integrity_flags(
        ExtractedText("", ("He said “ " + "the river runs to the sea " * 30,) * 2, "txt")
    )
    assert translated(flags[0]) == flags[0]


def test_the_extracted_text_dialog_shows_a_flag_in_chinese(qtbot, chinese):
    import html

    from simsift.app.dialogs.text import ExtractedTextDialog
    from simsift.core.document import FileRecord

    flag = integrity.stray_quotes_flag(["He said “ " + "the river runs to the sea " * 30] * 2)
    record = FileRecord("/class/essay.txt", 1, 0, "ok", paragraphs=("x",), flags=(flag,))
    dialog = ExtractedTextDialog(record)
    qtbot.addWidget(dialog)
    header = html.unescape(dialog.header.text())
    assert "多余的引号：2 个引号没有引出任何引文" in header and "stray" not in header


def test_the_essay_report_shows_a_flag_in_chinese(qtbot, chinese):
    from simsift.app.panels.documents import DocumentsPanel

    panel = DocumentsPanel()
    qtbot.addWidget(panel)
    flag = integrity.hidden_text_flag(("words nobody sees " * 6,))
    assert panel._labels(False).flag_text(flag).startswith("隐藏文字：文件中有 18 个词不显示")
