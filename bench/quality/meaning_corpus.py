"""Real text for the meaning tiers: man pages and their Chinese translations, aligned by
paragraph, and a WordNet thesaurus for paraphrases. Used by meaning.py.

Man pages: /usr/share/man (English) and /usr/share/man/zh_CN, zh_TW (Debian's
manpages-zh: human translations, many of an older version of the English page). Each page
is rendered once with groff (one line per paragraph: a line length of 3000 ens) into
a cache, cut into paragraphs by blank lines, and the sections that are lists of names,
credits or translator notes are left out.

Alignment of a page and its translation is monotone (paragraph order is kept by the
translators) and uses anchors: option names, numbers, paths and Latin words kept in the
Chinese text. A paragraph pair is kept only when it is anchored (its anchors agree) or
sits in a stretch between two anchored pairs with as many paragraphs on both sides and a
length ratio near the page's own.
"""

from __future__ import annotations

import gzip
import itertools
import math
import os
import re
import subprocess
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

MAN = Path("/usr/share/man")
ZH_DIRS = ("zh_CN", "zh_TW")
CACHE = Path("/tmp/simsift-meaning/render")
# tbl for tables, preconv for UTF-8 input; no bold, underline or colour escapes
GROFF = ("groff", "-man", "-t", "-Tutf8", "-k", "-Kutf-8", "-P-c", "-P-b", "-P-u")
SECTIONS = ("1", "2", "3", "4", "5", "6", "7", "8")

_CJK = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"-{0,2}[A-Za-z0-9_][A-Za-z0-9_.\-/=]*")
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*|\d+")
# Sections that are names, lists or credits, not prose a translator renders paragraph by
# paragraph (English and Chinese headings; a Chinese heading holding any of these words).
SKIP_EN = {
    "NAME", "SYNOPSIS", "AUTHOR", "AUTHORS", "REPORTING BUGS", "COPYRIGHT", "SEE ALSO",
    "COLOPHON", "HISTORY", "TRANSLATION", "TRANSLATOR", "TRANSLATORS", "FILES", "VERSIONS",
    "STANDARDS", "CONFORMING TO", "ATTRIBUTES", "AVAILABILITY", "LICENSE",
}  # fmt: skip
SKIP_ZH = (
    "名称", "名字", "总览", "概述", "語法", "总揽", "作者", "报告", "版权", "參見", "参见",
    "另见", "又见", "参考", "跋", "中文", "翻译", "翻譯", "維護", "维护", "文件", "标准",
    "遵循", "历史", "版本", "著作", "概要", "名稱", "版權", "另請參閱", "檔案",
)  # fmt: skip
_NOTE = re.compile(r"中文版|linux论坛|man手册页翻译|cmpp|中國|中国Linux|译者|校对|翻译|http")


def cjk_chars(text: str) -> int:
    return len(_CJK.findall(text))


def en_words(text: str) -> int:
    return len(_EN_WORD.findall(text))


# ---------------------------------------------------------------- rendering


def page_key(path: Path) -> tuple[str, str]:
    """(name, section) of a man page file: ("cp", "1") for .../man1/cp.1.gz."""
    stem = path.name.removesuffix(".gz")
    name, _, _ext = stem.rpartition(".")
    return name, path.parent.name.removeprefix("man")


def pages_in(root: Path) -> dict[tuple[str, str], Path]:
    """Real page files (not .so stubs, not symlinks) of one man tree, by (name, section)."""
    out = {}
    for section in SECTIONS:
        folder = root / f"man{section}"
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.is_file() and not path.is_symlink():
                out[page_key(path)] = path
    return out


def _raw(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def render(path: Path) -> str:
    """The page as UTF-8 text, one line per paragraph (cached by path)."""
    target = CACHE / (str(path.relative_to(MAN)).replace("/", "__") + ".txt")
    if target.exists():
        return target.read_text(encoding="utf-8")
    raw = _raw(path)
    text = ""
    if not raw.lstrip().startswith(b".so "):
        done = subprocess.run(
            [*GROFF, "-rLL=3000n", "-rHY=0", "-rcR=1"],
            input=raw,
            capture_output=True,
            timeout=120,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
        )
        text = done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return text


def render_all(paths: Sequence[Path]) -> None:
    """Fill the render cache (2 groff processes at a time)."""
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(render, paths))


# ---------------------------------------------------------------- paragraphs


@dataclass(frozen=True)
class Paragraph:
    section: str  # the heading it stands under
    text: str


def _join_lines(lines: Sequence[str]) -> str:
    """Lines of one block as one paragraph; no space between two CJK characters."""
    out = ""
    for line in (ln.strip() for ln in lines):
        if out and not (_CJK.match(out[-1]) and _CJK.match(line[:1])):
            out += " "
        out += line
    return re.sub(r"\s+", " ", out).strip()


