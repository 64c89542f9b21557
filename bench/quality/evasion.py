"""Disguised whole copies: does SimSift still find them, and does it flag the disguise?

    python -m bench.quality.evasion --size small --label after
    python -m bench.quality.evasion --size small --label before --engine-commit 00e1256

A corpus of real documentation text (the sources of the quality bench) in which each
original has one *disguised* whole copy, by variant:

- look-alike letters (English): every "o" made Cyrillic; 10%, 30%, 100% of the letters
  that have a Cyrillic or Greek look-alike (а е о р с х у і, α ο ν, capitals) swapped;
- invisible characters: zero-width space / non-joiner / joiner, word joiner, BOM between
  10%, 30%, 100% of the adjacent letters (Chinese: adjacent characters);
- hidden padding: unrelated text (of a document not in the corpus), about as long as the
  copy, inserted after every copied sentence as white, hidden (w:vanish) or 1-pt runs of
  a DOCX (python-docx), as invisible (render mode 3) or white text of a PDF (written here,
  English only: the PDF uses the standard Helvetica font), as display:none or white spans
  of an HTML page;
- spaced letters: one or two sentences written "e s s a y   i s" (words three spaces
  apart) or "e s s a y i s" (one space everywhere); Chinese "抄 袭";
- control: the same text, undisguised, in another format.

Clean documents (the originals, standalone documents, Russian, Greek, Persian and Hindi
texts from the message catalogs, English texts quoting a Russian paragraph or under a
letter-spaced heading) measure false flags; the quality bench's own corpus (`run.py`,
generated when missing) is scanned for them too.

Scored: a pair (original, copy) is found *whole* when its distance is within the default
k, *as a partial copy* when only the partial-copy pairs hold it; a copy is *flagged* when
its `FileRecord.flags` is not empty, and flagged *right* when a flag names its disguise.
Results: docs/quality/evasion-<size>.json (every run, by --label) and .md.
`--engine-commit C` scans with the engine of commit C (`bench.engine_at`: nothing in the
work tree changes), for figures before a change.
"""

from __future__ import annotations

import argparse
import datetime
import gettext
import html
import json
import random
import re
import shutil
import sys
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.engine_at import use_engine_at
from bench.quality.render import FIXED_DATE, Text, write_docx, write_html, write_txt
from bench.quality.sources import BaseDoc, base_documents

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

SIZES = {"small": 1, "large": 2}  # the English text runs out above 2
PER_VARIANT = 12  # disguised copies per variant and scale step
# per scale step: standalone documents, Russian / Greek / Persian (ZWNJ inside words) /
# Hindi texts, English texts quoting a Russian paragraph, English texts under a
# letter-spaced heading ("S U M M A R Y", as slide decks have)
CLEAN = {"standalone": 24, "ru": 8, "el": 8, "fa": 6, "hi": 6, "en_ru": 8, "spaced_heading": 6}
K_MAX = 12

# variant -> (disguise kind = the flag expected, languages, formats of the copy)
VARIANTS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "control (no disguise)": ("", ("en", "zh"), ("txt", "html", "docx")),
    "look-alike: every o": ("lookalike", ("en",), ("txt", "html", "docx")),
    "look-alike: 10%": ("lookalike", ("en",), ("txt", "html", "docx")),
    "look-alike: 30%": ("lookalike", ("en",), ("txt", "html", "docx")),
    "look-alike: 100%": ("lookalike", ("en",), ("txt", "html", "docx")),
    "invisible: 10%": ("invisible", ("en", "zh"), ("txt", "html", "docx")),
    "invisible: 30%": ("invisible", ("en", "zh"), ("txt", "html", "docx")),
    "invisible: 100%": ("invisible", ("en", "zh"), ("txt", "html", "docx")),
    "hidden: DOCX white runs": ("hidden", ("en", "zh"), ("docx",)),
    "hidden: DOCX w:vanish runs": ("hidden", ("en", "zh"), ("docx",)),
    "hidden: DOCX 1-pt runs": ("hidden", ("en", "zh"), ("docx",)),
    "hidden: PDF invisible (3 Tr)": ("hidden", ("en",), ("pdf",)),
    "hidden: PDF white text": ("hidden", ("en",), ("pdf",)),
    "hidden: HTML display:none": ("hidden", ("en", "zh"), ("html",)),
    "hidden: HTML white text": ("hidden", ("en", "zh"), ("html",)),
    "spaced letters: 1-2 sentences, words 3 spaces apart": (
        "spaced",
        ("en", "zh"),
        ("txt", "html", "docx"),
    ),
    "spaced letters: 1-2 sentences, one space everywhere": (
        "spaced",
        ("en", "zh"),
        ("txt", "html", "docx"),
    ),
}
FLAG_KINDS = ("hidden", "lookalike", "invisible", "spaced")
# The words a flag sentence names its disguise by; the earliest match in the sentence wins.
FLAG_WORDS = {
    "hidden": r"hidden|does not show|not shown",
    "lookalike": r"look-?\s?alike|homoglyph|confusable|cyrillic|greek",
    "invisible": r"invisible|zero-width|zero width|format character",
    "spaced": r"spaced|spacing|letter by letter|single letters|one letter",
}

