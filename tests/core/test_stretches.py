"""Stretches of a token mask cut at document starts, empty documents among them (a check
lists archive documents near a new one by fingerprint only without their tokens)."""

from __future__ import annotations

import numpy as np
from simsift.core.match.grams import stretches


def test_an_empty_document_between_two_stretches_makes_no_empty_stretch():
    begin, stop = stretches(np.ones(10, bool), np.array([0, 5, 5, 10]))
    assert begin.tolist() == [0, 5] and stop.tolist() == [5, 10]
