"""Running short of memory, disk space or file handles: a failure of the moment.

One rule for every reader and store: a shortage is never a verdict on a file or an
archive. A file that could not be read for want of memory is read again on the next scan
(never cached, never called corrupt); an archive file that could not be loaded for want of
memory is not damaged, so nothing is deleted or rebuilt because of it.
"""

from __future__ import annotations

import errno

_LIBXML_NO_MEMORY = 2  # XML_ERR_NO_MEMORY: lxml reports it as a syntax error
_ZLIB_NO_MEMORY = "Error -4 "  # Z_MEM_ERROR, as zlib.error words it
_SHORT_OF = frozenset(
    code
    for code in (
        errno.ENOMEM,
        errno.ENOSPC,
        getattr(errno, "EDQUOT", None),
        errno.EMFILE,
        errno.ENFILE,
    )
    if code is not None
)
_DEPTH = 20  # causes followed: a chain can loop through __context__


def ran_out_of_memory(error: BaseException | None) -> bool:
    """Whether `error`, or an error that caused it, is a failed allocation: a MemoryError,
    libxml2's (whatever its message says) or zlib's."""
    return any(_is_memory(e) for e in _chain(error))


def ran_short(error: BaseException | None) -> bool:
    """Whether `error`, or an error that caused it, is a shortage of memory, disk space,
    quota or file handles."""
    return any(_is_memory(e) or _is_short_os(e) for e in _chain(error))


def raise_if_short(error: BaseException) -> None:
    """Raise the shortage behind `error`, if any: a MemoryError for memory (whoever ran
    out of it), the OSError itself for disk space and file handles. Stores call this
    before they judge an error to be damage."""
    for e in _chain(error):
        if _is_memory(e):
            raise e if isinstance(e, MemoryError) else MemoryError(str(e)) from error
        if _is_short_os(e):
            raise e


def _chain(error: BaseException | None):
    seen = 0
    while error is not None and seen < _DEPTH:
        yield error
        error = error.__cause__ or error.__context__
        seen += 1


def _is_memory(error: BaseException) -> bool:
    if isinstance(error, MemoryError):
        return True
    if type(error).__module__.startswith("lxml"):
        return getattr(error, "code", None) == _LIBXML_NO_MEMORY
    return type(error).__module__ == "zlib" and str(error).startswith(_ZLIB_NO_MEMORY)


def _is_short_os(error: BaseException) -> bool:
    return isinstance(error, OSError) and error.errno in _SHORT_OF
