"""One document's report shows text that never counts as what it is: a cited quotation reads
as a quotation and the bibliography as a bibliography (grey, with a legend), not as copying
and not as nothing; common and template text are greyed with why; copied text keeps its
source's colour. The HTML report says what counted."""

from __future__ import annotations

import html
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.report.essay import (
    DISGUISE_STYLE,
    LEFT_OUT_STYLE,
    PAGE_NOTE_PX,
    PAGE_TEXT_PX,
    SCREEN_COLUMN,
    SET_APART_STYLE,
    SOURCE_COLOURS,
    EssayLabels,
    common_threshold,
    essay_html,
    essay_page,
)
from simsift.core.report.html import render_html_report
from simsift.core.report.text_kinds import (
    COMMON,
    COPIED,
    LISTED,
    OWN,
    QUOTED,
    document_stretches,
    set_apart_spans,
)
from simsift.core.store.verdicts import COPYING, Verdict, Verdicts
from simsift.core.text.quotations import BIBLIOGRAPHY, QUOTATION

from tests.core.corpus import prose_paragraphs
from tests.core.test_passages import english_paragraphs

ARGPARSE = prose_paragraphs("argparse")
QUOTE = ARGPARSE[3]  # 49 words: a quotation (at most 80)
SHORT_QUOTE = "“the parser is built once, then asked many times”"
COPIED_PARAGRAPH = f"As its authors say, {SHORT_QUOTE}. {ARGPARSE[6]}"
SOURCE = [*ARGPARSE[2:6], COPIED_PARAGRAPH, ARGPARSE[7]]
MINE = prose_paragraphs("heapq") + prose_paragraphs("subprocess")
REFERENCES = [
    "References",
    "Lopez, A. (2023). Parsing command lines. Python Software Foundation.",
    "Chen, L., & Wang, H. (2018). Sediment transport. Journal of Hydrology, 12(3), 45-67.",
    "Brown, A. et al. (2021). Floods. https://doi.org/10.1000/floods",
]
CITED = f"As Lopez writes, “{QUOTE}” (Lopez, 2023, p. 2)."
ESCAPED = 'Compare <script>alert("x")</script> & “<b>bold</b> & more” with the rest.'
HEADER = (
    "Geography 101, spring term: every essay answers the question set in the first week "
    "of the course and follows the department's style guide."
)


def write_class(root: Path, *, others: int = 5) -> dict[str, Path]:
    """A class folder: Ana's essay; Ben's, which quotes Ana with a citation, copies one of
    her paragraphs, has HTML special characters and the same References section; and
    `others` unrelated essays. Every essay opens with the course's header line."""
    root.mkdir(parents=True, exist_ok=True)
    paths = {"ana": root / "ana.txt", "ben": root / "ben <&> essay.txt"}
    paths["ana"].write_text("\n\n".join([HEADER, *SOURCE, *REFERENCES]), "utf-8")
    ben = [HEADER, MINE[0], CITED, MINE[2], COPIED_PARAGRAPH, MINE[3] + " " + ESCAPED, *REFERENCES]
    paths["ben"].write_text("\n\n".join(ben), "utf-8")
    pool = english_paragraphs()[200:]
    for i in range(others):
        paths[f"other{i}"] = root / f"other{i}.txt"
        paths[f"other{i}"].write_text("\n\n".join([HEADER, *pool[i * 4 : i * 4 + 4]]), "utf-8")
    return paths


def scan_class(root: Path, **passages) -> tuple:
    options = ScanOptions(roots=(str(root),), workers=0, passages=PassageOptions(**passages))
    result = scan(options)
    return result, [d.path for d in result.documents]


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    paths = write_class(root)
    result, docs = scan_class(root)
    return result, docs.index(str(paths["ben"])), docs.index(str(paths["ana"]))


def spans_with(page: str, style: str) -> list[str]:
    """The text (unescaped) of the spans in `style`."""
    found = re.findall(rf"<span style='{re.escape(style)}'[^>]*>(.*?)</span>", page, re.S)
    return [html.unescape(text) for text in found]


def copied_text(page: str) -> str:
    """Everything shown in a source's colour, whole paragraphs and spans, unescaped."""
    colours = "|".join(SOURCE_COLOURS)
    found = re.findall(rf"<(?:p|span) style='background:(?:{colours})'>(.*?)</(?:p|span)>", page)
    return html.unescape(" ".join(found))


