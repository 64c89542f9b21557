"""Tesseract kept loaded in the reader: its C API (libtesseract) through ctypes, one engine
per set of languages, each loaded once for the reader process's life.

The `tesseract` program loads its models on every run: 0.3-0.45 s of a page's 2-3 s, and a
page may take several runs (a strip to tell the script, orientation, another language).
Here a page costs its reading alone; the text is the program's (the same settings, each
page read afresh; tests/core/test_tesseract_api.py compares them).

Used only inside a reader process (`workers.in_reader`) or where a caller allows it
(`allow_in_this_process`): Tesseract aborts its process on some failures (no memory under
the reader's limit), which the reader sandbox contains and the app would not. A page too
large for the memory the reader has left is read by the program instead (`fits`).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import sys
import time
from pathlib import Path

import numpy as np
from simsift.core.read import workers

__all__ = ["TesseractApi", "allow_in_this_process", "api"]

_PSM_OSD_ONLY = 0
_PSM_AUTO = 3
# Address space a page takes in Tesseract, per pixel of its grey image, four times what was
# measured (a 300-dpi letter page of 8.4 M pixels: 20 MB; a 36 M pixel page: 125 MB at
# peak): a page that may not fit is read by the program, whose failure is an error of the
# file, not the reader's death.
_BYTES_PER_PIXEL = 16
# Engines kept loaded (each 25-55 MB): a file needs two to four (Chinese files the most).
_KEPT = 4
# The clockwise turn that makes the page upright, by the orientation Tesseract detects
# (its `OrientationIdToValue`, what the program prints as "Rotate").
_ROTATE = {0: 0, 90: 270, 180: 180, 270: 90}

_allowed = False


def allow_in_this_process(allowed: bool = True) -> None:
    """Let this process read with the API outside a reader (a benchmark reading in-process),
    or no longer (`allowed` False: the program reads, as in the app's own process)."""
    global _allowed
    _allowed = allowed


class OutOfTime(Exception):
    """Tesseract's recognition stopped at the deadline it was given."""


class Failed(Exception):
    """Tesseract could not read the page (its message)."""


class TesseractApi:
    """libtesseract's engines, by languages; one thread uses them at a time."""

    def __init__(self, library: ctypes.CDLL, leptonica: ctypes.CDLL, datapath: str | None) -> None:
        self._lib, self._lept = library, leptonica
        self._datapath = datapath.encode() if datapath else None
        self._engines: dict[str, int] = {}  # languages -> TessBaseAPI*, last used last
        _declare(library, leptonica)

    def tsv(self, image: np.ndarray, dpi: int, languages: str, psm: str, seconds: float) -> str:
        """Tesseract's TSV of the grey `image` (rows of bytes, at `dpi`), header first, as
        `tesseract stdin stdout --dpi DPI -l LANGUAGES --psm PSM tsv` writes it. Raises
        OutOfTime when recognition passes `seconds`, Failed when it cannot read."""
        handle = self._engine(languages)
        self._prepare(handle, int(psm), dpi)
        self._set_grey(handle, image)
        return self._recognised(handle, seconds)

    def picture_tsv(self, data: bytes, languages: str, seconds: float) -> str:
        """The TSV of a picture file's bytes (not TIFF: the program reads each of its pages)
        as `tesseract stdin stdout -l LANGUAGES tsv` writes it: decoded by Leptonica, at the
        resolution the file gives. Header alone for bytes Leptonica cannot decode."""
        pix = self._lept.pixReadMem(data, len(data))
        if not pix:
            return _TSV_HEADER
        try:
            handle = self._engine(languages)
            self._prepare(handle, _PSM_AUTO, 0)
            self._lib.TessBaseAPISetImage2(handle, pix)
            return self._recognised(handle, seconds)
        finally:
            self._lept.pixDestroy(ctypes.byref(ctypes.c_void_p(pix)))

    def picture_pixels(self, data: bytes) -> int | None:
        """Width times height of a picture file's bytes, from its header; None if unknown."""
        found = [ctypes.c_int() for _ in range(6)]
        if self._lept.pixReadHeaderMem(data, len(data), *map(ctypes.byref, found)) != 0:
            return None
        return found[1].value * found[2].value

    def _recognised(self, handle: int, seconds: float) -> str:
        """The TSV of the page set in `handle`, its recognition stopped after `seconds`."""
        lib = self._lib
        monitor = lib.TessMonitorCreate()
        try:
            lib.TessMonitorSetDeadlineMSecs(monitor, max(1, int(seconds * 1000)))
            end = time.monotonic() + seconds
            failed = lib.TessBaseAPIRecognize(handle, monitor) != 0
            if failed and time.monotonic() >= end:
                raise OutOfTime
            if failed:
                raise Failed("Tesseract failed to recognise the page")
            text = lib.TessBaseAPIGetTsvText(handle, 0)
            try:
                body = ctypes.string_at(text).decode("utf-8", "replace") if text else ""
            finally:
                lib.TessDeleteText(text)
        finally:
            lib.TessMonitorDelete(monitor)
            lib.TessBaseAPIClear(handle)
        return _TSV_HEADER + body

    def rotation(self, image: np.ndarray, dpi: int) -> int | None:
        """The clockwise turn (0, 90, 180, 270) that makes the page upright, as
        `tesseract stdin stdout --dpi DPI --psm 0` prints it; None when it cannot tell."""
        lib = self._lib
        try:
            handle = self._engine("osd")  # the program's `--psm 0` loads this model too
        except Failed:  # no orientation data: the program cannot tell either
            return None
        self._prepare(handle, _PSM_OSD_ONLY, dpi)
        self._set_grey(handle, image)
        degrees, confidence = ctypes.c_int(), ctypes.c_float()
        script, script_confidence = ctypes.c_char_p(), ctypes.c_float()
        try:
            found = lib.TessBaseAPIDetectOrientationScript(
                handle,
                ctypes.byref(degrees),
                ctypes.byref(confidence),
                ctypes.byref(script),
                ctypes.byref(script_confidence),
            )
        finally:
            lib.TessBaseAPIClear(handle)
        return _ROTATE.get(degrees.value) if found else None

    def _prepare(self, handle: int, psm: int, dpi: int) -> None:
        """Settings of the next page (`dpi` 0: the image's own, as without `--dpi`)."""
        lib = self._lib
        lib.TessBaseAPIClearAdaptiveClassifier(handle)  # each page read afresh, as a run
        lib.TessBaseAPISetPageSegMode(handle, psm)
        lib.TessBaseAPISetVariable(handle, b"user_defined_dpi", str(dpi).encode())

    def _set_grey(self, handle: int, image: np.ndarray) -> None:
        pixels = np.ascontiguousarray(image, dtype=np.uint8)  # Tesseract copies it
        height, width = pixels.shape
        self._lib.TessBaseAPISetImage(handle, pixels.ctypes.data, width, height, 1, width)

    def _engine(self, languages: str) -> int:
        """The loaded engine of `languages` (loaded now if not yet; the least recently used
        one ended when more than `_KEPT` are loaded)."""
        handle = self._engines.pop(languages, None)
        if handle is None:
            handle = self._load(languages)
            while len(self._engines) >= _KEPT:
                oldest = next(iter(self._engines))
                self._end(self._engines.pop(oldest))
        self._engines[languages] = handle
        return handle

    def _load(self, languages: str) -> int:
        lib = self._lib
        handle = lib.TessBaseAPICreate()
        if not handle:
            raise Failed("Tesseract could not start")
        if lib.TessBaseAPIInit3(handle, self._datapath, languages.encode()) != 0:
            lib.TessBaseAPIDelete(handle)
            raise Failed(f"Tesseract could not load the languages {languages}")
        lib.TessBaseAPISetVariable(handle, b"tessedit_create_tsv", b"1")  # as the `tsv` config
        # its notes ("Detected 759 diacritics") would fill the reader's log
        lib.TessBaseAPISetVariable(handle, b"debug_file", os.devnull.encode())
        return handle

    def end(self) -> None:
        """End every engine (before the process exits: Tesseract warns of leaks otherwise)."""
        while self._engines:
            self._end(self._engines.popitem()[1])

    def _end(self, handle: int) -> None:
        self._lib.TessBaseAPIEnd(handle)
        self._lib.TessBaseAPIDelete(handle)


_TSV_HEADER = (
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\t"
    "left\ttop\twidth\theight\tconf\ttext\n"
)


def _declare(lib: ctypes.CDLL, lept: ctypes.CDLL) -> None:
    """The C functions' argument and result types (pointers are not ints to ctypes)."""
    p, i, c = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
    signatures = {
        "TessBaseAPICreate": ([], p),
        "TessBaseAPIInit3": ([p, c, c], i),
        "TessBaseAPISetVariable": ([p, c, c], i),
        "TessBaseAPISetPageSegMode": ([p, i], None),
        "TessBaseAPISetImage": ([p, p, i, i, i, i], None),
        "TessBaseAPISetImage2": ([p, p], None),
        "TessBaseAPIRecognize": ([p, p], i),
        "TessBaseAPIGetTsvText": ([p, i], p),
        "TessBaseAPIDetectOrientationScript": ([p, p, p, p, p], i),
        "TessBaseAPIClearAdaptiveClassifier": ([p], None),
        "TessBaseAPIClear": ([p], None),
        "TessBaseAPIEnd": ([p], None),
        "TessBaseAPIDelete": ([p], None),
        "TessDeleteText": ([p], None),
        "TessMonitorCreate": ([], p),
        "TessMonitorSetDeadlineMSecs": ([p, i], None),
        "TessMonitorDelete": ([p], None),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = arguments, result
    leptonica = {
        "pixReadMem": ([c, ctypes.c_size_t], p),
        "pixReadHeaderMem": ([c, ctypes.c_size_t, p, p, p, p, p, p], i),
        "pixDestroy": ([p], None),
    }
    for name, (arguments, result) in leptonica.items():
        function = getattr(lept, name)
        function.argtypes, function.restype = arguments, result


def fits(pixels: int) -> bool:
    """Whether reading an image of `pixels` in this process stays well inside its memory
    limit (none: it fits)."""
    left = workers.address_space_left()
    return left is None or pixels * _BYTES_PER_PIXEL < left


_api: TesseractApi | None = None
_looked = False


def api() -> TesseractApi | None:
    """This process's `TesseractApi`, or None where it may not be used (outside a reader)
    or cannot be loaded (no libtesseract, or not Linux): the program is run then."""
    global _api, _looked
    if not (_allowed or workers.in_reader()):
        return None
    if not _looked:
        _looked = True
        _api = _load_api()
    return _api


def _load_api() -> TesseractApi | None:
    if not sys.platform.startswith("linux"):
        return None  # the bundles for other systems carry the program alone
    # Tesseract's OpenMP threads: one, as for the program (readers already use every core);
    # read when libgomp loads, so set first.
    os.environ["OMP_THREAD_LIMIT"] = "1"
    library, leptonica, datapath = "libtesseract.so.5", "liblept.so.5", None
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:  # the bundle's own, as its program's
        tessdata = Path(bundle, "tesseract", "tessdata")
        if not (Path(bundle, library).is_file() and tessdata.is_dir()):
            return None
        library, leptonica = str(Path(bundle, library)), str(Path(bundle, leptonica))
        datapath = str(tessdata)
    try:
        loaded = TesseractApi(ctypes.CDLL(library), ctypes.CDLL(leptonica), datapath)
    except (OSError, AttributeError):  # missing, or an older library without these functions
        return None
    atexit.register(loaded.end)
    return loaded
