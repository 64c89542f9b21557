"""The cluster tree: cluster rows with their member rows, read lazily from flat arrays.

Nothing is materialized per row: `index`, `rowCount` and `data` look into the numpy
arrays of `core.cluster.Clusters`, so 100,000 documents cost no more than the arrays.
Internal ids: 0 marks a cluster row; c + 1 marks a member row of cluster c.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QFont

from core.cluster import KIND_NAMES, KIND_REFERENCE, Clusters
from core.document import FileRecord

COL_NAME, COL_FOLDER, COL_KIND, COL_DISTANCE, COL_SIZE, COL_TITLE = range(6)
COLUMN_COUNT = 6

SortRole = Qt.ItemDataRole.UserRole + 1
DocRole = Qt.ItemDataRole.UserRole + 2  # document number of a member row, -1 on cluster rows
ClusterRole = Qt.ItemDataRole.UserRole + 3  # cluster number of any row
FilterRole = Qt.ItemDataRole.UserRole + 4  # lower-case path and title, for the filter box

_Index = QModelIndex | QPersistentModelIndex
_EMPTY_CLUSTERS = Clusters(0, *(np.zeros(n, np.int64) for n in (0, 1, 0, 0, 0)))


def kind_label(kind: int) -> str:
    """The translated name of a KIND_* code."""
    return QCoreApplication.translate("Kinds", KIND_NAMES[kind])


def human_size(size: int) -> str:
    """1536 -> "1.5 KB"."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TB"


# Translation sources for KIND_NAMES, so lupdate sees them.
_KIND_SOURCES = (
    QCoreApplication.translate("Kinds", "reference"),
    QCoreApplication.translate("Kinds", "exact"),
    QCoreApplication.translate("Kinds", "same text"),
    QCoreApplication.translate("Kinds", "near"),
    QCoreApplication.translate("Kinds", "partial"),
)


