"""A self-contained HTML report of clusters and pairs that opens in any browser.

No scripts, no external files: one HTML file with inline CSS that follows the reader's
light or dark preference, safe to mail to a colleague or keep with the essays.
"""

from __future__ import annotations

import html
import os
import secrets
import time
from pathlib import Path

import numpy as np

from core.cluster import KIND_NAMES, KIND_REFERENCE, Clusters
from core.result import ScanResult

MAX_PAIR_ROWS = 20_000  # beyond this a browser struggles; the CSV export has them all

_CSS = """
:root { color-scheme: light dark; --line: #8884; --muted: #888; --accent: #2a7ae2; }
body { font: 14px/1.45 system-ui, "Noto Sans CJK SC", "Microsoft YaHei", sans-serif;
       margin: 2em auto; max-width: 72em; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
.meta { color: var(--muted); margin-bottom: 1.5em; }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1.5em; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3em 0.6em; text-align: left;
         vertical-align: top; }
th { position: sticky; top: 0; background: Canvas; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.reference td { font-style: italic; }
h2 { margin-top: 2em; }
h3 { margin: 1.2em 0 0.2em; font-size: 1.05em; }
.path { word-break: break-all; }
.bar { display: inline-block; height: 0.7em; background: var(--accent); border-radius: 2px;
       vertical-align: middle; margin-right: 0.4em; }
"""


def render_html_report(
    result: ScanResult, clusters: Clusters, title: str = "SimSift report"
) -> str:
    """The report as one HTML string: summary, clusters with members, pairs, errors."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        _summary(result, clusters),
        _clusters_section(result, clusters),
        _pairs_section(result, clusters),
        _partial_section(result),
        _errors_section(result),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


def write_html_report(
    result: ScanResult, clusters: Clusters, path: Path, title: str = "SimSift report"
) -> Path:
    """Write the report to `path` atomically (temporary file, then rename), with the
    user's umask; file names that are not UTF-8 show their odd bytes as "?"."""
    return write_html(render_html_report(result, clusters, title), path)


def write_html(text: str, path: Path) -> Path:
    """Write an HTML page to `path` atomically (temporary file, then rename), with the
    user's umask; odd bytes in the text are written as "?"."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8", errors="replace") as f:  # "x": never overwrite
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _summary(result: ScanResult, clusters: Clusters) -> str:
    roots = ", ".join(result.options.roots)
    stamp = time.strftime("%Y-%m-%d %H:%M")
    return (
        f'<p class="meta">{stamp} · folders: <span class="path">{_e(roots)}</span><br>'
        f"{len(result.documents):,} documents · {len(clusters):,} clusters · "
        f"{len(clusters.doc):,} files in clusters · {len(result.errors):,} unreadable · "
        f"distance k = {clusters.k} of 64 bits</p>"
    )


def _share_cell(share: float) -> str:
    """A containment as a bar and a percentage (the same number the CSV and the app show)."""
    return (
        f'<td class="num"><span class="bar" style="width:{share * 4:.2f}em"></span>{share:.0%}</td>'
    )


def _clusters_section(result: ScanResult, clusters: Clusters) -> str:
    if len(clusters) == 0:
        return "<h2>Clusters</h2><p>No near-duplicates at this distance.</p>"
    order = np.argsort(-np.diff(clusters.ptr), kind="stable")  # biggest clusters first
    out = ["<h2>Clusters</h2>"]
    for c in order.tolist():
        s = clusters.members(c)
        reference = int(clusters.doc[s.start])
        out.append(
            f"<h3>Cluster {c + 1} · {s.stop - s.start} files · "
            f"max distance {int(clusters.max_distance[c])}</h3>"
        )
        out.append(
            "<table><tr><th>File</th><th>Kind</th><th>Distance</th><th>In reference</th>"
            "<th>Title</th></tr>"
        )
        for doc, kind, distance in zip(
            clusters.doc[s].tolist(),
            clusters.kind[s].tolist(),
            clusters.distance[s].tolist(),
            strict=True,
        ):
            record = result.documents[doc]
            is_reference = kind == KIND_REFERENCE
            css = ' class="reference"' if is_reference else ""
            share = "<td></td>" if is_reference else _share_cell(result.overlap(doc, reference)[0])
            out.append(
                f'<tr{css}><td class="path">{_e(record.path)}</td><td>{_e(KIND_NAMES[kind])}</td>'
                f'<td class="num">{distance}</td>{share}'
                f"<td>{_e(record.title)}</td></tr>"
            )
        out.append("</table>")
    return "\n".join(out)


def _pairs_section(result: ScanResult, clusters: Clusters) -> str:
    shown = np.zeros(len(result.documents), dtype=bool)
    shown[clusters.doc] = True
    pairs = result.pairs.within(clusters.k)
    keep = shown[pairs.left] & shown[pairs.right]
    left, right, distance = pairs.left[keep], pairs.right[keep], pairs.distance[keep]
    order = np.argsort(distance, kind="stable")[:MAX_PAIR_ROWS]
    kinds = result.pair_kinds(pairs)[keep]
    out = [
        f"<h2>Pairs ({len(left):,})</h2>",
        "<table><tr><th>File A</th><th>File B</th><th>Kind</th><th>Distance</th>"
        "<th>A in B</th><th>B in A</th></tr>",
    ]
    docs = result.documents
    a_in_b, b_in_a, _ = result.overlap_many(left, right)
    for i in order.tolist():
        d = int(distance[i])
        out.append(
            f'<tr><td class="path">{_e(docs[int(left[i])].path)}</td>'
            f'<td class="path">{_e(docs[int(right[i])].path)}</td>'
            f'<td>{_e(KIND_NAMES[int(kinds[i])])}</td><td class="num">{d}</td>'
            f"{_share_cell(a_in_b[i])}{_share_cell(b_in_a[i])}</tr>"
        )
    out.append("</table>")
    if len(left) > MAX_PAIR_ROWS:
        out.append(f"<p>Closest {MAX_PAIR_ROWS:,} pairs shown; the CSV export lists all.</p>")
    return "\n".join(out)


def _partial_section(result: ScanResult) -> str:
    """Partial copies (containment both ways); nothing when no pair reaches the threshold."""
    overlaps = result.partial_pairs()
    if len(overlaps) == 0:
        return ""
    docs = result.documents
    out = [
        f"<h2>Partial copies ({len(overlaps.left):,})</h2>",
        "<table><tr><th>File A</th><th>File B</th><th>A in B</th><th>B in A</th></tr>",
    ]
    rows = zip(
        overlaps.left.tolist(),
        overlaps.right.tolist(),
        overlaps.containment_lr.tolist(),
        overlaps.containment_rl.tolist(),
        strict=True,
    )
    for a, b, ab, ba in list(rows)[:MAX_PAIR_ROWS]:
        out.append(
            f'<tr><td class="path">{_e(docs[a].path)}</td><td class="path">{_e(docs[b].path)}</td>'
            f'<td class="num">{ab:.0%}</td><td class="num">{ba:.0%}</td></tr>'
        )
    out.append("</table>")
    return "\n".join(out)


def _errors_section(result: ScanResult) -> str:
    if not result.errors:
        return ""
    rows = "".join(
        f'<tr><td class="path">{_e(r.path)}</td><td>{_e(r.message)}</td></tr>'
        for r in result.errors
    )
    return (
        f"<h2>Unreadable files ({len(result.errors):,})</h2>"
        f"<table><tr><th>File</th><th>Problem</th></tr>{rows}</table>"
    )
