"""Copying of meaning: translated and paraphrased passages planted in essays of other text,
scored with the engine of `simsift.core.match.meaning`.

    python -m bench.quality.meaning build --out /tmp/simsift-meaning/corpus
    python -m bench.quality.meaning score --corpus /tmp/simsift-meaning/corpus [--tier T] [--across]
    python -m bench.quality.meaning sample --n 30        # aligned paragraphs, to read

Two tiers, each a collection of documents (paragraphs of real man pages) and cases:

- translation: Debian's human Chinese translations of man pages (manpages-zh) aligned
  paragraph by paragraph with their English originals (meaning_corpus.align). A case
  plants the translation of a passage of a source page (>= 50 English words or >= 80 CJK
  characters on the source's side) as paragraphs of an essay in the other language (the
  body of an unrelated page of that language, same man section when there is one), both
  directions. The source document is the page (up to 30 paragraphs around the passage).
- paraphrase: a passage of 60-120 words of an English man page, obfuscated PAN-style
  (WordNet synonyms, clause swaps, insertions, deletions, sentence splits and merges) until
  a share of its words (0.2, 0.35, 0.5; 0.0 as a control) is changed, planted as a
  paragraph of an essay made of another page.

Hard negatives, in both: a pair of pages of the same man section, chosen among the unused
ones for the most shared vocabulary, that are not translations or copies of each other.
Every page is used once per tier, so two documents are related only by a case.

Ground truth: char spans of the planted passage in the essay and of its source passage in
the source, in the display text "\\n\\n".join(paragraphs), and the longest run of words the
two share (15 or more: verbatim-findable already).

Scoring runs `find_meaning_copies` over each tier's whole collection (candidate
generation included): recall = planted passages >= 50% of whose characters are covered by
fragments pairing the essay with its source; precision = reported fragments overlapping a
planted passage (essay with its source) / all reported fragments.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from bench.quality import meaning_corpus as mc

HERE = Path(__file__).resolve().parent

SEED = 41
DEFAULT_OUT = Path("/tmp/simsift-meaning/corpus")
TIERS = ("translation", "paraphrase")
SOURCE_WINDOW = 30  # paragraphs of a source page kept around the passage
ESSAY_PARAGRAPHS = (4, 12)
MIN_EN_WORDS, MIN_ZH_CHARS = 50, 80  # a translated passage, on the source's side
PARAPHRASE_WORDS = (60, 120)
STRENGTHS = (0.0, 0.2, 0.35, 0.5)
PER_STRENGTH = {0.0: 20, 0.2: 60, 0.35: 60, 0.5: 60}
TRANSLATION_NEGATIVES = 80
PARAPHRASE_NEGATIVES = 80
VERBATIM_RUN = 15
RUN_BUCKETS = ((0, 7, "< 8"), (8, 14, "8-14"), (15, 10**9, ">= 15"))


# ---------------------------------------------------------------- corpus model


@dataclass
class Doc:
    name: str
    lang: str
    paragraphs: list[str]


@dataclass
class Case:
    id: str
    kind: str  # "positive" or "negative"
    essay: str  # document names; for a negative, the two documents
    source: str
    direction: str = ""  # "en->zh", "zh->en" (source -> essay) or "en->en"
    strength: float | None = None  # paraphrase: share of words changed (target)
    changed: float | None = None  # measured: 1 - matched words / source words
    essay_span: tuple[int, int] | None = None
    source_span: tuple[int, int] | None = None
    shared_run: int = 0  # longest run of words the planted passage shares with its source
    pages: tuple[str, ...] = field(default_factory=tuple)


def display(paragraphs: Sequence[str]) -> str:
    return "\n\n".join(paragraphs)


def span_of(paragraphs: Sequence[str], first: int, last: int) -> tuple[int, int]:
    """Char span of paragraphs first..last (inclusive) in the display text."""
    start = sum(len(p) + 2 for p in paragraphs[:first])
    end = start + len(display(paragraphs[first : last + 1]))
    return start, end


def plant(
    host: Sequence[str], planted: Sequence[str], rng: random.Random
) -> tuple[list[str], tuple[int, int]]:
    """The host's paragraphs with `planted` inserted between two of them (never first or
    last, so the passage has the writer's own text around it), and its span."""
    at = rng.randint(1, len(host) - 1)
    paragraphs = [*host[:at], *planted, *host[at:]]
    return paragraphs, span_of(paragraphs, at, at + len(planted) - 1)


def words_of(text: str) -> list[str]:
    """Lower-case words (Latin) and single CJK characters, the unit of shared runs."""
    return re.findall(r"[a-z0-9_]+(?:['\-][a-z0-9_]+)*|[\u3400-\u9fff]", text.lower())


def longest_shared_run(a: str, b: str) -> int:
    wa, wb = words_of(a), words_of(b)
    match = SequenceMatcher(None, wa, wb, autojunk=False).find_longest_match(0, len(wa), 0, len(wb))
    return match.size


