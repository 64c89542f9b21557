"""A self-contained HTML report of a scan that opens in any browser, to hand over.

No scripts, no external files: one HTML file with inline CSS that follows the reader's
light or dark preference, safe to mail to a colleague or keep with the essays. It records
what an examination board asks for: the settings used, how to read each measure, the
teacher's decisions, every file left out and why, and excerpts of the matched text.
"""

from __future__ import annotations

import html
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from simsift.core import __version__
from simsift.core.analysis.cluster import KIND_NAMES, KIND_NEAR, KIND_ORIGINAL, Clusters
from simsift.core.files import atomic_write
from simsift.core.match.verbatim import SHARE_MIN_RUN
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.essay import common_threshold
from simsift.core.report.fragments import (
    PARAPHRASED,
    TRANSLATED,
    VERBATIM,
    display_text,
    meaning_fragments,
    pair_meaning_kinds,
)
from simsift.core.report.fragments import excerpt as fragment_excerpt
from simsift.core.report.language import ReportLanguage, report_language
from simsift.core.report.tables import document_order, document_rows, flagged_documents
from simsift.core.report.visible import visible_controls
from simsift.core.store.verdicts import COPYING, Verdict, Verdicts
from simsift.core.text.excerpt import span_text
from simsift.core.text.quotations import QUOTATION, find_quotations

MAX_PAIR_ROWS = 20_000  # beyond this a browser struggles; the CSV export has them all
MAX_EXCERPTS = 200  # pairs per table shown with an excerpt: ~0.2 MB, whatever the scan
EXCERPT_CHARS = 300

_CSS = """
:root { color-scheme: light dark; --line: #8884; --muted: #888; --accent: #2a7ae2; }
body { font: 14px/1.45 system-ui, "Noto Sans CJK SC", "Microsoft YaHei", sans-serif;
       margin: 2em auto; max-width: 72em; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
.meta, .note { color: var(--muted); }
.meta { margin-bottom: 1.5em; }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1.5em; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3em 0.6em; text-align: left;
         vertical-align: top; }
th { position: sticky; top: 0; background: Canvas; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.original td { font-style: italic; }
h2 { margin-top: 2em; }
h3 { margin: 1.2em 0 0.2em; font-size: 1.05em; }
dt { font-weight: 600; margin-top: 0.6em; }
dd { margin-left: 1.5em; }
.path { word-break: break-all; }
.bar { display: inline-block; height: 0.7em; background: var(--accent); border-radius: 2px;
       vertical-align: middle; margin-right: 0.4em; }
.copying { color: #c92a2a; font-weight: 600; }
tr.excerpt td { border-bottom-width: 2px; font-size: 0.92em; }
blockquote { margin: 0.2em 0 0.4em 1em; padding-left: 0.6em; border-left: 3px solid var(--accent); }
.set-apart { color: var(--muted); font-style: italic; }
"""

_SECTIONS = (
    ("settings", "Settings"),
    ("reading", "How to read this report"),
    ("decisions", "Decisions"),
    ("documents", "Documents"),
    ("clusters", "Clusters"),
    ("pairs", "Pairs"),
    ("partial", "Partial copies"),
    ("meaning", "Found by meaning"),
    ("files", "Problems"),
)


