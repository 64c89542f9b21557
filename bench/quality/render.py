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


# A printed site's chrome, worded by each site its own way (a phrasing drawn per site, the
# site's name in it): cookie banner, follow-us line, copyright and takedown line, an ad.
_PRINTED_CHROME = {
    "en": {
        "cookies": (
            "We use cookies to improve your experience on {site} and to show you relevant "
            "advertising. By continuing to browse you agree to our cookie policy. Accept",
            "This site uses cookies and similar technologies to remember your preferences "
            "and measure traffic. Manage your choices at any time. OK, got it",
            "{site} and its partners store and access information on your device to "
            "personalise content and ads. Accept all Reject all",
        ),
        "follow": (
            "Follow {site} on Twitter, Facebook and WeChat for the latest stories every day.",
            "Like what you read? Subscribe to the {site} newsletter and follow us everywhere.",
            "Join our community: follow us on social media and share this story with friends.",
        ),
        "copyright": (
            "© 2024 {site}. All rights reserved. No part of this site may be reproduced "
            "without written permission; to report infringement contact our legal team.",
            "Copyright {site} 2010-2024. Content on this site may not be republished, "
            "rewritten or redistributed in any form. Takedown requests: see our terms.",
            "All content © {site}. Reproduction without permission is prohibited and "
            "violations will be pursued. Please read our terms of use before sharing.",
        ),
        "ad": (
            "Advertisement · Save 20% on your first order of fresh groceries delivered to "
            "your door this week. Shop now",
            "Sponsored · The travel card that earns miles on every purchase with no "
            "annual fee in the first year. Learn more",
            "Advertisement · Learn a new language in ten minutes a day with lessons made "
            "by native speakers. Start free",
        ),
        "popular": ("Popular", "Most read", "Trending now"),
    },
    "zh": {
        "cookies": (
            "本网站使用Cookie来改善您的浏览体验并向您展示相关广告。继续浏览即表示您同意我们的Cookie政策。接受",
            "{site}及其合作伙伴会在您的设备上存储和读取信息，"
            "用于个性化内容与广告。全部接受 全部拒绝",
            "为了提供更好的服务，本站使用Cookie记录您的偏好并统计访问量，您可以随时更改设置。我知道了",
        ),
        "follow": (
            "关注{site}微信公众号和微博，第一时间获取最新资讯。",
            "欢迎订阅{site}每日新闻简报，并在各大社交平台关注我们。",
            "扫码关注我们的官方账号，分享本文给更多朋友。",
        ),
        "copyright": (
            "版权所有 © 2024 {site}。未经书面许可，"
            "任何单位和个人不得转载、摘编或以其他方式使用本网站内容，侵权必究。",
            "{site}原创内容，转载请注明出处。如有侵权请联系本站删除，举报电话见网站底部。",
            "本站所有文章版权归{site}所有，未经授权禁止转载，违者将依法追究法律责任。",
        ),
        "ad": (
            "广告 · 新用户首单立减二十元，生鲜蔬果次日送达到家，立即下单",
            "推广 · 每次消费均可累积里程的旅行信用卡，首年免年费，了解更多",
            "广告 · 每天十分钟轻松学外语，母语老师在线授课，免费试听",
        ),
        "popular": ("热门文章", "阅读排行", "热点推荐"),
    },
}


@dataclass(frozen=True)
class PrintedSite:
    """A site whose pages are printed to PDF: its name, navigation, chrome and the list of
    popular articles every page shows on the day it is printed."""

    name: str
    nav: tuple[str, ...]
    cookies: str
    follow: str
    copyright: str
    ad: str
    popular: tuple[str, ...]


def make_printed_site(rng: random.Random, site: Site, lang: str, titles: list[str]) -> PrintedSite:
    """A printed site from a web site's name and navigation, its chrome worded its own way
    and five popular titles."""
    words = _PRINTED_CHROME[lang]
    pick = {key: rng.choice(words[key]).format(site=site.name) for key in words}
    return PrintedSite(
        site.name,
        site.nav,
        pick["cookies"],
        pick["follow"],
        pick["copyright"],
        pick["ad"],
        (pick["popular"], *rng.sample(titles, 5)),
    )


def write_printed_html(path: Path, text: Text, site: PrintedSite | None) -> None:
    """The page a browser prints: with `site`, its navigation and cookie banner above the
    article and its follow-us line, ad, popular list and copyright line after it (the
    banner fixed to the window, as sites set it: printed on every page); without, the
    article alone (an essay printed from a browser)."""
    title = html.escape(text.title)
    body = f"<h1>{title}</h1>\n{_paragraph_html(text)}"
    if site is not None:
        nav = " ".join(html.escape(n) for n in site.nav)
        items = "".join(f"<li>{html.escape(t)}</li>" for t in site.popular[1:])
        body = (
            f"<div><b>{html.escape(site.name)}</b> {nav}</div>\n"
            f'<div class="banner">{html.escape(site.cookies)}</div>\n{body}\n'
            f'<p class="small">{html.escape(site.follow)}</p>\n'
            f'<p class="small">{html.escape(site.ad)}</p>\n'
            f'<div class="small"><b>{html.escape(site.popular[0])}</b><ul>{items}</ul></div>\n'
            f'<p class="small">{html.escape(site.copyright)}</p>'
        )
        title = f"{title} - {html.escape(site.name)}"
    style = (
        "body{font-family:sans-serif;font-size:16px} .small{font-size:13px}"
        " .banner{position:fixed;bottom:0;left:0;right:0;background:#eee;font-size:13px}"
    )
    path.write_text(
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{style}</style></head>\n<body>\n{body}\n</body></html>\n",
        encoding="utf-8",
    )


def browser() -> str | None:
    """A Chromium that prints pages to PDF headless, or None when none is installed."""
    names = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")
    return next((found for name in names if (found := shutil.which(name))), None)


def html_to_pdf(sources: list[Path]) -> None:
    """Print HTML files to PDF beside them as Chromium prints (its date and title at the
    top of every page, the address and page number at the bottom); sources are removed."""
    exe = browser()
    if exe is None:
        raise RuntimeError("Chromium not found; run without printed pages")
    for source in sources:
        subprocess.run(
            [
                exe,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                f"--print-to-pdf={source.with_suffix('.pdf')}",
                source.resolve().as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        source.unlink()
