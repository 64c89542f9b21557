"""Writing a report: odd file names round-trip, a bad output folder fails before the scan,
the files are written as a set, and they get the user's umask."""

from __future__ import annotations

import csv
import errno
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import simsift.core.report.tables as report
from simsift.core.cli import summary
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.report.tables import ReportError, check_output_folder, write_report

from tests.core.corpus import write_corpus

ROOT = Path(__file__).resolve().parents[2]
ODD = os.fsdecode(b"b_\xff\xfe.txt")  # not valid UTF-8: a lone-surrogate str in Python


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "simsift.core.cli", *args],
        capture_output=True,
        cwd=ROOT,
        timeout=300,
    )


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    docs = tmp_path_factory.mktemp("docs")
    paths = write_corpus(docs)
    shutil.copy(paths["first"], docs / ODD)
    return scan(ScanOptions(roots=(str(docs),), workers=0))


def test_names_that_are_not_utf8_round_trip_through_csv_and_json(tmp_path, result):
    odd = next(d.path for d in result.documents if d.path.endswith(ODD))
    write_report(result, 8, tmp_path / "csv")
    assert os.fsencode(odd) in (tmp_path / "csv" / "pairs.csv").read_bytes()
    write_report(result, 8, tmp_path / "json", "json")
    text = (tmp_path / "json" / "pairs.json").read_text(encoding="utf-8")  # valid UTF-8
    names = {row[side] for row in json.loads(text) for side in ("a", "b")}
    assert odd in names and os.path.exists(odd)


def test_cli_with_an_odd_name_prints_it_escaped_and_exits_0(tmp_path):
    docs = tmp_path / "docs"
    paths = write_corpus(docs)
    shutil.copy(paths["first"], docs / ODD)
    (docs / os.fsdecode(b"bad_\xff.pdf")).write_text("not a pdf")
    proc = run_cli("scan", str(docs), "--out", str(tmp_path / "o"), "--no-catalog")
    assert proc.returncode == 0, proc.stderr
    assert b"bad_\\udcff.pdf" in proc.stdout  # the error line, escaped
    assert b"bad_\xff.pdf" in (tmp_path / "o" / "errors.csv").read_bytes()


@pytest.mark.parametrize("layout", ["file", "under a file"])
def test_a_bad_output_folder_fails_before_scanning(tmp_path, layout):
    (tmp_path / "f").write_text("x")
    out = tmp_path / "f" if layout == "file" else tmp_path / "f" / "report"
    proc = run_cli("scan", str(ROOT / "tests" / "data" / "extract"), "--out", str(out))
    assert proc.returncode == 2
    assert f"{tmp_path / 'f'} is a file".encode() in proc.stderr
    assert b"files in" not in proc.stdout  # nothing was scanned


def test_a_read_only_output_folder_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # as a non-root user sees it
    with pytest.raises(ReportError, match="is read-only"):
        check_output_folder(tmp_path / "new" / "report")


