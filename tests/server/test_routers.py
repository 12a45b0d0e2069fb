"""Each API router can be included and tested alone (issue 26 item 5): it reaches the manager, the
limits and the settings through ``request.app.state`` only, and the error answers come from
``routes.handlers``. A refused method lists every method of the path, the pages' too."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dicetable.engine import list_games
from dicetable.web import create_site
from dicetable.server.limits import ClientLimits
from dicetable.server.routes import handlers, meta, tables
from dicetable.server.settings import Settings
from dicetable.server.store import Store
from dicetable.server.tables import TableManager


def test_the_meta_router_alone_lists_the_registry_without_a_store():
    app = FastAPI()
    handlers.install(app)
    app.include_router(meta.router)
    with TestClient(app) as c:
        body = c.get("/api/games").json()
        assert [g["id"] for g in body["games"]] == [spec.id for spec in list_games()]
        # "mcts" is another name of "medium": offered once
        assert "medium" in body["bot_levels"] and "mcts" not in body["bot_levels"]
        r = c.get("/api/tables")  # not this router's: the handlers' 404 names the route
        assert r.status_code == 404 and r.json()["detail"].startswith("there is no GET /api/tables;")


@pytest.fixture
def tables_alone(sqlite_url):
    """The tables router on a bare app whose state holds a hand-made manager and limits."""
    store = Store(sqlite_url)
    manager = TableManager(store, bot_threads=1)
    app = FastAPI()
    handlers.install(app)
    app.include_router(tables.router)
    settings = Settings()
    app.state.manager = manager
    app.state.limits = ClientLimits(settings, lambda table_id: True)
    try:
        with TestClient(app) as c:
            yield c
    finally:
        manager.close()
        store.close()


def test_the_tables_router_alone_creates_shows_and_refuses(tables_alone):
    c = tables_alone
    made = c.post("/api/tables", json={"game": "corsairs-of-valeria", "players": 2})
    assert made.status_code == 201
    tid, token = made.json()["table_id"], made.json()["seats"][0]["token"]
    view = c.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {token}"}).json()
    assert (view["seat"], view["version"], view["players"]) == (0, 0, 2)
    assert c.get(f"/api/tables/{tid}").json()["seat"] is None  # no token: a spectator
    r = c.post(f"/api/tables/{tid}/actions", json={"action": "x", "version": 0})
    assert r.status_code == 401 and "Bearer" in r.json()["detail"]
    assert c.get("/api/tables").json()["total"] == 1


@pytest.mark.parametrize("path, allowed", [
    ("/api/tables/abc/claim", "POST"),  # an API router's route
    ("/", "GET"),  # a page (dicetable.web's router)
])
def test_a_refused_method_lists_the_methods_of_routes_in_included_routers(sqlite_url, path, allowed):
    with TestClient(create_site(sqlite_url)) as c:
        r = c.request("PUT", path)
        assert r.status_code == 405
        assert r.headers["allow"] == allowed
        assert r.json()["detail"] == f"PUT is not allowed on {path}; allowed: {allowed}"
