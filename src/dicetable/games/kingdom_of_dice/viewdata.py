"""What a Kingdom of Dice observation holds, and the helpers the views read it with.

``KingdomOfDiceState.observation(seat)`` answers an :class:`Observation`
(a plain JSON-able dict). The browser board (:mod:`.board`), the terminal
view (:mod:`.text`) and the feature encoding (:mod:`.encoding`) read it
through the helpers here rather than each decoding the dict again.
Everything in Kingdom of Dice is on the table except the order of the draw
pile, so every seat and a spectator get the same observation apart from
``seat``.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, Union

from dicetable.engine import seat_name

from .components import CARD_INDEX, CARD_NAME, CARD_VALUE, CARDS, COMPONENTS, SPACES
from .rules import PLACE, SET_ASIDE, face_counts, faces_text, free_space_at_or_below, claim_order

COLOURS = COMPONENTS.markers.colours

#: A face of a Kingdom die as observations and effects write it: ``"crown"`` or 1-5.
Face = Union[Literal["crown"], int]
#: Who owns a Crown marker on the board: a seat, or ``"cat"`` (the Mischievous Cat, solo).
Owner = Union[int, Literal["cat"]]

_SPECIAL_ROUND = {c.id: c.special_round for c in CARDS}


class MarketCard(TypedDict):
    """One Influence card on offer this round."""

    id: str        #: card id (components.toml), e.g. ``"influence-9a"``, ``"queen"``
    name: str      #: printed name, e.g. ``"Influence 9"``, ``"Queen"``
    value: int     #: points it is worth


class CatView(TypedDict):
    """The Mischievous Cat's side of a solo game (rulebook: Solo Mode)."""

    level: int            #: difficulty level 1-6 (option ``cat_level``)
    spaces: list[int]     #: the spaces its Crown markers hold all game
    won: list[str]        #: ids of the Influence cards it has taken, in the order taken
    score: int            #: its points: the values of those cards


class Observation(TypedDict):
    """``observation(seat)`` of a Kingdom of Dice game, field by field."""

    game: str                       #: ``"kingdom-of-dice"``
    seat: int | None                #: the viewer (None: a spectator)
    round: int                      #: the round, 1-3 (rulebook: the game lasts three rounds)
    first_player: int               #: the seat that began this round
    current: int                    #: the seat taking its turn (the last one once the game is over)
    phase: str                      #: ``"set-aside"``, ``"place"`` (a result waits) or ``"over"``
    roll: list[Face]                #: the dice showing in the box lid, crowns first then 1-5
    kept: list[Face]                #: the dice set aside this turn, in the same order
    picked_since_roll: int          #: dice set aside since the last roll (0: one must be set aside)
    result_value: int | None        #: what ``kept`` is worth, None when it is not a valid result
    target_space: int | None        #: in the place phase, the space the marker would go to
    board: dict[str, Owner]         #: occupied spaces only: ``{"10": 0, "15": "cat"}`` (keys are strings)
    markers_placed: list[int]       #: Crown markers each seat has on the board this round
    markers_left: list[int]         #: Crown markers each seat still holds this round
    market: list[MarketCard]        #: this round's Influence cards, best first
    won: list[list[str]]            #: per seat, ids of the Influence cards won, in the order won
    scores: list[int]               #: per seat, points (the values of the cards won)
    draw_pile: int                  #: regular Influence cards left face down for later rounds
    is_over: bool                   #: the game has ended
    winners: list[int]              #: the winning seats once over ([] in solo when the Cat wins)
    cat: NotRequired[CatView]       #: solo games only


# ------------------------------------------------------------------ players
def players(obs: Observation) -> int:
    """How many seats the game has."""
    return len(obs["won"])


def colour(seat: int) -> str:
    """A seat's marker colour (``"red"``, ``"blue"``, ...)."""
    return COLOURS[seat % len(COLOURS)]


def owner_name(owner: Owner) -> str:
    """A marker's owner in full: ``"Player 2 (blue)"`` or ``"the Mischievous Cat"``."""
    return "the Mischievous Cat" if owner == "cat" else f"{seat_name(owner)} ({colour(owner)})"


