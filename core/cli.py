"""Command line.

simsift scan PATH... [--k K] [--out DIR] [--format csv|json]
simsift archive add PATH... --archive DIR
simsift archive list --archive DIR
simsift archive remove PATH... --archive DIR
simsift check PATH... --archive DIR [--k K] [--out DIR] [--format csv|json]
"""

# ruff: noqa: E402  (numpy is imported after its BLAS settings)
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

# numpy's OpenBLAS gives each of its threads (one a core) a buffer when numpy is imported,
# and aborts the process, no exception, when a small address space (ulimit -v) cannot hold
# them. The engine does no linear algebra (hashing, sorting, searching: no BLAS), so one
# thread does; the reader processes inherit the setting.
for _blas in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_blas, "1")

OUT_OF_MEMORY = (
    "out of memory{detail}; close other programs, raise the memory limit (ulimit -v) "
    "or scan fewer files at once"
)


OUT_OF_MEMORY_LIMITED = (
    "simsift: out of memory under the memory limit (ulimit -v): Python itself failed; "
    "raise the limit or scan fewer files at once"
)


def out_of_memory_message(error: BaseException) -> str | None:
    """The sentence for an error that means memory ran out (also a library that could
    not be mapped into a full address space), else None."""
    if isinstance(error, MemoryError):
        said = str(error)
        if said.startswith("out of memory"):  # says what needed it
            advice = OUT_OF_MEMORY.format(detail="").removeprefix("out of memory")
            return f"simsift: {said}{advice}"
        return "simsift: " + OUT_OF_MEMORY.format(detail=f" ({said})" if said else "")
    text = str(error).lower()
    if isinstance(error, (ImportError, OSError)) and (
        "failed to map segment" in text or "cannot allocate memory" in text
    ):
        return "simsift: " + OUT_OF_MEMORY.format(detail=" while loading its libraries")
    return None


def _startup_failure(kind, error, trace) -> None:
    """While the modules below load (before main's own handlers): memory running out is
    one sentence, not a traceback (the exit code stays 1)."""
    message = out_of_memory_message(error)
    if message is None:
        _previous_hook(kind, error, trace)
    else:
        print(message, file=sys.stderr)


# numpy maps this much address space when imported (libraries, one BLAS thread's buffer)
NUMPY_ADDRESS_SPACE = 100 * 1024**2


