"""Valeria: Card Kingdoms rules (base set, 1-5 players), as a phase machine plus a task stack.

Rule ids (R*, C-*, A*, T*) cite the public rules digest of the base game.

Structure
---------
After set-up every player keeps one of two dealt Dukes (a simultaneous, secret choice,
R3.14). Then each turn pushes its phases as tasks on ``self.tasks`` (a list of int tuples,
top last): Roll (R5.4-R5.6), Harvest (R5.7-R5.13), Action (R5.15-R6.18, two actions),
End (R8.1-R8.3); solo adds Monsters and a Second Harvest (R12.4-R12.14). A task either does
itself (``_run`` pops it) or waits for a decision of the seat in ``task[1]``. Card powers
are compiled steps (see components.py) pushed as ``K_STEP`` tasks, so chains of rewards,
extra actions and triggers are plain data that clones, saves and replays.

Decisions where the rulebook is silent (each tested; see docs/games/valeria-card-kingdoms.md)
-----------------------------------------------------------------------------------
* Harvest order (R5.11): within a player's Harvest, fixed gains and per-count gains are taken
  first, automatically; then the player makes the choices of "or" powers; then performs the
  optional exchanges ("paid to gain") in an order of their choosing, or stops. Gains never
  depend on resources and exchanges only get more affordable with more resources, so every
  outcome of any order the owner could pick is still reachable. The Thief (any power that
  takes from a player) resolves before everything (R5.10). Players decide one after the
  other in turn order from the Active player (their choices are independent and public).
* Magic stands in for Gold or Strength only in Action costs (A3), with at least one real
  token unless the cost is 0 (A16); payments are exact.
* A reward offering a Citizen nobody can take offers only its alternative (R9.5, C-BS);
  a free Citizen is taken when one can be (rewards are taken at once, R6.5).
* Returned cards go on top of their stack and take its Exhausted card back (A10);
  the end conditions are checked afresh at the end of each turn, no latching (A5).
* Domains with an "end of your Action Phase" power work in the turn they are built (the
  power lasts from the build on, R6.13); start-of-phase and Roll powers wait a turn.
* Forgotten Sorrows and The Violet Thorn count every Citizen gained / Monster slain in
  the owner's Action Phase, rewards and extra actions included.
* 5 players: the resting player takes no part in the Harvest at all (A13), but a Thief may
  still take from them (R11.6); the Harvest summary then names their loss.
* Solo: the Dark Lord is drawn from the 9 Dukes not kept; VP tokens count for the player;
  a tie is a loss; the end is checked after every action, every Monster attack and in the
  End Phase; the Monsters phase uses the final dice; the Second Harvest also gives the
  nothing-activated resource (A15).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from operator import itemgetter, sub

from dicetable.engine import Action, Decision, GameState, seat_name

from .components import (
    AREA_SLUG, AREAS, C_DOMAINS, C_NAME, C_ROLE, CHOOSE, CIT_COST, CIT_DISPLAY, CIT_INDEX,
    CIT_NAME, CIT_NAMEKEY, CIT_OFF, COPIES, CIT_ON, CIT_POSITION, CIT_ROLE, CIT_SLOTS, CIT_SLUG, DIE,
    DOM_COST, DOM_DISCOUNT, DOM_EFFECT, DOM_INDEX, DOM_NAME, DOM_NO_SURCHARGE, DOM_REQ,
    DOM_ROLE_ICONS, DOM_ROLL, DOM_SLUG, DOM_VP, DOM_WHEN, DUKE_NAME, DUKE_SCORING, DUKE_SLUG,
    DUKES, EXCHANGE, GAIN, MON_AREA, MON_MAG, MON_NAME, MON_REWARD, MON_SLUG, MON_STR, MON_TYPE,
    MON_VP, N_CARDTYPES, N_CIT, N_DOM, PER, RES_ID, RESOURCE_WORD, RET_MONSTER, RETURN, RULES,
    SETUPS, SLAY, SLOT_TYPES, STARTER_TYPES, STEAL, STEAL_MON, STEPS, TAKE_CIT, TIERS, W_AEND,
    W_ASTART, W_BUILD, W_DOUBLES, W_GAINCIT, W_ROLL, W_SLAY, amount_text, duke_text, effect_text,
    monster_stack, step_text,
)

NT = N_CARDTYPES
N_MON_POS, N_CIT_POS = 5, 10
CIT0, DOM0 = 5, 15  # first Citizen and Domain positions of the Center Stacks
N_POS = 20

# phases (for display and observation)
P_DUKES, P_ROLL, P_HARVEST, P_ACTION, P_MONSTERS, P_HARVEST2, P_END, P_OVER = range(8)
PHASE_NAME = ("choose-duke", "roll", "harvest", "action", "monsters", "second-harvest", "end", "over")

# task kinds; every task is (kind, seat, ...)
(K_ROLL, K_HARVEST, K_SEAT, K_STEP, K_EXCH, K_FREE, K_HEND, K_ASTART, K_ACTION, K_PAY,
 K_ADONE, K_AEND, K_MONSTERS, K_ATTACK, K_END) = range(15)
TASK_NAME = ("roll", "harvest", "seat-harvest", "step", "exchange", "free-resource",
             "harvest-end", "action-start", "action", "pay", "action-done", "action-end",
             "monsters", "attack", "end")
PAY_SLAY, PAY_RECRUIT, PAY_BUILD = 0, 1, 2
# the last card moved out of the Center Stacks (``ValeriaState.last``), for the views
LAST_SLAY, LAST_CITIZEN, LAST_BUILD, LAST_CAPTURE = range(4)
LAST_MOVE = ("slay", "citizen", "build", "capture")

# sources of a step, for labels: a Citizen/Starter type, 100 + Monster, 200 + Domain
SRC_MON, SRC_DOM = 100, 200
BANK = -1


def src_name(src: int) -> str:
    """The card a step comes from, for labels."""
    if src >= SRC_DOM:
        return DOM_NAME[src - SRC_DOM]
    if src >= SRC_MON:
        return MON_NAME[src - SRC_MON]
    return CIT_DISPLAY[src]


# ------------------------------------------------------------------ precomputed tables
def _activations(a: int, b: int) -> tuple:
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


ACT = {(a, b): _activations(a, b) for a in range(1, 7) for b in range(1, 7)}


def _side(effect: tuple) -> tuple:
    """Split a Harvest power into (fixed gain or None, per steps, decision steps, exchanges, first)."""
    fixed = [0, 0, 0, 0]
    pers, decide, exch = [], [], []
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


SIDE_ON = tuple(_side(CIT_ON[t]) for t in range(NT))
SIDE_OFF = tuple(_side(CIT_OFF[t]) for t in range(NT))
#: FIRST[dice] = (on-turn, off-turn) activations whose power resolves before all others (R5.10).
FIRST = {d: (tuple((t, k) for t, k in acts if SIDE_ON[t][4]), tuple((t, k) for t, k in acts if SIDE_OFF[t][4]))
         for d, acts in ACT.items()}
ROLE_TYPES = tuple(tuple(t for t in range(N_CIT) if CIT_ROLE[t] == r) for r in range(4))
NAME_TYPES = {k: tuple(t for t in range(NT) if CIT_NAMEKEY[t] == k) for k in set(CIT_NAMEKEY)}
GAIN_ACTS = tuple(Action(f"gain:{RES_ID[r]}", f"Gain a Resource: take 1 {RESOURCE_WORD[r]}", r) for r in range(3))
FREE_ACTS = tuple(Action(f"free:{RES_ID[r]}", f"Take 1 {RESOURCE_WORD[r]} (nothing activated)", r) for r in range(3))
DONE_DICE = Action("dice:done", "Announce the final dice")
EXCH_DONE = Action("exchange:done", "Finish your Harvest (skip the remaining trades)")
DECLINE = Action("decline", "Decline")
STEAL_NONE = Action("steal:none", "Take nothing")
_CACHE: dict = {}
#: The other card types sharing a name with each type (the Starter for Peasant and Knight), R6.6.
SAME_NAME = tuple(tuple(u for u in range(NT) if u != t and CIT_NAMEKEY[u] == CIT_NAMEKEY[t]) for t in range(NT))
N_MON = len(MON_NAME)
#: TWIN[t]: the one other card type sharing the name of Citizen type t (its Starter), or -1.
TWIN = tuple(SAME_NAME[t][0] if SAME_NAME[t] else -1 for t in range(N_CIT))
if any(len(SAME_NAME[t]) > 1 for t in range(N_CIT)):
    raise ValueError("a Citizen shares its name with at most one Starter (R6.6)")


def _counts_getter(indices: tuple):
    """A function ``f(list) -> tuple`` of the items at ``indices`` (C speed, any length)."""
    if len(indices) == 1:
        i = indices[0]
        return lambda seq: (seq[i],)
    if not indices:
        return lambda seq: ()
    return itemgetter(*indices)


#: ROLE_GET[seat][role](own): the seat's counts of the Citizen types of that Role.
ROLE_GET = tuple(tuple(_counts_getter(tuple(s * NT + t for t in ROLE_TYPES[r])) for r in range(4))
                 for s in range(5))
#: Domains with a Roll-Phase (die-changing) power.
ROLL_DOMS = frozenset(d for d in range(N_DOM) if DOM_WHEN[d] == W_ROLL)


def _pay_action(w: str, x: int, mag: int) -> Action:
    """The action paying ``x`` real tokens (``w``: "s" Strength, "g" Gold) and ``mag`` Magic."""
    pid = f"{x}{w}" + (f"+{mag}m" if mag else "") if x or mag else "free"
    return Action(f"pay:{pid}", f"Pay {pay_text(x, mag, 'Strength' if w == 's' else 'Gold')}", (x, mag))


def _slay_action(p: int, m: int) -> Action:
    cost = f"{MON_STR[m]} Strength" + (f" + {MON_MAG[m]} Magic" if MON_MAG[m] else "")
    return Action(f"slay:{AREA_SLUG[MON_AREA[m]]}",
                  f"Slay the {MON_NAME[m]} ({cost}; {MON_VP[m]} VP; reward: {effect_text(MON_REWARD[m])})", p)


#: SLAY_ACT[p * N_MON + m]: the action slaying Monster m on top of Monster stack p.
SLAY_ACT = tuple(_slay_action(p, m) for p in range(5) for m in range(N_MON))
#: SLAY_AT[p][m]: the same, one row per Monster stack.
SLAY_AT = tuple(SLAY_ACT[p * N_MON:(p + 1) * N_MON] for p in range(5))
#: Strength + Magic a Monster costs in all (R6.2, R6.3).
MON_TOTAL = tuple(MON_STR[m] + MON_MAG[m] for m in range(N_MON))


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
RECRUIT_AT = tuple(_recruit_table(ct) for ct in range(N_CIT))
#: BUILD_AT[position][domain * 64 + cost]: the action building that Domain from that stack.
BUILD_AT = {p: _build_table(p) for p in range(DOM0, N_POS)}
#: TWIN0[t]: index of the other card sharing type t's name in ``counts + [0]`` (``NT``: the 0).
TWIN0 = tuple(TWIN[t] if TWIN[t] >= 0 else NT for t in range(N_CIT))


def _turn_tasks(seat: int, solo: bool) -> tuple:
    """The tasks of a turn, bottom first (R5.1; solo R12 round structure)."""
    acts = RULES.actions_per_turn
    if solo:
        return ((K_END, seat), (K_HEND, seat, 1), (K_HARVEST, seat, 1), (K_MONSTERS, seat),
                (K_AEND, seat), (K_ACTION, seat, acts), (K_ASTART, seat), (K_HEND, seat, 0),
                (K_HARVEST, seat, 0), (K_ROLL, seat))
    return ((K_END, seat), (K_AEND, seat), (K_ACTION, seat, acts), (K_ASTART, seat),
            (K_HEND, seat, 0), (K_HARVEST, seat, 0), (K_ROLL, seat))


TURN_TASKS = {(s, solo): _turn_tasks(s, solo) for s in range(5) for solo in (False, True)}


SEAT = tuple(seat_name(s) for s in range(5))
ONE_SEAT = tuple((s,) for s in range(5))


def _participants_of(n: int, active: int) -> tuple:
    """The seats that harvest, in turn order from the Active player; 5 players: not the resting one."""
    rest = (active - 1) % 5 if n == 5 else -1
    return tuple(s for s in ((active + i) % n for i in range(n)) if s != rest)


#: PARTICIPANTS[n][active]: who harvests (R5.7, R11.6).
PARTICIPANTS = tuple(tuple(_participants_of(n, a) for a in range(n)) if n else () for n in range(6))
#: SEAT_TASKS[n][active][second]: the per-seat Harvest tasks, pushed in this order (top last).
SEAT_TASKS = tuple(tuple(tuple(tuple((K_SEAT, q, second) for q in reversed(PARTICIPANTS[n][a])) for second in (0, 1))
                         for a in range(n)) if n else () for n in range(6))
#: ACT_SIDE[on][dice]: the activations of ``ACT[dice]`` with the on-turn (1) or off-turn (0)
#: power split as in ``_side``:
#: ``(type, activations, packed fixed gain, per steps, decision steps, exchanges, first)``.
#: The fixed gain per copy (times the activations) is packed into one int, 16 bits per
#: resource, Gold lowest, then Strength, Magic, VP (0: none): gains are never negative and a
#: Harvest never brings 65,536 of one resource.
ACT_SIDE = tuple(
    {d: tuple((ct, k, sum((k * x) << (16 * i) for i, x in enumerate(side[ct][0])) if side[ct][0] else 0,
               *side[ct][1:]) for ct, k in acts) for d, acts in ACT.items()}
    for side in (SIDE_OFF, SIDE_ON))
#: ACT_COUNTS[dice](counts): a seat's counts of the types ``ACT[dice]`` activates, in its order.
ACT_COUNTS = {d: _counts_getter(tuple(ct for ct, _ in acts)) for d, acts in ACT.items()}
_TEXT: dict = {}  # event and label texts, built once
#: SETUP_TABLE[id]: (name, Monster Areas, Citizen types, removed Domains) of a named setup (R14).
SETUP_TABLE = {k: (d.name, tuple(AREAS.index(a) for a in d.monsters), tuple(CIT_INDEX[c] for c in d.citizens),
                   tuple(DOM_INDEX[x] for x in d.remove_domains)) for k, d in SETUPS.items()}
EXHAUSTED_PER_PLAYER = RULES.exhausted_per_player
GAIN_TEXT = tuple(tuple(f"{SEAT[s]} gains 1 {RESOURCE_WORD[r]}." for r in range(3)) for s in range(5))
_PAY_OPTIONS: dict = {}  # (lo, hi, total, slay) -> the payment actions


def _exchange_action(key: tuple) -> Action:
    sid, ct = key
    st = STEPS[sid]
    return Action(f"exchange:{CIT_SLUG[ct]}", f"{CIT_DISPLAY[ct]}: pay {amount_text(st[1])} to gain {amount_text(st[2])}",
                  (sid, ct))


#: EXCHANGE_AT[(step, type)]: the Harvest exchange of that step of a Citizen type.
EXCHANGE_AT = _Actions(_exchange_action)


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


@lru_cache(maxsize=None)
def pay_text(primary: int, magic: int, word: str) -> str:
    """``(1, 2, "Strength")`` -> ``"1 Strength + 2 Magic"``; ``(0, 0)`` -> ``"nothing"``."""
    parts = []
    if primary:
        parts.append(f"{primary} {word}")
    if magic:
        parts.append(f"{magic} Magic")
    return " + ".join(parts) if parts else "nothing"


class ValeriaState(GameState):
    """A game of Valeria: Card Kingdoms for 1-5 players.

    Fields (all plain data): ``res`` is a flat list of 4 ints per seat (Gold, Strength,
    Magic, VP tokens); ``own`` a flat list of ``NT`` counts per seat (Citizen types, then
    the Starters); ``doms``/``victory`` per seat a tuple of Domain/Monster indices;
    ``stacks`` the 20 Center Stacks (positions 0-4 Monsters, 5-14 Citizens in slot order,
    15-19 Domains), each a tuple bottom first, top last; ``exhausted`` a bitmask of the
    positions holding an Exhausted card; ``cit_down``/``dom_box``/``cit_box`` the face-down
    parts; ``dukes``/``offers`` the secret Dukes; ``tasks`` the pending tasks. ``hbase`` is
    the resources at the start of the current Harvest and ``hsteals`` its steals between players
    so far; ``payouts`` and ``steals`` the same for the last Harvest that ended: per seat the net
    change, and the steals as ``(thief, victim, resource, amount, source)`` tuples (``src_name``).
    ``last`` is the last card that left the Center Stacks, ``(seat or -1 for the Dark Lord,
    LAST_* move, position, card index)`` or ``()``, so the views can mark the last move.
    """

    #: False in copies whose events nobody reads (the greedy bot's look-ahead): they skip
    #: building event texts. Play itself always logs.
    LOG = True

    __slots__ = (
        "phase", "active", "first", "turn", "dice", "res", "own", "doms", "victory", "stacks",
        "exhausted", "cit_down", "dom_box", "cit_box", "dukes", "offers", "dark_lord",
        "cap_cit", "cap_dom", "tasks", "roll_used", "hbase", "payouts", "result", "areas",
        "cit_types", "hsteals", "steals", "last",
    )

    # ------------------------------------------------------------ set-up (R3, R11, R12)
    def _setup(self) -> None:
        n = self.players
        five = n == 5
        setup = self.options["setup"]
        mixed = self.options["citizens"] == "mixed"
        if setup == "random":
            areas = tuple(tier[self.randbelow(len(tier))] for tier in TIERS)
            cit_types = tuple(SLOT_TYPES[p][self.randbelow(len(SLOT_TYPES[p]))] for p in range(N_CIT_POS))
            removed = ()
            name = "a random setup"
        else:
            name, areas, cit_types, removed = SETUP_TABLE[setup]
        self.areas = areas
        self.cit_types = cit_types
        stacks = [monster_stack(a, five) for a in areas]
        per_stack = RULES.citizens_per_stack_five if five else RULES.citizens_per_stack
        cit_box = []
        cit_down = []
        for p in range(N_CIT_POS):
            types = SLOT_TYPES[p]
            if mixed and len(types) > 1:
                pool = [t for t in types for _ in range(COPIES)]
                self.shuffle(pool)
                down = RULES.mixed_face_down_five if five else RULES.mixed_face_down
                stacks.append(tuple(pool[:down + 1]))
                cit_box.append(tuple(pool[down + 1:]))
                cit_down.append(down)
            else:
                stacks.append((cit_types[p],) * per_stack)
                cit_box.append(())
                cit_down.append(0)
        pool = [d for d in range(N_DOM) if d not in removed] if removed else list(range(N_DOM))
        self.shuffle(pool)
        down = RULES.domains_face_down_five if five else RULES.domains_face_down
        for p in range(5):
            stacks.append(tuple(pool[p * (down + 1):(p + 1) * (down + 1)]))
        self.dom_box = tuple(pool[5 * (down + 1):])
        self.stacks = stacks
        self.cit_box = tuple(cit_box)
        self.cit_down = cit_down
        self.exhausted = 0
        self.res = [RULES.start_gold, 0, RULES.start_magic, 0] * n
        own = [0] * (NT * n)
        for s in range(n):
            for t in STARTER_TYPES:
                own[s * NT + t] = 1
        self.own = own
        self.doms = [()] * n
        self.victory = [()] * n
        dukes = list(range(len(DUKES)))
        self.shuffle(dukes)
        k = RULES.dukes_dealt
        self.offers = [tuple(dukes[s * k:(s + 1) * k]) for s in range(n)]
        self.dukes = [-1] * n
        self.dark_lord = -1
        self.cap_cit = ()
        self.cap_dom = ()
        self.first = self.randbelow(n)
        self.active = self.first
        self.turn = 0
        self.dice = ()
        self.tasks = []
        self.roll_used = 0
        self.hbase = ()
        self.payouts = ()
        self.hsteals = self.steals = ()
        self.last = ()
        self.result = ""
        self.phase = P_DUKES
        key = ("setup", name, mixed, areas, cit_types)
        text = _TEXT.get(key)
        if text is None:
            text = _TEXT[key] = (
                f"Set-up: {name}{' (mixed Citizen stacks)' if mixed else ''}. Monsters, left to right: "
                + ", ".join(AREAS[a] for a in areas) + ". Citizens: "
                + ", ".join(self._cit_stack_name(p) for p in range(N_CIT_POS)) + ". ")
        self.emit("setup", None, text + f"{SEAT[self.first]} is the first player.",
                  {"setup": setup, "areas": [AREAS[a] for a in areas], "first": self.first})
        for s in range(n):
            self.emit("dukes-dealt", s, f"{SEAT[s]} is dealt "
                      + " and ".join(DUKE_NAME[d] for d in self.offers[s]) + ".",
                      {"dukes": [DUKE_NAME[d] for d in self.offers[s]]}, visible=(s,))

    @property
    def solo(self) -> bool:
        """True in the solo game (R12)."""
        return self.players == 1

    def _cit_stack_name(self, p: int) -> str:
        types = SLOT_TYPES[p]
        if self.options["citizens"] == "mixed" and len(types) > 1:
            return "/".join(CIT_NAME[t] for t in types)
        return CIT_NAME[self.cit_types[p]]

    @property
    def resting(self) -> int:
        """The seat holding the Rest token (5 players: right of the Active player, R11.5); else -1."""
        if self.players == 5 and self.phase != P_DUKES:
            return (self.active - 1) % 5
        return -1

    @property
    def payouts_resting(self) -> int:
        """The seat that rested in the Harvest whose ``payouts`` are kept (5 players), else -1.

        From a roll until that turn's Harvest ends, ``payouts`` are still the previous turn's,
        whose Active player sat to the right of this one: then not ``resting`` but the seat to
        its right rested.
        """
        if self.players != 5 or not self.payouts:
            return -1
        pending = any(t[0] == K_HEND for t in self.tasks)
        return (self.active - (2 if pending else 1)) % 5

    # ------------------------------------------------------------ protocol
    @property
    def to_move(self) -> tuple:
        phase = self.phase
        if P_DUKES < phase < P_OVER:
            return ONE_SEAT[self.tasks[-1][1]]
        if phase == P_OVER:
            return ()
        return tuple(s for s, d in enumerate(self.dukes) if d < 0)

    @property
    def is_over(self) -> bool:
        return self.phase == P_OVER

    def public_vp(self, seat: int) -> int:
        """VP everyone can see: slain Monsters, built Domains and VP tokens (R8.4 1-3)."""
        return (sum(MON_VP[m] for m in self.victory[seat]) + sum(DOM_VP[d] for d in self.doms[seat])
                + self.res[seat * 4 + 3])

    def duke_vp(self, seat: int, duke: int | None = None) -> int:
        """VP the seat's Duke (or ``duke``) scores now (R8.4 4, R8.5)."""
        duke = self.dukes[seat] if duke is None else duke
        if duke < 0:
            return 0
        b = seat * 4
        res = self.res
        citizens = [self.own[seat * NT + t] for t in range(N_CIT)]
        return duke_score(duke, res[b], res[b + 1], res[b + 2], citizens, self.doms[seat], self.victory[seat])

    def score(self, seat: int) -> int:
        """The seat's total: public VP plus its Duke (R8.4)."""
        return self.public_vp(seat) + self.duke_vp(seat)

    @property
    def scores(self) -> list:
        """Final totals once over (Dukes included); before the end only the public VP,
        since Dukes stay secret until the game ends (R3.15)."""
        if self.phase == P_OVER:
            return [self.score(s) for s in range(self.players)]
        return [self.public_vp(s) for s in range(self.players)]

    def _visible_scores(self, seat: int | None) -> list:
        """VP per seat as ``seat`` may count them (R8.4; None: a spectator): everyone's public VP,
        plus ``seat``'s own Duke, which only it has seen (R3.15)."""
        return [self.public_vp(s) + (self.duke_vp(s) if s == seat else 0) for s in range(self.players)]

    def dark_lord_score(self) -> int:
        """Solo: surviving Monster VP + captured Domain VP + the Dark Lord Duke on them (R12.18)."""
        if self.dark_lord < 0:
            return 0
        survivors = [m for p in range(N_MON_POS) for m in self.stacks[p]]
        citizens = [0] * N_CIT
        for t in self.cap_cit:
            citizens[t] += 1
        vp = sum(MON_VP[m] for m in survivors) + sum(DOM_VP[d] for d in self.cap_dom)
        return vp + duke_score(self.dark_lord, 0, 0, 0, citizens, self.cap_dom, survivors)

    def tableau_size(self, seat: int) -> int:
        """Cards in the seat's tableau: Starters, Citizens, Domains, slain Monsters (R8.6)."""
        return sum(self.own[seat * NT:(seat + 1) * NT]) + len(self.doms[seat]) + len(self.victory[seat])

    @property
    def winners(self) -> tuple:
        """Highest total, then fewest tableau cards, still tied: shared (R8.6, A8). Solo: (0,) on a win."""
        if self.phase != P_OVER:
            return ()
        if self.solo:
            return (0,) if self.result == "win" else ()
        keys = [(self.score(s), -self.tableau_size(s)) for s in range(self.players)]
        best = max(keys)
        return tuple(s for s, k in enumerate(keys) if k == best)

    # ------------------------------------------------------------ counting helpers
    def count(self, seat: int, kind: int, arg: int) -> int:
        """A count for ``per`` steps at resolution time (R5.14)."""
        own = self.own
        base = seat * NT
        if kind == C_ROLE:
            return sum(own[base + t] for t in ROLE_TYPES[arg])
        if kind == C_NAME:
            return sum(own[base + t] for t in NAME_TYPES[arg])
        if kind == C_DOMAINS:
            return len(self.doms[seat])
        n = 0
        for m in self.victory[seat]:
            if MON_AREA[m] == arg:
                n += 1
        return n

    def roles(self, seat: int) -> list:
        """Citizens of each Role the seat owns (Worker, Soldier, Shadow, Holy); Starters have none."""
        own = self.own
        w, so, sh, h = ROLE_GET[seat]
        return [sum(w(own)), sum(so(own)), sum(sh(own)), sum(h(own))]

    def recruit_cost(self, seat: int, t: int) -> int:
        """Base cost + 1 per same-name card owned, Starters included (R6.6), unless a Domain waives it."""
        for d in self.doms[seat]:
            if DOM_NO_SURCHARGE[d]:
                return CIT_COST[t]
        own = self.own
        base = seat * NT
        cost = CIT_COST[t] + own[base + t]
        for u in SAME_NAME[t]:
            cost += own[base + u]
        return cost

    def build_cost(self, seat: int, d: int) -> int:
        """The Domain's Gold cost less the seat's Domain discounts, never below 0 (R6.11, R6.18)."""
        cost = DOM_COST[d]
        for x in self.doms[seat]:
            cost -= DOM_DISCOUNT[x]
        return cost if cost > 0 else 0

    def can_build(self, seat: int, d: int, roles: list | None = None) -> bool:
        """True if the seat owns the Citizens the Domain's Role icons require (R6.10)."""
        req = DOM_REQ[d]
        roles = self.roles(seat) if roles is None else roles
        return roles[0] >= req[0] and roles[1] >= req[1] and roles[2] >= req[2] and roles[3] >= req[3]

    def slay_range(self, seat: int, m: int) -> tuple | None:
        """(lo, hi) Strength tokens the seat may pay for Monster ``m``, or None (R6.2, R6.3).

        Paying ``s`` Strength costs ``magic + strength - s`` Magic on top.
        """
        b = seat * 4
        have_s, have_m = self.res[b + 1], self.res[b + 2]
        need, mc = MON_STR[m], MON_MAG[m]
        if have_m < mc:
            return None
        lo = need - (have_m - mc)
        if lo < 1:
            lo = 1
        hi = have_s if have_s < need else need
        return (lo, hi) if hi >= lo else None

    def gold_range(self, seat: int, cost: int) -> tuple | None:
        """(lo, hi) Gold tokens the seat may pay for a Gold cost, Magic making up the rest (R4.6)."""
        if cost <= 0:
            return (0, 0)
        b = seat * 4
        have_g, have_m = self.res[b], self.res[b + 2]
        lo = cost - have_m
        if lo < 1:
            lo = 1
        hi = have_g if have_g < cost else cost
        return (lo, hi) if hi >= lo else None

    def exhausted_count(self) -> int:
        """Center Stack positions holding an Exhausted card (R7.2)."""
        return self.exhausted.bit_count()

    # ------------------------------------------------------------ the task loop
    def _run(self) -> None:
        """Do tasks until one waits for a decision or the game ends."""
        tasks = self.tasks
        while tasks:
            t = tasks[-1]
            if not _RUNNERS[t[0]](self, t):
                return

    def _push_effect(self, seat: int, effect: tuple, src: int) -> None:
        tasks = self.tasks
        for sid in reversed(effect):
            tasks.append((K_STEP, seat, sid, src))

    def _trigger(self, seat: int, when: int) -> None:
        """Push the effects of the seat's Domains with this trigger (the owner orders them, R6.16)."""
        for d in self.doms[seat]:
            if DOM_WHEN[d] == when:
                self._push_effect(seat, DOM_EFFECT[d], SRC_DOM + d)

    def _gain(self, seat: int, g: int, s: int, m: int, vp: int) -> None:
        res = self.res
        b = seat * 4
        res[b] += g
        res[b + 1] += s
        res[b + 2] += m
        res[b + 3] += vp

    # ---- Roll Phase
    def _start_turn(self, seat: int) -> None:
        self.active = seat
        turn = self.turn = self.turn + 1
        self.roll_used = 0
        self.phase = P_ROLL
        a, b = self.roll_many(DIE, 2)
        self.dice = (a, b)
        n = self.players
        tasks = self.tasks
        tasks[:] = TURN_TASKS[(seat, n == 1)]
        doms = self.doms[seat]
        if not doms or ROLL_DOMS.isdisjoint(doms):
            tasks.pop()  # no die-changing Domain: the dice are final at once (R5.6)
        if self.LOG:
            if n == 5:
                text = f"Turn {turn}: {SEAT[seat]} rolls {a} and {b} ({SEAT[(seat - 1) % 5]} rests)."
            else:
                text = f"Turn {turn}: {SEAT[seat]} rolls {a} and {b}."
            self.emit("roll", seat, text, {"dice": [a, b], "turn": turn})
        if a == b:
            self._doubles()

    def _doubles(self) -> None:
        """Doubles shown in a Roll Phase: every owner of a doubles Domain triggers (C-GE)."""
        for s in range(self.players):
            self._trigger(s, W_DOUBLES)

    def _roll_options(self, seat: int) -> list:
        """The die changes the Active player may still make this Roll Phase (R5.5)."""
        out = []
        b = seat * 4
        gold = self.res[b]
        for d in self.doms[seat]:
            if DOM_WHEN[d] != W_ROLL or self.roll_used >> d & 1:
                continue
            set_to, lower, pay, per = DOM_ROLL[d]
            times = self.count(seat, *per) if per else 1
            cost = pay[0] * times
            if cost > gold or pay[1] * times > self.res[b + 1] or pay[2] * times > self.res[b + 2]:
                continue
            for i in (0, 1):
                v = self.dice[i]
                new = set_to if set_to else v - lower
                if new < 1 or new == v:
                    continue
                key = ("die", d, i, v, new, times)
                a = _CACHE.get(key)
                if a is None:
                    paid = amount_text(tuple(x * times for x in pay))
                    a = _CACHE[key] = Action(
                        f"die:{DOM_SLUG[d]}:{i + 1}",
                        f"{DOM_NAME[d]}: change die {i + 1} from {v} to {new}"
                        + (f" (pay {paid})" if paid != "nothing" else ""),
                        (d, i, new, tuple(x * times for x in pay)))
                out.append(a)
        return out

    def _run_roll(self, t) -> bool:
        if self._roll_options(t[1]):
            return False
        self.tasks.pop()
        return True

    def _apply_roll(self, action: Action, seat: int) -> None:
        if action is DONE_DICE:
            self.tasks.pop()
            a, b = self.dice
            if self.LOG:
                self.emit("dice", seat, f"{SEAT[seat]} announces the dice: {a} and {b}.", {"dice": [a, b]})
            return
        d, i, new, pay = action.payload
        self._gain(seat, -pay[0], -pay[1], -pay[2], 0)
        self.roll_used |= 1 << d
        dice = list(self.dice)
        old = dice[i]
        dice[i] = new
        self.dice = tuple(dice)
        if self.LOG:
            # A paid change says what was paid, as every other payment does (", paying 2 Gold").
            paying = f", paying {amount_text(pay)}" if any(pay) else ""
            self.emit("die-change", seat, f"{SEAT[seat]} uses {DOM_NAME[d]}: die {i + 1} {old} -> {new}{paying}.",
                      {"domain": DOM_NAME[d], "die": i + 1, "from": old, "to": new,
                       "paid": {w: x for w, x in zip((*RES_ID, "vp"), pay) if x}})
        if dice[0] == dice[1]:
            self._doubles()

    # ---- Harvest Phase
    def _participants(self) -> list:
        """The seats that harvest, in turn order from the Active player; not the resting one (R11.6)."""
        return list(PARTICIPANTS[self.players][self.active])

    def _run_harvest(self, t) -> bool:
        tasks = self.tasks
        tasks.pop()
        second = t[2]
        self.phase = P_HARVEST2 if second else P_HARVEST
        self.hbase = tuple(self.res)
        self.hsteals = ()
        tasks.extend(SEAT_TASKS[self.players][self.active][second])
        first_on, first_off = FIRST[self.dice]
        if first_on or first_off:
            own = self.own
            firsts = []
            for p in PARTICIPANTS[self.players][self.active]:
                on = p == self.active and not second
                base = p * NT
                for ct, k in (first_on if on else first_off):
                    if own[base + ct]:
                        firsts.extend([(p, ct, on)] * (own[base + ct] * k))
            for p, ct, on in reversed(firsts):
                self._push_effect(p, CIT_ON[ct] if on else CIT_OFF[ct], ct)
        return True

    def _run_seat(self, t) -> bool:
        """One player's Harvest: fixed gains now, then choices, then exchanges (R5.9-R5.12)."""
        tasks = self.tasks
        tasks.pop()
        seat = t[1]
        dice = self.dice
        base = seat * NT
        counts = ACT_COUNTS[dice](self.own[base:base + NT])
        if not any(counts):
            tasks.append((K_FREE, seat))
            return True
        packed = 0
        g = s = m = vp = 0
        exch = None
        dec = None
        for (ct, k, fixed, pers, decide, exchs, first), c in compress(
                zip(ACT_SIDE[seat == self.active and not t[2]][dice], counts), counts):
            if first:
                continue
            packed += c * fixed
            if pers:
                n = c * k
                for sid in pers:
                    st = STEPS[sid]
                    x = n * self.count(seat, st[5], st[6])
                    g += x * st[1]
                    s += x * st[2]
                    m += x * st[3]
                    vp += x * st[4]
            if exchs:
                if exch is None:
                    exch = []
                for sid in exchs:
                    exch.extend((sid, ct) * (c * k))
            if decide:
                if dec is None:
                    dec = []
                for sid in decide:
                    dec.extend([(sid, ct)] * (c * k))
        if packed:
            g += packed & 0xFFFF
            s += packed >> 16 & 0xFFFF
            m += packed >> 32 & 0xFFFF
            vp += packed >> 48
        if g or s or m or vp:
            res = self.res
            b = seat * 4
            res[b] += g
            res[b + 1] += s
            res[b + 2] += m
            res[b + 3] += vp
        if exch:
            tasks.append((K_EXCH, seat, *exch))
        if dec:
            for sid, ct in reversed(dec):
                tasks.append((K_STEP, seat, sid, ct))
        return True

    def _exchange_options(self, t) -> list:
        seat = t[1]
        b = seat * 4
        res = self.res
        g, s, m = res[b], res[b + 1], res[b + 2]
        seen = []
        out = []
        for i in range(2, len(t), 2):
            key = (t[i], t[i + 1])  # (step, Citizen type): each offered once
            if key in seen:
                continue
            seen.append(key)
            pay = STEPS[key[0]][1]
            if g >= pay[0] and s >= pay[1] and m >= pay[2]:
                out.append(EXCHANGE_AT[key])
        return out

    def _run_exch(self, t) -> bool:
        if self._exchange_options(t):
            return False
        self.tasks.pop()
        return True

    def _apply_exch(self, action: Action, seat: int) -> None:
        tasks = self.tasks
        t = tasks.pop()
        if action is EXCH_DONE:
            if self.LOG:
                self.emit("harvest-skip", seat, f"{SEAT[seat]} skips the remaining trades.")
            return
        sid, ct = action.payload
        rest = list(t[2:])
        for i in range(0, len(rest), 2):
            if rest[i] == sid and rest[i + 1] == ct:
                del rest[i:i + 2]
                break
        st = STEPS[sid]
        pay, gain = st[1], st[2]
        self._gain(seat, gain[0] - pay[0], gain[1] - pay[1], gain[2] - pay[2], gain[3])
        if self.LOG:
            self.emit("exchange", seat, f"{SEAT[seat]}'s {CIT_DISPLAY[ct]}: pays {amount_text(pay)}, "
                      f"gains {amount_text(gain)}.", {"card": CIT_NAME[ct]})
        if rest:
            tasks.append((K_EXCH, seat, *rest))

    def _run_hend(self, t) -> bool:
        self.tasks.pop()
        base = self.hbase
        res = self.res
        n = self.players
        d = list(map(sub, res, base))
        self.payouts = pay = tuple(zip(d[0::4], d[1::4], d[2::4], d[3::4]))
        self.steals = steals = self.hsteals
        if not self.LOG:
            return True
        second = t[2]
        key = (second, n, self.active, pay, steals)
        text = _TEXT.get(key)
        if text is None:
            rest = self.resting
            parts = [f"{SEAT[s]} {harvest_text(s, p, steals, s == rest)}" for s, p in enumerate(pay)]
            text = f"{'Second Harvest' if second else 'Harvest'}: " + "; ".join(parts) + "."
            if len(_TEXT) > 100_000:
                _TEXT.clear()
            _TEXT[key] = text
        self.emit("harvest", None, text, {
            "payouts": [list(p) for p in pay], "second": bool(second),
            "steals": [{"from": v, "to": s, "resource": RES_ID[r], "amount": k, "card": src_name(c)}
                       for s, v, r, k, c in steals]})
        return True

    # ---- Action Phase
    def _run_astart(self, t) -> bool:
        self.tasks.pop()
        self.phase = P_ACTION
        self._trigger(t[1], W_ASTART)
        return True

    def _slay_actions(self, seat: int, out: list) -> None:
        """Append the slay actions the seat can afford (R6.1-R6.3)."""
        b = seat * 4
        st_, mg = self.res[b + 1], self.res[b + 2]
        if not st_:
            return
        stacks = self.stacks
        for p in range(N_MON_POS):
            stack = stacks[p]
            if stack:
                m = stack[-1]
                mc = MON_MAG[m]
                if mg >= mc and st_ + mg - mc >= MON_STR[m]:
                    out.append(SLAY_ACT[p * N_MON + m])

    def _action_options(self, seat: int) -> list:
        """The Action menu: Gain a Resource, and every affordable Slay, Recruit and Build (R5.16).

        The hottest path of a playout: ``_slay_actions``, ``recruit_cost``, ``build_cost``,
        ``gold_range``, ``roles`` and ``can_build`` are inlined here (tests check both against
        the rulebook's values); the actions come from tables built once.
        """
        b = seat * 4
        res = self.res
        gold = res[b]
        strength = res[b + 1]
        mg = res[b + 2]
        stacks = self.stacks
        out = list(GAIN_ACTS)
        if strength:
            # at least one real Strength; Magic stands in for the rest, on top of a Magic cost
            have = strength + mg
            for p in range(N_MON_POS):
                st = stacks[p]
                if st:
                    m = st[-1]
                    if MON_MAG[m] <= mg and MON_TOTAL[m] <= have:
                        out.append(SLAY_AT[p][m])
        money = gold + mg if gold else 0  # at least one real Gold token unless the cost is 0 (R4.6, A16)
        own = self.own
        base = seat * NT
        doms = self.doms[seat]
        surcharge = True
        discount = 0
        if doms:
            for d in doms:
                if DOM_NO_SURCHARGE[d]:
                    surcharge = False
                discount += DOM_DISCOUNT[d]
        if surcharge:
            # base cost + 1 per card of that name owned, Starters included (R6.6)
            counts = own[base:base + NT]
            counts.append(0)
            for st in stacks[CIT0:DOM0]:
                if st:
                    ct = st[-1]
                    cost = CIT_COST[ct] + counts[ct] + counts[TWIN0[ct]]
                    if cost <= money:
                        out.append(RECRUIT_AT[ct][cost])
        else:
            for st in stacks[CIT0:DOM0]:
                if st:
                    ct = st[-1]
                    cost = CIT_COST[ct]
                    if cost <= money:
                        out.append(RECRUIT_AT[ct][cost])
        money += discount  # a Domain is affordable if its cost less the discounts is (R6.11, R6.18)
        roles = False
        for p in range(DOM0, N_POS):
            st = stacks[p]
            if st:
                d = st[-1]
                if DOM_COST[d] <= money:
                    if not roles:
                        w, so, sh, h = ROLE_GET[seat]
                        r0, r1, r2, r3 = sum(w(own)), sum(so(own)), sum(sh(own)), sum(h(own))
                        roles = True
                    req = DOM_REQ[d]
                    if r0 >= req[0] and r1 >= req[1] and r2 >= req[2] and r3 >= req[3]:
                        cost = DOM_COST[d] - discount
                        out.append(BUILD_AT[p][d * 64 + (cost if cost > 0 else 0)])
        return out

    def _apply_action(self, action: Action, seat: int) -> None:
        tasks = self.tasks
        t = tasks.pop()
        left = t[2] - 1
        tasks.append((K_ADONE, seat, left))
        kind = action.id[0]
        if kind == "g":
            r = action.payload
            self.res[seat * 4 + r] += 1
            if self.LOG:
                self.emit("gain", seat, GAIN_TEXT[seat][r], {"resource": RES_ID[r]})
        elif kind == "s":
            tasks.append((K_PAY, seat, PAY_SLAY, action.payload))
        elif kind == "r":
            tasks.append((K_PAY, seat, PAY_RECRUIT, action.payload))
        else:
            tasks.append((K_PAY, seat, PAY_BUILD, action.payload))

    def _pay_options(self, t) -> list:
        """The ways to pay: most real tokens first, down to the fewest (Magic for the rest)."""
        key = (*self._pay_range(t), t[2] == PAY_SLAY)
        options = _PAY_OPTIONS.get(key)
        if options is None:
            lo, hi, total, slay = key
            options = _PAY_OPTIONS[key] = tuple(_pay_action("s" if slay else "g", x, total - x)
                                                for x in range(hi, lo - 1, -1))
        return list(options)

    def _pay_range(self, t) -> tuple:
        """(lo, hi, total) for a payment task: lo..hi real tokens, Magic making up ``total``.

        ``slay_range`` and ``gold_range`` inlined; raises ValueError if the seat cannot pay.
        """
        seat, kind, p = t[1], t[2], t[3]
        top = self.stacks[p][-1]
        res = self.res
        b = seat * 4
        have_m = res[b + 2]
        if kind == PAY_SLAY:
            need, mc = MON_STR[top], MON_MAG[top]
            have_s = res[b + 1]
            lo = need - (have_m - mc)
            if lo < 1:
                lo = 1
            hi = have_s if have_s < need else need
            if have_m < mc or hi < lo:
                raise ValueError(f"{SEAT[seat]} cannot pay for the {MON_NAME[top]}")
            return lo, hi, need + mc
        cost = self.recruit_cost(seat, top) if kind == PAY_RECRUIT else self.build_cost(seat, top)
        if cost <= 0:
            return 0, 0, cost
        have_g = res[b]
        lo = cost - have_m
        if lo < 1:
            lo = 1
        hi = have_g if have_g < cost else cost
        if hi < lo:
            raise ValueError(f"{SEAT[seat]} cannot pay {cost} Gold")
        return lo, hi, cost

    def _run_pay(self, t) -> bool:
        lo, hi, total = self._pay_range(t)
        if hi > lo:
            return False
        self._do_pay(t, (hi, total - hi))
        return True

    def _apply_pay(self, action: Action, seat: int) -> None:
        self._do_pay(self.tasks[-1], action.payload)

    def _do_pay(self, t, payload) -> None:
        self.tasks.pop()
        seat, kind, p = t[1], t[2], t[3]
        x, mag = payload
        res = self.res
        b = seat * 4
        res[b + 2] -= mag
        if kind == PAY_SLAY:
            res[b + 1] -= x
            self._slay(seat, p, pay_text(x, mag, "Strength"))
        elif kind == PAY_RECRUIT:
            res[b] -= x
            if self.LOG:
                ct = self.stacks[p][-1]
                key = ("recruit", seat, ct, x, mag)
                text = _TEXT.get(key)
                if text is None:
                    text = _TEXT[key] = (f"{SEAT[seat]} recruits {article(CIT_NAME[ct])}, paying "
                                         f"{pay_text(x, mag, 'Gold')}.")
                self.emit("recruit", seat, text, {"citizen": CIT_NAME[ct]})
            self._gain_citizen(seat, p)
        else:
            res[b] -= x
            self._build(seat, p, pay_text(x, mag, "Gold"))

    def _slay(self, seat: int, p: int, paid: str) -> None:
        """Move the top Monster of position ``p`` to the seat's Victory stack; reward at once (R6.4, R6.5)."""
        st = self.stacks[p]
        m = st[-1]
        self.stacks[p] = st[:-1]
        self.victory[seat] = self.victory[seat] + (m,)
        self.last = (seat, LAST_SLAY, p, m)
        if self.LOG:
            self.emit("slay", seat, f"{SEAT[seat]} slays the {MON_NAME[m]}, paying {paid}.",
                      {"monster": MON_NAME[m], "area": AREAS[MON_AREA[m]]})
        self._push_effect(seat, MON_REWARD[m], SRC_MON + m)
        if self.phase == P_ACTION and seat == self.active:
            self._trigger(seat, W_SLAY)

    def _gain_citizen(self, seat: int, p: int) -> None:
        """Take the top Citizen of position ``p`` into the seat's tableau (R6.7)."""
        st = self.stacks[p]
        ct = st[-1]
        self.stacks[p] = st[:-1]
        i = p - CIT0
        if self.cit_down[i] > len(st) - 2:
            self.cit_down[i] = max(0, len(st) - 2)
        self.own[seat * NT + ct] += 1
        self.last = (seat, LAST_CITIZEN, p, ct)
        if self.phase == P_ACTION and seat == self.active:
            self._trigger(seat, W_GAINCIT)

    def _build(self, seat: int, p: int, paid: str) -> None:
        """Build the top Domain of position ``p``; reveal the next; apply its power (R6.12-R6.14)."""
        st = self.stacks[p]
        d = st[-1]
        self.stacks[p] = st[:-1]
        self.doms[seat] = self.doms[seat] + (d,)
        self.last = (seat, LAST_BUILD, p, d)
        reveal = f" {DOM_NAME[st[-2]]} is revealed." if len(st) > 1 else ""
        if self.LOG:
            self.emit("build", seat, f"{SEAT[seat]} builds {DOM_NAME[d]}, paying {paid}.{reveal}",
                      {"domain": DOM_NAME[d], "revealed": DOM_NAME[st[-2]] if len(st) > 1 else None})
        if DOM_WHEN[d] == W_BUILD:
            self._push_effect(seat, DOM_EFFECT[d], SRC_DOM + d)

    def _place_exhausted(self) -> None:
        """Put an Exhausted card on every empty position without one (R7.1)."""
        stacks = self.stacks
        if all(stacks):
            return
        p = -1
        while () in stacks[p + 1:]:
            p = stacks.index((), p + 1)
            if not self.exhausted >> p & 1:
                self.exhausted |= 1 << p
                if self.LOG:
                    self.emit("exhausted", None, f"The {self.position_name(p)} stack is Exhausted "
                              f"({self.exhausted_count()} Exhausted).", {"position": p})

    def position_name(self, p: int) -> str:
        """Words for a Center Stack position."""
        if p < CIT0:
            return f"{AREAS[self.areas[p]]} Monster"
        if p < DOM0:
            return f"{self._cit_stack_name(p - CIT0)} Citizen"
        return f"Domain {p - DOM0 + 1}"

    def _run_adone(self, t) -> bool:
        tasks = self.tasks
        tasks.pop()
        self._place_exhausted()
        if self.players == 1 and self._solo_end_check():
            return False
        if t[2] > 0:
            tasks.append((K_ACTION, t[1], t[2]))
        return True

    def _run_aend(self, t) -> bool:
        self.tasks.pop()
        self._trigger(t[1], W_AEND)
        return True

    # ---- generic steps
    def _citizen_options(self, st) -> list:
        """Positions whose top Citizen a take_citizen step allows (R9.5)."""
        _, max_cost, role, namekey = st
        out = []
        stacks = self.stacks
        for p in range(CIT0, DOM0):
            s = stacks[p]
            if s:
                ct = s[-1]
                if CIT_COST[ct] <= max_cost and (role < 0 or CIT_ROLE[ct] == role) \
                        and (namekey < 0 or CIT_NAMEKEY[ct] == namekey):
                    out.append(p)
        return out

    def _choose_available(self, st) -> list:
        """Indices of the options of a choose step that can be offered (R9.5, C-BS)."""
        out = []
        for i, option in enumerate(st[1]):
            first = STEPS[option[0]]
            if first[0] == TAKE_CIT and not self._citizen_options(first):
                continue
            out.append(i)
        return out

    def _steal_targets(self, seat: int) -> list:
        if self.solo:
            return [BANK]
        n = self.players
        return [(seat + i) % n for i in range(1, n)]

    def _steal_options(self, seat: int, st) -> list:
        """(target, resource, amount) triples for a steal step; None = take nothing."""
        _, take, amount, up_to, optional = st
        out = []
        for tgt in self._steal_targets(seat):
            for r in take:
                have = amount if tgt == BANK else self.res[tgt * 4 + r]
                n = amount if have > amount else have
                if up_to:
                    out.extend((tgt, r, k) for k in range(n, 0, -1))
                else:
                    out.append((tgt, r, n))
        if up_to or optional:
            out.append(None)
        return out

    def _return_options(self, seat: int, st) -> list:
        if st[1] == RET_MONSTER:
            return sorted(set(self.victory[seat]))
        own = self.own
        return [t for t in range(N_CIT) if own[seat * NT + t]]

    def _step_actions(self, t) -> list:
        """The choices a waiting step offers (empty: it resolves by itself)."""
        seat, sid, src = t[1], t[2], t[3]
        st = STEPS[sid]
        op = st[0]
        who = src_name(src)
        if op == CHOOSE:
            out = []
            for i in self._choose_available(st):
                option = st[1][i]
                x = -1
                if len(option) == 1 and STEPS[option[0]][0] == PER:
                    ps = STEPS[option[0]]
                    x = self.count(seat, ps[5], ps[6])
                key = ("choose", sid, src, i, x)
                a = _CACHE.get(key)
                if a is None:
                    extra = f" = {amount_text(tuple(v * x for v in STEPS[option[0]][1:5]))} now" if x >= 0 else ""
                    a = _CACHE[key] = Action(f"choose:{i + 1}", f"{who}: {effect_text(option)}{extra}", i)
                out.append(a)
            return out
        if op == EXCHANGE:
            pay = st[1]
            b = seat * 4
            if self.res[b] >= pay[0] and self.res[b + 1] >= pay[1] and self.res[b + 2] >= pay[2]:
                return [Action("exchange:accept", f"{who}: pay {amount_text(pay)} to gain {amount_text(st[2])}"),
                        DECLINE]
            return []
        if op == STEAL:
            out = []
            for opt in self._steal_options(seat, st):
                if opt is None:
                    out.append(STEAL_NONE)
                    continue
                tgt, r, k = opt
                have = -1 if tgt == BANK else self.res[tgt * 4 + r]
                key = ("steal", src, tgt, r, k, have)
                a = _CACHE.get(key)
                if a is None:
                    if tgt == BANK:
                        a = Action(f"steal:the-bank:{RES_ID[r]}:{k}",
                                   f"{who}: take {k} {RESOURCE_WORD[r]} from the Bank", opt)
                    else:
                        a = Action(f"steal:p{tgt + 1}:{RES_ID[r]}:{k}",
                                   f"{who}: take {k} {RESOURCE_WORD[r]} from {SEAT[tgt]} (has {have})", opt)
                    a = _CACHE[key] = a
                out.append(a)
            return out
        if op == TAKE_CIT:
            out = []
            stacks = self.stacks
            for p in self._citizen_options(st):
                ct = stacks[p][-1]
                key = ("take", src, p, ct)
                a = _CACHE.get(key)
                if a is None:
                    a = _CACHE[key] = Action(f"take:{CIT_SLUG[ct]}", f"{who}: take {article(CIT_NAME[ct])} free", p)
                out.append(a)
            return out
        if op == SLAY:
            out = []
            self._slay_actions(seat, out)
            if out:
                out.append(Action("decline", f"{who}: do not slay a Monster"))
            return out
        if op == RETURN:
            opts = self._return_options(seat, st)
            if not opts:
                return []
            if st[1] == RET_MONSTER:
                out = [Action(f"return:{MON_SLUG[m]}", f"{who}: return {article(MON_NAME[m])} to the "
                              f"{AREAS[MON_AREA[m]]} stack for {amount_text(st[2])}", m) for m in opts]
            else:
                out = [Action(f"return:{CIT_SLUG[c]}", f"{who}: return {article(CIT_NAME[c])} to its "
                              f"stack for {amount_text(st[2])}", c) for c in opts]
            out.append(Action("decline", f"{who}: return nothing"))
            return out
        if op == STEAL_MON:
            if self.solo:
                return []
            return [Action(f"target:p{tgt + 1}", f"{who}: take a random Monster from {SEAT[tgt]} "
                           f"({len(self.victory[tgt])} in their Victory stack)", tgt)
                    for tgt in self._steal_targets(seat)]
        return []

    def _run_step(self, t) -> bool:
        seat, sid, src = t[1], t[2], t[3]
        st = STEPS[sid]
        op = st[0]
        if op == GAIN:
            self.tasks.pop()
            res = self.res
            b = seat * 4
            res[b] += st[1]
            res[b + 1] += st[2]
            res[b + 2] += st[3]
            res[b + 3] += st[4]
            if src >= SRC_MON and self.LOG:
                key = ("gain", seat, sid, src)
                text = _TEXT.get(key)
                if text is None:
                    text = _TEXT[key] = f"{SEAT[seat]} takes {amount_text(st[1:5])} ({src_name(src)})."
                self.emit("gain", seat, text)
            return True
        if op == PER:
            self.tasks.pop()
            x = self.count(seat, st[5], st[6])
            self._gain(seat, x * st[1], x * st[2], x * st[3], x * st[4])
            if src >= SRC_MON:
                if self.LOG:
                    self.emit("gain", seat, f"{SEAT[seat]} takes {amount_text(tuple(x * v for v in st[1:5]))} "
                              f"({src_name(src)}: {step_text(sid)}).")
            return True
        acts = self._step_actions(t)
        if len(acts) > 1:
            return False
        if op == STEAL_MON and self.solo:
            self.tasks.pop()
            self._steal_monster_solo(seat, src)
            return True
        if not acts:
            self.tasks.pop()
            return True
        if op in (EXCHANGE, SLAY, RETURN):
            return False  # a lone "may" option is still the owner's choice (with decline)
        self._apply_step(acts[0], seat)
        return True

    def _apply_step(self, action: Action, seat: int) -> None:
        tasks = self.tasks
        t = tasks.pop()
        sid, src = t[2], t[3]
        st = STEPS[sid]
        op = st[0]
        who = src_name(src)
        aid = action.id
        if aid == "decline" or action is STEAL_NONE:
            if self.LOG:
                self.emit("decline", seat, f"{SEAT[seat]} declines ({who}).")
            return
        if op == CHOOSE:
            option = st[1][action.payload]
            if src < SRC_MON or STEPS[option[0]][0] not in (GAIN, PER):
                # a Monster's or Domain's gain says what was taken itself
                if self.LOG:
                    self.emit("choose", seat, f"{SEAT[seat]} chooses {effect_text(option)} ({who}).")
            self._push_effect(seat, option, src)
        elif op == EXCHANGE:
            pay, gain = st[1], st[2]
            self._gain(seat, gain[0] - pay[0], gain[1] - pay[1], gain[2] - pay[2], gain[3])
            if self.LOG:
                self.emit("exchange", seat, f"{SEAT[seat]} pays {amount_text(pay)} and gains "
                          f"{amount_text(gain)} ({who}).")
        elif op == STEAL:
            tgt, r, k = action.payload
            self.res[seat * 4 + r] += k
            if tgt != BANK:
                self.res[tgt * 4 + r] -= k
            if tgt != BANK and k and self.phase in (P_HARVEST, P_HARVEST2):
                self.hsteals += ((seat, tgt, r, k, src),)  # for the Harvest summary
            frm = "the Bank" if tgt == BANK else SEAT[tgt]
            if self.LOG:
                self.emit("steal", seat, f"{SEAT[seat]} takes {k} {RESOURCE_WORD[r]} from {frm} ({who}).",
                          {"from": None if tgt == BANK else tgt, "resource": RES_ID[r], "amount": k})
        elif op == TAKE_CIT:
            p = action.payload
            ct = self.stacks[p][-1]
            if self.LOG:
                self.emit("take-citizen", seat, f"{SEAT[seat]} takes {article(CIT_NAME[ct])} ({who}).",
                          {"citizen": CIT_NAME[ct]})
            self._gain_citizen(seat, p)
        elif op == SLAY:
            tasks.append((K_PAY, seat, PAY_SLAY, action.payload))
        elif op == RETURN:
            self._return(seat, st, action.payload, who)
        elif op == STEAL_MON:
            tgt = action.payload
            vic = self.victory[tgt]
            if not vic:
                self.emit("steal-monster", seat, f"{SEAT[tgt]} has no Monster to take ({who}).")
                return
            i = self.randbelow(len(vic))
            m = vic[i]
            self.victory[tgt] = vic[:i] + vic[i + 1:]
            self.victory[seat] = self.victory[seat] + (m,)
            self.emit("steal-monster", seat, f"{SEAT[seat]} takes {SEAT[tgt]}'s {MON_NAME[m]} "
                      f"at random ({who}).", {"from": tgt, "monster": MON_NAME[m]})

    def _steal_monster_solo(self, seat: int, src: int) -> None:
        """Solo: the top Monster of the leftmost non-empty Monster stack, no reward (R12.6)."""
        for p in range(N_MON_POS):
            st = self.stacks[p]
            if st:
                m = st[-1]
                self.stacks[p] = st[:-1]
                self.victory[seat] = self.victory[seat] + (m,)
                self.emit("steal-monster", seat, f"{SEAT[seat]} takes the {MON_NAME[m]} from the "
                          f"{AREAS[MON_AREA[m]]} stack ({src_name(src)}).", {"monster": MON_NAME[m]})
                return

    def _return(self, seat: int, st, card: int, who: str) -> None:
        """Return a Monster or Citizen on top of its stack, taking back its Exhausted card (C-WW, C-NW)."""
        if st[1] == RET_MONSTER:
            vic = list(self.victory[seat])
            i = len(vic) - 1 - vic[::-1].index(card)
            del vic[i]
            self.victory[seat] = tuple(vic)
            p = self.areas.index(MON_AREA[card])
            name = MON_NAME[card]
        else:
            self.own[seat * NT + card] -= 1
            p = CIT0 + CIT_POSITION[card]
            name = CIT_NAME[card]
        self.stacks[p] = self.stacks[p] + (card,)
        back = ""
        if self.exhausted >> p & 1:
            self.exhausted &= ~(1 << p)
            back = " Its Exhausted card goes back to the supply."
        self._gain(seat, *st[2])
        self.emit("return", seat, f"{SEAT[seat]} returns {article(name)} to the {self.position_name(p)} stack "
                  f"and takes {amount_text(st[2])} ({who}).{back}", {"card": name, "position": p})

    # ---- free resource
    def _apply_free(self, action: Action, seat: int) -> None:
        self.tasks.pop()
        r = action.payload
        self.res[seat * 4 + r] += 1
        if self.LOG:
            self.emit("free", seat, f"Nothing activated for {SEAT[seat]}: takes 1 {RESOURCE_WORD[r]}.")

    # ---- solo Monsters phase (R12.7-R12.12)
    def _run_monsters(self, t) -> bool:
        tasks = self.tasks
        tasks.pop()
        self.phase = P_MONSTERS
        attacks = []
        for v in self.dice:
            if v == 6:
                attacks.append((K_ATTACK, t[1], -1))
            elif self.stacks[v - 1]:
                attacks.append((K_ATTACK, t[1], v - 1))
            else:
                self.emit("no-attack", None, f"The die {v} points at an Exhausted Monster stack: no attack.")
        tasks.extend(reversed(attacks))
        return True

    def _attack_actions(self, t) -> list:
        col = t[2]
        if col < 0:
            return [Action(f"attack:{AREA_SLUG[self.areas[p]]}",
                           f"The 6 activates the {AREAS[self.areas[p]]} stack", p)
                    for p in range(N_MON_POS) if self.stacks[p]]
        return [Action(f"capture:{CIT_SLUG[self.stacks[p][-1]]}",
                       f"The Dark Lord captures the top {CIT_NAME[self.stacks[p][-1]]}", p)
                for p in (CIT0 + col, CIT0 + 5 + col) if self.stacks[p]]

    def _run_attack(self, t) -> bool:
        acts = self._attack_actions(t)
        if len(acts) > 1:
            return False
        if acts:
            self._apply_attack(acts[0], t[1])
            return not self.phase == P_OVER
        tasks = self.tasks
        tasks.pop()
        col = t[2]
        if col < 0:
            return True  # no Monster left (the game is already won)
        p = DOM0 + col
        st = self.stacks[p]
        if not st:
            self.emit("attack", None, f"The {AREAS[self.areas[col]]} Monsters attack column {col + 1}, "
                      "which has no card left: the Dark Lord wins.")
            self._game_over("loss")
            return False
        d = st[-1]
        self.stacks[p] = st[:-1]
        self.cap_dom = self.cap_dom + (d,)
        self.last = (BANK, LAST_CAPTURE, p, d)
        reveal = f" {DOM_NAME[st[-2]]} is revealed." if len(st) > 1 else ""
        self.emit("capture", None, f"The {AREAS[self.areas[col]]} Monsters attack column {col + 1}: "
                  f"the Dark Lord captures {DOM_NAME[d]}.{reveal}", {"domain": DOM_NAME[d]})
        return self._after_attack()

    def _apply_attack(self, action: Action, seat: int) -> None:
        tasks = self.tasks
        t = tasks.pop()
        p = action.payload
        if t[2] < 0:
            self.emit("attack-choice", seat, f"The 6 activates the {AREAS[self.areas[p]]} stack.")
            tasks.append((K_ATTACK, seat, p))
            return
        ct = self.stacks[p][-1]
        st = self.stacks[p]
        self.stacks[p] = st[:-1]
        i = p - CIT0
        if self.cit_down[i] > len(st) - 2:
            self.cit_down[i] = max(0, len(st) - 2)
        self.cap_cit = self.cap_cit + (ct,)
        self.last = (BANK, LAST_CAPTURE, p, ct)
        col = t[2]
        self.emit("capture", None, f"The {AREAS[self.areas[col]]} Monsters attack column {col + 1}: "
                  f"the Dark Lord captures {article(CIT_NAME[ct])}.", {"citizen": CIT_NAME[ct]})
        self._after_attack()

    def _after_attack(self) -> bool:
        self._place_exhausted()
        return not self._solo_end_check()

    # ---- End Phase and game end (R8, R12.16)
    def _solo_end_check(self) -> bool:
        """Solo: end at once when all Monsters are slain (a win) or 5 stacks are Exhausted (R12.16)."""
        if not any(self.stacks[p] for p in range(N_MON_POS)):
            self.emit("end", None, "Every Monster has been slain: you win.")
            self._game_over("win")
            return True
        if self.exhausted_count() >= RULES.solo_exhausted_end:
            me, lord = self.score(0), self.dark_lord_score()
            outcome = "win" if me > lord else "loss"
            self.emit("end", None, f"{RULES.solo_exhausted_end} stacks are Exhausted: you score {me}, the "
                      f"Dark Lord {lord}: {'you win' if outcome == 'win' else 'the Dark Lord wins'}.")
            self._game_over(outcome)
            return True
        return False

    def end_triggered(self) -> bool:
        """Any end condition holds now: Monsters all slain, Domains all built, 2 x players Exhausted (R8.1)."""
        stacks = self.stacks
        if not any(stacks[:N_MON_POS]):
            return True
        if not any(stacks[DOM0:N_POS]):
            return True
        return self.exhausted.bit_count() >= EXHAUSTED_PER_PLAYER * self.players

    def ends_in_end_phase(self, seat: int) -> bool:
        """True if the End Phase of ``seat``'s turn, were it now, would end the game.

        Multi-player: the last player of the round with an end condition met (R8.1-R8.3);
        solo: every Monster slain or enough stacks Exhausted (R12.16).
        """
        if self.solo:
            return not any(self.stacks[:N_MON_POS]) or self.exhausted.bit_count() >= RULES.solo_exhausted_end
        return seat == (self.first - 1) % self.players and self.end_triggered()

    def _run_end(self, t) -> bool:
        self.tasks.pop()
        self.phase = P_END
        seat = t[1]
        if self.solo:
            if self._solo_end_check():
                return False
        elif self.ends_in_end_phase(seat):
            self._game_over("end")
            return False
        self._start_turn((seat + 1) % self.players)
        return True

    def _game_over(self, result: str) -> None:
        self.tasks.clear()
        self.phase = P_OVER
        self.result = result
        if not self.LOG:
            return
        if self.solo:
            scores = self.scores
            winners = self.winners
            text = (f"Game over: you score {scores[0]}, the Dark Lord ({DUKE_NAME[self.dark_lord]}) "
                    f"{self.dark_lord_score()}. {'You win!' if result == 'win' else 'The Dark Lord wins.'}")
        else:
            # ``scores`` and ``winners`` computed once (the properties would score every Duke twice)
            seats = range(self.players)
            duke_vp = [self.duke_vp(s) for s in seats]
            scores = [self.public_vp(s) + duke_vp[s] for s in seats]
            keys = [(scores[s], -self.tableau_size(s)) for s in seats]
            best = max(keys)
            winners = tuple(s for s, k in enumerate(keys) if k == best)
            text = "Game over. Dukes: " + ", ".join(
                f"{SEAT[s]} {DUKE_NAME[self.dukes[s]]} ({duke_vp[s]} VP)" for s in seats)
            text += ". Scores: " + ", ".join(f"{SEAT[s]} {v}" for s, v in enumerate(scores))
            text += ". Winner: " + ", ".join(SEAT[s] for s in winners) + "."
        self.emit("game-over", None, text, {"scores": scores, "winners": list(winners),
                                            "dukes": [DUKE_NAME[d] for d in self.dukes]})

    # ------------------------------------------------------------ decisions
    def _decision(self, seat: int):
        """What ``seat`` must decide now, in the rulebook's words (None if not to move)."""
        if seat not in self.to_move:
            return None
        if self.phase == P_DUKES:
            return Decision(seat, "choose-duke", "Keep one of your two Dukes; it stays secret until the end.",
                            "Your Duke scores at the end of the game (R3.14, R8.4).")
        t = self.tasks[-1]
        k = t[0]
        if k == K_ROLL:
            a, b = self.dice
            return Decision(seat, "roll", f"The dice show {a} and {b}: change a die with a Domain, or "
                            "announce the final dice.",
                            "Each of your die-changing Domains may be used once per Roll Phase (R5.5).")
        if k == K_ACTION:
            n = t[2]
            return Decision(seat, "action", f"Choose an Action ({n} left this turn).",
                            "Slay a Monster, Recruit a Citizen, Gain a Resource or Build a Domain (R5.16). "
                            "Magic may stand in for Strength or Gold, with at least one real token (R4.6).")
        if k == K_PAY:
            top = self.stacks[t[3]][-1]
            lo, hi, total = self._pay_range(t)
            if t[2] == PAY_SLAY:
                cost = f"{MON_STR[top]} Strength" + (f" + {MON_MAG[top]} Magic" if MON_MAG[top] else "")
                what = f"slay the {MON_NAME[top]} ({cost})"
            elif t[2] == PAY_RECRUIT:
                what = f"recruit {article(CIT_NAME[top])} ({total} Gold)"
            else:
                what = f"build {DOM_NAME[top]} ({total} Gold)"
            return Decision(seat, "pay", f"How do you pay to {what}?",
                            "Magic stands in for Strength or Gold one for one; at least one real token "
                            "must be paid; a Monster's Magic cost comes on top (R6.2, R6.3).")
        if k == K_EXCH:
            return Decision(seat, "harvest-exchange", "Harvest: use a trade power, or finish.",
                            "You may use your activated trade powers in any order, or skip them (R5.11).")
        if k == K_FREE:
            which = "Second Harvest: n" if self.phase == P_HARVEST2 else "N"
            return Decision(seat, "free-resource", f"{which}one of your cards activated: take 1 resource.",
                            "A player whose cards did not activate takes any 1 resource (R5.12).")
        if k == K_ATTACK:
            if t[2] < 0:
                return Decision(seat, "monster-six", "A 6: choose the Monster stack that attacks.",
                                "A die showing 6 activates a Monster stack of your choice (R12.9).")
            return Decision(seat, "capture", f"The {AREAS[self.areas[t[2]]]} Monsters attack column {t[2] + 1}: "
                            "choose the Citizen the Dark Lord captures.",
                            "An activated Monster stack takes the top card of one of the two Citizen stacks "
                            "of its column, your choice (R12.12).")
        st = STEPS[t[2]]
        who = src_name(t[3])
        prompts = {CHOOSE: f"{who}: choose one.", EXCHANGE: f"{who}: {step_text(t[2])}?",
                   STEAL: f"{who}: {step_text(t[2])}.", TAKE_CIT: f"{who}: {step_text(t[2])}.",
                   SLAY: f"{who}: you may slay a Monster now (part of this action).",
                   RETURN: f"{who}: {step_text(t[2])}.",
                   STEAL_MON: f"{who}: choose the player to take a random Monster from."}
        return Decision(seat, "effect", prompts.get(st[0], who), f"{who}: {step_text(t[2])}.")

    def _legal_actions(self, seat: int) -> list:
        if self.phase == P_DUKES:
            return [Action(f"duke:{DUKE_SLUG[d]}", f"Keep {DUKE_NAME[d]} ({duke_text(d)})", d)
                    for d in self.offers[seat]]
        t = self.tasks[-1]
        k = t[0]
        if k == K_ACTION:
            return self._action_options(seat)
        if k == K_PAY:
            return self._pay_options(t)
        if k == K_STEP:
            return self._step_actions(t)
        if k == K_EXCH:
            return self._exchange_options(t) + [EXCH_DONE]
        if k == K_FREE:
            return list(FREE_ACTS)
        if k == K_ROLL:
            return self._roll_options(seat) + [DONE_DICE]
        if k == K_ATTACK:
            return self._attack_actions(t)
        return []

    def _apply(self, action: Action, seat: int) -> None:
        if self.phase == P_DUKES:
            self._choose_duke(seat, action.payload)
            return
        _APPLIERS[self.tasks[-1][0]](self, action, seat)
        if self.phase != P_OVER:
            self._run()

    def _choose_duke(self, seat: int, duke: int) -> None:
        self.dukes[seat] = duke
        self.emit("duke", seat, f"{SEAT[seat]} keeps {DUKE_NAME[duke]}.", {"duke": DUKE_NAME[duke]},
                  visible=(seat,))
        others = tuple(x for x in range(self.players) if x != seat)
        if others:
            self.emit("duke-kept", seat, f"{SEAT[seat]} has chosen a Duke.", visible=others)
        if min(self.dukes) < 0:
            return
        if self.solo:
            pool = [d for d in range(len(DUKES)) if d != self.dukes[0]]
            self.dark_lord = pool[self.randbelow(len(pool))]
            self.emit("dark-lord", None, "A random Duke is placed face down above the Monsters: the Dark Lord.")
        self._start_turn(self.first)
        self._run()

    # ------------------------------------------------------------ views
    def _observation(self, seat: int | None) -> dict:
        """The table as ``seat`` sees it: no other seat's Duke before the end, no face-down card."""
        over = self.phase == P_OVER
        n = self.players
        stacks = self.stacks
        players = []
        for s in range(n):
            b = s * 4
            own = self.own[s * NT:(s + 1) * NT]
            p = {
                "gold": self.res[b], "strength": self.res[b + 1], "magic": self.res[b + 2],
                "vp_tokens": self.res[b + 3],
                "citizens": {CIT_DISPLAY[t]: c for t, c in enumerate(own) if c},
                "domains": [DOM_NAME[d] for d in self.doms[s]],
                "victory": [MON_NAME[m] for m in self.victory[s]],
                "public_vp": self.public_vp(s),
                "duke_chosen": self.dukes[s] >= 0,
                "tableau_cards": self.tableau_size(s),  # the tie-break counts them (R8.6)
            }
            if over or s == seat:
                p["duke"] = DUKE_NAME[self.dukes[s]] if self.dukes[s] >= 0 else None
                if self.dukes[s] >= 0:
                    p["duke_vp"] = self.duke_vp(s)
            if s == seat and self.phase == P_DUKES:
                p["duke_offer"] = [DUKE_NAME[d] for d in self.offers[s]]
            players.append(p)
        obs = {
            "game": self.game_id, "seat": seat, "players": n, "setup": self.options["setup"],
            "citizen_stacks": self.options["citizens"], "phase": PHASE_NAME[self.phase],
            "turn": self.turn, "active": self.active, "first_player": self.first, "resting": self.resting,
            "dice": list(self.dice),
            "monsters": [{"area": AREAS[self.areas[p]], "cards": [MON_NAME[m] for m in stacks[p]],
                          "exhausted": bool(self.exhausted >> p & 1)} for p in range(N_MON_POS)],
            "citizens": [{"slot": "-".join(map(str, CIT_SLOTS[SLOT_TYPES[i][0]])),
                          "face_down": self.cit_down[i],
                          "face_up": [CIT_NAME[t] for t in stacks[CIT0 + i][self.cit_down[i]:]],
                          "exhausted": bool(self.exhausted >> (CIT0 + i) & 1)} for i in range(N_CIT_POS)],
            "domains": [{"top": DOM_NAME[stacks[p][-1]] if stacks[p] else None,
                         "face_down": max(0, len(stacks[p]) - 1),
                         "exhausted": bool(self.exhausted >> p & 1)} for p in range(DOM0, N_POS)],
            "domains_in_box": len(self.dom_box),
            "exhausted": self.exhausted_count(),
            "player": players,
            "pending": self._pending_view(),
            "last_harvest": [list(p) for p in self.payouts],
            # what each Thief took in that Harvest, and who rested in it (5 players, R11.6)
            "last_harvest_steals": [{"thief": t, "victim": v, "resource": RES_ID[r], "amount": k,
                                     "card": src_name(src)} for t, v, r, k, src in self.steals],
            "last_harvest_resting": self.payouts_resting,
            "last_move": self._last_view(),
            "is_over": over,
            "scores": self.scores if over else None,
            "winners": list(self.winners),
        }
        if self.solo:
            obs["dark_lord"] = {
                "duke": DUKE_NAME[self.dark_lord] if over and self.dark_lord >= 0 else None,
                "captured_citizens": [CIT_NAME[t] for t in self.cap_cit],
                "captured_domains": [DOM_NAME[d] for d in self.cap_dom],
                "score": self.dark_lord_score() if over else None,
                "result": self.result or None,
            }
        return obs

    def _last_view(self):
        """The last card that left the Center Stacks: who took it, how, from where (public)."""
        if not self.last:
            return None
        seat, move, p, card = self.last
        if move == LAST_SLAY:
            name = MON_NAME[card]
        elif move == LAST_BUILD or (move == LAST_CAPTURE and p >= DOM0):
            name = DOM_NAME[card]
        else:
            name = CIT_NAME[card]
        row, index = ("monsters", p) if p < CIT0 else ("citizens", p - CIT0) if p < DOM0 else ("domains", p - DOM0)
        return {"seat": seat if seat >= 0 else None, "move": LAST_MOVE[move], "row": row, "index": index,
                "card": name}

    def _pending_view(self):
        if self.phase in (P_DUKES, P_OVER) or not self.tasks:
            return None
        t = self.tasks[-1]
        view = {"task": TASK_NAME[t[0]], "seat": t[1]}
        if t[0] == K_STEP:
            view["card"] = src_name(t[3])
            view["effect"] = step_text(t[2])
        elif t[0] == K_ACTION:
            view["actions_left"] = t[2]
        elif t[0] == K_PAY:
            # the card being paid for: its Center Stack row and column (R6.2, R6.6, R6.11)
            p = t[3]
            view["what"] = ("slay", "recruit", "build")[t[2]]
            view["row"], view["index"] = (("monsters", p) if p < CIT0 else ("citizens", p - CIT0) if p < DOM0
                                          else ("domains", p - DOM0))
        elif t[0] == K_ATTACK:
            view["column"] = t[2]  # -1: a 6, the player picks the stack (R12.9)
        return view

    def _determinize(self, seat: int) -> None:
        """Resample the face-down Domains, mixed Citizens, and the Dukes ``seat`` has not seen."""
        if self.phase == P_OVER:
            return
        stacks = self.stacks
        pool = list(self.dom_box)
        for p in range(DOM0, N_POS):
            pool.extend(stacks[p][:-1])
        pool.sort()  # canonical order first: the result must not depend on the hidden order
        self.shuffle(pool)
        i = 0
        for p in range(DOM0, N_POS):
            k = len(stacks[p]) - 1
            if k > 0:
                stacks[p] = tuple(pool[i:i + k]) + stacks[p][-1:]
                i += k
        self.dom_box = tuple(pool[i:])
        boxes = list(self.cit_box)
        for c in range(N_CIT_POS):
            down = self.cit_down[c]
            if not down and not boxes[c]:
                continue
            p = CIT0 + c
            cpool = sorted(stacks[p][:down] + tuple(boxes[c]))
            self.shuffle(cpool)
            stacks[p] = tuple(cpool[:down]) + stacks[p][down:]
            boxes[c] = tuple(cpool[down:])
        self.cit_box = tuple(boxes)
        known = set(self.offers[seat])
        pool = [d for d in range(len(DUKES)) if d not in known]
        self.shuffle(pool)
        k = RULES.dukes_dealt
        j = 0
        for s in range(self.players):
            if s == seat:
                continue
            self.offers[s] = tuple(pool[j:j + k])
            j += k
            if self.dukes[s] >= 0:
                self.dukes[s] = self.offers[s][0]
        if self.dark_lord >= 0:
            pool = [d for d in range(len(DUKES)) if d != self.dukes[seat]]
            self.dark_lord = pool[self.randbelow(len(pool))]

    # ------------------------------------------------------------ persistence
    def _dump(self) -> dict:
        return {
            "phase": self.phase, "active": self.active, "first": self.first, "turn": self.turn,
            "dice": list(self.dice), "res": list(self.res), "own": list(self.own),
            "doms": [list(d) for d in self.doms], "victory": [list(v) for v in self.victory],
            "stacks": [list(s) for s in self.stacks], "exhausted": self.exhausted,
            "cit_down": list(self.cit_down), "dom_box": list(self.dom_box),
            "cit_box": [list(b) for b in self.cit_box], "dukes": list(self.dukes),
            "offers": [list(o) for o in self.offers], "dark_lord": self.dark_lord,
            "cap_cit": list(self.cap_cit), "cap_dom": list(self.cap_dom),
            "tasks": [list(t) for t in self.tasks], "roll_used": self.roll_used,
            "hbase": list(self.hbase), "payouts": [list(p) for p in self.payouts],
            "result": self.result, "areas": list(self.areas), "cit_types": list(self.cit_types),
            "hsteals": [list(x) for x in self.hsteals], "steals": [list(x) for x in self.steals],
            "last": list(self.last),
        }

    def _restore(self, p: dict) -> None:
        n = self.players
        self.phase = int(p["phase"])
        if not 0 <= self.phase < len(PHASE_NAME):
            raise ValueError(f"unknown phase {self.phase}")
        self.active = int(p["active"])
        self.first = int(p["first"])
        self.turn = int(p["turn"])
        self.dice = tuple(int(x) for x in p["dice"])
        self.res = [int(x) for x in p["res"]]
        self.own = [int(x) for x in p["own"]]
        if len(self.res) != 4 * n or len(self.own) != NT * n:
            raise ValueError("resources or tableau counts have the wrong length")
        self.doms = [tuple(int(x) for x in d) for d in p["doms"]]
        self.victory = [tuple(int(x) for x in v) for v in p["victory"]]
        self.stacks = [tuple(int(x) for x in s) for s in p["stacks"]]
        if len(self.stacks) != N_POS or len(self.doms) != n or len(self.victory) != n:
            raise ValueError("the Center Stacks or tableaus have the wrong shape")
        self.exhausted = int(p["exhausted"])
        self.cit_down = [int(x) for x in p["cit_down"]]
        self.dom_box = tuple(int(x) for x in p["dom_box"])
        self.cit_box = tuple(tuple(int(x) for x in b) for b in p["cit_box"])
        self.dukes = [int(x) for x in p["dukes"]]
        self.offers = [tuple(int(x) for x in o) for o in p["offers"]]
        self.dark_lord = int(p["dark_lord"])
        self.cap_cit = tuple(int(x) for x in p["cap_cit"])
        self.cap_dom = tuple(int(x) for x in p["cap_dom"])
        self.tasks = [tuple(int(x) for x in t) for t in p["tasks"]]
        for t in self.tasks:
            if not 0 <= t[0] < len(TASK_NAME):
                raise ValueError(f"unknown task {t!r}")
        self.roll_used = int(p["roll_used"])
        self.hbase = tuple(int(x) for x in p["hbase"])
        self.payouts = tuple(tuple(int(x) for x in q) for q in p["payouts"])
        self.result = str(p["result"])
        self.areas = tuple(int(x) for x in p["areas"])
        self.cit_types = tuple(int(x) for x in p["cit_types"])
        # saves made before the Harvest steals were recorded have none
        self.hsteals = tuple(tuple(int(x) for x in q) for q in p.get("hsteals", ()))
        self.steals = tuple(tuple(int(x) for x in q) for q in p.get("steals", ()))
        self.last = tuple(int(x) for x in p.get("last", ()))  # saves before it have none
        if self.last and (len(self.last) != 4 or not 0 <= self.last[2] < N_POS):
            raise ValueError(f"'last' must be [seat, move, position, card], got {self.last!r}")

    def _copy_into(self, other: "ValeriaState") -> None:
        other.phase = self.phase
        other.active = self.active
        other.first = self.first
        other.turn = self.turn
        other.dice = self.dice
        other.res = self.res[:]
        other.own = self.own[:]
        other.doms = self.doms[:]
        other.victory = self.victory[:]
        other.stacks = self.stacks[:]
        other.exhausted = self.exhausted
        other.cit_down = self.cit_down[:]
        other.dom_box = self.dom_box
        other.cit_box = self.cit_box
        other.dukes = self.dukes[:]
        other.offers = self.offers[:]
        other.dark_lord = self.dark_lord
        other.cap_cit = self.cap_cit
        other.cap_dom = self.cap_dom
        other.tasks = self.tasks[:]
        other.roll_used = self.roll_used
        other.hbase = self.hbase
        other.payouts = self.payouts
        other.result = self.result
        other.areas = self.areas
        other.cit_types = self.cit_types
        other.hsteals = self.hsteals
        other.steals = self.steals
        other.last = self.last


