"""Excerpts of common text: the same words as jieba cuts, without loading jieba."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import simsift.core.text.tokens as tokens_module
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.report.tables import write_report
from simsift.core.store.catalog import Catalog
from simsift.core.text.normalize import normalize_text
from simsift.core.text.tokens import cut_as_hashed, iter_tokens, token_stream

from tests.core.corpus import chinese_paragraphs

PARAGRAPHS = chinese_paragraphs()


def write_essays(root: Path, n: int, seed: int) -> None:
    """Chinese essays of their own paragraphs, most holding the same sentence inside one:
    common text that starts and ends inside a paragraph."""
    root.mkdir()
    rng = random.Random(seed)
    shared = PARAGRAPHS[0][:60]
    for i in range(n):
        own = rng.sample(PARAGRAPHS[1:], 4)
        if i % 4:
            own[1] = own[1][:40] + shared + own[1][40:]
        (root / f"e{i}.txt").write_text("\n\n".join(own), encoding="utf-8")


def common_texts(out: Path) -> list[str]:
    with open(out / "common.csv", encoding="utf-8-sig", newline="") as f:
        return [row["text"] for row in csv.DictReader(f)]


def test_an_unchanged_rescans_report_never_cuts_chinese_again(tmp_path, monkeypatch):
    root = tmp_path / "essays"
    write_essays(root, 16, 1)
    options = ScanOptions(roots=(str(root),), workers=0)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options, catalog=catalog)
        write_report(first, 8, tmp_path / "first")

        def fail(run: str):
            raise AssertionError(f"jieba asked to cut {run!r} again")

        monkeypatch.setattr(tokens_module, "cut_chinese", fail)
        again = scan(options, catalog=catalog)
        write_report(again, 8, tmp_path / "again")
    texts = common_texts(tmp_path / "again")
    assert texts == common_texts(tmp_path / "first")
    assert any(t.startswith("…") and t.endswith("…") for t in texts)


def test_words_cut_by_their_hashes_are_jiebas():
    texts = [normalize_text(p) for p in PARAGRAPHS[:30]]
    texts.append(normalize_text("混合 text 中文和 English 词语 2024年 的例子"))
    for text in texts:
        words = [w for w, _ in iter_tokens(text)]
        hashes = token_stream([text], marks=False).hashes
        assert cut_as_hashed(text, hashes) == words
        assert cut_as_hashed(text, hashes[:-1]) is None
        assert cut_as_hashed(text, hashes[::-1]) is None or words == words[::-1]
