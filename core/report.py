"""Writing scan results: pairs, clusters and errors as CSV or JSON."""

from __future__ import annotations

import csv
import json
import os
import tempfile
from pathlib import Path

from core.cluster import KIND_NAMES, Clusters
from core.scan import ScanResult

FORMATS = ("csv", "json")


def pair_rows(result: ScanResult, k: int) -> list[dict]:
    """Pairs within k as rows: full paths, kind name, Hamming distance."""
    pairs = result.pairs.within(k)
    kinds = result.pair_kinds(pairs)
    docs = result.documents
    return [
        {"a": docs[a].path, "b": docs[b].path, "kind": KIND_NAMES[kind], "distance": int(d)}
        for a, b, kind, d in zip(
            pairs.left.tolist(),
            pairs.right.tolist(),
            kinds.tolist(),
            pairs.distance.tolist(),
            strict=True,
        )
    ]


def cluster_rows(result: ScanResult, clusters: Clusters) -> list[dict]:
    """One row per cluster member; cluster numbers start at 1, the reference first."""
    rows = []
    for cluster in clusters:
        for m in cluster.members:
            rows.append(
                {
                    "cluster": cluster.number + 1,
                    "path": result.documents[m.doc].path,
                    "kind": KIND_NAMES[m.kind],
                    "distance": m.distance,
                }
            )
    return rows


def error_rows(result: ScanResult) -> list[dict]:
    return [{"path": r.path, "error": r.message} for r in result.errors]


def write_report(result: ScanResult, k: int, out_dir: Path, fmt: str = "csv") -> list[Path]:
    """Write pairs, clusters and errors into `out_dir`; returns the files written.

    Files are written to a temporary name and renamed, so a reader never sees half a file.
    """
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, not {fmt!r}")
    out_dir.mkdir(parents=True, exist_ok=True)
    tables = {
        "pairs": (["a", "b", "kind", "distance"], pair_rows(result, k)),
        "clusters": (
            ["cluster", "path", "kind", "distance"],
            cluster_rows(result, result.clusters(k)),
        ),
        "errors": (["path", "error"], error_rows(result)),
    }
    written = []
    for name, (columns, rows) in tables.items():
        path = out_dir / f"{name}.{fmt}"
        _write_atomically(path, lambda f, c=columns, r=rows: _dump(f, fmt, c, r))
        written.append(path)
    return written


def _dump(f, fmt: str, columns: list[str], rows: list[dict]) -> None:
    if fmt == "json":
        json.dump(rows, f, ensure_ascii=False, indent=1)
        return
    writer = csv.DictWriter(f, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)


def _write_atomically(path: Path, write) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # utf-8-sig so spreadsheet programs open Chinese paths correctly
        with os.fdopen(
            fd, "w", encoding="utf-8-sig" if path.suffix == ".csv" else "utf-8", newline=""
        ) as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
