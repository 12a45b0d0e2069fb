"""Fixtures of the server tests: a database per test on SQLite and on a throwaway PostgreSQL.

PostgreSQL is started once per test worker from the installed binaries
(``dicetable.server.pgtemp.TempPostgres``: initdb into a temporary folder,
pg_ctl start on a Unix socket, stopped at the end); each test gets its own
database in it. ``make test`` installs the ``postgresql`` package when the
binaries are missing; without them the PostgreSQL variants are skipped with
the reason.
"""

from __future__ import annotations

import pytest

from dicetable.server.pgtemp import PostgresUnavailable, TempPostgres



def pytest_configure(config):
    """Starlette's TestClient warns that it prefers httpx2; httpx is what is installed."""
    config.addinivalue_line("filterwarnings", "ignore:.*httpx.*")

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def pg():
    """One throwaway PostgreSQL server for this test worker."""
    try:
        server = TempPostgres().start()
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    yield server
    server.stop()


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    """A fresh, empty database URL: a SQLite file, or a new database on the throwaway PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.db'}"
    return request.getfixturevalue("pg").create_database()


@pytest.fixture
def sqlite_url(tmp_path):
    """A fresh SQLite database URL (for tests that need no PostgreSQL variant)."""
    return f"sqlite:///{tmp_path / 'tables.db'}"


@pytest.fixture
def client(db_url):
    """An in-process client of a server on ``db_url`` (its lifespan runs: store opened, bots on)."""
    from fastapi.testclient import TestClient

    from dicetable.web import create_site

    with TestClient(create_site(db_url)) as c:
        yield c
