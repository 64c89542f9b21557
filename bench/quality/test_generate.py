"""The generator is deterministic: the same seed gives the same labels and the same text.

python -m pytest bench/quality/test_generate.py     # ~40 s (reads the sources twice)
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from bench.quality import generate


def _fingerprint(corpus: Path) -> dict[str, str]:
    """Digest of every file's content (DOCX: its paragraphs, since zip entries carry times)."""
    from docx import Document

    out = {}
    for path in sorted(corpus.rglob("*")):
        if not path.is_file():
            continue
        if path.suffix == ".docx":
            data = "\n".join(p.text for p in Document(str(path)).paragraphs).encode()
        else:
            data = path.read_bytes()
        out[str(path.relative_to(corpus))] = hashlib.blake2b(data, digest_size=16).hexdigest()
    return out


def test_same_seed_same_corpus(tmp_path: Path) -> None:
    one = generate.generate(tmp_path / "one", "small", 11, pdf=False)
    two = generate.generate(tmp_path / "two", "small", 11, pdf=False)
    assert (one / "labels.json").read_bytes() == (two / "labels.json").read_bytes()
    assert _fingerprint(one) == _fingerprint(two)
    labels = json.loads((one / "labels.json").read_text(encoding="utf-8"))
    kinds = {p["kind"] for p in labels["pairs"]}
    assert kinds == {
        "exact",
        "format",
        "repost",
        "edit",
        "partial",
        "collage",
        "heavy_edit",
        "reorder",
        "small_partial",
    }
    assert len(labels["documents"]) == len(list((one / "docs").iterdir()))


def test_other_seed_other_corpus(tmp_path: Path) -> None:
    one = generate.build(1, 1, pdf=False)
    two = generate.build(2, 1, pdf=False)
    assert [e.text for e in one.entries] != [e.text for e in two.entries]
