"""The Partial copies tab: pairs sharing passages that the clusters do not already show.

Which pairs are listed is core's rule (`core.analysis.partial_pairs`), applied to the
pairs copied word for word and to those found by meaning only (paraphrased, translated);
the panel owns the table, its sorting proxy and its filter box, and says which pair is
selected; a new list (another k, a recompute) keeps that pair selected when it is still
listed, found by its documents' paths.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLineEdit, QTableView, QVBoxLayout, QWidget
from simsift.app.column_widths import ColumnFitter
from simsift.app.dialogs.verdict import VerdictDelegate
from simsift.app.models.partial import (
    COL_CONTAINMENT_AB,
    COL_FOLDER_A,
    COL_FOLDER_B,
    COL_KIND,
    COL_NAME_A,
    COL_NAME_B,
    COL_VERDICT,
    PARAPHRASED,
    TRANSLATED,
    VERBATIM,
    PartialModel,
    PartialProxy,
)
from simsift.app.models.roles import PairRole
from simsift.app.row_height import fit_rows_to_names
from simsift.core.analysis.partial_pairs import beyond_k, partial_pairs_beyond_k
from simsift.core.analysis.similarity import DocumentSimilarity
from simsift.core.arrays import pair_keys, split_keys
from simsift.core.document import FileRecord
from simsift.core.match.meaning.matches import KINDS
from simsift.core.pipeline.result import ScanResult
from simsift.core.store.verdicts import Verdicts


class PartialPanel(QWidget):
    """One row per pair of documents where passages of one are found in the other."""

    pair_selected = Signal()  # the selection changed (to a pair or to none)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = PartialModel(self)
        self._documents: Sequence[FileRecord] = ()  # those of the pairs listed
        self.proxy = PartialProxy(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)  # any column: names, folders, verdicts
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.view = _make_view(self.proxy)
        self.columns = ColumnFitter(self.view, _TEXT_COLUMNS)
        self.filter = QLineEdit()
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter)
        layout.addWidget(self.view, 1)
        self.view.selectionModel().selectionChanged.connect(lambda *_: self.pair_selected.emit())

    def retranslate(self) -> None:
        self.filter.setPlaceholderText(self.tr("Filter by file name or folder…"))

    def tab_title(self) -> str:
        return self.tr("Partial copies (%1)").replace("%1", str(self.model.rowCount()))

    def tab_tip(self) -> str:
        return self.tr("Pairs sharing passages that Clusters does not already show (beyond k)")

    def set_verdicts(self, verdicts: Verdicts) -> None:
        self.model.set_verdicts(verdicts)

    def show_result(
        self, result: ScanResult, k: int, similarity: DocumentSimilarity | None = None
    ) -> None:
        """List `result`'s partial copies that the clusters at `k` do not show: those
        copied word for word, and those found by meaning only, each with its kind (the
        shares by meaning from `similarity`, computed when None). The selected pair stays
        selected if listed again."""
        selected = self.selected_pair()
        kept = None if selected is None else {self._documents[d].path for d in selected}
        self.model.set_roots((*result.options.roots, *result.options.reference_roots))
        found = result.partial_pairs()
        pairs, distance = partial_pairs_beyond_k(found, result.distance(found.left, found.right), k)
        n = max(len(result.documents), 1)
        meaning = result.passages.meaning
        kinds = _pair_kinds(meaning, n)  # pair key -> bits of the kinds found by meaning
        keys = pair_keys(pairs.left, pairs.right, n)
        kind = np.array([VERBATIM | kinds.get(int(key), 0) for key in keys], np.int64)
        only = np.array(sorted(set(kinds) - set(keys.tolist())), np.int64)  # by meaning only
        only_distance = result.distance(*split_keys(only, n)) if len(only) else only
        beyond = beyond_k(only_distance, k)
        only, only_distance = only[beyond], only_distance[beyond]
        left, right = split_keys(only, n)
        if len(kinds) and similarity is None:
            similarity = result.similarity()
        shares = _meaning_shares(similarity, kinds) if kinds else {}
        all_left = np.r_[pairs.left, left]
        all_right = np.r_[pairs.right, right]
        ab = [shares.get((int(a), int(b)), 0.0) for a, b in zip(all_left, all_right, strict=True)]
        ba = [shares.get((int(b), int(a)), 0.0) for a, b in zip(all_left, all_right, strict=True)]
        zeros = np.zeros(len(only))
        self.model.set_pairs(
            result.documents,
            all_left,
            all_right,
            np.r_[pairs.containment_ab, zeros],
            np.r_[pairs.containment_ba, zeros],
            np.r_[pairs.overlap, zeros],
            np.r_[distance, only_distance],
            longest_run=np.r_[pairs.longest_run, np.zeros(len(only), np.int64)],
            kind=np.r_[kind, [kinds[int(key)] for key in only]].astype(np.int64),
            meaning_ab=np.array(ab, np.float64),
            meaning_ba=np.array(ba, np.float64),
        )
        self._documents = result.documents
        one_folder = self.model.folder_count() < 2  # the Folder columns would all be alike
        self.view.setColumnHidden(COL_FOLDER_A, one_folder)
        self.view.setColumnHidden(COL_FOLDER_B, one_folder)
        if kept is not None:
            self._select_pair_of(kept)

    def _select_pair_of(self, paths: set[str]) -> None:
        """Select the row of the pair of documents at `paths`, if listed."""
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if {self._documents[d].path for d in self.proxy.data(index, PairRole)} == paths:
                self.view.selectRow(row)
                self.view.scrollTo(index)
                return

    def selected_pair(self) -> tuple[int, int] | None:
        rows = self.view.selectionModel().selectedRows()
        return self.proxy.data(rows[0], PairRole) if rows else None


def _pair_kinds(meaning, n: int) -> dict[int, int]:
    """Pair key (`pair_keys`) -> PARAPHRASED and TRANSLATED bits of the fragments each
    pair shares in meaning."""
    bits = np.array([PARAPHRASED if k == "paraphrased" else TRANSLATED for k in KINDS])
    kinds: dict[int, int] = {}
    keys = pair_keys(meaning.left, meaning.right, n).tolist()
    for key, k in zip(keys, meaning.kind.tolist(), strict=True):
        kinds[key] = kinds.get(key, 0) | int(bits[k])
    return kinds


def _meaning_shares(similarity: DocumentSimilarity, kinds: dict[int, int]) -> dict:
    """(document, source) -> the share of the document's own text found in the source by
    meaning (paraphrased and translated), for the documents of the pairs in `kinds`."""
    n = len(similarity.index)
    docs = {d for key in kinds for d in divmod(key, max(n, 1))}
    return {
        (doc, s.doc): s.paraphrased + s.translated
        for doc in docs
        for s in similarity.sources(doc)
        if s.paraphrased or s.translated
    }


# narrowest and widest pixels of the text columns; the measures always show whole
_TEXT_COLUMNS = {
    COL_NAME_A: (110, 300),
    COL_FOLDER_A: (50, 140),
    COL_NAME_B: (110, 300),
    COL_FOLDER_B: (50, 140),
    COL_VERDICT: (70, 220),
    COL_KIND: (70, 200),
}


def _make_view(model) -> QTableView:
    view = QTableView()
    view.setModel(model)
    fit_rows_to_names(view)
    view.setSortingEnabled(True)
    view.sortByColumn(COL_CONTAINMENT_AB, Qt.SortOrder.DescendingOrder)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.verticalHeader().hide()
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    view.setItemDelegateForColumn(COL_VERDICT, VerdictDelegate(view))
    # what the pair shares, read before its measures
    header = view.horizontalHeader()
    header.moveSection(header.visualIndex(COL_KIND), header.visualIndex(COL_CONTAINMENT_AB))
    return view
