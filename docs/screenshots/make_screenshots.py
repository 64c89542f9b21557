"""Screenshots of the main states for the README: python docs/screenshots/make_screenshots.py

Runs the real window (offscreen unless DISPLAY is set) on a sample folder, with settings,
catalog and trash in a temporary folder, and saves PNGs next to this script.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import simsift.app.workers.scan  # noqa: E402
from PySide6.QtCore import QSettings, QTimer  # noqa: E402
from PySide6.QtGui import QColor, QPalette  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from simsift.app.dialogs.text import ExtractedTextDialog  # noqa: E402
from simsift.app.i18n import Translations  # noqa: E402
from simsift.app.main_window import MainWindow  # noqa: E402
from simsift.app.settings import Settings  # noqa: E402
from simsift.core.pipeline.scan import scan as real_scan  # noqa: E402
from simsift.core.store.catalog import Catalog  # noqa: E402

from tests.core.corpus import write_corpus  # noqa: E402


def make_sample(root: Path) -> dict[str, Path]:
    paths = write_corpus(root / "essays")
    samples = HERE.parents[1] / "tests" / "data" / "extract"
    for name in ("article_zh.html", "article_zh.docx", "article_en.pdf", "corrupt.docx"):
        shutil.copy(samples / name, root / "essays" / name)
    essay = (samples / "zh_utf8_lines.txt").read_text(encoding="utf-8").rstrip() + "。"
    (root / "essays" / "cut_mid_character.txt").write_bytes(essay.encode("utf-8")[:-1])
    (root / "essays" / "scan.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    return paths


def make_class(root: Path) -> None:
    """A class of 24 essays: most their own, a collage of three classmates, a group of
    three sharing paragraphs, and a lightly edited copy."""
    import random

    from tests.core.corpus import edit_words
    from tests.core.test_passages import english_paragraphs

    rng = random.Random(7)
    pool = rng.sample(english_paragraphs()[100:], 24 * 9)
    essays = [pool[i * 9 : (i + 1) * 9] for i in range(24)]
    essays[3] = essays[3][:3] + essays[1][2:4] + essays[3][3:5] + essays[7][5:7] + essays[9][:1]
    for member in (11, 12):
        essays[member] = essays[member][:6] + essays[10][4:7]
    essays[15] = [edit_words(p, 2, seed=i) for i, p in enumerate(essays[14])]
    folder = root / "class 2026"
    folder.mkdir()
    names = [f"student {i + 1:02d}.txt" for i in range(24)]
    for name, paragraphs in zip(names, essays, strict=True):
        (folder / name).write_text("\n\n".join(paragraphs), encoding="utf-8")


def wait(app: QApplication, condition, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def save(window: MainWindow, name: str) -> None:
    QApplication.processEvents()
    window.grab().save(str(HERE / name), "PNG", 9)
    print(name, (HERE / name).stat().st_size // 1024, "KB")


def dark_palette() -> QPalette:
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#2b2b2b", QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1e1e", QPalette.ColorRole.AlternateBase: "#262626",
        QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#353535",
        QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.Highlight: "#2a7ae2",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#353535",
        QPalette.ColorRole.ToolTipText: "#e6e6e6", QPalette.ColorRole.PlaceholderText: "#8c8c8c",
        QPalette.ColorRole.Light: "#505050", QPalette.ColorRole.Midlight: "#404040",
        QPalette.ColorRole.Mid: "#303030", QPalette.ColorRole.Dark: "#202020",
        QPalette.ColorRole.Shadow: "#101010",
    }  # fmt: skip
    for role, colour in roles.items():
        palette.setColor(role, QColor(colour))
    return palette


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="simsift-shots-"))
    os.environ["XDG_DATA_HOME"] = str(tmp / "xdg")
    application = QApplication(sys.argv[:1])
    application.setStyle("Fusion")
    paths = make_sample(tmp)
    settings = Settings(QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat))
    translations = Translations()
    translations.install("en")
    window = MainWindow(settings, Catalog(tmp / "catalog.db"), translations, workers=1)
    window.resize(1360, 860)
    window.show()
    save(window, "empty.png")

    def slow_scan(options, *, progress, **kwargs):
        def slow(report):
            time.sleep(0.25)  # slow enough to photograph the progress bar
            progress(report)

        return real_scan(options, progress=slow, **kwargs)

    simsift.app.workers.scan.scan = slow_scan
    window.folders.add_paths([str(tmp / "essays")])
    window.start_scan()
    wait(application, lambda: "Reading" in window.scan_status._counts.text()
         and window.scan_status._rate.text() != "")  # fmt: skip
    save(window, "scanning.png")
    wait(application, lambda: window.result is not None)
    save(window, "results.png")

    docs = {d.path: i for i, d in enumerate(window.result.documents)}
    window.select_documents([docs[str(paths["edited"])]])
    QTimer.singleShot(0, lambda: None)
    wait(application, lambda: False, timeout=1.5)  # let the side-by-side view align
    save(window, "side_by_side.png")

    window.tabs.setCurrentWidget(window.problems_panel)
    wait(application, lambda: False, timeout=0.5)
    save(window, "problems.png")
    window.tabs.setCurrentIndex(0)
    dialog = ExtractedTextDialog(window.result.documents[docs[str(paths["edited"])]], window)
    dialog.show()
    wait(application, lambda: False, timeout=0.5)
    dialog.grab().save(str(HERE / "extracted_text.png"), "PNG", 9)
    dialog.close()

    class_shots(application, window, tmp)

    window.set_language("zh_CN")
    wait(application, lambda: window.scan_button.text() == "扫描", timeout=5)
    save(window, "chinese_ui.png")
    window.set_language("en")
    application.setPalette(dark_palette())
    wait(application, lambda: False, timeout=0.5)
    save(window, "dark_mode.png")
    window.close()
    shutil.rmtree(tmp, ignore_errors=True)


def class_shots(application: QApplication, window: MainWindow, tmp: Path) -> None:
    """The teacher's views on a class: Documents and Overview."""
    make_class(tmp)
    simsift.app.workers.scan.scan = real_scan
    window.folders._list.selectAll()
    window.folders.remove_selected()
    window.folders.add_paths([str(tmp / "class 2026")])
    window.start_scan()
    wait(application, lambda: "class 2026" in window.result.documents[0].path)
    window.tabs.setCurrentWidget(window.documents_panel)
    window.documents_panel.table.selectRow(0)
    wait(application, lambda: False, timeout=0.5)
    save(window, "documents.png")
    window.tabs.setCurrentWidget(window.overview_panel)
    wait(application, lambda: False, timeout=0.5)
    save(window, "overview.png")
    window.tabs.setCurrentWidget(window.partial_panel)
    window.partial_panel.view.selectRow(0)
    wait(application, lambda: False, timeout=1.5)  # let the side-by-side view align
    save(window, "partial.png")
    window.tabs.setCurrentIndex(0)


if __name__ == "__main__":
    main()
