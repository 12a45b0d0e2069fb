"""Steps per second of the research interfaces against the raw engine, in one run.

For every title at 2 players it plays ``--games`` seeds; for each seed every side runs its unit
of work (a game, or a fixed number of batch steps) ``--rounds`` times, interleaved with the other
sides and set up afresh each time, and its fastest run counts. What set-up does not empty are the
observation fills' memos (``engine.encoding.shared_memo``), which every environment of one
configuration in a process shares: from the second run of a game on, its fills find what they
remember. ``--cold`` empties them before every run (outside the clock), as for positions never seen
before (a fresh game, a search's leaves). The table shows steps per second over all seeds and the median of the
seeds' ratios, so a busy moment of a shared machine does not decide a ratio. The sides:

- **raw**: a seeded random game on the engine alone (``legal_actions`` + ``apply``); **raw
  quiet**: the same with the quiet ``step`` of search instead of ``apply`` (no event built);
- **AEC**: the same game through the PettingZoo AEC environment (``last()`` gives the
  observation vector and the mask, then ``step`` with the recorded action's index), which
  moves by the quiet step (its default); "AEC cost" is against the raw step, "v quiet" against
  the raw quiet step;
- **OpenSpiel**: the same game through ``open_spiel.python.rl_environment.Environment`` (every
  step builds every player's information-state tensor and legal actions, as that API does);
- **OpenSpiel floor**: rl_environment on a trivial pyspiel Python game against that game's bare
  loop (:func:`register_floor_game`): rl_environment's own cost per step, which no game can
  avoid. "OS floor" is the cost an OpenSpiel step would have if our part (tensors, legal
  actions, the trampolines' Python methods) cost nothing: (raw step + floor) / raw step;
- **batched vs separate**: ``--envs`` games stepped together by :class:`dicetable.rl.BatchEnv`
  against as many separate AEC environments stepped one after another, in agent steps per second
  (40 steps per game in the batch, from ``reset(seed)``).

Raw, AEC and OpenSpiel replay the same recorded game of each seed (random actions). The batch and
the separate environments start the same games; the separate side draws each environment's
action from its mask in turn, the batch draws for all its games in one numpy call, as a batched
policy does (uniform among the legal actions either way). The garbage collector is paused while a unit is timed,
and a unit's time is this process's CPU time (``time.process_time``): on a shared machine the
time the process waits for a core while others run is no part of either side's step.
Run: ``.venv/bin/python benchmarks/rl_speed.py [--games N] [--rounds R] [--envs N] [--only GAME] [--cold]``;
prints a table and (without ``--only``, which measures one title) writes
benchmarks/results/rl-speed.json (rl-speed-compiled.json when the engine and rules are the
compiled build, docs/compiled.md: the raw step is then faster and every ratio larger). OpenSpiel
is skipped (and said so) when ``pyspiel`` is not installed.
"""

from __future__ import annotations

import argparse
import gc
import json
import pathlib
import random
import statistics
import time
from typing import Any, Callable

import numpy as np

import dicetable
from dicetable.engine.encoding import clear_shared_memos
from dicetable.rl import GameSpaces, batch_env, env
from dicetable.rl.spaces import research_games


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """(steps, CPU seconds of this process) of ``run()`` with the garbage collector paused."""
    gc.disable()
    t0 = time.process_time()
    try:
        steps = run()
    finally:
        elapsed = time.process_time() - t0
        gc.enable()
    return steps, elapsed


# Each side is a function of a seed that sets up outside the clock and returns the timed part:
# a callable playing one unit of work and returning its steps. Raw, AEC and OpenSpiel replay
# one recorded random game of the seed (each side gets the same actions, found in its own terms:
# a position in ``legal_actions``, a catalogue index), so they do the same engine work and the
# difference is the interface's.
Unit = Callable[[], int]


def recorded_game(game_id: str, players: int, seed: int) -> tuple[int, list[tuple[int, str]]]:
    """(engine seed, [(seat, action id), ...]) of a random game: the engine seed is the one
    ``reset(seed=seed)`` of an environment plays, and each action is drawn uniformly."""
    engine_seed = GameSpaces(game_id, players).next_seed(seed)
    rng = random.Random(seed)
    state = dicetable.new_game(game_id, players, seed=engine_seed)
    moves = []
    while not state.is_over:
        seat = min(state.to_move)
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        moves.append((seat, action.id))
        state.apply(action, seat)
    return engine_seed, moves


