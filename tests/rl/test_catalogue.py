"""The fixed action space: every action id any game offers is in its declared catalogue.

Random and greedy games at every player count and every listed option value (one option varied
at a time from the defaults) collect the ids offered; each must be in
``spec.action_catalogue(players, options)``, which lists each id once.
"""

from __future__ import annotations

import pytest

import dicetable
from dicetable.bots import make_bot
from dicetable.engine import registry

RANDOM_GAMES = 6
GREEDY_GAMES = 1


def configurations():
    """(game id, players, options) for every registered game with a catalogue."""
    out = []
    for spec in registry.games():
        if spec.action_catalogue is None:
            continue
        for players in range(spec.min_players, spec.max_players + 1):
            out.append((spec.id, players, {}))
            for opt in spec.options:
                if opt.players is not None and players not in opt.players:
                    continue
                for value in (opt.choices or ()):
                    if value != opt.default:
                        out.append((spec.id, players, {opt.name: value}))
    return out


def offered_ids(game_id: str, players: int, options: dict, bot: str, seed: int) -> set[str]:
    """Every action id offered to any seat in one game played by ``bot`` seats."""
    state = dicetable.new_game(game_id, players, seed=seed, options=options)
    bots = [make_bot(bot, seed + s) for s in range(players)]
    seen: set[str] = set()
    while not state.is_over:
        seat = state.to_move[0]
        seen.update(a.id for a in state.legal_actions(seat))
        state.apply(bots[seat].choose(state, seat), seat)
    return seen


@pytest.mark.parametrize("game_id,players,options", configurations(),
                         ids=lambda v: v if isinstance(v, str) else str(v))
def test_every_offered_action_is_in_the_catalogue(game_id, players, options):
    spec = dicetable.get_game(game_id)
    resolved = spec.resolve_options(players, options)
    catalogue = spec.action_catalogue(players, resolved)
    assert len(catalogue) == len(set(catalogue)), "an id is listed twice"
    assert catalogue == spec.action_catalogue(players, dict(resolved)), "the order is not stable"
    known = set(catalogue)
    for k in range(RANDOM_GAMES):
        missing = offered_ids(game_id, players, options, "random", 100 + k) - known
        assert not missing, f"random game {k} offered ids outside the catalogue: {sorted(missing)[:10]}"
    for k in range(GREEDY_GAMES):
        missing = offered_ids(game_id, players, options, "greedy", 200 + k) - known
        assert not missing, f"greedy game {k} offered ids outside the catalogue: {sorted(missing)[:10]}"
