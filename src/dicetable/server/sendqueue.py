"""A live connection's bounded send queue: what a slow client is owed never grows without bound.

Every live connection sends from one :class:`SendQueue` (on its event loop).
It holds at most ``max_messages`` messages and ``max_bytes`` bytes (UTF-8
bytes of the message text; one message larger than that alone is still
held, so a big full view always gets through). When a message would pass
either bound, the whole backlog is dropped and the connection is *behind*:
from then on change messages are dropped too, until a full view arrives
(``{"type": "view", ...}``: it brings the client up to date, so it is always
taken and ends being behind). Once the connection has sent everything it
held, :meth:`SendQueue.get` answers None, once per fall: the sender then
asks the table for the current full view (``TableManager.resync``).

Counters for tests and monitoring: ``dropped`` (messages dropped, in all),
``overflows`` (times the backlog was dropped), ``peak`` and ``peak_bytes``
(the most messages and bytes held at once).
"""

from __future__ import annotations

import asyncio
from collections import deque

from .live import is_full_view


def _size(message: str) -> int:
    """The UTF-8 length of ``message`` (its length when it is ASCII, which CPython knows at no cost)."""
    return len(message) if message.isascii() else len(message.encode("utf-8", "surrogatepass"))


class SendQueue:
    """The messages one connection is owed, bounded by ``max_messages`` and ``max_bytes`` (both at least 1).

    ``put_nowait`` and ``get`` run on the connection's event loop (pushes reach
    it through ``loop.call_soon_threadsafe``). ValueError for a bound below 1.
    """

    def __init__(self, max_messages: int = 64, max_bytes: int = 1 << 20) -> None:
        if max_messages < 1 or max_bytes < 1:
            raise ValueError(f"a send queue holds at least 1 message and 1 byte, not {max_messages} and {max_bytes}")
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self.items: deque[tuple[str, int]] = deque()
        self.bytes = 0
        self.behind = False
        self.asked = False  # get() said None for the current fall behind
        self.closed = False  # close() was called: get() answers None from now on
        self.dropped = 0
        self.overflows = 0
        self.peak = 0
        self.peak_bytes = 0
        self._ready = asyncio.Event()

    def __len__(self) -> int:
        return len(self.items)

    def put_nowait(self, message: str) -> None:
        """Queue ``message``; drop the backlog instead when the bounds would be passed (see the module)."""
        full = is_full_view(message)
        if self.behind and not full:
            self.dropped += 1
            return
        size = _size(message)
        if self.items and (len(self.items) >= self.max_messages or self.bytes + size > self.max_bytes):
            self.overflows += 1
            self.dropped += len(self.items)
            self.items.clear()
            self.bytes = 0
            if not full:
                self.dropped += 1
                self.behind, self.asked = True, False
                self._ready.set()
                return
        if full:
            self.behind = False
        self.items.append((message, size))
        self.bytes += size
        self.peak = max(self.peak, len(self.items))
        self.peak_bytes = max(self.peak_bytes, self.bytes)
        self._ready.set()

    def close(self) -> None:
        """No more messages will be sent: a :meth:`get` waiting now or later answers None (``closed`` True)."""
        self.closed = True
        self._ready.set()

    async def get(self) -> str | None:
        """The next message to send, waiting for one; None (once per fall behind) when the backlog was
        dropped and everything held since is sent: the connection needs the current full view. None
        as well once the queue is closed (:meth:`close`; ``closed`` tells the two apart)."""
        while True:
            if self.closed:
                return None
            if self.items:
                message, size = self.items.popleft()
                self.bytes -= size
                return message
            if self.behind and not self.asked:
                self.asked = True
                return None
            self._ready.clear()
            await self._ready.wait()
