"""Agent tests: the browser tests' real server (a uvicorn on 127.0.0.1 with a temp SQLite file)."""

from __future__ import annotations

from tests.web.conftest import Server, context, server  # noqa: F401 - fixtures shared with tests/web

__all__ = ["Server"]
