"""The observation of Valeria: Card Kingdoms and the helpers that read it, for every view.

The terminal view (``text.py``), the browser board (``board.py``) and the feature encoding
(``encoding.py``) all read ``ValeriaState.observation(seat)``: its shape is :class:`Observation`
below, documented field by field, and the readers every view needs (whose turn is live, the
tags of a player, the VP to show, the Exhausted goal, the viewer's own player) live here once.
Everything here reads the observation dict and the game's public card data
(``components``), never a state. Cards are looked up by the names the observation gives;
short texts use the cards' own words, abbreviated only where a line is too narrow
(``G``/``S``/``M`` for Gold, Strength, Magic).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Literal, Mapping, TypedDict

from dicetable.engine import seat_name

from .components import (
    AREAS, CIT_COST, CIT_DISPLAY, CIT_NAME, CIT_OFF, CIT_ON, CIT_ROLE, CIT_SLOTS, DOM_COST,
    DOM_INDEX, DOM_REQ, DOM_VP, DUKE_INDEX, MON_AREA, MON_MAG, MON_NAME, MON_REWARD, MON_STR,
    MON_TYPE, MON_VP, MONSTER_TYPES, ROLE_WORD, domain_power_text, duke_text, effect_text, slug,
)

# ------------------------------------------------------------------- the observation
class PlayerView(TypedDict, total=False):
    """One player in ``Observation.player`` (R4: tokens; R8.4: what scores)."""

    gold: int                 #: Gold tokens (pay for Citizens and Domains)
    strength: int             #: Strength tokens (pay for Monsters)
    magic: int                #: Magic tokens (stand in for Gold or Strength, R4.6)
    vp_tokens: int            #: Victory Point tokens
    citizens: dict[str, int]  #: Citizens and Starters owned: display name ("Starter Knight") -> copies
    domains: list[str]        #: Domains built, in building order
    victory: list[str]        #: the Victory stack: Monsters slain (or taken), in order
    public_vp: int            #: VP everyone can count: Monsters, Domains, VP tokens (no Duke)
    duke_chosen: bool         #: the player has kept a Duke (R3.14)
    tableau_cards: int        #: cards in the tableau, the tie-break (R8.6)
    duke: str | None          #: the kept Duke: only in the owner's observation, or everyone's once over
    duke_vp: int              #: what that Duke scores now (with ``duke``)
    duke_offer: list[str]     #: the two Dukes dealt, only to their owner while Dukes are chosen


class MonsterStack(TypedDict):
    """A Monster stack of the Center Stacks (top row, left to right)."""

    area: str                 #: its Monster Area ("Hills", ...)
    cards: list[str]          #: the Monsters in it, bottom first (the last is on top and face up)
    exhausted: bool           #: an Exhausted card lies on the empty position (R7.1)


class CitizenStack(TypedDict):
    """A Citizen stack (rows two and three: activation numbers 1..11-12)."""

    slot: str                 #: activation number(s): "4" or "11-12"
    face_down: int            #: face-down cards under the face-up ones (Mixed Citizen variant, R13)
    face_up: list[str]        #: the face-up Citizens, bottom first (the last is on top)
    exhausted: bool           #: an Exhausted card lies on the empty position


class DomainStack(TypedDict):
    """A Domain stack (bottom row): one face-up Domain over face-down ones."""

    top: str | None           #: the face-up Domain, None when the stack is empty
    face_down: int            #: face-down Domains below it (never named)
    exhausted: bool           #: an Exhausted card lies on the empty position


class Pending(TypedDict, total=False):
    """What the game waits on (``Observation.pending``); None while Dukes are chosen and once over."""

    task: str                 #: the task's kind: "action", "pay", "step", "attack", "roll", ...
    seat: int                 #: the seat that decides
    actions_left: int         #: "action": Actions left this turn (R5.15)
    card: str                 #: "step": the card whose power asks
    effect: str               #: "step": that power in words
    what: str                 #: "pay": "slay", "recruit" or "build"
    row: str                  #: "pay": the Center Stack row of the card paid for ("monsters", ...)
    index: int                #: "pay": its column in that row
    column: int               #: "attack" (solo): the attacking column, -1 for a 6 (R12.9)


class LastMove(TypedDict):
    """The last card that left the Center Stacks (``Observation.last_move``)."""

    seat: int | None          #: who took it (None: the Dark Lord)
    move: Literal["slay", "citizen", "build", "capture"]
    row: str                  #: "monsters", "citizens" or "domains"
    index: int                #: the column within that row
    card: str                 #: the card's name


class HarvestSteal(TypedDict):
    """What a Thief (or another taking power) took in the last Harvest (R5.10)."""

    thief: int
    victim: int
    resource: str             #: "gold", "strength" or "magic"
    amount: int
    card: str                 #: the card that took it


class DarkLord(TypedDict):
    """Solo only (R12): the Dark Lord."""

    duke: str | None          #: its Duke, face down (None) until the end
    captured_citizens: list[str]
    captured_domains: list[str]
    score: int | None         #: its score once the game is over
    result: str | None        #: "win" or "loss" for the player once over


class Observation(TypedDict, total=False):
    """``ValeriaState.observation(seat)``: the table as ``seat`` sees it (None: a spectator)."""

    game: str                 #: "valeria-card-kingdoms"
    seat: int | None          #: the viewer
    players: int              #: 1-5
    setup: str                #: the ``setup`` option
    citizen_stacks: str       #: the ``citizens`` option: "standard" or "mixed"
    phase: str                #: a key of ``PHASE_WORDS``
    turn: int                 #: turns begun so far (0 while Dukes are chosen)
    active: int               #: the Active player
    first_player: int
    resting: int              #: 5 players: the seat holding the Rest token (R11.5), else -1
    dice: list[int]           #: the two dice of this turn ([] before the first roll)
    monsters: list[MonsterStack]     #: 5 Monster stacks
    citizens: list[CitizenStack]     #: 10 Citizen stacks, activation numbers 1..11-12
    domains: list[DomainStack]       #: 5 Domain stacks
    domains_in_box: int       #: Domains left out of the game (never named)
    exhausted: int            #: Exhausted stacks (R7.2)
    player: list[PlayerView]  #: every seat, in seat order
    pending: Pending | None
    last_harvest: list[list[int]]    #: per seat: Gold, Strength, Magic, VP gained in the last Harvest
    last_harvest_steals: list[HarvestSteal]
    last_harvest_resting: int        #: the seat that rested in that Harvest (5 players), else -1
    last_move: LastMove | None
    is_over: bool
    scores: list[int] | None  #: final scores once over (Dukes included), else None
    winners: list[int]        #: the winners once over, else []
    dark_lord: DarkLord       #: solo only


def is_live(obs: Observation) -> bool:
    """True while turns are played (not while Dukes are chosen, not once over)."""
    return obs["phase"] not in ("choose-duke", "over")


def stage_words(obs: Observation | Mapping[str, Any]) -> str | None:
    """The table page's top line while Dukes are chosen (turn 0, nothing to count yet): the rulebook's
    "Choosing Your Duke" (Setup), "Choosing Dukes" when several players choose; None once turns are
    played (the page counts the turns)."""
    if obs.get("phase") != "choose-duke":
        return None
    if obs.get("players") != 1:
        return "Choosing Dukes"
    return "Choosing your Duke" if obs.get("seat") == 0 else "Choosing a Duke"


def exhausted_goal(obs: Observation) -> int:
    """Exhausted stacks that end the game: 2 per player, 5 in solo (R8.1, R12.16)."""
    n = obs["players"]
    return 5 if n == 1 else 2 * n


def exhausted_words(obs: Observation, compact: bool = False) -> str:
    """The Exhausted count against the number that ends the game, never "10 of 8": "Exhausted 3 of 8"
    before the end is reached, "Exhausted 10 (the end comes at 8)" once it is (a turn may exhaust
    several stacks, and the round is played out)."""
    n, goal = obs["exhausted"], exhausted_goal(obs)
    if n < goal:
        return f"Exhausted {n}/{goal}" if compact else f"Exhausted {n} of {goal}"
    return f"Exhausted {n} (end at {goal})" if compact else f"Exhausted {n} (the end comes at {goal})"


def shown_vp(obs: Observation, s: int) -> int:
    """The VP to show for seat ``s``: the final score once over, else the public VP (R8.4)."""
    return obs["scores"][s] if obs["is_over"] and obs["scores"] else obs["player"][s]["public_vp"]


def player_tags(obs: Observation, s: int) -> dict[str, bool]:
    """Seat ``s``'s marks: ``active`` (its turn), ``first`` (the first player, not solo),
    ``resting`` (holds the Rest token, 5 players), ``winner``."""
    live = is_live(obs)
    return {"active": live and s == obs["active"], "first": obs["players"] > 1 and s == obs["first_player"],
            "resting": live and s == obs["resting"], "winner": s in obs["winners"]}


def own_player(obs: Observation | Mapping[str, Any]) -> PlayerView | dict:
    """The viewer's own player (``{}`` for a spectator)."""
    me = obs.get("seat")
    return obs["player"][me] if isinstance(me, int) and 0 <= me < len(obs["player"]) else {}


