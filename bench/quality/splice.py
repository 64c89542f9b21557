"""Copying at the grain of sentences: runs of words spliced into an essay's own paragraphs.

    python -m bench.quality.splice --size small --label after
    python -m bench.quality.splice --size small --label before --engine-commit dbe9466

A corpus of essays (300-800 words; Chinese words are jieba tokens) made of the real text
of the quality bench's sources (consecutive base documents of one topic group joined), in
which (the sources repeat themselves, e.g. numpy's twin docstrings: text sharing a run of
15 words with an earlier essay is left out, so two essays share text only by a label):

- spliced runs: an essay (the copy) holds one to three runs of consecutive words of other
  essays of the corpus (its sources, one run each, of other topic groups), each inserted
  inside one of the copy's own paragraphs, at a sentence boundary or in the middle of a
  sentence, as a student does. Run lengths in three buckets, in turn: 15-29, 30-59 and
  60-120 words; a run may start and end mid-sentence. Labeled pair (source, copy), kind
  "splice": this is what a checker should report;
- quotations: an essay quoting 25-60 words of another essay inside quotation marks (“…”
  or "…"; Chinese “…” or 「…」) followed by a citation, (Silva, 2019) or （王磊，2019）.
  Labeled (source, quoting essay), kind "quotation": not copying by default;
- shared reference lists: two otherwise unrelated essays ending in the same "References"
  / "参考文献" section of 5-10 entries (titles cut from real text that is in no document);
  kind "references": should not be reported;
- boilerplate: one sentence of 15-30 words (an honour-code statement, a course footer)
  shared by 3-8 otherwise unrelated essays, as a paragraph of its own at the start or the
  end; every pair of the group is labeled, kind "boilerplate": should not be reported;
- negatives: unrelated essays (the sources are essays of their own text too).

Scored on one scan (`k_max` 12, default options otherwise), as run.py does: the reported
pairs are the whole-document pairs within the default k plus the partial pairs
(`ScanResult.partial_pairs()`). Recall of the spliced runs by length bucket and language;
share of the quotation / references / boilerplate pairs reported (lower is better);
precision strict (a reported pair is true only when it is a labeled (source, copy) pair of
a splice), with the reuse judge of reuse.py (pairs sharing a run of 15 words count as true,
which excuses the planted quotation, reference and boilerplate pairs too), and with the
reuse judge but the planted pairs counted as false.

Corpus in /tmp/simsift-splice/<size> (docs/, labels.json), regenerated when the seed or
the generator version differs. Results by --label in docs/quality/splice-<size>.json and
.md; `--engine-commit C` scans with the engine of commit C (`bench.engine_at`: nothing in
the work tree changes).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import logging
import random
import re
import shutil
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.engine_at import use_engine_at
from bench.quality.render import Text, write_docx, write_txt
from bench.quality.sources import BaseDoc, _title, base_documents

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

VERSION = 3  # of the generator: a corpus of another version is regenerated
SIZES = {"small": 1, "large": 3}
TARGET_DOCUMENTS = {"small": 300, "large": 1000}  # negatives fill up to this, as text lasts
# per language and scale step; the splice copies have 1, 2, 3 runs in equal numbers
PER_LANG = {"splice": 30, "quotation": 8, "references": 4, "boilerplate": 2}
BUCKETS = ((15, 29), (30, 59), (60, 120))
QUOTE_WORDS = (25, 60)
REFERENCE_ENTRIES = (5, 10)
BOILERPLATE_MEMBERS = (3, 8)
ESSAY_WORDS = (300, 800)
DOCX_SHARE = 0.25
K_MAX = 12
NEGATIVE_KINDS = ("quotation", "references", "boilerplate")

# Honour-code statements and course footers (15-30 words; Chinese: jieba words), one per
# boilerplate group.
BOILERPLATE = {
    "en": (
        "I confirm that this essay is entirely my own work and that every source I have used "
        "is acknowledged in the text and in the reference list.",
        "This assignment was submitted for the second-year methods course; late work loses "
        "five percent of the mark for each day after the published deadline.",
        "By submitting this work I agree that it may be checked by plagiarism detection "
        "software and stored in the department's archive of student essays.",
        "The views expressed in this report are those of the author alone and do not "
        "represent the position of the school or of its teaching staff.",
        "The word count excludes the title page, footnotes, tables and the list of references, "
        "as the guidelines for written coursework in this module require.",
        "No part of this submission was produced with the help of another student, a paid "
        "service or a text generation tool without acknowledgement.",
        "Please contact the course office if any page of this document is missing or "
        "unreadable, quoting your student number and the assignment code.",
        "This document is shared under the terms of the course licence and may be passed to "
        "other students only for the purpose of peer review.",
    ),
    "zh": (
        "本人郑重声明：所提交的作业是本人独立完成的成果，文中引用他人观点和资料之处均已明确注明出处。",
        "本课程作业须在截止日期前提交，逾期提交者每迟交一天扣除总成绩的百分之五，特殊情况请提前向任课教师说明。",
        "提交本作业即表示同意学校使用论文检测系统对其进行相似度检测，并将电子版本保存在课程资料库中。",
        "本报告中的观点仅代表作者个人立场，不代表学院或任课教师的意见，如有疏漏之处敬请批评指正。",
        "字数统计不包括封面、脚注、图表和参考文献部分，具体格式要求请参照本学期课程论文写作规范。",
        "本作业未经他人代写，也未使用任何付费服务或自动生成工具，所有合作讨论的内容均已在文中说明。",
        "如发现本文档页码缺失或无法阅读，请携带学号和作业编号与教务办公室联系，我们将尽快处理。",
        "本文档仅供课程内部同伴互评使用，未经作者本人书面许可，不得复制、转载或用于任何其他用途。",
    ),
}
SURNAMES = (
    *("Smith", "Chen", "Garcia", "Müller", "Okafor", "Kowalski", "Tanaka", "Silva", "Novak"),
    *("Haddad", "Larsen", "Petrova", "Dubois", "Khan", "Rossi", "Nguyen", "Andersen"),
    *("Moreau", "Ivanova", "Costa"),
)
JOURNALS = (
    "Journal of Applied Computing",
    "Software Practice Review",
    "Computing Education Quarterly",
    "Information Systems Letters",
    "Annals of Data Engineering",
    "Technical Communication Studies",
)
ZH_SURNAMES = "王李张刘陈杨黄赵周吴徐孙马朱胡郭林何高罗"
ZH_GIVEN = ("磊", "娜", "伟", "芳", "静", "敏", "强", "洋", "艳", "杰", "军", "勇", "婷", "涛")
ZH_JOURNALS = ("计算机学报", "软件学报", "中文信息学报", "计算机研究与发展", "图书情报工作")
QUOTE_INTROS = {
    "en": ("As one author puts it,", "In the words of an earlier study,", "One review states:"),
    "zh": ("正如有学者所言，", "有研究指出：", "一篇综述写道："),
}
QUOTE_MARKS = {"en": (("“", "”"), ('"', '"')), "zh": (("“", "”"), ("「", "」"))}
_SENTENCE_END = re.compile(r"[.!?;:。！？；：]['\"”’)）」]*$")
_WORD = re.compile(r"\w")
_QUOTE_CHARS = re.compile('["“”「」]')
_NESTED = str.maketrans({'"': "'", "“": "‘", "”": "’", "「": "『", "」": "』"})


# ---------------------------------------------------------------- words


@functools.lru_cache(maxsize=4096)
def _jieba(text: str) -> tuple[str, ...]:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return tuple(jieba.lcut(text))


def tokens(text: str, lang: str) -> list[str]:
    """Whitespace-separated words (English) or jieba tokens with punctuation (Chinese)."""
    return list(_jieba(text)) if lang == "zh" else text.split()


def join(parts: Sequence[str], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(parts)


def is_word(token: str) -> bool:
    return bool(_WORD.search(token))


def count_words(text: str, lang: str) -> int:
    """Words of `text`: tokens holding a letter or digit (jieba tokens for Chinese)."""
    return sum(map(is_word, tokens(text, lang)))


def essay_words(paragraphs: Iterable[str], lang: str) -> int:
    return sum(count_words(p, lang) for p in paragraphs)


def bucket_of(words: int) -> str:
    return next(f"{lo}-{hi}" for lo, hi in BUCKETS if words <= hi)


# ---------------------------------------------------------------- essays and text operations


def essays_from(docs: Iterable[BaseDoc]) -> dict[str, list[BaseDoc]]:
    """Essays of 300-800 words and 3 paragraphs or more: consecutive base documents of one
    topic group joined until they reach 300 words (paragraphs past 800 words dropped), per
    language. The sources repeat themselves (numpy's twin docstrings, tkinter's options):
    a paragraph sharing a run of `reuse.REUSE_WORDS` words (CJK: twice as many characters,
    the reuse judge's unit) with an earlier one is left out, and so is an essay still
    sharing such a run with an earlier essay, so no two essays are related but by a label.
    """
    seen: set[int] = set()
    kept: list[BaseDoc] = []
    for d in docs:
        paragraphs = []
        for p in d.paragraphs:
            grams = _shingles([p], d.lang)
            if not grams & seen:
                seen |= grams
                paragraphs.append(p)
        if paragraphs:
            kept.append(BaseDoc(_title(paragraphs[0], d.lang), tuple(paragraphs), d.group, d.lang))
    out: dict[str, list[BaseDoc]] = {"en": [], "zh": []}
    seen = set()
    current: list[BaseDoc] = []
    for d in kept:
        if current and (d.group != current[0].group or d.lang != current[0].lang):
            current = []
        current.append(d)
        paragraphs = [p for c in current for p in c.paragraphs]
        if essay_words(paragraphs, d.lang) >= ESSAY_WORDS[0]:
            while essay_words(paragraphs, d.lang) > ESSAY_WORDS[1]:
                paragraphs.pop()
            grams = _shingles(paragraphs, d.lang)
            if len(paragraphs) >= 3 and not grams & seen:
                seen |= grams
                out[d.lang].append(BaseDoc(current[0].title, tuple(paragraphs), d.group, d.lang))
            current = []
    return out


def _shingles(paragraphs: Sequence[str], lang: str) -> set[int]:
    """Hashes of the runs of `reuse.REUSE_WORDS` words of the text (the reuse judge's words:
    a CJK character is one, counting half, so a run is twice as many characters)."""
    from bench.quality.reuse import REUSE_WORDS, words_of

    words = words_of(paragraphs)
    n = 2 * REUSE_WORDS if lang == "zh" else REUSE_WORDS
    return {hash(tuple(words[i : i + n])) for i in range(len(words) - n + 1)}


def take_run(essay: BaseDoc, words: int, rng: random.Random) -> str:
    """A run of `words` consecutive words of the essay's text (paragraphs joined), starting
    and ending on a word, anywhere (it may begin and end mid-sentence)."""
    toks = tokens(join(essay.paragraphs, essay.lang), essay.lang)
    at = [i for i, t in enumerate(toks) if is_word(t)]
    if len(at) < words:
        raise ValueError(f"an essay of {len(at)} words has no run of {words}")
    start = rng.randrange(len(at) - words + 1)
    return join(toks[at[start] : at[start + words - 1] + 1], essay.lang)


def insert_at(
    paragraph: str, piece: str, lang: str, rng: random.Random, where: str
) -> tuple[str, str]:
    """`piece` inserted inside `paragraph` (never before its first or after its last
    token): after a sentence (`where` "sentence", when the paragraph has an inner sentence
    end) or between two words of a sentence ("mid"). Returns the paragraph and where the
    piece went ("sentence" or "mid")."""
    toks = tokens(paragraph, lang)
    inner = range(1, len(toks))
    ends = [i for i in inner if _SENTENCE_END.search(toks[i - 1])]
    if where == "sentence" and ends:
        at, where = rng.choice(ends), "sentence"
    else:
        ending = set(ends)
        mid = [i for i in inner if i not in ending and is_word(toks[i - 1]) and is_word(toks[i])]
        at, where = rng.choice(mid or list(inner) or [len(toks)]), "mid"
    return join([*toks[:at], piece, *toks[at:]], lang), where


def quotation(source: BaseDoc, rng: random.Random) -> tuple[str, dict]:
    """A quotation of 25-60 words of `source` in quotation marks, with a citation."""
    lang = source.lang
    words = rng.randint(*QUOTE_WORDS)
    for _ in range(50):  # a run with no quotation marks of its own, so the quote is clear
        quote = take_run(source, words, rng)
        if not _QUOTE_CHARS.search(quote):
            break
    else:  # nested quotation marks made single, as a writer does
        quote = quote.translate(_NESTED)
    left, right = rng.choice(QUOTE_MARKS[lang])
    intro = rng.choice(QUOTE_INTROS[lang])
    year = rng.randint(1995, 2023)
    if lang == "zh":
        cite = f"（{_zh_name(rng)}，{year}）"
        text = f"{intro}{left}{quote}{right}{cite}。"
    else:
        a, b = rng.sample(SURNAMES, 2)
        cite = rng.choice((f"({a}, {year})", f"({a} & {b}, {year}, p. {rng.randint(2, 240)})"))
        text = f"{intro} {left}{quote}{right} {cite}."
    return text, {"words": words, "marks": left + right, "citation": cite, "text": quote}


def _zh_name(rng: random.Random) -> str:
    return rng.choice(ZH_SURNAMES) + rng.choice(ZH_GIVEN)


def reference_titles(essay: BaseDoc, rng: random.Random) -> list[str]:
    """Titles for reference entries cut from an essay's sentences (English: their first 5-10
    words; Chinese: a clause of 6-20 characters)."""
    text = join(essay.paragraphs, essay.lang)
    if essay.lang == "zh":
        clauses = [c for c in re.split(r"[，。；：！？、（）()“”]", text) if 6 <= len(c) <= 20]
        return clauses
    titles = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        words = [w.strip(",;:()[]'\"`") for w in sentence.split()]
        words = [w for w in words if w]
        if len(words) >= 5:
            title = " ".join(words[: rng.randint(5, 10)]).rstrip(".")
            titles.append(title[0].upper() + title[1:])
    return titles


def reference_list(titles: list[str], lang: str, rng: random.Random) -> tuple[str, ...]:
    """A heading and one paragraph per entry: APA-like (English) or GB/T 7714 (Chinese)."""
    entries = []
    for n, title in enumerate(titles, 1):
        year, volume, issue = rng.randint(1998, 2023), rng.randint(3, 48), rng.randint(1, 12)
        first = rng.randint(1, 300)
        pages = f"{first}-{first + rng.randint(8, 30)}"
        if lang == "zh":
            authors = ", ".join(_zh_name(rng) for _ in range(rng.randint(1, 3)))
            journal = rng.choice(ZH_JOURNALS)
            entries.append(
                f"[{n}] {authors}. {title}[J]. {journal}, {year}, {volume}({issue}): {pages}."
            )
        else:
            names = rng.sample(SURNAMES, rng.randint(1, 3))
            authors = ", ".join(f"{s}, {rng.choice('ABCDEFGHJKLMNPRST')}." for s in names)
            journal = rng.choice(JOURNALS)
            entries.append(f"{authors} ({year}). {title}. {journal}, {volume}({issue}), {pages}.")
    return ("参考文献" if lang == "zh" else "References", *entries)


# ---------------------------------------------------------------- the corpus plan


@dataclass
class Doc:
    text: Text
    role: str  # splice, source, quoting, quoted, references, boilerplate, negative
    lang: str
    group: str
    fmt: str
    name: str = ""
    detail: dict = field(default_factory=dict)


@dataclass
class Plan:
    docs: list[Doc] = field(default_factory=list)
    pairs: list[tuple[Doc, Doc, str, dict]] = field(default_factory=list)


class Pool:
    """Essays handed out once each, per language, in a shuffled order."""

    def __init__(self, essays: dict[str, list[BaseDoc]], rng: random.Random):
        self.by_lang = {lang: list(e) for lang, e in essays.items()}
        for e in self.by_lang.values():
            rng.shuffle(e)

    def left(self, lang: str) -> int:
        return len(self.by_lang[lang])

    def take(self, lang: str, avoid: Iterable[str] = ()) -> BaseDoc:
        """The last essay of `lang` of no group in `avoid` (any group when none is left)."""
        essays = self.by_lang[lang]
        if not essays:
            raise RuntimeError(f"not enough {lang} text for this corpus size")
        avoid = set(avoid)
        for i in range(len(essays) - 1, -1, -1):
            if essays[i].group not in avoid:
                return essays.pop(i)
        return essays.pop()


def build(
    essays: dict[str, list[BaseDoc]],
    seed: int,
    scale: int,
    target: int,
    per_lang: dict[str, int] | None = None,
) -> Plan:
    """Every document and labeled pair of the corpus (nothing written yet)."""
    per_lang = per_lang or PER_LANG
    rng = random.Random(seed)
    pool = Pool(essays, rng)
    plan = Plan()

    def add(essay: BaseDoc, role: str, paragraphs: Sequence[str] | None = None) -> Doc:
        fmt = "docx" if rng.random() < DOCX_SHARE else "txt"
        text = Text(essay.title, tuple(paragraphs if paragraphs is not None else essay.paragraphs))
        doc = Doc(text, role, essay.lang, essay.group, fmt)
        doc.detail["words"] = essay_words(text.paragraphs, essay.lang)
        plan.docs.append(doc)
        return doc

    for lang in ("en", "zh"):
        runs = [1, 2, 3] * (per_lang["splice"] * scale // 3)
        runs += [1, 2, 3][: per_lang["splice"] * scale - len(runs)]
        rng.shuffle(runs)
        turn = 0  # buckets in turn, so each holds a third of the runs
        for n_runs in runs:
            host = pool.take(lang)
            paragraphs = list(host.paragraphs)
            where = rng.sample(range(len(paragraphs)), min(n_runs, len(paragraphs)))
            where += [rng.randrange(len(paragraphs)) for _ in range(n_runs - len(where))]
            spliced = []
            for i in where:
                source = pool.take(lang, avoid={host.group})
                lo, hi = BUCKETS[turn % len(BUCKETS)]
                turn += 1
                words = rng.randint(lo, hi)
                run = take_run(source, words, rng)
                wanted = rng.choice(("sentence", "mid"))
                paragraphs[i], position = insert_at(paragraphs[i], run, lang, rng, wanted)
                spliced.append((source, run, words, position))
            copy = add(host, "splice", paragraphs)
            copy_chars = sum(map(len, paragraphs))
            for source, run, words, position in spliced:
                src = add(source, "source")
                detail = {
                    "words": words,
                    "bucket": bucket_of(words),
                    "chars": len(run),
                    "position": position,
                    "runs_in_copy": n_runs,
                    "share_of_copy": round(len(run) / copy_chars, 4),
                    "share_of_source": round(len(run) / sum(map(len, source.paragraphs)), 4),
                    "text": run,
                }
                plan.pairs.append((src, copy, "splice", detail))
        for _ in range(per_lang["quotation"] * scale):
            host = pool.take(lang)
            source = pool.take(lang, avoid={host.group})
            text, detail = quotation(source, rng)
            paragraphs = list(host.paragraphs)
            i = rng.randrange(len(paragraphs))
            paragraphs[i], detail["position"] = insert_at(
                paragraphs[i], text, lang, rng, "sentence"
            )
            quoting = add(host, "quoting", paragraphs)
            plan.pairs.append((add(source, "quoted"), quoting, "quotation", detail))
        titles: list[str] = []
        for _ in range(per_lang["references"] * scale):
            n = rng.randint(*REFERENCE_ENTRIES)
            while len(titles) < n:  # from an essay that is in no document
                titles += reference_titles(pool.take(lang), rng)
            chosen, titles = titles[:n], titles[n:]
            section = reference_list(chosen, lang, rng)
            one = pool.take(lang)
            two = pool.take(lang, avoid={one.group})
            a = add(one, "references", [*one.paragraphs, *section])
            b = add(two, "references", [*two.paragraphs, *section])
            plan.pairs.append((a, b, "references", {"entries": n}))
        for number in range(per_lang["boilerplate"] * scale):
            sentence = BOILERPLATE[lang][number]
            members: list[Doc] = []
            for _ in range(rng.randint(*BOILERPLATE_MEMBERS)):
                essay = pool.take(lang, avoid={m.group for m in members})
                own = list(essay.paragraphs)
                paragraphs = [sentence, *own] if rng.random() < 0.5 else [*own, sentence]
                members.append(add(essay, "boilerplate", paragraphs))
            detail = {"group": f"{lang}{number}", "members": len(members)}
            detail["words"] = count_words(sentence, lang)
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    plan.pairs.append((a, b, "boilerplate", detail))
    turn = 0
    while len(plan.docs) < target and (pool.left("en") or pool.left("zh")):
        lang = ("en", "zh")[turn % 2] if pool.left("en") and pool.left("zh") else None
        lang = lang or ("en" if pool.left("en") else "zh")
        turn += 1
        add(pool.take(lang), "negative")
    names = list(range(len(plan.docs)))
    random.Random(seed + 1).shuffle(names)
    for number, doc in zip(names, plan.docs, strict=True):
        doc.name = f"s{number:05d}.{doc.fmt}"
    return plan


def labels(plan: Plan, seed: int, size: str) -> dict:
    return {
        "seed": seed,
        "size": size,
        "version": VERSION,
        "documents": [
            {
                "file": "docs/" + d.name,
                "role": d.role,
                "lang": d.lang,
                "group": d.group,
                "format": d.fmt,
                **d.detail,
            }
            for d in sorted(plan.docs, key=lambda d: d.name)
        ],
        "pairs": [
            {"a": "docs/" + a.name, "b": "docs/" + b.name, "kind": kind, "lang": a.lang, **detail}
            for a, b, kind, detail in plan.pairs
        ],
    }


def write(plan: Plan, out: Path, seed: int, size: str) -> dict:
    """Write the documents to out/docs and labels.json; returns the labels."""
    if out.exists():
        shutil.rmtree(out)
    (out / "docs").mkdir(parents=True)
    for d in plan.docs:
        (write_docx if d.fmt == "docx" else write_txt)(out / "docs" / d.name, d.text)
    data = labels(plan, seed, size)
    (out / "labels.json").write_text(json.dumps(data, indent=1, ensure_ascii=False))
    return data


def ensure_corpus(size: str, seed: int, regenerate: bool) -> Path:
    corpus = Path(f"/tmp/simsift-splice/{size}")
    path = corpus / "labels.json"
    if not regenerate and path.exists():
        old = json.loads(path.read_text(encoding="utf-8"))
        if (old.get("seed"), old.get("version")) == (seed, VERSION):
            return corpus
    essays = essays_from(base_documents())
    plan = build(essays, seed, SIZES[size], TARGET_DOCUMENTS[size])
    write(plan, corpus, seed, size)
    return corpus


# ---------------------------------------------------------------- scan and scoring


def _truth(n: int, families: Sequence[int], links: Iterable[tuple[int, int]]):
    """A `score.Truth` for the reuse judge: one family per document, splices linked."""
    import numpy as np

    from bench.quality.score import Truth

    return Truth(
        n=n,
        family=np.asarray(families, np.int64),
        group=np.zeros(n, np.int64),
        template=np.full(n, -1),
        linked=frozenset(p for a, b in links for p in ((a, b), (b, a))),
        labeled={},
        is_reference=np.zeros(n, bool),
    )


def _share(n: int, d: int) -> str:
    return f"{n}/{d} ({n / d:.0%})" if d else "–"


def evaluate(corpus: Path, workers: int) -> dict:
    import numpy as np
    from simsift.core.pipeline.options import DEFAULT_K, ScanOptions
    from simsift.core.pipeline.scan import scan

    from bench.quality import reuse

    labels_data = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    started = time.monotonic()
    result = scan(ScanOptions(roots=(str(corpus / "docs"),), k_max=K_MAX, workers=workers))
    seconds = time.monotonic() - started
    n = len(result.documents)
    index = {str(Path(d.path).resolve()): i for i, d in enumerate(result.documents)}
    number = {
        d["file"]: index.get(str((corpus / d["file"]).resolve())) for d in labels_data["documents"]
    }
    info = {d["file"]: d for d in labels_data["documents"]}
    file_of = {i: f for f, i in number.items() if i is not None}

    whole = result.pairs.within(DEFAULT_K)
    partial = result.partial_pairs()
    whole_set = {frozenset((int(a), int(b))) for a, b in zip(whole.left, whole.right, strict=True)}
    partial_at = {
        frozenset((int(a), int(b))): i
        for i, (a, b) in enumerate(zip(partial.left, partial.right, strict=True))
    }
    reported = whole_set | set(partial_at)
    longest = getattr(partial, "longest_run", None)

    def key(p: dict) -> frozenset | None:
        a, b = number.get(p["a"]), number.get(p["b"])
        return None if a is None or b is None else frozenset((a, b))

    splice: dict = {"pairs": 0, "found": 0, "whole": 0, "by_bucket": {}, "by_lang": {}}
    splice |= {"by_bucket_lang": {}, "by_position": {}, "by_runs_in_copy": {}}
    copies: dict[str, list[bool]] = {}
    found_runs: list[int] = []
    kinds: dict[str, dict] = {k: {"pairs": 0, "reported": 0, "by_lang": {}} for k in NEGATIVE_KINDS}
    planted: dict[frozenset, str] = {}
    splice_keys: set[frozenset] = set()
    for p in labels_data["pairs"]:
        k = key(p)
        hit = k is not None and k in reported
        if p["kind"] == "splice":
            if k is not None:
                splice_keys.add(k)
            splice["pairs"] += 1
            splice["found"] += hit
            splice["whole"] += k is not None and k in whole_set
            for table, value in (
                ("by_bucket", p["bucket"]),
                ("by_lang", p["lang"]),
                ("by_bucket_lang", f"{p['bucket']} {p['lang']}"),
                ("by_position", p["position"]),
                ("by_runs_in_copy", str(p["runs_in_copy"])),
            ):
                cell = splice[table].setdefault(value, [0, 0])
                cell[0] += hit
                cell[1] += 1
            copies.setdefault(p["b"], []).append(hit)
            if hit and longest is not None and k in partial_at:
                found_runs.append(int(longest[partial_at[k]]))
        else:
            if k is not None:
                planted.setdefault(k, p["kind"])
            cell = kinds[p["kind"]]
            cell["pairs"] += 1
            cell["reported"] += hit
            lang = cell["by_lang"].setdefault(p["lang"], [0, 0])
            lang[0] += hit
            lang[1] += 1
    for table in ("by_bucket", "by_lang", "by_bucket_lang", "by_position", "by_runs_in_copy"):
        splice[table] = dict(sorted(splice[table].items()))
    splice["copies"] = len(copies)
    splice["copies_with_a_run_found"] = sum(any(v) for v in copies.values())
    splice["copies_with_every_run_found"] = sum(all(v) for v in copies.values())
    if found_runs:
        splice["median_longest_run_of_found_partial_pairs"] = sorted(found_runs)[
            len(found_runs) // 2
        ]

    # precision: strict, with the reuse judge (run.py's way), and planted pairs as false
    families = list(range(n))
    links = [(int(a), int(b)) for a, b in (tuple(k) for k in splice_keys)]
    truth = _truth(n, families, links)
    paragraphs = [d.paragraphs for d in result.documents]
    pairs = sorted(tuple(sorted(k)) for k in reported)
    left = np.array([a for a, _ in pairs], np.int64)
    right = np.array([b for _, b in pairs], np.int64)
    judged = reuse.judge(truth, paragraphs, left, right)
    keep = np.array([frozenset(p) not in planted for p in pairs], bool)
    rest = reuse.judge(truth, paragraphs, left[keep], right[keep])
    true = judged["related"]
    reuse_rest = rest[f"reuse_{reuse.REUSE_WORDS}"]
    precision = {
        "reported": len(reported),
        "whole_pairs_at_default_k": len(whole_set),
        "partial_pairs": len(partial_at),
        "true (labeled splice pairs)": true,
        "strict": judged["precision_strict"],
        "reuse_judge": judged[f"precision_{reuse.REUSE_WORDS}"],
        "reuse_judge_planted_false": round((true + reuse_rest) / len(reported), 4)
        if reported
        else 1.0,
        "judge": judged,
    }
    # the false positives by what they are, with examples
    words_cache: dict[int, list[str]] = {}

    def words(d: int) -> list[str]:
        if d not in words_cache:
            words_cache[d] = reuse.words_of(paragraphs[d])
        return words_cache[d]

    breakdown: Counter = Counter()
    examples = []
    for a, b in pairs:
        k = frozenset((a, b))
        if k in splice_keys:
            continue
        if k in planted:
            breakdown[f"planted {planted[k]}"] += 1
            continue
        fa, fb = file_of.get(a, "?"), file_of.get(b, "?")
        ia, ib = info.get(fa, {}), info.get(fb, {})
        shared = reuse.longest_shared_words(words(a), words(b))
        what = "same topic group" if ia.get("group") == ib.get("group") else "other groups"
        what += ", shares >= 15 words" if shared >= reuse.REUSE_WORDS else ", shares < 15 words"
        breakdown[what] += 1
        examples.append(
            (
                -shared,
                f"{Path(fa).name} ({ia.get('role')}, {ia.get('group')}) – "
                f"{Path(fb).name} ({ib.get('role')}, {ib.get('group')}): "
                f"{'whole' if k in whole_set else 'partial'}, longest shared run {shared:g} words",
            )
        )
    precision["false_positives"] = dict(sorted(breakdown.items()))
    precision["false_positive_examples"] = [e for _, e in sorted(examples)[:10]]
    return {
        "documents": len(labels_data["documents"]),
        "read": n,
        "languages": dict(Counter(d["lang"] for d in labels_data["documents"])),
        "formats": dict(Counter(d["format"] for d in labels_data["documents"])),
        "errors": [f"{Path(e.path).name}: {e.message}" for e in result.errors],
        "scan_seconds": round(seconds, 1),
        "default_k": DEFAULT_K,
        "splice": splice,
        "negatives": kinds,
        "precision": precision,
    }


# ---------------------------------------------------------------- report


def _cell(cell: Sequence[int] | None) -> str:
    return _share(cell[0], cell[1]) if cell else "–"


def markdown(data: dict) -> str:
    runs = data["runs"]
    first = next(iter(runs.values()))
    languages = ", ".join(f"{k} {v}" for k, v in first["languages"].items())
    bucket_names = [f"{lo}-{hi}" for lo, hi in BUCKETS]
    lines = [
        f"# Splice: copying at the grain of sentences ({data['size']} corpus)",
        "",
        f"`python -m bench.quality.splice --size {data['size']}` (see the module docstring). "
        f"{first['documents']} documents ({languages}), "
        f"seed {data['seed']}; reported = whole-document pairs within the default k "
        f"({first['default_k']}) + partial pairs. Recall: labeled (source, copy) pairs of "
        "spliced runs, by run length in words (Chinese: jieba words). Quotation / references "
        "/ boilerplate: share of those pairs reported (lower is better). Precision strict: "
        "only labeled splice pairs are true; *reuse judge*: reuse.py (a shared run of 15 "
        "words makes a pair true, planted ones included); *planted false*: the reuse judge, "
        "but the planted quotation / reference / boilerplate pairs count as false.",
        "",
        "Runs: "
        + "; ".join(
            f"**{k}**: {r['engine']} ({r['when']}; `{r.get('command', '')}`)"
            for k, r in runs.items()
        ),
        "",
        "| run | "
        + " | ".join(f"recall {b}" for b in bucket_names)
        + " | recall all | en | zh | quotation | references | boilerplate | reported pairs "
        "| precision strict | reuse judge | planted false | scan s |",
        "|---|" + "---|" * (len(bucket_names) + 11),
    ]
    for label, run in runs.items():
        s, neg, p = run["splice"], run["negatives"], run["precision"]
        lines.append(
            f"| {label} | "
            + " | ".join(_cell(s["by_bucket"].get(b)) for b in bucket_names)
            + f" | {_share(s['found'], s['pairs'])} | {_cell(s['by_lang'].get('en'))} | "
            f"{_cell(s['by_lang'].get('zh'))} | "
            + " | ".join(_share(neg[k]["reported"], neg[k]["pairs"]) for k in NEGATIVE_KINDS)
            + f" | {p['reported']} | {p['strict']:.3f} | {p['reuse_judge']:.3f} | "
            f"{p['reuse_judge_planted_false']:.3f} | {run['scan_seconds']} |"
        )
    lines.append("")
    for label, run in runs.items():
        s, neg, p = run["splice"], run["negatives"], run["precision"]
        lines += [
            f"## {label}: {run['engine']}",
            "",
            "| run length | en | zh | all |",
            "|---|---|---|---|",
        ]
        for b in bucket_names:
            lines.append(
                f"| {b} | {_cell(s['by_bucket_lang'].get(f'{b} en'))} | "
                f"{_cell(s['by_bucket_lang'].get(f'{b} zh'))} | {_cell(s['by_bucket'].get(b))} |"
            )
        lines += [
            f"| all | {_cell(s['by_lang'].get('en'))} | {_cell(s['by_lang'].get('zh'))} | "
            f"{_share(s['found'], s['pairs'])} |",
            "",
            "Spliced runs found by where they were inserted: "
            + ", ".join(f"{k} {_cell(v)}" for k, v in s["by_position"].items())
            + "; by runs in the copy: "
            + ", ".join(f"{k} {_cell(v)}" for k, v in s["by_runs_in_copy"].items())
            + f"; as whole-document pairs: {s['whole']}. Copies with a run found: "
            f"{_share(s['copies_with_a_run_found'], s['copies'])}, with every run found: "
            f"{_share(s['copies_with_every_run_found'], s['copies'])}."
            + (
                f" Median longest shared run (engine tokens) of the found partial pairs: "
                f"{s['median_longest_run_of_found_partial_pairs']}."
                if "median_longest_run_of_found_partial_pairs" in s
                else ""
            ),
            "",
            "Not copying, reported: "
            + "; ".join(
                f"{k} {_share(neg[k]['reported'], neg[k]['pairs'])} ("
                + ", ".join(f"{g} {_cell(v)}" for g, v in neg[k]["by_lang"].items())
                + ")"
                for k in NEGATIVE_KINDS
            )
            + ".",
            "",
            f"Reported pairs: {p['reported']} ({p['whole_pairs_at_default_k']} whole-document "
            f"at k={run['default_k']}, {p['partial_pairs']} partial); labeled splice pairs "
            f"among them {p['true (labeled splice pairs)']}; precision strict {p['strict']:.3f}, "
            f"reuse judge {p['reuse_judge']:.3f}, planted false "
            f"{p['reuse_judge_planted_false']:.3f}. The others: "
            + (", ".join(f"{k} {v}" for k, v in p["false_positives"].items()) or "none")
            + f". Scan {run['scan_seconds']} s; errors: {len(run['errors'])}.",
        ]
        if p["false_positive_examples"]:
            lines += ["", "Unplanned pairs reported (longest shared run first):", ""]
            lines += [f"- {e}" for e in p["false_positive_examples"]]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="small")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--label", default="after", help="name of this run in the results")
    parser.add_argument("--engine-commit", help="scan with the engine of this commit")
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "quality")
    args = parser.parse_args(argv)
    started = time.monotonic()
    engine = use_engine_at(args.engine_commit)
    corpus = ensure_corpus(args.size, args.seed, args.regenerate)
    run = {"engine": engine, "when": datetime.datetime.now().strftime("%Y-%m-%d %H:%M")}
    run["command"] = " ".join(["python -m bench.quality.splice", *(argv or sys.argv[1:])])
    run.update(evaluate(corpus, args.workers))
    import simsift.core

    run["engine_path"] = str(Path(simsift.core.__file__).resolve().parent)
    run["total_seconds"] = round(time.monotonic() - started, 1)
    path = args.out / f"splice-{args.size}.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    if (data.get("seed"), data.get("version")) != (args.seed, VERSION):
        data = {"size": args.size, "seed": args.seed, "version": VERSION, "runs": {}}
    data["runs"][args.label] = run
    data["runs"] = dict(sorted(data["runs"].items(), key=lambda kv: kv[0] != "before"))
    args.out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False))
    text = markdown(data)
    (args.out / f"splice-{args.size}.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
