"""A folder of hostile files and folders, scanned end to end by the command line.

    python bench/hostile_bench.py [--keep DIR] [--no-cluster] [--no-memory-limits]

Builds one folder holding every hostile case the hardening issue lists (damaged, encrypted,
bomb, deep, mis-encoded, oddly named (up to the 255-byte name limit), linked, special
files), runs `simsift scan` on it with the default reader processes, and samples the
resident memory of the whole process tree (scan and readers) ten times a second. Prints
the peak, the time, and what the scan said about each file. Linux only (/proc).

Then, unless told not to:
- the same scan on a two-worker Dask LocalCluster with `--ship-files` (needs
  `simsift[distributed]`): the exit code, the time, and whether the longest names came back
  read under their own paths (workers write shipped files under short temporary names);
- the scan under tight address-space limits (`ulimit -v`, as RLIMIT_AS): each must end in
  a report or in one sentence on stderr with a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "tests" / "data" / "extract"
# 250, 251 (UTF-8) and 255 bytes: 255 is the longest name a file can have
LONG_NAMES = ("a" * 246 + ".txt", "作文" * 41 + "x.txt", "b" * 251 + ".txt")
# address space (MB) of the memory-limited scans: once OpenBLAS's abort (80), a traceback
# while loading jieba's dictionary (190), and enough for the small files (400)
MEMORY_LIMITS_MB = (80, 190, 400)


def build(folder: Path) -> None:
    """Write the hostile cases into `folder`."""
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


def write_docx_bomb(path: Path) -> None:
    """A .docx whose document.xml unpacks to 800 MB of the same byte, declared honestly."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        with z.open("word/document.xml", "w", force_zip64=True) as f:
            chunk = b" " * (1 << 20)
            for _ in range(800):
                f.write(chunk)


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
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build the folder here and keep it")
    parser.add_argument("--no-cluster", action="store_true", help="skip the cluster scan")
    parser.add_argument(
        "--no-memory-limits", action="store_true", help="skip the memory-limited scans"
    )
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="simsift-hostile-"))
    folder = work / "hostile"
    folder.mkdir(parents=True)
    build(folder)
    out = work / "report"
    command = [sys.executable, "-m", "simsift.core.cli", "scan", str(folder), "--out", str(out),
               "--no-catalog", "--quiet"]  # fmt: skip
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    while process.poll() is None:
        peak = max(peak, tree_rss(process.pid))
        time.sleep(0.1)
    seconds = time.monotonic() - started
    stdout, stderr = process.communicate()
    print(f"exit code {process.returncode}, {seconds:.1f} s, peak RSS of the tree {peak >> 20} MB")
    print(stdout.decode("utf-8", "backslashreplace"))
    if stderr:
        print("stderr:", stderr.decode("utf-8", "backslashreplace")[-2000:])
    for name in ("errors.csv", "warnings.csv", "skipped.csv"):
        print(f"--- {name}")
        print((out / name).read_bytes().decode("utf-8-sig", "backslashreplace"))
    if not args.no_cluster:
        cluster_scan(folder, work / "cluster-report")
    if not args.no_memory_limits:
        memory_limited_scans(folder, work)
    if not args.keep:
        remove_tree(work)


def cluster_scan(folder: Path, out: Path) -> None:
    """The scan on a two-worker LocalCluster, files shipped: long names read there too."""
    print("=== cluster scan, --ship-files, two local workers")
    try:
        import distributed
    except ImportError:
        print('skipped: needs pip install "simsift[distributed]"')
        return
    started = time.monotonic()
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        host="127.0.0.1", silence_logs=50,
    ) as cluster:  # fmt: skip
        ready = time.monotonic() - started
        command = [sys.executable, "-m", "simsift.core.cli", "scan", str(folder), "--out",
                   str(out), "--no-catalog", "--quiet", "--scheduler", cluster.scheduler_address,
                   "--ship-files"]  # fmt: skip
        started = time.monotonic()
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=1800)
        seconds = time.monotonic() - started
    print(f"cluster up in {ready:.1f} s; scan exit code {proc.returncode}, {seconds:.1f} s")
    print(proc.stdout.decode("utf-8", "backslashreplace").split("\n")[0])
    if proc.stderr:
        print("stderr:", proc.stderr.decode("utf-8", "backslashreplace")[-2000:])
    if proc.returncode != 0:
        return
    tables = {
        table: (out / f"{table}.csv").read_bytes().decode("utf-8-sig", "backslashreplace")
        for table in ("documents", "clusters", "excluded", "errors")
    }
    for name in LONG_NAMES:
        path = str(folder / name)
        if path in tables["errors"]:
            state = "AN ERROR: " + tables["errors"].split(path, 1)[1].split("\n")[0]
        elif any(path in tables[table] for table in ("documents", "clusters", "excluded")):
            state = "read, reported under its own path"
        else:
            state = "NOT IN THE REPORT"
        print(f"{len(os.fsencode(name))}-byte name: {state}")


def memory_limited_scans(folder: Path, work: Path) -> None:
    """The scan under each address-space limit: a report or one sentence, no traceback."""
    import resource

    print("=== scans under an address-space limit (ulimit -v)")
    for megabytes in MEMORY_LIMITS_MB:
        limit = megabytes << 20

        def limited(limit: int = limit) -> None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        command = [sys.executable, "-m", "simsift.core.cli", "scan", str(folder), "--out",
                   str(work / f"report-{megabytes}mb"), "--no-catalog", "--quiet"]  # fmt: skip
        started = time.monotonic()
        proc = subprocess.run(
            command, cwd=ROOT, capture_output=True, timeout=1800, preexec_fn=limited
        )
        seconds = time.monotonic() - started
        stderr = proc.stderr.decode("utf-8", "backslashreplace")
        said = [line for line in stderr.splitlines() if line.startswith("simsift: ")]
        outcome = (
            proc.stdout.decode("utf-8", "backslashreplace").split("\n")[0]
            if proc.returncode == 0
            else (said[-1] if said else stderr.strip()[-300:])
        )
        tracebacks = stderr.count("Traceback")
        print(
            f"{megabytes} MB: exit code {proc.returncode}, {seconds:.1f} s, "
            f"{tracebacks} tracebacks: {outcome}"
        )


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
    main()
