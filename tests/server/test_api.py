"""The HTTP contract of WEB.md, in-process (FastAPI's TestClient), on SQLite and on PostgreSQL.

Full games of all five titles between API clients and bots; two human seats
at one table; a spectator; joining by a seat's link; reconnecting over the
WebSocket; undo, handing a seat to its bot and taking it back, the turn
clock, the record once over, the table list.
"""

from __future__ import annotations

import json
import time

import pytest

from dicetable.engine import list_games, run_replay
from dicetable.engine.testing import shipped_games

from .helpers import auth, create, drive, follow, mover_view, tokens_of

#: (game, seats) of every shipped game: a human against the cheapest bot that plays sensibly (greedy)
GAMES = [(spec.id, ["human"] + ["greedy"] * (max(2, spec.min_players) - 1)) for spec in shipped_games()]


def test_registry_lists_every_game_with_players_and_options(client):
    r = client.get("/api/games")
    assert r.status_code == 200
    body = r.json()
    by_id = {g["id"]: g for g in body["games"]}
    assert set(by_id) == {s.id for s in list_games()}
    assert (by_id["corsairs-of-valeria"]["min_players"], by_id["corsairs-of-valeria"]["max_players"]) == (2, 5)
    assert (by_id["kingdom-of-dice"]["min_players"], by_id["kingdom-of-dice"]["max_players"]) == (1, 4)
    cat = next(o for o in by_id["kingdom-of-dice"]["options"] if o["name"] == "cat_level")
    assert cat["players"] == [1] and cat["type"] == "int"
    first = next(o for o in by_id["corsairs-of-valeria"]["options"] if o["name"] == "first_player")
    assert first["choices_by_players"]["2"] == ["random", "1", "2"]   # the lobby offers only seats that exist
    assert first["choices_by_players"]["5"] == ["random", "1", "2", "3", "4", "5"]
    assert cat["choices_by_players"] is None
    assert set(body["bot_levels"]) >= {"easy", "medium", "hard", "greedy", "random"}
    assert "mcts" not in body["bot_levels"], "mcts is medium under another name: listed once"


@pytest.mark.parametrize("game,seats", GAMES, ids=[g for g, _ in GAMES])
def test_full_game_against_bots(client, game, seats):
    """An API client plays seat 0 to the end against bots; the record replays to the same result."""
    made = create(client, game, seats, seed=11)
    tid = made["table_id"]
    assert [s["kind"] for s in made["seats"]] == ["human" if s == "human" else "bot" for s in seats]
    assert "token" in made["seats"][0] and all("token" not in s for s in made["seats"][1:])
    last, moves = drive(client, tid, tokens_of(made), seed=5)
    assert last["over"] and moves > 0
    assert last["legal_actions"] == [] and last["to_move"] == []
    record = client.get(f"/api/tables/{tid}/record").json()
    assert record["game"] == game and record["seed"] == 11 and len(record["actions"]) == last["version"]
    replayed = run_replay(record)  # the stored record is the game: replaying it gives the same end
    assert list(replayed.scores) == last["scores"] and list(replayed.winners) == last["winners"]
    assert sum(1 for seat, _ in record["actions"] if seat == 0) == moves


