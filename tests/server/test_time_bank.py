"""Chess-style clocks (issue 25 item 2): a time bank per player with an increment per turn, one turn
being every decision until another seat is to move; at zero the seat's bot plays (as with the
per-decision clock); turn-based presets count days. Time is injected (``TableManager(now=...)``)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from dicetable.bots import make_bot
from dicetable.web import create_site
from dicetable.server.banks import DAY, PRESETS, TimeBank
from dicetable.server.store import Store
from dicetable.server.tables import TableManager

from .helpers import auth, create, tokens_of

T0 = 1_700_000_000.0


class Clock:
    """An injected POSIX time that moves only when told."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _manager(url: str, clock: Clock) -> TableManager:
    return TableManager(Store(url), bot_threads=1, now=clock)


def _play_turn(m: TableManager, tid: str, clock: Clock, seconds_each: float) -> tuple[int, int]:
    """The seat to move plays its whole turn (as the greedy bot would), ``seconds_each`` per
    decision; ``(seat, decisions)``."""
    lt = m.get(tid)
    seat, n = lt.state.to_move[0], 0
    bot = make_bot("greedy", seed=n)
    while seat in lt.state.to_move and not lt.state.is_over:
        clock.t += seconds_each
        m.act(tid, seat, bot.choose(lt.state, seat).id, lt.version)
        n += 1
    return seat, n


def _wait(predicate, what: str, patience: float = 60.0) -> None:
    deadline = time.monotonic() + patience
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_a_turn_of_several_decisions_costs_one_bank_and_one_increment(sqlite_url):
    clock = Clock()
    m = _manager(sqlite_url, clock)
    try:
        tid = m.create("kingdom-of-dice", 2, {}, 7, None, None, bank=60, increment=5)["table_id"]
        lt = m.get(tid)
        first = lt.state.to_move[0]
        assert lt.bank.since[first] == T0 and lt.bank.left == [60.0, 60.0]
        clock.t += 4
        m.act(tid, first, lt.state.legal_actions(first)[0].id, lt.version)
        if first in lt.state.to_move:  # the same turn: nothing charged yet, the bank still runs from T0
            assert lt.bank.since[first] == T0 and lt.bank.left[first] == 60.0
        seat, decisions = _play_turn(m, tid, clock, 4)
        decisions += 1
        assert seat == first and decisions >= 2, "Kingdom of Dice: a turn holds several decisions"
        # charged once: the time of all its decisions, plus one increment
        assert lt.bank.left[first] == 60 - 4 * decisions + 5
        assert lt.bank.since[first] is None
        other = lt.state.to_move[0]
        assert other != first and lt.bank.since[other] == clock.t and lt.bank.left[other] == 60.0
        view = m.view(lt, None)
        assert view["time_bank"]["left"][first] == 60 - 4 * decisions + 5
        assert view["time_bank"]["since"][other] == clock.t and view["clock"] is None
    finally:
        m.close()


def test_an_empty_bank_lets_the_bot_play_the_rest_of_the_turn_then_the_increment_comes(sqlite_url):
    clock = Clock()
    m = _manager(sqlite_url, clock)
    try:
        tid = m.create("corsairs-of-valeria", 2, {}, 5, None, None, bank=60, increment=5)["table_id"]
        lt = m.get(tid)
        first, _ = _play_turn(m, tid, clock, 1)
        other = lt.state.to_move[0]
        assert m.check_clock(tid) == []  # 60 s bank, no time spent yet: nothing to do
        clock.t += 59.5
        assert m.check_clock(tid) == [] and lt.bank.remaining(other, clock.t) == 0.5
        clock.t += 1
        version = lt.version
        assert m.check_clock(tid) == [other]
        assert other in lt.timed_out
        _wait(lambda: other not in lt.state.to_move or lt.state.is_over, "the bot did not play the turn")
        assert lt.version > version
        assert any("clock ran out" in line for line in m.view(lt, None)["log"])
        assert lt.bank.left[other] == 5.0  # emptied, then the increment once the turn ended
        seats = m.view(lt, None)["seats"]
        assert seats[other]["timed_out"] is True
    finally:
        m.close()