def test_a_failed_write_leaves_the_previous_report_whole(tmp_path, result, monkeypatch):
    write_report(result, 8, tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    real = report._write_table
    written = []

    def disk_fills_up(path, *args):
        if len(written) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(path)
        real(path, *args)

    monkeypatch.setattr(report, "_write_table", disk_fills_up)
    with pytest.raises(ReportError, match="No space left on device"):
        write_report(result, 0, tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # no temp left


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_report_files_get_the_users_umask(tmp_path, result, umask):
    old = os.umask(umask)
    try:
        files = write_report(result, 8, tmp_path / "r")
    finally:
        os.umask(old)
    assert {f.stat().st_mode & 0o777 for f in files} == {0o666 & ~umask}


def test_html_report_gets_the_umask_and_survives_odd_names(tmp_path, result):
    from simsift.core.report.html import write_html_report

    old = os.umask(0o022)
    try:
        path = write_html_report(result, result.clusters(8), tmp_path / "report.html")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644
    assert "b_??.txt" in path.read_text(encoding="utf-8")  # the odd name, not a crash
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary left


def test_the_teachers_verdicts_are_exported_with_pairs_and_documents(tmp_path, result):
    from simsift.core.store.verdicts import COPYING, NOT_COPYING, Verdict, Verdicts

    pair = result.partial_pairs()
    a, b = (result.documents[int(pair.left[0])].path, result.documents[int(pair.right[0])].path)
    verdicts = Verdicts(
        documents={a: Verdict(NOT_COPYING, "cites the source", 1_700_000_000)},
        pairs={frozenset((a, b)): Verdict(COPYING, "same typos, same order", 1_700_000_000)},
    )
    write_report(result, 8, tmp_path / "out", "json", verdicts=verdicts)
    pairs = json.loads((tmp_path / "out" / "pairs.json").read_text("utf-8"))
    [row] = [r for r in pairs if {r["a"], r["b"]} == {a, b}]
    assert (row["verdict"], row["note"]) == ("copying confirmed", "same typos, same order")
    assert row["decided"].startswith("2023-11-1")
    assert all(r["verdict"] == "" for r in pairs if r is not row)
    documents = json.loads((tmp_path / "out" / "documents.json").read_text("utf-8"))
    mine = [r for r in documents if r["path"] == a]
    assert mine and (mine[0]["verdict"], mine[0]["note"]) == ("not copying", "cites the source")


def test_csv_cells_never_start_a_spreadsheet_formula(tmp_path):
    """Text shared by the documents that starts like a formula is written as text."""
    import csv
    import random

    shared = '=HYPERLINK("http://example.com/x","click me") '
    shared += " ".join(f"boiler{i} plate" for i in range(40))
    words = [
        "river",
        "essay",
        "school",
        "winter",
        "music",
        "paper",
        "garden",
        "window",
        "letter",
        "mother",
    ]
    rng = random.Random(5)
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(8):
        own = " ".join(rng.choice(words) + " " + rng.choice(words) for _ in range(120))
        (docs / f"e{i}.txt").write_text(f"{shared}\n\n{own}\n", encoding="utf-8")
    result = scan(ScanOptions(roots=(str(docs),), workers=0))
    write_report(result, 8, tmp_path / "out")
    with open(tmp_path / "out" / "common.csv", encoding="utf-8-sig", newline="") as f:
        texts = [row["text"] for row in csv.DictReader(f)]
    assert any(t.startswith("'=HYPERLINK(") for t in texts), texts
    assert not any(t.startswith(("=", "+", "-", "@", "\t", "\r")) for t in texts)


def test_numbers_and_plain_text_are_left_as_they_are():
    assert report.spreadsheet_safe(-0.5) == -0.5
    assert report.spreadsheet_safe("/home/ann/essay.txt") == "/home/ann/essay.txt"
    assert report.spreadsheet_safe("@SUM(A1)") == "'@SUM(A1)"


HIDDEN = "hidden text: 212 words the file does not show, in 3 places, e.g. “=cmd|' /C calc'!A0”"
LOOKALIKE = "look-alike letters: 40 Cyrillic letters among Latin words"


def flag_documents(result, flags_of):
    """`result` as if its documents carried integrity flags: path ending -> flags."""
    documents = tuple(
        replace(d, flags=next((f for end, f in flags_of.items() if d.path.endswith(end)), ()))
        for d in result.documents
    )
    return replace(result, documents=documents)


def test_documents_export_carries_the_integrity_flags_even_of_documents_found_nowhere(
    tmp_path, result
):
    found = {row["path"] for row in report.document_rows(result)}
    alone = next(d.path for d in result.documents if d.path not in found)
    copied = next(iter(found))
    flagged = flag_documents(
        result,
        {os.path.basename(alone): (HIDDEN, LOOKALIKE), os.path.basename(copied): (HIDDEN,)},
    )
    rows = {row["path"]: row for row in report.document_rows(flagged)}
    assert rows[alone]["flags"] == f"{HIDDEN} | {LOOKALIKE}"
    assert rows[alone]["sources"] == 0 and rows[alone]["largest_source"] == ""
    assert rows[copied]["flags"] == HIDDEN
    assert all(row["flags"] == "" for p, row in rows.items() if p not in (alone, copied))
    assert list(rows)[-1] == alone  # after the documents found elsewhere

    write_report(flagged, 8, tmp_path / "csv")
    documents_csv = tmp_path / "csv" / "documents.csv"
    with open(documents_csv, encoding="utf-8-sig", errors="surrogateescape", newline="") as f:
        table = {row["path"]: row for row in csv.DictReader(f)}
    assert table[alone]["flags"] == f"{HIDDEN} | {LOOKALIKE}"
    write_report(flagged, 8, tmp_path / "json", "json")
    table = json.loads((tmp_path / "json" / "documents.json").read_text(encoding="utf-8"))
    assert {row["path"]: row["flags"] for row in table}[copied] == HIDDEN


def test_cli_summary_counts_the_flagged_documents(result):
    assert "integrity flags" not in summary(result, 8, 1.0)
    one = flag_documents(result, {os.path.basename(result.documents[0].path): (HIDDEN,)})
    assert "1 document carries integrity flags (see documents.csv)" in summary(one, 8, 1.0)
    names = {os.path.basename(d.path): (HIDDEN,) for d in result.documents[:2]}
    two = flag_documents(result, names)
    assert "2 documents carry integrity flags (see documents.csv)" in summary(two, 8, 1.0)


def test_every_document_found_elsewhere_is_exported_whatever_its_index(result, monkeypatch):
    """documents.csv listed documents by index and stopped at the first one without a
    source: a document whose index is above zero and whose sources are all excluded hid
    every document after it (384 of 2,324 on /usr/share/doc)."""
    sim = result.similarity()
    n = len(result.documents)
    assert n >= 3
    index = np.zeros(n)
    index[:3] = (0.5, 0.0, 0.3)
    count = np.zeros(n, np.int64)
    count[:3] = (0, 2, 1)  # document 0: an index, its sources all excluded
    by_hand = replace(sim, index=index, source_count=count, paraphrased=np.zeros(n))
    by_hand = replace(by_hand, translated=np.zeros(n))
    monkeypatch.setattr(type(result), "similarity", lambda self: by_hand)
    listed = [row["path"] for row in report.document_rows(result)]
    docs = result.documents
    assert listed[:3] == [docs[0].path, docs[2].path, docs[1].path]


def test_documents_csv_lists_an_essay_that_only_quotes_another(tmp_path):
    """Its index is 0% and it has no source, as the window's Documents tab lists it."""
    import random

    from tests.core.test_passages import english_paragraphs

    pool = random.Random(8).sample(english_paragraphs()[100:], 12)
    (tmp_path / "ana.txt").write_text("\n\n".join(pool[:5]))
    quoted = " ".join(pool[2].split()[:30])
    ben = [*pool[5:8], f"As Ana puts it, “{quoted}” and I agree with her.", *pool[8:10]]
    (tmp_path / "ben.txt").write_text("\n\n".join(ben))
    (tmp_path / "cy.txt").write_text("\n\n".join(pool[10:]))
    result = scan(ScanOptions(roots=(str(tmp_path),), workers=0))
    rows = report.document_rows(result)
    assert [Path(row["path"]).name for row in rows] == ["ben.txt"]
    assert rows[0]["similarity_index"] == 0.0 and rows[0]["sources"] == 0
