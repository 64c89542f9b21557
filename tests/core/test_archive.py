"""The archive: documents persist with their text, adds and removals touch only what
changed, a kill during an add leaves the previous archive, damage is a clear error."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from simsift.core.index.packed import FILE_NAME as INDEX_FILE
from simsift.core.pipeline.archiving import add_folders
from simsift.core.pipeline.check import check
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.stages import find_files, fingerprint_documents, read_files
from simsift.core.progress import Cancelled, CancelToken
from simsift.core.report.tables import pair_rows
from simsift.core.store.archive import (
    MANIFEST,
    MAX_SEGMENTS,
    VERSION,
    Archive,
    ArchiveDamaged,
    ArchiveError,
)
from simsift.core.store.postings import Postings

from tests.core.test_check import write_collections

ROOT = Path(__file__).resolve().parents[2]


def options(*roots: Path) -> ScanOptions:
    return ScanOptions(roots=tuple(map(str, roots)), workers=0)


def merged(directory: Path, tmp_path: Path) -> Archive:
    """The archive after an add that merges all its segments into one (a one-file add
    with the segment limit at 1), tombstones of removed documents included."""
    from simsift.core.store import archive as archive_module

    extra = tmp_path / "extra"
    write_texts(extra, {"x.txt": "one more document, added to force the merge " * 5})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(archive_module, "MAX_SEGMENTS", 1)
        add_folders(directory, options(extra))
    return Archive.open(directory)


def write_texts(folder: Path, texts: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_archive_keeps_documents_text_and_fingerprints_when_the_folder_is_gone(tmp_path):
    old, _ = write_collections(tmp_path, 1)
    report = add_folders(tmp_path / "archive", options(old))
    assert report.summary.added == 24
    originals = {p: p.read_text(encoding="utf-8") for p in old.iterdir()}
    records = {}
    for path in originals:
        found, _ = find_files(options(path))
        records[str(path)] = read_files(found, options(path))[0]
    for path in originals:
        path.unlink()
    archive = Archive.open(tmp_path / "archive")
    assert sorted(archive.paths()) == sorted(records)
    fingerprints = dict(zip(archive.paths(), archive.fingerprints().tolist(), strict=True))
    for doc, path in enumerate(archive.paths()):
        title, paragraphs = archive.text(doc)
        assert (title, paragraphs) == (records[path].title, records[path].paragraphs)
        expected = fingerprint_documents([records[path]], options(old).weights)[0]
        assert fingerprints[path] == int(expected)
        again = archive.record(doc)
        assert again.tokens.body.hashes.tolist() == records[path].tokens.body.hashes.tolist()
        assert again.content_hash == records[path].content_hash


def test_adding_the_same_files_again_changes_nothing(tmp_path):
    old, _ = write_collections(tmp_path, 2)
    add_folders(tmp_path / "archive", options(old))
    before = sorted(os.listdir(tmp_path / "archive"))
    again = add_folders(tmp_path / "archive", options(old))
    assert (again.summary.added, again.summary.replaced, again.summary.unchanged) == (0, 0, 24)
    assert sorted(os.listdir(tmp_path / "archive")) == before
    assert len(Archive.open(tmp_path / "archive")) == 24


def test_a_touched_but_unchanged_file_is_not_duplicated(tmp_path):
    old, _ = write_collections(tmp_path, 3)
    add_folders(tmp_path / "archive", options(old))
    os.utime(old / "o3.txt", ns=(1, 1))  # read again: same content, so left as it is
    again = add_folders(tmp_path / "archive", options(old))
    assert (again.summary.added, again.summary.replaced) == (0, 0)
    assert len(Archive.open(tmp_path / "archive")) == 24


def test_a_changed_file_replaces_its_old_version(tmp_path):
    old, _ = write_collections(tmp_path, 4)
    add_folders(tmp_path / "archive", options(old))
    target = old / "o5.txt"
    target.write_text("An entirely new essay about rivers and their deltas. " * 20, "utf-8")
    os.utime(target, ns=(10**18, 10**18))
    report = add_folders(tmp_path / "archive", options(old))
    assert (report.summary.added, report.summary.replaced) == (0, 1)
    archive = Archive.open(tmp_path / "archive")
    assert len(archive) == 24 and archive.paths().count(str(target)) == 1
    _, paragraphs = archive.text(archive.number(str(target)))
    assert paragraphs[0].startswith("An entirely new essay about rivers")


def test_new_files_go_into_a_new_segment_and_removal_leaves_the_others(tmp_path):
    old, new = write_collections(tmp_path, 5)
    add_folders(tmp_path / "archive", options(old))
    first = sorted(os.listdir(tmp_path / "archive"))
    add_folders(tmp_path / "archive", options(new))
    archive = Archive.open(tmp_path / "archive")
    assert archive.segment_count == 2 and len(archive) == 31
    assert set(first) - {MANIFEST} <= set(os.listdir(tmp_path / "archive"))
    gone = [str(new / "n0.txt"), str(old / "o0.txt"), "/not/archived.txt"]
    archive, removed = archive.remove(gone)
    assert removed == 2 and len(archive) == 29
    reopened = Archive.open(tmp_path / "archive")
    assert sorted(reopened.paths()) == sorted(set(archive.paths()))
    assert not set(gone) & set(reopened.paths())
    compacted = merged(tmp_path / "archive", tmp_path)
    extra = str(tmp_path / "extra" / "x.txt")
    assert compacted.segment_count == 1
    assert sorted(compacted.paths()) == sorted([*archive.paths(), extra])
    for doc in range(len(compacted)):
        assert compacted.text(doc)[1]  # texts moved with their documents


def test_many_adds_are_merged_into_one_segment(tmp_path):
    old, _ = write_collections(tmp_path, 6)
    files = sorted(old.iterdir())
    for i, path in enumerate(files[:MAX_SEGMENTS]):
        add_folders(tmp_path / "archive", options(path))
        assert Archive.open(tmp_path / "archive").segment_count == i + 1
    add_folders(tmp_path / "archive", options(files[MAX_SEGMENTS]))
    archive = Archive.open(tmp_path / "archive")
    assert archive.segment_count == 1
    assert sorted(archive.paths()) == sorted(map(str, files[: MAX_SEGMENTS + 1]))
    add_folders(tmp_path / "archive", options(old))  # the merged segments' files are gone
    npz = [p for p in os.listdir(tmp_path / "archive") if p.endswith(".npz")]
    assert len(npz) == Archive.open(tmp_path / "archive").segment_count == 2


def brute_force(queries: np.ndarray, indexed: np.ndarray, k: int) -> set:
    distance = np.bitwise_count(queries[:, None] ^ indexed[None, :])
    return set(zip(*np.nonzero(distance <= k), strict=True))


def found(matches) -> set:
    return set(zip(matches.left.tolist(), matches.right.tolist(), strict=True))


def test_stored_indexes_answer_as_brute_force_over_the_live_documents(tmp_path):
    old, new = write_collections(tmp_path, 15)
    add_folders(tmp_path / "archive", options(old))
    add_folders(tmp_path / "archive", options(new))
    before = Archive.open(tmp_path / "archive")
    gone = [before.number(str(old / "o3.txt")), before.number(str(new / "n1.txt"))]
    doc, passage_fp = before._live_passages()
    archive, removed = before.remove([str(old / "o3.txt"), str(new / "n1.txt")])
    assert removed == 2
    # the removed documents' own fingerprints must no longer be found
    queries = np.r_[before.fingerprints()[gone], passage_fp[np.isin(doc, gone)]]
    queries = np.r_[queries, archive.fingerprints()[:5], archive.passage_table().values[::7]]
    compacted = merged(tmp_path / "archive", tmp_path)
    assert compacted.segment_count == 1
    for current in (archive, compacted):
        for k in (0, 3, 10, 12):  # 12: beyond the stored index, built in memory
            assert found(current.near_documents(queries, k)) == brute_force(
                queries, current.fingerprints(), k
            )
        for k in (0, 8, 9):
            assert found(current.near_passages(queries, k)) == brute_force(
                queries, current.passage_table().values, k
            )
    # the merged segment's indexes were written with it
    [entry] = json.loads((tmp_path / "archive" / MANIFEST).read_text())["segments"]
    for kind in ("docs", "passages"):
        index = tmp_path / "archive" / f"{entry['name']}.{kind}" / INDEX_FILE
        assert index.stat().st_size == entry["indexes"][kind]["bytes"]


def as_version_1(folder: Path) -> None:
    """What an archive written before segments stored indexes looks like."""
    data = json.loads((folder / MANIFEST).read_text())
    for entry in data["segments"]:
        del entry["indexes"]
        for kind in ("docs", "passages"):
            shutil.rmtree(folder / f"{entry['name']}.{kind}")
    data["version"] = 1
    (folder / MANIFEST).write_text(json.dumps(data))


def test_an_archive_without_indexes_is_indexed_on_its_next_write(tmp_path):
    old, new = write_collections(tmp_path, 16)
    folder = tmp_path / "archive"
    add_folders(folder, options(old))
    queries = Archive.open(folder).passage_table().values
    expected = found(Archive.open(folder).near_passages(queries, 8))
    as_version_1(folder)
    legacy = Archive.open(folder)
    assert found(legacy.near_passages(queries, 8)) == expected  # indexed in memory
    assert not list(folder.glob("*.passages"))
    add_folders(folder, options(new))
    assert json.loads((folder / MANIFEST).read_text())["version"] == VERSION
    assert len(list(folder.glob("*.passages"))) == len(list(folder.glob("*.docs"))) == 2
    upgraded = Archive.open(folder)
    assert all(len(s.indexes) == 2 for s in upgraded._segments)
    assert len(upgraded) == 31


ARRAYS_OF = {"passages": ("passage_doc", "passage_fp"), "grams": ("gram_doc", "gram_value")}


def as_version_2(folder: Path) -> None:
    """What an archive written before segments kept posting lists looks like: the passages
    and grams in seg-N.npz."""
    data = json.loads((folder / MANIFEST).read_text())
    for entry in data["segments"]:
        path = folder / f"{entry['name']}.npz"
        with np.load(path) as z:
            arrays = {key: z[key] for key in z.files}
        for kind, names in (
            ("passages", ("passage_doc", "passage_fp")),
            ("grams", ("gram_doc", "gram_value")),
        ):
            postings = Postings.load(
                folder / f"{entry['name']}.{kind}-postings", entry["postings"][kind]
            )
            arrays |= dict(zip(names, postings.items(), strict=True))
            shutil.rmtree(folder / f"{entry['name']}.{kind}-postings")
        arrays["version"] = np.array([2], np.int64)
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        path.write_bytes(buffer.getvalue())
        entry["bytes"] = len(buffer.getvalue())
        entry["digest"] = hashlib.blake2b(buffer.getvalue(), digest_size=16).hexdigest()
        del entry["postings"]
    data["version"] = 2
    (folder / MANIFEST).write_text(json.dumps(data))


def test_an_archive_without_posting_lists_checks_the_same_and_gets_them_on_its_next_write(
    tmp_path,
):
    old, new = write_collections(tmp_path, 17)
    folder = tmp_path / "archive"
    add_folders(folder, options(old))
    expected = pair_rows(check(Archive.open(folder), options(new)), 8, 0.01)
    as_version_2(folder)
    assert pair_rows(check(Archive.open(folder), options(new)), 8, 0.01) == expected
    Archive.open(folder).remove([str(old / "o5.txt")])
    data = json.loads((folder / MANIFEST).read_text())
    assert data["version"] == VERSION
    assert set(data["segments"][0]["postings"]) == {"passages", "grams"}
    assert all(s.postings for s in Archive.open(folder)._segments)


def test_cancel_during_an_add_leaves_the_archive_unchanged(tmp_path):
    old, new = write_collections(tmp_path, 7)
    add_folders(tmp_path / "archive", options(old))
    cancel = CancelToken()

    def progress(p):
        if p.stage == "passages":
            cancel.cancel()

    with pytest.raises(Cancelled):
        add_folders(tmp_path / "archive", options(new), progress=progress, cancel=cancel)
    assert len(Archive.open(tmp_path / "archive")) == 24


CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from simsift.core.pipeline.archiving import add_folders
    from simsift.core.pipeline.options import ScanOptions
    where = sys.argv[3]
    real_replace = os.replace

    def dying_replace(src, dst):
        if where == "manifest" and str(dst).endswith("manifest.json"):
            os.kill(os.getpid(), signal.SIGKILL)
        if where == "segment" and str(dst).endswith(".npz"):
            with open(src, "r+b") as f:  # half a segment on disk
                f.truncate(os.path.getsize(src) // 2)
            os.kill(os.getpid(), signal.SIGKILL)
        return real_replace(src, dst)

    os.replace = dying_replace
    if where == "sleep":
        print("started", flush=True)
    add_folders(sys.argv[1], ScanOptions(roots=(sys.argv[2],), workers=0))
    """
)