def window(paragraphs: Sequence[str], first: int, last: int) -> tuple[list[str], int]:
    """Up to SOURCE_WINDOW paragraphs around first..last; returns them and the new index of
    `first`."""
    extra = max(0, SOURCE_WINDOW - (last - first + 1))
    lo = max(0, first - extra // 2)
    hi = min(len(paragraphs), lo + max(SOURCE_WINDOW, last - first + 1))
    lo = max(0, min(lo, hi - SOURCE_WINDOW))
    return list(paragraphs[lo:hi]), first - lo


def text_size(paragraphs: Sequence[str], lang: str) -> int:
    """English words or CJK characters."""
    return sum(mc.cjk_chars(p) if lang == "zh" else mc.en_words(p) for p in paragraphs)


def can_host(page: Page) -> bool:
    """Enough paragraphs and text for an essay around a planted passage."""
    low = 250 if page.lang == "zh" else 150
    enough = text_size(page.paragraphs, page.lang) >= low
    return len(page.paragraphs) >= ESSAY_PARAGRAPHS[0] and enough


def essay_body(paragraphs: Sequence[str], lang: str, rng: random.Random) -> list[str] | None:
    """4-12 consecutive paragraphs of a host page with some substance (>= 150 words or
    250 CJK characters), or None."""
    low = 250 if lang == "zh" else 150
    if len(paragraphs) < ESSAY_PARAGRAPHS[0] or text_size(paragraphs, lang) < low:
        return None
    n = min(len(paragraphs), ESSAY_PARAGRAPHS[1])
    start = rng.randint(0, len(paragraphs) - n)
    chosen = list(paragraphs[start : start + n])
    return chosen if text_size(chosen, lang) >= low else list(paragraphs[:n])


# ---------------------------------------------------------------- pages


@dataclass
class Page:
    name: str  # "cp.1"
    section: str
    lang: str
    paragraphs: list[str]

    @property
    def vocabulary(self) -> set[str]:
        return set(mc.anchors(display(self.paragraphs))) | set(
            re.findall(r"[\u3400-\u9fff]{2}", display(self.paragraphs))
        )


def load_page(name: str, section: str, lang: str, path: Path) -> Page:
    return Page(f"{name}.{section}", section, lang, [p.text for p in mc.body(path)])


def english_only_pages(exclude: set[tuple[str, str]], per_section: int, seed: int) -> list[Page]:
    """English pages without a Chinese translation, `per_section` of each section taken in
    a seeded order (rendered on demand), with some text."""
    by_section = defaultdict(list)
    for name, section, path in mc.english_pages():
        if (name, section) not in exclude and section in ("1", "5", "7", "8", "2", "3"):
            by_section[section].append((name, section, path))
    chosen = []
    for section in sorted(by_section):
        items = by_section[section]
        random.Random(f"{seed}-{section}").shuffle(items)
        chosen.extend(items[: per_section * 2])
    mc.render_all([p for _, _, p in chosen])
    pages, taken = [], Counter()
    for name, section, path in chosen:
        page = load_page(name, section, "en", path)
        if taken[section] < per_section and len(page.paragraphs) >= ESSAY_PARAGRAPHS[0]:
            pages.append(page)
            taken[section] += 1
    return pages


def hard_negatives(
    left: list[Page], right: list[Page], count: int, rng: random.Random, max_run: int | None
) -> list[tuple[Page, Page]]:
    """Up to `count` pairs (one page of `left`, one of `right`) of the same section, the
    right page chosen for the most shared vocabulary (Latin tokens, CJK bigrams); with
    `max_run`, pairs sharing a run of that many words are not negatives and are skipped.
    Pages used are removed from both lists."""
    out = []
    order = list(left)
    rng.shuffle(order)
    for page in order:
        if len(out) >= count:
            break
        same = [p for p in right if p.section == page.section and p.name != page.name]
        if not same:
            continue
        vocabulary = page.vocabulary
        same.sort(key=lambda p: (-len(vocabulary & p.vocabulary), p.name))
        for other in same[:5]:
            if (
                max_run is None
                or longest_shared_run(display(page.paragraphs), display(other.paragraphs)) < max_run
            ):
                out.append((page, other))
                left.remove(page)
                right.remove(other)
                break
    return out


# ---------------------------------------------------------------- translation tier


@dataclass
class AlignedPage:
    name: str
    section: str
    en: list[str]
    zh: list[str]
    pairs: list[mc.AlignedPair]


def aligned_pages() -> list[AlignedPage]:
    pairs = mc.translation_pairs()
    mc.render_all([p for *_, e, z in pairs for p in (e, z)])
    out = []
    for name, section, en_path, zh_path in pairs:
        en = [p.text for p in mc.body(en_path)]
        zh = [p.text for p in mc.body(zh_path)]
        if en and zh:
            out.append(AlignedPage(name, section, en, zh, mc.align(en, zh)))
    return out


def passage_runs(page: AlignedPage, source_lang: str) -> list[list[mc.AlignedPair]]:
    """Runs of consecutive aligned pairs (next paragraph on both sides) long enough on the
    source's side, each as short as the threshold allows (at most 8 paragraphs)."""
    size = (
        (lambda p: mc.en_words(page.en[p.en]))
        if source_lang == "en"
        else (lambda p: mc.cjk_chars(page.zh[p.zh]))
    )
    need = MIN_EN_WORDS if source_lang == "en" else MIN_ZH_CHARS
    runs = []
    for start in range(len(page.pairs)):
        run, total = [page.pairs[start]], size(page.pairs[start])
        k = start
        while total < need and k + 1 < len(page.pairs) and len(run) < 8:
            a, b = page.pairs[k], page.pairs[k + 1]
            if (b.en, b.zh) != (a.en + 1, a.zh + 1):
                break
            k += 1
            run.append(b)
            total += size(b)
        if total >= need:
            runs.append(run)
    return runs


def translation_case(
    page: AlignedPage, source_lang: str, host: Page, rng: random.Random, number: int
) -> tuple[Case, Doc, Doc] | None:
    runs = passage_runs(page, source_lang)
    essay_lang = "zh" if source_lang == "en" else "en"
    host_text = essay_body(host.paragraphs, essay_lang, rng)
    if not runs or host_text is None:
        return None
    run = rng.choice(runs)
    source_all = page.en if source_lang == "en" else page.zh
    essay_side = page.zh if source_lang == "en" else page.en
    first, last = _side(run[0], source_lang), _side(run[-1], source_lang)
    source_paragraphs, at = window(source_all, first, last)
    planted = [essay_side[_side(p, essay_lang)] for p in run]
    essay_paragraphs, essay_span = plant(host_text, planted, rng)
    source_span = span_of(source_paragraphs, at, at + len(run) - 1)
    direction = f"{source_lang}->{essay_lang}"
    cid = f"t{number:03d}"
    case = Case(
        id=cid,
        kind="positive",
        essay=f"{cid}-essay-{host.name}",
        source=f"{cid}-source-{page.name}.{source_lang}",
        direction=direction,
        essay_span=essay_span,
        source_span=source_span,
        shared_run=longest_shared_run(display(planted), display(source_all[first : last + 1])),
        pages=(f"{page.name}.{page.section}", host.name),
    )
    return (
        case,
        Doc(case.essay, essay_lang, essay_paragraphs),
        Doc(case.source, source_lang, source_paragraphs),
    )


def _side(pair: mc.AlignedPair, lang: str) -> int:
    return pair.en if lang == "en" else pair.zh


def build_translation(seed: int) -> tuple[list[Doc], list[Case]]:
    rng = random.Random(seed)
    pages = aligned_pages()
    translated = {(p.name, p.section) for p in pages}
    chinese_hosts = [
        h
        for h in (load_page(*k, "zh", path) for *k, path in _rendered(mc.chinese_only()))
        if can_host(h)
    ]
    english_hosts = [
        h
        for h in english_only_pages(translated | _zh_names(), per_section=70, seed=seed)
        if can_host(h)
    ]
    rng.shuffle(pages)
    docs, cases = [], []
    made_by = Counter()
    for page in pages:
        # the direction with fewer cases so far, among those the page has a passage for
        possible = [lang for lang in ("en", "zh") if passage_runs(page, lang)]
        if not possible:
            continue
        source_lang = min(possible, key=lambda lang: (made_by[lang], lang))
        hosts = chinese_hosts if source_lang == "en" else english_hosts
        host = _host_for(page.section, hosts)
        if host is None:
            continue
        made = translation_case(page, source_lang, host, rng, len(cases))
        if made is None:
            continue
        hosts.remove(host)
        made_by[source_lang] += 1
        case, essay, source = made
        cases.append(case)
        docs += [essay, source]
    for a, b in hard_negatives(english_hosts, chinese_hosts, TRANSLATION_NEGATIVES, rng, None):
        cases.append(_negative_case(f"t{len(cases):03d}", a, b, docs))
    return docs, cases


def _rendered(items):
    items = list(items)
    mc.render_all([path for *_, path in items])
    return items


def _zh_names() -> set[tuple[str, str]]:
    """Pages with a Chinese translation in either folder (their English text is not
    unrelated to every Chinese page)."""
    return {k for folder in mc.ZH_DIRS for k in mc.pages_in(mc.MAN / folder)}


def _host_for(section: str, hosts: list[Page]) -> Page | None:
    """A host page of the same man section, else any (hosts are in a seeded order)."""
    return next((h for h in hosts if h.section == section), hosts[0] if hosts else None)


def _negative_case(cid: str, a: Page, b: Page, docs: list[Doc]) -> Case:
    rng = random.Random(cid)
    names = []
    for page in (a, b):
        body = essay_body(page.paragraphs, page.lang, rng) or page.paragraphs
        names.append(f"{cid}-negative-{page.name}.{page.lang}")
        docs.append(Doc(names[-1], page.lang, list(body[:SOURCE_WINDOW])))
    return Case(
        id=cid,
        kind="negative",
        essay=names[0],
        source=names[1],
        direction=f"{a.lang}/{b.lang}",
        shared_run=longest_shared_run(display(a.paragraphs), display(b.paragraphs)),
        pages=(a.name, b.name),
    )


# ---------------------------------------------------------------- paraphrase tier

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")
_STOP = frozenset(
    ("a", "an", "the", "and", "or", "but", "if", "then", "else", "of", "to", "in", "on", "at",
     "by", "for", "with", "from", "as", "is", "are", "was", "were", "be", "been", "being",
     "it", "its", "this", "that", "these", "those", "which", "who", "whom", "whose", "what",
     "when", "where", "how", "not", "no", "can", "may", "must", "should", "will", "would",
     "shall", "could", "do", "does", "did", "has", "have", "had", "there", "their", "they",
     "them", "he", "she", "his", "her", "we", "you", "your", "our", "i", "me", "my", "so",
     "than", "also", "only", "such", "any", "all", "each")
)  # fmt: skip
FILLERS = (
    "also", "usually", "in practice", "in general", "typically", "simply", "actually",
    "then", "of course", "normally", "basically", "in this case", "as a rule", "indeed",
)  # fmt: skip
_CONNECT = ("and", "while", "whereas", "so")


def is_prose(text: str) -> bool:
    """A paragraph of sentences: ends like a sentence, 15 words or more, mostly words."""
    tokens = text.split()
    words = [t for t in tokens if re.fullmatch(r"[A-Za-z][a-z']*[,.;:]?", t)]
    return len(tokens) >= 15 and text.rstrip().endswith(".") and len(words) >= 0.75 * len(tokens)


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text) if s]