#: Citizen card type by the name the observation uses ("Archer", "Starter Knight").
CIT_TYPE: dict[str, int] = {}
for _t, _name in enumerate(CIT_DISPLAY):
    CIT_TYPE[_name] = _t
for _t, _name in enumerate(CIT_NAME):
    CIT_TYPE.setdefault(_name, _t)
#: Monster card index by name (copies of a name share their figures).
MON_TYPE_OF: dict[str, int] = {}
for _m, _name in enumerate(MON_NAME):
    MON_TYPE_OF.setdefault(_name, _m)
#: The observation's phase ids in the rulebook's words (Turn structure; Solo variant).
PHASE_WORDS = {
    "choose-duke": "Dukes", "roll": "Roll Phase", "harvest": "Harvest Phase", "action": "Action Phase",
    "monsters": "Monsters phase", "second-harvest": "Second Harvest", "end": "End Phase", "over": "game over",
}
RESOURCE_OF = {"gold": "Gold", "strength": "Strength", "magic": "Magic"}

_ABBREV = (
    (re.compile(r"(\d+) Gold"), r"\1G"), (re.compile(r"(\d+) Strength"), r"\1S"),
    (re.compile(r"(\d+) Magic"), r"\1M"), (re.compile(r"(\d+) VP"), r"\1VP"),
    (re.compile(r"may pay (\S+) to gain "), r"pay \1 for "), (re.compile(r" per "), "/"),
    (re.compile(r" of base cost <= "), " <="), (re.compile(r"take up to "), "take <="),
    (re.compile(r" \+ "), "+"), (re.compile(r" OR "), " or "), (re.compile(r" Citizen\b"), " Cit."),
    (re.compile(r"Your Roll Phase: "), "Roll: "), (re.compile(r"Start of your Action Phase: "), "Action start: "),
    (re.compile(r"End of your Action Phase: "), "Action end: "),
    (re.compile(r"Whenever you gain a Cit\. in your Action Phase: "), "On gaining a Citizen: "),
    (re.compile(r"Whenever you slay a Monster in your Action Phase: "), "On slaying: "),
    (re.compile(r"Whenever any roll shows doubles: "), "On any doubles: "),
    (re.compile(r" to set one die to "), ", a die to "),
)


