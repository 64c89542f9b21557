"""One document's similarity report, to hand over: its similarity index, its sources with
their shares, and its text with each source's passages in that source's colour.

The same HTML is shown in the Documents tab (with compare links), saved as a file, and
printed to PDF by the app (Qt renders this subset of HTML: inline styles, tables, no
scripts), so what a teacher sees is what a student receives.

An anonymized report (`anonymous=True`) hides what often names the writer: the title line,
and a heading-like line at the top that holds a word of the file name or a name label
("Name:", "姓名"); each hidden line is replaced by a note saying so.

Text that never counts as copying reads as what it is (`core.report.text_kinds`):
quotations and the bibliography, when the options set them apart, in grey italics; template
and common text in grey; each with a title saying why, and a legend above the text. Copied
text keeps its source's colour.
"""

from __future__ import annotations

import html
import os
import re
import time
from dataclasses import dataclass

import numpy as np
from simsift.core import __version__
from simsift.core.analysis.similarity import DocumentSimilarity, Source
from simsift.core.pipeline.check import is_archive_path
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.text_kinds import (
    COMMON,
    COPIED,
    LISTED,
    OWN,
    QUOTED,
    TEMPLATE,
    Stretch,
    document_stretches,
)
from simsift.core.store.verdicts import COPYING, Verdict, Verdicts
from simsift.core.text.integrity import disguise_spans
from simsift.core.text.quotations import is_cited

