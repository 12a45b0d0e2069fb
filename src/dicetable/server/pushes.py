"""Live pushes: the connections of each table, and the messages they are sent after every change.

A change is made under the table's lock (:meth:`Pushes.changing`); while it
is held, :meth:`Pushes.publish` builds each connected viewer's snapshot once
and queues every connection its change message (or its full view) in the
table's ``outbox``. Once the lock is released the batches are handed to the
connections' event loops, oldest first (:meth:`Pushes.deliver`), so no
message is sent while the table's lock is held. Each loop has one
:class:`Mailbox`: a change made on that loop's own thread (an action answered
on the loop) puts its messages in the connections' queues at once, and a
change made in a worker thread (a bot's move, a route in the thread pool)
wakes the loop once for whatever is waiting; both go through the same queue,
so every connection gets its messages in the order they were made.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from contextlib import contextmanager
from typing import Iterator

from .live import LiveTable, Subscriber
from .views import Views


class Mailbox:
    """The messages on their way to one event loop's connections, oldest first.

    :meth:`post` may be called from any thread. On the loop's own thread the
    messages are put in their connections' queues at once (with any still
    waiting from other threads, first), so an action answered on the loop is
    pushed in that turn of the loop, not the next. From another thread the
    loop is woken once (``call_soon_threadsafe``) for everything posted until
    it runs :meth:`drain`. A loop that is closed marks the connections of what
    was posted ``gone``.
    """

    __slots__ = ("loop", "lock", "items", "waking")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.lock = threading.Lock()
        self.items: deque[tuple[Subscriber, str]] = deque()
        self.waking = False  # a drain is scheduled on the loop and has not run yet

    def post(self, items: list[tuple[Subscriber, str]]) -> None:
        """Queue ``(connection, message)`` pairs for this loop's connections (see the class)."""
        try:
            here = asyncio.get_running_loop() is self.loop
        except RuntimeError:  # a worker thread: no loop runs here
            here = False
        with self.lock:
            self.items.extend(items)
            wake = not here and not self.waking
            if wake:
                self.waking = True
        if here:
            self.drain()
        elif wake:
            try:
                self.loop.call_soon_threadsafe(self.drain)
            except RuntimeError:  # the loop is closed: those connections are gone
                with self.lock:
                    lost, self.items = self.items, deque()
                    self.waking = False
                for sub, _ in lost:
                    sub.gone = True

    def drain(self) -> None:
        """Put every message posted so far in its connection's queue, oldest first (on the loop)."""
        with self.lock:
            items, self.items = self.items, deque()
            self.waking = False
        for sub, message in items:
            sub.queue.put_nowait(message)


class Pushes:
    """Subscribes connections to tables and queues and delivers their messages (views from ``views``)."""

    def __init__(self, views: Views) -> None:
        self.views = views
        self.mailboxes: dict[asyncio.AbstractEventLoop, Mailbox] = {}
        self._mailboxes_lock = threading.Lock()

    def mailbox(self, loop: asyncio.AbstractEventLoop) -> Mailbox:
        """The :class:`Mailbox` of ``loop`` (made at its first use)."""
        box = self.mailboxes.get(loop)
        if box is None:
            with self._mailboxes_lock:
                box = self.mailboxes.setdefault(loop, Mailbox(loop))
        return box

    @contextmanager
    def changing(self, lt: LiveTable) -> Iterator[None]:
        """Hold ``lt``'s lock for a change; send the messages it queued once the lock is released."""
        try:
            with lt.lock:
                yield
        finally:
            self.deliver(lt)

    def subscribe(self, lt: LiveTable, sub: Subscriber) -> None:
        """Add a connection and queue it the current full view at once.

        When a seat connects that was not connected, the other connections get
        a change (its ``connected`` flag; same version).
        """
        with self.changing(lt):
            was = any(s.key == sub.key for s in lt.subscribers)
            lt.subscribers.add(sub)
            if sub.key is not None and not was:
                self.publish(lt)
            else:
                self.send_view(lt, sub)

    def resync(self, lt: LiveTable, sub: Subscriber) -> None:
        """Queue ``sub`` the current full view (it asked: it missed a change)."""
        with self.changing(lt):
            if sub in lt.subscribers:
                self.send_view(lt, sub)

    def send_view(self, lt: LiveTable, sub: Subscriber) -> None:
        """Queue ``sub`` its viewer's current full view (lock held)."""
        snap = self.views.snapshot(lt, sub.key)
        sub.rev = snap.rev
        lt.outbox.append([(sub, snap.full())])
        snap.text = None  # queued: held by the connection's queue until sent, not by the table

    def unsubscribe(self, lt: LiveTable, sub: Subscriber) -> None:
        """Remove a connection; the others see the seat's new connected state."""
        with self.changing(lt):
            lt.subscribers.discard(sub)
            if not any(s.key == sub.key for s in lt.subscribers):
                lt.live.pop(sub.key, None)  # its last connection went: rebuilt in full if it comes back
                if sub.key is not None:
                    self.publish(lt)

    def publish(self, lt: LiveTable) -> None:
        """Something a viewer may see changed: build each connected viewer's snapshot once and queue each
        connection its change, or its full view when it is not at the change's base (lock held).

        The messages are sent by :meth:`deliver` once the lock is released
        (:meth:`changing`), in the order they were queued.
        """
        lt.rev += 1
        lt.subscribers -= {sub for sub in lt.subscribers if sub.gone}
        keys = {sub.key for sub in lt.subscribers}
        for key in [k for k in lt.live if k not in keys]:
            del lt.live[key]
        with self.views.sharing(lt):
            snaps = {key: self.views.snapshot(lt, key) for key in keys}
        batch = []
        for sub in lt.subscribers:
            snap = snaps[sub.key]
            if sub.rev == snap.rev:
                continue
            if snap.change is not None and sub.rev == snap.base:
                if snap.change:
                    batch.append((sub, snap.change))
            else:
                batch.append((sub, snap.full()))
            sub.rev = snap.rev
        if batch:
            lt.outbox.append(batch)
        for snap in snaps.values():  # every connection is past the base now: the queues hold what they need
            snap.change = snap.text = None

    def deliver(self, lt: LiveTable) -> None:
        """Send every queued message, oldest first, through each connection's loop's :class:`Mailbox`."""
        with lt.send_lock:
            while lt.outbox:
                batch = lt.outbox.popleft()
                loops: dict[asyncio.AbstractEventLoop, list[tuple[Subscriber, str]]] = {}
                for sub, message in batch:
                    loops.setdefault(sub.loop, []).append((sub, message))
                for loop, items in loops.items():
                    self.mailbox(loop).post(items)
