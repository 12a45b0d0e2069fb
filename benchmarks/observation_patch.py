"""The observation's share of a change message, old way and new way, in one process (docs/load.md, "The
viewers' snapshots, lighter").

Plays one seeded game per title (random legal actions, ``--players`` seats) and keeps every viewer's
observation at every version (seat 0, the last seat and a spectator), as the game made them (objects
shared between viewers and versions kept so). Then times, over those same observations, the work that
makes each viewer's observation patch of one revision after another, every viewer of a revision
sharing what it can:

- ``A``: ``delta.share_patch`` of a reference tree (``--reference``: a ``src`` folder, e.g. ``git archive
  034a197 src``), the snapshot keeping the game's lists and dicts;
- ``B``: ``delta.entry_texts`` of this tree, the snapshot keeping each entry's JSON text.

A and B alternate (A B B A, ``--rounds`` times) in this one process, so the machine's load falls on
both alike; the figure is CPU time (``time.process_time``) per viewer and revision, in microseconds.
The patches of the two are checked equal, to the byte.

    PYTHONPATH=src python benchmarks/observation_patch.py --reference /tmp/base/src [--rounds 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path

import orjson

from dicetable.engine import list_games, new_game
from dicetable.server.delta import entry_texts


def load_reference(src: str):
    """The ``dicetable.server.delta`` module of another tree (it imports only orjson)."""
    spec = importlib.util.spec_from_file_location("reference_delta", Path(src) / "dicetable/server/delta.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record(game: str, players: int, seed: int, actions: int) -> list[list[dict]]:
    """Each version's observations of seat 0, the last seat and a spectator."""
    state = new_game(game, players, seed)
    rng = random.Random(seed)
    viewers = [0, players - 1, None]
    out = [[state.observation(v) for v in viewers]]
    for _ in range(actions):
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(rng.choice(state.legal_actions(seat)).id, seat)
        out.append([state.observation(v) for v in viewers])
    return out


def run_old(share_patch, versions: list[list[dict]]) -> list[bytes]:
    held = list(versions[0])
    out = []
    for obs in versions[1:]:
        seen: dict = {}
        for v, new in enumerate(obs):
            ops, held[v] = share_patch(seen, held[v], new)
            out.append(orjson.dumps(ops))
    return out


def run_new(versions: list[list[dict]]) -> list[bytes]:
    held = [entry_texts(None, None, o)[1] for o in versions[0]]
    out = []
    for obs in versions[1:]:
        seen: dict = {}
        for v, new in enumerate(obs):
            ops, held[v] = entry_texts(seen, held[v], new)
            out.append(orjson.dumps(ops))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", required=True, help="the src folder of the reference tree")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    old = load_reference(args.reference).share_patch
    print(f"{'title':28} {'patches':>7} {'A us/patch':>10} {'B us/patch':>10} {'B/A':>5}")
    for spec in list_games():
        players = max(spec.min_players, min(spec.max_players, args.players))
        versions = record(spec.id, players, args.seed, args.actions)
        assert run_old(old, versions) == run_new(versions), f"{spec.id}: the patches differ"
        spent = {"A": 0.0, "B": 0.0}
        for _ in range(args.rounds):
            for side in "ABBA":
                t0 = time.process_time()
                if side == "A":
                    run_old(old, versions)
                else:
                    run_new(versions)
                spent[side] += time.process_time() - t0
        n = (len(versions) - 1) * len(versions[0]) * 2 * args.rounds
        a, b = spent["A"] / n * 1e6, spent["B"] / n * 1e6
        print(f"{spec.id:28} {n // (2 * args.rounds):7} {a:10.1f} {b:10.1f} {b / a:5.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
