"""Dice Kingdoms of Valeria components: the sheets, Statues, Solo Events and dice as data.

Data files (``data/``), validated on load with pydantic models derived from
:class:`dicetable.engine.Sourced` (every item has a ``source``; invented values
start with ``"reconstructed:"``):

* ``summer.json`` / ``winter.json``: the Castle and Forest sheets of each
  season (Citizens Tableau, Guild Tracks, Gold Chart, Knights on the Wall,
  Monster Lairs, trees and ships; starting pips, Domains, Roads, Bridges, dead
  ends and, in Winter, Trailheads). The official sheets are not public: the
  layout is the reconstruction in ``facts/dkov-layout.md`` v1, checked here
  against every count the rulebook fixes, so an official layout drops in by
  editing these files.
* ``statues.json``: the 14 Statue kinds (two copies each, Day and Night backs).
* ``solo-events.json``: the ten Solo Event cards (reconstructed texts).
* ``game.json``: dice, guild names, the end trigger and the solo result bands.

The game's fixed codes and sheet offsets are in :mod:`.sheet`; :mod:`.layout`
turns each season's sheets into the tables of plain ints the rules read.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dicetable.engine import Die, Sourced, load_data

from .sheet import COLOURS, GUILDS, REWARD_CODE, REWARDS

PipKind = Literal["-", "START", "Recruit", "Gold", "Road", "Knight", "Slay", "Plinth", "Star"]
GuildName = Literal["Holy", "Worker", "Shadow", "Soldier"]


class _Plain(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------- Castle
class CitizenSection(Sourced):
    """One Citizens Tableau section: its name ("9/10"), values, guild and its 2 pips, left first."""

    section: str
    values: list[int]
    guild: GuildName
    pips: list[PipKind] = Field(min_length=2, max_length=2)


class GuildTrack(Sourced):
    """A Guild Track: 24 pips in ``rows`` rows, marked left to right, top row first."""

    guild: GuildName
    rows: int = Field(gt=0)
    pips: list[PipKind]


class GoldChart(Sourced):
    """The Gold Chart: one section (its row lines do not split it)."""

    rows: int = Field(gt=0)
    pips: list[PipKind]


class Wall(Sourced):
    """Knights on the Wall: one section, from the far left, rightwards, then up."""

    path: str
    pips: list[PipKind]


class RangeBlock(_Plain):
    """A Monster Lair Range Block: die values ``low``..``high`` and its pips, left first."""

    low: int = Field(ge=1, le=12)
    high: int = Field(ge=1, le=12)
    pips: list[PipKind] = Field(min_length=1)


class Lair(Sourced):
    """A Monster Lair: ``vp`` = [higher (first to complete), lower]; Winter access Domains."""

    id: str
    name: str
    vp: list[int] = Field(min_length=2, max_length=2)
    position: str
    open: bool
    access_domains: list[str]
    blocks: list[RangeBlock]


class Count(Sourced):
    """A counted printed item (trees, ships)."""

    count: int = Field(gt=0)


class Castle(Sourced):
    """The Castle sheet."""

    citizens: list[CitizenSection]
    guild_tracks: list[GuildTrack]
    gold_chart: GoldChart
    wall: Wall
    lairs: list[Lair]
    trees: Count
    ships: Count


# --------------------------------------------------------------------- Forest
class Power(_Plain):
    """A Domain power: ``adjust`` (+1/-1) or ``flip`` a die, or an ``instant_citizen`` of a guild."""

    kind: Literal["adjust", "flip", "instant_citizen"]
    die: Optional[Literal["green", "red", "yellow", "blue", "any"]] = None
    guild: Optional[GuildName] = None

    @model_validator(mode="after")
    def _shape(self) -> "Power":
        if self.kind == "instant_citizen":
            if self.guild is None or self.die is not None:
                raise ValueError("an instant Citizen power names a guild and no die")
        elif self.die is None or self.guild is not None:
            raise ValueError("a manipulation power names a die and no guild")
        if self.kind == "flip" and self.die == "any":
            raise ValueError("the rulebook has no 'flip any' power")
        return self

    @property
    def key(self) -> str:
        """``"adjust:green"``, ``"flip:red"``, ``"instant_citizen:Holy"``."""
        return f"{self.kind}:{self.die or self.guild}"


class StartPip(Sourced):
    """A pre-marked starting pip on the Forest sheet."""

    id: str
    position: str


class Domain(Sourced):
    """A Domain and its power."""

    id: str
    name: str
    position: str
    power: Power


class DeadEnd(Sourced):
    """A dead end: a Road ending there stops a Build and claims nothing."""

    id: str
    name: str


class RoadData(Sourced):
    """A Road of pips from node ``a`` to node ``b`` (pips listed a -> b)."""

    id: str
    a: str
    b: str
    kind: Literal["start", "link", "spur"]
    pips: list[PipKind] = Field(min_length=1)


class BridgeData(Sourced):
    """A Bridge: 3 consecutive pips (1-based positions, a -> b) of a Road."""

    id: str
    road: str
    pips: list[int] = Field(min_length=3, max_length=3)


class TrailheadData(Sourced):
    """Winter: claiming ``domain`` gives access to ``lair``."""

    domain: str
    lair: str


class Forest(Sourced):
    """The Forest sheet."""

    starts: list[StartPip]
    domains: list[Domain]
    dead_ends: list[DeadEnd]
    roads: list[RoadData]
    bridges: list[BridgeData]
    trailheads: list[TrailheadData] = []
    road_rule: str


ALL_POWERS = sorted(
    [f"adjust:{d}" for d in ("green", "red", "yellow", "blue", "any")]
    + [f"flip:{d}" for d in ("green", "red", "yellow", "blue")]
    + [f"instant_citizen:{g}" for g in GUILDS]
)
CITIZEN_VALUES = [[1], [2], [3], [4], [5], [6], [7], [8], [9, 10], [11, 12]]


class Sheets(Sourced):
    """Castle + Forest sheets of one season, checked against every count the rulebook fixes."""

    season: Literal["summer", "winter"]
    name: str
    castle: Castle
    forest: Forest

    @model_validator(mode="after")
    def _rulebook_counts(self) -> "Sheets":
        c, f = self.castle, self.forest
        # Citizens Tableau (rulebook: Citizens Tableau, Game Setup, Harvest examples).
        if [s.values for s in c.citizens] != CITIZEN_VALUES:
            raise ValueError("the Citizens Tableau has 10 sections valued 1-8, 9/10, 11/12 in order")
        starts = [(s.values[0], i) for s in c.citizens for i, p in enumerate(s.pips) if p == "START"]
        if sorted(starts) != [(5, 0), (6, 0)]:
            raise ValueError("exactly one starting pip on the 5 and one on the 6 (the left pips)")
        fixed = {3: "Shadow", 4: "Soldier", 5: "Worker", 6: "Soldier"}
        for s in c.citizens:
            v = s.values[0]
            if v in fixed and s.guild != fixed[v]:
                raise ValueError(f"the {v} Citizen is {fixed[v]} (rulebook Harvest examples)")
            if v < 4 and s.guild == "Soldier":
                raise ValueError("the 4 is the leftmost Soldier section (rulebook Domain example)")
        if not any(p not in ("-", "START") for s in c.citizens for p in s.pips):
            raise ValueError("some Citizen pips are Reward Pips")
        # Guild Tracks.
        if sorted(t.guild for t in c.guild_tracks) != sorted(GUILDS):
            raise ValueError("one Guild Track per guild (Holy, Worker, Shadow, Soldier)")
        for t in c.guild_tracks:
            if len(t.pips) != 24:
                raise ValueError(f"the {t.guild} Guild Track has 24 pips, data has {len(t.pips)}")
        # Plinths only in the Gold Chart; the Wall has Star pips.
        if "Plinth" not in c.gold_chart.pips:
            raise ValueError("the Gold Chart holds the Plinth Reward Pips")
        elsewhere = [p for s in c.citizens for p in s.pips] + [p for t in c.guild_tracks for p in t.pips]
        elsewhere += c.wall.pips + [p for lair in c.lairs for b in lair.blocks for p in b.pips]
        elsewhere += [p for r in f.roads for p in r.pips]
        if "Plinth" in elsewhere:
            raise ValueError("filling the Gold Chart is the only way to gain Statues: no Plinth elsewhere")
        if "START" in elsewhere[20:] or "START" in c.gold_chart.pips:
            raise ValueError("START pips exist only on the 5 and 6 Citizens")
        if "Star" not in c.wall.pips:
            raise ValueError("the Wall has Star pips (Statue 4)")
        # Monster Lairs.
        if len(c.lairs) != 4:
            raise ValueError("there are 4 Monster Lairs")
        for lair in c.lairs:
            if lair.vp[0] <= lair.vp[1]:
                raise ValueError(f"{lair.id}: vp lists the higher value first")
            if len(lair.blocks) < 2 or (self.season == "winter" and len(lair.blocks) != 2):
                raise ValueError(f"{lair.id}: 2 or more Range Blocks (Winter: exactly 2)")
            seen: set[int] = set()
            for b in lair.blocks:
                values = set(range(b.low, b.high + 1))
                if not values or values & seen:
                    raise ValueError(f"{lair.id}: Range Blocks cover distinct die values")
                seen |= values
            if lair.open == bool(lair.access_domains):
                raise ValueError(f"{lair.id}: a lair is either open or reached through Domains")
        if self.season == "summer" and not all(lair.open for lair in c.lairs):
            raise ValueError("Summer lairs need no access")
        if self.season == "winter":
            opens = [lair for lair in c.lairs if lair.open]
            if len(opens) != 1 or opens[0].vp != [5, 3] or opens[0].position != "bottom-right":
                raise ValueError("Winter: only the 5/3 lair (bottom right) is open from the start")
        if c.trees.count != 20 or c.ships.count != 6:
            raise ValueError("the Castle sheet has 20 trees and 6 ships")
        # Forest: starts, Domains, powers.
        if len(f.starts) != 4:
            raise ValueError("4 starting pips on the Forest sheet")
        if len(f.domains) != 13:
            raise ValueError("13 Domains on the Forest sheet")
        if sorted(d.power.key for d in f.domains) != ALL_POWERS:
            raise ValueError("the 13 Domain powers are each used once")
        nodes = {s.id: "start" for s in f.starts}
        nodes.update({d.id: "domain" for d in f.domains})
        nodes.update({x.id: "dead" for x in f.dead_ends})
        if len(nodes) != len(f.starts) + len(f.domains) + len(f.dead_ends):
            raise ValueError("node ids must be unique")
        road_ids = [r.id for r in f.roads]
        if len(set(road_ids)) != len(road_ids):
            raise ValueError("road ids must be unique")
        for r in f.roads:
            if r.a not in nodes or r.b not in nodes:
                raise ValueError(f"{r.id}: unknown end node")
            want = {"start": ("start", "domain"), "link": ("domain", "domain"), "spur": ("domain", "dead")}
            if (nodes[r.a], nodes[r.b]) != want[r.kind]:
                raise ValueError(f"{r.id}: a {r.kind} Road runs {want[r.kind][0]} -> {want[r.kind][1]}")
            if "START" in r.pips:
                raise ValueError(f"{r.id}: starting pips are nodes, not Road pips")
        if sorted(r.a for r in f.roads if r.kind == "start") != sorted(s.id for s in f.starts):
            raise ValueError("each starting pip begins exactly one Road")
        # Bridges: 6, three consecutive pips, ordinary - Gold - ordinary.
        if len(f.bridges) != 6:
            raise ValueError("there are 6 Bridges")
        roads = {r.id: r for r in f.roads}
        for bridge in f.bridges:
            road = roads.get(bridge.road)
            if road is None:
                raise ValueError(f"{bridge.id}: unknown road {bridge.road}")
            at = bridge.pips
            if at != [at[0], at[0] + 1, at[0] + 2] or at[0] < 1 or at[2] > len(road.pips):
                raise ValueError(f"{bridge.id}: a Bridge is 3 consecutive pips of its Road")
            kinds = [road.pips[i - 1] for i in at]
            if kinds != ["-", "Gold", "-"]:
                raise ValueError(f"{bridge.id}: a Bridge is ordinary, Gold Reward, ordinary")
        # Every Domain can be claimed from the starts.
        reached = set(s.id for s in f.starts)
        grew = True
        while grew:
            grew = False
            for r in f.roads:
                for x, y in ((r.a, r.b), (r.b, r.a)):
                    if r.kind == "start" and x != r.a:
                        continue
                    if x in reached and y not in reached:
                        reached.add(y)
                        grew = True
        if not all(d.id in reached for d in f.domains):
            raise ValueError("every Domain must be reachable from the starting pips")
        # Trailheads agree with the lairs' access lists.
        trail = sorted((t.domain, t.lair) for t in f.trailheads)
        access = sorted((d, lair.id) for lair in c.lairs for d in lair.access_domains)
        if trail != access:
            raise ValueError("Trailheads and the lairs' access Domains must agree")
        domain_ids = {d.id for d in f.domains}
        if any(t.domain not in domain_ids for t in f.trailheads):
            raise ValueError("a Trailhead sits on a Domain")
        # Every Reward Pip kind appears somewhere.
        everywhere = set(elsewhere) | set(c.gold_chart.pips)
        missing = [k for k in REWARDS if k not in everywhere]
        if missing:
            raise ValueError(f"every Reward Pip kind appears on the sheets; missing: {missing}")
        return self


# -------------------------------------------------------------------- Statues
class StatueKind(Sourced):
    """A Statue kind: scoring (``count`` x ``vp`` per ``per``) or ``instant`` (``times`` Rewards)."""

    number: int = Field(ge=1, le=14)
    effect: str
    count: Optional[str] = None
    vp: int = 0
    per: int = 1
    instant: Optional[Literal["Recruit", "Slay", "Gold"]] = None
    times: int = 0
    star_pips: int = 0


STATUE_COUNTS = (
    "complete_bridges", "domains", "gold_pips", "wall_stars", "lairs_completed", "stars",
    "plinths", "holy_citizens", "shadow_citizens", "soldier_citizens", "worker_citizens",
)


class StatueDeck(Sourced):
    """The 28 Statue cards: 14 kinds, one copy with each back (Day, Night)."""

    backs: list[str]
    draft_line: int
    max_per_player: int
    statues: list[StatueKind]

    @model_validator(mode="after")
    def _counts(self) -> "StatueDeck":
        if [s.number for s in self.statues] != list(range(1, 15)):
            raise ValueError("Statues are numbered 1-14")
        if self.backs != ["Day", "Night"] or len(self.statues) * len(self.backs) != 28:
            raise ValueError("28 Statue cards: 14 kinds x (Day, Night)")
        if self.draft_line != 6 or self.max_per_player != 4:
            raise ValueError("a draft line of 6; at most 4 Statues per player")
        for s in self.statues:
            if (s.count is None) == (s.instant is None):
                raise ValueError(f"Statue {s.number} either scores or acts immediately")
            if s.count is not None and s.count not in STATUE_COUNTS:
                raise ValueError(f"Statue {s.number}: unknown count {s.count!r}")
            if s.instant is not None and s.times != 3:
                raise ValueError(f"Statue {s.number}: instant Statues give 3 Rewards")
        if [s.number for s in self.statues if s.instant] != [12, 13, 14]:
            raise ValueError("Statues 12, 13, 14 are the instant ones")
        return self


# ---------------------------------------------------------------- Solo Events
class SoloEvent(Sourced):
    """A Solo Event card."""

    number: int
    id: Literal["exodus", "washed-out-bridge", "wildfire", "rival-hunters", "guild-strike",
                "royal-stipend", "pilgrims", "road-crew", "drought", "heavy-rain"]
    name: str
    type: str
    text: str


class SoloEvents(Sourced):
    """The Solo Event deck: 10 cards."""

    events: list[SoloEvent]

    @model_validator(mode="after")
    def _ten(self) -> "SoloEvents":
        if len(self.events) != 10 or len({e.id for e in self.events}) != 10:
            raise ValueError("the Solo Event deck has 10 different cards (rulebook: Components)")
        return self


# ----------------------------------------------------------------- Game data
class DiceData(Sourced):
    """A kind of die: how many and their faces."""

    name: Literal["black", "yellow", "red", "green", "blue"]
    count: int
    faces: list[int]


class GuildData(Sourced):
    """The four guilds, in sheet order."""

    names: list[str]


class EndTrigger(Sourced):
    """How many completed Guild Tracks trigger the last round."""

    completed_tracks: int


class SoloResult(Sourced):
    """A solo result band and its title."""

    min: int
    max: int
    title: str
    text: str


class GameData(Sourced):
    """Dice, guilds, end trigger and solo results."""

    dice: list[DiceData]
    guilds: GuildData
    end_trigger: EndTrigger
    solo_results: list[SoloResult]

    @model_validator(mode="after")
    def _check(self) -> "GameData":
        if [(d.name, d.count) for d in self.dice] != [("black", 2), ("yellow", 1), ("red", 1),
                                                       ("green", 1), ("blue", 1)]:
            raise ValueError("6 dice: 2 black, yellow, red, green, blue")
        if any(d.faces != [1, 2, 3, 4, 5, 6] for d in self.dice):
            raise ValueError("the dice are d6 (opposite sides add up to 7)")
        if tuple(self.guilds.names) != GUILDS:
            raise ValueError(f"guilds are {GUILDS}")
        if self.end_trigger.completed_tracks != 3:
            raise ValueError("the 3rd completed Guild Track triggers the last round")
        bands = [(r.min, r.max) for r in self.solo_results]
        if bands != [(0, 59), (60, 69), (70, 79), (80, 9999)]:
            raise ValueError("solo results: 59 or less, 60-69, 70-79, 80 or higher")
        return self


SHEETS = {s: load_data(__package__, f"{s}.json", Sheets) for s in ("summer", "winter")}
STATUE_DATA = load_data(__package__, "statues.json", StatueDeck)
EVENT_DATA = load_data(__package__, "solo-events.json", SoloEvents)
GAME_DATA = load_data(__package__, "game.json", GameData)

D6 = Die("d6", (1, 2, 3, 4, 5, 6))
BLACK_DIE = Die("black die", (1, 2, 3, 4, 5, 6))
COLOUR_DIE = {c: Die(f"{c} die", (1, 2, 3, 4, 5, 6)) for c in COLOURS}
END_TRACKS = GAME_DATA.end_trigger.completed_tracks
SOLO_RESULTS = tuple((r.min, r.max, r.title, r.text) for r in GAME_DATA.solo_results)


# ------------------------------------------------------------ Statue tables
STATUES = STATUE_DATA.statues
N_KINDS = len(STATUES)
#: Card ids 0..27: card c has kind c % 14 (0-based) and back c // 14 (0 Day, 1 Night).
N_CARDS = N_KINDS * len(STATUE_DATA.backs)
CARD_KIND = tuple(c % N_KINDS for c in range(N_CARDS))
CARD_BACK = tuple(c // N_KINDS for c in range(N_CARDS))
CARD_ID = tuple(f"{CARD_KIND[c] + 1}-{STATUE_DATA.backs[CARD_BACK[c]].lower()}" for c in range(N_CARDS))
CARD_INDEX = {cid: i for i, cid in enumerate(CARD_ID)}
DRAFT_LINE = STATUE_DATA.draft_line
MAX_STATUES = STATUE_DATA.max_per_player
STATUE_INSTANT = tuple(REWARD_CODE[s.instant] if s.instant else 0 for s in STATUES)
STATUE_TIMES = tuple(s.times for s in STATUES)
STATUE_STARS = tuple(s.star_pips for s in STATUES)

# ------------------------------------------------------------- Event tables
EVENTS = EVENT_DATA.events
EVENT_IDS = tuple(e.id for e in EVENTS)
EVENT_INDEX = {e: i for i, e in enumerate(EVENT_IDS)}
