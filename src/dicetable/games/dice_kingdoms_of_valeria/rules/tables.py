"""Dice Kingdoms of Valeria: the phases, the task kinds and the per-season tables the rules share.

A task is ``(kind, seat, arg)`` (the engine's turn flow). A seat's Reward
chain is automatic tasks, one kind per Reward (rulebook: Reward Pips); those
that may need a choice resolve on their own with one way (or none: the Reward
is lost) and otherwise become the decision task ``CHOOSE[kind]``. The
precomputed reward-choice Actions and event texts of each season are built
here once.
"""

from __future__ import annotations

from typing import Final

from dicetable.engine import Action, counted, seat_name
from dicetable.engine.flow import Task

from .consts import N_KINDS, STATUES
from ..layout import Layout, LAYOUTS
from ..sheet import DOM, GUILDS, PLAIN, REWARD_NAME, STAR, VDOM


EVENT: Final = "event"
HARVEST: Final = "harvest"
DRAFT: Final = "draft"
ACTION: Final = "action"
OVER: Final = "over"
PHASES: Final = (EVENT, HARVEST, DRAFT, ACTION, OVER)

# Codes of the pending work a seat may have (the reward codes 1..6 are RECRUIT, GOLD, ROAD,
# KNIGHT, SLAY, PLINTH); the policy values pending work by these codes.
T_CITIZEN: Final = 10   # instant Citizen of a guild
T_FALLBACK: Final = 11  # Harvest: nothing marked, mark 1 pip on a Guild Track of your choice
T_PICK: Final = 12      # take a Statue from the draft line (arg 1: refill at once)
T_STRIKE: Final = 13    # Guild Strike: choose among the tied tracks (arg: bit mask)
TASK_NAMES: Final = {1: "Recruit Reward", 2: "Gold Reward", 3: "Road Reward", 4: "Knight Reward",
                     5: "Slay Reward", 6: "Plinth Reward", T_CITIZEN: "instant Citizen",
                     T_FALLBACK: "Harvest fallback pip", T_PICK: "Statue pick", T_STRIKE: "Guild Strike"}

# Task kinds (engine turn flow: a task is ``(kind, seat, arg)``).
# A seat's pending work (its Reward chain) is automatic tasks, one kind per Reward; those that may
# need a choice resolve on their own when there is one way (or none: the Reward is lost) and
# otherwise become the decision task ``"choose-" + kind``.
#: The automatic task kind of each reward code (index = code; Plain and Star pips are no task).
REWARD_KIND: Final = (None, "recruit", "gold", "road", "knight", "slay", "plinth", None)
#: Reward kinds that may ask the seat to choose, and the decision task each becomes.
CHOOSE: Final = {"recruit": "choose-recruit", "road": "choose-road", "slay": "choose-slay",
                 "pick": "choose-pick", "fallback": "choose-fallback", "strike": "choose-strike"}
#: The code (``TASK_NAMES`` key) of every Reward-chain task kind, automatic or decision.
KIND_CODE: Final = {"recruit": 1, "gold": 2, "road": 3, "knight": 4, "slay": 5, "plinth": 6,
                    "citizen": T_CITIZEN, "fallback": T_FALLBACK, "pick": T_PICK, "strike": T_STRIKE}
KIND_CODE.update({CHOOSE[k]: KIND_CODE[k] for k in CHOOSE})
#: The automatic Reward-chain kinds (what a one-step look-ahead resolves: see ``preview``).
REWARD_AUTOS: Final = frozenset(k for k in KIND_CODE if not k.startswith("choose-"))

Reward = int | tuple[int, int]
"""A Reward Pip just reached: its reward code (``sheet.RECRUIT``..``STAR``), or
``(T_CITIZEN, guild)`` for the instant Citizen of a claimed Domain."""

STAGE_EVENT: Final = 0
STAGE_HARVEST1: Final = 1
STAGE_ACTION: Final = 2
STAGE_HARVEST2: Final = 3

_BITS: Final = (0, 1, 1, 2)  # pips crossed out in a Citizen section (2-bit mask)
#: "Player 1".. "Player 5" (the kernel's ``seat_name``).
_NAME: Final = tuple(seat_name(s) for s in range(5))
#: Event texts already written: roll texts by dice, Harvest texts by what was marked.
_ROLL_TEXT: Final[dict[tuple[int, ...], str]] = {}
_HARVEST_TEXT: Final[dict[tuple[int | tuple[int, int], ...], str]] = {}


