"""The page shown while there is no result: how to start, what the folder list's tick and
right-click mean, what each tab is for, and the teacher / editor choice that decides which
tab opens first. Folders dropped on it are added like folders dropped on the list.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QGridLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from simsift.app.panels.folders import AcceptsFolderDrops


class WelcomePage(AcceptsFolderDrops, QScrollArea):
    """First steps, the tabs explained and the teacher / editor choice."""

    paths_dropped = Signal(list)  # local paths of folders or files dropped on the page
    add_folder_requested = Signal()
    role_chosen = Signal(str)  # "teacher" or "editor"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAcceptDrops(True)
        page = QWidget()
        self.setWidget(page)
        self.title = _label(bold=True, scale=1.4)
        self.drop_zone = QFrame()
        self.drop_zone.setObjectName("drop-zone")
        self.drop_zone.setStyleSheet(
            "#drop-zone { border: 2px dashed palette(mid); border-radius: 8px; }"
        )
        self.drop_label = _label(bold=True, scale=1.15)
        self.drop_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.add_button = QPushButton()
        self.add_button.clicked.connect(self.add_folder_requested)
        zone = QVBoxLayout(self.drop_zone)
        zone.addWidget(self.drop_label)
        zone.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignHCenter)
        self.steps = [_label() for _ in range(4)]

        self.role_heading = _label(bold=True)
        self.teacher = QRadioButton()
        self.editor = QRadioButton()
        self.teacher_note = _label(indent=True)
        self.editor_note = _label(indent=True)
        self.roles = QButtonGroup(self)
        self.roles.addButton(self.teacher)
        self.roles.addButton(self.editor)
        self.teacher.toggled.connect(lambda on: on and self.role_chosen.emit("teacher"))
        self.editor.toggled.connect(lambda on: on and self.role_chosen.emit("editor"))

        self.tabs_heading = _label(bold=True)
        self.tab_names = [_label(bold=True) for _ in range(6)]
        self.tab_notes = [_label() for _ in range(6)]
        self.side_by_side = _label()

        layout = QVBoxLayout(page)
        layout.setContentsMargins(24, 16, 24, 16)
        layout.setSpacing(8)
        layout.addWidget(self.title)
        layout.addWidget(self.drop_zone)
        for step in self.steps:
            layout.addWidget(step)
        layout.addSpacing(8)
        layout.addWidget(self.role_heading)
        roles = QGridLayout()
        roles.setHorizontalSpacing(16)
        roles.addWidget(self.teacher, 0, 0)
        roles.addWidget(self.teacher_note, 1, 0)
        roles.addWidget(self.editor, 0, 1)
        roles.addWidget(self.editor_note, 1, 1)
        roles.setColumnStretch(0, 1)
        roles.setColumnStretch(1, 1)
        layout.addLayout(roles)
        layout.addSpacing(8)
        layout.addWidget(self.tabs_heading)
        tabs = QGridLayout()
        tabs.setHorizontalSpacing(12)
        for row, (name, note) in enumerate(zip(self.tab_names, self.tab_notes, strict=True)):
            name.setWordWrap(False)
            tabs.addWidget(name, row, 0, Qt.AlignmentFlag.AlignTop)
            tabs.addWidget(note, row, 1)
        tabs.setColumnStretch(1, 1)
        layout.addLayout(tabs)
        layout.addWidget(self.side_by_side)
        layout.addStretch(1)
        self.retranslate()

    def set_role(self, role: str) -> None:
        """Show `role` as chosen ("" shows no choice) without emitting `role_chosen`."""
        for button, value in ((self.teacher, "teacher"), (self.editor, "editor")):
            button.blockSignals(True)
            button.setChecked(role == value)
            button.blockSignals(False)

    def retranslate(self) -> None:
        self.title.setText(self.tr("Find documents that copy from each other"))
        self.drop_label.setText(self.tr("Drop folders here"))
        self.add_button.setText(self.tr("Add folder…"))
        steps = (
            self.tr("1. Drop the folders to check here or on the list at the left."),
            self.tr(
                "2. Tick a folder's box to make it a reference folder: the assignment prompt, "
                "handouts, the course reading. Text also found there is template text: shown, "
                "never counted as copying."
            ),
            self.tr(
                "3. Right-click a folder and choose Archive for previous years' documents: "
                "they are indexed once, and the other folders are checked against them."
            ),
            self.tr("4. Press Scan."),
        )
        for label, text in zip(self.steps, steps, strict=True):
            label.setText(text)
        self.role_heading.setText(self.tr("What do you check? (the tab that opens first)"))
        self.teacher.setText(self.tr("Students' essays (teacher)"))
        self.teacher_note.setText(
            self.tr(
                "Documents opens first: every essay with its similarity index and the "
                "documents its text was found in."
            )
        )
        self.editor.setText(self.tr("Files and drafts (editor)"))
        self.editor_note.setText(
            self.tr(
                "Clusters opens first: near-duplicate files grouped under their original, "
                "to keep one and move the copies to the trash."
            )
        )
        self.tabs_heading.setText(self.tr("The tabs"))
        tabs = (
            (
                self.tr("Documents"),
                self.tr(
                    "The teacher's list: each document found in part in others, its "
                    "similarity index and sources. Select one to read its text coloured by "
                    "source, and save its report."
                ),
            ),
            (
                self.tr("Clusters"),
                self.tr(
                    "The editor's list: near-duplicate files grouped under their original, "
                    "to mark the copies and move them to the trash."
                ),
            ),
            (
                self.tr("Partial copies"),
                self.tr("Pairs of documents sharing passages that Clusters does not show."),
            ),
            (
                self.tr("Common text"),
                self.tr(
                    "Passages found in many documents (a shared prompt, boilerplate): "
                    "not counted as copying."
                ),
            ),
            (
                self.tr("Overview"),
                self.tr("How similar the documents are, which to read first, who shares text."),
            ),
            (
                self.tr("Problems"),
                self.tr("Files that could not be read, or were read with a warning."),
            ),
        )
        for name, note, (name_text, note_text) in zip(
            self.tab_names, self.tab_notes, tabs, strict=True
        ):
            name.setText(name_text)
            note.setText(note_text)
        self.side_by_side.setText(
            self.tr("Select a pair in any tab to see the two documents side by side below.")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def take_dropped(self, paths: list[str]) -> None:
        self.paths_dropped.emit(paths)


def _label(bold: bool = False, scale: float = 1.0, indent: bool = False) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    if bold or scale != 1.0:
        font = label.font()
        font.setBold(bold)
        if scale != 1.0:
            font.setPointSizeF(font.pointSizeF() * scale)
        label.setFont(font)
    if indent:
        label.setIndent(24)
    return label
