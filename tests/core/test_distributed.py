"""Scans on a Dask cluster: the same result as a local scan, per-file errors for files that
kill workers, Cancel, and no Dask import without a scheduler."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from simsift.core.pipeline.options import ScanOptions
from simsift.core.pipeline.scan import scan
from simsift.core.progress import Cancelled, CancelToken

from tests.core.corpus import write_corpus

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")


def local_cluster():
    """Two worker processes on loopback; a worker that dies is given up on at once."""
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        return distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
        )


@pytest.fixture(scope="module")
def cluster():
    with local_cluster() as shared:
        yield shared


@pytest.fixture
def doomed_cluster():
    """A cluster of its own for a test that takes workers down."""
    with local_cluster() as own:
        yield own


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    write_corpus(root)
    for i in range(40):  # more files than one batch
        (root / f"note{i:02d}.txt").write_text(f"Note {i}: " + "word " * (20 + i))
    return root


def same_result(a, b) -> None:
    assert [d.path for d in a.documents] == [d.path for d in b.documents]
    assert [(e.path, e.message) for e in a.errors] == [(e.path, e.message) for e in b.errors]
    assert np.array_equal(a.fingerprints, b.fingerprints)
    assert np.array_equal(a.pairs.left, b.pairs.left)
    assert np.array_equal(a.pairs.right, b.pairs.right)
    assert np.array_equal(a.pairs.distance, b.pairs.distance)
    assert np.array_equal(a.partial_pairs().left, b.partial_pairs().left)


@pytest.mark.parametrize("ship_files", [False, True])
def test_a_cluster_scan_equals_a_local_scan(cluster, corpus, ship_files):
    local = scan(ScanOptions(roots=(str(corpus),), workers=0))
    remote = scan(
        ScanOptions(
            roots=(str(corpus),),
            scheduler=cluster.scheduler_address,
            ship_files=ship_files,
        )
    )
    same_result(local, remote)
    assert len(remote.documents) > 40


def crash_on_marked_files(batch, shipped, timeout, *topic):
    """A reader that takes its worker down on files named crash*.txt (runs on a worker)."""
    from simsift.core.pipeline.distributed import read_batch

    if any(os.path.basename(task.path).startswith("crash") for task in batch):
        os._exit(1)
    return read_batch(batch, shipped, timeout, *topic)


def test_a_file_that_kills_workers_is_a_per_file_error(doomed_cluster, tmp_path, monkeypatch):
    import simsift.core.pipeline.distributed

    folder = tmp_path / "essays"
    folder.mkdir()
    for i in range(5):
        (folder / f"essay{i}.txt").write_text(f"Essay {i} " + "text " * 30)
    (folder / "crash.txt").write_text("this one takes the worker down")
    monkeypatch.setattr(simsift.core.pipeline.distributed, "read_batch", crash_on_marked_files)
    result = scan(ScanOptions(roots=(str(folder),), scheduler=doomed_cluster.scheduler_address))
    assert sorted(os.path.basename(d.path) for d in result.documents) == [
        f"essay{i}.txt" for i in range(5)
    ]
    [error] = result.errors
    assert error.path == str(folder / "crash.txt") and "crash" in error.message


def slow_read_batch(batch, shipped, timeout, *topic):
    time.sleep(0.5)
    from simsift.core.pipeline.distributed import read_batch

    return read_batch(batch, shipped, timeout, *topic)


def test_cancel_stops_a_cluster_scan_within_a_second(cluster, corpus, monkeypatch):
    import simsift.core.pipeline.distributed

    monkeypatch.setattr(simsift.core.pipeline.distributed, "read_batch", slow_read_batch)
    monkeypatch.setattr(simsift.core.pipeline.distributed, "BATCH_FILES", 1)
    cancel = CancelToken()
    stopped = []

    def cancel_when_reading(report):
        if report.stage == "reading" and report.done >= 2 and not cancel.cancelled:
            threading.Timer(0.0, cancel.cancel).start()
            stopped.append(time.monotonic())

    options = ScanOptions(roots=(str(corpus),), scheduler=cluster.scheduler_address)
    with pytest.raises(Cancelled):
        scan(options, progress=cancel_when_reading, cancel=cancel)
    assert time.monotonic() - stopped[0] < 1.5


def test_an_unreachable_scheduler_is_a_clear_error(corpus):
    from simsift.core.pipeline.distributed import ClusterError

    options = ScanOptions(roots=(str(corpus),), scheduler="tcp://127.0.0.1:9")
    with pytest.raises(ClusterError, match="cannot reach the scheduler"):
        scan(options)


def test_a_scan_without_scheduler_and_the_gui_never_import_dask(corpus):
    code = (
        "import sys, simsift.app.main_window; "
        "from simsift.core.pipeline.options import ScanOptions; "
        "from simsift.core.pipeline.scan import scan; "
        f"scan(ScanOptions(roots=({str(corpus)!r},), workers=0)); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_file_over_its_time_budget_is_a_per_file_error(doomed_cluster, tmp_path, monkeypatch):
    import simsift.core.pipeline.distributed

    folder = tmp_path / "essays"
    folder.mkdir()
    for i in range(3):
        (folder / f"essay{i}.txt").write_text(f"Essay {i} " + "text " * 30)
    (folder / "slow.txt").write_text("a file whose reader never returns")
    monkeypatch.setattr(simsift.core.pipeline.distributed, "read_batch", hang_on_marked_files)
    options = ScanOptions(
        roots=(str(folder),), scheduler=doomed_cluster.scheduler_address, file_timeout=1.0
    )
    result = scan(options)
    assert sorted(os.path.basename(d.path) for d in result.documents) == [
        f"essay{i}.txt" for i in range(3)
    ]
    [error] = result.errors
    assert error.path == str(folder / "slow.txt")
    assert error.message == "took longer than 1 s to read; skipped"


@pytest.mark.parametrize("ship_files", [False, True])
def test_a_form_bomb_pdf_ends_within_its_budget_on_a_cluster(doomed_cluster, tmp_path, ship_files):
    """PDFium parsing forms nested to draw 10**12 letters lets the GIL go, so the time budget
    stops it: a per-file error as a local scan gives, not a worker hung for 10 minutes."""
    from tests.core.test_pdf_bombs import nested_forms

    folder = tmp_path / "essays"
    folder.mkdir()
    for i in range(3):
        (folder / f"essay{i}.txt").write_text(f"Essay {i} " + "text " * 30)
    (folder / "bomb.pdf").write_bytes(nested_forms(depth=12, fan=10))
    options = ScanOptions(
        roots=(str(folder),),
        scheduler=doomed_cluster.scheduler_address,
        file_timeout=1.0,
        ship_files=ship_files,
    )
    started = time.monotonic()
    result = scan(options)
    assert time.monotonic() - started < 20
    assert sorted(os.path.basename(d.path) for d in result.documents) == [
        f"essay{i}.txt" for i in range(3)
    ]
    [error] = result.errors
    assert error.path == str(folder / "bomb.pdf")
    assert error.message == "took longer than 1 s to read; skipped"


def test_a_form_bomb_over_a_readers_memory_on_a_cluster_is_remembered(tmp_path):
    """A bomb that grows its worker by gigabytes within the time budget: stopped at a local
    reader's memory (at most half the worker's), not by the nanny killing the worker
    again and again, and remembered as a local scan remembers it."""
    from tests.core.test_pdf_bombs import nested_forms

    folder = tmp_path / "essays"
    folder.mkdir()
    for i in range(3):
        (folder / f"essay{i}.txt").write_text(f"Essay {i} " + "text " * 30)
    (folder / "bomb.pdf").write_bytes(nested_forms(depth=17, fan=50))
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
            memory_limit="2GiB",
        ) as small,
    ):
        result = scan(ScanOptions(roots=(str(folder),), scheduler=small.scheduler_address))
    assert len(result.documents) == 3
    [error] = result.errors
    assert error.path == str(folder / "bomb.pdf")
    assert error.message.startswith("needs more memory than a reader has (1.0 GB)")
    assert not error.retry


def hang_on_marked_files(batch, shipped, timeout, *topic):
    """A reader that never returns on files named slow*.txt (runs on a worker)."""
    import simsift.core.read.reader
    from simsift.core.pipeline.distributed import read_batch

    real = simsift.core.read.reader.read_file

    def hanging(task):
        if os.path.basename(task.path).startswith("slow"):
            time.sleep(3600)
        return real(task)

    simsift.core.read.reader.read_file = hanging
    try:
        return read_batch(batch, shipped, timeout, *topic)
    finally:
        simsift.core.read.reader.read_file = real


def scanned_pdf(path, pages: int) -> None:
    """An image-only PDF of `pages` pages of printed English (a scan, read by OCR)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 40)
    leaves = []
    for number in range(pages):
        leaf = Image.new("L", (2200, 1400), 255)
        draw = ImageDraw.Draw(leaf)
        for line in range(12):
            said = f"Page {number + 1}, line {line + 1}: the committee reviewed the report."
            draw.text((100, 80 + 100 * line), said, font=font, fill=0)
        leaves.append(leaf)
    leaves[0].save(path, resolution=300, save_all=True, append_images=leaves[1:])


