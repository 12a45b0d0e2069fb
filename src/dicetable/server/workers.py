"""Stopping the search worker processes the server started (clean shutdown, docs/security.md).

``ProcessPoolExecutor.shutdown(wait=False)`` only asks idle workers to
leave: a worker in the middle of a search goes on computing (and, once the
server is gone, as an orphan). :func:`stop_process_pool` cancels what is
queued, then terminates the pool's processes and waits for them briefly,
killing any that do not stop.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def _processes(pool: ProcessPoolExecutor) -> list[Any]:
    """The pool's worker processes (``multiprocessing.Process``). The standard library names them only
    privately before Python 3.14 (which adds ``terminate_workers``), so this is the one place that looks."""
    return list((getattr(pool, "_processes", None) or {}).values())


def stop_process_pool(pool: ProcessPoolExecutor, grace: float = 2.0) -> None:
    """Cancel ``pool``'s queued calls, terminate its workers (SIGTERM), and SIGKILL any still alive after
    ``grace`` seconds. Running calls end with an error (their futures fail); returns once every worker is gone."""
    workers = _processes(pool)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in workers:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + grace
    for proc in workers:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join(1.0)