# Look-alikes the brief names (Cyrillic and Greek), per Latin letter.
LOOKALIKES = {
    "a": "аα",
    "c": "с",
    "e": "е",
    "i": "і",
    "o": "оο",
    "p": "р",
    "x": "х",
    "y": "у",
    "v": "ν",
    "A": "АΑ",
    "B": "ВΒ",
    "C": "С",
    "E": "ЕΕ",
    "H": "НΗ",
    "I": "ІΙ",
    "K": "КΚ",
    "M": "МΜ",
    "O": "ОΟ",
    "P": "РΡ",
    "T": "ТΤ",
    "X": "ХΧ",
}
INVISIBLES = "\u200b\u200c\u200d\u2060\ufeff"
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=\S)|(?<=[。！？；])")


# ---------------------------------------------------------------- disguises (pure text)


def lookalike(text: str, rate: float | str, rng: random.Random) -> str:
    """`text` with look-alikes for its Latin letters: rate "o" = every o/O (Cyrillic),
    else each letter that has a look-alike is swapped with probability `rate`."""
    if rate == "o":
        return text.replace("o", "\u043e").replace("O", "\u041e")
    out = []
    for ch in text:
        options = LOOKALIKES.get(ch)
        out.append(rng.choice(options) if options and rng.random() < rate else ch)
    return "".join(out)


def invisible(text: str, rate: float, rng: random.Random) -> str:
    """`text` with an invisible character between `rate` of its adjacent letters."""
    out = []
    for i, ch in enumerate(text):
        out.append(ch)
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if ch.isalpha() and nxt.isalpha() and rng.random() < rate:
            out.append(rng.choice(INVISIBLES))
    return "".join(out)


def sentences(paragraph: str) -> list[str]:
    """The sentences of a paragraph, with their trailing punctuation, spaces dropped."""
    return [s for s in _SENTENCE.split(paragraph) if s.strip()]


def space_letters(sentence: str, gap: str = "   ") -> str:
    """ "e s s a y   i s" : letters one space apart, words `gap` apart (Chinese: one
    space between characters)."""
    words = sentence.split()
    return gap.join(" ".join(w) for w in words)


def spaced(text: Text, rng: random.Random, gap: str = "   ") -> tuple[Text, int]:
    """`text` with one or two sentences (in one paragraph) written letter by letter, the
    first with words in it (a line of digits spaced out hides nothing); returns the text
    and how many sentences were spaced."""
    paragraphs = list(text.paragraphs)
    worded = [i for i, p in enumerate(paragraphs) if any(map(_has_words, sentences(p)))]
    i = rng.choice(worded) if worded else rng.randrange(len(paragraphs))
    parts = sentences(paragraphs[i])
    n = min(len(parts), rng.choice((1, 2)))
    starts = [j for j in range(len(parts) - n + 1) if _has_words(parts[j])]
    start = rng.choice(starts) if starts else rng.randrange(len(parts) - n + 1)
    for j in range(start, start + n):
        parts[j] = space_letters(parts[j], gap)
    joiner = "" if _CJK.search(paragraphs[i]) else " "
    paragraphs[i] = joiner.join(parts)
    return Text(text.title, tuple(paragraphs)), n


