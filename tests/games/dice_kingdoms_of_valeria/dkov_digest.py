"""Behaviour digest of Dice Kingdoms of Valeria, to check that speed work changes nothing.

Not a test module (pytest does not collect it): run it before and after a change
and compare. Usage::

    python tests/games/dice_kingdoms_of_valeria/dkov_digest.py record digest.json
    python tests/games/dice_kingdoms_of_valeria/dkov_digest.py check digest.json [--quick]

It plays seeded random games for 1-5 players on both sheets (and the solo track
trigger), hashing per game: every step's seat, decision prompt, legal action ids
and labels and the chosen action, and the final ``to_dict()`` (which holds the
whole event log with its texts). It also plays a few games of greedy against
random (hashing greedy's choices and the final state), the exact values of
``sheet_value``, ``evaluate`` and ``action_values`` along random games, and the
root statistics of short MCTS searches.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time

from dicetable.engine import Rng, new_game

GAME = "dice-kingdoms-of-valeria"


def _h(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def configs():
    """(name, players, options, seed) of the random games."""
    out = []
    for sheets in ("summer", "winter"):
        for players in range(1, 6):
            for i in range(20):
                out.append((f"random-{sheets}-{players}p-{i}", players, {"sheets": sheets}, 1000 * players + i))
    for i in range(10):
        out.append((f"random-solotrig-{i}", 1, {"sheets": "summer" if i % 2 else "winter",
                                                "solo_track_trigger": True}, 77 + i))
    return out


def random_game(players: int, options: dict, seed: int) -> str:
    state = new_game(GAME, players, seed=seed, options=options)
    rng = Rng(seed ^ 0xD16E)
    trace = hashlib.sha256()
    while not state.is_over:
        seats = state.to_move
        seat = seats[rng.randbelow(len(seats))]
        acts = state.legal_actions(seat)
        dec = state.decision(seat)
        trace.update(repr((seat, dec.kind, dec.prompt, [(a.id, a.label) for a in acts])).encode())
        action = acts[rng.randbelow(len(acts))]
        events = state.apply(action, seat)
        trace.update(repr([(e.kind, e.seat, e.text, e.data, e.visible) for e in events]).encode())
    return trace.hexdigest()[:16] + ":" + _h(state.to_dict()) + ":" + _h([state.scores, list(state.winners)])


def greedy_game(players: int, options: dict, seed: int) -> str:
    from dicetable.games.dice_kingdoms_of_valeria.policy import evaluate, greedy

    state = new_game(GAME, players, seed=seed, options=options)
    rng = Rng(seed)
    trace = hashlib.sha256()
    step = 0
    while not state.is_over:
        seats = state.to_move
        seat = seats[rng.randbelow(len(seats))]
        acts = state.legal_actions(seat)
        if seat == 0:
            action = greedy(state.determinize(seat, seed + step), seat)
        else:
            action = acts[rng.randbelow(len(acts))]
        if step % 7 == 0:
            trace.update(repr([round(evaluate(state, s), 9) for s in range(players)]).encode())
        trace.update(action.id.encode())
        state.apply(action.id, seat)
        step += 1
    return trace.hexdigest()[:16] + ":" + _h(state.to_dict())


def mcts_probe(players: int, options: dict, seed: int) -> str:
    from dicetable.bots.mcts import MCTS, SearchParams

    state = new_game(GAME, players, seed=seed, options=options)
    rng = Rng(seed)
    for _ in range(30 + seed % 40):
        if state.is_over:
            break
        seat = state.to_move[0]
        acts = state.legal_actions(seat)
        state.apply(acts[rng.randbelow(len(acts))], seat)
    if state.is_over:
        return "over"
    stats = MCTS(SearchParams(iterations=40, rollout_depth=12), seed=seed).search(state, state.to_move[0])
    return _h({k: [v[0], round(v[1], 9)] for k, v in sorted(stats.items())})


def values_game(players: int, options: dict, seed: int) -> str:
    """Exact (repr) values of ``sheet_value``, ``evaluate`` and ``action_values`` along a random game."""
    from dicetable.games.dice_kingdoms_of_valeria.policy import action_values, evaluate, sheet_value

    state = new_game(GAME, players, seed=seed, options=options)
    rng = Rng(seed)
    trace = hashlib.sha256()
    step = 0
    while not state.is_over:
        seat = state.to_move[rng.randbelow(len(state.to_move))]
        if step % 3 == 0:
            trace.update(repr([sheet_value(state, s) for s in range(players)]
                              + [evaluate(state, s) for s in range(players)]).encode())
            if step % 9 == 0:
                trace.update(repr([(a.id, v) for a, v in action_values(state, seat)]).encode())
        acts = state.legal_actions(seat)
        state.apply(acts[rng.randbelow(len(acts))], seat)
        step += 1
    trace.update(repr([sheet_value(state, s) for s in range(players)]).encode())
    return trace.hexdigest()[:16]


def run(quick: bool = False) -> dict:
    out = {}
    cfgs = configs()
    if quick:
        cfgs = cfgs[::5]
    for name, players, options, seed in cfgs:
        out[name] = random_game(players, options, seed)
    for players in (1, 2, 3):
        for sheets in ("summer", "winter"):
            for i in range(1 if quick else 2):
                out[f"greedy-{sheets}-{players}p-{i}"] = greedy_game(players, {"sheets": sheets}, 500 + i)
    for i in range(10 if quick else 40):
        out[f"values-{i}"] = values_game(1 + i % 5, {"sheets": ("summer", "winter")[i // 5 % 2]}, 300 + i)
    for players in (1, 2, 4):
        for i in range(1 if quick else 2):
            out[f"mcts-{players}p-{i}"] = mcts_probe(players, {"sheets": ("summer", "winter")[i % 2]}, 900 + i)
    return out


def main(argv: list[str]) -> int:
    mode, path = argv[0], argv[1]
    quick = "--quick" in argv
    t0 = time.perf_counter()
    got = run(quick)
    took = time.perf_counter() - t0
    if mode == "record":
        with open(path, "w") as f:
            json.dump(got, f, indent=1, sort_keys=True)
        print(f"recorded {len(got)} digests in {took:.1f} s")
        return 0
    with open(path) as f:
        want = json.load(f)
    bad = [k for k in got if want.get(k) != got[k]]
    print(f"checked {len(got)} digests in {took:.1f} s: "
          + ("all equal" if not bad else f"{len(bad)} DIFFER: {bad[:10]}"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
