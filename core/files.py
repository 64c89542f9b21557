"""Writing files so that no reader ever sees half of one."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def atomic_write(path: Path, mode: str = "wb", **open_args) -> Iterator[IO]:
    """A file to write `path` at once: the block writes a temporary file beside it, which
    then replaces `path` by a rename; on any error it is removed and `path` is untouched.

    The temporary name is unique per call (two processes may write the same path), and
    the file is created with the user's umask. `mode` is "wb" or "w"; `open_args` go to
    `open` (encoding, errors).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', not {mode!r}")
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, mode.replace("w", "x"), **open_args) as f:  # "x": never overwrite
            yield f
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