# one colour per source, in share order; light enough for black text in print
SOURCE_COLOURS = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#eebefa", "#ffec99", "#c3fae8", "#ffc9c9")
OTHER_COLOUR = "#dee2e6"  # sources beyond the seventh share one grey
# the page handed over (`essay_page`): sizes in px, which Qt prints at 96 dpi (0.75 pt each)
# a Latin font first: Qt and browsers fall back to a CJK font for Chinese by themselves, and
# Qt's PDF of a CJK font's Latin letters and digits cannot be searched or copied
PAGE_FONTS = "system-ui,'Segoe UI','DejaVu Sans',sans-serif"
PAGE_TEXT_PX = 15
PAGE_NOTE_PX = 14
# A browser's reading column, on screen only. Qt applies plain and `@media screen` rules
# when it prints, which would add the column's margins to the paper's; it skips `not
# print`, and every rule after it: this comes last in the style sheet.
SCREEN_COLUMN = "@media not print{body{max-width:50em;margin:2em auto;padding:0 1em}}"
# text that never counts as copying: shown, in grey (readable in print and on a dark theme)
SET_APART_STYLE = "color:#6c757d;font-style:italic"  # quotations and the bibliography
LEFT_OUT_STYLE = "color:#868e96"  # template and common text
# the evidence of an integrity flag: look-alike letters, invisible characters, spaced letters
DISGUISE_STYLE = "color:#b00020;text-decoration:underline"
# The rule under the source table (the app inserts its excluded sources before it). Qt
# draws a rule that directly follows a table beside the table: an empty line between.
END_OF_SOURCES = "<p style='margin:0;font-size:1px'>&#8203;</p><hr>"
# A line at the top of an essay that may name its writer, for anonymized reports: a short
# line not ending like a sentence (as `core.read.extract.paragraphs` takes a title) ...
_MAX_NAME_LINE_CHARS = 120
_SENTENCE_ENDS = tuple(".。!！?？;；,，、")
_NAME_LINES_LOOKED_AT = 3
# ... holding a word of the file name, or a name label
_NAME_LABEL = re.compile(
    r"^(by|written by|submitted by)\b|\b(name|student|author)\s*[:：]|姓名|学生|作者|学号|班级",
    re.IGNORECASE,
)
# words of file names that name the assignment, not the writer
_GENERIC_WORDS = frozenset(
    {
        *("essay", "essays", "report", "draft", "final", "copy", "version", "assignment"),
        *("homework", "paper", "txt", "doc", "docx", "pdf", "作文", "论文", "作业", "报告", "草稿"),
    }
)
_WORD = re.compile(r"[^\W\d_]{2,}")


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
        "Shared runs of fewer than {run} words never count as copying, nor does template text "
        "or common text (found in more than {common} documents, or in more than {share} of "
        "them and at least {min_docs})."
    )
    boilerplate: str = (
        "Nor does boilerplate: a short paragraph of its own at the start or end of at least "
        "{edge} documents (a course footer, an honour-code statement)."
    )
    quotations_counted: str = "Quotations count as copying."
    quotations_apart: str = "Quotations are shown but not counted."
    bibliography_counted: str = "The bibliography counts as copying."
    bibliography_apart: str = "The bibliography is shown but not counted."
    in_text: str = "In the text:"
    quoted: str = "quoted (not counted)"
    quoted_cited: str = "quoted, cited (not counted)"
    quoted_from: str = "quoted from {name} (not counted)"
    quoted_from_cited: str = "quoted from {name}, cited (not counted)"
    bibliography: str = "bibliography (not counted)"
    template: str = "template text, also in a reference document (not counted)"
    common: str = "common text, found in many documents (not counted)"
    common_in: str = "common text, found in {n} documents (not counted)"
    common_between: str = "common text, found in {low} to {high} documents (not counted)"
    common_here: str = (
        "Here, with {total} documents compared, text found in {n} or more of them is common."
    )
    hidden_line: str = "(line hidden: it may name the writer)"
    made: str = "SimSift {version} · {date}"
    verdict: str = "Verdict: {verdict} ({date})"
    copying: str = "copying confirmed"
    not_copying: str = "not copying"
    flags: str = "Integrity flags ({count}): signs the text was disguised to slip past a checker"
    flags_note: str = "The disguise was undone before comparing; read the document itself."
    disguised: str = "disguised text (see the integrity flags)"

    def verdict_word(self, verdict: Verdict) -> str:
        return self.copying if verdict.verdict == COPYING else self.not_copying

    def rules(self, passages, threshold: tuple[int, int] | None = None) -> str:
        """What counted as copying under `passages` (`PassageOptions`), in a few sentences.

        Args:
            threshold: (n, total): in this scan text held by `n` or more of its `total`
                documents was common (`common_threshold`), said after the rule, since the
                share part of the rule can make it fewer than "Common text above".
        """
        rules = self.settings.format(
            run=f"{passages.shortest_run:,}",
            common=f"{passages.common_max_docs:,}",
            share=f"{passages.common_share:.0%}",
            min_docs=f"{passages.common_min_docs:,}",
        )
        sentences = [rules, self.boilerplate.format(edge=f"{passages.common_rule().edge_docs:,}")]
        if threshold is not None:
            n, total = threshold
            sentences.append(self.common_here.format(n=f"{n:,}", total=f"{total:,}"))
        sentences.append(
            self.quotations_counted if passages.count_quotations else self.quotations_apart
        )
        sentences.append(
            self.bibliography_counted if passages.count_bibliography else self.bibliography_apart
        )
        # sentences run on with a space in English, none after a Chinese full stop
        return " ".join(sentences).replace("。 ", "。")

    def common_label(self, documents: list[int]) -> str:
        """The legend's words for common text held by these numbers of documents."""
        if not documents:
            return self.common
        low, high = min(documents), max(documents)
        if low == high:
            return self.common_in.format(n=f"{low:,}")
        return self.common_between.format(low=f"{low:,}", high=f"{high:,}")


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
    anonymous: bool = False,
) -> str:
    """The report of document `doc` as an HTML fragment (body content, no page frame).

    Args:
        verdicts: the teacher's verdicts: the document's under the heading, each source
            pair's in the source table.
        compare_links: add a `compare:<doc>` link after each source (for the app).
        name: how a file name is shown (the app makes odd bytes readable).
        path_text: how a whole path is shown (the app may hide it: anonymized names).
        anonymous: hide the title line and a top line that may name the writer
            (`names_writer`); `name` and `path_text` hide the file names.
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
    parts.append(END_OF_SOURCES)
    stretches = document_stretches(result, doc, [s.doc for s in sources])
    flagged = {flag.split(":")[0] for flag in record.flags}
    disguises = [disguise_spans(p, flagged) if flagged else [] for p in record.paragraphs]
    legend = _legend_html(stretches, labels, any(disguises))
    if legend:
        parts.append(legend)
    hidden = _hidden_lines(record) if anonymous else set()
    if record.title:
        title = _e(labels.hidden_line) if anonymous else _e(record.title)
        parts.append(f"<h3>{title}</h3>")

    def quoted_title(paragraph: str, piece: Stretch) -> str:
        cited = is_cited(paragraph, piece.start, piece.end)
        if piece.found_in < 0:
            return labels.quoted_cited if cited else labels.quoted
        source = name(result.documents[piece.found_in].path)
        return (labels.quoted_from_cited if cited else labels.quoted_from).format(name=source)

    for i, (paragraph, pieces) in enumerate(zip(record.paragraphs, stretches, strict=True)):
        if i in hidden:
            parts.append(f"<p><i>{_e(labels.hidden_line)}</i></p>")
        else:
            looks = (colours, labels, quoted_title)
            parts.append(_paragraph_html(paragraph, pieces, looks, disguises[i]))
    made = labels.made.format(version=__version__, date=time.strftime("%Y-%m-%d %H:%M"))
    rules = labels.rules(result.options.passages, common_threshold(result))
    parts.append(f"<hr><p><small>{_e(rules)}<br>")
    parts.append(f"{_e(made)}</small></p>")
    return "\n".join(parts)


def essay_page(fragment: str, title: str) -> str:
    """A complete, self-contained HTML page around `essay_html`'s fragment, readable at
    100% zoom on screen and in print: text at 15 px (11.25 pt at 96 dpi), small print
    at 14 px (10.5 pt), never smaller. Qt's printing sizes `<small>` a step down whatever
    the style sheet says, so small print is a styled span here.

    On screen a browser shows the text as a centred column (`SCREEN_COLUMN`); printed, by
    Qt or by a browser, it fills the paper between the page margins."""
    fragment = fragment.replace("<small>", "<span class='note'>").replace("</small>", "</span>")
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title>"
        f"<style>body{{font-family:{PAGE_FONTS};font-size:{PAGE_TEXT_PX}px;line-height:1.5}}"
        f"td{{padding:0.2em 0.6em}}.note{{font-size:{PAGE_NOTE_PX}px;color:#495057}}"
        f"{SCREEN_COLUMN}</style></head>"
        f"<body>\n{fragment}\n</body></html>\n"
    )


def common_threshold(result: ScanResult) -> tuple[int, int] | None:
    """(n, total): text held by `n` or more of the scan's `total` ordinary documents is
    common under its `PassageOptions`; None when no text can be (n > total) or when the
    scan was checked against an archive (its documents count too, and the result holds
    only those it touched)."""
    total = int((~result.is_reference).sum())
    if any(is_archive_path(d.path) for d in result.documents):
        return None
    holders = np.arange(1, total + 1)
    common = np.flatnonzero(result.options.passages.common_rule().is_common(holders, total))
    return (int(holders[common[0]]), total) if len(common) else None


def names_writer(line: str, path: str) -> bool:
    """True when `line`, at the top of the essay in file `path`, looks like it names the
    writer: short, not a sentence, holding a name label or a word of the file name.

    >>> names_writer("Alice Smith, class 10B", "/class/smith_alice_essay.docx")
    True
    >>> names_writer("姓名：张伟", "/class/作文3.docx")
    True
    >>> names_writer("The causes of the French Revolution", "/class/smith_alice.docx")
    False
    """
    line = line.strip()
    if not line or len(line) > _MAX_NAME_LINE_CHARS or line.endswith(_SENTENCE_ENDS):
        return False
    if _NAME_LABEL.search(line):
        return True
    stem = os.path.splitext(os.path.basename(path))[0].lower()
    words = {w for w in _WORD.findall(stem) if w not in _GENERIC_WORDS}
    return any(word in line.lower() for word in words)


def _hidden_lines(record) -> set[int]:
    """Paragraphs at the top of `record` an anonymized report hides (`names_writer`)."""
    top = record.paragraphs[:_NAME_LINES_LOOKED_AT]
    return {i for i, line in enumerate(top) if names_writer(line, record.path)}


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


def _paragraph_html(paragraph: str, pieces: list[Stretch], looks, disguises=()) -> str:
    """One paragraph: a copied one whole in its source's colour, else stretch by stretch;
    `disguises` (sorted (start, end, kind)) are marked inside the stretches. `looks`:
    (source colours, labels, the title of a quotation from its paragraph and stretch)."""
    colours, labels, quoted_title = looks
    if len(pieces) == 1 and pieces[0].kind == COPIED and not disguises:
        return f"<p style='background:{colours[pieces[0].source]}'>{_e(paragraph)}</p>"
    spans = []
    for piece in pieces:
        text = _disguised_html(paragraph, piece.start, piece.end, disguises)
        style, title = _look(piece, colours, labels)
        if piece.kind == QUOTED:
            title = quoted_title(paragraph, piece)
        if style:
            title = f" title='{_e(title)}'" if title else ""
            text = f"<span style='{style}'{title}>{text}</span>"
        spans.append(text)
    return f"<p>{''.join(spans)}</p>"


def _disguised_html(paragraph: str, start: int, end: int, disguises) -> str:
    """paragraph[start:end], escaped, with the disguises in it marked (titled by kind)."""
    out = []
    for low, high, kind in disguises:
        low, high = max(low, start), min(high, end)
        if low >= high:
            continue
        out.append(_e(paragraph[start:low]))
        out.append(f"<span style='{DISGUISE_STYLE}' title='{_e(kind)}'>")
        out.append(f"{_e(paragraph[low:high])}</span>")
        start = high
    out.append(_e(paragraph[start:end]))
    return "".join(out)


def _look(piece: Stretch, colours, labels: EssayLabels) -> tuple[str, str]:
    """(inline style, title) of a stretch; no style for the writer's own text."""
    if piece.kind == COPIED:
        return f"background:{colours[piece.source]}", ""
    if piece.kind == QUOTED:
        return SET_APART_STYLE, labels.quoted
    if piece.kind == LISTED:
        return SET_APART_STYLE, labels.bibliography
    if piece.kind == TEMPLATE:
        return LEFT_OUT_STYLE, labels.template
    if piece.kind == COMMON:
        return LEFT_OUT_STYLE, labels.common_label([piece.documents] if piece.documents else [])
    return "", ""


def _legend_html(
    stretches: list[list[Stretch]], labels: EssayLabels, disguised: bool = False
) -> str:
    """One line naming, in their own look, the kinds of text that never count found in
    the document, and disguised text ("" when there are none)."""
    found = {piece.kind for pieces in stretches for piece in pieces} - {OWN, COPIED}
    entries = []
    if QUOTED in found:
        entries.append((SET_APART_STYLE, labels.quoted))
    if LISTED in found:
        entries.append((SET_APART_STYLE, labels.bibliography))
    if TEMPLATE in found:
        entries.append((LEFT_OUT_STYLE, labels.template))
    if COMMON in found:
        counts = sorted(
            {p.documents for pieces in stretches for p in pieces if p.kind == COMMON} - {0}
        )
        entries.append((LEFT_OUT_STYLE, labels.common_label(counts)))
    if disguised:
        entries.append((DISGUISE_STYLE, labels.disguised))
    if not entries:
        return ""
    shown = " · ".join(f"<span style='{style}'>{_e(text)}</span>" for style, text in entries)
    return f"<p><small>{_e(labels.in_text)} {shown}</small></p>"


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)