class ClusterModel(QAbstractItemModel):
    """Two-level tree of clusters and members, with checkable member rows."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._documents: Sequence[FileRecord] = ()
        self._clusters: Clusters = _EMPTY_CLUSTERS
        self._cluster_of: np.ndarray = np.zeros(0, np.int64)
        self._cluster_kind: np.ndarray = np.zeros(0, np.int8)
        self._checked: set[int] = set()

    # -- content -------------------------------------------------------------

    def set_clusters(self, documents: Sequence[FileRecord], clusters: Clusters) -> None:
        """Show new clusters; checks on documents that are still shown are kept."""
        self.beginResetModel()
        self._documents = documents
        self._clusters = clusters
        self._cluster_of = np.repeat(np.arange(len(clusters)), np.diff(clusters.ptr))
        self._cluster_kind = _cluster_kinds(clusters)
        self._checked &= set(clusters.doc.tolist())
        self.endResetModel()

    def clear(self) -> None:
        self.set_clusters((), _EMPTY_CLUSTERS)

    @property
    def clusters(self) -> Clusters:
        return self._clusters

    def document(self, doc: int) -> FileRecord:
        return self._documents[doc]

    def reference_of(self, doc: int) -> int:
        """The reference document of the cluster holding `doc`."""
        position = int(np.flatnonzero(self._clusters.doc == doc)[0])
        return int(self._clusters.doc[self._clusters.ptr[self._cluster_of[position]]])

    def distance_of(self, doc: int) -> int:
        position = int(np.flatnonzero(self._clusters.doc == doc)[0])
        return int(self._clusters.distance[position])

    # -- checks --------------------------------------------------------------

    def checked_documents(self) -> list[int]:
        return sorted(self._checked)

    def set_checked(self, docs: set[int]) -> None:
        """Check exactly `docs` (among shown members)."""
        self._checked = docs & set(self._clusters.doc.tolist())
        self._emit_all_changed(Qt.ItemDataRole.CheckStateRole)

    def check_all_but_reference(self) -> None:
        """Check every member except each cluster's reference (the copy to keep)."""
        c = self._clusters
        self.set_checked(set(c.doc[c.kind != KIND_REFERENCE].tolist()))

    def _emit_all_changed(self, role: int) -> None:
        for row in range(len(self._clusters)):
            parent = self.index(row, 0)
            count = self.rowCount(parent)
            if count:
                self.dataChanged.emit(
                    self.index(0, 0, parent), self.index(count - 1, 0, parent), [role]
                )

    # -- QAbstractItemModel --------------------------------------------------

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0)
        if parent.internalId() == 0:
            return self.createIndex(row, column, parent.row() + 1)
        return QModelIndex()

    def parent(self, index: _Index | None = None):  # type: ignore[override]
        if index is None:  # QObject.parent()
            return super().parent()
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.column() > 0:
            return 0
        if not parent.isValid():
            return len(self._clusters)
        if parent.internalId() == 0:
            c = parent.row()
            return int(self._clusters.ptr[c + 1] - self._clusters.ptr[c])
        return 0

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return COLUMN_COUNT

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008
        return self.rowCount(parent) > 0

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.internalId() != 0 and index.column() == COL_NAME:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        if index.internalId() != 0:
            flags |= Qt.ItemFlag.ItemNeverHasChildren
        return flags

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            self.tr("Name"),
            self.tr("Folder"),
            self.tr("Kind"),
            self.tr("Distance"),
            self.tr("Size"),
            self.tr("Title"),
        )[section]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if index.internalId() == 0:
            return self._cluster_data(index.row(), index.column(), role)
        position = int(self._clusters.ptr[index.internalId() - 1]) + index.row()
        return self._member_data(position, index.column(), role)

    def setData(self, index: _Index, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid() or index.internalId() == 0:
            return False
        doc = self.data(index, DocRole)
        if _is_checked(value):
            self._checked.add(doc)
        else:
            self._checked.discard(doc)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        return True

    # -- rows ----------------------------------------------------------------

    def _cluster_data(self, c: int, column: int, role: int):
        members = int(self._clusters.ptr[c + 1] - self._clusters.ptr[c])
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cluster_text(c, column, members)
        if role == SortRole:
            return (
                members,
                "",
                int(self._cluster_kind[c]),
                int(self._clusters.max_distance[c]),
                self._cluster_size(c),
                "",
            )[column]
        if role == DocRole:
            return -1
        if role == ClusterRole:
            return c
        if role == FilterRole:
            return "\n".join(self._filter_text(int(d)) for d in self._member_docs(c))
        if role == Qt.ItemDataRole.FontRole and column == COL_NAME:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def _cluster_text(self, c: int, column: int, members: int):
        if column == COL_NAME:
            return (
                self.tr("Cluster %1 · %2 files")
                .replace("%1", str(c + 1))
                .replace("%2", str(members))
            )
        if column == COL_KIND:
            return kind_label(int(self._cluster_kind[c]))
        if column == COL_DISTANCE:
            return self.tr("≤ %1").replace("%1", str(int(self._clusters.max_distance[c])))
        if column == COL_SIZE:
            return human_size(self._cluster_size(c))
        return None

    def _member_docs(self, c: int) -> np.ndarray:
        return self._clusters.doc[self._clusters.members(c)]

    def _cluster_size(self, c: int) -> int:
        return sum(self._documents[int(d)].size for d in self._member_docs(c))

    def _member_data(self, position: int, column: int, role: int):
        doc = int(self._clusters.doc[position])
        record = self._documents[doc]
        kind = int(self._clusters.kind[position])
        if role == Qt.ItemDataRole.DisplayRole:
            return _member_text(record, kind, int(self._clusters.distance[position]), column)
        if role == SortRole:
            if column == COL_NAME:  # members keep their order: the reference first
                return position
            return _member_sort_key(record, kind, int(self._clusters.distance[position]), column)
        if role == DocRole:
            return doc
        if role == ClusterRole:
            return int(self._cluster_of[position])
        if role == FilterRole:
            return self._filter_text(doc)
        if role == Qt.ItemDataRole.CheckStateRole and column == COL_NAME:
            checked = doc in self._checked
            return Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            return record.path
        if role == Qt.ItemDataRole.FontRole and kind == KIND_REFERENCE and column == COL_NAME:
            font = QFont()
            font.setItalic(True)
            return font
        return None

    def _filter_text(self, doc: int) -> str:
        record = self._documents[doc]
        return f"{record.path}\n{record.title}".lower()


def _is_checked(value) -> bool:
    if isinstance(value, Qt.CheckState):
        return value == Qt.CheckState.Checked
    return int(value) == Qt.CheckState.Checked.value


def _cluster_kinds(clusters: Clusters) -> np.ndarray:
    """The loosest relation in each cluster (near beats same text beats exact)."""
    if len(clusters) == 0:
        return np.zeros(0, np.int8)
    kinds = np.maximum.reduceat(clusters.kind, clusters.ptr[:-1])
    return kinds.astype(np.int8)


def _member_text(record: FileRecord, kind: int, distance: int, column: int):
    if column == COL_NAME:
        return os.path.basename(record.path)
    if column == COL_FOLDER:
        return os.path.dirname(record.path)
    if column == COL_KIND:
        return kind_label(kind)
    if column == COL_DISTANCE:
        return "—" if kind == KIND_REFERENCE else str(distance)
    if column == COL_SIZE:
        return human_size(record.size)
    return record.title


def _member_sort_key(record: FileRecord, kind: int, distance: int, column: int):
    if column == COL_FOLDER:
        return os.path.dirname(record.path).lower()
    if column == COL_KIND:
        return kind
    if column == COL_DISTANCE:
        return distance
    if column == COL_SIZE:
        return record.size
    return record.title.lower()


class ClusterFilterProxy(QSortFilterProxyModel):
    """Sorts by SortRole; the filter keeps whole clusters that have a matching member."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setSortRole(SortRole)
        self._needle = ""

    def set_filter_text(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9; invalidateFilter is deprecated
            self.beginFilterChange()
            self._needle = text.strip().lower()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._needle = text.strip().lower()
            self.invalidateFilter()

    def lessThan(self, left: _Index, right: _Index) -> bool:
        less = super().lessThan(left, right)
        if left.parent().isValid() and left.column() == COL_NAME:
            # keep the reference on top whichever way the clusters are sorted
            descending = self.sortOrder() == Qt.SortOrder.DescendingOrder
            return not less if descending else less
        return less

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        if not self._needle or source_parent.isValid():
            return True  # members follow their cluster: a cluster is shown whole
        index = self.sourceModel().index(source_row, 0, source_parent)
        return self._needle in self.sourceModel().data(index, FilterRole)
