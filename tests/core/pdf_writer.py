"""PDFs written object by object, for tests that need a structure no writer library makes
(raw content streams, forms nested without end, thousands of pages)."""

from __future__ import annotations

from collections.abc import Sequence


def pdf_bytes(objects: Sequence[bytes]) -> bytes:
    """A PDF of `objects` (numbered from 1; object 1 the catalog) and its cross-reference
    table."""
    data = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(data))
        data += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(data)
    data += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    data += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    data += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(data)


def stream(data: bytes, entries: bytes = b"") -> bytes:
    """A stream object's body: its dictionary (`entries` and the length) and `data`."""
    return b"<< /Length %d %s >>\nstream\n" % (len(data), entries) + data + b"\nendstream"
