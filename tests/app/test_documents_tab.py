"""The Documents tab: one row per document found in part elsewhere, its sources coloured."""

from __future__ import annotations

import random
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from pdfminer.high_level import extract_text
from PySide6.QtCore import Qt, QUrl
from simsift.app.models.documents import COL_INDEX, COL_NAME, COL_SOURCES, DocumentsModel
from simsift.app.models.roles import DocRole
from simsift.core.analysis.similarity import Source
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
    monkeypatch.setattr(
        window.diff_view, "set_pair", lambda a, b, *_, **__: compared.append((a, b))
    )
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
        paraphrased = np.where(np.arange(n) % 10 == 0, 0.1, 0.0)  # a tenth by meaning too
        translated = np.zeros(n)
        total = np.minimum(index + paraphrased, 1.0)

        def sources(self, doc):
            return [Source(int(self.top_source[doc]), float(self.top_share[doc]), 5, 0.1)]

    class Result:
        options = SimpleNamespace(roots=("/class",), reference_roots=())
        passages = SimpleNamespace(kept=None)  # no word grams: nothing quoted elsewhere

        def __init__(self):
            self.documents = [FileRecord(f"/class/{i % 97}/e{i}.txt", 1, 0, "ok") for i in range(n)]

        def similarity(self):
            return Similarity()

    model = DocumentsModel()
    started = time.perf_counter()
    model.set_result(Result())  # type: ignore[arg-type]
    from simsift.app.models.documents import DocumentsProxy

    proxy = DocumentsProxy()
    proxy.setSourceModel(model)
    proxy.sort(COL_NAME, Qt.SortOrder.AscendingOrder)
    proxy.sort(COL_INDEX, Qt.SortOrder.DescendingOrder)
    elapsed = time.perf_counter() - started
    assert proxy.rowCount() == n
    assert float(proxy.index(0, COL_INDEX).data().rstrip("%")) >= 99
    print(f"10,000 documents shown and sorted twice in {elapsed:.2f} s")


def essay_and_source(window) -> tuple[int, int]:
    """The collage essay, selected in the Documents tab, and its largest source."""
    panel = window.documents_panel
    essay = next(
        i for i, d in enumerate(window.result.documents) if Path(d.path).name == "essay.txt"
    )
    panel.select_document(essay)
    return essay, panel.model.similarity.sources(essay)[0].doc


def shown_row(panel, doc: int) -> int:
    return next(
        r for r in range(panel.proxy.rowCount()) if panel.proxy.index(r, 0).data(DocRole) == doc
    )


def test_excluding_a_source_lowers_the_index_and_include_again_restores_it(
    qtbot, window, tmp_path, catalog
):
    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    essay, source = essay_and_source(window)
    index, share = (
        panel.model.similarity.index[essay],
        panel.model.similarity.sources(essay)[0].share,
    )
    assert f"exclude:{source}" in panel.text.toHtml()  # a link beside each source
    source_path = window.result.documents[source].path
    pair = frozenset({window.result.documents[essay].path, source_path})

    panel.text.anchorClicked.emit(QUrl(f"exclude:{source}"))
    similarity = panel.model.similarity
    assert similarity.index[essay] < index - share / 2  # recomputed at once, no scan
    assert window.controller.scans_started == 1 and window.controller.reweights_started == 0
    assert source not in [s.doc for s in similarity.sources(essay)]
    assert similarity.index[source] == 0  # the pair's shared text counts for neither
    assert pair in catalog.ignored_pairs()  # remembered: the window's "Not a duplicate"
    assert panel.selected_document == essay  # the teacher stays on the essay
    assert panel.proxy.index(shown_row(panel, essay), COL_SOURCES).data() == "2 (+1 excluded)"
    shown = panel.text.toPlainText()
    assert "Excluded sources (not counted)" in shown and "include again" in shown
    assert f"include:{source}" in panel.text.toHtml()
    assert window.undo_action.text() == "Undo exclude source"

    panel.text.anchorClicked.emit(QUrl(f"include:{source}"))
    assert panel.model.similarity.index[essay] == index
    assert source in [s.doc for s in panel.model.similarity.sources(essay)]
    assert pair not in catalog.ignored_pairs()
    assert "Excluded sources" not in panel.text.toPlainText()
    assert panel.proxy.index(shown_row(panel, essay), COL_SOURCES).data() == "3"
    assert not window.undo_action.isEnabled()  # nothing left to undo


