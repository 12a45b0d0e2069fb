"""An agent plays over the HTTP contract and the live WebSocket of a running server.

Each title: a full game against a bot, the agent's moves all accepted (the record holds them,
in order, for its seat). An illegal answer gets the server's 422 message and leaves the table
as it was; a connection dropped mid-turn is reopened and the game goes on to its end.
"""

from __future__ import annotations

import asyncio
import re

import pytest

pytest.importorskip("numpy")

import dicetable
from dicetable.agent import Agent, AgentError, AgentTimeout, Decision, IllegalMove, random_policy

#: Every title at two seats: the agent in seat 0, a greedy bot in seat 1 (random bots make
#: Kingdom of Dice games thousands of moves long), with the game's default options.
TITLES = ["biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria", "kingdom-of-dice",
          "valeria-card-kingdoms"]


def _table(server, game: str, seed: int = 7) -> tuple[str, str]:
    made = server.create(game, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=seed)
    return made["table_id"], made["seats"][0]["token"]


class Recording:
    """A random policy that keeps each decision it was given and the action id it chose; its
    ``accepted`` method (an agent's ``on_move``) keeps the ids the server accepted, with versions
    (a choice made on a view that another seat's move overtook is answered 409 and not applied)."""

    def __init__(self, seed: int = 1) -> None:
        self.choose = random_policy(seed)
        self.decisions: list[Decision] = []
        self.chosen: list[str] = []
        self.moves: list[str] = []

    def accepted(self, action: str, version: int) -> None:
        """Note an accepted move."""
        self.moves.append(action)

    def __call__(self, decision: Decision) -> int:
        index = self.choose(decision)
        self.decisions.append(decision)
        self.chosen.append(decision.catalogue[index])
        return index


def _check_decisions(game: str, record: dict, decisions: list[Decision]) -> None:
    """Each decision carries what the RL environments compute on the server's own state at that
    version: the table's record is replayed through the engine and, at each decision's version,
    ``GameSpaces.observe`` and ``GameSpaces.mask`` of seat 0 must equal the agent's vector and mask
    (which it built from the JSON view, patched change by change over the live connection)."""
    from dicetable.rl import GameSpaces

    spaces = GameSpaces(game, 2)
    state = dicetable.new_game(game, 2, seed=record["seed"], options=record["options"])
    applied = 0
    for d in sorted(decisions, key=lambda d: d.version):
        while applied < d.version:
            seat, aid = record["actions"][applied]
            state.apply(aid, seat)
            applied += 1
        assert d.observation.dtype.name == "float32" and d.mask.dtype.name == "int8"
        assert (d.observation == spaces.observe(state, 0)).all(), f"observation at version {d.version}"
        assert (d.mask == spaces.mask(state, 0)).all(), f"mask at version {d.version}"
        assert {spaces.catalogue[i] for i in range(spaces.num_actions) if d.mask[i]} == {a["id"] for a in d.legal}


@pytest.mark.parametrize("game", TITLES)
def test_agent_plays_a_full_game_of_each_title(server, game):
    table, token = _table(server, game)
    policy = Recording()
    agent = Agent(server.url, table, policy, token=token, idle=120, on_move=policy.accepted)
    final = agent.play()
    assert final["over"] is True
    status, record = server.call("GET", f"/api/tables/{table}/record")
    assert status == 200, record
    # Every action of seat 0 in the table's record is one the agent chose, in order, and none was lost.
    assert [aid for seat, aid in record["actions"] if seat == 0] == policy.moves
    assert agent.moves == len(policy.moves) > 0
    assert set(policy.moves) <= set(policy.chosen)
    assert final["winners"] == record["winners"]
    _check_decisions(game, record, policy.decisions)
    # Replaying the record through the engine reaches the end the agent was shown.
    state = dicetable.new_game(game, 2, seed=record["seed"], options=record["options"])
    for seat, aid in record["actions"]:
        state.apply(aid, seat)
    assert state.is_over and list(state.winners) == final["winners"]


def test_an_illegal_answer_gets_the_servers_message_and_changes_nothing(server):
    table, token = _table(server, "biblios-dice", seed=3)
    before: list[dict] = []

    def illegal(decision: Decision) -> int:
        before.append(decision.view)
        return next(i for i in range(len(decision.mask)) if not decision.mask[i])  # not legal now

    agent = Agent(server.url, table, illegal, token=token, idle=60)
    with pytest.raises(IllegalMove) as caught:
        agent.play()
    assert len(before) == 1
    # The engine's message (the server's 422) reaches the program: the refused id, then what is legal.
    legal_ids = [a["id"] for a in before[0]["legal_actions"]]
    assert caught.value.detail.startswith(f"{caught.value.action!r} is not a legal action for Player 1 now")
    assert caught.value.action not in legal_ids and legal_ids[0] in caught.value.detail.split("legal actions: ")[1]
    assert str(caught.value) == f"the server refused the move: {caught.value.detail}"
    status, view = server.call("GET", f"/api/tables/{table}", token=token)
    assert status == 200
    assert view["version"] == before[0]["version"] and view["undos"] == before[0]["undos"]
    assert view["observation"] == before[0]["observation"]
    assert [a["id"] for a in view["legal_actions"]] == [a["id"] for a in before[0]["legal_actions"]]


