"""``dicetable serve``, ``dicetable tables`` and ``dicetable export``: the game server from the command line.

``register(app)`` adds the three commands to the ``dicetable`` Typer app.
The database is a SQLite file, ``./dicetable.db`` in the working directory,
unless ``--database`` (or the ``DICETABLE_DATABASE`` environment variable)
names another: ``sqlite:///path/to/file.db`` or
``postgresql+psycopg://user:password@host:5432/dbname``.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NoReturn, Optional

import typer

if TYPE_CHECKING:
    from dicetable.server.store import Store

#: Seconds a stopping server (SIGTERM, Ctrl-C) waits for requests in flight (a hint) before it ends them.
SHUTDOWN_GRACE = 2
#: Seconds an idle HTTP connection is kept open for the client's next request (uvicorn's own default is 5).
#: A seat posts its moves on one connection, often more than 5 seconds apart: a connection closed between
#: them costs a new one per move, on both sides (docs/load.md, "Keep-alive").
KEEP_ALIVE = 65

DATABASE_HELP = ("database URL: sqlite:///path/file.db or postgresql+psycopg://user@host/db "
                 "(default: $DICETABLE_DATABASE, else sqlite:///dicetable.db in this folder)")


def database_url(given: Optional[str]) -> str:
    """``--database``, else ``$DICETABLE_DATABASE``, else the SQLite file ``./dicetable.db``."""
    from dicetable.server.store import DEFAULT_DATABASE

    return given or os.environ.get("DICETABLE_DATABASE") or DEFAULT_DATABASE


def _open_store(url: str, fail: Callable[[str], NoReturn], *, create: bool) -> Store:
    """The store at ``url``; ``create``: make a SQLite file that is not there (``serve``), else refuse
    it naming the path (the commands that only read: a mistyped path is no empty database)."""
    from dicetable.server.store import Store, StoreError

    try:
        return Store(url, create=create)
    except StoreError as exc:
        fail(str(exc))


def register(app: typer.Typer) -> None:
    """Add ``serve``, ``tables`` and ``export`` to ``app``."""
    from dicetable.cli.app import console, fail

    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (127.0.0.1: this machine only)"),
        port: int = typer.Option(8000, "--port", help="TCP port"),
        database: Optional[str] = typer.Option(None, "--database", help=DATABASE_HELP),
        log_level: str = typer.Option("info", "--log-level", help="uvicorn log level: warning, info, debug"),
        workers: int = typer.Option(1, "--workers", help="server processes on the one port (more than 1 needs "
                                                          "PostgreSQL; docs/deploy.md)"),
        keep_alive: int = typer.Option(KEEP_ALIVE, "--keep-alive", metavar="SECONDS",
                                       help="seconds an idle HTTP connection stays open for its client's next request"),
        access_log: bool = typer.Option(False, "--access-log/--no-access-log",
                                        help="log a line per HTTP request and WebSocket (seat tokens masked); "
                                             "off by default: a reverse proxy logs requests (docs/deploy.md)"),
    ) -> None:
        """Run the game server (tables, seats, bots, live updates) with its HTTP API on HOST:PORT.

        Logs what the server does (start, stop, errors, at ``--log-level``); a line per request only
        with ``--access-log``: at a busy table that is a line per move, and writing it cost 3.5% of the
        server's CPU (docs/load.md, "The access log").
        """
        import uvicorn

        from dicetable.server.collector import settle_collector
        from dicetable.server.processes import DATABASE_VARIABLE, check_workers
        from dicetable.server.wsdeflate import PROTOCOL as WS_PROTOCOL
        from dicetable.web import create_site

        if not 1 <= port <= 65535:
            fail(f"--port takes a TCP port from 1 to 65535, got {port}")
        if not 1 <= keep_alive <= 3600:
            fail(f"--keep-alive takes seconds from 1 to 3600, got {keep_alive}")
        if log_level not in ("critical", "error", "warning", "info", "debug"):
            fail(f"--log-level is one of critical, error, warning, info, debug; got {log_level!r}")
        from dicetable.server.settings import Settings, SettingsError

        try:
            settings = Settings.from_env()
        except SettingsError as exc:
            fail(str(exc))
        url = database_url(database)
        _open_store(url, fail, create=True).close()  # a bad URL fails here with a clear message, before uvicorn starts
        refused = check_workers(workers, url)
        if refused:
            fail(refused)
        try:  # a taken port or unknown host fails here in one line (uvicorn would log it and exit with 3)
            socket.create_server((host, port)).close()
        except OSError as exc:
            fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; "
                 "check --host, or choose another port with --port (make run PORT=...)")
        console.print(f"dicetable server on http://{host}:{port} (database {_shown(url)}); Ctrl-C stops it", soft_wrap=True)
        if workers > 1:
            console.print(f"{workers} server processes share the port and the database", soft_wrap=True)
            os.environ[DATABASE_VARIABLE] = url  # each worker process opens it (web.site_from_env)
        target = create_site(url, settings=settings) if workers == 1 else "dicetable.web.site:site_from_env"
        if workers == 1:  # this process serves, its app built; each of N workers settles its own (site_from_env)
            settle_collector()
        try:
            uvicorn.run(target, factory=workers > 1, workers=workers if workers > 1 else None, host=host, port=port,
                        log_level=log_level, access_log=access_log, ws=WS_PROTOCOL, ws_max_size=settings.max_frame,
                        timeout_keep_alive=keep_alive, timeout_graceful_shutdown=SHUTDOWN_GRACE)
        except OSError as exc:
            fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; "
                 "check --host, or choose another port with --port (make run PORT=...)")

    @app.command("tables")
    def tables_cmd(
        database: Optional[str] = typer.Option(None, "--database", help=DATABASE_HELP),
        as_json: bool = typer.Option(False, "--json", help="print JSON"),
    ) -> None:
        """List the tables in the database: id, game, players, status, moves, seats."""
        from rich.markup import escape
        from rich.table import Table

        store = _open_store(database_url(database), fail, create=False)
        try:
            rows = store.list_tables()
        finally:
            store.close()
        if as_json:
            console.print_json(json.dumps(rows))
            return
        table = Table(title=f"tables in {_shown(database_url(database))}")
        for col in ("id", "game", "players", "status", "moves", "created", "seats"):
            table.add_column(col, no_wrap=col == "id", overflow="fold")  # the rest wraps: 80 columns cut no word
        for r in rows:
            seats = ", ".join(s["name"] if s["kind"] == "human" else f"{s['level']} bot" for s in r["seats"])
            table.add_row(r["table_id"], r["game"], str(r["players"]), r["status"], str(r["version"]),
                          (r["created"] or "")[:16].replace("T", " "), escape(seats))
        console.print(table if rows else "no tables yet")

    @app.command()
    def export(
        table_id: str = typer.Argument(..., help="the table's id (see `dicetable tables`); an id from an older server that starts with - goes after --"),
        database: Optional[str] = typer.Option(None, "--database", help=DATABASE_HELP),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="file to write (default: print)"),
        running: bool = typer.Option(False, "--running", help="also export a running table: the record holds "
                                     "its seed, which reveals every future die and card"),
    ) -> None:
        """Write a table's replay record (play it with `dicetable replay FILE`); finished tables only."""
        from dicetable.engine import DicetableError, write_json
        from dicetable.server.tables import ApiError, TableManager, record_of

        store = _open_store(database_url(database), fail, create=False)
        try:
            manager = TableManager(store, bot_threads=1)
            manager.closed = True  # read only: no bot may move while exporting
            try:
                lt = manager.get(table_id)
            except ApiError as exc:
                # the server's 404 points at its HTTP listing; a terminal user lists tables with the CLI
                fail(f"there is no table {table_id!r} in {_shown(database_url(database))}; "
                     "`dicetable tables` lists them" if exc.status == 404 else exc.detail)
            if not lt.state.is_over and not running:
                fail(f"table {table_id} is still running; its record holds the seed, which reveals every "
                     "future die and card to whoever reads it. Wait for the end, or give --running to "
                     "export it anyway (for the table's owner only)")
            record = record_of(lt)
            manager.close()
        finally:
            store.close()
        if output is None:
            console.print_json(json.dumps(record))
            return
        try:
            write_json(output, record)
        except DicetableError as exc:
            fail(str(exc))
        console.print(f"wrote {output} ({len(record['actions'])} actions); play it with dicetable replay {output}")


def _shown(url: str) -> str:
    """A database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url
