"""Two quality runs side by side: precision and recall by kind at the default settings.

    python -m bench.quality.run --size small --no-cli --out /tmp/q-before   # on the old commit
    python -m bench.quality.run --size small --no-cli --out /tmp/q-after
    python -m bench.quality.compare /tmp/q-before /tmp/q-after --size small

Rows: whole documents with partial copies at the default k, and partial copies alone at
the default containment threshold. A kind whose recall dropped is marked "LOST".
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import DEFAULT_K

ROOT = Path(__file__).resolve().parents[2]

KINDS = ("exact", "format", "repost", "edit", "partial", "duplicates")


def point(results: dict, curve: str, param: str) -> dict | None:
    points = results["curves"].get(curve, {}).get("points", {})
    return points.get(param)


def rows(before: dict, after: dict) -> list[str]:
    threshold = str(round(PassageOptions().partial_threshold, 2))
    chosen = [
        ("default + passages", str(DEFAULT_K), f"k={DEFAULT_K} with partial copies"),
        ("passages only", threshold, f"partial copies alone, containment {threshold}"),
    ]
    out = []
    header = "| setting | run | reported | precision | " + " | ".join(KINDS) + " |"
    out += [header, "|" + "---|" * (4 + len(KINDS))]
    for curve, param, label in chosen:
        old, new = point(before, curve, param), point(after, curve, param)
        for name, p in (("before", old), ("after", new)):
            if p is None:
                continue
            cells = []
            for kind in KINDS:
                value = p["recall"][kind]
                lost = name == "after" and old is not None and value < old["recall"][kind]
                cells.append(f"{value:.3f}" + (" LOST" if lost else ""))
            out.append(
                f"| {label} | {name} | {p['reported']} | {p['precision']:.3f} | "
                + " | ".join(cells)
                + " |"
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--size", default="small")
    args = parser.parse_args()
    load = lambda folder: json.loads((folder / f"results-{args.size}.json").read_text())  # noqa: E731
    print("\n".join(rows(load(args.before), load(args.after))))


if __name__ == "__main__":
    main()
