"""UI languages: Qt translators for SimSift and Qt's own dialogs."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from simsift.core.paths import resource_path

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}


def system_language() -> str:
    """The supported language closest to the system locale."""
    name = QLocale.system().name()  # e.g. "zh_CN", "zh_TW", "en_US"
    return "zh_CN" if name.startswith("zh") else "en"


class Translations:
    """Keeps the installed translators so the language can be switched while running."""

    def __init__(self) -> None:
        self._translators: list[QTranslator] = []
        self.language = "en"

    def install(self, language: str) -> bool:
        """Switch to `language` ("" = system); widgets get a LanguageChange event."""
        app = QCoreApplication.instance()
        language = language or system_language()
        for translator in self._translators:
            app.removeTranslator(translator)
        self._translators = []
        self.language = language
        if language == "en":
            return True
        ours = QTranslator()
        if not ours.load(str(resource_path("translations", f"simsift_{language}.qm"))):
            self.language = "en"
            return False
        qt_own = QTranslator()  # standard buttons of message boxes and file dialogs
        if qt_own.load(
            f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        ):
            self._translators.append(qt_own)
        self._translators.append(ours)
        for translator in self._translators:
            app.installTranslator(translator)
        return True
