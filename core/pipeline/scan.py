"""The scan: folders in, a `ScanResult` (core/pipeline/result.py) out; this module orchestrates.

walk → read (`core.read.reader`, in isolated worker processes, cached in the catalog)
→ features → SimHash → HammingIndex → pairs at k_max, and passages → partial copies.

The result keeps the token streams, so changing k (filter pairs, re-cluster) never
re-reads a file, and `reweight` recomputes from them what other weights change.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import numpy as np
from simsift.core.document import FileRecord
from simsift.core.index.pair_graph import PairSearch, search_pairs
from simsift.core.match.meaning.align import PARAPHRASED
from simsift.core.match.meaning.matches import (
    document_sketches,
    meaning_before_runs,
    two_languages,
)
from simsift.core.match.passages import PassageOptions, PassageResult
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.pipeline.stages import (
    GuardedCatalog,
    all_roots,
    build_result,
    count_features,
    find_files,
    find_pairs,
    find_passages,
    fingerprint_documents,
    fingerprints_of,
    is_compared,
    read_with_catalog,
    under_any,
)
from simsift.core.progress import CancelToken, Progress, ProgressCallback, no_progress
from simsift.core.store.result_cache import ComparisonCache, comparison_key
from simsift.core.text.features import FeatureWeights, counted_alike


def scan(
    options: ScanOptions,
    *,
    catalog=None,
    ignored: Iterable[frozenset[str]] = (),
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
    on_clusters: Callable[[ScanResult], None] | None = None,
) -> ScanResult:
    """Scan the folders in `options` and find near-duplicate pairs up to k_max.

    Args:
        catalog: a `core.store.catalog.Catalog` to reuse unchanged files from and store new
            results in (committed in batches, so an interrupted scan resumes), or None.
        ignored: pairs of paths the user marked "not a duplicate".
        progress: called with `Progress` reports (stages "finding", "reading",
            "fingerprinting", "comparing", "passages").
        cancel: set it to stop; raises `Cancelled`. Files already read stay in the catalog.
        on_clusters: called once pairs are found and before passages are matched (the
            longer part of comparing), with a result that is not `complete`: its pairs
            are final, its partial copying still empty (so near pairs sharing only
            template text are not told apart yet). Not called when the comparison comes
            from the result cache whole.
    """
    cancel = cancel or CancelToken()
    guarded = GuardedCatalog(catalog)
    found, left_out = find_files(options, progress, cancel)
    progress(Progress("finding", len(found), len(found)))  # how many: for the time left
    records, reused = read_with_catalog(found, options, guarded, progress, cancel)
    records += left_out
    guarded.prune(all_roots(options), {f.path for f in found})
    catalog = guarded.catalog
    documents = tuple(r for r in records if is_compared(r, options))
    is_reference = np.array(
        [under_any(d.path, options.reference_roots) for d in documents], dtype=bool
    )
    not_compared = [r for r in records if not is_compared(r, options)]

    def result_of(comparison, complete: bool = True, counts=None, fragments=None) -> ScanResult:
        result = build_result(
            options,
            documents,
            not_compared,
            is_reference,
            comparison,
            reused=reused,
            notices=guarded.notices(),
            complete=complete,
        )
        kept = replace(result, feature_counts=counts, meaning_before_runs=fragments)
        return kept.without_ignored(ignored)

    def publish(fingerprints: np.ndarray, pairs) -> None:
        if on_clusters is not None:
            lengths = np.array([len(d.tokens.body) for d in documents], np.int64)
            passages = PassageResult.empty(options.passages, lengths)
            on_clusters(result_of((fingerprints, pairs, passages), complete=False))

    comparison, counts, fragments = _compare(
        documents, is_reference, options, catalog, progress, cancel, publish
    )
    return result_of(comparison, counts=counts, fragments=fragments)


def reweight(
    result: ScanResult,
    weights: FeatureWeights,
    *,
    catalog=None,
    ignored: Iterable[frozenset[str]] = (),
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
    passages: PassageOptions | None = None,
) -> ScanResult:
    """The same documents compared with other weights (no file is read again), and with
    other passage options if given: the result a scan with those settings gives.

    Only what the change touches is computed again. Document fingerprints and pairs
    depend on all the weights; passages only on the passage options and the weights
    their fingerprints are made with (`_passage_key`: not idf, the title boost or the
    document shingle size), so changing those leaves passages, word grams, common text
    and containment as they were; changing what counts as copying keeps the passages'
    fingerprints and matches (as a rescan does).

    What is kept comes from the comparison cache beside `catalog`: the scan's comparison
    as computed (`result` may be an edited one, with files moved away or pairs
    dismissed); without a catalog, or when the cache no longer holds it, everything is
    computed again. The new comparison is stored there, so a scan with the new settings
    and no file changed compares nothing.
    """
    options = replace(result.options, weights=weights, passages=passages or result.options.passages)
    cancel = cancel or CancelToken()
    documents, is_reference = result.documents, result.is_reference
    cache = _cache_for(catalog, options)
    search = _from_scratch(options)

    def pair_search(name: str, same_values: bool) -> PairSearch:
        # the graph kept from the last comparison helps only if most values are the same
        return cache.pair_search(name, search, reuse=same_values) if cache else search

    before = None
    doc_ids = _document_ids(documents, is_reference)
    if cache is not None:
        key = _comparison_key(documents, is_reference, result.options)
        before = cache.load(key, result.options.passages)
    counts = result.feature_counts
    if before is not None and weights == result.options.weights:
        fingerprints, pairs = before[0], before[1]
    else:
        if counts is None or not counted_alike(weights, result.options.weights):
            counts = count_features(documents, weights, progress, cancel)
        fingerprints = fingerprints_of(counts, weights)
        pairs = find_pairs(
            fingerprints,
            options.k_max,
            is_reference,
            progress,
            cancel,
            pair_search=pair_search("documents", weights == result.options.weights),
        )
    same_passages = _passage_key(options) == _passage_key(result.options)
    fragments, kinds = result.meaning_before_runs, options.passages.meaning_kinds
    if before is not None and same_passages and options.passages == result.options.passages:
        found = before[2]
    else:
        known = (np.arange(len(documents)), before[2]) if before and same_passages else None
        if fragments is None or kinds != result.options.passages.meaning_kinds:
            sketches = _sketches(cache, documents, doc_ids, options, progress, cancel)
            fragments = _fragments_in_meaning(
                documents, is_reference, options, sketches, progress, cancel
            )
        found = find_passages(
            documents,
            is_reference,
            options,
            progress,
            cancel,
            pair_search=pair_search("passages", same_passages),
            known=known,
            fragments=fragments,
            kept=_kept_grams(result, options),
        )
    if cache is not None:
        key = _comparison_key(documents, is_reference, options)
        cache.store(key, fingerprints, pairs, found, doc_ids, _reuse_key(options))
    edited = replace(
        result,
        options=options,
        fingerprints=fingerprints,
        pairs=pairs,
        passages=found,
        complete=True,
        feature_counts=counts,
        meaning_before_runs=fragments,
    )
    return edited.without_ignored(ignored)


def _kept_grams(result: ScanResult, options: ScanOptions):
    """The result's kept word grams when `options` keep the same ones (they depend on the
    tokens and the shortest match only), else None."""
    same = result.options.passages.shortest_run == options.passages.shortest_run
    return result.passages.kept if same else None


def _cache_for(catalog, options: ScanOptions) -> ComparisonCache | None:
    """The comparison cache of the options' folders beside `catalog`, if there is one."""
    return ComparisonCache.beside(catalog.path, all_roots(options)) if catalog else None


