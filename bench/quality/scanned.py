"""Scanned tier of the quality bench: the generated corpus's documents as text PDFs and as
scans of those PDFs, read and compared by SimSift.

    python -m bench.quality.scanned                    # 120 documents of the small corpus
    python -m bench.quality.scanned --documents 60     # quicker
    python -m bench.quality.scanned --documents 0      # every document (~380: 3 times the work)
    python -m bench.quality.scanned --json /tmp/simsift-scanned/scanned-small-120.json
    python -m bench.quality.scanned --from-json /tmp/simsift-scanned/scanned-small-120.json

A sample of the corpus of `generate.py` (whole groups of documents joined by labeled
relations, every relation kind in turn, plus a template group and standalone documents
as negatives) is written as text PDFs (`render.write_docx`, then LibreOffice as
`render.docx_to_pdf`); an exact copy is the same PDF's bytes. Each PDF then gets a scanned
twin: its pages rasterised with PDFium and degraded by a seeded plan, one degradation per
document, dealt in turn within each language:

- clean-300: 300 dpi, grey; clean-200: 200 dpi, grey;
- rotated: 300 dpi, turned 1-2 degrees either way;
- blur: 300 dpi, Gaussian blur of radius 1.0-1.6 px;
- noise: 300 dpi, Gaussian noise (sigma 8-14) and salt-and-pepper on 0.5-1.5% of the pixels;
- photo: photographed: colour, perspective (corners moved up to 3% of the page), turned
  0.5-2.5 degrees, dark desk around the page, light falling off across the page and to the
  corners, blur, noise, 200 dpi, JPEG quality 55-70.

Grey pages are stored as JPEG (quality 90), every page as an image-only PDF (Pillow); an
exact copy's scan is the same bytes as its original's scan.

Three scans of SimSift (`core.pipeline.scan.scan`, OCR on, one catalog shared so no file
is read twice): the text PDFs, the scans, and mixed (the original of each labeled pair as
a text PDF, the derived document scanned). Reported:

- CER per language and degradation: edit distance between the known text (title and
  paragraphs from the generator) and the text the scan read from the file (title and
  paragraphs), whitespace removed, NFKC, over the known text's length (the definition of
  docs/extraction.md); pooled over the documents (all edits over all known characters);
  a file the scan could not read counts as all wrong. The text PDFs' CER is the baseline.
  Also with letters and digits alone (punctuation misread does not count).
- Seconds per page: wall-clock time each file took in its reader (two readers at once
  with --workers 2), from the scan's page-progress reports, over its pages (none without
  such reports: an older engine); the reading stage's time times the readers over all
  pages read; and wall-clock and CPU seconds (with Tesseract's) per page of a few clean
  300-dpi scans read again one at a time in this process (--probe), which depend much
  less on what else the machine is doing.
- Recall of every relation kind (score.py, as run.py scores: whole-document pairs within
  the default k plus partial-copy pairs) on each tier, and the ratio scans / text PDFs.

The work goes to /tmp/simsift-scanned/<size>-<documents>-<seed>-<plan seed>; with
--reuse, files already there are used again (the scans are still run).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from itertools import cycle
from pathlib import Path

import numpy as np

from bench.quality.score import POSITIVE_KINDS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

DEGRADATIONS = ("clean-300", "clean-200", "rotated", "blur", "noise", "photo")
DPI = {"clean-200": 200, "photo": 200}  # others: 300
GREY_JPEG_QUALITY = 90
NEGATIVE_SHARE = 0.15  # of the sample: a template group and standalone documents
TIERS = ("text", "scanned", "mixed")
_CONFIDENCE = re.compile(r"mean confidence ([\d.]+)")


# ---------------------------------------------------------------- character error rate


def cer_text(text: str) -> str:
    """Text as the CER compares it: NFKC, whitespace removed."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions of one character).

    One row of the table at a time over the shorter string, each row in numpy: deletions
    and substitutions from the row above, insertions as a running minimum along the row
    (cur[j] = min over i <= j of tmp[i] + j - i)."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    columns = np.frombuffer(a.encode("utf-32-le"), dtype=np.uint32)
    index = np.arange(len(a) + 1, dtype=np.int64)
    row = index.copy()
    tmp = np.empty_like(row)
    for i, char in enumerate(b, start=1):
        cost = (columns != ord(char)).astype(np.int64)
        tmp[0] = i
        np.minimum(row[1:] + 1, row[:-1] + cost, out=tmp[1:])
        row = np.minimum.accumulate(tmp - index) + index
    return int(row[-1])


def text_words(text: str) -> list[str]:
    """Latin words and Chinese characters, lower-cased (what a photographed page loses)."""
    return re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", text.lower())


def cer(known: str, read: str, letters_only: bool = False) -> tuple[int, int]:
    """(edits, known characters) of `read` against `known`, both as `cer_text`; with
    `letters_only`, letters and digits alone (what the comparison's words are made of:
    punctuation and quotes misread do not count)."""
    k, r = cer_text(known), cer_text(read)
    if letters_only:
        k, r = "".join(filter(str.isalnum, k)), "".join(filter(str.isalnum, r))
    return edit_distance(k, r), len(k)


# ---------------------------------------------------------------- the sample