_TIGHT = (
    (re.compile(r"pay (\S+) for (\S+)"), r"\1→\2"), (re.compile(r"take an? "), ""),
    (re.compile(r" Monster"), ""), (re.compile(r" Cit\."), ""),
)


def abbreviate(text: str, tight: bool = False) -> str:
    """The same words shorter: ``"may pay 1 Gold to gain 2 Magic"`` -> ``"pay 1G for 2M"``
    (``tight``: ``"1G→2M"``)."""
    for pattern, repl in _ABBREV:
        text = pattern.sub(repl, text)
    if tight:
        for pattern, repl in _TIGHT:
            text = pattern.sub(repl, text)
    return text


def fit(text: str, width: int) -> str:
    """``text`` if it fits in ``width`` columns, else abbreviated (then tighter), else cut
    with an ellipsis."""
    if len(text) <= width:
        return text
    for tight in (False, True):
        short = abbreviate(text, tight)
        if len(short) <= width:
            return short
    return short[:max(0, width - 1)] + "…" if width > 0 else ""


def player_name(s: int, seat: int | None) -> str:
    """``Player 2``, or ``Player 2 (you)`` for the viewer."""
    return seat_name(s) + (" (you)" if s == seat else "")


# ------------------------------------------------------------------- cards in words
def citizen_powers(name: str) -> tuple[str, str]:
    """(on-turn power, off-turn power) of a Citizen or Starter, in words (Citizens)."""
    t = CIT_TYPE[name]
    return effect_text(CIT_ON[t]), effect_text(CIT_OFF[t])