class _Actions:
    """Precomputed reward-choice actions of one season (ids are fixed; where a label depends on
    the state, one Action per case: ``road_last`` by what reaching the Domain does, ``slay_low``
    by who crossed out the lair's higher value)."""

    def __init__(self, lay: Layout) -> None:
        self.recruit = tuple(
            Action(f"recruit:{name}", f"Mark the {name} Citizen ({GUILDS[lay.cit_guild[s]]})", s)
            for s, name in enumerate(lay.cit_names))
        self.slay = tuple(
            Action(f"slay:{lid}", f"Slay in {lid} {lay.lair_names[i]} "
                   f"({lay.lair_vp[i][0]}/{lay.lair_vp[i][1]} VP)", i)
            for i, lid in enumerate(lay.lair_ids))
        #: slay_low[li][first]: the lair's higher value is crossed out (``lair_first``: -2 by the
        #: solo Rival Hunters, else the seat that completed it first): only the lower value is left.
        self.slay_low = tuple({first: Action(
            f"slay:{lid}", f"Slay in {lid} {lay.lair_names[i]} ({lay.lair_vp[i][1]} VP; "
            f"{lay.lair_vp[i][0]} VP crossed out"
            + (" by Rival Hunters)" if first == -2 else f": {_NAME[first]} completed it first)"), i)
            for first in (-2, *range(5))} for i, lid in enumerate(lay.lair_ids))
        self.road = {}
        #: road_last[(r, d)][reached]: the Road's last pip, by what reaching its far end does
        #: (``_reached``): claims the Domain and its power (or reaches a dead end), nothing new
        #: (already claimed), or claims a voided Domain.
        self.road_last = {}
        #: road_far[(r, d)]: the Domain at the far end (-1 start, -2 dead end).
        self.road_far = {}
        for r in range(lay.nr):
            for d in (1, 2):
                origin, dest = _ends(lay, r, d)
                rid = f"road:{lay.road_ids[r]}@{origin}"
                self.road[(r, d)] = Action(
                    rid, f"Mark a pip on Road {lay.road_ids[r]} from {origin} toward {dest}", (r, d))
                far = self.road_far[(r, d)] = lay.road_b[r] if d == 1 else lay.road_a[r]
                start = f"Mark the last pip of Road {lay.road_ids[r]} from {origin}, reaching "
                if far >= 0:
                    name = f"{lay.dom_ids[far]} {lay.dom_names[far]}"
                    trail = ", ".join(lay.lair_ids[li] for li in range(len(lay.lair_ids))
                                      if lay.dom_trail[far] >> li & 1)
                    whats = (f"{name} ({power_text(lay, far)})", f"{name} (already claimed)",
                             f"{name} (voided: no power, no point)"
                             + (f"; its Trailhead still opens {trail}" if trail else ""))
                else:
                    whats = (f"the dead end {dest}",) * 3
                self.road_last[(r, d)] = tuple(Action(rid, start + what, (r, d)) for what in whats)
        self.fallback = tuple(Action(f"harvest:{g}", f"Mark 1 pip on the {g} Guild Track", i)
                              for i, g in enumerate(GUILDS))
        self.strike = tuple(Action(f"strike:{g}", f"Guild Strike hits the {g} Guild Track", i)
                            for i, g in enumerate(GUILDS))
        self.statue = tuple(Action(f"statue:{k + 1}", f"Take Statue {k + 1}: {STATUES[k].effect}", k)
                            for k in range(N_KINDS))


def _reached(sh: list, far: int) -> int:
    """What the last pip of a Road reaching ``far`` does for sheet ``sh`` (see ``_mark_road``):
    0 claims the Domain with its power (or reaches a dead end), 1 nothing new (already
    claimed), 2 claims a Domain voided by the solo Wildfire (no power, no point)."""
    if far < 0:
        return 0
    if sh[DOM] >> far & 1:
        return 1
    return 2 if sh[VDOM] >> far & 1 else 0


def _ends(lay: Layout, r: int, d: int) -> tuple[str, str]:
    """(origin, destination) node ids of Road ``r`` marked from direction ``d``."""
    a, b = lay.road_a_name[r], lay.road_b_name[r]
    return (a, b) if d == 1 else (b, a)


PASS: Final = Action("pass", "Take no action (no die can mark a pip)")


