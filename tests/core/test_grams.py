"""The gram layer: every copied run of words found, boilerplate and templates set apart."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

import numpy as np
import pytest
from simsift.core.match import grams
from simsift.core.match.grams import (
    CommonRule,
    concatenated,
    cover,
    kept_grams,
    set_apart_mask,
    shared_runs,
    stretches,
    window_for,
    winnow,
)
from simsift.core.match.passages import PassageOptions, analyze_passages
from simsift.core.progress import Cancelled, CancelToken
from simsift.core.text.features import FeatureWeights
from simsift.core.text.tokens import token_stream

from tests.core.corpus import chinese_paragraphs
from tests.core.test_passages import english_paragraphs

RULE = CommonRule(share=0.2, min_docs=5, max_docs=10)


@pytest.fixture(scope="module")
def words() -> list[str]:
    """Distinct real words that are one token each (lengths in words are in tokens)."""
    text = " ".join(english_paragraphs()).split()
    return sorted({w.lower() for w in text if w.isascii() and w.isalpha()})


def essay(words: list[str], rng: random.Random, n: int = 300) -> list[str]:
    """n words drawn at random: two essays share no run of words unless planted."""
    return rng.choices(words, k=n)


def runs_of(docs: list[list[str]], min_run: int = 15, reference=(), left_out=None):
    streams = [token_stream([" ".join(d)]) for d in docs]
    hashes, offsets = concatenated(streams)
    kept = winnow(hashes, offsets, window_for(min_run))
    is_reference = np.isin(np.arange(len(docs)), reference)
    mask = np.zeros(len(hashes), bool) if left_out is None else left_out
    return shared_runs(hashes, offsets, kept, (mask, None), is_reference, min_run, RULE)


def test_every_spliced_run_of_the_shortest_length_or_more_is_found_whole(words):
    rng = random.Random(7)
    docs, planted = [], {}
    for length in [15, 16, 17, 19, 23, 30, 41, 57, 60, 88, 120] * 3:
        source, host = essay(words, rng, 200), essay(words, rng)
        at, start = rng.randrange(1, len(host)), rng.randrange(len(source) - length)
        # a run cut mid-sentence, inside one of the host's own paragraphs
        docs += [source, [*host[:at], "zqx", *source[start : start + length], "zqy", *host[at:]]]
        planted[len(docs) - 1] = (start, at + 1, length)
    runs = runs_of(docs).runs
    assert len(runs) == len(planted)
    for copy, (start, at, length) in planted.items():
        mine = runs.subset((runs.left == copy - 1) & (runs.right == copy))
        found = zip(
            mine.start_left.tolist(), mine.start_right.tolist(), mine.length.tolist(), strict=True
        )
        assert set(found) == {(start, at, length)}, (copy, length)


def test_runs_shorter_than_the_shortest_length_are_not_matches(words):
    rng = random.Random(3)
    source = essay(words, rng)
    docs = [source]
    for length in (8, 10, 13, 14):
        host = essay(words, rng)
        docs.append([*host[:100], "zqx", *source[50 : 50 + length], "zqy", *host[100:]])
    runs = runs_of(docs).runs
    assert not np.any(runs.left == 0)


def test_chinese_runs_are_found_at_the_grain_of_jieba_words():
    paragraphs = chinese_paragraphs()
    if len(paragraphs) < 20:
        pytest.skip("Chinese seed text not available")
    source, host = paragraphs[0] + paragraphs[1], paragraphs[5] + paragraphs[6]
    copied = source[40:100]
    copy = host[:80] + "。" + copied + "。" + host[80:]
    streams = [token_stream([t]) for t in (source, copy)]
    words = len(token_stream([copied[2:-2]]))  # its ends may be cut mid-word
    hashes, offsets = concatenated(streams)
    kept = winnow(hashes, offsets, window_for(15))
    runs = shared_runs(
        hashes, offsets, kept, (np.zeros(len(hashes), bool), None), np.zeros(2, bool), 15, RULE
    )
    # jieba may cut the words at the copy's two ends differently
    assert len(runs.runs) == 1 and words - 3 <= runs.runs.length[0] <= words + 4


def test_a_document_keeps_the_same_grams_whatever_is_scanned_beside_it(words):
    rng = random.Random(5)
    docs = [essay(words, rng, n) for n in (300, 7, 14, 40, 500)]
    streams = [token_stream([" ".join(d)]) for d in docs]
    hashes, offsets = concatenated(streams)
    together = winnow(hashes, offsets, window_for(15))
    for d, stream in enumerate(streams):
        alone = winnow(*concatenated([stream]), window_for(15))
        mine = together.doc == d
        assert sorted(alone.position.tolist()) == sorted(together.position[mine].tolist())
    assert np.count_nonzero(together.doc == 1) == 0  # under a gram: nothing to keep
    assert np.count_nonzero(together.doc == 2) == 1  # under a window: its smallest gram


def test_a_sentence_in_many_documents_is_common_text_and_pairs_none(words):
    rng = random.Random(11)
    notice = (
        "this essay is my own work and I have acknowledged every source I used honestly "
        "as the honour code of the department asks of every student"
    )
    notice = notice.split()
    docs = [[*essay(words, rng, 200), *notice, *essay(words, rng, 200)] for _ in range(12)]
    result = runs_of(docs)
    assert len(result.runs) == 0
    _, offsets = concatenated([token_stream([" ".join(d)]) for d in docs])
    first = slice(offsets[0] + 200, offsets[0] + 200 + len(notice))
    assert len(notice) == 26
    # its middle at least: a window reaching into one's own text keeps another gram
    assert result.common[first][window_for(15) - 1 : 1 - window_for(15)].all()
    listed = result.common_runs  # one text to list, in all 12 documents
    assert len(listed) == 1 and listed.documents[0] == 12
    assert listed.occurrences[0] == 12
    assert 200 <= listed.start[0] < listed.start[0] + listed.length[0] <= 200 + len(notice)


def test_common_text_counts_each_time_it_stands_in_a_document(words):
    """The Common text table's "Times": a notice twice in three of twelve documents."""
    rng = random.Random(12)
    notice = " ".join(essay(words, rng, 26)).split()
    docs = [[*essay(words, rng, 200), *notice, *essay(words, rng, 200)] for _ in range(12)]
    for doc in docs[:3]:
        doc += [*essay(words, rng, 100), *notice, *essay(words, rng, 50)]
    listed = runs_of(docs).common_runs
    assert listed.documents.tolist() == [12]
    assert listed.occurrences.tolist() == [15]