def prose_passage(
    paragraphs: Sequence[str], rng: random.Random
) -> tuple[int, int, int, int, str] | None:
    """A passage of whole sentences, 60-120 words, from one prose paragraph or consecutive
    ones: (first paragraph, char offset in it, last paragraph, end offset in it, text)."""
    starts = [i for i, p in enumerate(paragraphs) if is_prose(p)]
    rng.shuffle(starts)
    for first in starts:
        picked: list[tuple[int, int, int]] = []  # (paragraph, start, end)
        words = 0
        k = first
        offset = 0
        parts = sentences(paragraphs[k])
        skip = rng.randrange(max(1, len(parts) - 2))  # start anywhere but the last two
        for s in parts[:skip]:
            offset = paragraphs[k].index(s, offset) + len(s)
        while words < PARAPHRASE_WORDS[0]:
            if not parts[skip:]:
                k += 1
                if k >= len(paragraphs) or not is_prose(paragraphs[k]):
                    break
                parts, skip, offset = sentences(paragraphs[k]), 0, 0
                continue
            s = parts[skip]
            skip += 1
            at = paragraphs[k].index(s, offset)
            offset = at + len(s)
            picked.append((k, at, offset))
            words += len(s.split())
        if PARAPHRASE_WORDS[0] <= words <= PARAPHRASE_WORDS[1]:
            text = " ".join(paragraphs[p][s:e] for p, s, e in picked)
            return picked[0][0], picked[0][1], picked[-1][0], picked[-1][2], text
    return None


