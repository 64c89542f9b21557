"""The scan: folders in, a `ScanResult` (core/pipeline/result.py) out; this module orchestrates.

walk → read (`core.read.reader`, in isolated worker processes, cached in the catalog)
→ features → SimHash → HammingIndex → pairs at k_max, and passages → partial copies.

The result keeps the token streams, so changing k (filter pairs, re-cluster) never
re-reads a file, and `reweight` recomputes from them what other weights change.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np
from simsift.core.document import FileRecord
from simsift.core.index.pair_graph import PairSearch, search_pairs
from simsift.core.match.meaning.align import PARAPHRASED
from simsift.core.match.meaning.matches import document_sketches, two_languages
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.pipeline.stages import (
    GuardedCatalog,
    all_roots,
    build_result,
    find_files,
    find_pairs,
    find_passages,
    fingerprint_documents,
    is_compared,
    read_with_catalog,
    under_any,
)
from simsift.core.progress import CancelToken, Progress, ProgressCallback, no_progress
from simsift.core.store.result_cache import ComparisonCache, comparison_key
from simsift.core.text.features import FeatureWeights


def scan(
    options: ScanOptions,
    *,
    catalog=None,
    ignored: Iterable[frozenset[str]] = (),
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> ScanResult:
    """Scan the folders in `options` and find near-duplicate pairs up to k_max.

    Args:
        catalog: a `core.store.catalog.Catalog` to reuse unchanged files from and store new
            results in (committed in batches, so an interrupted scan resumes), or None.
        ignored: pairs of paths the user marked "not a duplicate".
        progress: called with `Progress` reports (stages "finding", "reading",
            "fingerprinting", "comparing", "passages").
        cancel: set it to stop; raises `Cancelled`. Files already read stay in the catalog.
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
    result = build_result(
        options,
        documents,
        [r for r in records if not is_compared(r, options)],
        is_reference,
        _compare(documents, is_reference, options, catalog, progress, cancel),
        reused=reused,
        notices=guarded.notices(),
    )
    return result.without_ignored(ignored)


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
    if cache is not None:
        key = _comparison_key(documents, is_reference, result.options)
        before = cache.load(key, result.options.passages)
    if before is not None and weights == result.options.weights:
        fingerprints, pairs = before[0], before[1]
    else:
        fingerprints = fingerprint_documents(documents, weights, progress, cancel)
        pairs = find_pairs(
            fingerprints,
            options.k_max,
            is_reference,
            progress,
            cancel,
            pair_search=pair_search("documents", weights == result.options.weights),
        )
    same_passages = _passage_key(options) == _passage_key(result.options)
    if before is not None and same_passages and options.passages == result.options.passages:
        found = before[2]
    else:
        known = (np.arange(len(documents)), before[2]) if before and same_passages else None
        found = find_passages(
            documents,
            is_reference,
            options,
            progress,
            cancel,
            pair_search=pair_search("passages", same_passages),
            known=known,
        )
    if cache is not None:
        doc_ids = _document_ids(documents, is_reference)
        key = _comparison_key(documents, is_reference, options)
        cache.store(key, fingerprints, pairs, found, doc_ids, _reuse_key(options))
    edited = replace(
        result, options=options, fingerprints=fingerprints, pairs=pairs, passages=found
    )
    return edited.without_ignored(ignored)


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


def _compare(documents, is_reference, options: ScanOptions, catalog, progress, cancel):
    """Fingerprints, pairs and passages of the documents. With a catalog: the last scan's
    results when nothing changed; otherwise its fingerprints of the unchanged documents
    and its pair graphs, so that only what changed is computed and searched."""
    cache = _cache_for(catalog, options)
    search = _from_scratch(options)
    if cache is None:
        fingerprints = fingerprint_documents(documents, options.weights, progress, cancel)
        pairs = find_pairs(
            fingerprints, options.k_max, is_reference, progress, cancel, pair_search=search
        )
        passages = find_passages(
            documents, is_reference, options, progress, cancel, pair_search=search
        )
        return fingerprints, pairs, passages
    key = _comparison_key(documents, is_reference, options)
    cached = cache.load(key, options.passages)
    if cached is not None:
        return cached
    doc_ids, reuse_key = _document_ids(documents, is_reference), _reuse_key(options)
    previous = cache.previous(doc_ids, reuse_key, options.passages)
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
    passages = find_passages(
        documents,
        is_reference,
        options,
        progress,
        cancel,
        pair_search=cache.pair_search("passages", search),
        known=(previous.old_of, previous.passages) if previous else None,
        sketches=_sketches(cache, documents, doc_ids, options, progress, cancel),
        alignments=cache.alignment_store(),
    )
    cache.store(key, fingerprints, pairs, passages, doc_ids, reuse_key)
    return fingerprints, pairs, passages


def _sketches(cache, documents, doc_ids, options: ScanOptions, progress, cancel):
    """Each document's sentences and concepts for the meaning layer: the last scan's for
    documents that did not change, made for the others (None with the layer off)."""
    kinds = options.passages.meaning_kinds
    if not kinds or (PARAPHRASED not in kinds and not two_languages(documents)):
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
