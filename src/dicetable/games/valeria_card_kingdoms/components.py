"""Valeria: Card Kingdoms components: card data loaded from ``data/*.toml``, validated, compiled.

The data files hold every base-set card (rules digest R1.1): 18 Citizen types of 6 copies,
2 Starters, 48 Monsters in 8 Areas, 24 Domains, 10 Dukes, plus the rulebook's named setups
and the rule constants. On import they are validated with pydantic models (every card has a
``source``; the counts the rulebook fixes are checked) and compiled into flat tuples of ints
that the rules engine reads in its hot path.

Effect vocabulary
-----------------
A power (a Citizen's on-turn or off-turn power, a Monster's reward, a Domain's effect) is a
list of *steps* done in order. Each step is a one-key table:

``{gain = {g = 1, s = 0, m = 2, vp = 0}}``
    take these amounts from the Bank (R4.1, R4.2).
``{per = {gain = {g = 2}, count = "area:Forest"}}``
    the gain times a count taken when the step resolves (R5.14). Counts: ``role:<role>``
    (your Citizens with that Role; Starters have none), ``name:<Name>`` (every card of yours
    with that name, Starters included), ``domains`` (your Domains), ``area:<Area>`` (the
    Monsters of that Area in your Victory stack).
``{choose = [[steps...], [steps...]]}``
    the owner picks exactly one option (R4.3 "or"). An option that starts by taking a
    Citizen nobody can take is not offered (R9.5, C-BS).
``{exchange = {pay = {g = 1}, gain = {m = 2}}}``
    the owner may pay the left side to the Bank to receive the right side (R4.3
    "paid to gain"); never with Magic standing in (A3).
``{steal = {take = ["g", "m"], amount = 3, up_to = true, optional = false}}``
    take ``amount`` of one listed resource from an opponent of the owner's choice, or what
    they have if less (R4.3 "taken from"); ``up_to`` lets the owner take fewer (C-TH);
    ``optional`` lets them take nothing. Solo: from the Bank (R12.5, R12.6).
``{take_citizen = {max_cost = 3, role = "soldier", name = "Knight"}}``
    take the top Citizen of a Center Stack, free, whose base cost is at most ``max_cost``
    (ignoring the '+', R4.3 "<=", R9.5), with that Role or name if given.
``{slay = {}}``
    the owner may slay a top Monster at normal cost, as part of this action (R6.13).
``{return_card = {what = "monster", gain = {vp = 3}}}``
    the owner may return one of their Monsters (or Citizens) to the top of its Center
    Stack, taking the gain (C-WW, C-NW).
``{steal_monster = {}}``
    take a random Monster from the Victory stack of a player of the owner's choice, no
    reward (C-PP); solo: the top of the leftmost Monster stack (R12.6).

Domain powers add a trigger (``when``) described in ``data/domains.toml``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from dicetable.engine import Die, Sourced, load_data

RESOURCES = ("g", "s", "m")
RESOURCE_WORD = ("Gold", "Strength", "Magic")
RES_ID = ("gold", "strength", "magic")
Role = Literal["worker", "soldier", "shadow", "holy"]
MonsterType = Literal["minion", "beast", "titan", "boss"]
ROLES: tuple[Role, ...] = ("worker", "soldier", "shadow", "holy")
ROLE_WORD = ("Worker", "Soldier", "Shadow", "Holy")
MONSTER_TYPES: tuple[MonsterType, ...] = ("minion", "beast", "titan", "boss")
DIE = Die("die", (1, 2, 3, 4, 5, 6))


# ----------------------------------------------------------------- data models
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Amount(_Strict):
    """Amounts of Gold, Strength, Magic and VP tokens (all >= 0)."""

    g: int = Field(0, ge=0)
    s: int = Field(0, ge=0)
    m: int = Field(0, ge=0)
    vp: int = Field(0, ge=0)


_COUNT = re.compile(r"^(role:(worker|soldier|shadow|holy)|name:[A-Z][A-Za-z' ]+|domains|area:[A-Z][a-z]+)$")


class Per(_Strict):
    """``gain`` times a count (see the module docstring for the counts)."""

    gain: Amount
    count: str

    @field_validator("count")
    @classmethod
    def _count_known(cls, value: str) -> str:
        if not _COUNT.match(value):
            raise ValueError(f"unknown count {value!r}: use role:<role>, name:<Name>, domains or area:<Area>")
        return value


class Exchange(_Strict):
    """Pay ``pay`` to the Bank to receive ``gain`` (optional for the owner)."""

    pay: Amount
    gain: Amount


class Steal(_Strict):
    """Take ``amount`` of one resource in ``take`` from a chosen opponent."""

    take: list[Literal["g", "s", "m"]]
    amount: int = Field(gt=0)
    up_to: bool = False
    optional: bool = False


class TakeCitizen(_Strict):
    """Take a top Citizen free, filtered by base cost, Role or name."""

    max_cost: int | None = None
    role: Role | None = None
    name: str | None = None


class Slay(_Strict):
    """An extra, optional Slay inside the current action."""


class ReturnCard(_Strict):
    """Optionally return one of your Monsters or Citizens to its Center Stack for ``gain``."""

    what: Literal["monster", "citizen"]
    gain: Amount


class StealMonster(_Strict):
    """Take a random Monster from a chosen player's Victory stack."""


