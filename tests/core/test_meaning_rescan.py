"""A rescan aligns by meaning only the pairs whose inputs changed, and finds exactly what a
fresh scan finds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from simsift.core.match.meaning import copies as copies_module
from simsift.core.match.meaning.kept import KeptAlignments
from simsift.core.match.meaning.matches import MeaningMatches
from simsift.core.pipeline.scan import scan
from simsift.core.store.catalog import Catalog

from tests.core.match.meaning.texts import OTHER, OTHER_CHINESE, SAME_TOPIC, TRANSLATION
from tests.core.test_meaning_scan import options, write_class


def assert_same_meaning(got, want) -> None:
    assert [d.path for d in got.documents] == [d.path for d in want.documents]
    assert len(want.passages.meaning)  # something to compare
    for name in MeaningMatches.__slots__:
        assert np.array_equal(
            getattr(got.passages.meaning, name), getattr(want.passages.meaning, name)
        )


def counting_alignments(monkeypatch) -> list[tuple[int, int]]:
    """The pairs `find_meaning_copies` aligns from now on, as their sentence counts."""
    aligned = []
    align = copies_module.align

    def counted(a, b, *args, **kwargs):
        aligned.append((len(a), len(b)))
        return align(a, b, *args, **kwargs)

    monkeypatch.setattr(copies_module, "align", counted)
    return aligned


def test_a_rescan_after_changes_additions_and_removals_finds_what_a_fresh_scan_finds(tmp_path):
    folder = tmp_path / "class"
    write_class(folder)
    (folder / "other.txt").write_text("\n\n".join((OTHER, SAME_TOPIC)), encoding="utf-8")
    (folder / "chinese.txt").write_text(OTHER_CHINESE, encoding="utf-8")
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        scan(options(folder), catalog=catalog)
        with open(folder / "translation.txt", "a", encoding="utf-8") as f:
            f.write("\n\n我周末常常去图书馆看书。")
        (folder / "other.txt").unlink()
        (folder / "added.txt").write_text("\n\n".join((OTHER, TRANSLATION)), encoding="utf-8")
        again = scan(options(folder), catalog=catalog)
    assert_same_meaning(again, scan(options(folder)))


def test_a_rescan_aligns_again_only_the_pairs_of_a_changed_document(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    write_class(folder)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = counting_alignments(monkeypatch)
        scan(options(folder), catalog=catalog)
        # words no other document holds: the others' concepts keep their idf
        with open(folder / "paraphrase.txt", "a", encoding="utf-8") as f:
            f.write("\n\nQuorbling zintaxes flummoxed seventeen vexillologists at Grimsditch.")
        first_count = len(first)
        aligned = counting_alignments(monkeypatch)
        again = scan(options(folder), catalog=catalog)
    sentences = {
        Path(d.path).name: len(s) for d, s in zip(again.documents, sketched(again), strict=True)
    }
    assert first_count == 3
    changed = sentences.pop("paraphrase.txt")
    assert sorted(aligned) == sorted(
        (changed, other) if name > "paraphrase.txt" else (other, changed)
        for name, other in sentences.items()
    )
    monkeypatch.undo()
    assert_same_meaning(again, scan(options(folder)))


def test_a_pair_with_an_english_document_reads_only_the_words_own_concepts(tmp_path, monkeypatch):
    """A Chinese word stands for all its senses, but facing an English document it keeps
    only the senses that document holds: a sense held by more documents now changes
    nothing for a pair with an English document that lacks it (Chinese man pages all hold
    "edit", a sense of 版本 "edition": every pair was aligned again after a page gained
    the word)."""
    folder = tmp_path / "class"
    write_class(folder)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        scan(options(folder), catalog=catalog)
        with open(folder / "paraphrase.txt", "a", encoding="utf-8") as f:  # senses of 边缘
            f.write("\n\nOn the brink of spring, the fringe of the verge was marginal.")
        aligned = counting_alignments(monkeypatch)
        again = scan(options(folder), catalog=catalog)
    assert len(aligned) == 2  # the pairs of the changed document only
    monkeypatch.undo()
    assert_same_meaning(again, scan(options(folder)))


def test_a_damaged_file_of_alignments_is_aligned_again(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    write_class(folder)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        scan(options(folder), catalog=catalog)
        (kept,) = (tmp_path / "catalog.sqlite3.cache").rglob("alignments.arrays")
        kept.write_bytes(kept.read_bytes()[:-100])
        with open(folder / "paraphrase.txt", "a", encoding="utf-8") as f:
            f.write("\n\nQuorbling zintaxes flummoxed seventeen vexillologists at Grimsditch.")
        aligned = counting_alignments(monkeypatch)
        again = scan(options(folder), catalog=catalog)
    assert len(aligned) == 3  # the unchanged pair too: nothing was kept
    monkeypatch.undo()
    assert_same_meaning(again, scan(options(folder)))


def sketched(result) -> list:
    from simsift.core.match.meaning import sketch

    return [sketch(d.paragraphs) for d in result.documents]


def test_a_document_whose_concepts_became_rarer_or_commoner_is_aligned_again(tmp_path, monkeypatch):
    """A pair of unchanged documents is aligned again when the idf of one of its concepts
    changed with another document (else its fragments could differ from a fresh scan's)."""
    folder = tmp_path / "class"
    write_class(folder)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        scan(options(folder), catalog=catalog)
        with open(folder / "paraphrase.txt", "a", encoding="utf-8") as f:
            f.write("\n\n" + TRANSLATION)  # concepts the source and the translation hold
        aligned = counting_alignments(monkeypatch)
        again = scan(options(folder), catalog=catalog)
    assert len(aligned) == 3
    monkeypatch.undo()
    assert_same_meaning(again, scan(options(folder)))


def test_kept_alignments_come_back_as_they_were():
    from simsift.core.match.meaning import align, sketch

    from tests.core.match.meaning.texts import PARAPHRASE, SOURCE

    found = align(sketch((SOURCE, OTHER)), sketch((PARAPHRASE, SAME_TOPIC)))
    assert found
    left = np.arange(3 * 16, dtype=np.uint8).reshape(3, 16)
    right = left + 100
    kept = KeptAlignments.of(left, right, [(), found, ()])
    back = KeptAlignments.from_arrays(kept.arrays())
    assert back.lookup(left, right) == [(), found, ()]
    assert back.lookup(right, left) == [None, None, None]  # B aligned with A is another pair
    with pytest.raises(ValueError):
        arrays = kept.arrays()
        arrays["score"] = arrays["score"][:-1]
        KeptAlignments.from_arrays(arrays)
