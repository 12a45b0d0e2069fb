"""The agents' round robin: pairings, intervals, ratings, and the same games through a server."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("numpy")

from dicetable.agent import random_policy
from dicetable.agent.tournament import Entrant, ratings, round_robin, table
from dicetable.engine import GameConfigError


def test_ratings_of_a_clean_sweep_follow_bradley_terry():
    # A beat B 9 times; with the prior of one drawn game the fitted odds are 9.5 : 0.5 = 19 : 1,
    # i.e. 400 log10(19) Elo points apart, centred on 1500.
    records = [{"bots": ["A", "B"] if i % 2 else ["B", "A"], "winners": [0] if i % 2 else [1]} for i in range(9)]
    r = ratings(records, ["A", "B"])
    assert r["A"] - r["B"] == pytest.approx(400 * math.log10(19), abs=0.01)
    assert (r["A"] + r["B"]) / 2 == pytest.approx(1500)


def test_ratings_of_even_results_are_equal():
    records = [{"bots": ["A", "B"], "winners": [i % 2]} for i in range(10)]
    records.append({"bots": ["B", "A"], "winners": [0, 1]})  # a shared win: half each
    r = ratings(records, ["A", "B"])
    assert r["A"] == pytest.approx(1500) and r["B"] == pytest.approx(1500)


def test_a_local_round_robin_plays_every_pair_with_alternating_seats():
    entrants = [Entrant("greedy", bot="greedy"), Entrant("random", bot="random"),
                Entrant("agent", policy=random_policy(3))]
    result = round_robin("biblios-dice", entrants, games=6, seed=5)
    assert len(result["records"]) == 3 * 6
    for pair in result["pairs"]:
        mine = [r for r in result["records"] if set(r["bots"]) == {pair["a"], pair["b"]}]
        assert len(mine) == pair["games"] == 6
        assert sum(r["bots"][0] == pair["a"] for r in mine) == 3  # each entrant sits first in half the games
        lo, hi = pair["a_win_ci"]
        assert lo - 1e-9 <= pair["a_win_rate"] <= hi + 1e-9
    rows = {r["name"]: r for r in result["entrants"]}
    assert all(r["seats"] == 12 for r in rows.values())
    # Every game has one winner's share to give: the wins add up to the games played.
    assert sum(r["wins"] for r in rows.values()) == pytest.approx(18)
    assert [r["rating"] for r in result["entrants"]] == sorted((r["rating"] for r in rows.values()), reverse=True)
    # The greedy bot beats random play at Biblios Dice (docs/bots.md's ladder): it is rated first.
    assert result["entrants"][0]["name"] == "greedy"
    lines = table(result).splitlines()
    assert lines[0].startswith("| entrant | rating |") and len(lines) == 2 + 3


def test_a_round_robin_through_a_server_plays_the_policies_as_agents(server):
    entrants = [Entrant("greedy", bot="greedy"), Entrant("agent", policy=random_policy(4))]
    result = round_robin("valeria-card-kingdoms", entrants, games=2, seed=8, server=server.url)
    assert len(result["records"]) == 2
    for rec in result["records"]:
        status, stored = server.call("GET", f"/api/tables/{rec['table_id']}/record")
        assert status == 200
        assert stored["winners"] == rec["winners"] and stored["scores"] == rec["scores"]
        agent_seat = rec["bots"].index("agent")
        assert stored["seats"][agent_seat]["kind"] == "human" and stored["seats"][1 - agent_seat]["kind"] == "bot"
        assert any(seat == agent_seat for seat, _ in stored["actions"])


@pytest.mark.parametrize("entrants, games, message", [
    ([Entrant("a", bot="greedy")], 2, "two or more entrants with distinct names"),
    ([Entrant("a", bot="greedy"), Entrant("a", bot="random")], 2, "two or more entrants with distinct names"),
    ([Entrant("a", bot="greedy"), Entrant("b", bot="random")], 0, "each pair plays at least 1 game"),
])
def test_bad_round_robins_say_what_is_wrong(entrants, games, message):
    with pytest.raises(GameConfigError, match=message):
        round_robin("biblios-dice", entrants, games=games)


def test_an_entrant_is_a_known_bot_or_a_policy():
    with pytest.raises(GameConfigError, match="unknown bot 'clever'; bots: "):
        Entrant("x", bot="clever")
    with pytest.raises(GameConfigError, match="either a bot level or a policy"):
        Entrant("x")


def test_a_round_robin_at_a_server_that_cannot_be_reached_names_it():
    # httpx's ConnectError "All connection attempts failed" reached the caller, naming no server.
    from dicetable.agent import AgentError
    from tests.web.conftest import _free_port

    url = f"http://127.0.0.1:{_free_port()}"
    entrants = [Entrant("greedy", bot="greedy"), Entrant("mine", policy=random_policy(1))]
    with pytest.raises(AgentError, match=rf"^cannot reach the server {url}: "):
        round_robin("kingdom-of-dice", entrants, games=1, server=url)


@pytest.mark.parametrize("choice", [None, "reroll", 2.0, True, -1, 10**6])
def test_a_local_policy_answer_that_is_no_catalogue_index_is_refused_as_an_agent_would_be(choice):
    # None or a string reached int(...) as a bare TypeError; 2.0 and True were read as 2 and 1,
    # -1 was said to be "not legal now" rather than no index at all.
    import re

    from dicetable.agent import AgentError
    from dicetable.agent.client import Encoder

    size = len(Encoder("kingdom-of-dice", 2, None).catalogue)
    entrants = [Entrant("greedy", bot="greedy"), Entrant("mine", policy=lambda decision: choice)]
    with pytest.raises(AgentError, match=rf"^policy 'mine' chose {re.escape(repr(choice))}, not an index of the "
                                         rf"catalogue \(0\.\.{size - 1}\)$"):
        round_robin("kingdom-of-dice", entrants, games=1)


def test_a_local_policy_may_answer_a_numpy_integer():
    import numpy as np

    entrants = [Entrant("greedy", bot="greedy"),
                Entrant("mine", policy=lambda decision: np.int64(np.flatnonzero(decision.mask)[0]))]
    result = round_robin("kingdom-of-dice", entrants, games=1)
    assert len(result["records"]) == 1


def test_the_documented_entrants_play_through_a_server_bot_pairs_included(server):
    # docs/agents.md's own three entrants: the greedy-random pair has no agent, so the round robin
    # must wait for the bots to finish before it asks for the record (403 while the table runs).
    entrants = [Entrant("greedy", bot="greedy"), Entrant("random", bot="random"),
                Entrant("mine", policy=random_policy(1))]
    result = round_robin("biblios-dice", entrants, games=2, seed=1, server=server.url)
    assert len(result["records"]) == 3 * 2
    bot_pairs = [rec for rec in result["records"] if set(rec["bots"]) == {"greedy", "random"}]
    assert len(bot_pairs) == 2
    for rec in result["records"]:
        status, stored = server.call("GET", f"/api/tables/{rec['table_id']}/record")
        assert status == 200
        assert stored["winners"] == rec["winners"] and stored["scores"] == rec["scores"]
        assert rec["steps"] == len(stored["actions"]) > 0
    for rec in bot_pairs:
        _, stored = server.call("GET", f"/api/tables/{rec['table_id']}/record")
        assert [s["kind"] for s in stored["seats"]] == ["bot", "bot"]
    assert sum(r["wins"] for r in result["entrants"]) == pytest.approx(6)


def test_a_refused_view_or_record_names_the_table_and_the_server_words(server):
    import httpx

    from dicetable.agent import AgentError
    from dicetable.agent.client import run_sync
    from dicetable.agent.tournament import _wait_over

    async def wait():
        async with httpx.AsyncClient() as http:
            await _wait_over(http, server.url, "nosuchtable0000", idle=5)

    with pytest.raises(AgentError, match=r"the view of table nosuchtable0000: the server answered HTTP 404: "):
        run_sync(wait)  # not asyncio.run: a browser test's Playwright may hold this thread's loop


def test_waiting_for_a_table_nobody_plays_ends_with_a_timeout_naming_it(server):
    import time

    import httpx

    from dicetable.agent import AgentTimeout
    from dicetable.agent.client import run_sync
    from dicetable.agent.tournament import _wait_over

    body = {"game": "biblios-dice", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    deadline = time.time() + 90
    while True:  # a 429 is not expected (the tests' server allows 600 new tables a minute); waited out if one comes
        status, made = server.call("POST", "/api/tables", body)
        if status != 429 or time.time() > deadline:
            break
        time.sleep(2)
    assert status == 201, made

    async def wait():
        async with httpx.AsyncClient() as http:
            await _wait_over(http, server.url, made["table_id"], idle=1.0, poll=0.1)

    with pytest.raises(AgentTimeout, match=rf"table {made['table_id']} did not move for 1.0 s \(still at version 0"):
        run_sync(wait)
