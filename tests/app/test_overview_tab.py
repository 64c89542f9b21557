"""The Overview tab: headline numbers, the documents to read first, the copying graph."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from simsift.app.models.roles import DocRole

from tests.app.test_documents_tab import scan_collage


def scanned_collage(qtbot, window, tmp_path):
    scan_collage(qtbot, window, tmp_path)
    return window.overview_panel


def test_headline_and_the_documents_to_read_first(qtbot, window, tmp_path):
    panel = scanned_collage(qtbot, window, tmp_path)
    assert window.tabs.tabText(5) == "Overview"
    sim = window.documents_panel.model.similarity
    essay = int(sim.index.argmax())
    assert panel.headline.text().startswith(
        f"Highest similarity index: {sim.index[essay]:.0%} (essay.txt) · median "
    )
    assert panel.headline.text().endswith("over 5 documents")
    assert panel.top_table.rowCount() == 4  # the essay and its three sources
    assert panel.top_table.item(0, 0).text() == "essay.txt"
    assert sum(panel.histogram.counts) == 5

    panel.top_table.cellClicked.emit(0, 0)
    assert window.tabs.currentWidget() is window.documents_panel
    rows = window.documents_panel.table.selectionModel().selectedRows()
    assert [r.data(DocRole) for r in rows] == [essay]


def test_clicking_the_graph_opens_a_document_or_compares_a_pair(qtbot, window, tmp_path):
    window.resize(1200, 800)
    window.show()
    panel = scanned_collage(qtbot, window, tmp_path)
    window.tabs.setCurrentWidget(panel)
    qtbot.waitExposed(panel.graph)
    graph = panel.overview.graph
    assert len(graph.nodes) >= 2 and len(graph.edge_a) >= 1
    view = panel.graph
    docs = []
    pairs = []
    view.document_clicked.connect(docs.append)
    view.pair_clicked.connect(lambda a, b: pairs.append((a, b)))
    node = 0
    x, y = graph.x[node] * 600, graph.y[node] * 600
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(x, y))
    assert docs == [int(graph.nodes[node])]
    a, b = int(graph.edge_a[0]), int(graph.edge_b[0])
    middle = QPoint(
        *(
            view.mapFromScene(
                (graph.x[a] + graph.x[b]) * 300, (graph.y[a] + graph.y[b]) * 300
            ).toTuple()
        )
    )
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=middle)
    assert pairs == [tuple(sorted((int(graph.nodes[a]), int(graph.nodes[b]))))]
