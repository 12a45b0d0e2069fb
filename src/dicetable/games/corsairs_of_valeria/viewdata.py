"""The Corsairs of Valeria observation: its schema, and the helpers every view reads it with.

The terminal view (``text.py``), the browser board (``board.py``) and the
feature encoding (``encoding.py``) are drawn from ``state.observation(seat)``
only, plus the game's public component data (the race track compiled from
the observation's ``tracks`` name, the Captain cards). :class:`Observation`
documents that dict field by field; the helpers below decode its compact
parts (the pending task on top of ``pending``, the turn ``flags``, the
marked dice) so the views agree on what they show. Everything in this game
is public: every seat and a spectator get the same dict but for ``seat``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from .components import CAPTAIN_INDEX, CAPTAINS, CaptainData, RaceTrack, parse_layout, race_track
from .rules import F_ARRIVED, F_CANNON5, F_GROG5, F_JAXN, F_MAP5

#: die face id -> the rulebook's name of the symbol
FACE_NAME = {"skull": "Skull", "skull-grog": "Skull-and-Grog", "grog": "Grog", "silver": "Silver",
             "map": "Map", "cannon": "Cannon"}
#: phase letter -> the rulebook's name of the phase
PHASE_NAME = {"A": "A Roll Dice", "B": "B Re-roll Dice", "C": "C Execute Dice Actions", "D": "D End Your Turn"}
#: symbol groups of phase C in the observation's ``to_execute`` order, with their names
GROUP_NAME = {"grog": "Grog", "silver": "Silver", "maps": "Maps", "cannons": "Cannons"}
#: hazard code on the compiled track -> (rulebook name, what it does)
HAZARDS = {1: ("Whirlpool", "a ship ending its movement here returns to the Start space"),
           2: ("Sea Monster", "a ship ending its movement here returns all its Silver to the supply"),
           3: ("Cutthroat", "a ship ending its movement here loses all its Grog")}


class ShipView(TypedDict):
    """One Ship and its Ship Board, in ``Observation["ships"]`` (one per seat, in seat order)."""

    seat: int                #: the seat, 0-based (people count players from 1)
    colour: str              #: the Ship's colour: purple, white, yellow, red or blue (seat order)
    captain: str | None      #: the Captain card's id (see ``components.CAPTAINS``), None without Captains
    node: int                #: the space the Ship is on: a node of the compiled race track (``track_of``)
    space: str               #: that space in words ("Track 2 (T2A), space 3, left lane")
    to_skull_island: int     #: fewest Maps from there to Skull Island
    grog: int                #: Grog dial, 0-4
    silver: int              #: Silver coins on the Ship Board (5 are exchanged for a Treasure at once)
    treasure: int            #: Treasure dial, 0-6 (6 wins)


class Observation(TypedDict):
    """``state.observation(seat)`` of Corsairs of Valeria (everything is public)."""

    game: str                #: "corsairs-of-valeria"
    seat: int | None         #: the viewer (None: a spectator); the only field that differs between viewers
    turn: int                #: turns begun so far (a 5-Grog restart is the same turn)
    current: int             #: the seat whose turn it is
    phase: str               #: "A" Roll Dice, "B" Re-roll Dice, "C" Execute Dice Actions, "D" End Your Turn, "over"
    race: int                #: 1 or 2: the race being sailed (Skull Island's first visit starts the second)
    skull_island_visits: int  #: arrivals at Skull Island so far (the second ends the game)
    tracks: str              #: the race track from Start Island up, e.g. "T1A,T3B,T2A" (flipped for race 2)
    skull_island_silver: int  #: Silver lying on Skull Island
    supply: int              #: Silver in the general supply (35 minus the Ships' and Skull Island's)
    ships: list[ShipView]    #: every Ship, in seat order
    dice: list[str]          #: the five dice's faces, sorted (skull, skull-grog, grog, silver, map, cannon); [] before the roll
    marked: list[int]        #: dice (1-based) marked to be re-rolled
    rerolls: int             #: re-rolls paid this turn
    to_execute: dict[str, int]  #: phase C faces not yet executed: {"grog", "silver", "maps", "cannons": count}
    flags: int               #: bits of the turn (rules.F_*): 5 Maps, 5 Cannons, 5 Grog, arrived, Lucky Jax'n left
    pending: list[list[Any]]  #: the pending tasks, the next last: [kind, seat, ...] (see :class:`Pending`)
    waiting_for: str | None  #: the kind of the task on top (a decision kind or an automatic step), None when over
    is_over: bool            #: the game has ended
    winners: list[int]       #: the winning seats once over ([] before)


@dataclass(frozen=True)
class Pending:
    """The task the game waits on, decoded from the top of ``Observation["pending"]``.

    ``kind`` is its name (``"reroll"``, ``"cannons"``, ``"move"``, ``"back"``,
    ``"give"``...), ``seat`` the seat that decides it (for ``back`` the
    attacked ship's owner), ``count`` the Cannons to fire (``cannons``), the
    moves left (``move``) or the spaces still to be knocked back (``back``),
    0 otherwise, and ``given`` the seats that got dice 1, 2... so far while
    the 5 Skulls are handed out (``give``).
    """

    kind: str
    seat: int
    count: int = 0
    given: tuple[int, ...] = ()


def pending(obs: dict[str, Any]) -> Pending | None:
    """The task the game waits on as a :class:`Pending`, or None when the game is over."""
    task = top_task(obs)
    if task is None:
        return None
    kind, seat = task[0], task[1]
    if kind in ("cannons", "move", "back"):
        return Pending(kind, seat, count=int(task[2]))
    if kind == "give":
        return Pending(kind, seat, given=tuple(int(r) for r in task[2]))
    return Pending(kind, seat)


def marked_dice(obs: dict[str, Any]) -> list[bool]:
    """For each die in ``obs["dice"]`` order: whether it is marked to be re-rolled."""
    marked = set(obs["marked"])
    return [i in marked for i in range(1, len(obs["dice"]) + 1)]


def left_to_execute(obs: dict[str, Any]) -> list[str]:
    """Phase C's groups not yet executed, in the rulebook's words (``["2 Grog", "1 Map"]``)."""
    return [group_text(g, n) for g, n in obs["to_execute"].items() if n]


def group_text(group: str, n: int) -> str:
    """``("maps", 1)`` -> ``"1 Map"``; ``("cannons", 3)`` -> ``"3 Cannons"`` (Grog and Silver never change)."""
    name = GROUP_NAME[group]
    return f"{n} {name[:-1] if n == 1 and name.endswith('s') else name}"


def check_seat(obs: dict[str, Any], seat: object, what: str = "seat") -> None:
    """Raise TypeError/ValueError unless ``seat`` is None or an int seat of this table (not a bool)."""
    players = len(obs["ships"])
    if seat is None:
        return
    if type(seat) is not int:
        raise TypeError(f"{what} must be a seat number 0..{players - 1} or None, got {seat!r}")
    if not 0 <= seat < players:
        raise ValueError(f"there is no {what} {seat}: seats are 0..{players - 1}")


def track_of(obs: dict[str, Any]) -> RaceTrack:
    """The compiled race track the observation's ``tracks`` names (public component data)."""
    return race_track(parse_layout(obs["tracks"]))


def captain_of(ship: dict[str, Any]) -> CaptainData | None:
    """The :class:`~.components.CaptainData` of an observation's ship entry, or None."""
    cid = ship.get("captain")
    return CAPTAINS[CAPTAIN_INDEX[cid]] if cid in CAPTAIN_INDEX else None


def top_task(obs: dict[str, Any]) -> list[Any] | None:
    """The pending task the game waits on (``[tag, seat, ...]``), or None when the game is over."""
    pending = obs.get("pending") or []
    return pending[-1] if pending else None


def deciding_seat(obs: dict[str, Any]) -> int | None:
    """The seat whose decision the game waits for (it may differ from ``current``), or None."""
    task = top_task(obs)
    return task[1] if task else None


def turn_flags(obs: dict[str, Any]) -> dict[str, bool]:
    """The turn's flags by name: five Maps/Cannons/Grog bonuses, arrival, Lucky Jax'n left."""
    f = int(obs.get("flags", 0))
    return {"five_maps": bool(f & F_MAP5), "five_cannons": bool(f & F_CANNON5),
            "five_grog": bool(f & F_GROG5), "arrived": bool(f & F_ARRIVED), "jaxn": bool(f & F_JAXN)}


def ships_by_node(obs: dict[str, Any]) -> dict[int, list[int]]:
    """``{node: [seat, ...]}`` for every ship on the track, seats in order."""
    out: dict[int, list[int]] = {}
    for ship in obs["ships"]:
        out.setdefault(ship["node"], []).append(ship["seat"])
    return out


def reward_text(silver: int, grog: int, short: bool = False) -> str:
    """``(1, 1)`` -> ``"+1 Silver +1 Grog"`` (``short``: ``"1S1G"``)."""
    if short:
        return (f"{silver}S" if silver else "") + (f"{grog}G" if grog else "")
    return " ".join(x for x in (f"+{silver} Silver" if silver else "", f"+{grog} Grog" if grog else "") if x)


def space_text(track: RaceTrack, node: int) -> str:
    """What a space is and does, in rulebook words (hover text and help)."""
    if node == track.skull:
        return "Skull Island: the ship that reaches it takes all its Silver; the race ends after that turn"
    parts = [track.label[node]]
    if node == track.start:
        parts.append("the Start space (Start symbol): every ship starts each race here")
    h = track.hazard[node]
    if h:
        name, does = HAZARDS[h]
        parts.append(f"{name}: {does}")
    m = track.merchant[node]
    if m is not None:
        parts.append("Merchant ship: a ship on this space may attack it with its Cannons and gains "
                     + reward_text(*m).replace("+", "") + " per Cannon")
    return "; ".join(parts)


def move_target(obs: dict[str, Any], track: RaceTrack, action_id: str) -> int | None:
    """The space a movement action (``forward``, ``forward:left``, ``backward:right``...) leads to.

    The moving ship is the one the pending task names (the mover for Maps,
    the attacked ship when it is knocked back). None for any other action.
    """
    if not (action_id.startswith("forward") or action_id.startswith("backward")):
        return None
    task = pending(obs)
    if task is None:
        return None
    seat = task.seat
    here = obs["ships"][seat]["node"]
    lane = action_id.partition(":")[2]
    if action_id.startswith("forward"):
        nodes = [m for m, _, _ in track.fwd[here]]
    else:
        nodes = list(track.back[here])
    for m in nodes:
        if not lane or track.lane[m] == lane:
            return m
    return None
