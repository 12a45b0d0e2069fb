"""What a Biblios Dice observation holds, and the helpers the views read it with.

``state.observation(seat)`` (:meth:`~.rules.state.BibliosDiceState._observation`)
answers an :class:`Observation`; the browser board (:mod:`.board`), the
terminal view (:mod:`.text`) and the feature encoding (:mod:`.encoding`) read
it through this module only, so the shape is decoded in one place. Everything
here is a pure function of the observation (and the fixed component data).
"""

from __future__ import annotations

from typing import Any, Mapping, TypedDict, cast

from dicetable.engine import seat_name

from .rules.common import Marker
from .rules.fields import AuctionResult, ScoreRow

DiceSet = dict[str, Any]
"""A dice set: ``{symbol: count}`` for the Resource and Bishop dice present (``"ink": 2``), and
``"gold"`` (the Gold Die's face: 1-3 or ``"gold-for-all"``) and ``"adjustment"`` (an Adjustment Die
face id such as ``"+1"``), each None when that die is not in the set."""


class PlayerRow(TypedDict, total=False):
    """One seat's entry of ``Observation.players``.

    ``seat``: the seat. ``face_down_placed``: it has a Bidding Card face down
    in this bid round. ``revealed``: its cards revealed in this auction, in
    order (0 the pass card). ``bidding``: still bidding. ``sitting_out``: sits
    this auction out (overbid in the last one). ``pass_card_aside``: its pass
    card is set aside. ``cards_not_revealed``: the values of its Bidding Cards
    not yet revealed (hand and face-down card). ``gold``, ``vp_tokens``,
    ``objective`` (a resource id or None): behind its shield, None unless the
    viewer is this seat or the game is over. Only for the viewer's own seat
    while the game runs: ``hand`` (card values in hand) and ``face_down`` (its
    face-down card or None).
    """

    seat: int
    face_down_placed: bool
    revealed: list[int]
    bidding: bool
    sitting_out: bool
    pass_card_aside: bool
    cards_not_revealed: list[int]
    gold: int | None
    vp_tokens: int | None
    objective: str | None
    hand: list[int]
    face_down: int | None


class BishopStack(TypedDict):
    """A Bishop Token stack: ``space`` on the Bishop Track, ``count`` tokens left, ``tokens_left`` their ids
    (sorted: their order in the stack is hidden)."""

    space: int
    count: int
    tokens_left: list[str]


class Standing(TypedDict):
    """The public part of a marker's score now: ``tracks`` VPs per Resource Track place, ``penalty`` VPs lost."""

    tracks: list[int]
    penalty: int


class CadfaelRow(TypedDict):
    """Cadfael (two players): ``revealed`` cards of this auction, ``face_up`` cards of earlier auctions,
    ``draw_pile`` cards left, ``score`` his VPs once the game is over (else None)."""

    revealed: list[int]
    face_up: list[int]
    draw_pile: int
    score: int | None


class Observation(TypedDict, total=False):
    """``state.observation(seat)``, field by field.

    ``game``: ``"biblios-dice"``. ``seat``: the viewer (None a spectator).
    ``round``: the round number (1 first). ``phase``: one of ``reroll``,
    ``select``, ``split``, ``bid``, ``choose-group``, ``resolve``, ``over``.
    ``first_player``: the seat holding the Monastery Card. ``current``: the
    seat whose turn it is in the phase. ``to_move``: the seats asked to
    decide now. ``value_dice``: resource id -> pips of its Value Die.
    ``tracks``: symbol id (the five resources and ``"bishop"``) -> spaces
    from the lowest (space 1), each the markers on it, ahead first.
    ``vp_stacks``: resource id -> the two VP stacks (lower first), each the
    token values left, top first. ``bishop_stacks``: :class:`BishopStack` per
    spot. ``mule``: the Mule's space (0 the first, the last is the market).
    ``mule_die``: the Mule Die. ``pool``: the dice pool (:data:`DiceSet`).
    ``marked``: kind -> dice marked for the re-roll (kinds with a mark only;
    kinds are symbols, ``gold``, ``adjustment``, ``mule``). ``small_group``:
    the group of 3 while the dice are split. ``groups``: the market's large
    and small group. ``resolving_group``: ``"large"``/``"small"`` being
    resolved, or None. ``pending``: the follow-up task of a take the mover
    decides now (its first item ``adjust``, ``advance`` or ``convert``), or
    None. ``players``: :class:`PlayerRow` per seat. ``hidden_objectives``:
    the variant is on. ``auctions_held``: auctions so far. ``last_auction``:
    the last auction's totals, winner, second and overbidders, or None.
    ``is_over``; ``scores`` (per seat, once over, else None); ``winners``.
    ``cadfael``: :class:`CadfaelRow` (two players only). ``my_gold``,
    ``my_vp_tokens``: the viewer's shield (a seat, while the game runs).
    ``standing``: :class:`Standing` per marker (seats, then Cadfael).
    ``my_score``: the viewer's full :class:`ScoreRow` now (a seat, while the
    game runs); ``final``: every marker's ScoreRow once the game is over.
    """

    game: str
    seat: int | None
    round: int
    phase: str
    first_player: int
    current: int
    to_move: list[int]
    value_dice: dict[str, int]
    tracks: dict[str, list[list[Marker]]]
    vp_stacks: dict[str, list[list[int]]]
    bishop_stacks: list[BishopStack]
    mule: int
    mule_die: int
    pool: DiceSet
    marked: dict[str, int]
    small_group: DiceSet
    groups: list[DiceSet]
    resolving_group: str | None
    pending: list[Any] | None
    players: list[PlayerRow]
    hidden_objectives: bool
    auctions_held: int
    last_auction: AuctionResult | None
    is_over: bool
    scores: list[int] | None
    winners: list[int]
    cadfael: CadfaelRow
    my_gold: int
    my_vp_tokens: int
    standing: list[Standing]
    my_score: ScoreRow
    final: list[ScoreRow]