class Step(_Strict):
    """One step of a power: exactly one of the fields is set."""

    gain: Amount | None = None
    per: Per | None = None
    choose: list[list["Step"]] | None = None
    exchange: Exchange | None = None
    steal: Steal | None = None
    take_citizen: TakeCitizen | None = None
    slay: Slay | None = None
    return_card: ReturnCard | None = None
    steal_monster: StealMonster | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> "Step":
        kinds = [k for k in type(self).model_fields if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"a step has exactly one kind, got {kinds or 'none'}")
        if self.choose is not None and (len(self.choose) < 2 or any(not o for o in self.choose)):
            raise ValueError("choose needs at least two non-empty options")
        return self


class CitizenData(Sourced):
    """A Citizen type: activation slots, base Gold cost, Role, on-turn and off-turn powers."""

    name: str
    slots: list[int]
    cost: int = Field(ge=0)
    role: Role
    on_turn: list[Step]
    off_turn: list[Step]


class StarterData(Sourced):
    """A Starter card (no Role, no cost, never in the Center Stacks)."""

    name: str
    slots: list[int]
    on_turn: list[Step]
    off_turn: list[Step]


class CitizenFile(_Strict):
    """data/citizens.toml: the Citizen types (18 x ``copies``) and the two Starters (R1.2, R3.12)."""

    copies: int
    copies_source: str
    citizens: list[CitizenData]
    starters: list[StarterData]

    @model_validator(mode="after")
    def _counts(self) -> "CitizenFile":
        if len(self.citizens) != 18 or self.copies != 6:
            raise ValueError("the base set has 18 Citizen types of 6 copies (R1.2)")
        names = [c.name for c in self.citizens]
        if len(set(names)) != len(names):
            raise ValueError("Citizen names must be unique (R9.11)")
        groups: dict[tuple, list[str]] = {}
        for c in self.citizens:
            if not c.slots or any(not 1 <= n <= 12 for n in c.slots):
                raise ValueError(f"{c.name}: activation numbers are 1-12")
            groups.setdefault(tuple(c.slots), []).append(c.name)
        sizes = sorted(len(v) for v in groups.values())
        if len(groups) != 10 or sizes != [1, 1, 2, 2, 2, 2, 2, 2, 2, 2]:
            raise ValueError("10 Center Stack slots: 8 with two types, 5 and 6 with one (R1.2)")
        if sorted(s.name for s in self.starters) != ["Knight", "Peasant"]:
            raise ValueError("the Starters are a Peasant and a Knight (R3.12)")
        for s in self.starters:
            if s.name not in names:
                raise ValueError(f"Starter {s.name} must share its name with a Citizen (R6.6)")
        return self


