"""A loop's mailbox (``dicetable.server.pushes.Mailbox``): pushes made on the connections' own loop are
queued in that turn, pushes from other threads wake the loop once, and every connection gets its
messages in the order they were posted."""

from __future__ import annotations

import asyncio
import queue
import threading

from dicetable.server.pushes import Mailbox
from dicetable.server.tables import Subscriber

from .helpers import in_fresh_loop


class Recording:
    """A loop stand-in that keeps what is handed to it until told to run it."""

    def __init__(self, closed: bool = False) -> None:
        self.handed: list = []
        self.closed = closed

    def call_soon_threadsafe(self, fn, *args):
        if self.closed:
            raise RuntimeError("Event loop is closed")
        self.handed.append((fn, args))

    def run(self) -> None:
        handed, self.handed = self.handed, []
        for fn, args in handed:
            fn(*args)


def _queued(sub) -> list[str]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


def test_posts_from_the_loops_own_thread_are_queued_in_that_turn_in_the_order_posted():
    async def main():
        loop = asyncio.get_running_loop()
        box = Mailbox(loop)
        sub = Subscriber(0, loop, queue.SimpleQueue())
        worker = threading.Thread(target=box.post, args=([(sub, "from a thread")],))
        worker.start()
        worker.join()  # its drain is scheduled on this loop, which has not turned since
        assert _queued(sub) == [] and box.waking
        box.post([(sub, "on the loop")])  # on the loop: at once, after what was posted before it
        assert _queued(sub) == ["from a thread", "on the loop"]
        await asyncio.sleep(0)  # the scheduled drain finds nothing left
        await asyncio.sleep(0)
        assert _queued(sub) == [] and not box.waking

    in_fresh_loop(main)  # the worker's thread may hold a running loop (an earlier browser test)


def test_posts_from_other_threads_wake_the_loop_once_until_it_drains():
    loop = Recording()
    box = Mailbox(loop)  # type: ignore[arg-type]
    a, b = (Subscriber(n, loop, queue.SimpleQueue()) for n in (0, 1))  # type: ignore[arg-type]
    box.post([(a, "1"), (b, "1")])
    box.post([(a, "2")])
    assert len(loop.handed) == 1 and _queued(a) == []
    loop.run()
    assert (_queued(a), _queued(b)) == (["1", "2"], ["1"])
    box.post([(b, "3")])
    assert len(loop.handed) == 1  # drained: the next post wakes the loop again
    loop.run()
    assert _queued(b) == ["3"]


def test_posts_to_a_closed_loop_mark_their_connections_gone():
    loop = Recording(closed=True)
    box = Mailbox(loop)  # type: ignore[arg-type]
    a, b = (Subscriber(n, loop, queue.SimpleQueue()) for n in (0, 1))  # type: ignore[arg-type]
    box.post([(a, "1")])
    box.post([(b, "1")])
    assert a.gone and b.gone and not box.items and not box.waking
