"""The Qt binding itself: a PySide6 release that breaks the app must fail here first."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    changed = Signal(int)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="True is immortal from Python 3.12")
def test_emitting_signals_keeps_the_reference_count_of_true():
    # PySide6 6.12.0 decremented True's count on every emit; Python 3.11 aborts at zero,
    # which the scan's progress signals reach within minutes.
    emitter = _Emitter()
    received = []
    emitter.changed.connect(received.append)
    before = sys.getrefcount(True)
    for i in range(200):
        emitter.changed.emit(i)
    assert len(received) == 200
    assert sys.getrefcount(True) > before - 100
