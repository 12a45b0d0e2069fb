"""A person's seat handed to its bot moves at a person's pace, and can be taken back before its bot
moves; a bot's move for a seat a person took back is refused (docs/lobby.md, "Let a bot play for me")."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from dicetable.server.errors import ApiError
from dicetable.server.settings import Settings, SettingsError
from dicetable.web import create_site

from .helpers import auth, create, tokens_of


def _version(client, tid: str) -> int:
    return client.get(f"/api/tables/{tid}").json()["version"]


def test_the_default_pace_is_a_second_and_the_setting_reads_milliseconds():
    assert Settings().stand_in_pace_ms == 1000
    assert Settings.from_env({"DICETABLE_STAND_IN_PACE_MS": "0"}).stand_in_pace_ms == 0
    assert Settings.from_env({"DICETABLE_STAND_IN_PACE_MS": "250"}).stand_in_pace_ms == 250
    with pytest.raises(SettingsError, match="DICETABLE_STAND_IN_PACE_MS must be 0 or more"):
        Settings.from_env({"DICETABLE_STAND_IN_PACE_MS": "-1"})


def test_a_stand_in_waits_the_pace_before_each_move_and_a_table_of_bots_does_not_race_to_the_end(sqlite_url):
    """Kingdom of Dice, one person against a random bot, the person's seat handed to its bot with a pace of
    0.4 s: nothing moves in the first 0.2 s; every later version made by the stand-in (seat 0 was to
    move) comes at least the pace after the version before it (the bot seat's own moves come at once);
    and the game is still running after 1.5 s (with no pace the bots finish it in well under that)."""
    with TestClient(create_site(sqlite_url, settings=Settings(stand_in_pace_ms=400))) as client:
        made = create(client, "kingdom-of-dice", ["human", "random"], seed=5)
        tid, tokens = made["table_id"], tokens_of(made)
        assert client.get(f"/api/tables/{tid}").json()["to_move"] == [0]
        r = client.post(f"/api/tables/{tid}/seats/0/bot", headers=auth(tokens[0]), json={"level": "random"})
        assert r.status_code == 200 and r.json()["seats"][0]["autoplay"]
        handed = time.monotonic()
        time.sleep(0.2)
        assert _version(client, tid) == 0
        seen = [(handed, 0, [0])]  # (when first seen, version, to_move)
        while time.monotonic() - handed < 1.5:
            view = client.get(f"/api/tables/{tid}").json()
            if view["version"] != seen[-1][1]:
                seen.append((time.monotonic(), view["version"], view["to_move"]))
            time.sleep(0.01)
        assert not view["over"]
        stand_in = [(t, prev_t) for (prev_t, prev_v, prev_to_move), (t, v, _) in zip(seen, seen[1:])
                    if prev_to_move == [0] and v == prev_v + 1]
        assert stand_in, seen  # it moved
        # each seen at least the pace after the version before it (less the polling's few ms)
        assert all(t - prev_t >= 0.33 for t, prev_t in stand_in), seen


def test_a_seat_taken_back_within_the_pace_is_not_moved_by_its_bot(sqlite_url):
    with TestClient(create_site(sqlite_url, settings=Settings(stand_in_pace_ms=500))) as client:
        made = create(client, "kingdom-of-dice", ["human", "human"], seed=5)
        tid, tokens = made["table_id"], tokens_of(made)
        r = client.post(f"/api/tables/{tid}/seats/0/bot", headers=auth(tokens[0]), json={"level": "random"})
        assert r.status_code == 200
        r = client.post(f"/api/tables/{tid}/seats/0/take", headers=auth(tokens[0]))
        assert r.status_code == 200 and not r.json()["seats"][0]["autoplay"]
        time.sleep(1.0)  # twice the pace: the stand-in's move, had it been started, would be made by now
        view = client.get(f"/api/tables/{tid}", headers=auth(tokens[0])).json()
        assert view["version"] == 0 and view["legal_actions"]


def test_a_bots_move_for_a_seat_a_person_plays_is_refused(sqlite_url):
    """The move a stand-in chose reaches the table after its person took the seat back: refused, 409,
    and the table is unchanged."""
    with TestClient(create_site(sqlite_url)) as client:
        made = create(client, "kingdom-of-dice", ["human", "human"], seed=5)
        tid = made["table_id"]
        manager = client.app.state.manager
        view = client.get(f"/api/tables/{tid}", headers=auth(tokens_of(made)[0])).json()
        with pytest.raises(ApiError) as refused:
            manager.act(tid, 0, view["legal_actions"][0]["id"], 0, by="bot")
        assert refused.value.status == 409
        assert "played by a person again" in str(refused.value)
        assert _version(client, tid) == 0
