"""The isolating worker pool: hung and crashing tasks are reported, the rest still finish."""

from __future__ import annotations

import os
import time

import pytest
from simsift.core.progress import Cancelled, CancelToken
from simsift.core.read.workers import TaskFailure, run_isolated


def misbehave(task: str) -> str:
    if task == "hang":
        time.sleep(60)
    if task == "crash":
        os._exit(3)
    if task == "memory":
        bytearray(4 * 1024**3)
    return task.upper()


def test_hung_and_crashing_tasks_become_failures_and_others_finish():
    tasks = ["a", "hang", "b", "crash", "c", "memory", "d"]
    started = time.monotonic()
    results = dict(
        run_isolated(
            misbehave, tasks, workers=2, timeout=2.0, cancel=CancelToken(), memory_limit=2 * 1024**3
        )
    )
    assert time.monotonic() - started < 30
    assert {t: results[t] for t in "abcd"} == {"a": "A", "b": "B", "c": "C", "d": "D"}
    assert isinstance(results["hang"], TaskFailure) and "longer than 2 s" in results["hang"].message
    assert isinstance(results["crash"], TaskFailure) and "crashed" in results["crash"].message
    assert isinstance(results["memory"], TaskFailure) and "memory" in results["memory"].message


def test_cancel_stops_promptly():
    token = CancelToken()
    seen = []
    started = time.monotonic()
    with pytest.raises(Cancelled):
        for _task, result in run_isolated(
            misbehave, ["a", "hang", "hang", "b"], workers=2, timeout=60, cancel=token
        ):
            seen.append(result)
            token.cancel()
    assert time.monotonic() - started < 10
    assert seen == ["A"]


def test_readers_share_half_the_machine_memory_within_bounds(monkeypatch):
    import simsift.core.read.workers as workers_module
    from simsift.core.read.workers import reader_memory_limit

    gib = 1024**3
    monkeypatch.setattr(workers_module, "physical_memory", lambda: 8 * gib)
    assert reader_memory_limit(2) == 2 * gib  # 4 GB for 2 readers
    assert reader_memory_limit(16) == gib  # never under 1 GB: a reader must fit jieba
    monkeypatch.setattr(workers_module, "physical_memory", lambda: 64 * gib)
    assert reader_memory_limit(2) == 3 * gib  # never over 3 GB each
    monkeypatch.setattr(workers_module, "physical_memory", lambda: None)
    assert reader_memory_limit(4) == 3 * gib


def test_each_task_can_have_its_own_time_budget():
    """A big file gets a longer budget than a small one (`core.pipeline.scan.read_budget`)."""
    budgets = {"hang": 1.0, "a": 60.0}  # "a" may wait for its reader to start
    results = dict(
        run_isolated(misbehave, ["hang", "a"], workers=2, timeout=budgets.get, cancel=CancelToken())
    )
    assert results["a"] == "A"
    assert isinstance(results["hang"], TaskFailure) and "longer than 1 s" in results["hang"].message


def test_a_big_file_gets_a_budget_scaled_by_its_size():
    from simsift.core.pipeline.stages import read_budget
    from simsift.core.read.reader import ReadTask

    def task(megabytes: int) -> ReadTask:
        return ReadTask("f.txt", megabytes * 2**20, 0, 2**31, True, ocr=False)

    assert read_budget(task(1), 60) == 60  # a small file that hangs is stopped as soon
    assert read_budget(task(20), 60) == 60
    assert read_budget(task(200), 60) == 600  # a 200 MB text takes about 45 s to read


def test_under_a_tight_address_space_readers_fork_from_this_process(monkeypatch):
    """A fork server (a fresh interpreter loading every parser and jieba) cannot start
    under a small `ulimit -v`: readers then fork from the scan's process, and run."""
    import resource
    import threading

    from simsift.core.read import workers

    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (150 * 1024**2, hard))
    assert workers._tight_address_space()
    alone = threading.active_count() == 1
    assert workers.process_context().get_start_method() == ("fork" if alone else "forkserver")
    results = dict(
        run_isolated(misbehave, ["a", "crash", "b"], workers=2, timeout=10, cancel=CancelToken())
    )
    assert results["a"] == "A" and results["b"] == "B"
    assert isinstance(results["crash"], TaskFailure)
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (resource.RLIM_INFINITY, hard))
    assert not workers._tight_address_space()
    assert workers.process_context().get_start_method() == "forkserver"


def fail_oddly(task: str) -> str:
    if task == "system":
        raise SystemError("error return without exception set")  # Python short of memory
    if task == "bug":
        raise KeyError(task)
    return task.upper()


def test_a_task_raising_is_a_failure_and_its_reader_goes_on():
    tasks = ["system", "bug", "a"]
    results = dict(run_isolated(fail_oddly, tasks, workers=1, timeout=10, cancel=CancelToken()))
    assert results["a"] == "A"
    assert "out of memory" in results["system"].message
    assert results["bug"].message == "reader failed on this file (KeyError)"


def die_noisily(task: str) -> str:
    if task == "gave up":  # what CPython writes when it cannot go on at the memory limit
        os.write(
            2,
            b"Fatal Python error: Cannot recover from MemoryErrors while normalizing "
            b"exception.\nPython runtime state: initialized\nMemoryError\n\n"
            b'Current thread 0x00007f (most recent call first):\n  File "x.py", line 1\n',
        )
        os.abort()
    if task == "library gave up":  # a C++ library (Tesseract) at the memory limit
        os.write(2, b"terminate called after throwing an instance of 'std::bad_alloc'\n")
        os.write(2, b"  what():  std::bad_alloc\n")
        os.abort()
    if task == "crash":
        os.write(2, b"Segmentation fault in libsomething\n")
        os._exit(3)
    return task.upper()


def test_a_reader_dying_leaves_nothing_on_the_terminal_and_says_why(capfd):
    tasks = ["gave up", "library gave up", "crash", "a"]
    results = dict(run_isolated(die_noisily, tasks, workers=1, timeout=10, cancel=CancelToken()))
    assert results["a"] == "A"
    assert results["gave up"].message == "out of memory while reading this file"
    assert results["library gave up"].message == "out of memory while reading this file"
    assert results["crash"].message == "reader crashed on this file (exit code 3)"
    assert capfd.readouterr().err == ""


def test_readers_leave_no_log_files_behind(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    tasks = ["crash", "a", "b"]
    results = dict(run_isolated(die_noisily, tasks, workers=2, timeout=10, cancel=CancelToken()))
    assert results["b"] == "B"
    assert list(tmp_path.iterdir()) == []


def test_logs_of_readers_killed_with_the_app_long_ago_are_removed(tmp_path, monkeypatch):
    import os
    import tempfile
    import time

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    stale, recent = tmp_path / "simsift-reader-old1.log", tmp_path / "simsift-reader-new1.log"
    other = tmp_path / "student-essay.log"  # not SimSift's: never touched
    for path in (stale, recent, other):
        path.write_text("")
    long_ago = time.time() - 8 * 24 * 3600
    for path in (stale, other):
        os.utime(path, (long_ago, long_ago))
    results = dict(run_isolated(misbehave, ["a"], workers=1, timeout=10, cancel=CancelToken()))
    assert results["a"] == "A"
    assert sorted(p.name for p in tmp_path.iterdir()) == [recent.name, other.name]
