"""What counts as copying, set in the parameters panel: the shortest match, quotations and
the bibliography reach the next scan and a re-weighting, and are remembered."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from simsift.app.main_window import MainWindow
from simsift.app.settings import SHORTEST_MATCH_RANGE, Settings
from simsift.core.match.passages import PassageOptions

from tests.app.conftest import scan_and_wait


def rules(passages: PassageOptions) -> tuple[int, bool, bool]:
    return passages.partial_min_run, passages.count_quotations, passages.count_bibliography


def test_the_defaults_are_the_engines(window):
    defaults = PassageOptions()
    assert window.params.shortest_match() == defaults.partial_min_run == 15
    assert not window.params.count_quotations() and not window.params.count_bibliography()
    assert window.scan_options().passages == defaults
    assert window.params._shortest.minimum() == SHORTEST_MATCH_RANGE[0] == 8
    assert window.params._shortest.maximum() == SHORTEST_MATCH_RANGE[1] == 200


def test_the_settings_reach_the_next_scan(qtbot, window, corpus):
    root, _ = corpus
    window.params.set_shortest_match(30)
    window.params.set_count_quotations(True)
    window.params.set_count_bibliography(True)
    assert rules(window.scan_options().passages) == (30, True, True)
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    assert rules(window.result.options.passages) == (30, True, True)
    assert window.controller.reweights_started == 0  # shown as they were scanned


def test_changing_them_after_a_scan_compares_again_without_reading(qtbot, window, corpus):
    root, _ = corpus
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    documents = window.result.documents
    assert rules(window.result.options.passages) == (15, False, False)
    with qtbot.waitSignal(window.result_shown, timeout=10_000):
        window.params._shortest.setValue(40)
    assert window.controller.reweights_started == 1
    assert rules(window.result.options.passages) == (40, False, False)
    with qtbot.waitSignal(window.result_shown, timeout=10_000):
        window.params._quotations.setChecked(True)  # both settle into one re-comparison
        window.params._bibliography.setChecked(True)
    assert window.controller.reweights_started == 2
    assert rules(window.result.options.passages) == (40, True, True)
    with qtbot.waitSignal(window.result_shown, timeout=10_000):
        window.params._quotations.setChecked(False)
    assert rules(window.result.options.passages) == (40, False, True)
    assert window.controller.scans_started == 1 and window.result.documents is documents
    # the next scan starts from them too
    assert rules(window.scan_options().passages) == (40, False, True)


def test_they_are_remembered_across_sessions(qtbot, window, settings, catalog):
    window.params._shortest.setValue(25)
    window.params._quotations.setChecked(True)
    window.save_settings()
    again = Settings(QSettings(settings._store.fileName(), QSettings.Format.IniFormat))
    assert (again.shortest_match, again.count_quotations, again.count_bibliography) == (
        25,
        True,
        False,
    )
    reopened = MainWindow(again, catalog, workers=0)
    qtbot.addWidget(reopened)
    assert rules(reopened.scan_options().passages) == (25, True, False)
    reopened.controller.shutdown()


def test_unreadable_saved_values_fall_back(settings):
    store = settings._store
    store.setValue("scan/shortest_match", "many")
    store.setValue("scan/count_quotations", "perhaps")
    assert settings.shortest_match == PassageOptions().partial_min_run
    assert settings.count_quotations is False
    store.setValue("scan/shortest_match", 3)
    assert settings.shortest_match == SHORTEST_MATCH_RANGE[0]  # shorter runs are not seen
    store.setValue("scan/shortest_match", 5000)
    assert settings.shortest_match == SHORTEST_MATCH_RANGE[1]
    settings.count_bibliography = True
    settings.sync()
    assert Settings(QSettings(store.fileName(), QSettings.Format.IniFormat)).count_bibliography


def test_the_panel_explains_each_setting_in_english_and_chinese(qtbot, window):
    params = window.params
    assert "fewer words than this never count" in params._shortest.toolTip()
    assert (
        "「…」" in params._quotations.toolTip() and "block quotes" in params._quotations.toolTip()
    )
    assert "参考文献" in params._bibliography.toolTip()
    assert params._shortest.suffix() == " words"
    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: params._quotations.text() != "Count quotations as copying")
        assert params._copying_box.title() == "哪些算作抄袭"
        assert params._quotations.text() == "引文计为抄袭"
        assert params._shortest.suffix() == " 个词"
        assert "参考文献" in params._bibliography.toolTip()
    finally:
        window.set_language("en")
    qtbot.waitUntil(lambda: params._quotations.text() == "Count quotations as copying")
