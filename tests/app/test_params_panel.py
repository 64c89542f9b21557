"""The parameters panel in the window's left column: the wheel scrolls the column, and
turns a setting only when the user chose that setting first."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget


def wheel_down(widget: QWidget) -> None:
    """One notch of the wheel turned towards the user over the middle of `widget`, as the
    window system delivers it (Qt passes a wheel event a widget ignores to its parent only
    when it comes from the window system)."""
    window = widget.window()
    centre = widget.mapTo(window, widget.rect().center())
    QTest.wheelEvent(window.windowHandle(), QPointF(centre), QPoint(0, -120))


def short_window(qtbot, window):
    """The window shown too short for the whole panel: its column scrolls."""
    window.resize(1000, 420)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    bar = window.params_scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    return bar


def test_the_wheel_over_unfocused_settings_scrolls_the_panel(qtbot, window):
    bar = short_window(qtbot, window)
    params = window.params
    window.folders.setFocus()
    editors = {
        params._title_boost: params._title_boost.value,
        params._shingle: params._shingle.value,
        params._shortest: params._shortest.value,
        params._common_docs: params._common_docs.value,
        params._tf: params._tf.currentIndex,
        params._k: params._k.value,
    }
    before = {editor: value() for editor, value in editors.items()}
    for editor in editors:
        window.params_scroll.ensureWidgetVisible(editor)
        scrolled = bar.value()
        wheel_down(editor)
        assert bar.value() > scrolled or bar.value() == bar.maximum()
        assert not editor.hasFocus()
    assert {editor: value() for editor, value in editors.items()} == before
    assert not params._weights_timer.isActive()  # no recompute on its way


def test_the_wheel_turns_a_setting_the_user_clicked_into(qtbot, window):
    bar = short_window(qtbot, window)
    spin = window.params._title_boost
    spin.setValue(1.0)
    window.params_scroll.ensureWidgetVisible(spin)
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    scrolled = bar.value()
    with qtbot.waitSignal(window.params.weights_changed, timeout=2000) as changed:
        wheel_down(spin)
    assert spin.value() == 0.5
    assert changed.args[0].title_boost == 0.5
    assert bar.value() == scrolled