def components(n: int, pairs: list[tuple[int, int]]) -> list[list[int]]:
    """Groups of documents joined by pairs (connected components), each sorted; documents
    in no pair are left out."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        parent[find(a)] = find(b)
    groups: dict[int, list[int]] = defaultdict(list)
    for a in sorted({x for p in pairs for x in p}):
        groups[find(a)].append(a)
    return sorted(groups.values())


def choose_sample(
    pairs: list[tuple[int, int, str]],
    negatives: list[list[int]],
    n: int,
    rng: random.Random,
    negative_share: float = NEGATIVE_SHARE,
) -> list[int]:
    """Documents to keep: whole groups joined by labeled pairs, taken for each relation
    kind in turn until about `n * (1 - negative_share)` documents, then groups of
    `negatives` (template groups, then standalone documents) up to `n`. n <= 0: all."""
    total = 1 + max([x for a, b, _ in pairs for x in (a, b)] + [x for g in negatives for x in g])
    if n <= 0:
        return sorted({x for a, b, _ in pairs for x in (a, b)} | {x for g in negatives for x in g})
    groups = components(total, [(a, b) for a, b, _ in pairs])
    kinds_of: dict[int, set[str]] = defaultdict(set)
    where = {x: i for i, g in enumerate(groups) for x in g}
    for a, _, kind in pairs:
        kinds_of[where[a]].add(kind)
    order = list(range(len(groups)))
    rng.shuffle(order)
    by_kind = {k: [g for g in order if k in kinds_of[g]] for k in POSITIVE_KINDS}
    budget = round(n * (1 - negative_share))
    taken: set[int] = set()
    chosen: list[int] = []
    stuck = 0
    for kind in cycle(POSITIVE_KINDS):
        if len(chosen) >= budget or stuck > len(POSITIVE_KINDS):
            break
        fits = [g for g in by_kind[kind] if g not in taken and len(chosen) + len(groups[g]) <= n]
        if not fits:
            stuck += 1
            continue
        stuck = 0
        taken.add(fits[0])
        chosen += groups[fits[0]]
    for group in negatives:
        if len(chosen) + len(group) <= n:
            chosen += group
    return sorted(chosen)


def build_sample(size: str, seed: int, n: int, plan_seed: int) -> dict:
    """The corpus of `generate.build` cut to a sample: labels in score.py's form (file names
    docs/dNNNNN.pdf), known texts, languages, exact copies' sources."""
    from bench.quality import generate

    corpus = generate.build(seed, generate.SIZES[size], False)
    number = {id(e): i for i, e in enumerate(corpus.entries)}
    pairs = [(number[id(a)], number[id(b)], kind) for a, b, kind, _ in corpus.pairs]
    rng = random.Random(plan_seed)
    templates: dict[int, list[int]] = defaultdict(list)
    for i, e in enumerate(corpus.entries):
        if e.template is not None:
            templates[e.template].append(i)
    standalone = [[i] for i, e in enumerate(corpus.entries) if e.role == "standalone"]
    rng.shuffle(standalone)
    negatives = [templates[min(templates)]] if templates else []
    chosen = choose_sample(pairs, negatives + standalone, n, rng)
    names = list(range(len(chosen)))
    rng.shuffle(names)
    name = {i: f"d{names[j]:05d}.pdf" for j, i in enumerate(chosen)}
    kept = set(chosen)
    entries = corpus.entries
    documents = [
        {
            "file": "docs/" + name[i],
            "family": entries[i].family,
            "group": entries[i].group,
            "lang": entries[i].lang,
            "role": entries[i].role,
            "template": entries[i].template,
        }
        for i in chosen
    ]
    labeled = [
        {"a": "docs/" + name[number[id(a)]], "b": "docs/" + name[number[id(b)]], "kind": kind}
        | detail
        for a, b, kind, detail in corpus.pairs
        if number[id(a)] in kept and number[id(b)] in kept
    ]
    known = {name[i]: (entries[i].text.title, list(entries[i].text.paragraphs)) for i in chosen}
    copy_of = {
        name[i]: name[number[id(entries[i].source)]]
        for i in chosen
        if entries[i].fmt == "copy" and number[id(entries[i].source)] in kept
    }
    return {
        "labels": {
            "seed": seed,
            "documents": documents,
            "pairs": labeled,
            "partial_links": [list(link) for link in corpus.links],
            "reference": [],
        },
        "known": known,
        "copy_of": copy_of,
    }


def degradation_plan(documents: list[dict], copy_of: dict[str, str], seed: int) -> dict:
    """Degradation of each file: dealt in turn over `DEGRADATIONS` within each language, in
    a seeded order; an exact copy has its original's."""
    rng = random.Random(seed)
    plan: dict[str, str] = {}
    for lang in sorted({d["lang"] for d in documents}):
        names = [Path(d["file"]).name for d in documents if d["lang"] == lang]
        names = [n for n in sorted(names) if n not in copy_of]
        rng.shuffle(names)
        kinds = list(DEGRADATIONS)
        rng.shuffle(kinds)  # which degradation gets the odd documents
        for name, kind in zip(names, cycle(kinds), strict=False):
            plan[name] = kind
    for copy, original in copy_of.items():
        plan[copy] = plan[original]
    return plan


# ---------------------------------------------------------------- degradations