def run_child(archive: Path, folder: Path, where: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(archive), str(folder), where],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.parametrize("where", ["segment", "manifest"])
def test_a_kill_during_an_add_leaves_the_previous_archive(tmp_path, where):
    old, new = write_collections(tmp_path, 8)
    add_folders(tmp_path / "archive", options(old))
    before = sorted(Archive.open(tmp_path / "archive").paths())
    child = run_child(tmp_path / "archive", new, where)
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    archive = Archive.open(tmp_path / "archive")
    assert sorted(archive.paths()) == before
    assert all(archive.text(d)[1] for d in range(len(archive)))
    # the next add cleans up the interrupted one and works
    report = add_folders(tmp_path / "archive", options(new))
    assert report.summary.added == 7
    left = os.listdir(tmp_path / "archive")
    assert not [name for name in left if name.endswith(".tmp")]
    assert len([n for n in left if n.endswith(".npz")]) == 2


def test_a_kill_at_any_moment_of_a_real_add_leaves_a_readable_archive(tmp_path):
    old, new = write_collections(tmp_path, 9)
    add_folders(tmp_path / "archive", options(old))
    before = sorted(Archive.open(tmp_path / "archive").paths())
    after = sorted(before + [str(p) for p in new.iterdir()])
    for delay in (0.3, 0.6, 0.9, 1.2, 1.5):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(tmp_path / "archive"), str(new), "sleep"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
        )
        child.stdout.readline()
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait()
        paths = sorted(Archive.open(tmp_path / "archive").paths())
        assert paths in (before, after)
        if paths == after:
            break