def raw_unit(game_id: str, players: int, seed: int, quiet: bool = False) -> Unit:
    """The seed's game on the raw engine: ``legal_actions`` + ``apply`` of an offered Action
    (``quiet``: + the quiet ``step`` of search instead, which builds no event)."""
    engine_seed, moves = recorded_game(game_id, players, seed)
    state = dicetable.new_game(game_id, players, seed=engine_seed)
    positions = []
    for seat, aid in moves:
        legal = state.legal_actions(seat)
        positions.append(next(i for i, a in enumerate(legal) if a.id == aid))
        state.apply(aid, seat)

    def run() -> int:
        state = dicetable.new_game(game_id, players, seed=engine_seed)
        go = state.step if quiet else state.apply
        for position in positions:
            seat = min(state.to_move)
            go(state.legal_actions(seat)[position], seat)
        return len(positions)
    return run


def aec_unit(game_id: str, players: int, seed: int) -> Unit:
    """The seed's game through the AEC environment: ``last()`` (observation vector and mask), ``step``."""
    e = env(game_id, players)
    _, moves = recorded_game(game_id, players, seed)
    choices = [e.spaces.index[aid] for _, aid in moves]

    def run() -> int:
        e.reset(seed=seed)
        steps = 0
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(choices[steps])
            steps += 1
        return steps
    return run


def spiel_unit(game_id: str, players: int, seed: int) -> Unit:
    """The seed's game through OpenSpiel's rl_environment (every player's tensor each step)."""
    import pyspiel
    from open_spiel.python import rl_environment

    from dicetable.rl.openspiel import short_name

    engine_seed, moves = recorded_game(game_id, players, seed)
    game = pyspiel.load_game(short_name(game_id), {"players": players})
    choices = [game.spaces.index[aid] for _, aid in moves]

    def run() -> int:
        game.next_seed = engine_seed  # the recorded game, whichever repetition this is
        environment = rl_environment.Environment(game)
        time_step = environment.reset()
        steps = 0
        while not time_step.last():
            time_step = environment.step([choices[steps]])
            steps += 1
        return steps
    return run


FLOOR_NAME = "python_dicetable_rl_floor"
FLOOR_LENGTH = 200  # actions in one game of the floor game


def register_floor_game() -> None:
    """Register a trivial 2-player pyspiel Python game: rl_environment's own cost per step.

    Each state answers from one counter (two legal actions, a constant one-number tensor, zero
    returns, over after ``FLOOR_LENGTH`` actions; the same Python answers to ``legal_actions``,
    ``rewards`` and ``is_chance_node`` as the dicetable states, and to ``get_type`` and
    ``num_players`` as the dicetable games), so timing ``rl_environment`` on
    it, less the same game's bare ``apply_action(legal_actions()[0])`` loop, leaves what
    rl_environment and pyspiel's Python-game calls cost whatever the game: the floor under
    every title's OpenSpiel column.
    """
    import pyspiel

    if FLOOR_NAME in pyspiel.registered_names():
        return
    fields: dict[str, Any] = dict(
        short_name=FLOOR_NAME, long_name="rl_environment floor", dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=True, provides_observation_string=False,
        provides_observation_tensor=True, parameter_specification={})
    # a GameType whose fields read as plain values, as the dicetable games' (dicetable.rl.openspiel)
    game_type = type("FloorGameType", (pyspiel.GameType,), fields)(**fields)
    info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=0, num_players=2, min_utility=-1.0,
                            max_utility=1.0, utility_sum=0.0, max_game_length=FLOOR_LENGTH)
    tensor = [0.5]

    class FloorState(pyspiel.State):
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.moves = 0

        def current_player(self) -> int:
            return self.moves % 2 if self.moves < FLOOR_LENGTH else -4  # pyspiel.PlayerId.TERMINAL

        def _legal_actions(self, player: int) -> list[int]:
            return [0, 1]

        # answered in Python as the dicetable states answer them (no C++ trampoline), so that
        # the floor is rl_environment's own work, not pyspiel's default path
        def legal_actions(self, player: int | None = None) -> list[int]:
            current = self.current_player()
            return [] if current < 0 or (player is not None and player != current) else [0, 1]

        def rewards(self) -> list[float]:
            return [0.0, 0.0]

        def is_chance_node(self) -> bool:
            return False

        def _apply_action(self, action: int) -> None:
            self.moves += 1

        def is_terminal(self) -> bool:
            return self.moves >= FLOOR_LENGTH

        def returns(self) -> list[float]:
            return [0.0, 0.0]

        def information_state_tensor(self, player: int | None = None) -> list[float]:
            return tensor

        observation_tensor = information_state_tensor

        def __str__(self) -> str:
            return str(self.moves)

    class FloorObserver:
        def __init__(self) -> None:
            self.tensor = np.zeros(1, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state: Any, player: int) -> None:
            self.tensor[0] = 0.5

        def string_from(self, state: Any, player: int) -> str:
            return str(state)

    class FloorGame(pyspiel.Game):
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, info, params or {})

        # answered in Python as the dicetable games answer them (pyspiel's copy the C++ GameType
        # into a new object, about 1.5 microseconds, and rl_environment asks two or three times a step)
        def get_type(self) -> Any:
            return game_type

        def num_players(self) -> int:
            return 2

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> FloorObserver:
            return FloorObserver()

    pyspiel.register_game(game_type, FloorGame)


