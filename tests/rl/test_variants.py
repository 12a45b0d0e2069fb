"""Every option variant through the libraries' own checks: PettingZoo api_test, Gymnasium check_env
(solo variants), OpenSpiel random_sim_test; and OpenSpiel's tensors equal whichever path asks."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import dicetable.rl as rl
from dicetable.rl.spaces import research_games


def variants() -> list[tuple[str, int, dict]]:
    """(game, players, options): each option's every non-default choice, at the fewest players it allows."""
    out = []
    for spec in research_games():
        for opt in spec.options:
            allowed = [p for p in range(spec.min_players, spec.max_players + 1)
                       if opt.players is None or p in opt.players]
            for value in opt.choices or ():
                if value != opt.default:
                    out.append((spec.id, allowed[0], {opt.name: value}))
    return out


VARIANTS = variants()


def test_every_variant_with_choices_is_listed() -> None:
    """The options with choices: Biblios' Hidden Objectives, the Dice Kingdoms season, the Cat's
    level, the Card Kingdoms setups and Mixed Citizens (the free-text ones take seeded defaults)."""
    names = {(g, next(iter(o))) for g, _, o in VARIANTS}
    assert {("biblios-dice", "hidden_objectives"), ("dice-kingdoms-of-valeria", "sheets"),
            ("kingdom-of-dice", "cat_level"), ("valeria-card-kingdoms", "setup"),
            ("valeria-card-kingdoms", "citizens")} <= names


@pytest.mark.parametrize("game_id,players,options", VARIANTS, ids=lambda v: json.dumps(v) if isinstance(v, dict) else str(v))
def test_pettingzoo_api_for_each_variant(game_id: str, players: int, options: dict) -> None:
    if players == 1:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(rl.gym_env(game_id, players=1, options=options), skip_render_check=True)
    else:
        api_test(rl.env(game_id, players, options), num_cycles=60, verbose_progress=False)


pyspiel = pytest.importorskip("pyspiel")
from dicetable.rl.openspiel import register_openspiel, short_name  # noqa: E402


@pytest.mark.parametrize("game_id,players,options", VARIANTS, ids=lambda v: json.dumps(v) if isinstance(v, dict) else str(v))
def test_openspiel_for_each_variant(game_id: str, players: int, options: dict) -> None:
    register_openspiel()
    game = pyspiel.load_game(short_name(game_id), {"players": players, "options": json.dumps(options), "seed": 5})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(120):
        if state.is_terminal():
            break
        for p in range(players):
            # the Python answer (what rl_environment gets) and pyspiel's own path (the observer) agree
            assert state.information_state_tensor(p) == pytest.approx(pyspiel.State.information_state_tensor(state, p))
        state.apply_action(int(rng.choice(state.legal_actions())))
    # pyspiel replays a state's history from a new initial state, which has the next seed here
    # (the games are sampled-stochastic), so the simulation starts from a wrapped engine state
    # with no pyspiel history of its own
    engine = state.state.clone()
    if engine.is_over:
        engine = rl.GameSpaces(game_id, players, options).new_game(6)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False,
                            specific_initial_state=game.from_engine_state(engine))
