"""Live pushes: the connections of each table, and the messages they are sent after every change.

A change is made under the table's lock (:meth:`Pushes.changing`); while it
is held, :meth:`Pushes.publish` builds each connected viewer's snapshot once
and queues every connection its change message (or its full view) in the
table's ``outbox``. Once the lock is released the batches are handed to the
connections' event loops, oldest first (:meth:`Pushes.deliver`), so no
message is sent while the table's lock is held.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from .live import LiveTable, Subscriber
from .views import Views


def _put_all(items: list) -> None:
    """Put each ``(queue, message)`` of ``items`` (runs on the connections' event loop)."""
    for queue, message in items:
        queue.put_nowait(message)


class Pushes:
    """Subscribes connections to tables and queues and delivers their messages (views from ``views``)."""

    def __init__(self, views: Views) -> None:
        self.views = views

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
        """Send every queued message, oldest first (one hand-over to each event loop per batch)."""
        with lt.send_lock:
            while lt.outbox:
                batch = lt.outbox.popleft()
                loops: dict = {}
                for sub, message in batch:
                    loops.setdefault(sub.loop, []).append((sub, message))
                for loop, items in loops.items():
                    try:
                        loop.call_soon_threadsafe(_put_all, [(sub.queue, message) for sub, message in items])
                    except RuntimeError:  # the loop is closed: those connections are gone
                        for sub, _ in items:
                            sub.gone = True