def owner_short(owner: Owner) -> str:
    """A marker's owner in short: ``"P2"`` or ``"Cat"``."""
    return "Cat" if owner == "cat" else f"P{owner + 1}"


def seat_order(obs: Observation, seat: int | None) -> list[int]:
    """The seats starting from the viewer (from seat 0 for a spectator)."""
    order = list(range(players(obs)))
    return order if seat is None else order[seat:] + order[:seat]


# ------------------------------------------------------------------ board
def owners(obs: Observation) -> list[Owner | None]:
    """The observation's board as one owner per space of ``SPACES`` (None where free)."""
    return observed_board(obs["board"])


def observed_board(board: dict) -> list:
    """An observation's ``board`` (``{"10": 0, "15": "cat"}``) as one owner per space of ``SPACES``
    (None where free), for :func:`free_space_at_or_below` and :func:`claim_order` with ``empty=None``."""
    return [board.get(str(space)) for space in SPACES]


def observed_claims(board: dict) -> list:
    """Owners (a seat or ``"cat"``) of the markers on an observation's ``board``, in
    :func:`claim_order`: the ``k``-th would take the round's ``k``-th best card if the round ended now."""
    held = observed_board(board)
    return [held[i] for i in claim_order(held, empty=None)]


def claims(obs: Observation) -> list[Owner]:
    """Who would take each of the round's cards (best first) if the round ended now (rulebook: End of a Round)."""
    return observed_claims(obs["board"])


def markers_on_board(obs: Observation) -> int:
    """Crown markers on the board, the Cat's included (seven end a round)."""
    return len(obs["board"])


def target_space(obs: Observation) -> int | None:
    """The space a pending result's marker would go to (place phase only), else None."""
    return obs["target_space"] if obs["phase"] == PLACE else None


def preview_space(obs: Observation) -> int | None:
    """While setting dice aside with a valid result: the space a stop would place the marker on
    (its value, or the next lower free space; rulebook step 3), or None."""
    if obs["phase"] != SET_ASIDE or obs["result_value"] is None:
        return None
    i = free_space_at_or_below(owners(obs), obs["result_value"], empty=None)
    return SPACES[i] if i >= 0 else None


# ------------------------------------------------------------------ dice
def dice_counts(obs: Observation, where: str) -> list[int]:
    """The dice of ``where`` (``"roll"`` or ``"kept"``) as counts by face: crown, 1, 2, 3, 4, 5."""
    return face_counts(obs[where])  # type: ignore[literal-required]


def dice_text(obs: Observation, where: str) -> str:
    """The dice of ``where`` in words: ``"crown, 2, 2"``; ``"nothing"`` when none."""
    return faces_text(dice_counts(obs, where))


def why_not_valid(counts: list[int]) -> str:
    """Which conditions of a valid result the set-aside dice (counts by face) miss (rulebook step 2)."""
    missing = []
    if counts[0] == 0:
        missing.append("a crown")
    if sum(counts[1:]) == 0:
        missing.append("a number")
    for face in (2, 3, 4):
        if 0 < counts[face] < face:
            missing.append(f"{face - counts[face]} more {face}{'s' if face - counts[face] > 1 else ''}")
    out = "needs " + ", ".join(missing) if missing else ""
    if counts[5] > 1:
        out = (out + "; " if out else "") + "more than one 5 can never be valid"
    return out


# ------------------------------------------------------------------ cards
def card_name(card_id: str) -> str:
    """The printed name of an Influence card."""
    return CARD_NAME[CARD_INDEX[card_id]]


def card_value(card_id: str) -> int:
    """The points an Influence card is worth."""
    return CARD_VALUE[CARD_INDEX[card_id]]


def special_round(card_id: str) -> int | None:
    """The round a special card (Chancellor, Queen, King) joins, None for a regular card."""
    return _SPECIAL_ROUND[card_id]


def short_card(card_id: str) -> str:
    """A card as its value (``"9"``), a special card as name and value (``"Queen 12"``)."""
    if special_round(card_id) is None:
        return str(card_value(card_id))
    return f"{card_name(card_id)} {card_value(card_id)}"


def market_ids(obs: Observation) -> list[str]:
    """The ids of this round's cards, best first."""
    return [card["id"] for card in obs["market"]]
