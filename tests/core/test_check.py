"""Checking new documents against an archive equals a full scan, for the pairs that
involve a new document; archive documents are never paired with each other."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import simsift.core.store.archive as archive_module
from simsift.core.index.memory import HammingIndex
from simsift.core.match.meaning.matches import KINDS
from simsift.core.match.passages import PassageOptions
from simsift.core.pipeline.archiving import add_folders, archive_settings
from simsift.core.pipeline.check import ARCHIVE_MARK, check
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.progress import Cancelled, CancelToken
from simsift.core.report.tables import pair_rows
from simsift.core.store.archive import MAX_SEGMENTS, Archive, ArchiveError
from simsift.core.store.archive_tokens import SegmentTokens

from tests.core.corpus import edit_words
from tests.core.test_passages import english_paragraphs

PARAGRAPHS = english_paragraphs()
BOILERPLATE = PARAGRAPHS[100:102]  # a licence-like footer many documents carry


def write_essay(path: Path, rng: random.Random, footer: bool) -> None:
    """Fresh paragraphs, often a run from a shared pool (copying), sometimes a footer."""
    own = rng.sample(PARAGRAPHS[200:], 5)
    start = rng.randrange(0, 30)
    copied = PARAGRAPHS[start : start + rng.choice([0, 2, 3])]
    paragraphs = own[:3] + copied + own[3:] + (BOILERPLATE if footer else [])
    path.write_text("\n\n".join(paragraphs), encoding="utf-8")


def write_collections(root: Path, seed: int) -> tuple[Path, Path]:
    """An archive folder of earlier essays and a folder of new ones: new essays copy
    from the pool, from archive essays (an edited re-post, an exact copy), and 12 of
    the 31 documents carry the same footer (common text across both folders)."""
    rng = random.Random(seed)
    old, new = root / "old", root / "new"
    old.mkdir()
    new.mkdir()
    for i in range(24):
        write_essay(old / f"o{i}.txt", rng, footer=i % 3 == 0)
    for i in range(5):
        write_essay(new / f"n{i}.txt", rng, footer=i % 2 == 0)
    text = (old / "o1.txt").read_text(encoding="utf-8")
    (new / "repost.txt").write_text(edit_words(text, 3, seed=seed), encoding="utf-8")
    (new / "exact.txt").write_bytes((old / "o2.txt").read_bytes())
    return old, new


def involving_new(rows: list[dict], new_root: Path) -> dict:
    """Pair rows with a new document, by unordered path pair, archive marks removed; pairs
    found by meaning alone left out."""
    out = {}
    for row in rows:
        if row["kind"] in KINDS:
            # found by meaning only: weighed by the documents each compares (a check sees
            # the new ones and the archive documents it brings in), so the two may differ
            continue
        a, b = (row[x].removeprefix(ARCHIVE_MARK) for x in ("a", "b"))
        if not (a.startswith(str(new_root)) or b.startswith(str(new_root))):
            continue
        c_ab, c_ba = row["containment_ab"], row["containment_ba"]
        if a > b:
            a, b, c_ab, c_ba = b, a, c_ba, c_ab
        out[a, b] = (row["kind"], row["distance"], c_ab, c_ba, row["overlap"])
    return out


def options(*roots: Path, **passages) -> ScanOptions:
    return ScanOptions(roots=tuple(map(str, roots)), workers=0, passages=PassageOptions(**passages))


@pytest.mark.parametrize(
    ("seed", "passages"),
    [(1, {}), (2, {}), (3, {"common_max_docs": 6, "partial_min_run": 0})],
)
def test_check_equals_a_full_scan_for_pairs_with_a_new_document(tmp_path, seed, passages):
    old, new = write_collections(tmp_path, seed)
    add_folders(tmp_path / "archive", options(old, **passages))
    checked = check(Archive.open(tmp_path / "archive"), options(new, **passages))
    full = scan(options(old, new, **passages))
    k = full.k_max
    expected = involving_new(pair_rows(full, k, 0.01), new)
    assert involving_new(pair_rows(checked, k, 0.01), new) == expected
    kinds = {kind for kind, *_ in expected.values()}
    assert {"exact", "near", "partial"} <= kinds  # the corpus exercises every kind
    # the footer is common text in the full scan, and so in the check
    assert len(full.passages.common_text) > 0


def test_archive_documents_are_never_paired_with_each_other(tmp_path):
    old, new = write_collections(tmp_path, 4)
    (old / "o1 copy.txt").write_bytes((old / "o1.txt").read_bytes())
    add_folders(tmp_path / "archive", options(old))
    checked = check(Archive.open(tmp_path / "archive"), options(new))
    is_old = np.array([d.path.startswith(ARCHIVE_MARK) for d in checked.documents])
    assert is_old.any() and (~is_old).any()
    assert not (is_old[checked.pairs.left] & is_old[checked.pairs.right]).any()
    partial = checked.partial_pairs(0.0)
    assert not (is_old[partial.left] & is_old[partial.right]).any()
    for row in pair_rows(checked, checked.k_max, 0.01):
        assert not (row["a"].startswith(ARCHIVE_MARK) and row["b"].startswith(ARCHIVE_MARK))


def test_checking_archived_files_does_not_pair_them_with_themselves(tmp_path):
    old, _ = write_collections(tmp_path, 5)
    add_folders(tmp_path / "archive", options(old))
    checked = check(Archive.open(tmp_path / "archive"), options(old))
    full = scan(options(old))
    assert involving_new(pair_rows(checked, 10, 0.01), old) == involving_new(
        pair_rows(full, 10, 0.01), old
    )


def test_check_refuses_an_archive_built_with_other_settings(tmp_path):
    old, new = write_collections(tmp_path, 6)
    add_folders(tmp_path / "archive", options(old))
    with pytest.raises(ArchiveError, match="other weights or passage sizes"):
        check(Archive.open(tmp_path / "archive"), options(new, min_tokens=30))
    settings = archive_settings(options(new, min_tokens=30))
    with pytest.raises(ArchiveError, match="other weights"):
        Archive.create(tmp_path / "archive", settings)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "simsift.core.cli", *args],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cli_archive_add_then_check_writes_the_scan_report(tmp_path):
    old, new = write_collections(tmp_path, 7)
    archive = str(tmp_path / "archive")
    added = run_cli("archive", "add", str(old), "--archive", archive, "--workers", "1")
    assert added.returncode == 0, added.stderr
    assert "24 documents added" in added.stdout
    again = run_cli("archive", "add", str(old), "--archive", archive, "--workers", "1")
    assert "0 documents added" in again.stdout and "24 already archived" in again.stdout
    out = tmp_path / "report"
    checked = run_cli(
        "check", str(new), "--archive", archive, "--out", str(out), "--format", "json"
    )
    assert checked.returncode == 0, checked.stderr
    rows = json.loads((out / "pairs.json").read_text(encoding="utf-8"))
    expected = check(Archive.open(archive), options(new))
    assert involving_new(rows, new) == involving_new(pair_rows(expected, 8), new)
    marked = {row["b"] for row in rows if row["kind"] == "exact"}
    assert marked == {ARCHIVE_MARK + str(old / "o2.txt")}
    listed = run_cli("archive", "list", "--archive", archive)
    assert sorted(listed.stdout.splitlines()) == sorted(str(p) for p in old.iterdir())
    removed = run_cli("archive", "remove", str(old / "o2.txt"), "--archive", archive)
    assert removed.returncode == 0 and "1 documents removed" in removed.stdout
    after = run_cli("check", str(new), "--archive", archive, "--out", str(out))
    assert "archive:" + str(old / "o2.txt") not in (out / "pairs.csv").read_text("utf-8-sig")
    assert after.returncode == 0


def test_cli_reports_a_bad_archive_in_one_line(tmp_path):
    _, new = write_collections(tmp_path, 8)
    missing = run_cli("check", str(new), "--archive", str(tmp_path / "none"))
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines() == [
        f"simsift: {tmp_path / 'none'} is not a SimSift archive (no manifest.json)"
    ]
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "manifest.json").write_text("{garbage")
    damaged = run_cli("archive", "add", str(new), "--archive", str(tmp_path / "bad"))
    assert damaged.returncode == 2 and "Traceback" not in damaged.stderr
    assert len(damaged.stderr.strip().splitlines()) == 1 and "damaged" in damaged.stderr


def test_empty_archive_and_no_new_documents(tmp_path):
    old, new = write_collections(tmp_path, 9)
    (tmp_path / "blank").mkdir()
    (tmp_path / "blank" / "empty.txt").write_text("", encoding="utf-8")
    report = add_folders(tmp_path / "archive", options(tmp_path / "blank"))
    assert len(report.archive) == 0 and len(report.not_added) == 1
    checked = check(Archive.open(tmp_path / "archive"), options(new))
    alone = scan(options(new))
    assert involving_new(pair_rows(checked, 8, 0.01), new) == involving_new(
        pair_rows(alone, 8, 0.01), new
    )
    add_folders(tmp_path / "archive", options(old))
    nothing = check(Archive.open(tmp_path / "archive"), options(tmp_path / "blank"))
    assert len(nothing.documents) == 0 and len(nothing.errors) == 1
    assert pair_rows(nothing, 8) == []


def test_cancel_during_a_check_raises(tmp_path):
    old, new = write_collections(tmp_path, 10)
    add_folders(tmp_path / "archive", options(old))
    cancel = CancelToken()

    def progress(p):
        if p.stage == "archive":
            cancel.cancel()

    with pytest.raises(Cancelled):
        check(Archive.open(tmp_path / "archive"), options(new), progress=progress, cancel=cancel)


def test_a_check_looks_up_only_its_own_values_in_the_archive(tmp_path, monkeypatch):
    old, new = write_collections(tmp_path, 11)
    folder = tmp_path / "archive"
    add_folders(folder, options(old))
    full = involving_new(pair_rows(scan(options(old, new)), 8, 0.01), new)
    files = sorted(p.name for p in folder.iterdir())

    def whole_archive(*args, **kwargs):
        raise AssertionError("a pass over every archived passage or gram")

    monkeypatch.setattr(Archive, "passage_table", whole_archive)
    monkeypatch.setattr(Archive, "_live_passages", whole_archive)
    monkeypatch.setattr(archive_module, "_segment_grams", whole_archive)
    loaded = []  # the archive rows whose tokens the check reads
    real_document = SegmentTokens.document

    def spying_document(self, row, title):
        loaded.append(row)
        return real_document(self, row, title)

    monkeypatch.setattr(SegmentTokens, "document", spying_document)
    archive = Archive.open(folder)
    checked = check(archive, options(new))
    assert involving_new(pair_rows(checked, 8, 0.01), new) == full
    with_text = {
        archive.number(d.path.removeprefix(ARCHIVE_MARK))
        for d in checked.documents
        if d.path.startswith(ARCHIVE_MARK) and d.paragraphs
    }
    assert sorted(loaded) == sorted(with_text) and len(loaded) < len(archive)
    # nothing is computed once per archive change and kept: the first check is as any
    assert sorted(p.name for p in folder.iterdir()) == files


def test_a_check_on_a_reopened_archive_indexes_nothing_of_the_archive(tmp_path, monkeypatch):
    old, new = write_collections(tmp_path, 12)
    folder = tmp_path / "archive"
    add_folders(folder, options(old))
    first = involving_new(pair_rows(check(Archive.open(folder), options(new)), 8, 0.01), new)
    indexed = []  # every fingerprint any in-memory index is built over
    real_init = HammingIndex.__init__

    def spying_init(self, fingerprints, *args, **kwargs):
        indexed.append(np.asarray(fingerprints, np.uint64))
        real_init(self, fingerprints, *args, **kwargs)

    monkeypatch.setattr(HammingIndex, "__init__", spying_init)
    archive = Archive.open(folder)
    checked = check(archive, options(new))
    assert involving_new(pair_rows(checked, 8, 0.01), new) == first
    compared = {d.path.removeprefix(ARCHIVE_MARK) for d in checked.documents}
    untouched = [archive.number(p) for p in archive.paths() if p not in compared]
    assert untouched  # archive documents the check did not compare ...
    doc, fps = archive._live_passages()
    only_theirs = set(fps[np.isin(doc, untouched)].tolist()) - set(
        fps[~np.isin(doc, untouched)].tolist()
    )
    theirs = set(archive.fingerprints()[untouched].tolist()) | only_theirs
    # ... are in no index built for it: the archive's stored indexes were queried
    assert indexed and not any(theirs & set(fps.tolist()) for fps in indexed)


def test_a_reference_folder_is_template_text_in_a_check_as_in_a_full_scan(tmp_path):
    old, new = write_collections(tmp_path, 8)
    prompt = PARAGRAPHS[150:152]  # the assignment, in every new essay and some old ones
    for i, path in enumerate([*sorted(new.glob("n*.txt")), *sorted(old.glob("o*.txt"))[:4]]):
        text = path.read_text(encoding="utf-8")
        path.write_text(
            "\n\n".join([*prompt, text]) if i % 2 else text + "\n\n" + "\n\n".join(prompt)
        )
    reference = tmp_path / "prompt"
    reference.mkdir()
    (reference / "assignment.txt").write_text("\n\n".join(prompt), encoding="utf-8")
    with_reference = {"reference_roots": (str(reference),)}
    add_folders(tmp_path / "archive", options(old))
    checked = check(Archive.open(tmp_path / "archive"), replace(options(new), **with_reference))
    full = scan(replace(options(old, new), **with_reference))
    k = full.k_max
    expected = involving_new(pair_rows(full, k, 0.01), new)
    assert involving_new(pair_rows(checked, k, 0.01), new) == expected
    assert {kind for kind, *_ in expected.values()} >= {"exact", "partial"}
    [ref] = [i for i, d in enumerate(checked.documents) if d.path.startswith(str(reference))]
    assert checked.is_reference[ref] and checked.passages.is_template.any()
    partial = checked.partial_pairs(0.0)
    assert ref not in set(partial.left.tolist()) | set(partial.right.tolist())
    # the prompt in each new essay is template text, which it is not without the reference
    essays = [i for i, d in enumerate(checked.documents) if Path(d.path).name.startswith("n")]
    assert (checked.passages.excluded_tokens[essays] > 0).all()
    plain = check(Archive.open(tmp_path / "archive"), options(new, reference))
    assert not plain.passages.is_template.any()


# -- an archive that has changed since it was built: removals, replacements, merges ------


def assert_check_equals_full_scan(folder: Path, old_roots: list[Path], new: Path) -> dict:
    """check(archive, new) gives the pairs with a new document that a full scan of the
    archived folders (as they now are on disk) and `new` gives; returns those pairs."""
    checked = check(Archive.open(folder), options(new))
    full = scan(options(*old_roots, new))
    k = full.k_max
    expected = involving_new(pair_rows(full, k, 0.01), new)
    assert involving_new(pair_rows(checked, k, 0.01), new) == expected
    archived = {d.path.removeprefix(ARCHIVE_MARK) for d in checked.documents}
    on_disk = {str(p) for root in old_roots for p in root.rglob("*.txt")}
    assert archived - {str(p) for p in new.rglob("*.txt")} <= on_disk  # nothing removed came back
    return expected


def pair_paths(pairs: dict) -> set[str]:
    return {path for pair in pairs for path in pair}


def test_check_after_removals_equals_a_full_scan_without_them(tmp_path):
    old, new = write_collections(tmp_path, 21)
    folder = tmp_path / "archive"
    add_folders(folder, options(old))
    before = involving_new(pair_rows(check(Archive.open(folder), options(new)), 10, 0.01), new)
    # remove the archived sources of the exact copy and the re-post, and one more
    gone = [old / "o1.txt", old / "o2.txt", old / "o5.txt"]
    assert {str(p) for p in gone[:2]} <= pair_paths(before)
    archive, removed = Archive.open(folder).remove([str(p) for p in gone])
    assert removed == len(gone) and len(archive) == 24 - len(gone)
    for path in gone:
        path.unlink()
    after = assert_check_equals_full_scan(folder, [old], new)
    assert not pair_paths(after) & {str(p) for p in gone}


def test_check_after_replacements_equals_a_full_scan_of_the_changed_files(tmp_path):
    old, new = write_collections(tmp_path, 22)
    folder = tmp_path / "archive"
    add_folders(folder, options(old))
    before = involving_new(pair_rows(check(Archive.open(folder), options(new)), 10, 0.01), new)
    rng = random.Random(22)
    # o1 (the re-post's source) gets other text; o3 becomes a copy of a new essay
    write_essay(old / "o1.txt", rng, footer=False)
    (old / "o3.txt").write_text((new / "n0.txt").read_text(encoding="utf-8") + "\n\nPS.")
    report = add_folders(folder, options(old))
    assert (report.summary.added, report.summary.replaced) == (0, 2)
    assert len(report.archive) == 24
    after = assert_check_equals_full_scan(folder, [old], new)
    assert tuple(sorted([str(old / "o3.txt"), str(new / "n0.txt")])) in after
    repost = tuple(sorted([str(old / "o1.txt"), str(new / "repost.txt")]))
    assert before[repost][0] == "near" and after.get(repost, ("none",))[0] != "near"


def test_check_after_segment_merges_equals_a_full_scan(tmp_path):
    old, new = write_collections(tmp_path, 23)
    parts = []
    for i, path in enumerate(sorted(old.glob("*.txt"))):  # one folder per add
        part = old / f"part{i % (MAX_SEGMENTS + 3):02d}"
        part.mkdir(exist_ok=True)
        path.rename(part / path.name)
        parts.append(part)
    parts = sorted(set(parts))
    assert len(parts) > MAX_SEGMENTS + 1
    folder = tmp_path / "archive"
    counts = []
    for i, part in enumerate(parts):
        archive = add_folders(folder, options(part)).archive
        counts.append(archive.segment_count)
        if i == MAX_SEGMENTS // 2:  # a tombstone and a replacement that the merge must honour
            victim, changed = sorted(parts[0].glob("*.txt"))[:2]
            archive.remove([str(victim)])
            victim.unlink()
            changed.write_text(
                (new / "n1.txt").read_text(encoding="utf-8") + "\n\nAgain.", encoding="utf-8"
            )
            add_folders(folder, options(parts[0]))
    assert max(counts) <= MAX_SEGMENTS
    assert counts[-1] < len(parts), "the adds were never merged"
    assert len(Archive.open(folder)) == 24 - 1
    after = assert_check_equals_full_scan(folder, [old], new)
    assert tuple(sorted([str(changed), str(new / "n1.txt")])) in after
    assert str(victim) not in pair_paths(after)
