"""HTTP compression and static-file caching (issue 24 item 6): gzip for pages, scripts and views; ETag + 304.

The security layer's headers (tests/server/test_security*.py) must be on
every answer, compressed or not, and on a 304.
"""

from __future__ import annotations

import gzip
import socket
import zlib
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from dicetable.web import create_site
from dicetable.server.security import CSP, HEADERS
from dicetable.server.wsdeflate import DEFLATE_LEVEL

from .helpers import ServerProcess, create

STATIC = Path(__file__).resolve().parents[2] / "src" / "dicetable" / "web" / "static"
#: The page's script (its first module, should it be split into several).
SCRIPT = next(p.name for p in sorted(STATIC.iterdir()) if p.suffix == ".js")


@pytest.fixture
def client(sqlite_url):
    with TestClient(create_site(sqlite_url)) as c:
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
    """Gzip over a real socket; the live WebSocket deflates at ``DEFLATE_LEVEL`` (``dicetable serve``'s protocol)."""
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
            extensions, payload = _first_frame(server.port, f"/api/tables/{made['table_id']}/live")
    finally:
        server.stop()
    # the first message, compressed as the server's own context starts: zlib level DEFLATE_LEVEL, a 12-bit
    # window, memLevel 5 (uvicorn's window and memory level, docs/load.md); at zlib's default level it differs
    assert "server_max_window_bits=12" in extensions
    text = zlib.decompressobj(-12).decompress(payload + b"\x00\x00\xff\xff")
    assert text.startswith(b'{"type":"view"')

    def deflated(level: int) -> bytes:
        z = zlib.compressobj(level, zlib.DEFLATED, -12, 5)
        return (z.compress(text) + z.flush(zlib.Z_SYNC_FLUSH))[:-4]

    assert DEFLATE_LEVEL == 4 and payload == deflated(DEFLATE_LEVEL) != deflated(zlib.Z_DEFAULT_COMPRESSION)


def _first_frame(port: int, path: str) -> tuple[str, bytes]:
    """Open ``path``'s WebSocket by hand offering permessage-deflate (as Chromium does); the extensions
    the server answered and the payload of its first frame as sent (compressed, RSV1 set)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n"
                      "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            data += sock.recv(65536)
        head, data = data.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        extensions = next(line.split(b":", 1)[1].decode() for line in head.split(b"\r\n")
                          if line.lower().startswith(b"sec-websocket-extensions:"))

        def take(n: int) -> bytes:
            nonlocal data
            while len(data) < n:
                data += sock.recv(65536)
            out, data = data[:n], data[n:]
            return out

        first, second = take(2)
        assert first == 0xC1, hex(first)  # FIN, RSV1 (compressed), a text frame
        size = second & 0x7F
        size = int.from_bytes(take(2 if size == 126 else 8), "big") if size >= 126 else size
        return extensions, take(size)