@pytest.mark.skipif(
    shutil.which("tesseract") is None
    or not os.path.exists("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"),
    reason="Tesseract and DejaVu fonts are needed for a scan",
)
@pytest.mark.parametrize("ship_files", [False, True])
def test_a_scan_on_a_cluster_is_read_by_ocr_with_its_pages_in_the_progress(
    cluster, tmp_path, ship_files
):
    """OCR takes longer than the time budget of a file (1 s here): a scan gets OCR's time
    too, as in a local scan, and its pages move the progress."""
    folder = tmp_path / "essays"
    folder.mkdir()
    (folder / "essay.txt").write_text("An essay about the committee. " * 20)
    scanned_pdf(folder / "scan.pdf", pages=4)
    seen = []
    options = ScanOptions(
        roots=(str(folder),),
        scheduler=cluster.scheduler_address,
        ship_files=ship_files,
        file_timeout=1.0,
    )
    result = scan(options, progress=lambda p: seen.append((p.stage, p.current, p.pages)))
    assert not result.errors
    [scan_record] = [d for d in result.documents if d.path.endswith("scan.pdf")]
    assert "read by OCR: 4 pages" in scan_record.warning
    pages = [p for stage, current, p in seen if stage == "reading" and p and current]
    assert {current for stage, current, p in seen if p} == {str(folder / "scan.pdf")}
    assert (4, 4) in pages and len(pages) >= 3


