"""Bad input: a table of malformed requests, each answered with a clear 4xx that changes nothing.

Every case names its request, the status expected and words the message must
contain (what was wrong, and what is allowed). Before and after each request
the whole store (every table, seat and action) and the live views are
fingerprinted: a refused request must leave both exactly as they were.
"""

from __future__ import annotations

import json
import time

import pytest

from .helpers import auth, create, tokens_of

BIG = "x" * 20_000


def _setup(client) -> dict:
    running = create(client, "corsairs-of-valeria", ["human", "human"], seed=1)
    finished = create(client, "kingdom-of-dice", ["human"], seed=2, options={"cat_level": 1})
    ftok = finished["seats"][0]["token"]
    r = client.post(f"/api/tables/{finished['table_id']}/seats/0/bot", headers=auth(ftok), json={"level": "random"})
    assert r.status_code == 200
    deadline = time.monotonic() + 60
    while not client.get(f"/api/tables/{finished['table_id']}").json()["over"]:
        assert time.monotonic() < deadline, "the bot did not finish the solo game"
        time.sleep(0.02)
    assert client.post(f"/api/tables/{finished['table_id']}/seats/0/take", headers=auth(ftok)).status_code == 200
    tokens = tokens_of(running)
    tid = running["table_id"]
    for token in tokens.values():  # both seats join (their first use of the token is recorded)
        assert client.get(f"/api/tables/{tid}", headers=auth(token)).status_code == 200
    view = client.get(f"/api/tables/{tid}").json()
    mover = view["to_move"][0]
    legal = client.get(f"/api/tables/{tid}", headers=auth(tokens[mover])).json()["legal_actions"][0]["id"]
    return {"tid": tid, "mover": tokens[mover], "mover_seat": mover, "waiter": tokens[1 - mover], "legal": legal,
            "fid": finished["table_id"], "ftok": ftok, "version": view["version"]}