class Obfuscator:
    """PAN-style obfuscation of English text: random operations until a share of the words
    is changed (measured with difflib over the words, as PAN's obfuscation degree)."""

    OPERATIONS = (("synonym", 6), ("insert", 1), ("delete", 1), ("swap", 1), ("split", 1))

    def __init__(self, thesaurus: mc.Thesaurus) -> None:
        self.thesaurus = thesaurus

    def obfuscate(self, text: str, strength: float, rng: random.Random) -> tuple[str, float]:
        current = text
        if strength <= 0:
            return current, 0.0
        for _ in range(400):
            if changed_share(text, current) >= strength:
                break
            op = rng.choices([o for o, _ in self.OPERATIONS], [w for _, w in self.OPERATIONS])[0]
            current = getattr(self, op)(current, rng) or current
        return current, changed_share(text, current)

    def synonym(self, text: str, rng: random.Random) -> str | None:
        """One word replaced by a WordNet synonym of its usual sense, inflection kept."""
        tokens = text.split(" ")
        places = list(range(len(tokens)))
        rng.shuffle(places)
        for i in places:
            m = re.fullmatch(r"([(\"']?)([A-Za-z]+)([,.;:)\"']*)", tokens[i])
            if not m or m[2].lower() in _STOP or len(m[2]) < 3 or m[2].isupper():
                continue
            prev = tokens[i - 1].lower() if i else ""
            replacement = self._substitute(m[2], prev, rng)
            if replacement:
                tokens[i] = m[1] + replacement + m[3]
                return " ".join(tokens)
        return None

    def _substitute(self, word: str, prev: str, rng: random.Random) -> str | None:
        lower = word.lower()
        pos = "n" if prev in ("the", "a", "an", "each", "every", "this", "its") else None
        pos = "v" if prev in ("to", "will", "can", "may", "must", "should") else pos
        for base, suffix in _bases(lower):
            options = self.thesaurus.of(base, pos)
            if options:
                new = _inflect(rng.choice(options), suffix)
                return new.capitalize() if word[0].isupper() else new
        return None

    def insert(self, text: str, rng: random.Random) -> str:
        """A filler word or phrase between two words (PAN's random insertion of words)."""
        tokens = text.split(" ")
        at = rng.randrange(1, len(tokens))
        return " ".join([*tokens[:at], rng.choice(FILLERS), *tokens[at:]])

    def delete(self, text: str, rng: random.Random) -> str | None:
        """A word of little weight removed: an adjective or adverb (WordNet's usual part of
        speech) or an article."""
        tokens = text.split(" ")
        light = lambda t: t in ("the", "a", "an") or self.thesaurus.pos.get(t) in ("a", "r")  # noqa: E731
        places = [i for i, t in enumerate(tokens) if t.isalpha() and light(t.lower())]
        if not places:
            return None
        del tokens[rng.choice(places)]
        return " ".join(tokens)

    def swap(self, text: str, rng: random.Random) -> str | None:
        """Two clauses of a sentence (around a comma or semicolon) in the other order."""
        parts = sentences(text)
        choices = [i for i, s in enumerate(parts) if re.search(r"\w[,;] \w", s)]
        if not choices:
            return None
        i = rng.choice(choices)
        s = parts[i].rstrip(".")
        cuts = [m.start() for m in re.finditer(r"[,;] ", s)]
        cut = rng.choice(cuts)
        left, right = s[:cut], s[cut + 2 :]
        parts[i] = _capital(right) + ", " + _lower_first(left) + "."
        return " ".join(parts)

    def split(self, text: str, rng: random.Random) -> str | None:
        """A sentence cut in two at ", and" / "; " / ", which", or two sentences merged."""
        parts = sentences(text)
        if rng.random() < 0.5 and len(parts) >= 2:
            i = rng.randrange(len(parts) - 1)
            merged = parts[i].rstrip(".") + ", " + rng.choice(_CONNECT) + " "
            parts[i : i + 2] = [merged + _lower_first(parts[i + 1])]
            return " ".join(parts)
        choices = [
            (i, m) for i, s in enumerate(parts) for m in re.finditer(r"(, and|;|, which) ", s)
        ]
        if not choices:
            return None
        i, m = rng.choice(choices)
        s = parts[i]
        rest = s[m.end() :]
        rest = "This " + rest if m[1] == ", which" else _capital(rest)
        parts[i] = s[: m.start()] + ". " + rest
        return " ".join(parts)


