"""Test-wide setup: Qt must run offscreen, and that must be set before any Qt import."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
