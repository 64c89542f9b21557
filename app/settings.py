"""Persistent user settings (QSettings): folders, k, weights, what counts as copying,
language, role (teacher or editor), where reports were saved, window layout."""

from __future__ import annotations

import json

from PySide6.QtCore import QByteArray, QSettings
from simsift.core.match.passages import PassageOptions
from simsift.core.match.verbatim import GRAM
from simsift.core.pipeline.options import DEFAULT_K
from simsift.core.text.features import FeatureWeights

ORGANIZATION = "SimSift"
APPLICATION = "SimSift"
# the shortest match the window offers, in words: shorter runs are below the engine's grams
SHORTEST_MATCH_RANGE = (GRAM, 200)
ROLES = ("teacher", "editor")  # who uses the window: which tab opens first


class Settings:
    """Typed access to the app's QSettings; pass another QSettings in tests."""

    def __init__(self, store: QSettings | None = None) -> None:
        self._store = store if store is not None else QSettings(ORGANIZATION, APPLICATION)

    def _list(self, key: str) -> list[str]:
        value = self._store.value(key, [])
        if isinstance(value, str):  # QSettings returns a lone string for one-item lists
            return [value] if value else []
        return [str(v) for v in value or []]

    @property
    def folders(self) -> list[str]:
        return self._list("scan/folders")

    @folders.setter
    def folders(self, value: list[str]) -> None:
        self._store.setValue("scan/folders", list(value))

    @property
    def reference_folders(self) -> list[str]:
        return self._list("scan/reference_folders")

    @reference_folders.setter
    def reference_folders(self, value: list[str]) -> None:
        self._store.setValue("scan/reference_folders", list(value))

    @property
    def archive_folders(self) -> list[str]:
        return self._list("scan/archive_folders")

    @archive_folders.setter
    def archive_folders(self, value: list[str]) -> None:
        self._store.setValue("scan/archive_folders", list(value))

    @property
    def exclude(self) -> str:
        return str(self._store.value("scan/exclude", ""))

    @exclude.setter
    def exclude(self, value: str) -> None:
        self._store.setValue("scan/exclude", value)

    @property
    def ocr(self) -> bool:
        """Whether scanned PDFs are read by OCR (on unless turned off)."""
        return str(self._store.value("scan/ocr", "true")).lower() == "true"

    @ocr.setter
    def ocr(self, value: bool) -> None:
        self._store.setValue("scan/ocr", "true" if value else "false")

    @property
    def common_docs(self) -> int:
        """Text in more than this many documents is common text (at least 2)."""
        try:
            return max(
                2, int(self._store.value("scan/common_docs", PassageOptions().common_max_docs))
            )
        except (TypeError, ValueError):
            return PassageOptions().common_max_docs

    @common_docs.setter
    def common_docs(self, value: int) -> None:
        self._store.setValue("scan/common_docs", int(value))

    @property
    def shortest_match(self) -> int:
        """Shared runs of fewer words never count as copying; a run this long makes a
        partial copy (`PassageOptions.partial_min_run`), within `SHORTEST_MATCH_RANGE`."""
        default = PassageOptions().partial_min_run
        try:
            value = int(self._store.value("scan/shortest_match", default))
        except (TypeError, ValueError):
            return default
        low, high = SHORTEST_MATCH_RANGE
        return min(max(value, low), high)

    @shortest_match.setter
    def shortest_match(self, value: int) -> None:
        self._store.setValue("scan/shortest_match", int(value))

    @property
    def count_quotations(self) -> bool:
        """Text in quotation marks counts as copying (by default it is only shown)."""
        return self._bool("scan/count_quotations", PassageOptions().count_quotations)

    @count_quotations.setter
    def count_quotations(self, value: bool) -> None:
        self._store.setValue("scan/count_quotations", bool(value))

    @property
    def count_bibliography(self) -> bool:
        """The references section counts as copying (by default it is only shown)."""
        return self._bool("scan/count_bibliography", PassageOptions().count_bibliography)

    @count_bibliography.setter
    def count_bibliography(self, value: bool) -> None:
        self._store.setValue("scan/count_bibliography", bool(value))

    @property
    def paraphrase(self) -> bool:
        """Paraphrased passages are looked for (`PassageOptions.paraphrase`)."""
        return self._bool("scan/paraphrase", PassageOptions().paraphrase)

    @paraphrase.setter
    def paraphrase(self, value: bool) -> None:
        self._store.setValue("scan/paraphrase", bool(value))

    @property
    def translation(self) -> bool:
        """Passages translated between Chinese and English are looked for
        (`PassageOptions.translation`)."""
        return self._bool("scan/translation", PassageOptions().translation)

    @translation.setter
    def translation(self, value: bool) -> None:
        self._store.setValue("scan/translation", bool(value))

    def _bool(self, key: str, default: bool) -> bool:
        """A saved flag: INI files give back "true"/"false" strings, the registry booleans."""
        value = self._store.value(key, default)
        if isinstance(value, str):
            return {"true": True, "false": False}.get(value.strip().lower(), default)
        return bool(value) if isinstance(value, bool | int) else default

    @property
    def k(self) -> int:
        return int(self._store.value("scan/k", DEFAULT_K))

    @k.setter
    def k(self, value: int) -> None:
        self._store.setValue("scan/k", int(value))

    @property
    def weights(self) -> FeatureWeights:
        """Saved weights; defaults when missing or unreadable (e.g. written by another version)."""
        raw = str(self._store.value("scan/weights", ""))
        if not raw:
            return FeatureWeights()
        try:
            data = json.loads(raw)
            data["term_weights"] = tuple((str(t), float(w)) for t, w in data["term_weights"])
            return FeatureWeights(**data)
        except (ValueError, TypeError, KeyError):
            return FeatureWeights()

    @weights.setter
    def weights(self, value: FeatureWeights) -> None:
        data = {
            "tf_scheme": value.tf_scheme,
            "use_idf": value.use_idf,
            "title_boost": value.title_boost,
            "ignore_digits": value.ignore_digits,
            "shingle_size": value.shingle_size,
            "remove_stopwords": value.remove_stopwords,
            "term_weights": [list(tw) for tw in value.term_weights],
        }
        self._store.setValue("scan/weights", json.dumps(data))

    @property
    def language(self) -> str:
        """ "" follows the system locale; otherwise a code from `app.i18n.LANGUAGES`."""
        return str(self._store.value("ui/language", ""))

    @language.setter
    def language(self, value: str) -> None:
        self._store.setValue("ui/language", value)

    @property
    def role(self) -> str:
        """Who uses the window, chosen on its first run: "teacher" (Documents opens first),
        "editor" (Clusters opens first) or "" (not chosen yet)."""
        value = str(self._store.value("ui/role", ""))
        return value if value in ROLES else ""

    @role.setter
    def role(self, value: str) -> None:
        if value not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {value!r}")
        self._store.setValue("ui/role", value)

    @property
    def report_folder(self) -> str:
        """The folder reports were last saved in ("" before the first): the class's
        reports and a single report's Save start there."""
        return str(self._store.value("reports/folder", ""))

    @report_folder.setter
    def report_folder(self, value: str) -> None:
        self._store.setValue("reports/folder", value)

    def geometry(self, key: str) -> QByteArray | None:
        value = self._store.value(f"ui/{key}")
        return value if isinstance(value, QByteArray) else None

    def set_geometry(self, key: str, value: QByteArray) -> None:
        self._store.setValue(f"ui/{key}", value)

    def sync(self) -> None:
        self._store.sync()