def perspective_coefficients(
    to: list[tuple[float, float]], frm: list[tuple[float, float]]
) -> list[float]:
    """Pillow's PERSPECTIVE data mapping points `to` of the output to points `frm` of the
    input (four corners each)."""
    rows = []
    for (x, y), (u, v) in zip(to, frm, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    rhs = np.array([c for p in frm for c in p], float)
    return np.linalg.solve(np.array(rows, float), rhs).tolist()


def _rotate_grey(image, angle: float):
    from PIL import Image

    return image.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=255)


def _clip(a: np.ndarray):
    from PIL import Image

    return Image.fromarray(np.clip(np.rint(a), 0, 255).astype(np.uint8))


def degrade(image, kind: str, rng: random.Random, scale: float = 1.0):
    """One page image (grey "L"; RGB for "photo") degraded as `kind` says; a photograph
    comes out `scale` times as large (the others as large as they went in)."""
    from PIL import ImageFilter

    if kind in ("clean-300", "clean-200"):
        return image
    if kind == "rotated":
        return _rotate_grey(image, rng.choice((-1, 1)) * rng.uniform(1.0, 2.0))
    if kind == "blur":
        return image.filter(ImageFilter.GaussianBlur(rng.uniform(1.0, 1.6)))
    np_rng = np.random.default_rng(rng.getrandbits(64))
    if kind == "noise":
        sigma = rng.uniform(8, 14)
        a = np.asarray(image, np.float32)
        a = a + sigma * np_rng.standard_normal(a.shape, dtype=np.float32)
        share = rng.uniform(0.005, 0.015)
        hit = np_rng.random(a.shape, dtype=np.float32) < share
        a[hit] = np.where(np_rng.random(int(hit.sum())) < 0.5, 0, 255)
        return _clip(a)
    if kind == "photo":
        return _photograph(image.convert("RGB"), rng, np_rng, scale)
    raise ValueError(f"unknown degradation {kind!r}")


def _photograph(image, rng: random.Random, np_rng: np.random.Generator, scale: float):
    """A page photographed on a desk, `scale` times as large: perspective and turn, dark
    surround, light falling off, paper tint, blur and noise (the caller stores it as JPEG).
    The light is computed on a grid 8 times coarser and enlarged (it varies slowly)."""
    from PIL import Image, ImageFilter

    source = image.size
    w, h = round(source[0] * scale), round(source[1] * scale)
    angle = np.radians(rng.choice((-1, 1)) * rng.uniform(0.5, 2.5))
    margin = rng.uniform(0.02, 0.05)
    cx, cy = w / 2, h / 2
    corners = []
    for x, y in ((0, 0), (w, 0), (w, h), (0, h)):
        x = cx + (x - cx) * (1 - 2 * margin) + rng.uniform(-0.03, 0.03) * w
        y = cy + (y - cy) * (1 - 2 * margin) + rng.uniform(-0.03, 0.03) * h
        dx, dy = x - cx, y - cy
        corners.append(
            (
                cx + dx * np.cos(angle) - dy * np.sin(angle),
                cy + dx * np.sin(angle) + dy * np.cos(angle),
            )
        )
    sw, sh = source
    data = perspective_coefficients(corners, [(0, 0), (sw, 0), (sw, sh), (0, sh)])
    desk = tuple(rng.randint(40, 90) for _ in range(3))
    image = image.transform(
        (w, h), Image.Transform.PERSPECTIVE, data, Image.Resampling.BICUBIC, fillcolor=desk
    )
    a = np.asarray(image, np.float32)
    yy, xx = np.mgrid[0 : h + 8 : 8, 0 : w + 8 : 8].astype(np.float32)
    direction = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - cx) * np.cos(direction) + (yy - cy) * np.sin(direction)) / np.hypot(cx, cy)
    falloff = rng.uniform(0.15, 0.3)
    vignette = rng.uniform(0.1, 0.2)
    coarse = (
        1
        - falloff * (ramp + 1) / 2
        - vignette * ((xx - cx) ** 2 + (yy - cy) ** 2) / (cx**2 + cy**2)
    )
    size = (coarse.shape[1] * 8, coarse.shape[0] * 8)
    light = Image.fromarray(coarse).resize(size, Image.Resampling.BILINEAR)
    light = np.asarray(light, np.float32)[:h, :w]
    tint = np.array([1.0, rng.uniform(0.93, 0.98), rng.uniform(0.82, 0.92)], np.float32)
    a = a * light[..., None] * tint
    image = _clip(a).filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 0.8)))
    sigma = rng.uniform(3, 6)
    a = np.asarray(image, np.float32)
    a = a + sigma * np_rng.standard_normal((h, w, 1), dtype=np.float32)
    return _clip(a)


def scan_pdf(source: str, target: str, kind: str, seed: str) -> int:
    """Write the scanned twin of the PDF `source` to `target` (image-only, degraded as
    `kind`); returns its pages."""
    import pypdfium2

    dpi = DPI.get(kind, 300)
    render_dpi = 300 if kind == "photo" else dpi
    pages = []
    document = pypdfium2.PdfDocument(source)
    try:
        for index in range(len(document)):
            rng = random.Random(f"{seed}/{Path(source).name}/{index}")
            page = document[index]
            bitmap = page.render(scale=render_dpi / 72, grayscale=kind != "photo")
            image = bitmap.to_pil().convert("RGB" if kind == "photo" else "L")
            bitmap.close()
            page.close()
            pages.append(degrade(image, kind, rng, dpi / render_dpi))
    finally:
        document.close()
    quality = random.Random(f"{seed}/{Path(source).name}").randint(55, 70)
    quality = quality if kind == "photo" else GREY_JPEG_QUALITY
    pages[0].save(target, save_all=True, append_images=pages[1:], resolution=dpi, quality=quality)
    return len(pages)


