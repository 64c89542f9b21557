"""The passage analysis of a scan: cut, fingerprint and match passages, find template
and common text, measure containment (`analyze_passages`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from simsift.core.arrays import pair_keys, sorted_unique
from simsift.core.index.matches import Matches
from simsift.core.index.pair_graph import PairSearch, search_pairs
from simsift.core.match.grams import (
    KeptGrams,
    OutsideGrams,
    counted_pieces,
    set_apart_mask,
    shared_runs,
    stretches,
)
from simsift.core.match.passages.common import OutsideCounts
from simsift.core.match.passages.cutting import Passages, paragraphs
from simsift.core.match.passages.matching import extend_matches, find_matches
from simsift.core.match.passages.options import PassageOptions
from simsift.core.match.passages.overlaps import covered_mask, pair_overlaps, per_doc_sum, with_runs
from simsift.core.match.passages.result import PassageResult
from simsift.core.match.passages.reuse import (
    carried_matches,
    kept_reusing,
    old_digest,
    passages_reusing,
    ranges_digest,
    unchanged_documents,
    union_matches,
)
from simsift.core.match.same_text import credit_same_text
from simsift.core.progress import CancelToken, ProgressCallback, StepProgress, no_progress
from simsift.core.text.features import FeatureWeights
from simsift.core.text.tokens import TokenStream


def analyze_passages(
    streams: Sequence[TokenStream],
    is_reference: np.ndarray,
    weights: FeatureWeights,
    options: PassageOptions,
    *,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
    pair_search: PairSearch = search_pairs,
    known: tuple[np.ndarray, PassageResult] | None = None,
    outside: OutsideCounts | None = None,
    outside_grams: OutsideGrams | None = None,
    kept: KeptGrams | None = None,
) -> PassageResult:
    """Cut, fingerprint and match passages; find template and common text; measure containment.

    Args:
        streams: body token streams, one per document.
        is_reference: bool per document; passages matching a reference document are
            template text, and reference documents are never partial pairs.
        weights: the scan's feature weights (passages use the same features).
        options: passage sizes, distance and thresholds.
        progress: `Progress("passages", done, total)` reports, in thousandths.
        cancel: checked between bounded steps; raises `Cancelled`.
        pair_search: finds the pairs of distinct passage fingerprints within
            `max_distance` (a `PairGraph` kept from the last scan reuses known pairs).
        known: (number of each document in an earlier result or -1, that result): the
            passage fingerprints of unchanged documents are taken from it, when it was
            computed with the same weights and passage sizes.
        outside: what documents left out of `streams` add to the counts that make text
            common (checking new documents against an archive analyzes only the archive
            documents they touch); `outside_grams` the same for word grams.
        kept: the documents' kept word grams, when known (they depend on the tokens and
            the shortest match only: a change of weights leaves them as they were).
    """
    steps = StepProgress(
        "passages",
        {"fingerprints": 3, "index": 4, "extend": 2, "grams": 1, "seeds": 1, "runs": 1},
        progress,
        cancel,
    )
    is_reference = np.asarray(is_reference, dtype=bool)
    passages, fingerprints, n_features, reused = passages_reusing(
        streams, weights, options, known, steps.step("fingerprints")
    )
    usable = np.flatnonzero(n_features >= options.min_features)
    seeds, shared = find_matches(
        passages, fingerprints, usable, is_reference, options, steps, pair_search, outside
    )
    steps.cancel.check()
    ignore = shared.is_template | shared.is_common | is_reference[passages.doc]
    excluded_mask = covered_mask(passages, ignore, steps.cancel.check)
    steps.cancel.check()
    set_apart = set_apart_mask(streams, options.set_apart)  # quotations, the bibliography
    steps.cancel.check()
    ignore |= n_features < options.min_features
    seeds = seeds.subset(~(ignore[seeds.left] | ignore[seeds.right]))
    carried, clean = Matches.empty(), np.zeros(passages.n_docs, dtype=bool)
    if known is not None:
        # document pairs whose passages and flags are all as before keep their matches
        clean = unchanged_documents(passages, ignore, reused, known, options)
        carried = carried_matches(passages, known, clean)
        dirty = ~clean[passages.doc]
        seeds = seeds.subset(dirty[seeds.left] | dirty[seeds.right])
    matches = extend_matches(
        passages, fingerprints, seeds, ignore, options.extend_distance, steps.step("extend")
    )
    matches = union_matches(passages, matches, carried)
    if kept is None:
        kept = kept_reusing(streams, passages.offsets, options, known, reused, steps.step("grams"))
    grams = _gram_layer(
        streams,
        (passages.offsets, kept),
        (excluded_mask, set_apart),
        is_reference,
        options,
        outside_grams,
        steps,
    )
    excluded_mask |= grams.common | grams.template
    if set_apart is not None:
        excluded_mask |= set_apart
    left_out = stretches(excluded_mask, passages.offsets, steps.cancel.check)
    steps.cancel.check()
    digest = ranges_digest(left_out, passages.offsets)
    if known is not None:  # a pair's run is reused only where nothing more is left out
        clean &= digest == old_digest(known, passages.n_docs)
    steps.cancel.check()
    excluded_tokens = per_doc_sum(excluded_mask, passages.offsets)
    steps.cancel.check()
    pieces = counted_pieces(grams.runs, set_apart, passages.offsets)
    steps.cancel.check()
    overlaps = pair_overlaps(
        passages, matches, pieces, excluded_mask, excluded_tokens, steps.cancel
    )
    own_tokens = passages.doc_lengths() - excluded_tokens
    overlaps = credit_same_text(overlaps, streams, own_tokens, digest)
    overlaps = with_runs(
        overlaps,
        streams,
        passages,
        excluded_mask,
        known,
        clean,
        (grams.runs, _document_pairs(passages, matches)),
        steps.step("runs"),
    )
    return PassageResult(
        options,
        passages,
        fingerprints,
        shared.is_template,
        excluded_tokens,
        matches,
        overlaps,
        shared.is_common,
        shared.common_text,
        n_features,
        pieces,
        digest,
        grams.common_runs,
        kept,
        *left_out,
    )


def _gram_layer(streams, where, masks, is_reference, options, outside, steps):
    """Shared runs, common and template text at the grain of word grams
    (`core.match.grams`) from the documents' kept grams (`where`: token offsets, kept
    grams); `masks`: (left-out tokens, set-apart tokens or None): runs
    stop at left-out text and run through set-apart text without counting it.
    Reference documents' own text is a seed, not left out. Boilerplate (a short
    paragraph of its own at the start or end of a few documents) is common text too."""
    offsets, kept = where
    excluded_mask, set_apart = masks
    left_out = excluded_mask & ~np.repeat(is_reference, np.diff(offsets))
    _, _, start, stop = paragraphs(streams, offsets)  # where boilerplate can be
    steps.cancel.check()
    return shared_runs(
        streams,
        offsets,
        kept,
        (left_out, set_apart),
        is_reference,
        options.shortest_run,
        options.common_rule(),
        outside,
        steps.step("seeds"),
        (start, stop),
    )


def _document_pairs(passages: Passages, matches: Matches) -> np.ndarray:
    """Sorted keys of the document pairs (left < right) with matched passages."""
    a, b = passages.doc[matches.left], passages.doc[matches.right]
    n = max(passages.n_docs, 1)
    return sorted_unique(pair_keys(np.minimum(a, b), np.maximum(a, b), n))
