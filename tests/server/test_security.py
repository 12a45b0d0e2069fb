"""Browser protections (WEB.md, Security): headers on every answer, JSON-only state changes, no API docs
page from a CDN, redirects that never name a host taken from the request."""

from __future__ import annotations

import json
import random
import re

import pytest
from fastapi.testclient import TestClient

from dicetable.engine import get_game, new_game
from dicetable.engine.markup import as_parts, assemble
from dicetable.engine.testing import shipped_games
from dicetable.web import create_site
from dicetable.server.settings import Settings

from .helpers import auth, create, tokens_of

TABLE = {"game": "corsairs-of-valeria", "players": 2}


def _directives(csp: str) -> dict[str, list[str]]:
    return {d.split()[0]: d.split()[1:] for d in (p.strip() for p in csp.split(";")) if d}


@pytest.fixture
def app_client(sqlite_url):
    with TestClient(create_site(sqlite_url)) as c:
        yield c


def _check_headers(r) -> None:
    csp = _directives(r.headers["content-security-policy"])
    assert csp["script-src"] == ["'self'"], csp  # no inline script, nothing from elsewhere
    assert csp["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in csp["style-src"] and "'unsafe-eval'" not in csp["default-src"]
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_every_answer_carries_the_security_headers(app_client):
    made = create(app_client, "kingdom-of-dice", ["human"], seed=1)
    tid, token = made["table_id"], made["seats"][0]["token"]
    answers = [app_client.get("/"), app_client.get(f"/tables/{tid}?token={token}"),
               app_client.get(f"/tables/{tid}/replay"), app_client.get("/static/web/dicetable.js"),
               app_client.get("/static/web/dicetable.css"), app_client.get("/api/health"),
               app_client.get("/api/nothing"), app_client.get(f"/api/tables/{tid}", headers=auth(token)),
               app_client.post("/api/tables", content=b"game=x", headers={"Content-Type": "text/plain"}),
               app_client.post("/api/tables", json={**TABLE, "pad": "x" * 20_000})]
    assert [r.status_code for r in answers] == [200, 200, 200, 200, 200, 200, 404, 200, 415, 413]
    for r in answers:
        _check_headers(r)


@pytest.mark.parametrize("content_type,body", [
    ("application/x-www-form-urlencoded", b'{"game": "corsairs-of-valeria", "players": 2}'),
    ("text/plain", b'{"game": "corsairs-of-valeria", "players": 2}'),
    ("multipart/form-data; boundary=x", b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'),
    (None, b'{"game": "corsairs-of-valeria", "players": 2}'),  # fetch(url, {mode: "no-cors", body: blob})
])
def test_a_state_change_without_a_json_content_type_is_415_and_stores_nothing(app_client, content_type, body):
    headers = {"Content-Type": content_type} if content_type else {}
    r = app_client.post("/api/tables", content=body, headers=headers)
    assert r.status_code == 415, r.text
    assert "Content-Type: application/json" in r.json()["detail"]
    assert app_client.get("/api/tables?all=true").json()["tables"] == []


def test_json_content_types_and_bodiless_calls_still_work(app_client):
    r = app_client.post("/api/tables", content=json.dumps(TABLE).encode(),
                        headers={"Content-Type": "Application/JSON; charset=utf-8"})
    assert r.status_code == 201, r.text
    made = create(app_client, "kingdom-of-dice", ["human"], seed=3)
    token = made["seats"][0]["token"]
    # handing a seat to its bot takes an optional body: none at all (no Content-Type) is fine
    r = app_client.post(f"/api/tables/{made['table_id']}/seats/0/bot", headers=auth(token))
    assert r.status_code == 200, r.text
    # a seat action sent as a form is refused like a table creation
    r = app_client.post(f"/api/tables/{made['table_id']}/seats/0/take", headers={**auth(token),
                        "Content-Type": "application/x-www-form-urlencoded"}, content=b"a=1")
    assert r.status_code == 415


def test_api_docs_page_is_off_by_default_and_the_schema_stays(sqlite_url):
    with TestClient(create_site(sqlite_url)) as c:
        assert c.get("/api/docs").status_code == 404
        assert "cdn" not in c.get("/api/nothing").text
        schema = c.get("/api/openapi.json")
        assert schema.status_code == 200 and "/api/tables" in schema.json()["paths"]
    with TestClient(create_site(sqlite_url, settings=Settings(api_docs=True))) as c:
        page = c.get("/api/docs")
        assert page.status_code == 200 and "swagger" in page.text.lower()
        assert _directives(page.headers["content-security-policy"])["frame-ancestors"] == ["'none'"]


def test_redirects_never_name_the_host_the_request_gave(sqlite_url):
    with TestClient(create_site(sqlite_url)) as c:
        r = c.get("/api/tables/", headers={"Host": "evil.example"}, follow_redirects=False)
        assert r.status_code in (301, 302, 307, 308)
        assert r.headers["location"] == "/api/tables", r.headers["location"]
    with TestClient(create_site(sqlite_url, settings=Settings(allowed_hosts=("dice.example",)))) as c:
        r = c.get("/api/tables/", headers={"Host": "dice.example"}, follow_redirects=False)
        assert r.headers["location"] == "http://dice.example/api/tables"
        r = c.get("/api/tables/", headers={"Host": "evil.example"}, follow_redirects=False)
        assert r.headers["location"] == "/api/tables"


# ------------------------------------------------------------ what the policy must allow
TEMPLATES = [p for p in (__import__("pathlib").Path(__file__).parents[2] / "src/dicetable/web/templates").glob("*")]


def _inline_problems(html: str) -> list[str]:
    """Markup the Content-Security-Policy would block: inline scripts and styles, event handler attributes."""
    problems = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    problems += re.findall(r"<style\b[^>]*>", html)
    problems += re.findall(r"\s(on[a-z]+|style)\s*=", html)
    problems += re.findall(r"(?:src|href)\s*=\s*[\"']?(?:https?:)?//", html)
    problems += re.findall(r"javascript:", html)
    return problems


def test_templates_hold_nothing_the_policy_blocks():
    assert len(TEMPLATES) >= 4
    for path in TEMPLATES:
        assert _inline_problems(path.read_text()) == [], path.name


@pytest.mark.parametrize("game", [spec.id for spec in shipped_games() if spec.board_view is not None])
def test_boards_hold_nothing_the_policy_blocks(game):
    """The boards the page puts in the DOM carry no inline style or handler (``style-src 'self'``)."""
    spec = get_game(game)
    rng = random.Random(5)
    state = new_game(game, spec.min_players if spec.min_players > 1 else 2, seed=5)
    for _ in range(40):
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        for viewer in (seat, None):
            html = assemble(as_parts(spec.board_view(state.observation(viewer),
                                                     [a.to_json() for a in legal] if viewer is not None else [],
                                                     viewer)))
            assert _inline_problems(html) == [], html[:300]
        state.apply(rng.choice(legal).id, seat)


def test_two_seat_table_plays_on_with_headers(app_client):
    """A whole exchange of the contract still works under the guard (views, actions, spectators)."""
    made = create(app_client, "corsairs-of-valeria", ["human", "human"], seed=2)
    tokens = tokens_of(made)
    tid = made["table_id"]
    view = app_client.get(f"/api/tables/{tid}").json()
    mover = view["to_move"][0]
    mine = app_client.get(f"/api/tables/{tid}", headers=auth(tokens[mover])).json()
    r = app_client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[mover]),
                        json={"action": mine["legal_actions"][0]["id"], "version": mine["version"]})
    assert r.status_code == 200 and r.json()["version"] == mine["version"] + 1
    _check_headers(r)
