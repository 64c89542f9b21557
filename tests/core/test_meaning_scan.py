"""Copying by meaning in a scan: paraphrased and translated passages found, counted apart
from word-for-word copying and never twice, switched by the options, dropped with a
dismissed pair or a reference document, and cached like the rest of the comparison."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from simsift.core.match.evidence import PairEvidence
from simsift.core.match.meaning import matches as matches_module
from simsift.core.match.meaning.matches import KINDS
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.store.catalog import Catalog

from tests.core.match.meaning.texts import (
    OTHER,
    OTHER_CHINESE,
    PARAPHRASE,
    SAME_TOPIC,
    SOURCE,
    TRANSLATION,
)

# each file's own text: no run of words is shared between files
OWN = {
    "source": "A walk through the museum of natural history takes a whole afternoon.",
    "paraphrase": "My grandmother kept bees behind the house for forty years.",
    "translation": "我们学校的图书馆每天晚上开到九点，周末也开放。",
}


def write_class(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    texts = {
        "source.txt": (OWN["source"], SOURCE, OTHER),
        "paraphrase.txt": (OWN["paraphrase"], PARAPHRASE, SAME_TOPIC),
        "translation.txt": (OWN["translation"], TRANSLATION, OTHER_CHINESE),
    }
    for name, paragraphs in texts.items():
        (folder / name).write_text("\n\n".join(paragraphs), encoding="utf-8")


def options(folder: Path, **passages) -> ScanOptions:
    """Both kinds looked for unless `passages` says otherwise (paraphrase is off by default)."""
    chosen = {"paraphrase": True} | passages
    return ScanOptions(roots=(str(folder),), workers=0, passages=PassageOptions(**chosen))


def number(result, name: str) -> int:
    return next(i for i, d in enumerate(result.documents) if Path(d.path).name == name)


def fragments(result) -> set[tuple[str, str, str]]:
    m = result.passages.meaning
    names = [Path(d.path).stem for d in result.documents]
    return {
        (names[a], names[b], KINDS[k])
        for a, b, k in zip(m.left.tolist(), m.right.tolist(), m.kind.tolist(), strict=True)
    }


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("meaning") / "class"
    write_class(folder)
    return folder


def test_a_paraphrase_and_a_translation_are_found_and_counted_apart(class_folder):
    result = scan(options(class_folder))
    found = {(min(a, b), max(a, b), kind) for a, b, kind in fragments(result)}
    assert ("paraphrase", "source", "paraphrased") in found
    assert ("source", "translation", "translated") in found
    similarity = result.similarity()
    para, trans = number(result, "paraphrase.txt"), number(result, "translation.txt")
    source = number(result, "source.txt")
    assert similarity.index[para] == 0.0  # no word-for-word copying anywhere
    assert similarity.paraphrased[para] > 0.4 and similarity.translated[para] == 0.0
    assert similarity.translated[trans] > 0.4 and similarity.paraphrased[trans] == 0.0
    (by,) = [s for s in similarity.sources(para) if s.doc == source]
    assert by.share == 0.0 and by.paraphrased == pytest.approx(similarity.paraphrased[para])
    # the compare view's figures for the pair are the Documents tab's
    evidence = PairEvidence.of(result, para, source)
    assert evidence.containment_ab == 0.0
    assert evidence.meaning_ab == pytest.approx(by.paraphrased)
    (back,) = [s for s in similarity.sources(source) if s.doc == para]
    assert evidence.meaning_ba == pytest.approx(back.paraphrased + back.translated)
    assert evidence.meaning_ba > 0


def test_each_kind_is_switched_by_its_option(class_folder):
    kinds = {kind for *_, kind in fragments(scan(options(class_folder, paraphrase=False)))}
    assert kinds == {"translated"}
    kinds = {kind for *_, kind in fragments(scan(options(class_folder, translation=False)))}
    assert kinds == {"paraphrased"}
    assert (
        len(scan(options(class_folder, paraphrase=False, translation=False)).passages.meaning) == 0
    )


def test_a_passage_copied_word_for_word_is_verbatim_only(tmp_path):
    folder = tmp_path / "class"
    write_class(folder)
    (folder / "paraphrase.txt").write_text(
        "\n\n".join((OWN["paraphrase"], SOURCE, SAME_TOPIC)), encoding="utf-8"
    )
    result = scan(options(folder))
    pair = {"paraphrase", "source"}
    assert not [f for f in fragments(result) if set(f[:2]) == pair]
    para = number(result, "paraphrase.txt")
    similarity = result.similarity()
    assert similarity.index[para] > 0.5 and similarity.paraphrased[para] == 0.0


def test_a_reference_document_paraphrased_is_template_not_copying(tmp_path):
    folder, prompt = tmp_path / "class", tmp_path / "prompt"
    write_class(folder)
    prompt.mkdir()
    (folder / "source.txt").rename(prompt / "source.txt")
    result = scan(replace(options(folder), reference_roots=(str(prompt),)))
    assert not fragments(result)
    assert not result.similarity().paraphrased.any()


def test_a_dismissed_pair_takes_its_fragments_with_it(class_folder):
    result = scan(options(class_folder))
    source, para = number(result, "source.txt"), number(result, "paraphrase.txt")
    dismissed = result.without_pair(source, para)
    assert all(set(f[:2]) != {"source", "paraphrase"} for f in fragments(dismissed))
    assert dismissed.similarity().paraphrased[para] == 0.0


def test_an_unchanged_rescan_compares_nothing_again(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    write_class(folder)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options(folder), catalog=catalog)

        def never(*args, **kwargs):
            raise AssertionError("aligned again")

        monkeypatch.setattr(matches_module, "find_meaning_copies", never)
        again = scan(options(folder), catalog=catalog)
    assert fragments(again) == fragments(first)
    for name in matches_module.MeaningMatches.__slots__:
        assert np.array_equal(
            getattr(again.passages.meaning, name), getattr(first.passages.meaning, name)
        )


def test_documents_of_one_word_or_none_are_compared_quietly(tmp_path):
    folder = tmp_path / "class"
    write_class(folder)
    (folder / "word.txt").write_text("x", encoding="utf-8")
    (folder / "digits.txt").write_text("1 2 3 4 5 6 7 8 9", encoding="utf-8")
    result = scan(options(folder))
    assert len(result.documents) == 5
    assert ("paraphrase", "source", "paraphrased") in {
        (min(a, b), max(a, b), kind) for a, b, kind in fragments(result)
    }


def test_a_rescan_after_a_change_sketches_only_the_changed_document(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    write_class(folder)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options(folder), catalog=catalog)
        sketched = []
        made = matches_module.sketch
        monkeypatch.setattr(
            matches_module,
            "sketch",
            lambda paragraphs: sketched.append(paragraphs) or made(paragraphs),
        )
        with open(folder / "translation.txt", "a", encoding="utf-8") as f:
            f.write("\n\n我周末常常去图书馆看书。")
        again = scan(options(folder), catalog=catalog)
    assert len(sketched) == 1 and "图书馆看书" in sketched[0][-1]
    assert fragments(again) == fragments(first)


def test_packed_sketches_come_back_as_they_were():
    from simsift.core.match.meaning.packed import pack_sketches, unpack_sketches
    from simsift.core.match.meaning.sketch import sketch

    sketches = [sketch((SOURCE,)), sketch(()), sketch((TRANSLATION, OTHER))]
    back = unpack_sketches(pack_sketches(sketches))
    for before, after in zip(sketches, back, strict=True):
        for name, value in before.arrays().items():
            assert np.array_equal(value, getattr(after, name)), name
    with pytest.raises(ValueError):
        arrays = dict(pack_sketches(sketches))
        arrays["concepts"] = arrays["concepts"][:-1]
        unpack_sketches(arrays)


def test_translation_alone_never_sketches_a_collection_in_one_language(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "source.txt").write_text("\n\n".join((OWN["source"], SOURCE)), encoding="utf-8")
    (folder / "paraphrase.txt").write_text(
        "\n\n".join((OWN["paraphrase"], PARAPHRASE)), encoding="utf-8"
    )

    def never(paragraphs):
        raise AssertionError("sketched")

    monkeypatch.setattr(matches_module, "sketch", never)
    result = scan(options(folder, paraphrase=False))
    assert len(result.documents) == 2 and not len(result.passages.meaning)


def test_translation_alone_aligns_only_documents_in_two_languages(class_folder):
    from simsift.core.match.meaning import find_meaning_copies, sketch

    sketches = [sketch(p) for p in ((SOURCE, OTHER), (PARAPHRASE, SAME_TOPIC), (TRANSLATION,))]
    every = {(i, j) for i, j, _ in find_meaning_copies(sketches)}
    across = {(i, j) for i, j, _ in find_meaning_copies(sketches, across_languages_only=True)}
    assert (0, 1) in every and (0, 2) in every
    assert across == {(0, 2), (1, 2)} & every


def test_a_paraphrase_of_common_text_is_not_copying(tmp_path):
    """Text a dozen pages hold is boilerplate, reworded or not."""
    folder = tmp_path / "class"
    write_class(folder)
    for i in range(12):  # the source's passage is boilerplate of a dozen pages
        (folder / f"page{i}.txt").write_text(
            f"Page {i} of the handbook, on its own subject number {i}.\n\n{SOURCE}",
            encoding="utf-8",
        )

    result = scan(options(folder))
    assert not [f for f in fragments(result) if "paraphrase" in f[:2] and f[2] == "paraphrased"]


def test_fragments_mostly_in_text_that_never_counts_are_found_as_a_mask_would():
    """`_mostly_left_out` sums left-out ranges by search; a brute-force mask is its oracle."""
    rng = np.random.default_rng(1)
    for _ in range(200):
        mask = np.zeros(200, bool)
        for _ in range(rng.integers(0, 8)):
            at = rng.integers(0, 200)
            mask[at : at + rng.integers(1, 30)] = True
        edges = np.flatnonzero(np.diff(np.r_[0, mask.astype(int), 0]))
        offsets = np.array([0, 100, 200])
        n = 20
        lo_a, lo_b = rng.integers(0, 100, n), rng.integers(0, 100, n)
        hi_a = np.minimum(lo_a + rng.integers(0, 60, n), 100)
        hi_b = np.minimum(lo_b + rng.integers(0, 60, n), 100)
        zero = np.zeros(n, np.int64)
        found = matches_module.MeaningMatches(
            zero, zero + 1, zero, zero * 0.0, zero, zero, zero, zero, lo_a, hi_a, lo_b, hi_b
        )
        got = matches_module._mostly_left_out(found, edges[::2], edges[1::2], offsets)

        def mostly(at: int, lo: int, hi: int, mask=mask) -> bool:
            return 2 * mask[at + lo : at + hi].sum() > max(hi - lo, 1)

        want = [mostly(0, lo_a[i], hi_a[i]) or mostly(100, lo_b[i], hi_b[i]) for i in range(n)]
        assert got.tolist() == want


def test_translation_alone_in_a_larger_collection_pairs_only_across_languages():
    """Past the size aligned pair by pair, candidates come from keys held on both sides."""
    from simsift.core.match.meaning import find_meaning_copies, sketch

    texts = [(SOURCE, OTHER), (PARAPHRASE, SAME_TOPIC), (TRANSLATION, OTHER_CHINESE)]
    texts += [
        (f"Report {i} on the harbour, the ferries and the fish market of town {i}. " * 6,)
        for i in range(30)
    ]
    sketches = [sketch(t) for t in texts]
    across = {(i, j) for i, j, _ in find_meaning_copies(sketches, across_languages_only=True)}
    assert (0, 2) in across
    assert all(2 in pair for pair in across)  # the one Chinese document is in every pair
