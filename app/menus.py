"""Where the main window's actions go: the menu bar, the toolbar and the right-click
menus of the tabs' views.

The actions themselves (their slots, shortcuts and icons) and every text are the window's
(`app.main_window`): menu titles are set, and set again on a change of language, by
`MainWindow.retranslate`; this only lays the actions out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

if TYPE_CHECKING:
    from simsift.app.main_window import MainWindow


def build_menus(window: MainWindow) -> None:
    """Make the window's menus (`file_menu`, `edit_menu`, `view_menu`, `role_menu`,
    `language_menu`, `help_menu`) and `toolbar`, and give the views their right-click
    menus, from the window's actions."""
    bar = window.menuBar()
    window.file_menu = bar.addMenu("")
    for action in (
        window.add_folder_action,
        window.scan_action,
        None,
        window.export_csv_action,
        window.export_json_action,
        window.export_html_action,
        None,
        window.quit_action,
    ):
        _add(window.file_menu, action)
    window.edit_menu = bar.addMenu("")
    for action in (
        window.open_action,
        window.reveal_action,
        window.copy_action,
        window.show_text_action,
        None,
        window.mark_action,
        window.unmark_action,
        window.original_action,
        window.ignore_action,
        window.verdict_action,
        None,
        window.trash_action,
        window.move_action,
        window.undo_action,
    ):
        _add(window.edit_menu, action)
    window.view_menu = bar.addMenu("")
    window.view_menu.addAction(window.anonymize_action)
    window.role_menu = window.view_menu.addMenu("")
    for action in window.role_actions.values():
        window.role_menu.addAction(action)
    window.language_menu = bar.addMenu("")
    for action in window.language_actions.values():
        window.language_menu.addAction(action)
    window.help_menu = bar.addMenu("")
    window.help_menu.addAction(window.guide_action)
    window.help_menu.addAction(window.about_action)
    window.toolbar = window.addToolBar("main")
    window.toolbar.setObjectName("main-toolbar")
    window.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    for action in (
        window.add_folder_action,
        window.scan_action,
        None,
        window.mark_action,
        window.ignore_action,
        window.trash_action,
        None,
        window.export_html_action,
    ):
        _add(window.toolbar, action)
    window.tree.addActions(
        [
            window.open_action,
            window.reveal_action,
            window.copy_action,
            window.show_text_action,
            _separator(window),
            window.mark_action,
            window.unmark_action,
            window.original_action,
            window.ignore_action,
            window.verdict_action,
            _separator(window),
            window.trash_action,
            window.move_action,
        ]
    )
    window.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    for view, actions in (
        (
            window.partial_panel.view,
            [window.show_text_action, window.ignore_action, window.verdict_action],
        ),
        (
            window.documents_panel.table,
            [
                window.show_text_action,
                window.verdict_action,
                _separator(window),
                window.documents_panel.exclude_action,
                window.documents_panel.include_action,
            ],
        ),
        (window.problems_panel.view, [window.show_text_action]),
    ):
        view.addActions(actions)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)


def _add(container, action: QAction | None) -> None:
    if action is None:
        container.addSeparator()
    else:
        container.addAction(action)


def _separator(parent) -> QAction:
    action = QAction(parent)
    action.setSeparator(True)
    return action
