"""Peak memory and CPU time of the processes below this one, sampled from /proc (Linux).

SimSift's readers are forked by multiprocessing's fork server, so they are not this
process's children and `resource.getrusage(RUSAGE_CHILDREN)` never counts them.

    with ProcessTree() as tree:
        scan(...)
    print(tree.largest_mb, tree.cpu_seconds, tree.largest_pss_mb)
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

_TICK = 0.05  # seconds between samples: a reader lives for a whole scan
_PSS_TICKS = 4  # the tree's PSS every this many ticks (the kernel walks every mapping)


class ProcessTree:
    """While entered: the largest peak RSS (VmHWM) of any process below this one, and their
    CPU time (each process as last sampled: up to one tick of a process's last moments is
    missed), and the largest proportional set size (PSS) of this process and all below it
    together: the machine's memory the scan takes, pages the readers share with their fork
    server counted once."""

    def __init__(self) -> None:
        self.largest_mb = 0.0
        self.largest_pss_mb = 0.0
        self._ticks = 0
        self._cpu: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def cpu_seconds(self) -> float:
        return sum(self._cpu.values())

    def __enter__(self) -> ProcessTree:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    def _run(self) -> None:
        while not self._stop.wait(_TICK):
            self._sample()

    def _sample(self) -> None:
        ticks = os.sysconf("SC_CLK_TCK")
        below = descendants(os.getpid())
        self._ticks += 1
        if self._ticks % _PSS_TICKS == 1:
            total = sum(_pss_kb(pid) for pid in [os.getpid(), *below])
            self.largest_pss_mb = max(self.largest_pss_mb, total / 1024)
        for pid in below:
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                fields = _stat_fields(pid)
            except OSError:
                continue  # ended between the listing and the read
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    self.largest_mb = max(self.largest_mb, int(line.split()[1]) / 1024)
            # utime and stime are fields 14 and 15 of /proc/PID/stat
            self._cpu[pid] = (int(fields[11]) + int(fields[12])) / ticks


def descendants(root: int) -> list[int]:
    """Every process below `root`, at this moment."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                parent = int(_stat_fields(int(name))[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(name))
    found, todo = [], [root]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def _pss_kb(pid: int) -> int:
    """Proportional set size of `pid` in kB, 0 if it has ended."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _stat_fields(pid: int) -> list[str]:
    """/proc/PID/stat after the command name (which may hold spaces): field 3 onwards."""
    data = Path(f"/proc/{pid}/stat").read_bytes()
    return data[data.rfind(b")") + 2 :].decode().split()
