"""How the meaning layer's alignment thresholds trade recall on the meaning tiers against
what it reports on a real archive of related documents, each setting in one run.

    python -m bench.quality.meaning_thresholds --archive /tmp/man4k \\
        --corpus /tmp/simsift-meaning/corpus

`--archive` is a folder of text files (e.g. 4,000 man pages rendered by
`bench/man_pages_bench.py render`); `--corpus` a corpus built by `meaning.py build`.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from simsift.core.match import meaning
from simsift.core.match.meaning import AlignParameters, copies

from bench.quality import meaning as tiers

SETTINGS = {
    "as tuned": {},
    "score 0.55": {"min_score": 0.55},
    "score 0.55, density 0.6": {"min_score": 0.55, "min_density": 0.6},
    "score 0.65, density 0.6": {"min_score": 0.65, "min_density": 0.6},
    "seeds 0.35, score 0.55, density 0.6": {
        "seed_cosine": 0.35,
        "seed_dice": 0.35,
        "min_score": 0.55,
        "min_density": 0.6,
    },
}


def archive_sketches(folder: Path) -> list:
    return [
        meaning.sketch(tuple(p for p in f.read_text(errors="replace").split("\n\n") if p.strip()))
        for f in sorted(folder.iterdir())
    ]


def use(parameters: AlignParameters) -> None:
    """Make `parameters` the default of `find_meaning_copies`, which the tiers call."""
    defaults = list(copies.find_meaning_copies.__defaults__)
    defaults[-2] = parameters  # (..., candidates, alignment, across_languages_only)
    copies.find_meaning_copies.__defaults__ = tuple(defaults)


def found(rows: list[dict], keep) -> str:
    chosen = [r for r in rows if keep(r)]
    return f"{sum(r['found'] for r in chosen)}/{len(chosen)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, required=True)
    args = parser.parse_args()
    sketches = archive_sketches(args.archive)
    print("| alignment | pairs on the archive | paraphrased ≥ ⅓ changed | EN→ZH | ZH→EN |")
    print("|---|---|---|---|---|")
    for name, change in SETTINGS.items():
        use(dataclasses.replace(AlignParameters(), **change))
        pairs = len(copies.find_meaning_copies(sketches))
        paraphrase = tiers.score_tier(args.corpus, "paraphrase")["rows"]
        translation = tiers.score_tier(args.corpus, "translation")["rows"]
        third = found(paraphrase, lambda r: (r["strength"] or 0) >= 0.35)
        en_zh = found(translation, lambda r: r["direction"] == "en->zh")
        zh_en = found(translation, lambda r: r["direction"] == "zh->en")
        print(f"| {name} | {pairs:,} | {third} | {en_zh} | {zh_en} |", flush=True)


if __name__ == "__main__":
    main()