def floor_units() -> dict[str, Unit]:
    """The floor game's bare loop and its rl_environment loop (one game each, ``FLOOR_LENGTH`` steps)."""
    import pyspiel
    from open_spiel.python import rl_environment

    game = pyspiel.load_game(FLOOR_NAME)

    def bare() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        return FLOOR_LENGTH

    def environment() -> int:
        env = rl_environment.Environment(game)
        time_step = env.reset()
        while not time_step.last():
            time_step = env.step([0])
        return FLOOR_LENGTH
    return {"floor_bare": bare, "floor_env": environment}


def separate_unit(game_id: str, players: int, seed: int, envs: int, total: int) -> Unit:
    """``total`` agent steps of ``envs`` separate AEC environments stepped in turn."""
    es = [env(game_id, players) for _ in range(envs)]

    def run() -> int:
        rng = random.Random(seed)
        for i, e in enumerate(es):
            e.reset(seed=seed * envs + i)
        steps = 0
        while steps < total:
            for i, e in enumerate(es):
                obs, _, term, trunc, _ = e.last()
                if term or trunc:
                    e.reset(seed=seed * envs + steps + i)  # its game ended for every agent: start the next
                    obs, *_ = e.last()
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps
    return run


def batched_unit(game_id: str, players: int, seed: int, envs: int, total: int) -> Unit:
    """``total`` agent steps of one BatchEnv of ``envs`` games (auto-reset)."""
    b = batch_env(game_id, envs, players)

    def run() -> int:
        rng = np.random.default_rng(seed)
        _, mask, _ = b.reset(seed=[seed * envs + i for i in range(envs)])  # the separate side's games
        steps = 0
        while steps < total:
            # a batched policy: one uniform draw among each game's legal actions, for all games at once
            _, mask, *_ = b.step((rng.random(mask.shape) * mask).argmax(axis=1))
            steps += envs
        return steps
    return run


