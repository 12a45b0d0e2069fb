"""Refusals a page shows are in a player's words, with no API path (web25a, finding 5): two strangers
take the last open seat of a listed table at once, and the loser reads "Someone took the last seat a
moment before you"; a seat's move refused while its bot plays, or after the game, names no endpoint.
"""

from __future__ import annotations

import time

from .helpers import auth, create, tokens_of


def _no_api_words(detail: str) -> None:
    assert "/api/" not in detail and "GET " not in detail and "POST " not in detail, detail


def test_the_loser_of_a_race_for_the_last_seat_reads_a_players_words(client):
    made = create(client, "kingdom-of-dice", ["human", "human"], listed=True)
    tid = made["table_id"]
    assert client.post(f"/api/lobby/{tid}/join", json={}).status_code == 200
    late = client.post(f"/api/lobby/{tid}/join", json={})
    assert late.status_code == 409
    detail = late.json()["detail"]
    assert detail == ("no seat is open: someone took the last seat a moment before you; "
                      "the lobby lists the tables with open seats")
    one = client.post(f"/api/lobby/{tid}/join", json={"seat": 1})
    assert one.status_code == 409 and "a moment before you" in one.json()["detail"]
    _no_api_words(one.json()["detail"])
    missing = client.post("/api/lobby/nosuchtable/join", json={})
    assert missing.status_code == 404
    _no_api_words(missing.json()["detail"])


def test_a_move_refused_at_the_table_page_names_no_endpoint(client):
    made = create(client, "kingdom-of-dice", ["human", "human"])
    tid, tokens = made["table_id"], tokens_of(made)
    view = client.get(f"/api/tables/{tid}").json()
    idle = 1 - view["to_move"][0]  # the seat not to move: its bot does nothing yet
    assert client.post(f"/api/tables/{tid}/seats/{idle}/bot", json={}, headers=auth(tokens[idle])).status_code == 200
    r = client.post(f"/api/tables/{tid}/actions", json={"action": "x", "version": view["version"]},
                    headers=auth(tokens[idle]))
    assert r.status_code == 409 and "take my seat back" in r.json()["detail"], r.text
    _no_api_words(r.json()["detail"])
    mover = 1 - idle
    assert client.post(f"/api/tables/{tid}/seats/{mover}/bot", json={}, headers=auth(tokens[mover])).status_code == 200
    deadline = time.time() + 120
    while not (last := client.get(f"/api/tables/{tid}").json())["over"]:
        assert time.time() < deadline, "the bots never finished"
        time.sleep(0.05)
    over = client.post(f"/api/tables/{tid}/actions", json={"action": "x", "version": last["version"]},
                       headers=auth(tokens[0]))
    assert over.status_code == 422 and "replay" in over.json()["detail"], over.text
    _no_api_words(over.json()["detail"])
