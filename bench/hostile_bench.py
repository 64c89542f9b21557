"""Hostile files and folders, scanned end to end by the command line, each case judged.

    python -m bench.hostile_bench [--keep DIR] [--no-cluster] [--no-memory-limits]
                                  [--only NAME] [--worker-memory 2GiB]

Every case is run with `simsift scan` (or `archive add` / `check`) on this machine's
reader processes, then again on a two-worker Dask LocalCluster the script starts
(`--scheduler`, needs `simsift[distributed]`). Each case has an expected outcome; the
table gives what happened, pass or fail, the time and the peak resident memory of the
process tree (the scan and its readers; on the cluster also its workers and this script,
which hosts the scheduler). Exits 1 when a case fails. Linux only (/proc, RLIMIT_AS).

The cases:
- the hostile folder of the first trials (damaged, encrypted, bomb, deep, mis-encoded,
  oddly named up to the 255-byte name limit, linked, special files): the scan ends with a
  report and no traceback, with the default readers, on the cluster with `--ship-files`
  (the long names reported under their own paths), and under tight `ulimit -v` limits
  (a report or one sentence);
- the third trial: PDF pages with odd media boxes (inverted, zero, short, a string, NaN,
  -1e38, 1e13), each a copy of another PDF; the 26 KB nested-form bomb; a page of 20,000
  one-letter lines; a Type3 font with a FontMatrix of three numbers; a DOCX of a million
  paragraphs under `ulimit -v` 400 MB with a catalog, then without; an archive loaded
  short of memory (by `check` and by the app's scan) and an `archive add` onto a full disk.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.core.corpus import long_texts
from tests.core.extract.test_page_boxes import BOXES, lines, pdf_of_pages, type3_page
from tests.core.pdf_writer import pdf_bytes, stream
from tests.core.test_pdf_bombs import nested_forms
from tests.core.test_shortage import million_paragraph_docx

ROOT = Path(__file__).resolve().parents[1]

SAMPLES = ROOT / "tests" / "data" / "extract"
# 250, 251 (UTF-8) and 255 bytes: 255 is the longest name a file can have
LONG_NAMES = ("a" * 246 + ".txt", "作文" * 41 + "x.txt", "b" * 251 + ".txt")
# address space (MB) of the memory-limited scans: once OpenBLAS's abort (80), a traceback
# while loading jieba's dictionary (190), and enough for the small files (400)
MEMORY_LIMITS_MB = (80, 190, 400)
ODD_BOXES = ("inverted", "zero", "short", "string", "NaN", "-1e38", "1e13")
FILE_TIMEOUT = 60  # the CLI's reading budget per file (ScanOptions.file_timeout; no flag)
START_SLACK = 30  # seconds a scan may take beyond a file's budget: start-up, report
DOCX_LIMIT_MB = 400
REPORTED = ("documents", "clusters", "excluded", "warnings")  # report tables of read files
CASE_TIMEOUT = 600  # a scan still running then has hung: the case fails
# Python's own exception text in a message meant for a user
RAW_EXCEPTION = re.compile(r"\b\w+(Error|Exception)\b|unpack|Traceback|expected \d")


@dataclass
class Run:
    """One command line run: exit code, output, seconds, peak RSS of the tree (bytes)."""

    code: int
    stdout: str
    stderr: str
    seconds: float
    peak: int


@dataclass
class Outcome:
    case: str
    expected: str
    happened: str
    passed: bool
    seconds: float
    peak: int


class Bench:
    """What every case needs: a work folder, the cluster's address (or none)."""

    def __init__(
        self, work: Path, memory_limits: bool, scheduler: str = "", worker_pids: tuple = ()
    ) -> None:
        self.work = work
        self.memory_limits = memory_limits  # also the first trials' ulimit -v scans
        self.scheduler = scheduler
        self.worker_pids = worker_pids  # the cluster's workers, to limit their memory

    @property
    def where(self) -> str:
        return "cluster" if self.scheduler else "local"

    def folder(self, name: str) -> Path:
        path = self.work / self.where / name
        path.mkdir(parents=True)
        return path

    def cli(self, *args: str, limit_mb: int | None = None, cluster: bool = True) -> Run:
        """`simsift ARGS` (with `--scheduler` on the cluster unless `cluster` is False),
        under an address-space limit of `limit_mb` (as `ulimit -v`)."""
        command = [sys.executable, "-m", "simsift.core.cli", *args]
        if self.scheduler and cluster:
            command += ["--scheduler", self.scheduler]
        return run_sampled(command, limit_mb, bool(self.scheduler))