def main() -> None:
    """Measure every title at 2 players and print the ratios (cost: times the raw step; speed-up: batched/separate)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="seeds per title: random games (and batch runs) per side")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each seed's unit per side; the fastest counts")
    parser.add_argument("--envs", type=int, default=16, help="games in the batch (and separate environments)")
    parser.add_argument("--only", metavar="GAME", help="measure this title only (the results file is not written)")
    parser.add_argument("--cold", action="store_true",
                        help="empty the observation fills' shared memos before every run (the results file is not written)")
    args = parser.parse_args()
    try:
        import pyspiel

        from dicetable.rl.openspiel import register_openspiel, short_name

        register_openspiel()
        register_floor_game()
    except ImportError:
        pyspiel = None
        print("pyspiel is not installed: the OpenSpiel column is skipped")
    rows = []
    specs = [spec for spec in research_games() if args.only in (None, spec.id)]
    if not specs:
        raise SystemExit(f"--only {args.only}: not a research title")
    for spec in specs:
        players = 2
        total = 40 * args.envs
        sides: dict[str, Callable[[int], Unit]] = {
            "raw": lambda seed: raw_unit(spec.id, players, seed),
            "raw_quiet": lambda seed: raw_unit(spec.id, players, seed, quiet=True),
            "aec": lambda seed: aec_unit(spec.id, players, seed),
            "separate": lambda seed: separate_unit(spec.id, players, seed, args.envs, total),
            "batched": lambda seed: batched_unit(spec.id, players, seed, args.envs, total),
        }
        if pyspiel is not None:
            sides["openspiel"] = lambda seed: spiel_unit(spec.id, players, seed)
            # the floor game's two loops, timed beside each title's (see register_floor_game)
            sides["floor_bare"] = lambda seed: floor_units()["floor_bare"]
            sides["floor_env"] = lambda seed: floor_units()["floor_env"]
        steps = dict.fromkeys(sides, 0)
        seconds = dict.fromkeys(sides, 0.0)
        ratios: dict[str, list[float]] = {"aec": [], "aec_quiet": [], "openspiel": [], "batch": [], "floor": []}
        for make in sides.values():  # warm the code paths on a seed that is not measured
            make(10_000)()
        for seed in range(args.games):
            fastest: dict[str, float] = {}
            counted: dict[str, int] = {}
            for repetition in range(args.rounds):
                # set up afresh each time (outside the clock): no side keeps what an earlier
                # repetition of the same game left in its caches
                units = list({name: make(seed) for name, make in sides.items()}.items())
                if (seed + repetition) % 2:
                    units.reverse()  # alternate which side runs first
                for name, unit in units:
                    if args.cold:
                        clear_shared_memos()
                    counted[name], elapsed = timed(unit)
                    fastest[name] = min(fastest.get(name, elapsed), elapsed)
            rate = {name: counted[name] / fastest[name] for name in sides}
            for name in sides:
                steps[name] += counted[name]
                seconds[name] += fastest[name]
            ratios["aec"].append(rate["raw"] / rate["aec"])
            ratios["aec_quiet"].append(rate["raw_quiet"] / rate["aec"])
            ratios["batch"].append(rate["batched"] / rate["separate"])
            if "openspiel" in rate:
                ratios["openspiel"].append(rate["raw"] / rate["openspiel"])
                # what an OpenSpiel step would cost if our part were free: a raw step plus
                # rl_environment's own work per step (the floor game's environment step less its bare step)
                floor = 1 / rate["floor_env"] - 1 / rate["floor_bare"]
                ratios["floor"].append((1 / rate["raw"] + floor) * rate["raw"])
        row: dict[str, Any] = {"game": spec.id, "players": players,
                               **{f"{k}_steps_per_s": steps[k] / seconds[k] for k in sides},
                               "aec_cost": statistics.median(ratios["aec"]),
                               "aec_cost_quiet": statistics.median(ratios["aec_quiet"]),
                               "batch_speedup": statistics.median(ratios["batch"])}
        if ratios["openspiel"]:
            row["openspiel_cost"] = statistics.median(ratios["openspiel"])
            row["openspiel_floor_cost"] = statistics.median(ratios["floor"])
            row["raw_us"] = 1e6 * seconds["raw"] / steps["raw"]
            row["openspiel_us"] = 1e6 * seconds["openspiel"] / steps["openspiel"]
            row["rl_environment_floor_us"] = 1e6 * (seconds["floor_env"] / steps["floor_env"]
                                                    - seconds["floor_bare"] / steps["floor_bare"])
        rows.append(row)
    print(f"{'game':26} {'raw/s':>8} {'quiet/s':>8} {'AEC/s':>8} {'AEC cost':>8} {'v quiet':>7} {'OpenSpiel/s':>11} "
          f"{'OS cost':>7} {'OS floor':>8} {'separate/s':>10} {'batched/s':>9} {'speed-up':>8}")
    for r in rows:
        os_rate = f"{r['openspiel_steps_per_s']:11,.0f} {r['openspiel_cost']:6.2f}x {r['openspiel_floor_cost']:7.2f}x" \
            if "openspiel_cost" in r else f"{'-':>11} {'-':>7} {'-':>8}"
        print(f"{r['game']:26} {r['raw_steps_per_s']:8,.0f} {r['raw_quiet_steps_per_s']:8,.0f} "
              f"{r['aec_steps_per_s']:8,.0f} {r['aec_cost']:7.2f}x {r['aec_cost_quiet']:6.2f}x "
              f"{os_rate} {r['separate_steps_per_s']:10,.0f} {r['batched_steps_per_s']:9,.0f} "
              f"{r['batch_speedup']:7.2f}x")
    for r in rows:
        if "openspiel_cost" in r:
            print(f"{r['game']:26} OpenSpiel step {r['openspiel_us']:5.1f} us = raw {r['raw_us']:5.1f} "
                  f"+ rl_environment's floor {r['rl_environment_floor_us']:5.1f} "
                  f"+ ours {r['openspiel_us'] - r['raw_us'] - r['rl_environment_floor_us']:5.1f}")
    build = dicetable.build_kind()
    print(f"build: {build} (dicetable.build_kind())")
    if args.only or args.cold:  # the results file holds the whole run of the usual measure
        return
    out = pathlib.Path(__file__).parent / "results" / ("rl-speed.json" if build == "pure" else f"rl-speed-{build}.json")
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"args": vars(args), "build": build, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
