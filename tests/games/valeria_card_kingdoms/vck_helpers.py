"""Helpers for the Valeria: Card Kingdoms tests: build situations on a fresh state, then apply.

A situation is prepared by changing fields of a state straight after ``new_game`` (while the
players still choose their Dukes), then the Duke choices are applied, which starts the first
turn with the scripted dice. Rule ids cite the public rules digest of the base game.
"""

from __future__ import annotations

from dicetable.engine import new_game
from dicetable.games.valeria_card_kingdoms.components import (
    AREAS, CIT_DISPLAY, DOM_INDEX, MON_AREA, MON_INDEX,
)
from dicetable.games.valeria_card_kingdoms.rules import CIT0, DOM0, NT, P_OVER, ValeriaState

GAME = "valeria-card-kingdoms"
CARD = {name: t for t, name in enumerate(CIT_DISPLAY)}


def new(players: int = 2, *, dice=(), setup: str = "first-game", citizens: str = "standard",
        seed: int = 7, first: int = 0) -> ValeriaState:
    """A fresh game (Dukes not yet chosen) whose first player is ``first``."""
    s = new_game(GAME, players, seed=seed, options={"setup": setup, "citizens": citizens}, dice=list(dice))
    s.first = s.active = first
    return s


def keep_dukes(s: ValeriaState) -> None:
    """Every seat keeps the first Duke it was dealt; this starts turn 1 with the scripted dice."""
    for seat in range(s.players):
        s.apply(s.legal_actions(seat)[0], seat)


def clear_tableau(s: ValeriaState, seat: int) -> None:
    """Remove every Citizen and Starter of ``seat`` (to isolate one card's power)."""
    for t in range(NT):
        s.own[seat * NT + t] = 0


def give(s: ValeriaState, seat: int, name: str, n: int = 1) -> None:
    """Add ``n`` copies of a Citizen (or 'Starter Peasant'/'Starter Knight') to the tableau."""
    s.own[seat * NT + CARD[name]] += n
    s.forget_legal_actions()


def set_res(s: ValeriaState, seat: int, g=None, st=None, m=None, vp=None) -> None:
    """Set some of the seat's Gold, Strength, Magic and VP tokens."""
    for i, v in enumerate((g, st, m, vp)):
        if v is not None:
            s.res[seat * 4 + i] = v
    s.forget_legal_actions()


def res(s: ValeriaState, seat: int) -> tuple:
    """(Gold, Strength, Magic, VP tokens) of the seat."""
    return tuple(s.res[seat * 4:seat * 4 + 4])


def _take_domain_out(s: ValeriaState, d: int) -> None:
    for p in range(DOM0, DOM0 + 5):
        if d in s.stacks[p]:
            st = list(s.stacks[p])
            st.remove(d)
            s.stacks[p] = tuple(st)
            return
    if d in s.dom_box:
        box = list(s.dom_box)
        box.remove(d)
        s.dom_box = tuple(box)


def give_domain(s: ValeriaState, seat: int, name: str) -> None:
    """Put a Domain in the seat's tableau (taken out of the Domain stacks or the box)."""
    d = DOM_INDEX[name]
    _take_domain_out(s, d)
    s.doms[seat] = s.doms[seat] + (d,)
    s.forget_legal_actions()


def domain_on_top(s: ValeriaState, name: str, position: int = 0) -> None:
    """Make ``name`` the face-up top Domain of Domain stack ``position`` (0-4)."""
    d = DOM_INDEX[name]
    _take_domain_out(s, d)
    p = DOM0 + position
    s.stacks[p] = s.stacks[p] + (d,)
    s.forget_legal_actions()


def give_monster(s: ValeriaState, seat: int, name: str, n: int = 1) -> None:
    """Put ``n`` Monsters named ``name`` in the seat's Victory stack."""
    s.victory[seat] = s.victory[seat] + (MON_INDEX[name],) * n
    s.forget_legal_actions()


def monster_position(s: ValeriaState, area: str) -> int:
    """The Center Stack position (0-4) of an Area's Monster stack."""
    return s.areas.index(AREAS.index(area))


def monster_on_top(s: ValeriaState, name: str) -> int:
    """Put a Monster on top of its Area's stack; return the position."""
    m = MON_INDEX[name]
    p = s.areas.index(MON_AREA[m])
    s.stacks[p] = s.stacks[p] + (m,)
    s.forget_legal_actions()
    return p


def citizen_position(s: ValeriaState, name: str) -> int:
    """The Center Stack position (5-14) whose Citizens are named ``name``."""
    from dicetable.games.valeria_card_kingdoms.components import CIT_POSITION, CIT_INDEX
    return CIT0 + CIT_POSITION[CIT_INDEX[name]]


def ids(s: ValeriaState, seat: int | None = None) -> list:
    """The ids of the legal actions of ``seat`` (default: the one seat to move)."""
    if seat is None:
        seat = s.to_move[0]
    return [a.id for a in s.legal_actions(seat)]


def kind(s: ValeriaState) -> str:
    """The decision kind of the (first) seat to move, or 'over'."""
    if s.phase == P_OVER:
        return "over"
    return s.decision(s.to_move[0]).kind


def act(s: ValeriaState, *action_ids: str) -> None:
    """Apply each action id for the seat to move."""
    for aid in action_ids:
        s.apply(aid, s.to_move[0])


def to_actions(s: ValeriaState, picks: dict | None = None) -> None:
    """Answer decisions until the Active player chooses an Action.

    ``picks[seat]`` is a list of action ids that seat uses, in order, when it decides; other
    decisions take the first legal action (a free resource: Gold).
    """
    picks = {k: list(v) for k, v in (picks or {}).items()}
    while s.phase != P_OVER and kind(s) != "action":
        seat = s.to_move[0]
        queue = picks.get(seat)
        if queue:
            s.apply(queue.pop(0), seat)
        else:
            s.apply(s.legal_actions(seat)[0], seat)
    for seat, queue in picks.items():
        assert not queue, f"seat {seat} never got to use {queue}"


def action_phase(players: int = 2, setup: str = "first-game", dice=(5, 6), prep=None,
                 citizens: str = "standard") -> ValeriaState:
    """A game at the first player's (seat 0) first Action; dice 5+6 harvest only the Starters.

    ``prep(state)`` may change the fresh state before the Dukes are kept and turn 1 starts.
    """
    s = new(players, dice=dice, setup=setup, citizens=citizens)
    if prep:
        prep(s)
    keep_dukes(s)
    to_actions(s)
    return s


def end_turn(s: ValeriaState, picks: dict | None = None) -> None:
    """Finish the Active player's turn: ``picks`` as in ``to_actions``, Actions 'gain:gold'."""
    seat, turn = s.active, s.turn
    picks = {k: list(v) for k, v in (picks or {}).items()}
    while s.phase != P_OVER and s.active == seat and s.turn == turn:
        who = s.to_move[0]
        queue = picks.get(who)
        if queue:
            s.apply(queue.pop(0), who)
        elif kind(s) == "action":
            s.apply("gain:gold", who)
        else:
            s.apply(s.legal_actions(who)[0], who)


def empty_stack(s: ValeriaState, p: int) -> None:
    """Empty Center Stack position ``p`` and mark it Exhausted."""
    s.stacks[p] = ()
    s.exhausted |= 1 << p
    s.forget_legal_actions()
