"""The HTML report: complete, escaped, self-contained, and enough to hand over.

A teacher gives it to an examination board: it must say how the scan was set up, what the
measures mean, what the teacher decided, which files were left out and why, and show the
copied text itself.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
import simsift.core.report.html as html_report
from simsift.core import __version__
from simsift.core.analysis.cluster import Clusters
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.report.html import EXCERPT_CHARS, render_html_report, write_html_report
from simsift.core.store.verdicts import COPYING, NOT_COPYING, Verdict, Verdicts
from simsift.core.text.features import FeatureWeights

from tests.core.corpus import chinese_paragraphs, prose_paragraphs, write_corpus, write_partial_copy

ROOT = Path(__file__).resolve().parents[2]
ESSAY_ZH = ROOT / "tests" / "data" / "extract" / "zh_utf8_lines.txt"
SETTINGS = dict(
    weights=FeatureWeights(title_boost=1.25, term_weights=(("altered", 0.0),)),
    passages=PassageOptions(
        partial_threshold=0.25,
        partial_min_run=12,
        common_max_docs=30,
        common_share=0.9,
        common_min_docs=10,
    ),
)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    paths = write_corpus(root)
    (root / "sub" / "<b>odd & name.txt").write_text(paths["first"].read_text("utf-8"))
    paths["essay"], paths["source"] = write_partial_copy(root / "partial")
    paths["picture"] = root / "drawing.psd"
    paths["picture"].write_bytes(b"8BPS" + bytes(64))
    essay = ESSAY_ZH.read_text("utf-8")
    paths["garbled"] = root / "garbled.txt"
    paths["garbled"].write_text(essay.encode().decode("gbk", errors="ignore"), "utf-8")
    paths["cut"] = root / "cut.txt"
    paths["cut"].write_bytes((essay.rstrip() + "。").encode()[:-1])  # a few bad bytes: a warning
    reference = tmp_path_factory.mktemp("prompts")
    (reference / "prompt.txt").write_text("Write an essay about the standard library.")
    options = ScanOptions(roots=(str(root),), reference_roots=(str(reference),), workers=0)
    options = ScanOptions(**{**options.__dict__, **SETTINGS})
    return scan(options), paths


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.srcs: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.srcs += [v for k, v in attrs if k in ("src", "href")]


def section(text: str, anchor: str) -> str:
    """The report's section `anchor`, up to the next section."""
    start = text.index(f'<h2 id="{anchor}">')
    end = text.find("<h2 ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def document_row(table: str, path: str) -> str:
    """The row of the documents table whose document (first cell) is `path` (other rows
    may name it as their largest source)."""
    return row_with(table, path, first=True)


def row_with(table: str, *cells: str, first: bool = False) -> str:
    """The table row holding all `cells` (escaped like the report escapes them), and the
    excerpt row after it if any."""
    rows = table.split("<tr")
    for i, row in enumerate(rows):
        if first and not row.split("</td>", 1)[0].endswith(f">{html.escape(cells[0])}"):
            continue
        if all(f">{html.escape(c)}<" in row for c in cells):
            follows = rows[i + 1] if i + 1 < len(rows) else ""
            return row + (follows if follows.startswith(' class="excerpt"') else "")
    raise AssertionError(f"no row with {cells}")


def quotes(row: str) -> list[str]:
    """The excerpt's quoted text, as a reader sees it, without the ellipses of a cut."""
    return [html.unescape(q).strip("…") for q in re.findall(r"<blockquote>(.*?)</blockquote>", row)]


def flat(text: str) -> str:
    return " ".join(text.split())


def test_pairs_show_the_containments_the_app_and_csv_show(scanned):
    result, paths = scanned
    text = render_html_report(result, result.clusters(3))
    docs = [d.path for d in result.documents]
    a, b = sorted((docs.index(str(paths["first"])), docs.index(str(paths["edited"]))))
    a_in_b, b_in_a, _ = result.overlap(a, b)
    row = row_with(section(text, "pairs"), docs[a], docs[b])
    assert f"{a_in_b:.0%}</td>" in row and f"{b_in_a:.0%}</td>" in row
    assert "<th>A in B</th><th>B in A</th>" in text


def test_report_lists_clusters_pairs_and_is_self_contained(scanned, tmp_path):
    result, paths = scanned
    clusters = result.clusters(3)
    out = write_html_report(result, clusters, tmp_path / "r" / "report.html")
    text = out.read_text("utf-8")
    for key in ("first", "edited", "exact", "same_text"):
        assert str(paths[key]) in text or str(paths[key]).replace("&", "&amp;") in text
    assert f"{len(clusters):,} clusters" in text
    assert "Pairs (" in text and "100%" in text
    parser = _Collector()
    parser.feed(text)
    assert "script" not in parser.tags
    assert parser.srcs and all(s.startswith("#") for s in parser.srcs)  # nothing to fetch
    assert all(f'id="{s[1:]}"' in text for s in parser.srcs)  # contents links lead somewhere
    assert "<b>odd" not in text and "&lt;b&gt;odd &amp; name" in text
    assert not list(out.parent.glob(".*.tmp"))


def test_empty_clusters_say_so(scanned):
    result, _ = scanned
    full = result.clusters(3)
    empty = Clusters(3, full.doc[:0], full.ptr[:1], full.distance[:0], full.kind[:0],
                     full.max_distance[:0])  # fmt: skip
    text = render_html_report(result, empty)
    assert "No near-duplicates" in text and "Pairs (0)" in text


def test_settings_record_version_folders_k_weights_and_thresholds(scanned):
    result, _ = scanned
    settings = section(render_html_report(result, result.clusters(2)), "settings")

    def value(name: str) -> str:
        return html.unescape(re.search(rf"<th>{name}</th><td>(.*?)</td>", settings).group(1))

    assert value("SimSift version") == __version__
    assert value("Folders scanned") == result.options.roots[0]
    assert value("Reference folders") == result.options.reference_roots[0]
    assert value("Hamming distance k").startswith("2 of 64 bits")
    assert value("Title boost") == "1.25"
    assert value("Term weights") == "altered × 0"
    assert value("Term frequency") == "log" and value("Stopwords removed") == "yes"
    partial = value("Partial copy")
    assert "25%" in partial and "12 words in a row" in partial
    common = value(r"Common text \(never counted as copying\)")
    assert "more than 30 documents" in common and "more than 90% of them" in common
    assert "at least 10" in common


def test_how_to_read_explains_every_measure_by_its_name_in_the_app(scanned):
    result, _ = scanned
    reading = section(render_html_report(result, result.clusters(3)), "reading")
    for name in ("Hamming distance", "Containment (A in B, B in A)", "Overlap", "Similarity index"):
        assert f"<dt>{html.escape(name)}" in reading
    assert "at most k = 3 of 64 bits" in reading
    assert "share of document A&#x27;s own text" in reading


def test_verdicts_sit_beside_their_pair_and_document_and_in_decisions(scanned):
    result, paths = scanned
    essay, source, first = str(paths["essay"]), str(paths["source"]), str(paths["first"])
    verdicts = Verdicts(
        documents={essay: Verdict(NOT_COPYING, "quotes are cited", 1_700_000_000)},
        pairs={
            frozenset((essay, source)): Verdict(COPYING, "§3–5 <verbatim>", 1_700_000_000),
            frozenset(("/elsewhere/a.txt", "/elsewhere/b.txt")): Verdict(COPYING, "old class"),
        },
    )
    text = render_html_report(result, result.clusters(3), verdicts=verdicts)
    pair_row = row_with(section(text, "partial"), *sorted((essay, source)))
    assert "copying confirmed" in pair_row and "§3–5 &lt;verbatim&gt;" in pair_row
    assert Verdict(COPYING, "", 1_700_000_000).date in pair_row
    doc_row = document_row(section(text, "documents"), essay)
    assert "not copying" in doc_row and "quotes are cited" in doc_row
    decisions = section(text, "decisions")
    assert "§3–5 &lt;verbatim&gt;" in decisions and "quotes are cited" in decisions
    assert "old class" not in text  # about files outside this scan
    assert "quotes are cited" not in row_with(section(text, "partial"), first, str(paths["edited"]))


def test_pairs_marked_not_a_duplicate_are_listed_as_decisions(scanned):
    result, paths = scanned
    here = frozenset((str(paths["first"]), str(paths["second"])))
    elsewhere = frozenset(("/elsewhere/a.txt", "/elsewhere/b.txt"))
    text = render_html_report(result, result.clusters(3), dismissed={here, elsewhere})
    decisions = section(text, "decisions")
    assert "Not a duplicate” (1)" in decisions
    row_with(decisions, *sorted(here))
    assert "/elsewhere/" not in text
    plain = section(render_html_report(result, result.clusters(3)), "decisions")
    assert "No verdict and no pair marked" in plain


def test_files_left_out_are_listed_with_their_reason(scanned):
    result, paths = scanned
    files = section(render_html_report(result, result.clusters(3)), "files")
    [picture] = [r for r in result.skipped if r.path == str(paths["picture"])]
    assert "(.psd)" in picture.message
    assert picture.message in html.unescape(row_with(files, str(paths["picture"])))
    [garbled] = result.garbled
    assert garbled.path == str(paths["garbled"])
    assert "Garbled files left out of the comparison (1)" in files
    assert html.escape(garbled.warning) in row_with(files, garbled.path)
    [cut] = result.warned
    assert "Files read with a warning (compared) (1)" in files
    assert html.escape(cut.warning) in row_with(files, str(paths["cut"]))


def test_partial_copy_shows_an_excerpt_of_the_copied_text_in_both_documents(scanned):
    result, paths = scanned
    essay, source = str(paths["essay"]), str(paths["source"])
    text = render_html_report(result, result.clusters(3))
    row = row_with(section(text, "partial"), *sorted((essay, source)))
    assert "Longest matched passage" in row
    copied = flat(" ".join(prose_paragraphs("argparse")[2:5]))  # what the essay took
    sides = quotes(row)
    assert len(sides) == 2
    for quote in sides:
        assert len(quote) > 100 and flat(quote) in copied


def test_near_pairs_have_an_excerpt_and_whole_copies_none(scanned):
    result, paths = scanned
    pairs = section(render_html_report(result, result.clusters(3)), "pairs")
    near = row_with(pairs, *sorted((str(paths["first"]), str(paths["edited"]))))
    assert ">near<" in near
    file_a, file_b = re.findall(r'<td class="path">(.*?)</td>', near)[:2]
    quote_a, quote_b = quotes(near)
    assert flat(quote_a) in flat(Path(html.unescape(file_a)).read_text("utf-8"))
    assert flat(quote_b) in flat(Path(html.unescape(file_b)).read_text("utf-8"))
    exact = row_with(pairs, *sorted((str(paths["second"]), str(paths["exact"]))))
    assert ">exact<" in exact and "Longest matched passage" not in exact


def test_excerpt_starts_where_the_copy_starts_inside_a_long_paragraph(tmp_path):
    # plain words, one token each: a 400-word paragraph is cut into two 200-word passages
    modules = ("argparse", "unittest", "subprocess", "heapq")
    prose = " ".join(p for m in modules for p in prose_paragraphs(m)).split()
    words = [w for w in prose if w.isalpha() and w.isascii()][:400]
    assert len(words) == 400
    tail = " ".join(words[200:])  # only the second half is copied
    (tmp_path / "original.txt").write_text(" ".join(words))
    (tmp_path / "copy.txt").write_text(" ".join(prose_paragraphs("json")) + "\n\n" + tail)
    result = scan(ScanOptions(roots=(str(tmp_path),), workers=0))
    text = render_html_report(result, result.clusters(3))
    row = row_with(
        section(text, "partial"), str(tmp_path / "copy.txt"), str(tmp_path / "original.txt")
    )
    original_side = re.search(r"paragraph 1, 200 words\):<blockquote>(.*?)</blockquote>", row)
    assert original_side.group(1).startswith("…")  # cut where the copied half starts
    assert flat(html.unescape(original_side.group(1)).strip("…")) == tail[: EXCERPT_CHARS - 2]


def test_chinese_excerpt_quotes_the_copied_characters(tmp_path):
    paragraphs = chinese_paragraphs()
    essay, source = tmp_path / "作文.txt", tmp_path / "来源.txt"
    source.write_text("\n\n".join(paragraphs[:6]), "utf-8")
    essay.write_text("\n\n".join(paragraphs[10:14] + paragraphs[2:5]), "utf-8")
    result = scan(ScanOptions(roots=(str(tmp_path),), workers=0))
    text = render_html_report(result, result.clusters(3))
    row = row_with(section(text, "partial"), *sorted((str(essay), str(source))))
    copied = "".join(paragraphs[2:5]).replace(" ", "")
    sides = quotes(row)
    assert len(sides) == 2
    for quote in sides:
        assert len(quote) > 50 and quote.replace(" ", "") in copied
    # where a reader finds it, counting from 1: the essay's 5th paragraph, the source's 3rd
    assert "(paragraph 5, " in row and "(paragraph 3, " in row


def test_excerpts_are_capped_and_the_report_says_so(scanned, monkeypatch):
    result, _ = scanned
    assert len(result.partial_pairs()) > 1
    monkeypatch.setattr(html_report, "MAX_EXCERPTS", 1)
    partial = section(render_html_report(result, result.clusters(3)), "partial")
    assert partial.count('class="excerpt"') == 1
    assert "Excerpts are shown for the first 1 pairs of this table only" in partial


def test_documents_section_is_the_teachers_list(scanned):
    result, paths = scanned
    documents = section(render_html_report(result, result.clusters(3)), "documents")
    sim = result.similarity()
    docs = [d.path for d in result.documents]
    essay = docs.index(str(paths["essay"]))
    row = document_row(documents, docs[essay])
    largest = docs[int(sim.top_source[essay])]
    assert f">{html.escape(largest)}<" in row
    assert f"{sim.index[essay]:.0%}</td>" in row and f"{sim.top_share[essay]:.0%}</td>" in row
    assert f'<td class="num">{int(sim.source_count[essay])}</td>' in row
    shown = re.findall(r'<tr><td class="path">(.*?)</td>', documents)
    by_index = sorted(shown, key=lambda p: -sim.index[docs.index(html.unescape(p))])
    assert shown == by_index  # highest similarity index first


def test_cli_writes_the_html_report_with_the_scan(tmp_path):
    write_partial_copy(tmp_path / "docs")
    report = tmp_path / "handed over" / "report.html"
    proc = subprocess.run(
        [sys.executable, "-m", "simsift.core.cli", "scan", str(tmp_path / "docs"), "--no-catalog",
         "--workers", "0", "--out", str(tmp_path / "csv"), "--k", "4", "--html", str(report)],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert str(report) in proc.stdout
    text = report.read_text("utf-8")
    assert "4 of 64 bits" in section(text, "settings")
    assert "Longest matched passage" in section(text, "partial")


def test_report_in_chinese_has_its_headings_labels_and_verdicts_in_chinese(scanned):
    result, paths = scanned
    essay, source = str(paths["essay"]), str(paths["source"])
    verdicts = Verdicts(pairs={frozenset((essay, source)): Verdict(COPYING, "", 1_700_000_000)})
    text = render_html_report(result, result.clusters(3), verdicts=verdicts, language="zh_CN")
    assert '<html lang="zh-CN">' in text and "<title>SimSift 报告</title>" in text
    headings = re.findall(r"<h2[^>]*>(.*?)</h2>", text)
    assert headings[:2] == ["设置", "如何阅读本报告"]
    assert not [h for h in headings if re.search(r"[A-Za-z]{3,}", h)], headings
    columns = set(re.findall(r"<th>(.*?)</th>", text))
    assert {"文件 A", "文件 B", "结论", "相似度指数"} <= columns
    names = [re.sub(r"SimSift|idf", "", c) for c in columns]  # names that stay as they are
    assert not [c for c in names if re.search(r"[A-Za-z]{3,}", c)]
    assert "确认抄袭" in row_with(section(text, "partial"), *sorted((essay, source)))
    assert "汉明距离 k = 3（共 64 位）" in text
    english = render_html_report(result, result.clusters(3), verdicts=verdicts)
    assert '<html lang="en">' in english and "copying confirmed" in english


def test_cli_report_language_follows_the_locale_unless_given(tmp_path):
    import os

    write_partial_copy(tmp_path / "docs")
    written = {}
    for name, extra, lang in (
        ("zh", [], "zh_CN.UTF-8"),
        ("en", ["--html-language", "en"], "zh_CN.UTF-8"),
    ):
        report = tmp_path / f"{name}.html"
        env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
        proc = subprocess.run(
            [sys.executable, "-m", "simsift.core.cli", "scan", str(tmp_path / "docs"),
             "--no-catalog", "--workers", "0", "--out", str(tmp_path / f"csv-{name}"), "--quiet",
             "--html", str(report), *extra],
            capture_output=True, text=True, cwd=ROOT, timeout=300, env={**env, "LANG": lang},
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        written[name] = report.read_text("utf-8")
    assert '<h2 id="settings">设置</h2>' in written["zh"]
    assert '<h2 id="settings">Settings</h2>' in written["en"]


def with_flags(result, flags_of):
    """`result` as if its documents carried integrity flags: path -> flags."""
    documents = tuple(replace(d, flags=flags_of.get(d.path, ())) for d in result.documents)
    return replace(result, documents=documents)


FLAG = "hidden text: 212 words the file does not show, in 3 places, e.g. “<b>white</b> & co”"


def test_flagged_documents_are_listed_with_their_flags_in_either_language(scanned):
    result, paths = scanned
    found = {p for p in (str(paths["essay"]), str(paths["source"]))}
    alone = next(d.path for d in result.documents if d.path.endswith("cut.txt"))
    assert alone not in found
    flagged = with_flags(
        result, {alone: (FLAG, "look-alike letters: 9"), str(paths["essay"]): (FLAG,)}
    )
    text = render_html_report(flagged, flagged.clusters(3))
    assert "2 documents with integrity flags" in text
    documents = section(text, "documents")
    flags = documents[documents.index('id="flags"') :]
    assert "Integrity flags (2)" in flags
    row = row_with(flags, alone)
    assert f"{html.escape(FLAG)}<br>look-alike letters: 9" in row
    assert "<b>white</b>" not in text  # the flag's evidence is text, never markup
    assert row_with(flags, str(paths["essay"]))
    zh = render_html_report(flagged, flagged.clusters(3), language="zh_CN")
    assert "完整性标记（2）" in zh and "2 篇文档带有完整性标记" in zh and "<th>标记</th>" in zh
    # the sentence in Chinese, its evidence as written and still text, never markup
    assert html.escape("隐藏文字：文件中有 212 个词不显示，共 3 处，例如“<b>white</b> & co”") in zh
    assert "look-alike letters: 9" in zh  # a sentence of unknown form as written
    assert 'id="flags"' not in render_html_report(result, result.clusters(3))


def test_direction_controls_in_names_are_shown_not_obeyed(tmp_path):
    docs = tmp_path / "docs"
    paths = write_corpus(docs)
    spoof = docs / "rtl\u202egnp.txt"
    spoof.write_text(paths["first"].read_text("utf-8"))
    result = scan(ScanOptions(roots=(str(docs),), workers=0))
    text = render_html_report(result, result.clusters(8))
    assert "\u202e" not in text
    assert "rtl⟨U+202E⟩gnp.txt" in text


def test_folders_scanned_include_the_archive_folders_checked_against(tmp_path):
    """The app checks a class against previous years' folders (`scan_with_archive`): the
    report lists them with the folders scanned, in the summary and in the settings."""
    from simsift.core.pipeline.archive_folders import scan_with_archive

    class_folder, archive_folder = tmp_path / "class 2026", tmp_path / "class 2025"
    _, source = write_partial_copy(class_folder)
    archive_folder.mkdir()
    source.rename(archive_folder / source.name)
    options = ScanOptions(roots=(str(class_folder),), workers=0)
    result = scan_with_archive(options, [str(archive_folder)], tmp_path / "cache")
    assert any(d.path.startswith("archive:") for d in result.documents)
    page = render_html_report(result, result.clusters(3), archive_folders=[str(archive_folder)])
    settings = section(page, "settings")
    folders = html.unescape(re.search(r"<th>Folders scanned</th><td>(.*?)</td>", settings)[1])
    assert folders == f"{class_folder}; {archive_folder} (archive)"
    assert f"{archive_folder} (archive)" in html.unescape(page.split('<p class="meta">')[1])
    # the archive's documents count for common text, and the result holds only some
    assert "here, with" not in settings
    chinese = render_html_report(
        result, result.clusters(3), archive_folders=[str(archive_folder)], language="zh_CN"
    )
    assert f"{archive_folder}（存档）" in html.unescape(chinese)


def test_common_text_says_how_many_documents_made_it_common_in_this_scan(tmp_path):
    from tests.core.test_essay_report import scan_class, write_class

    write_class(tmp_path / "class")
    result, _ = scan_class(tmp_path / "class")
    settings = section(render_html_report(result, result.clusters(3)), "settings")
    common = html.unescape(
        re.search(r"<th>Common text \(never counted as copying\)</th><td>(.*?)</td>", settings)[1]
    )
    assert common == (
        "found in more than 10 documents, or in more than 20% of them (and in at least 5); "
        "here, with 7 documents compared: found in 5 or more of them"
    )
    zh = render_html_report(result, result.clusters(3), language="zh_CN")
    assert "本次共比较 7 篇文档，即出现在其中 5 篇或以上" in zh
