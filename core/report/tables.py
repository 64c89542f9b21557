r"""Writing scan results: pairs, clusters and errors as CSV or JSON.

File names that are not valid UTF-8 (they reach Python as lone surrogates) keep their
bytes: CSV files carry them as they are, JSON as "\udcXX" escapes that `json.load` and
`os.fsencode` turn back into the same name.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import numpy as np
from simsift.core.analysis.cluster import KIND_NAMES, KIND_PARTIAL, Clusters
from simsift.core.arrays import pair_keys
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.fragments import (
    all_fragments,
    display_text,
    excerpt,
    pair_meaning_kinds,
)
from simsift.core.report.text_kinds import quotes_found_elsewhere
from simsift.core.store.verdicts import Verdicts, export_columns

FORMATS = ("csv", "json")
PAIR_COLUMNS = [
    "a",
    "b",
    "kind",
    "distance",
    "containment_ab",
    "containment_ba",
    "overlap",
    "longest_run",
    "by_meaning",
]
MEANING_KIND_SEPARATOR = " "  # between the kinds of `by_meaning` ("paraphrased translated")


def pair_rows(result: ScanResult, k: int, partial_threshold: float | None = None) -> list[dict]:
    """Pairs within k, then partial pairs not within k, then pairs found only by meaning,
    as rows.

    A pair within k of the same template with different content (little containment, no
    run of the shortest match) has kind "same template": listed, but in no cluster.

    Every row has full paths, the kind name, the fingerprints' Hamming distance,
    containment of a in b and of b in a, their overlap (shares rounded to 3 digits), the
    longest run of words they share verbatim, and `by_meaning`: the kinds of the fragments
    they share in meaning only ("paraphrased", "translated", both, or ""). A pair found
    only by meaning has kind "paraphrased" or "translated" (the kind covering more of it);
    its word-for-word figures stay as they are (containment and runs count verbatim only).

    Args:
        partial_threshold: containment a partial pair must reach (default: the scan's).
    """
    pairs = result.pairs.within(k)
    kinds = result.pair_kinds(pairs)
    partial = result.partial_pairs(partial_threshold)
    n = max(len(result.documents), 1)
    extra = ~np.isin(
        pair_keys(partial.left, partial.right, n), pair_keys(pairs.left, pairs.right, n)
    )
    left = np.r_[pairs.left, partial.left[extra]]
    right = np.r_[pairs.right, partial.right[extra]]
    kind_names = [KIND_NAMES[kd] for kd in kinds.tolist()]
    kind_names += [KIND_NAMES[KIND_PARTIAL]] * int(extra.sum())
    by_meaning = pair_meaning_kinds(result)
    listed = set(
        zip(np.minimum(left, right).tolist(), np.maximum(left, right).tolist(), strict=True)
    )
    only = sorted(pair for pair in by_meaning if pair not in listed)
    left = np.r_[left, np.array([a for a, _ in only], np.int64)].astype(np.int64)
    right = np.r_[right, np.array([b for _, b in only], np.int64)].astype(np.int64)
    kind_names += [by_meaning[pair][0] for pair in only]
    distance = result.distance(left, right)
    c_ab, c_ba, sim = result.overlap_many(left, right)
    run = result.passages.longest_runs(left, right)
    docs = result.documents
    return [
        {
            "a": docs[a].path,
            "b": docs[b].path,
            "kind": kd,
            "distance": int(d),
            "containment_ab": round(x, 3),
            "containment_ba": round(y, 3),
            "overlap": round(z, 3),
            "longest_run": r,
            "by_meaning": MEANING_KIND_SEPARATOR.join(by_meaning.get((min(a, b), max(a, b)), ())),
        }
        for a, b, kd, d, x, y, z, r in zip(
            left.tolist(),
            right.tolist(),
            kind_names,
            distance.tolist(),
            c_ab.tolist(),
            c_ba.tolist(),
            sim.tolist(),
            run.tolist(),
            strict=True,
        )
    ]


def cluster_rows(result: ScanResult, clusters: Clusters) -> list[dict]:
    """One row per cluster member; cluster numbers start at 1, the original first."""
    rows = []
    for cluster in clusters:
        for m in cluster.members:
            rows.append(
                {
                    "cluster": cluster.number + 1,
                    "path": result.documents[m.doc].path,
                    "kind": KIND_NAMES[m.kind],
                    "distance": m.distance,
                }
            )
    return rows


def error_rows(result: ScanResult) -> list[dict]:
    return [{"path": r.path, "error": r.message} for r in result.errors]


def skipped_rows(result: ScanResult) -> list[dict]:
    return [{"path": r.path, "reason": r.message} for r in result.skipped]


def warning_rows(result: ScanResult) -> list[dict]:
    rows = [{"path": r.path, "warning": r.warning, "compared": "yes"} for r in result.warned]
    return rows + [{"path": r.path, "warning": r.warning, "compared": "no"} for r in result.garbled]


VERDICT_COLUMNS = ["verdict", "note", "decided"]
DOCUMENT_COLUMNS = [
    "path",
    "similarity_index",
    "paraphrased",
    "translated",
    "total",
    "sources",
    "largest_source",
    "largest_share",
    "flags",
]
FLAG_SEPARATOR = " | "


def with_verdicts(rows: list[dict], verdicts: Verdicts) -> list[dict]:
    """Rows of pairs ("a", "b") or documents ("path") with the teacher's verdict columns."""
    for row in rows:
        found = verdicts.of_pair(row["a"], row["b"]) if "a" in row else None
        if "path" in row:
            found = verdicts.of_document(row["path"])
        row.update(export_columns(found))
    return rows


def document_rows(result: ScanResult) -> list[dict]:
    """Documents found in part elsewhere, highest similarity index first (the teacher's list),
    then the documents found nowhere else that carry integrity flags (disguised text may be
    why nothing was found) or quote words another document holds (a quotation never
    counts, but a reader may want to see it), in scan order. `flags` joins a document's
    flags with " | " ("" for none).

    `similarity_index` is the share of the document's own text found word for word;
    `paraphrased` and `translated` the shares found in other words or another language
    (the same own text, never the index's), `total` all three together. `sources` counts
    the documents holding part of it in any way; `largest_source` and `largest_share` are
    the one holding most of it word for word ("" and 0 when none does)."""
    sim = result.similarity()
    docs = result.documents
    total = sim.total
    rows = []
    listed = document_order(sim)
    for doc in listed:
        top = int(sim.top_source[doc])
        rows.append(
            {
                "path": docs[doc].path,
                "similarity_index": round(float(sim.index[doc]), 3),
                "paraphrased": round(float(sim.paraphrased[doc]), 3),
                "translated": round(float(sim.translated[doc]), 3),
                "total": round(float(total[doc]), 3),
                "sources": source_count(sim, doc),
                "largest_source": docs[top].path if top >= 0 else "",
                "largest_share": round(float(sim.top_share[doc]), 3),
                "flags": FLAG_SEPARATOR.join(docs[doc].flags),
            }
        )
    found = set(listed)
    telling = np.zeros(len(docs), bool)
    telling[flagged_documents(result)] = True
    telling |= quotes_found_elsewhere(result)
    for doc in np.flatnonzero(telling).tolist():
        if doc not in found:
            rows.append(
                {
                    "path": docs[doc].path,
                    "similarity_index": 0.0,
                    "paraphrased": 0.0,
                    "translated": 0.0,
                    "total": 0.0,
                    "sources": 0,
                    "largest_source": "",
                    "largest_share": 0.0,
                    "flags": FLAG_SEPARATOR.join(docs[doc].flags),
                }
            )
    return rows


MEANING_COLUMNS = [
    "a",
    "b",
    "kind",
    "score",
    "a_start",
    "a_end",
    "b_start",
    "b_end",
    "a_excerpt",
    "b_excerpt",
]


def fragment_rows(result: ScanResult) -> list[dict]:
    """Every fragment two documents share, one row each: the two paths, the kind
    ("verbatim", "paraphrased" or "translated"), the score (1 for a verbatim run), the
    character spans in each document's text (paragraphs joined by a blank line, as the
    window shows it) and a short excerpt of each side."""
    docs = result.documents
    texts: dict[int, str] = {}

    def text(doc: int) -> str:
        if doc not in texts:
            texts[doc] = display_text(docs[doc])
        return texts[doc]

    return [
        {
            "a": docs[f.a].path,
            "b": docs[f.b].path,
            "kind": f.kind,
            "score": f.score,
            "a_start": f.start_a,
            "a_end": f.end_a,
            "b_start": f.start_b,
            "b_end": f.end_b,
            "a_excerpt": excerpt(text(f.a), f.start_a, f.end_a),
            "b_excerpt": excerpt(text(f.b), f.start_b, f.end_b),
        }
        for f in all_fragments(result)
    ]


def document_order(sim) -> list[int]:
    """Every document found in part elsewhere (word for word or by meaning: a source, or
    a share above zero), highest similarity index first, then highest total, as the
    window's Documents tab lists them (`DocumentSimilarity`)."""
    found = (sim.source_count > 0) | (sim.total > 0)
    order = np.lexsort((-sim.total, -sim.index))
    return order[found[order]].tolist()


def source_count(sim, doc: int) -> int:
    """How many documents hold part of `doc`, word for word or by meaning."""
    if sim.paraphrased[doc] > 0 or sim.translated[doc] > 0:
        return len(sim.sources(doc))
    return int(sim.source_count[doc])


def flagged_documents(result: ScanResult) -> list[int]:
    """The documents carrying integrity flags, in scan order."""
    return [i for i, d in enumerate(result.documents) if d.flags]


def excluded_rows(result: ScanResult) -> list[dict]:
    """Documents containing excluded text (template or common), with its share of their body."""
    share = result.excluded_share
    return [
        {"path": result.documents[i].path, "excluded_share": round(float(share[i]), 3)}
        for i in np.flatnonzero((share > 0) & ~result.is_reference).tolist()
    ]


def common_rows(result: ScanResult) -> list[dict]:
    """All common text (passages and runs of words found in many documents), most
    widespread first."""
    common = result.passages.common_text
    docs = result.passages.passages.doc
    rows = [
        {
            "text": result.passage_text(int(row)),
            "documents": int(n_docs),
            "occurrences": int(times),
            "example": result.documents[int(docs[row])].path,
        }
        for row, n_docs, times in zip(
            common.passage, common.documents, common.occurrences, strict=True
        )
    ]
    runs = result.passages.common_runs
    rows += [
        {
            "text": result.common_run_text(row),
            "documents": int(runs.documents[row]),
            "occurrences": int(runs.occurrences[row]),
            "example": result.documents[int(runs.doc[row])].path,
        }
        for row in range(len(runs))
    ]
    rows.sort(key=lambda row: -row["documents"])
    return rows


def write_report(
    result: ScanResult,
    k: int,
    out_dir: Path,
    fmt: str = "csv",
    partial_threshold: float | None = None,
    verdicts: Verdicts | None = None,
) -> list[Path]:
    """Write pairs, clusters, documents, the fragments each pair shares (`meaning`:
    verbatim, paraphrased, translated), excluded shares, common text, errors, warnings
    (documents read whose text may be garbled) and skipped files (with the reason) into
    `out_dir`.

    Returns the files written.

    The files are written as a set: all into a temporary folder beside them first, then
    moved into `out_dir`, so a failure (a full disk) leaves the previous report whole,
    never new pairs beside old errors. Raises `ReportError` with a clear message.

    Args:
        partial_threshold: containment a partial pair must reach (default: the scan's).
        verdicts: the teacher's verdicts, added to pairs and documents (verdict, note, date).
    """
    verdicts = verdicts or Verdicts()
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, not {fmt!r}")
    check_output_folder(out_dir)
    tables = {
        "pairs": (
            [*PAIR_COLUMNS, *VERDICT_COLUMNS],
            with_verdicts(pair_rows(result, k, partial_threshold), verdicts),
        ),
        "clusters": (
            ["cluster", "path", "kind", "distance"],
            cluster_rows(result, result.clusters(k)),
        ),
        "documents": (
            [*DOCUMENT_COLUMNS, *VERDICT_COLUMNS],
            with_verdicts(document_rows(result), verdicts),
        ),
        "meaning": (MEANING_COLUMNS, fragment_rows(result)),
        "excluded": (["path", "excluded_share"], excluded_rows(result)),
        "common": (["text", "documents", "occurrences", "example"], common_rows(result)),
        "errors": (["path", "error"], error_rows(result)),
        "warnings": (["path", "warning", "compared"], warning_rows(result)),
        "skipped": (["path", "reason"], skipped_rows(result)),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out_dir, prefix=".simsift-report-"))
    try:
        for name, (columns, rows) in tables.items():
            _write_table(staging / f"{name}.{fmt}", fmt, columns, rows)
        written = []
        for name in tables:
            written.append(out_dir / f"{name}.{fmt}")
            os.replace(staging / f"{name}.{fmt}", written[-1])
    except OSError as error:
        raise ReportError(f"cannot write the report into {out_dir}: {_reason(error)}") from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return written


