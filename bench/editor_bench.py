"""The editor's case: an archive of about 2,500 real files in mixed formats,
scanned cold by an earlier engine and by today's, and each format's reading rate beside
the physical floor on this machine.

    python -m bench.editor_bench make DIR [--files 2500] [--seed 29]
    python -m bench.editor_bench run DIR --before 1fc2ae8 [--rounds 2] [--workers 2]
    python -m bench.editor_bench rates DIR --before 1fc2ae8 [--rounds 1] [--parts 8]
    python -m bench.editor_bench table DIR            # the last rates run's tables again
    python -m bench.editor_bench profile DIR          # cProfile of a cold scan, read in-process
    python -m bench.editor_bench grow DIR [--shares 0.25 0.5 1]

make: copies into DIR about 30% PDF (every distinct real PDF on this machine that holds
text, then man pages typeset by `groff -Tps | ps2pdf`), 20% DOCX and ODT (written from
rendered man pages with bench/docx_reader_bench.py's writers), 25% HTML (/usr/share/doc,
the Rust books and Rust by Example in Chinese, the repository's samples) and 25% plain
text (man pages as rendered in /tmp/man_txt, all their languages, and about 5% of the
archive Chinese: the zh_CN/zh_TW man pages, the repository's Chinese articles, programs'
Chinese messages cut into files of about 8 KB), plus the repository's odd samples (RTF,
DOC, encodings, corrupt files). A tenth of the DOCX files are man pages also in the archive
as PDF (a manuscript and its PDF). Scanned PDFs are left out: the engine before the reading
work had no OCR. The list of files is DIR.manifest.json (beside DIR, not in it).

run: cold scans of DIR (no catalog; `ScanOptions(roots=(DIR,), workers=2)`, as the app
with two reader processes), each in a fresh process, with the engine at --before and with
the work tree (--now; copied once at the start of the run, so that edits made meanwhile do
not mix into the rounds), alternated. Wall time, CPU time of the scan process and all below
it (readers are forked by a fork server: bench/process_tree.py samples them), each stage's
start (progress reports) and the reading stage's wall and CPU time; documents, garbled,
errors. The ratio now / before per round and its median.

rates: every file of DIR read by `read_file(ReadTask(...))` (extract, tokenize, hash, as a
reader process does) in one process, no pool, by each engine in a process of its own; each
round in --parts parts (every k-th file), the engines taking turns on each part so that a
file's readings by the two lie seconds apart; per file the best of the rounds; in each
process one file of each kind read first, untimed (imports, jieba's dictionary). Beside them
the floor: `Path.read_bytes` of every file (in the page cache: the files were just read,
nothing was dropped) and for PDFs `pdftotext -q FILE -` (a process per file). Rates per
format by CPU time (the machine is shared; the wall times are printed too), and per
document the CPU time of `extract` and of the rest (tokens, hashes, flags). The per-file
figures are kept in DIR.rates.json.

profile: the work tree's cold scan of DIR with workers=0 (files read in the scan process)
under cProfile: time per stage, per module and the largest functions.

grow: the work tree's cold scan of seeded parts of DIR with the same mix (hard links into
DIR.part-N/), each in a fresh process: how time grows with the number of files.
"""

from __future__ import annotations

import argparse
import contextlib
import gettext
import hashlib
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.engine_at import Engine, engine_at

ROOT = Path(__file__).resolve().parents[1]

MAN_TEXT = Path("/tmp/man_txt")
MAN_SOURCES = Path("/usr/share/man")
RUST_DOCS = Path.home() / ".rustup/toolchains/stable-x86_64-unknown-linux-gnu/share/doc/rust/html"
RUST_BOOKS = (
    "book",
    "reference",
    "nomicon",
    "cargo",
    "edition-guide",
    "rustc",
    "embedded-book",
    "error_codes",
    "style-guide",
)
REAL_PDFS = (Path("/tmp/pdfium_h/corpus"), Path("/tmp/pdfw"), ROOT / "tests/data/extract")
SAMPLES = ROOT / "tests/data/extract"
ZH_TEXT = ROOT / "tests/data/zh_text"
ZH_MESSAGES = (
    Path("/usr/share/locale/zh_CN/LC_MESSAGES"),
    Path("/usr/share/locale/zh_TW/LC_MESSAGES"),
)
KINDS = ("pdf", "docx", "odt", "html", "txt", "txt-zh", "other")
KIND_NAMES = {
    "pdf": "PDF",
    "docx": "DOCX",
    "odt": "ODT",
    "html": "HTML",
    "txt": "TXT",
    "txt-zh": "TXT (Chinese)",
    "other": "other (RTF, DOC, samples)",
}


# ---------------------------------------------------------------- the archive


def manifest_path(folder: Path) -> Path:
    return folder.parent / f"{folder.name}.manifest.json"


def load_manifest(folder: Path) -> list[dict]:
    return json.loads(manifest_path(folder).read_text())["files"]