def address_space_left() -> int | None:
    """Bytes this process may still map under its address-space limit (ulimit -v), or
    None when there is no limit or the platform does not say (Linux only)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/status", encoding="ascii") as f:
            used = next(int(line.split()[1]) for line in f if line.startswith("VmSize:"))
    except (ImportError, OSError, ValueError, StopIteration):
        return None
    return soft - used * 1024


def _memory_limited() -> bool:
    """Whether this process runs under an address-space limit (allocates nothing)."""
    try:
        import resource

        return resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY
    except (ImportError, OSError, ValueError, MemoryError):
        return False


def _check_address_space() -> None:
    """Exit with a sentence where numpy's OpenBLAS would abort the process (it cannot be
    caught) for want of address space."""
    left = address_space_left()
    if "numpy" not in sys.modules and left is not None and left < NUMPY_ADDRESS_SPACE:
        sys.exit(
            f"simsift: out of memory: the memory limit (ulimit -v) leaves {max(left, 0) >> 20} "
            f"MB, too little to start (loading its libraries takes about "
            f"{NUMPY_ADDRESS_SPACE >> 20} MB); raise the limit"
        )


if __name__ != "__mp_main__":  # not in a reader process's start-up
    _check_address_space()
_previous_hook, sys.excepthook = sys.excepthook, _startup_failure
import numpy as np
from simsift.core import __version__
from simsift.core.analysis.cluster import KIND_NAMES
from simsift.core.match.passages import PassageOptions
from simsift.core.match.verbatim import SHARE_MIN_RUN
from simsift.core.pipeline.options import DEFAULT_K, MAX_K, ScanOptions
from simsift.core.pipeline.result import ScanResult
from simsift.core.pipeline.scan import scan
from simsift.core.progress import Cancelled, CancelToken, Progress, format_duration, throughput
from simsift.core.report.language import LANGUAGES, environment_language

sys.excepthook = _previous_hook


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="simsift", description="Find near-duplicate documents.")
    parser.add_argument("--version", action="version", version=f"SimSift {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("scan", help="scan folders and report near-duplicates")
    s.add_argument("paths", nargs="+", metavar="PATH", help="folders or files to scan")
    _add_report_options(s)
    s.add_argument(
        "--html",
        type=Path,
        default=None,
        metavar="FILE",
        help="also write the report as one HTML page to hand over (settings, decisions, "
        "excerpts of the matched text)",
    )
    s.add_argument(
        "--html-language",
        choices=LANGUAGES,
        default=None,
        help="language of the HTML report (default: from LC_ALL, LC_MESSAGES or LANG)",
    )
    s.add_argument(
        "--reference", action="append", default=[], metavar="PATH", help="reference folder"
    )
    _add_reading_options(s)
    s.add_argument(
        "--catalog", type=Path, default=None, help="catalog file (default: user data dir)"
    )
    s.add_argument("--no-catalog", action="store_true", help="read every file, remember nothing")
    s.add_argument("--quiet", action="store_true", help="no progress output")
    c = commands.add_parser(
        "check",
        help="check new documents against an archive (and each other); archive documents "
        "are not compared with each other",
    )
    c.add_argument("paths", nargs="+", metavar="PATH", help="new folders or files")
    c.add_argument("--archive", type=Path, required=True, metavar="DIR", help="archive folder")
    c.add_argument(
        "--reference",
        action="append",
        default=[],
        metavar="PATH",
        help="reference folder (a prompt, a template): text matching it never counts",
    )
    _add_report_options(c)
    _add_reading_options(c)
    c.add_argument("--quiet", action="store_true", help="no progress output")
    a = commands.add_parser("archive", help="add to, list or remove from an archive")
    actions = a.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="read folders into the archive (created if missing)")
    add.add_argument("paths", nargs="+", metavar="PATH", help="folders or files to archive")
    add.add_argument("--archive", type=Path, required=True, metavar="DIR", help="archive folder")
    _add_reading_options(add)
    add.add_argument("--quiet", action="store_true", help="no progress output")
    listing = actions.add_parser("list", help="print the archived documents' paths")
    listing.add_argument("--archive", type=Path, required=True, metavar="DIR")
    remove = actions.add_parser("remove", help="remove documents by their archived path")
    remove.add_argument("paths", nargs="+", metavar="PATH", help="paths as `archive list` shows")
    remove.add_argument("--archive", type=Path, required=True, metavar="DIR")
    return parser


def _add_report_options(s: argparse.ArgumentParser) -> None:
    """Options of commands that write a report (scan, check)."""
    k_help = f"max Hamming distance, 0..{MAX_K} (default {DEFAULT_K})"
    s.add_argument("--k", type=int, default=DEFAULT_K, help=k_help)
    s.add_argument("--out", type=Path, default=Path("simsift-report"), help="output folder")
    s.add_argument("--format", choices=("csv", "json"), default="csv")
    s.add_argument(
        "--partial-threshold",
        type=float,
        default=PassageOptions().partial_threshold,
        metavar="SHARE",
        help="report a pair as partial when this share of either document (0..1) is "
        f"found in the other (default {PassageOptions().partial_threshold})",
    )
    defaults = PassageOptions()
    s.add_argument(
        "--partial-run",
        type=int,
        default=defaults.partial_min_run,
        metavar="N",
        help="the shortest match: shared runs of fewer than N words (Chinese: jieba words) "
        "never count as copying, and two documents sharing N words in a row are a partial "
        "copy whatever the share; template and common text do not count (0: by share "
        f"only, the shortest match then {defaults.shortest_run}; default "
        f"{defaults.partial_min_run})",
    )
    s.add_argument(
        "--count-quotes",
        action="store_true",
        help='count text in quotation marks (“…”, "…", «…», 「…」, and paragraphs that are '
        "one quotation) as copying; by default it is shown but never counted",
    )
    s.add_argument(
        "--count-bibliography",
        action="store_true",
        help="count the references section (References, Bibliography, Works cited, 参考文献, "
        "... to the end or an appendix) as copying; by default it is shown but never counted",
    )
    s.add_argument(
        "--common-docs",
        type=int,
        default=defaults.common_max_docs,
        metavar="N",
        help="text found in more than N documents is common text, never copying "
        f"(default {defaults.common_max_docs})",
    )
    s.add_argument(
        "--common-share",
        type=float,
        default=defaults.common_share,
        metavar="SHARE",
        help="so is text found in more than this share of the documents (and in at least "
        f"{defaults.common_min_docs}) (default {defaults.common_share})",
    )
    s.add_argument(
        "--paraphrase",
        action="store_true",
        help="look for paraphrased passages too: the same sentences said in other words "
        "(synonyms, reordered clauses), which share no run of words; found, they are "
        "reported apart from word-for-word copying (meaning.csv, the paraphrased share). "
        "Off by default: in an archive of related documents most of what it finds is "
        "documents saying similar things; for a class of essays, turn it on",
    )
    s.add_argument(
        "--no-translation",
        action="store_true",
        help="do not look for translated passages: text translated between Chinese and "
        "English; found, they are reported apart from word-for-word copying (meaning.csv, "
        "the translated share)",
    )


def _add_reading_options(s: argparse.ArgumentParser) -> None:
    """Options of commands that read files (scan, check, archive add)."""
    s.add_argument(
        "--exclude", action="append", default=[], metavar="GLOB", help="skip matching files"
    )
    s.add_argument(
        "--compare-garbled",
        action="store_true",
        help="also compare documents whose text looks garbled (a misread encoding)",
    )
    s.add_argument(
        "--no-ocr",
        action="store_true",
        help="do not read scans and pictures of text by OCR: scanned PDFs are listed as "
        "errors, scanned pages and pictures in documents are left out with a warning",
    )
    s.add_argument(
        "--follow-links",
        action="store_true",
        help="also read files that links point to outside the scanned folders",
    )
    s.add_argument(
        "--workers", type=int, default=None, help="reader processes (default: all cores)"
    )
    s.add_argument(
        "--scheduler",
        default="",
        metavar="ADDRESS",
        help="read files and search pairs on a Dask cluster (tcp://HOST:8786; needs pip "
        'install "simsift[distributed]")',
    )
    s.add_argument(
        "--ship-files",
        action="store_true",
        help="send the files' bytes to the cluster (workers without a shared filesystem)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    for path in [*getattr(args, "paths", ()), *getattr(args, "reference", ())]:
        if not os.path.exists(path) and getattr(args, "action", "") != "remove":
            parser.error(f"no such file or folder: {path}")
    if getattr(args, "workers", None) is not None and args.workers < 0:
        parser.error("--workers must be 0 or more")
    if args.command in ("scan", "check"):
        _check_report_options(parser, args)
    # file names that are not valid UTF-8 are printed with escapes, never a traceback
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")
    if getattr(args, "ship_files", False) and not args.scheduler:
        parser.error("--ship-files needs --scheduler")
    try:  # the first imports of the engine: they too can find memory short
        import sqlite3

        from simsift.core.pipeline.distributed import ClusterError
        from simsift.core.store.archive import ArchiveError
        from simsift.core.store.catalog import CatalogError
    except (MemoryError, ImportError) as error:  # ImportError: a library not mapped
        if (message := out_of_memory_message(error)) is None:
            raise
        print(message, file=sys.stderr)
        return 1

    # what the machine cannot give (memory, disk space, permission, a cluster) ends in one
    # sentence and a non-zero exit code, never a traceback
    try:
        if args.command == "scan":
            return run_scan(args)
        if args.command == "check":
            return run_check(args)
        return {"add": run_archive_add, "list": run_archive_list, "remove": run_archive_remove}[
            args.action
        ](args)
    except (ArchiveError, ClusterError) as error:
        print(f"simsift: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # outside a scan's own handling (writing the report)
        print("simsift: interrupted", file=sys.stderr)
        return 130
    except MemoryError as error:
        print(out_of_memory_message(error), file=sys.stderr)
        return 1
    except SystemError:  # Python itself failing: under a memory limit, for want of memory
        if not _memory_limited():
            raise
        print(OUT_OF_MEMORY_LIMITED, file=sys.stderr)
        return 1
    except (CatalogError, sqlite3.Error) as error:
        print(
            f"simsift: the catalog failed ({error}); try again with --no-catalog or another "
            "--catalog file",
            file=sys.stderr,
        )
        return 2
    except OSError as error:
        if (message := out_of_memory_message(error)) is not None:  # a library not mapped
            print(message, file=sys.stderr)
            return 1
        print(os_error_message(error), file=sys.stderr)
        return 2


def os_error_message(error: OSError) -> str:
    """One sentence for a failure of the machine (a full disk, a permission, a lost
    connection), naming the file when there is one."""
    memory = out_of_memory_message(error)
    if memory is not None:
        return memory
    reason = error.strerror or str(error) or type(error).__name__
    where = f" ({os.fsdecode(error.filename)})" if error.filename is not None else ""
    return f"simsift: stopped: {reason}{where}"


def interrupted_message(catalog) -> str:
    """What a scan interrupted by Ctrl+C kept."""
    if catalog is None:
        return (
            "simsift: scan interrupted; nothing was kept (no catalog): the next scan reads "
            "every file again"
        )
    return "simsift: scan interrupted; files read so far are kept in the catalog"


def _check_report_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if not 0 <= args.k <= MAX_K:
        parser.error(f"--k must be between 0 and {MAX_K}, not {args.k}")
    if not 0.0 <= args.partial_threshold <= 1.0:
        parser.error(f"--partial-threshold must be between 0 and 1, not {args.partial_threshold}")
    if args.partial_run < 0:
        parser.error(f"--partial-run must be 0 or more, not {args.partial_run}")
    if args.common_docs < 2:
        parser.error(f"--common-docs must be at least 2, not {args.common_docs}")
    if not 0.0 <= args.common_share <= 1.0:
        parser.error(f"--common-share must be between 0 and 1, not {args.common_share}")
    from simsift.core.report.tables import ReportError, check_output_folder

    try:
        check_output_folder(args.out)
        if getattr(args, "html", None) is not None:  # scan only
            check_output_folder(args.html.parent)
    except ReportError as error:
        parser.error(str(error))


def scan_options(args: argparse.Namespace) -> ScanOptions:
    """Scan options from the parsed command line (the report options where the command
    has them)."""
    passages = (
        PassageOptions(
            partial_threshold=args.partial_threshold,
            partial_min_run=args.partial_run,
            common_max_docs=args.common_docs,
            common_share=args.common_share,
            count_quotations=args.count_quotes,
            count_bibliography=args.count_bibliography,
            paraphrase=args.paraphrase,
            translation=not args.no_translation,
        )
        if hasattr(args, "k")
        else PassageOptions()
    )
    return ScanOptions(
        roots=tuple(args.paths),
        reference_roots=tuple(getattr(args, "reference", ())),
        exclude=tuple(args.exclude),
        follow_outside_links=args.follow_links,
        compare_garbled=args.compare_garbled,
        ocr=not args.no_ocr,
        k_max=getattr(args, "k", DEFAULT_K),
        passages=passages,
        scheduler=args.scheduler,
        ship_files=args.ship_files,
        **({"workers": args.workers} if args.workers is not None else {}),
    )


def run_scan(args: argparse.Namespace) -> int:
    options = scan_options(args)
    reporter = _TerminalProgress(enabled=not args.quiet and sys.stderr.isatty())
    started = time.monotonic()
    catalog = None if args.no_catalog else _open_catalog(args.catalog)
    ignored = _ignored_pairs(catalog)
    try:
        result = scan(
            options,
            catalog=catalog,
            ignored=ignored,
            progress=reporter,
            cancel=CancelToken(),
        )
    except (Cancelled, KeyboardInterrupt):
        reporter.finish()
        print(interrupted_message(catalog), file=sys.stderr)
        return 130
    finally:
        verdicts = _verdicts(catalog)
        if catalog is not None:
            catalog.close()
    reporter.finish()
    from simsift.core.report.tables import ReportError, write_report

    try:
        written = write_report(result, args.k, args.out, args.format, verdicts=verdicts)
    except ReportError as error:
        print(summary(result, args.k, time.monotonic() - started))
        print(f"simsift: {error}; the previous report there is unchanged", file=sys.stderr)
        return 1
    if args.html is not None:
        try:
            written.append(_write_html(result, args, verdicts, ignored))
        except OSError as error:
            print(summary(result, args.k, time.monotonic() - started))
            print(f"simsift: cannot write {args.html}: {error.strerror or error}", file=sys.stderr)
            return 1
    print(summary(result, args.k, time.monotonic() - started))
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


def _write_html(result: ScanResult, args: argparse.Namespace, verdicts, ignored) -> Path:
    from simsift.core.report.html import write_html_report

    return write_html_report(
        result,
        result.clusters(args.k),
        args.html,
        verdicts=verdicts,
        dismissed=ignored,
        language=args.html_language or environment_language(),
    )


def run_check(args: argparse.Namespace) -> int:
    """`simsift check`: new documents against an archive, report as `scan` writes it."""
    from simsift.core.pipeline.check import check
    from simsift.core.report.tables import ReportError, write_report
    from simsift.core.store.archive import Archive

    archive = Archive.open(args.archive)
    reporter = _TerminalProgress(enabled=not args.quiet and sys.stderr.isatty())
    started = time.monotonic()
    try:
        result = check(archive, scan_options(args), progress=reporter, cancel=CancelToken())
    except (Cancelled, KeyboardInterrupt):
        reporter.finish()
        print("simsift: check interrupted", file=sys.stderr)
        return 130
    reporter.finish()
    lines = check_summary(result, args.k, len(archive), time.monotonic() - started)
    try:
        written = write_report(result, args.k, args.out, args.format)
    except ReportError as error:
        print(lines)
        print(f"simsift: {error}; the previous report there is unchanged", file=sys.stderr)
        return 1
    print(lines)
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


def check_summary(result: ScanResult, k: int, archived: int, seconds: float) -> str:
    """A few lines a user reads after a check."""
    from simsift.core.pipeline.check import ARCHIVE_MARK

    is_old = np.array([d.path.startswith(ARCHIVE_MARK) for d in result.documents], bool)
    pairs = result.pairs.within(k)
    partial = result.partial_pairs()
    with_old = int((is_old[pairs.left] | is_old[pairs.right]).sum())
    partial_old = int((is_old[partial.left] | is_old[partial.right]).sum())
    new = int((~is_old & ~result.is_reference).sum())
    references = int(result.is_reference.sum())
    with_references = f" (and {references} reference)" if references else ""
    lines = [
        f"{new} new documents{with_references} checked against an archive of {archived} "
        f"in {seconds:.1f} s "
        f"({int(is_old.sum())} archive documents compared), {len(result.errors)} errors, "
        f"{len(result.skipped)} skipped",
        f"{len(pairs)} pairs within k={k} ({with_old} with an archive document)",
        f"{len(partial)} partial pairs ({partial_old} with an archive document)",
        meaning_line(result, is_old),
    ]
    lines += _flags_line(result)
    lines += _first_ten("error", [(r.path, r.message) for r in result.errors], "errors")
    return "\n".join(lines)


def run_archive_add(args: argparse.Namespace) -> int:
    """`simsift archive add`: read folders into the archive."""
    from simsift.core.pipeline.archiving import add_folders

    reporter = _TerminalProgress(enabled=not args.quiet and sys.stderr.isatty())
    started = time.monotonic()
    try:
        report = add_folders(
            args.archive, scan_options(args), progress=reporter, cancel=CancelToken()
        )
    except (Cancelled, KeyboardInterrupt):
        reporter.finish()
        print("simsift: add interrupted; the archive is as it was before", file=sys.stderr)
        return 130
    reporter.finish()
    s = report.summary
    print(
        f"{s.added} documents added, {s.replaced} replaced (changed files), {s.unchanged} "
        f"already archived, {len(report.not_added)} not added in "
        f"{time.monotonic() - started:.1f} s; the archive holds {len(report.archive)} documents"
    )
    for line in _first_ten(
        "not added",
        [(r.path, r.message or r.warning) for r in report.not_added],
        "files",
    ):
        print(line)
    return 0


def run_archive_list(args: argparse.Namespace) -> int:
    from simsift.core.store.archive import Archive

    try:
        for path in Archive.open(args.archive).paths():
            print(path)
    except BrokenPipeError:  # `simsift archive list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def run_archive_remove(args: argparse.Namespace) -> int:
    from simsift.core.store.archive import Archive

    archive = Archive.open(args.archive)
    paths = [os.path.abspath(p) if p not in archive else p for p in args.paths]
    archive, removed = archive.remove(paths)
    print(f"{removed} documents removed; the archive holds {len(archive)} documents")
    return 0 if removed == len(set(paths)) else 1


def _ignored_pairs(catalog) -> set:
    """The pairs the teacher dismissed, kept in the catalog (none without one)."""
    from simsift.core.store.catalog import CatalogError

    if catalog is None:
        return set()
    try:
        return catalog.ignored_pairs()
    except CatalogError as error:  # the scan goes on; the catalog says why on each use
        print(f"simsift: dismissed pairs not read ({error}); none are left out", file=sys.stderr)
        return set()


def _verdicts(catalog):
    """The teacher's verdicts kept in the catalog, for the report (none without one)."""
    from simsift.core.store.catalog import CatalogError

    if catalog is None:
        return None
    try:
        return catalog.verdicts()
    except CatalogError:  # the report is still written, without them
        return None


