"""A shortage of memory or disk is never a verdict on a file or an archive: files are read
again, archives are kept, and a failed write leaves no file behind."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
import textwrap
import zipfile
import zlib
from pathlib import Path

import pytest
from lxml import etree
from simsift.core.document import ExtractionError
from simsift.core.pipeline.archive_folders import archive_directory, scan_with_archive
from simsift.core.pipeline.archiving import add_folders
from simsift.core.progress import Cancelled, CancelToken
from simsift.core.shortage import raise_if_short, ran_out_of_memory, ran_short
from simsift.core.store import archive as archive_module
from simsift.core.store.archive import MANIFEST, Archive, ArchiveDamaged, ArchiveError

from tests.core.test_archive import options, write_texts
from tests.core.test_check import write_collections

ROOT = Path(__file__).resolve().parents[2]


def libxml_no_memory() -> etree.XMLSyntaxError:
    """What lxml raises when libxml2 cannot allocate: a syntax error, code 2, "unknown error"
    (seen reading a DOCX of a million paragraphs under `ulimit -v 400000`)."""
    return etree.XMLSyntaxError("unknown error", 2, 0, 0)


def chained(inner: BaseException, outer: BaseException) -> BaseException:
    try:
        try:
            raise inner
        except BaseException as error:
            raise outer from error
    except BaseException as error:
        return error


def test_the_rule_sees_a_shortage_behind_a_format_error():
    assert ran_out_of_memory(chained(libxml_no_memory(), ExtractionError("not a valid DOCX")))
    assert ran_out_of_memory(chained(MemoryError(), ValueError("bad")))
    assert ran_out_of_memory(zlib.error("Error -4 while decompressing data"))
    assert ran_short(OSError(errno.ENOSPC, "No space left on device"))
    assert not ran_out_of_memory(OSError(errno.ENOSPC, "No space left on device"))
    assert not ran_short(etree.XMLSyntaxError("mismatched tag", 76, 1, 1))
    assert not ran_short(zlib.error("Error -3 while decompressing data: invalid block type"))
    assert not ran_short(chained(KeyError("x"), ExtractionError("not a valid DOCX")))
    with pytest.raises(MemoryError):
        raise_if_short(chained(libxml_no_memory(), ValueError("parse")))
    raise_if_short(ValueError("no shortage: nothing raised"))


def million_paragraph_docx(path: Path) -> None:
    """A real DOCX whose body holds a million paragraphs (2.6 MB zipped, 60 MB of XML)."""
    import docx

    base = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("x")
    document.save(base)
    body = "".join(
        f"<w:p><w:r><w:t>paragraph number {i} words</w:t></w:r></w:p>" for i in range(10**6)
    )
    with zipfile.ZipFile(base) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "word/document.xml":
                data = data.replace(b"<w:body>", b"<w:body>" + body.encode(), 1)
            zout.writestr(item, data)


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS limits the address space")
def test_a_docx_read_short_of_memory_is_read_again_not_called_corrupt(tmp_path):
    path = tmp_path / "million.docx"
    million_paragraph_docx(path)
    child = textwrap.dedent(
        f"""
        import os, resource
        from simsift.core.read.reader import ReadTask, read_file
        resource.setrlimit(resource.RLIMIT_AS, (400 << 20, 400 << 20))
        st = os.stat({str(path)!r})
        r = read_file(ReadTask({str(path)!r}, st.st_size, st.st_mtime_ns, 200 << 20, False))
        print(r.status, r.retry, r.message, sep="|")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    status, retry, message = done.stdout.strip().split("|")
    if status == "ok":
        pytest.skip("this machine's libxml2 read the whole file within 400 MB")
    assert (status, retry) == ("error", "True")
    assert message.startswith("out of memory while reading this file")