def test_a_connection_dropped_mid_turn_is_reopened_and_the_game_goes_on(server):
    table, token = _table(server, "valeria-card-kingdoms", seed=5)
    policy = Recording()
    asked_at: list[int] = []
    agent: Agent

    def dropping(decision: Decision) -> int:
        asked_at.append(decision.version)
        if len(asked_at) == 3:  # the third decision: the connection breaks before the agent answers
            agent.connection.transport.abort()
            raise ConnectionError("the network went away while the agent was thinking")
        return policy(decision)

    agent = Agent(server.url, table, dropping, token=token, idle=60, backoff=0.1, on_move=policy.accepted)
    final = agent.play()
    assert agent.reconnects == 1
    assert final["over"] is True
    # After the reconnection the same decision (same version) was offered again and answered.
    assert asked_at[3] == asked_at[2]
    status, record = server.call("GET", f"/api/tables/{table}/record")
    assert status == 200
    assert [aid for seat, aid in record["actions"] if seat == 0] == policy.moves


def test_an_agent_waiting_longer_than_its_idle_time_stops_with_a_timeout(server):
    # Two people's seats; the agent takes the one not to move, and the other person never moves.
    made = server.create("biblios-dice", [{"kind": "human"}, {"kind": "human"}])
    tokens = [s["token"] for s in made["seats"]]
    _, view = server.call("GET", f"/api/tables/{made['table_id']}", token=tokens[0])
    waiting = next(s for s in range(2) if s not in view["to_move"])
    agent = Agent(server.url, made["table_id"], random_policy(1), token=tokens[waiting], idle=1.5)
    with pytest.raises(AgentTimeout, match=f"no news from table {made['table_id']} for 1.5 s"):
        agent.play()
    assert agent.moves == 0


def test_a_wrong_token_is_the_servers_refusal(server):
    table, _ = _table(server, "biblios-dice")
    agent = Agent(server.url, table, random_policy(1), token="not-a-token", idle=10)
    with pytest.raises(AgentError, match="the table refused the live connection: HTTP 403"):
        agent.play()


def test_the_agent_takes_the_tables_options_from_its_view(server):
    # Winter sheets change Dice Kingdoms' catalogue and encoding; the agent is not told, the view says.
    made = server.create("dice-kingdoms-of-valeria", [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
                         options={"sheets": "winter"}, seed=2)
    policy = Recording()
    agent = Agent(server.url, made["table_id"], policy, token=made["seats"][0]["token"], idle=120,
                  on_move=policy.accepted)
    final = agent.play()
    assert final["over"] and final["options"]["sheets"] == "winter"
    from dicetable.rl import GameSpaces

    winter = GameSpaces("dice-kingdoms-of-valeria", 2, {"sheets": "winter"})
    assert policy.decisions and all(d.mask.shape == (winter.num_actions,) for d in policy.decisions)
    assert all(d.observation.shape == (winter.observation_size,) for d in policy.decisions)


def test_a_move_whose_post_failed_is_chosen_again_after_the_reconnection(server):
    # The server goes away while the agent posts its move (the POST never reaches it): after the
    # reconnection the same decision is still the table's, so the agent must answer it again
    # (it waited forever, holding the decision as answered).
    table, token = _table(server, "kingdom-of-dice", seed=5)
    policy = Recording()
    failed: list[int] = []

    class Flaky(Agent):
        async def _request(self, http, method, path, body=None):
            if body is not None and "action" in body and not failed:
                failed.append(body["version"])
                self.connection.transport.abort()
                raise ConnectionError(f"{method} {path} failed: the server went away")
            return await super()._request(http, method, path, body)

    agent = Flaky(server.url, table, policy, token=token, idle=20, backoff=0.1, on_move=policy.accepted)
    final = agent.play()
    assert final["over"] is True and agent.reconnects == 1
    assert failed and failed[0] in [d.version for d in policy.decisions[1:]]
    status, record = server.call("GET", f"/api/tables/{table}/record")
    assert status == 200
    assert [aid for seat, aid in record["actions"] if seat == 0] == policy.moves


@pytest.mark.parametrize("choice", [-1, -10, 2.0, True, None, "reroll"])
def test_a_policy_answer_that_is_no_catalogue_index_is_refused_before_posting(server, choice):
    # -1 used to be read from the catalogue's end (Python's negative index) and posted as that action.
    table, token = _table(server, "kingdom-of-dice", seed=5)
    agent = Agent(server.url, table, lambda decision: choice, token=token, idle=20)
    with pytest.raises(AgentError, match=rf"the policy chose {re.escape(repr(choice))}, not an index of the "
                                         r"catalogue \(0\.\.9\)"):
        agent.play()
    assert agent.moves == 0
    status, view = server.call("GET", f"/api/tables/{table}", token=token)
    assert status == 200 and view["version"] == 0


def test_an_agent_that_never_connects_says_so_and_a_bad_address_at_once():
    # Both said "the connection ... dropped and 5 reconnections failed", a bad address after 15 s.
    from tests.web.conftest import _free_port

    url = f"http://127.0.0.1:{_free_port()}"
    agent = Agent(url, "sometable", random_policy(1), token="t", retries=1, backoff=0.05)
    with pytest.raises(AgentError, match=rf"^cannot connect to {re.escape(url)} \(2 tries\): "):
        agent.play()
    with pytest.raises(ValueError, match=r"^server 'not a url' is not a server's address: give http\(s\)://host:port$"):
        Agent("not a url", "sometable", random_policy(1), token="t")