def test_a_cited_quotation_and_the_bibliography_read_as_set_apart_not_as_copying(scanned):
    result, ben, ana = scanned
    sim = result.similarity()
    assert [s.doc for s in sim.sources(ben)] == [ana]
    page = essay_html(result, sim, ben)
    set_apart = spans_with(page, SET_APART_STYLE)
    assert f"“{QUOTE}”" in set_apart  # the quotation whole, its marks too
    for entry in REFERENCES:
        assert entry in set_apart
    copied = copied_text(page)
    assert ARGPARSE[6].lstrip("- ") in copied  # copied text keeps its source's colour
    assert SHORT_QUOTE in set_apart  # but a quotation in it reads as one
    assert QUOTE[10:60] not in copied and "Lopez, A. (2023)" not in copied
    # the legend names what is set apart, in its own look
    legend = page[page.index("In the text:") :].split("</p>")[0]
    assert "quoted (not counted)" in legend and "bibliography (not counted)" in legend
    assert "title='quoted (not counted)'" in page
    assert "title='bibliography (not counted)'" in page


def test_a_quotation_says_where_its_words_are_found_and_whether_it_is_cited(scanned):
    """Ben's cited quotation of Ana, one too short to be looked for (under the shortest
    match), and one found nowhere."""
    result, ben, _ = scanned
    page = essay_html(result, result.similarity(), ben)
    titled = dict(
        (html.unescape(text), html.unescape(title))
        for title, text in re.findall(
            rf"<span style='{re.escape(SET_APART_STYLE)}' title='([^']*)'>(.*?)</span>", page
        )
    )
    assert titled[f"“{QUOTE}”"] == "quoted, cited, also in ana.txt (not counted)"
    assert titled[SHORT_QUOTE] == "quoted (not counted)"  # 9 words, also in Ana's essay
    assert titled["“<b>bold</b> & more”"] == "quoted (not counted)"
    hidden = essay_html(
        result, result.similarity(), ben, name=lambda path: "E2", path_text=lambda path: ""
    )
    assert "quoted, cited, also in E2 (not counted)" in html.unescape(hidden)
    assert "ana.txt" not in hidden  # anonymized names stay hidden


def test_common_text_is_greyed_with_how_many_documents_hold_it(scanned):
    result, ben, _ = scanned
    page = essay_html(result, result.similarity(), ben)
    assert HEADER in spans_with(page, LEFT_OUT_STYLE)
    holders = len(result.documents)  # the header opens every essay
    assert f"title='common text, found in {holders} documents (not counted)'" in page
    assert f"common text, found in {holders} documents (not counted)</span>" in page  # legend


def test_quotations_and_the_bibliography_that_count_are_not_set_apart(tmp_path):
    paths = write_class(tmp_path / "class")
    result, docs = scan_class(tmp_path / "class", count_quotations=True, count_bibliography=True)
    ben = docs.index(str(paths["ben"]))
    page = essay_html(result, result.similarity(), ben)
    assert spans_with(page, SET_APART_STYLE) == []
    assert "quoted (not counted)" not in page and "bibliography (not counted)" not in page
    assert "Quotations count as copying. The bibliography counts as copying." in page
    assert QUOTE[10:60] in copied_text(page)  # counted: in its source's colour


def test_only_quotations_set_apart(tmp_path):
    paths = write_class(tmp_path / "class")
    result, docs = scan_class(tmp_path / "class", count_bibliography=True)
    page = essay_html(result, result.similarity(), docs.index(str(paths["ben"])))
    set_apart = spans_with(page, SET_APART_STYLE)
    assert f"“{QUOTE}”" in set_apart and REFERENCES[1] not in set_apart
    assert "bibliography (not counted)" not in page
    assert "Quotations are shown but not counted. The bibliography counts as copying." in page


def test_user_text_stays_escaped_everywhere(scanned):
    result, ben, _ = scanned
    page = essay_html(result, result.similarity(), ben)
    assert "<script>" not in page and "<b>bold" not in page and "<&>" not in page
    assert "ben &lt;&amp;&gt; essay.txt" in page
    assert "Compare &lt;script&gt;alert(" in page and "&lt;/script&gt; &amp; " in page
    # the quotation holding markup is set apart, and still plain text
    assert "“<b>bold</b> & more”" in spans_with(page, SET_APART_STYLE)
    assert html.escape("“<b>bold</b> & more”") in page
    report = render_html_report(result, result.clusters(3))
    assert "<script>" not in report and "<b>bold" not in report