def test_a_turn_based_table_is_left_and_resumed_the_next_day(sqlite_url):
    daily = next(p for p in PRESETS if p["id"] == "daily")
    clock = Clock()
    m = _manager(sqlite_url, clock)
    tid = m.create("corsairs-of-valeria", 2, {}, 9, None, None, bank=daily["bank"], increment=daily["increment"],
                   bank_max=daily["bank_max"])["table_id"]
    first, _ = _play_turn(m, tid, clock, 3600)  # an hour a decision
    lt = m.get(tid)
    used = clock.t - T0
    assert lt.bank.left[first] == min(DAY - used + DAY, 3 * DAY)
    other = lt.state.to_move[0]
    m.close()  # everyone left; the server even stopped

    clock.t += 20 * 3600  # the next day
    m = _manager(sqlite_url, clock)
    try:
        lt = m.get(tid)  # rebuilt from the store: the other seat's turn ran all along
        assert other in lt.state.to_move
        assert lt.bank.remaining(other, clock.t) == pytest.approx(4 * 3600)
        assert m.check_clock(tid) == []
        seat, decisions = _play_turn(m, tid, clock, 60)
        assert seat == other and lt.bank.left[other] == pytest.approx(4 * 3600 - 60 * decisions + DAY)
        assert lt.bank.since[first] == clock.t
    finally:
        m.close()

    clock.t += 2 * DAY  # the first seat stays away for two days: more than its bank
    m = _manager(sqlite_url, clock)
    try:
        lt = m.get(tid)
        version = lt.version
        _wait(lambda: lt.version > version, "the bot did not play for the seat whose days ran out")
        assert first in lt.timed_out
        assert any("clock ran out" in line for line in m.view(lt, None)["log"])
    finally:
        m.close()


def test_turns_charge_once_the_cap_holds_and_the_bank_is_kept_as_text():
    bank = TimeBank.new(3, 180, 10)
    assert bank.settle([1], 100.0) and not bank.settle([1], 150.0)
    assert bank.settle([2], 150.0)  # seat 1's turn ends after 50 s: 180 - 50 + 10
    assert bank.left == [180.0, 140.0, 180.0] and bank.since == [None, None, 150.0]
    assert TimeBank.from_text(bank.to_text()) == bank
    capped = TimeBank.new(2, DAY, DAY, 3 * DAY)
    capped.settle([0], 0.0)
    capped.settle([1], 3600.0)
    assert capped.left[0] == 2 * DAY - 3600  # under the cap
    for t in range(2, 8):
        capped.settle([0], t * 3600.0 * 2)
        capped.settle([1], t * 3600.0 * 2 + 1)
    assert capped.left[0] == 3 * DAY  # a second a turn spent, a day a turn added: held at bank_max


def test_the_api_takes_a_bank_shows_it_and_refuses_mixed_or_partial_clocks(sqlite_url):
    with TestClient(create_site(sqlite_url)) as c:
        games = c.get("/api/games").json()
        presets = {p["id"]: p for p in games["clock_presets"]}
        assert (presets["fast"]["bank"], presets["fast"]["increment"]) == (180, 10)
        assert presets["daily"]["bank"] >= DAY and presets["decision-30s"]["clock"] == 30
        made = create(c, "corsairs-of-valeria", ["human", "human"], bank=180, increment=10)
        view = c.get(f"/api/tables/{made['table_id']}", headers=auth(tokens_of(made)[0])).json()
        bank = view["time_bank"]
        assert (bank["bank"], bank["increment"], bank["bank_max"], bank["left"]) == (180, 10, None, [180, 180])
        assert [s is not None for s in bank["since"]] == [s in view["to_move"] for s in range(2)]
        for body, words in [({"clock": 30, "bank": 180}, "not both"),
                            ({"increment": 10}, "give bank"),
                            ({"bank": 180, "bank_max": 60}, "bank_max"),
                            ({"bank": 5}, "bank")]:
            r = c.post("/api/tables", json={"game": "corsairs-of-valeria", "players": 2, **body})
            assert r.status_code == 422 and words in r.json()["detail"], (body, r.text)