def citizen_cost(name: str) -> int:
    """The base Gold cost printed on a Citizen (-1 for a Starter)."""
    return CIT_COST[CIT_TYPE[name]]


def citizen_role(name: str) -> str:
    """The Citizen's Role ("Worker", ...), "" for a Starter (Starters have no Role)."""
    r = CIT_ROLE[CIT_TYPE[name]]
    return ROLE_WORD[r] if r >= 0 else ""


def citizen_slot(name: str) -> str:
    """The activation number(s) of a Citizen: ``"4"`` or ``"9-10"``."""
    return "-".join(map(str, CIT_SLOTS[CIT_TYPE[name]]))


def citizen_title(name: str) -> str:
    """What a Citizen is and does, for hover titles and the terminal's component lines."""
    on, off = citizen_powers(name)
    cost = citizen_cost(name)
    head = f"{name}: activates on {citizen_slot(name)}"
    if cost >= 0:
        head += f"; costs {cost} Gold + 1 per card of that name you own; {citizen_role(name)} Role"
    else:
        head += "; a Starter (no Role, never recruited)"
    return f"{head}. On-turn (Active player): {on}. Off-turn (other players): {off}."


def monster_cost(name: str, short: bool = False) -> str:
    """``"Str 4 + 1 Magic"`` (the Magic cost comes on top, Slay a Monster)."""
    m = MON_TYPE_OF[name]
    if short:
        return f"{MON_STR[m]}S" + (f"+{MON_MAG[m]}M" if MON_MAG[m] else "")
    return f"Str {MON_STR[m]}" + (f" + {MON_MAG[m]} Magic" if MON_MAG[m] else "")


def monster_vp(name: str) -> int:
    """The end-game VP printed on a Monster."""
    return MON_VP[MON_TYPE_OF[name]]


def monster_reward(name: str) -> str:
    """The reward a Monster gives at once when slain, in words."""
    return effect_text(MON_REWARD[MON_TYPE_OF[name]])


def monster_title(name: str) -> str:
    """What a Monster is and gives, for hover titles."""
    m = MON_TYPE_OF[name]
    return (f"{name} ({AREAS[MON_AREA[m]]} {MONSTER_TYPES[MON_TYPE[m]].title()}): slay it for "
            f"{MON_STR[m]} Strength" + (f" + {MON_MAG[m]} Magic" if MON_MAG[m] else "")
            + f"; worth {MON_VP[m]} VP at the end; reward at once: {monster_reward(name)}.")


def roles_needed(name: str, short: bool = False) -> str:
    """The Role icons a Domain needs: ``"Shadow, Soldier"`` / ``"Sh So"``; "" when none."""
    req = DOM_REQ[DOM_INDEX[name]]
    parts = []
    for r, n in enumerate(req):
        if n:
            word = ("W", "So", "Sh", "H")[r] if short else ROLE_WORD[r]
            parts.extend([word] * n)
    return (" " if short else ", ").join(parts)


def domain_cost(name: str) -> int:
    """The Gold cost printed on a Domain."""
    return DOM_COST[DOM_INDEX[name]]


def domain_vp(name: str) -> int:
    """The VP printed on a Domain."""
    return DOM_VP[DOM_INDEX[name]]


def domain_power(name: str) -> str:
    """A Domain's power in words."""
    return domain_power_text(DOM_INDEX[name])


def domain_title(name: str) -> str:
    """What a Domain costs, needs and does, for hover titles."""
    need = roles_needed(name)
    return (f"{name}: build it for {domain_cost(name)} Gold"
            + (f"; you need Citizens with these Roles: {need}" if need else "")
            + f"; worth {domain_vp(name)} VP. {domain_power(name)}.")


def duke_words(name: str) -> str:
    """How a Duke scores at the end."""
    return duke_text(DUKE_INDEX[name])


