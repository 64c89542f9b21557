"""`simsift scan` as a user runs it: a real subprocess, files written, exit codes."""

from __future__ import annotations

import csv
import errno
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import DEFAULT_K, ScanOptions

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
    (docs / "drawing.psd").write_bytes(b"8BPS" + bytes(200))
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
        "drawing.psd": "not a document type SimSift reads (.psd)",
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


def limited_cli(limits: dict, *args: str) -> subprocess.CompletedProcess:
    """`run_cli` in a process with resource limits ({resource.RLIMIT_*: bytes})."""
    import resource
    import signal

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file over the limit: EFBIG
        for kind, value in limits.items():
            resource.setrlimit(kind, (value, value))

    return subprocess.run(
        [sys.executable, "-m", "simsift.core.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        preexec_fn=limit,
    )


def is_warning(line: str) -> bool:
    """A line of a Python warning a library printed (jieba's about pkg_resources), or the
    interpreter's own note that memory ran out inside a finalizer, which it writes to
    stderr itself, past every hook ("Exception ignored ...", then "MemoryError")."""
    return (
        "Warning: " in line
        or line.startswith("  import ")
        or line.startswith("Exception ignored")
        or line == "MemoryError"
    )


def one_sentence(proc: subprocess.CompletedProcess, *words: str) -> str:
    """The one line a failed run printed on stderr, checked to hold `words`."""
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.strip().splitlines() if not is_warning(line)]
    assert len(lines) == 1 and lines[0].startswith("simsift: "), proc.stderr
    assert all(word in lines[0] for word in words), lines[0]
    return lines[0]


# (reader processes, address space in MB under ulimit -v) where a scan once ended in
# OpenBLAS's abort (80 MB), in reader processes' tracebacks (115 to 130 MB: their fork
# server could not start) and in a MemoryError traceback while loading jieba's dictionary
# (190 MB); 250 MB is enough
MEMORY_CASES = [
    ("0", 80), ("2", 80), ("2", 115), ("0", 118), ("2", 118), ("2", 120), ("2", 125), ("2", 130),
    ("0", 190), ("2", 190), ("0", 250), ("2", 250),
]  # fmt: skip


@pytest.mark.parametrize(("workers", "megabytes"), MEMORY_CASES)
def test_a_tight_memory_limit_ends_in_one_sentence_or_a_report(tmp_path, megabytes, workers):
    import resource

    write_corpus(tmp_path / "docs")
    (tmp_path / "docs" / "essay.txt").write_text("李同学的作文写得很好，老师表扬了他。" * 20)
    proc = limited_cli(
        {resource.RLIMIT_AS: megabytes << 20},
        "scan", str(tmp_path / "docs"), "--out", str(tmp_path / "r"), "--no-catalog",
        "--quiet", "--workers", workers,
    )  # fmt: skip
    assert "Traceback" not in proc.stderr, proc.stderr
    if proc.returncode == 0:
        assert "documents read" in proc.stdout
    else:
        assert proc.returncode == 1
        # one sentence: a reader the interpreter itself gave up on (a fatal error at the
        # edge of the limit) writes its dump into its own log, not on the terminal
        one_sentence(proc, "out of memory", "ulimit -v")


def test_a_full_disk_under_the_report_is_one_sentence(tmp_path):
    import resource

    write_corpus(tmp_path / "docs")
    for i in range(30):
        (tmp_path / "docs" / f"note{i:02d}.txt").write_text(f"Note {i}: " + "word " * 30)
    proc = limited_cli(
        {resource.RLIMIT_FSIZE: 1000},  # writes past 1000 bytes fail, as on a full disk
        "scan", str(tmp_path / "docs"), "--out", str(tmp_path / "r"), "--no-catalog", "--quiet",
    )  # fmt: skip
    assert proc.returncode == 1
    one_sentence(proc, "cannot write the report into", "File too large", "unchanged")
    assert "documents read" in proc.stdout  # the summary still says what was found


def in_process(capsys, *args: str) -> tuple[int, str]:
    """(exit code, stderr) of `simsift ARGS` run in this process."""
    from simsift.core.cli import main

    code = main(list(args))
    return code, capsys.readouterr().err


def test_an_interrupted_scan_says_what_was_kept(tmp_path, capsys, monkeypatch):
    from simsift.core import cli

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    write_corpus(tmp_path / "docs")
    monkeypatch.setattr(cli, "scan", interrupted)
    out = ("--out", str(tmp_path / "r"), "--quiet")
    code, said = in_process(capsys, "scan", str(tmp_path / "docs"), "--no-catalog", *out)
    assert code == 130 and "kept in the catalog" not in said
    assert said.strip() == cli.interrupted_message(None)
    assert "nothing was kept" in said
    catalog = ("--catalog", str(tmp_path / "catalog.sqlite3"))
    code, said = in_process(capsys, "scan", str(tmp_path / "docs"), *catalog, *out)
    assert code == 130 and "files read so far are kept in the catalog" in said