def test_text_shared_with_a_reference_document_is_template_and_pairs_none(words):
    rng = random.Random(13)
    prompt = essay(words, rng, 40)
    docs = [[*essay(words, rng, 150), *prompt, *essay(words, rng, 150)] for _ in range(3)]
    result = runs_of([*docs, prompt], reference=[3])
    assert len(result.runs) == 0
    assert result.template.sum() >= 3 * 40 - 6


def test_a_sentence_repeated_all_through_two_files_stays_bounded(words):
    sentence = words[:20]
    docs = [sentence * 3000, [*words[500:560], *sentence * 2000]]
    result = runs_of(docs)
    assert len(result.runs) >= 1
    assert result.runs.length.max() >= 2000 * 20


def spliced_corpus(words, lengths, seed=1):
    rng = random.Random(seed)
    source = essay(words, rng, 600)
    docs = [[" ".join(source)]]
    for length in lengths:
        host = essay(words, rng, 400)
        start = rng.randrange(len(source) - length)
        paragraphs = [" ".join(host[i : i + 100]) for i in range(0, 400, 100)]
        middle = paragraphs[2].split()
        spliced = [*middle[:50], "zqx", *source[start : start + length], "zqy", *middle[50:]]
        paragraphs[2] = " ".join(spliced)
        docs.append(paragraphs)
    return [token_stream(d) for d in docs]


