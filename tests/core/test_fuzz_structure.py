"""Hostile documents that keep their container: Word and OpenDocument packages whose XML is
broken, nested without end, padded or entity-laden, and PDFs whose objects, streams and
cross-reference table are damaged. Byte-level fuzzing (`test_fuzz.py`) mostly breaks a
package's checksums, so the XML readers never see these.

Property: the scan finishes, and every file is read or carries a per-file message. PDFs go
through the reader sandbox (workers=1), as a crash inside PDFium must stay in its process.
Bounded for CI (SIMSIFT_FUZZ_EXAMPLES=N for more).
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan

DATA = Path(__file__).resolve().parents[1] / "data" / "extract"
PACKAGES = {  # sample -> its main XML part
    "article_en.docx": "word/document.xml",
    "article_zh.docx": "word/document.xml",
    "hidden_text.docx": "word/document.xml",
    "article_en.odt": "content.xml",
    "hidden_text.odt": "content.xml",
}
PDFS = ["article_en.pdf", "article_zh.pdf", "hidden_text.pdf"]
EXAMPLES = int(os.environ.get("SIMSIFT_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("SIMSIFT_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">'
    b'<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">'
    b'<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">]>'
)
_TAG = re.compile(rb"<(?:w:p|w:r|w:t|text:p|text:span)\b[^>]*>")


@st.composite
def broken_xml(draw, xml: bytes) -> bytes:
    """`xml` damaged one way a hostile or buggy writer would."""
    how = draw(st.sampled_from(["cut", "nest", "pad", "entities", "bad bytes", "repeat"]))
    tags = [m.start() for m in _TAG.finditer(xml)] or [len(xml) // 2]
    at = draw(st.sampled_from(tags))
    if how == "cut":
        return xml[: draw(st.integers(0, len(xml)))]
    if how == "nest":  # tags opened and never closed, thousands deep
        tag = _TAG.search(xml, at)
        opener = tag.group() if tag else b"<w:p>"
        return xml[:at] + opener * draw(st.integers(100, 20_000)) + xml[at:]
    if how == "pad":  # one enormous run of text
        return xml.replace(b"</w:t>", b"x" * 2_000_000 + b"</w:t>", 1).replace(
            b"</text:p>", b"y " * 500_000 + b"</text:p>", 1
        )
    if how == "entities":
        body = xml.split(b"?>", 1)[-1]
        return LAUGHS + body.replace(b"</w:t>", b"&lol5;</w:t>", 1)
    if how == "bad bytes":
        return xml[:at] + draw(st.binary(min_size=1, max_size=64)) + xml[at:]
    piece = xml[at : at + draw(st.integers(1, 4000))]
    return xml[:at] + piece * draw(st.integers(2, 300)) + xml[at:]


@st.composite
def hostile_package(draw) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(PACKAGES)))
    part = PACKAGES[name]
    out = io.BytesIO()
    with zipfile.ZipFile(DATA / name) as source, zipfile.ZipFile(out, "w") as target:
        drop = draw(st.sampled_from([None, "[Content_Types].xml", "word/styles.xml", part]))
        for info in source.infolist():
            if info.filename == drop:
                continue
            data = source.read(info)
            if info.filename == part:
                data = draw(broken_xml(data))
            target.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    return Path(name).suffix, out.getvalue()


@st.composite
def hostile_pdf(draw) -> bytes:
    data = (DATA / draw(st.sampled_from(PDFS))).read_bytes()
    how = draw(st.sampled_from(["xref", "streams", "objects", "cut", "nest"]))
    if how == "xref":  # offsets that point anywhere
        return re.sub(
            rb"\d{10} 00000 n", lambda _: b"%010d 00000 n" % draw(st.integers(0, 10**9)), data
        )
    if how == "streams":  # bytes flipped inside the (compressed) content streams
        data = bytearray(data)
        starts = [m.end() for m in re.finditer(rb"stream\r?\n", bytes(data))] or [len(data) // 2]
        for _ in range(draw(st.integers(1, 40))):
            at = draw(st.sampled_from(starts)) + draw(st.integers(0, 200))
            if at < len(data):
                data[at] = draw(st.integers(0, 255))
        return bytes(data)
    if how == "objects":  # an object repeated many times, as a broken writer appends them
        match = re.search(rb"\d+ 0 obj.*?endobj", data, re.S)
        piece = match.group() if match else b""
        return data + piece * draw(st.integers(2, 2000))
    if how == "cut":
        return data[: draw(st.integers(0, len(data)))]
    # arrays nested far deeper than any real file
    depth = draw(st.integers(1000, 100_000))
    return data.replace(b"/MediaBox", b"/Junk " + b"[" * depth + b"]" * depth + b" /MediaBox", 1)


def scanned_to_the_end(folder: Path, workers: int) -> None:
    result = scan(ScanOptions(roots=(str(folder),), workers=workers, k_max=8))
    found = {str(p) for p in folder.iterdir()}
    read = {d.path for d in result.documents}
    accounted = read | {r.path for r in (*result.garbled, *result.errors, *result.skipped)}
    assert accounted == found
    assert all(r.message for r in (*result.errors, *result.skipped))


@FUZZ
@given(st.lists(hostile_package(), min_size=1, max_size=3))
def test_a_package_with_hostile_xml_is_read_or_named(tmp_path_factory, files):
    folder = tmp_path_factory.mktemp("packages")
    for i, (suffix, data) in enumerate(files):
        (folder / f"p{i}{suffix}").write_bytes(data)
    scanned_to_the_end(folder, workers=0)


@FUZZ
@given(st.lists(hostile_pdf(), min_size=1, max_size=3))
def test_a_damaged_pdf_is_read_or_named(tmp_path_factory, files):
    folder = tmp_path_factory.mktemp("pdfs")
    for i, data in enumerate(files):
        (folder / f"d{i}.pdf").write_bytes(data)
    scanned_to_the_end(folder, workers=1)
