"""Checking new documents against an archive (as JPlag's `-old`): near duplicates and
partial copies of the new documents, against archive documents and among themselves;
archive documents are never compared with each other again. Documents under the
options' reference folders are template text, as in a scan: text matching them never
counts, and they are never paired with each other or with archive documents.

The result equals what a full scan of the archive and the new documents reports for the
pairs involving a new document. Only the archive documents a new one touches are taken
into the comparison: those within k_max of a new document, and those holding a passage
within the passage distance of a new passage that is not common text. Whether a passage
is common text depends on all documents, so the others' share is looked up in the
archive's posting lists for the values of the compared documents only and handed to the
passage analysis (`OutsideCounts`, and `OutsideGramCounts` for word grams): a check's
cost follows the new documents and those they bring in, not the archive's size.

Copying by meaning (paraphrased, translated: `core.match.meaning`) is looked for between
the new documents and the archive documents: in an archive of up to
`MEANING_ARCHIVE_DOCS` documents, every archive document's text is read and sketched, and
those sharing a fragment in meaning with a new document are brought into the comparison
like the others; in a larger archive only the archive documents the check brings in
anyway (a passage, a run of words or a fingerprint near a new document) are searched, and
the result's notices say so. Fragments of two archive documents are never reported.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from simsift.core.arrays import pair_keys, ragged_arange, sorted_unique, split_keys
from simsift.core.document import FileRecord
from simsift.core.match.grams import kept_grams
from simsift.core.match.meaning.align import PARAPHRASED
from simsift.core.match.meaning.copies import find_meaning_copies
from simsift.core.match.meaning.matches import (
    SKETCHING,
    MeaningMatches,
    meaning_matches,
    two_languages,
)
from simsift.core.match.meaning.sketch import sketch
from simsift.core.match.passages import (
    OutsideCounts,
    PassageResult,
    analyze_passages,
    cut_passages,
    passage_fingerprints,
)
from simsift.core.pipeline.archiving import archive_settings
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.pipeline.stages import (
    build_result,
    find_files,
    find_pairs,
    fingerprint_documents,
    is_compared,
    read_files,
    under_any,
)
from simsift.core.progress import CancelToken, Progress, ProgressCallback, no_progress
from simsift.core.store.archive import Archive, ArchiveSettings

ARCHIVE_MARK = "archive:"  # archive documents' paths in a check's results start with this
# archives up to this size are searched whole for copying by meaning (each document's text
# read and sketched: about 3 ms a page of text); larger ones only where the check looks
MEANING_ARCHIVE_DOCS = 2_000
MEANING_NOT_WHOLE = (
    "copying by meaning (paraphrased, translated) was looked for only in the {n} archive "
    "documents that share a passage, a run of words or a near fingerprint with a new "
    "document: the archive holds {total}, more than {limit} are not searched whole"
)


def is_archive_path(path: str) -> bool:
    """True for the path of an archive document in a check's results (see `ARCHIVE_MARK`)."""
    return path.startswith(ARCHIVE_MARK)