def role_counts(citizens: dict) -> list[int]:
    """A player's Citizens per Role (Worker, Soldier, Shadow, Holy); Starters have none."""
    counts = [0, 0, 0, 0]
    for name, c in citizens.items():
        r = CIT_ROLE[CIT_TYPE[name]]
        if r >= 0:
            counts[r] += c
    return counts


def citizens_by_roll(citizens: dict) -> list[tuple[str, str, int]]:
    """A tableau's Citizens as (activation number, name, copies), by activation number."""
    rows = [(CIT_SLOTS[CIT_TYPE[n]], citizen_slot(n), n, c) for n, c in citizens.items()]
    rows.sort(key=lambda r: (r[0], r[2].startswith("Starter"), r[2]))
    return [(slot, n, c) for _, slot, n, c in rows]


def tallied(names: list[str]) -> list[tuple[str, int]]:
    """``["Goblin", "Treant", "Goblin"]`` -> ``[("Goblin", 2), ("Treant", 1)]`` (first-seen order)."""
    out: dict[str, int] = {}
    for n in names:
        out[n] = out.get(n, 0) + 1
    return list(out.items())


def activated(dice: list) -> list[int]:
    """The activation numbers the dice give: each die and their sum (Harvest Phase)."""
    if len(dice) != 2:
        return []
    a, b = dice
    return [a, b, a + b]


def harvest_line(obs: Observation, s: int) -> str:
    """What seat ``s`` got in the last Harvest, steals first ("-2 Gold to Player 1 (Thief)")."""
    payout = list(obs["last_harvest"][s])
    moves: dict = {}
    for st in obs.get("last_harvest_steals", ()):
        r = ("gold", "strength", "magic").index(st["resource"])
        if st["thief"] == s:
            key, sign = (f"from {seat_name(st['victim'])}", r, st["card"]), 1
        elif st["victim"] == s:
            key, sign = (f"to {seat_name(st['thief'])}", r, st["card"]), -1
        else:
            continue
        moves[key] = moves.get(key, 0) + sign * st["amount"]
        payout[r] -= sign * st["amount"]
    parts = ["rests"] if s == obs.get("last_harvest_resting", -1) else []
    words = ("Gold", "Strength", "Magic", "VP")
    parts += [f"{v:+d} {words[r]} {who} ({card})" for (who, r, card), v in moves.items() if v]
    rest = [f"{v:+d} {w}" for v, w in zip(payout, words) if v]
    if rest or not parts:
        parts.append(", ".join(rest) if rest else "nothing")
    return ", ".join(parts)


def harvest_summary(obs: Observation) -> list[str]:
    """``["Player 1: +2 Gold", ...]`` for the last Harvest; [] before the first one."""
    out = []
    resting = obs.get("last_harvest_resting", -1)
    stolen_from = {st["victim"] for st in obs.get("last_harvest_steals", ())}
    for s in range(len(obs["last_harvest"])):
        if s == resting and s not in stolen_from:
            continue
        out.append(f"{seat_name(s)}: {harvest_line(obs, s)}")
    return out


def monster_attacks(obs: Observation) -> str:
    """Solo: which columns the Monsters will attack with these dice (Solo variant: Monsters phase)."""
    parts = []
    for v in obs["dice"]:
        if v == 6:
            parts.append("a Monster stack of your choice (6)")
        elif not obs["monsters"][v - 1]["cards"]:
            parts.append(f"nothing (die {v}: Exhausted)")
        else:
            parts.append(f"column {v} ({obs['monsters'][v - 1]['area']})")
    return "; ".join(parts)


def last_move_text(obs: Observation) -> str:
    """The last card that left the Center Stacks, in words ("Player 2 built Grimmwater Keep");
    "" before the first one."""
    last = obs.get("last_move")
    if not last:
        return ""
    who = seat_name(last["seat"]) if last["seat"] is not None else "The Dark Lord"
    card = last["card"]
    verb = {"slay": f"slew the {card}", "citizen": f"took {'an' if card[:1] in 'AEIOU' else 'a'} {card}",
            "build": f"built {card}", "capture": f"captured {card}"}[last["move"]]
    return f"{who} {verb}"


@lru_cache(maxsize=512)
def card_slug(name: str) -> str:
    """The slug action ids and board keys use for a card name (``"recruit:<slug>"``)."""
    return slug(name)
