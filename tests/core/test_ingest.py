"""Scanning the real sample files (made by LibreOffice, qpdf, GBK encoders): what users rely on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from simsift.core.analysis.cluster import KIND_NAMES
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.store.catalog import Catalog

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "extract"


@pytest.fixture(scope="module")
def result():
    return scan(ScanOptions(roots=(str(SAMPLES),), k_max=3, workers=2))


def cluster_of(result, name: str) -> set[str]:
    for cluster in result.clusters(3):
        names = {Path(result.documents[m.doc].path).name for m in cluster.members}
        if name in names:
            return names
    return set()


def test_same_article_in_html_pdf_docx_clusters_together(result):
    assert {"article_en.html", "article_en.docx", "article_en.pdf"} <= cluster_of(
        result, "article_en.html"
    )
    assert {"article_zh.html", "article_zh.docx", "article_zh.pdf"} <= cluster_of(
        result, "article_zh.html"
    )


def test_reposts_under_other_site_chrome_are_near_duplicates(result):
    assert "repost_en_chrome.html" in cluster_of(result, "article_en.html")
    zh = cluster_of(result, "article_zh.html")
    assert {"repost_zh_gbk_nometa.html", "repost_zh_gbk_wrongmeta.html"} <= zh


def test_cross_format_copies_are_reported_as_same_text(result):
    kinds = {}
    for cluster in result.clusters(3):
        for m in cluster.members:
            kinds[Path(result.documents[m.doc].path).name] = KIND_NAMES[m.kind]
    assert kinds["article_en.docx"] in ("same text", "original")
    assert kinds["article_en.pdf"] in ("same text", "original")


def test_every_broken_file_is_reported_with_a_reason(result):
    errors = {Path(r.path).name: r.message for r in result.errors}
    assert errors["encrypted.pdf"] == "password protected PDF"
    assert errors["zipbomb.docx"].endswith("(possible zip bomb)")
    assert errors["corrupt.docx"] == "not a valid DOCX (corrupt or renamed file)"
    assert "no extractable text" in errors["image_only.pdf"]
    assert "old_binary.doc" not in errors  # read by antiword (tests/core/extract/test_doc.py)


def test_rescan_reads_only_new_and_changed_files(tmp_path):
    folder = tmp_path / "docs"
    shutil.copytree(SAMPLES, folder)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(ScanOptions(roots=(str(folder),), workers=0), catalog=catalog)
        assert first.reused == 0
        second = scan(ScanOptions(roots=(str(folder),), workers=0), catalog=catalog)
        readable = len(second.documents) + len(second.errors) + len(second.skipped)
        assert second.reused == readable  # nothing read again
        assert second.pairs.left.tolist() == first.pairs.left.tolist()
        (folder / "article_en.html").write_text(
            "<html><body><p>Rewritten entirely.</p></body></html>"
        )
        (folder / "zh_gbk.txt").unlink()
        third = scan(ScanOptions(roots=(str(folder),), workers=0), catalog=catalog)
        assert third.reused == readable - 2
        assert all(Path(d.path).name != "zh_gbk.txt" for d in third.documents)
        assert len(catalog.records_under([str(folder)])) == readable - 1
