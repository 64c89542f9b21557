"""Render resources/icons/simsift.svg to the PNG, .ico and .icns files the bundles need.

Run after changing the SVG (outputs are committed; builds do not run this):
    QT_QPA_PLATFORM=offscreen python packaging/make_icons.py
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# icns element types that take PNG data, by pixel size (the @2x types reuse the same pixels).
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"ic11", 32),
    (b"icp6", 64),
    (b"ic12", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic13", 256),
    (b"ic09", 512),
    (b"ic14", 512),
)


def render(renderer: QSvgRenderer, size: int) -> bytes:
    """The SVG drawn at size×size, as PNG bytes."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data)


def ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding PNG images (Vista and later read PNG entries)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, png in pngs.items():
        dim = 0 if size >= 256 else size  # 0 means 256 in the directory entry
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), offset)
        offset += len(png)
        blobs += png
    return header + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns holding PNG images."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841  (QImage text and SVG need an app)
    renderer = QSvgRenderer(str(ICONS / "simsift.svg"))
    if not renderer.isValid():
        print("simsift.svg could not be read", file=sys.stderr)
        return 1
    pngs = {size: render(renderer, size) for size in PNG_SIZES}
    for size, png in pngs.items():
        (ICONS / f"simsift-{size}.png").write_bytes(png)
    (ICONS / "simsift.ico").write_bytes(ico({s: pngs[s] for s in ICO_SIZES}))
    (ICONS / "simsift.icns").write_bytes(icns(pngs))
    print(f"wrote {len(pngs)} PNGs, simsift.ico and simsift.icns to {ICONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