def _open_catalog(path: Path | None):
    from simsift.core.store.catalog import Catalog, CatalogError, default_catalog_path

    target = path or default_catalog_path()
    try:
        catalog = Catalog(target)
        if catalog.recovery is not None:
            print(f"simsift: {catalog.recovery.message}", file=sys.stderr)
        return catalog
    except CatalogError as error:
        print(f"simsift: catalog {target} unusable ({error}); scanning without it", file=sys.stderr)
        return None


def summary(result: ScanResult, k: int, seconds: float) -> str:
    """A few lines a user reads after a scan."""
    pairs = result.pairs.within(k)
    kinds = Counter(KIND_NAMES[c] for c in result.pair_kinds(pairs).tolist())
    clusters = result.clusters(k)
    files = len(result.documents) + len(result.garbled) + len(result.errors) + len(result.skipped)
    garbled = (
        f"{len(result.garbled)} garbled (not compared; --compare-garbled), "
        if result.garbled
        else ""
    )
    lines = [
        f"{files} files in {seconds:.1f} s: {len(result.documents)} documents read "
        f"({result.reused} unchanged since the last scan), {len(result.warned)} with warnings, "
        f"{garbled}{len(result.errors)} errors, {len(result.skipped)} skipped",
        f"{len(pairs)} pairs within k={k}"
        + (
            " (" + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())) + ")"
            if kinds
            else ""
        )
        + f" in {len(clusters)} clusters",
        f"{len(result.partial_pairs())} partial pairs ({_partial_rule(result.options.passages)})",
        meaning_line(result),
        f"{len(result.passages.common_text)} common passages (found in more than "
        f"{result.options.passages.common_max_docs} documents or "
        f"{result.options.passages.common_share:.0%} of them; left out of partial copying)",
    ]
    lines += [f"  note: {notice}" for notice in result.notices]
    lines += _flags_line(result)
    lines += _first_ten("error", [(r.path, r.message) for r in result.errors], "errors")
    lines += _first_ten("warning", [(r.path, r.warning) for r in result.warned], "warnings")
    lines += _first_ten("not compared", [(r.path, r.warning) for r in result.garbled], "warnings")
    reasons = Counter(_reason_kind(r.message) for r in result.skipped)
    if reasons:
        lines.append(
            "  skipped: "
            + ", ".join(f"{n} {why}" for why, n in reasons.most_common(5))
            + " (see the skipped file)"
        )
    return "\n".join(lines)


