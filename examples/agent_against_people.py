"""Seat an agent against people in the browser: a table on a running dicetable server, one seat
played by this program, the others by whoever opens their links.

Start a server (``make run``, or ``dicetable serve``), then for example::

    .venv/bin/python examples/agent_against_people.py --game biblios-dice --people 1

It creates the table, prints each person's link (open it in a browser), and plays seat 0 (Player 1)
until the game is over, printing its moves. The policy is uniform random among the legal actions, or,
with ``--weights file.npz``, a linear policy: arrays ``W`` (actions x features) and ``b``
(actions) over the game's research encoding, playing the legal action of highest ``W @ x + b``
(the same vectors ``dicetable.rl`` trains on; any training loop can save them with
``numpy.savez(path, W=W, b=b)``, as ``examples/train_kingdom_of_dice_solo.py --save FILE`` does).
The weights' shapes are checked against the game before the table is made.
"""

from __future__ import annotations

import argparse

import httpx
import numpy as np

from dicetable.agent import Agent, Decision, random_policy
from dicetable.engine import seat_name
from dicetable.rl import GameSpaces


def load_weights(path: str, game: str, players: int) -> tuple[np.ndarray, np.ndarray]:
    """``W`` and ``b`` from ``path``, checked against ``game`` at ``players`` seats (W: actions x
    features, b: actions); SystemExit saying what the file holds and what the game needs otherwise."""
    try:
        weights = np.load(path)
        W, b = weights["W"], weights["b"]
    except (OSError, ValueError, KeyError) as exc:
        raise SystemExit(f"{path}: not a .npz holding arrays W and b ({exc})") from None
    spaces = GameSpaces(game, players)
    need = (spaces.num_actions, spaces.observation_size)
    if W.shape != need or b.shape != (need[0],):
        raise SystemExit(f"{path}: W is {W.shape} and b {b.shape}, {game} at {players} seats needs W {need} "
                         f"and b {(need[0],)}")
    return W, b


def linear_policy(W: np.ndarray, b: np.ndarray):
    """The masked argmax of ``W @ observation + b``."""

    def choose(decision: Decision) -> int:
        scores = W @ decision.observation + b
        return int(np.argmax(np.where(decision.mask == 1, scores, -np.inf)))
    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the dicetable server's address")
    parser.add_argument("--game", default="biblios-dice", help="game id (dicetable games lists them)")
    parser.add_argument("--people", type=int, default=1, help="seats for people (the agent takes one more)")
    parser.add_argument("--bots", type=int, default=0, help="greedy bot seats besides")
    parser.add_argument("--weights", default=None, help="a .npz with W and b (default: a random policy)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random policy")
    args = parser.parse_args()
    seats = [{"kind": "human", "name": "Agent"}] + [{"kind": "human"}] * args.people \
        + [{"kind": "bot", "level": "greedy"}] * args.bots
    # The weights are checked before the table is made: a wrong file leaves no open table behind.
    policy = linear_policy(*load_weights(args.weights, args.game, len(seats))) if args.weights \
        else random_policy(args.seed)
    answer = httpx.post(f"{args.server}/api/tables", json={"game": args.game, "players": len(seats), "seats": seats})
    if answer.status_code != 201:
        raise SystemExit(f"the server refused the table: {answer.status_code} {answer.text}")
    table = answer.json()
    for seat in table["seats"][1:]:
        if seat["kind"] == "human":
            print(f"seat {seat['seat']} ({seat_name(seat['seat'])}): {args.server}{seat['link']}")
    agent = Agent(args.server, table["table_id"], policy, token=table["seats"][0]["token"],
                  on_move=lambda action, version: print(f"version {version}: the agent plays {action}"))
    final = agent.play()
    print(f"over: scores {final['scores']}, winners {[f'seat {s} ({seat_name(s)})' for s in final['winners']]}")


if __name__ == "__main__":
    main()