def test_two_humans_a_spectator_and_join_by_link(client):
    made = create(client, "valeria-card-kingdoms", ["human", "human"], seed=3)
    tid = made["table_id"]
    listed = {t["table_id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[tid]["open"] and listed[tid]["status"] == "running"
    assert "token" not in json.dumps(listed[tid])
    # each seat's link is an invite (claimed once: test_claimed_seats.py); its token used directly claims nothing
    assert all(s["link"].startswith(f"/tables/{tid}#invite={s['seat']}.") for s in made["seats"])
    tokens = [made["seats"][0]["token"], made["seats"][1]["token"]]
    views = [client.get(f"/api/tables/{tid}", headers=auth(t)).json() for t in tokens]
    assert [v["seat"] for v in views] == [0, 1]
    listed = {t["table_id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert not listed[tid]["open"]  # both seats have joined
    spectator = client.get(f"/api/tables/{tid}").json()
    assert spectator["seat"] is None and spectator["legal_actions"] == [] and spectator["decision"] is None
    # the seat not to move has no actions, and cannot act (first past the simultaneous Duke choice)
    while len(views[0]["to_move"]) != 1:
        for seat in views[0]["to_move"]:
            view = client.get(f"/api/tables/{tid}", headers=auth(tokens[seat])).json()
            r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]),
                            json={"action": view["legal_actions"][0]["id"], "version": view["version"]})
            assert r.status_code == 200
        views = [client.get(f"/api/tables/{tid}", headers=auth(t)).json() for t in tokens]
    mover = views[0]["to_move"][0]
    other = 1 - mover
    assert views[other]["legal_actions"] == []
    r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[other]),
                    json={"action": views[mover]["legal_actions"][0]["id"], "version": views[0]["version"]})
    assert r.status_code == 422 and "not Player" in r.json()["detail"]
    last, moves = drive(client, tid, dict(enumerate(tokens)), seed=2)
    assert last["over"] and moves + views[0]["version"] == last["version"]
    assert client.get(f"/api/tables/{tid}").json()["winners"] == last["winners"]


def test_websocket_pushes_every_change_in_order_and_reconnect_gets_the_current_view(client):
    made = create(client, "kingdom-of-dice", ["human", "greedy"], seed=4)
    tid, token = made["table_id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/api/tables/{tid}/live?token={token}") as ws, \
            client.websocket_connect(f"/api/tables/{tid}/live") as spectator:
        first = json.loads(ws.receive_text())
        assert first["type"] == "view" and first["seat"] == 0
        seen_spectator = json.loads(spectator.receive_text())
        assert seen_spectator["seat"] is None
        view = first
        for _ in range(3):
            while not view["legal_actions"]:  # wait for this seat's turn (bots move on their own)
                view = json.loads(ws.receive_text())
            r = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                            json={"action": view["legal_actions"][0]["id"], "version": view["version"]})
            assert r.status_code == 200
            version = r.json()["version"]
            view = follow(view, json.loads(ws.receive_text()))
            while view["version"] < version:  # a change at an older version (a connection changed)
                view = follow(view, json.loads(ws.receive_text()))
            assert view["version"] == version and view["observation"] == r.json()["observation"]
        # the spectator got every version too, in order, each a change of the one before
        seen = [seen_spectator["version"]]
        while seen_spectator["version"] < version:
            seen_spectator = follow(seen_spectator, json.loads(spectator.receive_text()))
            seen.append(seen_spectator["version"])
        assert seen == sorted(seen) and set(range(seen[0], version + 1)) <= set(seen)
        assert seen_spectator["observation"] == client.get(f"/api/tables/{tid}").json()["observation"]
    with client.websocket_connect(f"/api/tables/{tid}/live?token={token}") as ws:
        now = json.loads(ws.receive_text())  # at once: the current view
        current = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
        assert now["version"] == current["version"] >= version
        assert now["observation"] == current["observation"]


def test_websocket_versions_never_go_back(client):
    """Every push of a seat has a version at least the previous one's, and no version is skipped."""
    made = create(client, "corsairs-of-valeria", ["human", "human"], seed=8)
    tid = made["table_id"]
    tokens = tokens_of(made)
    with client.websocket_connect(f"/api/tables/{tid}/live?token={tokens[1]}") as ws:
        first = json.loads(ws.receive_text())
        assert first["type"] == "view"
        versions = [first["version"]]
        for step in range(6):
            view = client.get(f"/api/tables/{tid}", headers=auth(tokens[0])).json()
            seat = view["to_move"][0]
            view = client.get(f"/api/tables/{tid}", headers=auth(tokens[seat])).json()
            r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]),
                            json={"action": view["legal_actions"][-1]["id"], "version": view["version"]})
            assert r.status_code == 200
            change = json.loads(ws.receive_text())
            assert change["type"] == "change" and change["base"] == [0, versions[-1]]
            versions.append(change["version"])
    assert versions == list(range(versions[0], versions[0] + 7))