def meaning_line(result: ScanResult, is_old: np.ndarray | None = None) -> str:
    """The copying found by meaning, per kind, apart from word-for-word copying: how many
    fragments and pairs of each kind, or that the kind was not looked for (and its flag).
    `is_old` marks a check's archive documents (pairs with one are counted too)."""
    from simsift.core.report.fragments import pair_meaning_kinds

    passages = result.options.passages
    kinds = pair_meaning_kinds(result)
    meaning = result.passages.meaning
    parts = []
    for kind, on, flag in (
        ("paraphrased", passages.paraphrase, "--paraphrase to look"),
        ("translated", passages.translation, "--no-translation"),
    ):
        if not on:
            parts.append(f"{kind}: not looked for ({flag})")
            continue
        fragments = int((meaning.kind == _kind_number(kind)).sum())
        pairs = [pair for pair, found in kinds.items() if kind in found]
        said = f"{fragments} {kind} {'passage' if fragments == 1 else 'passages'} in "
        said += f"{len(pairs)} {'pair' if len(pairs) == 1 else 'pairs'}"
        if is_old is not None:
            said += f" ({sum(1 for a, b in pairs if is_old[a] or is_old[b])} with an archive "
            said += "document)"
        parts.append(said)
    return (
        "by meaning, apart from word-for-word copying: "
        + "; ".join(parts)
        + (" (see the meaning file)" if len(meaning) else "")
    )


