"""Helpers for the Corsairs of Valeria tests: scripted games and named places on the track.

Default layout ``T1A,T2A,T3B`` (nodes, from the data file):

    0 Start (Start symbol) | island +1 Silver +1 Grog | 1 Start Island space 2
    Track 1 = T1A: 2 | island +1 Silver | 3 Merchant(1 Silver) | 4 | island +1 Grog | 5 Cutthroat
    Track 2 = T2A: 6 | 7 Sea Monster | island +1 Silver +1 Grog | 8 | 9 Merchant(1 Silver)
    Track 3 = T3B: 10 | island +1 Silver | 11 | 12 Whirlpool | island +2 Silver | 13 Merchant(1 Grog)
    14 Skull Island
"""

from __future__ import annotations

from dicetable import new_game

GAME = "corsairs-of-valeria"
LAYOUT = "T1A,T2A,T3B"

SK, SG, GR, SI, MP, CN = "skull", "skull-grog", "grog", "silver", "map", "cannon"


def game(players=2, dice=(), captains="none", tracks=LAYOUT, first=1, seed=1):
    """A new game with scripted dice; seat ``first - 1`` starts and has rolled the first 5 dice."""
    return new_game(GAME, players, seed=seed, dice=list(dice),
                    options={"captains": captains, "tracks": tracks, "first_player": str(first)})


def node(state, segment, row, lane=None):
    """The node of ``row`` (1-based, as printed) on ``segment`` (0 Start Island, 1-3 Tracks)."""
    return state.track.node(segment, row - 1, lane)


def ids(state, seat=None):
    """The legal action ids of ``seat`` (the seat to move by default)."""
    return [a.id for a in state.legal_actions(seat if seat is not None else state.to_move[0])]


def kinds(state):
    """The event kinds logged so far."""
    return [e.kind for e in state.log]


def play(state, *actions):
    """Apply action ids in order, each by the seat to move."""
    for a in actions:
        state.apply(a)
    return state
