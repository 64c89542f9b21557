"""DOCX and ODT reading: the reader of the last commit against the current one, on the
same files, in one process (so the ratio holds on a shared machine), with the floor of
reading the bytes and unzipping every member.

    python -m bench.docx_reader_bench make DIR [--count 300]   # corpus from man pages
    python -m bench.docx_reader_bench small DIR OUT          # the same, only the styles used
    python -m bench.docx_reader_bench run DIR [DIR ...] [--repeat 3]

`make` writes DOCX files with python-docx from the rendered man pages under
/tmp/man_txt (titles, headings, tables with nested tables, footnotes, content controls,
fields, hyperlinks, tabs and breaks, hidden runs of every kind) and a few ODT files.
python-docx's template carries 350 KB of styles (a hundred table styles); `small` copies
the DOCX files of DIR with only the styles they use (some 4 KB, no latent styles).
`run` reads every .docx and .odt under the folders with both readers, checks that their
results are equal, and prints files/s and the ratio.
"""

from __future__ import annotations

import argparse
import random
import re
import time
import zipfile
from pathlib import Path

from bench.engine_at import modules_at

ROOT = Path(__file__).resolve().parents[1]
MAN_TEXT = Path("/tmp/man_txt")
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_FOOTNOTES_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
_FOOTNOTES_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes"


# ---------------------------------------------------------------- corpus


def man_blocks(path: Path) -> tuple[str, list[tuple[str, str]]]:
    """(name, [(kind, text)]) of a rendered man page: 'h' for section names, 'o' for
    option lines, 'p' for paragraphs (wrapped lines joined)."""
    text = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "", path.read_text(errors="replace"))
    lines = text.splitlines()
    blocks: list[tuple[str, str]] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            blocks.append(("p", " ".join(s.strip() for s in current)))
            current.clear()

    for line in lines[1:-1]:
        if not line.strip():
            flush()
        elif re.fullmatch(r"[A-Z][A-Z /-]+", line):
            flush()
            blocks.append(("h", line.strip().title()))
        elif re.match(r"\s{7}-", line) and len(line) < 60:
            flush()
            blocks.append(("o", line.strip()))
        else:
            current.append(line)
    flush()
    return path.name.split(".")[0], blocks


def _raw(xml: str):
    from docx.oxml import parse_xml

    return parse_xml(xml.replace("W:", f'xmlns:w="{_W}" ', 1))