# ---------------------------------------------------------------- building the tiers


def _write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


def build(work: Path, size: str, seed: int, n: int, plan_seed: int, workers: int) -> dict:
    """Text PDFs in work/text/docs, scans in work/scanned/docs, labels of each tier
    (work/text/labels.json, work/scanned/labels.json, work/labels.json for mixed) and
    work/plan.json (known texts, degradations, pages). Returns the plan."""
    from bench.quality.render import Text, docx_to_pdf, write_docx

    if work.exists():
        shutil.rmtree(work)
    sample = build_sample(size, seed, n, plan_seed)
    labels, known, copy_of = sample["labels"], sample["known"], sample["copy_of"]
    text_dir, scan_dir = work / "text" / "docs", work / "scanned" / "docs"
    text_dir.mkdir(parents=True)
    scan_dir.mkdir(parents=True)
    started = time.monotonic()
    pending = []
    for name, (title, paragraphs) in sorted(known.items()):
        if name not in copy_of:
            docx = text_dir / Path(name).with_suffix(".docx")
            write_docx(docx, Text(title, tuple(paragraphs)))
            pending.append(docx)
    docx_to_pdf(pending, text_dir)
    for copy, original in copy_of.items():
        shutil.copyfile(text_dir / original, text_dir / copy)
    text_seconds = time.monotonic() - started
    degradation = degradation_plan(labels["documents"], copy_of, plan_seed)
    started = time.monotonic()
    originals = sorted(n for n in known if n not in copy_of)
    with ProcessPoolExecutor(max(1, workers)) as pool:
        counts = pool.map(
            scan_pdf,
            [str(text_dir / n) for n in originals],
            [str(scan_dir / n) for n in originals],
            [degradation[n] for n in originals],
            [str(plan_seed)] * len(originals),
        )
        pages = dict(zip(originals, counts, strict=True))
    for copy, original in copy_of.items():
        shutil.copyfile(scan_dir / original, scan_dir / copy)
        pages[copy] = pages[original]
    scan_seconds = time.monotonic() - started
    for tier in ("text", "scanned"):
        _write_json(work / tier / "labels.json", labels)
    _write_json(work / "labels.json", mixed_labels(labels))
    plan = {
        "size": size,
        "seed": seed,
        "documents": n,
        "plan_seed": plan_seed,
        "known": known,
        "degradation": degradation,
        "pages": pages,
        "copy_of": copy_of,
        "build_seconds": {
            "text PDFs (LibreOffice)": round(text_seconds, 1),
            "scans (rasterise, degrade, write)": round(scan_seconds, 1),
        },
    }
    _write_json(work / "plan.json", plan)
    return plan


def mixed_labels(labels: dict) -> dict:
    """Labels of the mixed tier (paths from the work folder): the documents that are only
    originals (the first of their labeled pairs, standalone and template documents) as text
    PDFs, every derived document (the second of a labeled pair) scanned."""
    derived = {p["b"] for p in labels["pairs"]}

    def where(file: str) -> str:
        return ("scanned/" if file in derived else "text/") + file

    out = dict(labels)
    out["documents"] = [d | {"file": where(d["file"])} for d in labels["documents"]]
    out["pairs"] = [p | {"a": where(p["a"]), "b": where(p["b"])} for p in labels["pairs"]]
    return out


# ---------------------------------------------------------------- scanning and scoring


class ReadTimes:
    """Progress callback noting when each file's pages were read (the scan's page-progress
    reports) and when the reading stage started and ended."""

    def __init__(self) -> None:
        self.events: dict[str, list[tuple[float, int]]] = defaultdict(list)
        self.finished: dict[str, float] = {}
        self.reading: list[float] = []

    def __call__(self, progress) -> None:
        now = time.monotonic()
        if progress.stage != "reading":
            return
        self.reading.append(now)
        pages = getattr(progress, "pages", None)
        if progress.current and pages is not None:
            self.events[progress.current].append((now, pages[0]))
        elif progress.current:
            self.finished[progress.current] = now

    def stage_seconds(self) -> float:
        return self.reading[-1] - self.reading[0] if len(self.reading) > 1 else 0.0

    def file_seconds(self) -> dict[str, tuple[float, list[float]]]:
        """Per file with page reports: (seconds from its first report to its record, seconds
        of each page)."""
        return file_seconds(self.events, self.finished)


def file_seconds(
    events: dict[str, list[tuple[float, int]]], finished: dict[str, float]
) -> dict[str, tuple[float, list[float]]]:
    """(whole, per page) seconds of each file from its (time, pages done) reports, the
    first one at 0 pages done, and the time its record came."""
    out = {}
    for path, reports in events.items():
        reports = sorted(reports)
        starts = [t for t, done in reports if done == 0]
        if not starts or path not in finished:
            continue
        start = starts[0]
        marks = {done: t for t, done in reports}
        pages = [marks[d] - marks[d - 1] for d in sorted(marks) if d >= 1 and d - 1 in marks]
        out[path] = (finished[path] - start, pages)
    return out


