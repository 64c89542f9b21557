"""Extraction on real sample files (made by tests/data/make_samples.py with LibreOffice/qpdf)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from simsift.core.document import ExtractionError, UnsupportedFormat
from simsift.core.read.extract import SUPPORTED_SUFFIXES, extract, sniff_format

DATA = Path(__file__).resolve().parents[2] / "data" / "extract"

# Site chrome that make_samples.py wraps around the re-posted article.
CHROME_STRINGS = (
    "首页",
    "登录注册",
    "限时特惠",
    "阅读 1234 次",
    "分享到",
    "相关文章",
    "网友评论",
    "游客甲",
    "版权所有",
    "京ICP备",
    "网站首页",
    "热门排行",
    "传奇私服",
    "点击：5678",
    "上一篇",
    "发表评论",
    "沪ICP备",
)


def tokens(text: str) -> list[str]:
    """Latin words and single CJK characters, lower-cased: a format-neutral token list."""
    return re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", text.lower())


def shared_share(a: str, b: str) -> float:
    """Share of the smaller token multiset found in the other text."""
    from collections import Counter

    ca, cb = Counter(tokens(a)), Counter(tokens(b))
    common = sum((ca & cb).values())
    return common / min(sum(ca.values()), sum(cb.values()))


@pytest.mark.parametrize("stem", ["article_en", "article_zh"])
@pytest.mark.parametrize("other", ["pdf", "docx", "rtf", "odt"])
def test_same_article_gives_nearly_same_text_in_every_format(stem: str, other: str) -> None:
    html_text = extract(DATA / f"{stem}.html").text
    other_text = extract(DATA / f"{stem}.{other}").text
    assert shared_share(html_text, other_text) >= 0.95
    # Nearly the same length too: nothing duplicated, nothing large lost.
    assert 0.9 <= len(tokens(other_text)) / len(tokens(html_text)) <= 1.15


def test_html_keeps_title_and_paragraph_boundaries() -> None:
    result = extract(DATA / "article_en.html")
    assert result.format == "html"
    assert result.title == "email Package Architecture"
    assert len(result.paragraphs) >= 10
    # The <h1> repeating the title is the title only, not also the first paragraph.
    assert result.paragraphs[0].startswith("The email package consists of three major")
    assert all("  " not in p and p == p.strip() for p in result.paragraphs)


@pytest.mark.parametrize(
    "name", ["repost_zh_gbk_nometa.html", "repost_zh_gbk_wrongmeta.html", "repost_en_chrome.html"]
)
def test_reposts_in_site_chrome_yield_only_the_article(name: str) -> None:
    article = "article_en.html" if "_en_" in name else "article_zh.html"
    expected = extract(DATA / article)
    result = extract(DATA / name)
    for chrome in CHROME_STRINGS:
        assert chrome not in result.text, chrome
    # Every article paragraph survives; the heading only as the page title.
    body = [p for p in expected.paragraphs if p != expected.title]
    assert [p for p in result.paragraphs if p != expected.title] == body


def test_both_chinese_reposts_give_identical_paragraphs() -> None:
    a = extract(DATA / "repost_zh_gbk_nometa.html")
    b = extract(DATA / "repost_zh_gbk_wrongmeta.html")
    assert a.paragraphs == b.paragraphs
    assert a.title.startswith("simhash与重复信息识别") and b.title.startswith("【转载】simhash")


def test_gbk_html_without_meta_decodes_to_chinese() -> None:
    text = extract(DATA / "repost_zh_gbk_nometa.html").text
    assert "随着信息爆炸时代的来临" in text
    assert "\ufffd" not in text


@pytest.mark.parametrize("name", ["zh_gbk.txt", "zh_utf16.txt", "zh_utf8_lines.txt"])
def test_chinese_text_files_decode_in_any_encoding(name: str) -> None:
    result = extract(DATA / name)
    assert result.format == "text"
    assert len(result.paragraphs) == 4
    assert result.paragraphs[0].startswith("随着信息爆炸时代的来临")
    assert "\ufffd" not in result.text


def test_big5_text_decodes_to_traditional_chinese() -> None:
    text = extract(DATA / "zh_big5.txt").text
    assert "預設" in text and "\ufffd" not in text


def test_docx_under_a_name_with_spaces_and_chinese() -> None:
    result = extract(DATA / "文章 副本.docx")
    assert result.format == "docx"
    assert result.title == "simhash与重复信息识别(一)"
    assert result.paragraphs == extract(DATA / "article_zh.docx").paragraphs


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("really_docx.doc", "docx"), ("really_pdf.html", "pdf"), ("article_en.html", "html")],
)
def test_content_wins_over_the_file_name(name: str, fmt: str) -> None:
    assert sniff_format(DATA / name) == fmt
    assert extract(DATA / name).format == fmt


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("encrypted.pdf", "password protected PDF"),
        ("image_only.pdf", "no extractable text (scanned/image-only PDF?)"),
        ("corrupt.docx", "not a valid DOCX (corrupt or renamed file)"),
        ("renamed_text.docx", "not a valid DOCX (corrupt or renamed file)"),
        ("zipbomb.docx", "DOCX unpacks to 4096 MB (possible zip bomb)"),
        ("empty.txt", "empty file"),
        ("whitespace.txt", "no text"),
    ],
)
def test_broken_files_raise_a_user_facing_error(name: str, message: str) -> None:
    with pytest.raises(ExtractionError) as caught:
        extract(DATA / name)
    assert str(caught.value) == message
    assert not isinstance(caught.value, UnsupportedFormat)


def test_file_over_the_size_limit_is_refused_before_reading() -> None:
    with pytest.raises(ExtractionError, match=r"file too large \(0 MB\)"):
        extract(DATA / "article_en.pdf", max_bytes=1000)


def test_missing_file_is_an_extraction_error() -> None:
    with pytest.raises(ExtractionError, match="cannot read file"):
        extract(DATA / "no such file.txt")


def test_unknown_suffix_is_unsupported(tmp_path: Path) -> None:
    path = tmp_path / "notes.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(UnsupportedFormat):
        extract(path)


def test_a_text_file_without_extension_is_read_as_text(tmp_path: Path) -> None:
    # README, LICENSE, a package's "copyright" licence file: text without a suffix
    (tmp_path / "copyright").write_text(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\n"
        "License: GPL-2+\n This program is free software; you can redistribute it.\n",
        encoding="utf-8",
    )
    result = extract(tmp_path / "copyright")
    assert result.format == "text" and "free software" in " ".join(result.paragraphs)
    (tmp_path / "blob").write_bytes(bytes(range(256)) * 8)
    with pytest.raises(UnsupportedFormat, match="binary data"):
        extract(tmp_path / "blob")


@pytest.mark.parametrize("stem", ["article_en", "article_zh"])
@pytest.mark.parametrize("fmt", ["rtf", "odt"])
def test_rtf_and_odt_give_the_title_and_paragraphs_of_the_docx(stem: str, fmt: str) -> None:
    other, docx = extract(DATA / f"{stem}.{fmt}"), extract(DATA / f"{stem}.docx")
    assert other.format == fmt
    assert (other.title, other.paragraphs) == (docx.title, docx.paragraphs)


def odt_with(tmp_path: Path, body: str, name: str = "essay.odt") -> Path:
    """A minimal OpenDocument text whose office:text holds `body`."""
    import zipfile

    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0">'
        f"<office:body><office:text>{body}</office:text></office:body>"
        "</office:document-content>"
    )
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return path


def test_odt_reads_lists_tables_spaces_and_notes_but_not_deletions_or_comments(
    tmp_path: Path,
) -> None:
    body = (
        '<text:h text:outline-level="1">我的作文</text:h>'
        "<text:tracked-changes><text:changed-region><text:deletion>"
        "<text:p>deleted words</text:p></text:deletion></text:changed-region>"
        "</text:tracked-changes>"
        '<text:p>First<text:s text:c="2"/>line<text:tab/>and '
        "<text:span>a span</text:span><text:note><text:note-body><text:p>A footnote.</text:p>"
        "</text:note-body></text:note> end.<office:annotation><text:p>a comment</text:p>"
        "</office:annotation></text:p>"
        "<text:list><text:list-item><text:p>item one</text:p></text:list-item>"
        "<text:list-item><text:p>item two</text:p></text:list-item></text:list>"
        "<table:table><table:table-row><table:table-cell><text:p>a</text:p></table:table-cell>"
        "<table:table-cell><text:p>b</text:p></table:table-cell></table:table-row></table:table>"
    )
    result = extract(odt_with(tmp_path, body, "作文.docx"))  # content decides, not the name
    assert result.format == "odt" and result.title == "我的作文"
    assert result.paragraphs == (
        "First line and a span end.",
        "item one",
        "item two",
        "a b",
        "A footnote.",
    )


def test_odt_unpacking_far_beyond_its_size_is_refused_as_a_bomb(tmp_path: Path) -> None:
    path = odt_with(tmp_path, "<text:p>" + " " * 3_000_000 + "</text:p>")
    assert path.stat().st_size < 100_000
    with pytest.raises(ExtractionError, match=r"ODT unpacks to 3 MB \(possible zip bomb\)"):
        extract(path, max_bytes=100_000)


def test_broken_odt_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "essay.odt").write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ExtractionError, match="not a valid ODT"):
        extract(tmp_path / "essay.odt")


def test_wordpad_rtf_with_gbk_escapes_and_unicode_escapes_reads_chinese(tmp_path: Path) -> None:
    # WordPad on Chinese Windows writes the code page and GBK bytes as \'hh escapes
    gbk = "".join(f"\\'{b:02x}" for b in "我们的作文：随着信息时代的来临。".encode("gbk"))
    picture = "{\\pict\\pngblip " + "89504e47" * 500 + "}"
    rtf = (
        "{\\rtf1\\ansi\\ansicpg936\\deff0{\\fonttbl{\\f0\\fnil\\fcharset134 SimSun;}}"
        f"\\viewkind4\\uc1\\pard\\lang2052\\f0 {gbk}\\par\n{picture}"
        "\\pard \\u20013?\\u25991? and English in one paragraph.\\par\n}"
    )
    path = tmp_path / "作文.doc"  # Word saves RTF under .doc too: content decides
    path.write_text(rtf, encoding="ascii")
    result = extract(path)
    assert result.format == "rtf"
    assert result.paragraphs == (
        "我们的作文：随着信息时代的来临。",
        "中文 and English in one paragraph.",
    )


def test_supported_suffixes_cover_the_formats() -> None:
    assert {".html", ".pdf", ".docx", ".doc", ".odt", ".rtf", ".txt", ".md"} <= (SUPPORTED_SUFFIXES)
    assert all(s.startswith(".") and s == s.lower() for s in SUPPORTED_SUFFIXES)
