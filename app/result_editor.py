"""What the user does to a result: "not a duplicate" (also an essay's excluded source),
move to trash, exports, and Undo.

The window lays out and asks; this object acts. File work (the trash, the exports) runs on
a pool thread with progress, so a thousand files to the trash or a 20,000-pair export never
freeze the window. The shown result is always rebuilt from the last scan's result minus
the files moved to the trash and the pairs marked "not a duplicate" (remembered in the
catalog, or this session's), so Undo and "Include again" are exact whatever came in
between (a new k, re-weighting) and need no rescan: scans and re-weightings hand over
every pair, and the editor leaves the marked ones out.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal, Slot
from simsift.app import file_moves, trash
from simsift.app.readable import readable
from simsift.app.workers.jobs import Job, error_text
from simsift.core.analysis.cluster import Clusters
from simsift.core.pipeline.result import ScanResult
from simsift.core.store.verdicts import Verdict, Verdicts


@dataclass(frozen=True)
class _Dismissed:
    """A pair marked "not a duplicate" in this session (Undo forgets it again): from the
    Clusters or Partial copies tab ("pair"), or a source excluded from an essay ("source")."""

    paths: frozenset[str]
    kind: str = "pair"


@dataclass(frozen=True)
class _Trashed:
    """Files moved to the trash by one action, with the documents they were."""

    items: tuple[trash.Trashed, ...]
    docs: tuple[int, ...]


class ResultEditor(QObject):
    """Owns the shown result and every change the user makes to it."""

    result_changed = Signal(object)  # the ScanResult to show
    message = Signal(str)  # for the status bar
    problem = Signal(str, str)  # title, details: for a warning dialog
    busy_changed = Signal(bool)
    progress = Signal(int, int)  # done, total of the running file job
    job_finished = Signal()  # a file job ended (moved, exported, failed): tests wait on it
    verdicts_changed = Signal(object)  # the Verdicts to show

    def __init__(self, catalog=None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.result: ScanResult | None = None
        self._base: ScanResult | None = None  # as the last scan or re-weighting gave it
        self._removed = np.zeros(0, dtype=bool)
        self._originals: list[int] = []  # documents the user made their cluster's original
        self._undo: list[_Dismissed | _Trashed] = []
        # pairs of paths marked "not a duplicate": the catalog's and this session's
        self._ignored: set[frozenset[str]] = set()
        self._numbers: tuple[tuple, dict[str, int]] = ((), {})  # documents, path -> number
        self._busy = False
        self._job: tuple | None = None  # (the running Job, on done, failure title)
        self.verdicts = self._stored_verdicts()

    # -- state ----------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._busy

    def undo_kind(self) -> str | None:
        """ "pair", "source" or "trash" for what Undo would undo, None when nothing can be
        undone."""
        if self._busy or not self._undo:
            return None
        last = self._undo[-1]
        if isinstance(last, _Trashed):
            return "trash" if any(item.entry for item in last.items) else None
        return last.kind

    def set_result(self, result: ScanResult) -> None:
        """A new result from a scan or a re-weighting. Files moved to the trash stay out of
        a re-weighted result of the same documents; a new scan starts afresh."""
        same_documents = self._base is not None and self._base.documents is result.documents
        self._base = result
        if not same_documents:
            self._removed = np.zeros(len(result.documents), dtype=bool)
            self._originals = []
            self._undo.clear()  # files put back now would be found by the next scan
            self._ignored |= self._stored_ignored()
        self._show()

    def _show(self) -> None:
        shown = self._base.without_files(self._removed)
        if self._ignored:
            shown = shown.without_ignored(self._ignored)
        if self._originals:  # the latest choice first: lowest rank wins a cluster
            rank = shown.original_rank.copy()
            best = int(rank.min()) if len(rank) else 0
            for i, doc in enumerate(reversed(self._originals)):
                rank[doc] = best - 1 - i
            shown = replace(shown, original_rank=rank)
        self.result = shown
        self.result_changed.emit(shown)

    def documents_left(self) -> int:
        """How many documents of `result` are still where the scan found them."""
        return len(self._removed) - int(self._removed.sum())

    def moved_away(self, doc: int) -> bool:
        """Whether document `doc` of `result` was moved to the trash or into a folder (it
        keeps its number there, in no pair)."""
        return bool(self._removed[doc])

    def paths(self, docs: list[int]) -> list[str]:
        return [self.result.documents[d].path for d in docs] if self.result else []

    # -- the copy to keep -----------------------------------------------------------

    def make_original(self, doc: int) -> None:
        """Make `doc` its cluster's original (the copy to keep), as dupeGuru's "Make
        Selected Reference"; kept until the next scan of other files."""
        if self.result is None:
            return
        self._originals = [d for d in self._originals if d != doc] + [doc]
        self._show()

    # -- not a duplicate -----------------------------------------------------------

    def dismiss_pair(self, a: int, b: int, kind: str = "pair") -> None:
        """Mark (a, b) "not a duplicate": remembered in the catalog, gone from view. With
        `kind` "source", `b` is a source the user excluded from essay `a`: the same
        decision (their shared text no longer counts, for either), said in its words."""
        if self.result is None or a == b:
            return
        path_a, path_b = self.paths([a, b])
        if self.catalog is not None:
            from simsift.core.store.catalog import CatalogError

            try:
                self.catalog.ignore_pair(path_a, path_b)
            except CatalogError as error:  # hidden now, but not remembered for later scans
                self.problem.emit(self.tr("Not remembered"), str(error))
        pair = frozenset((path_a, path_b))
        self._ignored.add(pair)
        self._undo.append(_Dismissed(pair, kind))
        self._show()
        if kind == "source":
            self.message.emit(
                self.tr(
                    "Source excluded: the text the two documents share no longer counts, for "
                    "either. Include again, or Edit ▸ Undo, brings it back."
                )
            )
        else:
            self.message.emit(
                self.tr("Pair marked as not a duplicate. Edit ▸ Undo brings it back.")
            )

    def include_pair(self, a: int, b: int) -> None:
        """Take back "not a duplicate" on (a, b), however long ago it was decided: the
        excluded source counts again, now and in later scans."""
        if self._base is None:
            return
        path_a, path_b = self._base.documents[a].path, self._base.documents[b].path
        pair = frozenset((path_a, path_b))
        self._forget(pair)
        self._undo = [u for u in self._undo if not (isinstance(u, _Dismissed) and u.paths == pair)]
        self._show()
        self.message.emit(self.tr("Source included again: it counts as before."))

    def _forget(self, pair: frozenset[str]) -> None:
        """No longer leave `pair` out, here and in the catalog."""
        self._ignored.discard(pair)
        if self.catalog is not None:
            from simsift.core.store.catalog import CatalogError

            try:
                self.catalog.unignore_pair(*sorted(pair))
            except CatalogError as error:
                self.problem.emit(self.tr("Not remembered"), str(error))

    def _stored_ignored(self) -> set[frozenset[str]]:
        """The pairs the catalog remembers as "not a duplicate" (none when it fails)."""
        if self.catalog is None:
            return set()
        from simsift.core.store.catalog import CatalogError

        with contextlib.suppress(CatalogError):  # shown at start-up by the catalog's message
            return self.catalog.ignored_pairs()
        return set()

    def _dismissed_pairs(self) -> set[frozenset[str]]:
        """Pairs marked "not a duplicate": remembered in the catalog, or in this session
        only when the catalog could not keep them."""
        return set(self._ignored)

    def excluded_sources(self) -> dict[int, list[tuple[int, float]]]:
        """Per document of the shown result, the sources left out of its similarity index
        because their pair is marked "not a duplicate" (an excluded source): (source,
        share of the document found in it), largest share first. Documents without one
        are absent; reference documents have no sources, as in the similarity index."""
        base = self._base
        if base is None or not self._ignored:
            return {}
        number = self._path_numbers()
        excluded: dict[int, list[tuple[int, float]]] = defaultdict(list)
        for pair in self._ignored:
            docs = [number.get(path) for path in pair]
            if len(docs) != 2 or None in docs or self._removed[docs].any():
                continue
            a, b = docs
            a_in_b, b_in_a, _ = base.overlap(a, b)
            for doc, other, share in ((a, b, a_in_b), (b, a, b_in_a)):
                if share > 0 and not base.is_reference[doc]:
                    excluded[doc].append((other, share))
        for sources in excluded.values():
            sources.sort(key=lambda source: (-source[1], source[0]))
        return dict(excluded)

    def _path_numbers(self) -> dict[str, int]:
        """Document number of every path of the last scan (computed once per scan)."""
        documents = self._base.documents
        if self._numbers[0] is not documents:
            self._numbers = (documents, {d.path: i for i, d in enumerate(documents)})
        return self._numbers[1]

    # -- the teacher's verdicts ------------------------------------------------------

    def _stored_verdicts(self) -> Verdicts:
        if self.catalog is None:
            return Verdicts()
        from simsift.core.store.catalog import CatalogError

        try:
            return self.catalog.verdicts()
        except CatalogError:  # shown at start-up by the catalog's own message
            return Verdicts()

    def set_verdict(self, paths: tuple[str, ...], verdict: Verdict | None) -> None:
        """Record (or, with None, withdraw) the verdict on one document or a pair."""
        if self.catalog is not None:
            from simsift.core.store.catalog import CatalogError

            try:
                self.catalog.set_verdict(paths, verdict)
            except CatalogError as error:  # kept for this session only
                self.problem.emit(self.tr("Verdict not remembered"), str(error))
        documents, pairs = dict(self.verdicts.documents), dict(self.verdicts.pairs)
        table, key = (documents, paths[0]) if len(paths) == 1 else (pairs, frozenset(paths))
        if verdict is None:
            table.pop(key, None)
        else:
            table[key] = verdict
        self.verdicts = Verdicts(documents, pairs)
        self.verdicts_changed.emit(self.verdicts)

    # -- trash -------------------------------------------------------------------

    def move_to_trash(self, docs: list[int]) -> None:
        """Send the documents' files to the system trash on a pool thread."""
        if self.result is None or not docs or self._busy:
            return
        paths = self.paths(docs)
        self._start(
            lambda progress: trash.move_to_trash(paths, progress),
            lambda outcome: self._trashed(docs, paths, *outcome),
        )

    def _trashed(self, docs, paths, moved: list[trash.Trashed], failed) -> None:
        moved_paths = {item.path for item in moved}
        gone = tuple(d for d, p in zip(docs, paths, strict=True) if p in moved_paths)
        self._removed[list(gone)] = True
        self._undo.append(_Trashed(tuple(moved), gone))
        self._show()
        text = self._count(
            len(moved),
            self.tr("Moved 1 file to the trash."),
            self.tr("Moved %1 files to the trash."),
        )
        if self.undo_kind() == "trash":
            text += " " + self.tr("Edit ▸ Undo puts them back.")
        self.message.emit(text)
        self._report_failures(failed, self.tr("Some files were not moved"))

    # -- moving or copying into a folder -------------------------------------------

    def move_to_folder(self, docs: list[int], folder: str, how: str) -> None:
        """Move or copy (`how`: `file_moves.MOVE` or `COPY`) the documents' files into
        `folder` on a pool thread, never over a file; moved files leave the results."""
        if self.result is None or not docs or self._busy:
            return
        paths = self.paths(docs)
        self._start(
            lambda progress: file_moves.move_or_copy(paths, folder, how, progress),
            lambda outcome: self._moved(docs, paths, folder, how, *outcome),
        )

    def _moved(self, docs, paths, folder: str, how: str, done, failed) -> None:
        if how == file_moves.MOVE:
            moved = {source for source, _ in done}
            self._removed[[d for d, p in zip(docs, paths, strict=True) if p in moved]] = True
            self._show()
            one, many = self.tr("Moved 1 file to %2."), self.tr("Moved %1 files to %2.")
            title = self.tr("Some files were not moved")
        else:
            one, many = self.tr("Copied 1 file to %2."), self.tr("Copied %1 files to %2.")
            title = self.tr("Some files were not copied")
        self.message.emit(self._count(len(done), one, many).replace("%2", readable(folder)))
        self._report_failures(failed, title)

    # -- undo --------------------------------------------------------------------

    def undo(self) -> None:
        """Undo the last "not a duplicate" or move to the trash."""
        kind = self.undo_kind()
        if kind in ("pair", "source"):
            self._undo_dismiss(self._undo.pop())
        elif kind == "trash":
            action = self._undo.pop()
            self._start(
                lambda progress: trash.restore(action.items, progress),
                lambda outcome: self._restored(action, *outcome),
            )

    def _undo_dismiss(self, action: _Dismissed) -> None:
        self._forget(action.paths)
        self._show()
        if action.kind == "source":
            self.message.emit(self.tr("Source included again: it counts as before."))
        else:
            self.message.emit(self.tr("The pair is shown again."))

    def _restored(self, action: _Trashed, restored: list[str], failed) -> None:
        back = set(restored)
        for doc in action.docs:
            if self._base.documents[doc].path in back:
                self._removed[doc] = False
        self._show()
        self.message.emit(
            self._count(
                len(restored),
                self.tr("Put 1 file back from the trash."),
                self.tr("Put %1 files back from the trash."),
            )
        )
        self._report_failures(failed, self.tr("Some files were not put back"))

    # -- exports -----------------------------------------------------------------

    def export_report(self, folder: Path, fmt: str, k: int) -> None:
        """CSV or JSON files of the shown result into `folder`, on a pool thread."""
        from simsift.core.report.tables import ReportError, write_report

        result, verdicts = self.result, self.verdicts

        def work(progress):
            try:
                return write_report(result, k, folder, fmt, verdicts=verdicts)
            except ReportError as error:
                raise OSError(str(error)) from error

        self._start(
            work,
            lambda written: self._wrote(", ".join(p.name for p in written)),
            self.tr("Export failed"),
        )

    def export_html(
        self, path: Path, clusters: Clusters, language: str = "en", archive_folders=()
    ) -> None:
        """The clusters shown now as one HTML file in `language` (the UI's), with the
        teacher's verdicts and the pairs marked "not a duplicate", on a pool thread;
        `archive_folders` (checked against) are listed with the folders scanned."""
        from simsift.core.report.html import write_html_report

        result, verdicts, dismissed = self.result, self.verdicts, self._dismissed_pairs()
        archive_folders = tuple(archive_folders)
        self._start(
            lambda progress: write_html_report(
                result,
                clusters,
                path,
                verdicts=verdicts,
                dismissed=dismissed,
                language=language,
                archive_folders=archive_folders,
            ),
            lambda written: self._wrote(readable(str(written))),
            self.tr("Export failed"),
        )

    def _wrote(self, what: str) -> None:
        self.message.emit(self.tr("Wrote %1").replace("%1", what))

    # -- running file work ---------------------------------------------------------

    def _start(self, work: Callable, done: Callable, failure_title: str | None = None) -> None:
        """Run `work(progress)` as a background job; `done(outcome)` follows on this thread."""
        job = Job(lambda report, _cancel: work(report))
        # slots of this object, not lambdas: Qt then runs them on the GUI thread
        job.signals.progress.connect(self._on_job_progress)
        job.signals.finished.connect(self._on_job_done)
        job.signals.failed.connect(self._on_job_failed)
        self._job = (job, done, failure_title or self.tr("Could not finish"))
        self._set_busy(True)
        job.start()

    @Slot(object)
    def _on_job_progress(self, report: tuple[int, int]) -> None:
        self.progress.emit(*report)

    @Slot(object)
    def _on_job_done(self, outcome) -> None:
        _, done, _ = self._job
        self._end(lambda: done(outcome))

    @Slot(object)
    def _on_job_failed(self, error: Exception) -> None:
        _, _, title = self._job
        # a full disk or a folder that went away says enough by itself
        text = str(error) if isinstance(error, OSError) else error_text(error)
        self._end(lambda: self.problem.emit(title, text))

    def _end(self, then: Callable[[], None]) -> None:
        self._job = None
        self._set_busy(False)
        try:
            then()
        finally:
            self.job_finished.emit()

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self.busy_changed.emit(busy)

    def _report_failures(self, failed: list[tuple[str, str]], title: str) -> None:
        if failed:
            self.problem.emit(title, "\n".join(f"{readable(p)}: {r}" for p, r in failed[:20]))

    @staticmethod
    def _count(n: int, one: str, many: str) -> str:
        return one if n == 1 else many.replace("%1", f"{n:,}")