def _cases(s: dict) -> list:
    """(name, method, path, headers, body, status, words); body is a dict (JSON), bytes/str (raw) or None."""
    tid, fid, mover, waiter = s["tid"], s["fid"], s["mover"], s["waiter"]
    act = f"/api/tables/{tid}/actions"
    ok_action = {"action": s["legal"], "version": s["version"]}
    table = {"game": "corsairs-of-valeria", "players": 2}
    return [
        ("bad JSON", "POST", "/api/tables", {}, "{bad", 422, ["not valid JSON", "a table is"]),
        # a long value in the path is named by its length, not echoed back whole
        ("a 5000-character table id", "GET", "/api/tables/" + "t" * 5000, {}, None, 404,
         ["there is no table 'ttt", "… (5000 characters)"]),
        ("a 3000-character player name", "GET", "/api/players/" + "p" * 3000, {}, None, 404,
         ["there is no player named 'ppp", "… (3000 characters)"]),
        ("a list, not an object", "POST", "/api/tables", {}, [], 422, ["object", "a table is"]),
        ("players as text", "POST", "/api/tables", {}, {**table, "players": "2"}, 422, ["players", "integer"]),
        ("players as a fraction", "POST", "/api/tables", {}, {**table, "players": 2.5}, 422, ["players"]),
        ("players as true", "POST", "/api/tables", {}, {**table, "players": True}, 422, ["players"]),
        ("players missing", "POST", "/api/tables", {}, {"game": "corsairs-of-valeria"}, 422, ["players is missing"]),
        ("unknown game", "POST", "/api/tables", {}, {**table, "game": "chess"}, 422,
         ["unknown game", "corsairs-of-valeria"]),
        ("too many players", "POST", "/api/tables", {}, {**table, "players": 9}, 422, ["2 to 5", "not 9"]),
        ("no players", "POST", "/api/tables", {}, {**table, "players": 0}, 422, ["not 0"]),
        ("unknown option", "POST", "/api/tables", {}, {**table, "options": {"speed": "fast"}}, 422,
         ["no option 'speed'", "captains"]),
        ("option value not allowed", "POST", "/api/tables", {},
         {"game": "kingdom-of-dice", "players": 1, "options": {"cat_level": 9}}, 422, ["cat_level", "allowed"]),
        ("option for another player count", "POST", "/api/tables", {},
         {"game": "kingdom-of-dice", "players": 2, "options": {"cat_level": 2}}, 422, ["applies only", "1"]),
        ("options not an object", "POST", "/api/tables", {}, {**table, "options": [1]}, 422, ["options"]),
        ("option value an object", "POST", "/api/tables", {}, {**table, "options": {"captains": {}}}, 422,
         ["options.captains: must be text, true or false, or a whole number (got an object)"]),
        ("option value null", "POST", "/api/tables", {}, {**table, "options": {"captains": None}}, 422,
         ["options.captains: must be text, true or false, or a whole number (got null)"]),
        ("seat list too short", "POST", "/api/tables", {}, {**table, "seats": [{"kind": "human"}]}, 422,
         ["1 seat(s) for 2 players"]),
        ("seat kind unknown", "POST", "/api/tables", {}, {**table, "seats": [{"kind": "robot"}, {"kind": "human"}]},
         422, ["kind", "human", "bot"]),
        ("bot level unknown", "POST", "/api/tables", {},
         {**table, "seats": [{"kind": "human"}, {"kind": "bot", "level": "genius"}]}, 422,
         ["genius", "greedy", "hard"]),
        ("bot without level", "POST", "/api/tables", {}, {**table, "seats": [{"kind": "human"}, {"kind": "bot"}]},
         422, ["without a level", "easy"]),
        ("negative seed", "POST", "/api/tables", {}, {**table, "seed": -1}, 422,
         ["seed must be an integer 0..2**64-1 (64 bits, not negative), got -1"]),
        ("seed too large", "POST", "/api/tables", {}, {**table, "seed": 2**64}, 422,
         ["seed must be an integer 0..2**64-1 (64 bits, not negative), got 18446744073709551616"]),
        ("unknown field", "POST", "/api/tables", {}, {**table, "colour": "red"}, 422, ["colour is not a known field"]),
        ("seat name with a control character", "POST", "/api/tables", {},
         {**table, "seats": [{"kind": "human", "name": "Ann\u0000"}, {"kind": "human"}]}, 422,
         ["seats.0.name", "control", "printable"]),
        ("seat name with a bidi override", "POST", "/api/tables", {},
         {**table, "seats": [{"kind": "human", "name": "\u202eAnn"}, {"kind": "human"}]}, 422,
         ["seats.0.name", "invisible"]),
        ("blank seat name", "POST", "/api/tables", {},
         {**table, "seats": [{"kind": "human"}, {"kind": "human", "name": "   "}]}, 422,
         ["seats.1.name", "blank"]),
        ("token in the address of an API call", "GET", f"/api/tables/{tid}?token={mover}", {}, None, 400,
         ["Authorization: Bearer", "not as ?token="]),
        ("token in the address of an action", "POST", f"{act}?x=1&token={mover}", {}, ok_action, 400,
         ["Authorization: Bearer"]),
        ("list flag not a boolean", "GET", "/api/tables?all=maybe", {}, None, 422, ["all", "boolean"]),
        ("clock too short", "POST", "/api/tables", {}, {**table, "clock": 1}, 422, ["clock"]),
        ("huge body", "POST", "/api/tables", {}, {**table, "pad": BIG}, 413, ["larger than"]),
        ("Content-Length not a number", "POST", "/api/tables", {"Content-Length": "abc"}, "{}", 400,
         ["Content-Length"]),
        ("a form-encoded creation", "POST", "/api/tables", {"Content-Type": "application/x-www-form-urlencoded"},
         "game=corsairs-of-valeria&players=2", 415, ["Content-Type: application/json"]),
        ("a JSON body sent as text/plain", "POST", act, {**auth(mover), "Content-Type": "text/plain"},
         json.dumps(ok_action), 415, ["Content-Type: application/json", "text/plain"]),
        ("unknown table view", "GET", "/api/tables/nosuchtable", {}, None, 404, ["no table 'nosuchtable'"]),
        ("action at an unknown table", "POST", "/api/tables/nosuchtable/actions", auth(mover), ok_action, 404,
         ["no table"]),
        ("action without a token", "POST", act, {}, ok_action, 401, ["token", "Authorization"]),
        ("action with a wrong token", "POST", act, auth("not-a-token-of-this-table"), ok_action, 403,
         ["holds no seat"]),
        ("action with another table's token", "POST", act, auth(s["ftok"]), ok_action, 403, ["holds no seat"]),
        ("Authorization not Bearer", "POST", act, {"Authorization": "Basic abc"}, ok_action, 401, ["Bearer"]),
        ("stale version", "POST", act, auth(mover), {**ok_action, "version": s["version"] + 5}, 409,
         ["not the table's version"]),
        ("negative version", "POST", act, auth(mover), {**ok_action, "version": -1}, 422, ["version"]),
        ("version missing", "POST", act, auth(mover), {"action": s["legal"]}, 422, ["version is missing"]),
        ("action id a number", "POST", act, auth(mover), {**ok_action, "action": 3}, 422, ["action", "string"]),
        ("action id too long", "POST", act, auth(mover), {**ok_action, "action": "a" * 300}, 422, ["action"]),
        ("illegal action", "POST", act, auth(mover), {**ok_action, "action": "fly-away"}, 422,
         ["not a legal action", "legal actions:"]),
        ("acting out of turn", "POST", act, auth(waiter), ok_action, 422, ["not Player"]),
        ("action body not JSON", "POST", act, auth(mover), b"\xff\xfe\x00", 400, ["not JSON text"]),
        ("action body nested 5,000 deep", "POST", act, auth(mover), b"[" * 5000 + b"]" * 5000, 400,
         ["nests", "deeper"]),
        ("action after the end", "POST", f"/api/tables/{fid}/actions", auth(s["ftok"]),
         {"action": "stop", "version": client_version(s)}, 422, ["game is over"]),
        ("record while running", "GET", f"/api/tables/{tid}/record", {}, None, 403, ["secret", "seed"]),
        ("view with a wrong token", "GET", f"/api/tables/{tid}", auth("nope"), None, 403, ["holds no seat"]),
        ("undo with nothing to undo", "POST", f"/api/tables/{tid}/undo", auth(mover), {"version": s["version"]},
         422, ["no action to take back"]),
        ("hand an unknown seat to a bot", "POST", f"/api/tables/{tid}/seats/7/bot", auth(mover), None, 404,
         ["seats 0 to 1"]),
        ("take back another's seat", "POST", f"/api/tables/{tid}/seats/{s['mover_seat']}/take",
         auth(waiter), None, 403, ["own token"]),
        ("hand a seat to an unknown bot", "POST", f"/api/tables/{tid}/seats/0/bot", auth(mover),
         {"level": "genius"}, 422, ["genius"]),
        ("wrong method", "PUT", "/api/tables", {}, {}, 405, ["PUT is not allowed"]),
        ("no such endpoint", "GET", "/api/nothing", {}, None, 404, ["no GET /api/nothing"]),
    ]


