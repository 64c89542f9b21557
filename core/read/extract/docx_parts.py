"""The parts of a .docx package the DOCX reader needs, found as Word finds them: through the
package's relationships and content types, read from one opening of the zip.

Only the main document, its styles and footnotes and the core properties are inflated
and parsed; the other parts (theme, settings, numbering, headers) are never read, so a
damaged or missing one of them does not stop the reading. Pictures are read only by OCR
(`core.read.extract.pictures`), and a damaged one is passed over.
"""

from __future__ import annotations

import os
import posixpath
import struct
import zipfile
from collections import OrderedDict
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from lxml import etree
from simsift.core.document import ExtractionError
from simsift.core.paths import resource_path
from simsift.core.read.extract.package import open_package

NOT_DOCX = "not a valid DOCX (corrupt or renamed file)"

_RELS_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_TYPES_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
OFFICE_DOCUMENT = _OFFICE + "officeDocument"
STYLES = _OFFICE + "styles"
IMAGE = _OFFICE + "image"
CORE_PROPERTIES = (
    "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
)
# a Word document's main part, and the same WordprocessingML in .docm, .dotx and .dotm
_DOCUMENT_MAINS = frozenset(
    (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        "application/vnd.ms-word.document.macroEnabled.main+xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
        "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
    )
)
_DC_TITLE = "{http://purl.org/dc/elements/1.1/}title"

# As python-docx parses parts (blank text between elements dropped, no entities), so that
# the text read is the same whichever way a file was opened.
PART_PARSER = etree.XMLParser(remove_blank_text=True, resolve_entities=False)


@dataclass(frozen=True, slots=True)
class Relationship:
    """One relationship of a part: its type, the part it targets (a zip member name)
    unless it points outside the package, and its Id."""

    type: str
    target: str
    external: bool
    id: str = ""


@dataclass(frozen=True, slots=True)
class WordParts:
    """A .docx's main document (w:document), its styles (w:styles; python-docx's default
    style sheet when the file has none), its footnotes parts in relationship order, its
    core-properties title (parsed only when asked for), and the pictures of the main
    document (zip member by relationship Id; linked pictures outside the package left out)."""

    document: etree._Element
    styles: bytes
    footnotes: tuple[bytes, ...]
    title: Callable[[], str]
    images: dict[str, str] = field(default_factory=dict)


def read_parts(path: Path, max_bytes: int) -> WordParts:
    """The parts of the .docx at `path`; ExtractionError when it is not a readable Word
    document (not a zip, a bomb, no main document part, a part that does not parse)."""
    try:
        with open_package(path, max_bytes) as archive:
            return _read(archive)
    except (KeyError, ValueError, zipfile.BadZipFile, etree.XMLSyntaxError) as error:
        raise ExtractionError(NOT_DOCX) from error


def _read(archive: zipfile.ZipFile) -> WordParts:
    package = relationships(archive, "/")
    main = _only(package, OFFICE_DOCUMENT)
    if content_type(archive, main) not in _DOCUMENT_MAINS:  # a spreadsheet renamed .docx
        raise ValueError(f"main part {main} is not a Word document")
    document = etree.fromstring(archive.read(main), PART_PARSER)
    rels = relationships(archive, "/" + main)
    has_styles = any(r.type == STYLES for r in rels)
    styles = styles_xml(archive, _only(rels, STYLES)) if has_styles else default_styles()
    footnotes = tuple(
        archive.read(r.target) for r in rels if r.type.endswith("/footnotes") and not r.external
    )
    has_core = any(r.type == CORE_PROPERTIES for r in package)
    # read now: the title is asked for after the zip is closed
    core = archive.read(_only(package, CORE_PROPERTIES)) if has_core else None

    def title() -> str:
        if core is None:
            return ""
        element = etree.fromstring(core, PART_PARSER).find(_DC_TITLE)
        return (element.text or "") if element is not None else ""

    images = {r.id: r.target for r in rels if r.type == IMAGE and not r.external}
    return WordParts(document, styles, footnotes, title, images)


def relationships(archive: zipfile.ZipFile, partname: str) -> list[Relationship]:
    """Relationships of the part named `partname` ("/" for the package), one per Id (a
    repeated Id replaces the earlier one in place, as python-docx keeps them)."""
    base, name = posixpath.split(partname)
    try:
        xml = archive.read(posixpath.join(base, "_rels", f"{name}.rels")[1:])
    except KeyError:
        return []
    return list(_parsed_relationships(xml, base))


@lru_cache(maxsize=64)
def _parsed_relationships(xml: bytes, base: str) -> tuple[Relationship, ...]:
    """The relationships a .rels part lists, kept by its bytes: documents made from one
    template repeat the same package and main-document .rels."""
    found: dict[str | None, Relationship] = {}
    for rel in etree.fromstring(xml, PART_PARSER).iterchildren(f"{_RELS_NS}Relationship"):
        target = rel.get("Target", "")
        external = rel.get("TargetMode", "Internal") == "External"
        if not external:
            target = posixpath.abspath(posixpath.join(base or "/", target))[1:]
        ident = rel.get("Id")
        found[ident] = Relationship(rel.get("Type", ""), target, external, ident or "")
    return tuple(found.values())


