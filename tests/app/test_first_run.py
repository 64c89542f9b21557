"""A first run that explains itself: the welcome page, the teacher / editor choice and the
tab it opens first, the folder list's legend; the empty state again once every folder is
removed; archive documents marked in the UI language."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, QMimeData, QPointF, Qt, QTranslator, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication
from simsift.app.main_window import MainWindow
from simsift.app.readable import NAMES, readable
from simsift.core.pipeline.check import ARCHIVE_MARK

from tests.app.test_documents_tab import scan_collage


def test_the_first_window_explains_folders_reference_archive_and_tabs(window):
    assert window.right_stack.currentWidget() is window.welcome
    page = window.welcome
    texts = " ".join(label.text() for label in page.findChildren(type(page.title)))
    assert "Drop folders here" in texts
    assert "reference folder" in texts and "Archive" in texts
    for tab in ("Documents", "Clusters", "Partial copies", "Common text", "Overview"):
        assert tab in texts
    assert "The teacher's list" in texts
    # the folder list itself says what its tick means, under the list
    assert "Ticked: reference folder" in window.folders.legend.text()
    assert not page.teacher.isChecked() and not page.editor.isChecked()


def test_folders_dropped_on_the_welcome_page_are_listed(qtbot, window, tmp_path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.welcome.dropEvent(event)
    assert window.folders.folders() == [str(tmp_path)]


@pytest.mark.parametrize(("role", "tab"), [("teacher", "documents"), ("editor", "clusters")])
def test_the_chosen_role_opens_its_tab_after_the_scan_and_is_remembered(
    qtbot, window, settings, catalog, tmp_path, role, tab
):
    button = window.welcome.teacher if role == "teacher" else window.welcome.editor
    button.click()
    assert settings.role == role
    assert window.role_actions[role].isChecked()
    window.tabs.setCurrentWidget(window.overview_panel)
    scan_collage(qtbot, window, tmp_path)
    assert window.right_stack.currentWidget() is window.right_splitter
    expected = window.documents_panel if tab == "documents" else window.clusters_panel
    assert window.tabs.currentWidget() is expected

    again = MainWindow(settings, catalog, workers=0)  # the next start knows the choice
    qtbot.addWidget(again)
    assert again.welcome.teacher.isChecked() == (role == "teacher")
    assert again.role_actions[role].isChecked()
    again.controller.shutdown()


def test_the_view_menu_changes_the_role_and_opens_its_tab_now(qtbot, window, settings, tmp_path):
    scan_collage(qtbot, window, tmp_path)
    window.role_actions["teacher"].trigger()
    assert settings.role == "teacher"
    assert window.tabs.currentWidget() is window.documents_panel
    assert window.welcome.teacher.isChecked()


def test_removing_every_folder_clears_the_results_and_shows_the_welcome_page(
    qtbot, window, tmp_path
):
    scan_collage(qtbot, window, tmp_path)
    assert window.documents_panel.model.rowCount() > 0
    window.folders._list.selectAll()
    window.folders.remove_selected()
    assert window.result is None
    assert window.right_stack.currentWidget() is window.welcome
    for model in (
        window.model,
        window.documents_panel.model,
        window.partial_panel.model,
        window.common_panel.model,
    ):
        assert model.rowCount() == 0
    assert window.overview_panel.overview is None
    assert window.tabs.tabText(window.tabs.indexOf(window.documents_panel)) == "Documents (0)"
    assert not window.export_html_action.isEnabled()
    assert not window.mark_action.isEnabled()


def test_an_archive_document_is_marked_in_the_ui_language(qtbot):
    path = ARCHIVE_MARK + "/years/2025/essay.txt"
    assert readable(path) == "archive: /years/2025/essay.txt"

    class Chinese(QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):
            if context == "DisplayNames" and source == "archive: %1":
                return "存档：%1"
            return ""

    translator = Chinese()
    app = QApplication.instance()
    app.installTranslator(translator)
    try:
        assert readable(path) == "存档：/years/2025/essay.txt"
        assert NAMES.path(path) == "存档：/years/2025/essay.txt"
        assert "archive" not in readable(path.rsplit("/", 1)[0])
    finally:
        app.removeTranslator(translator)
    assert QCoreApplication.translate("DisplayNames", "archive: %1") == "archive: %1"
