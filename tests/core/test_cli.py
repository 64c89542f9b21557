"""`simsift scan` as a user runs it: a real subprocess, files written, exit codes."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from simsift.core.pipeline.options import DEFAULT_K

from tests.core.corpus import write_corpus

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "simsift.core.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def read_csv(path: Path) -> list[dict]:
    with path.open(encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def test_scan_writes_pairs_clusters_errors(tmp_path):
    paths = write_corpus(tmp_path / "docs")
    (tmp_path / "docs" / "bad.pdf").write_text("not a pdf")
    out = tmp_path / "report"
    proc = run_cli(
        "scan", str(tmp_path / "docs"), "--out", str(out), "--no-catalog", "--workers", "2"
    )
    assert proc.returncode == 0, proc.stderr
    pairs = read_csv(out / "pairs.csv")
    assert {frozenset((r["a"], r["b"])) for r in pairs} >= {
        frozenset((str(paths["first"]), str(paths["edited"]))),
        frozenset((str(paths["second"]), str(paths["exact"]))),
    }
    clusters = read_csv(out / "clusters.csv")
    assert {r["kind"] for r in clusters} == {"original", "near", "exact", "same text"}
    assert read_csv(out / "errors.csv") == [
        {
            "path": str(tmp_path / "docs" / "bad.pdf"),
            "error": "not a valid PDF (corrupt or renamed file)",
        }
    ]
    assert "1 errors" in proc.stdout and f"pairs within k={DEFAULT_K}" in proc.stdout


def test_every_file_found_is_read_an_error_or_skipped_with_a_reason(tmp_path):
    docs = tmp_path / "docs"
    write_corpus(docs)
    (docs / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    (docs / ".draft.txt").write_text("hidden")
    (docs / "notes.bak").write_text("old")
    essay = "李同学的作文写得很好，老师表扬了他。" * 20
    (docs / "cut.txt").write_bytes(essay.encode("utf-8")[:-1])  # cut mid-character
    out = tmp_path / "report"
    proc = run_cli(
        "scan", str(docs), "--out", str(out), "--no-catalog", "--workers", "0",
        "--exclude", "*.bak",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    skipped = {Path(r["path"]).name: r["reason"] for r in read_csv(out / "skipped.csv")}
    assert skipped == {
        "photo.png": "not a document type SimSift reads (.png)",
        ".draft.txt": "hidden file",
        "notes.bak": "excluded by the pattern *.bak",
    }
    assert read_csv(out / "warnings.csv") == [
        {
            "path": str(docs / "cut.txt"),
            "warning": "1 character could not be decoded (shown as �)",
            "compared": "yes",
        }
    ]
    read = sum(f.is_file() for f in docs.rglob("*")) - len(skipped)
    assert f"{read} documents read" in proc.stdout and "3 skipped" in proc.stdout
    assert "1 with warnings" in proc.stdout


def test_json_output_and_k_zero(tmp_path):
    write_corpus(tmp_path / "docs")
    out = tmp_path / "report"
    proc = run_cli(
        "scan",
        str(tmp_path / "docs"),
        "--k",
        "0",
        "--format",
        "json",
        "--out",
        str(out),
        "--no-catalog",
    )
    assert proc.returncode == 0, proc.stderr
    import json

    pairs = json.loads((out / "pairs.json").read_text(encoding="utf-8"))
    assert pairs and all(p["distance"] == 0 for p in pairs if p["kind"] != "partial")
    # the lightly edited copy is over k=0 but still a (near-total) partial copy
    partial = [p for p in pairs if p["kind"] == "partial"]
    assert partial and all(p["distance"] > 0 for p in partial)
    assert all(max(p["containment_ab"], p["containment_ba"]) >= 0.2 for p in partial)


def test_bad_arguments_fail_with_a_clear_message(tmp_path):
    missing = run_cli("scan", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "no such file or folder" in missing.stderr
    bad_k = run_cli("scan", str(tmp_path), "--k", "40")
    assert bad_k.returncode == 2 and "--k must be between 0 and 16" in bad_k.stderr


def test_second_scan_reuses_the_catalog(tmp_path):
    write_corpus(tmp_path / "docs")
    catalog = tmp_path / "catalog.sqlite3"
    args = ("scan", str(tmp_path / "docs"), "--out", str(tmp_path / "r"), "--catalog", str(catalog))
    first = run_cli(*args)
    assert first.returncode == 0, first.stderr
    assert "(0 unchanged since the last scan)" in first.stdout
    second = run_cli(*args)
    assert second.returncode == 0, second.stderr
    documents = int(second.stdout.split("documents read")[0].split(":")[-1])
    assert f"({documents} unchanged since the last scan)" in second.stdout


def test_common_text_threshold_is_a_setting(tmp_path):
    from tests.core.test_passages import english_paragraphs

    english = english_paragraphs()
    site = tmp_path / "site"
    site.mkdir()
    for i in range(8):  # a footer in 8 pages: common above 7 documents, copying below
        paragraphs = [*english[6 * i : 6 * i + 5], english[140]]
        (site / f"page{i}.txt").write_text("\n\n".join(paragraphs), encoding="utf-8")
    args = ("--no-catalog", "--partial-threshold", "0.05")
    common = run_cli("scan", str(site), "--out", str(tmp_path / "a"), *args, "--common-docs", "7")
    assert common.returncode == 0, common.stderr
    assert "0 partial pairs" in common.stdout
    assert (tmp_path / "a" / "common.csv").read_text(encoding="utf-8-sig").count("\n") >= 2
    copying = run_cli(
        "scan", str(site), "--out", str(tmp_path / "b"), *args,
        "--common-docs", "40", "--common-share", "1",
    )  # fmt: skip
    assert "28 partial pairs" in copying.stdout  # every page with every other: 8 × 7 / 2
    bad = run_cli("scan", str(site), "--common-docs", "1")
    assert bad.returncode == 2 and "--common-docs must be at least 2" in bad.stderr


def test_links_outside_the_folder_are_skipped_unless_asked(tmp_path):
    import os

    docs, elsewhere = tmp_path / "docs", tmp_path / "elsewhere"
    write_corpus(docs)
    elsewhere.mkdir()
    (elsewhere / "secret.txt").write_text("A private note that is not an essay at all, " * 5)
    os.symlink(elsewhere / "secret.txt", docs / "link.txt")
    plain = run_cli("scan", str(docs), "--out", str(tmp_path / "a"), "--no-catalog")
    skipped = {r["path"]: r["reason"] for r in read_csv(tmp_path / "a" / "skipped.csv")}
    assert skipped == {
        str(docs / "link.txt"): "link to a file outside the scanned folders (not followed)"
    }
    asked = run_cli(
        "scan", str(docs), "--out", str(tmp_path / "b"), "--no-catalog", "--follow-links"
    )
    assert plain.returncode == asked.returncode == 0
    assert read_csv(tmp_path / "b" / "skipped.csv") == []