def test_splices_of_fifteen_words_or_more_are_partial_copies(words):
    lengths = (15, 30, 50, 100)
    streams = spliced_corpus(words, lengths)
    result = analyze_passages(
        streams, np.zeros(len(streams), bool), FeatureWeights(), PassageOptions()
    )
    partial = result.partial()
    assert sorted(partial.right.tolist()) == [1, 2, 3, 4]
    assert (partial.left == 0).all()
    assert [int(result.longest_run(0, d)) for d in (1, 2, 3, 4)] == list(lengths)
    links = result.links(2, 0)
    assert any(link.distance == 0 and link.tokens_a[1] - link.tokens_a[0] == 30 for link in links)


def test_the_gram_layer_stops_on_cancel(words):
    streams = spliced_corpus(words, (30,) * 20)
    cancel = CancelToken()
    seen = []

    def progress(report):
        seen.append(report)
        if len(seen) > 5:
            cancel.cancel()

    with pytest.raises(Cancelled):
        analyze_passages(
            streams,
            np.zeros(len(streams), bool),
            FeatureWeights(),
            PassageOptions(),
            progress=progress,
            cancel=cancel,
        )


class _CancelAt(CancelToken):
    """Cancelled at its n-th check; counts its checks."""

    def __init__(self, n: int | None = None) -> None:
        super().__init__()
        self.n, self.checks = n, 0

    def check(self) -> None:
        self.checks += 1
        if self.checks == self.n:
            self.cancel()
        super().check()


def test_cancel_at_any_check_of_the_passage_stage_leaves_the_next_scan_unchanged(words, tmp_path):
    from simsift.core.store.result_cache import ComparisonCache

    streams = spliced_corpus(words, (30, 50, 15, 100) * 3)
    not_reference = np.zeros(len(streams), bool)
    expected = analyze_passages(streams, not_reference, FeatureWeights(), PassageOptions())
    counting = _CancelAt()
    analyze_passages(streams, not_reference, FeatureWeights(), PassageOptions(), cancel=counting)
    assert counting.checks > 40  # between its whole-array steps, not only at its ends (19 before)
    for n in range(1, counting.checks + 1):
        # a cancelled search leaves no pair graph behind, or a whole one
        cache = ComparisonCache(tmp_path / f"cache-{n}")
        with pytest.raises(Cancelled):
            analyze_passages(
                streams,
                not_reference,
                FeatureWeights(),
                PassageOptions(),
                cancel=_CancelAt(n),
                pair_search=cache.pair_search("passages"),
            )
        again = analyze_passages(
            streams,
            not_reference,
            FeatureWeights(),
            PassageOptions(),
            pair_search=cache.pair_search("passages"),
        )
        for field in ("left", "right", "matched_left", "matched_right", "longest_run"):
            assert (
                getattr(again.overlaps, field).tolist()
                == getattr(expected.overlaps, field).tolist()
            )


def quoting_corpus(words, quote: str):
    """A source and an essay holding 40 of its words as `quote` makes them (a format
    string), and an essay sharing only a reference list with the first."""
    rng = random.Random(21)
    source, own = essay(words, rng, 400), essay(words, rng, 400)
    quoted = " ".join(source[100:140])
    references = ["References"] + [
        f"{' '.join(essay(words, rng, 6)).title()} ({2000 + i}). {' '.join(essay(words, rng, 8))}."
        for i in range(8)
    ]
    texts = [
        [" ".join(source[:200]), " ".join(source[200:]), *references],
        [
            " ".join(own[:150]),
            " ".join(own[150:300]) + " " + quote.format(quoted),
            " ".join(own[300:]),
        ],
        [" ".join(essay(words, rng, 200)), " ".join(essay(words, rng, 200)), *references],
    ]
    return [token_stream(t) for t in texts]


def partial_pairs(streams, **options) -> set[tuple[int, int]]:
    result = analyze_passages(
        streams, np.zeros(len(streams), bool), FeatureWeights(), PassageOptions(**options)
    )
    partial = result.partial()
    return set(zip(partial.left.tolist(), partial.right.tolist(), strict=True))


def test_a_cited_quotation_and_a_shared_bibliography_are_not_copying(words):
    streams = quoting_corpus(words, "As Smith wrote, “{}” (Smith, 2019).")
    assert partial_pairs(streams) == set()
    assert partial_pairs(streams, count_quotations=True) == {(0, 1)}
    assert partial_pairs(streams, count_bibliography=True) == {(0, 2)}


