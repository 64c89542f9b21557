#!/usr/bin/env python3
"""Regenerate the extraction sample files in tests/data/extract/.

Tests only read the checked-in outputs; run this by hand when samples must change.
Needs: LibreOffice (`soffice`, e.g. apt-get install libreoffice-writer-nogui
fonts-noto-cjk) and qpdf. Source texts are real public text
found on a Debian/pyenv machine; pass other paths with --english/--chinese if needed:

    python tests/data/make_samples.py \
        --english /usr/lib/python3.11/email/architecture.rst \
        --chinese /work/shared/seeds/001_4c09b7b369701dce.txt \
        --big5-catalog /usr/share/locale/zh_TW/LC_MESSAGES/coreutils.mo

Outputs (all small):
  article_en.{html,docx,pdf}, article_zh.{html,docx,pdf}  the same article in three formats
  repost_zh_gbk_nometa.html   GBK page without meta charset, heavy site chrome (site A)
  repost_zh_gbk_wrongmeta.html  GBK page declaring iso-8859-1, other chrome (site B)
  repost_en_chrome.html       English article in site A chrome, UTF-8
  encrypted.pdf               article_en.pdf with an open password (qpdf, AES-256)
  image_only.pdf              a page that is only a picture of text (LibreOffice, from a generated PNG)
  corrupt.docx                article_en.docx truncated to half
  renamed_text.docx           plain text with a .docx name
  zipbomb.docx                article_en.docx with one member declaring 4 GB unpacked
  old_binary.doc              Word 97 binary (LibreOffice)
  really_docx.doc             article_en.docx under a .doc name
  really_pdf.html             article_en.pdf under a .html name
  empty.txt, whitespace.txt   nothing / only whitespace
  zh_utf16.txt, zh_gbk.txt, zh_utf8_lines.txt  Chinese in UTF-16 (BOM), GBK, UTF-8 one line per paragraph
  zh_big5.txt                 traditional Chinese (zh_TW message catalog) in Big5
  文章 副本.docx               copy of article_zh.docx, name with spaces and Chinese
  hidden_text.{docx,odt,html,pdf}  text the file holds but does not show (hidden, white,
                              1-pt, invisible, off-page) beside text that shows; made without
                              LibreOffice (python-docx, hand-written XML/HTML/PDF):
                              python tests/data/make_samples.py --hidden-only
  dark_mode.html              white text on a dark page: shows, not hidden
"""

from __future__ import annotations

import argparse
import gettext
import html
import re
import shutil
import struct
import subprocess
import tempfile
import zipfile
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent / "extract"
DEFAULT_ENGLISH = "/root/.pyenv/versions/3.11.7/lib/python3.11/email/architecture.rst"
DEFAULT_CHINESE = "/work/shared/seeds/001_4c09b7b369701dce.txt"
DEFAULT_BIG5 = "/usr/share/locale/zh_TW/LC_MESSAGES/coreutils.mo"


def rst_paragraphs(path: Path, limit: int) -> tuple[str, list[str]]:
    """Title and prose paragraphs of an reST file, markup stripped."""
    blocks = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
    paragraphs = []
    for block in blocks:
        lines = [ln.strip() for ln in block.splitlines() if not re.fullmatch(r"[=\-~^]+", ln.strip())]
        text = re.sub(r":\w+:`([^`]*)`", r"\1", " ".join(lines)).replace("``", "")
        if len(text) > 40:
            paragraphs.append(text)
    title = re.sub(r":\w+:`([^`]*)`", r"\1", blocks[0].splitlines()[0])
    return title, paragraphs[:limit]


def chinese_paragraphs(path: Path, limit: int) -> tuple[str, list[str]]:
    """Title and the longer prose lines of a Chinese text (one paragraph per line)."""
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
    prose = [ln for ln in lines if len(ln) >= 60 and "irb(" not in ln]
    return lines[0], prose[:limit]


def article_html(title: str, paragraphs: list[str], charset: str | None = "utf-8") -> str:
    meta = f'<meta charset="{charset}">' if charset else ""
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return (
        f"<!DOCTYPE html>\n<html><head>{meta}<title>{html.escape(title)}</title></head>\n"
        f"<body>\n<h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n"
    )


