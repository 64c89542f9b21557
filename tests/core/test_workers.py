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
    budgets = {"hang": 1.0, "a": 1.0}
    results = dict(
        run_isolated(misbehave, ["hang", "a"], workers=2, timeout=budgets.get, cancel=CancelToken())
    )
    assert results["a"] == "A"
    assert isinstance(results["hang"], TaskFailure) and "longer than 1 s" in results["hang"].message


def test_a_big_file_gets_a_budget_scaled_by_its_size():
    from simsift.core.pipeline.stages import read_budget
    from simsift.core.read.reader import ReadTask

    def task(megabytes: int) -> ReadTask:
        return ReadTask("f.txt", megabytes * 2**20, 0, 2**31, True)

    assert read_budget(task(1), 60) == 60  # a small file that hangs is stopped as soon
    assert read_budget(task(20), 60) == 60
    assert read_budget(task(200), 60) == 600  # a 200 MB text takes about 45 s to read