def _kind_number(kind: str) -> int:
    from simsift.core.match.meaning.matches import KINDS

    return KINDS.index(kind)


def _partial_rule(passages: PassageOptions) -> str:
    """When a pair is partial, and what never counts, as the summary says it."""
    rule = f"containment >= {passages.partial_threshold:.0%} with {SHARE_MIN_RUN} words in a row"
    if passages.partial_min_run:
        rule += f", or {passages.partial_min_run} words in a row: the shortest match"
    set_apart = [
        (what, flag)
        for what, flag, counted in (
            ("quotations", "--count-quotes", passages.count_quotations),
            ("the bibliography", "--count-bibliography", passages.count_bibliography),
        )
        if not counted
    ]
    if set_apart:
        names = " and ".join(what for what, _ in set_apart)
        flags = ", ".join(flag for _, flag in set_apart)
        rule += f"; {names} not counted ({flags})"
    return rule


def _flags_line(result: ScanResult) -> list[str]:
    """How many documents carry integrity flags (disguised text), if any: never silent."""
    flagged = sum(1 for d in result.documents if d.flags)
    if not flagged:
        return []
    carry = "document carries" if flagged == 1 else "documents carry"
    return [f"{flagged} {carry} integrity flags (see documents.csv)"]


def _first_ten(label: str, items: list[tuple[str, str]], file: str) -> list[str]:
    lines = [f"  {label}: {path}: {message}" for path, message in items[:10]]
    if len(items) > 10:
        lines.append(f"  ... and {len(items) - 10} more {file} (see the {file} file)")
    return lines


def _reason_kind(reason: str) -> str:
    """A skip reason without its details ("excluded by the pattern *.bak" -> "excluded")."""
    return reason.split(" (")[0].split(" by the pattern")[0]


class _TerminalProgress:
    """One self-overwriting status line on stderr, at most ten updates a second."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.last = 0.0
        self.stage_started: dict[str, float] = {}
        self.shown = False

    def __call__(self, p: Progress) -> None:
        now = time.monotonic()
        started = self.stage_started.setdefault(p.stage, now)
        if not self.enabled or (now - self.last < 0.1 and p.done != p.total):
            return
        self.last = now
        line = f"{p.stage} {p.done}/{p.total}" if p.total else f"{p.stage} {p.done}"
        rate, left = throughput(p.done, p.total, now - started)
        if rate is not None:
            line += f"  {rate:.0f}/s" + (f"  ETA {format_duration(left)}" if left else "")
        if p.current:
            line += f"  {os.path.basename(p.current)[:40]}"
        if p.pages:
            line += f"  (OCR page {min(p.pages[0] + 1, p.pages[1])}/{p.pages[1]})"
        sys.stderr.write("\r\x1b[K" + line)
        sys.stderr.flush()
        self.shown = True

    def finish(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(main())