def chrome_site_a(title: str, paragraphs: list[str], meta: str) -> str:
    """A portal page: top nav, ads, view counter, related links, comments, footer."""
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return f"""<!DOCTYPE html>
<html><head>{meta}<title>{html.escape(title)} - 技术博客园</title>
<script>var _hmt = _hmt || []; document.write("广告脚本");</script>
<style>.nav {{ color: red }}</style></head>
<body>
<div id="header"><div class="nav"><ul>
<li><a href="/">首页</a></li><li><a href="/news">新闻中心</a></li><li><a href="/blog">博客频道</a></li>
<li><a href="/bbs">论坛社区</a></li><li><a href="/download">软件下载</a></li><li><a href="/login">登录注册</a></li>
</ul></div></div>
<div class="ad-banner"><a href="http://ads.example.com/click?id=42">限时特惠：云服务器低至99元一年，立即抢购！</a></div>
<div id="main"><div class="article">
<h1>{html.escape(title)}</h1>
<div class="meta">发布时间：2011-03-15 10:22 &nbsp; 来源：技术博客园 &nbsp; 阅读 1234 次</div>
<div class="content">
{body}
</div>
<div class="share">分享到：新浪微博 QQ空间 人人网</div>
</div>
<div class="related"><h3>相关文章</h3><ul>
<li><a href="/a/1">海量数据相似度计算之simhash短文本查找</a></li>
<li><a href="/a/2">搜索引擎网页排重算法比较</a></li><li><a href="/a/3">布隆过滤器原理详解</a></li></ul></div>
<div id="comments"><h3>网友评论（3条）</h3>
<div class="comment">游客甲：写得很好，收藏了！</div><div class="comment">游客乙：请问有Java版本的代码吗？</div>
<div class="comment">游客丙：楼主辛苦了，顶一个。</div></div>
</div>
<div id="footer">关于我们 | 联系方式 | 广告服务 | 网站地图<br>Copyright &copy; 2004-2011 技术博客园 版权所有 京ICP备05012345号</div>
</body></html>
"""


def chrome_site_b(title: str, paragraphs: list[str], meta: str) -> str:
    """A forum-style page with a sidebar, hit counter, prev/next links and another footer."""
    body = "<br><br>\n".join(html.escape(p) for p in paragraphs)
    return f"""<html><head>{meta}<title>【转载】{html.escape(title)}_IT资讯网</title></head>
<body>
<table width="100%"><tr><td class="topmenu"><a href="/">网站首页</a> | <a href="/it">IT资讯</a> |
<a href="/dev">开发者</a> | <a href="/soft">软件园地</a> | <a href="/reg">免费注册</a></td></tr></table>
<table width="960"><tr>
<td width="200" valign="top" class="sidebar"><div class="box"><b>热门排行</b><br>
<a href="/h/1">1. 手机选购指南：千元机推荐</a><br><a href="/h/2">2. 笔记本电脑散热技巧大全</a><br>
<a href="/h/3">3. 程序员面试常见问题汇总</a></div>
<div class="adbox"><a href="http://ad.example.cn/">游戏推荐：传奇私服 一刀999级</a></div></td>
<td valign="top"><div class="title">{html.escape(title)}</div>
<div class="info">作者：佚名 &nbsp; 点击：5678 &nbsp; 更新时间：2012-08-01</div>
<div id="art_content">{body}</div>
<div class="pages">上一篇：网页去重技术综述<br>下一篇：倒排索引的压缩方法</div>
<div class="postcomment">发表评论 您的昵称：<input> 验证码：<input> 已有 12 条评论</div>
</td></tr></table>
<div class="copyright">IT资讯网 版权所有 Powered by CMS V5.7 | 免责声明 | 友情链接 | 沪ICP备08001234号</div>
</body></html>
"""


def soffice_convert(src: Path, target: str, outdir: Path) -> None:
    subprocess.run(
        ["soffice", "--headless", "--infilter=HTML (StarWriter)", "--convert-to", target,
         "--outdir", str(outdir), str(src)],
        check=True, capture_output=True,
    )


