"""Corsairs of Valeria: constants, event-text helpers, the fixed actions and the cached menus the rule
modules share (rulebook: Phase B, Phase C).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from dicetable.engine import Action, counted, seat_name

from ..components import COLOURS, DICE, RaceTrack
from .consts import (
    CAPTAINS, CAPTAIN_INDEX, DIE_FACES, FACE_INDEX, FACE_WORD, GROG_MAX, HAZARD_WORD, NO_CAPTAIN,
)

OVER: Final = "over"
ASK: Final = "?"
"""The last character of every decision task kind (``"reroll?"``); observations show kinds without it."""
PLAYER: Final = tuple(seat_name(i) for i in range(len(COLOURS)))   # "Player 1".. for event texts

# flag bits of the current turn
F_MAP5: Final = 1          # 5 Maps: move forward or backward at will
F_CANNON5: Final = 2       # 5 Cannons: may steal a Treasure
F_GROG5: Final = 4         # 5 Grog-type faces: the turn begins again after phase C
F_ARRIVED: Final = 8       # the current ship reached Skull Island this turn
F_HOOK_USED: Final = 16    # Captain Hook jumped during this Cannon action
F_JAXN: Final = 32         # Lucky Jax'n's move is still available this phase C

# symbol groups of phase C, in the order they are listed
G_GROG: Final = 0
G_SILVER: Final = 1
G_MAP: Final = 2
G_CANNON: Final = 3
GROUP_IDS: Final = ("grog", "silver", "maps", "cannons")


# ---------------------------------------------------------------- board keys the effects name

#: The dice area on the board (docs/web.md: effects name board elements by ``data-key``).
DICE_KEY: Final = "dice"
#: Skull Island's Silver and the general supply, as board counters.
ISLAND_KEY: Final = "skull-silver"
SUPPLY_KEY: Final = "supply"


def ship_key(seat: int) -> str:
    """The board key of ``seat``'s Ship token (seats 0-based)."""
    return f"ship-{seat}"


def space_key(node: int) -> str:
    """The board key of the space ``node`` of the race track (Skull Island too)."""
    return f"space-{node}"


def counter_key(seat: int, what: str) -> str:
    """The board key of a Ship Board counter: ``what`` is ``"treasure"``, ``"grog"`` or ``"silver"``."""
    return f"p-{seat}-{what}"


def faces_text(dice: Sequence[int]) -> str:
    """``[0, 2, 4]`` -> ``"Skull, Grog, Map"``."""
    return ", ".join(FACE_WORD[f] for f in dice) if dice else "no dice"


_DICE_INFO: Final[dict[tuple[int, ...], tuple[str, list[str]]]] = {}


def dice_info(dice: Iterable[int]) -> tuple[str, list[str]]:
    """``(text, names)`` of a roll, cached: names is a shared list that nobody mutates."""
    key = tuple(dice)
    info = _DICE_INFO.get(key)
    if info is None:
        info = _DICE_INFO[key] = (faces_text(key), [DIE_FACES[f] for f in key])
    return info


def coins_on_ships(silver: list[int]) -> int:
    """The Silver on every Ship Board together: ``sum(silver)`` in a loop of native ints in the compiled
    build (the builtin ``sum`` is a generic call on boxed ints there; the supply is asked at every coin)."""
    total = 0
    for n in silver:
        total += n
    return total


def count_faces(dice: Iterable[int]) -> list[int]:
    """The 6 face counts of a roll (index = face code)."""
    out = [0] * 6
    for f in dice:
        out[f] += 1
    return out


def seat_id(seat: int) -> str:
    """The id fragment for a seat: ``p1`` is seat 0 (people count players from 1)."""
    return f"p{seat + 1}"


def captain_name(index: int) -> str:
    """The Captain card's name, or "no Captain"."""
    return CAPTAINS[index].name if index >= 0 else "no Captain"


# ---------------------------------------------------------------- static actions

ACT_MARK: Final = tuple(
    tuple(
        (Action(f"mark:{i + 1}", f"Mark die {i + 1} ({FACE_WORD[f]}) to re-roll it", i),
         Action(f"mark:{i + 1}", f"Unmark die {i + 1} ({FACE_WORD[f]}): keep it", i))
        for f in range(6)
    )
    for i in range(DICE)
)
ACT_REROLL_GROG: Final = tuple(Action("reroll", f"Re-roll the {k} marked {'die' if k == 1 else 'dice'} for 1 Grog")
                     for k in range(DICE + 1))
ACT_REROLL_SILVER: Final = tuple(Action("reroll-silver", f"Re-roll the {k} marked {'die' if k == 1 else 'dice'} "
                              "for 1 Silver (Prince of Bella Ire)") for k in range(DICE + 1))
ACT_LOCK: Final = Action("lock", "Lock the dice: this is your last roll")


def reroll_menu(dice: tuple[int, ...], marked: int, grog: bool, silver: bool) -> tuple[Action, ...]:
    """Phase B's choices (rulebook: B Re-roll Dice): toggle each die's mark, re-roll the marked dice
    for 1 Grog (``grog``: the seat has Grog) or 1 Silver (``silver``: Prince of Bella Ire with
    Silver), or lock. ``marked`` has bit ``i`` set for die ``i``; re-rolls need a marked die."""
    acts = [ACT_MARK[i][f][(marked >> i) & 1] for i, f in enumerate(dice)]
    if marked:
        k = bin(marked).count("1")
        if grog:
            acts.append(ACT_REROLL_GROG[k])
        if silver:
            acts.append(ACT_REROLL_SILVER[k])
    acts.append(ACT_LOCK)
    return tuple(acts)