def _bases(word: str) -> list[tuple[str, str]]:
    """(base form, suffix) readings of an English word, the word itself first."""
    out = [(word, "")]
    for suffix, cut, add in (
        ("ies", 3, "y"), ("es", 2, ""), ("s", 1, ""), ("ed", 2, ""), ("ed", 1, ""),
        ("ing", 3, ""), ("ing", 3, "e"),
    ):  # fmt: skip
        if word.endswith(suffix) and len(word) - cut >= 3:
            out.append((word[:-cut] + add, suffix if suffix != "ies" else "s"))
    return out


def _inflect(base: str, suffix: str) -> str:
    if suffix == "s":
        if base.endswith("y") and base[-2:-1] not in "aeiou":
            return base[:-1] + "ies"
        return base + ("es" if base.endswith(("s", "x", "ch", "sh")) else "s")
    if suffix == "es":
        return base + "es"
    if suffix == "ed":
        return base + ("d" if base.endswith("e") else "ed")
    if suffix == "ing":
        return (base[:-1] if base.endswith("e") else base) + "ing"
    return base


def _capital(s: str) -> str:
    return s[:1].upper() + s[1:]


def _lower_first(s: str) -> str:
    """First letter in lower case unless the first word is a name or code (has capitals
    inside, or is all capitals)."""
    first = s.split(" ", 1)[0]
    if first[1:].lower() != first[1:] or not first[:1].isalpha():
        return s
    return s[:1].lower() + s[1:]


def changed_share(original: str, new: str) -> float:
    """1 - words matched in order / words of the original (difflib over lower-case words)."""
    a, b = words_of(original), words_of(new)
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return 1 - sum(block.size for block in matcher.get_matching_blocks()) / max(1, len(a))


def english_pool(seed: int, per_section: int) -> list[Page]:
    """English pages (sections 1, 5, 7, 8) with a prose paragraph; a paragraph found on two
    pages (licences, shared notes) is left out of both, so pages share text only by a case."""
    pages = [p for p in english_only_pages(set(), per_section, seed) if p.section in "1578"]
    counts = Counter(p for page in pages for p in set(page.paragraphs))
    for page in pages:
        page.paragraphs = [p for p in page.paragraphs if counts[p] == 1]
    return [p for p in pages if any(is_prose(x) for x in p.paragraphs)]


