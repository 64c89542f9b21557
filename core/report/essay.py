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
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from simsift.core import __version__
from simsift.core.analysis.similarity import DocumentSimilarity, Source
from simsift.core.pipeline.check import is_archive_path
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.fragments import display_text, excerpt, meaning_fragments
from simsift.core.report.language import report_language
from simsift.core.report.text_kinds import (
    BY_MEANING,
    COMMON,
    COPIED,
    LISTED,
    OWN,
    PARAPHRASED,
    QUOTED,
    TEMPLATE,
    TRANSLATED,
    Stretch,
    document_stretches,
    with_meaning,
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
# text found by meaning only, in its source's colour: paraphrased in italics, translated
# in italics and underlined (Qt's rich text draws these; it draws no borders on a span)
MEANING_STYLES = {
    PARAPHRASED: "background:{colour};font-style:italic",
    TRANSLATED: "background:{colour};font-style:italic;text-decoration:underline",
}
MEANING_EXCERPT_CHARS = 600  # each side of a passage found by meaning, shown beside it
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
    quoted_from: str = "quoted, also in {name} (not counted)"
    quoted_from_cited: str = "quoted, cited, also in {name} (not counted)"
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
    flag_text: Callable[[str], str] = str  # an engine's flag sentence in this language
    # found by meaning (paraphrased, translated): shown apart from word-for-word copying
    all_kinds: str = "All kinds {total}: {parts}"
    verbatim_share: str = "{share} verbatim"
    paraphrased_share: str = "{share} paraphrased"
    translated_share: str = "{share} translated"
    list_separator: str = ", "
    by_meaning: str = "Found by meaning"
    paraphrased_from: str = "paraphrased from {name}: the same meaning in other words"
    translated_from: str = "translated from {name}: the same meaning in the other language"
    paraphrased_legend: str = "paraphrased (found by meaning)"
    translated_legend: str = "translated (found by meaning)"
    evidence: str = (
        "A paraphrased or translated passage is evidence for a person to read, not proof: "
        "compare it with the source passage beside it before deciding."
    )
    this_passage: str = "In this document:"
    source_passage: str = "In {name} ({kind}, score {score}):"
    paraphrased_word: str = "paraphrased"
    translated_word: str = "translated"

    def shares(self, verbatim: float, paraphrased: float, translated: float) -> str:
        """ "9% verbatim, 6% paraphrased, 3% translated": the kinds found, with their
        shares (kinds at 0 left out)."""
        parts = [
            template.format(share=f"{share:.0%}")
            for template, share in (
                (self.verbatim_share, verbatim),
                (self.paraphrased_share, paraphrased),
                (self.translated_share, translated),
            )
            if share > 0
        ]
        return self.list_separator.join(parts)

    def kind_word(self, kind: str) -> str:
        return self.paraphrased_word if kind == PARAPHRASED else self.translated_word

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


# the labels of copying found by meaning, translated with the HTML report's words
# (`resources/report/<language>.json`) until the app's own translations have them
MEANING_LABELS = (
    "all_kinds",
    "verbatim_share",
    "paraphrased_share",
    "translated_share",
    "list_separator",
    "by_meaning",
    "paraphrased_from",
    "translated_from",
    "paraphrased_legend",
    "translated_legend",
    "evidence",
    "this_passage",
    "source_passage",
    "paraphrased_word",
    "translated_word",
)


def meaning_labels(language: str) -> dict[str, str]:
    """The labels of copying found by meaning in `language` ("en", "zh_CN"), as keyword
    arguments of `EssayLabels`: `replace(labels, **meaning_labels("zh_CN"))`."""
    words = report_language(language)
    defaults = EssayLabels()
    return {name: words(getattr(defaults, name)) for name in MEANING_LABELS}


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
    if similarity.paraphrased[doc] > 0 or similarity.translated[doc] > 0:
        shares = labels.shares(
            float(similarity.index[doc]),
            float(similarity.paraphrased[doc]),
            float(similarity.translated[doc]),
        )
        total = labels.all_kinds.format(total=f"{similarity.total[doc]:.0%}", parts=shares)
        parts.append(f"<p>{_e(total)}</p>")
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
    stretches = with_meaning(result, doc, [s.doc for s in sources], stretches)
    beside = _meaning_beside(result, doc, [s.doc for s in sources])
    source_number = {s.doc: i for i, s in reversed(list(enumerate(sources)))}
    flagged = {flag.split(":")[0] for flag in record.flags}
    disguises = [disguise_spans(p, flagged) if flagged else [] for p in record.paragraphs]
    legend = _legend_html(stretches, labels, any(disguises))
    if legend:
        parts.append(legend)
    if beside:
        parts.append(f"<p><small>{_e(labels.evidence)}</small></p>")
    hidden = _hidden_lines(record) if anonymous else set()
    if record.title:
        title = _e(labels.hidden_line) if anonymous else _e(record.title)
        parts.append(f"<h3>{title}</h3>")

    def meaning_title(piece: Stretch) -> str:
        source = name(result.documents[sources[piece.source].doc].path)
        template = labels.paraphrased_from if piece.kind == PARAPHRASED else labels.translated_from
        return template.format(name=source)

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
            looks = (colours, labels, quoted_title, meaning_title)
            parts.append(_paragraph_html(paragraph, pieces, looks, disguises[i]))
        for fragment in beside.get(i, ()):
            other = fragment.b if fragment.a == doc else fragment.a
            colour = colours[source_number[other]]
            parts.append(_beside_html(result, doc, fragment, colour, labels, name))
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
    """The document's integrity flags, one per line, under a red label (the engine's
    sentences in the labels' language, their evidence as written)."""
    title = labels.flags.format(count=len(flags))
    items = "".join(f"<li>{_e(labels.flag_text(flag))}</li>" for flag in flags)
    return (
        f"<p><span style='color:#c92a2a'><b>{_e(title)}</b></span><br>"
        f"<small>{_e(labels.flags_note)}</small></p><ul>{items}</ul>"
    )


def _source_table(
    result, sources: list[Source], colours, labels, compare_links, naming, verdicts
) -> str:
    name, path_text = naming
    meaning = any(s.paraphrased > 0 or s.translated > 0 for s in sources)
    by_meaning = f"<th align='left'>{_e(labels.by_meaning)}</th>" if meaning else ""
    rows = [f"<table><tr><th></th><th align='left'>{_e(labels.sources)}</th>"]
    rows.append(f"<th align='right'>{_e(labels.share)}</th>{by_meaning}<th></th><th></th></tr>")
    for source, colour, verdict in zip(sources, colours, verdicts, strict=True):
        path = result.documents[source.doc].path
        link = f"<a href='compare:{source.doc}'>{_e(labels.compare)}</a>" if compare_links else ""
        rows.append(
            f"<tr><td style='background:{colour}'>&nbsp;&nbsp;&nbsp;&nbsp;</td>"
            f"<td title='{_e(path_text(path))}'>{_e(name(path))}</td>"
            f"<td align='right'>{source.share:.0%}</td>"
            + (
                f"<td>{_e(labels.shares(0, source.paraphrased, source.translated))}</td>"
                if meaning
                else ""
            )
            + f"<td>{link}</td>"
            f"<td>{_verdict_html(verdict, labels) if verdict else ''}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _paragraph_html(paragraph: str, pieces: list[Stretch], looks, disguises=()) -> str:
    """One paragraph: a copied one whole in its source's colour, else stretch by stretch;
    `disguises` (sorted (start, end, kind)) are marked inside the stretches. `looks`:
    (source colours, labels, the title of a quotation from its paragraph and stretch)."""
    colours, labels, quoted_title, meaning_title = looks
    if len(pieces) == 1 and pieces[0].kind == COPIED and not disguises:
        return f"<p style='background:{colours[pieces[0].source]}'>{_e(paragraph)}</p>"
    spans = []
    for piece in pieces:
        text = _disguised_html(paragraph, piece.start, piece.end, disguises)
        style, title = _look(piece, colours, labels)
        if piece.kind == QUOTED:
            title = quoted_title(paragraph, piece)
        if piece.kind in BY_MEANING:
            title = meaning_title(piece)
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
    if piece.kind in BY_MEANING:
        return MEANING_STYLES[piece.kind].format(colour=colours[piece.source]), ""
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
    for kind, text in (
        (PARAPHRASED, labels.paraphrased_legend),
        (TRANSLATED, labels.translated_legend),
    ):
        if kind in found:
            entries.append((MEANING_STYLES[kind].format(colour=OTHER_COLOUR), text))
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


def _meaning_beside(result, doc: int, sources: list[int]) -> dict[int, list]:
    """Per paragraph of `doc`, the fragments found by meaning with a listed source that
    end in it (`core.report.fragments.Fragment`), to be shown beside the source passage."""
    listed = set(sources)
    record = result.documents[doc]
    ends = np.cumsum([len(p) + 2 for p in record.paragraphs])  # the display text's "\n\n"
    out: dict[int, list] = {}
    for f in meaning_fragments(result):
        if doc not in (f.a, f.b) or (f.b if f.a == doc else f.a) not in listed:
            continue
        end = f.end_a if f.a == doc else f.end_b
        paragraph = min(int(np.searchsorted(ends, max(end - 1, 0), side="right")), len(ends) - 1)
        out.setdefault(paragraph, []).append(f)
    return out


def _beside_html(result, doc: int, fragment, colour: str, labels: EssayLabels, name) -> str:
    """This document's passage found by meaning and its source's passage, side by side."""
    mine = fragment.a == doc
    other = fragment.b if mine else fragment.a
    own_span = (fragment.start_a, fragment.end_a) if mine else (fragment.start_b, fragment.end_b)
    other_span = (fragment.start_b, fragment.end_b) if mine else (fragment.start_a, fragment.end_a)
    own_text = excerpt(display_text(result.documents[doc]), *own_span, MEANING_EXCERPT_CHARS)
    source_text = excerpt(display_text(result.documents[other]), *other_span, MEANING_EXCERPT_CHARS)
    heading = labels.source_passage.format(
        name=name(result.documents[other].path),
        kind=labels.kind_word(fragment.kind),
        score=f"{fragment.score:.2f}",
    )
    style = MEANING_STYLES[fragment.kind].format(colour=colour)
    return (
        "<table width='100%' cellspacing='4'><tr>"
        f"<td width='50%' valign='top'><small>{_e(labels.this_passage)}</small><br>"
        f"<span style='{style}'>{_e(own_text)}</span></td>"
        f"<td width='50%' valign='top'><small>{_e(heading)}</small><br>"
        f"{_e(source_text)}</td></tr></table>"
    )


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)