def duke_score(duke: int, gold: int, strength: int, magic: int, citizens, domains, monsters) -> int:
    """VP a Duke scores for these holdings (R8.4, R8.5).

    ``citizens`` is a list of counts per Citizen type (Starters excluded: they have no Role
    and are not Citizen cards); ``domains``/``monsters`` are sequences of indices. Role icons
    count on Citizens and Domains, a Domain with two icons of a Role counting two (A7).
    """
    (dg, ds, dm), role_vp, per_dom, per_cit, per_mon, per_type = DUKE_SCORING[duke]
    vp = gold // dg + strength // ds + magic // dm
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


_APPLIERS = [None] * len(TASK_NAME)
_APPLIERS[K_ACTION] = ValeriaState._apply_action
_APPLIERS[K_PAY] = ValeriaState._apply_pay
_APPLIERS[K_STEP] = ValeriaState._apply_step
_APPLIERS[K_EXCH] = ValeriaState._apply_exch
_APPLIERS[K_FREE] = ValeriaState._apply_free
_APPLIERS[K_ROLL] = ValeriaState._apply_roll
_APPLIERS[K_ATTACK] = ValeriaState._apply_attack

_RUNNERS = [None] * len(TASK_NAME)
_RUNNERS[K_ROLL] = ValeriaState._run_roll
_RUNNERS[K_HARVEST] = ValeriaState._run_harvest
_RUNNERS[K_SEAT] = ValeriaState._run_seat
_RUNNERS[K_STEP] = ValeriaState._run_step
_RUNNERS[K_EXCH] = ValeriaState._run_exch
_RUNNERS[K_FREE] = lambda self, t: False
_RUNNERS[K_HEND] = ValeriaState._run_hend
_RUNNERS[K_ASTART] = ValeriaState._run_astart
_RUNNERS[K_ACTION] = lambda self, t: False
_RUNNERS[K_PAY] = ValeriaState._run_pay
_RUNNERS[K_ADONE] = ValeriaState._run_adone
_RUNNERS[K_AEND] = ValeriaState._run_aend
_RUNNERS[K_MONSTERS] = ValeriaState._run_monsters
_RUNNERS[K_ATTACK] = ValeriaState._run_attack
_RUNNERS[K_END] = ValeriaState._run_end
