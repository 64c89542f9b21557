"""Writing one text as a file: TXT, plain HTML, HTML inside site chrome, DOCX, PDF.

PDFs are made by LibreOffice from the DOCX files in one batch (`soffice --convert-to pdf`).
Site chrome (navigation, related links, counters, timestamps, footer) uses short real UI
strings from the message catalogs; each site has its own markup and class names, so main
content extraction cannot rely on class names.
"""

from __future__ import annotations

import html
import random
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

FIXED_DATE = "2024-01-01T00:00:00"


@dataclass(frozen=True)
class Text:
    """What a file shows: a title and paragraphs."""

    title: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class Site:
    """A web site's fixed chrome: navigation items, footer lines, and its markup names."""

    name: str
    nav: tuple[str, ...]
    footer: tuple[str, ...]
    css: tuple[str, ...]  # class names for header, content, meta, sidebar, footer


def write_txt(path: Path, text: Text) -> None:
    """Title line, blank line, paragraphs separated by blank lines (UTF-8)."""
    path.write_text(text.title + "\n\n" + "\n\n".join(text.paragraphs) + "\n", encoding="utf-8")


def _paragraph_html(text: Text) -> str:
    return "\n".join(f"<p>{html.escape(p)}</p>" for p in text.paragraphs)


def write_html(path: Path, text: Text) -> None:
    """A plain HTML page: title, heading and paragraphs."""
    title = html.escape(text.title)
    path.write_text(
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title></head>\n'
        f"<body><h1>{title}</h1>\n{_paragraph_html(text)}\n</body></html>\n",
        encoding="utf-8",
    )


def make_site(rng: random.Random, labels: list[str], number: int) -> Site:
    """A site with its own navigation, footer and class names."""
    css = tuple(f"{rng.choice(['x', 'blk', 'w', 'c', 'u'])}{number}{i}" for i in range(5))
    return Site(
        name=" ".join(rng.sample(labels, 2)),
        nav=tuple(rng.sample(labels, 8)),
        footer=tuple(rng.sample(labels, 3)),
        css=css,
    )


def _chrome_counters(rng: random.Random, lang: str) -> str:
    """A timestamp, view and comment counters for one page view."""
    stamp = (
        f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} "
        f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
    )
    views, comments = rng.randint(10, 99999), rng.randint(0, 500)
    if lang == "zh":
        return f"发布时间：{stamp} 阅读：{views} 评论：{comments}"
    return f"Posted {stamp} · {views:,} views · {comments} comments"


def write_chrome_html(
    path: Path, text: Text, site: Site, related: list[str], rng: random.Random, lang: str
) -> None:
    """The text re-posted on `site`: navigation, meta line, sidebar links and footer."""
    head, content, meta, side, foot = site.css
    nav = "".join(f'<li><a href="/{i}">{html.escape(n)}</a></li>' for i, n in enumerate(site.nav))
    links = "".join(
        f'<div><a href="/r{i}">{html.escape(r)}</a> ({rng.randint(1, 999)})</div>'
        for i, r in enumerate(related)
    )
    footer = " | ".join(html.escape(f) for f in site.footer)
    title = html.escape(text.title)
    path.write_text(
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{title} - {html.escape(site.name)}</title></head>\n<body>\n"
        f'<div class="{head}"><b>{html.escape(site.name)}</b><ul>{nav}</ul></div>\n'
        f'<div class="{content}"><h1>{title}</h1>\n'
        f'<div class="{meta}">{_chrome_counters(rng, lang)}</div>\n{_paragraph_html(text)}\n'
        f'<div class="{meta}">{_chrome_counters(rng, lang)}</div></div>\n'
        f'<div class="{side}">{links}</div>\n'
        f'<div class="{foot}">{footer} © {rng.randint(2005, 2024)}</div>\n</body></html>\n',
        encoding="utf-8",
    )


def write_docx(path: Path, text: Text) -> None:
    """A Word document: a heading and one paragraph per paragraph (fixed core dates)."""
    import datetime

    from docx import Document

    doc = Document()
    doc.add_heading(text.title, level=1)
    for p in text.paragraphs:
        doc.add_paragraph(p)
    when = datetime.datetime.fromisoformat(FIXED_DATE)
    doc.core_properties.created = when
    doc.core_properties.modified = when
    doc.save(str(path))


def soffice() -> str | None:
    """The LibreOffice executable, or None when it is not installed."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def docx_to_pdf(sources: list[Path], out_dir: Path, batch: int = 100) -> None:
    """Convert DOCX files to PDF with LibreOffice (headless, in batches); sources are removed."""
    exe = soffice()
    if exe is None:
        raise RuntimeError("LibreOffice (soffice) not found; run without --pdf")
    profile = out_dir / ".lo-profile"
    for start in range(0, len(sources), batch):
        chunk = [str(p) for p in sources[start : start + batch]]
        command = [exe, f"-env:UserInstallation=file://{profile}", "--headless"]
        subprocess.run(
            [*command, "--convert-to", "pdf", "--outdir", str(out_dir), *chunk],
            check=True,
            capture_output=True,
            timeout=600,
        )
    shutil.rmtree(profile, ignore_errors=True)
    for p in sources:
        p.unlink()
