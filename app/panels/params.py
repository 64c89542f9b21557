"""Scan parameters: the k slider (instant re-clustering), what counts as copying (the
shortest match, common text, quotations, the bibliography, paraphrased and translated
passages) and the feature weights.

The panel lives in a scroll area: the wheel scrolls it, and changes a slider, spin box
or list only once the user has clicked or tabbed into it (a wheel turned to scroll the
panel set the title boost from 1 to 0 and started a recompute no one asked for)."""

from __future__ import annotations

import html
from dataclasses import replace

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSlider,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from simsift.app.settings import SHORTEST_MATCH_RANGE
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.options import DEFAULT_K, DEFAULT_K_MAX
from simsift.core.text.features import TF_SCHEMES, FeatureWeights

WEIGHTS_DELAY_MS = 600  # wait for the user to stop typing before re-fingerprinting


class ParamsPanel(QWidget):
    """Emits `k_changed` at once and `weights_changed` once edits of the weights or of what
    counts as copying settle (the window then reads both: `weights`, `passage_options`)."""

    k_changed = Signal(int)
    weights_changed = Signal(object)  # FeatureWeights

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._k = QSlider(Qt.Orientation.Horizontal)
        self._k.setRange(0, DEFAULT_K_MAX)
        self._k.setValue(DEFAULT_K)
        self._k.setTickPosition(QSlider.TickPosition.TicksBelow)
        self._k.setPageStep(1)
        self._k_value = QLabel()
        self._k.valueChanged.connect(self._on_k)
        self._build_weight_controls()
        self._weights_timer = QTimer(self)
        self._weights_timer.setSingleShot(True)
        self._weights_timer.setInterval(WEIGHTS_DELAY_MS)
        self._weights_timer.timeout.connect(lambda: self.weights_changed.emit(self.weights()))
        self._layout_widgets()
        self._connect_weight_controls()
        self._wheel_guard = _WheelNeedsFocus(self)
        for editor in (
            self._k,
            self._shortest,
            self._common_docs,
            self._title_boost,
            self._tf,
            self._shingle,
        ):
            self._wheel_guard.guard(editor)
        self.retranslate()
        self._on_k(self._k.value())

    def _build_weight_controls(self) -> None:
        self._title_boost = QDoubleSpinBox()
        self._title_boost.setRange(0.0, 10.0)
        self._title_boost.setSingleStep(0.5)
        self._tf = QComboBox()
        self._tf.addItems(["", "", ""])
        self._idf = QCheckBox()
        self._idf_allowed = True  # False while an archive folder is listed
        self._idf_wanted = False  # the user's choice, kept while an archive rules idf out
        self._digits = QCheckBox()
        self._shingle = QSpinBox()
        self._shingle.setRange(1, 8)
        self._stopwords = QCheckBox()
        defaults = PassageOptions()
        self._shortest = QSpinBox()
        self._shortest.setRange(*SHORTEST_MATCH_RANGE)
        self._shortest.setValue(defaults.partial_min_run)
        self._common_docs = QSpinBox()
        self._common_docs.setRange(2, 10_000_000)
        self._common_docs.setValue(defaults.common_max_docs)
        self._quotations = QCheckBox()
        self._quotations.setChecked(defaults.count_quotations)
        self._bibliography = QCheckBox()
        self._bibliography.setChecked(defaults.count_bibliography)
        self._paraphrase = QCheckBox()
        self._paraphrase.setChecked(defaults.paraphrase)
        self._translation = QCheckBox()
        self._translation.setChecked(defaults.translation)
        self._copying_box = QGroupBox()
        self._copying_form = QFormLayout()
        self._terms = QTableWidget(0, 2)
        self._terms.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self._terms.verticalHeader().hide()
        self._terms.setMinimumHeight(90)
        self._add_term = QPushButton()
        self._add_term.clicked.connect(lambda: self._append_term("", 0.0))
        self._remove_term = QPushButton()
        self._remove_term.clicked.connect(self._remove_selected_terms)
        self._weights_box = QGroupBox()
        self._k_box = QGroupBox()
        self._form = QFormLayout()
        self.set_weights(FeatureWeights())

    def _layout_widgets(self) -> None:
        k_row = QHBoxLayout(self._k_box)
        k_row.addWidget(self._k, 1)
        k_row.addWidget(self._k_value)
        self._copying_labels = [QLabel(), QLabel()]
        for label, field in zip(
            self._copying_labels, (self._shortest, self._common_docs), strict=True
        ):
            label.setBuddy(field)
            self._copying_form.addRow(label, field)
        self._copying_form.addRow(self._quotations)
        self._copying_form.addRow(self._bibliography)
        self._copying_form.addRow(self._paraphrase)
        self._copying_form.addRow(self._translation)
        self._copying_box.setLayout(self._copying_form)
        self._form_labels = [QLabel(), QLabel(), QLabel()]
        fields = (self._title_boost, self._tf, self._shingle)
        for label, field in zip(self._form_labels, fields, strict=True):
            label.setBuddy(field)
            self._form.addRow(label, field)
        self._form.addRow(self._idf)
        self._form.addRow(self._digits)
        self._form.addRow(self._stopwords)
        term_buttons = QHBoxLayout()
        term_buttons.addWidget(self._add_term)
        term_buttons.addWidget(self._remove_term)
        box = QVBoxLayout(self._weights_box)
        box.addLayout(self._form)
        box.addWidget(self._terms)
        box.addLayout(term_buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._k_box)
        layout.addWidget(self._copying_box)
        layout.addWidget(self._weights_box)

    def _connect_weight_controls(self) -> None:
        restart = self._weights_timer.start
        self._title_boost.valueChanged.connect(restart)
        self._tf.currentIndexChanged.connect(restart)
        self._shingle.valueChanged.connect(restart)
        self._common_docs.valueChanged.connect(restart)
        self._shortest.valueChanged.connect(restart)
        boxes = (self._idf, self._digits, self._stopwords, self._quotations, self._bibliography)
        for box in (*boxes, self._paraphrase, self._translation):
            box.toggled.connect(restart)
        self._terms.itemChanged.connect(restart)

    def retranslate(self) -> None:
        self._k_box.setTitle(self.tr("Distance k (0 = identical fingerprints)"))
        self._weights_box.setTitle(self.tr("Weights"))
        self._copying_box.setTitle(self.tr("What counts as copying"))
        labels = (self.tr("Title boost"), self.tr("Term frequency"), self.tr("Shingle size"))
        for label, text in zip(self._form_labels, labels, strict=True):
            label.setText(text)
        for label, text in zip(
            self._copying_labels,
            (self.tr("Shortest match"), self.tr("Common text above")),
            strict=True,
        ):
            label.setText(text)
        self._retranslate_copying()
        for i, text in enumerate((self.tr("raw count"), self.tr("logarithmic"), self.tr("binary"))):
            self._tf.setItemText(i, text)
        self._idf.setText(self.tr("Inverse document frequency (idf)"))
        self._digits.setText(self.tr("Ignore digits (dates, counters)"))
        self._stopwords.setText(self.tr("Remove stopwords"))
        self._terms.setHorizontalHeaderLabels([self.tr("Term"), self.tr("Weight")])
        self._terms.setToolTip(
            self.tr("Weight 0 removes a template word; above 1 boosts a topic word")
        )
        self._add_term.setText(self.tr("Add term"))
        self._remove_term.setText(self.tr("Remove term"))
        self._k.setToolTip(
            self.tr(
                "Hamming distance: in how many of the 64 bits two documents' fingerprints may "
                "differ and still be near duplicates. 0: the same words; 8 (default): light "
                "edits and re-posts; above 10 unrelated texts on one topic start to pair."
            )
        )
        tips = {
            self._title_boost: self.tr(
                "How much more a word of the title counts than a word of the body (1: the same)"
            ),
            self._tf: self.tr(
                "How a word repeated in a document counts: each time (raw count), less and "
                "less (logarithmic), or once (binary)"
            ),
            self._shingle: self.tr(
                "Words per feature: 1 compares vocabularies; 2 or more also word order "
                "(stricter; reordered copies then differ more)"
            ),
            self._idf: self._idf_tip(),
            self._digits: self.tr(
                "Leave numbers out of the fingerprints, so dates, counters and page numbers "
                "do not make copies look different"
            ),
            self._stopwords: self.tr(
                "Leave out words like 'the', 'and', '的', '了' that every text uses"
            ),
        }
        for widget, tip in tips.items():
            widget.setToolTip(tip)

    def _idf_tip(self) -> str:
        if self._idf_allowed:
            return self.tr(
                "Weigh words by how rare they are across the scanned documents: common words "
                "count less (every fingerprint then depends on the whole folder)"
            )
        return self.tr(
            "Not available while an archive folder is in the list: the archive keeps "
            "fingerprints made without idf, so the other folders are checked the same way"
        )

    def _retranslate_copying(self) -> None:
        self._shortest.setSuffix(self.tr(" words"))
        self._common_docs.setSuffix(self.tr(" documents"))
        self._quotations.setText(self.tr("Count quotations as copying"))
        self._bibliography.setText(self.tr("Count the bibliography as copying"))
        self._paraphrase.setText(self.tr("Paraphrased passages"))
        self._translation.setText(self.tr("Translated passages (Chinese ↔ English)"))
        shortest_tip = self.tr(
            "Shared runs of fewer words than this never count as copying. Two documents "
            "sharing a run of this many words or more (Chinese: words as segmented) are a "
            "partial copy, however small a share of either it is. Lower finds shorter "
            "borrowed phrases, and more coincidences."
        )
        common_tip = self.tr(
            "Passages found in more documents than this (licences, boilerplate, a shared "
            "prompt) are common text and never count as copying"
        )
        quotations_tip = self.tr(
            'Text in quotation marks (“…”, "…", «…», 「…」, 『…』) and paragraphs that are '
            "one quotation (block quotes) are shown, but not counted as copying unless "
            "this is checked"
        )
        bibliography_tip = self.tr(
            "The references section (a heading such as References, Bibliography, Works "
            "cited or 参考文献, followed by a list of references, to the end of the essay "
            "or an appendix) is shown, but not counted as copying unless this is checked"
        )
        evidence = self.tr(
            "Such a match is evidence for a person to read, not proof: compare the two "
            "passages side by side before deciding."
        )
        paraphrase_tip = self.tr(
            "Also find passages whose words were changed (synonyms, reordered clauses) but "
            "whose sentences say the same as another document's, shown apart from "
            "word-for-word copying. Off by default: in an archive of related documents most "
            "of what it finds is documents saying similar things; turn it on for a class."
        )
        translation_tip = self.tr(
            "Also find passages of a Chinese document that translate an English one, or "
            "the reverse, shown apart from word-for-word copying."
        )
        for widgets, tip in (
            ((self._paraphrase,), f"{paraphrase_tip} {evidence}"),
            ((self._translation,), f"{translation_tip} {evidence}"),
            ((self._shortest, self._copying_labels[0]), shortest_tip),
            ((self._common_docs, self._copying_labels[1]), common_tip),
            ((self._quotations,), quotations_tip),
            ((self._bibliography,), bibliography_tip),
        ):
            for widget in widgets:
                widget.setToolTip(_wrapped(tip))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- k -------------------------------------------------------------------

    def k(self) -> int:
        return self._k.value()

    def set_k(self, k: int) -> None:
        self._k.setValue(k)

    def set_k_max(self, k_max: int) -> None:
        self._k.setMaximum(k_max)

    def _on_k(self, k: int) -> None:
        self._k_value.setText(f"{k} / {self._k.maximum()}")
        self.k_changed.emit(k)

    # -- weights -------------------------------------------------------------

    def weights(self) -> FeatureWeights:
        """The weights the controls show now."""
        return FeatureWeights(
            tf_scheme=TF_SCHEMES[self._tf.currentIndex()],
            use_idf=self._idf.isChecked(),
            title_boost=self._title_boost.value(),
            ignore_digits=self._digits.isChecked(),
            shingle_size=self._shingle.value(),
            remove_stopwords=self._stopwords.isChecked(),
            term_weights=self._term_weights(),
        )

    def set_idf_allowed(self, allowed: bool) -> None:
        """Enable the idf box, or (while an archive folder is listed: an archive keeps
        fingerprints without idf) disable and clear it, saying why in its tooltip; the
        user's choice comes back when it is allowed again. Emits no `weights_changed`."""
        if allowed == self._idf_allowed:
            return
        if not allowed:
            self._idf_wanted = self._idf.isChecked()
        self._idf_allowed = allowed
        self._idf.setEnabled(allowed)
        _set_quietly(self._idf, self._idf_wanted if allowed else False)
        self._idf.setToolTip(self._idf_tip())

    def common_docs(self) -> int:
        """Passages in more documents than this are common text."""
        return self._common_docs.value()

    def set_common_docs(self, value: int) -> None:
        """Show `value` without emitting `weights_changed`."""
        _set_quietly(self._common_docs, value)

    def shortest_match(self) -> int:
        """Shared runs of fewer words never count; a run this long makes a partial copy."""
        return self._shortest.value()

    def set_shortest_match(self, words: int) -> None:
        """Show `words` without emitting `weights_changed`."""
        _set_quietly(self._shortest, words)

    def count_quotations(self) -> bool:
        return self._quotations.isChecked()

    def set_count_quotations(self, count: bool) -> None:
        """Show `count` without emitting `weights_changed`."""
        _set_quietly(self._quotations, count)

    def count_bibliography(self) -> bool:
        return self._bibliography.isChecked()

    def set_count_bibliography(self, count: bool) -> None:
        """Show `count` without emitting `weights_changed`."""
        _set_quietly(self._bibliography, count)

    def paraphrase(self) -> bool:
        """Whether paraphrased passages are looked for (`PassageOptions.paraphrase`)."""
        return self._paraphrase.isChecked()

    def set_paraphrase(self, find: bool) -> None:
        """Show `find` without emitting `weights_changed`."""
        _set_quietly(self._paraphrase, find)

    def translation(self) -> bool:
        """Whether translated passages are looked for (`PassageOptions.translation`)."""
        return self._translation.isChecked()

    def set_translation(self, find: bool) -> None:
        """Show `find` without emitting `weights_changed`."""
        _set_quietly(self._translation, find)

    def passage_options(self, base: PassageOptions | None = None) -> PassageOptions:
        """`base` (default: the engine's defaults) with what counts as copying as shown."""
        return replace(
            base if base is not None else PassageOptions(),
            partial_min_run=self.shortest_match(),
            common_max_docs=self.common_docs(),
            count_quotations=self.count_quotations(),
            count_bibliography=self.count_bibliography(),
            paraphrase=self.paraphrase(),
            translation=self.translation(),
        )

    def set_weights(self, weights: FeatureWeights) -> None:
        """Show `weights` without emitting `weights_changed`."""
        controls = (
            self._title_boost,
            self._tf,
            self._idf,
            self._digits,
            self._shingle,
            self._stopwords,
            self._terms,
        )
        for control in controls:
            control.blockSignals(True)
        self._title_boost.setValue(weights.title_boost)
        self._tf.setCurrentIndex(TF_SCHEMES.index(weights.tf_scheme))
        self._idf_wanted = weights.use_idf
        self._idf.setChecked(weights.use_idf and self._idf_allowed)
        self._digits.setChecked(weights.ignore_digits)
        self._shingle.setValue(weights.shingle_size)
        self._stopwords.setChecked(weights.remove_stopwords)
        self._terms.setRowCount(0)
        for term, weight in weights.term_weights:
            self._append_term(term, weight)
        for control in controls:
            control.blockSignals(False)

    def _append_term(self, term: str, weight: float) -> None:
        row = self._terms.rowCount()
        self._terms.insertRow(row)
        self._terms.setItem(row, 0, QTableWidgetItem(term))
        self._terms.setItem(row, 1, QTableWidgetItem(f"{weight:g}"))

    def _remove_selected_terms(self) -> None:
        for row in sorted({i.row() for i in self._terms.selectedIndexes()}, reverse=True):
            self._terms.removeRow(row)
        self._weights_timer.start()

    def _term_weights(self) -> tuple[tuple[str, float], ...]:
        """Rows with a term and a valid non-negative weight; others are ignored while typed."""
        terms = []
        for row in range(self._terms.rowCount()):
            term_item, weight_item = self._terms.item(row, 0), self._terms.item(row, 1)
            term = term_item.text().strip() if term_item else ""
            try:
                weight = float(weight_item.text()) if weight_item else -1.0
            except ValueError:
                continue
            if term and weight >= 0:
                terms.append((term, weight))
        return tuple(terms)


class _WheelNeedsFocus(QObject):
    """Event filter: a guarded editor turns with the wheel only while it has keyboard
    focus; otherwise the wheel goes on to the widgets around it (the scroll area)."""

    def guard(self, editor: QWidget) -> None:
        # not Qt.WheelFocus (spin boxes' and sliders' default): the wheel must not focus them
        editor.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        editor.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Wheel and not watched.hasFocus():
            event.ignore()  # ignored, the event propagates to the parent
            return True
        return False


def _wrapped(tip: str) -> str:
    """`tip` as rich text 360 pixels wide: Qt shows a plain tooltip on one line as wide
    as the screen, and wraps a rich one into a narrow column."""
    return f"<table width='360'><tr><td>{html.escape(tip, quote=False)}</td></tr></table>"


def _set_quietly(control: QSpinBox | QCheckBox, value: int | bool) -> None:
    """Show `value` in a spin box or check box without emitting its change signal."""
    control.blockSignals(True)
    if isinstance(control, QCheckBox):
        control.setChecked(bool(value))
    else:
        control.setValue(int(value))
    control.blockSignals(False)