def test_a_stray_quotation_mark_does_not_hide_a_copied_run(words):
    # an opening mark that never closes is no quotation: the 40 words after it count
    streams = quoting_corpus(words, "As Smith wrote, “{} and so on, as I see it")
    assert partial_pairs(streams) == {(0, 1)}


@pytest.mark.parametrize(
    "quoted, counted",
    [
        (["“three", "quoted", "words”"], 28),  # a quotation: its words do not count
        (["“stable”"], 29),  # a quoted term: the writer's own words
    ],
)
def test_a_short_quotation_inside_a_copied_run_does_not_break_it(words, quoted, counted):
    rng = random.Random(23)
    copied = [*essay(words, rng, 14), *quoted, *essay(words, rng, 14)]
    streams = [
        token_stream([" ".join([*essay(words, rng, 100), *copied, *essay(words, rng, 100)])]),
        token_stream([" ".join([*essay(words, rng, 100), "zqx", *copied, "zqy"])]),
    ]
    result = analyze_passages(streams, np.zeros(2, bool), FeatureWeights(), PassageOptions())
    # the quoted words do not cut the run in two
    assert result.longest_run(0, 1) == counted
    assert len(result.partial()) == 1


def test_a_rescan_makes_only_changed_documents_grams_and_finds_what_a_fresh_scan_finds(words):
    before = spliced_corpus(words, (30, 50, 100), seed=3)
    after = [*before[:2], spliced_corpus(words, (40,), seed=4)[1], before[3]]
    analyze = partial(analyze_passages, is_reference=np.zeros(4, bool), weights=FeatureWeights())
    first = analyze(before, options=PassageOptions())
    known = (np.array([0, 1, -1, 3]), first)  # document 2 changed
    rescanned = analyze(after, options=PassageOptions(), known=known)
    fresh = analyze(after, options=PassageOptions())
    for name in ("value", "doc", "position"):
        np.testing.assert_array_equal(getattr(rescanned.kept, name), getattr(fresh.kept, name))
    for name in ("left", "right", "start_left", "start_right", "length"):
        np.testing.assert_array_equal(getattr(rescanned.runs, name), getattr(fresh.runs, name))
    # the changed essay copies from a source not scanned; the others as before
    assert (fresh.longest_run(0, 1), fresh.longest_run(0, 2), fresh.longest_run(0, 3)) == (
        30,
        0,
        100,
    )


def test_stretches_of_a_mask_end_where_a_document_starts():
    mask = np.array([1, 1, 1, 0, 1, 1], bool)
    starts, stops = stretches(mask, np.array([0, 2, 5, 6]))
    assert list(zip(starts.tolist(), stops.tolist(), strict=True)) == [
        (0, 2),
        (2, 3),
        (4, 5),
        (5, 6),
    ]


def small_pieces(monkeypatch, size: int) -> None:
    """The gram layer works in pieces of `size` tokens, kept grams or seed pairs."""
    for name in ("_WINNOW_CHUNK", "_ROW_CHUNK", "_SEED_CHUNK", "_EXTEND_TOKENS"):
        monkeypatch.setattr(grams, name, size)


def test_documents_winnowed_a_piece_at_a_time_keep_what_all_end_to_end_keep(words, monkeypatch):
    rng = random.Random(31)
    sizes = (300, 0, 7, 14, 40, 2500, 3, 500, 9, 16, 1200)
    streams = [token_stream([" ".join(essay(words, rng, n))]) for n in sizes]
    whole = winnow(*concatenated(streams), window_for(15))
    small_pieces(monkeypatch, 200)  # the 2,500-word document is one piece, cut in steps
    for found in (kept_grams(streams, 15), winnow(*concatenated(streams), window_for(15))):
        for name in ("value", "doc", "position"):
            np.testing.assert_array_equal(getattr(found, name), getattr(whole, name))
    assert found.doc.dtype == found.position.dtype == np.int32