# ---------------------------------------------------------------- helpers
def _rewards_note(rewards: list[Reward]) -> str:
    """"; Reward Pips: Slay, Gold" for the Rewards just reached (Stars score at the end)."""
    if not rewards:
        return ""
    key = tuple(rewards)
    note = _NOTES.get(key)
    if note is None:
        names = [REWARD_NAME[c] if isinstance(c, int) else "instant Citizen" for c in rewards if c != PLAIN]
        note = "; Reward Pips: " + ", ".join(names) if names else ""
        if len(_NOTES) > 10_000:
            _NOTES.clear()
        _NOTES[key] = note
    return note


_NOTES: Final[dict[tuple[Reward, ...], str]] = {}

#: The Reward tasks of a seat's list of reached Reward Pips, in the order they resolve, by (seat, list).
_PUSH: Final[dict[tuple[Reward, ...], tuple[Task, ...]]] = {}


def _reward_tasks(seat: int, rewards: list[Reward]) -> tuple[Task, ...]:
    """The tasks ``(kind, seat, arg)`` of the Reward Pips ``rewards`` just reached by ``seat``, in
    marking order (rulebook: Reward Pips; Star and plain pips are no task; an instant Citizen is
    ``(T_CITIZEN, guild)``)."""
    key = (seat, *rewards)
    out = _PUSH.get(key)
    if out is None:
        if len(_PUSH) > 10_000:
            _PUSH.clear()
        out = _PUSH[key] = tuple(("citizen", seat, code[1]) if isinstance(code, tuple) else (REWARD_KIND[code], seat, 0)
                                 for code in rewards if code != STAR and code != PLAIN)
    return out


class _Texts:
    """Event texts of one season's marks, written once (what follows the seat's name and why)."""

    def __init__(self, lay: Layout) -> None:
        #: citizen[s][i]: " marks the left pip of the 4 Citizen (Soldier), a Gold pip."
        self.citizen = tuple(tuple(
            f" marks the {'left' if i == 0 else 'right'} pip of the {lay.cit_names[s]} Citizen "
            f"({GUILDS[lay.cit_guild[s]]})" + _reward_note(lay.cit_pips[s][i]) + "." for i in range(2))
            for s in range(10))
        self.gold = tuple(f" marks Gold pip {i + 1}" + _reward_note(code) + "." for i, code in enumerate(lay.gold_pips))
        self.wall = tuple(f" marks Knight pip {i + 1} on the Wall" + _reward_note(code) + "."
                          for i, code in enumerate(lay.wall_pips))
        self.block_name = tuple(f"{lo}-{hi}" for lo, hi in lay.block_range)
        self.block = tuple(tuple(
            f" marks pip {i + 1} of Range Block {lo}-{hi} in {lay.lair_ids[lay.block_lair[b]]} "
            f"{lay.lair_names[lay.block_lair[b]]}" + _reward_note(code) + "." for i, code in enumerate(pips))
            for b, ((lo, hi), pips) in enumerate(zip(lay.block_range, lay.block_pips)))


def _road_marks(lay: Layout) -> tuple:
    """[r][d][k]: " marks k pips on Road R from X" (the Road mark event after the seat and why)."""
    return tuple((None,) + tuple(
        (None,) + tuple(f" marks {counted(k, 'pip')} on Road {lay.road_ids[r]} from {_ends(lay, r, d)[0]}"
                        for k in range(1, lay.road_len[r] + 1))
        for d in (1, 2)) for r in range(lay.nr))


def _reward_note(code: int) -> str:
    return f", a {REWARD_NAME[code]} pip" if code else ""


def power_text(lay: Layout, d: int) -> str:
    """A Domain power in the rulebook's words: "+1/-1 Green", "Flip Red", "instant Holy Citizen"."""
    kind, die, guild = lay.dom_power[d]
    if die is None:  # an instant Citizen (``components.Power`` checks it names a guild, no die)
        return f"instant {guild} Citizen"
    if kind == "adjust":
        return f"+1/-1 {die.capitalize()}"
    return f"Flip {die.capitalize()}"


ACTIONS: Final = {s: _Actions(lay) for s, lay in LAYOUTS.items()}

_ROAD_MARKS: Final = {s: _road_marks(lay) for s, lay in LAYOUTS.items()}

_TEXTS: Final = {s: _Texts(lay) for s, lay in LAYOUTS.items()}
