"""Several server processes on one port: ``dicetable serve --workers N`` (WEB.md, "Several processes").

uvicorn starts ``N`` worker processes that accept connections on one
listening socket (any of them may take any request) and restarts a worker
that dies. Each worker builds its app with :func:`dicetable.web.site_from_env`
(the site: this server's app and the pages) and has its own :class:`~dicetable.server.tables.TableManager`; they share the tables
through the database:

* an action is appended by whichever worker receives it; the store's
  ``(table_id, seq)`` check makes two posts for one seat give one 200 and
  one 409, whichever workers they reach;
* every worker hears the others' writes by PostgreSQL ``LISTEN/NOTIFY``
  (:class:`~dicetable.server.store.Listener`), catches its tables in memory
  up and pushes to its own WebSocket connections;
* one worker drives each table's bots and clock (:mod:`dicetable.server.leases`).

SQLite is one process's database (its in-process live hub and bots), so
more than one worker needs PostgreSQL: :func:`check_workers` says so.
"""

from __future__ import annotations

import os

from .store import make_engine

#: The environment variable naming each worker's database (set by ``serve`` for its workers).
DATABASE_VARIABLE = "DICETABLE_DATABASE"


def check_workers(workers: int, url: str) -> str | None:
    """Why ``workers`` processes cannot serve ``url`` (a message for the user), or None when they can.

    Raises :class:`~dicetable.server.store.StoreError` for an unusable URL.
    """
    if workers < 1:
        return f"--workers takes a number of server processes, 1 or more; got {workers}"
    if workers > 1:
        engine = make_engine(url)
        try:
            if engine.dialect.name != "postgresql":
                return (f"--workers {workers} needs PostgreSQL (--database postgresql+psycopg://user@host/db): "
                        "an SQLite database is served by one process; use --workers 1 with SQLite")
        finally:
            engine.dispose()
    return None
