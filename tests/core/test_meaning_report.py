"""Copying found by meaning (paraphrased, translated) as a user meets it: the CLI's flags
and summary, meaning.csv, documents.csv and pairs.csv, the HTML report, the essay report
and a check against an archive. Shown apart, never mixed into the verbatim figures.

A small class: ana.txt holds an English source passage; ben.txt a paraphrase of it;
chen<i>.txt its Chinese translation (a name that is HTML); dan.txt copies ana's other
paragraph word for word. Each file's other text is its own, so the paraphrase and the
translation share no run of words with the source.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from simsift.core.cli import main
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.report.essay import EssayLabels, essay_html, meaning_labels
from simsift.core.report.html import render_html_report
from simsift.core.report.tables import write_report

from tests.core.match.meaning.texts import (
    OTHER,
    OTHER_CHINESE,
    PARAPHRASE,
    SAME_TOPIC,
    SOURCE,
    TRANSLATION,
)

CHEN = "chen<i>.txt"
OWN_ANA = (
    "My summer holiday was spent reading novels by the sea and cooking dinner for my "
    "grandparents every evening, which taught me more patience than any school lesson."
)
OWN_DAN = (
    "Football practice on Saturday mornings is the best part of my week, even when the "
    "pitch is muddy and the coach makes us run laps until lunch time."
)


BOTH = PassageOptions(paraphrase=True)  # paraphrase is off by default


def write_class(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ana.txt").write_text(f"{OTHER}\n\n{SOURCE}\n\n{OWN_ANA}\n", encoding="utf-8")
    (folder / "ben.txt").write_text(f"{SAME_TOPIC}\n\n{PARAPHRASE}\n", encoding="utf-8")
    (folder / CHEN).write_text(f"{OTHER_CHINESE}\n\n{TRANSLATION}\n", encoding="utf-8")
    (folder / "dan.txt").write_text(f"{OWN_DAN}\n\n{OTHER}\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return write_class(tmp_path_factory.mktemp("class"))


@pytest.fixture(scope="module")
def result(folder):
    return scan(ScanOptions(roots=(str(folder),), workers=0, passages=BOTH))


def read_csv(path: Path) -> list[dict]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def named(path: str) -> str:
    return Path(path).name


def doc_of(result, name: str) -> int:
    return next(i for i, d in enumerate(result.documents) if named(d.path) == name)


# -- exports ----------------------------------------------------------------------------


def test_meaning_csv_lists_every_fragment_with_its_kind_spans_and_excerpts(result, tmp_path):
    write_report(result, 8, tmp_path)
    rows = read_csv(tmp_path / "meaning.csv")
    kinds = {(named(r["a"]), named(r["b"]), r["kind"]) for r in rows}
    assert ("ana.txt", "ben.txt", "paraphrased") in kinds
    assert ("ana.txt", CHEN, "translated") in kinds
    assert ("ana.txt", "dan.txt", "verbatim") in kinds
    assert {r["kind"] for r in rows} == {"verbatim", "paraphrased", "translated"}
    texts = {named(d.path): "\n\n".join(d.paragraphs) for d in result.documents}
    for row in rows:
        for side in ("a", "b"):
            start, end = int(row[f"{side}_start"]), int(row[f"{side}_end"])
            shown = " ".join(texts[named(row[side])][start:end].split())
            assert 0 <= start < end and row[f"{side}_excerpt"].rstrip("…") in shown
    paraphrased = next(r for r in rows if r["kind"] == "paraphrased")
    assert paraphrased["a_excerpt"].startswith("Glaciers in the Alps")
    assert paraphrased["b_excerpt"].startswith("Since the mid nineteenth century")
    assert 0 < float(paraphrased["score"]) <= 1


def test_documents_csv_has_the_shares_by_kind_beside_the_index(result, tmp_path):
    write_report(result, 8, tmp_path)
    rows = {named(r["path"]): r for r in read_csv(tmp_path / "documents.csv")}
    ben, chen, dan = rows["ben.txt"], rows[CHEN], rows["dan.txt"]
    # found only by meaning: listed, no verbatim share, its kinds beside
    assert float(ben["similarity_index"]) == 0 and float(ben["paraphrased"]) > 0.3
    assert float(chen["similarity_index"]) == 0 and float(chen["translated"]) > 0.3
    assert float(chen["paraphrased"]) == 0 and chen["largest_source"] == ""
    assert int(ben["sources"]) >= 1
    # verbatim copying stays the index, never counted again as paraphrased
    assert float(dan["similarity_index"]) > 0.5 and named(dan["largest_source"]) == "ana.txt"
    for row in rows.values():
        kinds = [float(row[k]) for k in ("similarity_index", "paraphrased", "translated")]
        assert float(row["total"]) == pytest.approx(min(sum(kinds), 1.0), abs=0.002)


def test_pairs_csv_names_the_kind_of_pairs_found_only_by_meaning(result, tmp_path):
    write_report(result, 8, tmp_path)
    rows = {(named(r["a"]), named(r["b"])): r for r in read_csv(tmp_path / "pairs.csv")}
    assert rows[("ana.txt", "ben.txt")]["kind"] == "paraphrased"
    assert rows[("ana.txt", CHEN)]["kind"] == "translated"
    assert rows[("ana.txt", "ben.txt")]["by_meaning"] == "paraphrased"
    assert rows[("ana.txt", "ben.txt")]["containment_ab"] == "0.0"  # verbatim figures
    verbatim = rows[("ana.txt", "dan.txt")]
    assert verbatim["kind"] not in ("paraphrased", "translated") and verbatim["by_meaning"] == ""


def test_json_export_has_the_fragments_too(result, tmp_path):
    write_report(result, 8, tmp_path, "json")
    rows = json.loads((tmp_path / "meaning.json").read_text(encoding="utf-8"))
    assert {"paraphrased", "translated", "verbatim"} == {r["kind"] for r in rows}


def test_excerpts_that_start_like_a_formula_are_neutralised(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ana.txt").write_text(f"{OTHER}\n\n{SOURCE}\n", encoding="utf-8")
    (folder / "ben.txt").write_text(f"{SAME_TOPIC}\n\n={PARAPHRASE}\n", encoding="utf-8")
    found = scan(ScanOptions(roots=(str(folder),), workers=0, passages=BOTH))
    m = found.passages.meaning
    assert len(m)
    # make the fragment start at the "=": what a spreadsheet would run as a formula
    ben = doc_of(found, "ben.txt")
    text = "\n\n".join(found.documents[ben].paragraphs)
    at = text.index("=")
    side = "left" if int(m.left[0]) == ben else "right"
    moved = replace(m, **{f"start_{side}": m.__getattribute__(f"start_{side}").copy()})
    getattr(moved, f"start_{side}")[0] = at
    found = replace(found, passages=replace(found.passages, meaning=moved))
    write_report(found, 8, tmp_path / "out")
    cells = [c for r in read_csv(tmp_path / "out" / "meaning.csv") for c in r.values()]
    assert not any(c.startswith("=") for c in cells)
    assert any(c.startswith("'=Since the mid") for c in cells)


# -- command line -----------------------------------------------------------------------


def run(folder: Path, out: Path, *flags: str, capsys) -> tuple[str, list[dict]]:
    code = main(["scan", str(folder), "--out", str(out), "--no-catalog", "--quiet",
                 "--workers", "0", *flags])  # fmt: skip
    assert code == 0
    return capsys.readouterr().out, read_csv(out / "meaning.csv")


def test_the_summary_names_the_kinds_and_the_flags_switch_each_layer(folder, tmp_path, capsys):
    said, rows = run(folder, tmp_path / "all", "--paraphrase", capsys=capsys)
    line = next(x for x in said.splitlines() if x.startswith("by meaning"))
    assert re.search(r"1 paraphrased passage in 1 pair", line)
    assert re.search(r"\d+ translated passages? in \d+ pairs?", line)
    assert {"paraphrased", "translated"} <= {r["kind"] for r in rows}

    said, rows = run(folder, tmp_path / "no-tr", "--paraphrase", "--no-translation", capsys=capsys)
    assert "translated: not looked for (--no-translation)" in said
    assert "translated" not in {r["kind"] for r in rows}
    assert "paraphrased" in {r["kind"] for r in rows}

    said, rows = run(folder, tmp_path / "none", "--no-translation", capsys=capsys)
    assert "paraphrased: not looked for (--paraphrase to look)" in said
    assert {r["kind"] for r in rows} == {"verbatim"}  # word for word is still found
    documents = {named(r["path"]) for r in read_csv(tmp_path / "none" / "documents.csv")}
    assert "ben.txt" not in documents and "dan.txt" in documents


def test_help_says_what_each_layer_finds(capsys):
    with pytest.raises(SystemExit):
        main(["scan", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--paraphrase" in text and "in other words" in text
    assert "--no-translation" in text and "between Chinese and English" in text


# -- HTML report ------------------------------------------------------------------------


def test_html_report_says_the_shares_by_kind_and_each_sources_kinds(result):
    page = render_html_report(result, result.clusters(8))
    text = re.sub(r"<[^>]+>", " ", page)
    assert re.search(r"\d+%: \d+% paraphrased", text)  # ben: found by paraphrase only
    assert re.search(r"Sources: ana\.txt: \d+% paraphrased", text)  # ben's
    assert re.search(r"Sources: ana\.txt: \d+% translated", text)  # chen's
    assert re.search(r"Sources: dan\.txt: \d+% verbatim; ben\.txt: \d+% paraphrased", text)
    assert "chen&lt;i&gt;.txt" in page
    assert "Found by meaning" in page and "evidence for a person to read, not proof" in page
    assert "Since the mid nineteenth century" in page and "自十九世纪中叶以来" in page
    assert "<i>" not in page.replace("<i>.txt", "")  # the name is escaped everywhere
    assert "chen<i>.txt" not in page


def test_html_report_in_chinese_says_the_kinds_in_chinese(result):
    page = render_html_report(result, result.clusters(8), language="zh_CN")
    assert re.search(r"\d+%：改写 \d+%", page)
    assert "按意思找到" in page and "翻译" in page


def test_html_report_says_a_kind_was_not_looked_for(folder):
    options = ScanOptions(roots=(str(folder),), workers=0, passages=BOTH)
    options = replace(options, passages=replace(options.passages, translation=False))
    found = scan(options)
    page = render_html_report(found, found.clusters(8))
    assert "Not looked for: translated." in page


# -- essay report -----------------------------------------------------------------------


def test_essay_report_shows_paraphrased_text_in_its_own_style_beside_the_source(result):
    ben = doc_of(result, "ben.txt")
    page = essay_html(result, result.similarity(), ben)
    assert re.search(r"All kinds \d+%: \d+% paraphrased", page)
    assert "font-style:italic' title='paraphrased from ana.txt" in page
    # the source passage beside this one, and the sentence that it is no proof
    assert re.search(r"In ana\.txt \(paraphrased, score 0\.\d\d\):</small><br>Glaciers", page)
    assert "evidence for a person to read, not proof" in page


def test_essay_report_of_a_translation_escapes_names_and_speaks_chinese(result):
    chen = doc_of(result, CHEN)
    labels = replace(EssayLabels(), **meaning_labels("zh_CN"))
    page = essay_html(result, result.similarity(), chen, labels)
    assert "chen&lt;i&gt;.txt" in page and "<i>.txt" not in page
    assert re.search(r"各类合计 \d+%：翻译 \d+%", page)
    assert "text-decoration:underline' title='翻译自 ana.txt" in page
    assert re.search(r"在 ana\.txt 中（翻译，得分 0\.\d\d）", page)
    assert "Glaciers in the Alps" in page  # the English source beside the Chinese


# -- check against an archive ------------------------------------------------------------


def test_check_finds_paraphrase_and_translation_of_archive_documents(tmp_path):
    from simsift.core.pipeline.archiving import add_folders
    from simsift.core.pipeline.check import ARCHIVE_MARK, check
    from simsift.core.store.archive import Archive

    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    (old / "ana.txt").write_text(f"{OTHER}\n\n{SOURCE}\n", encoding="utf-8")
    (old / "zed.txt").write_text(f"{OTHER_CHINESE}\n", encoding="utf-8")
    (new / "ben.txt").write_text(f"{SAME_TOPIC}\n\n{PARAPHRASE}\n", encoding="utf-8")
    (new / "chen.txt").write_text(
        f"我喜欢在周末和朋友一起去图书馆看书，然后在附近的小饭馆吃面条。\n\n{TRANSLATION}\n",
        encoding="utf-8",
    )
    add_folders(tmp_path / "archive", ScanOptions(roots=(str(old),), workers=0, passages=BOTH))
    checked = check(
        Archive.open(tmp_path / "archive"), ScanOptions(roots=(str(new),), workers=0, passages=BOTH)
    )
    write_report(checked, 8, tmp_path / "out")
    rows = read_csv(tmp_path / "out" / "meaning.csv")
    kinds = {(named(r["a"]), named(r["b"]), r["kind"]) for r in rows}
    assert ("ben.txt", "ana.txt", "paraphrased") in kinds
    assert ("chen.txt", "ana.txt", "translated") in kinds
    assert all(not (r["a"].startswith(ARCHIVE_MARK) and r["b"].startswith(ARCHIVE_MARK))
               for r in rows)  # fmt: skip
    # the archive document found only by meaning is brought in; the unrelated one is not
    assert {named(d.path) for d in checked.documents} == {"ben.txt", "chen.txt", "ana.txt"}


def test_a_large_archive_is_searched_only_where_the_check_looks(tmp_path, monkeypatch):
    import simsift.core.pipeline.check as check_module
    from simsift.core.pipeline.archiving import add_folders
    from simsift.core.store.archive import Archive

    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    (old / "ana.txt").write_text(f"{OTHER}\n\n{SOURCE}\n", encoding="utf-8")
    (new / "ben.txt").write_text(f"{SAME_TOPIC}\n\n{PARAPHRASE}\n", encoding="utf-8")
    add_folders(tmp_path / "archive", ScanOptions(roots=(str(old),), workers=0, passages=BOTH))
    monkeypatch.setattr(check_module, "MEANING_ARCHIVE_DOCS", 0)
    checked = check_module.check(
        Archive.open(tmp_path / "archive"), ScanOptions(roots=(str(new),), workers=0, passages=BOTH)
    )
    assert len(checked.passages.meaning) == 0  # ana shares nothing else with ben
    [notice] = checked.notices
    assert "looked for only in the 0 archive documents" in notice
