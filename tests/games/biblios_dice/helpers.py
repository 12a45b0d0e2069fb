"""Shared helpers for the Biblios Dice tests: scripted rolls and prepared states."""

from __future__ import annotations

from dicetable import new_game
from dicetable.games.biblios_dice.components import BISHOP, MULE_FINAL, RESOURCES, TOP

GAME = "biblios-dice"
TRACK = {name: i for i, name in enumerate(RESOURCES)} | {"bishop": BISHOP}


def phase_one(resources, gold=1, mule=1, adjustment="+1"):
    """The scripted Phase I roll: Resource Dice, then the Gold, Mule and Adjustment Dice."""
    return list(resources) + [gold, mule, adjustment]


def game(players, dice=(), seed=1, **options):
    """A new game with scripted dice."""
    return new_game(GAME, players, seed=seed, options=options, dice=list(dice))


def pos(state, seat, track):
    """Space of ``seat``'s marker on ``track`` (a resource id or "bishop")."""
    return state.pos[TRACK[track] * state.nm + seat]


def put(state, seat, track, space, stamp=None):
    """Place ``seat``'s marker on ``space`` of ``track`` (arriving now unless ``stamp`` is given)."""
    i = TRACK[track] * state.nm + seat
    state.pos[i] = space
    if stamp is None:
        state.clock += 1
        stamp = state.clock
    state.stamp[i] = stamp


def to_market(state):
    """From a fresh round (Phase I decision, Mule Die scripted to 1): keep and reach the market."""
    state.mule = MULE_FINAL - 1
    state.apply("keep")
    assert state.phase == "split"


def bid_round(state, cards):
    """Every listed seat places its card (``{seat: "5" | "pass"}``) face down."""
    for seat, card in cards.items():
        state.apply(f"bid:{card}", seat)


__all__ = ["GAME", "TRACK", "TOP", "phase_one", "game", "pos", "put", "to_market", "bid_round"]