def write_docx(path: Path, name: str, blocks: list[tuple[str, str]], rng: random.Random) -> None:
    import docx
    from docx.enum.style import WD_STYLE_TYPE
    from docx.shared import Pt, RGBColor

    document = docx.Document()
    hiding = document.styles.add_style("Quiet", WD_STYLE_TYPE.CHARACTER)
    hiding.font.hidden = True
    pale = document.styles.add_style("Pale", WD_STYLE_TYPE.PARAGRAPH)
    pale.base_style = document.styles["Normal"]
    pale.font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
    quote = document.styles["Quote"]
    title_mode = rng.choice(["Title", "Heading 1", "core", "core-same", "none"])
    if title_mode in ("Title", "Heading 1"):
        document.add_paragraph(name, style=title_mode)
    elif title_mode == "core":
        document.core_properties.title = f"{name} manual"
    elif title_mode == "core-same":
        document.core_properties.title = name
        document.add_paragraph(name)
    else:
        document.core_properties.title = ""
    table = None
    notes: list[str] = []
    for kind, text in blocks[: rng.randint(20, 160)]:
        if kind == "h":
            document.add_heading(text, level=rng.choice([1, 2, 2, 3]))
            table = None
        elif kind == "o":
            if table is None:
                table = document.add_table(rows=0, cols=2)
                if rng.random() < 0.5:
                    table.style = document.styles[rng.choice(["Table Grid", "Light Shading"])]
            cells = table.add_row().cells
            cells[0].text = text
            cells[1].paragraphs[0].add_run("option").font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
            if rng.random() < 0.05:
                inner = cells[1].add_table(rows=1, cols=2)
                inner.cell(0, 0).text, inner.cell(0, 1).text = "nested", text
        else:
            table = None
            roll = rng.random()
            paragraph = document.add_paragraph(style=quote if roll < 0.03 else None)
            words = text.split(" ")
            cut = rng.randint(0, len(words))
            paragraph.add_run(" ".join(words[:cut]))
            if roll < 0.05:
                paragraph.add_run(" hidden words ").font.hidden = True
            elif roll < 0.08:
                paragraph.add_run(" white words ").font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
            elif roll < 0.10:
                paragraph.add_run(" tiny words ").font.size = Pt(1)
            elif roll < 0.12:
                paragraph.add_run(" styled away ", style="Quiet")
            elif roll < 0.14:
                run = paragraph.add_run("tab")
                run.add_tab()
                run.add_break()
                run.add_text("after break")
            elif roll < 0.16:
                paragraph.style = pale
            elif roll < 0.18:
                notes.append(" ".join(words[: max(3, cut // 2)]))
                paragraph._p.append(
                    _raw(
                        f'<w:r W:><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr>'
                        f'<w:footnoteReference w:id="{len(notes)}"/></w:r>'
                    )
                )
            elif roll < 0.20:
                paragraph._p.append(
                    _raw('<w:fldSimple W: w:instr="PAGE"><w:r><w:t>7</w:t></w:r></w:fldSimple>')
                )
            elif roll < 0.22:
                paragraph._p.append(
                    _raw(
                        f'<w:hyperlink W: xmlns:r="{_R}" r:id="rId1"><w:r>'
                        "<w:t>a link</w:t></w:r></w:hyperlink>"
                    )
                )
            elif roll < 0.23:
                document.element.body.append(
                    _raw(
                        "<w:sdt W:><w:sdtContent><w:p><w:r><w:t>In a content control</w:t>"
                        "</w:r></w:p></w:sdtContent></w:sdt>"
                    )
                )
            paragraph.add_run(" ".join(words[cut:]))
    document.save(str(path))
    if notes:
        _add_footnotes(path, notes)


def _add_footnotes(path: Path, notes: list[str]) -> None:
    """Add a footnotes part (python-docx writes none) with Word's two separator notes."""
    body = "".join(
        f'<w:footnote w:id="{i}"><w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r>'
        + ("<w:r><w:rPr><w:vanish/></w:rPr><w:t>secret note</w:t></w:r>" if i % 3 == 0 else "")
        + "</w:p></w:footnote>"
        for i, text in enumerate((n.replace("&", "&amp;").replace("<", "&lt;") for n in notes), 1)
    )
    xml = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes xmlns:w="{_W}">'
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
        '</w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r>'
        f"<w:continuationSeparator/></w:r></w:p></w:footnote>{body}</w:footnotes>"
    )
    with zipfile.ZipFile(path) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    members["word/footnotes.xml"] = xml.encode()
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
        b"</Types>",
        f'<Override PartName="/word/footnotes.xml" ContentType="{_FOOTNOTES_TYPE}"/>'
        "</Types>".encode(),
    )
    members["word/_rels/document.xml.rels"] = members["word/_rels/document.xml.rels"].replace(
        b"</Relationships>",
        f'<Relationship Id="rIdNotes" Type="{_FOOTNOTES_REL}" Target="footnotes.xml"/>'
        "</Relationships>".encode(),
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def _without_member(path: Path, member: str) -> None:
    """Drop a part (as some writers do: no docProps/core.xml, no styles.xml)."""
    with zipfile.ZipFile(path) as archive:
        members = {i.filename: archive.read(i) for i in archive.infolist() if i.filename != member}
    target = member.split("/")[-1].encode()
    for name in ("_rels/.rels", "word/_rels/document.xml.rels"):
        members[name] = re.sub(
            rb"<Relationship [^>]*Target=\"[^\"]*" + target + rb"\"/>", b"", members[name]
        )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


_ODT_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"'
)


def write_odt(path: Path, name: str, blocks: list[tuple[str, str]], rng: random.Random) -> None:
    """An OpenDocument text as LibreOffice lays it out: automatic styles in content.xml,
    common ones in styles.xml, headings, lists, tables, notes, hidden spans."""

    def esc(text: str) -> str:
        return text.replace("&", "&amp;").replace("<", "&lt;")

    body = [f'<text:h text:outline-level="1">{esc(name)}</text:h>']
    rows: list[str] = []
    for kind, text in blocks[: rng.randint(20, 160)]:
        if kind != "o" and rows:
            body.append(f"<table:table>{''.join(rows)}</table:table>")
            rows = []
        if kind == "h":
            body.append(f'<text:h text:outline-level="2">{esc(text)}</text:h>')
        elif kind == "o":
            rows.append(
                f"<table:table-row><table:table-cell><text:p>{esc(text)}</text:p>"
                "</table:table-cell><table:table-cell><text:p>option</text:p>"
                "</table:table-cell></table:table-row>"
            )
        else:
            words = text.split(" ")
            cut = rng.randint(0, len(words))
            roll = rng.random()
            extra = ""
            if roll < 0.05:
                extra = '<text:span text:style-name="T1"> hidden words </text:span>'
            elif roll < 0.08:
                extra = '<text:span text:style-name="White"> white words </text:span>'
            elif roll < 0.10:
                extra = '<text:s text:c="3"/><text:tab/>x<text:line-break/>'
            elif roll < 0.12:
                extra = (
                    '<text:note text:note-class="footnote"><text:note-citation>1'
                    f"</text:note-citation><text:note-body><text:p>{esc(' '.join(words[:5]))}"
                    "</text:p></text:note-body></text:note>"
                )
            paragraph = (
                f"<text:p>{esc(' '.join(words[:cut]))}{extra}{esc(' '.join(words[cut:]))}</text:p>"
            )
            if roll > 0.95:
                paragraph = f"<text:list><text:list-item>{paragraph}</text:list-item></text:list>"
            body.append(paragraph)
    if rows:
        body.append(f"<table:table>{''.join(rows)}</table:table>")
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODT_NS}>'
        '<office:automatic-styles><style:style style:name="T1" style:family="text">'
        '<style:text-properties text:display="none"/></style:style></office:automatic-styles>'
        f"<office:body><office:text>{''.join(body)}</office:text></office:body>"
        "</office:document-content>"
    )
    styles = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-styles {_ODT_NS}>'
        '<office:styles><style:default-style style:family="paragraph"><style:text-properties '
        'fo:font-size="12pt"/></style:default-style><style:style style:name="White" '
        'style:family="text"><style:text-properties fo:color="#ffffff"/></style:style>'
        "</office:styles></office:document-styles>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("styles.xml", styles, compress_type=zipfile.ZIP_DEFLATED)