@pytest.mark.parametrize(
    ("failure", "code", "words"),
    [
        (MemoryError(), 1, ("out of memory", "ulimit -v")),
        (OSError(errno.ENOSPC, "No space left on device", "/data/x"), 2, ("No space", "/data/x")),
        (PermissionError(errno.EACCES, "Permission denied", "/data/y"), 2, ("Permission",)),
        (KeyboardInterrupt(), 130, ("interrupted",)),
    ],
)
def test_environmental_failures_anywhere_are_one_sentence(
    tmp_path, capsys, monkeypatch, failure, code, words
):
    from simsift.core import cli
    from simsift.core.report import tables

    def fail(*_args, **_kwargs):
        raise failure

    write_corpus(tmp_path / "docs")
    monkeypatch.setattr(tables, "write_report", fail)  # after the scan, outside its handling
    args = ("scan", str(tmp_path / "docs"), "--out", str(tmp_path / "r"), "--no-catalog")
    got, said = in_process(capsys, *args, "--quiet")
    assert got == code and "Traceback" not in said
    [line] = said.strip().splitlines()
    assert line.startswith("simsift: ") and all(word in line for word in words), line
    monkeypatch.setattr(cli, "scan", fail)  # and during the scan
    got, said = in_process(capsys, *args, "--quiet")
    assert got == code and said.count("\n") == 1


def test_a_failing_catalog_is_one_sentence_or_left_aside(tmp_path, capsys, monkeypatch):
    from simsift.core.store.catalog import Catalog, CatalogError

    write_corpus(tmp_path / "docs")
    blocker = tmp_path / "file"
    blocker.write_text("")
    out = ("--out", str(tmp_path / "r"), "--quiet")
    # a catalog that cannot be opened (a permission, a file in the way): scanned without it
    code, said = in_process(
        capsys, "scan", str(tmp_path / "docs"), "--catalog", str(blocker / "c.sqlite3"), *out
    )
    assert code == 0 and "scanning without it" in said

    def locked(_self):
        raise CatalogError("database is locked")

    monkeypatch.setattr(Catalog, "ignored_pairs", locked)
    catalog = ("--catalog", str(tmp_path / "catalog.sqlite3"))
    code, said = in_process(capsys, "scan", str(tmp_path / "docs"), *catalog, *out)
    assert code == 0 and "dismissed pairs not read (database is locked)" in said

    def broken(*_args, **_kwargs):
        raise CatalogError("disk I/O error")

    monkeypatch.setattr(Catalog, "verdicts", broken)
    monkeypatch.setattr(Catalog, "close", broken)
    code, said = in_process(capsys, "scan", str(tmp_path / "docs"), *catalog, *out)
    assert code == 2 and "the catalog failed (disk I/O error)" in said


def test_a_malformed_or_unreachable_scheduler_is_one_sentence(tmp_path):
    pytest.importorskip("distributed")
    write_corpus(tmp_path / "docs")
    for address, words in [
        ("nonsense", ("not a scheduler address",)),
        ("tcp://127.0.0.1:9", ("cannot reach the scheduler",)),
    ]:
        proc = run_cli("scan", str(tmp_path / "docs"), "--scheduler", address, "--no-catalog",
                       "--quiet", "--out", str(tmp_path / "r"))  # fmt: skip
        assert proc.returncode == 2
        one_sentence(proc, *words)


def test_quotation_bibliography_and_shortest_match_flags_reach_the_options(tmp_path, capsys):
    from simsift.core.cli import build_parser, scan_options

    parser = build_parser()
    plain = scan_options(parser.parse_args(["scan", str(tmp_path)])).passages
    assert (plain.count_quotations, plain.count_bibliography) == (False, False)
    assert plain.partial_min_run == PassageOptions().partial_min_run
    args = ["--count-quotes", "--count-bibliography", "--partial-run", "40"]
    counted = scan_options(parser.parse_args(["scan", str(tmp_path), *args])).passages
    assert (counted.count_quotations, counted.count_bibliography) == (True, True)
    assert counted.partial_min_run == counted.shortest_run == 40
    check = ["check", str(tmp_path), "--archive", str(tmp_path / "a"), "--count-quotes"]
    checked = scan_options(parser.parse_args(check)).passages
    assert (checked.count_quotations, checked.count_bibliography) == (True, False)
    with pytest.raises(SystemExit):
        parser.parse_args(["scan", "--help"])
    usage = " ".join(capsys.readouterr().out.split())
    assert "--partial-run N the shortest match" in usage
    assert "--count-quotes" in usage and "--count-bibliography" in usage


def test_the_summary_states_what_counts_as_copying(tmp_path):
    from simsift.core.cli import summary
    from simsift.core.pipeline.scan import scan

    write_corpus(tmp_path / "docs")
    result = scan(ScanOptions(roots=(str(tmp_path / "docs"),), workers=0))

    def with_options(**changes) -> str:
        passages = replace(result.options.passages, **changes)
        return summary(replace(result, options=replace(result.options, passages=passages)), 8, 1)

    default = with_options()
    assert "or 15 words in a row: the shortest match" in default
    assert "quotations and the bibliography not counted" in default
    assert "(--count-quotes, --count-bibliography)" in default
    assert "or 30 words in a row" in with_options(partial_min_run=30)
    assert "quotations" not in with_options(count_quotations=True)
    assert "not counted" not in with_options(count_quotations=True, count_bibliography=True)
