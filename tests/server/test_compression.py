"""HTTP compression and static-file caching (issue 24 item 6): gzip for pages, scripts and views; ETag + 304.

The security layer's headers (tests/server/test_security*.py) must be on
every answer, compressed or not, and on a 304.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from dicetable.server import create_app
from dicetable.server.security import CSP, HEADERS

from .helpers import ServerProcess, create

STATIC = Path(__file__).resolve().parents[2] / "src" / "dicetable" / "web" / "static"
#: The page's script (its first module, should it be split into several).
SCRIPT = next(p.name for p in sorted(STATIC.iterdir()) if p.suffix == ".js")


@pytest.fixture
def client(sqlite_url):
    with TestClient(create_app(sqlite_url)) as c:
        yield c


def _secured(r) -> None:
    assert r.headers["content-security-policy"] == CSP
    for name, value in HEADERS.items():
        assert r.headers[name] == value


def test_pages_scripts_and_views_are_gzipped_for_clients_that_accept_it(client):
    made = create(client, "kingdom-of-dice", ["human", "greedy"], seed=3)
    script = SCRIPT
    for path in ("/", f"/tables/{made['table_id']}", f"/static/web/{script}", "/static/web/dicetable.css",
                 f"/api/tables/{made['table_id']}", "/api/games"):
        r = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200, path
        assert r.headers.get("content-encoding") == "gzip", path
        assert "accept-encoding" in r.headers.get("vary", "").lower(), path
        _secured(r)
    raw = client.get(f"/static/web/{script}", headers={"Accept-Encoding": "gzip"}).content  # decoded by httpx
    assert raw == (STATIC / script).read_bytes()
    plain = client.get(f"/static/web/{script}", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == raw


def test_a_static_file_revalidates_with_its_etag_and_gets_304(client):
    for path in ("/static/web/dicetable.css", f"/static/web/{SCRIPT}", "/static/games/kingdom-of-dice/board.css"):
        first = client.get(path)
        assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
        etag = first.headers["etag"]
        assert etag.startswith('W/"') and len(etag) > 10
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
        _secured(again)
        other = client.get(path, headers={"If-None-Match": 'W/"something-else"'})
        assert other.status_code == 200 and other.content == first.content
    # two files have two tags
    assert client.get("/static/web/dicetable.css").headers["etag"] != client.get(f"/static/web/{SCRIPT}").headers["etag"]


def test_small_answers_and_errors_are_sent_as_they_are(client):
    r = client.get("/api/health", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and "content-encoding" not in r.headers
    r = client.get("/api/tables/nosuchtable", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 404 and "no table" in r.json()["detail"]
    _secured(r)


def test_a_real_server_gzips_over_the_network_and_the_websocket_keeps_permessage_deflate(sqlite_url):
    from websockets.sync.client import connect

    server = ServerProcess(sqlite_url).start()
    try:
        with server.client() as c:
            made = create(c, "corsairs-of-valeria", ["human", "human"], seed=5)
            with httpx.stream("GET", server.base + f"/static/web/{SCRIPT}",
                              headers={"Accept-Encoding": "gzip"}) as r:
                body = b"".join(r.iter_raw())
            assert r.headers["content-encoding"] == "gzip"
            assert gzip.decompress(body) == (STATIC / SCRIPT).read_bytes()
            assert len(body) < len(gzip.decompress(body)) / 2
            with connect(server.ws_url(made["table_id"])) as ws:
                assert "permessage-deflate" in (ws.response.headers.get("Sec-WebSocket-Extensions") or "")
                assert b'"type":"view"' in ws.recv(timeout=10).encode()
    finally:
        server.stop()
