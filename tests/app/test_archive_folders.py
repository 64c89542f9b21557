"""Archive folders in the window: previous years indexed once, this year checked against
them, archive documents viewable side by side."""

from __future__ import annotations

from pathlib import Path

from simsift.core.pipeline.archive_folders import archive_directory
from simsift.core.pipeline.check import ARCHIVE_MARK
from simsift.core.store.archive import Archive

from tests.app.conftest import scan_and_wait
from tests.core.corpus import prose_paragraphs


def write_years(root):
    """2025: three essays (the archive). 2026: one copying a 2025 essay in part, one own."""
    old, new = root / "2025", root / "2026"
    old.mkdir(parents=True)
    new.mkdir()
    texts = {m: prose_paragraphs(m) for m in ("argparse", "json", "heapq", "unittest")}
    for name in ("argparse", "json", "heapq"):
        (old / f"{name}.txt").write_text("\n\n".join(texts[name][:8]), encoding="utf-8")
    copy = texts["argparse"][2:6] + texts["unittest"][:5]
    (new / "copy.txt").write_text("\n\n".join(copy), encoding="utf-8")
    (new / "own.txt").write_text("\n\n".join(texts["unittest"][6:14]), encoding="utf-8")
    return old, new


def test_an_archive_folder_is_indexed_once_and_checked_against(qtbot, window, tmp_path):
    old, new = write_years(tmp_path / "essays")
    window.folders.add_paths([str(new)])
    window.folders.add_paths([str(old)], archive=True)
    assert window.folders.folders() == [str(new)]
    assert window.folders.archive_folders() == [str(old)]
    scan_and_wait(qtbot, window)

    paths = [d.path for d in window.result.documents]
    assert str(new / "copy.txt") in paths
    source = ARCHIVE_MARK + str(old / "argparse.txt")
    assert source in paths
    assert not any(p.startswith(ARCHIVE_MARK + str(old / "json")) for p in paths)  # untouched
    pairs = window.result.partial_pairs()
    pair = {paths[int(pairs.left[0])], paths[int(pairs.right[0])]}
    assert pair == {str(new / "copy.txt"), source}

    record = window.record_with_text(paths.index(source))
    assert record.paragraphs and "argparse" in " ".join(record.paragraphs).lower()
    directory = archive_directory(
        Path(window.catalog.path).parent, [str(old)], window.result.options
    )
    assert Archive.open(directory).segment_count == 1
    scan_and_wait(qtbot, window)  # nothing changed: the archive is not added to again
    assert Archive.open(directory).segment_count == 1
    assert len(Archive.open(directory)) == 3


def test_archive_folders_are_remembered(qtbot, window, settings, tmp_path):
    old, _ = write_years(tmp_path / "essays")
    window.folders.add_paths([str(old)], archive=True)
    window.save_settings()
    assert settings.archive_folders == [str(old)]
    window.folders.set_archive(str(old), False)
    assert window.folders.folders() == [str(old)] and window.folders.archive_folders() == []


def test_a_reference_folder_counts_beside_an_archive_folder(qtbot, window, tmp_path):
    # this year's essays all open with the assignment; ticked as reference, it never counts
    from tests.core.test_passages import english_paragraphs

    old, new = write_years(tmp_path / "essays")
    pool = english_paragraphs()
    prompt = pool[310:312]
    (new / "own.txt").write_text("\n\n".join(pool[300:306]), encoding="utf-8")
    for path in new.glob("*.txt"):
        path.write_text("\n\n".join([*prompt, path.read_text(encoding="utf-8")]), "utf-8")
    reference = tmp_path / "essays" / "assignment"
    reference.mkdir()
    (reference / "assignment.txt").write_text("\n\n".join(prompt), encoding="utf-8")
    window.folders.add_paths([str(new)])
    window.folders.add_paths([str(reference)], reference=True)
    window.folders.add_paths([str(old)], archive=True)
    scan_and_wait(qtbot, window)

    result = window.result
    paths = [d.path for d in result.documents]
    assert result.is_reference[paths.index(str(reference / "assignment.txt"))]
    pairs = result.partial_pairs()
    partial = {
        frozenset((paths[a], paths[b]))
        for a, b in zip(pairs.left.tolist(), pairs.right.tolist(), strict=True)
    }
    # the two essays share only the assignment: not a partial copy
    assert frozenset((str(new / "copy.txt"), str(new / "own.txt"))) not in partial
    assert frozenset((str(new / "copy.txt"), ARCHIVE_MARK + str(old / "argparse.txt"))) in partial


def test_a_rescan_with_an_archive_folder_takes_unchanged_files_from_the_catalog(
    qtbot, window, tmp_path, monkeypatch
):
    import simsift.core.pipeline.stages as stages

    old, new = write_years(tmp_path / "essays")
    window.folders.add_paths([str(new)])
    window.folders.add_paths([str(old)], archive=True)
    scan_and_wait(qtbot, window)
    assert window.result.reused == 0
    read = []
    real_read = stages.read_file
    monkeypatch.setattr(stages, "read_file", lambda task: read.append(task.path) or real_read(task))
    scan_and_wait(qtbot, window)
    assert read == []  # neither this year's files nor the archive's are read again
    assert window.result.reused == 2
    assert "2 unchanged files taken from the catalog" in window.statusBar().currentMessage()
    (new / "own.txt").write_text("A new version of this essay.", encoding="utf-8")
    scan_and_wait(qtbot, window)
    assert read == [str(new / "own.txt")] and window.result.reused == 1


def test_idf_is_unavailable_while_an_archive_folder_is_listed(qtbot, window, tmp_path):
    # an archive keeps fingerprints without idf: ticking it must not end in an error box
    old, new = write_years(tmp_path / "essays")
    window.folders.add_paths([str(new), str(old)])
    idf = window.params._idf
    idf.setChecked(True)
    window.folders.set_archive(str(old), True)
    assert not idf.isEnabled() and not idf.isChecked()
    assert "archive folder" in idf.toolTip()
    assert not window.params.weights().use_idf
    scan_and_wait(qtbot, window)  # no "Scan failed" box (the fixture fails on one)
    assert str(new / "copy.txt") in [d.path for d in window.result.documents]
    window.folders.set_archive(str(old), False)
    assert idf.isEnabled() and idf.isChecked()  # the user's choice is back
    assert "archive folder" not in idf.toolTip()


def test_idf_stays_off_when_settings_restore_it_beside_an_archive_folder(qtbot, window, tmp_path):
    old, _ = write_years(tmp_path / "essays")
    window.folders.add_paths([str(old)], archive=True)
    from simsift.core.text.features import FeatureWeights

    window.params.set_weights(FeatureWeights(use_idf=True))
    assert not window.params._idf.isChecked() and not window.params.weights().use_idf