class AreaData(Sourced):
    """A Monster Area (R9.1)."""

    name: str


class MonsterData(Sourced):
    """A Monster type of an Area: copies (and how many are 5-player cards), costs, VP, reward."""

    name: str
    area: str
    type: MonsterType
    copies: int = Field(1, gt=0)
    five_player: int = Field(0, ge=0)
    strength: int = Field(gt=0)
    magic: int = Field(0, ge=0)
    vp: int = Field(ge=0)
    reward: list[Step]


class MonsterFile(_Strict):
    """data/monsters.toml: 8 Areas of 6 Monsters, one 5-player card each (R1.3)."""

    areas: list[AreaData]
    monsters: list[MonsterData]

    @model_validator(mode="after")
    def _counts(self) -> "MonsterFile":
        areas = [a.name for a in self.areas]
        if len(areas) != 8 or len(set(areas)) != 8:
            raise ValueError("the base set has 8 Monster Areas (R1.3, R9.1)")
        total = 0
        for area in areas:
            cards = [m for m in self.monsters if m.area == area]
            n = sum(m.copies for m in cards)
            five = sum(m.five_player for m in cards)
            if n != 6 or five != 1:
                raise ValueError(f"{area}: 6 cards, one with the 5-player icon (R1.3); got {n}, {five}")
            if len({m.strength for m in cards}) != 3:
                raise ValueError(f"{area}: exactly 3 distinct Strength values (R3.3)")
            total += n
        if total != 48 or any(m.area not in areas for m in self.monsters):
            raise ValueError("48 Monsters, each in a known Area (R1.1)")
        for m in self.monsters:
            if m.five_player > m.copies:
                raise ValueError(f"{m.name}: more 5-player cards than copies")
        return self


class DieChange(_Strict):
    """A Roll-Phase die change: set the die to a value, or lower it by an amount (never below 1)."""

    set: int | None = Field(None, ge=1, le=6)
    lower: int | None = Field(None, ge=1, le=5)


class DomainPower(_Strict):
    """When a Domain power works and what it does (see data/domains.toml)."""

    when: Literal["build", "roll", "doubles", "action-start", "action-end", "gain-citizen",
                  "slay", "recruit-cost", "build-cost"]
    effect: list[Step] = []
    die: DieChange | None = None
    pay: Amount | None = None
    pay_per: str | None = None
    no_surcharge: bool = False
    discount: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _shape(self) -> "DomainPower":
        if self.when == "roll" and (self.die is None or (self.die.set is None) == (self.die.lower is None)):
            raise ValueError("a roll power sets or lowers a die")
        if self.when in ("build", "doubles", "action-start", "action-end", "gain-citizen", "slay") \
                and not self.effect:
            raise ValueError(f"a {self.when} power needs an effect")
        if self.pay_per is not None and not _COUNT.match(self.pay_per):
            raise ValueError(f"unknown count {self.pay_per!r}")
        return self


class DomainData(Sourced):
    """A Domain: Gold cost, required Role icons, VP and its power (R9.15-R9.18)."""

    name: str
    cost: int = Field(ge=0)
    requires: list[Role]
    vp: int = Field(gt=0)
    power: DomainPower


class DomainFile(_Strict):
    """data/domains.toml: the 24 Domains (R1.1)."""

    domains: list[DomainData]

    @model_validator(mode="after")
    def _counts(self) -> "DomainFile":
        names = [d.name for d in self.domains]
        if len(names) != 24 or len(set(names)) != 24:
            raise ValueError("the base set has 24 distinct Domains (R1.1)")
        return self