def paragraphs_of(text: str) -> list[Paragraph]:
    """Blank-line separated blocks under their section heading (an unindented line). The
    header and footer lines (the title line repeated) are dropped."""
    lines = text.splitlines()
    if len(lines) > 2:
        lines = lines[1:-1]
    out: list[Paragraph] = []
    section, block = "", []

    def flush() -> None:
        if block:
            out.append(Paragraph(section, _join_lines(block)))
            block.clear()

    for line in lines:
        if not line.strip():
            flush()
        elif not line[0].isspace():
            flush()
            section = line.strip()
        else:
            block.append(line)
    flush()
    return out


def _skipped(section: str) -> bool:
    if _CJK.search(section):
        return any(word in section for word in SKIP_ZH)
    return section.upper() in SKIP_EN


def body(path: Path) -> list[Paragraph]:
    """The page's paragraphs of prose sections (credits, names, notes left out)."""
    return [
        p
        for p in paragraphs_of(render(path))
        if p.text and not _skipped(p.section) and not _NOTE.search(p.text)
    ]


# ---------------------------------------------------------------- alignment


def anchors(text: str) -> Counter[str]:
    """Latin tokens of a paragraph (options, numbers, names, paths), lower case, trailing
    punctuation cut."""
    out: Counter[str] = Counter()
    for token in _LATIN.findall(text):
        token = token.rstrip(".-/=").lower()
        if token:
            out[token] += 1
    return out


def is_chinese(text: str) -> bool:
    """A translated paragraph: 8 CJK characters or more, and more CJK characters than a
    third of its Latin letters (some pages leave whole paragraphs in English)."""
    cjk = cjk_chars(text)
    return cjk >= 8 and 3 * cjk >= len(re.findall(r"[A-Za-z]", text))


def _en_units(text: str, vocabulary: set[str]) -> int:
    """Letters of the English words a translator renders (words kept as they are left out)."""
    return sum(len(w) for w in re.findall(r"[A-Za-z]+", text) if w.lower() not in vocabulary)


@dataclass(frozen=True)
class AlignedPair:
    en: int  # paragraph index in the English body
    zh: int  # in the Chinese body
    anchored: bool


def _anchor_score(en: Counter[str], zh: Counter[str], vocabulary: set[str]) -> float:
    """Agreement of two paragraphs' anchors: Dice over the English anchors the Chinese page
    uses at all (English prose words never kept in Chinese do not count)."""
    en = Counter({t: c for t, c in en.items() if t in vocabulary})
    both = sum((en & zh).values())
    total = sum(en.values()) + sum(zh.values())
    return 2 * both / total if total else 0.0