def run_sampled(command: list[str], limit_mb: int | None = None, whole_tree=False) -> Run:
    """Run `command`, sampling the resident memory of its process tree ten times a second
    (of this script's whole tree with `whole_tree`: the cluster's workers are ours)."""

    def limited() -> None:
        limit = limit_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limited if limit_mb else None,
    )
    peak = 0
    try:
        while process.poll() is None:
            peak = max(peak, tree_rss(os.getpid() if whole_tree else process.pid))
            if time.monotonic() - started > CASE_TIMEOUT:
                process.kill()
            time.sleep(0.1)
    finally:
        stdout, stderr = process.communicate()
    return Run(
        process.returncode,
        stdout.decode("utf-8", "backslashreplace"),
        stderr.decode("utf-8", "backslashreplace"),
        time.monotonic() - started,
        peak,
    )


def tree_rss(pid: int) -> int:
    """Resident bytes of `pid` and all its descendants."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        stack.extend(children.get(p, []))
        total += _status_kb(p, "VmRSS:") * 1024
    return total


def _status_kb(pid: int | str, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def table(out: Path, name: str) -> list[dict[str, str]]:
    """The rows of a report table (empty when the scan wrote none)."""
    try:
        with open(out / f"{name}.csv", encoding="utf-8-sig", errors="backslashreplace") as f:
            return list(csv.DictReader(f))
    except FileNotFoundError:
        return []


def errors_of(out: Path) -> dict[str, str]:
    return {row["path"]: row["error"] for row in table(out, "errors")}


def documents_read(run: Run) -> int:
    """How many documents the scan's summary says it read (documents.csv lists only those
    found elsewhere or flagged)."""
    found = re.search(r"(\d+) documents read", run.stdout)
    return int(found.group(1)) if found else -1


def said(run: Run) -> str:
    """The CLI's last sentence on stderr, or the first line of its summary."""
    sentences = [line for line in run.stderr.splitlines() if line.startswith("simsift: ")]
    if run.code != 0 or sentences:
        return sentences[-1] if sentences else run.stderr.strip()[-200:]
    return run.stdout.split("\n")[0]


def crashed(run: Run) -> str:
    """Why a run that should have ended with a report did not ('' when it did)."""
    if "Traceback" in run.stderr:
        return "a traceback: " + run.stderr.strip().splitlines()[-1][:200]
    if run.code != 0:
        return f"exit {run.code}: {said(run)}"
    return ""


def outcome(case: str, expected: str, run: Run, problems: list[str], good: str) -> Outcome:
    """A case's row: passed when there is no problem."""
    problems = [p for p in problems if p]
    happened = "; ".join([*problems, good]) if problems else good  # what it did say too
    return Outcome(case, expected, happened, not problems, run.seconds, run.peak)


# -- the first trials: one folder of every hostile case --------------------------------------


