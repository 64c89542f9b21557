"""Per-table work on a few threads, results in table order (numpy sorts and ufuncs
release the GIL), stopped between chunks when the caller cancels or stops consuming."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

from simsift.core.progress import CancelToken


def run_in_order(
    work: Callable[[int, CancelToken], list],
    items: range,
    workers: int,
    cancel: CancelToken | None = None,
) -> Iterator[list]:
    """`work(item, stop)` for every item, on up to `workers` threads, results in order.

    At most `workers` + 1 items are in flight, so only that many tables live at once.
    `stop` is set when the caller's `cancel` is, and when the consumer stops early (an
    exception, Cancelled raised by a progress callback): workers check it between chunks.
    """
    cancel = cancel or CancelToken()
    stop = _LinkedToken(cancel)
    if workers <= 1 or len(items) <= 1:
        for item in items:
            cancel.check()
            yield work(item, stop)
        return
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="index")
    pending: deque[Future] = deque()
    queue = iter(items)
    try:
        for item in itertools.islice(queue, workers + 1):
            pending.append(pool.submit(work, item, stop))
        while pending:
            result = pending.popleft().result()
            for item in itertools.islice(queue, 1):
                pending.append(pool.submit(work, item, stop))
            cancel.check()
            yield result
    finally:
        stop.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


class _LinkedToken(CancelToken):
    """Cancelled when set itself or when its parent is."""

    def __init__(self, parent: CancelToken) -> None:
        super().__init__()
        self._parent = parent

    @property
    def cancelled(self) -> bool:
        return super().cancelled or self._parent.cancelled

    def check(self) -> None:
        self._parent.check()
        super().check()
