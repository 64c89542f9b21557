"""The isolating worker pool: hung and crashing tasks are reported, the rest still finish."""

from __future__ import annotations

import os
import time

import pytest

from core.progress import Cancelled, CancelToken
from core.workers import TaskFailure, run_isolated


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
    import core.workers as workers_module
    from core.workers import reader_memory_limit

    gib = 1024**3
    monkeypatch.setattr(workers_module, "physical_memory", lambda: 8 * gib)
    assert reader_memory_limit(2) == 2 * gib  # 4 GB for 2 readers
    assert reader_memory_limit(16) == gib  # never under 1 GB: a reader must fit jieba
    monkeypatch.setattr(workers_module, "physical_memory", lambda: 64 * gib)
    assert reader_memory_limit(2) == 3 * gib  # never over 3 GB each
    monkeypatch.setattr(workers_module, "physical_memory", lambda: None)
    assert reader_memory_limit(4) == 3 * gib