def run_scan(roots: list[str], catalog, workers: int):
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan

    from bench.quality import run

    times = ReadTimes()
    started = time.monotonic()
    options = ScanOptions(roots=tuple(roots), k_max=run.K_MAX, workers=workers)
    result = scan(options, catalog=catalog, progress=times)
    return result, times, time.monotonic() - started


def score_tier(base: Path, result) -> dict:
    """Precision and recall by kind at the default k (whole-document pairs, and with the
    partial-copy pairs), as run.py scores; files not compared count as found in no pair."""
    from simsift.core.pipeline.options import DEFAULT_K

    from bench.quality import run
    from bench.quality.score import load_truth

    labels = json.loads((base / "labels.json").read_text(encoding="utf-8"))
    compared = [d.path for d in result.documents]
    seen = {str(Path(p).resolve()) for p in compared}
    unread = [
        str((base / d["file"]).resolve())
        for d in labels["documents"]
        if str((base / d["file"]).resolve()) not in seen
    ]
    truth = load_truth(base, compared + unread)
    curves = run.simsift_curves(result, truth, "default")
    out = {}
    for name, curve in curves.items():
        s = curve["points"][DEFAULT_K]
        out[name] = s.as_dict() | {"true_positives": s.true_positives}
    out["k"] = DEFAULT_K
    out["not compared"] = [Path(p).name for p in unread]
    out["labeled pairs"] = {k: len(truth.labeled[k]) for k in POSITIVE_KINDS}
    found = set(run.reported_keys(result, truth, DEFAULT_K).tolist())
    number = {p: i for i, p in enumerate(compared + unread)}
    number |= {str(Path(p).resolve()): i for i, p in enumerate(compared + unread)}
    out["pairs"] = []
    for pair in labels["pairs"]:
        a = number[str((base / pair["a"]).resolve())]
        b = number[str((base / pair["b"]).resolve())]
        key = int(truth.keys(np.array([a]), np.array([b]))[0])
        distance = None
        if a < len(compared) and b < len(compared):
            distance = int(np.bitwise_count(result.fingerprints[a] ^ result.fingerprints[b]))
        out["pairs"].append(
            {
                "a": Path(pair["a"]).name,
                "b": Path(pair["b"]).name,
                "kind": pair["kind"],
                "found": key in found,
                "distance": distance,
            }
        )
    return out


def read_texts(result) -> dict[str, dict]:
    """What the scan read from each file, by file name: text, status, warning, message."""
    out = {}
    garbled = {id(r) for r in result.garbled}
    for record in (*result.documents, *result.garbled, *result.errors):
        text = "\n".join((record.title, *record.paragraphs))
        found = _CONFIDENCE.search(record.warning or "")
        out[Path(record.path).name] = {
            "text": text,
            "status": "garbled" if id(record) in garbled else record.status,
            "message": record.message or record.warning,
            "confidence": float(found[1]) if found else None,
        }
    return out


def cer_rows(plan: dict, read: dict[str, dict], tier: str) -> list[dict]:
    """One row per file of the tier: language, degradation, edits, known characters."""
    langs = plan["langs"]
    rows = []
    for name, (title, paragraphs) in sorted(plan["known"].items()):
        if name in plan["copy_of"]:
            continue  # the same bytes as its original: counted once
        got = read.get(name, {"text": "", "status": "missing", "message": "", "confidence": None})
        known = "\n".join((title, *paragraphs))
        edits, chars = cer(known, got["text"])
        letter_edits, letters = cer(known, got["text"], letters_only=True)
        read_words = set(text_words(got["text"]))
        rows.append(
            {
                "file": name,
                "lang": langs[name],
                "degradation": plan["degradation"][name] if tier == "scanned" else "text PDF",
                "edits": edits,
                "chars": chars,
                "cer": round(edits / chars, 4) if chars else 0.0,
                "letter_edits": letter_edits,
                "letters": letters,
                "status": got["status"],
                "confidence": got["confidence"],
                "pages": plan["pages"][name],
                "words": len(text_words(got["text"])),
                "known_words": len(text_words(known)),
                "known_words_read": round(
                    sum(w in read_words for w in text_words(known))
                    / max(1, len(text_words(known))),
                    3,
                ),
                "message": got["message"],
            }
        )
    return rows


def seconds_rows(plan: dict, times: ReadTimes) -> dict[str, dict]:
    """Per scanned file read by OCR: seconds in its reader, seconds of each page."""
    out = {}
    for path, (whole, pages) in times.file_seconds().items():
        name = Path(path).name
        out[name] = {"seconds": round(whole, 2), "page_seconds": [round(p, 2) for p in pages]}
    return out


def probe_ocr(work: Path, plan: dict, per_language: int) -> dict:
    """`extract_pdf` of a few clean 300-dpi scans in this process, one at a time: wall-clock
    and CPU seconds (this process and its Tesseract runs) per page, by language. CPU time
    depends much less than wall-clock time on what else the machine is doing."""
    import resource

    from simsift.core.read.extract.pdf import extract_pdf

    out: dict[str, dict] = {}
    for lang in ("en", "zh"):
        names = [
            n
            for n in sorted(plan["known"])
            if n not in plan["copy_of"]
            and plan["langs"][n] == lang
            and plan["degradation"][n] == "clean-300"
        ][:per_language]
        wall = cpu = 0.0
        pages = 0
        load = []
        for name in names:
            load.append(os.getloadavg()[0])
            before = [
                resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
            ]
            started = time.monotonic()
            extract_pdf(work / "scanned" / "docs" / name)
            wall += time.monotonic() - started
            after = [
                resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
            ]
            cpu += sum(
                (a.ru_utime + a.ru_stime) - (b.ru_utime + b.ru_stime)
                for a, b in zip(after, before, strict=True)
            )
            pages += plan["pages"][name]
        if pages:
            out[lang] = {
                "files": len(names),
                "pages": pages,
                "wall_per_page": round(wall / pages, 2),
                "cpu_per_page": round(cpu / pages, 2),
                "load_average": round(float(np.mean(load)), 1),
            }
    return out


