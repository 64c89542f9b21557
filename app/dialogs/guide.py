"""Help ▸ User guide: a short guide in the UI language (resources/guide/<language>.html)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget
from simsift.core.paths import resource_path


def guide_html(language: str) -> str:
    """The guide in `language` ("en", "zh_CN"), English when there is none."""
    for name in (language, "en"):
        path = resource_path("guide", f"{name}.html")
        if path.exists():
            return path.read_text(encoding="utf-8")
    return ""


class GuideDialog(QDialog):
    """The user guide, beside the window (not modal: read it while working)."""

    def __init__(self, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("SimSift user guide"))
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self.text.setHtml(guide_html(language))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(640, 720)
