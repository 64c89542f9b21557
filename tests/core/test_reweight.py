"""Re-weighting: the result a fresh scan with the new settings gives, computing again only
what the change touches (the rest comes from the comparison cache beside the catalog)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import simsift.core.match.passages.reuse as passages_reuse
import simsift.core.pipeline.scan as scan_module
import simsift.core.text.features as features_module
from simsift.core.match.meaning import matches as matches_module
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.scan import reweight, scan
from simsift.core.store.catalog import Catalog
from simsift.core.text.features import FeatureWeights

from tests.core.corpus import edit_words
from tests.core.test_meaning_scan import fragments, write_class
from tests.core.test_meaning_scan import options as meaning_options
from tests.core.test_rescan import options, summary, write_folder

CHANGES = {
    "idf": (FeatureWeights(use_idf=True), None),
    "title boost and shingles": (FeatureWeights(title_boost=2.0, shingle_size=2), None),
    "title boost, tf and idf": (
        FeatureWeights(title_boost=2.0, tf_scheme="raw", use_idf=True),
        None,
    ),
    "stopwords and a term weight": (
        FeatureWeights(remove_stopwords=False, term_weights=(("function", 0.0),)),
        None,
    ),
    "common text and shortest match": (
        FeatureWeights(),
        PassageOptions(common_max_docs=3, partial_min_run=20),
    ),
    "idf and quotations": (FeatureWeights(use_idf=True), PassageOptions(count_quotations=True)),
}


def essays(root: Path) -> Path:
    """Essays sharing runs of paragraphs, plus a lightly edited copy and an exact copy."""
    folder = write_folder(root, 14, 5)
    text = (folder / "e0.txt").read_text(encoding="utf-8")
    (folder / "e0 edited.txt").write_text(edit_words(text, 3, seed=2), encoding="utf-8")
    (folder / "e1 copy.txt").write_bytes((folder / "e1.txt").read_bytes())
    return folder


def clusters(result) -> list:
    """Clusters at every k, as sorted groups of paths."""
    paths = [d.path for d in result.documents]
    out = []
    for k in range(result.k_max + 1):
        found = result.clusters(k)
        groups = [sorted(paths[m] for m in found.doc[found.members(c)]) for c in range(len(found))]
        out.append(sorted(groups))
    return out


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_reweighted_result_equals_a_fresh_scan_with_the_same_settings(tmp_path, change):
    weights, passages = CHANGES[change]
    root = essays(tmp_path / "essays")
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options(root), catalog=catalog)
        again = reweight(first, weights, catalog=catalog, passages=passages)
    fresh_options = replace(options(root), weights=weights, passages=passages or PassageOptions())
    fresh = scan(fresh_options)
    assert summary(again) == summary(fresh)
    assert clusters(again) == clusters(fresh)
    assert len(fresh.pairs) > 0 and len(fresh.partial_pairs()) > 0
    assert again.options == fresh.options


def test_idf_leaves_passages_as_they_were(tmp_path, monkeypatch):
    root = essays(tmp_path / "essays")
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options(root), catalog=catalog)

        def fail(*args, **kwargs):
            raise AssertionError("passages matched again")

        monkeypatch.setattr(scan_module, "find_passages", fail)
        again = reweight(first, FeatureWeights(use_idf=True), catalog=catalog)
    assert summary(again)["partial"] == summary(first)["partial"]
    assert again.fingerprints.tolist() != first.fingerprints.tolist()


def test_idf_the_title_boost_and_tf_weigh_the_counted_features_again(tmp_path, monkeypatch):
    # counting every document's features is most of a re-weighting's time
    root = essays(tmp_path / "essays")
    weights = FeatureWeights(title_boost=2.0, tf_scheme="binary", use_idf=True)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options(root), catalog=catalog)

        def fail(*args, **kwargs):
            raise AssertionError("features counted again")

        monkeypatch.setattr(features_module, "token_weights", fail)
        again = reweight(first, FeatureWeights(use_idf=True), catalog=catalog)
        again = reweight(again, weights, catalog=catalog)
    monkeypatch.undo()
    assert summary(again) == summary(scan(replace(options(root), weights=weights)))


def test_a_scan_after_reweighting_compares_nothing(tmp_path, monkeypatch):
    root = essays(tmp_path / "essays")
    weights = FeatureWeights(use_idf=True)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        reweighted = reweight(scan(options(root), catalog=catalog), weights, catalog=catalog)

        def fail(*args, **kwargs):
            raise AssertionError("compared again")

        monkeypatch.setattr(scan_module, "find_passages", fail)
        monkeypatch.setattr(scan_module, "find_pairs", fail)
        again = scan(replace(options(root), weights=weights), catalog=catalog)
    assert summary(again) == summary(reweighted)


def test_an_edited_result_gets_back_what_its_edits_left_out(tmp_path):
    # the window re-weights the result it shows: pairs dismissed there are its own edits,
    # kept apart from the comparison (it leaves them out again itself)
    root = essays(tmp_path / "essays")
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options(root), catalog=catalog)
        a, b = int(first.pairs.left[0]), int(first.pairs.right[0])
        removed = np.zeros(len(first.documents), bool)
        removed[a] = True
        shown = first.without_pair(a, b).without_files(removed)
        again = reweight(shown, FeatureWeights(title_boost=1.5), catalog=catalog)
    fresh = scan(replace(options(root), weights=FeatureWeights(title_boost=1.5)))
    assert summary(again) == summary(fresh)


def test_without_a_catalog_everything_is_computed_again(tmp_path):
    root = essays(tmp_path / "essays")
    weights = FeatureWeights(use_idf=True)
    again = reweight(scan(options(root)), weights)
    assert summary(again) == summary(scan(replace(options(root), weights=weights)))


def test_a_reweighted_mixed_class_keeps_its_fragments_in_meaning(tmp_path, monkeypatch):
    # sketching and aligning documents is the meaning layer's cost, and no weight changes
    # what they find: only which fragments hold a shared run or left-out text
    folder = tmp_path / "class"
    write_class(folder)
    weights = FeatureWeights(remove_stopwords=False)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(meaning_options(folder), catalog=catalog)

        def fail(documents, *args, **kwargs):
            assert not documents, "sketched again"
            return []

        def align(*args, **kwargs):
            raise AssertionError("aligned again")

        monkeypatch.setattr(matches_module, "document_sketches", fail)
        monkeypatch.setattr(scan_module, "document_sketches", fail)
        monkeypatch.setattr(matches_module, "find_meaning_copies", align)
        again = reweight(first, weights, catalog=catalog)
    monkeypatch.undo()
    fresh = scan(replace(meaning_options(folder), weights=weights))
    assert fragments(again) == fragments(fresh) != set()
    assert summary(again) == summary(fresh)


def test_stopwords_leave_the_word_grams_as_they_were(tmp_path, monkeypatch):
    # word grams depend on the tokens and the shortest match only
    root = essays(tmp_path / "essays")
    weights = FeatureWeights(remove_stopwords=False)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options(root), catalog=catalog)

        def fail(streams, *args, **kwargs):
            assert not streams, "word grams winnowed again"

        monkeypatch.setattr(passages_reuse, "kept_grams", fail)
        again = reweight(first, weights, catalog=catalog)
    monkeypatch.undo()
    assert summary(again) == summary(scan(replace(options(root), weights=weights)))