class _Lengths:
    """Length ratio of a paragraph pair against the page's own: CJK characters against
    English letters, about 0.33 on these pages (measured: the middle 90% of confident
    pairs lie within a factor 1.6 of the median)."""

    def __init__(self, en: Sequence[str], zh: Sequence[str], vocabulary: set[str]) -> None:
        self.en = [_en_units(t, vocabulary) for t in en]
        self.zh = [cjk_chars(t) for t in zh]
        self.offset = 0.0

    def residual(self, i: int, j: int) -> float:
        return math.log((self.zh[j] + 3) / (0.33 * self.en[i] + 3)) - self.offset

    def recentre(self, pairs: Sequence[tuple[int, int]]) -> None:
        """The page's own ratio: the median over long pairs, when there are 3 or more."""
        long = sorted(self.residual(i, j) for i, j in pairs if self.zh[j] >= 20)
        if len(long) >= 3:
            self.offset += long[len(long) // 2]


def align(en: Sequence[str], zh: Sequence[str]) -> list[AlignedPair]:
    """Confident 1-1 paragraph pairs of a page and its translation (see the module doc)."""
    en_anchors = [anchors(t) for t in en]
    zh_anchors = [anchors(t) for t in zh]
    vocabulary = {t for a in zh_anchors for t in a}
    lengths = _Lengths(en, zh, vocabulary)

    def agree(i: int, j: int) -> float:
        return _anchor_score(en_anchors[i], zh_anchors[j], vocabulary)

    def score(i: int, j: int) -> float:
        return 2.0 * agree(i, j) + 1.0 - abs(lengths.residual(i, j))

    path = _monotone_path(len(en), len(zh), score)
    lengths.recentre([(i, j) for i, j in path if agree(i, j) >= 0.6])
    anchored = [
        AlignedPair(i, j, True)
        for i, j in path
        if agree(i, j) >= 0.6
        and zh_anchors[j]
        and is_chinese(zh[j])
        and abs(lengths.residual(i, j)) <= 0.45
        and not _ambiguous(i, j, agree, len(en), len(zh))
    ]
    return _with_sandwiched(anchored, zh, lengths)


def _ambiguous(i: int, j: int, agree, n: int, m: int) -> bool:
    """A neighbour agrees as well: the translation may merge two paragraphs into one (an
    older, shorter English text) or split one, so the pair may be only part of it."""
    own = agree(i, j)
    others = [agree(k, j) for k in (i - 1, i + 1) if 0 <= k < n]
    others += [agree(i, k) for k in (j - 1, j + 1) if 0 <= k < m]
    return any(o >= own for o in others)


def _monotone_path(n: int, m: int, score) -> list[tuple[int, int]]:
    """The best monotone 1-1 matching (skips cost 0.3), a Needleman-Wunsch DP."""
    skip = -0.3
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    move = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            if i == j == 0:
                continue
            options = []
            if i and j:
                options.append((best[i - 1][j - 1] + score(i - 1, j - 1), 0))
            if i:
                options.append((best[i - 1][j] + skip, 1))
            if j:
                options.append((best[i][j - 1] + skip, 2))
            best[i][j], move[i][j] = max(options)
    path, i, j = [], n, m
    while i or j:
        step = move[i][j]
        if step == 0:
            path.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif step == 1:
            i -= 1
        else:
            j -= 1
    return path[::-1]


def _with_sandwiched(
    anchored: list[AlignedPair], zh: Sequence[str], lengths: _Lengths
) -> list[AlignedPair]:
    """The anchored pairs plus the paragraphs between two of them when the stretch has as
    many paragraphs on both sides (up to 4), all Chinese, each pair within a factor 1.4 of
    the page's length ratio."""
    out = list(anchored)
    for a, b in itertools.pairwise(anchored):
        gap_en, gap_zh = b.en - a.en - 1, b.zh - a.zh - 1
        if gap_en != gap_zh or not 0 < gap_en <= 4:
            continue
        inner = [AlignedPair(a.en + k, a.zh + k, False) for k in range(1, gap_en + 1)]
        if all(is_chinese(zh[p.zh]) and abs(lengths.residual(p.en, p.zh)) <= 0.35 for p in inner):
            out.extend(inner)
    return sorted(out, key=lambda p: p.en)


# ---------------------------------------------------------------- page sets


def translation_pairs() -> list[tuple[str, str, Path, Path]]:
    """(name, section, English page, Chinese page) for every translated page with an
    English original on this machine; zh_CN first, zh_TW for pages zh_CN lacks."""
    english = pages_in(MAN)
    out, seen = [], set()
    for folder in ZH_DIRS:
        for key, path in pages_in(MAN / folder).items():
            if key in english and key not in seen:
                seen.add(key)
                out.append((*key, english[key], path))
    return out


def chinese_only() -> list[tuple[str, str, Path]]:
    """Chinese pages whose English original is not on this machine (zh_CN)."""
    english = pages_in(MAN)
    return [(*k, p) for k, p in pages_in(MAN / "zh_CN").items() if k not in english]


def english_pages() -> list[tuple[str, str, Path]]:
    return [(*k, p) for k, p in pages_in(MAN).items()]


def chunks(items: Sequence, size: int) -> Iterator[Sequence]:
    for at in range(0, len(items), size):
        yield items[at : at + size]


# ---------------------------------------------------------------- WordNet thesaurus

WORDNET = Path("/usr/share/wordnet")
_POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}


def _synsets(pos: str) -> dict[str, list[str]]:
    """Synset offset -> its single-word lemmas (lower case), from data.<pos>."""
    out = {}
    with open(WORDNET / f"data.{_POS[pos]}", encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("  "):
                continue  # the licence
            fields = line.split()
            count = int(fields[3], 16)
            lemmas = [re.sub(r"\(.*\)$", "", w) for w in fields[4 : 4 + 2 * count : 2]]
            out[fields[0]] = [w for w in lemmas if w.isalpha() and w.islower()]
    return out


@dataclass(frozen=True)
class Thesaurus:
    """A word's synonyms by part of speech, and its usual part of speech."""

    synonyms: dict[tuple[str, str], tuple[str, ...]]
    pos: dict[str, str]

    def of(self, word: str, pos: str | None = None) -> tuple[str, ...]:
        return self.synonyms.get((word, pos or self.pos.get(word, "")), ())


def thesaurus() -> Thesaurus:
    """For each word of WordNet's indexes and each part of speech: the other words of its
    first synset, or of the second when the first has none (senses are listed by
    frequency, so a substitute keeps the usual meaning); its usual part of speech is the
    one with the most tagged senses."""
    synonyms: dict[tuple[str, str], tuple[str, ...]] = {}
    best: dict[str, tuple[int, str]] = {}
    for pos in _POS:
        synsets = _synsets(pos)
        with open(WORDNET / f"index.{_POS[pos]}", encoding="utf-8") as lines:
            for line in lines:
                if line.startswith(" "):
                    continue
                fields = line.split()
                lemma, pointers = fields[0], int(fields[3])
                if not lemma.isalpha():
                    continue
                tagged = int(fields[5 + pointers])
                if tagged > best.get(lemma, (-1, ""))[0]:
                    best[lemma] = (tagged, pos)
                for offset in fields[6 + pointers : 8 + pointers]:
                    words = tuple(w for w in synsets.get(offset, ()) if w != lemma)
                    if words:
                        synonyms[lemma, pos] = words
                        break
    return Thesaurus(synonyms, {w: p for w, (_, p) in best.items()})