class ReportError(Exception):
    """The report could not be written; the message says where and why."""


def check_output_folder(out_dir: Path) -> None:
    """Raise ReportError unless `out_dir` is, or can become, a folder we can write in.

    Called before a scan too, so a bad --out fails at once, not after an hour of reading.
    """
    existing = out_dir
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ReportError(f"cannot write the report into {out_dir}: {existing} is a file")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ReportError(f"cannot write the report into {out_dir}: {existing} is read-only")


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _write_table(path: Path, fmt: str, columns: list[str], rows: list[dict]) -> None:
    # utf-8-sig so spreadsheet programs open Chinese paths correctly; plain open() so the
    # file gets the user's umask
    encoding = "utf-8-sig" if fmt == "csv" else "utf-8"
    with open(path, "w", encoding=encoding, errors="surrogateescape", newline="") as f:
        if fmt == "json":
            f.write(_LONE_SURROGATE.sub(_escape, json.dumps(rows, ensure_ascii=False, indent=1)))
            return
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(
            {key: spreadsheet_safe(value) for key, value in row.items()} for row in rows
        )


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value):
    """A CSV cell a spreadsheet shows as the text it is: text from a user's documents that
    starts like a formula (`=HYPERLINK(...)`, `+`, `-`, `@`, tab, CR) gets a leading
    apostrophe (OWASP's CSV injection advice); numbers and other text are unchanged."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"
