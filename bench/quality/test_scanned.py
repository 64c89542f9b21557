"""The scanned tier's helpers: CER, the sample, the degradation plan, the degradations,
page timings (fast: no corpus, no OCR, no LibreOffice).

python -m pytest bench/quality/test_scanned.py
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from bench.quality import scanned


def _levenshtein(a: str, b: str) -> int:
    """The textbook table, for checking."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, start=1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def test_edit_distance_matches_the_textbook_table():
    rng = random.Random(3)
    for _ in range(300):
        a = "".join(rng.choice("abc汉字") for _ in range(rng.randint(0, 12)))
        b = "".join(rng.choice("abc汉字") for _ in range(rng.randint(0, 12)))
        assert scanned.edit_distance(a, b) == _levenshtein(a, b), (a, b)
    assert scanned.edit_distance("kitten", "sitting") == 3
    assert scanned.edit_distance("", "abc") == scanned.edit_distance("abc", "") == 3


def test_cer_ignores_whitespace_and_width():
    assert scanned.cer("Hello,  world\n第二段", "Hello,world 第二段") == (0, 14)
    assert scanned.cer("数据，系统", "数据,系统") == (0, 5)  # NFKC: full-width comma
    assert scanned.cer("ab cd", "") == (4, 4)
    assert scanned.cer("`a` b", "'a' b", letters_only=True) == (0, 2)
    assert scanned.cer("`a` b", "'a' b") == (2, 4)


def test_sample_takes_whole_groups_of_every_kind():
    # groups: (0, 1) exact; (2, 3, 4) format; (5, 6) edit; (7, 8) partial
    pairs = [(0, 1, "exact"), (2, 3, "format"), (2, 4, "format"), (5, 6, "edit")]
    pairs += [(7, 8, "partial")]
    negatives = [[9, 10], [11], [12]]
    chosen = scanned.choose_sample(pairs, negatives, 10, random.Random(1), 0.3)
    assert len(chosen) <= 10
    for a, b, _ in pairs:  # never half a group
        assert (a in chosen) == (b in chosen)
    kinds = {k for a, _, k in pairs if a in chosen}
    assert len(kinds) >= 3
    assert {9, 10} <= set(chosen)  # the template group first
    everything = scanned.choose_sample(pairs, negatives, 0, random.Random(1))
    assert everything == list(range(13))


def test_components():
    assert scanned.components(6, [(0, 1), (1, 2), (4, 5)]) == [[0, 1, 2], [4, 5]]


def test_degradation_plan_deals_every_kind_per_language():
    documents = [{"file": f"docs/d{i:05d}.pdf", "lang": "en" if i % 2 else "zh"} for i in range(26)]
    copy_of = {"d00025.pdf": "d00001.pdf"}
    plan = scanned.degradation_plan(documents, copy_of, 5)
    assert plan == scanned.degradation_plan(documents, copy_of, 5)
    assert plan["d00025.pdf"] == plan["d00001.pdf"]
    for lang in ("en", "zh"):
        names = [
            d["file"][5:] for d in documents if d["lang"] == lang and d["file"][5:] not in copy_of
        ]
        counts = [sum(plan[n] == k for n in names) for k in scanned.DEGRADATIONS]
        assert max(counts) - min(counts) <= 1


def test_perspective_coefficients_map_the_corners():
    to = [(10, 12), (95, 5), (100, 140), (3, 130)]
    frm = [(0, 0), (100, 0), (100, 150), (0, 150)]
    a, b, c, d, e, f, g, h = scanned.perspective_coefficients(to, frm)
    for (x, y), (u, v) in zip(to, frm, strict=True):
        w = g * x + h * y + 1
        assert (a * x + b * y + c) / w == pytest.approx(u)
        assert (d * x + e * y + f) / w == pytest.approx(v)


@pytest.mark.parametrize("kind", scanned.DEGRADATIONS)
def test_degradations_keep_the_size_and_repeat(kind):
    from PIL import Image, ImageDraw

    page = Image.new("L", (240, 300), 255)
    ImageDraw.Draw(page).text((20, 40), "Some text 文字", fill=0)
    if kind == "photo":
        page = page.convert("RGB")
    one = scanned.degrade(page, kind, random.Random(4))
    two = scanned.degrade(page, kind, random.Random(4))
    assert one.size == page.size
    assert one.mode == page.mode
    assert np.array_equal(np.asarray(one), np.asarray(two))
    if kind.startswith("clean"):
        assert one is page
    else:
        assert not np.array_equal(np.asarray(one), np.asarray(page))


def test_scan_pdf_writes_an_image_only_pdf(tmp_path):
    import pypdfium2
    from PIL import Image, ImageDraw

    page = Image.new("L", (200, 300), 255)  # 2 x 3 inches
    ImageDraw.Draw(page).text((50, 100), "Hello", fill=0)
    source = tmp_path / "text.pdf"
    page.save(source, resolution=100)
    for kind, dpi in (("clean-300", 300), ("clean-200", 200), ("photo", 200)):
        target = tmp_path / f"{kind}.pdf"
        assert scanned.scan_pdf(str(source), str(target), kind, "1") == 1
        document = pypdfium2.PdfDocument(str(target))
        width, height = document[0].get_size()
        assert (round(width), round(height)) == (144, 216)  # whatever the dpi
        objects = document[0].get_objects()
        pictures = [o for o in objects if o.type == pypdfium2.raw.FPDF_PAGEOBJ_IMAGE]
        assert len(pictures) == 1
        px_width, px_height = pictures[0].get_px_size()  # PDFium rounds up a pixel at times
        assert abs(px_width - 2 * dpi) <= 1 and abs(px_height - 3 * dpi) <= 1
        assert document[0].get_textpage().get_text_range() == ""
        document.close()


def test_file_seconds_from_page_reports():
    events = {
        "/a.pdf": [(10.0, 0), (14.0, 1), (17.5, 2)],
        "/b.pdf": [(11.0, 1)],  # no start: left out
    }
    finished = {"/a.pdf": 18.0, "/b.pdf": 20.0}
    assert scanned.file_seconds(events, finished) == {"/a.pdf": (8.0, [4.0, 3.5])}


def test_mixed_labels_scan_only_derived_documents():
    labels = {
        "documents": [{"file": "docs/a.pdf"}, {"file": "docs/b.pdf"}, {"file": "docs/c.pdf"}],
        "pairs": [{"a": "docs/a.pdf", "b": "docs/b.pdf", "kind": "edit"}],
    }
    mixed = scanned.mixed_labels(labels)
    assert [d["file"] for d in mixed["documents"]] == [
        "text/docs/a.pdf",
        "scanned/docs/b.pdf",
        "text/docs/c.pdf",
    ]
    assert mixed["pairs"] == [{"a": "text/docs/a.pdf", "b": "scanned/docs/b.pdf", "kind": "edit"}]