def read_new(
    options: ScanOptions,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> tuple[list[FileRecord], list[FileRecord]]:
    """(records compared: read and not garbled, all other records) of the options' roots."""
    cancel = cancel or CancelToken()
    found, left_out = find_files(options, progress, cancel)
    records = read_files(found, options, progress, cancel) + left_out
    compared = [r for r in records if is_compared(r, options)]
    return compared, [r for r in records if not is_compared(r, options)]


def check(
    archive: Archive,
    options: ScanOptions,
    *,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> ScanResult:
    """Compare the documents under `options.roots` with the archive and with each other.

    The result's documents are the new documents, then the archive documents they touch
    (paths starting with `ARCHIVE_MARK`); pairs of two archive documents are left out.
    Raises `core.store.archive.ArchiveError` when the archive was built with other settings.
    """
    cancel = cancel or CancelToken()
    archive.require(archive_settings(options))
    new, others = read_new(options, progress, cancel)
    return compare_with_archive(archive, new, others, options, progress=progress, cancel=cancel)


def compare_with_archive(
    archive: Archive,
    new: list[FileRecord],
    others: list[FileRecord],
    options: ScanOptions,
    *,
    progress: ProgressCallback = no_progress,
    cancel: CancelToken | None = None,
) -> ScanResult:
    """`check` for documents already read (`others`: records not compared)."""
    cancel = cancel or CancelToken()
    new_fps = fingerprint_documents(new, options.weights, progress, cancel)
    progress(Progress("archive", 0, 0))
    # a new document already archived (same path) is compared as new, never with itself
    same = np.array([archive.number(r.path) for r in new if r.path in archive], np.int64)
    new_reference = np.array([under_any(r.path, options.reference_roots) for r in new], bool)
    settings = archive_settings(options)
    seeded, asked = _passage_neighbours(archive, new, same, options, cancel)
    grams = _gram_neighbours(archive, new, new_reference, same, options, settings)
    seeded = np.union1d(seeded, grams)
    by_meaning = _meaning_neighbours(archive, new, new_reference, same, options, progress, cancel)
    seeded = np.union1d(seeded, by_meaning)
    near = archive.near_documents(new_fps, options.k_max, cancel).right
    touched = np.setdiff1d(np.union1d(near, seeded), same)
    with_text = np.isin(touched, seeded)
    old = _archive_records(archive, touched, with_text, options, progress, cancel)
    documents = tuple(new + old)
    is_archive = np.r_[np.zeros(len(new), bool), np.ones(len(old), bool)]
    is_reference = np.zeros(len(documents), bool)
    is_reference[: len(new)] = new_reference
    fingerprints = np.r_[new_fps, archive.fingerprints()[touched]].astype(np.uint64)
    pairs = find_pairs(fingerprints, options.k_max, is_archive | is_reference, progress, cancel)
    passages = analyze_passages(
        [d.tokens.body for d in documents],
        is_reference,
        options.weights,
        options.passages,
        progress=progress,
        cancel=cancel,
        outside=_outside_counts(archive, documents, is_archive, same, options, asked),
        outside_grams=_ArchiveGrams(
            archive,
            settings,
            np.union1d(same, touched[with_text]),
            len(archive) - len(same) - len(old),
        ),
    )
    passages = replace(
        passages,
        meaning=_check_meaning(
            documents, is_reference, is_archive, passages, options, progress, cancel
        ),
    )
    passages = _new_pairs_only(passages, is_archive)
    notices = ()
    if options.passages.meaning_kinds and len(archive) > MEANING_ARCHIVE_DOCS:
        notices = (
            MEANING_NOT_WHOLE.format(
                n=f"{int(with_text.sum()):,}",
                total=f"{len(archive):,}",
                limit=f"{MEANING_ARCHIVE_DOCS:,}",
            ),
        )
    return build_result(
        options,
        documents,
        others,
        is_reference,
        (fingerprints, pairs, passages),
        first_as_original=is_archive | is_reference,
        notices=notices,
    )


def _meaning_neighbours(
    archive: Archive, new, new_reference, same: np.ndarray, options: ScanOptions, progress, cancel
) -> np.ndarray:
    """Archive documents sharing a fragment in meaning (of the kinds looked for) with an
    ordinary new document, in an archive of up to `MEANING_ARCHIVE_DOCS` documents (none
    in a larger one: only the documents brought in otherwise are searched)."""
    kinds = options.passages.meaning_kinds
    ordinary = [r for r, ref in zip(new, new_reference, strict=True) if not ref]
    if not kinds or not ordinary or len(archive) > MEANING_ARCHIVE_DOCS:
        return np.zeros(0, np.int64)
    docs = np.setdiff1d(np.arange(len(archive)), same)
    texts = []
    for i, doc in enumerate(docs.tolist()):
        if i % 64 == 0:
            cancel.check()
            progress(Progress(SKETCHING, i, len(docs)))
        texts.append(archive.text(doc)[1])
    translations_only = PARAPHRASED not in kinds
    if translations_only and not two_languages([*ordinary, *(_Text(t) for t in texts)]):
        return np.zeros(0, np.int64)
    sketches = [sketch(r.paragraphs) for r in ordinary] + [sketch(t) for t in texts]
    found = set()
    copies = find_meaning_copies(
        sketches, progress, cancel, across_languages_only=translations_only
    )
    for i, j, fragments in copies:
        if (i < len(ordinary)) != (j < len(ordinary)) and any(f.kind in kinds for f in fragments):
            found.add(int(docs[max(i, j) - len(ordinary)]))
    return np.array(sorted(found), np.int64)


def _check_meaning(
    documents, is_reference, is_archive, passages: PassageResult, options, progress, cancel
) -> MeaningMatches:
    """The fragments found by meaning between the check's documents, but for archive
    documents without their text (near a new one by fingerprint only) and pairs of two
    archive documents."""
    kinds = options.passages.meaning_kinds
    if not kinds:
        return MeaningMatches.empty()
    with_text = np.array([bool(d.paragraphs) for d in documents], bool)
    rows = np.flatnonzero(with_text)
    found = meaning_matches(
        [documents[i] for i in rows.tolist()],
        np.asarray(is_reference)[rows],
        _runs_among(passages.runs, rows, len(documents)),
        kinds,
        left_out=(passages.left_out_start, passages.left_out_stop, passages.passages.offsets[rows]),
        progress=progress,
        cancel=cancel,
    )
    found = replace(found, left=rows[found.left], right=rows[found.right])
    return found.subset(~(is_archive[found.left] & is_archive[found.right]))


@dataclass(frozen=True, slots=True)
class _Text:
    """An archive document's paragraphs, where `two_languages` takes records."""

    paragraphs: tuple[str, ...]


def _runs_among(runs, rows: np.ndarray, n_docs: int):
    """`runs` of the documents `rows` only, numbered as their place in `rows`."""
    place = np.full(n_docs, -1, np.int64)
    place[rows] = np.arange(len(rows))
    keep = (place[runs.left] >= 0) & (place[runs.right] >= 0)
    kept = runs.subset(keep)
    return replace(kept, left=place[kept.left], right=place[kept.right])


def _archive_records(archive: Archive, docs, with_text, options: ScanOptions, progress, cancel):
    """The archive documents `docs` as records, paths marked as archived. Only those
    `with_text` (a passage seed with a new document) get their text and tokens: a document
    that is only near a new one shares no passage with any, so its passages change nothing
    (its share of the common-text counts is in the archive's counts)."""
    records = []
    for i, (doc, text) in enumerate(zip(docs.tolist(), with_text.tolist(), strict=True)):
        if i % 64 == 0:
            cancel.check()
            progress(Progress("archive", i, len(docs)))
        record = archive.record(doc, options.traditional_to_simplified, with_text=text)
        records.append(replace(record, path=ARCHIVE_MARK + record.path))
    progress(Progress("archive", len(docs), len(docs)))
    return records


def _cut_and_fingerprint(records, options: ScanOptions):
    """Passages, their fingerprints and feature counts, as the passage analysis makes them."""
    streams = [r.tokens.body for r in records]
    passages = cut_passages(streams, options.passages)
    fps, n_features = passage_fingerprints(
        streams, passages, options.weights, options.passages.shingle_size
    )
    return passages, fps, n_features


def _passage_neighbours(
    archive: Archive, new, same: np.ndarray, options: ScanOptions, cancel
) -> tuple[np.ndarray, _Near]:
    """Archive documents holding a passage within the passage distance of a new passage
    such that neither can be common text: each within `common_max_docs` archive documents'
    passages (a licence in every document would otherwise bring them all); and the
    question asked (the new passages, their archive neighbours), to be asked only once."""
    _, fps, n_features = _cut_and_fingerprint(new, options)
    queries = np.unique(fps[n_features >= options.passages.min_features])
    k, most = options.passages.max_distance, options.passages.common_max_docs
    asked = _Near(queries, *archive.near_values(queries, k, cancel))
    holders = _counts_near(archive, asked, same)[0]
    candidates = np.unique(asked.value[holders[asked.left] <= most])
    # the archive's side: its passage near as many documents is common text too
    theirs = _near_counts(archive, candidates, same, most, _near_asker(archive, k, cancel))[0]
    seeds = candidates[theirs <= most]
    return np.unique(archive.holders("passages", seeds)[1]), asked


@dataclass(frozen=True)
class _Near:
    """Archive passage fingerprints within the passage distance of `queries` (sorted
    distinct): each pair (query row `left`, archive fingerprint `value`) once."""

    queries: np.ndarray
    left: np.ndarray
    value: np.ndarray


def _near(archive: Archive, queries: np.ndarray, k: int, cancel=None) -> _Near:
    return _Near(queries, *archive.near_values(queries, k, cancel))


def _near_asker(archive: Archive, k: int, cancel, asked: _Near | None = None):
    """A function of sorted distinct fingerprints: their `_Near`, reusing `asked`."""
    if asked is None:
        return lambda values: _near(archive, values, k, cancel)
    return lambda values: _near_again(archive, asked, values, k)


def _near_counts(
    archive: Archive, values: np.ndarray, same: np.ndarray, decided_above: int, near_of
) -> tuple[np.ndarray, np.ndarray]:
    """`_counts_near` of the sorted distinct `values`, but for those that more than
    `decided_above` archive documents hold exactly: their own documents and passages,
    which already make them common text (the rule is monotone in both counts), are
    given without asking for their neighbours; a widespread passage has hundreds of
    neighbours, the costliest of questions."""
    value, doc, times = archive.holders("passages", values)
    kept = ~np.isin(doc, same)
    documents = np.bincount(value[kept], minlength=len(values)).astype(np.int64)
    passages = np.bincount(value[kept], weights=times[kept], minlength=len(values))
    passages = passages.astype(np.int64)
    rest = np.flatnonzero(documents <= decided_above)
    documents[rest], passages[rest] = _counts_near(archive, near_of(values[rest]), same)
    return documents, passages


def _counts_near(archive: Archive, near: _Near, same: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per query: the distinct live archive documents (but `same`) holding a usable
    passage within the distance, and how many such passages they have (the counts that
    make a passage common text), from the posting lists of only these values."""
    values, value_of = np.unique(near.value, return_inverse=True)
    value, doc, times = archive.holders("passages", values)
    kept = ~np.isin(doc, same)
    value, doc, times = value[kept], doc[kept], times[kept]
    order = np.argsort(value, kind="stable")
    value, doc, times = value[order], doc[order], times[order]
    ptr = np.r_[0, np.cumsum(np.bincount(value, minlength=len(values)))]
    sizes = ptr[value_of + 1] - ptr[value_of]
    owner, k = ragged_arange(sizes)
    entry = ptr[value_of][owner] + k
    left = near.left[owner]
    n = max(len(archive), 1)
    keys = sorted_unique(pair_keys(left, doc[entry], n))
    n_left = len(near.queries)
    documents = np.bincount(split_keys(keys, n)[0], minlength=n_left).astype(np.int64)
    passages = np.bincount(left, weights=times[entry], minlength=n_left).astype(np.int64)
    return documents, passages


def _gram_neighbours(
    archive: Archive, new, is_reference, same, options: ScanOptions, settings: ArchiveSettings
) -> np.ndarray:
    """Archive documents holding a word gram that an ordinary new document keeps and that
    is not common text over the archive and the new documents (its seeds are run ends)."""
    ordinary = [r.tokens.body for r, ref in zip(new, is_reference, strict=True) if not ref]
    kept = kept_grams(ordinary, options.passages.shortest_run)
    first = np.r_[True, (kept.value[1:] != kept.value[:-1]) | (kept.doc[1:] != kept.doc[:-1])]
    values, new_holders = np.unique(kept.value[first[: len(kept)]], return_counts=True)
    value, doc, _ = archive.holders("grams", values, settings)
    kept_docs = ~np.isin(doc, same)
    value, doc = value[kept_docs], doc[kept_docs]
    holders = np.bincount(value, minlength=len(values)) + new_holders
    n_ordinary = len(ordinary) + len(archive) - len(same)
    shared = ~options.passages.common_rule().is_common(holders, n_ordinary)
    return np.unique(doc[shared[value]])


@dataclass(frozen=True)
class _ArchiveGrams:
    """The archive's share of the word grams' document counts (`OutsideGramCounts`):
    per gram value asked, the archive documents holding it but those the analysis reads
    itself or that new documents replace (`left_out`, sorted), from the posting lists;
    `n_docs` archive documents are outside the analysis."""

    archive: Archive
    settings: ArchiveSettings
    left_out: np.ndarray
    n_docs: int

    def documents_of(self, values: np.ndarray) -> np.ndarray:
        value, doc, _ = self.archive.holders("grams", values, self.settings)
        outside = ~np.isin(doc, self.left_out)
        return np.bincount(value[outside], minlength=len(values)).astype(np.int64)


def _near_again(archive: Archive, asked: _Near, wanted: np.ndarray, k: int) -> _Near:
    """`_near(archive, wanted, k)` for sorted distinct `wanted`, reusing the answers
    already found for `asked.queries` (a query of real passages has dozens of neighbours
    each: its answer costs as much as the search)."""
    queries = asked.queries
    pos = np.searchsorted(queries, wanted).clip(max=max(len(queries) - 1, 0))
    have = queries[pos] == wanted if len(queries) else np.zeros(len(wanted), bool)
    row_of = np.full(len(queries), -1, np.int64)
    row_of[pos[have]] = np.flatnonzero(have)
    left = row_of[asked.left]
    missing = np.flatnonzero(~have)
    rest = _near(archive, wanted[missing], k)
    return _Near(
        wanted,
        np.r_[left[left >= 0], missing[rest.left]].astype(np.int64),
        np.r_[asked.value[left >= 0], rest.value].astype(np.uint64),
    )


def _outside_counts(
    archive: Archive,
    documents,
    is_archive: np.ndarray,
    same: np.ndarray,
    options: ScanOptions,
    asked: _Near,
) -> OutsideCounts:
    """Per passage of `documents` (as the analysis cuts them): the archive's documents and
    passages near it, but for the archived versions of new documents (`same`); for a
    passage more than `common_max_docs` archive documents hold exactly, those (it is
    common text either way). The analysis counts only the new documents; `is_archive`
    marks the counted ones."""
    _, fps, n_features = _cut_and_fingerprint(documents, options)
    usable = n_features >= options.passages.min_features
    values, value_of = np.unique(fps[usable], return_inverse=True)
    near_of = _near_asker(archive, options.passages.max_distance, None, asked)
    most = options.passages.common_max_docs
    counts = np.stack(_near_counts(archive, values, same, most, near_of))
    per_passage = np.zeros((2, len(fps)), np.int64)
    per_passage[:, usable] = counts[:, value_of]
    return OutsideCounts(per_passage[0], per_passage[1], len(archive) - len(same), is_archive)


def _new_pairs_only(result: PassageResult, is_archive: np.ndarray) -> PassageResult:
    """The analysis without pairs of two archive documents (compared in no check)."""
    o = result.overlaps
    overlaps = o.subset(~(is_archive[o.left] & is_archive[o.right]))
    doc = result.passages.doc
    m = result.matches
    matches = m.subset(~(is_archive[doc[m.left]] & is_archive[doc[m.right]]))
    runs = result.runs.subset(~(is_archive[result.runs.left] & is_archive[result.runs.right]))
    return replace(result, overlaps=overlaps, matches=matches, runs=runs)
