"""Passages, template text and containment on real English and Chinese text."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pytest
import simsift.core.match.passages.common as common_module
import simsift.core.match.passages.fingerprints as fingerprints_module
import simsift.core.match.passages.matching as matching_module
import simsift.core.match.passages.overlaps as overlaps_module
from simsift.core.arrays import bounded_runs
from simsift.core.match.passages import (
    PassageOptions,
    analyze_passages,
    cut_passages,
    passage_fingerprints,
)
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.text.features import FeatureWeights, document_features
from simsift.core.text.simhash import simhash_features
from simsift.core.text.tokens import DocumentTokens, TokenStream, token_stream

from tests.core.corpus import chinese_paragraphs, edit_words, module_text

ENGLISH_MODULES = ("argparse", "subprocess", "logging", "pickle", "tarfile", "decimal", "email")


def english_paragraphs() -> list[str]:
    """Paragraphs of at least 25 words from Python module docs and pydoc topics."""
    import pydoc_data.topics

    texts = [module_text(m) for m in ENGLISH_MODULES] + list(pydoc_data.topics.topics.values())
    out = []
    for text in texts:
        for block in re.split(r"\n\s*\n", text):
            words = block.split()
            if 25 <= len(words) <= 150 and sum(w.isalpha() for w in words) > 0.7 * len(words):
                out.append(" ".join(words))
    return list(dict.fromkeys(out))


def edit_chinese(text: str, n: int) -> str:
    """`text` with n evenly spaced characters replaced."""
    chars = list(text)
    for i in range(n):
        chars[(i + 1) * len(chars) // (n + 1)] = "改"
    return "".join(chars)


def analyze(docs: list[list[str]], reference: list[list[str]] = (), **options):
    streams = [token_stream(d) for d in [*docs, *reference]]
    is_ref = np.r_[np.zeros(len(docs), bool), np.ones(len(reference), bool)]
    return analyze_passages(streams, is_ref, FeatureWeights(), PassageOptions(**options))


@pytest.fixture(scope="module")
def english():
    return english_paragraphs()


@pytest.fixture(scope="module")
def chinese():
    paragraphs = chinese_paragraphs()
    if len(paragraphs) < 40:
        pytest.skip("Chinese seed text not available")
    return paragraphs


def test_every_paragraph_is_a_passage_and_short_ones_run_on():
    stream = token_stream(["one two three", "four five six seven", " ".join(["w"] * 25)])
    p = cut_passages([stream], PassageOptions(min_tokens=5, max_tokens=10))
    ranges = set(zip(p.start.tolist(), p.stop.tolist(), strict=True))
    # the 25-token paragraph is cut into three equal pieces of at most 10
    assert ranges == {(0, 3), (0, 7), (3, 7), (3, 13), (7, 16), (16, 25), (25, 32)}
    assert p.para_start.tolist()[:2] == [0, 0] and p.para_stop.tolist()[:2] == [1, 2]


def test_thirty_percent_copied_paragraphs_give_containment_near_point_three(english):
    source = english[0:10]
    copier = english[10:17] + source[2:5]  # 3 of the 10 paragraphs in the copy
    unrelated = english[40:50]
    result = analyze([copier, source, unrelated])
    in_b, in_a, similarity = result.overlap(0, 1)
    lengths = result.passages.doc_lengths()
    copied = sum(len(token_stream([p])) for p in source[2:5])
    assert in_b == pytest.approx(copied / lengths[0], abs=0.05)
    assert 0.2 < in_b < 0.45
    assert in_a == pytest.approx(copied / lengths[1], abs=0.05)
    assert similarity == pytest.approx(2 * copied / (lengths[0] + lengths[1]), abs=0.05)
    partial = result.partial()
    assert list(zip(partial.left.tolist(), partial.right.tolist(), strict=True)) == [(0, 1)]
    assert result.overlap(0, 2) == (0.0, 0.0, 0.0)
    links = result.links(0, 1)
    assert links and {link.paragraphs_b[0] for link in links} >= {2, 3, 4}


def test_lightly_edited_copied_passages_still_match(english):
    source = english[60:70]
    copied = [edit_words(p, 2, seed=i) for i, p in enumerate(source[0:4])]
    result = analyze([english[80:86] + copied, source, english[90:100]])
    in_b, _, _ = result.overlap(0, 1)
    assert in_b > 0.25
    assert len(result.partial()) == 1


def test_chinese_partial_copy_is_found_with_light_edits(chinese):
    source = chinese[0:10]
    copier = chinese[20:27] + [edit_chinese(p, 2) for p in source[3:6]]
    result = analyze([copier, source, chinese[30:40]])
    in_b, _, _ = result.overlap(0, 1)
    assert 0.2 < in_b < 0.5
    partial = result.partial()
    assert list(zip(partial.left.tolist(), partial.right.tolist(), strict=True)) == [(0, 1)]


@pytest.mark.parametrize("language", ["english", "chinese"])
def test_shared_prompt_in_reference_folder_makes_no_pair(language, request):
    paragraphs = request.getfixturevalue(language)
    prompt = paragraphs[100:102]
    essays = [prompt + paragraphs[10 * i : 10 * i + 6] for i in range(2)]
    without = analyze(essays)
    assert len(without.partial()) == 1  # the prompt alone would pair them
    # quotations in the Chinese text counted, so only the prompt is left out
    result = analyze(essays, reference=[prompt], count_quotations=True)
    assert len(result.partial()) == 0
    assert result.overlap(0, 1) == (0.0, 0.0, 0.0)
    prompt_tokens = len(token_stream(prompt))
    lengths = result.passages.doc_lengths()
    assert result.excluded_share[:2] == pytest.approx(prompt_tokens / lengths[:2], abs=0.02)


def test_text_in_many_documents_is_template(english):
    boiler = english[120:121]
    essays = [boiler + english[8 * i : 8 * i + 6] for i in range(8)]
    result = analyze(essays, common_min_docs=5, common_share=0.2)
    assert len(result.partial(0.05)) == 0
    assert (result.excluded_share[:8] > 0.05).all()
    # three documents: could be copying (their quotation marks counted: nothing left out)
    few = analyze(essays[:3], common_min_docs=5, count_quotations=True)
    assert (few.excluded_share == 0).all() and len(few.partial(0.05)) == 3


def test_options_are_validated():
    with pytest.raises(ValueError, match="min_tokens"):
        PassageOptions(min_tokens=300, max_tokens=200)
    with pytest.raises(ValueError, match="partial_threshold"):
        PassageOptions(partial_threshold=1.5)


def test_scan_reports_partial_pairs_and_template_share(tmp_path, english):
    docs, ref = tmp_path / "essays", tmp_path / "prompt"
    docs.mkdir()
    ref.mkdir()
    prompt = english[100:102]
    (ref / "prompt.txt").write_text("\n\n".join(prompt), encoding="utf-8")
    source = english[0:10]
    texts = {
        "source.txt": prompt + source,
        "copy.txt": prompt + english[20:27] + source[2:5],
        "other.txt": prompt + english[40:50],
    }
    for name, paragraphs in texts.items():
        (docs / name).write_text("\n\n".join(paragraphs), encoding="utf-8")
    result = scan(ScanOptions(roots=(str(docs),), reference_roots=(str(ref),), workers=0))
    names = [Path(d.path).name for d in result.documents]
    partial = result.partial_pairs()
    found = {
        frozenset((names[a], names[b]))
        for a, b in zip(partial.left.tolist(), partial.right.tolist(), strict=True)
    }
    assert found == {frozenset(("source.txt", "copy.txt"))}
    copy, src = names.index("copy.txt"), names.index("source.txt")
    in_src, _, _ = result.overlap(copy, src)
    assert 0.2 < in_src < 0.45
    assert (result.excluded_share[~result.is_reference] > 0.05).all()


@pytest.mark.parametrize("shingle_size", [1, 2])
def test_passage_fingerprints_equal_document_fingerprints_of_each_passage_alone(
    english, shingle_size
):
    weights = FeatureWeights(shingle_size=shingle_size)
    streams = [token_stream(english[i : i + 6]) for i in range(0, 60, 6)]
    passages = cut_passages(streams, PassageOptions())
    fingerprints, counts = passage_fingerprints(streams, passages, weights, shingle_size)
    hashes = np.concatenate([s.hashes for s in streams])
    digits = np.concatenate([s.is_digit for s in streams])
    no_title = TokenStream(np.zeros(0, np.uint64), np.zeros(0, bool), np.zeros(0, np.int32))
    alone = [
        document_features(
            DocumentTokens(no_title, TokenStream(hashes[a:b], digits[a:b], np.zeros(1, np.int32))),
            weights,
        )
        for a, b in zip(passages.start.tolist(), passages.stop.tolist(), strict=True)
    ]
    assert fingerprints.tolist() == [int(simhash_features(f)[0]) for f in alone]
    assert counts.tolist() == [len(f) for f in alone]


def test_each_document_is_cut_as_if_it_were_alone(english):
    # a rescan cuts only the changed documents and takes the others' passages as they were
    paragraphs = [english[i % len(english)][: 20 + 37 * i % 400] for i in range(40)]
    streams = [
        token_stream(paragraphs[i : i + n])
        for i, n in zip(range(0, 40, 5), [5, 1, 0, 3, 5, 2, 4, 5], strict=True)
    ]
    streams.append(token_stream(["short", "x"]))
    options = PassageOptions(min_tokens=30, max_tokens=60)
    together = cut_passages(streams, options)
    parts = [cut_passages([s], options) for s in streams]
    for field in ("start", "stop", "credit_stop"):
        alone = [
            getattr(p, field) - p.offsets[0] + together.offsets[d] for d, p in enumerate(parts)
        ]
        np.testing.assert_array_equal(getattr(together, field), np.concatenate(alone))
    for field in ("para_start", "para_stop"):
        alone = np.concatenate([getattr(p, field) for p in parts])
        np.testing.assert_array_equal(getattr(together, field), alone)
    assert (np.diff(together.first_of_docs()) == [len(p) for p in parts]).all()
    assert len(together) >= 40


def test_bounded_runs_cover_every_item_once_within_budget():
    sizes = np.array([3, 4, 10, 1, 1, 1, 2])
    runs = bounded_runs(sizes, 5)
    assert runs == [(0, 1), (1, 2), (2, 3), (3, 7)]  # an item above budget gets a run alone
    assert bounded_runs(np.zeros(0, np.int64), 5) == []


def test_fingerprints_do_not_depend_on_the_step_size(monkeypatch):
    paragraphs = chinese_paragraphs()[:12]
    streams = [token_stream(paragraphs[i : i + 4]) for i in range(0, 12, 4)]
    passages = cut_passages(streams, PassageOptions())
    whole = passage_fingerprints(streams, passages, FeatureWeights(), 2)
    monkeypatch.setattr(fingerprints_module, "_FINGERPRINT_CHUNK", 50)
    stepped = passage_fingerprints(streams, passages, FeatureWeights(), 2)
    assert len(passages) > 10
    np.testing.assert_array_equal(whole[0], stepped[0])
    np.testing.assert_array_equal(whole[1], stepped[1])


def all_pairs_extension(result, streams, options: PassageOptions) -> set[tuple[int, int]]:
    """The former extension, kept as the oracle: every passage pair of every document pair
    sharing a match, compared at the extend distance."""
    p = result.passages
    _, n_features = passage_fingerprints(streams, p, FeatureWeights(), options.shingle_size)
    ignore = result.is_template | result.is_common | (n_features < options.min_features)
    size = p.stop - p.start
    found = set()
    matched = {
        (min(x, y), max(x, y))
        for x, y in zip(p.doc[result.matches.left], p.doc[result.matches.right], strict=True)
    }
    for a, b in sorted(matched):
        for i in np.flatnonzero(p.doc == a):
            for j in np.flatnonzero(p.doc == b):
                close = int(np.bitwise_count(result.fingerprints[i] ^ result.fingerprints[j]))
                alike = min(size[i], size[j]) >= 0.8 * max(size[i], size[j])
                if close <= options.extend_distance and alike and not (ignore[i] or ignore[j]):
                    found.add((int(i), int(j)))
    return found


def planted_corpus(english, chinese) -> list[list[str]]:
    """Copies of runs of paragraphs, light and heavy edits, reordering, Chinese and English."""
    source, zh_source = english[200:212], chinese[40:52]
    heavy = [edit_words(p, 5, seed=i) for i, p in enumerate(source[4:9])]
    return [
        english[220:226] + source[2:6],
        source,
        [*english[230:233], source[8], source[3], source[6], *english[233:236]],
        english[240:244] + heavy + english[244:246],
        chinese[60:66] + [edit_chinese(p, 3) for p in zh_source[1:5]],
        zh_source,
        chinese[70:72] + zh_source[9:12][::-1] + chinese[72:74],
        english[250:260],
    ]


@pytest.mark.parametrize("shingle_size", [1, 2])
def test_extension_along_documents_finds_what_comparing_all_passages_found(
    english, chinese, shingle_size
):
    options = PassageOptions(shingle_size=shingle_size, min_tokens=40)
    streams = [token_stream(d) for d in planted_corpus(english, chinese)]
    result = analyze_passages(streams, np.zeros(len(streams), bool), FeatureWeights(), options)
    found = set(zip(result.matches.left.tolist(), result.matches.right.tolist(), strict=True))
    assert len(result.partial()) >= 4
    assert found == all_pairs_extension(result, streams, options)


def test_passage_found_in_more_than_max_docs_documents_is_common_text(english):
    licence = english[130:132]
    essays = [licence + english[6 * i : 6 * i + 5] for i in range(12)]
    essays.append(english[300:304] + english[6:9])  # a real partial copy of essay 1
    result = analyze(essays, common_max_docs=10, common_share=1.0)
    pairs = set(zip(result.partial().left.tolist(), result.partial().right.tolist(), strict=True))
    assert pairs == {(1, 12)}
    assert result.is_common.any() and len(result.common_text) >= 1
    assert result.common_text.documents[0] == 12
    kept = analyze(essays, common_max_docs=30, common_share=1.0)
    assert len(kept.partial()) > 60  # the licence alone pairs every essay with every other
    assert not kept.is_common.any()


def test_extension_work_follows_matches_not_document_lengths(english, monkeypatch):
    """Two long documents sharing one paragraph compare a window around it, not all pairs."""
    compared = []
    original = matching_module._neighbour_matches

    def counting(passages, fingerprints, keys, ignore, k):
        compared.append(len(keys))
        return original(passages, fingerprints, keys, ignore, k)

    monkeypatch.setattr(matching_module, "_neighbour_matches", counting)
    shared = english[5]
    long_a, long_b = english[20:220], english[400:600]
    result = analyze([[*long_a[:100], shared, *long_a[100:]], [*long_b[:50], shared, *long_b[50:]]])
    assert len(result.partial(0.001)) == 1
    assert sum(compared) <= 4  # the seed and whatever it reached, never 200 × 200 passages


def test_cancel_stops_passage_matching(english):
    from simsift.core.progress import Cancelled, CancelToken

    cancel = CancelToken()
    reports = []

    def progress(report):
        reports.append(report)
        if report.done > 300:
            cancel.cancel()

    streams = [token_stream(english[i : i + 3]) for i in range(0, 150, 3)]
    with pytest.raises(Cancelled):
        analyze_passages(
            streams,
            np.zeros(len(streams), bool),
            FeatureWeights(),
            PassageOptions(),
            progress=progress,
            cancel=cancel,
        )
    assert reports and all(r.stage == "passages" for r in reports)
    assert [r.done for r in reports] == sorted(r.done for r in reports)


def test_report_lists_common_text_with_its_document_count(tmp_path, english):
    from simsift.core.report.tables import write_report

    docs = tmp_path / "site"
    docs.mkdir()
    footer = english[140]
    for i in range(8):
        (docs / f"page{i}.txt").write_text(
            "\n\n".join([*english[6 * i : 6 * i + 5], footer]), encoding="utf-8"
        )
    result = scan(ScanOptions(roots=(str(docs),), workers=0))
    assert len(result.partial_pairs(0.05)) == 0  # the shared footer pairs nobody
    write_report(result, 8, tmp_path / "out")
    with open(tmp_path / "out" / "common.csv", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["documents"] == "8"
    assert rows[0]["text"][:40] == footer[:40]


def test_containment_does_not_depend_on_the_step_size(english, chinese, monkeypatch):
    streams = [token_stream(d) for d in planted_corpus(english, chinese)]
    whole = analyze_passages(
        streams, np.zeros(len(streams), bool), FeatureWeights(), PassageOptions()
    )
    monkeypatch.setattr(overlaps_module, "_OVERLAP_CHUNK", 3)
    stepped = analyze_passages(
        streams, np.zeros(len(streams), bool), FeatureWeights(), PassageOptions()
    )
    assert len(whole.overlaps) >= 4
    for name in ("left", "right", "matched_left", "matched_right"):
        assert np.array_equal(getattr(whole.overlaps, name), getattr(stepped.overlaps, name))


def test_text_in_six_documents_is_not_common_at_ten(english):
    """Common text counts distinct documents: a document holding a passage and its near
    variants (the paragraph alone, the window starting at it) is one holder, not three."""
    shared = english[200:204]
    essays = [english[5 * i : 5 * i + 4] for i in range(40)]
    for i in range(6):
        essays[i] = essays[i][:2] + shared + essays[i][2:]
    result = analyze(essays, common_max_docs=10, common_share=1.0)
    assert not result.is_common.any()
    pairs = set(zip(result.partial().left.tolist(), result.partial().right.tolist(), strict=True))
    assert {(a, b) for a in range(6) for b in range(a + 1, 6)} <= pairs
    assert not any(a < 6 <= b for a, b in pairs)


def test_distinct_near_counts_each_document_once():
    rng = np.random.default_rng(5)
    for _ in range(50):
        n_values, n_docs = int(rng.integers(1, 30)), int(rng.integers(1, 12))
        held = [
            sorted(set(rng.integers(0, n_docs, rng.integers(0, 4)).tolist()))
            for _ in range(n_values)
        ]
        ptr = np.r_[0, np.cumsum([len(h) for h in held])].astype(np.int64)
        docs = np.array([d for h in held for d in h], np.int64)
        pairs = (
            {
                tuple(sorted(rng.choice(n_values, 2, replace=False).tolist()))
                for _ in range(rng.integers(0, 40))
            }
            if n_values > 1
            else set()
        )
        left = np.array([a for a, _ in pairs], np.int64)
        right = np.array([b for _, b in pairs], np.int64)
        expected = [
            len(set(held[v]).union(*(held[w] for a, b in pairs for w in (a, b) if v in (a, b))))
            for v in range(n_values)
        ]
        assert common_module.distinct_near(ptr, docs, left, right).tolist() == expected
        wanted = rng.random(n_values) < rng.choice([0.1, 0.5, 0.9])  # few, or most, counted
        some = common_module.distinct_near(ptr, docs, left, right, wanted)
        assert some.tolist() == [e if w else 0 for e, w in zip(expected, wanted, strict=True)]


def test_neighbour_sums_packed_in_one_pass_equal_two_passes():
    from simsift.core.index.matches import Matches

    rng = np.random.default_rng(9)
    left = rng.integers(0, 50, 300)
    right = (left + rng.integers(1, 50, 300)) % 50
    found = Matches(left, right, np.zeros(300, np.int8))
    for scale in (1, 2**27):  # packed, then too large to pack
        a, b = rng.integers(0, 40, 50) * scale, rng.integers(0, 9, 50)
        expected = [
            x
            + np.bincount(left, x[right], 50).astype(np.int64)
            + np.bincount(right, x[left], 50).astype(np.int64)
            for x in (a, b)
        ]
        got = common_module._with_neighbours(a, b, found)
        assert [g.tolist() for g in got] == [e.tolist() for e in expected]
