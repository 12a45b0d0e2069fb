"""What the terminal and browser views read from a Corsairs of Valeria observation.

Both views are drawn from ``state.observation(seat)`` only, plus the game's
public component data (the race track compiled from the observation's
``tracks`` name, the Captain cards). These helpers decode the observation's
compact parts (the pending task on top of ``pending``, the turn ``flags``)
so the two views agree on what they show.
"""

from __future__ import annotations

from typing import Any

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
    seat = deciding_seat(obs)
    task = top_task(obs)
    if task and task[0] == "back":
        seat = task[1]
    if seat is None:
        return None
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