def test_another_format_version_is_a_clear_error(tmp_path):
    old, _ = write_collections(tmp_path, 10)
    add_folders(tmp_path / "archive", options(old))
    manifest = tmp_path / "archive" / MANIFEST
    data = json.loads(manifest.read_text())
    data["version"] = 99
    manifest.write_text(json.dumps(data))
    with pytest.raises(ArchiveError, match="another archive version"):
        Archive.open(tmp_path / "archive")


def flip_indexed_byte(path: Path) -> None:
    """Flip a byte of the first array of a packed index file (header says where)."""
    data = bytearray(path.read_bytes())
    header_len = int.from_bytes(data[20:24], "little")
    header = json.loads(bytes(data[28 : 28 + header_len]))
    body = -(-(28 + header_len) // 64) * 64
    data[body + header["sections"]["fingerprints"][0] + 3] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage",
    [
        "manifest",
        "entry",
        "segment",
        "text",
        "missing",
        "index",
        "index cut",
        "index missing",
        "postings cut",
        "postings missing",
    ],
)
def test_a_damaged_file_is_a_clear_error(tmp_path, damage):
    old, _ = write_collections(tmp_path, 11)
    add_folders(tmp_path / "archive", options(old))
    folder = tmp_path / "archive"
    segment = next(folder.glob("*.npz"))
    if damage == "manifest":
        (folder / MANIFEST).write_bytes(b'{"format": "simsift-ar')
    elif damage == "entry":
        data = json.loads((folder / MANIFEST).read_text())
        data["segments"][0]["dead"] = ["../etc"]
        (folder / MANIFEST).write_text(json.dumps(data))
    elif damage == "segment":
        data = bytearray(segment.read_bytes())
        data[len(data) // 2] ^= 0xFF
        segment.write_bytes(bytes(data))
    elif damage == "text":
        text = segment.with_suffix(".text")
        data = bytearray(text.read_bytes())
        data[10:20] = b"\0" * 10
        text.write_bytes(bytes(data))
    elif damage == "index":
        flip_indexed_byte(segment.with_suffix(".passages") / INDEX_FILE)
    elif damage == "index cut":
        index = segment.with_suffix(".docs") / INDEX_FILE
        index.write_bytes(index.read_bytes()[:-64])
    elif damage == "index missing":
        (segment.with_suffix(".docs") / INDEX_FILE).unlink()
    elif damage == "postings cut":
        rows = segment.with_suffix(".grams-postings") / "rows.npy"
        rows.write_bytes(rows.read_bytes()[:-8])
    elif damage == "postings missing":
        (segment.with_suffix(".passages-postings") / "values.npy").unlink()
    else:
        segment.unlink()
    with pytest.raises(ArchiveDamaged) as error:  # proven damage: the app may rebuild
        archive = Archive.open(folder)
        for doc in range(len(archive)):
            archive.text(doc)
    assert "\n" not in str(error.value) and str(folder) in str(error.value)


def test_a_folder_that_is_not_an_archive_is_refused(tmp_path):
    with pytest.raises(ArchiveError, match="not a SimSift archive"):
        Archive.open(tmp_path)
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "c").mkdir()
    old, _ = write_collections(tmp_path / "c", 12)
    with pytest.raises(ArchiveError, match="not empty"):
        add_folders(tmp_path, options(old))
    assert sorted(os.listdir(tmp_path)) == ["c", "notes.txt"]


