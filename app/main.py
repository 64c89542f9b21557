"""Entry point of `simsift-gui` and `python -m simsift.app`.

Only Qt and the light parts of `core` load here, so the window appears at once. Text
extraction runs in the scan's worker processes; jieba loads in this process on first use,
off the GUI thread: when a scan fingerprints (the stopword list is segmented) and when the
side-by-side view aligns Chinese text.
"""

from __future__ import annotations

import argparse
import sys


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="simsift-gui", description="SimSift desktop app")
    parser.add_argument("folders", nargs="*", help="folders to scan at once")
    parser.add_argument("--language", choices=["en", "zh_CN"], help="UI language for this run")
    # for smoke tests of installed and frozen builds: quit cleanly after MS milliseconds
    parser.add_argument("--quit-after", type=int, metavar="MS", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Open the main window; scan FOLDER arguments at once."""
    from PySide6.QtWidgets import QApplication

    argv = sys.argv if argv is None else argv
    args = parse_args(argv[1:])
    QApplication.setOrganizationName("SimSift")
    QApplication.setApplicationName("SimSift")
    app = QApplication(argv[:1])
    app.setDesktopFileName("simsift")  # Wayland matches the window to simsift.desktop by this
    app.setWindowIcon(_app_icon())
    window = build_window(args)
    window.show()
    if args.folders:
        window.folders.add_paths(args.folders)
        window.start_scan()
    else:
        window.reopen_last_results()
    if args.quit_after is not None:
        from PySide6.QtCore import QTimer

        QTimer.singleShot(args.quit_after, window.close)
        QTimer.singleShot(args.quit_after, app.quit)
    return app.exec()


def _app_icon():
    from PySide6.QtGui import QIcon
    from simsift.core.paths import resource_path

    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        icon.addFile(str(resource_path("icons", f"simsift-{size}.png")))
    return icon


def build_window(args: argparse.Namespace):
    """The main window with the user's settings, catalog and language."""
    from simsift.app.i18n import Translations
    from simsift.app.main_window import MainWindow
    from simsift.app.settings import Settings

    settings = Settings()
    translations = Translations()
    translations.install(args.language or settings.language)
    return MainWindow(settings, _open_catalog(), translations)


def _open_catalog():
    """The user's catalog, or None (scans still work, without reuse) if it cannot be opened."""
    from simsift.core.store.catalog import Catalog, CatalogError, default_catalog_path

    try:
        catalog = Catalog(default_catalog_path())
    except CatalogError as error:
        print(f"simsift-gui: {error}", file=sys.stderr)
        return None
    if catalog.recovery is not None:  # a damaged catalog was replaced by an empty one
        print(f"simsift-gui: {catalog.recovery.message}", file=sys.stderr)
    return catalog