def test_the_settings_sentence_states_the_rules_the_index_followed(scanned):
    result, ben, _ = scanned
    passages = result.options.passages
    page = essay_html(result, result.similarity(), ben)
    assert (
        f"Shared runs of fewer than {passages.shortest_run} words never count as copying, nor "
        "does template text or common text (found in more than "
        f"{passages.common_max_docs} documents, or in more than "
        f"{passages.common_share:.0%} of them and at least {passages.common_min_docs})."
    ) in page
    assert "Quotations are shown but not counted. The bibliography is shown but not counted." in (
        page
    )
    assert (
        "Nor does boilerplate: a short paragraph of its own at the start or end of at least 3 "
        "documents (a course footer, an honour-code statement)."
    ) in page
    assert "or more documents" not in page


def test_chinese_sentences_run_on_without_a_space():
    labels = EssayLabels(
        settings="少于 {run} 个词（超过 {common} 篇，{share}，{min_docs}）。",
        boilerplate="套话（{edge} 篇）不计入。",
        quotations_apart="引文仅显示，不计入。",
        bibliography_apart="参考文献仅显示，不计入。",
    )
    rules = labels.rules(PassageOptions())
    assert rules == (
        "少于 15 个词（超过 10 篇，20%，5）。套话（3 篇）不计入。"
        "引文仅显示，不计入。参考文献仅显示，不计入。"
    )


def test_template_text_is_greyed_as_template(tmp_path):
    paths = write_class(tmp_path / "class", others=1)
    prompt = tmp_path / "prompt"
    prompt.mkdir()
    (prompt / "assignment.txt").write_text(HEADER, "utf-8")
    options = ScanOptions(roots=(str(tmp_path / "class"),), reference_roots=(str(prompt),))
    result = scan(replace(options, workers=0))
    ben = [d.path for d in result.documents].index(str(paths["ben"]))
    page = essay_html(result, result.similarity(), ben)
    assert HEADER in spans_with(page, LEFT_OUT_STYLE)
    assert "title='template text, also in a reference document (not counted)'" in page


def test_the_evidence_of_a_disguise_is_marked_in_the_text(tmp_path):
    """A copy with Cyrillic look-alike letters and one sentence spaced out: the essay shows
    where, in the copied colour still, and says so in its legend."""
    root = tmp_path / "class"
    root.mkdir()
    (root / "source.txt").write_text("\n\n".join(SOURCE), "utf-8")
    disguised = [p.replace("e", "е") for p in SOURCE]  # Cyrillic е for every e
    spaced = " ".join("Then we all turned back towards the old home".replace(" ", ""))
    disguised[1] = f"{disguised[1]} {spaced}."
    (root / "copy.txt").write_text("\n\n".join(disguised), "utf-8")
    result, docs = scan_class(root)
    copy = docs.index(str(root / "copy.txt"))
    kinds = {flag.split(":")[0] for flag in result.documents[copy].flags}
    assert {"look-alike letters", "letters spaced out"} <= kinds
    page = essay_html(result, result.similarity(), copy)
    marked = spans_with(page, DISGUISE_STYLE)
    assert spaced in marked
    word = next(w for w in disguised[0].split() if "е" in w and len(w) > 4).strip(".,;:")
    assert word in marked
    assert "background:" in page  # still shown as copied
    assert "disguised text (see the integrity flags)" in page
    plain = essay_html(result, result.similarity(), docs.index(str(root / "source.txt")))
    assert DISGUISE_STYLE not in plain


def test_a_run_copied_inside_ones_own_paragraph_is_coloured_alone(tmp_path):
    root = tmp_path / "class"
    root.mkdir()
    words = MINE[1].split()
    run = " ".join(words[:30])  # 30 words in a row: a shared run
    # "…" and "ﬁ" normalize to more characters: the run must still be found in the text
    spliced = f"Our own ﬁrst sentence… and then {run}, and our own ending here."
    (root / "source.txt").write_text("\n\n".join(MINE[1:2] + SOURCE[:3]), "utf-8")
    (root / "essay.txt").write_text("\n\n".join([*MINE[2:4], spliced]), "utf-8")
    result, docs = scan_class(root)
    essay, source = docs.index(str(root / "essay.txt")), docs.index(str(root / "source.txt"))
    stretches = document_stretches(result, essay, [source])[2]
    copied = [spliced[s.start : s.end] for s in stretches if s.kind == COPIED]
    assert copied == [run]
    assert {s.kind for s in stretches} == {OWN, COPIED}
    assert "".join(spliced[s.start : s.end] for s in stretches) == spliced