def test_stale_version_is_409_and_changes_nothing(client):
    made = create(client, "corsairs-of-valeria", ["human", "human"], seed=9)
    tid, tokens = made["table_id"], tokens_of(made)
    seat, view = mover_view(client, tid, tokens)
    action = view["legal_actions"][0]["id"]
    r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]), json={"action": action, "version": 0})
    assert r.status_code == 200
    before = client.get(f"/api/tables/{tid}", headers=auth(tokens[seat])).json()
    r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]), json={"action": action, "version": 0})
    assert r.status_code == 409 and "version 0" in r.json()["detail"]
    assert client.get(f"/api/tables/{tid}", headers=auth(tokens[seat])).json() == before


def _corsairs_at_a_mark(client) -> tuple[str, dict, int, dict]:
    """A two-human Corsairs table played by its first mover up to a "mark a die" decision:
    ``(table id, {seat: token}, the seat, its view)``."""
    made = create(client, "corsairs-of-valeria", ["human", "human"], seed=21)
    tid, tokens = made["table_id"], tokens_of(made)
    seat = client.get(f"/api/tables/{tid}").json()["to_move"][0]
    view = client.get(f"/api/tables/{tid}", headers=auth(tokens[seat])).json()
    while not any(a["id"].startswith("mark:") for a in view["legal_actions"]):
        r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]),
                        json={"action": view["legal_actions"][0]["id"], "version": view["version"]})
        assert r.status_code == 200
        view = r.json()
        assert seat in view["to_move"]
    return tid, tokens, seat, view


def test_undo_takes_back_a_move_that_drew_nothing(client):
    """Corsairs Phase B: marking a die to re-roll draws nothing and reveals nothing, so it can be taken back;
    the re-roll itself rolls dice, so it cannot."""
    tid, tokens, seat, view = _corsairs_at_a_mark(client)
    tok = tokens[seat]
    mark = next(a["id"] for a in view["legal_actions"] if a["id"].startswith("mark:"))
    before = view
    after = client.post(f"/api/tables/{tid}/actions", headers=auth(tok),
                        json={"action": mark, "version": view["version"]}).json()
    assert after["can_undo"]
    other = tokens[1 - seat]
    r = client.post(f"/api/tables/{tid}/undo", headers=auth(other), json={"version": after["version"]})
    assert r.status_code == 422  # not the other seat's move to take back
    r = client.post(f"/api/tables/{tid}/undo", headers=auth(tok), json={"version": after["version"]})
    assert r.status_code == 200, r.text
    undone = r.json()
    assert undone["version"] == before["version"]
    # the version went back, the count of undos went up: (undos, version) still orders the views
    assert (before["undos"], after["undos"], undone["undos"]) == (0, 0, 1)
    assert undone["observation"] == before["observation"] and undone["legal_actions"] == before["legal_actions"]
    # the re-roll rolls dice: it is not undoable
    marked = client.post(f"/api/tables/{tid}/actions", headers=auth(tok),
                         json={"action": mark, "version": undone["version"]}).json()
    reroll = next(a["id"] for a in marked["legal_actions"] if a["id"] == "reroll")
    rolled = client.post(f"/api/tables/{tid}/actions", headers=auth(tok),
                         json={"action": reroll, "version": marked["version"]}).json()
    assert not rolled["can_undo"]
    r = client.post(f"/api/tables/{tid}/undo", headers=auth(tok), json={"version": rolled["version"]})
    assert r.status_code == 422 and "cannot be taken back" in r.json()["detail"]


