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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--english", type=Path, default=Path(DEFAULT_ENGLISH))
    parser.add_argument("--chinese", type=Path, default=Path(DEFAULT_CHINESE))
    parser.add_argument("--big5-catalog", type=Path, default=Path(DEFAULT_BIG5))
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)

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