def test_set_apart_spans_are_what_the_tokenizer_sets_apart():
    paragraphs = ["He said “go home now” and left.", "Plain text.", *REFERENCES]
    both = set_apart_spans(paragraphs, (QUOTATION, BIBLIOGRAPHY))
    assert both[0] == (0, 8, 21, QUOTED) and paragraphs[0][8:21] == "“go home now”"
    assert [(i, kind) for i, _, _, kind in both[1:]] == [(i, LISTED) for i in range(2, 6)]
    assert set_apart_spans(paragraphs, (BIBLIOGRAPHY,))[0][0] == 2
    assert set_apart_spans(paragraphs, ()) == []


def test_the_html_report_says_what_counted(scanned, tmp_path):
    result, _, _ = scanned
    page = render_html_report(result, result.clusters(3))
    settings = page[page.index('id="settings"') : page.index('id="reading"')]
    assert "<th>Shortest match</th><td>15 words in a row" in settings
    assert "<th>Quotations</th><td>shown, not counted as copying</td>" in settings
    assert "<th>Bibliography</th><td>shown, not counted as copying</td>" in settings
    reading = page[page.index('id="reading"') : page.index('id="decisions"')]
    assert "What never counts as copying" in reading
    assert "Text in quotation marks is set apart" in reading
    assert "The bibliography (a references section) is shown but never counted" in reading
    assert "Shared runs of fewer than 15 words" in reading

    counting = replace(
        result,
        options=replace(
            result.options,
            passages=replace(
                result.options.passages, count_quotations=True, count_bibliography=True
            ),
        ),
    )
    page = render_html_report(counting, counting.clusters(3))
    settings = page[page.index('id="settings"') : page.index('id="reading"')]
    assert "<th>Quotations</th><td>counted as copying</td>" in settings
    assert "<th>Bibliography</th><td>counted as copying</td>" in settings
    assert "Quotations count as copying, like the writer" in page


def test_the_excerpt_is_copied_text_with_its_quotations_set_apart(scanned):
    result, ben, _ = scanned
    page = render_html_report(result, result.clusters(3))
    partial = page[page.index('id="partial"') :]
    row = partial[partial.index(html.escape(result.documents[ben].path)) :].split("</tr>")[1]
    assert "Longest matched passage" in row
    quotes = [html.unescape(q) for q in re.findall(r"<blockquote>(.*?)</blockquote>", row)]
    assert len(quotes) == 2
    for quote in quotes:  # the copied paragraph, not the quotation nor the references
        assert SHORT_QUOTE in quote or "The base class for parser actions" in quote
        assert QUOTE[10:60] not in quote and "Lopez, A." not in quote
    # a quotation in it is set apart in the excerpt too
    assert f'<span class="set-apart" title="quoted (not counted)">{SHORT_QUOTE}</span>' in row
    assert row.count(SHORT_QUOTE) == row.count(f'"quoted (not counted)">{SHORT_QUOTE}')


def test_the_rules_say_how_many_documents_made_text_common_in_this_scan(scanned):
    """Seven essays open with the course's header: under "common above 10" it is common
    text because of the share rule (more than 20% of 7, at least 5); the report says that
    here 5 or more documents made text common, so the legend's "found in 7 documents" and
    the window's "Common text above 10" no longer seem to disagree."""
    result, ben, _ = scanned
    page = essay_html(result, result.similarity(), ben)
    assert common_threshold(result) == (5, 7)
    assert "Here, with 7 documents compared, text found in 5 or more of them is common." in page
    assert "common text, found in 7 documents (not counted)" in page
    assert "found in more than 10 documents" in page  # the setting itself, as the window shows
    # every common stretch is held by at least the stated number of documents
    kinds = document_stretches(result, ben, [s.doc for s in result.similarity().sources(ben)])
    held = [p.documents for pieces in kinds for p in pieces if p.kind == COMMON and p.documents]
    assert held and min(held) >= 5


def test_the_threshold_follows_the_settings_and_is_left_out_when_nothing_can_be_common(scanned):
    result, _, _ = scanned
    strict = replace(
        result,
        options=replace(
            result.options,
            passages=PassageOptions(common_max_docs=3, common_share=0.9, common_min_docs=5),
        ),
    )
    assert common_threshold(strict) == (4, 7)  # more than 3 documents
    none = replace(
        result,
        options=replace(
            result.options,
            passages=PassageOptions(common_max_docs=50, common_share=0.9, common_min_docs=8),
        ),
    )
    assert common_threshold(none) is None
    assert "Here, with" not in essay_html(none, none.similarity(), 0)