class DukeData(Sourced):
    """A Duke's end-game scoring (R9.19): resource divisors, VP per Role icon, VP per card."""

    name: str
    per_resource: dict[Literal["g", "s", "m"], int]
    per_role: dict[Role, int] = {}
    per_card: dict[Literal["domain", "citizen", "monster", "minion", "beast", "titan", "boss"], int] = {}

    @field_validator("per_resource")
    @classmethod
    def _divisors(cls, value: dict) -> dict:
        if sorted(value) != ["g", "m", "s"] or any(v <= 0 for v in value.values()):
            raise ValueError("per_resource gives a positive divisor for g, s and m")
        return value


class DukeFile(_Strict):
    """data/dukes.toml: the 10 Dukes (R1.1)."""

    dukes: list[DukeData]

    @model_validator(mode="after")
    def _counts(self) -> "DukeFile":
        if len({d.name for d in self.dukes}) != 10 or len(self.dukes) != 10:
            raise ValueError("the base set has 10 distinct Dukes (R1.1)")
        return self


class RulesData(Sourced):
    """Rule constants of set-up and play (stack sizes, starting resources, end triggers)."""

    start_gold: int
    start_magic: int
    dukes_dealt: int
    actions_per_turn: int
    stacks_per_row: int
    monsters_per_stack: int
    monsters_per_stack_five: int
    citizens_per_stack: int
    citizens_per_stack_five: int
    domains_face_down: int
    domains_face_down_five: int
    exhausted_per_player: int
    solo_exhausted_end: int
    mixed_face_down: int
    mixed_face_down_five: int


class SetupData(Sourced):
    """A named setup (R14): Monster Areas left to right, Citizen types in slot order, removed Domains."""

    id: str
    name: str
    monsters: list[str]
    citizens: list[str]
    remove_domains: list[str]
    stacks: dict[str, list[str]] | None = None


class SetupFile(_Strict):
    """data/setups.toml: rule constants and the named setups."""

    rules: RulesData
    setups: list[SetupData]


# ------------------------------------------------------------------ load + check
_PKG = __package__
CITIZEN_FILE = load_data(_PKG, "citizens.toml", CitizenFile)
MONSTER_FILE = load_data(_PKG, "monsters.toml", MonsterFile)
DOMAIN_FILE = load_data(_PKG, "domains.toml", DomainFile)
DUKE_FILE = load_data(_PKG, "dukes.toml", DukeFile)
SETUP_FILE = load_data(_PKG, "setups.toml", SetupFile)
RULES = SETUP_FILE.rules