@pytest.mark.parametrize("k", [3, 8])
def test_all_pairs_one_task_per_table_equal_the_local_search(cluster, k):
    from simsift.core.index.memory import HammingIndex
    from simsift.core.pipeline.distributed import pairs_on_cluster

    rng = np.random.default_rng(k)
    base = rng.integers(0, 2**64 - 1, 30_000, dtype=np.uint64, endpoint=True)
    flips = rng.integers(0, 64, (3000, k)).astype(np.uint64)
    near = base[:3000].copy()
    for column in flips.T:
        near ^= np.uint64(1) << column
    fps = np.concatenate([base, near, base[:50]])  # near copies and exact copies
    reports = []
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        there = pairs_on_cluster(client, fps, k, progress=lambda d, t: reports.append((d, t)))
    here = HammingIndex(fps, k).pairs()
    assert len(here) >= 3050
    assert np.array_equal(there.left, here.left) and np.array_equal(there.right, here.right)
    assert np.array_equal(there.distance, here.distance)
    assert reports and reports[-1][0] == reports[-1][1] > 1  # one report per table


def test_the_cli_scans_on_a_cluster_and_says_when_it_cannot(cluster, corpus, tmp_path):
    from simsift.core.cli import main

    address = cluster.scheduler_address
    out = tmp_path / "report"
    assert main(["scan", str(corpus), "--scheduler", address, "--no-catalog", "--quiet",
                 "--out", str(out)]) == 0  # fmt: skip
    local = tmp_path / "local"
    assert main(["scan", str(corpus), "--no-catalog", "--quiet", "--out", str(local)]) == 0
    assert (out / "pairs.csv").read_text() == (local / "pairs.csv").read_text()
    unreachable = ["scan", str(corpus), "--scheduler", "tcp://127.0.0.1:9", "--no-catalog"]
    assert main([*unreachable, "--quiet", "--out", str(tmp_path / "x")]) == 2