def _only(rels: list[Relationship], kind: str) -> str:
    """The member the one relationship of type `kind` targets (KeyError when there is
    none, ValueError when several or outside the package)."""
    matching = [r for r in rels if r.type == kind]
    if not matching:
        raise KeyError(f"no relationship of type {kind}")
    if len(matching) > 1 or matching[0].external:
        raise ValueError(f"no single package part of type {kind}")
    return matching[0].target


def content_type(archive: zipfile.ZipFile, member: str) -> str:
    """Content type of a member from [Content_Types].xml (names and extensions compared
    without case); KeyError when it has none."""
    overrides, defaults = _content_types(archive.read("[Content_Types].xml"))
    partname = "/" + member.lower()
    if partname in overrides:
        return overrides[partname]
    extension = posixpath.splitext(partname)[1].lstrip(".")
    if extension in defaults:
        return defaults[extension]
    raise KeyError(f"no content type for {member}")


@lru_cache(maxsize=16)
def _content_types(xml: bytes) -> tuple[dict[str, str | None], dict[str, str | None]]:
    """The overrides (by lower-case part name) and defaults (by lower-case extension) of
    a [Content_Types].xml, kept by its bytes as `_parsed_relationships` is. Callers only
    read them."""
    types = etree.fromstring(xml, PART_PARSER)
    overrides = {
        o.get("PartName", "").lower(): o.get("ContentType")
        for o in types.iterchildren(f"{_TYPES_NS}Override")
    }
    defaults = {
        d.get("Extension", "").lower(): d.get("ContentType")
        for d in types.iterchildren(f"{_TYPES_NS}Default")
    }
    return overrides, defaults


def styles_xml(archive: zipfile.ZipFile, member: str) -> bytes:
    """The bytes of the styles part `member`. One stored exactly as a styles part read
    before (the same compressed bytes, method, CRC-32 and size: so it inflates to the same
    bytes, or fails the same way) is not inflated again: the bytes inflated then come
    back, the same object, which `docx.style_sheet`'s cache then finds at once. Python-docx's
    template brings 350 KB of styles to every document made with it."""
    info = archive.getinfo(member)
    with archive.open(info):  # the zip's own checks of the member's header
        pass
    stored = _stored_bytes(archive, info)
    key = (info.compress_type, info.CRC, info.file_size, stored)
    kept = _INFLATED_STYLES.get(key) if stored is not None else None
    if kept is not None:
        with suppress(KeyError):  # another thread's reader may have let it go meanwhile
            _INFLATED_STYLES.move_to_end(key)
        return kept
    xml = archive.read(info)
    if stored is not None:
        _INFLATED_STYLES[key] = xml
        while len(_INFLATED_STYLES) > _KEPT_STYLES:
            with suppress(KeyError):
                _INFLATED_STYLES.popitem(last=False)
    return xml


# styles parts inflated lately, by what the zip stores (`styles_xml`); as many as
# `docx.style_sheet` keeps sheets of
_KEPT_STYLES = 4
_INFLATED_STYLES: OrderedDict[tuple, bytes] = OrderedDict()


def _stored_bytes(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | None:
    """The member's bytes as stored (compressed), read from the zip's file just after the
    member's local header; None when they cannot be read so (the zip was not opened from a
    file name, the file is gone, the header is not where the central directory puts it):
    the part is then inflated as any other."""
    if not isinstance(archive.filename, str):
        return None
    try:
        with open(archive.filename, "rb") as file:
            file.seek(info.header_offset)
            header = file.read(_LOCAL_HEADER_SIZE)
            if len(header) < _LOCAL_HEADER_SIZE or not header.startswith(_LOCAL_SIGNATURE):
                return None
            name_length, extra_length = struct.unpack_from("<HH", header, _LOCAL_LENGTHS_AT)
            file.seek(name_length + extra_length, os.SEEK_CUR)
            return file.read(info.compress_size)
    except OSError:
        return None


# The zip format's local file header (APPNOTE.TXT 4.3.7): 30 bytes, then the name and the
# extra field, whose lengths are at bytes 26 and 28
_LOCAL_SIGNATURE = b"PK\x03\x04"
_LOCAL_HEADER_SIZE = 30
_LOCAL_LENGTHS_AT = 26


@cache
def default_styles() -> bytes:
    """The style sheet python-docx gives a document without one (Word's built-in names:
    Normal, Default Paragraph Font...), so that such a file reads as it did through
    python-docx; a copy ships in resources/docx/, so reading needs no python-docx."""
    return resource_path("docx", "default-styles.xml").read_bytes()