def _passage_key(options: ScanOptions) -> tuple:
    """What passages, their fingerprints and matches depend on: the weights that form
    passage features (idf, the title boost and the document shingle size play no part),
    passage sizes and distances."""
    w, p = options.weights, options.passages
    features = (w.tf_scheme, w.ignore_digits, w.remove_stopwords, w.term_weights)
    sizes = (p.min_tokens, p.max_tokens, p.shingle_size, p.min_features)
    return features, sizes, (p.max_distance, p.extend_distance), options.traditional_to_simplified


def _compare(documents, is_reference, options: ScanOptions, catalog, progress, cancel, on_pairs):
    """Fingerprints, pairs and passages of the documents, and their feature counts and
    fragments in meaning (`_fragments_in_meaning`; None where none were counted or
    found), with `on_pairs(fingerprints, pairs)` called between pairs and passages. With
    a catalog: the last scan's results when nothing changed; otherwise its fingerprints
    of the unchanged documents and its pair graphs, so that only what changed is computed
    and searched."""
    cache = _cache_for(catalog, options)
    search = _from_scratch(options)
    if cache is None:
        counts = count_features(documents, options.weights, progress, cancel)
        fingerprints = fingerprints_of(counts, options.weights)
        pairs = find_pairs(
            fingerprints, options.k_max, is_reference, progress, cancel, pair_search=search
        )
        on_pairs(fingerprints, pairs)
        fragments = _fragments_in_meaning(documents, is_reference, options, None, progress, cancel)
        passages = find_passages(
            documents,
            is_reference,
            options,
            progress,
            cancel,
            pair_search=search,
            fragments=fragments,
        )
        return (fingerprints, pairs, passages), counts, fragments
    key = _comparison_key(documents, is_reference, options)
    cached = cache.load(key, options.passages)
    if cached is not None:
        return cached, None, None
    doc_ids, reuse_key = _document_ids(documents, is_reference), _reuse_key(options)
    previous = cache.previous(doc_ids, reuse_key, options.passages)
    counts = None
    if previous is None or options.weights.use_idf:
        counts = count_features(documents, options.weights, progress, cancel)
        fingerprints = fingerprints_of(counts, options.weights)
    else:
        fingerprints = fingerprint_documents(
            documents, options.weights, progress, cancel, known=_known_fingerprints(previous)
        )
    pairs = find_pairs(
        fingerprints,
        options.k_max,
        is_reference,
        progress,
        cancel,
        pair_search=cache.pair_search("documents", search),
    )
    on_pairs(fingerprints, pairs)
    sketches = _sketches(cache, documents, doc_ids, options, progress, cancel)
    fragments = _fragments_in_meaning(
        documents, is_reference, options, sketches, progress, cancel, cache.alignment_store()
    )
    passages = find_passages(
        documents,
        is_reference,
        options,
        progress,
        cancel,
        pair_search=cache.pair_search("passages", search),
        known=(previous.old_of, previous.passages) if previous else None,
        fragments=fragments,
    )
    cache.store(key, fingerprints, pairs, passages, doc_ids, reuse_key)
    return (fingerprints, pairs, passages), counts, fragments


