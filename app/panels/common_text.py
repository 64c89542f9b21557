"""The Common text tab: passages found in many documents, left out of partial copying."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget
from simsift.app.models.common import COL_TEXT, CommonTextModel
from simsift.app.panels.tables import make_table_view
from simsift.core.pipeline.result import ScanResult


class CommonTextPanel(QWidget):
    """One row per common passage (licences, boilerplate, a shared prompt)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = CommonTextModel(self)
        self.view = make_table_view(self.model)
        self.view.setWordWrap(False)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(COL_TEXT, header.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)

    def retranslate(self) -> None:
        self.view.viewport().update()

    def tab_title(self) -> str:
        return self.tr("Common text (%1)").replace("%1", f"{self.model.rowCount():,}")

    def tab_tip(self) -> str:
        return self.tr(
            "Passages found in many documents (licences, boilerplate, a shared prompt): "
            "left out of partial copying"
        )

    def set_result(self, result: ScanResult) -> None:
        self.model.set_result(result)
