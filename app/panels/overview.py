"""The Overview tab: highest and median similarity index, their histogram with the
partial-copy threshold drawn on it, the ten documents to read first, and a graph of the
documents linked by copying. A click on a document opens it in the Documents tab; a click
on a link shows the pair side by side.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QToolTip,
    QVBoxLayout,
    QWidget,
)
from simsift.app.readable import NAMES, plain, plain_label
from simsift.core.analysis.overview import HISTOGRAM_BINS, CopyGraph, Overview, overview
from simsift.core.analysis.similarity import DocumentSimilarity
from simsift.core.pipeline.result import ScanResult

_GRAPH_SIZE = 600.0  # scene units of the unit square the layout fills
_MOST_LABELS = 60  # names drawn at most, highest similarity index first; all in tooltips
_KEY = 0  # QGraphicsItem data slot: ("doc", d) or ("pair", a, b)


def index_colour(share: float) -> QColor:
    """Pale yellow (little found elsewhere) to deep red (all of it)."""
    share = min(max(share, 0.0), 1.0)
    return QColor.fromHsvF(0.13 * (1 - share), 0.25 + 0.7 * share, 1.0 - 0.25 * share)


class Histogram(QWidget):
    """Counts per 5% of similarity index, with a dashed line at the threshold."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.counts = np.zeros(HISTOGRAM_BINS, np.int64)
        self.threshold = 0.2
        self.threshold_label = ""
        self.setMinimumSize(260, 150)
        self.setMouseTracking(True)

    def set_counts(self, counts: np.ndarray, threshold: float, label: str) -> None:
        self.counts, self.threshold, self.threshold_label = counts, threshold, label
        self.update()

    def _plot(self) -> QRectF:
        return QRectF(self.rect()).adjusted(36, 10, -24, -24)

    def bin_at(self, x: float) -> int:
        plot = self._plot()
        return int((x - plot.left()) / plot.width() * HISTOGRAM_BINS)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        plot, palette = self._plot(), self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        top = max(int(self.counts.max()) if len(self.counts) else 0, 1)
        width = plot.width() / HISTOGRAM_BINS
        for i, count in enumerate(self.counts.tolist()):
            height = plot.height() * count / top
            bar = QRectF(plot.left() + i * width + 1, plot.bottom() - height, width - 2, height)
            painter.fillRect(bar, index_colour((i + 0.5) / HISTOGRAM_BINS))
        painter.setPen(text)
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        for share in (0.0, 0.5, 1.0):
            x = plot.left() + share * plot.width()
            label = QRectF(x - 20, plot.bottom() + 4, 40, 16)
            painter.drawText(label, Qt.AlignmentFlag.AlignCenter, f"{share:.0%}")
        painter.drawText(QRectF(0, plot.top() - 6, 32, 16), Qt.AlignmentFlag.AlignRight, str(top))
        x = plot.left() + self.threshold * plot.width()
        painter.setPen(QPen(QColor("#d9480f"), 2, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        label = QRectF(x + 4, plot.top(), 220, 16)
        painter.drawText(label, Qt.AlignmentFlag.AlignLeft, self.threshold_label)

    def mouseMoveEvent(self, event) -> None:
        i = self.bin_at(event.position().x())
        if 0 <= i < HISTOGRAM_BINS:
            lo, hi = i * 100 // HISTOGRAM_BINS, (i + 1) * 100 // HISTOGRAM_BINS
            text = self.tr("%1–%2%: %3 documents").replace("%1", str(lo))
            text = text.replace("%2", str(hi)).replace("%3", str(int(self.counts[i])))
            QToolTip.showText(event.globalPosition().toPoint(), text, self)


class GraphView(QGraphicsView):
    """Documents as dots (colour and size: similarity index), copying as lines (width:
    containment). Emits what was clicked."""

    document_clicked = Signal(int)
    pair_clicked = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setMinimumSize(300, 250)
        self._labels: list[QGraphicsSimpleTextItem] = []
        self._dots: list[tuple[QGraphicsEllipseItem, str, int]] = []  # dot, name, document

    def clear(self) -> None:
        self.scene().clear()
        self._labels, self._dots = [], []

    def show_graph(self, graph: CopyGraph, names: list[str], index: np.ndarray) -> None:
        self.clear()
        scene = self.scene()
        text = self.palette().color(QPalette.ColorRole.WindowText)
        x, y = graph.x * _GRAPH_SIZE, graph.y * _GRAPH_SIZE
        nodes = graph.nodes.tolist()
        grey = QColor(120, 120, 120, 170)
        for a, b, strength in zip(
            graph.edge_a.tolist(), graph.edge_b.tolist(), graph.edge_strength.tolist(), strict=True
        ):
            line = scene.addLine(x[a], y[a], x[b], y[b], QPen(grey, 1.5 + 4 * strength))
            line.setData(_KEY, ("pair", nodes[a], nodes[b]))
            line.setToolTip(plain(f"{names[a]} ↔ {names[b]}: {strength:.0%}"))
            line.setZValue(0)
        for i, doc in enumerate(nodes):
            share = float(index[doc])
            r = 5 + 7 * share
            dot = QGraphicsEllipseItem(x[i] - r, y[i] - r, 2 * r, 2 * r)
            dot.setBrush(QBrush(index_colour(share)))
            dot.setPen(QPen(text, 1))
            dot.setToolTip(plain(f"{names[i]}: {share:.0%}"))
            dot.setData(_KEY, ("doc", doc))
            dot.setZValue(1)
            dot.setCursor(Qt.CursorShape.PointingHandCursor)
            scene.addItem(dot)
            self._dots.append((dot, names[i], doc))
        self._dots.sort(key=lambda entry: -float(index[entry[2]]))  # most copied first
        margin = 60
        scene.setSceneRect(
            QRectF(-margin, -margin, _GRAPH_SIZE + 3 * margin, _GRAPH_SIZE + 2 * margin)
        )
        self._fit()

    @property
    def labels(self) -> list[QGraphicsSimpleTextItem]:
        """The names drawn beside their dots (the others are in the dots' tooltips)."""
        return self._labels

    def _fit(self) -> None:
        self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self._place_labels()

    def _place_labels(self) -> None:
        """Name the dots, most copied first, where a name overlaps no other name nor dot
        and stays inside the view (right of the dot, else left, above or below); a name
        that fits nowhere is left to the dot's tooltip. Names keep their size on screen
        when the graph is scaled."""
        scene = self.scene()
        for label in self._labels:
            scene.removeItem(label)
        self._labels = []
        scale = self.transform().m11() or 1.0
        colour = self.palette().color(QPalette.ColorRole.WindowText)
        taken = [dot.sceneBoundingRect() for dot, _, _ in self._dots]
        shown = self.mapToScene(self.viewport().rect()).boundingRect()
        for dot, name, doc in self._dots:
            if len(self._labels) >= _MOST_LABELS:
                break
            label = QGraphicsSimpleTextItem(_short(name))
            label.setBrush(colour)
            label.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
            size = label.boundingRect()
            w, h = size.width() / scale, size.height() / scale
            box = dot.sceneBoundingRect()
            gap = 3 / scale
            middle = box.center().y() - h / 2
            for left, top in (
                (box.right() + gap, middle),
                (box.left() - gap - w, middle),
                (box.center().x() - w / 2, box.top() - gap - h),
                (box.center().x() - w / 2, box.bottom() + gap),
            ):
                place = QRectF(left, top, w, h)
                if shown.contains(place) and not any(place.intersects(o) for o in taken):
                    break
            else:
                continue
            taken.append(place)
            label.setPos(place.topLeft())
            label.setZValue(2)
            label.setData(_KEY, ("doc", doc))
            scene.addItem(label)
            self._labels.append(label)

    def item_key(self, item: QGraphicsItem | None):
        return None if item is None else item.data(_KEY)

    def mousePressEvent(self, event) -> None:
        key = self.item_key(self.itemAt(event.position().toPoint()))
        if key is not None and key[0] == "doc":
            self.document_clicked.emit(key[1])
        elif key is not None:
            self.pair_clicked.emit(key[1], key[2])
        super().mousePressEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._dots:
            self._fit()


class OverviewPanel(QWidget):
    """The Overview tab."""

    document_requested = Signal(int)
    pair_requested = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.overview: Overview | None = None
        self._result: ScanResult | None = None
        self.headline = plain_label(QLabel())  # names the top document
        self.headline.setWordWrap(True)
        self.histogram = Histogram()
        self.top_caption = plain_label(QLabel())
        self.top_table = QTableWidget(0, 2)
        self.top_table.verticalHeader().hide()
        self.top_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.top_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.top_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.top_table.cellClicked.connect(self._on_top_clicked)
        self.graph_caption = plain_label(QLabel())
        self.graph_caption.setWordWrap(True)
        self.graph = GraphView()
        self.graph.document_clicked.connect(self.document_requested)
        self.graph.pair_clicked.connect(self.pair_requested)

        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.headline)
        column.addWidget(self.histogram, 1)
        column.addWidget(self.top_caption)
        column.addWidget(self.top_table, 1)
        right = QWidget()
        graph_column = QVBoxLayout(right)
        graph_column.setContentsMargins(0, 0, 0, 0)
        graph_column.addWidget(self.graph_caption)
        graph_column.addWidget(self.graph, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setSizes([420, 580])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self.retranslate()

    def set_result(
        self, result: ScanResult | None, similarity: DocumentSimilarity | None, k: int
    ) -> None:
        self._result = result
        if result is None or similarity is None:
            self.overview = None
        else:
            self.overview = overview(result, similarity, k)
            self._similarity = similarity
        self._fill()

    def tab_title(self) -> str:
        return self.tr("Overview")

    def tab_tip(self) -> str:
        return self.tr("How similar the documents are, which to read first, who shares text")

    def retranslate(self) -> None:
        self.top_table.setHorizontalHeaderLabels([self.tr("Document"), self.tr("Similarity index")])
        self.top_caption.setText(self.tr("Read these first:"))
        self._fill()

    def _fill(self) -> None:
        view = self.overview
        if view is None or not len(view.essays):
            self.headline.setText(self.tr("Scan a folder to see how similar its documents are."))
            self.histogram.set_counts(np.zeros(HISTOGRAM_BINS, np.int64), 0.2, "")
            self.top_table.setRowCount(0)
            self.graph.clear()
            self.graph_caption.setText("")
            return
        self.headline.setText(self._headline(view))
        threshold = self._result.options.passages.partial_threshold
        label = self.tr("partial-copy threshold %1").replace("%1", f"{threshold:.0%}")
        self.histogram.set_counts(view.histogram, threshold, label)
        self._fill_top(view)
        names = [self._name(doc) for doc in view.graph.nodes.tolist()]
        self.graph.show_graph(view.graph, names, self._similarity.index)
        self.graph_caption.setText(self._graph_caption(view.graph))

    def _headline(self, view: Overview) -> str:
        text = self.tr("Highest similarity index: %1 (%2) · median %3 over %4 documents").replace(
            "%1", f"{view.highest:.0%}"
        )
        text = text.replace("%2", self._name(view.highest_doc))
        return text.replace("%3", f"{view.median:.0%}").replace("%4", f"{len(view.essays):,}")

    def _graph_caption(self, graph: CopyGraph) -> str:
        if not len(graph.nodes):
            return self.tr("No documents share text.")
        if graph.group_count == 1:
            text = self.tr("%1 documents in one group are linked")
        else:
            text = self.tr("%1 documents in %2 groups are linked")
        text = text.replace("%1", f"{len(graph.nodes):,}").replace("%2", f"{graph.group_count:,}")
        how = self.tr(
            "by near duplicates within k or partial copies. "
            "Click a document to open it, a line to compare the two."
        )
        text = f"{text} {how}"
        if graph.dropped:
            more = self.tr("%1 more are left out of the drawing.").replace(
                "%1", f"{graph.dropped:,}"
            )
            text = f"{text} {more}"
        return text

    def _fill_top(self, view: Overview) -> None:
        self.top_table.setRowCount(len(view.top))
        for row, doc in enumerate(view.top.tolist()):
            name = QTableWidgetItem(self._name(doc))
            name.setData(Qt.ItemDataRole.UserRole, doc)
            name.setToolTip(plain(NAMES.path(self._result.documents[doc].path)))
            share = QTableWidgetItem(f"{self._similarity.index[doc]:.0%}")
            share.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            share.setBackground(index_colour(float(self._similarity.index[doc])))
            share.setForeground(QColor("black"))
            self.top_table.setItem(row, 0, name)
            self.top_table.setItem(row, 1, share)

    def _on_top_clicked(self, row: int, _column: int) -> None:
        self.document_requested.emit(self.top_table.item(row, 0).data(Qt.ItemDataRole.UserRole))

    def _name(self, doc: int) -> str:
        return NAMES.name(self._result.documents[doc].path) if doc >= 0 else ""


def _short(name: str, limit: int = 22) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"