def make(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    pages = sorted((MAN_TEXT / "man1").glob("*.txt")) + sorted(
        (MAN_TEXT / "zh_CN" / "man1").glob("*.txt")
    )
    rng = random.Random(29)
    chosen = rng.sample(pages, count)
    made = 0
    for i, page in enumerate(chosen):
        name, blocks = man_blocks(page)
        if len([b for b in blocks if b[0] == "p"]) < 3:
            continue
        path = folder / f"{i:04d}_{name}.docx"
        write_docx(path, name, blocks, rng)
        made += 1
    for i, member in enumerate(("docProps/core.xml", "word/styles.xml")):
        page = chosen[i]
        name, blocks = man_blocks(page)
        path = folder / f"without_{member.split('/')[-1]}.docx"
        write_docx(path, name, blocks, rng)
        _without_member(path, member)
        made += 1
    odt = folder / "odt"
    odt.mkdir(exist_ok=True)
    for i, page in enumerate(chosen[:60]):
        name, blocks = man_blocks(page)
        write_odt(odt / f"{i:04d}_{name}.odt", name, blocks, rng)
    print(f"{made} DOCX and {len(list(odt.glob('*.odt')))} ODT files in {folder}")


def small(folder: Path, out: Path) -> None:
    """Copies of the DOCX files of `folder` whose styles.xml keeps the defaults and only
    the styles the document names (with those they are based on)."""
    from lxml import etree

    w = f"{{{_W}}}"
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(folder.glob("*.docx")):
        with zipfile.ZipFile(path) as archive:
            members = {i.filename: archive.read(i) for i in archive.infolist()}
        if "word/styles.xml" not in members:
            continue
        used = set(
            re.findall(
                rb'w:(?:pStyle|rStyle|tblStyle) w:val="([^"]*)"', members["word/document.xml"]
            )
        )
        styles = etree.fromstring(members["word/styles.xml"])
        by_id = {s.get(f"{w}styleId"): s for s in styles.iterchildren(f"{w}style")}
        keep: set[str] = set()
        todo = [u.decode() for u in used]
        todo += [i for i, s in by_id.items() if s.get(f"{w}default") == "1"]
        while todo:
            style_id = todo.pop()
            if style_id in keep or style_id not in by_id:
                continue
            keep.add(style_id)
            based = by_id[style_id].find(f"{w}basedOn")
            if based is not None:
                todo.append(based.get(f"{w}val"))
        for child in list(styles):
            if child.tag == f"{w}latentStyles" or (
                child.tag == f"{w}style" and child.get(f"{w}styleId") not in keep
            ):
                styles.remove(child)
        members["word/styles.xml"] = etree.tostring(
            styles, xml_declaration=True, encoding="UTF-8", standalone=True
        )
        with zipfile.ZipFile(out / path.name, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in members.items():
                archive.writestr(name, data)


# ---------------------------------------------------------------- timing


def result_of(reader, path: Path):
    from simsift.core.document import MAX_FILE_BYTES, ExtractionError

    try:
        return reader(path, max_bytes=MAX_FILE_BYTES)
    except ExtractionError as error:
        return f"error: {error}"
    except Exception as error:  # a crash of either reader is a result to compare
        return f"crash: {type(error).__name__}: {error}"


def unzip_all(path: Path, max_bytes: int = 0) -> int:
    """The floor: read the file and inflate every member."""
    with zipfile.ZipFile(path) as archive:
        return sum(len(archive.read(info)) for info in archive.infolist())


def timed(reader, paths: list[Path], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for path in paths:
            result_of(reader, path)
        best = min(best, time.perf_counter() - start)
    return best


def run(folders: list[Path], repeat: int) -> None:
    from simsift.core.read.extract import docx as new_docx
    from simsift.core.read.extract import odt as new_odt

    old = modules_at("HEAD", "core/read/extract", ("package", "docx", "odt"), "simsift_old")
    old_docx, old_odt = old["docx"], old["odt"]

    def unshared(path: Path, max_bytes: int):
        """The DOCX reader with no style sheet kept from the file before."""
        new_docx.style_sheet.cache_clear()
        return new_docx.extract_docx(path, max_bytes=max_bytes)

    for label, suffix, old, new, variants in (
        (
            "docx",
            ".docx",
            old_docx.extract_docx,
            new_docx.extract_docx,
            {"now, styles parsed every file": unshared},
        ),
        ("odt", ".odt", old_odt.extract_odt, new_odt.extract_odt, {}),
    ):
        paths = sorted(p for f in folders for p in f.rglob(f"*{suffix}"))
        if not paths:
            continue
        size = sum(p.stat().st_size for p in paths) / 2**20
        differ = [p.name for p in paths if result_of(old, p) != result_of(new, p)]
        print(f"\n{label}: {len(paths)} files, {size:.1f} MB; results differ on {len(differ)}")
        for name in differ[:10]:
            print("  differs:", name)
        seconds = {}
        # interleaved rounds: noise from other jobs falls on both readers alike
        for _ in range(repeat):
            for name, reader in (
                ("before", old),
                ("now", new),
                *variants.items(),
                ("unzip", unzip_all),
            ):
                seconds[name] = min(seconds.get(name, float("inf")), timed(reader, paths, 1))
        print("| reader | seconds | files/s |")
        print("|---|---|---|")
        for name in seconds:
            print(f"| {name} | {seconds[name]:.2f} | {len(paths) / seconds[name]:.1f} |")
        for name in ("now", *variants):
            print(f"{name} / before: {seconds['before'] / seconds[name]:.2f}x; ", end="")
        print(f"now / unzip floor: {seconds['now'] / seconds['unzip']:.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("make")
    making.add_argument("folder", type=Path)
    making.add_argument("--count", type=int, default=300)
    smaller = commands.add_parser("small")
    smaller.add_argument("folder", type=Path)
    smaller.add_argument("out", type=Path)
    running = commands.add_parser("run")
    running.add_argument("folders", type=Path, nargs="+")
    running.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if args.command == "make":
        make(args.folder, args.count)
    elif args.command == "small":
        small(args.folder, args.out)
    else:
        run(args.folders, args.repeat)


if __name__ == "__main__":
    main()