def test_hand_a_seat_to_its_bot_and_take_it_back(client):
    made = create(client, "kingdom-of-dice", ["human", "human"], seed=5)
    tid, tokens = made["table_id"], tokens_of(made)
    # another seat may not hand it over while its clock has not run out (there is no clock here)
    r = client.post(f"/api/tables/{tid}/seats/0/bot", headers=auth(tokens[1]))
    assert r.status_code == 403
    r = client.post(f"/api/tables/{tid}/seats/0/bot", headers=auth(tokens[0]), json={"level": "random"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][0]["autoplay"]
    # seat 0's bot plays its turn: wait until seat 1 is to move
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{tid}").json()["to_move"] != [1]:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    r = client.post(f"/api/tables/{tid}/seats/0/take", headers=auth(tokens[1]))
    assert r.status_code == 403
    r = client.post(f"/api/tables/{tid}/seats/0/take", headers=auth(tokens[0]))
    assert r.status_code == 200 and not r.json()["seats"][0]["autoplay"]
    record = client.get(f"/api/tables/{tid}").json()
    assert record["version"] > 0


def test_clock_runs_out_and_the_bot_plays_and_the_log_says_so(sqlite_url):
    from fastapi.testclient import TestClient

    from dicetable.web import create_site
    from dicetable.server import tables as tables_mod

    with TestClient(create_site(sqlite_url)) as client:
        made = create(client, "kingdom-of-dice", ["human", "human"], seed=6, clock=5)
        tid, tokens = made["table_id"], tokens_of(made)
        manager = client.app.state.manager
        lt = manager.get(tid)
        assert lt.timer is not None and lt.deadline is not None
        lt.timer.cancel()  # run the expiry now instead of waiting 5 s
        manager._clock_ran_out(tid, lt.version)
        deadline = time.monotonic() + 30
        while client.get(f"/api/tables/{tid}").json()["version"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        view = client.get(f"/api/tables/{tid}", headers=auth(tokens[1])).json()
        assert any("clock ran out" in line for line in view["log"])
        assert view["seats"][0]["timed_out"]
        # now another human seat may hand seat 0 to its bot
        r = client.post(f"/api/tables/{tid}/seats/0/bot", headers=auth(tokens[1]))
        assert r.status_code == 200 and r.json()["seats"][0]["autoplay"]
        assert r.json()["seats"][0]["level"] == tables_mod.DEFAULT_STAND_IN  # the stand-in bot plays it now


def test_record_is_refused_while_running_and_lists_hide_tokens(client):
    made = create(client, "biblios-dice", ["human", "greedy"], seed=2)
    tid = made["table_id"]
    r = client.get(f"/api/tables/{tid}/record")
    assert r.status_code == 403 and "seed" in r.json()["detail"]
    view = client.get(f"/api/tables/{tid}", headers=auth(made["seats"][0]["token"])).json()
    assert "seed" not in view and "seed" not in view["observation"]


def test_search_bot_moves_from_its_worker_process_and_hint_ranks_legal_actions(sqlite_url):
    """An ``easy`` (search) bot seat moves on its own; the hint lists at most three of the seat's legal actions."""
    from fastapi.testclient import TestClient

    from dicetable.web import create_site

    with TestClient(create_site(sqlite_url)) as client:
        made = create(client, "valeria-card-kingdoms", ["easy", "human"], seed=12)
        tid, tok = made["table_id"], made["seats"][1]["token"]
        deadline = time.monotonic() + 90
        view = client.get(f"/api/tables/{tid}", headers=auth(tok)).json()
        while not view["legal_actions"]:
            assert time.monotonic() < deadline, "the easy bot did not move"
            time.sleep(0.05)
            view = client.get(f"/api/tables/{tid}", headers=auth(tok)).json()
        # the Duke choice is simultaneous: the bot's choice is stored once it is made
        while client.app.state.manager.get(tid).state.to_move != (1,):
            assert time.monotonic() < deadline, "the easy bot did not choose its Duke"
            time.sleep(0.05)
        assert client.app.state.manager.store.load(tid).actions[0].seat == 0
        hint = client.get(f"/api/tables/{tid}/hint", headers=auth(tok))
        assert hint.status_code == 200, hint.text
        rows = hint.json()["hints"]
        legal = {a["id"] for a in client.get(f"/api/tables/{tid}", headers=auth(tok)).json()["legal_actions"]}
        assert 1 <= len(rows) <= 3 and all(r["id"] in legal for r in rows)
        assert all(0 <= r["share"] <= 1 for r in rows) and sum(r["share"] for r in rows) <= 1.0001
        assert client.get(f"/api/tables/{tid}/hint").status_code == 401


def test_the_count_of_undos_survives_a_restart(sqlite_url):
    """A view's ``undos`` is stored with the table: a new server process on the same database
    reports the same (undos, version) as the one that took the move back."""
    from fastapi.testclient import TestClient

    from dicetable.web import create_site

    with TestClient(create_site(sqlite_url)) as client:
        tid, tokens, seat, view = _corsairs_at_a_mark(client)
        tok = tokens[seat]
        mark = next(a["id"] for a in view["legal_actions"] if a["id"].startswith("mark:"))
        for _ in range(2):  # mark, take it back, twice
            after = client.post(f"/api/tables/{tid}/actions", headers=auth(tok),
                                json={"action": mark, "version": view["version"]}).json()
            view = client.post(f"/api/tables/{tid}/undo", headers=auth(tok),
                               json={"version": after["version"]}).json()
        assert view["undos"] == 2
    with TestClient(create_site(sqlite_url)) as client:
        again = client.get(f"/api/tables/{tid}", headers=auth(tok)).json()
        assert (again["undos"], again["version"]) == (2, view["version"])


@pytest.mark.parametrize("game,seed", [("biblios-dice", 3), ("valeria-card-kingdoms", 3)])
def test_scores_are_public_and_own_score_adds_what_only_the_seat_sees(sqlite_url, game, seed):
    """Games with hidden scoring (Biblios Dice: secret Gold, VP tokens, face-down cards; Card Kingdoms:
    the Duke): mid-game every seat's ``scores`` is the spectator's (comparable panels), and a seat's
    ``own_score`` is its own view of its score, ``total - hidden`` being the public one."""
    import random

    from fastapi.testclient import TestClient

    from dicetable.web import create_site

    rng = random.Random(seed)
    with TestClient(create_site(sqlite_url)) as client:
        made = create(client, game, ["human"] * 3, seed=seed)
        tid, tokens = made["table_id"], tokens_of(made)
        hidden_seen = 0
        for _ in range(40):
            state = client.app.state.manager.get(tid).state  # each action makes a new state object
            spectator = client.get(f"/api/tables/{tid}").json()
            if spectator["over"]:
                break
            assert spectator["own_score"] is None
            assert spectator["scores"] == list(state.visible_scores(None))
            for seat, tok in tokens.items():
                view = client.get(f"/api/tables/{tid}", headers=auth(tok)).json()
                assert view["scores"] == spectator["scores"]
                own = view["own_score"]
                mine = state.visible_scores(seat)[seat]
                if mine == spectator["scores"][seat]:
                    assert own is None  # nothing hidden
                else:
                    hidden_seen += 1
                    assert own == {"seat": seat, "total": mine, "hidden": mine - spectator["scores"][seat]}
            mover = spectator["to_move"][0]
            view = client.get(f"/api/tables/{tid}", headers=auth(tokens[mover])).json()
            r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[mover]),
                            json={"action": rng.choice(view["legal_actions"])["id"], "version": view["version"]})
            assert r.status_code == 200, r.text
        assert hidden_seen > 0


def test_a_table_made_without_seats_has_every_seat_human(client):
    """README: ``seats`` is optional in ``POST /api/tables``; without it every seat is a person's."""
    r = client.post("/api/tables", json={"game": "corsairs-of-valeria", "players": 3})
    assert r.status_code == 201, r.text
    seats = r.json()["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert all(s["kind"] == "human" and s["token"] for s in seats)
