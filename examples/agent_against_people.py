"""Seat an agent against people in the browser: a table on a running dicetable server, one seat
played by this program, the others by whoever opens their links.

Start a server (``make run``, or ``dicetable serve``), then for example::

    .venv/bin/python examples/agent_against_people.py --game biblios-dice --people 1

It creates the table, prints each person's link (open it in a browser), and plays seat 1 until
the game is over, printing its moves. The policy is uniform random among the legal actions, or,
with ``--weights file.npz``, a linear policy: arrays ``W`` (actions x features) and ``b``
(actions) over the game's research encoding, playing the legal action of highest ``W @ x + b``
(the same vectors ``dicetable.rl`` trains on; any training loop can save them with
``numpy.savez(path, W=W, b=b)``).
"""

from __future__ import annotations

import argparse

import httpx
import numpy as np

from dicetable.agent import Agent, Decision, random_policy


def linear_policy(path: str):
    """The masked argmax of ``W @ observation + b`` from the arrays saved in ``path``."""
    weights = np.load(path)
    W, b = weights["W"], weights["b"]

    def choose(decision: Decision) -> int:
        if W.shape != (len(decision.mask), len(decision.observation)):
            raise SystemExit(f"{path}: W is {W.shape}, this game needs {(len(decision.mask), len(decision.observation))}")
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
    answer = httpx.post(f"{args.server}/api/tables", json={"game": args.game, "players": len(seats), "seats": seats})
    if answer.status_code != 201:
        raise SystemExit(f"the server refused the table: {answer.status_code} {answer.text}")
    table = answer.json()
    for seat in table["seats"][1:]:
        if seat["kind"] == "human":
            print(f"seat {seat['seat'] + 1}: {args.server}{seat['link']}")
    policy = linear_policy(args.weights) if args.weights else random_policy(args.seed)
    agent = Agent(args.server, table["table_id"], policy, token=table["seats"][0]["token"],
                  on_move=lambda action, version: print(f"version {version}: the agent plays {action}"))
    final = agent.play()
    print(f"over: scores {final['scores']}, winners {[s + 1 for s in final['winners']]}")


if __name__ == "__main__":
    main()
