"""Boilerplate shared by a handful of documents (a course footer, an honour-code statement)
is common text, not copying; the same words copied any other way still are."""

from __future__ import annotations

import random

import numpy as np
import pytest
from simsift.core.match.passages import PassageOptions, analyze_passages
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.report.tables import common_rows
from simsift.core.report.text_kinds import COMMON, document_stretches
from simsift.core.text.features import FeatureWeights
from simsift.core.text.tokens import token_stream

from tests.core.corpus import chinese_paragraphs
from tests.core.test_passages import english_paragraphs

HONOUR = (
    "I confirm that this essay is entirely my own work and that every source I have used "
    "is acknowledged in the text and in the reference list."
)  # 27 words, one token each
HONOUR_ZH = (
    "本人郑重声明：所提交的作业是本人独立完成的成果，文中引用他人观点和资料之处均已明确注明出处。"
)


@pytest.fixture(scope="module")
def words() -> list[str]:
    """Distinct real words that are one token each: essays drawn from them share no run."""
    text = " ".join(english_paragraphs()).split()
    return sorted({w.lower() for w in text if w.isascii() and w.isalpha()})


def essays(words: list[str], n: int, seed: int = 1, paragraphs: int = 5) -> list[list[str]]:
    """n unrelated essays of `paragraphs` paragraphs of 60-100 random words."""
    rng = random.Random(seed)
    return [
        [" ".join(rng.choices(words, k=rng.randint(60, 100))) for _ in range(paragraphs)]
        for _ in range(n)
    ]


def analyzed(docs: list[list[str]], options: PassageOptions | None = None):
    streams = [token_stream(d) for d in docs]
    options = options or PassageOptions()
    result = analyze_passages(streams, np.zeros(len(docs), bool), FeatureWeights(), options)
    return result, streams


def partial_pairs(result) -> set[tuple[int, int]]:
    found = result.partial()
    return {(int(a), int(b)) for a, b in zip(found.left, found.right, strict=True)}


def all_pairs(n: int) -> set[tuple[int, int]]:
    return {(a, b) for a in range(n) for b in range(a + 1, n)}


def left_out(result, doc: int, start: int, stop: int) -> bool:
    """Whether tokens [start, stop) of `doc` are all left out (never counted)."""
    mask = np.zeros(stop, bool)
    for a, b in result.left_out_in(doc):
        mask[a : min(b, stop)] = True
    return bool(mask[start:stop].all())


@pytest.mark.parametrize(("n", "others"), [(3, 0), (4, 0), (6, 34)])
def test_an_honour_code_closing_three_or_more_essays_is_common_text_not_copying(words, n, others):
    """Too few documents for the common-text rule (more than 10, or more than 20% of them
    and at least 5), but a paragraph of its own closing each: common text all the same."""
    docs = [[*own, HONOUR] for own in essays(words, n)] + essays(words, others, seed=99)
    result, streams = analyzed(docs)
    assert partial_pairs(result) == set()
    # listed once as common text, held by every essay, and left out whole in each
    runs = result.common_runs
    assert len(runs) == 1 and int(runs.documents[0]) == n
    assert int(runs.length[0]) == 27
    for d in range(n):
        footer = int(streams[d].para_starts[-1])
        assert left_out(result, d, footer, len(streams[d]))
        assert result.excluded_tokens[d] == 27
        assert result.longest_run(0, d) == 0 or d == 0


def test_an_honour_code_opening_essays_under_a_heading_is_common_text_too(words):
    docs = [["Essay 3", HONOUR, *own] for own in essays(words, 3, seed=2)]
    result, streams = analyzed(docs)
    assert partial_pairs(result) == set()
    assert [int(x) for x in result.common_runs.documents] == [3]
    for d, stream in enumerate(streams):
        assert left_out(result, d, int(stream.para_starts[1]), int(stream.para_starts[2]))


def test_a_chinese_statement_closing_three_essays_is_common_text():
    own = chinese_paragraphs(200)
    docs = [[*own[i * 4 : i * 4 + 4], HONOUR_ZH] for i in range(3)]
    result, _ = analyzed(docs)
    assert partial_pairs(result) == set()
    assert [int(x) for x in result.common_runs.documents] == [3]


