"""An agent plays over the HTTP contract and the live WebSocket of a running server.

Each title: a full game against a bot, the agent's moves all accepted (the record holds them,
in order, for its seat). An illegal answer gets the server's 422 message and leaves the table
as it was; a connection dropped mid-turn is reopened and the game goes on to its end.
"""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("numpy")

import dicetable
from dicetable.agent import Agent, AgentError, Decision, IllegalMove, random_policy

#: Every title at two seats (the agent in seat 0, a random bot in seat 1), with the game's defaults.
TITLES = ["biblios-dice", "corsairs-of-valeria", "dice-kingdoms-of-valeria", "kingdom-of-dice",
          "valeria-card-kingdoms"]


def _table(server, game: str, seed: int = 7) -> tuple[str, str]:
    made = server.create(game, [{"kind": "human"}, {"kind": "bot", "level": "random"}], seed=seed)
    return made["table_id"], made["seats"][0]["token"]


class Recording:
    """A random policy that keeps each decision it was given and the action id it chose."""

    def __init__(self, seed: int = 1) -> None:
        self.choose = random_policy(seed)
        self.decisions: list[Decision] = []
        self.chosen: list[str] = []

    def __call__(self, decision: Decision) -> int:
        index = self.choose(decision)
        self.decisions.append(decision)
        self.chosen.append(decision.catalogue[index])
        return index


def _check_decisions(game: str, decisions: list[Decision]) -> None:
    """Each decision carries the research encoding of its view: the vector length and the mask the
    RL spaces of the game give, the mask's ones exactly the view's legal action ids."""
    from dicetable.rl import GameSpaces

    spaces = GameSpaces(game, 2)
    for d in decisions:
        assert d.observation.shape == (spaces.observation_size,) and d.observation.dtype.name == "float32"
        assert d.mask.shape == (spaces.num_actions,) and d.mask.dtype.name == "int8"
        assert {spaces.catalogue[i] for i in range(spaces.num_actions) if d.mask[i]} == {a["id"] for a in d.legal}
        assert list(d.observation) == pytest.approx(spaces.encoding.encode(d.view["observation"]))


@pytest.mark.parametrize("game", TITLES)
def test_agent_plays_a_full_game_of_each_title(server, game):
    table, token = _table(server, game)
    policy = Recording()
    agent = Agent(server.url, table, policy, token=token, idle=120)
    final = agent.play()
    assert final["over"] is True
    status, record = server.call("GET", f"/api/tables/{table}/record")
    assert status == 200, record
    # Every action of seat 0 in the table's record is one the agent chose, in order, and none was lost.
    assert [aid for seat, aid in record["actions"] if seat == 0] == policy.chosen
    assert agent.moves == len(policy.chosen) > 0
    assert final["winners"] == record["winners"]
    _check_decisions(game, policy.decisions)
    # Replaying the record through the engine reaches the end the agent was shown.
    state = dicetable.new_game(game, 2, seed=record["seed"], options=record["options"])
    for seat, aid in record["actions"]:
        state.apply(aid, seat)
    assert state.is_over and list(state.winners) == final["winners"]