def test_shipped_files_with_the_longest_names_are_read(cluster, tmp_path):
    """A name near the 255-byte limit fits on a worker too (it once became `<n>-<name>`)."""
    folder = tmp_path / "long"
    folder.mkdir()
    names = [
        "a" * 246 + ".txt",  # 250 bytes
        "作文" * 41 + "x.txt",  # 251 bytes in UTF-8 (87 characters)
        "b" * 251 + ".txt",  # 255 bytes: the longest name there is
    ]
    for i, name in enumerate(names):
        assert len(os.fsencode(name)) in (250, 251, 255)
        (folder / name).write_text(f"Essay {i} " + "text " * 30)
    options = ScanOptions(roots=(str(folder),), workers=0)
    local = scan(options)
    remote = scan(
        ScanOptions(roots=(str(folder),), scheduler=cluster.scheduler_address, ship_files=True)
    )
    same_result(local, remote)
    assert sorted(d.path for d in remote.documents) == sorted(str(folder / n) for n in names)
    assert not remote.errors


def test_shipped_names_are_short_and_keep_the_suffix():
    from simsift.core.pipeline.distributed import shipped_name

    assert shipped_name(7, "/essays/" + "a" * 251 + ".DOCX") == "7.DOCX"
    assert shipped_name(0, "/essays/README") == "0"
    assert shipped_name(3, "/x/" + "a." + "b" * 200) == "3"  # no type SimSift reads


def retire_workers_when_reading(cluster):
    """A progress callback that takes every worker away once reading has begun."""
    retired = []

    def progress(report):
        if report.stage == "reading" and report.done >= 2 and not retired:
            retired.append(time.monotonic())
            threading.Thread(target=lambda: cluster.scale(0), daemon=True).start()

    return progress, retired


def test_a_cluster_without_workers_is_given_up_on(doomed_cluster, corpus, monkeypatch):
    import simsift.core.pipeline.distributed
    from simsift.core.pipeline.distributed import ClusterError

    monkeypatch.setattr(simsift.core.pipeline.distributed, "read_batch", slow_read_batch)
    monkeypatch.setattr(simsift.core.pipeline.distributed, "BATCH_FILES", 1)
    monkeypatch.setattr(simsift.core.pipeline.distributed, "NO_WORKERS_SECONDS", 2.0)
    progress, retired = retire_workers_when_reading(doomed_cluster)
    options = ScanOptions(roots=(str(corpus),), scheduler=doomed_cluster.scheduler_address)
    with pytest.raises(ClusterError, match=r"no workers for 2 s.*without --scheduler"):
        scan(options, progress=progress)
    assert retired and time.monotonic() - retired[0] < 20


def test_the_cli_says_when_the_workers_are_gone(doomed_cluster, corpus, tmp_path, monkeypatch):
    import simsift.core.pipeline.distributed
    from simsift.core import cli

    monkeypatch.setattr(simsift.core.pipeline.distributed, "read_batch", slow_read_batch)
    monkeypatch.setattr(simsift.core.pipeline.distributed, "BATCH_FILES", 1)
    monkeypatch.setattr(simsift.core.pipeline.distributed, "NO_WORKERS_SECONDS", 2.0)
    progress, _ = retire_workers_when_reading(doomed_cluster)
    real = cli._TerminalProgress

    class Reporter(real):
        def __call__(self, p):
            progress(p)
            super().__call__(p)

    monkeypatch.setattr(cli, "_TerminalProgress", Reporter)
    errors = tmp_path / "stderr"
    with errors.open("w") as stream:
        monkeypatch.setattr(sys, "stderr", stream)
        code = cli.main(["scan", str(corpus), "--scheduler", doomed_cluster.scheduler_address,
                         "--no-catalog", "--quiet", "--out", str(tmp_path / "r")])  # fmt: skip
    said = errors.read_text()
    assert code == 2 and "Traceback" not in said
    assert "no workers" in said and "start workers" in said and "without --scheduler" in said


def test_a_malformed_scheduler_address_is_a_clear_error_at_once(corpus):
    from simsift.core.pipeline.distributed import ClusterError

    started = time.monotonic()
    with pytest.raises(ClusterError, match="not a scheduler address"):
        scan(ScanOptions(roots=(str(corpus),), scheduler="nonsense"))
    assert time.monotonic() - started < 5
