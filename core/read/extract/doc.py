"""Word 97–2003 .doc files, read through a converter found on the machine.

No Python library reads the binary .doc format well, while antiword, catdoc and
LibreOffice do; none is required. Without one, the file is reported with advice.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from simsift.core.document import ExtractedText, ExtractionError
from simsift.core.read.extract.encoding import decode_bytes
from simsift.core.read.extract.text import text_result

NO_CONVERTER = (
    "Word 97–2003 .doc file: save it as .docx (or install antiword or LibreOffice to read it)"
)
# Below the scan's per-file limit (60 s), so the converter's own error is what users see.
CONVERTER_SECONDS = 45


def extract_doc(path: Path) -> ExtractedText:
    """Text of a .doc by the first converter on PATH: antiword, catdoc, then LibreOffice."""
    for name, convert in (("antiword", _antiword), ("catdoc", _catdoc), ("soffice", _soffice)):
        program = shutil.which(name)
        if program is not None:
            return text_result(decode_bytes(convert(program, path)), "doc")
    raise ExtractionError(NO_CONVERTER)


def _antiword(program: str, path: Path) -> bytes:
    # -w 0: one line per paragraph instead of wrapping at 80 columns
    return _run([program, "-m", "UTF-8.txt", "-w", "0", str(path)], "antiword")


def _catdoc(program: str, path: Path) -> bytes:
    return _run([program, "-d", "utf-8", "-w", str(path)], "catdoc")


def _soffice(program: str, path: Path) -> bytes:
    with tempfile.TemporaryDirectory(prefix="simsift-doc-") as out:
        # its own profile: a LibreOffice the user has open would otherwise take the job
        profile = Path(out, "profile").as_uri()
        command = [program, f"-env:UserInstallation={profile}", "--headless"]
        command += ["--convert-to", "txt:Text (encoded):UTF8", "--outdir", out, str(path)]
        _run(command, "LibreOffice")
        converted = Path(out, path.stem + ".txt")
        if not converted.exists():
            raise ExtractionError("LibreOffice could not convert this .doc file; save it as .docx")
        return converted.read_bytes()


def _run(command: list[str], name: str) -> bytes:
    """The converter's output; its failure or a time-out as a clear per-file error."""
    with subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # so a time-out can stop its children too
    ) as process:
        try:
            out, err = process.communicate(timeout=CONVERTER_SECONDS)
        except subprocess.TimeoutExpired:
            _stop(process)
            process.communicate()
            raise ExtractionError(f"{name} took too long to read this .doc file") from None
    if process.returncode != 0:
        reason = err.decode("utf-8", "replace").strip().splitlines()
        detail = f": {reason[-1][:200]}" if reason else ""
        raise ExtractionError(f"{name} could not read this .doc file{detail}; save it as .docx")
    return out


def _stop(process: subprocess.Popen) -> None:
    """Kill the converter and whatever it started (LibreOffice forks)."""
    if hasattr(os, "killpg"):
        os.killpg(process.pid, signal.SIGKILL)
    else:
        process.kill()