def test_document_numbers_follow_paths(tmp_path):
    old, new = write_collections(tmp_path, 13)
    add_folders(tmp_path / "archive", options(old))
    add_folders(tmp_path / "archive", options(new))
    archive, _ = Archive.open(tmp_path / "archive").remove([str(old / "o4.txt")])
    paths = archive.paths()
    assert [archive.number(p) for p in paths] == list(range(len(paths)))
    fps = archive.fingerprints()
    near = archive.near_documents(fps[:3], 0)
    assert np.all(fps[near.right] == fps[near.left])


def test_a_second_writer_is_refused_while_one_writes(tmp_path):
    old, new = write_collections(tmp_path, 14)
    add_folders(tmp_path / "archive", options(old))
    archive = Archive.open(tmp_path / "archive")
    refused = pytest.raises(ArchiveError, match="being changed by another SimSift")
    with archive._writing(), refused:
        add_folders(tmp_path / "archive", options(new))
    stale = archive
    add_folders(tmp_path / "archive", options(new))
    with pytest.raises(ArchiveError, match="changed since it was opened"):
        stale.remove([str(old / "o1.txt")])
    assert len(Archive.open(tmp_path / "archive")) == 31


def same_tokens(a, b) -> bool:
    streams = ((a.title, b.title), (a.body, b.body))
    return all(
        np.array_equal(x.hashes, y.hashes)
        and np.array_equal(x.is_digit, y.is_digit)
        and np.array_equal(x.para_starts, y.para_starts)
        and np.array_equal(x.marks, y.marks)
        and x.unbalanced_quotes == y.unbalanced_quotes
        for x, y in streams
    )