def _has_words(sentence: str) -> bool:
    """At least 16 letters (or Chinese characters)."""
    return sum(c.isalpha() for c in sentence) >= 16


# Padded text: per paragraph, segments (text, hidden).
Segments = tuple[tuple[tuple[str, bool], ...], ...]


def padded(text: Text, donor: list[str], lang: str) -> tuple[Segments, float]:
    """Segments of `text` with donor text (hidden) after every sentence, about as long
    as the sentence; returns the segments and the hidden share of the characters."""
    stream = _CycleText(donor, lang)
    out, hidden, total = [], 0, 0
    sep = "" if lang == "zh" else " "
    for paragraph in text.paragraphs:
        segs: list[tuple[str, bool]] = []
        for s in sentences(paragraph):
            pad = stream.take(len(s))
            segs += [(s + sep, False), (pad + sep, True)]
            hidden += len(pad)
            total += len(s) + len(pad)
        out.append(tuple(segs))
    return tuple(out), hidden / max(total, 1)


class _CycleText:
    """Donor text handed out in pieces of about n characters (whole words in English)."""

    def __init__(self, paragraphs: list[str], lang: str):
        self.lang = lang
        text = ("" if lang == "zh" else " ").join(paragraphs)
        self.units = list(text) if lang == "zh" else text.split()
        self.at = 0

    def take(self, n: int) -> str:
        taken, size = [], 0
        while size < n:
            unit = self.units[self.at % len(self.units)]
            self.at += 1
            taken.append(unit)
            size += len(unit) + (self.lang != "zh")
        return ("" if self.lang == "zh" else " ").join(taken)


# ---------------------------------------------------------------- writers


def write_padded_docx(path: Path, title: str, segments: Segments, style: str) -> None:
    """A DOCX whose hidden segments are white, w:vanish or 1-pt runs."""
    from docx import Document
    from docx.shared import Pt, RGBColor

    doc = Document()
    doc.add_heading(title, level=1)
    for para in segments:
        p = doc.add_paragraph()
        for text, hidden in para:
            run = p.add_run(text)
            if not hidden:
                continue
            if style == "white":
                run.font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
            elif style == "vanish":
                run.font.hidden = True
            else:
                run.font.size = Pt(1)
    when = datetime.datetime.fromisoformat(FIXED_DATE)
    doc.core_properties.created = when
    doc.core_properties.modified = when
    doc.save(str(path))


def write_padded_html(path: Path, title: str, segments: Segments, style: str) -> None:
    """An HTML page whose hidden segments are display:none or white spans (inline style)."""
    css = "display:none" if style == "none" else "color:#ffffff"
    body = []
    for para in segments:
        parts = [
            f'<span style="{css}">{html.escape(t)}</span>' if hidden else html.escape(t)
            for t, hidden in para
        ]
        body.append("<p>" + "".join(parts) + "</p>")
    t = html.escape(title)
    path.write_text(
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{t}</title></head>\n'
        f"<body><h1>{t}</h1>\n" + "\n".join(body) + "\n</body></html>\n",
        encoding="utf-8",
    )


def write_pdf(path: Path, title: str, segments: Segments, style: str = "") -> None:
    """A PDF in Helvetica (WinAnsi, so Latin text only), one page per ~50 lines; hidden
    segments in render mode 3 (style "invisible") or white fill (style "white")."""
    size, leading, left, top, width = 11, 14, 72, 770, 451
    chars_per_line = int(width / (size * 0.55))
    lines: list[list[tuple[str, bool]]] = []  # each: runs (text, hidden)
    for para in segments:
        words = [(w, hidden) for text, hidden in para for w in text.split()]
        line: list[tuple[str, bool]] = []
        used = 0
        for w, hidden in words:
            if used and used + 1 + len(w) > chars_per_line:
                lines.append(line)
                line, used = [], 0
            line.append((w + " ", hidden))
            used += len(w) + 1
        lines.append(line)
        lines.append([])  # paragraph gap
    pages: list[list[str]] = [[]]
    y = top - 2 * leading
    ops = pages[0]
    ops.append(f"BT /F1 16 Tf {left} {top} Td ({_pdf_string(title)}) Tj ET")
    for line in lines:
        if y < 72:
            ops = []
            pages.append(ops)
            y = top
        if line:
            ops.append(f"BT /F1 {size} Tf {left} {y} Td")
            for hidden, group in _groups(line):
                on, off = {"invisible": ("3 Tr", "0 Tr"), "white": ("1 1 1 rg", "0 0 0 rg")}.get(
                    style, ("", "")
                )
                text = _pdf_string("".join(group))
                ops.append(f"{on} ({text}) Tj {off}" if hidden else f"({text}) Tj")
            ops.append("ET")
        y -= leading
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    )
    kids = []
    for ops in pages:
        stream = zlib.compress("\n".join(ops).encode("cp1252", "replace"))
        objects.append(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream"
        )
        content = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(bytes(out))


