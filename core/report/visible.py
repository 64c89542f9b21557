"""Names shown as they are spelled, not as bidirectional controls make them look.

A right-to-left override (U+202E) in a file name reverses what follows it: "rtl\u202egnp.txt"
displays as "rtltxt.png", a text file passing for a picture. Zero-width characters make two
names look the same. Wherever a name is shown to a person (the app, the HTML reports) such
characters are written as a visible marker, "⟨U+202E⟩"; data exports keep the name as is.
"""

from __future__ import annotations

import re

# bidi embeddings and overrides, isolates, directional marks, the Arabic letter mark,
# zero-width space/joiners, word joiner and invisible operators, byte order mark
_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def visible_controls(text: str) -> str:
    """`text` with each invisible or direction-changing character written as ⟨U+XXXX⟩.

    >>> visible_controls("rtl\u202egnp.txt")
    'rtl⟨U+202E⟩gnp.txt'
    >>> visible_controls("plain name.txt")
    'plain name.txt'
    """
    return _INVISIBLE.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", text)
