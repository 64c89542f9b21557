"""The Documents tab's table: one row per document with its similarity index and sources.

Rows are the documents found in part elsewhere, then those found nowhere else that carry
integrity flags (disguised text may be why nothing was found) or whose sources the teacher
excluded, read from the flat arrays of `core.analysis.similarity.DocumentSimilarity` (no
Python object per row), highest index first.
"""

from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from simsift.app.dialogs.verdict import FolderNames, verdict_data, verdict_rank
from simsift.app.messages import translated
from simsift.app.models.clusters import TextFilterProxy, text_ranks
from simsift.app.models.roles import DocRole
from simsift.app.readable import NAMES, plain
from simsift.core.analysis.similarity import Source
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.text_kinds import quotes_found_elsewhere
from simsift.core.store.verdicts import Verdict, Verdicts

COL_NAME, COL_FOLDER, COL_INDEX, COL_SOURCES, COL_LARGEST, COL_LARGEST_SHARE, COL_VERDICT = range(7)
COL_FLAGS, COL_PARAPHRASED, COL_TRANSLATED = 7, 8, 9
_TWO_LINE_HEADERS = (COL_INDEX, COL_LARGEST, COL_LARGEST_SHARE)
COLUMN_COUNT = 10
_NUMBER_COLUMNS = (
    COL_INDEX,
    COL_SOURCES,
    COL_LARGEST_SHARE,
    COL_FLAGS,
    COL_PARAPHRASED,
    COL_TRANSLATED,
)
MEANING_COLUMNS = {COL_PARAPHRASED: "paraphrased", COL_TRANSLATED: "translated"}
_FLAG_COLOUR = QColor("#c92a2a")

_Index = QModelIndex | QPersistentModelIndex


