"""Dice Kingdoms of Valeria: the running score (``totals``) against the Score Tally worked out from scratch.

The rules need a seat's score before and after every mark (the board's score effects); each
seat's score after its last mark is kept (``state.totals``, -1 when not known) and read as the
next mark's "before". The reference is the Score Tally worked out from the sheet by the rulebook's
four segments (``score_sheet``: Star pips, Claimed Domains, Monster Lairs, Statue Cards), at every
step of seeded random games (solo with its Events, 2-5 players, both seasons): each known running
score equals it, and the score effects of an action add up to its change and end at its value,
also after quiet steps (which score nothing), a clone and a save restored.
"""

from __future__ import annotations

import pytest

from dicetable.engine import Rng, new_game
from dicetable.engine.effects import effects_of
from dicetable.games.dice_kingdoms_of_valeria.rules import score_sheet

GAME = "dice-kingdoms-of-valeria"


def tally(state, seat: int) -> int:
    """The reference: ``seat``'s Score Tally total, worked out from the sheet."""
    return score_sheet(state.lay, state.sheets[seat])["total"]


def check_totals(state) -> None:
    """Every seat's running score is unknown (-1) or its tally."""
    for s in range(state.players):
        assert state.totals[s] in (-1, tally(state, s))


def check_step(state, rng: Rng) -> None:
    """Take one random action; assert its score effects against the tally before and after it."""
    before = [tally(state, s) for s in range(state.players)]
    seat = state.to_move[rng.randbelow(len(state.to_move))]
    acts = state.legal_actions(seat)
    events = state.apply(acts[rng.randbelow(len(acts))], seat)
    effects = [e for ev in events for e in effects_of(ev.data)]
    for s in range(state.players):
        after = tally(state, s)
        counts = [e for e in effects if e["type"] == "count" and e["key"] == f"p-{s}-total"]
        scores = [e for e in effects if e["type"] == "score" and e["seat"] == s]
        assert sum(e["delta"] for e in counts) == after - before[s]
        assert sum(e["delta"] for e in scores) == after - before[s]
        if counts:
            assert counts[-1]["value"] == after
    check_totals(state)


@pytest.mark.parametrize("players,sheets,seed", [
    (1, "summer", 3), (1, "winter", 4), (1, "summer", 14), (2, "summer", 5), (2, "winter", 6), (3, "summer", 7),
    (4, "winter", 8), (5, "summer", 9),
])
def test_running_score_is_the_tally_at_every_step(players: int, sheets: str, seed: int) -> None:
    state = new_game(GAME, players, seed=seed, options={"sheets": sheets})
    rng = Rng(seed)
    known = 0
    while not state.is_over:
        check_step(state, rng)
        known += sum(1 for t in state.totals if t >= 0)
    assert known  # the running score was used, not only worked out


@pytest.mark.parametrize("seed", [21, 22])
def test_quiet_steps_clones_and_restores(seed: int) -> None:
    """Quiet steps (search) mark without scoring; then a loud step's effects are still the tally's."""
    state = new_game(GAME, 2, seed=seed)
    rng = Rng(seed)
    while not state.is_over:
        kind = rng.randbelow(4)
        if kind == 0:  # a quiet step, then the game goes on from it
            seat = state.to_move[rng.randbelow(len(state.to_move))]
            acts = state.legal_actions(seat)
            state = state.child(acts[rng.randbelow(len(acts))], seat)
            check_totals(state)
        elif kind == 1:
            state = state.clone()
            check_totals(state)
        elif kind == 2:
            state = type(state).from_dict(state.to_dict())
            assert state.totals == [-1] * state.players
        if not state.is_over:
            check_step(state, rng)
