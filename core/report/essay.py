"""One document's similarity report, to hand over: its similarity index, its sources with
their shares, and its text with each source's passages in that source's colour.

The same HTML is shown in the Documents tab (with compare links), saved as a file, and
printed to PDF by the app (Qt renders this subset of HTML: inline styles, tables, no
scripts), so what a teacher sees is what a student receives.
"""

from __future__ import annotations

import html
import os
import time
from dataclasses import dataclass

from simsift.core import __version__
from simsift.core.analysis.similarity import DocumentSimilarity, Source
from simsift.core.pipeline.result import ScanResult
from simsift.core.store.verdicts import COPYING, Verdict, Verdicts

# one colour per source, in share order; light enough for black text in print
SOURCE_COLOURS = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#eebefa", "#ffec99", "#c3fae8", "#ffc9c9")
OTHER_COLOUR = "#dee2e6"  # sources beyond the seventh share one grey


@dataclass(frozen=True, slots=True)
class EssayLabels:
    """The report's words, so the app can pass them in the user's language."""

    heading: str = "Similarity index {index}: found in {count} other documents"
    heading_one: str = "Similarity index {index}: found in 1 other document"
    sources: str = "Sources"
    share: str = "Share of this document"
    compare: str = "compare side by side"
    nothing: str = "No passage of this document was found in another document."
    settings: str = (
        "Containment counts text inside passages matched in another document; template and "
        "common text (found in {common} or more documents) never count."
    )
    made: str = "SimSift {version} · {date}"
    verdict: str = "Verdict: {verdict} ({date})"
    copying: str = "copying confirmed"
    not_copying: str = "not copying"
    flags: str = "Integrity flags ({count}): signs the text was disguised to slip past a checker"
    flags_note: str = "The disguise was undone before comparing; read the document itself."

    def verdict_word(self, verdict: Verdict) -> str:
        return self.copying if verdict.verdict == COPYING else self.not_copying


def essay_html(
    result: ScanResult,
    similarity: DocumentSimilarity,
    doc: int,
    labels: EssayLabels = EssayLabels(),
    *,
    verdicts: Verdicts | None = None,
    compare_links: bool = False,
    name=os.path.basename,
    path_text=str,
) -> str:
    """The report of document `doc` as an HTML fragment (body content, no page frame).

    Args:
        verdicts: the teacher's verdicts: the document's under the heading, each source
            pair's in the source table.
        compare_links: add a `compare:<doc>` link after each source (for the app).
        name: how a file name is shown (the app makes odd bytes readable).
        path_text: how a whole path is shown (the app may hide it: anonymized names).
    """
    sources = similarity.sources(doc)
    colours = _source_colours(len(sources))
    record = result.documents[doc]
    template = labels.heading_one if len(sources) == 1 else labels.heading
    heading = template.format(index=f"{similarity.index[doc]:.0%}", count=len(sources))
    parts = [f"<h2>{_e(name(record.path))}</h2>", f"<p>{_e(path_text(record.path))}</p>"]
    parts.append(f"<p><b>{_e(heading)}</b></p>")
    verdicts = verdicts or Verdicts()
    own = verdicts.of_document(record.path)
    if own is not None:
        parts.append(f"<p>{_verdict_html(own, labels)}</p>")
    if record.flags:
        parts.append(_flags_html(record.flags, labels))
    if sources:
        pair_verdicts = [
            verdicts.of_pair(record.path, result.documents[s.doc].path) for s in sources
        ]
        table = _source_table(
            result, sources, colours, labels, compare_links, (name, path_text), pair_verdicts
        )
        parts.append(table)
    else:
        parts.append(f"<p>{_e(labels.nothing)}</p>")
    parts.append("<hr>")
    if record.title:
        parts.append(f"<h3>{_e(record.title)}</h3>")
    colour_of = _paragraph_colours(result, doc, sources, colours)
    for i, paragraph in enumerate(record.paragraphs):
        colour = colour_of.get(i)
        style = f" style='background:{colour}'" if colour else ""
        parts.append(f"<p{style}>{_e(paragraph)}</p>")
    common = result.options.passages.common_min_docs
    made = labels.made.format(version=__version__, date=time.strftime("%Y-%m-%d %H:%M"))
    parts.append(f"<hr><p><small>{_e(labels.settings.format(common=common))}<br>")
    parts.append(f"{_e(made)}</small></p>")
    return "\n".join(parts)


def essay_page(fragment: str, title: str) -> str:
    """A complete, self-contained HTML page around `essay_html`'s fragment."""
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title>"
        "<style>body{font:14px/1.5 system-ui,'Noto Sans CJK SC','Microsoft YaHei',sans-serif;"
        "max-width:50em;margin:2em auto;padding:0 1em}td{padding:0.2em 0.6em}"
        "@media print{body{margin:0}}</style></head>"
        f"<body>\n{fragment}\n</body></html>\n"
    )


def _source_colours(count: int) -> list[str]:
    return [SOURCE_COLOURS[i] if i < len(SOURCE_COLOURS) else OTHER_COLOUR for i in range(count)]


def _verdict_html(verdict: Verdict, labels: EssayLabels) -> str:
    text = labels.verdict.format(verdict=labels.verdict_word(verdict), date=verdict.date)
    colour = "#c92a2a" if verdict.verdict == COPYING else "#2b8a3e"
    note = f" — {_e(verdict.note)}" if verdict.note else ""
    return f"<span style='color:{colour}'><b>{_e(text)}</b></span>{note}"


def _flags_html(flags: tuple[str, ...], labels: EssayLabels) -> str:
    """The document's integrity flags, one per line, under a red label (the sentences come
    from the engine, in English, with their evidence)."""
    title = labels.flags.format(count=len(flags))
    items = "".join(f"<li>{_e(flag)}</li>" for flag in flags)
    return (
        f"<p><span style='color:#c92a2a'><b>{_e(title)}</b></span><br>"
        f"<small>{_e(labels.flags_note)}</small></p><ul>{items}</ul>"
    )


def _source_table(
    result, sources: list[Source], colours, labels, compare_links, naming, verdicts
) -> str:
    name, path_text = naming
    rows = [f"<table><tr><th></th><th align='left'>{_e(labels.sources)}</th>"]
    rows.append(f"<th align='right'>{_e(labels.share)}</th><th></th><th></th></tr>")
    for source, colour, verdict in zip(sources, colours, verdicts, strict=True):
        path = result.documents[source.doc].path
        link = f"<a href='compare:{source.doc}'>{_e(labels.compare)}</a>" if compare_links else ""
        rows.append(
            f"<tr><td style='background:{colour}'>&nbsp;&nbsp;&nbsp;&nbsp;</td>"
            f"<td title='{_e(path_text(path))}'>{_e(name(path))}</td>"
            f"<td align='right'>{source.share:.0%}</td><td>{link}</td>"
            f"<td>{_verdict_html(verdict, labels) if verdict else ''}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _paragraph_colours(result, doc: int, sources: list[Source], colours) -> dict[int, str]:
    """Paragraph number -> colour of the largest source it was matched in."""
    colour_of: dict[int, str] = {}
    for source, colour in zip(sources, colours, strict=True):
        for link in result.passages.links(doc, source.doc):
            for paragraph in range(*link.paragraphs_a):
                colour_of.setdefault(paragraph, colour)
    return colour_of


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)
