"""Corsairs of Valeria as a fixed-length feature vector (the research observation space).

Drawn from ``observation(seat)`` only (everything in this game is public; its fields are
documented in :class:`~.viewdata.Observation`); seat slices start
from the observer. See :mod:`dicetable.engine.encoding`; ``Encoding.slices`` documents each
position.
"""

from __future__ import annotations

from typing import Any, Final

from dicetable.engine.encoding import (
    DirectFill, Encoding, Feature, counts, numbers, one_hot, per_seat, scalar, shared_memo,
)

from .components import CAPTAINS, COMPONENTS, DIE_FACES, GROG_MAX, SILVER_PER_TREASURE, TREASURE_TO_WIN
from .rules import GROUP_IDS, OVER, TASK_KINDS, CorsairsState
from .rules.fields import race_number
from .viewdata import marked_dice

_PHASES: Final = ("A", "B", "C", "D", OVER)
#: Longest way from Start Island to Skull Island on any Tracks (a scale, not a rule).
_FARTHEST: Final = 24.0
_SILVER_SCALE: Final = 30.0


def _ship(key: str, scale: float, meaning: str) -> Feature:
    return scalar(key, lambda v: v["obs"]["ships"][v["seat"]][key], scale, meaning)


def observation_encoding(players: int, options: dict[str, Any]) -> Encoding:
    """The feature layout for ``players`` seats (rulebook sections: Phase A-D, Skull Island)."""
    dice = COMPONENTS.dice.count
    feats = [
        one_hot("phase", lambda o: o["phase"], _PHASES, "turn phase A-D, or over"),
        scalar("race", lambda o: o["race"], 2, "race number / 2"),
        scalar("skull_island_visits", lambda o: o["skull_island_visits"], 2, "arrivals at Skull Island / 2"),
        scalar("skull_island_silver", lambda o: o["skull_island_silver"], _SILVER_SCALE, "Silver on Skull Island / 30"),
        scalar("supply", lambda o: o["supply"], 100, "Silver in the supply / 100"),
        per_seat(players, scalar("is_current", lambda v: v["obs"]["current"] == v["seat"], 1,
                                 "1 for the seat taking its turn")),
        per_seat(players, one_hot("captain", lambda v: v["obs"]["ships"][v["seat"]]["captain"],
                                  tuple(c.id for c in CAPTAINS), "the seat's Captain")),
        per_seat(players, _ship("to_skull_island", _FARTHEST, "spaces from the Ship to Skull Island / 24")),
        per_seat(players, _ship("grog", GROG_MAX, "Grog on the dial / dial max")),
        per_seat(players, _ship("silver", SILVER_PER_TREASURE, "Silver on the Ship Board / Silver per Treasure")),
        per_seat(players, _ship("treasure", TREASURE_TO_WIN, "Treasures / Treasures to win")),
        counts("dice", lambda o: o["dice"], DIE_FACES, dice, "dice showing each face (count / 5)"),
        numbers("marked", lambda o: [int(m) for m in marked_dice(o)],
                dice, 1, "1 for each die marked for a re-roll"),
        scalar("rerolls", lambda o: o["rerolls"], 3, "re-rolls made this turn / 3"),
        numbers("to_execute", lambda o: [o["to_execute"][g] for g in GROUP_IDS], len(GROUP_IDS), dice,
                "Grog, Silver, Map and Cannon faces still to execute (count / 5)"),
        one_hot("waiting_for", lambda o: o["waiting_for"], TASK_KINDS, "the task the game is waiting on"),
    ]
    return Encoding(feats, direct=lambda offsets: _direct(players, offsets))


def _direct(players: int, at: dict[str, int]) -> DirectFill:
    """The same vector as the features above, written from the state's public fields (all public here)."""
    dice = COMPONENTS.dice.count
    n_captains = len(CAPTAINS)
    phase_index = {p: i for i, p in enumerate(_PHASES)}
    task_index: dict[str | None, int] = {k: i for i, k in enumerate(TASK_KINDS)}
    o_phase, o_race, o_visits, o_island, o_supply = (at[k] for k in (
        "phase", "race", "skull_island_visits", "skull_island_silver", "supply"))
    o_current, o_captain, o_dist, o_grog, o_silver, o_treasure = (at[k] for k in (
        "is_current", "captain", "to_skull_island", "grog", "silver", "treasure"))
    o_dice, o_marked, o_rerolls, o_left, o_waiting = (at[k] for k in (
        "dice", "marked", "rerolls", "to_execute", "waiting_for"))

    n_faces = len(DIE_FACES)
    # the dice slices (faces rolled, marked dice) of one roll, as (position, value) pairs: a
    # roll is read at several decisions (reroll, mark, execute), so it is worked out once
    dice_memo: dict[tuple[tuple[int, ...], int], tuple[tuple[int, float], ...]] = shared_memo(
        "corsairs-of-valeria", "dice", o_dice, o_marked)  # the pairs' positions depend on these alone

    def dice_pairs(key: tuple[tuple[int, ...], int]) -> tuple[tuple[int, float], ...]:
        if len(dice_memo) > 4096:  # bound the memory of long runs
            dice_memo.clear()
        faces_rolled, marked = key
        faces = [0] * n_faces
        for f in faces_rolled:
            faces[f] += 1
        pairs = [(o_dice + f, n / dice) for f, n in enumerate(faces) if n]
        pairs += [(o_marked + d, 1.0) for d in range(len(faces_rolled)) if (marked >> d) & 1]
        got = dice_memo[key] = tuple(pairs)
        return got

    # each ship's slices for the seat in slot k: (captain row, distance, grog, silver, treasure)
    ship_at = [(o_captain + k * n_captains, o_dist + k, o_grog + k, o_silver + k, o_treasure + k)
               for k in range(players)]

    def fill(state: CorsairsState, seat: int | None, out: Any) -> None:
        i = phase_index.get(state.phase)
        if i is not None:
            out[o_phase + i] = 1.0
        out[o_race] = race_number(state) / 2
        if state.visits:
            out[o_visits] = state.visits / 2
        if state.island:
            out[o_island] = state.island / _SILVER_SCALE
        out[o_supply] = state.supply / 100
        first = seat if seat is not None else 0
        out[o_current + (state.current - first) % players] = 1.0
        dist, captains, pos, grog, silver, treasure = (state.track.dist, state.captain, state.pos, state.grog,
                                                       state.silver, state.treasure)
        for k in range(players):
            s = (first + k) % players
            at_captain, at_dist, at_grog, at_silver, at_treasure = ship_at[k]
            if captains[s] >= 0:
                out[at_captain + captains[s]] = 1.0
            out[at_dist] = dist[pos[s]] / _FARTHEST
            if grog[s]:
                out[at_grog] = grog[s] / GROG_MAX
            if silver[s]:
                out[at_silver] = silver[s] / SILVER_PER_TREASURE
            if treasure[s]:
                out[at_treasure] = treasure[s] / TREASURE_TO_WIN
        dice_faces = state.dice
        if dice_faces:
            key = (tuple(dice_faces), state.marked)
            pairs = dice_memo.get(key)
            if pairs is None:
                pairs = dice_pairs(key)
            for p, v in pairs:
                out[p] = v
        if state.rerolls:
            out[o_rerolls] = state.rerolls / 3
        for g, n in enumerate(state.left):
            if n:
                out[o_left + g] = n / dice
        i = task_index.get(state.waiting_for)
        if i is not None:
            out[o_waiting + i] = 1.0
    return fill
