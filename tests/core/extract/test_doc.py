"""Word 97-2003 .doc files: read through a converter when the machine has one, else an
error that tells the user what to do."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from simsift.core.document import ExtractionError, UnsupportedFormat
from simsift.core.read.extract import extract
from simsift.core.read.extract.doc import NO_CONVERTER

DATA = Path(__file__).resolve().parents[2] / "data" / "extract"


@pytest.mark.parametrize("converter", ["antiword", "catdoc", "soffice"])
def test_doc_is_read_like_the_docx_it_was_saved_from(converter, monkeypatch) -> None:
    program = shutil.which(converter)
    if program is None:
        pytest.skip(f"{converter} not installed (packaging/system-deps.sh installs antiword)")
    monkeypatch.setattr(shutil, "which", lambda name: program if name == converter else None)
    doc, docx = extract(DATA / "old_binary.doc"), extract(DATA / "article_en.docx")
    assert doc.format == "doc"
    assert doc.title == docx.title == "email Package Architecture"
    assert doc.paragraphs == docx.paragraphs


def test_without_a_converter_a_doc_is_an_error_saying_save_as_docx(monkeypatch) -> None:
    monkeypatch.setenv("PATH", "")
    with pytest.raises(ExtractionError) as caught:
        extract(DATA / "old_binary.doc")
    assert str(caught.value) == NO_CONVERTER and "save it as .docx" in NO_CONVERTER
    assert not isinstance(caught.value, UnsupportedFormat)  # listed under Errors


def test_a_converter_that_fails_is_reported_with_its_reason(tmp_path, monkeypatch) -> None:
    fake = tmp_path / "bin" / "antiword"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'I can not open this file' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(fake.parent))
    with pytest.raises(
        ExtractionError, match=r"antiword could not read this \.doc file: I can not"
    ):
        extract(DATA / "old_binary.doc")


def test_a_converter_that_hangs_is_stopped(tmp_path, monkeypatch) -> None:
    import simsift.core.read.extract.doc as doc_module

    fake = tmp_path / "bin" / "catdoc"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\n{shutil.which('sleep')} 30\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(fake.parent))
    monkeypatch.setattr(doc_module, "CONVERTER_SECONDS", 0.5)
    with pytest.raises(ExtractionError, match="catdoc took too long"):
        extract(DATA / "old_binary.doc")


def test_other_old_office_files_are_skipped_not_errors(tmp_path) -> None:
    sheet = tmp_path / "marks.xls"
    shutil.copy(DATA / "old_binary.doc", sheet)
    with pytest.raises(UnsupportedFormat, match="not a Word document"):
        extract(sheet)