def test_runs_extended_a_few_documents_at_a_time_are_the_runs_of_all_at_once(words, monkeypatch):
    rng = random.Random(37)
    prompt, notice = essay(words, rng, 40), essay(words, rng, 30)
    docs = [[" ".join(d)] for d in spliced_corpus_words(words, rng)]
    docs += [
        [" ".join([*essay(words, rng, 100), *notice, *essay(words, rng, 50)])] for _ in range(12)
    ]
    docs += [
        [" ".join([*essay(words, rng, 80), *prompt, *essay(words, rng, 80)])] for _ in range(3)
    ]
    docs.append([" ".join(prompt)])  # the reference document
    streams = [token_stream(d) for d in docs]
    hashes, offsets = concatenated(streams)
    is_reference = np.zeros(len(streams), bool)
    is_reference[-1] = True
    set_apart = np.random.default_rng(3).random(len(hashes)) < 0.01
    masks = (np.zeros(len(hashes), bool), set_apart)

    def found():
        kept = kept_grams(streams, 15)
        return shared_runs(streams, offsets, kept, masks, is_reference, 15, RULE)

    kept = winnow(hashes, offsets, window_for(15))
    whole = shared_runs(hashes, offsets, kept, masks, is_reference, 15, RULE)
    assert len(whole.runs) >= 10 and whole.template.any() and len(whole.common_runs)
    for size in (100_000, 300, 64):
        small_pieces(monkeypatch, size)  # blocks of a few documents, or of one
        result = found()
        for name in whole.runs.__slots__:
            np.testing.assert_array_equal(getattr(result.runs, name), getattr(whole.runs, name))
        for name in whole.common_runs.__slots__:
            got, want = getattr(result.common_runs, name), getattr(whole.common_runs, name)
            np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(result.common, whole.common)
        np.testing.assert_array_equal(result.template, whole.template)


def spliced_corpus_words(words, rng) -> list[list[str]]:
    """A source and essays holding runs of 15 to 100 of its words."""
    source = essay(words, rng, 600)
    docs = [source]
    for length in (15, 20, 30, 50, 100, 16, 40):
        host = essay(words, rng, 300)
        start, at = rng.randrange(len(source) - length), rng.randrange(1, len(host))
        docs.append([*host[:at], "zqx", *source[start : start + length], "zqy", *host[at:]])
    return docs


def test_cover_sets_the_union_of_ranges_that_overlap_touch_or_are_empty():
    rng = np.random.default_rng(5)
    start = rng.integers(0, 990, 300)
    length = rng.integers(0, 12, 300)
    want = np.zeros(1000, bool)
    for s, n in zip(start.tolist(), length.tolist(), strict=True):
        want[s : s + n] = True
    np.testing.assert_array_equal(cover(start, length, 1000), want)
    assert not cover(np.array([5]), np.array([0]), 10).any()
    assert cover(np.array([8]), np.array([2]), 10).tolist() == [False] * 8 + [True] * 2


def test_masks_made_a_piece_at_a_time_are_the_masks_of_the_whole(monkeypatch):
    rng = np.random.default_rng(7)
    mask = rng.random(5000) < 0.3
    mask[-40:] = True  # set up to the end
    offsets = np.r_[0, np.sort(rng.choice(np.arange(1, 5000), 60, replace=False)), 5000]
    whole = stretches(mask, offsets)
    small_pieces(monkeypatch, 97)
    pieces = stretches(mask, offsets)
    for a, b in zip(whole, pieces, strict=True):
        np.testing.assert_array_equal(a, b)
    marks = [rng.integers(0, 3, n).astype(np.uint8) for n in (500, 0, 3, 2000, 97)]
    streams = [token_stream([""]) for _ in marks]
    streams = [
        type(s)(np.zeros(len(m), np.uint64), np.zeros(len(m), bool), s.para_starts, m)
        for s, m in zip(streams, marks, strict=True)
    ]
    np.testing.assert_array_equal(set_apart_mask(streams, (1, 2)), np.concatenate(marks) > 0)
    assert set_apart_mask(streams, (3,)) is None  # no token so marked


