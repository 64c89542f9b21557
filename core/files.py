"""Writing files so that no reader ever sees half of one."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

import numpy as np


@contextmanager
def atomic_write(
    path: Path, mode: str = "wb", *, durable: bool = False, **open_args
) -> Iterator[IO]:
    """A file to write `path` at once: the block writes a temporary file beside it, which
    then replaces `path` by a rename; on any error it is removed and `path` is untouched.

    The temporary name is unique per call (two processes may write the same path), and
    the file is created with the user's umask. `mode` is "wb" or "w"; `open_args` go to
    `open` (encoding, errors). `durable`: the file is synced before the rename and the
    folder after it, so a power cut leaves the old file or the new one (archives, stored
    indexes); caches skip the cost.
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', not {mode!r}")
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, mode.replace("w", "x"), **open_args) as f:  # "x": never overwrite
            yield f
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        # on a read-only file system even removing a missing file fails (EROFS)
        with suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise
    if durable:
        sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make renames in `folder` durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_ARRAYS_MAGIC = b"SimSift arrays 1\n"


def save_arrays(path: Path, arrays: dict) -> None:
    """Named arrays in one file, written at once: a line of names, then each array in
    numpy's .npy format. Loading it reads straight into the arrays; an .npz goes through
    zipfile's buffered reads and copies (a man-page rescan spent a second there)."""
    with atomic_write(path) as f:
        f.write(_ARRAYS_MAGIC)
        f.write(json.dumps(list(arrays)).encode("ascii") + b"\n")
        for value in arrays.values():
            np.lib.format.write_array(f, np.asanyarray(value), allow_pickle=False)


def load_arrays(path: Path) -> dict:
    """The arrays `save_arrays` wrote; OSError or ValueError if missing or damaged."""
    with open(path, "rb") as f:
        if f.readline() != _ARRAYS_MAGIC:
            raise ValueError(f"{path} is not a SimSift arrays file")
        names = json.loads(f.readline())
        return {name: np.lib.format.read_array(f, allow_pickle=False) for name in names}


def json_bytes(value) -> bytes:
    """`value` as UTF-8 JSON; lone surrogates (file names that are not valid UTF-8) are
    kept exact, so a path read back opens the same file."""
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def json_value(data: bytes):
    """The value `json_bytes` wrote."""
    return json.loads(data.decode("utf-8", "surrogatepass"))
