"""Look-alike letters and invisible characters: the disguises of a copied text.

A copier swaps Latin letters for Cyrillic or Greek ones that look the same ("Еssay" with a
Cyrillic "Е"), or puts zero-width characters between letters: the text reads the same
and its words no longer match. Both are undone before comparison (`fold_lookalikes`,
called by `normalize.normalize_text`) and counted for the integrity flags.

Look-alikes are Unicode's confusables (UTS #39), kept in resources/confusables/: the
letters of other scripts whose skeleton is one ASCII letter. They are folded only where
they disguise a Latin word, never in a real Russian, Greek or Armenian text:

- a *mixed* word (Latin letters and look-alikes, no other letter: "Еssay", "tоо") is folded;
- a word *wholly* of look-alikes ("а", "оr" with both letters Cyrillic; not a lone Greek
  letter, a symbol in maths) is folded only
  among Latin words: a mixed word within `CONTEXT_CHARS` of it, a Latin or mixed word
  next to it, and no other-script word next to it. So a Cyrillic "а" in a disguised
  English sentence is folded, a Russian "а" or a Russian word quoted once in an English
  text is not.

Decisions are local (a word and its neighbourhood), so a long text can be folded piece
by piece; only a wholly look-alike word within `CONTEXT_CHARS` of a piece's edge may be
judged without part of its neighbourhood.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

from simsift.core.paths import resource_path

# How far (characters) a wholly look-alike word looks for the mixed words that show the
# text is disguised: about a sentence either side.
CONTEXT_CHARS = 200

# Invisible format characters: zero-width space, joiners, word joiner and the other
# invisible operators, byte-order mark, soft hyphen, bidi marks/embeddings/isolates,
# combining grapheme joiner, Hangul fillers, Mongolian and other variation selectors,
# tags. They show nothing (or change only direction or a glyph's variant) but split
# words. Removed before comparison; counted by the integrity flags.
_INVISIBLE_BMP = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
)
_INVISIBLE_ASTRAL = "\U000e0000-\U000e0fff"
INVISIBLE = re.compile(f"[{_INVISIBLE_BMP}{_INVISIBLE_ASTRAL}]")

_LATIN = (
    "A-Za-z\u00aa\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02af\u1d00-\u1dbf\u1e00-\u1eff"
    "\u2c60-\u2c7f\ua720-\ua7ff\uab30-\uab6f"
)
# Characters NFKC turns into a look-alike (mathematical Greek, a few Greek symbols):
# the quick check before NFKC must see them too.
_BECOMES_LOOKALIKE_BMP = "\u03d2\u03f1\u1d5e\u1d67\u1d68\u1fbe\u213d"
_BECOMES_LOOKALIKE_ASTRAL = "\U0001d6a8-\U0001d7cb"
_LETTER = r"[^\W\d_]"


@lru_cache(maxsize=1)
def lookalike_table() -> dict[str, str]:
    """Look-alike letter -> the ASCII letter it imitates, from resources/confusables/.

    The file keeps Unicode's lines unchanged. A capital whose skeleton is "l" (Greek
    Iota, Cyrillic "І", palochka) imitates a capital "I": UTS #39 folds "I" and "l"
    together, a text is folded to what its reader sees.
    """
    table = {}
    path = resource_path("confusables", "latin_lookalikes.txt")
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        source, target = (chr(int(field, 16)) for field in line.split(";")[:2])
        if target == "l" and unicodedata.category(source) == "Lu":
            target = "I"
        table[source] = target
    return table


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    look = "".join(lookalike_table())
    other = rf"[^\W\d_{_LATIN}{look}]"  # a letter neither Latin nor a look-alike
    pure = rf"(?<!{_LETTER})[{look}]+(?!{_LETTER})"
    mixed = (
        rf"(?<!{_LETTER})(?:[{_LATIN}]+[{look}]|[{look}]+[{_LATIN}])[{_LATIN}{look}]*"
        rf"(?!{_LETTER})"
    )
    return {
        # all look-alikes are in the BMP: a BMP-only class is three times faster to search
        "suspect": re.compile(f"[{_INVISIBLE_BMP}{look}{_BECOMES_LOOKALIKE_BMP}]"),
        "suspect_astral": re.compile(f"[{_INVISIBLE_ASTRAL}{_BECOMES_LOOKALIKE_ASTRAL}]"),
        # a Latin letter next to a look-alike: every mixed word has one, Russian text none
        "seam": re.compile(f"[{_LATIN}][{look}]|[{look}][{_LATIN}]"),
        "mixed": re.compile(mixed),
        "pure": re.compile(pure),
        "latin_letter": re.compile(f"[{_LATIN}]"),
        "word": re.compile(rf"{_LETTER}+"),
        "other": re.compile(other),
    }


def may_be_disguised(text: str) -> bool:
    """False when `text` (not yet NFKC-normalized) has no invisible character and no
    look-alike: then `fold_lookalikes` has nothing to do.

    Runs over every text, so it avoids a regular expression of them (10-15 ns a character,
    as much as NFKC and case folding together): ASCII text is let through at once;
    look-alikes (and the invisible characters outside U+00xx and U+20xx) live in a few
    256-character blocks, which Chinese and accented Latin text never have (`_first_look`
    searches a table of them, in less time than a short text's UTF-16 takes to encode);
    the invisible characters left are the soft hyphen and the format characters of U+20xx,
    which are not printable. Only a text that fails a test is searched exactly.
    """
    if text.isascii():
        return False
    if _first_look().search(text) is not None:
        # which blocks: the high bytes of the text's UTF-16 code units
        high_bytes = text.encode("utf-16-le", "surrogatepass")[1::2]
        if high_bytes.translate(None, _quiet_high_bytes()):
            return _has_suspect(text)
        if "\uffa0" in text:
            return True
        if b"\x20" not in high_bytes:  # no U+20xx character: the soft hyphen is all there is
            return "\xad" in text
    if _printable_but_whitespace(text):
        return False
    return _has_suspect(text)


def _printable_but_whitespace(text: str) -> bool:
    """Whether `text` is printable once its whitespace is taken out; lines joined by line
    breaks (`normalize.normalize_texts`) are told without splitting them into words."""
    return (
        text.isprintable()
        or text.replace("\n", "").isprintable()
        or "".join(text.split()).isprintable()
    )


def _has_suspect(text: str) -> bool:
    """Whether `text` has an invisible character or a look-alike (or what NFKC makes one)."""
    p = _patterns()
    return p["suspect"].search(text) is not None or p["suspect_astral"].search(text) is not None


def _first_look() -> re.Pattern[str]:
    """The characters of the blocks that are not quiet (`_quiet_high_bytes`, characters
    beyond the BMP too), the half-width filler and the soft hyphen. A text without them
    holds no look-alike and no invisible character but the format characters of U+20xx."""
    global _FIRST_LOOK
    if _FIRST_LOOK is None:
        quiet = set(_quiet_high_bytes())
        blocks = "".join(
            f"\\u{high:02x}00-\\u{high:02x}ff" for high in range(256) if high not in quiet
        )
        _FIRST_LOOK = re.compile(f"[{blocks}\\U00010000-\\U0010ffff\\uffa0\\xad]")
    return _FIRST_LOOK


_FIRST_LOOK: re.Pattern[str] | None = None


def _quiet_high_bytes() -> bytes:
    """High bytes of the UTF-16 code units of no look-alike (or of what NFKC makes one)
    and of no invisible character but those of U+00xx and U+20xx; surrogates (characters
    beyond the BMP) are not quiet. Half-width U+FFA0 is looked for on its own (U+FFxx is
    full-width punctuation)."""
    global _QUIET_HIGH_BYTES
    if _QUIET_HIGH_BYTES is None:
        loud = {ord(c) >> 8 for c in lookalike_table()}
        loud |= {ord(c) >> 8 for c in _BECOMES_LOOKALIKE_BMP}
        loud |= {ord(c) >> 8 for c in "\u034f\u061c\u115f\u1160\u17b4\u180b\u3164\ufe00"}
        loud |= set(range(0xD8, 0xDC))
        _QUIET_HIGH_BYTES = bytes(b for b in range(256) if b not in loud)
    return _QUIET_HIGH_BYTES


_QUIET_HIGH_BYTES: bytes | None = None


# Hangul fillers show as a blank as wide as a letter: a space look-alike, not a joiner
BLANK_LETTERS = "\u3164\uffa0"


def remove_invisible(text: str) -> str:
    """`text` without its invisible format characters (a Hangul filler becomes a space)."""
    return INVISIBLE.sub(_invisible_replacement, text)


def _invisible_replacement(match: re.Match[str]) -> str:
    return " " if match.group() in BLANK_LETTERS else ""


def disguised_words(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of the words of `text` (NFKC-normalized, not case-folded) whose
    look-alike letters disguise a Latin word, in order. See the module's rules."""
    p = _patterns()
    if p["seam"].search(text) is None:
        return
    mixed = [m.span() for m in p["mixed"].finditer(text)]
    if not mixed:
        return
    pure = [m.span() for m in p["pure"].finditer(text) if not _greek_symbol(m.group())]
    yield from sorted(mixed + [s for s in pure if _among_latin_words(text, *s)])


def _greek_symbol(word: str) -> bool:
    """A Greek letter standing alone among Latin words is a symbol ("let α be"), kept."""
    return len(word) == 1 and "\u0370" <= word <= "\u03ff"


def _among_latin_words(text: str, start: int, end: int) -> bool:
    """Whether the wholly look-alike word text[start:end] sits among disguised Latin words."""
    p = _patterns()
    lo, hi = max(0, start - CONTEXT_CHARS), min(len(text), end + CONTEXT_CHARS)
    if p["mixed"].search(text, lo, hi) is None:
        return False
    before = [w.group() for w in p["word"].finditer(text, lo, start)]
    after = [w.group() for w in p["word"].finditer(text, end, hi)]
    sides = [
        next((kind for kind in map(_kind, reversed(before)) if kind != "pure"), ""),
        next((kind for kind in map(_kind, after) if kind != "pure"), ""),
    ]
    return "latin" in sides and "other" not in sides


def _kind(word: str) -> str:
    """ "latin" (Latin letters, maybe look-alikes), "pure" (only look-alikes), "other"
    (a letter of another script), "" (no word)."""
    if not word:
        return ""
    p = _patterns()
    if p["other"].search(word):
        return "other"
    return "latin" if p["latin_letter"].search(word) else "pure"


@lru_cache(maxsize=1)
def _translation() -> dict[int, str]:
    return str.maketrans(lookalike_table())


def fold_lookalikes(text: str) -> str:
    """`text` (NFKC-normalized) with the look-alikes of its disguised words made Latin."""
    spans = list(disguised_words(text))
    if not spans:
        return text
    table = _translation()
    parts, last = [], 0
    for start, end in spans:
        parts += [text[last:start], text[start:end].translate(table)]
        last = end
    parts.append(text[last:])
    return "".join(parts)