def slug(name: str) -> str:
    """``"Cathedral of St. Aquila"`` -> ``"cathedral-of-st-aquila"`` (stable action-id part)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


# ------------------------------------------------------------------ compiled tables
# Citizens and Starters share one index space: 0..17 the Citizen types in file order,
# 18.. the Starters. Center stack positions: 0-4 Monsters, 5-14 Citizens (slot order),
# 15-19 Domains; column c holds positions c, 5+c, 10+c, 15+c (rules R2.2).
CITIZENS = CITIZEN_FILE.citizens
COPIES = CITIZEN_FILE.copies  # copies of each Citizen type (R1.2)
STARTERS = CITIZEN_FILE.starters
N_CIT = len(CITIZENS)
CIT_NAME = tuple(c.name for c in CITIZENS) + tuple(s.name for s in STARTERS)
CIT_DISPLAY = tuple(c.name for c in CITIZENS) + tuple(f"Starter {s.name}" for s in STARTERS)
N_CARDTYPES = len(CIT_NAME)
_NAME_KEYS = sorted(set(CIT_NAME))
CIT_NAMEKEY = tuple(_NAME_KEYS.index(n) for n in CIT_NAME)
NAMEKEY_OF = {n: i for i, n in enumerate(_NAME_KEYS)}
CIT_SLOTS = tuple(tuple(c.slots) for c in CITIZENS) + tuple(tuple(s.slots) for s in STARTERS)
CIT_COST = tuple(c.cost for c in CITIZENS) + tuple(-1 for _ in STARTERS)
CIT_ROLE = tuple(ROLES.index(c.role) for c in CITIZENS) + tuple(-1 for _ in STARTERS)
CIT_INDEX = {c.name: i for i, c in enumerate(CITIZENS)}
CIT_SLUG = tuple(slug(n) for n in CIT_NAME[:N_CIT]) + tuple("starter-" + slug(s.name) for s in STARTERS)
STARTER_TYPES = tuple(range(N_CIT, N_CARDTYPES))
_SLOT_GROUPS = sorted({tuple(c.slots) for c in CITIZENS})
SLOT_GROUPS = tuple(_SLOT_GROUPS)  # 10 groups in slot order: (1,), (2,), ... (9, 10), (11, 12)
CIT_POSITION = tuple(_SLOT_GROUPS.index(tuple(c.slots)) for c in CITIZENS) + tuple(-1 for _ in STARTERS)
SLOT_TYPES = tuple(tuple(i for i in range(N_CIT) if CIT_POSITION[i] == p) for p in range(10))
SLOT_LABEL = tuple("-".join(map(str, g)) for g in _SLOT_GROUPS)

AREAS = tuple(a.name for a in MONSTER_FILE.areas)
AREA_INDEX = {a: i for i, a in enumerate(AREAS)}
AREA_SLUG = tuple(slug(a) for a in AREAS)
MONSTERS = MONSTER_FILE.monsters
MON_NAME = tuple(m.name for m in MONSTERS)
MON_SLUG = tuple(slug(m.name) for m in MONSTERS)
MON_AREA = tuple(AREA_INDEX[m.area] for m in MONSTERS)
MON_TYPE = tuple(MONSTER_TYPES.index(m.type) for m in MONSTERS)
MON_STR = tuple(m.strength for m in MONSTERS)
MON_MAG = tuple(m.magic for m in MONSTERS)
MON_VP = tuple(m.vp for m in MONSTERS)
MON_INDEX = {m.name: i for i, m in enumerate(MONSTERS)}

DOMAINS = DOMAIN_FILE.domains
N_DOM = len(DOMAINS)
DOM_NAME = tuple(d.name for d in DOMAINS)
DOM_SLUG = tuple(slug(d.name) for d in DOMAINS)
DOM_COST = tuple(d.cost for d in DOMAINS)
DOM_VP = tuple(d.vp for d in DOMAINS)
DOM_REQ = tuple(tuple(d.requires.count(r) for r in ROLES) for d in DOMAINS)
DOM_INDEX = {d.name: i for i, d in enumerate(DOMAINS)}

DUKES = DUKE_FILE.dukes
DUKE_NAME = tuple(d.name for d in DUKES)
DUKE_SLUG = tuple(slug(d.name) for d in DUKES)
DUKE_INDEX = {d.name: i for i, d in enumerate(DUKES)}

SETUPS = {s.id: s for s in SETUP_FILE.setups}
SETUP_IDS = tuple(SETUPS)

# ---- steps: every step of every power compiled into a tuple in STEPS; effects are tuples of ids.
GAIN, PER, CHOOSE, EXCHANGE, STEAL, TAKE_CIT, SLAY, RETURN, STEAL_MON = range(9)
C_ROLE, C_NAME, C_DOMAINS, C_AREA = range(4)
RET_MONSTER, RET_CITIZEN = 0, 1
STEPS: list[tuple] = []


def _amount(a: Amount) -> tuple[int, int, int, int]:
    return (a.g, a.s, a.m, a.vp)


def _count(text: str) -> tuple[int, int]:
    kind, _, arg = text.partition(":")
    if kind == "role":
        return (C_ROLE, ROLES.index(arg))
    if kind == "name":
        if arg not in NAMEKEY_OF:
            raise ValueError(f"count {text!r} names no card")
        return (C_NAME, NAMEKEY_OF[arg])
    if kind == "domains":
        return (C_DOMAINS, 0)
    if arg not in AREA_INDEX:
        raise ValueError(f"count {text!r} names no Area")
    return (C_AREA, AREA_INDEX[arg])


def _compile_step(step: Step) -> int:
    t: tuple[object, ...]  # one record per kind of step, its kind first (see STEPS)
    if step.gain is not None:
        t = (GAIN, *_amount(step.gain))
    elif step.per is not None:
        t = (PER, *_amount(step.per.gain), *_count(step.per.count))
    elif step.choose is not None:
        t = (CHOOSE, tuple(compile_effect(option) for option in step.choose))
    elif step.exchange is not None:
        t = (EXCHANGE, _amount(step.exchange.pay), _amount(step.exchange.gain))
    elif step.steal is not None:
        st = step.steal
        t = (STEAL, tuple(RESOURCES.index(r) for r in st.take), st.amount, st.up_to, st.optional)
    elif step.take_citizen is not None:
        tc = step.take_citizen
        if tc.name is not None and tc.name not in CIT_INDEX:
            raise ValueError(f"take_citizen names no Citizen: {tc.name!r}")
        t = (TAKE_CIT, 99 if tc.max_cost is None else tc.max_cost,
             -1 if tc.role is None else ROLES.index(tc.role),
             -1 if tc.name is None else NAMEKEY_OF[tc.name])
    elif step.slay is not None:
        t = (SLAY,)
    elif step.return_card is not None:
        rc = step.return_card
        t = (RETURN, RET_MONSTER if rc.what == "monster" else RET_CITIZEN, _amount(rc.gain))
    else:
        t = (STEAL_MON,)
    STEPS.append(t)
    return len(STEPS) - 1


def compile_effect(steps: list[Step]) -> tuple[int, ...]:
    """Compile a list of data steps into a tuple of step ids (indices into ``STEPS``)."""
    return tuple(_compile_step(s) for s in steps)


CIT_ON = tuple(compile_effect(c.on_turn) for c in CITIZENS) + tuple(compile_effect(s.on_turn) for s in STARTERS)
CIT_OFF = tuple(compile_effect(c.off_turn) for c in CITIZENS) + tuple(compile_effect(s.off_turn) for s in STARTERS)
MON_REWARD = tuple(compile_effect(m.reward) for m in MONSTERS)

for _m, _i in MON_INDEX.items():
    for _sid in MON_REWARD[_i]:
        _st = STEPS[_sid]
        if _st[0] == PER and _st[5] == C_AREA and _st[6] != MON_AREA[_i]:
            # Not an error in principle, but every base-set Boss counts its own Area (R9.6).
            raise ValueError(f"{_m}: a Boss reward counts its own Area")

# ---- Domain powers
W_BUILD, W_ROLL, W_DOUBLES, W_ASTART, W_AEND, W_GAINCIT, W_SLAY, W_RECRUIT_COST, W_BUILD_COST = range(9)
_WHEN = {"build": W_BUILD, "roll": W_ROLL, "doubles": W_DOUBLES, "action-start": W_ASTART,
         "action-end": W_AEND, "gain-citizen": W_GAINCIT, "slay": W_SLAY,
         "recruit-cost": W_RECRUIT_COST, "build-cost": W_BUILD_COST}
DOM_WHEN = tuple(_WHEN[d.power.when] for d in DOMAINS)
DOM_EFFECT = tuple(compile_effect(d.power.effect) for d in DOMAINS)
#: Roll powers, for the Domains with one (``DOM_WHEN`` ``W_ROLL``): ``DOM_ROLL[d]`` is (set value
#: or 0, lower by or 0, pay (g, s, m, vp), pay_per count or None).
DOM_ROLL: dict[int, tuple[int, int, tuple[int, ...], tuple[int, int] | None]] = {
    i: ((die.set or 0), (die.lower or 0),
        _amount(d.power.pay) if d.power.pay else (0, 0, 0, 0),
        _count(d.power.pay_per) if d.power.pay_per else None)
    for i, d in enumerate(DOMAINS) if d.power.when == "roll" and (die := d.power.die) is not None}
DOM_DISCOUNT = tuple(d.power.discount for d in DOMAINS)
DOM_NO_SURCHARGE = tuple(d.power.no_surcharge for d in DOMAINS)
DOM_ROLE_ICONS = DOM_REQ  # the requirement icons are the Domain's Role icons (R8.5)

# ---- Dukes: (divisors g, s, m), VP per Role icon (4), VP per Domain, Citizen, Monster,
# and per Monster type (4).
DUKE_SCORING = tuple(
    ((d.per_resource["g"], d.per_resource["s"], d.per_resource["m"]),
     tuple(d.per_role.get(r, 0) for r in ROLES),
     d.per_card.get("domain", 0), d.per_card.get("citizen", 0), d.per_card.get("monster", 0),
     tuple(d.per_card.get(t, 0) for t in MONSTER_TYPES))
    for d in DUKES)


def _check_setups() -> None:
    for s in SETUP_FILE.setups:
        if len(s.monsters) != RULES.stacks_per_row or any(a not in AREA_INDEX for a in s.monsters):
            raise ValueError(f"setup {s.id}: 5 known Monster Areas")
        if len(s.citizens) != 10 or any(c not in CIT_INDEX for c in s.citizens):
            raise ValueError(f"setup {s.id}: 10 known Citizen types")
        if [CIT_POSITION[CIT_INDEX[c]] for c in s.citizens] != list(range(10)):
            raise ValueError(f"setup {s.id}: one Citizen type per slot, in slot order (R3.7)")
        if any(d not in DOM_INDEX for d in s.remove_domains):
            raise ValueError(f"setup {s.id}: removes an unknown Domain")
        if s.stacks is not None:
            for area, names in s.stacks.items():
                if area not in s.monsters or any(MON_AREA[MON_INDEX[n]] != AREA_INDEX[area] for n in names):
                    raise ValueError(f"setup {s.id}: stack {area} lists a Monster of another Area")
    if "first-game" not in SETUPS:
        raise ValueError("the rulebook's first-game setup is required")


_check_setups()


@lru_cache(maxsize=None)
def monster_stack(area: int, five_player: bool) -> tuple:
    """The Monster stack of an Area as built by the rules (R3.1-R3.3, R11.1), bottom first.

    Returns Monster type indices, the strongest (the Boss) first and the weakest last, which
    is the top of the stack. In 2-4 player (and solo) games the 5-player cards are removed.
    """
    cards = []
    for i, m in enumerate(MONSTERS):
        if MON_AREA[i] == area:
            n = m.copies if five_player else m.copies - m.five_player
            cards.extend([i] * n)
    cards.sort(key=lambda i: -MON_STR[i])
    return tuple(cards)


def area_order_key(area: int) -> tuple:
    """Left-to-right order key of an Area's stack: top (weakest) Strength, then Boss Strength (A1)."""
    strengths = [MON_STR[i] for i in range(len(MONSTERS)) if MON_AREA[i] == area]
    return (min(strengths), max(strengths))


