"""A collection's paraphrased and translated copies (`find_meaning_copies`): candidates,
hostile documents, progress and cancel."""

import threading

import numpy as np
import pytest
from simsift.core.match.meaning import (
    CandidateParameters,
    MeaningSketch,
    align,
    candidate_pairs,
    document_frequencies,
    find_meaning_copies,
    sketch,
)
from simsift.core.match.meaning.dictionary import dictionary
from simsift.core.progress import Cancelled, CancelToken

from .texts import OTHER, OTHER_CHINESE, PARAPHRASE, SAME_TOPIC, SOURCE, TRANSLATION

GLOSSARY = "\n".join(f"word{i}: 词语{i} 意思" for i in range(400))
CODE = "\n".join(f"    x{i} = compute(x{i - 1}, {i}) + offset[{i % 7}];" for i in range(1, 400))
NUMBERS = "\n".join("\t".join(str(i * j) for j in range(1, 12)) for i in range(1, 300))
LONG_SENTENCE = " ".join(f"term{i % 300} and more" for i in range(1700))
LYRICS = "\n".join(["Oh the river runs to the sea tonight", "我们一起唱歌到天亮"] * 200)
HOSTILE = (GLOSSARY, CODE, NUMBERS, LONG_SENTENCE, LYRICS)


def _collection() -> list[MeaningSketch]:
    return [
        sketch((OTHER, SOURCE)),  # 0
        sketch((PARAPHRASE,)),  # 1: paraphrases 0
        sketch((OTHER_CHINESE, TRANSLATION)),  # 2: translates 0
        sketch((SAME_TOPIC,)),  # 3: nobody's copy
    ]


def test_copies_of_a_collection():
    found = find_meaning_copies(_collection())
    assert {(0, 1), (0, 2)} <= {(i, j) for i, j, _ in found} <= {(0, 1), (0, 2), (1, 2)}
    kinds = {(i, j): {f.kind for f in fragments} for i, j, fragments in found}
    assert kinds[0, 1] == {"paraphrased"} and kinds[0, 2] == {"translated"}


def test_candidates_never_pair_a_document_with_itself():
    sketches = _collection() * 2
    left, right = candidate_pairs(sketches, document_frequencies(sketches))
    assert np.all(left < right) and len(left) == 8 * 7 // 2  # a small collection: all pairs
    only_keys = CandidateParameters(all_pairs_up_to=0)
    left, right = candidate_pairs(sketches, document_frequencies(sketches), only_keys)
    assert np.all(left < right) and (0, 4) in set(zip(left.tolist(), right.tolist(), strict=True))


@pytest.mark.parametrize("text", HOSTILE, ids=["glossary", "code", "numbers", "sentence", "lyrics"])
def test_hostile_documents_give_bounded_results(text):
    hostile = sketch((text,))
    assert len(hostile) and hostile.size.max() <= 50
    sketches = [hostile, sketch((text,)), sketch((text[: len(text) // 2],)), *_collection()]
    for i, j, fragments in find_meaning_copies(sketches):
        assert len(fragments) <= min(len(sketches[i]), len(sketches[j]))
        for fragment in fragments:
            assert len(fragment.sentence_pairs) <= 2 * min(len(sketches[i]), len(sketches[j]))


def test_progress_is_reported_and_ends_at_the_whole():
    seen = []
    find_meaning_copies(_collection(), progress=seen.append)
    assert seen and seen[-1].done == seen[-1].total
    assert [p.done for p in seen] == sorted(p.done for p in seen)


def test_cancel_before_the_start():
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Cancelled):
        find_meaning_copies(_collection(), cancel=cancel)


def test_cancel_while_running():
    cancel, reports = CancelToken(), threading.Event()

    def progress(report):
        if report.done > 0:
            cancel.cancel()
            reports.set()

    with pytest.raises(Cancelled):
        find_meaning_copies(_collection() * 3, progress=progress, cancel=cancel)
    assert reports.is_set()


def _topic_documents(n: int, words: list[str], joiner: str, seed: int) -> list[MeaningSketch]:
    """`n` documents of 20 sentences drawn from one vocabulary, Zipf-like: a few words in
    every document, many rare ones shared by chance."""
    rng = np.random.default_rng(seed)
    ranks = np.arange(1, len(words) + 1)
    p = (1.0 / ranks) / (1.0 / ranks).sum()
    docs = []
    for _ in range(n):
        picks = rng.choice(len(words), size=(20, 12), p=p)
        docs.append(sketch(tuple(joiner.join(words[w] for w in row) + "." for row in picks)))
    return docs


def test_candidates_stay_bounded_on_one_topic():
    rng = np.random.default_rng(41)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    english = ["".join(rng.choice(letters, size=7)) for _ in range(3000)]
    chinese = [w for w in dictionary().index if len(w) == 2][:3000]
    sketches = _topic_documents(300, english, " ", 1) + _topic_documents(300, chinese, "", 2)
    frequencies = document_frequencies(sketches)
    left, _ = candidate_pairs(sketches, frequencies)
    # common words make no candidates, rare ones shared by chance a few a document (3.2
    # here, 2.0 with 2,400 documents): near-linear
    assert len(left) <= 4 * len(sketches)


def test_a_collection_finds_what_its_pairs_aligned_alone_find():
    sketches = _collection() + _collection()  # each document in several pairs
    frequencies = document_frequencies(sketches)
    found = find_meaning_copies(sketches, frequencies=frequencies)
    assert found
    for i, j, fragments in found:
        assert fragments == align(sketches[i], sketches[j], frequencies)
