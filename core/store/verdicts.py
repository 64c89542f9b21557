"""The teacher's verdicts: a pair or a document marked "copying confirmed" or "not copying",
with a short note. Kept in the catalog across scans, shown in the tables, exported with
the results: the evidence trail an examination board asks for.

Verdicts are the user's, keyed by file paths; a scan never changes them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

COPYING = "copying"
NOT_COPYING = "not copying"
VERDICTS = (COPYING, NOT_COPYING)
MAX_NOTE = 500  # characters: a short note, not an essay


@dataclass(frozen=True, slots=True)
class Verdict:
    """One decision: `verdict` is COPYING or NOT_COPYING; `decided_at` in Unix seconds."""

    verdict: str
    note: str = ""
    decided_at: int = field(default_factory=lambda: int(time.time()))

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, not {self.verdict!r}")
        if len(self.note) > MAX_NOTE:
            raise ValueError(f"a note holds at most {MAX_NOTE} characters")

    @property
    def label(self) -> str:
        """As exports write it: 'copying confirmed' or 'not copying'."""
        return "copying confirmed" if self.verdict == COPYING else NOT_COPYING

    @property
    def date(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.decided_at))


@dataclass(frozen=True)
class Verdicts:
    """All verdicts: per document path, and per pair of paths (order does not matter)."""

    documents: dict[str, Verdict] = field(default_factory=dict)
    pairs: dict[frozenset[str], Verdict] = field(default_factory=dict)

    def of_document(self, path: str) -> Verdict | None:
        return self.documents.get(path)

    def of_pair(self, path_a: str, path_b: str) -> Verdict | None:
        return self.pairs.get(frozenset((path_a, path_b)))

    def __len__(self) -> int:
        return len(self.documents) + len(self.pairs)


def export_columns(verdict: Verdict | None) -> dict[str, str]:
    """The verdict, note and date columns of an exported row (empty without a verdict)."""
    if verdict is None:
        return {"verdict": "", "note": "", "decided": ""}
    return {"verdict": verdict.label, "note": verdict.note, "decided": verdict.date}
