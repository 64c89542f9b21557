"""Shared tests of the readers for text a file holds but does not show: colours too close
to what is behind them, type too small to see. Readers leave such text out of the
paragraphs and hand it on as `ExtractedText.hidden`."""

from __future__ import annotations

import math
import re
from functools import lru_cache

RGB = tuple[float, float, float]

WHITE: RGB = (1.0, 1.0, 1.0)
# Text whose contrast with what is behind it is below this, and whose colour is near that
# of the background in every channel, is unreadable: white on white, #F5F5F5 on white
# (contrast 1.09). Light grey #E0E0E0 on white (1.32) shows; so does yellow on white
# (1.07, but its blue channel differs by all of it).
MIN_CONTRAST = 1.25
MAX_CHANNEL_DIFFERENCE = 0.25
# Type this small (in points) is a line, not letters: Word's smallest, 1 pt.
MAX_HIDDEN_POINTS = 1.0

# Reading a file whose every text is hidden fails with this message, not "no text".
ALL_HIDDEN = "all of the file's text is hidden (hidden, white, tiny or invisible text)"

# The page PDFium and poppler draw when a page's media box is missing or of no area: US Letter
LETTER = (0.0, 0.0, 612.0, 792.0)

_HEX = re.compile(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})")
_LENGTH = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+))\s*(pt|px|pc|mm|cm|in|em|rem|%)?", re.ASCII)
_POINTS_PER_UNIT = {"pt": 1.0, "px": 0.75, "pc": 12.0, "mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72.0}
_RGB_FUNCTION = re.compile(r"rgba?\(\s*([^)]*)\)", re.IGNORECASE)

# CSS names of colours light enough to matter here and dark ones pages use as backgrounds;
# other names are taken as dark (never as white).
CSS_NAMES: dict[str, RGB] = {
    "white": WHITE,
    "snow": (1.0, 0.98, 0.98),
    "ivory": (1.0, 1.0, 0.94),
    "ghostwhite": (0.97, 0.97, 1.0),
    "whitesmoke": (0.96, 0.96, 0.96),
    "floralwhite": (1.0, 0.98, 0.94),
    "azure": (0.94, 1.0, 1.0),
    "mintcream": (0.96, 1.0, 0.98),
    "seashell": (1.0, 0.96, 0.93),
    "honeydew": (0.94, 1.0, 0.94),
    "aliceblue": (0.94, 0.97, 1.0),
    "black": (0.0, 0.0, 0.0),
}


@lru_cache(maxsize=256)
def hex_colour(value: str | None) -> RGB | None:
    """RGB of "FFFFFF", "#fff" or "#ffffff"; None for "auto", names and anything else."""
    match = _HEX.fullmatch((value or "").strip())
    if not match:
        return None
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    return tuple(int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def css_colour(value: str | None) -> RGB | None:
    """RGB of a CSS colour (#hex, rgb()/rgba() unless see-through, a few names), else None."""
    value = (value or "").strip().lower()
    if not value:
        return None
    if value in CSS_NAMES:
        return CSS_NAMES[value]
    if value.startswith("#"):
        return hex_colour(value)
    match = _RGB_FUNCTION.fullmatch(value)
    if not match:
        return None
    parts = [p for p in re.split(r"[\s,/]+", match.group(1)) if p]
    if len(parts) < 3:
        return None
    try:
        channels = [float(p[:-1]) / 100 if p.endswith("%") else float(p) / 255 for p in parts[:3]]
        alpha = 1.0
        if len(parts) > 3:
            alpha = float(parts[3][:-1]) / 100 if parts[3].endswith("%") else float(parts[3])
    except ValueError:
        return None
    if alpha < 0.5:  # mostly see-through: what shows is what lies behind
        return None
    return tuple(min(1.0, max(0.0, c)) for c in channels)  # type: ignore[return-value]


def luminance(colour: RGB) -> float:
    """Relative luminance (WCAG 2)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colours, 1 (same) to 21 (black on white)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def unreadable(text: RGB, background: RGB = WHITE) -> bool:
    """Whether text of colour `text` cannot be seen on `background`."""
    if max(abs(a - b) for a, b in zip(text, background, strict=True)) > MAX_CHANNEL_DIFFERENCE:
        return False
    return contrast(text, background) < MIN_CONTRAST


def length_points(value: str | None, inherited: float = 12.0) -> float | None:
    """A CSS/ODF length in points ("1pt", "0", "0.5px", "2%", "0.05em"), None if not one.
    Percentages and em are relative to the `inherited` size (points)."""
    match = _LENGTH.fullmatch((value or "").strip().lower())
    if not match:
        return None
    number, unit = float(match.group(1)), match.group(2)
    if unit is None:
        return number if number == 0 else None  # only 0 may go without a unit
    if unit == "%":
        return inherited * number / 100
    if unit in ("em", "rem"):
        return inherited * number
    return number * _POINTS_PER_UNIT[unit]


def drawn_box(values: object) -> tuple[float, float, float, float] | None:
    """A page box (MediaBox, CropBox) as PDFium and poppler draw with it: four numbers,
    corners in either order (`[612 792 0 0]` is Letter); None for anything else (a short
    array, a string, NaN, infinity) or a box of no area, which the renderers replace.
    Text is hidden only where it is not drawn: off the box they draw, not off one written."""
    if not isinstance(values, (list, tuple)) or len(values) != 4:
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return None
    x0, y0, x1, y1 = map(float, values)
    box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    if not all(math.isfinite(v) for v in box) or box[0] == box[2] or box[1] == box[3]:
        return None
    return box