#: Strength tiers for the random setup (A2): Areas grouped by their weakest Monster's Strength.
TIERS = tuple(
    tuple(a for a in range(len(AREAS)) if area_order_key(a)[0] == tier)
    for tier in sorted({area_order_key(a)[0] for a in range(len(AREAS))}))
if len(TIERS) != RULES.stacks_per_row:
    raise ValueError("the random setup takes one Area per Strength tier; the data must give 5 tiers")


# ------------------------------------------------------------------ words
@lru_cache(maxsize=None)
def amount_text(a: tuple, sep: str = " + ") -> str:
    """``(1, 0, 2, 0)`` -> ``"1 Gold + 2 Magic"``; all zero -> ``"nothing"``."""
    parts = [f"{n} {w}" for n, w in zip(a, (*RESOURCE_WORD, "VP")) if n]
    return sep.join(parts) if parts else "nothing"


def count_text(kind: int, arg: int) -> str:
    """The words for a count of a ``per`` step."""
    if kind == C_ROLE:
        return f"{ROLE_WORD[arg]} Citizen"
    if kind == C_NAME:
        return _NAME_KEYS[arg]
    if kind == C_DOMAINS:
        return "Domain"
    return f"{AREAS[arg]} Monster"


@lru_cache(maxsize=None)
def step_text(sid: int) -> str:
    """A short description of one compiled step, in the cards' words."""
    st = STEPS[sid]
    op = st[0]
    if op == GAIN:
        return amount_text(st[1:5])
    if op == PER:
        return f"{amount_text(st[1:5])} per {count_text(st[5], st[6])}"
    if op == CHOOSE:
        return " OR ".join(effect_text(o) for o in st[1])
    if op == EXCHANGE:
        return f"may pay {amount_text(st[1])} to gain {amount_text(st[2])}"
    if op == STEAL:
        res = " or ".join(RESOURCE_WORD[r] for r in st[1])
        return f"{'may take' if st[4] else 'take'} {'up to ' if st[3] else ''}{st[2]} {res} from a player"
    if op == TAKE_CIT:
        what = "Citizen"
        if st[3] >= 0:
            what = _NAME_KEYS[st[3]]
        elif st[2] >= 0:
            what = f"{ROLE_WORD[st[2]]} Citizen"
        cost = f" of base cost <= {st[1]}" if st[1] < 99 else ""
        return f"take a {what}{cost} free"
    if op == SLAY:
        return "you may slay a Monster"
    if op == RETURN:
        what = "slain Monster" if st[1] == RET_MONSTER else "Citizen"
        return f"may return a {what} to its stack for {amount_text(st[2])}"
    return "take a random Monster from a player's Victory stack"


