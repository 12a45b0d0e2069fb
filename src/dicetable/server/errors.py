"""The one exception of a refused request (every layer of the server raises it; the app answers it)."""

from __future__ import annotations


class ApiError(Exception):
    """A refused request: HTTP ``status`` and a ``detail`` naming what was wrong and what is allowed.

    ``retry_after``: whole seconds after which the request may succeed (sent as ``Retry-After``), or None.
    """

    def __init__(self, status: int, detail: str, retry_after: int | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.retry_after = retry_after


#: The most characters of a client's value an error message repeats (:func:`quoted`).
QUOTED_MAX = 60


def quoted(value: object, limit: int = QUOTED_MAX) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters with its full length named, so a
    long value sent in a path or a body is not echoed back whole (``'xxxx…' (5000 characters)``)."""
    shown = repr(value)
    if len(shown) <= limit:
        return shown
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return shown[:limit] + "…" + size