# ---------------------------------------------------------------- report


def _pooled(rows: list[dict], edits: str = "edits", chars: str = "chars") -> str:
    total = sum(r[chars] for r in rows)
    if not total:
        return "–"
    return f"{sum(r[edits] for r in rows) / total:.3f}"


def _median(values: list[float]) -> float | None:
    return float(np.median(values)) if values else None


def cer_table(data: dict) -> list[str]:
    rows = data["cer"]["text"] + data["cer"]["scanned"]
    seconds = data["seconds"]
    lines = [
        "| pages of | files EN / ZH | CER EN | CER ZH | worst file EN / ZH "
        "| CER of letters and digits EN / ZH | mean OCR confidence | s per page in a reader "
        "EN / ZH | not read |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for kind in ("text PDF", *DEGRADATIONS, "all scans"):
        if kind == "all scans":
            chosen = [r for r in rows if r["degradation"] != "text PDF"]
        else:
            chosen = [r for r in rows if r["degradation"] == kind]
        if not chosen:
            continue
        en = [r for r in chosen if r["lang"] == "en"]
        zh = [r for r in chosen if r["lang"] == "zh"]
        worst = " / ".join(f"{max(r['cer'] for r in g):.3f}" if g else "–" for g in (en, zh))
        conf = [r["confidence"] for r in chosen if r["confidence"] is not None]
        per_page = []
        for group in (en, zh):
            timed = [
                (seconds[r["file"]]["seconds"], r["pages"])
                for r in group
                if r["file"] in seconds and r["degradation"] != "text PDF"
            ]
            per_page.append(
                f"{sum(s for s, _ in timed) / sum(p for _, p in timed):.1f}" if timed else "–"
            )
        not_read = sum(r["status"] != "ok" for r in chosen)
        lines.append(
            f"| {kind} | {len(en)} / {len(zh)} | {_pooled(en)} | {_pooled(zh)} | {worst} | "
            f"{_pooled(en, 'letter_edits', 'letters')} / {_pooled(zh, 'letter_edits', 'letters')} "
            f"| {(f'{np.mean(conf):.2f}' if conf else '–')} | {' / '.join(per_page)} "
            f"| {not_read} |"
        )
    return lines


def recall_table(data: dict) -> list[str]:
    scores = data["scores"]
    name = "default + passages"
    lines = [
        f"| relation (k={scores['text']['k']} + partial pairs) | labeled pairs | text PDFs "
        "| scans | scans / text | mixed | mixed / text |",
        "|---|---|---|---|---|---|---|",
    ]

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}" if b else "–"

    for kind in (*POSITIVE_KINDS, "duplicates"):
        text = scores["text"][name]["recall"][kind]
        scan = scores["scanned"][name]["recall"][kind]
        mixed = scores["mixed"][name]["recall"][kind]
        count = scores["scanned"]["labeled pairs"].get(kind, "")
        if kind == "duplicates":
            count = sum(
                scores["scanned"]["labeled pairs"][k] for k in ("exact", "format", "repost", "edit")
            )
        if not count:
            lines.append(f"| {kind} | 0 | – | – | – | – | – |")
            continue
        lines.append(
            f"| {kind} | {count} | {text:.3f} | {scan:.3f} | {ratio(scan, text)} | {mixed:.3f} "
            f"| {ratio(mixed, text)} |"
        )
    for label, key in (("precision", "precision"), ("reported pairs", "reported")):
        values = [scores[t][name][key] for t in TIERS]
        cells = [f"{v:.3f}" if key == "precision" else str(v) for v in values]
        lines.append(f"| {label} | | {cells[0]} | {cells[1]} | | {cells[2]} | |")
    pooled = []
    for tier in TIERS:
        pairs = scores[tier]["pairs"]
        pooled.append(sum(p["found"] for p in pairs) / len(pairs) if pairs else 0.0)
    lines.append(
        f"| all labeled pairs | {len(scores['text']['pairs'])} | {pooled[0]:.3f} | {pooled[1]:.3f} "
        f"| {ratio(pooled[1], pooled[0])} | {pooled[2]:.3f} | {ratio(pooled[2], pooled[0])} |"
    )
    whole = "default"
    values = [scores[t][whole]["recall"]["duplicates"] for t in TIERS]
    lines.append(
        f"| duplicates, whole-document pairs only | | {values[0]:.3f} | {values[1]:.3f} | "
        f"{ratio(values[1], values[0])} | {values[2]:.3f} | {ratio(values[2], values[0])} |"
    )
    return lines