@lru_cache(maxsize=None)
def effect_text(effect: tuple) -> str:
    """A compiled effect (tuple of step ids) in words, steps joined by ' + '."""
    return " + ".join(step_text(s) for s in effect) or "nothing"


def domain_power_text(d: int) -> str:
    """A Domain's power in words (for labels and the terminal table)."""
    when = DOM_WHEN[d]
    if when == W_ROLL:
        set_to, lower, pay, per = DOM_ROLL[d]
        what = f"set one die to {set_to}" if set_to else f"lower one die by {lower}"
        cost = ""
        if any(pay):
            cost = f"pay {amount_text(pay)}" + (f" per {count_text(*per)}" if per else "") + " to "
        return f"Your Roll Phase: {cost}{what}"
    if when == W_RECRUIT_COST:
        return "You recruit without the '+' surcharge"
    if when == W_BUILD_COST:
        return f"Your Domains cost {DOM_DISCOUNT[d]} Gold less"
    prefix = {W_BUILD: "Now: ", W_DOUBLES: "Whenever any roll shows doubles: ",
              W_ASTART: "Start of your Action Phase: ", W_AEND: "End of your Action Phase: ",
              W_GAINCIT: "Whenever you gain a Citizen in your Action Phase: ",
              W_SLAY: "Whenever you slay a Monster in your Action Phase: "}[when]
    return prefix + effect_text(DOM_EFFECT[d])


def duke_text(k: int) -> str:
    """A Duke's scoring in words."""
    (dg, ds, dm), roles, dom, cit, mon, types = DUKE_SCORING[k]
    parts = [f"1 VP per {dg} Gold, {ds} Strength, {dm} Magic"]
    parts += [f"{v} per {ROLE_WORD[r]} icon" for r, v in enumerate(roles) if v]
    parts += [f"{v} per {w}" for v, w in ((dom, "Domain"), (cit, "Citizen"), (mon, "Monster")) if v]
    parts += [f"{v} per {MONSTER_TYPES[t].title()}" for t, v in enumerate(types) if v]
    return "; ".join(parts)