def make_article(stem: str, title: str, paragraphs: list[str]) -> None:
    """Write one article as HTML and let LibreOffice turn it into DOCX, PDF, RTF and ODT."""
    html_path = OUT / f"{stem}.html"
    html_path.write_text(article_html(title, paragraphs), encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / f"{stem}.html"
        shutil.copy(html_path, src)
        soffice_convert(src, "docx:MS Word 2007 XML", OUT)
        soffice_convert(src, "pdf:writer_pdf_Export", OUT)
        soffice_convert(src, "rtf:Rich Text Format", OUT)
        soffice_convert(src, "odt:writer8", OUT)
        soffice_convert(src, "doc:MS Word 97", Path(tmp))
        if stem == "article_en":
            shutil.copy(Path(tmp) / f"{stem}.doc", OUT / "old_binary.doc")


def make_zipbomb(src: Path, dst: Path) -> None:
    """Copy of a DOCX whose first member declares 4 GB unpacked, in both zip headers."""
    data = bytearray(src.read_bytes())
    huge = struct.pack("<I", 0xFFFFFFF0)
    data[22:26] = huge  # local file header: uncompressed size
    central = data.rfind(b"PK\x05\x06")
    cd_offset = struct.unpack("<I", data[central + 16 : central + 20])[0]
    data[cd_offset + 24 : cd_offset + 28] = huge  # central directory: uncompressed size
    dst.write_bytes(bytes(data))


def png_bytes(width: int, height: int) -> bytes:
    """A grey-scale PNG of dark bars on white, like lines of text on a scanned page."""
    rows = []
    for y in range(height):
        ink = (y // 12) % 3 == 1 and 40 < y < height - 40
        row = bytes(0 if ink and 30 < x < width - 30 and (x // 9) % 7 else 255 for x in range(width))
        rows.append(b"\x00" + row)

    def chunk(kind: bytes, payload: bytes) -> bytes:
        body = kind + payload
        return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def make_image_only_pdf(dst: Path) -> None:
    """LibreOffice PDF of a page holding only a picture (no text layer), like a scan."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "scan.png").write_bytes(png_bytes(600, 400))
        page = Path(tmp) / f"{dst.stem}.html"
        page.write_text('<html><body><img src="scan.png" width="600" height="400"></body></html>')
        soffice_convert(page, "pdf:writer_pdf_Export", Path(tmp))
        shutil.copy(Path(tmp) / f"{dst.stem}.pdf", dst)


def big5_text(catalog: Path, count: int) -> str:
    """Longest traditional-Chinese messages of a zh_TW catalog that Big5 can encode."""
    with catalog.open("rb") as f:
        messages = gettext.GNUTranslations(f)._catalog.values()
    usable = []
    for message in sorted({m.strip() for m in messages if isinstance(m, str)}, key=len, reverse=True):
        try:
            message.encode("big5")
        except UnicodeEncodeError:
            continue
        if sum("\u4e00" <= c <= "\u9fff" for c in message) >= 15:
            usable.append(message)
    return "\n\n".join(usable[:count]) + "\n"


# ---------------------------------------------------------------------------------------
# Hidden text: documents holding text they do not show (tests/core/extract/test_hidden_text.py)

HIDDEN_TITLE = "Why river deltas grow"


def make_hidden_docx(dst: Path) -> None:
    """python-docx: hidden (vanish), white, near-white and 1-pt runs, a character style and
    a paragraph style that hide, a white cell; and white text that shows (dark cell, black
    highlight) and light grey text."""
    import docx
    from docx.enum.style import WD_STYLE_TYPE
    from docx.enum.text import WD_COLOR_INDEX
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Pt, RGBColor

    white = RGBColor(0xFF, 0xFF, 0xFF)
    document = docx.Document()
    secret = document.styles.add_style("Secret Note", WD_STYLE_TYPE.CHARACTER)
    secret.font.hidden = True
    ghost = document.styles.add_style("Invisible Body", WD_STYLE_TYPE.PARAGRAPH)
    ghost.base_style = document.styles["Normal"]
    ghost.font.color.rgb = white

    document.add_paragraph(HIDDEN_TITLE, style="Title")
    p = document.add_paragraph("Rivers carry sand and silt down to the sea. ")
    p.add_run("This sentence was copied from a source and hidden with the hidden font setting. ")
    p.runs[-1].font.hidden = True
    p.add_run("Where the current slows, the load settles.")
    p = document.add_paragraph("Deltas change shape every flood season.")
    p.add_run(" White words sit here unseen between two visible sentences on the page.")
    p.runs[-1].font.color.rgb = white
    p.add_run(" Engineers watch them closely.")
    p = document.add_paragraph()
    p.add_run("This whole paragraph is set in one point type so nobody can read it on paper.")
    p.runs[-1].font.size = Pt(1)
    p = document.add_paragraph("Some deltas grow by many metres a year.")
    p.add_run(" A character style hides this clause through its style definition only.", "Secret Note")
    document.add_paragraph(
        "A paragraph style makes this entire paragraph white on the white page.", "Invisible Body"
    )
    p = document.add_paragraph("Sediment builds new land.")
    p.add_run(" Nearly white text is as good as invisible on a white page.")
    p.runs[-1].font.color.rgb = RGBColor(0xF5, 0xF5, 0xF5)
    p = document.add_paragraph()
    p.add_run("Light grey notes like this one stay readable.").font.color.rgb = RGBColor(
        0xBF, 0xBF, 0xBF
    )
    run = p.add_run(" White on a black highlight shows.")
    run.font.color.rgb = white
    run.font.highlight_color = WD_COLOR_INDEX.BLACK

    table = document.add_table(rows=2, cols=2)
    dark = table.cell(0, 0)
    dark.paragraphs[0].add_run("Dark header cell").font.color.rgb = white
    shading = OxmlElement("w:shd")
    shading.set(qn("w:val"), "clear")
    shading.set(qn("w:color"), "auto")
    shading.set(qn("w:fill"), "1F3864")
    dark._tc.get_or_add_tcPr().append(shading)
    table.cell(0, 1).paragraphs[0].add_run("Plain cell text")
    table.cell(1, 0).paragraphs[0].add_run(
        "Ghost cell words are hidden inside a table cell in white."
    ).font.color.rgb = white
    table.cell(1, 1).paragraphs[0].add_run("Second row visible")
    document.add_paragraph("The delta ends where the sea takes over.")
    document.core_properties.title = ""
    document.save(str(dst))


_ODF_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'office:version="1.3"'
)


def make_hidden_odt(dst: Path) -> None:
    """ODT written as XML: spans and paragraphs hidden by automatic styles (display none,
    white, 1 pt) and by a common style of styles.xml, a hidden section; white text in a
    dark cell and light grey text that show."""
    styles = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-styles {_ODF_NS}><office:styles>
<style:default-style style:family="paragraph"><style:text-properties fo:font-size="12pt"/></style:default-style>
<style:style style:name="Standard" style:family="paragraph"/>
<style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph" style:parent-style-name="Standard"/>
<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-size="18pt"/></style:style>
<style:style style:name="Secret" style:family="text"><style:text-properties text:display="none"/></style:style>
</office:styles></office:document-styles>
"""
    content = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content {_ODF_NS}><office:automatic-styles>
<style:style style:name="T1" style:family="text"><style:text-properties text:display="none"/></style:style>
<style:style style:name="T2" style:family="text"><style:text-properties fo:color="#ffffff"/></style:style>
<style:style style:name="T3" style:family="text"><style:text-properties fo:font-size="1pt"/></style:style>
<style:style style:name="T4" style:family="text"><style:text-properties fo:color="#bfbfbf"/></style:style>
<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Text_20_body"><style:text-properties fo:color="#ffffff"/></style:style>
<style:style style:name="Cell1" style:family="table-cell"><style:table-cell-properties fo:background-color="#1f3864"/></style:style>
<style:style style:name="Sect1" style:family="section"><style:section-properties/></style:style>
</office:automatic-styles><office:body><office:text>
<text:h text:style-name="Heading_20_1" text:outline-level="1">{HIDDEN_TITLE}</text:h>
<text:p text:style-name="Text_20_body">Rivers carry sand and silt down to the sea. <text:span text:style-name="T1">This sentence was copied from a source and hidden with a style that does not display. </text:span>Where the current slows, the load settles.</text:p>
<text:p text:style-name="Text_20_body">Deltas change shape every flood season.<text:span text:style-name="T2"> White words sit here unseen between two visible sentences on the page.</text:span> Engineers watch them closely.</text:p>
<text:p text:style-name="Text_20_body"><text:span text:style-name="T3">This whole paragraph is set in one point type so nobody can read it on paper.</text:span></text:p>
<text:p text:style-name="Text_20_body">Some deltas grow by many metres a year.<text:span text:style-name="Secret"> A common style hides this clause through its style definition only.</text:span></text:p>
<text:p text:style-name="P1">A paragraph style makes this entire paragraph white on the white page.</text:p>
<text:p text:style-name="Text_20_body"><text:span text:style-name="T4">Light grey notes like this one stay readable.</text:span></text:p>
<table:table table:name="Table1"><table:table-column table:number-columns-repeated="2"/>
<table:table-row><table:table-cell table:style-name="Cell1"><text:p text:style-name="Text_20_body"><text:span text:style-name="T2">Dark header cell</text:span></text:p></table:table-cell>
<table:table-cell><text:p text:style-name="Text_20_body">Plain cell text</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell><text:p text:style-name="Text_20_body"><text:span text:style-name="T2">Ghost cell words are hidden inside a table cell in white.</text:span></text:p></table:table-cell>
<table:table-cell><text:p text:style-name="Text_20_body">Second row visible</text:p></table:table-cell></table:table-row>
</table:table>
<text:section text:style-name="Sect1" text:name="Hidden1" text:display="none"><text:p text:style-name="Text_20_body">A hidden section keeps a whole passage out of sight of every reader.</text:p></text:section>
<text:p text:style-name="Text_20_body">The delta ends where the sea takes over.</text:p>
</office:text></office:body></office:document-content>
"""
    manifest = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
"""
    with zipfile.ZipFile(dst, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        for name, text in (
            ("content.xml", content),
            ("styles.xml", styles),
            ("META-INF/manifest.xml", manifest),
        ):
            archive.writestr(name, text, compress_type=zipfile.ZIP_DEFLATED)


HIDDEN_HTML = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{HIDDEN_TITLE}</title>
<style>p {{ line-height: 1.5; }}</style>
<script>var note = "Scripts are never page text and are not hidden text either.";</script>
</head><body>
<article>
<h1>{HIDDEN_TITLE}</h1>
<p>Rivers carry sand and silt down to the sea. <span style="display: none">This sentence was copied from a source and hidden with display none. </span>Where the current slows, the load settles.</p>
<p>Deltas change shape every flood season.<span style="color:#FFFFFF"> White words sit here unseen between two visible sentences on the page.</span> Engineers watch them closely.</p>
<p style="font-size:0px">This whole paragraph is set in zero size type so nobody can read it on screen.</p>
<p>Some deltas grow by many metres a year.<span style="opacity: 0"> A clause made fully transparent stays in the page source only.</span></p>
<p hidden>The hidden attribute keeps this whole paragraph out of every browser view.</p>
<div style="visibility:hidden"><p>Visibility hidden leaves an empty gap where these words would be.</p></div>
<p>Sediment builds new land.<font color="white"> An old font tag paints these words white on the white page.</font></p>
<p><span style="color: #fff; background-color: #1f3864">White on a dark badge shows.</span> <span style="color:#bfbfbf">Light grey notes like this one stay readable.</span></p>
<table bgcolor="#000000"><tr><td><font color="#ffffff">White text in a black table cell is easy to read.</font></td></tr></table>
<p>The delta ends where the sea takes over.</p>
</article>
</body></html>
"""

DARK_HTML = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{HIDDEN_TITLE}</title>
<style>body {{ background: #121212; color: #e0e0e0; }}</style>
</head><body>
<h1>{HIDDEN_TITLE}</h1>
<p>Rivers carry sand and silt down to the sea. <span style="color:#ffffff">Bright white words stand out on the dark page.</span></p>
<p style="color: white">Deltas change shape every flood season, and engineers watch them closely.</p>
<p>The delta ends where the sea takes over.</p>
</body></html>
"""


def _pdf_text(x: float, y: float, size: float, text: str, *, mode: int = 0, grey: float = 0) -> str:
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"BT /F1 {size} Tf {mode} Tr {grey} g {x} {y} Td ({escaped}) Tj ET\n"


def make_hidden_pdf(dst: Path) -> None:
    """A PDF written by hand: invisible (render mode 3), white, half-point and off-page text
    on page 1 (one line below the crop box), white text on a dark bar; page 2 is a picture
    with an invisible OCR layer over it, which stands for the picture's text."""
    page1 = "".join(
        (
            _pdf_text(72, 720, 18, HIDDEN_TITLE),
            _pdf_text(72, 680, 12, "Rivers carry sand and silt down to the sea."),
            _pdf_text(72, 640, 12, "This line is drawn in render mode three and never shows.", mode=3),
            _pdf_text(72, 600, 12, "Deltas change shape every flood season."),
            _pdf_text(72, 560, 12, "White words sit here unseen between two visible lines.", grey=1),
            _pdf_text(72, 520, 12, "Some deltas grow by many metres a year."),
            _pdf_text(72, 480, 0.5, "Half point type is a hairline on paper and on screen."),
            _pdf_text(700, 440, 12, "These words are placed beyond the right edge of the page."),
            _pdf_text(72, 20, 12, "Below the crop box these words are cut from every view."),
            "0.1 g 60 390 400 30 re f\n",
            _pdf_text(72, 400, 12, "White on a dark bar shows.", grey=1),
            _pdf_text(72, 340, 12, "The delta ends where the sea takes over."),
        )
    )
    page2 = "".join(
        (
            "q 300 0 0 100 72 600 cm /Im1 Do Q\n",
            _pdf_text(80, 640, 12, "Scanned words under an OCR layer.", mode=3),
            _pdf_text(72, 500, 12, "A caption under the scanned picture."),
        )
    )
    image = bytes(255 if (x + y) % 2 else 200 for y in range(8) for x in range(8))
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    resources = b"<< /Font << /F1 5 0 R >> /XObject << /Im1 8 0 R >> >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /CropBox [0 50 612 792] "
        b"/Resources " + resources + b" /Contents 4 0 R >>",
        _pdf_stream(page1.encode("latin-1")),
        font,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
        + resources + b" /Contents 7 0 R >>",
        _pdf_stream(page2.encode("latin-1")),
        _pdf_stream(image, b"/Type /XObject /Subtype /Image /Width 8 /Height 8 "
                    b"/ColorSpace /DeviceGray /BitsPerComponent 8"),
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    dst.write_bytes(bytes(out))


def _pdf_stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< " + extra + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def make_hidden_samples() -> None:
    """The hidden-text samples: python-docx and hand-written ODT, HTML and PDF (no LibreOffice)."""
    make_hidden_docx(OUT / "hidden_text.docx")
    make_hidden_odt(OUT / "hidden_text.odt")
    (OUT / "hidden_text.html").write_text(HIDDEN_HTML, encoding="utf-8")
    (OUT / "dark_mode.html").write_text(DARK_HTML, encoding="utf-8")
    make_hidden_pdf(OUT / "hidden_text.pdf")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--english", type=Path, default=Path(DEFAULT_ENGLISH))
    parser.add_argument("--chinese", type=Path, default=Path(DEFAULT_CHINESE))
    parser.add_argument("--big5-catalog", type=Path, default=Path(DEFAULT_BIG5))
    parser.add_argument(
        "--hidden-only", action="store_true", help="only the hidden-text samples (no LibreOffice)"
    )
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    make_hidden_samples()
    if args.hidden_only:
        return

    en_title, en = rst_paragraphs(args.english, 12)
    zh_title, zh = chinese_paragraphs(args.chinese, 5)
    make_article("article_en", en_title, en)
    make_article("article_zh", zh_title, zh)

    (OUT / "repost_zh_gbk_nometa.html").write_bytes(chrome_site_a(zh_title, zh, "").encode("gbk"))
    wrong_meta = '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'
    (OUT / "repost_zh_gbk_wrongmeta.html").write_bytes(
        chrome_site_b(zh_title, zh, wrong_meta).encode("gbk"))
    (OUT / "repost_en_chrome.html").write_text(
        chrome_site_a(en_title, en, '<meta charset="utf-8">'), encoding="utf-8")

    subprocess.run(
        ["qpdf", "--encrypt", "x", "owner", "256", "--", str(OUT / "article_en.pdf"),
         str(OUT / "encrypted.pdf")], check=True)
    make_image_only_pdf(OUT / "image_only.pdf")

    docx_bytes = (OUT / "article_en.docx").read_bytes()
    (OUT / "corrupt.docx").write_bytes(docx_bytes[: len(docx_bytes) // 2])
    (OUT / "renamed_text.docx").write_text("\n\n".join(en[:3]) + "\n", encoding="utf-8")
    make_zipbomb(OUT / "article_en.docx", OUT / "zipbomb.docx")
    shutil.copy(OUT / "article_en.docx", OUT / "really_docx.doc")
    shutil.copy(OUT / "article_en.pdf", OUT / "really_pdf.html")
    shutil.copy(OUT / "article_zh.docx", OUT / "文章 副本.docx")

    (OUT / "empty.txt").write_bytes(b"")
    (OUT / "whitespace.txt").write_text(" \n\n\t \u3000\n", encoding="utf-8")
    zh_text = "\n\n".join(zh[:4]) + "\n"
    (OUT / "zh_utf16.txt").write_text(zh_text, encoding="utf-16")  # writes a BOM
    (OUT / "zh_gbk.txt").write_bytes(zh_text.encode("gbk"))
    (OUT / "zh_utf8_lines.txt").write_text("\n".join(zh[:4]) + "\n", encoding="utf-8")
    (OUT / "zh_big5.txt").write_bytes(big5_text(args.big5_catalog, 6).encode("big5"))


if __name__ == "__main__":
    main()