def _groups(line: list[tuple[str, bool]]):
    group: list[str] = []
    current = line[0][1]
    for text, hidden in line:
        if hidden != current:
            yield current, group
            group, current = [], hidden
        group.append(text)
    yield current, group


def _pdf_string(text: str) -> str:
    text = text.encode("cp1252", "replace").decode("cp1252")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def plain_segments(text: Text) -> Segments:
    return tuple(((p, False),) for p in text.paragraphs)


def write_text(path: Path, text: Text, fmt: str) -> None:
    """A clean document in `fmt` (txt, html, docx, pdf)."""
    if fmt == "txt":
        write_txt(path, text)
    elif fmt == "html":
        write_html(path, text)
    elif fmt == "docx":
        write_docx(path, text)
    else:
        write_pdf(path, text.title, plain_segments(text))


# ---------------------------------------------------------------- corpus


@dataclass
class Doc:
    name: str
    role: str  # original, copy, clean
    lang: str
    family: int
    fmt: str
    variant: str = ""
    expect: str = ""  # the flag kind a disguised copy should carry
    detail: dict = field(default_factory=dict)


def catalog_docs(lang_dir: str, script: str, count: int, rng: random.Random) -> list[Text]:
    """Texts of real Russian/Greek (`script` letters) translations from message catalogs."""
    letters = re.compile(script)
    strings: list[str] = []
    seen: set[str] = set()
    directory = Path("/usr/share/locale") / lang_dir / "LC_MESSAGES"
    for path in sorted(directory.glob("*.mo")) if directory.is_dir() else []:
        try:
            with path.open("rb") as f:
                catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
        except Exception:
            continue
        for key in sorted(catalog, key=str):
            value = catalog[key]
            if not key or not isinstance(value, str):
                continue
            for line in value.splitlines():
                line = " ".join(line.split())
                if len(line.split()) >= 6 and len(letters.findall(line)) >= 20 and line not in seen:
                    seen.add(line)
                    strings.append(line)
    rng.shuffle(strings)
    texts = []
    for i in range(count):
        chunk = strings[i * 16 : (i + 1) * 16]
        if len(chunk) < 8:
            break
        paragraphs = tuple(" ".join(chunk[j : j + 4]) for j in range(0, len(chunk), 4))
        texts.append(Text(" ".join(chunk[0].split()[:6]), paragraphs))
    return texts