def build_hostile(folder: Path) -> int:
    """Write the hostile cases of the first trials into `folder`; how many entries the
    scan should account for (read, error or skipped)."""
    for name in ("zipbomb.docx", "encrypted.pdf", "corrupt.docx", "image_only.pdf",
                 "old_binary.doc", "article_en.pdf", "article_zh.docx"):  # fmt: skip
        shutil.copy(SAMPLES / name, folder / name)
    shutil.copy(SAMPLES / "zipbomb.docx", folder / "zipbomb copy.docx")
    write_docx_bomb(folder / "bomb_small_declared.docx")
    data = (SAMPLES / "article_en.pdf").read_bytes()
    (folder / "truncated.pdf").write_bytes(data[: len(data) // 3])
    (folder / "empty.txt").write_bytes(b"")
    (folder / "nul.txt").write_bytes(b"text\x00" + os.urandom(4000))
    (folder / "renamed.pdf").write_text("plain text named .pdf")
    (folder / "deep_div.html").write_text("<html><body>" + "<div><p>deep text</p>" * 5000)
    (folder / "deep_b.html").write_text("<html><body>" + "<b><p>bold text</p>" * 5000)
    (folder / "controls.html").write_bytes(b"<html><body><p>bell\x07 escape\x1b text</p>" * 50)
    essay = (SAMPLES / "zh_utf8_lines.txt").read_bytes()
    (folder / "utf16_no_bom.txt").write_bytes(essay.decode("utf-8").encode("utf-16-le"))
    (folder / "cut_utf8.txt").write_bytes(essay.rstrip() + "。".encode()[:-1])
    (folder / os.fsdecode(b"name_\xff\xfe.txt")).write_bytes(essay)
    for name in LONG_NAMES:
        (folder / name).write_bytes(essay)
    (folder / "one_line_20mb.txt").write_text("word " * 4_000_000)
    (folder / "many_paragraphs_13mb.txt").write_text(
        "\n\n".join(f"paragraph {i} " + "text " * 40 for i in range(60_000))
    )
    bottom = folder / "deep"
    bottom.mkdir()
    for _ in range(1100):  # one mkdir per level: os.makedirs recurses per level
        bottom = bottom / "d"
        bottom.mkdir()
    shutil.copy(SAMPLES / "article_en.html", bottom / "bottom.html")
    os.symlink("/etc/passwd", folder / "passwd_link.txt")
    os.symlink(folder, folder / "loop")
    os.mkfifo(folder / "pipe.txt")
    return 28


def write_docx_bomb(path: Path) -> None:
    """A .docx whose document.xml unpacks to 800 MB of the same byte, declared honestly."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        with z.open("word/document.xml", "w", force_zip64=True) as f:
            chunk = b" " * (1 << 20)
            for _ in range(800):
                f.write(chunk)


def case_hostile_folder(bench: Bench) -> list[Outcome]:
    """The first trials' folder: a report accounting for every entry, no traceback; on the
    cluster with `--ship-files`, the long names reported under their own paths."""
    folder = bench.folder("hostile")
    entries = build_hostile(folder)
    out = folder.parent / "hostile-report"
    extra = ["--ship-files"] if bench.scheduler else []
    run = bench.cli("scan", str(folder), "--out", str(out), "--no-catalog", "--quiet", *extra)
    first = run.stdout.split("\n")[0]
    problems = [crashed(run)]
    if not first.startswith(f"{entries} files in"):
        problems.append(f"not every entry accounted for: {first!r}")
    if bench.scheduler:
        # documents.csv lists only documents found elsewhere: every table with paths
        reported = set(errors_of(out)).union(
            *({row["path"] for row in table(out, name)} for name in REPORTED)
        )
        lost = [n for n in LONG_NAMES if str(folder / n) not in reported]
        problems.append(f"long names not under their own paths: {lost}" if lost else "")
    errors = len(errors_of(out))
    rows = [
        outcome(
            "hostile folder" + (" (--ship-files)" if extra else ""),
            "a report of every entry, no traceback",
            run,
            problems,
            f"{first.split(':')[0]}; {errors} errors with reasons",
        )
    ]
    if not bench.scheduler and bench.memory_limits:
        rows += [memory_limited(bench, folder, mb) for mb in MEMORY_LIMITS_MB]
    return rows


def memory_limited(bench: Bench, folder: Path, megabytes: int) -> Outcome:
    """The hostile folder under `ulimit -v`: a report or one sentence, never a traceback."""
    out = folder.parent / f"report-{megabytes}mb"
    run = bench.cli("scan", str(folder), "--out", str(out), "--no-catalog", "--quiet",
                    limit_mb=megabytes)  # fmt: skip
    problems = ["a traceback"] if "Traceback" in run.stderr else []
    if run.code != 0 and not said(run).startswith("simsift: "):
        problems.append(f"exit {run.code} without a sentence: {said(run)[:150]}")
    return outcome(
        f"hostile folder, ulimit -v {megabytes} MB",
        "a report, or one sentence and exit 1",
        run,
        problems,
        f"exit {run.code}: {said(run)[:110]}",
    )


# -- the third trial --------------------------------------------------------------------------


def essay_chunks(count: int, words: int = 150) -> list[list[str]]:
    """`count` different passages of real prose (Python's module docs), `words` long."""
    text = " ".join(long_texts().values()).replace("(", "").replace(")", "").split()
    text = [w.encode("latin-1", "replace").decode("latin-1") for w in text]
    assert len(text) >= count * words, "not enough prose for the odd-box copies"
    return [text[i * words : (i + 1) * words] for i in range(count)]


def case_odd_media_boxes(bench: Bench) -> list[Outcome]:
    """Each odd media box's page holds a copy of another PDF: read, compared (the pair
    found), never flagged as hidden text."""
    folder = bench.folder("boxes")
    letter = b"/MediaBox [0 0 612 792]"
    cover = lines(["An essay on command lines", "by a student of the course"])
    for name, words in zip(ODD_BOXES, essay_chunks(len(ODD_BOXES)), strict=True):
        rows = lines([" ".join(words[i : i + 10]) for i in range(0, len(words), 10)], 760)
        (folder / f"original_{name}.pdf").write_bytes(pdf_of_pages([(letter, rows)]))
        copy = pdf_of_pages([(letter, cover), (BOXES[name][0], rows)])
        (folder / f"copy_{name}.pdf").write_bytes(copy)
    out = folder.parent / "boxes-report"
    run = bench.cli("scan", str(folder), "--out", str(out), "--no-catalog", "--quiet")
    pairs = {frozenset((row["a"], row["b"])): row["kind"] for row in table(out, "pairs")}
    flags = {row["path"]: row["flags"] for row in table(out, "documents")}
    errors = errors_of(out)
    problems, kinds = [crashed(run)], []
    for name in ODD_BOXES:
        copy, original = str(folder / f"copy_{name}.pdf"), str(folder / f"original_{name}.pdf")
        kind = pairs.get(frozenset((copy, original)))
        kinds.append(kind or "-")
        if copy in errors:
            problems.append(f"{name}: an error ({errors[copy]})")
        elif kind is None:
            problems.append(f"{name}: the copy was not paired with its original")
        if "hidden" in flags.get(copy, ""):
            problems.append(f"{name}: flagged '{flags[copy]}'")
    return [
        outcome(
            "odd media boxes (7 copies)",
            "each copy read and paired with its original; no hidden-text flag",
            run,
            problems,
            "7/7 paired (" + ", ".join(sorted(set(kinds))) + "), no flag",
        )
    ]


def case_form_bomb(bench: Bench) -> list[Outcome]:
    """The nested-form bomb (26 KB): a per-file error within the budget; the other file
    is read."""
    folder = bench.folder("form-bomb")
    bomb = nested_forms(depth=17, fan=50)  # 50**17 draws of a letter
    (folder / "form_bomb.pdf").write_bytes(bomb)
    shutil.copy(SAMPLES / "article_en.pdf", folder / "article.pdf")
    out = folder.parent / "form-bomb-report"
    run = bench.cli("scan", str(folder), "--out", str(out), "--no-catalog", "--quiet")
    errors = errors_of(out)
    message = errors.get(str(folder / "form_bomb.pdf"))
    budget = FILE_TIMEOUT + START_SLACK
    problems = [crashed(run)]
    problems.append("" if message else "the bomb is not an error")
    problems.append("" if documents_read(run) == 1 else "the other file not read")
    problems.append(f"took {run.seconds:.0f} s, over {budget} s" if run.seconds > budget else "")
    return [
        outcome(
            f"form bomb ({len(bomb) >> 10} KB)",
            f"a per-file error within {budget} s",
            run,
            problems,
            f"error: {message}",
        )
    ]


def one_letter_lines(columns: int = 200, rows: int = 100) -> bytes:
    """One page of `columns` x `rows` single letters, each its own line and box (6 pt
    apart across, 4.5 pt down), its content stream deflated: a PDF of about 1 KB."""
    row = b"6 0 Td (a) Tj " * columns + b"-%d -4.5 Td\n" % (6 * columns)
    content = b"BT /F1 2 Tf 0 990 Td " + row * rows + b"ET"
    return pdf_bytes(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Count 1 /Kids [4 0 R] >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1210 1000] /Contents 5 0 R"
            b" /Resources << /Font << /F1 3 0 R >> >> >>",
            stream(zlib.compress(content, 9), b"/Filter /FlateDecode"),
        ]
    )


def case_one_letter_lines(bench: Bench) -> list[Outcome]:
    """20,000 one-letter lines (it took 6.1 GB): read, or a plain error, in little time and
    memory."""
    folder = bench.folder("letters")
    data = one_letter_lines()
    path = folder / "letters.pdf"
    path.write_bytes(data)
    out = folder.parent / "letters-report"
    run = bench.cli("scan", str(folder), "--out", str(out), "--no-catalog", "--quiet")
    error = errors_of(out).get(str(path))
    read = documents_read(run) == 1
    seconds, megabytes = 30, 1024 if not bench.scheduler else 2048
    problems = [crashed(run)]
    if not read and not (error and not RAW_EXCEPTION.search(error)):
        problems.append(f"neither read nor a plain error ({error})")
    problems.append(f"took {run.seconds:.0f} s" if run.seconds > seconds else "")
    problems.append(f"{run.peak >> 20} MB" if run.peak > megabytes << 20 else "")
    return [
        outcome(
            f"20,000 one-letter lines ({len(data)} B)",
            f"read or a plain error, < {seconds} s, < {megabytes} MB",
            run,
            problems,
            "read" if read else f"error: {error}",
        )
    ]


def case_type3_font(bench: Bench) -> list[Outcome]:
    """A Type3 font whose FontMatrix has three numbers: a message in plain words."""
    folder = bench.folder("type3")
    path = folder / "type3_matrix.pdf"
    path.write_bytes(type3_page(b"[1 0 0]"))
    out = folder.parent / "type3-report"
    run = bench.cli("scan", str(folder), "--out", str(out), "--no-catalog", "--quiet")
    error = errors_of(out).get(str(path))
    problems = [crashed(run)]
    if error is None:
        problems.append("no per-file message")
    elif RAW_EXCEPTION.search(error):
        problems.append(f"Python's words: {error}")
    return [
        outcome(
            "Type3 /FontMatrix [1 0 0]",
            "a per-file message in plain words",
            run,
            problems,
            f"error: {error}",
        )
    ]


def case_million_paragraphs(bench: Bench) -> list[Outcome]:
    """A DOCX of a million paragraphs read short of memory with a catalog: 'out of memory
    ... read again on the next scan', not remembered; read whole by the next scan."""
    folder = bench.folder("million")
    path = folder / "million.docx"
    million_paragraph_docx(path)
    (folder / "base.docx").unlink(missing_ok=True)  # python-docx's template
    catalog = folder.parent / "million-catalog.sqlite"
    first, second = folder.parent / "million-1", folder.parent / "million-2"
    args = ("--catalog", str(catalog), "--quiet")
    with reading_limited(bench, DOCX_LIMIT_MB):
        limited = bench.cli("scan", str(folder), "--out", str(first), *args,
                            limit_mb=None if bench.scheduler else DOCX_LIMIT_MB)  # fmt: skip
    free = bench.cli("scan", str(folder), "--out", str(second), *args)
    error = errors_of(first).get(str(path), "")
    problems = [crashed(limited), crashed(free)]
    if not (error.startswith("out of memory") and "read again on the next scan" in error):
        problems.append(f"limited scan said {error or said(limited)!r}")
    if documents_read(free) != 1 or str(path) in errors_of(second):
        problems.append(f"unlimited scan: {errors_of(second).get(str(path), 'not read')}")
    both = Run(free.code, "", "", limited.seconds + free.seconds, max(limited.peak, free.peak))
    return [
        outcome(
            f"1,000,000-paragraph DOCX, {DOCX_LIMIT_MB} MB then no limit",
            "'out of memory ... read again'; then read (catalog kept no error)",
            both,
            problems,
            f"{error}; then read ({limited.seconds:.0f} + {free.seconds:.0f} s)",
        )
    ]


@contextlib.contextmanager
def reading_limited(bench: Bench, megabytes: int):
    """On the cluster, the readers are the workers: their address space is limited to
    `megabytes` more than they use (a local scan's readers inherit the CLI's limit)."""
    pids = bench.worker_pids if bench.scheduler else ()
    # the soft limit only: raising a hard limit back needs a capability a container lacks
    for pid in pids:
        limit = (_status_kb(pid, "VmSize:") << 10) + (megabytes << 20)
        with contextlib.suppress(ProcessLookupError):  # a worker gone: its nanny's new one
            resource.prlimit(pid, resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
    try:
        yield
    finally:
        unlimited = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                resource.prlimit(pid, resource.RLIMIT_AS, unlimited)


# -- archives short of memory or disk ---------------------------------------------------------

# Runs `simsift check` (or the app's scan with archive folders) in a child whose address
# space is limited, once its modules are loaded, to its size plus argv[1] bytes: loading the
# archive is then what runs out. Archive.open is watched to say what it raised.
LIMITED_CHILD = """
import resource, sys
from simsift.core import cli
from simsift.core.pipeline import archive_folders, check, options
from simsift.core.report import tables
from simsift.core.store import archive
opened = archive.Archive.open
def watched(directory):
    try:
        return opened(directory)
    except BaseException as error:
        print(f"bench: loading the archive raised {type(error).__name__}", file=sys.stderr)
        raise
archive.Archive.open = watched
def size():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmSize:")) << 10
limit = size() + int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
if sys.argv[2] == "app":
    roots, old, base = sys.argv[3:6]
    scan = options.ScanOptions(roots=(roots,), workers=1, scheduler=sys.argv[6])
    try:
        archive_folders.scan_with_archive(scan, [old], base)
    except MemoryError:
        sys.exit("simsift: out of memory (the app's scan)")
else:
    sys.exit(cli.main(sys.argv[2:]))
"""


def write_archive_texts(folder: Path, files: int, words: int, seed: int) -> None:
    """`files` texts of `words` words drawn from a large vocabulary (many distinct grams:
    a segment of some MB)."""
    import random

    rng = random.Random(seed)
    vocabulary = [f"w{rng.getrandbits(40):x}" for _ in range(50_000)]
    for i in range(files):
        text = " ".join(rng.choice(vocabulary) for _ in range(words))
        (folder / f"essay_{i:03d}.txt").write_text(text)


def snapshot(directory: Path) -> dict[str, str]:
    """Every file under `directory` and its digest."""
    return {
        str(path.relative_to(directory)): hashlib.blake2b(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def case_archive_short_of_memory(bench: Bench) -> list[Outcome]:
    """An archive loaded short of memory, by `simsift check` and by the app's scan: a
    sentence, and the archive folder exactly as it was (never deleted or rebuilt)."""
    from simsift.core.pipeline.archive_folders import archive_directory
    from simsift.core.pipeline.options import ScanOptions

    old, new = bench.folder("archived"), bench.folder("new")
    write_archive_texts(old, 20, 30_000, seed=1)
    write_archive_texts(new, 2, 2_000, seed=2)
    base = old.parent / "app-data"
    directory = archive_directory(base, [str(old)], ScanOptions(roots=(str(old),)))
    add = bench.cli("archive", "add", str(old), "--archive", str(directory), "--quiet")
    if add.code != 0:
        return [outcome("archive short of memory", "", add, [crashed(add)], "")]
    before = snapshot(directory)
    segment = max(p.stat().st_size for p in directory.glob("seg-*.npz"))
    headroom = str(segment // 2)  # too little to read the largest segment
    rows = []
    for who in ("check", "app"):
        if who == "check":
            args = ["check", str(new), "--archive", str(directory), "--out",
                    str(new.parent / "check-report"), "--quiet"]  # fmt: skip
            args += ["--scheduler", bench.scheduler] if bench.scheduler else []
        else:
            args = ["app", str(new), str(old), str(base), bench.scheduler]
        run = run_sampled([sys.executable, "-c", LIMITED_CHILD, headroom, *args])
        raised = re.findall(r"bench: loading the archive raised (\w+)", run.stderr)
        problems = ["a traceback"] if "Traceback" in run.stderr else []
        if raised != ["MemoryError"]:
            problems.append(f"loading raised {raised or 'nothing'}, not MemoryError once")
        if run.code == 0:
            problems.append("exit 0")
        after = snapshot(directory) if directory.exists() else {}
        if after != before:
            problems.append(f"archive changed: {len(before)} files before, {len(after)} after")
        leftovers = sorted(p.name for p in directory.parent.iterdir() if p != directory)
        problems.append(f"beside it: {leftovers}" if leftovers else "")
        rows.append(
            outcome(
                f"archive ({segment >> 20} MB segment) loaded short of memory, {who}",
                "MemoryError, a sentence; the archive's files unchanged",
                run,
                problems,
                f"{said(run)[:70]}; {len(before)} files unchanged",
            )
        )
    return [*rows, disk_full(bench, old, new)]


def disk_full(bench: Bench, big: Path, small: Path) -> Outcome:
    """`archive add` onto a 2 MB tmpfs that its segment does not fit: an error, and no
    segment file left behind."""
    mount = bench.work / bench.where / "tmpfs"
    mount.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True
    )
    if mounted.returncode != 0:
        note = mounted.stderr.decode(errors="replace").strip()[:80]
        return Outcome("archive add, disk full", "", f"skipped: {note}", True, 0, 0)
    try:
        directory = mount / "archive"
        first = bench.cli("archive", "add", str(small), "--archive", str(directory), "--quiet")
        before = sorted(os.listdir(directory)) if directory.exists() else []
        run = bench.cli("archive", "add", str(big), "--archive", str(directory), "--quiet")
        after = sorted(os.listdir(directory))
        problems = [crashed(first), "a traceback" if "Traceback" in run.stderr else ""]
        problems.append("exit 0" if run.code == 0 else "")
        problems.append(
            f"left behind: {sorted(set(after) - set(before))}" if after != before else ""
        )
        return outcome(
            "archive add, disk full (2 MB tmpfs)",
            "an error; no orphan segment file",
            run,
            problems,
            f"exit {run.code}: {said(run)[:90]}; folder as before",
        )
    finally:
        subprocess.run(["umount", str(mount)], check=False)


CASES: dict[str, Callable[[Bench], list[Outcome]]] = {
    "hostile": case_hostile_folder,
    "boxes": case_odd_media_boxes,
    "bomb": case_form_bomb,
    "letters": case_one_letter_lines,
    "type3": case_type3_font,
    "million": case_million_paragraphs,
    "archive": case_archive_short_of_memory,
}


# -- running and reporting --------------------------------------------------------------------


def run_cases(bench: Bench, names: list[str]) -> list[Outcome]:
    rows = []
    for name in names:
        for row in CASES[name](bench):
            print_row(bench.where, row)
            rows.append(row)
    return rows


def on_cluster(work: Path, names: list[str], worker_memory: str, limits: bool) -> list[Outcome]:
    """The cases on a two-worker LocalCluster this script starts, a fresh one per case: a
    case that leaves the cluster without workers (a bomb) does not fail the next."""
    try:
        import distributed
    except ImportError:
        print('cluster: skipped, needs pip install "simsift[distributed]"')
        return []
    rows = []
    for name in names:
        with distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
            host="127.0.0.1", silence_logs=50, memory_limit=worker_memory,
        ) as cluster, distributed.Client(cluster) as client:  # fmt: skip
            pids = tuple(client.run(os.getpid).values())
            rows += run_cases(Bench(work, limits, cluster.scheduler_address, pids), [name])
    return rows


def print_row(where: str, row: Outcome) -> None:
    verdict = "pass" if row.passed else "FAIL"
    print(
        f"| {where} | {row.case} | {row.expected} | {row.happened} | {verdict} | "
        f"{row.seconds:.1f} s | {row.peak >> 20} MB |",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build the folders here and keep them")
    parser.add_argument("--no-cluster", action="store_true", help="skip the cluster runs")
    parser.add_argument("--no-local", action="store_true", help="only the cluster runs")
    parser.add_argument(
        "--no-memory-limits", action="store_true", help="skip the ulimit -v scans of the folder"
    )
    parser.add_argument("--only", action="append", choices=list(CASES), help="run these cases")
    parser.add_argument(
        "--worker-memory",
        default="2GiB",
        help="each cluster worker's memory limit (Dask kills a worker past it; default 2GiB: "
        "Dask's own default, half this machine's memory each, lets a form bomb take it all)",
    )
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="simsift-hostile-"))
    names = args.only or list(CASES)
    print("| run | case | expected | what happened | verdict | time | peak RSS |")
    print("|---|---|---|---|---|---|---|")
    rows = [] if args.no_local else run_cases(Bench(work, not args.no_memory_limits), names)
    if not args.no_cluster:
        rows += on_cluster(work, names, args.worker_memory, not args.no_memory_limits)
    failed = [row.case for row in rows if not row.passed]
    print(
        f"{len(rows) - len(failed)} of {len(rows)} passed" + (f"; failed: {failed}" * bool(failed))
    )
    if not args.keep:
        remove_tree(work)
    return 1 if failed else 0


def remove_tree(root: Path) -> None:
    """Delete `root` without recursion (shutil.rmtree recurses once per level)."""
    for folder, dirs, files in walk_bottom_up(root):
        for name in files:
            os.unlink(os.path.join(folder, name))
        for name in dirs:
            path = os.path.join(folder, name)
            os.unlink(path) if os.path.islink(path) else os.rmdir(path)
    os.rmdir(root)


def walk_bottom_up(root: Path):
    """(folder, dirs, files) for every folder under root, children before parents."""
    order, stack = [], [str(root)]
    while stack:
        folder = stack.pop()
        entries = list(os.scandir(folder))
        dirs = [e.name for e in entries if e.is_dir(follow_symlinks=False)]
        files = [e.name for e in entries if not e.is_dir(follow_symlinks=False)]
        order.append((folder, dirs, files))
        stack.extend(os.path.join(folder, d) for d in dirs)
    return reversed(order)


if __name__ == "__main__":
    sys.exit(main())