def mixed_folder(tmp_path: Path) -> Path:
    """Essays with titles, Chinese, quotations, a bibliography and digits."""
    folder = tmp_path / "mixed"
    write_texts(
        folder,
        {
            "zh.txt": "论文题目\n\n委员会审阅了年度报告，“预算主要用于教学材料”。\n\n"
            "参考文献\n\n张三. 教学研究. 2019.",
            "en.txt": "An Essay\n\nThe committee met in 2024 and said “budgets rise”.\n\n"
            "References\n\nSmith, J. (2019). Budgets. Press.",
            "stray.txt": "Title\n\nA stray “ mark and 42 apples " * 3,
        },
    )
    return folder


def test_stored_tokens_are_the_readers_and_a_check_cuts_none_again(tmp_path, monkeypatch):
    """The archive keeps each document's tokens: a record's tokens are what the reader
    made, before and after a merge, and taking a document in cuts nothing again."""
    from simsift.core.store import archive as archive_module

    old, _ = write_collections(tmp_path, 2)
    folders = [old, mixed_folder(tmp_path)]
    for folder in folders:
        add_folders(tmp_path / "archive", options(folder))
    read = {}
    for folder in folders:
        found, _ = find_files(options(folder))
        read |= {r.path: r for r in read_files(found, options(folder))}

    def cut_again(*args, **kwargs):
        raise AssertionError("tokens cut again from the text")

    for archive in (Archive.open(tmp_path / "archive"), merged(tmp_path / "archive", tmp_path)):
        with monkeypatch.context() as patch:
            patch.setattr(archive_module, "document_tokens", cut_again)
            for doc, path in enumerate(archive.paths()):
                if path in read:
                    assert same_tokens(archive.record(doc).tokens, read[path].tokens), path