def observation(obs: Mapping[str, Any]) -> Observation:
    """``obs`` (``state.observation(seat)``, or the same dict back from JSON) read as an :class:`Observation`.

    Raises ValueError when it is not a Biblios Dice observation (no ``tracks`` or ``players``)."""
    if not isinstance(obs, Mapping) or "tracks" not in obs or "players" not in obs:
        raise ValueError("not a Biblios Dice observation: it needs at least 'tracks' and 'players'")
    return cast(Observation, obs)


def marker_name(m: Marker) -> str:
    """``"Player 2"`` for seat 1, ``"Cadfael"`` for Cadfael."""
    return "Cadfael" if m == "cadfael" else seat_name(m)


def spaces_of(obs: Observation, track: str) -> dict[Marker, int]:
    """Marker -> its space (1 the lowest) on ``track`` (a symbol id)."""
    return {m: space for space, markers in enumerate(obs["tracks"][track], 1) for m in markers}


def space_of(obs: Observation, track: str, m: Marker) -> int:
    """The space (1 the lowest) of marker ``m`` on ``track``. Raises KeyError for a marker not on it."""
    return spaces_of(obs, track)[m]


def own_row(obs: Mapping[str, Any]) -> PlayerRow | dict[str, Any]:
    """The viewer's :class:`PlayerRow` of an observation ({} for a spectator)."""
    me = obs.get("seat")
    players = obs["players"]
    return players[me] if isinstance(me, int) and 0 <= me < len(players) else {}


def cadfael_standing(obs: Observation) -> Standing:
    """Cadfael's public :class:`Standing` (two players only; it follows the seats' rows)."""
    return obs["standing"][len(obs["players"])]


def mover_names(obs: Observation, seat: int | None, short: bool = False) -> list[str]:
    """The seats to move as the viewer ``seat`` reads them: ``"you"`` for itself, else ``"Player 2"``
    (``"P2"`` when ``short``)."""
    return ["you" if s == seat else f"P{s + 1}" if short else seat_name(s) for s in obs["to_move"]]


def last_auction_text(obs: Observation) -> str:
    """The last auction in one sentence (totals, winner, overbidders); "" while an auction runs or before
    the first."""
    last = obs.get("last_auction")
    if not last or obs["phase"] == "bid":
        return ""
    names = [f"{seat_name(s)} bid {t}" if t else f"{seat_name(s)} passed"
             for s, t in enumerate(last["totals"]) if t is not None]
    if last["cadfael"] is not None:
        names.append(f"Cadfael bid {last['cadfael']}")
    line = "Last auction: " + ", ".join(names)
    winner = last["winner"]
    if winner is not None and winner >= 0:
        cadfael_won = "cadfael" in obs and winner == len(obs["players"])
        line += f"; won by {marker_name('cadfael' if cadfael_won else winner)}"
    if last["penalized"]:
        line += "; overbid: " + ", ".join(seat_name(s) for s in last["penalized"])
    return line


__all__ = ["Marker", "DiceSet", "PlayerRow", "BishopStack", "Standing", "CadfaelRow", "Observation",
           "observation", "marker_name", "spaces_of", "space_of", "own_row", "cadfael_standing", "mover_names",
           "last_auction_text"]
