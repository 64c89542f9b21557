"""Opening the user's catalog at start-up: a damaged one is replaced, a foreign one refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from simsift.app.main import _open_catalog
from simsift.core.document import FileRecord
from simsift.core.store import catalog as catalog_module
from simsift.core.store.catalog import Catalog


@pytest.fixture
def user_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data" / "catalog.sqlite3"
    path.parent.mkdir()
    monkeypatch.setattr(catalog_module, "default_catalog_path", lambda: path)
    return path


def test_a_damaged_catalog_is_replaced_and_the_user_warned(
    user_catalog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Catalog(user_catalog) as catalog:
        catalog.store(FileRecord(f"/d/{i}.txt", i, i, "skipped") for i in range(300))
    with user_catalog.open("r+b") as file:
        file.seek(100)  # the schema on page 1, after the file header
        file.write(b"\xa5" * 3996)

    catalog = _open_catalog()

    assert catalog is not None
    try:
        assert catalog.recovery is not None
        assert catalog.records_under(["/d"]) == []
    finally:
        catalog.close()
    assert catalog.recovery.set_aside.exists()
    assert catalog.recovery.message in capsys.readouterr().err


def test_a_foreign_database_is_refused_and_left_unchanged(
    user_catalog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = sqlite3.connect(user_catalog)
    raw.execute("CREATE TABLE notes (body TEXT)")
    raw.commit()
    raw.close()
    before = user_catalog.read_bytes()

    assert _open_catalog() is None

    assert "not a SimSift catalog" in capsys.readouterr().err
    assert user_catalog.read_bytes() == before
    assert list(user_catalog.parent.iterdir()) == [user_catalog]