def render_html_report(
    result: ScanResult,
    clusters: Clusters,
    title: str | None = None,
    *,
    verdicts: Verdicts | None = None,
    dismissed: Iterable[frozenset[str]] = (),
    language: str = "en",
    archive_folders: Sequence[str] = (),
) -> str:
    """The report as one HTML string: summary, settings, how to read it, decisions,
    documents, clusters, pairs, partial copies with excerpts, passages found by meaning
    (paraphrased, translated) with both sides, problems (files not compared or read with
    a warning).

    Args:
        title: the page's heading (default "SimSift report", in `language`).
        verdicts: the teacher's verdicts, shown beside their pairs and documents.
        dismissed: pairs marked "Not a duplicate" (two paths each); those between
            documents of this scan are listed as decisions.
        language: the report's language ("en", "zh_CN"; see `core.report.language`).
        archive_folders: the archive folders the scan was checked against
            (`core.pipeline.archive_folders`), listed with the folders scanned.
    """
    verdicts = verdicts or Verdicts()
    w = report_language(language)
    title = title or w("SimSift report")
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{w.html_lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        _summary(result, clusters, w, archive_folders),
        _contents(w),
        _settings_section(result, clusters, w, archive_folders),
        _reading_section(clusters.k, result.options.passages, w),
        _decisions_section(result, verdicts, dismissed, w),
        _documents_section(result, verdicts, w),
        _clusters_section(result, clusters, verdicts, w),
        _pairs_section(result, clusters, verdicts, w),
        _partial_section(result, verdicts, w),
        _meaning_section(result, verdicts, w),
        _files_section(result, w),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


def write_html_report(
    result: ScanResult,
    clusters: Clusters,
    path: Path,
    title: str | None = None,
    *,
    verdicts: Verdicts | None = None,
    dismissed: Iterable[frozenset[str]] = (),
    language: str = "en",
    archive_folders: Sequence[str] = (),
) -> Path:
    """Write the report to `path` atomically (temporary file, then rename), with the
    user's umask; file names that are not UTF-8 show their odd bytes as "?"."""
    text = render_html_report(
        result,
        clusters,
        title,
        verdicts=verdicts,
        dismissed=dismissed,
        language=language,
        archive_folders=archive_folders,
    )
    return write_html(text, path)


def write_html(text: str, path: Path) -> Path:
    """Write an HTML page to `path` atomically (temporary file, then rename), with the
    user's umask; odd bytes in the text are written as "?"."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "w", encoding="utf-8", errors="replace") as f:
        f.write(text)
    return path


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _p(path: str) -> str:
    """A file's path for the page: escaped, with direction and invisible controls visible."""
    return _e(visible_controls(path))


def _folders_scanned(options, archive_folders: Sequence[str], w: ReportLanguage) -> list[str]:
    """The scanned folders, then the archive folders they were checked against, marked."""
    archived = [w("{folder} (archive)", folder=folder) for folder in archive_folders]
    return [*options.roots, *archived]


def _summary(
    result: ScanResult, clusters: Clusters, w: ReportLanguage, archive_folders: Sequence[str]
) -> str:
    roots = ", ".join(_folders_scanned(result.options, archive_folders, w))
    stamp = time.strftime("%Y-%m-%d %H:%M")
    left_out = len(result.errors) + len(result.garbled) + len(result.skipped)
    notices = "".join(f"<br>{_e(w('Note: {notice}', notice=n))}" for n in result.notices)
    figures = [
        w.count(len(result.documents), "{n} document", "{n} documents"),
        w.count(len(clusters), "{n} cluster", "{n} clusters"),
        w.count(len(clusters.doc), "{n} file in clusters", "{n} files in clusters"),
        w("{n} unreadable", n=f"{len(result.errors):,}"),
        w.count(left_out, "{n} file not compared", "{n} files not compared"),
        w("Hamming distance k = {k} of 64 bits", k=clusters.k),
    ]
    by_meaning = len({d for pair in pair_meaning_kinds(result) for d in pair} - _not_essays(result))
    if by_meaning:
        figures.append(
            w.count(
                by_meaning,
                "{n} document with passages found by meaning (paraphrased or translated)",
                "{n} documents with passages found by meaning (paraphrased or translated)",
            )
        )
    flagged = len(flagged_documents(result))
    if flagged:
        figures.append(
            w.count(
                flagged, "{n} document with integrity flags", "{n} documents with integrity flags"
            )
        )
    return (
        f'<p class="meta">SimSift {_e(__version__)} · {stamp} · {_e(w("folders:"))} '
        f'<span class="path">{_p(roots)}</span><br>'
        f"{_e(' · '.join(figures))}{notices}</p>"
    )


def _not_essays(result: ScanResult) -> set[int]:
    """Reference and archive documents: sources, never essays counted."""
    return set(np.flatnonzero(~result.is_essay).tolist())


def _contents(w: ReportLanguage) -> str:
    links = " · ".join(f'<a href="#{anchor}">{_e(w(name))}</a>' for anchor, name in _SECTIONS)
    return f"<p>{_e(w('Contents:'))} {links}</p>"


def _heading(anchor: str, text: str) -> str:
    """A section heading (`text` already in the report's language)."""
    return f'<h2 id="{anchor}">{_e(text)}</h2>'


# -- settings -------------------------------------------------------------------------


def _settings_section(
    result: ScanResult, clusters: Clusters, w: ReportLanguage, archive_folders: Sequence[str]
) -> str:
    """Everything needed to repeat the scan and get the same figures."""
    options, weights = result.options, result.options.weights
    passages = options.passages
    none = w("none")
    term_weights = ", ".join(f"{term} × {weight:g}" for term, weight in weights.term_weights)
    partial = w(
        "containment of {share} or more with {run} words in a row",
        share=f"{passages.partial_threshold:.0%}",
        run=SHARE_MIN_RUN,
    )
    if passages.partial_min_run:
        partial += w(", or {run} words in a row or more", run=f"{passages.partial_min_run:,}")
    counted, apart = w("counted as copying"), w("shown, not counted as copying")
    common = w(
        "found in more than {max_docs} documents, or in more than {share} of them "
        "(and in at least {min_docs})",
        max_docs=f"{passages.common_max_docs:,}",
        share=f"{passages.common_share:.0%}",
        min_docs=f"{passages.common_min_docs:,}",
    )
    threshold = common_threshold(result)
    if threshold is not None:
        common += w(
            "; here, with {total} documents compared: found in {n} or more of them",
            n=f"{threshold[0]:,}",
            total=f"{threshold[1]:,}",
        )
    rows = [
        (w("SimSift version"), __version__),
        (w("Report written"), time.strftime("%Y-%m-%d %H:%M")),
        (
            w("Folders scanned"),
            visible_controls("; ".join(_folders_scanned(options, archive_folders, w))),
        ),
        (w("Reference folders"), visible_controls("; ".join(options.reference_roots)) or none),
        (w("Excluded patterns"), "; ".join(options.exclude) or none),
        (
            w("Hamming distance k"),
            w("{k} of 64 bits (pairs searched up to {k_max})", k=clusters.k, k_max=options.k_max),
        ),
        (w("Term frequency"), w(weights.tf_scheme)),
        (w("Inverse document frequency (idf)"), _yes_no(weights.use_idf, w)),
        (w("Title boost"), f"{weights.title_boost:g}"),
        (w("Digits ignored"), _yes_no(weights.ignore_digits, w)),
        (w("Shingle size"), w.count(weights.shingle_size, "{n} word", "{n} words")),
        (w("Stopwords removed"), _yes_no(weights.remove_stopwords, w)),
        (w("Term weights"), term_weights or none),
        (
            w("Traditional Chinese compared as Simplified"),
            _yes_no(options.traditional_to_simplified, w),
        ),
        (w("Partial copy"), partial),
        (
            w("Shortest match"),
            w(
                "{run} words in a row: shorter shared runs never count as copying",
                run=f"{passages.shortest_run:,}",
            ),
        ),
        (w("Quotations"), counted if passages.count_quotations else apart),
        (w("Bibliography"), counted if passages.count_bibliography else apart),
        (w("Common text (never counted as copying)"), common),
        (
            w("Paraphrased passages"),
            w("looked for, reported apart from word-for-word copying")
            if passages.paraphrase
            else w("not looked for"),
        ),
        (
            w("Translated passages (Chinese and English)"),
            w("looked for, reported apart from word-for-word copying")
            if passages.translation
            else w("not looked for"),
        ),
        (
            w("Passages"),
            w(
                "{low}–{high} words; matched within {bits} bits",
                low=passages.min_tokens,
                high=passages.max_tokens,
                bits=passages.max_distance,
            ),
        ),
        (w("Garbled documents compared"), _yes_no(options.compare_garbled, w)),
    ]
    body = "".join(f"<tr><th>{_e(name)}</th><td>{_e(value)}</td></tr>" for name, value in rows)
    return f'{_heading("settings", w("Settings"))}<table class="settings">{body}</table>'


def _yes_no(flag: bool, w: ReportLanguage) -> str:
    return w("yes") if flag else w("no")


# -- how to read it -------------------------------------------------------------------

_MEASURES = (
    (
        "Hamming distance (Distance)",
        "SimSift gives each document a 64-bit fingerprint computed from its words "
        "(SimHash). The Hamming distance of two documents is the number of those 64 bits "
        "in which their fingerprints differ: 0 means the same words with the same weights, "
        "and the fewer bits differ, the more alike the documents are. This report lists as "
        "near duplicates the pairs whose distance is at most k = {k} of 64 bits.",
    ),
    (
        "Kind",
        "exact: the same bytes; same text: the same text in another format or markup; "
        "near: fingerprints within k; same template: fingerprints within k but hardly any "
        "text of their own in common (pages of one template), in no cluster; "
        "partial: passages of one document found in the other; "
        "paraphrased, translated: passages found by meaning only (in the CSV export's pairs "
        "and meaning files, and under Found by meaning).",
    ),
    (
        "Containment (A in B, B in A)",
        "A in B is the share of document A's own text that lies inside passages also found "
        "in document B; B in A the reverse. A short essay copied whole into a long one has "
        "A in B = 100% and a small B in A. Template text (from reference folders) and common "
        "text (found in many documents) never count.",
    ),
    (
        "Overlap",
        "Both documents' text inside shared passages, over both texts: one figure for the "
        "pair, the same in both directions.",
    ),
    (
        "Similarity index",
        "The share of a document's own text found in any other document (the union over "
        "all its sources), so an essay stitched from three sources at 15% each has an index "
        "near 45% although no single pair is large. Sources: the other documents holding "
        "part of it; largest source: the one holding most, with its share.",
    ),
    (
        "Paraphrased, translated (found by meaning)",
        "A paraphrased passage says what a passage of another document says, sentence by "
        "sentence, in other words; a translated one says it in the other language (Chinese "
        "and English). They share no run of words, so they are shown apart from "
        "word-for-word (verbatim) copying and never counted in the similarity index: a "
        "document's shares of each kind are of the same own text and never overlap the "
        "verbatim share, and All kinds adds them up (18%: 9% verbatim, 6% paraphrased, 3% "
        "translated). Such a match is evidence for a person to read, not proof: two "
        "writers can say the same thing; read both passages before deciding.",
    ),
    (
        "Excerpt",
        "The longest passage matched between the two documents, as it reads in each (the "
        "paragraph numbers count from 1). Passages are compared by fingerprint, so the two "
        "sides may differ by a few edited words.",
    ),
    (
        "Verdict, Not a duplicate",
        "The teacher's decisions, with their note and date. SimSift only finds similarity; "
        "a person decides whether it is copying.",
    ),
)


def _reading_section(k: int, passages, w: ReportLanguage) -> str:
    items = "".join(
        f"<dt>{_e(w(name))}</dt><dd>{_e(w(text, k=k))}</dd>" for name, text in _MEASURES
    )
    items += f"<dt>{_e(w('What never counts as copying'))}</dt><dd>{_e(_rules(passages, w))}</dd>"
    return f"{_heading('reading', w('How to read this report'))}<dl>{items}</dl>"


def _rules(passages, w: ReportLanguage) -> str:
    """What counted as copying under `passages` (`PassageOptions`), as the legend says it."""
    sentences = [
        w(
            "Shared runs of fewer than {run} words, template text and common text never "
            "count as copying.",
            run=f"{passages.shortest_run:,}",
        ),
        w("Quotations count as copying, like the writer's own text.")
        if passages.count_quotations
        else w(
            "Text in quotation marks is set apart: it is shown (in grey italics in the "
            "excerpts) but never counted as copying."
        ),
        w("The bibliography counts as copying, like the writer's own text.")
        if passages.count_bibliography
        else w("The bibliography (a references section) is shown but never counted as copying."),
    ]
    # sentences run on with a space in English, none after a Chinese full stop
    return " ".join(sentences).replace("。 ", "。")


# -- decisions -------------------------------------------------------------------------


def _verdict_cell(verdict: Verdict | None, w: ReportLanguage) -> str:
    if verdict is None:
        return "<td></td>"
    css = ' class="copying"' if verdict.verdict == COPYING else ""
    note = f"<br>{_e(verdict.note)}" if verdict.note else ""
    date = f'<br><span class="note">{_e(verdict.date)}</span>'
    label = w("copying confirmed") if verdict.verdict == COPYING else w("not copying")
    return f"<td><span{css}>{_e(label)}</span>{note}{date}</td>"


def _pair_verdict(verdicts: Verdicts, a: str, b: str) -> Verdict | None:
    return verdicts.of_pair(a, b) if verdicts.pairs else None


def _decisions_section(
    result: ScanResult, verdicts: Verdicts, dismissed: Iterable[frozenset[str]], w: ReportLanguage
) -> str:
    """Verdicts and "Not a duplicate" pairs about documents of this scan (the catalog keeps
    decisions about other folders too; they do not belong in this report)."""
    here = {d.path for d in result.documents}
    documents = sorted((p, v) for p, v in verdicts.documents.items() if p in here)
    pairs = sorted(
        (sorted(key), v) for key, v in verdicts.pairs.items() if len(key) == 2 and key <= here
    )
    ignored = sorted(sorted(key) for key in dismissed if len(key) == 2 and key <= here)
    out = [_heading("decisions", w("Decisions"))]
    if not (documents or pairs or ignored):
        none = w("No verdict and no pair marked “Not a duplicate” for these documents.")
        out.append(f"<p>{_e(none)}</p>")
        return "\n".join(out)
    if documents:
        out.append(f"<h3>{_e(w('Verdicts on documents ({n})', n=f'{len(documents):,}'))}</h3>")
        out.append(_header_row(w, "File", "Verdict"))
        out += [
            f'<tr><td class="path">{_p(p)}</td>{_verdict_cell(v, w)}</tr>' for p, v in documents
        ]
        out.append("</table>")
    if pairs:
        out.append(f"<h3>{_e(w('Verdicts on pairs ({n})', n=f'{len(pairs):,}'))}</h3>")
        out.append(_header_row(w, "File A", "File B", "Verdict"))
        out += [
            f'<tr><td class="path">{_p(a)}</td><td class="path">{_p(b)}</td>'
            f"{_verdict_cell(v, w)}</tr>"
            for (a, b), v in pairs
        ]
        out.append("</table>")
    if ignored:
        out.append(f"<h3>{_e(w('Marked “Not a duplicate” ({n})', n=f'{len(ignored):,}'))}</h3>")
        dismissed_note = w(
            "These pairs were dismissed by the user and are left out of every table below."
        )
        out.append(f'<p class="note">{_e(dismissed_note)}</p>')
        out.append(_header_row(w, "File A", "File B"))
        out += [
            f'<tr><td class="path">{_p(a)}</td><td class="path">{_p(b)}</td></tr>'
            for a, b in ignored
        ]
        out.append("</table>")
    return "\n".join(out)


# -- documents, clusters, pairs ---------------------------------------------------------


def _header_row(w: ReportLanguage, *names: str) -> str:
    """A table's opening tag and its row of column names, in the report's language."""
    cells = "".join(f"<th>{_e(w(name))}</th>" for name in names)
    return f"<table><tr>{cells}</tr>"


def _share_cell(share: float) -> str:
    """A containment as a bar and a percentage (the same number the CSV and the app show)."""
    return (
        f'<td class="num"><span class="bar" style="width:{share * 4:.2f}em"></span>{share:.0%}</td>'
    )


def _documents_section(result: ScanResult, verdicts: Verdicts, w: ReportLanguage) -> str:
    """The teacher's list: documents found in part elsewhere, highest similarity index first;
    where text was found by meaning too, its shares by kind, and each source's kinds."""
    sim = result.similarity()
    order = document_order(sim)
    rows = document_rows(result)[: len(order)]
    title = w("Documents found in part elsewhere ({n})", n=f"{len(rows):,}")
    out = [_heading("documents", title)]
    if not rows:
        out.append(f"<p>{_e(w('No passage of any document was found in another document.'))}</p>")
        out.append(_flags_part(result, verdicts, w))
        return "\n".join(out)
    out.append(
        _header_row(
            w,
            "File",
            "Similarity index",
            "All kinds",
            "Sources",
            "Largest source",
            "Its share",
            "Verdict",
        )
    )
    for doc, row in zip(order[:MAX_PAIR_ROWS], rows[:MAX_PAIR_ROWS], strict=True):
        by_meaning = row["paraphrased"] > 0 or row["translated"] > 0
        kinds = _shares_text(sim, doc, w) if by_meaning else ""
        out.append(
            f'<tr><td class="path">{_p(row["path"])}</td>{_share_cell(row["similarity_index"])}'
            f"<td>{_e(kinds)}</td>"
            f'<td class="num">{row["sources"]:,}</td>'
            f'<td class="path">{_p(row["largest_source"])}</td>'
            f"{_share_cell(row['largest_share'])}"
            f"{_verdict_cell(verdicts.of_document(row['path']), w)}</tr>"
        )
        if by_meaning:
            out.append(
                f'<tr class="excerpt"><td colspan="7">{_sources_html(result, sim, doc, w)}'
                "</td></tr>"
            )
    out.append("</table>")
    if len(rows) > MAX_PAIR_ROWS:
        shown = w("First {n} documents shown; documents.csv lists all.", n=f"{MAX_PAIR_ROWS:,}")
        out.append(f"<p>{_e(shown)}</p>")
    out.append(_flags_part(result, verdicts, w))
    return "\n".join(out)


def _kind_name(kind: str, w: ReportLanguage) -> str:
    """A fragment's kind (`core.report.fragments.FRAGMENT_KINDS`) in the report's language."""
    names = {
        VERBATIM: w("verbatim"),
        PARAPHRASED: w("paraphrased"),
        TRANSLATED: w("translated"),
    }
    return names.get(kind, kind)


def shares_by_kind(verbatim: float, paraphrased: float, translated: float, w) -> str:
    """ "9% verbatim, 6% paraphrased, 3% translated": the kinds found, each with its share
    (kinds at 0 left out, verbatim first)."""
    parts = []
    if verbatim > 0:
        parts.append(w("{share} verbatim", share=f"{verbatim:.0%}"))
    if paraphrased > 0:
        parts.append(w("{share} paraphrased", share=f"{paraphrased:.0%}"))
    if translated > 0:
        parts.append(w("{share} translated", share=f"{translated:.0%}"))
    return w(", ").join(parts)


def _shares_text(sim, doc: int, w: ReportLanguage) -> str:
    """ "18%: 9% verbatim, 6% paraphrased, 3% translated" of document `doc`."""
    parts = shares_by_kind(
        float(sim.index[doc]), float(sim.paraphrased[doc]), float(sim.translated[doc]), w
    )
    return w("{total}: {parts}", total=f"{float(sim.total[doc]):.0%}", parts=parts)


def _sources_html(result: ScanResult, sim, doc: int, w: ReportLanguage) -> str:
    """Every source of `doc` with its share of each kind: "Sources: ana.txt: 9% verbatim,
    6% paraphrased; chen.txt: 3% translated"."""
    items = []
    for source in sim.sources(doc):
        kinds = shares_by_kind(source.share, source.paraphrased, source.translated, w)
        name = _p(os.path.basename(result.documents[source.doc].path))
        items.append(f"{name}: {_e(kinds)}" if kinds else name)
    return f"{_e(w('Sources:'))} " + _e(w("; ")).join(items)


def _flags_part(result: ScanResult, verdicts: Verdicts, w: ReportLanguage) -> str:
    """Every document carrying integrity flags, each flag on its own line in the report's
    language, its evidence as written."""
    flagged = flagged_documents(result)
    if not flagged:
        return ""
    title = w("Integrity flags ({n})", n=f"{len(flagged):,}")
    why = w(
        "Signs that a document's text was disguised to slip past a checker (hidden text, "
        "look-alike letters, invisible characters). The disguise was undone before comparing; "
        "read the document itself before deciding."
    )
    out = [f'<h3 id="flags">{_e(title)}</h3>', f'<p class="note">{_e(why)}</p>']
    out.append(_header_row(w, "File", "Flags", "Verdict"))
    for doc in flagged[:MAX_PAIR_ROWS]:
        record = result.documents[doc]
        flags = "<br>".join(_e(w.flag(flag)) for flag in record.flags)
        out.append(
            f'<tr><td class="path">{_p(record.path)}</td><td>{flags}</td>'
            f"{_verdict_cell(verdicts.of_document(record.path), w)}</tr>"
        )
    out.append("</table>")
    return "\n".join(out)


def _clusters_section(
    result: ScanResult, clusters: Clusters, verdicts: Verdicts, w: ReportLanguage
) -> str:
    heading = _heading("clusters", w("Clusters"))
    if len(clusters) == 0:
        return f"{heading}<p>{_e(w('No near-duplicates at this distance.'))}</p>"
    order = np.argsort(-np.diff(clusters.ptr), kind="stable")  # biggest clusters first
    out = [heading]
    for c in order.tolist():
        s = clusters.members(c)
        original = int(clusters.doc[s.start])
        title = w(
            "Cluster {number} · {files} files · max distance {distance}",
            number=c + 1,
            files=s.stop - s.start,
            distance=int(clusters.max_distance[c]),
        )
        out.append(f"<h3>{_e(title)}</h3>")
        out.append(_header_row(w, "File", "Kind", "Distance", "In original", "Title", "Verdict"))
        for doc, kind, distance in zip(
            clusters.doc[s].tolist(),
            clusters.kind[s].tolist(),
            clusters.distance[s].tolist(),
            strict=True,
        ):
            record = result.documents[doc]
            is_original = kind == KIND_ORIGINAL
            css = ' class="original"' if is_original else ""
            share = "<td></td>" if is_original else _share_cell(result.overlap(doc, original)[0])
            out.append(
                f'<tr{css}><td class="path">{_p(record.path)}</td>'
                f"<td>{_e(w(KIND_NAMES[kind]))}</td>"
                f'<td class="num">{distance}</td>{share}'
                f"<td>{_e(record.title)}</td>{_verdict_cell(verdicts.of_document(record.path), w)}"
                "</tr>"
            )
        out.append("</table>")
    return "\n".join(out)


def _pairs_section(
    result: ScanResult, clusters: Clusters, verdicts: Verdicts, w: ReportLanguage
) -> str:
    shown = np.zeros(len(result.documents), dtype=bool)
    shown[clusters.doc] = True
    pairs = result.pairs.within(clusters.k)
    keep = shown[pairs.left] & shown[pairs.right]
    left, right, distance = pairs.left[keep], pairs.right[keep], pairs.distance[keep]
    order = np.argsort(distance, kind="stable")[:MAX_PAIR_ROWS]
    kinds = result.pair_kinds(pairs)[keep]
    # whole copies (exact, same text) need no excerpt: their text is the same
    all_near = order[kinds[order] == KIND_NEAR]
    near = all_near[:MAX_EXCERPTS]
    excerpts = _excerpts(result, left[near], right[near], near.tolist(), w)
    out = [
        _heading("pairs", w("Pairs ({n})", n=f"{len(left):,}")),
        _header_row(w, "File A", "File B", "Kind", "Distance", "A in B", "B in A", "Verdict"),
    ]
    docs = result.documents
    a_in_b, b_in_a, _ = result.overlap_many(left, right)
    for i in order.tolist():
        d = int(distance[i])
        path_a, path_b = docs[int(left[i])].path, docs[int(right[i])].path
        out.append(
            f'<tr><td class="path">{_p(path_a)}</td><td class="path">{_p(path_b)}</td>'
            f'<td>{_e(w(KIND_NAMES[int(kinds[i])]))}</td><td class="num">{d}</td>'
            f"{_share_cell(a_in_b[i])}{_share_cell(b_in_a[i])}"
            f"{_verdict_cell(_pair_verdict(verdicts, path_a, path_b), w)}</tr>"
        )
        if i in excerpts:
            out.append(f'<tr class="excerpt"><td colspan="7">{excerpts[i]}</td></tr>')
    out.append("</table>")
    if len(left) > MAX_PAIR_ROWS:
        shown = w("Closest {n} pairs shown; the CSV export lists all.", n=f"{MAX_PAIR_ROWS:,}")
        out.append(f"<p>{_e(shown)}</p>")
    if len(all_near) > MAX_EXCERPTS:
        out.append(_excerpt_cap_note(w))
    return "\n".join(out)


def _partial_section(result: ScanResult, verdicts: Verdicts, w: ReportLanguage) -> str:
    """Partial copies (containment), largest first, with excerpts of the first pairs."""
    overlaps = result.partial_pairs()
    if len(overlaps) == 0:
        return ""
    larger = np.maximum(overlaps.containment_ab, overlaps.containment_ba)
    order = np.argsort(-larger, kind="stable")[:MAX_PAIR_ROWS]
    first = order[:MAX_EXCERPTS]
    excerpts = _excerpts(result, overlaps.left[first], overlaps.right[first], first.tolist(), w)
    docs = result.documents
    out = [
        _heading("partial", w("Partial copies ({n})", n=f"{len(overlaps):,}")),
        _header_row(w, "File A", "File B", "A in B", "B in A", "Overlap", "Verdict"),
    ]
    for i in order.tolist():
        path_a, path_b = docs[int(overlaps.left[i])].path, docs[int(overlaps.right[i])].path
        out.append(
            f'<tr><td class="path">{_p(path_a)}</td><td class="path">{_p(path_b)}</td>'
            f"{_share_cell(overlaps.containment_ab[i])}{_share_cell(overlaps.containment_ba[i])}"
            f'<td class="num">{overlaps.overlap[i]:.0%}</td>'
            f"{_verdict_cell(_pair_verdict(verdicts, path_a, path_b), w)}</tr>"
        )
        if i in excerpts:
            out.append(f'<tr class="excerpt"><td colspan="6">{excerpts[i]}</td></tr>')
    out.append("</table>")
    if len(overlaps) > MAX_PAIR_ROWS:
        shown = w(
            "The {n} pairs with the largest containment shown; the CSV export lists all.",
            n=f"{MAX_PAIR_ROWS:,}",
        )
        out.append(f"<p>{_e(shown)}</p>")
    if len(overlaps) > MAX_EXCERPTS:
        out.append(_excerpt_cap_note(w))
    return "\n".join(out)


def _meaning_section(result: ScanResult, verdicts: Verdicts, w: ReportLanguage) -> str:
    """Passages found by meaning (paraphrased, translated), highest score first, each with
    both sides; the kinds the scan did not look for are said."""
    passages = result.options.passages
    off = [
        name
        for name, on in (
            (w("paraphrased"), passages.paraphrase),
            (w("translated"), passages.translation),
        )
        if not on
    ]
    fragments = sorted(meaning_fragments(result), key=lambda f: (-f.score, f.a, f.b))
    out = [_heading("meaning", w("Found by meaning ({n})", n=f"{len(fragments):,}"))]
    if off:
        out.append(f"<p>{_e(w('Not looked for: {kinds}.', kinds=w(', ').join(off)))}</p>")
    why = w(
        "Passages of two documents that say the same thing in other words (paraphrased) or "
        "in the other language (translated), sharing no run of words. Such a match is "
        "evidence for a person to read, not proof: read both passages before deciding."
    )
    out.append(f'<p class="note">{_e(why)}</p>')
    if not fragments:
        out.append(f"<p>{_e(w('No passage was found by meaning alone.'))}</p>")
        return "\n".join(out)
    out.append(_header_row(w, "File A", "File B", "Kind", "Score", "Verdict"))
    docs = result.documents
    for number, f in enumerate(fragments[:MAX_PAIR_ROWS]):
        path_a, path_b = docs[f.a].path, docs[f.b].path
        out.append(
            f'<tr><td class="path">{_p(path_a)}</td><td class="path">{_p(path_b)}</td>'
            f'<td>{_e(_kind_name(f.kind, w))}</td><td class="num">{f.score:.2f}</td>'
            f"{_verdict_cell(_pair_verdict(verdicts, path_a, path_b), w)}</tr>"
        )
        if number < MAX_EXCERPTS:
            sides = "".join(
                f"<div>{_e(w('In {side}:', side=side))}<blockquote>"
                f"{_e(fragment_excerpt(text, start, end, EXCERPT_CHARS))}</blockquote></div>"
                for side, text, start, end in (
                    ("A", display_text(docs[f.a]), f.start_a, f.end_a),
                    ("B", display_text(docs[f.b]), f.start_b, f.end_b),
                )
            )
            out.append(f'<tr class="excerpt"><td colspan="5">{sides}</td></tr>')
    out.append("</table>")
    if len(fragments) > MAX_PAIR_ROWS:
        shown = w(
            "The {n} passages with the highest score shown; the CSV export lists all.",
            n=f"{MAX_PAIR_ROWS:,}",
        )
        out.append(f"<p>{_e(shown)}</p>")
    if len(fragments) > MAX_EXCERPTS:
        out.append(_excerpt_cap_note(w))
    return "\n".join(out)


def _excerpt_cap_note(w: ReportLanguage) -> str:
    note = w(
        "Excerpts are shown for the first {n} pairs of this table only, to keep the file "
        "small; the app shows any pair side by side.",
        n=f"{MAX_EXCERPTS:,}",
    )
    return f'<p class="note">{_e(note)}</p>'


# -- excerpts ---------------------------------------------------------------------------


def _excerpts(
    result: ScanResult, left: np.ndarray, right: np.ndarray, rows: Sequence[int], w: ReportLanguage
) -> dict[int, str]:
    """HTML of the longest matched passage of each pair (left[i], right[i]), by rows[i];
    pairs without a matched passage get none."""
    best = _longest_matches(result, left, right)
    out = {}
    for row, a, b, (passage_a, passage_b) in zip(
        rows, left.tolist(), right.tolist(), best, strict=True
    ):
        if passage_a >= 0:
            out[row] = (
                _e(w("Longest matched passage:"))
                + " "
                + _passage_quote(result, "A", a, passage_a, w)
                + _passage_quote(result, "B", b, passage_b, w)
            )
    return out


def _longest_matches(
    result: ScanResult, left: np.ndarray, right: np.ndarray
) -> list[tuple[int, int]]:
    """Per pair, the passage rows (in left's document, in right's) of its matched passage
    pair holding the most text that counts (not quotations, the bibliography, template or
    common text), a direct match before one found by extension; (-1, -1) where none does.
    One pass over all matches, not one per pair."""
    p, m = result.passages.passages, result.passages.matches
    n = max(p.n_docs, 1)
    if len(left) == 0 or len(m) == 0:
        return [(-1, -1)] * len(left)
    doc_l, doc_r = p.doc[m.left], p.doc[m.right]
    keys = np.minimum(doc_l, doc_r) * n + np.maximum(doc_l, doc_r)
    wanted = np.minimum(left, right) * n + np.maximum(left, right)
    hit = np.flatnonzero(np.isin(keys, wanted))
    counted_l, counted_r = _counted(result, m.left[hit]), _counted(result, m.right[hit])
    # a passage that counts on one side only (a quotation of the other) shows no copying
    both = (counted_l > 0) & (counted_r > 0)
    hit, size = hit[both], (counted_l + counted_r)[both]
    # passages matched directly before those found by extending a match: a passage running
    # on from one's own paragraph into a copied one matches only by extension
    extended = m.distance[hit] > result.passages.options.max_distance
    hit = hit[np.lexsort((-size, extended, keys[hit]))]
    first = np.r_[True, keys[hit][1:] != keys[hit][:-1]] if len(hit) else np.zeros(0, bool)
    best, best_keys = hit[first], keys[hit][first]
    pos = np.minimum(np.searchsorted(best_keys, wanted), max(len(best_keys) - 1, 0))
    found = best_keys[pos] == wanted if len(best_keys) else np.zeros(len(wanted), bool)
    out = []
    for a, j, ok in zip(left.tolist(), pos.tolist(), found.tolist(), strict=True):
        if not ok:
            out.append((-1, -1))
            continue
        row_l, row_r = int(m.left[best[j]]), int(m.right[best[j]])
        out.append((row_l, row_r) if int(p.doc[row_l]) == a else (row_r, row_l))
    return out


def _counted(result: ScanResult, rows: np.ndarray) -> np.ndarray:
    """Tokens of each passage row that count as copying: its length less the tokens in
    the left-out ranges (`PassageResult.left_out_start`, sorted and disjoint)."""
    p, passages = result.passages.passages, result.passages
    starts, stops = passages.left_out_start, passages.left_out_stop
    before_range = np.r_[0, np.cumsum(stops - starts)]

    def left_out_before(x: np.ndarray) -> np.ndarray:
        k = np.searchsorted(stops, x, side="right")  # ranges wholly before x
        inside = np.zeros(len(x), np.int64)
        open_ = k < len(starts)
        inside[open_] = np.maximum(x[open_] - starts[k[open_]], 0)
        return before_range[k] + inside

    start, stop = p.start[rows], p.stop[rows]
    return (stop - start) - (left_out_before(stop) - left_out_before(start))


def _passage_quote(result: ScanResult, side: str, doc: int, row: int, w: ReportLanguage) -> str:
    """One side of an excerpt: where the passage is in the document, and its text."""
    p = result.passages.passages
    first, last = int(p.para_start[row]) + 1, int(p.para_stop[row])
    if first == last:
        where = w("paragraph {first}", first=first)
    else:
        where = w("paragraphs {first}–{last}", first=first, last=last)
    offset = int(p.offsets[doc])
    text = span_text(
        result.documents[doc],
        int(p.start[row]) - offset,
        int(p.stop[row]) - offset,
        result.options.traditional_to_simplified,
    )
    words = int(p.stop[row] - p.start[row])
    place = w("In {side} ({where}, {words} words):", side=side, where=where, words=f"{words:,}")
    shown = _cut(text, EXCERPT_CHARS)
    quoted = QUOTATION in result.options.passages.set_apart
    return f"<div>{_e(place)}<blockquote>{_excerpt_html(shown, quoted, w)}</blockquote></div>"


def _excerpt_html(text: str, quoted: bool, w: ReportLanguage) -> str:
    """An excerpt, escaped, its quotations set apart in grey italics when they do not count."""
    spans = find_quotations(text, whole_paragraph=False).spans if quoted else ()
    if not spans:
        return _e(text)
    title = _e(w("quoted (not counted)"))
    out, done = [], 0
    for start, end in spans:
        out.append(_e(text[done:start]))
        out.append(f'<span class="set-apart" title="{title}">{_e(text[start:end])}</span>')
        done = end
    out.append(_e(text[done:]))
    return "".join(out)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# -- files not compared -----------------------------------------------------------------


def _files_section(result: ScanResult, w: ReportLanguage) -> str:
    """Every file found that was not compared, or compared with a warning, and why."""
    lists = (
        ("Unreadable files ({n})", "Problem", [(r.path, r.message) for r in result.errors]),
        (
            "Garbled files left out of the comparison ({n})",
            "Why",
            [(r.path, r.warning) for r in result.garbled],
        ),
        (
            "Files read with a warning (compared) ({n})",
            "Warning",
            [(r.path, r.warning) for r in result.warned],
        ),
        ("Skipped files ({n})", "Reason", [(r.path, r.message) for r in result.skipped]),
    )
    out = [_heading("files", w("Problems"))]
    if not any(rows for _, _, rows in lists):
        out.append(f"<p>{_e(w('Every file found was read and compared.'))}</p>")
    else:
        listed = w("Every file found that was not compared, or was read with a warning.")
        out.append(f"<p>{_e(listed)}</p>")
    for title, column, rows in lists:
        if not rows:
            continue
        out.append(f"<h3>{_e(w(title, n=f'{len(rows):,}'))}</h3>")
        out.append(_header_row(w, "File", column))
        out += [
            f'<tr><td class="path">{_p(path)}</td><td>{_e(why)}</td></tr>'
            for path, why in rows[:MAX_PAIR_ROWS]
        ]
        out.append("</table>")
        if len(rows) > MAX_PAIR_ROWS:
            shown = w("First {n} shown; the CSV export lists all.", n=f"{MAX_PAIR_ROWS:,}")
            out.append(f"<p>{_e(shown)}</p>")
    return "\n".join(out)