def test_boilerplate_is_common_text_only_given_the_paragraphs_and_the_rule(words):
    """Three documents closing with the same short paragraph of their own: common text
    when `shared_runs` knows the paragraphs and the rule's `edge_docs` allows it."""
    rng = random.Random(21)
    footer = essay(words, rng, 25)
    docs = [[essay(words, rng, 80), essay(words, rng, 90), footer] for _ in range(3)]
    streams = [token_stream([" ".join(p) for p in doc]) for doc in docs]
    hashes, offsets = concatenated(streams)
    kept = winnow(hashes, offsets, window_for(15))
    starts = np.concatenate([offsets[d] + s.para_starts for d, s in enumerate(streams)])
    paragraphs = (starts, np.r_[starts[1:], offsets[-1]])
    n = len(docs)
    masks = (np.zeros(len(hashes), bool), None)

    def found(rule, given=paragraphs):
        args = (hashes, offsets, kept, masks, np.zeros(n, bool), 15, rule)
        return shared_runs(*args, paragraphs=given)

    rule = replace(RULE, edge_docs=3)
    plain = found(rule, None)
    assert len(plain.runs) == 3 and not plain.common.any()
    assert len(found(RULE).runs) == 3  # edge_docs 0: off
    assert len(found(replace(RULE, edge_docs=4)).runs) == 3  # held by three only
    edge = found(rule)
    assert len(edge.runs) == 0
    footers = np.zeros(len(hashes), bool)
    for d in range(n):
        footers[offsets[d] + 170 : offsets[d + 1]] = True
    np.testing.assert_array_equal(edge.common, footers)
    assert edge.common_runs.documents.tolist() == [3]
    assert edge.common_runs.length.tolist() == [25]
    assert edge.common_runs.occurrences.tolist() == [3]


def test_kept_grams_sorted_a_bucket_at_a_time_are_in_the_stable_order(monkeypatch):
    monkeypatch.setattr(grams, "_ROW_CHUNK", 1000)
    rng = np.random.default_rng(7)
    values = rng.integers(0, 2**63, 50_000, dtype=np.uint64) * np.uint64(2)
    values[rng.integers(0, len(values), 20_000)] = values[rng.integers(0, len(values), 20_000)]
    checks = []
    order = grams._stable_order(values, lambda: checks.append(1))
    assert order.tolist() == np.argsort(values, kind="stable").tolist()  # equal values in order
    assert len(checks) > 100  # Cancel between buckets


def edited_copy(words, every: int, seed: int) -> list:
    """A 600-word essay in paragraphs of 100 words and its copy with every `every`-th
    word replaced: near passages, shared runs of `every - 1` words."""
    rng = random.Random(seed)
    source = essay(words, rng, 600)
    copy = [f"zq{i}" if i % every == every - 1 else w for i, w in enumerate(source)]
    return [
        token_stream([" ".join(text[i : i + 100]) for i in range(0, 600, 100)])
        for text in (source, copy)
    ]


def test_a_pairs_longest_run_is_the_gram_layers_without_comparing_the_pair_again(
    words, monkeypatch
):
    from simsift.core.match.passages import overlaps

    compared = []

    def recording(streams, left_out, offsets, left, right, progress):
        compared.extend(zip(left.tolist(), right.tolist(), strict=True))
        return overlaps_longest_runs(streams, left_out, offsets, left, right, progress)

    overlaps_longest_runs = overlaps.longest_runs
    monkeypatch.setattr(overlaps, "longest_runs", recording)
    streams = edited_copy(words, 25, seed=31)
    result = analyze_passages(streams, np.zeros(2, bool), FeatureWeights(), PassageOptions())
    assert len(result.links(0, 1)) > len(result.runs)  # matched passages besides the runs
    assert result.longest_run(0, 1) == result.runs.counted.max() == 24
    assert compared == []


def test_a_pair_of_near_passages_with_only_runs_under_the_shortest_match_keeps_its_run(words):
    # no run reaches the shortest match (15): the pair is compared token by token, and
    # its 13-word runs pass the share rule's `SHARE_MIN_RUN`
    streams = edited_copy(words, 14, seed=37)
    result = analyze_passages(streams, np.zeros(2, bool), FeatureWeights(), PassageOptions())
    assert len(result.runs) == 0
    assert result.longest_run(0, 1) == 13
    assert len(result.partial()) == 1