class DocumentsModel(QAbstractTableModel):
    """Documents found in part in other documents, with their similarity index."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None
        self._rows = np.zeros(0, np.int64)
        self.similarity = None
        self.verdicts = Verdicts()
        self._folders = FolderNames(())
        self._flag_counts = np.zeros(0, np.int64)
        self._excluded_counts = np.zeros(0, np.int64)
        self._source_counts = np.zeros(0, np.int64)  # word for word or by meaning
        self._by_meaning: dict[int, list[Source]] = {}  # documents found by meaning

    def set_verdicts(self, verdicts: Verdicts) -> None:
        self.verdicts = verdicts
        if len(self._rows):
            self.dataChanged.emit(
                self.index(0, COL_VERDICT), self.index(len(self._rows) - 1, COL_VERDICT)
            )

    def filter_text(self, row: int) -> str:
        """What the filter box searches in a row: the name and folder as shown, lower case."""
        path = self._result.documents[int(self._rows[row])].path
        return f"{NAMES.name(path)}\n{NAMES.folder(self._folders.folder(path))}".lower()

    def verdict(self, doc: int) -> Verdict | None:
        return self.verdicts.of_document(self._result.documents[doc].path)

    def set_result(
        self, result: ScanResult | None, excluded: dict[int, list] | None = None
    ) -> None:
        """Show `result`; `excluded` maps a document to its excluded sources (pairs marked
        "not a duplicate"), so that it stays listed when none of its sources is left."""
        self.beginResetModel()
        self._result = result
        roots = (*result.options.roots, *result.options.reference_roots) if result else ()
        self._folders = FolderNames(roots)
        self._ranks: dict[bool, np.ndarray] = {}
        self.similarity = result.similarity() if result is not None else None
        docs = result.documents if result is not None else ()
        self._flag_counts = np.array([len(d.flags) for d in docs], np.int64)
        self._excluded_counts = np.zeros(len(docs), np.int64)
        for doc, sources in (excluded or {}).items():
            self._excluded_counts[doc] = len(sources)
        self._by_meaning = {}
        if self.similarity is None:
            self._rows = np.zeros(0, np.int64)
            self._source_counts = np.zeros(0, np.int64)
        else:
            sim = self.similarity
            # only documents found by meaning need their sources listed to be counted
            meaning = np.flatnonzero((sim.paraphrased > 0) | (sim.translated > 0))
            self._by_meaning = {int(d): sim.sources(int(d)) for d in meaning}
            self._source_counts = sim.source_count.astype(np.int64)
            for doc, sources in self._by_meaning.items():
                self._source_counts[doc] = len(sources)
            found = np.flatnonzero(self._source_counts > 0)
            found = found[np.argsort(-sim.total[found], kind="stable")]
            telling = (self._flag_counts > 0) | (self._excluded_counts > 0)
            telling |= quotes_found_elsewhere(result)  # a quotation never counts: open it
            others = np.flatnonzero(telling & (self._source_counts == 0))
            self._rows = np.r_[found, others].astype(np.int64)
        self.endResetModel()

    def found(self, kind: str) -> bool:
        """Whether a listed document holds copying of `kind` ("paraphrased", "translated")."""
        if self.similarity is None or not len(self._rows):
            return False
        return bool((getattr(self.similarity, kind)[self._rows] > 0).any())

    def sources(self, doc: int) -> list[Source]:
        """`doc`'s sources, largest first (word for word, then by meaning)."""
        if doc in self._by_meaning:
            return self._by_meaning[doc]
        return self.similarity.sources(doc) if self.similarity is not None else []

    def folder_count(self) -> int:
        """How many folders the listed documents are in (as the Folder column shows them)."""
        docs = self._result.documents if self._result is not None else ()
        return len({self._folders.folder(docs[int(d)].path) for d in self._rows.tolist()})

    def flagged(self) -> bool:
        """Whether a listed document has integrity flags."""
        return bool(len(self._rows)) and bool(self._flag_counts[self._rows].any())

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else COLUMN_COUNT

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_FLAGS:
            return self.tr(
                "Integrity flags: signs the text was disguised to slip past a checker "
                "(hidden text, look-alike letters, invisible characters)"
            )
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_INDEX:
            return self.tr(
                "Share of the document's own text found word for word in any other document "
                "(template and common text excluded)"
            )
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_PARAPHRASED:
            return self.tr(
                "Share of the document's own text that says what another document says in "
                "other words (found by meaning, apart from the similarity index): evidence "
                "to read side by side, not proof"
            )
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_TRANSLATED:
            return self.tr(
                "Share of the document's own text translated from another document, "
                "Chinese ↔ English (found by meaning, apart from the similarity index): "
                "evidence to read side by side, not proof"
            )
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        label = (
            self.tr("Document"),
            self.tr("Folder"),
            self.tr("Similarity index"),
            self.tr("Sources"),
            self.tr("Largest source"),
            self.tr("Its share"),
            self.tr("Verdict"),
            self.tr("Flags"),
            self.tr("Paraphrased"),
            self.tr("Translated"),
        )[section]
        # two lines over narrow columns: at 1280×800 one-line headers pushed Verdict out
        return label.replace(" ", "\n", 1) if section in _TWO_LINE_HEADERS else label

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self._result is None:
            return None
        doc = int(self._rows[index.row()])
        sim, column = self.similarity, index.column()
        if role == DocRole:
            return doc
        if column == COL_VERDICT:
            return verdict_data(self, self.verdict(doc), role)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMBER_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if column == COL_FLAGS:
            return self._flags_data(doc, role)
        if role == Qt.ItemDataRole.ToolTipRole and column in (COL_NAME, COL_FOLDER):
            return plain(NAMES.path(self._result.documents[doc].path))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(doc, column)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        path = self._result.documents[doc].path
        if column == COL_NAME:
            return NAMES.name(path)
        if column == COL_FOLDER:
            return NAMES.folder(self._folders.folder(path))
        if column == COL_INDEX:
            return f"{sim.index[doc]:.0%}"
        if column in MEANING_COLUMNS:
            share = float(getattr(sim, MEANING_COLUMNS[column])[doc])
            return f"{share:.0%}" if share > 0 else ""
        if column == COL_SOURCES:
            count = str(int(self._source_counts[doc]))
            excluded = int(self._excluded_counts[doc])
            if excluded:
                text = self.tr("%1 (+%2 excluded)")
                return text.replace("%1", count).replace("%2", str(excluded))
            return count
        largest = self._largest(doc)
        if largest is None:
            return ""
        if column == COL_LARGEST:
            return NAMES.name(self._result.documents[largest.doc].path)
        if sim.top_source[doc] >= 0:
            return f"{largest.share:.0%}"
        return f"{largest.paraphrased + largest.translated:.0%}"  # found by meaning only

    def _largest(self, doc: int) -> Source | None:
        """`doc`'s largest source: word for word, else the largest by meaning."""
        sim = self.similarity
        if sim.top_source[doc] >= 0:
            return Source(int(sim.top_source[doc]), float(sim.top_share[doc]), 0)
        sources = self._by_meaning.get(doc)
        return sources[0] if sources else None

    def _tooltip(self, doc: int, column: int) -> str | None:
        """The breakdown of the shares on the figures, each source's kinds on Sources."""
        if column in (COL_INDEX, COL_PARAPHRASED, COL_TRANSLATED):
            return self._kinds_tip(doc) if doc in self._by_meaning else None
        if column in (COL_LARGEST, COL_LARGEST_SHARE) and doc in self._by_meaning:
            largest = self._largest(doc)
            return plain(self._source_line(self._by_meaning[doc][0])) if largest else None
        if column == COL_SOURCES:
            lines = [self._source_line(s) for s in self.sources(doc)]
            excluded = self._excluded_tip(doc)
            return plain("\n".join([*lines, *([excluded] if excluded else [])]))
        return None

    def _kinds_tip(self, doc: int) -> str:
        """ "9% verbatim, 6% paraphrased, 3% translated (18% in all)"."""
        sim = self.similarity
        parts = [self.tr("%1 verbatim").replace("%1", f"{sim.index[doc]:.0%}")]
        for kind in ("paraphrased", "translated"):
            share = float(getattr(sim, kind)[doc])
            if share > 0:
                parts.append(self._kind_share(kind, share))
        total = self.tr("%1 in all").replace("%1", f"{sim.total[doc]:.0%}")
        return plain(f"{', '.join(parts)} ({total})")

    def _kind_share(self, kind: str, share: float) -> str:
        text = self.tr("%1 paraphrased") if kind == "paraphrased" else self.tr("%1 translated")
        return text.replace("%1", f"{share:.0%}")

    def _meaning_text(self, source: Source) -> str:
        """A source's shares by meaning: "6% paraphrased, 3% translated"."""
        shares = (("paraphrased", source.paraphrased), ("translated", source.translated))
        return ", ".join(self._kind_share(kind, share) for kind, share in shares if share > 0)

    def _source_line(self, source: Source) -> str:
        """One source with its kinds: "9% verbatim, 6% paraphrased from ana.docx"."""
        parts = [self.tr("%1 verbatim").replace("%1", f"{source.share:.0%}")]
        meaning = self._meaning_text(source)
        kinds = ", ".join([*parts[: source.share > 0], *([meaning] if meaning else [])])
        name = NAMES.name(self._result.documents[source.doc].path)
        return self.tr("%1 from %2").replace("%1", kinds).replace("%2", name)

    def _excluded_tip(self, doc: int) -> str | None:
        excluded = int(self._excluded_counts[doc])
        if not excluded:
            return None
        if excluded == 1:
            return self.tr("1 source excluded: it does not count in the similarity index")
        return self.tr("%1 sources excluded: they do not count in the similarity index").replace(
            "%1", str(excluded)
        )

    def flags_of(self, doc: int) -> tuple[str, ...]:
        """Document `doc`'s integrity flags (one English sentence each, from the engine;
        `messages.translated` shows them in the UI language)."""
        return self._result.documents[doc].flags

    def _flags_data(self, doc: int, role: int):
        """The Flags cell: how many, in red; the tooltip lists them, one per line."""
        flags = self.flags_of(doc)
        if not flags:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"⚠ {len(flags)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain("\n".join(f"• {translated(flag)}" for flag in flags))
        if role == Qt.ItemDataRole.ForegroundRole:
            return _FLAG_COLOUR
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Reorder rows with one numpy argsort (a Python comparison per pair of rows takes
        seconds at 10,000 documents)."""
        if self.similarity is None or not 0 <= column < COLUMN_COUNT:
            return
        self.layoutAboutToBeChanged.emit()
        order_of = np.argsort(self._sort_keys(column)[self._rows], kind="stable")
        if order == Qt.SortOrder.DescendingOrder:
            order_of = order_of[::-1]
        self._rows = self._rows[order_of]
        self.layoutChanged.emit()

    def _sort_keys(self, column: int) -> np.ndarray:
        """One sortable number per document for `column`."""
        sim = self.similarity
        if column == COL_INDEX:
            return sim.index
        if column in MEANING_COLUMNS:
            return getattr(sim, MEANING_COLUMNS[column])
        if column == COL_SOURCES:
            return self._source_counts
        if column == COL_LARGEST_SHARE:
            shares = sim.top_share.copy()
            for doc, sources in self._by_meaning.items():
                if sim.top_source[doc] < 0 and sources:
                    shares[doc] = sources[0].paraphrased + sources[0].translated
            return shares
        if column == COL_FLAGS:
            return self._flag_counts
        if column == COL_VERDICT:
            docs = self._result.documents
            return np.array([verdict_rank(self.verdicts.of_document(d.path)) for d in docs])
        ranks = self._name_ranks(column)
        if column != COL_LARGEST:
            return ranks
        top = sim.top_source.copy()
        for doc, sources in self._by_meaning.items():
            if top[doc] < 0 and sources:
                top[doc] = sources[0].doc
        return np.where(top >= 0, ranks[top], -1)

    def _name_ranks(self, column: int) -> np.ndarray:
        """Alphabetical rank of every document's name (or folder), computed once per result."""
        by_folder = column == COL_FOLDER
        if by_folder not in self._ranks:
            part = os.path.dirname if by_folder else os.path.basename
            self._ranks[by_folder] = text_ranks(
                [part(d.path).lower() for d in self._result.documents]
            )
        return self._ranks[by_folder]


class DocumentsProxy(TextFilterProxy):
    """Keeps the rows whose name or folder holds the filter text."""

    def filterAcceptsRow(self, row: int, parent: _Index) -> bool:
        """One string per row instead of every column's display text: 100,000 rows
        filter in a fraction of a second."""
        return not self._needle or self._needle in self.sourceModel().filter_text(row)
