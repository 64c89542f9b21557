"""Test-wide setup: Qt must run offscreen, and that must be set before any Qt import."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

# Modules whose tests take seconds each (Dask clusters, OCR, fuzzing, C-loop and reader
# equivalence over many pages): `python -m pytest -m "not slow"` leaves them out for a
# quick loop; the README's command runs everything.
SLOW_MODULES = frozenset(
    {
        "test_distributed.py",
        "test_fuzz.py",
        "test_fuzz_structure.py",
        "test_ocr_languages.py",
        "test_ocr_bad_input.py",
        "test_tesseract_api.py",
        "test_bundled_tesseract.py",
        "test_tokens_speedup_equivalence.py",
        "test_word_segmenter_speed_equivalence.py",
        "test_chinese_speed_equivalence.py",
        "test_pdf_speed_equivalence.py",
        "test_html_speed_equivalence.py",
        "test_pdf_bombs.py",
    }
)


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if item.path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
