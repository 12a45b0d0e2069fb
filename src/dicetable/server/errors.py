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
