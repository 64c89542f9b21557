"""Real text on this machine, cut into base documents grouped by topic.

English: docstrings of the Python standard library (parsed with `ast`, never imported),
one topic per top-level package or module. Chinese: the msgstr translations of the
zh_CN message catalogs shipped by Debian packages (/usr/share/locale/zh_CN, one topic
per package) and the seed course notes (tests/data/zh_text). Nothing here is written
by us; the order is fixed (sorted paths), so documents are the same on every run.
"""

from __future__ import annotations

import ast
import gettext
import re
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

LOCALE_DIR = Path("/usr/share/locale/zh_CN/LC_MESSAGES")
SEEDS_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "zh_text"
_CJK = re.compile(r"[\u4e00-\u9fff]")
_SPACES = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
_SKIP_STDLIB = ("test", "idlelib", "lib2to3", "site-packages", "turtledemo", "ensurepip")
# Third-party packages whose docstrings add English text when installed (read, not imported).
EXTRA_PACKAGES = ("networkx", "numpy", "docutils")


@dataclass(frozen=True)
class BaseDoc:
    """A document cut from real text: title, paragraphs, topic group and language."""

    title: str
    paragraphs: tuple[str, ...]
    group: str
    lang: str  # "en" or "zh"


def stdlib_root() -> Path:
    """The standard library of the running Python."""
    return Path(sysconfig.get_paths()["stdlib"])


def _docstrings(path: Path) -> Iterator[str]:
    """Module, class and function docstrings of one source file, in file order."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node)
            if doc:
                yield doc


def _english_paragraphs(doc: str) -> Iterator[str]:
    """Prose paragraphs of a docstring (blank-line separated, >= 12 words, no code)."""
    for block in re.split(r"\n\s*\n", doc):
        text = _SPACES.sub(" ", _CONTROL.sub("", block)).strip()
        if len(text.split()) >= 10 and ">>>" not in text and "---" not in text:
            yield text


def _source_files() -> Iterator[tuple[str, Path]]:
    """(topic, path) of the stdlib sources and of the extra packages' sources, sorted."""
    roots = [(stdlib_root(), "")]
    purelib = Path(sysconfig.get_paths()["purelib"])
    roots += [(purelib / name, name) for name in EXTRA_PACKAGES if (purelib / name).is_dir()]
    for root, package in roots:
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root)
            if any(part in _SKIP_STDLIB or part.startswith("test") for part in rel.parts):
                continue
            yield package or rel.parts[0].removesuffix(".py"), path


def english_groups(min_words: int = 200) -> dict[str, list[str]]:
    """Paragraphs of docstrings per topic (top-level package or module), each kept once."""
    groups: dict[str, list[str]] = {}
    seen: set[str] = set()
    for topic, path in _source_files():
        for doc in _docstrings(path):
            for paragraph in _english_paragraphs(doc):
                if paragraph not in seen:
                    seen.add(paragraph)
                    groups.setdefault(topic, []).append(paragraph)
    return {k: v for k, v in groups.items() if sum(len(p.split()) for p in v) >= min_words}


def _catalog_strings(path: Path) -> list[str]:
    """Translated strings (msgstr) of one .mo catalog with at least 8 Chinese characters."""
    with path.open("rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    out = []
    for key in sorted(catalog, key=str):
        value = catalog[key]
        if not key or not isinstance(value, str):
            continue
        for line in value.splitlines():
            line = _CONTROL.sub("", line).strip()
            if len(_CJK.findall(line)) >= 8:
                out.append(line)
    return out


def _join_sentences(sentences: list[str], target_chars: int) -> list[str]:
    """Consecutive sentences joined into paragraphs of about `target_chars` characters."""
    paragraphs, current = [], ""
    for s in sentences:
        current += s if not current or current[-1] in "。！？；" else "，" + s
        if len(current) >= target_chars:
            paragraphs.append(current)
            current = ""
    if len(current) >= target_chars // 2:
        paragraphs.append(current)
    return paragraphs


def chinese_groups() -> dict[str, list[str]]:
    """Chinese paragraphs per topic: one group per message catalog, one for the seeds."""
    groups: dict[str, list[str]] = {}
    seen: set[str] = set()
    if LOCALE_DIR.is_dir():
        for path in sorted(LOCALE_DIR.glob("*.mo")):
            strings = [s for s in _catalog_strings(path) if not (s in seen or seen.add(s))]
            paragraphs = _join_sentences(strings, 70)
            if len(paragraphs) >= 6:
                groups["zh:" + path.stem] = paragraphs
    seed_sentences: list[str] = []
    for path in sorted(SEEDS_DIR.glob("*.txt")) if SEEDS_DIR.is_dir() else []:
        text = path.read_text(encoding="utf-8")
        seed_sentences += [s + "。" for s in re.split(r"[。！？\n]", text) if len(s) >= 10]
    if seed_sentences:
        groups["zh:seeds"] = _join_sentences(seed_sentences, 90)
    return groups


def _cut(paragraphs: list[str], size, low: int, high: int) -> Iterator[list[str]]:
    """Consecutive paragraphs grouped into documents of `low`..`high` size units."""
    current: list[str] = []
    for p in paragraphs:
        if current and sum(map(size, current)) + size(p) > high:
            if sum(map(size, current)) >= low and len(current) >= 3:
                yield current
            current = []
        current.append(p)
    if sum(map(size, current)) >= low and len(current) >= 3:
        yield current


def _title(paragraph: str, lang: str) -> str:
    """A title from the start of the first paragraph."""
    if lang == "zh":
        return re.split(r"[，。：；]", paragraph)[0][:24]
    return " ".join(paragraph.split()[:8]).rstrip(".,:;")


def base_documents() -> list[BaseDoc]:
    """All base documents: English ~150-400 words, Chinese ~300-700 characters."""
    docs = []

    def words(p: str) -> int:
        return len(p.split())

    for group, paragraphs in english_groups().items():
        for chunk in _cut(paragraphs, words, 150, 400):
            docs.append(BaseDoc(_title(chunk[0], "en"), tuple(chunk), group, "en"))
    for group, paragraphs in chinese_groups().items():
        for chunk in _cut(paragraphs, len, 300, 700):
            docs.append(BaseDoc(_title(chunk[0], "zh"), tuple(chunk), group, "zh"))
    return docs


def short_labels(lang: str) -> list[str]:
    """Short real UI strings (menu items, buttons) for site chrome, from the catalogs."""
    out: set[str] = set()
    for path in sorted(LOCALE_DIR.glob("*.mo")) if LOCALE_DIR.is_dir() else []:
        with path.open("rb") as f:
            catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
        for key, value in catalog.items():
            if not isinstance(key, str) or not isinstance(value, str):
                continue
            text = value if lang == "zh" else key
            if (
                2 <= len(text) <= 14
                and re.fullmatch(r"[\w\u4e00-\u9fff ]+", text)
                and (lang == "zh") == bool(_CJK.search(text))
            ):
                out.add(text.strip())
    return sorted(out)