def test_an_anonymized_report_hides_the_title_and_a_line_naming_the_writer(tmp_path):
    root = tmp_path / "class"
    paths = write_class(root, others=1)
    ben = paths["ben"].read_text("utf-8")
    paths["ben"].write_text("Ben Okafor\n\nName: Ben Okafor, class 10B\n\n" + ben, "utf-8")
    paths["zhang"] = root / "张伟_作文.txt"
    paths["zhang"].write_text("姓名：张伟\n\n" + "\n\n".join(ARGPARSE[2:6]), "utf-8")
    result, docs = scan_class(root)
    sim = result.similarity()
    b, z = docs.index(str(paths["ben"])), docs.index(str(paths["zhang"]))
    assert result.documents[b].title == "Ben Okafor"

    shown = essay_html(result, sim, b)
    assert "<h3>Ben Okafor</h3>" in shown and "Name: Ben Okafor, class 10B" in shown
    label = {"name": lambda p: "Document 2", "path_text": lambda p: "Document 2"}
    hidden = essay_html(result, sim, b, anonymous=True, **label)
    assert "Okafor" not in hidden and "ben " not in hidden
    assert hidden.count(EssayLabels().hidden_line) == 2  # the title and the name line
    assert html.escape(HEADER) in hidden and html.escape(MINE[0]) in hidden  # the essay stays
    chinese = essay_html(result, sim, z, anonymous=True, **label)
    assert "张伟" not in chinese and EssayLabels().hidden_line in chinese


def test_the_page_to_hand_over_prints_no_small_text():
    page = essay_page("<p>text<br><small>settings &lt;b&gt;x&lt;/b&gt;</small></p>", "<b>x</b>")
    assert "<small>" not in page and "<span class='note'>settings" in page
    assert "<title>&lt;b&gt;x&lt;/b&gt;</title>" in page
    assert f"font-size:{PAGE_TEXT_PX}px" in page and f"font-size:{PAGE_NOTE_PX}px" in page
    assert PAGE_NOTE_PX * 0.75 >= 10  # 96 dpi: 0.75 pt per px


def test_the_reading_column_is_for_screens_and_comes_last():
    page = essay_page("<p>text</p>", "x")
    style = re.search(r"<style>(.*)</style>", page).group(1)
    # a browser on screen centres a column; printed, the text fills the paper
    assert style.endswith(SCREEN_COLUMN) and SCREEN_COLUMN.startswith("@media not print{")
    assert "max-width" in SCREEN_COLUMN and "max-width" not in style[: -len(SCREEN_COLUMN)]
    # Qt skips the rules after `@media not print`: nothing may follow it
    assert style.count("@media") == 1


def test_a_verdict_note_with_markup_is_shown_literally(scanned):
    result, ben, _ = scanned
    path = result.documents[ben].path
    verdicts = Verdicts(documents={path: Verdict(COPYING, note="<b>x</b>")})
    page = essay_html(result, result.similarity(), ben, verdicts=verdicts)
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page


def test_an_uncited_quotation_of_a_classmate_names_the_classmate(tmp_path):
    paths = write_class(tmp_path / "class", others=2)
    ben = paths["ben"].read_text("utf-8").replace(" (Lopez, 2023, p. 2)", "")
    paths["ben"].write_text(ben.replace("As Lopez writes, ", "Someone wrote "), "utf-8")
    result, docs = scan_class(tmp_path / "class")
    page = html.unescape(essay_html(result, result.similarity(), docs.index(str(paths["ben"]))))
    assert f"title='quoted, also in ana.txt (not counted)'>“{QUOTE}”" in page


def test_a_classmate_who_quotes_the_source_is_no_source_of_the_copier(tmp_path):
    """Zoe quotes Ana in marks; Sam copies the same words without them: Sam's source is
    Ana alone, and Ana's text is not "found in" Zoe (words quoted in one document count
    for neither of a pair, passages as well as runs)."""
    folder = tmp_path / "class"
    folder.mkdir()
    heapq, subprocess = prose_paragraphs("heapq"), prose_paragraphs("subprocess")
    (folder / "ana.txt").write_text("\n\n".join(ARGPARSE[2:6]), "utf-8")
    zoe = [heapq[0], "As Ana puts it:", f"“{QUOTE}”", heapq[1]]
    (folder / "zoe.txt").write_text("\n\n".join(zoe), "utf-8")
    (folder / "sam.txt").write_text("\n\n".join([subprocess[0], QUOTE, subprocess[1]]), "utf-8")
    result, docs = scan_class(folder)
    sim = result.similarity()
    named = {
        os.path.basename(docs[i]): [os.path.basename(docs[s.doc]) for s in sim.sources(i)]
        for i in range(len(docs))
    }
    assert named == {"ana.txt": ["sam.txt"], "sam.txt": ["ana.txt"], "zoe.txt": []}
