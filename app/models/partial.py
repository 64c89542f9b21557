"""Table of partial copies: document pairs sharing passages, one row per pair.

Rows come straight from the flat arrays of `PairOverlaps` (no Python object per row),
so the table stays light with many pairs. Sorting goes through `SortRole` numbers.

A pair is copied word for word (verbatim), or found by meaning only (paraphrased or
translated, `core.match.meaning`); the Kind column names what each pair shares, and a
verbatim pair that also shares passages in meaning says so. For a pair found by meaning
only, "A in B" and "B in A" are the shares found by meaning.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from simsift.app.dialogs.verdict import FolderNames, verdict_data, verdict_rank
from simsift.app.models.clusters import text_ranks
from simsift.app.models.roles import PairRole, SortRole
from simsift.app.readable import NAMES, plain
from simsift.core.document import FileRecord
from simsift.core.store.verdicts import Verdict, Verdicts

(
    COL_NAME_A,
    COL_FOLDER_A,
    COL_NAME_B,
    COL_FOLDER_B,
    COL_CONTAINMENT_AB,
    COL_CONTAINMENT_BA,
    COL_OVERLAP,
    COL_RUN,
    COL_DISTANCE,
    COL_VERDICT,
    COL_KIND,
) = range(11)
COLUMN_COUNT = 11

# what a pair shares, as bits of its kind number (the Kind column sorts on it)
VERBATIM, PARAPHRASED, TRANSLATED = 1, 2, 4


_Index = QModelIndex | QPersistentModelIndex
_EMPTY_INT = np.zeros(0, dtype=np.int64)
_EMPTY_FLOAT = np.zeros(0, dtype=np.float64)


class PartialModel(QAbstractTableModel):
    """One row per pair (A, B) of documents where passages of one are found in the other."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._documents: Sequence[FileRecord] = ()
        self._left = _EMPTY_INT
        self._right = _EMPTY_INT
        self._lr = _EMPTY_FLOAT
        self._rl = _EMPTY_FLOAT
        self._overlap = _EMPTY_FLOAT
        self._run = _EMPTY_INT
        self._distance = _EMPTY_INT
        self._kind = _EMPTY_INT
        self._meaning_ab = _EMPTY_FLOAT  # shares found by meaning: of A from B
        self._meaning_ba = _EMPTY_FLOAT
        self._order: tuple[int, Qt.SortOrder] | None = None  # last sort, kept for new pairs
        self._ranks: dict[bool, np.ndarray] = {}  # documents ranked by name / folder
        self._verdicts = Verdicts()
        self._folders = FolderNames(())

    def set_pairs(
        self,
        documents: Sequence[FileRecord],
        left: np.ndarray,
        right: np.ndarray,
        containment_ab: np.ndarray,
        containment_ba: np.ndarray,
        overlap: np.ndarray,
        distance: np.ndarray,
        longest_run: np.ndarray | None = None,
        kind: np.ndarray | None = None,
        meaning_ab: np.ndarray | None = None,
        meaning_ba: np.ndarray | None = None,
    ) -> None:
        """Show these pairs (parallel arrays; containments and overlap in 0..1, longest
        verbatim run in words; `kind`: VERBATIM, PARAPHRASED and TRANSLATED bits, all
        VERBATIM when None; `meaning_ab`, `meaning_ba`: shares found by meaning)."""
        self.beginResetModel()
        if documents is not self._documents:
            self._ranks = {}
        self._documents = documents
        self._left = np.asarray(left, dtype=np.int64)
        self._right = np.asarray(right, dtype=np.int64)
        self._lr = np.asarray(containment_ab, dtype=np.float64)
        self._rl = np.asarray(containment_ba, dtype=np.float64)
        self._overlap = np.asarray(overlap, dtype=np.float64)
        self._distance = np.asarray(distance, dtype=np.int64)
        run = np.zeros(len(self._left), np.int64) if longest_run is None else longest_run
        self._run = np.asarray(run, dtype=np.int64)
        n = len(self._left)
        self._kind = np.asarray(np.full(n, VERBATIM) if kind is None else kind, np.int64)
        zeros = np.zeros(n)
        self._meaning_ab = np.asarray(zeros if meaning_ab is None else meaning_ab, np.float64)
        self._meaning_ba = np.asarray(zeros if meaning_ba is None else meaning_ba, np.float64)
        if self._order is not None:
            self._permute(self._sort_permutation(*self._order))
        self.endResetModel()

    def set_verdicts(self, verdicts: Verdicts) -> None:
        """Show these verdicts in the Verdict column."""
        self._verdicts = verdicts
        if len(self._left):
            self.dataChanged.emit(
                self.index(0, COL_VERDICT), self.index(len(self._left) - 1, COL_VERDICT)
            )

    def set_roots(self, roots: Sequence[str]) -> None:
        """The scanned folders: folders are shown relative to them."""
        self.beginResetModel()
        self._folders = FolderNames(roots)
        self.endResetModel()

    def folder_count(self) -> int:
        """How many folders the listed documents are in (as the Folder columns show them)."""
        docs = np.unique(np.r_[self._left, self._right]).tolist()
        return len({self._folders.folder(self._documents[d].path) for d in docs})

    def verdict(self, row: int) -> Verdict | None:
        docs = self._documents
        return self._verdicts.of_pair(
            docs[int(self._left[row])].path, docs[int(self._right[row])].path
        )

    def clear(self) -> None:
        self.set_pairs(
            (), _EMPTY_INT, _EMPTY_INT, _EMPTY_FLOAT, _EMPTY_FLOAT, _EMPTY_FLOAT, _EMPTY_INT
        )

    def pair(self, row: int) -> tuple[int, int]:
        return int(self._left[row]), int(self._right[row])

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._left)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else COLUMN_COUNT

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0):
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < COLUMN_COUNT:
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._header_tip(section)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            self.tr("Document A"),
            self.tr("Folder A"),
            self.tr("Document B"),
            self.tr("Folder B"),
            self.tr("A in B"),
            self.tr("B in A"),
            self.tr("Overlap"),
            self.tr("In a row"),
            self.tr("Distance"),
            self.tr("Verdict"),
            self.tr("Kind"),
        )[section]

    def _header_tip(self, section: int) -> str | None:
        """What each measure means (the README's "Measures" section says the same)."""
        if section == COL_CONTAINMENT_AB:
            return self.tr(
                "Containment of A in B: share of A's own text inside passages also in B "
                "(for a pair found by meaning only, the share found by meaning)"
            )
        if section == COL_CONTAINMENT_BA:
            return self.tr(
                "Containment of B in A: share of B's own text inside passages also in A "
                "(for a pair found by meaning only, the share found by meaning)"
            )
        if section == COL_KIND:
            return self.tr(
                "What the pair shares: verbatim (word for word), paraphrased (the same "
                "sentences in other words) or translated (Chinese ↔ English). Paraphrased "
                "and translated passages are evidence to read side by side, not proof"
            )
        if section == COL_OVERLAP:
            return self.tr("Overlap: both documents' text inside shared passages, over both texts")
        if section == COL_RUN:
            return self.tr(
                "Words in a row: the longest run of words both share verbatim (template and "
                "common text left out); 15 or more make a partial copy whatever the share"
            )
        if section == COL_DISTANCE:
            return self.tr("Hamming distance: bits in which the two 64-bit fingerprints differ")
        if section == COL_VERDICT:
            return self.tr("Your verdict on the pair (Edit ▸ Verdict…)")
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self._left):
            return None
        row, column = index.row(), index.column()
        if role == PairRole:
            return self.pair(row)
        if column == COL_VERDICT:
            return verdict_data(self, self.verdict(row), role)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if COL_CONTAINMENT_AB <= column < COL_VERDICT:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if column in (COL_NAME_A, COL_FOLDER_A):
                return plain(NAMES.path(self._documents[int(self._left[row])].path))
            if column in (COL_NAME_B, COL_FOLDER_B):
                return plain(NAMES.path(self._documents[int(self._right[row])].path))
            if column in (COL_CONTAINMENT_AB, COL_CONTAINMENT_BA, COL_KIND):
                return self._meaning_tip(row)
            return None
        if role == SortRole:
            return self._sort_value(row, column)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if column in (COL_NAME_A, COL_NAME_B, COL_FOLDER_A, COL_FOLDER_B):
            doc = self._left[row] if column in (COL_NAME_A, COL_FOLDER_A) else self._right[row]
            path = self._documents[int(doc)].path
            if column in (COL_NAME_A, COL_NAME_B):
                return NAMES.name(path)
            return NAMES.folder(self._folders.folder(path))
        if column == COL_DISTANCE:
            return str(int(self._distance[row]))
        if column == COL_RUN:
            return str(int(self._run[row]))
        if column == COL_KIND:
            return self._kind_text(int(self._kind[row]))
        value = self._measures()[column - COL_CONTAINMENT_AB][row]
        return f"{100 * float(value):.0f} %"

    def _measures(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A in B, B in A and overlap per row: word for word, or by meaning for the pairs
        found by meaning only."""
        by_meaning = (self._kind & VERBATIM) == 0
        return (
            np.where(by_meaning, self._meaning_ab, self._lr),
            np.where(by_meaning, self._meaning_ba, self._rl),
            self._overlap,
        )

    def _kind_text(self, kind: int) -> str:
        """ "verbatim", "paraphrased", "translated", "verbatim, paraphrased too"…"""
        meaning = [
            word
            for bit, word in (
                (PARAPHRASED, self.tr("paraphrased")),
                (TRANSLATED, self.tr("translated")),
            )
            if kind & bit
        ]
        if not kind & VERBATIM:
            return ", ".join(meaning)
        if not meaning:
            return self.tr("verbatim")
        return self.tr("verbatim, %1 too").replace("%1", ", ".join(meaning))

    def _meaning_tip(self, row: int) -> str | None:
        """The pair's shares found by meaning, and that they are evidence to read."""
        kind = int(self._kind[row])
        if not kind & (PARAPHRASED | TRANSLATED):
            return None
        ab, ba = float(self._meaning_ab[row]), float(self._meaning_ba[row])
        found = self._kind_text(kind & ~VERBATIM)
        text = (
            self.tr(
                "Found by meaning (%1): %2 of A's own text and %3 of B's. The words differ: "
                "evidence to read side by side, not proof."
            )
            .replace("%1", found)
            .replace("%2", f"{ab:.0%}")
            .replace("%3", f"{ba:.0%}")
        )
        return plain(text)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Reorder rows with one numpy argsort (a Python comparison per pair is too slow
        with tens of thousands of pairs)."""
        if not 0 <= column < COLUMN_COUNT:
            return
        self._order = (column, order)
        self.layoutAboutToBeChanged.emit()
        self._permute(self._sort_permutation(column, order))
        self.layoutChanged.emit()

    def _sort_permutation(self, column: int, order: Qt.SortOrder) -> np.ndarray:
        perm = np.argsort(self._sort_keys(column), kind="stable")
        return perm[::-1] if order == Qt.SortOrder.DescendingOrder else perm

    def _permute(self, perm: np.ndarray) -> None:
        names = ("_left", "_right", "_lr", "_rl", "_overlap", "_run", "_distance", "_kind")
        for name in (*names, "_meaning_ab", "_meaning_ba"):
            setattr(self, name, getattr(self, name)[perm])

    def _sort_keys(self, column: int) -> np.ndarray:
        """One sortable number per row; names and folders sort by the documents' rank."""
        if column == COL_DISTANCE:
            return self._distance
        if column == COL_RUN:
            return self._run
        if column == COL_VERDICT:
            return np.array([verdict_rank(self.verdict(row)) for row in range(len(self._left))])
        if column == COL_KIND:
            return self._kind
        if column >= COL_CONTAINMENT_AB:
            return self._measures()[column - COL_CONTAINMENT_AB]
        docs = self._left if column in (COL_NAME_A, COL_FOLDER_A) else self._right
        by_name = column in (COL_NAME_A, COL_NAME_B)
        if by_name not in self._ranks:
            part = os.path.basename if by_name else os.path.dirname
            self._ranks[by_name] = text_ranks([part(d.path).lower() for d in self._documents])
        return self._ranks[by_name][docs]

    def _sort_value(self, row: int, column: int):
        return self._sort_keys(column)[row].item()


class PartialProxy(QSortFilterProxyModel):
    """Passes sorting to `PartialModel.sort`, which sorts its arrays with numpy."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setSortRole(SortRole)
        self.setDynamicSortFilter(False)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)
