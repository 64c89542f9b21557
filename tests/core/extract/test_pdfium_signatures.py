"""PDFium's functions the C loops call by address are checked against pypdfium2's own
declarations: a function declared otherwise leaves the loops unused, the reason logged."""

from __future__ import annotations

import ctypes
import logging
from types import ModuleType, SimpleNamespace

import pypdfium2.raw as fpdf
import pytest
from simsift.core.read.extract.pdfium_signatures import C_SIGNATURES, checked_loops, mismatches

# the loops as `checked_loops` takes them, built here or not
pdf_loops = ModuleType("pdf_loops")


def declared_as_installed() -> SimpleNamespace:
    """pypdfium2's declarations of the functions the loops call, to be changed."""
    return SimpleNamespace(
        **{
            name: SimpleNamespace(
                restype=getattr(fpdf, name).restype, argtypes=getattr(fpdf, name).argtypes
            )
            for name in C_SIGNATURES
        }
    )


def test_the_installed_pypdfium2_declares_the_functions_as_the_loops_call_them() -> None:
    assert mismatches() == []
    assert checked_loops(pdf_loops) is pdf_loops


@pytest.mark.parametrize(
    ("name", "restype", "argtypes"),
    [
        # a box of doubles where the loop writes four floats
        (
            "FPDFText_GetLooseCharBox",
            ctypes.c_int,
            (ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(fpdf.FS_MATRIX)),
        ),
        ("FPDFFormObj_GetObject", ctypes.c_void_p, (ctypes.c_void_p, ctypes.c_int)),  # index
        ("FPDFText_GetUnicode", ctypes.c_uint64, (ctypes.c_void_p, ctypes.c_int)),  # result
        ("FPDFText_CountChars", ctypes.c_int, ()),  # arguments
    ],
)
def test_a_function_declared_otherwise_leaves_the_loops_unused(
    name: str, restype: type, argtypes: tuple, caplog: pytest.LogCaptureFixture
) -> None:
    declared = declared_as_installed()
    setattr(declared, name, SimpleNamespace(restype=restype, argtypes=argtypes))
    assert [problem.split()[0] for problem in mismatches(declared)] == [name]
    with caplog.at_level(logging.WARNING):
        assert checked_loops(pdf_loops, declared) is None
    assert name in caplog.text


def test_a_missing_function_leaves_the_loops_unused() -> None:
    declared = declared_as_installed()
    del declared.FPDFText_GetTextObject
    assert mismatches(declared) == ["FPDFText_GetTextObject is missing"]
    assert checked_loops(pdf_loops, declared) is None