def build(out: Path, size: str, seed: int) -> dict:
    """Write the corpus to out/docs and return its labels (also written to labels.json)."""
    scale = SIZES[size]
    rng = random.Random(seed)
    docs_by_lang: dict[str, list[BaseDoc]] = {"en": [], "zh": []}
    for d in base_documents():
        docs_by_lang[d.lang].append(d)
    for docs in docs_by_lang.values():
        rng.shuffle(docs)

    def take(lang: str) -> BaseDoc:
        return docs_by_lang[lang].pop()

    if out.exists():
        shutil.rmtree(out)
    (out / "docs").mkdir(parents=True)
    documents: list[Doc] = []
    pairs: list[dict] = []
    writers: list = []
    family = 0
    for variant, (kind, langs, formats) in VARIANTS.items():
        for i in range(PER_VARIANT * scale):
            lang = langs[i % len(langs)]
            base = take(lang)
            text = Text(base.title, base.paragraphs)
            orig_formats = ["txt", "html", "docx"] + (["pdf"] if lang == "en" else [])
            copy_fmt = rng.choice(formats)
            if variant.startswith("control"):
                orig_fmt = rng.choice([f for f in orig_formats if f != copy_fmt])
            else:
                orig_fmt = rng.choice(orig_formats)
            original = Doc("", "original", lang, family, orig_fmt, variant)
            copy = Doc("", "copy", lang, family, copy_fmt, variant, kind)
            writers.append((original, lambda p, t=text, f=orig_fmt: write_text(p, t, f)))
            writers.append((copy, _copy_writer(variant, text, copy_fmt, lang, take, rng, copy)))
            documents += [original, copy]
            pairs.append({"a": original, "b": copy, "variant": variant})
            family += 1
    for i in range(CLEAN["standalone"] * scale):
        lang = ("en", "zh")[i % 2]
        base = take(lang)
        fmt = rng.choice(["txt", "html", "docx"] + (["pdf"] if lang == "en" else []))
        d = Doc("", "clean", lang, family, fmt, "standalone")
        text = Text(base.title, base.paragraphs)
        writers.append((d, lambda p, t=text, f=fmt: write_text(p, t, f)))
        documents.append(d)
        family += 1
    cyrillic, greek = r"[\u0400-\u04ff]", r"[\u0370-\u03ff]"
    russian = catalog_docs("ru", cyrillic, 2 * CLEAN["ru"] * scale, rng)
    greek_texts = catalog_docs("el", greek, CLEAN["el"] * scale, rng)
    clean_texts = [("ru", t, "russian") for t in russian[: CLEAN["ru"] * scale]]
    clean_texts += [("el", t, "greek") for t in greek_texts]
    persian = catalog_docs("fa", r"[\u0600-\u06ff]", CLEAN["fa"] * scale, rng)
    hindi = catalog_docs("hi", r"[\u0900-\u097f]", CLEAN["hi"] * scale, rng)
    clean_texts += [("fa", t, "persian") for t in persian]
    clean_texts += [("hi", t, "hindi") for t in hindi]
    for i, quote in enumerate(russian[CLEAN["ru"] * scale :][: CLEAN["en_ru"] * scale]):
        base = take("en")
        paragraphs = list(base.paragraphs)
        paragraphs.insert(1 + i % (len(paragraphs) - 1), quote.paragraphs[0])
        clean_texts.append(("en", Text(base.title, tuple(paragraphs)), "english quoting russian"))
    for _ in range(CLEAN["spaced_heading"] * scale):
        base = take("en")
        heading = space_letters(" ".join(base.title.split()[:3]).upper())
        text = Text(base.title, (heading, *base.paragraphs))
        clean_texts.append(("en", text, "english under a letter-spaced heading"))
    for lang, text, what in clean_texts:
        fmt = rng.choice(("txt", "html", "docx"))
        d = Doc("", "clean", lang, family, fmt, what)
        writers.append((d, lambda p, t=text, f=fmt: write_text(p, t, f)))
        documents.append(d)
        family += 1
    order = list(range(len(writers)))
    random.Random(seed + 1).shuffle(order)
    for number, index in enumerate(order):
        d, _ = writers[index]
        d.name = f"e{number:05d}.{d.fmt}"
    for d, write in writers:
        write(out / "docs" / d.name)
    labels = {
        "seed": seed,
        "size": size,
        "documents": [
            {
                "file": "docs/" + d.name,
                "role": d.role,
                "lang": d.lang,
                "family": d.family,
                "format": d.fmt,
                "variant": d.variant,
                "expect": d.expect,
                **d.detail,
            }
            for d in documents
        ],
        "pairs": [
            {"a": "docs/" + p["a"].name, "b": "docs/" + p["b"].name, "variant": p["variant"]}
            for p in pairs
        ],
    }
    (out / "labels.json").write_text(json.dumps(labels, indent=1, ensure_ascii=False))
    return labels