def _fragments_in_meaning(
    documents, is_reference, options: ScanOptions, sketches, progress, cancel, alignments=None
):
    """The fragments the documents share in meaning, before the shared runs and left-out
    text drop some (`meaning_before_runs`: no weight nor passage option but the kinds
    changes them, so a re-weighting keeps them); None with the layer off. `alignments`
    keeps each candidate pair's fragments between scans."""
    kinds = options.passages.meaning_kinds
    if not kinds:
        return None
    return meaning_before_runs(
        documents,
        is_reference,
        kinds,
        sketches=sketches,
        alignments=alignments,
        progress=progress,
        cancel=cancel,
    )


def _sketches(cache, documents, doc_ids, options: ScanOptions, progress, cancel):
    """Each document's sentences and concepts for the meaning layer: the last scan's for
    documents that did not change, made for the others (None with the layer off, or
    without a cache: made where needed)."""
    kinds = options.passages.meaning_kinds
    if cache is None or not kinds or (PARAPHRASED not in kinds and not two_languages(documents)):
        return None
    sketches = cache.sketches(doc_ids)
    missing = [i for i, s in enumerate(sketches) if s is None]
    made = document_sketches([documents[i] for i in missing], progress, cancel)
    for i, made_one in zip(missing, made, strict=True):
        sketches[i] = made_one
    if missing:
        cache.store_sketches(doc_ids, sketches)
    return sketches


def _from_scratch(options: ScanOptions) -> PairSearch:
    """How an all-pairs search without earlier results runs: on this machine, or one task
    per permuted table on the options' cluster."""
    if not options.scheduler:
        return search_pairs

    def on_cluster(values, k, progress=None, cancel=None):
        from simsift.core.pipeline.distributed import connect, pairs_on_cluster

        client = connect(options.scheduler)
        try:
            return pairs_on_cluster(client, values, k, progress, cancel)
        finally:
            client.close()

    return on_cluster


def _document_ids(documents: Sequence[FileRecord], is_reference: np.ndarray) -> list[bytes]:
    """Per document, a digest of its path, content and role: equal ids, same tokens."""
    return [
        hashlib.blake2b(
            d.path.encode("utf-8", "surrogateescape") + d.content_hash + d.text_hash + bytes([r]),
            digest_size=16,
        ).digest()
        for d, r in zip(documents, is_reference.tolist(), strict=True)
    ]


def _reuse_key(options: ScanOptions) -> bytes:
    """What per-document fingerprints and the matches between two unchanged documents
    depend on, besides which passages are template or common (compared separately)."""
    p = options.passages
    sizes = (p.min_tokens, p.max_tokens, p.shingle_size, p.min_features)
    distances = (p.max_distance, p.extend_distance)
    settings = (options.weights, sizes, distances, options.traditional_to_simplified)
    return comparison_key([repr(settings).encode()])


def _known_fingerprints(previous) -> tuple[np.ndarray, np.ndarray] | None:
    """(the last scan's fingerprint per document, bool: known), or None."""
    if previous is None:
        return None
    have = previous.old_of >= 0
    known = np.zeros(len(have), np.uint64)
    known[have] = previous.fingerprints[previous.old_of[have]]
    return known, have


def _comparison_key(documents, is_reference: np.ndarray, options: ScanOptions) -> bytes:
    """Everything the comparison of a scan depends on."""
    settings = (options.weights, options.k_max, options.passages, options.traditional_to_simplified)
    files = "\0".join(f"{d.path}\t{d.size}\t{d.mtime_ns}" for d in documents)
    return comparison_key(
        [
            repr(settings).encode(),
            files.encode("utf-8", "surrogateescape"),
            b"".join(d.content_hash + d.text_hash for d in documents),
            np.packbits(is_reference).tobytes(),
        ]
    )
