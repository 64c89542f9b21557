"""Atomic writes: the whole file or the old one, and a read-only folder costs only the write."""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np
import pytest
from simsift.core.files import atomic_write, load_arrays, save_arrays


def read_only(monkeypatch) -> None:
    """Opening and removing files fail as on a read-only file system."""

    def fail(name):
        def call(*args, **kwargs):
            raise OSError(errno.EROFS, name)

        return call

    monkeypatch.setattr("builtins.open", fail("open"))
    monkeypatch.setattr(Path, "unlink", fail("unlink"))


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_write(path, durable=True) as f:
        f.write(b"half")
        raise RuntimeError("killed")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["data.bin"]


def test_a_durable_write_replaces_the_file(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"old")
    with atomic_write(path, durable=True) as f:
        f.write(b"new")
    assert path.read_bytes() == b"new"


def test_on_a_read_only_file_system_the_write_error_is_the_one_raised(tmp_path, monkeypatch):
    """Removing even a missing temp file fails with EROFS there; the caller must see the
    failed write (which it may ignore), never the clean-up's error."""

    read_only(monkeypatch)
    with pytest.raises(OSError) as raised, atomic_write(tmp_path / "counts.npy") as f:
        f.write(b"never")
    assert raised.value.strerror == "open"


def test_arrays_round_trip(tmp_path):
    arrays = {"a": np.arange(5, dtype=np.int64), "b": np.array([1.5], np.float64)}
    save_arrays(tmp_path / "x.arrays", arrays)
    loaded = load_arrays(tmp_path / "x.arrays")
    assert list(loaded) == ["a", "b"]
    assert all(np.array_equal(loaded[k], arrays[k]) for k in arrays)
