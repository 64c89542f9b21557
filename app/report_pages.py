"""What an essay's report is made from (`ReportPages`): the scan's result, the teacher's
verdicts and excluded sources, and the report's words in the user's language, copied on
the GUI thread by the Documents tab (`DocumentsPanel.report_pages`), so that pages are
made anywhere, a class's on a job's thread, as the tab shows them.

The tab shows a fragment with links (compare, exclude, include again); the page handed
over has none, and hides the names when the window is anonymized.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from simsift.core.analysis.similarity import DocumentSimilarity
from simsift.core.pipeline.result import ScanResult
from simsift.core.report.essay import END_OF_SOURCES, EssayLabels, essay_html, essay_page
from simsift.core.store.verdicts import Verdicts

# the compare link `essay_html` puts after each source; an exclude link goes after it
_COMPARE_LINK = re.compile(r"<a href='compare:(\d+)'>[^<]*</a>")


@dataclass(frozen=True, slots=True)
class ExcludedWords:
    """The words of the excluded sources' table, in the user's language."""

    title: str
    note: str
    exclude: str
    include: str


@dataclass(frozen=True, slots=True)
class ReportPages:
    """Everything an essay's report is made from, read on the GUI thread with its words
    translated, so that `page` may run on a job's thread (it touches no widget). The
    progress dialog of a class's reports keeps the window from changing it meanwhile."""

    result: ScanResult
    similarity: DocumentSimilarity
    verdicts: Verdicts
    excluded: dict[int, list[tuple[int, float]]]
    labels: EssayLabels
    labels_all_excluded: EssayLabels  # "nothing" says every source is an excluded one
    words: ExcludedWords
    name: Callable[[str], str]
    path_text: Callable[[str], str]
    anonymous: bool

    def page(self, doc: int) -> str:
        """Document `doc`'s report as a complete page to hand over (no links; names
        hidden when anonymized)."""
        title = self.name(self.result.documents[doc].path)
        return essay_page(self.fragment(doc, links=False), title)

    def fragment(self, doc: int, links: bool) -> str:
        """Legend of sources (with a compare and an exclude link each when `links`), the
        excluded sources (with an include-again link each), then the text coloured by
        source."""
        excluded = self.excluded.get(doc, [])
        fragment = essay_html(
            self.result,
            self.similarity,
            doc,
            self.labels_all_excluded if excluded else self.labels,
            verdicts=self.verdicts,
            compare_links=links,
            name=self.name,
            path_text=self.path_text,
            anonymous=self.anonymous,
        )
        if links:
            exclude = html.escape(self.words.exclude)
            fragment = _COMPARE_LINK.sub(
                lambda m: f"{m.group(0)}<br><a href='exclude:{m.group(1)}'>{exclude}</a>",
                fragment,
            )
        table = self._excluded_html(excluded, links)
        end_of_sources = fragment.find("\n" + END_OF_SOURCES)
        if end_of_sources < 0:
            return fragment + table
        return fragment[:end_of_sources] + table + fragment[end_of_sources:]

    def _excluded_html(self, excluded: list[tuple[int, float]], links: bool) -> str:
        """The excluded sources as a small table ("" when none)."""
        if not excluded:
            return ""
        e = html.escape
        rows = [f"\n<p><b>{e(self.words.title)}</b><br><small>{e(self.words.note)}</small></p>"]
        rows.append("<table>")
        include = e(self.words.include)
        for source, share in excluded:
            path = self.result.documents[source].path
            link = f"<a href='include:{source}'>{include}</a>" if links else ""
            rows.append(
                f"<tr><td title='{e(self.path_text(path))}'><s>{e(self.name(path))}</s></td>"
                f"<td align='right'>{share:.0%}</td><td>{link}</td></tr>"
            )
        rows.append("</table>")
        return "".join(rows)
