"""Text a reference document holds (the prompt) is shown as template text, never as
copied: in the document view (`document_stretches`) and side by side (`left_out_spans`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.report.text_kinds import (
    COPIED,
    OWN,
    TEMPLATE,
    document_stretches,
    left_out_spans,
)

from tests.core.test_passages import english_paragraphs

# a prompt line of 12 words: under the shortest match (15), so the scan does not leave it
# out, and both essays copy it along with the text around it
PROMPT_LINE = "Write about a harbour you know and the people who work there."


@pytest.fixture(scope="module")
def copied_with_prompt(tmp_path_factory):
    root = tmp_path_factory.mktemp("prompt")
    # without quotation marks: no set-apart text inside the prompt or the copied text
    paragraphs = [p for p in english_paragraphs() if not set(p) & set("\"'“”‘’`*")]
    rng = random.Random(4)
    rng.shuffle(paragraphs)
    (root / "prompt").mkdir()
    (root / "class").mkdir()
    prompt = [paragraphs[0], PROMPT_LINE, paragraphs[1]]
    (root / "prompt" / "prompt.txt").write_text("\n\n".join(prompt), encoding="utf-8")
    essay = [paragraphs[10], f"{paragraphs[11]} {PROMPT_LINE} {paragraphs[12]}", paragraphs[1]]
    essay += paragraphs[13:16]
    (root / "class" / "a.txt").write_text("\n\n".join(essay), encoding="utf-8")
    (root / "class" / "b.txt").write_text("\n\n".join([*essay[:-1], paragraphs[20]]))
    (root / "class" / "c.txt").write_text("\n\n".join(paragraphs[30:36]), encoding="utf-8")
    options = ScanOptions(
        roots=(str(root / "class"),), reference_roots=(str(root / "prompt"),), workers=0
    )
    result = scan(options)
    return result, {Path(d.path).name: i for i, d in enumerate(result.documents)}


def _kinds_of(paragraph: str, pieces, text: str) -> set[str]:
    start = paragraph.index(text)
    end = start + len(text)
    return {p.kind for p in pieces if p.start < end and p.end > start}


def test_a_short_prompt_line_inside_copied_text_is_template(copied_with_prompt):
    result, doc = copied_with_prompt
    a, b = doc["a.txt"], doc["b.txt"]
    assert result.overlap(a, b)[0] > 0.5
    stretches = document_stretches(result, a, [b])
    paragraph = result.documents[a].paragraphs[1]
    assert _kinds_of(paragraph, stretches[1], PROMPT_LINE[:-1]) == {TEMPLATE}
    assert COPIED in {p.kind for p in stretches[1]}  # the essay text around it is copied
    whole = result.documents[a].paragraphs[2]  # the prompt's paragraph, left out by the scan
    assert {p.kind for p in stretches[2]} == {TEMPLATE}
    assert whole


def test_side_by_side_greys_the_prompt_in_both_essays(copied_with_prompt):
    result, doc = copied_with_prompt
    for name in ("a.txt", "b.txt"):
        number = doc[name]
        paragraphs = result.documents[number].paragraphs
        spans = left_out_spans(result, number)
        assert all(kind not in (OWN, COPIED) for _, _, _, kind in spans)
        line_start = paragraphs[1].index(PROMPT_LINE)
        covered = [(s, e) for p, s, e, kind in spans if p == 1 and kind == TEMPLATE]
        assert any(
            s <= line_start + 1 and e >= line_start + len(PROMPT_LINE) - 1 for s, e in covered
        )
        assert (2, 0, len(paragraphs[2]), TEMPLATE) in spans


def test_a_reference_document_is_all_template_side_by_side(copied_with_prompt):
    result, doc = copied_with_prompt
    number = doc["prompt.txt"]
    paragraphs = result.documents[number].paragraphs
    assert left_out_spans(result, number) == [
        (i, 0, len(text), TEMPLATE) for i, text in enumerate(paragraphs) if text
    ]


def test_text_shown_from_elsewhere_gets_its_set_apart_text_only(copied_with_prompt):
    result, doc = copied_with_prompt
    shown = ['He said "the harbour never sleeps" and left.']
    spans = left_out_spans(result, doc["c.txt"], shown)
    assert [kind for *_, kind in spans] == ["quoted"]