def build_paraphrase(seed: int) -> tuple[list[Doc], list[Case]]:
    rng = random.Random(seed + 1)
    pages = english_pool(seed, per_section=150)
    rng.shuffle(pages)
    obfuscator = Obfuscator(mc.thesaurus())
    plan = [s for s in STRENGTHS for _ in range(PER_STRENGTH[s])]
    rng.shuffle(plan)
    docs, cases = [], []
    for strength in plan:
        made = None
        while made is None and len(pages) >= 2:
            source = pages.pop()
            passage = prose_passage(source.paragraphs, rng)
            if passage is None:
                continue
            host = _host_for(source.section, [p for p in pages if can_host(p)])
            if host is None:
                break
            made = paraphrase_case(source, passage, host, strength, obfuscator, rng, len(cases))
            if made is not None:
                pages.remove(host)
        if made is None:
            break
        case, essay, src = made
        cases.append(case)
        docs += [essay, src]
    for a, b in hard_negatives(pages, list(pages), PARAPHRASE_NEGATIVES, rng, VERBATIM_RUN):
        cases.append(_negative_case(f"p{len(cases):03d}", a, b, docs))
    return docs, cases


def paraphrase_case(source, passage, host, strength, obfuscator, rng, number):
    first, start, last, end, text = passage
    host_text = essay_body(host.paragraphs, "en", rng)
    if host_text is None:
        return None
    new, changed = obfuscator.obfuscate(text, strength, rng)
    if changed < strength:
        return None
    paragraphs, at = window(source.paragraphs, first, last)
    base = span_of(paragraphs, at, at)[0]
    source_span = (base + start, span_of(paragraphs, at + last - first, at + last - first)[0] + end)
    essay_paragraphs, essay_span = plant(host_text, [new], rng)
    cid = f"p{number:03d}"
    case = Case(
        id=cid,
        kind="positive",
        essay=f"{cid}-essay-{host.name}",
        source=f"{cid}-source-{source.name}",
        direction="en->en",
        strength=strength,
        changed=round(changed, 3),
        essay_span=essay_span,
        source_span=source_span,
        shared_run=longest_shared_run(new, text),
        pages=(source.name, host.name),
    )
    assert display(paragraphs)[source_span[0] : source_span[1]].startswith(text[:20])
    return case, Doc(case.essay, "en", essay_paragraphs), Doc(case.source, "en", paragraphs)


# ---------------------------------------------------------------- build


def build(out: Path, seed: int) -> None:
    for tier, builder in (("translation", build_translation), ("paraphrase", build_paraphrase)):
        start = time.perf_counter()
        docs, cases = builder(seed)
        folder = out / tier
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "docs.json").write_text(
            json.dumps([asdict(d) for d in docs], ensure_ascii=False, indent=0), encoding="utf-8"
        )
        (folder / "cases.json").write_text(
            json.dumps({"seed": seed, "cases": [asdict(c) for c in cases]}, indent=1),
            encoding="utf-8",
        )
        kinds = Counter((c.kind, c.direction, c.strength) for c in cases)
        print(f"{tier}: {len(docs)} documents, {len(cases)} cases in "
              f"{time.perf_counter() - start:.0f} s -> {folder}")  # fmt: skip
        for key, n in sorted(kinds.items(), key=str):
            print(f"  {key}: {n}")


def load(corpus: Path, tier: str) -> tuple[list[Doc], list[Case]]:
    docs = [Doc(**d) for d in json.loads((corpus / tier / "docs.json").read_text("utf-8"))]
    raw = json.loads((corpus / tier / "cases.json").read_text("utf-8"))["cases"]
    cases = []
    for c in raw:
        for key in ("essay_span", "source_span", "pages"):
            c[key] = tuple(c[key]) if c[key] is not None else None
        cases.append(Case(**c))
    return docs, cases


def sample(n: int, seed: int) -> None:
    """Random aligned paragraph pairs, to check the alignment by eye."""
    rows = [(p.name, a, p.en[a.en], p.zh[a.zh]) for p in aligned_pages() for a in p.pairs]
    print(f"{len(rows)} aligned pairs ({sum(r[1].anchored for r in rows)} anchored)")
    for name, pair, en, zh in random.Random(seed).sample(rows, n):
        kind = "anchored" if pair.anchored else "between anchors"
        print(f"--- {name} ({kind})\nEN: {en[:300]}\nZH: {zh[:200]}")


# ---------------------------------------------------------------- score (below)


# ---------------------------------------------------------------- score


@dataclass(frozen=True)
class Found:
    """A reported fragment, oriented: `a` and `b` are document indexes of the collection."""

    a: int
    b: int
    start_a: int
    end_a: int
    start_b: int
    end_b: int
    kind: str
    score: float


def engine():
    """The engine's entry points (imported late, so `build` runs without it)."""
    from simsift.core.match import meaning

    return meaning


def reported(result) -> list[Found]:
    """The fragments of `find_meaning_copies`'s answer, whatever its container: pairs with
    (a, b, fragments) attributes or tuples, or a mapping (a, b) -> fragments."""
    items = result.items() if hasattr(result, "items") else result
    out = []
    for item in items:
        if isinstance(item, tuple) and len(item) == 2:
            (a, b), fragments = item
        elif isinstance(item, tuple):
            a, b, fragments = item
        else:
            a, b, fragments = item.a, item.b, item.fragments
        for f in fragments:
            out.append(
                Found(int(a), int(b), f.start_a, f.end_a, f.start_b, f.end_b, str(f.kind), f.score)
            )
    return out


