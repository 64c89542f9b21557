"""Byte-identical documents contain each other in full, whatever is left out around them."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from simsift.core.match.evidence import PairEvidence
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan

from tests.core.corpus import chinese_paragraphs
from tests.core.test_passages import english_paragraphs


def _numbers(result) -> dict[str, int]:
    return {Path(d.path).name: i for i, d in enumerate(result.documents)}


def _assert_in_full(result, a: int, b: int) -> None:
    assert result.overlap(a, b) == (1.0, 1.0, 1.0)
    evidence = PairEvidence.of(result, a, b)
    assert evidence.containment_ab == evidence.containment_ba == 1.0
    similarity = result.similarity()
    assert similarity.index[a] == similarity.index[b] == 1.0
    assert similarity.top_share[a] == similarity.top_share[b] == 1.0


def test_identical_essays_with_a_third_unrelated_one_are_100_percent_each_way(tmp_path):
    rng = random.Random(1)
    paragraphs = english_paragraphs()
    essay = rng.sample(paragraphs, 12)
    essay[3] = f'As Smith wrote, "{essay[3]}" and that matters.'  # set apart: left out
    text = "\n\n".join(essay) + "\n\nReferences\n\nSmith, J. (2001). A book. Oxford: OUP.\n"
    (tmp_path / "a.txt").write_text(text, encoding="utf-8")
    shutil.copy(tmp_path / "a.txt", tmp_path / "b.txt")
    (tmp_path / "c.txt").write_text("\n\n".join(rng.sample(paragraphs, 10)), encoding="utf-8")
    result = scan(ScanOptions(roots=(str(tmp_path),), workers=0))
    doc = _numbers(result)
    _assert_in_full(result, doc["a.txt"], doc["b.txt"])
    assert result.overlap(doc["a.txt"], doc["c.txt"]) == (0.0, 0.0, 0.0)


def test_identical_essays_ending_in_a_short_line_after_the_prompt_are_100_percent(tmp_path):
    """A signature after a quoted prompt (template text) is too short for a passage or a
    run of its own: 99.6% before documents with the same text were matched in full."""
    rng = random.Random(1)
    pool = chinese_paragraphs()
    rng.shuffle(pool)
    prompt = pool[:3]
    (tmp_path / "prompt").mkdir()
    (tmp_path / "class").mkdir()
    (tmp_path / "prompt" / "prompt.txt").write_text("\n\n".join(prompt), encoding="utf-8")
    for i in range(8):
        body = pool[3 + 8 * i : 11 + 8 * i]
        essay = [f"第{i}组学生作文", "姓名：", "班级：三年二班", prompt[0], *body, prompt[2]]
        essay.append(f"签名{i}号 2024")
        (tmp_path / "class" / f"e{i}.txt").write_text("\n\n".join(essay), encoding="utf-8")
    shutil.copy(tmp_path / "class" / "e0.txt", tmp_path / "class" / "copy.txt")
    options = ScanOptions(
        roots=(str(tmp_path / "class"),),
        reference_roots=(str(tmp_path / "prompt"),),
        workers=0,
    )
    result = scan(options)
    doc = _numbers(result)
    assert result.passages.excluded_tokens[doc["copy.txt"]] > 0  # the prompt is left out
    _assert_in_full(result, doc["e0.txt"], doc["copy.txt"])
    for i in range(1, 8):  # the others only share the prompt and the form
        assert result.overlap(doc["e0.txt"], doc[f"e{i}.txt"])[0] < 0.1


@pytest.mark.parametrize("count_quotations", [False, True])
def test_same_text_is_credited_only_when_the_tokens_are_the_same(tmp_path, count_quotations):
    from simsift.core.match.passages import PassageOptions

    rng = random.Random(2)
    paragraphs = english_paragraphs()
    essay = rng.sample(paragraphs, 6)
    (tmp_path / "a.txt").write_text("\n\n".join(essay), encoding="utf-8")
    edited = [*essay[:-1], "A different last line of seven words."]
    (tmp_path / "b.txt").write_text("\n\n".join(edited), encoding="utf-8")
    passages = PassageOptions(count_quotations=count_quotations)
    result = scan(ScanOptions(roots=(str(tmp_path),), workers=0, passages=passages))
    doc = _numbers(result)
    ab, ba, _ = result.overlap(doc["a.txt"], doc["b.txt"])
    assert 0.8 < ab < 1.0 and 0.8 < ba < 1.0