def _copy_writer(variant: str, text: Text, fmt: str, lang: str, take, rng, doc: Doc):
    """The function writing the disguised copy of `text` (decided now, so the corpus is
    deterministic from the seed)."""
    sub = random.Random(rng.random())
    if variant.startswith("control"):
        return lambda p: write_text(p, text, fmt)
    if variant.startswith(("look-alike", "invisible")):
        arg = variant.split(": ")[1]
        rate: float | str = "o" if arg == "every o" else int(arg.rstrip("%")) / 100
        fn = lookalike if variant.startswith("look-alike") else invisible
        new = Text(fn(text.title, rate, sub), tuple(fn(p, rate, sub) for p in text.paragraphs))
        old, now = "".join(text.paragraphs), "".join(new.paragraphs)
        if fn is invisible:
            doc.detail["inserted_chars"] = len(now) - len(old)
        else:
            doc.detail["swapped_letters"] = sum(a != b for a, b in zip(old, now, strict=True))
        doc.detail["letters"] = sum(c.isalpha() for c in old)
        return lambda p: write_text(p, new, fmt)
    if variant.startswith("spaced"):
        new, n = spaced(text, sub, " " if "one space" in variant else "   ")
        doc.detail["spaced_sentences"] = n
        return lambda p: write_text(p, new, fmt)
    donor = take(lang)
    segs, share = padded(text, list(donor.paragraphs), lang)
    doc.detail["hidden_share"] = round(share, 3)
    style = {
        "white runs": "white",
        "w:vanish runs": "vanish",
        "1-pt runs": "tiny",
        "invisible (3 Tr)": "invisible",
        "white text": "white",
        "display:none": "none",
    }[variant.split(" ", 2)[2]]
    if fmt == "docx":
        return lambda p: write_padded_docx(p, text.title, segs, style)
    if fmt == "pdf":
        return lambda p: write_pdf(p, text.title, segs, style)
    return lambda p: write_padded_html(p, text.title, segs, style)


# ---------------------------------------------------------------- engine and scoring


def flag_kind(sentence: str) -> str:
    """The disguise a flag sentence names (the earliest of FLAG_WORDS in it), or "other"."""
    low = sentence.lower()
    found = [
        (m.start(), kind) for kind, words in FLAG_WORDS.items() if (m := re.search(words, low))
    ]
    return min(found)[1] if found else "other"


def scan_corpus(docs_dir: Path, workers: int):
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan

    return scan(ScanOptions(roots=(str(docs_dir),), k_max=K_MAX, workers=workers))


