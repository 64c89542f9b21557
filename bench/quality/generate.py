"""Labeled near-duplicate corpus from real text, deterministic from a seed.

    python -m bench.quality.generate --size small --out /tmp/simsift-quality/small [--no-pdf]

Relations (positive pairs in labels.json, kind):
- exact: the same file bytes under another name;
- format: the same text as TXT / HTML / DOCX / PDF (PDF made by LibreOffice; --no-pdf skips);
- repost: the same article inside the chrome of 2-3 different web sites
  (navigation, related links with counters, timestamps, view counts, footer);
- edit: 1-5% of the words substituted, inserted or deleted;
- partial: a run of 10-60% of a document's paragraphs inserted into another document;
- collage: an essay stitched from runs of three long sources (10-25% of it each).
Harder relations, derived from documents already in the corpus (after everything else,
so the documents above stay the same):
- heavy_edit: 5-15% of the words substituted, inserted or deleted;
- reorder: the same paragraphs in another order, half of them with 0.5-2% of words edited;
- small_partial: a run of another document's text making up 10-30% of the copy.
Printed pages (with Chromium; --no-printed skips), made last with their own generator:
- printed: a document printed to PDF from a browser inside its site's chrome (cookie
  banner, follow-us, ad, popular list, copyright lines; the browser's running header and
  footer), two or three pages per site, so the pages of one site share only chrome;
- edge_copy: an essay printed to PDF whose first or last paragraph (40 words or more:
  EDGE_MIN_CHARS) is another printed essay's.
Hard negatives (never labeled positive):
- topic: different documents from the same source (package, module, message catalog);
- template: essays that share only an assignment title and prompt paragraphs.

The assignment prompts are also written to reference/ (one TXT each), to measure SimSift
with the prompts given as a reference folder, as a teacher would.

Every document belongs to a family (the documents made from one base text); a partial
copy is its own family, linked to its source family. labels.json lists documents,
positive pairs and links; see bench/quality/README.md for how they are scored.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from bench.quality.render import (
    Site,
    Text,
    browser,
    docx_to_pdf,
    html_to_pdf,
    make_printed_site,
    make_site,
    soffice,
    write_chrome_html,
    write_docx,
    write_html,
    write_printed_html,
    write_txt,
)
from bench.quality.sources import BaseDoc, base_documents, short_labels

SIZES = {"small": 1, "large": 10}
# Units per scale step: families of each relation, template groups x members, standalones.
PLAN = {"exact": 16, "format": 20, "repost": 16, "edit": 24, "partial": 24, "standalone": 40}
TEMPLATE_GROUPS, TEMPLATE_MEMBERS = 5, 6
COLLAGES = 8  # per scale step; made after the others, so their documents stay the same
# per scale step; derived from existing documents after all others (the pool is used up)
HARDER = {"heavy_edit": 16, "reorder": 16, "small_partial": 16}
PLAIN_FORMATS = ("txt", "html", "docx")
# per scale step and language: printed sites (2-3 pages each), pairs of printed essays
# sharing a first or last paragraph
PRINTED_SITES, EDGE_COPIES = 3, 3
# an essay's opening or conclusion is a paragraph of 40 words or more, not a line
EDGE_MIN_CHARS = {"en": 250, "zh": 80}


@dataclass
class Entry:
    """One file to write: its text, format, and labels."""

    text: Text
    # txt, html, docx, pdf, chrome (HTML in site chrome), copy (bytes of `source`),
    # printed (HTML printed to PDF by a browser, in `printed`'s chrome if set)
    fmt: str
    family: int
    group: str
    lang: str
    role: str
    template: int | None = None
    site: Site | None = None
    source: Entry | None = None
    printed: object | None = None  # render.PrintedSite
    name: str = ""
    extra: dict = field(default_factory=dict)


@dataclass
class Corpus:
    """Entries and labeled pairs being built."""

    entries: list[Entry] = field(default_factory=list)
    pairs: list[tuple[Entry, Entry, str, dict]] = field(default_factory=list)
    prompts: list[Text] = field(default_factory=list)  # assignment prompts, for reference/
    links: list[tuple[int, int]] = field(default_factory=list)
    families: int = 0
    first_derived: int | None = None  # entries from here on were derived by `add_harder`

    def add(self, entry: Entry) -> Entry:
        self.entries.append(entry)
        return entry

    def new_family(self) -> int:
        self.families += 1
        return self.families - 1


class Pool:
    """Base documents handed out without reuse, alternating English and Chinese."""

    def __init__(self, docs: list[BaseDoc], rng: random.Random):
        self.by_lang = {lang: [d for d in docs if d.lang == lang] for lang in ("en", "zh")}
        for docs_of_lang in self.by_lang.values():
            rng.shuffle(docs_of_lang)
        self.turn = 0

    def peek(self, lang: str, rng: random.Random) -> BaseDoc:
        """A random unused document of `lang`, left in the pool."""
        return rng.choice(self.by_lang[lang] or self.by_lang["en"] + self.by_lang["zh"])

    def left(self) -> int:
        return sum(map(len, self.by_lang.values()))

    def take(self, lang: str | None = None) -> BaseDoc:
        """The next unused document (of `lang`, else alternating; falls back to the other)."""
        if lang is None:
            lang = ("en", "zh")[self.turn % 2]
            self.turn += 1
        if not self.by_lang[lang]:
            lang = "zh" if lang == "en" else "en"
        if not self.by_lang[lang]:
            raise RuntimeError("not enough real text for this corpus size")
        return self.by_lang[lang].pop()


def text_of(doc: BaseDoc) -> Text:
    return Text(doc.title, doc.paragraphs)


def _entry(doc: BaseDoc, fmt: str, family: int, role: str, text: Text | None = None) -> Entry:
    return Entry(text or text_of(doc), fmt, family, doc.group, doc.lang, role)


def add_exact(corpus: Corpus, pool: Pool, rng: random.Random) -> None:
    doc = pool.take()
    fam = corpus.new_family()
    original = corpus.add(_entry(doc, rng.choice(PLAIN_FORMATS), fam, "original"))
    copy = corpus.add(_entry(doc, "copy", fam, "exact"))
    copy.source = original
    corpus.pairs.append((original, copy, "exact", {}))


def add_format(corpus: Corpus, pool: Pool, rng: random.Random, formats: tuple[str, ...]) -> None:
    doc = pool.take()
    fam = corpus.new_family()
    chosen = rng.sample(formats, 3)
    original = corpus.add(_entry(doc, chosen[0], fam, "original"))
    for fmt in chosen[1:]:
        variant = corpus.add(_entry(doc, fmt, fam, "format"))
        corpus.pairs.append((original, variant, "format", {"formats": f"{chosen[0]}-{fmt}"}))


def add_repost(corpus: Corpus, pool: Pool, rng: random.Random, sites: dict) -> None:
    doc = pool.take()
    fam = corpus.new_family()
    posts = []
    for site in rng.sample(sites[doc.lang], rng.choice((2, 3))):
        post = corpus.add(_entry(doc, "chrome", fam, "repost" if posts else "original"))
        post.site = site
        posts.append(post)
    for post in posts[1:]:
        corpus.pairs.append((posts[0], post, "repost", {"sites": len(posts)}))


def _words(paragraph: str, lang: str) -> list[str]:
    if lang == "zh":
        import jieba

        return jieba.lcut(paragraph)
    return paragraph.split(" ")


def _join(words: list[str], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(words)


def _is_word(token: str) -> bool:
    return bool(re.search(r"\w", token))


def edit_text(text: Text, rate: float, lang: str, vocab: list[str], rng: random.Random) -> Text:
    """`text` with about `rate` of its words substituted, inserted or deleted."""
    paragraphs = [_words(p, lang) for p in text.paragraphs]
    slots = [(i, j) for i, p in enumerate(paragraphs) for j, w in enumerate(p) if _is_word(w)]
    n_ops = max(1, round(rate * len(slots)))
    for i, j in sorted(rng.sample(slots, n_ops), reverse=True):  # back to front keeps indices
        op = rng.choice(("sub", "ins", "del"))
        if op == "sub":
            paragraphs[i][j] = rng.choice(vocab)
        elif op == "ins":
            paragraphs[i].insert(j, rng.choice(vocab))
        else:
            del paragraphs[i][j]
    return Text(text.title, tuple(_join(p, lang) for p in paragraphs))


def add_edit(corpus: Corpus, pool: Pool, rng: random.Random) -> None:
    doc = pool.take()
    donor = pool.peek(doc.lang, rng)  # supplies the substituted and inserted words
    vocab = sorted({w for p in donor.paragraphs for w in _words(p, doc.lang) if _is_word(w)})
    fam = corpus.new_family()
    fmt = rng.choice(PLAIN_FORMATS)
    original = corpus.add(_entry(doc, fmt, fam, "original"))
    rate = round(rng.uniform(0.01, 0.05), 3)
    text = edit_text(text_of(doc), rate, doc.lang, vocab, rng)
    edited = corpus.add(_entry(doc, fmt, fam, "edit", text))
    corpus.pairs.append((original, edited, "edit", {"rate": rate}))


def add_partial(corpus: Corpus, pool: Pool, rng: random.Random) -> None:
    source, host = pool.take(), None
    host = pool.take(source.lang)
    n = len(source.paragraphs)
    share = rng.uniform(0.1, 0.6)
    m = min(n, max(1, round(share * n)))
    start = rng.randint(0, n - m)
    run = source.paragraphs[start : start + m]
    at = rng.randint(0, len(host.paragraphs))
    paragraphs = host.paragraphs[:at] + run + host.paragraphs[at:]
    fam_source, fam_copy = corpus.new_family(), corpus.new_family()
    original = corpus.add(_entry(source, rng.choice(PLAIN_FORMATS), fam_source, "original"))
    copy = corpus.add(
        _entry(host, rng.choice(PLAIN_FORMATS), fam_copy, "partial", Text(host.title, paragraphs))
    )
    detail = {
        "share_of_source": round(m / n, 3),
        "share_of_copy": round(sum(map(len, run)) / sum(map(len, paragraphs)), 3),
    }
    corpus.pairs.append((original, copy, "partial", detail))
    corpus.links.append((fam_source, fam_copy))


def add_collage(corpus: Corpus, pool: Pool, rng: random.Random) -> None:
    """An essay stitched from runs of three sources (10-25% of it each) around its own text.

    Each source is a long document (three base texts), so the run is a small share of the
    source too: neither direction reaches the partial-copy threshold, as with a student
    taking a few paragraphs from each of three long web articles.
    """
    host = pool.take()
    sources = [_long_document(pool, host.lang) for _ in range(3)]
    own = list(host.paragraphs)
    own_chars = sum(map(len, own))
    runs = []
    for source in sources:
        want = rng.uniform(0.1, 0.25) * own_chars * 1.6  # own text is about 60% at the end
        run, size, start = [], 0, rng.randrange(len(source.paragraphs))
        for p in source.paragraphs[start:] + source.paragraphs[:start]:
            if size >= want:
                break
            run.append(p)
            size += len(p)
        runs.append(run)
    paragraphs = list(own)
    for run in runs:
        at = rng.randint(0, len(paragraphs))
        paragraphs[at:at] = run
    fam_copy = corpus.new_family()
    text = Text(host.title, tuple(paragraphs))
    collage = corpus.add(_entry(host, rng.choice(PLAIN_FORMATS), fam_copy, "collage", text))
    total = sum(map(len, paragraphs))
    for source, run in zip(sources, runs, strict=True):
        fam_source = corpus.new_family()
        original = corpus.add(_entry(source, rng.choice(PLAIN_FORMATS), fam_source, "original"))
        share = round(sum(map(len, run)) / total, 3)
        corpus.pairs.append((original, collage, "collage", {"share_of_copy": share}))
        corpus.links.append((fam_source, fam_copy))


def _long_document(pool: Pool, lang: str) -> BaseDoc:
    parts = [pool.take(lang) for _ in range(3)]
    paragraphs = tuple(p for part in parts for p in part.paragraphs)
    return replace(parts[0], paragraphs=paragraphs)


def derivable(corpus: Corpus) -> list[Entry]:
    """Entries a harder relation may be derived from: originals and standalone documents
    of families with no partial-copy link and no template, so a derived document relates
    to nothing but what its labels say."""
    linked = {f for link in corpus.links for f in link}
    return [
        e
        for e in corpus.entries
        if e.role in ("original", "standalone") and e.family not in linked and e.template is None
    ]


def _vocab(corpus: Corpus, base: Entry, rng: random.Random) -> list[str]:
    """Words of another document of the same language, for substitutions and insertions."""
    others = [e for e in corpus.entries if e.lang == base.lang and e.family != base.family]
    donor = rng.choice(others).text
    return sorted({w for p in donor.paragraphs for w in _words(p, base.lang) if _is_word(w)})


def _derived(base: Entry, role: str, text: Text, rng: random.Random, family: int) -> Entry:
    return Entry(text, rng.choice(PLAIN_FORMATS), family, base.group, base.lang, role)


def add_heavy_edit(corpus: Corpus, base: Entry, rng: random.Random) -> None:
    rate = round(rng.uniform(0.05, 0.15), 3)
    text = edit_text(base.text, rate, base.lang, _vocab(corpus, base, rng), rng)
    edited = corpus.add(_derived(base, "heavy_edit", text, rng, base.family))
    corpus.pairs.append((base, edited, "heavy_edit", {"rate": rate}))


def add_reorder(corpus: Corpus, base: Entry, rng: random.Random) -> None:
    """The same paragraphs in another order; half of the copies also get a few words edited."""
    paragraphs = list(base.text.paragraphs)
    order = list(range(len(paragraphs)))
    while order == sorted(order):
        rng.shuffle(order)
    text = Text(base.text.title, tuple(paragraphs[i] for i in order))
    rate = round(rng.uniform(0.005, 0.02), 3) if rng.random() < 0.5 else 0.0
    if rate:
        text = edit_text(text, rate, base.lang, _vocab(corpus, base, rng), rng)
    copy = corpus.add(_derived(base, "reorder", text, rng, base.family))
    corpus.pairs.append((base, copy, "reorder", {"paragraphs": len(paragraphs), "rate": rate}))


def add_small_partial(corpus: Corpus, source: Entry, host: Entry, rng: random.Random) -> None:
    """The host's text with a run of the source's text that makes up 10-30% of the copy.

    The copy is a family of its own linked to both: it holds the source's run and the
    host's whole text, while source and host stay unrelated.
    """
    share = rng.uniform(0.1, 0.3)
    host_chars = sum(map(len, host.text.paragraphs))
    want = share / (1 - share) * host_chars
    src = source.text.paragraphs
    start = rng.randrange(len(src))
    run: list[str] = []
    size = 0
    for p in src[start:] + src[:start]:
        if size >= want:
            break
        run.append(_cut(p, want - size, source.lang))
        size += len(run[-1])
    paragraphs = list(host.text.paragraphs)
    at = rng.randint(0, len(paragraphs))
    paragraphs[at:at] = run
    family = corpus.new_family()
    copy = corpus.add(
        _derived(host, "small_partial", Text(host.text.title, tuple(paragraphs)), rng, family)
    )
    detail = {"share_of_copy": round(size / (host_chars + size), 3)}
    corpus.pairs.append((source, copy, "small_partial", detail))
    corpus.links += [(source.family, family), (host.family, family)]


def _cut(paragraph: str, chars: float, lang: str) -> str:
    """The paragraph, or its first words up to about `chars` characters."""
    if len(paragraph) <= chars:
        return paragraph
    words = _words(paragraph, lang)
    kept, size = [], 0
    for w in words:
        if size >= chars:
            break
        kept.append(w)
        size += len(w) + (lang != "zh")
    return _join(kept, lang)


def add_harder(corpus: Corpus, scale: int, rng: random.Random) -> None:
    """Heavy edits, reordered copies and small partial copies of existing documents."""
    corpus.first_derived = len(corpus.entries)
    bases = derivable(corpus)
    rng.shuffle(bases)
    for _ in range(HARDER["heavy_edit"] * scale):
        add_heavy_edit(corpus, _take(bases, lambda b: True), rng)
    for _ in range(HARDER["reorder"] * scale):
        add_reorder(corpus, _take(bases, lambda b: len(b.text.paragraphs) >= 3), rng)
    for _ in range(HARDER["small_partial"] * scale):
        source = _take(bases, lambda b: True)
        host = _take(bases, lambda b, lang=source.lang: b.lang == lang)
        add_small_partial(corpus, source, host, rng)


def add_printed(corpus: Corpus, scale: int, sites: dict, rng: random.Random) -> None:
    """Printed sites (two or three pages of other documents each, in the site's chrome)
    and printed essays sharing a first or last paragraph (`derivable` documents: a printed
    page is of its base's family)."""
    bases = derivable(corpus)
    rng.shuffle(bases)
    for lang in ("en", "zh"):
        titles = [e.text.title for e in _first_entries(corpus) if e.lang == lang]
        for site in rng.sample(sites[lang], PRINTED_SITES * scale):
            printed = make_printed_site(rng, site, lang, titles)
            for _ in range(rng.randint(2, 3)):
                base = _take(bases, lambda b, lang=lang: b.lang == lang)
                page = corpus.add(replace(_printed(base, base.family), printed=printed))
                corpus.pairs.append((base, page, "printed", {}))
        for _ in range(EDGE_COPIES * scale):
            add_edge_copy(corpus, bases, lang, rng)


def _printed(base: Entry, family: int, text: Text | None = None) -> Entry:
    return Entry(text or base.text, "printed", family, base.group, base.lang, "printed")


def add_edge_copy(corpus: Corpus, bases: list[Entry], lang: str, rng: random.Random) -> None:
    """A printed essay and a printed copy of another essay whose first or last paragraph
    is the first's: a family of its own linked to both, as small partial copies are."""
    at = rng.choice((0, -1))

    def fits(b: Entry) -> bool:
        paragraphs = b.text.paragraphs
        long_enough = len(paragraphs) >= 3 and len(paragraphs[at]) >= EDGE_MIN_CHARS[lang]
        return b.lang == lang and long_enough

    source_base = _take(bases, fits)
    host = _take(bases, fits)
    source = corpus.add(_printed(source_base, source_base.family))
    corpus.pairs.append((source_base, source, "printed", {}))
    paragraphs = list(host.text.paragraphs)
    paragraphs[at] = source.text.paragraphs[at]
    family = corpus.new_family()
    copy = corpus.add(_printed(host, family, Text(host.text.title, tuple(paragraphs))))
    corpus.pairs.append((source, copy, "edge_copy", {"where": "first" if at == 0 else "last"}))
    corpus.links += [(source.family, family), (host.family, family)]


def _take(bases: list[Entry], fits: Callable[[Entry], bool]) -> Entry:
    """Remove and return the last base that fits."""
    for i in range(len(bases) - 1, -1, -1):
        if fits(bases[i]):
            return bases.pop(i)
    raise RuntimeError("not enough documents to derive the harder relations from")


def add_template_group(corpus: Corpus, pool: Pool, rng: random.Random, number: int) -> None:
    """Essays sharing an assignment title and prompt (2 paragraphs), otherwise different."""
    prompt = pool.take()
    title = prompt.title
    corpus.prompts.append(Text(title, prompt.paragraphs[:2]))
    for _ in range(TEMPLATE_MEMBERS):
        body = pool.take(prompt.lang)
        text = Text(title, prompt.paragraphs[:2] + body.paragraphs)
        entry = _entry(body, rng.choice(PLAIN_FORMATS), corpus.new_family(), "template", text)
        entry.template = number
        corpus.add(entry)


def add_standalone(corpus: Corpus, pool: Pool, rng: random.Random) -> None:
    doc = pool.take()
    corpus.add(_entry(doc, rng.choice(PLAIN_FORMATS), corpus.new_family(), "standalone"))


def make_sites(rng: random.Random) -> dict[str, list[Site]]:
    """Six web sites per language, with chrome from real UI strings."""
    return {
        lang: [make_site(rng, short_labels(lang), 10 * j + i) for i in range(6)]
        for j, lang in enumerate(("en", "zh"))
    }


def build(seed: int, scale: int, pdf: bool, printed: bool = False) -> Corpus:
    """All entries and labels of a corpus (nothing written yet)."""
    rng = random.Random(seed)
    pool = Pool(base_documents(), rng)
    sites = make_sites(rng)
    corpus = Corpus()
    formats = (*PLAIN_FORMATS, "pdf") if pdf else PLAIN_FORMATS
    makers: dict[str, Callable[[], None]] = {
        "exact": lambda: add_exact(corpus, pool, rng),
        "format": lambda: add_format(corpus, pool, rng, formats),
        "repost": lambda: add_repost(corpus, pool, rng, sites),
        "edit": lambda: add_edit(corpus, pool, rng),
        "partial": lambda: add_partial(corpus, pool, rng),
        "standalone": lambda: add_standalone(corpus, pool, rng),
    }
    for kind, count in PLAN.items():
        if kind != "standalone":
            for _ in range(count * scale):
                makers[kind]()
    for number in range(TEMPLATE_GROUPS * scale):
        add_template_group(corpus, pool, rng, number)
    for _ in range(COLLAGES * scale):
        if pool.left() < 40:  # keep text for the standalone documents
            break
        add_collage(corpus, pool, rng)
    for _ in range(min(PLAN["standalone"] * scale, pool.left())):  # as far as text lasts
        makers["standalone"]()
    add_harder(corpus, scale, random.Random(seed * 31 + 15))
    if printed:
        add_printed(corpus, scale, sites, random.Random(seed * 37 + 21))
    return corpus


def _first_entries(corpus: Corpus) -> list[Entry]:
    """The entries made before the derived ones (their pages stay as they were)."""
    return corpus.entries[: corpus.first_derived]


def _related_titles(corpus: Corpus, entry: Entry, rng: random.Random) -> list[str]:
    same_lang = [
        e.text.title for e in _first_entries(corpus) if e.lang == entry.lang and e is not entry
    ]
    return rng.sample(same_lang, 5)


def write(corpus: Corpus, out: Path, seed: int) -> None:
    """Write every entry under out/docs with shuffled names, then labels.json."""
    docs_dir = out / "docs"
    docs_dir.mkdir(parents=True)
    # names of the first entries as before the derived ones existed; those come after
    first = len(_first_entries(corpus))
    order, derived = list(range(first)), list(range(first, len(corpus.entries)))
    random.Random(seed + 1).shuffle(order)
    random.Random(seed + 2).shuffle(derived)
    order += derived
    for number, index in enumerate(order):
        entry = corpus.entries[index]
        ext = {"chrome": "html", "copy": None, "printed": "pdf"}.get(entry.fmt, entry.fmt)
        entry.name = f"d{number:05d}.{ext or 'tmp'}"
    pending_pdf: list[Path] = []
    for index, entry in enumerate(corpus.entries):
        if entry.fmt != "copy":
            _write_entry(corpus, entry, docs_dir, random.Random(seed * 100003 + index), pending_pdf)
    if pending_pdf:
        docx_to_pdf(pending_pdf, docs_dir)
    pages = [docs_dir / e.name for e in corpus.entries if e.fmt == "printed"]
    for page, entry in zip(pages, [e for e in corpus.entries if e.fmt == "printed"], strict=True):
        write_printed_html(page.with_suffix(".html"), entry.text, entry.printed)
    if pages:
        html_to_pdf([page.with_suffix(".html") for page in pages])
    for entry in corpus.entries:
        if entry.fmt == "copy":
            entry.name = entry.name.replace(".tmp", Path(entry.source.name).suffix)
            shutil.copyfile(docs_dir / entry.source.name, docs_dir / entry.name)
    reference = out / "reference"
    reference.mkdir()
    for number, prompt in enumerate(corpus.prompts):
        write_txt(reference / f"prompt{number:03d}.txt", prompt)
    (out / "labels.json").write_text(json.dumps(labels(corpus, seed), indent=1, ensure_ascii=False))


def _write_entry(corpus: Corpus, entry: Entry, docs_dir: Path, rng, pending_pdf) -> None:
    path = docs_dir / entry.name
    if entry.fmt == "txt":
        write_txt(path, entry.text)
    elif entry.fmt == "html":
        write_html(path, entry.text)
    elif entry.fmt == "chrome":
        related = _related_titles(corpus, entry, rng)
        write_chrome_html(path, entry.text, entry.site, related, rng, entry.lang)
    elif entry.fmt == "docx":
        write_docx(path, entry.text)
    elif entry.fmt == "pdf":
        docx_path = path.with_suffix(".docx")
        write_docx(docx_path, entry.text)
        pending_pdf.append(docx_path)


def labels(corpus: Corpus, seed: int) -> dict:
    """The JSON labels: documents (with family/group/template), positive pairs, links."""
    return {
        "seed": seed,
        "documents": [
            {
                "file": "docs/" + e.name,
                "family": e.family,
                "group": e.group,
                "lang": e.lang,
                "role": e.role,
                "template": e.template,
                "site": e.printed.name if e.printed is not None else None,
            }
            for e in corpus.entries
        ],
        "pairs": [
            {"a": "docs/" + a.name, "b": "docs/" + b.name, "kind": kind, **detail}
            for a, b, kind, detail in corpus.pairs
        ],
        "partial_links": [list(link) for link in corpus.links],
        "reference": [f"reference/prompt{i:03d}.txt" for i in range(len(corpus.prompts))],
        "printed": any(e.fmt == "printed" for e in corpus.entries),
    }


def generate(out: Path, size: str, seed: int, pdf: bool, printed: bool = False) -> Path:
    """Build and write a corpus; returns `out`. An existing `out` is replaced."""
    if out.exists():
        shutil.rmtree(out)
    corpus = build(seed, SIZES[size], pdf, printed)
    write(corpus, out, seed)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="small")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--no-pdf", dest="pdf", action="store_false", help="no PDF variants (no LibreOffice)"
    )
    parser.add_argument(
        "--no-printed", dest="printed", action="store_false", help="no printed pages (Chromium)"
    )
    args = parser.parse_args(argv)
    if args.pdf and soffice() is None:
        print("LibreOffice (soffice) not found: no PDF variants", file=sys.stderr)
        args.pdf = False
    if args.printed and browser() is None:
        print("Chromium not found: no printed pages", file=sys.stderr)
        args.printed = False
    out = args.out or Path(f"/tmp/simsift-quality/{args.size}")
    started = time.monotonic()
    generate(out, args.size, args.seed, args.pdf, args.printed)
    n = len(list((out / "docs").iterdir()))
    print(f"{n} documents in {out} ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