def pdf_text_length(path: Path) -> int | None:
    """Non-space characters pdftotext finds, None when it fails (encrypted, broken)."""
    done = subprocess.run(["pdftotext", "-q", str(path), "-"], capture_output=True, timeout=120)
    if done.returncode:
        return None
    return len(re.sub(rb"\s+", b"", done.stdout))


def real_pdfs() -> list[Path]:
    """Every distinct PDF of REAL_PDFS that holds text or that pdftotext cannot open
    (encrypted, truncated: an archive holds such files); scanned ones left out."""
    seen: set[bytes] = set()
    found = []
    for folder in REAL_PDFS:
        for path in sorted(folder.rglob("*.pdf")):
            if not path.is_file():
                continue
            digest = hashlib.sha1(path.read_bytes()).digest()
            if digest in seen:
                continue
            seen.add(digest)
            length = pdf_text_length(path)
            if length is None or length >= 200:
                found.append(path)
    return found


def render_man_pdf(source: Path, target: Path) -> bool:
    """Typeset one man page to PDF (groff's PostScript through Ghostscript)."""
    import gzip

    raw = gzip.decompress(source.read_bytes()) if source.suffix == ".gz" else source.read_bytes()
    if raw.lstrip().startswith(b".so "):
        return False
    try:
        ps = subprocess.run(
            ["groff", "-man", "-Tps"],
            input=raw,
            capture_output=True,
            timeout=60,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
        )
        if ps.returncode or not ps.stdout:
            return False
        done = subprocess.run(
            ["ps2pdf", "-", str(target)], input=ps.stdout, capture_output=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        return False
    if done.returncode or not target.exists():
        target.unlink(missing_ok=True)
        return False
    length = pdf_text_length(target)
    if not length or length < 200:
        target.unlink()
        return False
    return True


def man_page_name(path: Path) -> str:
    """'ls.1' of /usr/share/man/man1/ls.1.gz or of /tmp/man_txt/man1/ls.1.txt."""
    return path.name.removesuffix(".gz").removesuffix(".txt")


def message_chunks(size: int = 8000) -> list[tuple[str, str]]:
    """(name, text): programs' Chinese messages (their .mo catalogs), in catalog order,
    cut into pieces of about `size` bytes; one message a line."""
    chunks = []
    for folder in ZH_MESSAGES:
        for path in sorted(folder.glob("*.mo"), key=lambda p: -p.stat().st_size):
            try:
                with path.open("rb") as handle:
                    catalog = gettext.GNUTranslations(handle)._catalog
            except (OSError, UnicodeDecodeError, ValueError):
                continue
            lines = [
                " ".join(str(v).split())
                for k, v in catalog.items()
                if k and isinstance(v, str) and re.search(r"[\u4e00-\u9fff]", v)
            ]
            piece: list[str] = []
            count = 0
            for line in lines:
                piece.append(line)
                count += len(line.encode())
                if count >= size:
                    name = f"{folder.parent.name}_{path.stem}_{len(chunks):03d}"
                    chunks.append((name, "\n".join(piece) + "\n"))
                    piece, count = [], 0
    return chunks


def make(folder: Path, files: int, seed: int) -> None:
    from bench.docx_reader_bench import man_blocks, write_docx, write_odt

    if folder.exists() and any(folder.iterdir()):
        raise SystemExit(f"{folder} is not empty")
    rng = random.Random(seed)
    quota = {
        "pdf": round(files * 0.30),
        "docx": round(files * 0.20),
        "html": round(files * 0.25),
        "txt": round(files * 0.20),
        "txt-zh": round(files * 0.05),
    }
    entries: list[dict] = []

    def add(kind: str, source: str, target: Path) -> None:
        entries.append({"path": str(target.relative_to(folder)), "kind": kind, "source": source})

    def copy(kind: str, source: Path, sub: str) -> None:
        target = folder / sub / f"{len(entries):04d}_{source.name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        add(kind, str(source), target)

    # odd samples of the repository (RTF, DOC, encodings, corrupt): what an archive also holds
    for path in sorted(SAMPLES.iterdir()):
        if path.is_file() and path.suffix in (".rtf", ".doc", ".docx", ".odt", ".txt"):
            kind = {".docx": "docx", ".odt": "odt", ".txt": "txt"}.get(path.suffix, "other")
            if kind == "txt" and path.name.startswith("zh_"):
                kind = "txt-zh"
            copy(kind, path, "samples")
    # PDF: the real ones, then man pages typeset
    pdfs = real_pdfs()
    for path in pdfs:
        copy("pdf", path, "pdf")
    print(f"{len(pdfs)} distinct real PDFs with text (or unreadable), copied", flush=True)
    man_pages = [
        p for p in sorted(MAN_SOURCES.glob("man[1-8]/*")) if p.is_file() and not p.is_symlink()
    ]
    rng.shuffle(man_pages)
    taken = {man_page_name(Path(p.name.removeprefix("man_"))) for p in pdfs}
    wanted = quota["pdf"] - sum(e["kind"] == "pdf" for e in entries)
    rendered: list[str] = []
    (folder / "pdf").mkdir(exist_ok=True)
    candidates = [p for p in man_pages if man_page_name(p) not in taken]

    def render(source: Path) -> tuple[Path, Path] | None:
        target = folder / "pdf" / f"man_{man_page_name(source)}.pdf"
        return (source, target) if render_man_pdf(source, target) else None

    start = time.perf_counter()
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        at = 0
        while len(rendered) < wanted and at < len(candidates):
            batch = candidates[at : at + (wanted - len(rendered)) + 8]
            at += len(batch)
            for done in pool.map(render, batch):
                if done is None:
                    continue
                source, target = done
                if len(rendered) < wanted:
                    renamed = target.with_name(f"{len(entries):04d}_{target.name}")
                    target.rename(renamed)
                    add("pdf", str(source), renamed)
                    rendered.append(man_page_name(source))
                else:
                    target.unlink()
    print(f"{len(rendered)} man pages typeset to PDF in {time.perf_counter() - start:.0f} s")
    # DOCX and ODT from rendered man pages (English sections); a tenth also typeset above
    texts = {man_page_name(p): p for p in sorted(MAN_TEXT.glob("man[1-8]/*.txt"))}
    pool_names = [n for n in sorted(texts) if n not in rendered and n not in taken]
    rng.shuffle(pool_names)
    doc_quota = quota["docx"] - sum(e["kind"] in ("docx", "odt") for e in entries)
    odt_count = doc_quota // 8
    twins = [n for n in rendered if n in texts]
    rng.shuffle(twins)
    chosen = twins[: doc_quota // 10]
    chosen += pool_names[: doc_quota * 2]  # some pages give too few paragraphs
    made = 0
    for name in chosen:
        if made == doc_quota:
            break
        title, blocks = man_blocks(texts[name])
        if len([b for b in blocks if b[0] == "p"]) < 3:
            continue
        odt = made < odt_count
        sub = "odt" if odt else "docx"
        target = folder / sub / f"{len(entries):04d}_{title}.{sub}"
        target.parent.mkdir(parents=True, exist_ok=True)
        (write_odt if odt else write_docx)(target, title, blocks, rng)
        add(sub, str(texts[name]), target)
        made += 1
    used = set(chosen[:made]) | set(rendered)
    # HTML
    html_pool = sorted(
        p
        for p in Path("/usr/share/doc").rglob("*.htm*")
        if p.is_file() and p.name != "all.html"  # nodejs's all.html: every other page again
    )
    html_pool += sorted(SAMPLES.glob("*.html")) + sorted(Path("/tmp/pdfw").glob("*.html"))
    rust = sorted(
        p
        for book in RUST_BOOKS
        for p in (RUST_DOCS / book).rglob("*.html")
        if p.name not in ("print.html", "toc.html", "404.html")
    )
    rust += sorted(
        p
        for p in (RUST_DOCS / "rust-by-example").glob("*.html")
        if p.name not in ("print.html", "toc.html", "404.html")
    )
    rust += sorted(
        p
        for p in (RUST_DOCS / "rust-by-example").glob("*/*.html")
        if p.parent.name not in ("ja", "ko", "es", "zh") and p.name != "print.html"
    )
    rust_zh = sorted(
        p
        for p in (RUST_DOCS / "rust-by-example/zh").rglob("*.html")
        if p.name not in ("print.html", "toc.html", "404.html")
    )
    html_left = quota["html"] - len(html_pool)
    zh_html = min(len(rust_zh), max(0, html_left) // 12)
    html_pool += rng.sample(rust_zh, zh_html)
    html_pool += rng.sample(rust, max(0, quota["html"] - len(html_pool)))
    for path in html_pool[: quota["html"]]:
        copy("html", path, "html")
    # plain text: man pages in every language but Chinese
    txt_pool = [
        p
        for p in sorted(MAN_TEXT.rglob("*.txt"))
        if p.relative_to(MAN_TEXT).parts[0] not in ("zh_CN", "zh_TW")
        and not (p.relative_to(MAN_TEXT).parts[0].startswith("man") and man_page_name(p) in used)
    ]
    wanted = quota["txt"] - sum(e["kind"] == "txt" for e in entries)
    for path in rng.sample(txt_pool, wanted):
        copy("txt", path, f"txt/{path.relative_to(MAN_TEXT).parts[0]}")
    # Chinese text
    zh = sorted((MAN_TEXT / "zh_CN").rglob("*.txt")) + sorted((MAN_TEXT / "zh_TW").rglob("*.txt"))
    zh += sorted(ZH_TEXT.glob("*.txt"))
    for path in zh[: quota["txt-zh"]]:
        copy("txt-zh", path, "zh")
    chunks = message_chunks()
    for name, text in rng.sample(chunks, max(0, quota["txt-zh"] - len(zh))):
        target = folder / "zh" / f"{len(entries):04d}_{name}.txt"
        target.write_text(text, encoding="utf-8")
        add("txt-zh", f"{name} (.mo messages)", target)
    manifest_path(folder).write_text(
        json.dumps({"seed": seed, "files": entries}, indent=0, ensure_ascii=False)
    )
    describe(folder)


def describe(folder: Path) -> None:
    entries = load_manifest(folder)
    total = sum((folder / e["path"]).stat().st_size for e in entries)
    print(f"{len(entries)} files, {total / 2**20:.1f} MB in {folder}")
    for kind in KINDS:
        sizes = sorted((folder / e["path"]).stat().st_size for e in entries if e["kind"] == kind)
        if sizes:
            print(
                f"  {KIND_NAMES[kind]:26} {len(sizes):5} files"
                f" ({100 * len(sizes) / len(entries):4.1f}%)"
                f" {sum(sizes) / 2**20:7.1f} MB, median {statistics.median(sizes) / 1024:6.1f} KB,"
                f" largest {sizes[-1] / 1024:7.0f} KB"
            )


# ---------------------------------------------------------------- engines


def child(engine: Engine, *args: str) -> dict:
    """Run this script's `args` in a fresh process whose simsift is `engine`; the JSON it
    writes."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
        pass
    done = subprocess.run(
        [sys.executable, "-m", "bench.editor_bench", *args, "--out", out.name],
        env=engine.env(),
        cwd="/tmp",
    )
    if done.returncode:
        raise SystemExit(f"{' '.join(args)} with {engine.shim} failed ({done.returncode})")
    data = json.loads(Path(out.name).read_text())
    os.unlink(out.name)
    expected = (engine.shim / "simsift" / "core").resolve()
    if Path(data["engine_path"]) != expected:
        raise SystemExit(f"the child imported {data['engine_path']}, not {expected}")
    return data


def engine_path() -> str:
    import simsift.core

    return str(Path(simsift.core.__file__).resolve().parent)


# ---------------------------------------------------------------- cold scans


def tree_cpu(tree) -> float:
    for _ in range(5):
        with contextlib.suppress(RuntimeError):  # the sampler added a process meanwhile
            return sum(list(tree._cpu.values()))
    return tree.cpu_seconds


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def scan_child(folder: Path, workers: int, out: Path) -> None:
    """One cold scan of `folder` in this process: times, stages, counts, as JSON."""
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.progress import Progress

    from bench.process_tree import ProcessTree

    stages: list[tuple[str, float, float]] = []  # (stage, wall, CPU) at its first report
    cpu0 = own_cpu()

    def progress(p: Progress) -> None:
        if p.stage not in {s[0] for s in stages}:
            cpu = own_cpu() - cpu0 + tree_cpu(tree)
            stages.append((p.stage, time.perf_counter() - start, cpu))

    start = time.perf_counter()
    with ProcessTree() as tree:
        result = scan(ScanOptions(roots=(str(folder),), workers=workers), progress=progress)
        wall = time.perf_counter() - start
        cpu = own_cpu() - cpu0 + tree_cpu(tree)
    cpu_all = own_cpu() - cpu0 + tree.cpu_seconds
    stage_times = {}
    for k, (name, at, at_cpu) in enumerate(stages):
        end, end_cpu = (stages[k + 1][1], stages[k + 1][2]) if k + 1 < len(stages) else (wall, cpu)
        stage_times[name] = (end - at, end_cpu - at_cpu)
    formats: dict[str, int] = {}
    for record in result.documents:
        formats[record.format] = formats.get(record.format, 0) + 1
    garbled = getattr(result, "garbled", ())
    data = {
        "engine_path": engine_path(),
        "wall": wall,
        "cpu": cpu_all,
        "scan_process_cpu": own_cpu() - cpu0,
        "stages": stage_times,
        "documents": len(result.documents),
        "garbled": len(garbled),
        "errors": sorted(f"{Path(e.path).name}: {e.message}" for e in result.errors),
        "skipped": len(result.skipped),
        "formats": formats,
        "pairs": len(result.pairs),
        "largest_reader_mb": tree.largest_mb,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    out.write_text(json.dumps(data))


def show_scan(label: str, data: dict) -> None:
    reading = data["stages"].get("reading", (0.0, 0.0))
    stages = ", ".join(f"{k} {w:.1f}" for k, (w, _) in data["stages"].items())
    print(
        f"  {label:7} wall {data['wall']:6.1f} s  CPU {data['cpu']:6.1f} s "
        f"(scan process {data['scan_process_cpu']:5.1f})  reading {reading[0]:6.1f} s wall, "
        f"{reading[1]:6.1f} s CPU  | {data['documents']} documents, {data['garbled']} garbled, "
        f"{len(data['errors'])} errors, {data['skipped']} skipped, {data['pairs']} pairs  "
        f"| stages (s): {stages}",
        flush=True,
    )


def run(folder: Path, before: str, now: str, rounds: int, workers: int) -> None:
    engines = {"before": engine_at(before), "now": engine_at(now)}
    for name, engine in engines.items():
        print(f"{name}: {engine.description}  ({engine.shim})")
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    results: dict[str, list[dict]] = {"before": [], "now": []}
    for r in range(rounds):
        order = ("before", "now") if r % 2 == 0 else ("now", "before")
        print(f"round {r + 1} (load {os.getloadavg()[0]:.1f})", flush=True)
        for name in order:
            data = child(engines[name], "_scan", str(folder), "--workers", str(workers))
            results[name].append(data)
            show_scan(name, data)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")

    def ratios(key) -> list[float]:
        return [key(n) / key(b) for b, n in zip(results["before"], results["now"], strict=True)]

    measures = {
        "wall": lambda d: d["wall"],
        "CPU": lambda d: d["cpu"],
        "reading wall": lambda d: d["stages"]["reading"][0],
        "reading CPU": lambda d: d["stages"]["reading"][1],
        "after reading, wall": lambda d: (
            d["wall"] - sum(w for k, (w, _) in d["stages"].items() if k in ("finding", "reading"))
        ),
    }
    print(f"\nmedians of {rounds} rounds:          before      now   now/before (per round)")
    for label, key in measures.items():
        b = statistics.median(key(d) for d in results["before"])
        n = statistics.median(key(d) for d in results["now"])
        per = " ".join(f"{x:.3f}" for x in ratios(key))
        print(f"  {label:22} {b:8.1f} s {n:8.1f} s   {statistics.median(ratios(key)):.3f}  ({per})")
    target = statistics.median(ratios(measures["wall"]))
    print(
        "target against the engine before the reading work (1fc2ae8): now/before <= 0.40 "
        f"(wall); measured {target:.3f}: "
        + ("met" if target <= 0.40 else f"missed ({target / 0.40:.2f} times the target)")
    )
    last_b, last_n = results["before"][-1], results["now"][-1]
    for key in ("documents", "garbled", "skipped"):
        print(f"  {key}: before {last_b[key]}, now {last_n[key]}")
    print(f"  formats before: {last_b['formats']}\n  formats now:    {last_n['formats']}")
    only_b = sorted(set(last_b["errors"]) - set(last_n["errors"]))
    only_n = sorted(set(last_n["errors"]) - set(last_b["errors"]))
    common = sorted(set(last_b["errors"]) & set(last_n["errors"]))
    print(f"  errors in both: {len(common)}")
    for line in common:
        print(f"    {line}")
    for label, lines in (("before only", only_b), ("now only", only_n)):
        print(f"  errors {label}: {len(lines)}")
        for line in lines:
            print(f"    {line}")


# ---------------------------------------------------------------- per-format rates


def read_child(folder: Path, out: Path, part: str = "0/1") -> None:
    """Every file of the manifest (of its `part`, "i/k": every k-th file from the i-th)
    read by this engine's `read_file`, one at a time: per file wall and CPU seconds (and of
    `extract` alone), status, body tokens."""
    import dataclasses

    import simsift.core.read.extract as extract_module
    from simsift.core.read.reader import ReadTask, read_file

    index, parts = (int(n) for n in part.split("/"))
    entries = load_manifest(folder)[index::parts]
    fields = {f.name for f in dataclasses.fields(ReadTask)}
    from simsift.core.pipeline.options import ScanOptions

    options = ScanOptions(roots=(str(folder),), workers=0)
    spent = [0.0, 0.0]
    real_extract = extract_module.extract

    def timed_extract(*args, **kwargs):
        w, c = time.perf_counter(), time.process_time()
        try:
            return real_extract(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - w
            spent[1] += time.process_time() - c

    extract_module.extract = timed_extract

    def task(path: Path) -> ReadTask:
        stat = path.stat()
        values = {
            "path": str(path),
            "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns,
            "max_bytes": options.max_file_bytes,
            "traditional_to_simplified": options.traditional_to_simplified,
            "ocr": getattr(options, "ocr", True),
        }
        return ReadTask(**{k: v for k, v in values.items() if k in fields})

    first: dict[str, str] = {}
    for e in entries:
        first.setdefault(e["kind"], e["path"])
    for rel in first.values():  # imports, jieba's dictionary: once per reader process
        read_file(task(folder / rel))
    rows = []
    for e in entries:
        path = folder / e["path"]
        spent[:] = [0.0, 0.0]
        w, c = time.perf_counter(), time.process_time()
        record = read_file(task(path))
        wall, cpu = time.perf_counter() - w, time.process_time() - c
        tokens = getattr(getattr(record, "tokens", None), "body", None)
        rows.append(
            {
                "path": e["path"],
                "wall": wall,
                "cpu": cpu,
                "extract_wall": spent[0],
                "extract_cpu": spent[1],
                "status": record.status,
                "message": record.message or "",
                "tokens": 0 if tokens is None else len(tokens),
            }
        )
    out.write_text(json.dumps({"engine_path": engine_path(), "rows": rows}))


def floors(folder: Path, entries: list[dict]) -> dict[str, dict[str, tuple[float, float]]]:
    """Per file: ("bytes": (wall, CPU) of Path.read_bytes), for PDFs also ("pdftotext": ...)."""
    result: dict[str, dict[str, tuple[float, float]]] = {}
    for e in entries:
        path = folder / e["path"]
        w, c = time.perf_counter(), time.process_time()
        path.read_bytes()
        result[e["path"]] = {"bytes": (time.perf_counter() - w, time.process_time() - c)}
    if shutil.which("pdftotext"):
        for e in entries:
            if e["kind"] != "pdf":
                continue
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            w = time.perf_counter()
            subprocess.run(
                ["pdftotext", "-q", str(folder / e["path"]), "-"], capture_output=True, timeout=120
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            result[e["path"]]["pdftotext"] = (time.perf_counter() - w, cpu)
    return result


def slope(sizes: list[float], seconds: list[float]) -> float:
    """Least-squares slope of log(seconds) on log(size): 1 is linear in the file's size."""
    import math

    xs = [math.log(s) for s, t in zip(sizes, seconds, strict=True) if s > 0 and t > 0]
    ys = [math.log(t) for s, t in zip(sizes, seconds, strict=True) if s > 0 and t > 0]
    if len(xs) < 3:
        return float("nan")
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var if var else 0.0


def rates(folder: Path, before: str, now: str, rounds: int, parts: int = 1) -> None:
    """Each round reads the archive in `parts` (every parts-th file), the engines taking
    turns on each part (in the order before, now, then now, before, ...): a file's two
    readings lie seconds apart, not a whole archive's reading, so a stretch of a busy
    shared machine slows both alike."""
    entries = load_manifest(folder)
    engines = {"before": engine_at(before), "now": engine_at(now)}
    for name, engine in engines.items():
        print(f"{name}: {engine.description}")
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    best: dict[str, dict[str, dict]] = {"before": {}, "now": {}}
    bottom: dict[str, dict[str, tuple[float, float]]] = {}
    turn = 0
    for r in range(rounds):
        spent = {"before": 0.0, "now": 0.0}
        for part in range(parts):
            order = ("before", "now") if turn % 2 == 0 else ("now", "before")
            turn += 1
            for name in order:
                start = time.perf_counter()
                which = ("--part", f"{part}/{parts}")
                rows = child(engines[name], "_read", str(folder), *which)["rows"]
                spent[name] += time.perf_counter() - start
                _keep_best(best[name], rows)
        print(
            f"round {r + 1}: before read in {spent['before']:.0f} s, now in {spent['now']:.0f} s",
            flush=True,
        )
        this = floors(folder, entries)
        for path, values in this.items():
            for key, (w, c) in values.items():
                old = bottom.setdefault(path, {}).get(key, (float("inf"), float("inf")))
                bottom[path][key] = (min(old[0], w), min(old[1], c))
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    saved = {
        "engines": {name: engine.description for name, engine in engines.items()},
        "rounds": rounds,
        "best": best,
        "floor": bottom,
    }
    rates_path(folder).write_text(json.dumps(saved))
    show_rates(folder)


def _keep_best(best: dict[str, dict], rows: list[dict]) -> None:
    """Each file's least times of the rows read so far."""
    for row in rows:
        kept = best.get(row["path"])
        if kept is None:
            best[row["path"]] = row
        else:
            for key in ("wall", "cpu", "extract_wall", "extract_cpu"):
                kept[key] = min(kept[key], row[key])


def rates_path(folder: Path) -> Path:
    return folder.parent / f"{folder.name}.rates.json"


def show_rates(folder: Path) -> None:
    """The tables of the last `rates` run on `folder` (saved beside it)."""
    saved = json.loads(rates_path(folder).read_text())
    best, bottom, rounds = saved["best"], saved["floor"], saved["rounds"]
    entries = load_manifest(folder)
    print(f"before: {saved['engines']['before']}; now: {saved['engines']['now']}")
    size = {e["path"]: (folder / e["path"]).stat().st_size for e in entries}
    print(
        f"\nper format, one process, best of {rounds} round(s) per file; rates by CPU time "
        "(documents/s, MB of files/s); ms a document: extract + the rest (tokens, hashes, flags)"
    )
    header = (
        "| format | files | MB | before docs/s | now docs/s | now MB/s | now / before | "
        "ms/doc before | ms/doc now | read_bytes MB/s | pdftotext docs/s | now / pdftotext |"
    )
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    growth = []
    for kind in (*KINDS, "all"):
        paths = [e["path"] for e in entries if kind in ("all", e["kind"])]
        if not paths:
            continue
        mb = sum(size[p] for p in paths) / 2**20
        b = sum(best["before"][p]["cpu"] for p in paths)
        n = sum(best["now"][p]["cpu"] for p in paths)
        split = {}
        for name in ("before", "now"):
            ex = 1000 * sum(best[name][p]["extract_cpu"] for p in paths) / len(paths)
            whole = 1000 * sum(best[name][p]["cpu"] for p in paths) / len(paths)
            split[name] = f"{ex:.1f} + {whole - ex:.1f}"
        raw = sum(bottom[p]["bytes"][1] for p in paths) or 1e-9
        pdft = [bottom[p]["pdftotext"][1] for p in paths if "pdftotext" in bottom[p]]
        pdft_rate = f"{len(pdft) / sum(pdft):.1f}" if pdft and kind == "pdf" else ""
        pdft_ratio = f"{n / sum(pdft):.2f}x" if pdft and kind == "pdf" else ""
        print(
            f"| {KIND_NAMES.get(kind, 'all files')} | {len(paths)} | {mb:.1f} | "
            f"{len(paths) / b:.1f} | {len(paths) / n:.1f} | {mb / n:.2f} | {n / b:.2f} | "
            f"{split['before']} | {split['now']} | {mb / raw:,.0f} | {pdft_rate} | {pdft_ratio} |"
        )
        if kind != "all":
            growth.append(
                (
                    kind,
                    slope([size[p] for p in paths], [best["now"][p]["cpu"] for p in paths]),
                    slope([size[p] for p in paths], [best["before"][p]["cpu"] for p in paths]),
                )
            )
    wall_b = sum(r["wall"] for r in best["before"].values())
    wall_n = sum(r["wall"] for r in best["now"].values())
    cpu_b = sum(r["cpu"] for r in best["before"].values())
    cpu_n = sum(r["cpu"] for r in best["now"].values())
    print(
        f"all files: before {wall_b:.1f} s wall / {cpu_b:.1f} s CPU, now {wall_n:.1f} s wall / "
        f"{cpu_n:.1f} s CPU (now/before {wall_n / wall_b:.3f} wall, {cpu_n / cpu_b:.3f} CPU)"
    )
    pdf_paths = [
        e["path"] for e in entries if e["kind"] == "pdf" and "pdftotext" in bottom[e["path"]]
    ]
    if pdf_paths:
        pw = sum(bottom[p]["pdftotext"][0] for p in pdf_paths)
        rate = len(pdf_paths) / pw
        print(f"pdftotext wall over {len(pdf_paths)} PDFs: {pw:.1f} s ({rate:.1f} docs/s)")
    print("\nhow a file's reading time grows with its size (slope of log CPU s on log bytes):")
    for kind, now_slope, before_slope in growth:
        print(f"  {KIND_NAMES[kind]:26} now {now_slope:.2f}, before {before_slope:.2f}")
    print("\nthe slowest files now (CPU s, before):")
    slowest = sorted(best["now"].values(), key=lambda r: -r["cpu"])[:8]
    for row in slowest:
        print(
            f"  {row['path']}: {row['cpu']:.2f} s ({size[row['path']] / 1024:.0f} KB), "
            f"before {best['before'][row['path']]['cpu']:.2f} s"
        )
    differ = []
    for e in entries:
        b, n = best["before"][e["path"]], best["now"][e["path"]]
        if b["status"] != n["status"]:
            differ.append(
                f"{e['path']}: before {b['status']} {b['message']}, "
                f"now {n['status']} {n['message']}"
            )
    print(f"\nfiles read with another outcome (ok/error/skipped) by the two engines: {len(differ)}")
    for line in differ:
        print(f"  {line}")
    tokens_b = sum(best["before"][p]["tokens"] for p in best["before"])
    tokens_n = sum(best["now"][p]["tokens"] for p in best["now"])
    print(f"body tokens: before {tokens_b:,}, now {tokens_n:,}")


# ---------------------------------------------------------------- profile and growth


def profile_child(folder: Path, out: Path) -> None:
    """cProfile of a cold scan with workers=0 (every file read in this process)."""
    import cProfile
    import pstats

    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.progress import Progress

    began: dict[str, float] = {}

    def progress(p: Progress) -> None:
        began.setdefault(p.stage, time.perf_counter() - start)

    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    result = scan(ScanOptions(roots=(str(folder),), workers=0), progress=progress)
    profiler.disable()
    wall = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    by_file: dict[str, float] = {}
    functions = []
    cumulative = {}
    for (filename, line, name), (_, _, tottime, cumtime, _) in stats.stats.items():
        short = re.sub(r".*/(site-packages|src|main)/", "", filename)
        by_file[short] = by_file.get(short, 0.0) + tottime
        functions.append((tottime, f"{short}:{line} {name}"))
        cumulative[f"{short}:{line} {name}"] = cumtime
    data = {
        "engine_path": engine_path(),
        "wall": wall,
        "began": began,
        "documents": len(result.documents),
        "by_file": sorted(by_file.items(), key=lambda kv: -kv[1])[:30],
        "functions": sorted(functions, reverse=True)[:30],
        "cumulative": sorted(cumulative.items(), key=lambda kv: -kv[1])[:60],
    }
    out.write_text(json.dumps(data))


def profile(folder: Path, now: str) -> None:
    engine = engine_at(now)
    print(f"engine: {engine.description}; workers=0, cProfile (its overhead inflates", end=" ")
    print("Python-heavy code)")
    data = child(engine, "_profile", str(folder))
    print(f"{data['documents']} documents, {data['wall']:.1f} s under cProfile")
    began = sorted(data["began"].items(), key=lambda kv: kv[1])
    for k, (stage, at) in enumerate(began):
        end = began[k + 1][1] if k + 1 < len(began) else data["wall"]
        print(f"  {stage:15} {end - at:7.1f} s ({(end - at) / data['wall']:.0%})")
    print("own time by file:")
    for name, seconds in data["by_file"]:
        print(f"  {seconds:7.1f} s {seconds / data['wall']:5.1%}  {name}")
    print("largest functions (own time):")
    for seconds, name in data["functions"]:
        print(f"  {seconds:7.1f} s  {name}")
    print("cumulative:")
    for name, seconds in data["cumulative"]:
        print(f"  {seconds:7.1f} s  {name}")


def grow(folder: Path, now: str, shares: list[float], workers: int, seed: int) -> None:
    engine = engine_at(now)
    entries = load_manifest(folder)
    print(f"engine: {engine.description}; {workers} reader processes, a fresh process per part")
    rng = random.Random(seed)
    order = {kind: [e for e in entries if e["kind"] == kind] for kind in KINDS}
    for files in order.values():
        rng.shuffle(files)
    for share in shares:
        part = folder.parent / f"{folder.name}.part-{share:g}"
        if share >= 1:
            part = folder
        elif not part.exists():
            for files in order.values():
                for e in files[: round(len(files) * share)]:
                    target = part / e["path"]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.link(folder / e["path"], target)
        mb = sum(p.stat().st_size for p in part.rglob("*") if p.is_file()) / 2**20
        data = child(engine, "_scan", str(part), "--workers", str(workers))
        per = 1000 / max(1, data["documents"] + data["garbled"])
        print(f"share {share:g}: {mb:.0f} MB (load {os.getloadavg()[0]:.1f})")
        show_scan("now", data)
        print(
            f"    per 1,000 documents: wall {data['wall'] * per:.1f} s,"
            f" CPU {data['cpu'] * per:.1f} s,"
            + ", ".join(f" {k} {w * per:.1f} s" for k, (w, _) in data["stages"].items())
        )


# ---------------------------------------------------------------- command line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("make")
    p.add_argument("folder", type=Path)
    p.add_argument("--files", type=int, default=2500)
    p.add_argument("--seed", type=int, default=29)
    for name in ("describe", "table"):
        p = sub.add_parser(name)
        p.add_argument("folder", type=Path)
    for name in ("run", "rates", "profile", "grow"):
        p = sub.add_parser(name)
        p.add_argument("folder", type=Path)
        p.add_argument("--now", default="worktree", help="a commit, or worktree (default)")
        if name in ("run", "rates"):
            p.add_argument("--before", default="1fc2ae8")
            p.add_argument("--rounds", type=int, default=2 if name == "run" else 1)
        if name == "rates":
            p.add_argument("--parts", type=int, default=8, help="engines take turns on each part")
        if name in ("run", "grow"):
            p.add_argument("--workers", type=int, default=2)
        if name == "grow":
            p.add_argument("--shares", type=float, nargs="+", default=[0.25, 0.5, 1.0])
            p.add_argument("--seed", type=int, default=29)
    for name in ("_scan", "_read", "_profile"):  # children, in a fresh process per engine
        p = sub.add_parser(name)
        p.add_argument("folder", type=Path)
        p.add_argument("--out", type=Path, required=True)
        p.add_argument("--workers", type=int, default=2)
        if name == "_read":
            p.add_argument("--part", default="0/1")
    args = parser.parse_args()
    folder = args.folder.resolve()
    if args.command == "make":
        make(folder, args.files, args.seed)
    elif args.command == "describe":
        describe(folder)
    elif args.command == "table":
        show_rates(folder)
    elif args.command == "run":
        run(folder, args.before, args.now, args.rounds, args.workers)
    elif args.command == "rates":
        rates(folder, args.before, args.now, args.rounds, args.parts)
    elif args.command == "profile":
        profile(folder, args.now)
    elif args.command == "grow":
        grow(folder, args.now, args.shares, args.workers, args.seed)
    elif args.command == "_scan":
        scan_child(folder, args.workers, args.out)
    elif args.command == "_read":
        read_child(folder, args.out, args.part)
    elif args.command == "_profile":
        profile_child(folder, args.out)


if __name__ == "__main__":
    main()