def reroll_key(dice: list[int], marked: int, grog: bool, silver: bool) -> int:
    """The key of ``reroll_menu(tuple(dice), marked, grog, silver)`` in ``REROLL_MENUS``: one int (a
    leading 1, then 4 bits per die's face code, 8 bits of marks, then ``grog`` and ``silver``), which a
    dict hashes and compares faster than the tuple of the four (a search asks at every re-roll step)."""
    code = 1
    for f in dice:
        code = code << 4 | f
    return (code << 8 | marked) << 2 | (2 if grog else 0) | (1 if silver else 0)


#: reroll_key(dice, marked, grog, silver) -> reroll_menu(...): at most 252 rolls x 32 marks x 3
REROLL_MENUS: Final[dict[int, tuple[Action, ...]]] = {}
ACT_ROLL: Final = Action("roll", "Roll all 5 dice")
ACT_SET_CANNON: Final = Action("set-cannon", "Willem the Artificer: pay 1 Grog to set 1 die to the Cannon face, then roll 4")
ACT_SET_MAP: Final = Action("set-map", "Luthor the Sea Artist: pay 1 Grog to set 1 die to the Map face, then roll 4")
ACT_MISTRESS: Final = Action("mistress", "Mistress of the Skull: turn all Skull-and-Grog faces into Grog faces")
ACT_KEEP: Final = Action("keep", "Keep the dice as they are")
ACT_REO: Final = tuple(Action(f"reo:{k}", f"Reo the Cartographer: change {counted(k, 'Map')} into Silver faces", k)
             for k in range(4))
ACT_GIVE_ALL: Final = Action("give", "5-of-a-kind: hand the 5 dice out to the other players")
ACT_KEEP_SKULLS: Final = Action("keep", "Keep the dice: lose 1 Silver for each of the 5 Skulls")
ACT_BONES_IGNORE: Final = Action("bones:ignore", "Mister Bones: ignore one Skull and keep that Silver")
ACT_BONES_PAY: Final = Action("bones:pay", "Lose 1 Silver for every Skull")
ACT_JAXN: Final = Action("jaxn", "Lucky Jax'n: move 1 space forward and gain 1 Grog")
ACT_PASS: Final = Action("pass", "Do not use Lucky Jax'n; finish the Dice Actions")
ACT_HOLD: Final = Action("hold", "Hold your fire: attack nobody")
ACT_JAGER_MOVE: Final = Action("jager:move", "Jäger Knot: move 1 space forward (as with a Map)")
ACT_JAGER_STAY: Final = Action("jager:stay", "Stay where you are")


def order_menu(left: Sequence[int], flags: int) -> tuple[Action, ...]:
    """Phase C's choice of the next symbol group (rulebook: C Execute Dice Actions): one action per
    group with faces ``left`` (Grog, Silver, Maps, Cannons counts), then Lucky Jax'n's move while
    ``flags`` has F_JAXN (and a pass when no group is left)."""
    acts = [_group_action(g, n, flags) for g, n in enumerate(left) if n > 0]
    if flags & F_JAXN:
        acts.append(ACT_JAXN)
        if len(acts) == 1:
            acts.append(ACT_PASS)
    return tuple(acts)


ORDER_MENUS: Final[dict[tuple[int, ...], tuple[Action, ...]]] = {}  # (*left, flags) -> order_menu(...)


def _group_action(g: int, n: int, flags: int) -> Action:
    if g == G_GROG:
        label = f"Acquire Grog ({counted(n, 'Grog face')}; dial max {GROG_MAX})"
        if flags & F_GROG5:
            label += "; 5-of-a-kind: fill the dial, then begin your turn again"
    elif g == G_SILVER:
        label = f"Collect Silver coins ({counted(n, 'Silver face')})"
    elif g == G_MAP:
        label = f"Move your Ship ({counted(n, 'Map')})"
        if flags & F_MAP5:
            label += "; 5-of-a-kind: forward or backward at each step"
    else:
        label = f"Use your Cannons ({counted(n, 'Cannon')})"
    return Action(GROUP_IDS[g], label, g)


def captains_in(value: Any) -> tuple[int, ...]:
    return tuple(CAPTAIN_INDEX[c] if c is not None else NO_CAPTAIN for c in value)


def captains_out(value: tuple[int, ...]) -> list[str | None]:
    return [CAPTAINS[c].id if c >= 0 else None for c in value]


def dice_in(value: Any) -> list[int]:
    return [FACE_INDEX[f] for f in value]


def dice_out(value: list[int]) -> list[str]:
    return [DIE_FACES[f] for f in value]


def shown_kind(kind: str) -> str:
    """The name a task kind has in observations: a decision kind without its ``?`` (``"reroll?"`` -> ``"reroll"``)."""
    return kind[:-1] if kind.endswith(ASK) else kind


def space_note(track: RaceTrack, node: int) -> str:
    """`` [Sea Monster]`` / `` [Merchant ship (1 Silver)]`` for a space, or ``""``."""
    h = track.hazard[node]
    if h:
        return f" [{HAZARD_WORD[h]}]"
    m = track.merchant[node]
    if m is not None:
        return " [Merchant ship: " + " ".join(
            x for x in (f"{m[0]} Silver" if m[0] else "", f"{m[1]} Grog" if m[1] else "") if x) + " per Cannon]"
    return ""