def archived(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """An archive folder of the app's archive kept beside its catalog, and its files."""
    old, _ = write_collections(tmp_path, 21)
    base = tmp_path / "cache"
    scan_with_archive(options(old), [str(old)], base)
    directory = archive_directory(base, [str(old)], options(old))
    return old, base, sorted(os.listdir(directory))


def test_running_short_of_memory_loading_the_archive_keeps_it(tmp_path, monkeypatch):
    old, base, files = archived(tmp_path)
    directory = archive_directory(base, [str(old)], options(old))
    documents = len(Archive.open(directory))

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(archive_module.np, "load", no_memory)
    with pytest.raises(MemoryError):
        scan_with_archive(options(old), [str(old)], base)
    monkeypatch.undo()
    assert sorted(os.listdir(directory)) == files
    assert len(Archive.open(directory)) == documents


def test_another_simsift_writing_the_archive_is_an_error_not_a_rebuild(tmp_path):
    old, base, files = archived(tmp_path)
    directory = archive_directory(base, [str(old)], options(old))
    write_texts(old, {"late.txt": "a document added while another SimSift writes " * 9})
    with Archive.open(directory)._writing(), pytest.raises(ArchiveError, match="another"):
        scan_with_archive(options(old), [str(old)], base)
    assert set(files) <= set(os.listdir(directory))


def damage_a_segment(directory: Path) -> None:
    segment = next(directory.glob("*.npz"))
    data = bytearray(segment.read_bytes())
    data[len(data) // 2] ^= 0xFF
    segment.write_bytes(bytes(data))


def test_a_damaged_archive_is_rebuilt_and_a_failed_rebuild_keeps_the_old_one(tmp_path):
    old, base, files = archived(tmp_path)
    directory = archive_directory(base, [str(old)], options(old))
    damage_a_segment(directory)
    damaged = {name: (directory / name).stat().st_mtime_ns for name in files}
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Cancelled):
        scan_with_archive(options(old), [str(old)], base, cancel=cancel)
    assert {name: (directory / name).stat().st_mtime_ns for name in files} == damaged

    scan_with_archive(options(old), [str(old)], base)
    assert len(Archive.open(directory)) == len(list(old.iterdir()))
    assert sorted(p.name for p in directory.parent.iterdir()) == [directory.name]


def test_a_full_disk_during_an_add_leaves_no_partial_segment(tmp_path, monkeypatch):
    old, new = write_collections(tmp_path, 22)
    directory = tmp_path / "archive"
    add_folders(directory, options(old))
    before = sorted(os.listdir(directory))

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(archive_module, "_write_indexes", disk_full)
    with pytest.raises(ArchiveError, match="No space left"):
        add_folders(directory, options(new))
    assert sorted(os.listdir(directory)) == before
    monkeypatch.undo()
    add_folders(directory, options(new))
    assert len(Archive.open(directory)) == len(list(old.iterdir())) + len(list(new.iterdir()))


@pytest.mark.parametrize("damage", ["checksum", "missing"])
def test_only_proven_damage_is_damage(tmp_path, damage):
    old, _ = write_collections(tmp_path, 23)
    directory = tmp_path / "archive"
    add_folders(directory, options(old))
    if damage == "checksum":
        damage_a_segment(directory)
    else:
        next(directory.glob("*.npz")).unlink()
    with pytest.raises(ArchiveDamaged):
        Archive.open(directory)
    assert (directory / MANIFEST).exists()  # the archive was only read


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS limits the address space")
def test_a_file_over_the_readers_own_memory_budget_is_remembered_not_read_each_scan(tmp_path):
    from simsift.core.pipeline.options import ScanOptions
    from simsift.core.pipeline.scan import scan
    from simsift.core.store.catalog import Catalog

    folder = tmp_path / "essays"
    folder.mkdir()
    million_paragraph_docx(folder / "million.docx")
    write_texts(folder, {"essay.txt": "an essay of its own words, read every time " * 9})
    options = ScanOptions(roots=(str(folder),), workers=1, memory_limit=400 << 20)
    with Catalog(tmp_path / "catalog.sqlite3") as catalog:
        first = scan(options, catalog=catalog)
        if not first.errors:
            pytest.skip("this machine's libxml2 read the whole file within 400 MB")
        (error,) = first.errors
        assert error.message.startswith("needs more memory than a reader has (0.4 GB)")
        again = scan(options, catalog=catalog)
    assert again.reused == 2  # neither file read again
    assert [e.message for e in again.errors] == [error.message]
