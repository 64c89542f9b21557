"""The PDFium functions the C loops (`pdf_loops.c`) call by address, with the types the
loops call them with, checked against pypdfium2's own declarations (its functions'
`restype` and `argtypes`): where a pypdfium2 declares one otherwise (its PDFium changed
a function), the reader calls PDFium through ctypes instead of the loops, the reason
logged, rather than call a function with the wrong arguments."""

from __future__ import annotations

import ctypes
import logging
from types import ModuleType

import pypdfium2.raw as fpdf

_log = logging.getLogger(__name__)


class _Rect(ctypes.Structure):
    """FS_RECTF as the loops read it: four floats."""

    _fields_ = [(side, ctypes.c_float) for side in ("left", "top", "right", "bottom")]


class _Matrix(ctypes.Structure):
    """FS_MATRIX as the loops read it: six floats."""

    _fields_ = [(name, ctypes.c_float) for name in "abcdef"]


_HANDLE, _INT, _UINT, _P = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.POINTER
_COLOUR = (_HANDLE, *[_P(_UINT)] * 4)

# each function as pdf_loops.c casts its address: (result, arguments)
C_SIGNATURES: dict[str, tuple[type | None, tuple[type, ...]]] = {
    "FPDFText_CountChars": (_INT, (_HANDLE,)),
    "FPDFText_GetText": (_INT, (_HANDLE, _INT, _INT, _P(ctypes.c_ushort))),
    "FPDFText_GetUnicode": (_UINT, (_HANDLE, _INT)),
    "FPDFText_IsGenerated": (_INT, (_HANDLE, _INT)),
    "FPDFText_HasUnicodeMapError": (_INT, (_HANDLE, _INT)),
    "FPDFText_GetLooseCharBox": (_INT, (_HANDLE, _INT, _P(_Rect))),
    "FPDFText_GetTextObject": (_HANDLE, (_HANDLE, _INT)),
    "FPDFPage_CountObjects": (_INT, (_HANDLE,)),
    "FPDFPage_GetObject": (_HANDLE, (_HANDLE, _INT)),
    "FPDFFormObj_CountObjects": (_INT, (_HANDLE,)),
    "FPDFFormObj_GetObject": (_HANDLE, (_HANDLE, ctypes.c_ulong)),
    "FPDFPageObj_GetType": (_INT, (_HANDLE,)),
    "FPDFPageObj_GetMatrix": (_INT, (_HANDLE, _P(_Matrix))),
    "FPDFTextObj_GetFontSize": (_INT, (_HANDLE, _P(ctypes.c_float))),
    "FPDFTextObj_GetFont": (_HANDLE, (_HANDLE,)),
    "FPDFTextObj_GetTextRenderMode": (_INT, (_HANDLE,)),
    "FPDFPageObj_GetFillColor": (_INT, _COLOUR),
    "FPDFPageObj_GetStrokeColor": (_INT, _COLOUR),
}


def checked_loops(loops: ModuleType | None, declared: object = fpdf) -> ModuleType | None:
    """`loops`, or None (the reason logged) when `declared` (pypdfium2's functions) types a
    function the loops call otherwise than they call it."""
    if loops is None:
        return None
    wrong = mismatches(declared)
    if wrong:
        _log.warning("PDFium called through ctypes, not the C loops: %s", "; ".join(wrong))
        return None
    return loops


def mismatches(declared: object = fpdf) -> list[str]:
    """Each function `declared` lacks or types otherwise than `C_SIGNATURES`, in words."""
    found = []
    for name, (result, arguments) in C_SIGNATURES.items():
        function = getattr(declared, name, None)
        if function is None:
            found.append(f"{name} is missing")
            continue
        theirs = _signature(function.restype, function.argtypes or ())
        ours = _signature(result, arguments)
        if theirs != ours:
            found.append(f"{name} is declared {theirs}, called {ours}")
    return found


def _signature(result: type | None, arguments: tuple[type, ...]) -> str:
    return f"{_kind(result)}({', '.join(map(_kind, arguments))})"


def _kind(kind: type | None) -> str:
    """A C type as the call sees it: a handle (a pointer to an opaque struct), a pointer to
    what it points to, a struct of its fields, an int of its sign and size, a float."""
    if kind is None:
        return "void"
    if kind is ctypes.c_void_p:
        return "handle"
    if issubclass(kind, ctypes._Pointer):
        target = kind._type_
        if issubclass(target, ctypes.Structure) and not getattr(target, "_fields_", None):
            return "handle"
        return _kind(target) + "*"
    if issubclass(kind, ctypes.Structure):
        return "{" + ", ".join(_kind(field[1]) for field in kind._fields_) + "}"
    code = getattr(kind, "_type_", "?")
    sort = "float" if code in "fdg" else "uint" if code in "BHILQ" else "int"
    return f"{sort}{8 * ctypes.sizeof(kind)}"