def test_tokens_kept_in_one_file_as_earlier_segments_kept_them_are_read(tmp_path, monkeypatch):
    from simsift.core.store import archive as archive_module

    folder = mixed_folder(tmp_path)
    add_folders(tmp_path / "archive", options(folder))
    data = json.loads((tmp_path / "archive" / MANIFEST).read_text())
    entry = data["segments"][0]
    (stored,) = (tmp_path / "archive").glob("seg-*.token-arrays")
    arrays = {f.stem: np.load(f) for f in stored.glob("*.npy") if f.stem != "row_crc"}
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    (tmp_path / "archive" / f"{entry['name']}.tokens").write_bytes(buffer.getvalue())
    shutil.rmtree(stored)
    del entry["token_arrays_bytes"]
    entry["tokens_digest"] = hashlib.blake2b(buffer.getvalue(), digest_size=16).hexdigest()
    (tmp_path / "archive" / MANIFEST).write_text(json.dumps(data))
    found, _ = find_files(options(folder))
    read = {r.path: r for r in read_files(found, options(folder))}

    def cut_again(*args, **kwargs):
        raise AssertionError("tokens cut again from the text")

    monkeypatch.setattr(archive_module, "document_tokens", cut_again)
    archive = Archive.open(tmp_path / "archive")
    for doc, path in enumerate(archive.paths()):
        assert same_tokens(archive.record(doc).tokens, read[path].tokens), path


@pytest.mark.parametrize("damage", ["missing", "flipped byte", "older reader"])
def test_without_usable_stored_tokens_they_are_cut_again_from_the_text(tmp_path, damage):
    from simsift.core.store import archive_tokens

    folder = mixed_folder(tmp_path)
    add_folders(tmp_path / "archive", options(folder))
    (stored,) = (tmp_path / "archive").glob("seg-*.token-arrays")
    if damage == "missing":
        shutil.rmtree(stored)
    elif damage == "flipped byte":  # in one document's tokens: that one is cut again
        ids = stored / "body_ids.npy"
        data = bytearray(ids.read_bytes())
        data[len(data) // 2] ^= 0xFF
        ids.write_bytes(bytes(data))
    else:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(archive_tokens, "READER_VERSION", archive_tokens.READER_VERSION - 1)
            shutil.rmtree(tmp_path / "archive")
            add_folders(tmp_path / "archive", options(folder))
    found, _ = find_files(options(folder))
    read = {r.path: r for r in read_files(found, options(folder))}
    archive = Archive.open(tmp_path / "archive")
    assert (archive._segment_tokens(0) is None) == (damage != "flipped byte")
    for doc, path in enumerate(archive.paths()):
        assert same_tokens(archive.record(doc).tokens, read[path].tokens), path
