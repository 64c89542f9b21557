"""The cluster tree: cluster rows with their member rows, read lazily from flat arrays.

Nothing is materialized per row: `index`, `rowCount` and `data` look into the numpy
arrays of `core.analysis.cluster.Clusters`, so 100,000 documents cost no more than the arrays.
Sorting and filtering are numpy too; no Python call runs per comparison.
Internal ids: 0 marks a cluster row; c + 1 marks a member row of cluster c.

Checks mark files for the trash or a folder. The copy to keep never has a box: a cluster's
original, and any file in a reference folder or an archive folder (`protected`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont
from simsift.app.models.roles import DocRole
from simsift.app.readable import NAMES, plain, readable
from simsift.core.analysis.cluster import KIND_NAMES, KIND_ORIGINAL, Clusters
from simsift.core.arrays import owners
from simsift.core.document import FileRecord
from simsift.core.pipeline.check import is_archive_path

COL_NAME, COL_FOLDER, COL_KIND, COL_DISTANCE, COL_SIZE, COL_TITLE = range(6)
COLUMN_COUNT = 6


_Index = QModelIndex | QPersistentModelIndex
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_CLUSTER_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_MEMBER_FLAGS = _CLUSTER_FLAGS | Qt.ItemFlag.ItemNeverHasChildren
_CHECKABLE_MEMBER_FLAGS = _MEMBER_FLAGS | Qt.ItemFlag.ItemIsUserCheckable
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


@dataclass(frozen=True)
class Marking:
    """What "Mark all but the original" did: files checked, and files left unchecked."""

    marked: int
    farther: int  # members farther than k from their cluster's original
    protected: int  # members in a reference or archive folder
    apart: int  # files within k of a member, farther than k from every original: no cluster


# Translation sources for KIND_NAMES, so lupdate sees them.
_KIND_SOURCES = (
    QCoreApplication.translate("Kinds", "original"),
    QCoreApplication.translate("Kinds", "exact"),
    QCoreApplication.translate("Kinds", "same text"),
    QCoreApplication.translate("Kinds", "near"),
    QCoreApplication.translate("Kinds", "partial"),
)


class ClusterModel(QAbstractItemModel):
    """Two-level tree of clusters and members, with checkable member rows.

    The model sorts itself with numpy (`sort`): a sort through a proxy's Python
    `lessThan` takes seconds at 25,000 clusters. Rows are an arrangement of the flat
    arrays: top-level row r shows cluster `_rows[r]`, and member row r of cluster c the
    position `_positions[ptr[c] + r]` of `Clusters.doc`. Member rows carry c + 1 as
    internal id, so their parent survives any re-sort.
    """

    checks_changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._documents: Sequence[FileRecord] = ()
        self._clusters: Clusters = _EMPTY_CLUSTERS
        self._cluster_of = np.zeros(0, np.int64)  # position -> cluster
        self._cluster_kind = np.zeros(0, np.int8)
        self._rows = np.zeros(0, np.int64)  # top-level row -> cluster
        self._row_of = np.zeros(0, np.int64)  # cluster -> top-level row
        self._row_clusters: list[int] = []  # _rows as a list, and member counts by row:
        self._row_sizes: list[int] = []  # Python lists index faster than numpy arrays
        self._positions = np.zeros(0, np.int64)  # (ptr[c] + member row) -> position
        self._member_row = np.zeros(0, np.int64)  # position -> member row
        self._order: tuple[int, Qt.SortOrder] | None = None  # kept for new clusters
        self._doc_keys: dict[int, np.ndarray] = {}  # per-document sort keys, by column
        self._texts: list[str] | None = None  # lower-case path and title, for filtering
        self._matches: tuple[str, np.ndarray] | None = None  # last filter, per cluster
        self._checked: set[int] = set()
        self._protected = np.zeros(0, bool)  # per document: never checked
        self._archived = np.zeros(0, bool)  # per document: an archive document
        self._kept: list[bool] = []  # per position: no box (a list: Qt asks per row)

    # -- content -------------------------------------------------------------

    def set_clusters(
        self,
        documents: Sequence[FileRecord],
        clusters: Clusters,
        protected: np.ndarray | None = None,
    ) -> None:
        """Show new clusters in the current sort order; checks on shown documents are kept.

        `protected` (bool per document) flags files in reference folders, never checked;
        archive documents never are either.
        """
        self.beginResetModel()
        if documents is not self._documents or len(self._archived) != len(documents):
            self._doc_keys, self._texts = {}, None
            self._archived = np.fromiter(
                (is_archive_path(d.path) for d in documents), bool, len(documents)
            )
        self._protected = self._archived if protected is None else self._archived | protected
        self._kept = ((clusters.kind == KIND_ORIGINAL) | self._protected[clusters.doc]).tolist()
        self._documents = documents
        self._clusters = clusters
        self._cluster_of = owners(np.diff(clusters.ptr))
        self._cluster_kind = _cluster_kinds(clusters)
        self._matches = None
        self._arrange()
        self._checked &= set(self._checkable(clusters.doc).tolist())
        self.endResetModel()

    def clear(self) -> None:
        self.set_clusters((), _EMPTY_CLUSTERS)

    @property
    def clusters(self) -> Clusters:
        return self._clusters

    def original_of(self, doc: int) -> int:
        """The original of the cluster holding `doc`."""
        position = int(np.flatnonzero(self._clusters.doc == doc)[0])
        return int(self._clusters.doc[self._clusters.ptr[self._cluster_of[position]]])

    # -- checks --------------------------------------------------------------

    def checked_documents(self) -> list[int]:
        return sorted(self._checked)

    def _checkable(self, docs: np.ndarray) -> np.ndarray:
        """The documents among cluster members `docs` that may be checked."""
        c = self._clusters
        members = c.doc[(c.kind != KIND_ORIGINAL) & ~self._protected[c.doc]]
        return docs[np.isin(docs, members)]

    def set_checked(self, docs: set[int]) -> None:
        """Check exactly `docs` among the shown members; never an original (the copy to
        keep) nor a file in a reference or archive folder."""
        wanted = np.fromiter(docs, np.int64, len(docs))
        self._checked = set(self._checkable(wanted).tolist())
        # one layout signal instead of a dataChanged per cluster (seconds at 25,000)
        self.layoutAboutToBeChanged.emit()
        self.layoutChanged.emit()
        self.checks_changed.emit()

    def check_all_but_original(self) -> Marking:
        """Check every member within k of its cluster's original (the copy to keep).

        Every member of a cluster is within k of its original; a member farther (from
        clusters made otherwise) and files in reference or archive folders stay unchecked.
        """
        c = self._clusters
        members = c.kind != KIND_ORIGINAL
        protected = members & self._protected[c.doc]
        farther = members & ~protected & (c.distance > c.k)
        self.set_checked(set(c.doc[members & ~protected & ~farther].tolist()))
        return Marking(
            len(self._checked),
            int(np.count_nonzero(farther)),
            int(np.count_nonzero(protected)),
            len(c.apart),
        )

    # -- sorting and filtering -----------------------------------------------

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort clusters by `column`, and members within each cluster (original first)."""
        if not 0 <= column < COLUMN_COUNT:
            return
        self._order = (column, order)
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        where = [(i.internalId(), i.row(), i.column()) for i in before]
        rows, positions = self._rows, self._positions
        self._arrange()
        after = [self._moved(key, rows, positions) for key in where]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def row_matches(self, row: int, needle: str) -> bool:
        """Whether any member of the cluster at top-level `row` has `needle` in its path
        or title (lower case)."""
        if self._matches is None or self._matches[0] != needle:
            self._matches = (needle, self._clusters_matching(needle))
        return bool(self._matches[1][self._rows[row]])

    def _clusters_matching(self, needle: str) -> np.ndarray:
        """Per cluster: does any member match `needle`."""
        if len(self._clusters) == 0:
            return np.zeros(0, bool)
        if self._texts is None:
            self._texts = [f"{d.path}\n{d.title}".lower() for d in self._documents]
        texts = self._texts
        hit = np.fromiter((needle in texts[d] for d in self._clusters.doc.tolist()), bool)
        return np.logical_or.reduceat(hit, self._clusters.ptr[:-1])

    def _arrange(self) -> None:
        """Compute the row order of clusters and members from `_order`."""
        c = self._clusters
        n, m = len(c), len(c.doc)
        if self._order is None or n == 0:
            self._rows, self._positions = np.arange(n), np.arange(m)
        else:
            column, order = self._order
            sign = -1 if order == Qt.SortOrder.DescendingOrder else 1
            self._rows = np.lexsort((np.arange(n), sign * self._cluster_keys(column)))
            keys = (np.arange(m), sign * self._member_keys(column), c.kind != KIND_ORIGINAL)
            self._positions = np.lexsort((*keys, self._cluster_of))
        self._row_of = _inverse(self._rows)
        self._row_clusters = self._rows.tolist()
        self._row_sizes = np.diff(c.ptr)[self._rows].tolist()
        self._member_row = np.empty(m, np.int64)
        self._member_row[self._positions] = np.arange(m) - np.repeat(c.ptr[:-1], np.diff(c.ptr))

    def _cluster_keys(self, column: int) -> np.ndarray:
        c = self._clusters
        originals = c.doc[c.ptr[:-1]]
        if column == COL_NAME:
            return np.diff(c.ptr)
        if column == COL_KIND:
            return self._cluster_kind.astype(np.int64)
        if column == COL_DISTANCE:
            return c.max_distance.astype(np.int64)
        if column == COL_SIZE:
            return np.add.reduceat(self._document_keys(COL_SIZE)[c.doc], c.ptr[:-1])
        return self._document_keys(column)[originals]  # folder or title of the original

    def _member_keys(self, column: int) -> np.ndarray:
        c = self._clusters
        if column == COL_NAME:  # members keep their order: by distance to the original
            return np.zeros(len(c.doc), np.int64)
        if column == COL_KIND:
            return c.kind.astype(np.int64)
        if column == COL_DISTANCE:
            return c.distance.astype(np.int64)
        return self._document_keys(column)[c.doc]

    def _document_keys(self, column: int) -> np.ndarray:
        """One sort key per document for the size, folder and title columns (cached)."""
        if column not in self._doc_keys:
            docs = self._documents
            if column == COL_SIZE:
                keys = np.fromiter((d.size for d in docs), np.int64, len(docs))
            elif column == COL_FOLDER:
                keys = text_ranks([os.path.dirname(d.path).lower() for d in docs])
            else:
                keys = text_ranks([d.title.lower() for d in docs])
            self._doc_keys[column] = keys
        return self._doc_keys[column]

    def _moved(self, key: tuple[int, int, int], rows: np.ndarray, positions: np.ndarray):
        """Where the row (internal id, row, column) under the old order is now."""
        internal, row, column = key
        if internal == 0:
            return self.createIndex(int(self._row_of[rows[row]]), column, 0)
        position = positions[self._clusters.ptr[internal - 1] + row]
        return self.createIndex(int(self._member_row[position]), column, internal)

    # -- QAbstractItemModel --------------------------------------------------

    # Qt calls these for every row when a proxy maps 25,000 clusters: bounds are checked
    # here rather than through hasIndex (two more Python calls), and sizes come from lists.

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not 0 <= column < COLUMN_COUNT or row < 0:
            return QModelIndex()
        if not parent.isValid():
            if row >= len(self._row_clusters):
                return QModelIndex()
            return self.createIndex(row, column, 0)
        if parent.internalId() != 0 or parent.column() != 0:
            return QModelIndex()
        if row >= self._row_sizes[parent.row()]:
            return QModelIndex()
        return self.createIndex(row, column, self._row_clusters[parent.row()] + 1)

    def parent(self, index: _Index | None = None):  # type: ignore[override]
        if index is None:  # QObject.parent()
            return super().parent()
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(int(self._row_of[index.internalId() - 1]), 0, 0)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._row_clusters)
        if parent.internalId() == 0 and parent.column() == 0:
            return self._row_sizes[parent.row()]
        return 0

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return COLUMN_COUNT

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008
        return self.rowCount(parent) > 0

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return _NO_FLAGS
        if index.internalId() == 0:
            return _CLUSTER_FLAGS
        if index.column() != COL_NAME or self._is_kept(index):
            return _MEMBER_FLAGS
        return _CHECKABLE_MEMBER_FLAGS

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
            return self._cluster_data(int(self._rows[index.row()]), index.column(), role)
        return self._member_data(self._position(index), index.column(), role)

    def _position(self, index: _Index) -> int:
        """Where the member at `index` sits in the cluster arrays."""
        return int(self._positions[self._clusters.ptr[index.internalId() - 1] + index.row()])

    def _is_kept(self, index: _Index) -> bool:
        """An original, or a file in a reference or archive folder: it has no box."""
        return self._kept[self._position(index)]

    def setData(self, index: _Index, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid() or index.internalId() == 0:
            return False
        if self._is_kept(index):
            return False
        doc = self.data(index, DocRole)
        if _is_checked(value):
            self._checked.add(doc)
        else:
            self._checked.discard(doc)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        self.checks_changed.emit()
        return True

    # -- rows ----------------------------------------------------------------

    def _cluster_data(self, c: int, column: int, role: int):
        members = int(self._clusters.ptr[c + 1] - self._clusters.ptr[c])
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cluster_text(c, column, members)
        if role == DocRole:
            return -1
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
        if role == DocRole:
            return doc
        if role == Qt.ItemDataRole.CheckStateRole and column == COL_NAME:
            if self._kept[position]:
                return None  # the copy to keep has no box
            checked = doc in self._checked
            return Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = NAMES.path(record.path)
            if self._protected[doc]:
                tip += "\n" + self.tr("In a reference or archive folder: never marked or moved.")
            return plain(tip)
        if role == Qt.ItemDataRole.FontRole and kind == KIND_ORIGINAL and column == COL_NAME:
            font = QFont()
            font.setItalic(True)
            return font
        return None


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
        return NAMES.name(record.path)
    if column == COL_FOLDER:
        return NAMES.folder(readable(os.path.dirname(record.path)))
    if column == COL_KIND:
        return kind_label(kind)
    if column == COL_DISTANCE:
        return "—" if kind == KIND_ORIGINAL else str(distance)
    if column == COL_SIZE:
        return human_size(record.size)
    return NAMES.title(record.title)


def text_ranks(texts: list[str]) -> np.ndarray:
    """Each text's rank in sorted order (equal texts get different, adjacent ranks)."""
    ranks = np.empty(len(texts), dtype=np.int64)
    ranks[sorted(range(len(texts)), key=texts.__getitem__)] = np.arange(len(texts))
    return ranks


def _inverse(permutation: np.ndarray) -> np.ndarray:
    inverse = np.empty_like(permutation)
    inverse[permutation] = np.arange(len(permutation))
    return inverse


class TextFilterProxy(QSortFilterProxyModel):
    """A filter box's proxy: rows are kept by the model's own test of the lower-case text
    (`filterAcceptsRow` in subclasses), sorting is the model's own (numpy)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setDynamicSortFilter(False)
        self._needle = ""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)

    def set_filter_text(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9; invalidateFilter is deprecated
            self.beginFilterChange()
            self._needle = text.strip().lower()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._needle = text.strip().lower()
            self.invalidateFilter()


class ClusterFilterProxy(TextFilterProxy):
    """Filters whole clusters that have a matching member."""

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        if not self._needle or source_parent.isValid():
            return True  # members follow their cluster: a cluster is shown whole
        return self.sourceModel().row_matches(source_row, self._needle)
