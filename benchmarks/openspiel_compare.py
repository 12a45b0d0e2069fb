"""Side-by-side engine speed: dicetable's games vs OpenSpiel, in one run.

OpenSpiel is not a dependency of dicetable. To run this script:

    .venv/bin/pip install open_spiel
    .venv/bin/python benchmarks/openspiel_compare.py [--seconds 3]

For each game it plays seeded uniformly random games for about ``--seconds``
(dicetable: as many seeded games as a short probe says fit in that time)
and reports actions per second (an action is one ``apply``; OpenSpiel's
chance outcomes count as actions too, dicetable rolls inside ``apply``) and
the mean cost of one ``clone`` on states sampled along those games.
OpenSpiel's pure-Python games (``python_*``) and its C++ ``pig`` are measured
through the same Python loop.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import dicetable
from dicetable.bench import clone_cost_us, sample_states


def ours(game_id: str, players: int, seconds: float) -> dict:
    _, _, probe = sample_states(game_id, players, 3, seed=0)
    games = max(1, int(seconds * 3 / probe))
    samples, steps, elapsed = sample_states(game_id, players, games, seed=1)
    return {"engine": "dicetable", "game": f"{game_id} ({players}p)", "steps_per_s": steps / elapsed,
            "games_per_s": games / elapsed, "clone_us": clone_cost_us(samples[:2000])}


def openspiel(name: str, seconds: float) -> dict:
    import pyspiel
    from open_spiel.python import games as _python_games  # noqa: F401  (registers python_* games)

    game = pyspiel.load_game(name)
    rng = random.Random(1)
    steps, games, samples = 0, 0, []
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                action = rng.choices(outcomes, probs)[0]
            elif state.is_simultaneous_node():
                action = None
                joint = [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
                state.apply_actions(joint)
                steps += 1
                continue
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
            if steps % 29 == 0 and len(samples) < 2000:
                samples.append(state.clone())
        games += 1
    elapsed = time.perf_counter() - t0
    kind = "C++" if not name.startswith("python_") else "Python"
    return {"engine": f"OpenSpiel ({kind})", "game": name, "steps_per_s": steps / elapsed,
            "games_per_s": games / elapsed, "clone_us": clone_cost_us(samples)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [ours(spec.id, min(max(2, spec.min_players), spec.max_players), args.seconds)
            for spec in dicetable.games()]
    for name in ("python_tic_tac_toe", "python_kuhn_poker", "python_liars_poker",
                 "python_block_dominoes", "pig"):
        try:
            rows.append(openspiel(name, args.seconds))
        except ImportError:
            print("open_spiel is not installed: pip install open_spiel")
            break
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'engine':22} {'game':32} {'steps/s':>12} {'games/s':>10} {'clone us':>9}")
    for r in rows:
        print(f"{r['engine']:22} {r['game']:32} {r['steps_per_s']:12.0f} {r['games_per_s']:10.1f} {r['clone_us']:9.2f}")


if __name__ == "__main__":
    main()
