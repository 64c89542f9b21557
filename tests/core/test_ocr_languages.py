"""How scanned pages are read. A mostly Chinese file is read with Chinese alone at
200 dpi (Simplified or Traditional, chosen on its first page); English and mixed pages with
English and Chinese at 300 dpi; a page whose page segmentation lost most of its text (a
photographed page on a desk) is read again as one block of text.

Pages are drawn with Pillow and saved as image-only PDFs; each Tesseract run is recorded
(`runs`) to see which languages, resolution and page segmentation read which page."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from simsift.core.read.extract import extract, ocr

PIL = pytest.importorskip("PIL", reason="Pillow draws the scanned pages")
from PIL import Image, ImageDraw, ImageFilter, ImageFont  # noqa: E402

PROGRAM = ocr.tesseract_path()
LANGUAGES = ocr.installed_languages(PROGRAM) if PROGRAM else frozenset()


def needs(*languages: str):
    return pytest.mark.skipif(
        not set(languages) <= LANGUAGES,
        reason=f"Tesseract with {', '.join(languages)} is not installed",
    )


LATIN_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"

ENGLISH = [
    "The committee reviewed the annual report and found that the",
    "budget was spent mostly on teaching materials, laboratory",
    "equipment and travel for the students who presented papers.",
    "Students who handed in their essays late were given a second",
    "chance, and the marks of the first term were checked again by",
    "two readers before they were sent to the examinations office.",
    "The library extended its opening hours during the examination",
    "weeks and bought forty copies of the most borrowed textbooks.",
    "Next year the department plans a writing workshop for every",
    "first year student, with short exercises on quoting sources.",
]
SIMPLIFIED = [
    "委员会审阅了年度报告，发现预算主要用于教学材料、",
    "实验室设备和学生参加学术会议的差旅费用。",
    "迟交论文的学生获得了第二次机会，第一学期的成绩",
    "由两位老师重新核对后才送到考试办公室。",
    "考试期间图书馆延长了开放时间，并为借阅最多的",
    "教科书购买了四十本新书。明年系里计划为每一位",
    "一年级学生开设写作讲习班，练习如何引用资料来源。",
    "这些措施得到了学生们的欢迎，他们说这样的安排",
    "让复习更加方便，也让写论文的时间更加充足。",
    "学院还会继续听取意见，改进下一个学年的课程设计。",
]
TRADITIONAL = [
    "委員會審閱了年度報告，發現預算主要用於教學材料、",
    "實驗室設備和學生參加學術會議的差旅費用。",
    "遲交論文的學生獲得了第二次機會，第一學期的成績",
    "由兩位老師重新核對後才送到考試辦公室。",
    "考試期間圖書館延長了開放時間，並為借閱最多的",
    "教科書購買了四十本新書。明年系裡計劃為每一位",
    "一年級學生開設寫作講習班，練習如何引用資料來源。",
    "這些措施得到了學生們的歡迎，他們說這樣的安排",
    "讓複習更加方便，也讓寫論文的時間更加充足。",
    "學院還會繼續聽取意見，改進下一個學年的課程設計。",
]


def face(path: str, size: int) -> ImageFont.FreeTypeFont:
    if not Path(path).exists():
        pytest.skip(f"no font {path}")
    return ImageFont.truetype(path, size)


def page_image(lines: list[str], font: ImageFont.FreeTypeFont) -> Image.Image:
    """A letter-size page at 200 dpi, its lines from an inch below the top."""
    page = Image.new("L", (1700, 2200), 255)
    draw = ImageDraw.Draw(page)
    for i, line in enumerate(lines):
        draw.text((200, 200 + 62 * i), line, font=font, fill=0)
    return page


def save_pdf(path: Path, pages: list[Image.Image]) -> Path:
    pages[0].save(path, save_all=True, append_images=pages[1:], resolution=200)
    return path


def words(text: str) -> list[str]:
    """Latin words and single CJK characters, lower-cased."""
    return re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", text.lower())


def found_share(expected: list[str], text: str) -> float:
    got = set(words(text))
    wanted = words(" ".join(expected))
    return sum(w in got for w in wanted) / len(wanted)


def read(path: Path) -> str:
    """The title and text of a scan as read."""
    result = extract(path)
    return result.title + "\n\n" + result.text


@pytest.fixture
def runs(monkeypatch) -> list[tuple[tuple[int, int], int, str, str]]:
    """Every Tesseract run: the image's shape, dpi, languages ("" for orientation) and page
    segmentation mode."""
    seen: list[tuple[tuple[int, int], int, str, str]] = []
    real = ocr._run

    def run(program, image, dpi, *args, check=True):
        options = dict(zip(args[:-1:2], args[1::2], strict=False))
        seen.append((image.shape, dpi, options.get("-l", ""), options.get("--psm", "")))
        return real(program, image, dpi, *args, check=check)

    monkeypatch.setattr(ocr, "_run", run)
    return seen


def page_reads(seen, height: int) -> list[tuple[int, str, str]]:
    """The runs that read whole pages (not a strip of one): dpi, languages, segmentation."""
    return [(dpi, langs, psm) for shape, dpi, langs, psm in seen if shape[0] >= height]


@pytest.mark.skipif(PROGRAM is None, reason="Tesseract is not installed")
@needs("eng", "chi_sim", "chi_tra")
def test_a_mostly_chinese_file_is_read_with_simplified_chinese_alone_at_200_dpi(tmp_path, runs):
    font = face(CJK_FONT, 40)
    path = save_pdf(
        tmp_path / "zh.pdf", [page_image(SIMPLIFIED, font), page_image(SIMPLIFIED[::-1], font)]
    )
    text = read(path)
    assert found_share(SIMPLIFIED, text) >= 0.95
    reads = page_reads(runs, 2000)
    assert reads[-1] == (ocr.CHINESE_DPI, "chi_sim", "3")  # the second page: decided
    assert all(langs == "chi_sim" and dpi == ocr.CHINESE_DPI for dpi, langs, _ in reads)
    assert not any("eng+" in langs for _, _, langs, _ in runs)  # the strip alone read English


@pytest.mark.skipif(PROGRAM is None, reason="Tesseract is not installed")
@needs("eng", "chi_sim", "chi_tra")
def test_a_traditional_chinese_file_is_read_with_traditional_chinese(tmp_path, runs):
    font = face(CJK_FONT, 40)
    path = save_pdf(
        tmp_path / "zh-hant.pdf",
        [page_image(TRADITIONAL, font), page_image(TRADITIONAL[::-1], font)],
    )
    text = read(path)
    assert found_share(TRADITIONAL, text) >= 0.9
    assert "審閱" in text and "圖書館" in text
    assert page_reads(runs, 2000)[-1] == (ocr.CHINESE_DPI, "chi_tra", "3")


@pytest.mark.skipif(PROGRAM is None, reason="Tesseract is not installed")
@needs("eng", "chi_sim")
def test_an_english_file_is_read_with_english_alone_at_300_dpi(tmp_path, runs):
    font = face(LATIN_FONT, 34)
    path = save_pdf(
        tmp_path / "en.pdf", [page_image(ENGLISH, font), page_image(ENGLISH[::-1], font)]
    )
    text = read(path)
    assert found_share(ENGLISH, text) >= 0.95
    assert page_reads(runs, 3000) == [(ocr.DPI, "eng", "3")] * 2
    assert len(runs) == 3  # and one strip of the first page, to tell its language


@pytest.mark.skipif(PROGRAM is None, reason="Tesseract is not installed")
@needs("eng", "chi_sim")
def test_a_chinese_page_in_an_english_file_is_read_with_chinese_too(tmp_path, runs):
    path = save_pdf(
        tmp_path / "en-zh.pdf",
        [page_image(ENGLISH, face(LATIN_FONT, 34)), page_image(SIMPLIFIED, face(CJK_FONT, 40))],
    )
    text = read(path)
    assert found_share(ENGLISH, text) >= 0.95
    assert found_share(SIMPLIFIED, text) >= 0.9
    reads = page_reads(runs, 3000)
    assert reads.count((ocr.DPI, "eng", "3")) == 2  # each page with English first
    assert reads[-1] == (ocr.DPI, "eng+chi_sim", "3")  # the Chinese page again, with Chinese


@pytest.mark.skipif(PROGRAM is None, reason="Tesseract is not installed")
@needs("eng", "chi_sim")
def test_an_english_page_in_a_chinese_file_is_read_with_english_too(tmp_path, runs):
    path = save_pdf(
        tmp_path / "zh-en.pdf",
        [page_image(SIMPLIFIED, face(CJK_FONT, 40)), page_image(ENGLISH, face(LATIN_FONT, 34))],
    )
    text = read(path)
    assert found_share(SIMPLIFIED, text) >= 0.95
    assert found_share(ENGLISH, text) >= 0.95
    assert page_reads(runs, 3000)[-1] == (ocr.DPI, "eng+chi_sim", "3")


@pytest.mark.skipif(PROGRAM is None, reason="Tesseract is not installed")
@needs("eng", "chi_sim")
def test_a_page_of_english_and_chinese_paragraphs_is_read_with_both(tmp_path):
    lines = [*ENGLISH[:3], *SIMPLIFIED[:3], *ENGLISH[3:6], *SIMPLIFIED[3:6]]
    page = Image.new("L", (1700, 2200), 255)
    draw = ImageDraw.Draw(page)
    latin, cjk = face(LATIN_FONT, 34), face(CJK_FONT, 40)
    for i, line in enumerate(lines):
        draw.text((200, 200 + 62 * i), line, font=cjk if line in SIMPLIFIED else latin, fill=0)
    text = read(save_pdf(tmp_path / "mixed.pdf", [page]))
    assert found_share(ENGLISH[:6], text) >= 0.95
    # `eng+chi_sim` reads one of the six Chinese lines as Latin letters (as it did before
    # Chinese files were read with Chinese alone)
    assert found_share(SIMPLIFIED[:6], text) >= 0.85


def photographed(page: Image.Image, seed: int) -> Image.Image:
    """A page (300 dpi) photographed on a desk, at 200 dpi, as bench/quality/scanned.py's
    "photo" makes it: turned and in perspective, a dark desk around it, light falling off
    across the page and to its corners, a paper tint, blurred and noisy."""
    rng = random.Random(f"1/x.pdf/{seed}")
    noise = np.random.default_rng(rng.getrandbits(64))
    source = page.size
    w, h = round(source[0] * 2 / 3), round(source[1] * 2 / 3)
    angle = np.radians(rng.choice((-1, 1)) * rng.uniform(0.5, 2.5))
    margin = rng.uniform(0.02, 0.05)
    corners = []
    for x, y in ((0, 0), (w, 0), (w, h), (0, h)):
        x = w / 2 + (x - w / 2) * (1 - 2 * margin) + rng.uniform(-0.03, 0.03) * w
        y = h / 2 + (y - h / 2) * (1 - 2 * margin) + rng.uniform(-0.03, 0.03) * h
        dx, dy = x - w / 2, y - h / 2
        corners.append(
            (
                w / 2 + dx * np.cos(angle) - dy * np.sin(angle),
                h / 2 + dx * np.sin(angle) + dy * np.cos(angle),
            )
        )
    sw, sh = source
    rows, values = [], []
    for (x, y), (u, v) in zip(corners, [(0, 0), (sw, 0), (sw, sh), (0, sh)], strict=True):
        rows += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        values += [u, v]
    data = np.linalg.solve(np.array(rows, float), np.array(values, float)).tolist()
    desk = tuple(rng.randint(40, 90) for _ in range(3))
    image = page.convert("RGB").transform(
        (w, h), Image.Transform.PERSPECTIVE, data, Image.Resampling.BICUBIC, fillcolor=desk
    )
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    direction = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * np.cos(direction) + (yy - h / 2) * np.sin(direction)) / np.hypot(
        w / 2, h / 2
    )
    falloff, vignette = rng.uniform(0.15, 0.3), rng.uniform(0.1, 0.2)
    corner = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    light = 1 - falloff * (ramp + 1) / 2 - vignette * corner
    tint = np.array([1.0, rng.uniform(0.93, 0.98), rng.uniform(0.82, 0.92)], np.float32)
    pixels = np.asarray(image, np.float32) * light[..., None] * tint
    image = Image.fromarray(np.clip(np.rint(pixels), 0, 255).astype(np.uint8))
    image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 0.8)))
    pixels = np.asarray(image, np.float32)
    pixels = pixels + rng.uniform(3, 6) * noise.standard_normal((h, w, 1), dtype=np.float32)
    return Image.fromarray(np.clip(np.rint(pixels), 0, 255).astype(np.uint8))


@pytest.mark.skipif(PROGRAM is None, reason="Tesseract is not installed")
@needs("eng", "chi_sim")
@pytest.mark.parametrize("seed", [2, 3])
def test_a_photographed_page_gets_its_words(tmp_path, seed):
    """Tesseract 5.3's page segmentation reads hardly a word of these two pages (the paper's
    edge on the desk taken for a picture holding the text); read as one block they read."""
    lines = [*ENGLISH, *ENGLISH[:4]]
    page = page_image(lines, face(LATIN_FONT, 34)).resize((2550, 3300))
    path = tmp_path / "photo.pdf"
    photographed(page, seed).save(path, resolution=200, quality=60)
    assert found_share(lines, read(path)) >= 0.9


def text_lines(lines: int) -> np.ndarray:
    """A 200-dpi page image of `lines` lines of text."""
    return np.asarray(page_image(ENGLISH[:lines], face(LATIN_FONT, 34)))


def read_as(found: dict[str, int]):
    """A fake `_tesseract` that reads the first `found[psm]` lines of `text_lines`, each as
    ten words across the line, with confidence 0.9."""

    def tesseract(program, image, languages, dpi=ocr.DPI, segmentation="3"):
        boxes = tuple(
            (f"w{line}x{i}", 0.9, 200 + 130 * i, 200 + 62 * line, 120, 40)
            for line in range(found[segmentation])
            for i in range(10)
        )
        return ocr.OcrPage((" ".join(b[0] for b in boxes),), 0.9, len(boxes), word_boxes=boxes)

    return tesseract


def test_a_page_whose_segmentation_missed_most_of_its_ink_is_read_as_one_block(monkeypatch):
    calls: list[str] = []
    fake = read_as({"3": 2, "6": 10})
    monkeypatch.setattr(ocr, "_tesseract", lambda *a: calls.append((*a, "3")[4]) or fake(*a))
    page = ocr.read_image("tesseract", text_lines(10), "eng+chi_sim", ocr.CHINESE_DPI)
    assert calls == ["3", "6"]
    assert page.words == 100


def test_a_page_read_whole_by_its_segmentation_is_read_once(monkeypatch):
    calls: list[tuple] = []
    fake = read_as({"3": 10, "6": 10})
    monkeypatch.setattr(ocr, "_tesseract", lambda *a: calls.append(a) or fake(*a))
    page = ocr.read_image("tesseract", text_lines(10), "eng+chi_sim", ocr.CHINESE_DPI)
    assert len(calls) == 1 and page.words == 100


def test_the_desk_around_a_photographed_page_is_no_ink():
    page = Image.new("L", (1700, 2200), 60)  # a dark desk
    page.paste(Image.fromarray(text_lines(10)).resize((1500, 2000)), (100, 100))
    ink = ocr._ink_cells(np.asarray(page), 200)
    rows = np.flatnonzero(ink.text.any(axis=1)) * ink.cell
    columns = np.flatnonzero(ink.text.any(axis=0)) * ink.cell
    assert rows.min() > 200 and rows.max() < 1000  # the lines, not the paper's edges
    assert columns.min() > 200 and columns.max() < 1500


def test_a_strip_holds_the_first_lines_of_a_page():
    image = text_lines(10)
    strip = ocr._text_strip(image, ocr._ink_cells(image, 200))
    assert strip is not None
    assert 62 < strip.shape[0] < 5 * 62  # a few lines
    assert strip.shape[1] < image.shape[1] // 2
    assert ocr._text_strip(text_lines(1), ocr._ink_cells(text_lines(1), 200)) is None


def chinese_reading(script_words: list[float], other_words: list[float], script: str):
    """A reading whose words with characters written otherwise in the other script (这/這)
    have confidences `script_words`, its other Chinese words `other_words`."""
    specific = "这" if script == "simplified" else "這"
    boxes = tuple((specific, c, 0, 0, 1, 1) for c in script_words)
    boxes += tuple(("的", c, 0, 0, 1, 1) for c in other_words)
    mean = sum(b[1] for b in boxes) / len(boxes)
    return ocr.OcrPage(("".join(b[0] for b in boxes),), mean, len(boxes), word_boxes=boxes)


def test_simplified_or_traditional_is_told_by_the_words_the_two_write_otherwise():
    pytest.importorskip("opencc")
    simplified = chinese_reading([0.93] * 20, [0.92] * 30, "simplified")
    assert not ocr._maybe_traditional(simplified)  # no second reading
    # chi_sim reading Traditional print: its words written otherwise are read poorly
    doubtful = chinese_reading([0.80] * 20, [0.88] * 30, "simplified")
    assert ocr._maybe_traditional(doubtful)
    # as measured on scans: Traditional print whose such words chi_sim reads hardly less
    # confidently than its others, but poorly, is read again; a clean Simplified page whose
    # such words read a little less confidently (0.87 against 0.90) is not
    assert ocr._maybe_traditional(chinese_reading([0.83] * 20, [0.84] * 30, "simplified"))
    assert not ocr._maybe_traditional(chinese_reading([0.87] * 20, [0.90] * 30, "simplified"))
    assert ocr._maybe_traditional(chinese_reading([0.95] * 3, [0.95] * 30, "simplified"))
    traditional = chinese_reading([0.93] * 20, [0.93] * 30, "traditional")
    assert ocr._reads_traditional(doubtful, traditional)
    # a Simplified page read with chi_tra: hardly more confident, Simplified is kept
    assert not ocr._reads_traditional(simplified, chinese_reading([0.95] * 20, [0.9] * 30, "t"))
