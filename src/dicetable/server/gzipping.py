"""Gzip of HTTP answers that sets nothing up for a small answer (the app's ``GZipMiddleware``).

Starlette's :class:`~starlette.middleware.gzip.GZipMiddleware` builds a
responder for every request: it parses the request's headers, normalises its
excluded content types again and parses the answer's headers, before it sees
that most of the API's answers (an action's ``{"version", "undos"}``, a
refusal) are below its minimum size and are sent as they are.

:class:`SmallFirstGZip` sends the same messages with less work: it holds
the answer's start until its first body, and when that body is complete and
under ``minimum_size`` it sends both unchanged, which is what Starlette does
with such an answer in every case (compressed or not, excluded content type,
an encoding already set, a partial answer). Any other answer (a larger
body, a streamed one, a file sent by path) is handed from its start on to
Starlette's own responder, which decides and compresses exactly as before.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware, GZipResponder, IdentityResponder
from starlette.types import Message, Receive, Scope, Send


class SmallFirstGZip(GZipMiddleware):
    """``GZipMiddleware`` (same arguments, same messages sent) that builds no responder for a complete
    answer under ``minimum_size`` bytes (see the module)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: Message | None = None  # the answer's start, until its first body says how to send it
        responder: IdentityResponder | None = None

        async def sending(message: Message) -> None:
            nonlocal held, responder
            if responder is not None:
                await responder.send_with_compression(message)
                return
            kind = message["type"]
            if kind == "http.response.start" and held is None:
                held = message
                return
            if (held is not None and kind == "http.response.body" and not message.get("more_body", False)
                    and len(message.get("body", b"")) < self.minimum_size):
                start, held = held, None
                start.setdefault("headers", [])  # as Starlette's responder leaves it
                await send(start)
                await send(message)
                return
            if held is None and kind != "http.response.start":  # after a small answer (its trailers)
                await send(message)
                return
            responder = self.responder(scope)
            responder.send = send
            if held is not None:
                start, held = held, None
                await responder.send_with_compression(start)
            await responder.send_with_compression(message)

        await self.app(scope, receive, sending)

    def responder(self, scope: Scope) -> IdentityResponder:
        """Starlette's responder for this request: gzip when its ``Accept-Encoding`` (the first such
        header, as Starlette reads it) names gzip, else the identity one."""
        accept = next((value for key, value in scope["headers"] if key == b"accept-encoding"), b"")
        if b"gzip" in accept:
            return GZipResponder(self.app, self.minimum_size, compresslevel=self.compresslevel,
                                 thread_minimum_size=self.thread_minimum_size,
                                 exclude_content_types=self.exclude_content_types)
        return IdentityResponder(self.app, self.minimum_size, exclude_content_types=self.exclude_content_types)
