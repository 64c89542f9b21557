"""The splice bench's generator (fast: synthetic essays, no sources, no scan).

python -m pytest bench/quality/test_splice.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from bench.quality import splice
from bench.quality.sources import BaseDoc

ZH_WORDS = ("数据", "系统", "文件", "用户", "程序", "网络", "服务", "配置", "安装", "错误", "信息")
PLAN = {"splice": 6, "quotation": 2, "references": 1, "boilerplate": 1}


def _essay(lang: str, group: str, rng: random.Random) -> BaseDoc:
    """About 250 words in 5 paragraphs of 3-4 sentences."""
    paragraphs = []
    for _ in range(5):
        sentences = []
        for _ in range(rng.randint(3, 4)):
            n = rng.randint(10, 16)
            if lang == "zh":
                words = [rng.choice(ZH_WORDS) for _ in range(n)]
                sentences.append("".join(words[:5]) + "，" + "".join(words[5:]) + "。")
            else:
                words = [f"w{rng.randrange(400)}" for _ in range(n)]
                sentences.append(" ".join(words).capitalize() + ".")
        paragraphs.append(("" if lang == "zh" else " ").join(sentences))
    return BaseDoc(f"{group} title", tuple(paragraphs), group, lang)


def _essays(count: int = 45) -> dict[str, list[BaseDoc]]:
    rng = random.Random(5)
    return {lang: [_essay(lang, f"g{i % 6}", rng) for i in range(count)] for lang in ("en", "zh")}


def _text(doc: splice.Doc) -> str:
    return splice.join(doc.text.paragraphs, doc.lang)


def test_runs_have_their_length():
    rng = random.Random(1)
    for lang in ("en", "zh"):
        essay = _essay(lang, "g", rng)
        for words in (15, 29, 30, 59, 60, 120):
            run = splice.take_run(essay, words, rng)
            assert run in splice.join(essay.paragraphs, lang)
            assert abs(splice.count_words(run, lang) - words) <= (0 if lang == "en" else 2)
    assert [splice.bucket_of(n) for n in (15, 29, 30, 59, 60, 120)] == [
        "15-29",
        "15-29",
        "30-59",
        "30-59",
        "60-120",
        "60-120",
    ]


def test_insert_inside_the_paragraph():
    rng = random.Random(2)
    for lang, piece in (("en", "COPIED RUN"), ("zh", "抄来的句子")):
        paragraph = _essay(lang, "g", rng).paragraphs[0]
        for where in ("sentence", "mid"):
            out, went = splice.insert_at(paragraph, piece, lang, rng, where)
            assert went == where  # the synthetic paragraphs have inner sentence ends
            at = out.index(piece)
            assert at > 0 and at + len(piece) < len(out)
            if lang == "en":
                assert out.replace(f" {piece} ", " ").split() == paragraph.split()
            else:
                assert out.replace(piece, "") == paragraph


def test_boilerplate_sentences():
    for lang, sentences in splice.BOILERPLATE.items():
        assert len(set(sentences)) == len(sentences) == 8
        for s in sentences:
            assert 15 <= splice.count_words(s, lang) <= 30, s


def test_same_seed_same_corpus(tmp_path: Path):
    one = splice.build(_essays(), 3, 1, 80, PLAN)
    two = splice.build(_essays(), 3, 1, 80, PLAN)
    assert splice.labels(one, 3, "t") == splice.labels(two, 3, "t")
    assert [d.text for d in one.docs] == [d.text for d in two.docs]
    other = splice.build(_essays(), 4, 1, 80, PLAN)
    assert [d.text for d in other.docs] != [d.text for d in one.docs]
    a = splice.write(one, tmp_path / "a", 3, "t")
    splice.write(two, tmp_path / "b", 3, "t")
    assert (tmp_path / "a" / "labels.json").read_bytes() == (
        tmp_path / "b" / "labels.json"
    ).read_bytes()
    for d in a["documents"]:
        if d["format"] == "txt":
            assert (tmp_path / "a" / d["file"]).read_bytes() == (
                tmp_path / "b" / d["file"]
            ).read_bytes()
    assert len(a["documents"]) == len(list((tmp_path / "a" / "docs").iterdir())) == 80
    assert json.loads((tmp_path / "a" / "labels.json").read_text())["version"] == splice.VERSION


def test_the_labels_say_what_the_text_holds():
    plan = splice.build(_essays(), 3, 1, 80, PLAN)
    assert len({d.name for d in plan.docs}) == len(plan.docs) == 80
    kinds: dict[str, list] = {}
    for a, b, kind, detail in plan.pairs:
        kinds.setdefault(kind, []).append(detail)
        assert a is not b and a.lang == b.lang
        if kind == "splice":
            assert detail["text"] in _text(b) and detail["text"] in _text(a)
            assert a.group != b.group and a.role == "source" and b.role == "splice"
            assert detail["bucket"] == splice.bucket_of(detail["words"])
        elif kind == "quotation":
            left, right = detail["marks"]
            quoted = left + detail["text"] + right
            assert quoted in _text(b) and detail["citation"] in _text(b)
            assert not splice._QUOTE_CHARS.search(detail["text"])
            assert detail["text"] in _text(a) and 25 <= detail["words"] <= 60
        elif kind == "references":
            heading = "参考文献" if a.lang == "zh" else "References"
            tail = a.text.paragraphs[-1 - detail["entries"] :]
            assert tail == b.text.paragraphs[-1 - detail["entries"] :] and tail[0] == heading
            assert a.group != b.group
        else:
            shared = set(a.text.paragraphs) & set(b.text.paragraphs)
            assert any(s in splice.BOILERPLATE[a.lang] for s in shared)
    runs = kinds["splice"]
    assert len(runs) == 2 * 2 * PLAN["splice"]  # 1, 2, 3 runs per copy in equal numbers
    assert {r["bucket"] for r in runs} == {"15-29", "30-59", "60-120"}
    assert len(kinds["quotation"]) == 2 * PLAN["quotation"]
    assert len(kinds["references"]) == 2 * PLAN["references"]
    assert {d.role for d in plan.docs} >= {"negative", "boilerplate", "quoted", "quoting"}


def test_essays_share_no_run_of_their_own():
    rng = random.Random(6)
    base = [_essay("en", f"g{i // 2}", rng) for i in range(8)]
    twin = base[0].paragraphs[1]
    base[5] = BaseDoc(base[5].title, (*base[5].paragraphs, twin), base[5].group, "en")
    essays = splice.essays_from(base)["en"]
    assert essays and all(len(e.paragraphs) >= 3 for e in essays)
    assert all(
        splice.ESSAY_WORDS[0] <= splice.essay_words(e.paragraphs, "en") <= splice.ESSAY_WORDS[1]
        for e in essays
    )
    assert sum(twin in e.paragraphs for e in essays) == 1
    assert all(e.title.split()[0] in e.paragraphs[0] for e in essays)