def test_an_excluded_source_stays_excluded_in_later_scans_and_can_come_back(
    qtbot, window, tmp_path, catalog
):
    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    essay, source = essay_and_source(window)
    index = panel.model.similarity.index[essay]
    window.exclude_source(essay, source)
    lowered = panel.model.similarity.index[essay]
    assert lowered < index
    scan_and_wait(qtbot, window)  # a later scan (from the catalog's cache)
    essay, _ = essay_and_source(window)
    assert panel.model.similarity.index[essay] == lowered
    assert panel.excluded_of(essay)[0][0] == source
    assert not window.undo_action.isEnabled()  # decided in an earlier scan: not undone by Undo
    panel.include_source(source)  # ... but included again without a rescan
    assert panel.model.similarity.index[essay] == index
    assert window.controller.scans_started == 2
    assert catalog.ignored_pairs() == set()


def test_undo_brings_an_excluded_source_back(qtbot, window, tmp_path):
    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    essay, source = essay_and_source(window)
    index = panel.model.similarity.index[essay]
    panel.exclude_source(source)
    assert panel.model.similarity.index[essay] < index
    window.undo_action.trigger()
    assert panel.model.similarity.index[essay] == index
    assert panel.excluded_of(essay) == []


def test_a_source_is_excluded_from_the_rows_right_click_menu(qtbot, window, tmp_path):
    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    essay, source = essay_and_source(window)
    assert panel.exclude_action in panel.table.actions()
    assert panel.exclude_action.isEnabled() and not panel.include_action.isEnabled()
    panel.exclude_menu.aboutToShow.emit()
    entries = panel.exclude_menu.actions()
    assert len(entries) == 3 and entries[0].text().startswith(
        Path(window.result.documents[source].path).name
    )
    entries[0].trigger()
    assert panel.excluded_of(essay)[0][0] == source
    assert panel.include_action.isEnabled()
    panel.include_menu.aboutToShow.emit()
    [again] = panel.include_menu.actions()
    again.trigger()
    assert panel.excluded_of(essay) == []


def test_right_clicking_a_source_row_finds_its_source(qtbot, window, tmp_path):
    from PySide6.QtGui import QTextCursor
    from simsift.app.panels.documents import _row_link

    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    _, source = essay_and_source(window)
    name = Path(window.result.documents[source].path).name
    cursor = panel.text.document().find(name)  # the source's name, in the source table
    assert not cursor.isNull()
    cursor.setPosition(cursor.selectionStart() + 1, QTextCursor.MoveMode.MoveAnchor)
    assert _row_link(cursor) == f"compare:{source}"


def test_the_saved_report_lists_excluded_sources_without_app_links(qtbot, window, tmp_path):
    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    _, source = essay_and_source(window)
    panel.exclude_source(source)
    panel.save_report(str(tmp_path / "essay.html"))
    page = (tmp_path / "essay.html").read_text("utf-8")
    assert "Excluded sources (not counted)" in page
    assert Path(window.result.documents[source].path).name in page
    assert "include:" not in page and "exclude:" not in page
    assert "Quotations are shown but not counted." in page  # the rules the index followed
    assert "Shared runs of fewer than 15 words never count" in page


def test_excluded_sources_read_in_chinese(qtbot, window, tmp_path):
    scan_collage(qtbot, window, tmp_path)
    panel = window.documents_panel
    _, source = essay_and_source(window)
    panel.exclude_source(source)
    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: "已排除的来源" in panel.text.toPlainText(), timeout=2000)
        shown = panel.text.toPlainText()
        assert "重新计入" in shown and "排除" in shown and "比较" in shown
        assert "引文仅显示，不计入。参考文献仅显示，不计入。" in shown  # no space between
        assert window.undo_action.text() == "撤销排除来源"
    finally:
        window.set_language("en")
    qtbot.waitUntil(lambda: "Excluded sources" in panel.text.toPlainText(), timeout=2000)


def test_an_essay_whose_only_shared_text_is_a_quotation_can_be_opened(qtbot, window, tmp_path):
    """Its index is 0% (a quotation never counts), yet a teacher can see what it quotes."""
    root = tmp_path / "class"
    root.mkdir()
    pool = random.Random(8).sample(english_paragraphs()[100:], 12)
    (root / "ana.txt").write_text("\n\n".join(pool[:5]))
    quoted = " ".join(pool[2].split()[:30])
    ben = [*pool[5:8], f"As Ana puts it, “{quoted}” and I agree with her.", *pool[8:10]]
    (root / "ben.txt").write_text("\n\n".join(ben))
    (root / "cy.txt").write_text("\n\n".join(pool[10:]))
    window.folders.add_paths([str(root)])
    scan_and_wait(qtbot, window)
    proxy = window.documents_panel.proxy
    names = [proxy.index(r, COL_NAME).data() for r in range(proxy.rowCount())]
    assert names == ["ben.txt"]
    assert proxy.index(0, COL_INDEX).data() == "0%"
    window.documents_panel.table.selectRow(0)
    page = window.documents_panel.report_pages().fragment(proxy.index(0, 0).data(DocRole), False)
    assert "quoted, also in ana.txt" in page
