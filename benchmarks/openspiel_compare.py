"""Side-by-side engine speed: dicetable's games vs OpenSpiel, in one run.

OpenSpiel is not a dependency of dicetable. To run this script:

    .venv/bin/pip install open_spiel
    .venv/bin/python benchmarks/openspiel_compare.py [--seconds 3]

For each game it plays seeded uniformly random games for about ``--seconds``
(dicetable: as many seeded games as a short probe says fit in that time;
both sides after one warm-up game, keeping nothing between games) and
reports actions per second (an action is one ``apply``; OpenSpiel's
chance outcomes count as actions too, dicetable rolls inside ``apply``), for
dicetable also by the quiet ``step`` of search (the same games with no event
built or logged: an OpenSpiel state keeps no log either), and
the mean cost of one ``clone`` on states sampled along the same kind of
games, in a second, untimed pass. Times are each process's CPU time.
OpenSpiel's pure-Python games (``python_*``) and its C++ ``pig`` are measured
through the same Python loop. dicetable's games are measured in both builds
(each game and build in a fresh process): the compiled one (mypyc, see
docs/compiled.md) when it is installed, and the pure Python one.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import dicetable

# CPU time of each process, not wall time: on a shared machine the time a side waits for a core is no
# part of its speed (set at import, so the spawned process that measures each build uses it too).
time.perf_counter = time.process_time

from dicetable.bench import clone_cost_us, in_fresh_process, sample_states, time_random_games  # noqa: E402
from dicetable.compiled import compiled_available  # noqa: E402


def ours(game_id: str, players: int, seconds: float) -> dict:
    """One build's figures: random games by ``apply`` (events and their text logged) and, the same
    games, by the quiet ``step`` of search (no event built, as OpenSpiel's states keep no log)."""
    _, probe = time_random_games(game_id, players, 3, seed=10_000)
    games = max(1, int(seconds * 3 / probe))
    steps, elapsed = time_random_games(game_id, players, games, seed=1)
    quiet_steps, quiet_elapsed = time_random_games(game_id, players, games, seed=1, quiet=True)
    samples = sample_states(game_id, players, games, seed=1, limit=2000)
    return {"engine": f"dicetable ({dicetable.build_kind()})", "game": f"{game_id} ({players}p)",
            "steps_per_s": steps / elapsed, "quiet_steps_per_s": quiet_steps / quiet_elapsed,
            "games_per_s": games / elapsed, "clone_us": clone_cost_us(samples)}


def openspiel(name: str, seconds: float) -> dict:
    import pyspiel
    from open_spiel.python import games as _python_games  # noqa: F401  (registers python_* games)

    game = pyspiel.load_game(name)
    rng = random.Random(1)
    counted = [0]  # actions over all sampling games

    def play(samples: list | None = None) -> int:
        """One random game; with ``samples``, keep a clone every 29th action (up to 2000)."""
        steps = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
            if samples is not None:
                counted[0] += 1
                if counted[0] % 29 == 0 and len(samples) < 2000:
                    samples.append(state.clone())
        return steps

    play()  # warm-up, as for dicetable
    steps, games = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        steps += play()
        games += 1
    elapsed = time.perf_counter() - t0
    samples: list = []
    for _ in range(max(games, 1)):
        if len(samples) >= 2000:
            break
        play(samples)
    kind = "C++" if not name.startswith("python_") else "Python"
    return {"engine": f"OpenSpiel ({kind})", "game": name, "steps_per_s": steps / elapsed,
            "games_per_s": games / elapsed, "clone_us": clone_cost_us(samples)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    builds = ["compiled", "pure"] if compiled_available() else ["pure"]
    rows = [in_fresh_process(build, ours, spec.id, min(max(2, spec.min_players), spec.max_players), args.seconds)
            for spec in dicetable.list_games() for build in builds]
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
    print(f"{'engine':22} {'game':32} {'steps/s':>12} {'quiet steps/s':>14} {'games/s':>10} {'clone us':>9}")
    for r in rows:
        quiet = f"{r['quiet_steps_per_s']:14.0f}" if "quiet_steps_per_s" in r else f"{'-':>14}"
        print(f"{r['engine']:22} {r['game']:32} {r['steps_per_s']:12.0f} {quiet} {r['games_per_s']:10.1f} "
              f"{r['clone_us']:9.2f}")
    pig = next((r for r in rows if r["game"] == "pig"), None)
    if pig is not None:
        for key, how in (("steps_per_s", "apply"), ("quiet_steps_per_s", "quiet step")):
            best = max((r for r in rows if key in r and r["engine"].startswith("dicetable")), key=lambda r: r[key])
            print(f"fastest dicetable title by {how}: {best['engine']} {best['game']}, "
                  f"{best[key] / pig['steps_per_s']:.2f}x the C++ pig's steps per second")


if __name__ == "__main__":
    main()