def client_version(s: dict) -> int:
    """Filled in by the test: the finished table's version."""
    return s.get("fversion", 0)


def _fingerprint(client) -> str:
    manager = client.app.state.manager
    store = manager.store
    tables = store.list_tables()
    out = []
    for t in tables:
        record = store.load(t["table_id"])
        out.append([t, [(a.seq, a.seat, a.action, a.by) for a in record.actions],
                    [(x.seat, x.kind, x.level, x.autoplay, x.token_hash) for x in record.seats]])
    live = {tid: (lt.version, json.dumps(lt.state.to_dict(), sort_keys=True)) for tid, lt in manager.tables.items()}
    return json.dumps([out, live], sort_keys=True, default=str)


def test_every_malformed_request_gets_a_clear_4xx_and_changes_nothing(client):
    s = _setup(client)
    s["fversion"] = client.get(f"/api/tables/{s['fid']}").json()["version"]
    cases = _cases(s)
    assert len(cases) >= 30
    for name, method, path, headers, body, status, words in cases:
        before = _fingerprint(client)
        kwargs = {"headers": dict(headers)}
        if isinstance(body, (dict, list)):
            kwargs["content"] = json.dumps(body).encode()
        elif body is not None:
            kwargs["content"] = body.encode() if isinstance(body, str) else body
        if body is not None:
            kwargs["headers"].setdefault("Content-Type", "application/json")
        r = client.request(method, path, **kwargs)
        assert r.status_code == status, f"{name}: {r.status_code} {r.text}"
        detail = r.json()["detail"]
        assert isinstance(detail, str) and "Traceback" not in detail, name
        assert "t" * 100 not in detail and "p" * 100 not in detail, f"{name}: a long value echoed: {detail[:200]}"
        for word in words:
            assert word in detail, f"{name}: {word!r} not in {detail!r}"
        if not (method == "POST" and path == "/api/tables"):  # the new table's shape belongs to its POST only
            assert "a table is" not in detail, f"{name}: {detail!r}"
        assert _fingerprint(client) == before, f"{name} changed the store or a table"


@pytest.mark.parametrize("token", [None, "wrong"])
def test_websocket_refuses_a_wrong_token_or_table_with_a_message(client, token):
    made = create(client, "corsairs-of-valeria", ["human", "human"], seed=1)
    path = f"/api/tables/{made['table_id'] if token else 'nosuchtable'}/live"
    with client.websocket_connect(path + (f"?token={token}" if token else "")) as ws:
        message = json.loads(ws.receive_text())
    assert message["type"] == "error"
    assert message["status"] == (403 if token else 404)
    assert ("holds no seat" if token else "no table") in message["detail"]


@pytest.mark.parametrize("path", ["/nosuchpage", "/table/abc", "/tables/abc/replays", "/<b>x</b>"])
def test_a_browser_asking_for_a_page_that_does_not_exist_gets_a_page(client, path):
    # A mistyped address in a browser: a page in the site's look that names the address (escaped)
    # and links back to the lobby, not the API's JSON sentence about /api/openapi.json.
    page = client.get(path, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert '<meta name="viewport"' in page.text and '<a href="/">Back to the lobby</a>' in page.text
    assert "There is no page at" in page.text and "<b>x</b>" not in page.text
    # the API and programs (no text/html in Accept) keep the JSON answer of docs/web.md
    plain = client.get(path)
    assert plain.status_code == 404 and "there is no GET" in plain.json()["detail"]
    api = client.get("/api/nothing", headers={"Accept": "text/html"})
    assert api.status_code == 404 and "no GET /api/nothing" in api.json()["detail"]
