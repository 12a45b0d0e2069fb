"""The words a table's page is given: the rules that apply to the table, and seats named once (issue 25)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from dicetable.web import create_site

from .helpers import auth, create


@pytest.fixture
def app_client(sqlite_url):
    with TestClient(create_site(sqlite_url)) as c:
        yield c


def _help(client, game: str, created: dict) -> dict:
    r = client.get(f"/web/help/{game}?table={created['table_id']}")
    assert r.status_code == 200, r.text
    return r.json()


def _section_ids(rules: dict) -> set[str]:
    return {s["id"] for s in rules["sections"]}


def test_two_player_kingdom_of_dice_shows_no_solo_rules_and_solo_shows_them(app_client):
    # Kingdom of Dice rulebook, "Solo Mode": only the one-player game has the Mischievous Cat.
    two = _help(app_client, "kingdom-of-dice", create(app_client, "kingdom-of-dice", ["human", "easy"], seed=1))
    solo = _help(app_client, "kingdom-of-dice", create(app_client, "kingdom-of-dice", ["human"], seed=1))
    assert "solo" not in _section_ids(two) and "mischievous-cat" not in {c["id"] for c in two["components"]}
    assert "solo" in _section_ids(solo) and "mischievous-cat" in {c["id"] for c in solo["components"]}
    assert _section_ids(two) == _section_ids(solo) - {"solo"}


def test_rules_follow_the_player_count_and_the_options(app_client):
    # Biblios Dice, "Rules for 2 Players": Cadfael plays only in the two-player game.
    two = _help(app_client, "biblios-dice", create(app_client, "biblios-dice", ["human", "easy"], seed=2))
    three = _help(app_client, "biblios-dice", create(app_client, "biblios-dice", ["human", "easy", "easy"], seed=2))
    assert "two-players" in _section_ids(two) and "two-players" not in _section_ids(three)
    assert "hidden-objectives" not in _section_ids(two)            # the variant is off by default
    variant = create(app_client, "biblios-dice", ["human", "easy"], seed=2, options={"hidden_objectives": True})
    assert "hidden-objectives" in _section_ids(_help(app_client, "biblios-dice", variant))
    # Dice Kingdoms, "Winter Rules": only with the Winter sheets.
    summer = create(app_client, "dice-kingdoms-of-valeria", ["human", "easy"], seed=3)
    winter = create(app_client, "dice-kingdoms-of-valeria", ["human", "easy"], seed=3, options={"sheets": "winter"})
    assert "winter" not in _section_ids(_help(app_client, "dice-kingdoms-of-valeria", summer))
    assert "winter" in _section_ids(_help(app_client, "dice-kingdoms-of-valeria", winter))
    # Biblios starts below zero: the page is told what the number is.
    assert "penalty" in two["score"] and "4th space" in two["score"]


def test_help_for_a_player_count_and_bad_requests(app_client):
    r = app_client.get("/web/help/kingdom-of-dice?players=3")
    assert r.status_code == 200 and "solo" not in _section_ids(r.json())
    assert "solo" in _section_ids(app_client.get("/web/help/kingdom-of-dice").json())   # the whole help
    r = app_client.get("/web/help/kingdom-of-dice?players=9")
    assert r.status_code == 422 and "1 to 4 players" in r.json()["detail"]
    assert app_client.get("/web/help/kingdom-of-dice?table=no-such-table").status_code == 404
    other = create(app_client, "biblios-dice", ["human", "easy"], seed=2)
    r = app_client.get(f"/web/help/kingdom-of-dice?table={other['table_id']}")
    assert r.status_code == 404 and "biblios-dice" in r.json()["detail"]


def test_a_bot_seat_is_named_once(app_client):
    created = create(app_client, "kingdom-of-dice", ["human", "greedy", "easy"], seed=4)
    names = {s["seat"]: s["name"] for s in created["seats"]}
    assert names == {0: "Player 1", 1: "Player 2", 2: "Player 3"}     # the level is said by the seat's kind
    view = app_client.get(f"/api/tables/{created['table_id']}").json()
    assert [(s["name"], s["kind"]) for s in view["seats"]] == [
        ("Player 1", "human"), ("Player 2", "bot"), ("Player 3", "bot")]


def test_the_view_names_the_duke_choice_and_no_stage_once_turns_are_counted(app_client):
    # Card Kingdoms, "Choosing Your Duke": while the players keep one of their two Dukes no turn is
    # counted yet (the observation's turn is 0); the view names that step for the table's top line.
    made = create(app_client, "valeria-card-kingdoms", ["human", "human"], seed=5)
    tid, tokens = made["table_id"], {s["seat"]: s["token"] for s in made["seats"]}
    view = app_client.get(f"/api/tables/{tid}", headers=auth(tokens[0])).json()
    assert view["observation"]["turn"] == 0 and view["stage"] == "Choosing Dukes"
    assert app_client.get(f"/api/tables/{tid}").json()["stage"] == "Choosing Dukes"   # a spectator too
    for seat in (0, 1):
        view = app_client.get(f"/api/tables/{tid}", headers=auth(tokens[seat])).json()
        duke = next(a["id"] for a in view["legal_actions"] if a["id"].startswith("duke:"))
        r = app_client.post(f"/api/tables/{tid}/actions", json={"action": duke, "version": view["version"]},
                            headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    view = app_client.get(f"/api/tables/{tid}", headers=auth(tokens[0])).json()
    assert view["observation"]["turn"] == 1 and view["stage"] is None
    # solo: the player's own Duke, in the heading's words
    solo = create(app_client, "valeria-card-kingdoms", ["human"], seed=5)
    token = solo["seats"][0]["token"]
    assert app_client.get(f"/api/tables/{solo['table_id']}", headers=auth(token)).json()["stage"] == "Choosing your Duke"
    assert app_client.get(f"/api/tables/{solo['table_id']}").json()["stage"] == "Choosing a Duke"


@pytest.mark.parametrize("game", ["biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria", "kingdom-of-dice"])
def test_the_other_titles_count_from_their_first_decision(app_client, game):
    # Their set-up is done before the first decision: the first view already counts a round or a turn.
    made = create(app_client, game, ["human", "human"], seed=5)
    view = app_client.get(f"/api/tables/{made['table_id']}", headers=auth(made["seats"][0]["token"])).json()
    obs = view["observation"]
    assert view["stage"] is None and (obs.get("round") or 0) + (obs.get("turn") or 0) >= 1, obs