def markdown(data: dict) -> str:
    s = data["summary"]
    out = [
        f"Engine: {data['engine']}; {data['when']}; command: `{data['command']}`",
        "",
        f"{s['files']} files ({s['languages']}), {s['pages']} pages "
        f"({s['pages_by_language']}); labeled pairs {s['labeled_pairs']}; "
        f"degradations (files) {s['degradations']}.",
        "",
        *cer_table(data),
        "",
        *recall_table(data),
        "",
        "Seconds: " + ", ".join(f"{k} {v}" for k, v in data["timings"].items()),
    ]
    pages = data.get("page_seconds")
    if pages:
        out.append(
            "Seconds per page in a reader (median; first page of a file / later pages): "
            + "; ".join(
                f"{lang} {v['first']} / {v['later']} ({v['pages']} pages)"
                for lang, v in pages.items()
            )
        )
    probe = data.get("probe")
    if probe:
        out.append(
            "One clean 300-dpi scan at a time in one process (`extract_pdf`), seconds per page "
            "wall-clock / CPU (with Tesseract): "
            + "; ".join(
                f"{lang} {v['wall_per_page']} / {v['cpu_per_page']} ({v['pages']} pages, "
                f"load average {v['load_average']})"
                for lang, v in probe.items()
            )
        )
    if data.get("load_average"):
        out.append(
            "Load average (1 min) when the scan of the scans started / ended: "
            + " / ".join(str(v) for v in data["load_average"])
        )
    if data.get("not_read"):
        out += ["", "Scans not read: " + "; ".join(data["not_read"])]
    out += ["", *photo_table(data), "", *missed_table(data)]
    return "\n".join(out) + "\n"


def photo_table(data: dict) -> list[str]:
    """Photographed scans: words (and Chinese characters) read, of the known text's."""
    rows = [r for r in data["cer"]["scanned"] if r["degradation"] == "photo" and "words" in r]
    if not rows:
        return []
    lines = [
        "| photographed file | language | pages | words read | known words found | CER |",
        "|---|---|---|---|---|---|",
    ]
    for r in sorted(rows, key=lambda r: (r["lang"], r["file"])):
        lines.append(
            f"| {r['file']} | {r['lang']} | {r['pages']} | {r['words']} of {r['known_words']} "
            f"| {r['known_words_read']:.2f} | {r['cer']:.3f} |"
        )
    return lines


def missed_table(data: dict) -> list[str]:
    """Labeled pairs found in the text PDFs and missed in the scans (or in mixed)."""
    rows = {r["file"]: r for r in data["cer"]["scanned"]}
    for copy, original in data.get("copy_of", {}).items():
        rows[copy] = rows[original]
    text = {(p["a"], p["b"]): p for p in data["scores"]["text"]["pairs"]}
    lines = [
        "| missed in | kind | pair | language | degradations | CER of the two scans "
        "| distance text PDFs → this tier |",
        "|---|---|---|---|---|---|---|",
    ]
    for tier in ("scanned", "mixed"):
        for p in data["scores"][tier]["pairs"]:
            before = text.get((p["a"], p["b"]))
            if p["found"] or not before or not before["found"]:
                continue
            a, b = rows.get(p["a"]), rows.get(p["b"])
            scanned_side = (a, b) if tier == "scanned" else (None, b)
            lines.append(
                f"| {tier} | {p['kind']} | {p['a']} {p['b']} | {b['lang']} | "
                + " / ".join(r["degradation"] if r else "text PDF" for r in scanned_side)
                + " | "
                + " / ".join(f"{r['cer']:.3f}" if r else "–" for r in scanned_side)
                + f" | {before['distance']} → {p['distance']} |"
            )
    return lines if len(lines) > 2 else ["No pair found in the text PDFs was missed."]


def page_summary(plan: dict, seconds: dict[str, dict]) -> dict:
    by_lang: dict[str, dict[str, list[float]]] = defaultdict(lambda: {"first": [], "later": []})
    for name, row in seconds.items():
        lang = plan["langs"][name]
        pages = row["page_seconds"]
        if pages:
            by_lang[lang]["first"].append(pages[0])
            by_lang[lang]["later"] += pages[1:]
    return {
        lang: {
            "first": round(_median(v["first"]) or 0, 1),
            "later": round(_median(v["later"]), 1) if v["later"] else "–",
            "pages": len(v["first"]) + len(v["later"]),
        }
        for lang, v in sorted(by_lang.items())
    }


# ---------------------------------------------------------------- main