def evaluate(corpus: Path, workers: int) -> dict:
    from simsift.core.pipeline.options import DEFAULT_K

    labels = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    started = time.monotonic()
    result = scan_corpus(corpus / "docs", workers)
    seconds = time.monotonic() - started
    index = {str(Path(d.path).resolve()): i for i, d in enumerate(result.documents)}
    number = {
        d["file"]: index.get(str((corpus / d["file"]).resolve())) for d in labels["documents"]
    }
    info = {d["file"]: d for d in labels["documents"]}
    partial = result.partial_pairs()
    partial_set = {
        frozenset((int(a), int(b))) for a, b in zip(partial.left, partial.right, strict=True)
    }
    flags = {
        f: tuple(getattr(result.documents[i], "flags", ())) if i is not None else ()
        for f, i in number.items()
    }
    variants: dict[str, dict] = {}
    for p in labels["pairs"]:
        v = variants.setdefault(
            p["variant"],
            {
                "pairs": 0,
                "whole": 0,
                "partial_only": 0,
                "missed": 0,
                "same_text": 0,
                "distances": [],
                "flagged": 0,
                "flagged_right": 0,
                "unread": 0,
                "flag_kinds": Counter(),
                "examples": [],
                "whole_by_lang": {},
            },
        )
        v["pairs"] += 1
        by_lang = v["whole_by_lang"].setdefault(info[p["b"]]["lang"], [0, 0])
        by_lang[1] += 1
        a, b = number[p["a"]], number[p["b"]]
        if a is None or b is None:
            v["unread"] += 1
            v["missed"] += 1
            continue
        distance = int(result.distance(a, b))
        v["distances"].append(distance)
        v["same_text"] += int(result.text_codes[a] == result.text_codes[b])
        if distance <= DEFAULT_K:
            v["whole"] += 1
            by_lang[0] += 1
        elif frozenset((a, b)) in partial_set:
            v["partial_only"] += 1
        else:
            v["missed"] += 1
        copy_flags = flags[p["b"]]
        expect = info[p["b"]]["expect"]
        kinds = {flag_kind(f) for f in copy_flags}
        v["flag_kinds"].update(kinds)
        if copy_flags:
            v["flagged"] += 1
            if len(v["examples"]) < 2:
                v["examples"].append(copy_flags[0][:200])
        if expect and expect in kinds:
            v["flagged_right"] += 1
    for v in variants.values():
        d = sorted(v.pop("distances"))
        v["median_distance"] = d[len(d) // 2] if d else None
        v["flag_kinds"] = dict(v["flag_kinds"])
    clean = [d for d in labels["documents"] if d["role"] in ("original", "clean")]
    false_flags = _false_flags(
        clean, flags, lambda d: d["variant"] if d["role"] == "clean" else "original"
    )
    pairs = result.pairs.within(DEFAULT_K)
    family = {number[f]: info[f]["family"] for f in number if number[f] is not None}
    unrelated = sum(
        family.get(int(a)) != family.get(int(b))
        for a, b in zip(pairs.left, pairs.right, strict=True)
    )
    is_copy = {number[f] for f in number if info[f]["role"] == "copy"}
    unrelated_partial = [
        (int(a), int(b))
        for a, b in zip(partial.left, partial.right, strict=True)
        if family.get(int(a)) != family.get(int(b))
    ]
    with_copy = sum(a in is_copy or b in is_copy for a, b in unrelated_partial)
    return {
        "documents": len(labels["documents"]),
        "read": len(result.documents),
        "errors": [f"{Path(e.path).name}: {e.message}" for e in result.errors],
        "scan_seconds": round(seconds, 1),
        "default_k": DEFAULT_K,
        "variants": variants,
        "false_flags": false_flags,
        "unrelated_pairs_at_default_k": int(unrelated),
        "unrelated_partial_pairs": len(unrelated_partial),
        # of them, pairs with a copy (a copy read as its original repeats the original's
        # pairs with documents of the same topic)
        "unrelated_partial_pairs_with_a_copy": with_copy,
    }


def _false_flags(clean: list[dict], flags: dict, group) -> dict:
    """Flagged clean documents: overall, by group and by format, with examples."""
    out = {"clean": len(clean), "flagged": 0, "by_group": {}, "by_format": {}, "examples": []}
    for d in clean:
        f = flags.get(d["file"], ())
        for key, value in (("by_group", group(d)), ("by_format", d["format"])):
            cell = out[key].setdefault(value, [0, 0])
            cell[0] += bool(f)
            cell[1] += 1
        if f:
            out["flagged"] += 1
            if len(out["examples"]) < 5:
                out["examples"].append(f"{d['file']}: {f[0][:200]}")
    out["share"] = round(out["flagged"] / max(out["clean"], 1), 4)
    return out


def quality_corpus_false_flags(size: str, seed: int, workers: int) -> dict:
    """False flags on the quality bench's own corpus (every document there is clean)."""
    from bench.quality import generate

    corpus = Path(f"/tmp/simsift-quality/{size}")
    labels_path = corpus / "labels.json"
    if not labels_path.exists() or json.loads(labels_path.read_text())["seed"] != seed:
        generate.generate(corpus, size, seed, generate.soffice() is not None)
    labels = json.loads(labels_path.read_text(encoding="utf-8"))
    result = scan_corpus(corpus / "docs", workers)
    by_path = {str(Path(d.path).resolve()): d for d in result.documents}
    clean = []
    flags = {}
    for d in labels["documents"]:
        record = by_path.get(str((corpus / d["file"]).resolve()))
        clean.append({**d, "format": Path(d["file"]).suffix[1:]})
        flags[d["file"]] = tuple(getattr(record, "flags", ())) if record else ()
    return _false_flags(clean, flags, lambda d: d["lang"])


# ---------------------------------------------------------------- report


def _share(n: int, d: int) -> str:
    return f"{n}/{d} ({n / d:.0%})" if d else "–"


def markdown(data: dict) -> str:
    runs = data["runs"]
    labels = list(runs)
    first = runs[labels[0]]
    lines = [
        f"# Evasion: disguised whole copies ({data['size']} corpus)",
        "",
        f"`python -m bench.quality.evasion --size {data['size']}` (see the module docstring). "
        f"{first['documents']} documents, seed {data['seed']}; default k = {first['default_k']}. "
        "Each variant: one disguised whole copy per original (half English, half Chinese "
        "where the disguise applies to both). *whole*: pair within the default k; "
        "*partial*: found only as a partial copy; *flagged*: the copy has any integrity "
        "flag; *right*: a flag names its disguise.",
        "",
        "Runs: "
        + "; ".join(
            f"**{k}**: {r['engine']} ({r['when']}; `{r.get('command', '')}`)"
            for k, r in runs.items()
        ),
        "",
    ]
    for label, run in runs.items():
        lines += [
            f"## {label}: {run['engine']}",
            "",
            "| variant | pairs | whole (≤ k) | by language | partial only | missed "
            "| median distance | same text | flagged | right flag |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for name, v in run["variants"].items():
            n = v["pairs"]
            lines.append(
                f"| {name} | {n} | {_share(v['whole'], n)} | "
                + ", ".join(f"{g} {a}/{b}" for g, (a, b) in v.get("whole_by_lang", {}).items())
                + f" | {v['partial_only']} | "
                f"{v['missed']} | {v['median_distance']} | {v['same_text']} | "
                f"{_share(v['flagged'], n)} | "
                f"{_share(v['flagged_right'], n) if VARIANTS.get(name, ('x',))[0] else '–'} |"
            )
        ff = run["false_flags"]
        lines += [
            "",
            f"False flags on clean documents: **{_share(ff['flagged'], ff['clean'])}** "
            "(by group: "
            + ", ".join(f"{g} {a}/{b}" for g, (a, b) in ff["by_group"].items())
            + "; by format: "
            + ", ".join(f"{g} {a}/{b}" for g, (a, b) in ff["by_format"].items())
            + ").",
        ]
        q = run.get("quality_corpus")
        if q:
            lines.append(
                f"False flags on the quality bench's {data['size']} corpus: "
                f"**{_share(q['flagged'], q['clean'])}** (by format: "
                + ", ".join(f"{g} {a}/{b}" for g, (a, b) in q["by_format"].items())
                + ")."
            )
        lines.append(
            f"Unrelated pairs reported at the default k: {run['unrelated_pairs_at_default_k']}; "
            f"as partial copies: {run['unrelated_partial_pairs']} (same-topic docstrings; "
            f"{run.get('unrelated_partial_pairs_with_a_copy', '?')} of them with a copy). "
            f"Scan {run['scan_seconds']} s; errors: {len(run['errors'])}."
        )
        examples = [e for v in run["variants"].values() for e in v["examples"][:1]]
        examples += ff["examples"][:3]
        if examples:
            lines += ["", "Flag examples: " + " · ".join(f"“{e[:140]}”" for e in examples[:8])]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="small")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--label", default="after", help="name of this run in the results")
    parser.add_argument("--engine-commit", help="scan with the engine of this commit")
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument(
        "--no-quality-corpus",
        action="store_true",
        help="skip the false-flag scan of the quality bench's corpus",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "quality")
    args = parser.parse_args(argv)
    started = time.monotonic()
    engine = use_engine_at(args.engine_commit)
    corpus = Path(f"/tmp/simsift-evasion/{args.size}")
    labels_path = corpus / "labels.json"
    if (
        args.regenerate
        or not labels_path.exists()
        or json.loads(labels_path.read_text())["seed"] != args.seed
    ):
        build(corpus, args.size, args.seed)
    run = {"engine": engine, "when": datetime.datetime.now().strftime("%Y-%m-%d %H:%M")}
    run["command"] = " ".join(["python -m bench.quality.evasion", *(argv or sys.argv[1:])])
    run.update(evaluate(corpus, args.workers))
    import simsift.core

    run["engine_path"] = str(Path(simsift.core.__file__).resolve().parent)
    if not args.no_quality_corpus:
        run["quality_corpus"] = quality_corpus_false_flags(args.size, 7, args.workers)
    run["total_seconds"] = round(time.monotonic() - started, 1)
    path = args.out / f"evasion-{args.size}.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    if data.get("seed") != args.seed:
        data = {"size": args.size, "seed": args.seed, "runs": {}}
    data["runs"][args.label] = run
    data["runs"] = dict(sorted(data["runs"].items(), key=lambda kv: kv[0] != "before"))
    args.out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False))
    text = markdown(data)
    (args.out / f"evasion-{args.size}.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
