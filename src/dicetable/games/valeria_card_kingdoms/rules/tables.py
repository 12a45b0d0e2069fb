"""Valeria: Card Kingdoms rules: constants, precomputed tables, action tables and texts.

Everything here is computed once on import from the card data (components.py); the state
class and its phase mixins (the other modules of this package) read it.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import Callable, Final, TypeVar

from dicetable.engine import Action, seat_name

from ..components import (
    AREAS, CIT_INDEX, CIT_NAMEKEY, CIT_OFF, CIT_ON, DOM_INDEX, N_CARDTYPES, N_CIT, RES_ID,
    SETUPS, amount_text, duke_text, effect_text,
)
from .consts import (
    AREA_SLUG, CIT_DISPLAY, CIT_NAME, CIT_POSITION, CIT_ROLE, CIT_SLOTS, CIT_SLUG, DOM_NAME, DOM_ROLE_ICONS,
    DOM_SLUG, DOM_VP, DUKE_NAME, DUKE_SCORING, DUKE_SLUG, DUKES, EXCHANGE, GAIN, MON_AREA, MON_MAG, MON_NAME,
    MON_REWARD, MON_STR, MON_TYPE, MON_VP, PER, RESOURCE_WORD, RULES, STEAL, STEPS,
)

_T = TypeVar("_T")

NT: Final = N_CARDTYPES
N_MON_POS: Final = 5
N_CIT_POS: Final = 10
# first Citizen and Domain positions of the Center Stacks
CIT0: Final = 5
DOM0: Final = 15
N_POS: Final = 20

# phases (for display and observation)
P_DUKES: Final = 0
P_ROLL: Final = 1
P_HARVEST: Final = 2
P_ACTION: Final = 3
P_MONSTERS: Final = 4
P_HARVEST2: Final = 5
P_END: Final = 6
P_OVER: Final = 7
PHASE_NAME: Final = ("choose-duke", "roll", "harvest", "action", "monsters", "second-harvest", "end", "over")

#: Names a pending task may have in the observation (``pending.task``), for the feature
#: encoding: the decision tasks (roll, step, exchange, free-resource, action, pay, attack) and
#: the automatic phase tasks of the same names. The automatic tasks that decide whether to ask
#: (``dice-changes``, ``effect``, ``trades``, ``payment``, ``monster-attack``) never wait, so
#: they never show.
TASK_NAME: Final = ("roll", "harvest", "seat-harvest", "step", "exchange", "free-resource",
                    "harvest-end", "action-start", "action", "pay", "action-done", "action-end",
                    "monsters", "attack", "end")
PAY_SLAY: Final = 0
PAY_RECRUIT: Final = 1
PAY_BUILD: Final = 2
# the last card moved out of the Center Stacks (``ValeriaState.last``), for the views
LAST_SLAY: Final = 0
LAST_CITIZEN: Final = 1
LAST_BUILD: Final = 2
LAST_CAPTURE: Final = 3
LAST_MOVE: Final = ("slay", "citizen", "build", "capture")

# sources of a step, for labels: a Citizen/Starter type, 100 + Monster, 200 + Domain
SRC_MON: Final = 100
SRC_DOM: Final = 200
BANK: Final = -1


def src_name(src: int) -> str:
    """The card a step comes from, for labels."""
    if src >= SRC_DOM:
        return DOM_NAME[src - SRC_DOM]
    if src >= SRC_MON:
        return MON_NAME[src - SRC_MON]
    return CIT_DISPLAY[src]


# ------------------------------------------------------------------ precomputed tables
Dice = tuple[int, ...]
"""The two dice, ``(a, b)``, as the ``dice`` field holds them: the key of the per-roll tables."""
Activations = tuple[tuple[int, int], ...]
"""``((card type, activations per copy), ...)`` of one roll."""
Side = tuple["tuple[int, ...] | None", tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]
"""A Harvest power split by ``_side``."""
SideAt = tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]
"""One activation of ``ACT_SIDE``: (type, activations, packed fixed gain, per, decision, exchange steps, first)."""


def _activations(a: int, b: int) -> Activations:
    """((card type, activations per copy), ...) for dice a, b (R5.7, R5.8)."""
    hits = [0] * 13
    hits[a] += 1
    hits[b] += 1
    hits[a + b] += 1
    out = []
    for t in range(NT):
        k = sum(hits[n] for n in CIT_SLOTS[t])
        if k:
            out.append((t, k))
    return tuple(out)


ACT: Final[dict[Dice, Activations]] = {(a, b): _activations(a, b) for a in range(1, 7) for b in range(1, 7)}


def dice_code(dice: Dice) -> int:
    """The two dice ``(a, b)`` as one int, ``a * 7 + b`` (8..48): the index of the ``*_AT`` per-roll tables.

    The tables keyed by the dice tuple hash a tuple at every look-up; an index is native in the
    compiled build (docs/compiled.md, "Card Kingdoms' compiled decisions").
    """
    return dice[0] * 7 + dice[1]


def _by_code(table: "dict[Dice, _T]", empty: "_T") -> "tuple[_T, ...]":
    """A per-roll table as a tuple indexed by ``dice_code``; ``empty`` at the codes no roll has."""
    return tuple(table.get((code // 7, code % 7), empty) if 1 <= code % 7 <= 6 else empty for code in range(49))


def _side(effect: tuple[int, ...]) -> Side:
    """Split a Harvest power into (fixed gain or None, per steps, decision steps, exchanges, first)."""
    fixed = [0, 0, 0, 0]
    pers: list[int] = []
    decide: list[int] = []
    exch: list[int] = []
    first = False
    for sid in effect:
        st = STEPS[sid]
        if st[0] == GAIN:
            for i in range(4):
                fixed[i] += st[1 + i]
        elif st[0] == PER:
            pers.append(sid)
        elif st[0] == EXCHANGE:
            exch.append(sid)
        else:
            decide.append(sid)
            if st[0] == STEAL:
                first = True  # R5.10: a power that takes from a player resolves first
    return (tuple(fixed) if any(fixed) else None, tuple(pers), tuple(decide), tuple(exch), first)


#: PER_STEP[step]: a per step's (Gold, Strength, Magic, VP) per count and its count (kind, argument), as
#: typed ints the compiled build reads natively (``STEPS`` rows are tuples of Any); zeros for other steps.
PER_STEP: Final[tuple[tuple[int, int, int, int, int, int], ...]] = tuple(
    (st[1], st[2], st[3], st[4], st[5], st[6]) if st[0] == PER else (0, 0, 0, 0, 0, 0) for st in STEPS)
SIDE_ON: Final = tuple(_side(CIT_ON[t]) for t in range(NT))
SIDE_OFF: Final = tuple(_side(CIT_OFF[t]) for t in range(NT))
#: FIRST[dice] = (on-turn, off-turn) activations whose power resolves before all others (R5.10).
FIRST: Final[dict[Dice, tuple[Activations, Activations]]] = {d: (tuple((t, k) for t, k in acts if SIDE_ON[t][4]), tuple((t, k) for t, k in acts if SIDE_OFF[t][4]))
         for d, acts in ACT.items()}
#: FIRST_AT[dice_code(dice)]: the same, indexed by the dice's code.
FIRST_AT: Final[tuple[tuple[Activations, Activations], ...]] = _by_code(FIRST, ((), ()))
ROLE_TYPES: Final = tuple(tuple(t for t in range(N_CIT) if CIT_ROLE[t] == r) for r in range(4))
NAME_TYPES: Final = {k: tuple(t for t in range(NT) if CIT_NAMEKEY[t] == k) for k in set(CIT_NAMEKEY)}
GAIN_ACTS: Final = tuple(Action(f"gain:{RES_ID[r]}", f"Gain a Resource: take 1 {RESOURCE_WORD[r]}", r) for r in range(3))
#: ONE_OF[r]: one of resource ``r`` (Gold, Strength, Magic) and none of the others, as ``res_effects`` deltas.
ONE_OF: Final = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
FREE_ACTS: Final = tuple(Action(f"free:{RES_ID[r]}", f"Take 1 {RESOURCE_WORD[r]} (nothing activated)", r) for r in range(3))
DONE_DICE: Final = Action("dice:done", "Announce the final dice")
EXCH_DONE: Final = Action("exchange:done", "Finish your Harvest (skip the remaining trades)")
DECLINE: Final = Action("decline", "Decline")
STEAL_NONE: Final = Action("steal:none", "Take nothing")
#: DUKE_ACTS[duke]: the action keeping that Duke (R3.14), with its scoring in words.
DUKE_ACTS: Final = tuple(Action(f"duke:{DUKE_SLUG[d]}", f"Keep {DUKE_NAME[d]} ({duke_text(d)})", d)
                         for d in range(len(DUKES)))
#: The other card types sharing a name with each type (the Starter for Peasant and Knight), R6.6.
SAME_NAME: Final = tuple(tuple(u for u in range(NT) if u != t and CIT_NAMEKEY[u] == CIT_NAMEKEY[t]) for t in range(NT))
N_MON: Final = len(MON_NAME)
#: TWIN[t]: the one other card type sharing the name of Citizen type t (its Starter), or -1.
TWIN: Final = tuple(SAME_NAME[t][0] if SAME_NAME[t] else -1 for t in range(N_CIT))
if any(len(SAME_NAME[t]) > 1 for t in range(N_CIT)):
    raise ValueError("a Citizen shares its name with at most one Starter (R6.6)")


def _counts_getter(indices: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """A function ``f(list) -> tuple`` of the items at ``indices`` (C speed, any length)."""
    if len(indices) == 1:
        i = indices[0]
        return lambda seq: (seq[i],)
    if not indices:
        return lambda seq: ()
    return itemgetter(*indices)


#: ROLE_INDEX[seat][role]: the indices in ``own`` of the seat's counts of the Citizen types of that Role.
ROLE_INDEX: Final = tuple(tuple(tuple(s * NT + t for t in ROLE_TYPES[r]) for r in range(4)) for s in range(5))
#: ROLE_GET[seat][role](own): the seat's counts of the Citizen types of that Role.
ROLE_GET: Final = tuple(tuple(_counts_getter(indices) for indices in by_role) for by_role in ROLE_INDEX)


def pay_action(w: str, x: int, mag: int) -> Action:
    """The action paying ``x`` real tokens (``w``: "s" Strength, "g" Gold) and ``mag`` Magic."""
    pid = f"{x}{w}" + (f"+{mag}m" if mag else "") if x or mag else "free"
    return Action(f"pay:{pid}", f"Pay {pay_text(x, mag, 'Strength' if w == 's' else 'Gold')}", (x, mag))


def _slay_action(p: int, m: int) -> Action:
    cost = f"{MON_STR[m]} Strength" + (f" + {MON_MAG[m]} Magic" if MON_MAG[m] else "")
    return Action(f"slay:{AREA_SLUG[MON_AREA[m]]}",
                  f"Slay the {MON_NAME[m]} ({cost}; {MON_VP[m]} VP; reward: {effect_text(MON_REWARD[m])})", p)


#: SLAY_ACT[p * N_MON + m]: the action slaying Monster m on top of Monster stack p.
SLAY_ACT: Final = tuple(_slay_action(p, m) for p in range(5) for m in range(N_MON))
#: SLAY_AT[p][m]: the same, one row per Monster stack.
SLAY_AT: Final = tuple(SLAY_ACT[p * N_MON:(p + 1) * N_MON] for p in range(5))


class _Actions(dict):
    """A lazily filled table of actions: ``table[key]`` builds ``make(key)`` on first use."""

    __slots__ = ("make",)

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key):
        a = self[key] = self.make(key)
        return a


def _recruit_table(ct: int) -> _Actions:
    # A Citizen type lives in one Center Stack only (its slot, R3.7; Returns go back there too).
    p = CIT0 + CIT_POSITION[ct]
    return _Actions(lambda cost: Action(f"recruit:{CIT_SLUG[ct]}", f"Recruit {article(CIT_NAME[ct])} for {cost} Gold", p))


def _build_table(p: int) -> _Actions:
    def make(key):
        d, cost = divmod(key, 64)
        return Action(f"build:{DOM_SLUG[d]}", f"Build {DOM_NAME[d]} for {cost} Gold ({DOM_VP[d]} VP)", p)
    return _Actions(make)


#: RECRUIT_AT[type][cost]: the action recruiting the top Citizen of that type for ``cost`` Gold.
RECRUIT_AT: Final = tuple(_recruit_table(ct) for ct in range(N_CIT))
#: BUILD_AT[position][domain * 64 + cost]: the action building that Domain from that stack.
BUILD_AT: Final = {p: _build_table(p) for p in range(DOM0, N_POS)}


def _turn_tasks(seat: int, solo: bool) -> tuple:
    """The tasks of a turn, in the order they run (R5.1; solo: the R12 round structure)."""
    acts = RULES.actions_per_turn
    if solo:
        return (("dice-changes", seat), ("harvest", seat, 0), ("harvest-end", seat, 0), ("action-start", seat),
                ("action", seat, acts), ("action-end", seat), ("monsters", seat), ("harvest", seat, 1),
                ("harvest-end", seat, 1), ("end", seat))
    return (("dice-changes", seat), ("harvest", seat, 0), ("harvest-end", seat, 0), ("action-start", seat),
            ("action", seat, acts), ("action-end", seat), ("end", seat))


#: TURN_TASKS[(seat, solo)]: the tasks of a turn; the first, ``dice-changes``, only matters to a
#: seat with a die-changing Domain.
TURN_TASKS: Final = {(s, solo): _turn_tasks(s, solo) for s in range(5) for solo in (False, True)}
#: TURN_PUSH[seat * 2 + solo][roll]: those tasks in the order they go onto the task stack (last
#: first), with the ``dice-changes`` task when ``roll`` is 1 and without it when 0.
TURN_PUSH: Final[tuple[tuple[tuple[tuple[object, ...], ...], ...], ...]] = tuple(
    tuple(tuple(reversed(TURN_TASKS[(s, solo)][1 - roll:])) for roll in (0, 1)) for s in range(5) for solo in (False, True))


MAX_SEATS: Final = 5  # players at most (the game's max_players)
SEAT: Final = tuple(seat_name(s) for s in range(MAX_SEATS))


def _participants_of(n: int, active: int) -> tuple[int, ...]:
    """The seats that harvest, in turn order from the Active player; 5 players: not the resting one."""
    rest = (active - 1) % 5 if n == 5 else -1
    return tuple(s for s in ((active + i) % n for i in range(n)) if s != rest)


#: PARTICIPANTS[n][active]: who harvests (R5.7, R11.6).
PARTICIPANTS: Final = tuple(tuple(_participants_of(n, a) for a in range(n)) if n else () for n in range(6))
#: SEAT_TASKS[n][active][second]: the per-seat Harvest tasks, in the order they run.
SEAT_TASKS: Final = tuple(tuple(tuple(tuple(("seat-harvest", q, second) for q in PARTICIPANTS[n][a]) for second in (0, 1))
                                for a in range(n)) if n else () for n in range(6))
#: SEAT_PUSH[n][active][second]: those tasks in the order they go onto the task stack (last first).
SEAT_PUSH: Final = tuple(tuple(tuple(tuple(reversed(by_second)) for by_second in by_active) for by_active in by_n)
                         for by_n in SEAT_TASKS)
#: ACT_SIDE[on][dice]: the activations of ``ACT[dice]`` with the on-turn (1) or off-turn (0)
#: power split as in ``_side``:
#: ``(type, activations, packed fixed gain, per steps, decision steps, exchanges, first)``.
#: The fixed gain per copy (times the activations) is packed into one int, 16 bits per
#: resource, Gold lowest, then Strength, Magic, VP (0: none): gains are never negative and a
#: Harvest never brings 65,536 of one resource.
def _packed(fixed: tuple[int, ...] | None, k: int) -> int:
    """A fixed gain (per copy) times ``k`` activations, packed as ``ACT_SIDE`` says."""
    return sum((k * x) << (16 * i) for i, x in enumerate(fixed)) if fixed else 0


ACT_SIDE: Final[tuple[dict[Dice, tuple[SideAt, ...]], ...]] = tuple(
    {d: tuple((ct, k, _packed(side[ct][0], k), *side[ct][1:]) for ct, k in acts) for d, acts in ACT.items()}
    for side in (SIDE_OFF, SIDE_ON))
#: ACT_SIDE_AT[on][dice_code(dice)]: the same, indexed by the dice's code.
ACT_SIDE_AT: Final[tuple[tuple[tuple[SideAt, ...], ...], ...]] = tuple(_by_code(table, ()) for table in ACT_SIDE)
#: SETUP_TABLE[id]: (name, Monster Areas, Citizen types, removed Domains) of a named setup (R14).
SETUP_TABLE: Final = {k: (d.name, tuple(AREAS.index(a) for a in d.monsters), tuple(CIT_INDEX[c] for c in d.citizens),
                          tuple(DOM_INDEX[x] for x in d.remove_domains)) for k, d in SETUPS.items()}
EXHAUSTED_PER_PLAYER: Final = RULES.exhausted_per_player
GAIN_TEXT: Final = tuple(tuple(f"{SEAT[s]} gains 1 {RESOURCE_WORD[r]}." for r in range(3)) for s in range(5))


def _exchange_action(key: int) -> Action:
    sid, ct = divmod(key, 64)
    st = STEPS[sid]
    return Action(f"exchange:{CIT_SLUG[ct]}", f"{CIT_DISPLAY[ct]}: pay {amount_text(st[1])} to gain {amount_text(st[2])}",
                  (sid, ct))


#: EXCHANGE_AT[step * 64 + type]: the Harvest exchange of that step of a Citizen type (an int key, native
#: when compiled; a type is below ``NT``, at most 64).
EXCHANGE_AT: Final = _Actions(_exchange_action)
if NT > 64:
    raise ValueError("EXCHANGE_AT's key holds a card type in 6 bits")


def article(name: str) -> str:
    """``"Archer"`` -> ``"an Archer"``, ``"Knight"`` -> ``"a Knight"``."""
    return ("an " if name[:1] in "AEIOU" else "a ") + name


@lru_cache(maxsize=None)
def payout_text(p: tuple) -> str:
    """``(1, 0, -1, 0)`` -> ``"+1 Gold, -1 Magic"``; all zero -> ``"nothing"``."""
    gains = [f"{'+' if v > 0 else ''}{v} {w}" for v, w in zip(p, (*RESOURCE_WORD, "VP")) if v]
    return ", ".join(gains) if gains else "nothing"


def harvest_text(seat: int, payout: tuple, steals: tuple, resting: bool = False) -> str:
    """What ``seat`` got and lost in a Harvest, for its summary and the board.

    ``payout`` is the seat's net change (Gold, Strength, Magic, VP); ``steals`` the Harvest's
    steals between players (see ``ValeriaState.steals``). Each steal the seat made or suffered
    is named first, with the other player and the card, added up per player, resource and card
    (``"-3 Magic to Player 5 (Thief)"``, ``"+3 Magic from Player 4 (Thief)"``); then the rest
    of the payout, so the parts add up to the net change. A resting player (5 players, R11.6)
    "rests", and still loses what a Thief took from them.
    """
    if not steals and not resting:  # the usual Harvest: nothing stolen, the payout says it all
        return payout_text(tuple(payout))
    moves: dict = {}
    rest = list(payout)
    for thief, victim, r, k, src in steals:
        if seat == thief:
            key, sign = (f"from {SEAT[victim]}", r, src), 1
        elif seat == victim:
            key, sign = (f"to {SEAT[thief]}", r, src), -1
        else:
            continue
        moves[key] = moves.get(key, 0) + sign * k
        rest[r] -= sign * k
    parts = ["rests"] if resting else []
    parts += [f"{'+' if v > 0 else ''}{v} {RESOURCE_WORD[r]} {who} ({src_name(src)})"
              for (who, r, src), v in moves.items() if v]
    if any(rest) or not parts:
        parts.append(payout_text(tuple(rest)))
    return ", ".join(parts)


def spendable(tokens: int, magic: int) -> int:
    """The largest cost ``tokens`` real Gold (or Strength) and ``magic`` Magic can pay.

    Magic stands in for the tokens one for one, but at least one real token must be paid
    (R4.6, A16): with no token only a cost of 0 can be paid.
    """
    return tokens + magic if tokens > 0 else 0


def pay_span(tokens: int, magic: int, cost: int) -> tuple | None:
    """(lo, hi) real tokens that may pay ``cost``, Magic standing in for the rest; None if unaffordable.

    Paying ``x`` real tokens costs ``cost - x`` Magic; never more tokens than the cost
    (R4.6, A3, A16). A cost of 0 is paid with nothing: ``(0, 0)``.
    """
    if cost <= 0:
        return (0, 0)
    lo = cost - magic
    if lo < 1:
        lo = 1
    hi = tokens if tokens < cost else cost
    return (lo, hi) if hi >= lo else None  # non-empty exactly when cost <= spendable(tokens, magic)


@lru_cache(maxsize=None)
def pay_text(primary: int, magic: int, word: str) -> str:
    """``(1, 2, "Strength")`` -> ``"1 Strength + 2 Magic"``; ``(0, 0)`` -> ``"nothing"``."""
    parts = []
    if primary:
        parts.append(f"{primary} {word}")
    if magic:
        parts.append(f"{magic} Magic")
    return " + ".join(parts) if parts else "nothing"


def duke_resource_vp(duke: int, gold: int, strength: int, magic: int) -> int:
    """The part of a Duke's VP that Gold, Strength and Magic score (R8.5: one VP for every so many of
    each, by the Duke's divisors); :func:`duke_score` adds what the cards score."""
    dg, ds, dm = DUKE_SCORING[duke][0]
    return gold // dg + strength // ds + magic // dm


def duke_score(duke: int, gold: int, strength: int, magic: int, citizens, domains, monsters) -> int:
    """VP a Duke scores for these holdings (R8.4, R8.5).

    ``citizens`` is a list of counts per Citizen type (Starters excluded: they have no Role
    and are not Citizen cards); ``domains``/``monsters`` are sequences of indices. Role icons
    count on Citizens and Domains, a Domain with two icons of a Role counting two (A7).
    """
    _, role_vp, per_dom, per_cit, per_mon, per_type = DUKE_SCORING[duke]
    vp = duke_resource_vp(duke, gold, strength, magic)
    icons = [0, 0, 0, 0]
    ncit = 0
    for t, c in enumerate(citizens):
        if c:
            icons[CIT_ROLE[t]] += c
            ncit += c
    for d in domains:
        req = DOM_ROLE_ICONS[d]
        for r in range(4):
            icons[r] += req[r]
    vp += sum(role_vp[r] * icons[r] for r in range(4))
    vp += per_dom * len(domains) + per_cit * ncit + per_mon * len(monsters)
    if any(per_type):
        vp += sum(per_type[MON_TYPE[m]] for m in monsters)
    return vp

