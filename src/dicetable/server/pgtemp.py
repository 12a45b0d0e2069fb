"""A throwaway PostgreSQL server from the installed binaries, for tests and benchmarks.

``TempPostgres().start()`` runs ``initdb`` into a fresh temporary folder and
``pg_ctl start`` with a Unix socket in that folder (no TCP listener) on a
free port number, trusting local connections; ``stop()`` stops it and removes
the folder. PostgreSQL refuses to run as root, so as root the commands run as
the ``postgres`` user (created by Debian's ``postgresql`` package) through
``runuser``. The binaries are looked for in ``$PG_BINDIR``, then
``/usr/lib/postgresql/<newest>/bin``, then ``pg_config --bindir``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL binaries (or no ``postgres`` user when running as root); the message says what to install."""


def find_bindir() -> str:
    """The folder holding ``initdb`` and ``pg_ctl``; PostgresUnavailable if there is none."""
    candidates = [os.environ.get("PG_BINDIR", "")]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                         key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0, reverse=True)
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            candidates.append(subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                             check=True).stdout.strip())
        except (OSError, subprocess.CalledProcessError):
            pass
    for path in candidates:
        if path and os.path.exists(os.path.join(path, "initdb")) and os.path.exists(os.path.join(path, "pg_ctl")):
            return path
    raise PostgresUnavailable("no PostgreSQL server binaries (initdb, pg_ctl) found; install them with "
                              "`apt-get install postgresql` (make test does this as root) or set PG_BINDIR")


def free_port() -> int:
    """A TCP port number nobody listens on now (on 127.0.0.1)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TempPostgres:
    """One throwaway PostgreSQL server; ``url(dbname)`` gives a ``postgresql+psycopg://`` URL to it.

    ``fsync`` False (the default, for tests) skips flushing to disk: the tests
    kill the game server, never PostgreSQL.
    """

    def __init__(self, fsync: bool = False) -> None:
        self.bindir = find_bindir()
        self.fsync = fsync
        self.as_user: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresUnavailable("running as root, PostgreSQL needs the 'postgres' user "
                                          "(apt-get install postgresql creates it)") from None
            self.as_user = "postgres"
        self.dir = ""
        self.port = 0
        self.started = False

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.as_user:
            cmd = ["runuser", "-u", self.as_user, "--"] + cmd
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> "TempPostgres":
        """Create the cluster and start the server (waits until it accepts connections)."""
        self.dir = tempfile.mkdtemp(prefix="dicetable-pg-")
        os.chmod(self.dir, 0o755)
        if self.as_user:
            shutil.chown(self.dir, self.as_user, self.as_user)
        data = os.path.join(self.dir, "data")
        self._run(os.path.join(self.bindir, "initdb"), "-D", data, "-A", "trust", "-U", "postgres",
                  "-E", "UTF8", "--no-sync", "--locale=C")
        self.port = free_port()
        opts = (f"-p {self.port} -k {self.dir} -c listen_addresses='' -c max_connections=200 "
                + ("" if self.fsync else "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"))
        self._run(os.path.join(self.bindir, "pg_ctl"), "-D", data, "-o", opts, "-l",
                  os.path.join(self.dir, "log"), "-w", "-t", "60", "start")
        self.started = True
        return self

    def url(self, dbname: str = "postgres") -> str:
        """The SQLAlchemy URL of database ``dbname`` on this server (over its Unix socket)."""
        return f"postgresql+psycopg://postgres@/{dbname}?host={self.dir}&port={self.port}"

    def create_database(self, name: str | None = None) -> str:
        """Create a fresh database (a random name unless given); return its URL."""
        import psycopg

        name = name or "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(host=self.dir, port=self.port, user="postgres", dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        if self.started:
            try:
                self._run(os.path.join(self.bindir, "pg_ctl"), "-D", os.path.join(self.dir, "data"),
                          "-m", "immediate", "-w", "stop")
            finally:
                self.started = False
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = ""

    def __enter__(self) -> "TempPostgres":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
