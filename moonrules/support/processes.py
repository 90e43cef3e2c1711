"""Worker processes that never outlive their parent.

The proof catalogue's runner, the tournament's all-bot runs and the table's bot pool each
start worker processes; each worker calls :func:`end_with_parent` as it starts, and a
process pool is ended with :func:`stop_pool`, checks or games under way included.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import ProcessPoolExecutor


def end_with_parent() -> None:
    """In a worker, as it starts: exit at once when the process that started it ends (even
    killed, when it cannot end its workers itself), so that no worker outlives it."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - a worker always has its parent
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers, jobs under way included, and wait for them.

    The workers are ended first; the pool's own thread then finds them gone, fails what
    was pending and reaps them, and ``shutdown`` waits for that thread. Only then are they
    joined here, so that no two threads wait on one process at once (the second one's wait
    can return before the first has recorded its exit status).
    """
    workers = list((pool._processes or {}).values())  # no public way to end them before 3.14
    for w in workers:
        w.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
    for w in workers:
        w.join()


__all__ = ["end_with_parent", "stop_pool"]
