"""The window's "Read scans and pictures of text (OCR)" box: on by default, sent with each scan,
remembered."""

from __future__ import annotations

from simsift.app.main_window import MainWindow


def test_ocr_is_on_by_default_and_goes_with_the_scan(window):
    assert window.folders.ocr.isChecked()
    assert window.scan_options().ocr


def test_ocr_turned_off_is_sent_and_remembered(qtbot, window, settings, catalog):
    window.folders.ocr.setChecked(False)
    assert not window.scan_options().ocr
    window.save_settings()
    assert settings.ocr is False
    again = MainWindow(settings, catalog, workers=0)
    qtbot.addWidget(again)
    assert not again.folders.ocr.isChecked()
    assert not again.scan_options().ocr