def evaluate(work: Path, plan: dict, workers: int, probe: int) -> dict:
    from simsift.core.store.catalog import Catalog

    labels = json.loads((work / "text" / "labels.json").read_text(encoding="utf-8"))
    plan["langs"] = {Path(d["file"]).name: d["lang"] for d in labels["documents"]}
    mixed = json.loads((work / "labels.json").read_text(encoding="utf-8"))
    timings: dict[str, float] = dict(plan["build_seconds"])
    results, reads, scores, cers = {}, {}, {}, {}
    catalog_path = work / "catalog.sqlite3"
    for suffix in ("", "-wal", "-shm"):  # a fresh catalog: every scan is read by OCR
        Path(f"{catalog_path}{suffix}").unlink(missing_ok=True)
    shutil.rmtree(f"{catalog_path}.cache", ignore_errors=True)
    with Catalog(catalog_path) as catalog:
        for tier in TIERS:
            if tier == "mixed":
                roots = [str(work / d["file"]) for d in mixed["documents"]]
                base = work
            else:
                roots = [str(work / tier / "docs")]
                base = work / tier
            if tier == "scanned":
                load = [round(os.getloadavg()[0], 1)]
            result, times, seconds = run_scan(roots, catalog, workers)
            timings[f"scan of {tier}"] = round(seconds, 1)
            if tier == "scanned":
                timings["reading stage of scanned"] = round(times.stage_seconds(), 1)
                reads["times"] = times
                load.append(round(os.getloadavg()[0], 1))
            results[tier] = result
            scores[tier] = score_tier(base, result)
            if tier != "mixed":
                cers[tier] = cer_rows(plan, read_texts(result), tier)
    seconds = seconds_rows(plan, reads["times"])
    scanned_pages = sum(plan["pages"].values())  # exact copies are read too
    timings["reading stage x readers / pages read"] = round(
        timings["reading stage of scanned"] * workers / scanned_pages, 2
    )
    names = [n for n in plan["known"] if n not in plan["copy_of"]]
    langs = plan["langs"]
    summary = {
        "files": len(plan["known"]),
        "languages": dict(Counter(langs.values())),
        "pages": sum(plan["pages"][n] for n in names),
        "pages_by_language": {
            g: sum(plan["pages"][n] for n in names if langs[n] == g)
            for g in sorted(set(langs.values()))
        },
        "labeled_pairs": dict(Counter(p["kind"] for p in labels["pairs"])),
        "degradations": dict(Counter(plan["degradation"][n] for n in names)),
        "exact copies (same bytes, not counted in CER)": len(plan["copy_of"]),
    }
    not_read = [
        f"{r['file']} ({r['lang']}, {r['degradation']}): {r['message']}"
        for r in cers["scanned"]
        if r["status"] != "ok"
    ]
    return {
        "summary": summary,
        "cer": cers,
        "seconds": seconds,
        "page_seconds": page_summary(plan, seconds),
        "scores": scores,
        "timings": timings,
        "not_read": not_read,
        "load_average": load,
        "copy_of": plan["copy_of"],
        "probe": probe_ocr(work, plan, probe) if probe else {},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Scanned tier of the quality bench: CER by language and degradation, "
        "seconds per page, and recall of every relation on scans next to their text PDFs.",
        epilog="Needs LibreOffice (soffice) for the text PDFs and Tesseract for OCR.",
    )
    parser.add_argument("--size", choices=("small", "large"), default="small", help="corpus")
    parser.add_argument("--seed", type=int, default=7, help="corpus seed (run.py's default)")
    parser.add_argument(
        "--documents",
        type=int,
        default=120,
        help="files in the sample (0: the whole corpus, ~380); OCR takes about 2.5 CPU "
        "seconds per English page and 10 per Chinese page here (120 files: ~190 pages; "
        "measured 41 minutes on a shared, loaded 2-core machine, roughly 10-12 estimated "
        "from CPU time on 2 idle cores)",
    )
    parser.add_argument("--plan-seed", type=int, default=1, help="sample and degradations")
    parser.add_argument("--workers", type=int, default=2, help="reader processes")
    parser.add_argument("--work", type=Path, default=Path("/tmp/simsift-scanned"))
    parser.add_argument("--reuse", action="store_true", help="reuse the files of a former run")
    parser.add_argument(
        "--probe",
        type=int,
        default=3,
        help="clean 300-dpi scans per language read again one at a time for CPU seconds "
        "per page (0: none)",
    )
    parser.add_argument("--json", type=Path, help="also write every figure here")
    parser.add_argument("--markdown", type=Path, help="also write the tables here")
    parser.add_argument("--engine-commit", help="scan with the engine of this commit")
    parser.add_argument(
        "--engine-files",
        nargs="+",
        default=[],
        metavar="PATH",
        help="with --engine-commit: these files of the work tree (core/..., e.g. "
        "core/read/extract/ocr.py) put over the commit's, to measure one change apart from "
        "other work in progress",
    )
    parser.add_argument(
        "--from-json", type=Path, help="print the tables of a former run's JSON, run nothing"
    )
    args = parser.parse_args(argv)
    if args.from_json:
        print(markdown(json.loads(args.from_json.read_text(encoding="utf-8"))))
        return 0
    from bench.quality.generate import soffice

    if soffice() is None:
        parser.error("LibreOffice (soffice) is needed for the text PDFs")
    from bench.engine_at import use_engine_at

    if args.engine_files and not args.engine_commit:
        parser.error("--engine-files needs --engine-commit")
    engine = use_engine_at(args.engine_commit, args.engine_files or ())
    started = time.monotonic()
    work = args.work / f"{args.size}-{args.documents}-{args.seed}-{args.plan_seed}"
    if args.reuse and (work / "plan.json").exists():
        plan = json.loads((work / "plan.json").read_text(encoding="utf-8"))
    else:
        plan = build(work, args.size, args.seed, args.documents, args.plan_seed, args.workers)
    data = {
        "engine": engine,
        "when": time.strftime("%Y-%m-%d %H:%M"),
        "command": " ".join(
            ["python -m bench.quality.scanned", *(argv if argv is not None else sys.argv[1:])]
        ),
        "work": str(work),
    }
    data |= evaluate(work, plan, args.workers, args.probe)
    data["timings"]["total"] = round(time.monotonic() - started, 1)
    text = markdown(data)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        _write_json(args.json, data)
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
