"""Anonymized names: every view shows neutral labels instead of names, folders and titles."""

from __future__ import annotations

import pytest
from simsift.app.models.documents import COL_FOLDER as DOC_FOLDER
from simsift.app.models.documents import COL_NAME as DOC_NAME
from simsift.app.models.partial import COL_FOLDER_A, COL_NAME_A, COL_NAME_B
from simsift.app.readable import NAMES

from tests.app.conftest import scan_and_wait
from tests.core.corpus import write_partial_copy


@pytest.fixture
def anonymous_after(window):
    yield
    window.set_anonymous(False)  # the switch is global: leave it off for other tests


def visible_texts(window) -> str:
    """Every name, folder and tooltip the tables and the side-by-side view show."""
    texts = []
    for proxy, columns in (
        (window.partial_panel.proxy, (COL_NAME_A, COL_FOLDER_A, COL_NAME_B)),
        (window.documents_panel.proxy, (DOC_NAME, DOC_FOLDER)),
    ):
        for row in range(proxy.rowCount()):
            for column in columns:
                index = proxy.index(row, column)
                texts += [str(index.data()), str(index.data(3))]  # display, tooltip
    pane = window.diff_view._left
    texts += [pane.name.text(), pane.details.text(), pane.name.toolTip()]
    texts.append(window.documents_panel.text.toPlainText())
    return "\n".join(texts)


def test_anonymize_hides_names_folders_and_titles_everywhere(
    qtbot, window, tmp_path, anonymous_after
):
    write_partial_copy(tmp_path / "class of alice")
    window.folders.add_paths([str(tmp_path / "class of alice")])
    scan_and_wait(qtbot, window)
    window.tabs.setCurrentWidget(window.partial_panel)
    window.partial_panel.view.selectRow(0)
    window.documents_panel.table.selectRow(0)
    assert "essay_a.txt" in visible_texts(window)

    window.anonymize_action.trigger()
    assert NAMES.anonymous
    window.partial_panel.view.selectRow(0)
    window.documents_panel.table.selectRow(0)
    shown = visible_texts(window)
    for secret in ("essay_a", "source_b", "alice", str(tmp_path)):
        assert secret not in shown
    labels = {window.partial_panel.proxy.index(0, c).data() for c in (COL_NAME_A, COL_NAME_B)}
    assert labels <= {"Document 1", "Document 2"} and len(labels) == 2

    window.anonymize_action.trigger()
    assert "essay_a.txt" in visible_texts(window)
