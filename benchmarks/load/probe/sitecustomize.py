"""The load benchmark's probe inside the server process (``run.py --probe``): what its collector and its
action requests do, written to files in ``$DICETABLE_PROBE`` (a folder).

Python imports a ``sitecustomize`` module at start-up from the path; ``run.py --probe`` puts this
folder first on the server's ``PYTHONPATH``. In a process started as ``dicetable serve`` (any other
process, such as a search process, is left alone) it writes:

- ``gc.txt``: a line per collection of the cyclic garbage collector: when it ended (``time.time()``),
  its generation, its wall time and its CPU time (ms, ``time.thread_time``) and how many objects
  it freed;
- ``app.txt``: a line per ``POST .../actions`` request: when it reached the app, the ms from
  there to the start of its answer, and the status;
- ``connections.txt``: when each HTTP connection was opened (``time.time()``; WebSockets start as one);
- ``commits.txt``: a line per append queued on the event loop (``Store.append_then``): when it was
  queued (``time.time()``) and the ms until the loop ran its callback, the transaction committed;
- ``garbage.txt``, when the process is sent ``SIGUSR2``: every object that only the collector
  would free at that moment, counted by type, with the functions and code of the frames among them,
  and the wall time of the full collection that found them (what the server froze at start-up is
  unfrozen first, so it walks every object: what a full collection costs at this size). Run with
  ``$DICETABLE_PROBE_GC=off`` (no automatic collection) the count covers everything since the
  server settled its collector.

``$DICETABLE_PROBE_GC`` (``off``, or ``young,middle,old``) sets the collector's thresholds once
``settle_collector`` has run, so thresholds are compared on the same code.
``$DICETABLE_PROBE_YOUNG`` (a file's path) has that file written: before each collection, how many objects
each generation holds, and at each young collection that walks more than 50,000, what they are by type.
``$DICETABLE_PROBE_SWITCH`` (milliseconds) sets the interpreter's switch interval
(``sys.setswitchinterval``; CPython's is 5 ms): how long a thread that wants the GIL waits
before the thread holding it is asked to let go.
"""

from __future__ import annotations

import collections
import gc
import os
import signal
import sys
import time
from pathlib import Path

_FOLDER = os.environ.get("DICETABLE_PROBE")


def _collections(out, young=None) -> None:
    started: list[float] = [0.0, 0.0]

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            if young is not None:
                _young_census(young, info["generation"])
            started[0], started[1] = time.perf_counter(), time.thread_time()
            return
        wall, cpu = time.perf_counter() - started[0], time.thread_time() - started[1]
        out.write(f"{time.time():.3f} {info['generation']} {1000 * wall:.2f} {1000 * cpu:.2f} {info['collected']}\n")

    gc.callbacks.append(note)


def _young_census(out, generation: int) -> None:
    """Before a collection: how many objects each generation holds (what it is about to walk); at each
    young collection that walks more than 50,000, what they are, by type (timed apart from the
    collection)."""
    sizes = [len(gc.get_objects(g)) for g in range(3)]
    out.write(f"{time.time():.3f} generation {generation}: objects in the generations {sizes}\n")
    walked = sum(sizes[:generation + 1])
    if generation == 0 and walked > 50_000:
        kinds: collections.Counter[str] = collections.Counter()
        for g in range(generation + 1):
            kinds.update(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects(g))
        out.writelines(f"  {n:8d} {kind}\n" for kind, n in kinds.most_common(25))


def _thresholds() -> None:
    wanted = os.environ.get("DICETABLE_PROBE_GC")
    if not wanted:
        return
    import dicetable.server.collector as collector

    settle = collector.settle_collector

    def settle_then_set() -> None:
        settle()
        gc.set_threshold(*((10**9, 10**9, 10**9) if wanted == "off" else map(int, wanted.split(","))))

    collector.settle_collector = settle_then_set


def _app_times(out) -> None:
    import dicetable.web as web

    create_site = web.create_site

    def timed_site(*args, **kwargs):
        app = create_site(*args, **kwargs)
        build = app.build_middleware_stack

        def stack():
            inner = build()

            async def timed(scope, receive, send):
                if scope["type"] != "http" or not scope["path"].endswith("/actions"):
                    return await inner(scope, receive, send)
                reached, at = time.time(), time.perf_counter()
                answer: list = [at, None]

                async def send_noting(message):
                    if message["type"] == "http.response.start":
                        answer[0], answer[1] = time.perf_counter(), message["status"]
                    await send(message)

                await inner(scope, receive, send_noting)
                out.write(f"{reached:.4f} {1000 * (answer[0] - at):.2f} {answer[1]}\n")

            return timed

        app.build_middleware_stack = stack
        return app

    web.create_site = timed_site


def _connections(out) -> None:
    from uvicorn.protocols.http import httptools_impl

    made = httptools_impl.HttpToolsProtocol.connection_made

    def noted(self, transport):
        out.write(f"{time.time():.4f}\n")
        return made(self, transport)

    httptools_impl.HttpToolsProtocol.connection_made = noted


def _commit_times(out) -> None:
    from dicetable.server.store import Store

    queue_append = Store.append_then

    def timed(self, table_id, seq, seat, action, by, undoable, then, **kwargs):
        queued, at = time.time(), time.perf_counter()

        def committed(stored, failure):
            out.write(f"{queued:.4f} {1000 * (time.perf_counter() - at):.2f}\n")
            then(stored, failure)

        return queue_append(self, table_id, seq, seat, action, by, undoable, committed, **kwargs)

    Store.append_then = timed


def _switch_interval() -> None:
    wanted = os.environ.get("DICETABLE_PROBE_SWITCH")
    if wanted:
        sys.setswitchinterval(float(wanted) / 1000)


def _garbage_census(path: Path) -> None:
    def census(_signum, _frame) -> None:
        gc.unfreeze()  # what settle_collector froze is walked too: a full collection of everything
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            started = time.perf_counter()
            gc.collect()
            took = 1000 * (time.perf_counter() - started)
            found = list(gc.garbage)
        finally:
            gc.garbage.clear()
            gc.set_debug(0)
        kinds = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in found)
        functions = collections.Counter(o.__qualname__ for o in found if type(o).__name__ == "function")
        frames = collections.Counter(f"{o.f_code.co_filename.rsplit('site-packages/', 1)[-1]}:{o.f_code.co_name}"
                                     for o in found if type(o).__name__ == "frame")
        with path.open("a") as out:
            out.write(f"== {time.time():.1f}: {len(found)} objects only the collector would free "
                      f"(the full collection that found them: {took:.0f} ms)\n")
            out.writelines(f"  {n:8d} {kind}\n" for kind, n in kinds.most_common(30))
            out.writelines(f"  {n:8d} function {name}\n" for name, n in functions.most_common(10))
            out.writelines(f"  {n:8d} frame {name}\n" for name, n in frames.most_common(10))
        del found

    signal.signal(signal.SIGUSR2, census)


if _FOLDER and "serve" in sys.argv[1:3]:
    _dir = Path(_FOLDER)
    _dir.mkdir(parents=True, exist_ok=True)
    _collections(open(_dir / "gc.txt", "a", buffering=1),
                 open(os.environ["DICETABLE_PROBE_YOUNG"], "a", buffering=1) if os.environ.get("DICETABLE_PROBE_YOUNG") else None)
    _thresholds()
    _app_times(open(_dir / "app.txt", "a", buffering=1))
    _connections(open(_dir / "connections.txt", "a", buffering=1))
    _commit_times(open(_dir / "commits.txt", "a", buffering=1))
    _switch_interval()
    _garbage_census(_dir / "garbage.txt")