def test_raising_common_text_above_makes_footers_copying_again(words):
    """Boilerplate is common in more than a fifth of the documents "Common text above"
    asks of any text (at least 3): four footers are common text under the default 10,
    copying under 20 (five needed)."""
    docs = [[*own, HONOUR] for own in essays(words, 4, seed=13)]
    assert PassageOptions().common_rule().edge_docs == 3
    assert PassageOptions(common_max_docs=20).common_rule().edge_docs == 5
    assert partial_pairs(analyzed(docs)[0]) == set()
    raised, _ = analyzed(docs, PassageOptions(common_max_docs=20))
    assert partial_pairs(raised) == all_pairs(4)
    assert len(raised.common_runs) == 0


def test_the_same_sentence_spliced_inside_three_essays_own_paragraphs_is_still_copying(words):
    """A ring copying one sentence into their own prose: every pair is a partial copy."""
    docs = essays(words, 3, seed=3)
    for own in docs:
        half = own[2].split()
        own[2] = " ".join([*half[:30], HONOUR, *half[30:]])
    result, _ = analyzed(docs)
    assert partial_pairs(result) == all_pairs(3)
    assert len(result.common_runs) == 0
    assert result.longest_run(0, 1) == 27


def test_a_long_paragraph_copied_to_the_end_of_three_essays_is_still_copying(words):
    copied = " ".join(random.Random(9).choices(words, k=80))
    docs = [[*own, copied] for own in essays(words, 3, seed=4)]
    result, _ = analyzed(docs)
    assert partial_pairs(result) == all_pairs(3)
    assert len(result.common_runs) == 0
    assert result.longest_run(1, 2) == 80


def test_two_essays_ending_in_the_same_sentence_are_still_a_pair(words):
    """Two documents are a copy and its source as well as two uses of a footer: boilerplate
    needs three."""
    docs = [[*own, HONOUR] for own in essays(words, 2, seed=5)]
    result, _ = analyzed(docs)
    assert partial_pairs(result) == {(0, 1)}


def test_text_spliced_into_the_prose_of_one_of_four_holders_is_not_boilerplate(words):
    """Boilerplate is a paragraph of its own in (nearly) every document holding it: three
    footers and one essay that copied the sentence into its own paragraph are copying."""
    docs = [[*own, HONOUR] for own in essays(words, 3, seed=6)]
    spliced = essays(words, 1, seed=7)[0]
    half = spliced[1].split()
    spliced[1] = " ".join([*half[:40], HONOUR, *half[40:]])
    result, _ = analyzed([*docs, spliced])
    assert partial_pairs(result) == all_pairs(4)
    assert len(result.common_runs) == 0


def test_a_pair_sharing_the_footer_and_more_is_reported_for_the_more_alone(words):
    """Essays 0 and 3 end in the same copied paragraph followed by the footer that 1 and 2
    end in too: the footer is common text, the paragraph before it is still copying."""
    docs = [[*own, HONOUR] for own in essays(words, 3, seed=8)]
    copied = docs[0][-2]
    copy = [*essays(words, 1, seed=10)[0], copied, HONOUR]
    splice = " ".join(random.Random(11).choices(words, k=20))
    docs[1][1] = " ".join([*docs[1][1].split()[:20], splice, *docs[1][1].split()[20:]])
    docs[2][3] = " ".join([*docs[2][3].split()[:10], splice, *docs[2][3].split()[10:]])
    result, _ = analyzed([*docs, copy])
    assert partial_pairs(result) == {(0, 3), (1, 2)}
    assert [int(x) for x in result.common_runs.documents] == [4]
    assert result.longest_run(0, 3) == len(copied.split())
    assert result.longest_run(1, 2) == 20


def test_a_scan_shows_boilerplate_as_common_text_in_every_view(tmp_path, words):
    """Partial pairs, the Common text table and a document's stretches agree."""
    for number, own in enumerate(essays(words, 4, seed=12)):
        body = "\n\n".join([f"Essay {number} on methods", *own, HONOUR])
        (tmp_path / f"essay{number}.txt").write_text(body, encoding="utf-8")
    result = scan(ScanOptions(roots=(str(tmp_path),), workers=0))
    assert len(result.documents) == 4
    assert len(result.partial_pairs()) == 0
    rows = common_rows(result)
    assert [row["documents"] for row in rows] == [4]
    assert [row["occurrences"] for row in rows] == [4]
    assert "entirely my own work" in rows[0]["text"]
    for doc in range(4):
        stretches = document_stretches(result, doc, [])
        last = stretches[-1]
        assert [s.kind for s in last] == [COMMON]
        assert last[0].documents == 4