def oriented(found: Found, essay: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """(essay-side span, other-side span) of a fragment of a pair holding `essay`."""
    if found.a == essay:
        return (found.start_a, found.end_a), (found.start_b, found.end_b)
    return (found.start_b, found.end_b), (found.start_a, found.end_a)


def covered(span: tuple[int, int], pieces: Sequence[tuple[int, int]]) -> float:
    """Share of `span` covered by the union of `pieces`."""
    marks = sorted((max(s, span[0]), min(e, span[1])) for s, e in pieces)
    total, reach = 0, span[0]
    for s, e in marks:
        if e > max(s, reach):
            total += e - max(s, reach)
            reach = e
    return total / max(1, span[1] - span[0])


def overlaps(x: tuple[int, int], y: tuple[int, int]) -> bool:
    return x[0] < y[1] and y[0] < x[1]


def run_bucket(run: int) -> str:
    return next(label for lo, hi, label in RUN_BUCKETS if lo <= run <= hi)


def score_tier(corpus: Path, tier: str, across: bool = False) -> dict:
    """The collection through `find_meaning_copies` (what a scan does; with `across`, as a
    scan with translation alone does: pairs across languages only); then, to tell where a
    planted passage is lost, whether `candidate_pairs` proposed its pair and whether
    `align` finds it when given the pair alone."""
    docs, cases = load(corpus, tier)
    meaning = engine()
    index = {d.name: i for i, d in enumerate(docs)}
    start = time.perf_counter()
    sketches = [meaning.sketch(d.paragraphs) for d in docs]
    sketch_seconds = time.perf_counter() - start
    start = time.perf_counter()
    found = reported(meaning.find_meaning_copies(sketches, across_languages_only=across))
    find_seconds = time.perf_counter() - start
    frequencies = meaning.document_frequencies(sketches)
    left, right = meaning.candidate_pairs(sketches, frequencies)
    candidates = {frozenset(p) for p in zip(left.tolist(), right.tolist(), strict=True)}
    alone = case_pairs_aligned(cases, sketches, index, meaning.align, frequencies)

    positives = [c for c in cases if c.kind == "positive"]
    true_fragments: set[Found] = set()
    rows = []
    for case in positives:
        pair = frozenset((index[case.essay], index[case.source]))
        row, hits = case_row(case, pair, found, docs, index)
        true_fragments.update(hits)
        row["candidate"] = pair in candidates
        row["alone"] = case_row(case, pair, alone, docs, index)[0]["found"]
        rows.append(row)
    negative_pairs = {
        frozenset((index[c.essay], index[c.source])) for c in cases if c.kind == "negative"
    }
    false_fragments = [f for f in found if f not in true_fragments]
    reuse = [f for f in false_fragments if shares_a_run(f, docs)]
    false_by_pair = Counter(
        _false_kind(f, docs, negative_pairs, positives, index) for f in false_fragments
    )
    return {
        "tier": tier,
        "documents": len(docs),
        "cases": Counter(c.kind for c in cases),
        "sketch_seconds": round(sketch_seconds, 1),
        "find_seconds": round(find_seconds, 1),
        "candidate_pairs": len(candidates),
        "fragments": len(found),
        "true_fragments": len(true_fragments),
        "precision": round(len(true_fragments) / len(found), 3) if found else None,
        # the man pages share text of their own (sha256sum and sha384sum, the ISO 8859
        # tables): a false fragment whose sides share a run of 15 words is that reuse
        "unlabeled_reuse": len(reuse),
        "precision_reuse_aware": (
            round((len(true_fragments) + len(reuse)) / len(found), 3) if found else None
        ),
        "false_by_pair": dict(false_by_pair),
        "false_fragments": [asdict(f) for f in false_fragments],
        "fragment_kinds": dict(Counter(f.kind for f in found)),
        "negatives_reported": sum(1 for f in found if frozenset((f.a, f.b)) in negative_pairs),
        "negatives": len(negative_pairs),
        "rows": rows,
    }


def shares_a_run(f: Found, docs: Sequence[Doc]) -> bool:
    """The fragment's two sides share a run of VERBATIM_RUN words (unlabeled reuse)."""
    a = display(docs[f.a].paragraphs)[f.start_a : f.end_a]
    b = display(docs[f.b].paragraphs)[f.start_b : f.end_b]
    return longest_shared_run(a, b) >= VERBATIM_RUN


def case_row(case: Case, pair: frozenset, found: list[Found], docs, index) -> tuple[dict, list]:
    """A planted passage's figures from the fragments `found`, and the fragments on it."""
    essay = index[case.essay]
    fragments = [f for f in found if frozenset((f.a, f.b)) == pair]
    on_essay = [oriented(f, essay) for f in fragments]
    span = case.essay_span
    hits = [f for f, (e, _) in zip(fragments, on_essay, strict=True) if overlaps(e, span)]
    coverage = covered(case.essay_span, [e for e, _ in on_essay])
    row = {
        "id": case.id,
        "direction": case.direction,
        "strength": case.strength,
        "changed": case.changed,
        "shared_run": case.shared_run,
        "size": planted_size(docs, index, case),
        "coverage": round(coverage, 3),
        "source_coverage": round(covered(case.source_span, [s for _, s in on_essay]), 3),
        "found": coverage >= 0.5,
    }
    return row, hits


def case_pairs_aligned(cases, sketches, index, align, frequencies) -> list[Found]:
    """Every case's two documents aligned alone with the collection's idf (what
    `find_meaning_copies` would report if its candidates were exactly these pairs)."""
    out = []
    for case in cases:
        a, b = index[case.essay], index[case.source]
        for f in align(sketches[a], sketches[b], frequencies):
            out.append(Found(a, b, f.start_a, f.end_a, f.start_b, f.end_b, f.kind, f.score))
    return out


def planted_size(docs, index, case) -> float:
    """The smaller side of a planted pair in the engine's units: English words, a CJK
    character 0.7 of one."""
    sides = (
        display(docs[index[case.essay]].paragraphs)[slice(*case.essay_span)],
        display(docs[index[case.source]].paragraphs)[slice(*case.source_span)],
    )
    return round(min(mc.en_words(t) + 0.7 * mc.cjk_chars(t) for t in sides), 1)


def size_bucket(size: float) -> str:
    return "< 60" if size < 60 else "60-99" if size < 100 else ">= 100"


def _false_kind(f: Found, docs, negative_pairs, positives, index) -> str:
    pair = frozenset((f.a, f.b))
    if pair in negative_pairs:
        return "hard negative pair"
    if any(pair == frozenset((index[c.essay], index[c.source])) for c in positives):
        return "essay-source, outside the planted passage"
    same = docs[f.a].lang == docs[f.b].lang
    return "other pair, same language" if same else "other pair, across languages"


def recall_table(rows: list[dict], key) -> list[tuple[str, int, int]]:
    groups = defaultdict(list)
    for r in rows:
        groups[key(r)].append(r["found"])
    return [(str(k), sum(v), len(v)) for k, v in sorted(groups.items(), key=lambda kv: str(kv[0]))]


def markdown(result: dict) -> str:
    rows = result["rows"]
    lines = [
        f"### {result['tier']} ({result['documents']} documents, {dict(result['cases'])}, "
        "find_meaning_copies)",
        "",
    ]
    keys = [
        ("all", lambda r: "all"),
        ("shared run (words)", lambda r: run_bucket(r["shared_run"])),
        ("smaller side (words)", lambda r: size_bucket(r["size"])),
    ]
    if result["tier"] == "translation":
        keys.insert(1, ("direction (source->essay)", lambda r: r["direction"]))
    else:
        keys.insert(1, ("words changed", lambda r: r["strength"]))
    lines += [
        "| by | group | found | recall | pair a candidate | found aligning the pair alone |",
        "|---|---|---|---|---|---|",
    ]
    for title, key in keys:
        for group, hit, n in recall_table(rows, key):
            of = [r for r in rows if str(key(r)) == group]
            cand, alone = sum(r["candidate"] for r in of), sum(r["alone"] for r in of)
            lines.append(
                f"| {title} | {group} | {hit}/{n} | {hit / n:.3f} | {cand}/{n} | {alone}/{n} |"
            )
    lines += [
        "",
        f"Fragments reported: {result['fragments']}, on a planted passage: "
        f"{result['true_fragments']}, precision **{result['precision']}** (false ones whose "
        f"sides share a run of {VERBATIM_RUN} words counted right, the man pages' own reuse: "
        f"{result['unlabeled_reuse']}, precision {result['precision_reuse_aware']}); by pair: "
        f"{result['false_by_pair']}; kinds: {result['fragment_kinds']}. Fragments on hard "
        f"negative pairs: {result['negatives_reported']} ({result['negatives']} pairs). "
        f"Candidate pairs: {result['candidate_pairs']}. Time: sketches "
        f"{result['sketch_seconds']} s, find_meaning_copies {result['find_seconds']} s.",
    ]
    return "\n".join(lines)


def score(corpus: Path, tiers: Sequence[str], out: Path | None, across: bool = False) -> None:
    results = {}
    for tier in tiers:
        results[tier] = score_tier(corpus, tier, across)
        print(markdown(results[tier]), "\n", flush=True)
    if out:
        out.write_text(json.dumps({"date": str(datetime.date.today()), **results}, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="make both tiers' corpus")
    b.add_argument("--out", type=Path, default=DEFAULT_OUT)
    b.add_argument("--seed", type=int, default=SEED)
    s = sub.add_parser("score", help="run the engine over a corpus")
    s.add_argument("--corpus", type=Path, default=DEFAULT_OUT)
    s.add_argument("--tier", choices=TIERS, action="append")
    s.add_argument("--json", type=Path, help="write all figures and per-case rows here")
    s.add_argument(
        "--across", action="store_true", help="pairs across languages only (translation alone)"
    )
    m = sub.add_parser("sample", help="aligned paragraph pairs to read")
    m.add_argument("--n", type=int, default=30)
    m.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    if args.command == "build":
        build(args.out, args.seed)
    elif args.command == "score":
        score(args.corpus, args.tier or TIERS, args.json, args.across)
    else:
        sample(args.n, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
