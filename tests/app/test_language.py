"""English and Simplified Chinese UI, switched live from the Language menu."""

from __future__ import annotations

from PySide6.QtCore import QLocale, Qt
from simsift.app.i18n import Translations, system_language
from simsift.app.models.clusters import COL_KIND
from simsift.app.models.roles import DocRole
from simsift.core.paths import resource_path

from tests.app.conftest import scan_and_wait


def test_compiled_translation_is_shipped():
    assert resource_path("translations", "simsift_zh_CN.qm").stat().st_size > 1000


def test_system_locale_picks_chinese(monkeypatch):
    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("zh_CN")))
    assert system_language() == "zh_CN"
    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("de_DE")))
    assert system_language() == "en"


def test_language_switches_live_and_is_remembered(qtbot, window, settings):
    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: window.scan_button.text() != "Scan", timeout=2000)
        assert window.windowTitle().startswith("SimSift — 近似重复")
        assert window.scan_button.text() == "扫描"
        assert window.folders._add.text() == "添加文件夹…"
        header = window.model.headerData(COL_KIND, Qt.Orientation.Horizontal, 0)
        assert header == "类型"
        assert window.language_actions["zh_CN"].isChecked()
        assert settings.language == "zh_CN"
    finally:
        window.set_language("en")
    qtbot.waitUntil(lambda: window.scan_button.text() == "Scan", timeout=2000)
    assert window.scan_button.text() == "Scan"


def test_unknown_language_falls_back_to_english(qapp):
    translations = Translations()
    assert not translations.install("xx_XX")
    assert translations.language == "en"


def test_side_by_side_view_switches_language_with_a_pair_open(qtbot, window, corpus):
    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    view = window.diff_view
    cluster = window.proxy.index(0, 0)
    with qtbot.waitSignal(view.alignment_ready, timeout=10_000):
        window.select_documents([window.proxy.data(window.proxy.index(1, 0, cluster), DocRole)])
    assert view.summary_label.text().startswith("Hamming distance ")
    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: view.next_button.text() == "下一处匹配", timeout=2000)
        assert view.previous_action.text() == "上一处匹配"
        assert view.summary_label.text().startswith("汉明距离 ")
    finally:
        window.set_language("en")
    qtbot.waitUntil(lambda: view.next_button.text() == "Next match", timeout=2000)
    assert view.summary_label.text().startswith("Hamming distance ")
    assert "(F7)" in view.next_button.toolTip()


def test_the_user_guide_opens_in_the_ui_language(qtbot, window):
    from simsift.app.dialogs.guide import GuideDialog

    window.guide_action.trigger()
    [guide] = window.findChildren(GuideDialog)
    assert "SimSift in five minutes" in guide.text.toPlainText()
    assert "Similarity index" in guide.text.toPlainText()
    guide.close()
    chinese = GuideDialog("zh_CN")
    qtbot.addWidget(chinese)
    assert "相似度指数" in chinese.text.toPlainText()
    unknown = GuideDialog("xx_XX")  # no guide in that language: English
    qtbot.addWidget(unknown)
    assert "SimSift in five minutes" in unknown.text.toPlainText()


def test_per_file_problems_read_in_the_ui_language(qtbot, window, tmp_path):
    from simsift.app.messages import translated

    (tmp_path / "essay.txt").write_text("An essay long enough to be read. " * 20)
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "drawing.psd").write_bytes(b"8BPS" + bytes(32))
    window.folders.add_paths([str(tmp_path)])
    scan_and_wait(qtbot, window)
    model = window.problems_panel.model
    english = {model.index(r, 3).data() for r in range(model.rowCount())}
    assert "empty file" in english and any(".psd" in m for m in english)
    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: window.scan_button.text() == "扫描", timeout=2000)
        chinese = {model.index(r, 3).data() for r in range(model.rowCount())}
        assert "空文件" in chinese
        assert any(m.startswith("不是 SimSift 读取的文档类型") and ".psd" in m for m in chinese)
        unknown = "a message nobody wrote a pattern for"
        assert translated(unknown) == unknown
        decoded = translated("3 characters could not be decoded (shown as �)")
        assert decoded == "3 个字符无法解码（显示为 �）"
        aborted = "too big to read in a reader's memory, or damaged (the reader crashed: SIGABRT)"
        assert translated(aborted) == (
            "文件太大，读取进程的内存放不下，或文件已损坏（读取进程崩溃：SIGABRT）"
        )
        crashed = translated("reader crashed on this file (exit code 3)")
        assert crashed == "读取此文件时读取进程崩溃（exit code 3）"
    finally:
        window.set_language("en")


def test_the_html_report_is_written_in_the_ui_language(
    qtbot, window, corpus, tmp_path, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog

    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    out = tmp_path / "report.html"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    try:
        window.set_language("zh_CN")
        window.export_html_action.trigger()
        qtbot.waitUntil(lambda: not window.editor.busy, timeout=20_000)
    finally:
        window.set_language("en")
    text = out.read_text("utf-8")
    assert '<html lang="zh-CN">' in text
    assert '<h2 id="settings">设置</h2>' in text and "如何阅读本报告" in text


def test_tabs_of_the_panels_switch_language_live(qtbot, window):
    tabs = window.tabs

    def title(panel) -> str:
        return tabs.tabText(tabs.indexOf(panel))

    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: title(window.clusters_panel) == "重复组", timeout=2000)
        assert title(window.partial_panel) == "部分抄袭（0）"
        for panel in window.tab_panels:
            assert not title(panel).isascii(), title(panel)
        placeholder = window.clusters_panel.filter_edit.placeholderText()
        assert placeholder == "按文件名、文件夹或标题筛选…"
        assert not window.partial_panel.filter.placeholderText().isascii()
    finally:
        window.set_language("en")
    qtbot.waitUntil(lambda: title(window.clusters_panel) == "Clusters", timeout=2000)
    assert title(window.partial_panel) == "Partial copies (0)"
