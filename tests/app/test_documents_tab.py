"""The Documents tab: one row per document found in part elsewhere, its sources coloured."""

from __future__ import annotations

import random
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from pdfminer.high_level import extract_text
from PySide6.QtCore import Qt, QUrl
from simsift.app.models.roles import DocRole
from simsift.app.panels.documents import COL_INDEX, COL_NAME, COL_SOURCES, DocumentsModel
from simsift.core.document import FileRecord

from tests.app.conftest import scan_and_wait
from tests.core.test_passages import english_paragraphs


def write_collage(root: Path) -> None:
    """An essay of 20 paragraphs, 3 from each of three sources; and an unrelated text."""
    rng = random.Random(5)
    pool = rng.sample(english_paragraphs()[100:], 80)
    sources = [pool[i * 20 : (i + 1) * 20] for i in range(3)]
    for i, source in enumerate(sources):
        (root / f"source{i}.txt").write_text("\n\n".join(source))
    own = pool[60:71]
    essay = own[:3] + sources[0][2:5] + own[3:6] + sources[1][8:11] + own[6:9]
    essay += sources[2][14:17] + own[9:]
    (root / "essay.txt").write_text("\n\n".join(essay))
    (root / "unrelated.txt").write_text("\n\n".join(pool[71:80]))


def scan_collage(qtbot, window, tmp_path) -> None:
    """Scan a class folder holding `write_collage`'s essay, sources and unrelated text."""
    root = tmp_path / "class"
    root.mkdir()
    write_collage(root)
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)


def test_the_collage_comes_first_with_its_three_sources(qtbot, window, tmp_path, monkeypatch):
    scan_collage(qtbot, window, tmp_path)
    panel, proxy = window.documents_panel, window.documents_panel.proxy
    assert window.tabs.tabText(4) == f"Documents ({panel.model.rowCount()})"
    assert proxy.index(0, COL_NAME).data() == "essay.txt"
    assert proxy.index(0, COL_SOURCES).data() == "3"
    assert 30 <= int(proxy.index(0, COL_INDEX).data().rstrip("%")) <= 50
    names = {proxy.index(r, COL_NAME).data() for r in range(proxy.rowCount())}
    assert "unrelated.txt" not in names

    panel.table.selectRow(0)
    shown = panel.text.toHtml()
    for name in ("source0.txt", "source1.txt", "source2.txt"):
        assert name in shown  # the legend names every source with its share
    essay = proxy.index(0, 0).data(DocRole)
    source = window.documents_panel.model.similarity.sources(essay)[0].doc
    compared = []
    monkeypatch.setattr(window.diff_view, "set_pair", lambda a, b, *_: compared.append((a, b)))
    panel.text.anchorClicked.emit(QUrl(f"compare:{source}"))
    assert compared == [(window.result.documents[essay], window.result.documents[source])]


def test_the_essay_text_is_coloured_by_source(qtbot, window, tmp_path):
    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    panel.table.selectRow(0)
    html = panel.text.toHtml().lower()
    assert html.count("background-color:#ffd8a8") >= 3  # the largest source's 3 paragraphs
    assert html.count("background-color:#b2f2bb") >= 3
    assert html.count("background-color:#a5d8ff") >= 3


def test_the_report_to_hand_over_is_saved_as_html_and_pdf(qtbot, window, tmp_path):
    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    assert not panel.save_button.isEnabled()  # nothing selected yet
    panel.table.selectRow(0)
    assert panel.save_button.isEnabled()
    essay = panel.proxy.index(0, 0).data(DocRole)
    sources = panel.model.similarity.sources(essay)

    panel.save_report(str(tmp_path / "out" / "essay.html"))
    page = (tmp_path / "out" / "essay.html").read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and "compare:" not in page  # no app links
    for source in sources:
        name = Path(window.result.documents[source.doc].path).name
        assert f"{name}</td><td align='right'>{source.share:.0%}</td>" in page
    assert "Similarity index " in page and page.count("background:#ffd8a8") >= 4

    panel.save_report(str(tmp_path / "essay.pdf"))
    pdf = tmp_path / "essay.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    text = " ".join(extract_text(str(pdf)).split())  # what a reader of the PDF sees
    assert "essay.txt" in text and "Similarity index" in text
    assert all(f"source{i}.txt" in text for i in range(3))


def test_ten_thousand_documents_sort_fast(qtbot):
    n = 10_000

    class Similarity:  # what the model reads from a DocumentSimilarity
        index = np.random.default_rng(1).random(n)
        source_count = np.ones(n, np.int64)
        top_source = np.roll(np.arange(n), 1)
        top_share = index / 2

    class Result:
        options = SimpleNamespace(roots=("/class",), reference_roots=())

        def __init__(self):
            self.documents = [FileRecord(f"/class/{i % 97}/e{i}.txt", 1, 0, "ok") for i in range(n)]

        def similarity(self):
            return Similarity()

    model = DocumentsModel()
    started = time.perf_counter()
    model.set_result(Result())  # type: ignore[arg-type]
    from simsift.app.panels.documents import DocumentsProxy

    proxy = DocumentsProxy()
    proxy.setSourceModel(model)
    proxy.sort(COL_NAME, Qt.SortOrder.AscendingOrder)
    proxy.sort(COL_INDEX, Qt.SortOrder.DescendingOrder)
    elapsed = time.perf_counter() - started
    assert proxy.rowCount() == n
    assert float(proxy.index(0, COL_INDEX).data().rstrip("%")) >= 99
    print(f"10,000 documents shown and sorted twice in {elapsed:.2f} s")
