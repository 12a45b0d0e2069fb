"""Corsairs of Valeria components, loaded from ``data/components.toml`` and validated.

The pydantic models check what the rulebook fixes (Components, Game Setup):
5 identical dice with the six symbols, 5 ships and Ship Boards, 35 Silver
coins, 11 Captain cards (10 described), 1 Start Island, 1 Skull Island, 4
double-sided Tracks of which 3 are used. The layout of the Tracks is not
public: the data holds the reconstruction of ``facts/corsairs-of-valeria.md``
§4.3, every item marked ``reconstructed:``; an official layout drops in by
editing the data file.

At import the data is compiled into plain tuples for the rules
(:class:`RaceTrack`): one per arrangement of Tracks, built on demand and
cached, immutable and shared by every state that uses it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field, model_validator

from dicetable.engine import Action, Die, Sourced, load_data

# ---------------------------------------------------------------- data models

FEATURE_KINDS = ("island", "merchant", "whirlpool", "sea-monster", "cutthroat")
HAZARD_KINDS = ("whirlpool", "sea-monster", "cutthroat")


class DiceData(Sourced):
    """The 5 identical dice and their faces (each face once = 1/6 each)."""

    count: int
    faces: list[str]


class ShipBoardData(Sourced):
    """Ship Board dials and the Silver-for-Treasure exchange."""

    grog_start: int = Field(ge=0)
    grog_max: int = Field(gt=0)
    treasure_start: int = Field(ge=0)
    treasure_to_win: int = Field(gt=0)
    silver_start: int = Field(ge=0)
    silver_per_treasure: int = Field(gt=0)


class SilverData(Sourced):
    """The Silver coins: how many exist, and those put on Skull Island."""

    total: int = Field(gt=0)
    skull_island_start: int = Field(ge=0)
    skull_island_refill: int = Field(ge=0)


class SetupData(Sourced):
    """How many Tracks form the race track."""

    tracks_used: int = Field(gt=0)


class ShipData(Sourced):
    """One Ship and its Ship Board colour."""

    colour: str


class CaptainData(Sourced):
    """One Captain card: ``phase`` is the turn phase (A-D) its text names.

    ``text`` is the card's power as the rulebook prints it; ``summary`` is our
    one-line digest of it (at most 54 characters) for the terminal's Ship
    Board lines and the board's visible Captain line; ``short`` the name a
    crowded terminal line uses (e.g. "Bones").
    """

    id: str
    name: str
    phase: str
    optional: bool
    text: str
    summary: str = Field(min_length=1, max_length=54)
    short: str = Field(min_length=1, max_length=9)
    dealt: bool = True


class FeatureData(Sourced):
    """One thing printed on a lane.

    ``island``: on dividing line ``line`` (between space line-1 and space
    line), pays ``silver``/``grog`` when crossed forwards. ``merchant``: on
    space ``space``, pays ``silver``/``grog`` per Cannon when attacked.
    ``whirlpool``/``sea-monster``/``cutthroat``: a hazard on space ``space``.
    """

    kind: Literal["island", "merchant", "whirlpool", "sea-monster", "cutthroat"]
    space: int | None = None
    line: int | None = None
    silver: int = Field(default=0, ge=0)
    grog: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _check(self) -> "FeatureData":
        if self.kind == "island":
            if self.line is None or self.space is not None:
                raise ValueError("an island sits on a dividing line: give `line`, not `space`")
            if self.silver + self.grog == 0:
                raise ValueError("an island needs at least one Silver or Grog symbol")
        else:
            if self.space is None or self.line is not None:
                raise ValueError(f"a {self.kind} sits on a space: give `space`, not `line`")
            if self.kind == "merchant":
                if self.silver + self.grog == 0:
                    raise ValueError("a Merchant ship shows at least one Silver or Grog symbol")
            elif self.silver or self.grog:
                raise ValueError(f"a {self.kind} has no Silver or Grog symbols")
        return self


class LaneData(Sourced):
    """One lane of a Track side (a plain side has one), spaces listed from the Start end."""

    name: str
    spaces: int = Field(gt=0)
    start: int | None = None
    features: list[FeatureData] = []

    @model_validator(mode="after")
    def _check(self) -> "LaneData":
        taken = set()
        for f in self.features:
            if f.kind == "island":
                if f.line is None or not 1 <= f.line <= self.spaces - 1:
                    raise ValueError(
                        f"lane {self.name!r}: island line {f.line} must be an inner dividing line "
                        f"(1..{self.spaces - 1}); Track borders carry no islands"
                    )
            else:
                if f.space is None or not 0 <= f.space < self.spaces:
                    raise ValueError(f"lane {self.name!r}: space {f.space} outside 0..{self.spaces - 1}")
                if f.space in taken:
                    raise ValueError(f"lane {self.name!r}: space {f.space} holds two features")
                taken.add(f.space)
        if self.start is not None and not 0 <= self.start < self.spaces:
            raise ValueError(f"lane {self.name!r}: start space {self.start} is not on the lane")
        return self


def _check_lanes(lanes: list[LaneData], where: str) -> None:
    names = [lane.name for lane in lanes]
    if not lanes:
        raise ValueError(f"{where} needs at least one lane")
    if len(set(names)) != len(names):
        raise ValueError(f"{where}: lane names must differ, got {names}")
    if any(not n or not n.replace("-", "").isalnum() for n in names):
        raise ValueError(f"{where}: lane names are single words (used in action ids), got {names}")


class SideData(Sourced):
    """One side of a Track: one lane, or several lanes split by an island."""

    side: str
    lanes: list[LaneData]

    @model_validator(mode="after")
    def _check(self) -> "SideData":
        _check_lanes(self.lanes, f"side {self.side}")
        if any(lane.start is not None for lane in self.lanes):
            raise ValueError(f"side {self.side}: only Start Island has the Start symbol")
        return self


class TrackData(Sourced):
    """One double-sided Track."""

    id: str
    sides: list[SideData]

    @model_validator(mode="after")
    def _check(self) -> "TrackData":
        if len(self.sides) != 2 or len({s.side for s in self.sides}) != 2:
            raise ValueError(f"Track {self.id} is double-sided: it needs exactly two distinct sides")
        return self


class StartIslandData(Sourced):
    """Start Island: lanes like a Track side; exactly one space has the Start symbol."""

    lanes: list[LaneData]

    @model_validator(mode="after")
    def _check(self) -> "StartIslandData":
        _check_lanes(self.lanes, "Start Island")
        if sum(lane.start is not None for lane in self.lanes) != 1:
            raise ValueError("Start Island has exactly one space with the Start symbol")
        if any(f.kind in HAZARD_KINDS for lane in self.lanes for f in lane.features):
            raise ValueError("Start Island has no hazards")
        return self


class SkullIslandData(Sourced):
    """Skull Island: the goal of each race (one space)."""

    name: str


class Components(Sourced):
    """All Corsairs of Valeria component data (validated on load)."""

    dice: DiceData
    ship_board: ShipBoardData
    silver: SilverData
    setup: SetupData
    ships: list[ShipData]
    captains: list[CaptainData]
    start_island: StartIslandData
    skull_island: SkullIslandData
    tracks: list[TrackData]

    @model_validator(mode="after")
    def _check_counts(self) -> "Components":
        if self.dice.count != 5:
            raise ValueError(f"the rulebook has 5 dice, data says {self.dice.count}")
        if sorted(self.dice.faces) != sorted(DIE_FACES):
            raise ValueError(f"die faces must be the six symbols {list(DIE_FACES)}")
        if len(self.ships) != 5:
            raise ValueError(f"the rulebook has 5 Ships and Ship Boards, data has {len(self.ships)}")
        if self.silver.total != 35:
            raise ValueError(f"the rulebook has 35 Silver coins, data has {self.silver.total}")
        if len(self.captains) != 11:
            raise ValueError(f"the rulebook has 11 Captain cards, data has {len(self.captains)}")
        if len({c.id for c in self.captains}) != 11:
            raise ValueError("Captain ids must be unique")
        if sum(c.dealt for c in self.captains) < 5:
            raise ValueError("at least 5 Captains must be dealable (up to 5 players)")
        if len(self.tracks) != 4 or len({t.id for t in self.tracks}) != 4:
            raise ValueError("the rulebook has 4 Tracks with distinct ids")
        if self.setup.tracks_used != 3:
            raise ValueError("the rulebook uses 3 of the 4 Tracks")
        sides = {tuple(s.side for s in t.sides) for t in self.tracks}
        if len(sides) != 1:
            raise ValueError("every Track must name its two sides the same way (e.g. A and B)")
        board = self.ship_board
        if not board.grog_start <= board.grog_max:
            raise ValueError("the Grog dial starts within its range")
        need = self.silver.skull_island_start + 5 * board.silver_start
        if need > self.silver.total:
            raise ValueError("set-up needs more Silver than the game has")
        return self


#: The six symbols in the order the rules count them (Skulls first: they are executed first).
DIE_FACES = ("skull", "skull-grog", "grog", "silver", "map", "cannon")

COMPONENTS = load_data(__package__, "components.toml", Components)

# ---------------------------------------------------------------- constants

SKULL, SKULL_GROG, GROG, SILVER, MAP, CANNON = range(6)
FACE_WORD = ("Skull", "Skull-and-Grog", "Grog", "Silver", "Map", "Cannon")
FACE_INDEX = {name: i for i, name in enumerate(DIE_FACES)}
#: The die used for every roll; faces in data order, each once.
CORSAIRS_DIE = Die("Corsairs die", tuple(COMPONENTS.dice.faces))
DICE = COMPONENTS.dice.count

GROG_START = COMPONENTS.ship_board.grog_start
GROG_MAX = COMPONENTS.ship_board.grog_max
TREASURE_START = COMPONENTS.ship_board.treasure_start
TREASURE_TO_WIN = COMPONENTS.ship_board.treasure_to_win
SILVER_START = COMPONENTS.ship_board.silver_start
SILVER_PER_TREASURE = COMPONENTS.ship_board.silver_per_treasure
SILVER_TOTAL = COMPONENTS.silver.total
ISLAND_START = COMPONENTS.silver.skull_island_start
ISLAND_REFILL = COMPONENTS.silver.skull_island_refill
TRACKS_USED = COMPONENTS.setup.tracks_used

COLOURS = tuple(s.colour for s in COMPONENTS.ships)
#: Captains that may be dealt, in data order; a seat's captain is an index here.
CAPTAINS = tuple(c for c in COMPONENTS.captains if c.dealt)
CAPTAIN_INDEX = {c.id: i for i, c in enumerate(CAPTAINS)}
NO_CAPTAIN = -1


def _captain(cid: str) -> int:
    if cid not in CAPTAIN_INDEX:
        raise ValueError(f"the rules need the Captain {cid!r} in the data")
    return CAPTAIN_INDEX[cid]


WILLEM, LUTHOR, MISTRESS, PRINCE, REO = (_captain(c) for c in ("willem", "luthor", "mistress", "prince", "reo"))
HOOK, JAGER, BONES, JAXN, HASAN = (_captain(c) for c in ("hook", "jager", "bones", "jaxn", "hasan"))

TRACKS = tuple(COMPONENTS.tracks)
TRACK_INDEX = {t.id: i for i, t in enumerate(TRACKS)}
SIDE_NAMES = tuple(s.side for s in TRACKS[0].sides)

# Hazard codes on compiled nodes.
NO_HAZARD, WHIRLPOOL, SEA_MONSTER, CUTTHROAT = range(4)
HAZARD_CODE = {"whirlpool": WHIRLPOOL, "sea-monster": SEA_MONSTER, "cutthroat": CUTTHROAT}
HAZARD_WORD = ("", "Whirlpool", "Sea Monster", "Cutthroat")


# ---------------------------------------------------------------- race track

Layout = tuple[tuple[int, int], ...]
"""An arrangement of the Tracks: ``((track_index, side_index), ...)`` from Start Island up."""
SegmentLane = tuple[str, tuple[int, ...], tuple[tuple[int, int], ...]]
"""``(lane_name, nodes, islands)`` of one lane of a :attr:`RaceTrack.segments` entry."""


class RaceTrack:
    """One arrangement of the race track compiled into plain tuples (immutable, shared).

    ``layout`` is ``((track_index, side_index), ...)`` from Start Island up;
    ``components`` defaults to the loaded data file.

    Nodes are ints: node ``start`` is the space with the Start symbol,
    ``skull`` (the last node) is Skull Island. Per node:

    * ``fwd[n]``: tuple of ``(next_node, silver, grog)``: the spaces one step
      towards Skull Island and the island reward for crossing that line
      forwards (more than one entry = a lane choice);
    * ``back[n]``: tuple of previous nodes (more than one = a lane choice);
    * ``hazard[n]``: NO_HAZARD, WHIRLPOOL, SEA_MONSTER or CUTTHROAT;
    * ``merchant[n]``: ``(silver, grog)`` per Cannon, or None;
    * ``segment[n]``, ``lane[n]`` (lane name), ``row[n]`` (space index in its lane);
    * ``label[n]``: where the ship is, for people;
    * ``dist[n]``: fewest Maps from ``n`` to Skull Island.

    ``segments`` lists ``(title, lanes)`` from Start Island to Skull Island,
    where ``lanes`` is a tuple of ``(lane_name, nodes, islands)`` and
    ``islands[k]`` is the ``(silver, grog)`` on the line below ``nodes[k]``.
    """

    __slots__ = ("layout", "fwd", "back", "hazard", "merchant", "segment", "lane", "row",
                 "label", "dist", "start", "skull", "segments", "split", "cache")
    layout: Layout
    fwd: tuple[tuple[tuple[int, int, int], ...], ...]
    back: tuple[tuple[int, ...], ...]
    hazard: tuple[int, ...]
    merchant: tuple[tuple[int, int] | None, ...]
    segment: tuple[int, ...]
    lane: tuple[str, ...]
    row: tuple[int, ...]
    label: tuple[str, ...]
    dist: tuple[int, ...]
    start: int
    skull: int
    segments: tuple[tuple[str, tuple[SegmentLane, ...]], ...]
    split: tuple[bool, ...]
    cache: dict[tuple[str | int, ...], tuple[Action, ...]]

    def __init__(self, layout: Layout, components: Components | None = None) -> None:
        data = components or COMPONENTS
        tracks = data.tracks
        sides = tuple(s.side for s in tracks[0].sides)
        self.layout = layout
        fwd: list[list[tuple[int, int, int]]] = []
        back: list[list[int]] = []
        hazard: list[int] = []
        merchant: list[tuple[int, int] | None] = []
        segment: list[int] = []
        lane_of: list[str] = []
        row: list[int] = []
        label: list[str] = []
        segments: list[tuple[str, tuple[SegmentLane, ...]]] = []
        start = -1
        prev_exits: list[int] = []
        parts = [("Start Island", data.start_island.lanes)]
        for pos, (t, s) in enumerate(layout):
            track = tracks[t]
            parts.append((f"Track {pos + 1} ({track.id}{sides[s]})", track.sides[s].lanes))
        for seg, (title, lanes) in enumerate(parts):
            exits, entries, seg_lanes = [], [], []
            split = len(lanes) > 1
            for lane in lanes:
                islands = {f.line: (f.silver, f.grog) for f in lane.features if f.kind == "island"}
                spaces = {f.space: f for f in lane.features if f.kind != "island"}
                nodes = []
                for r in range(lane.spaces):
                    n = len(fwd)
                    nodes.append(n)
                    fwd.append([])
                    back.append([])
                    f = spaces.get(r)
                    hazard.append(HAZARD_CODE.get(f.kind, NO_HAZARD) if f else NO_HAZARD)
                    merchant.append((f.silver, f.grog) if f is not None and f.kind == "merchant" else None)
                    segment.append(seg)
                    lane_of.append(lane.name)
                    row.append(r)
                    where = f"{title}, space {r + 1}" + (f", {lane.name} lane" if split else "")
                    label.append(where)
                    if seg == 0 and lane.start == r:
                        start = n
                    if r > 0:
                        reward = islands.get(r, (0, 0))
                        fwd[n - 1].append((n, reward[0], reward[1]))
                        back[n].append(n - 1)
                entries.append(nodes[0])
                exits.append(nodes[-1])
                seg_lanes.append((lane.name, tuple(nodes),
                                  tuple(islands.get(r, (0, 0)) for r in range(lane.spaces))))
            for e in prev_exits:
                for n in entries:
                    fwd[e].append((n, 0, 0))
                    back[n].append(e)
            prev_exits = exits
            segments.append((title, tuple(seg_lanes)))
        skull = len(fwd)
        fwd.append([])
        back.append(list(prev_exits))
        for e in prev_exits:
            fwd[e].append((skull, 0, 0))
        hazard.append(NO_HAZARD)
        merchant.append(None)
        segment.append(len(parts))
        lane_of.append("main")
        row.append(0)
        label.append(data.skull_island.name)
        segments.append((data.skull_island.name, (("main", (skull,), ((0, 0),)),)))
        # fewest Maps to Skull Island, by a backwards sweep (the graph only goes forwards)
        dist = [0] * len(fwd)
        for n in range(skull - 1, -1, -1):
            dist[n] = 1 + min(dist[m] for m, _, _ in fwd[n])
        self.fwd = tuple(tuple(x) for x in fwd)
        self.back = tuple(tuple(x) for x in back)
        self.hazard = tuple(hazard)
        self.merchant = tuple(merchant)
        self.segment = tuple(segment)
        self.lane = tuple(lane_of)
        self.row = tuple(row)
        self.label = tuple(label)
        self.dist = tuple(dist)
        self.start = start
        self.skull = skull
        self.segments = tuple(segments)
        self.split = tuple(len(lanes) > 1 for _, lanes in segments)
        #: memo of per-node action lists, filled by the rules (immutable values only)
        self.cache = {}

    def __len__(self) -> int:
        return len(self.fwd)

    def node(self, segment: int, row: int, lane: str | None = None) -> int:
        """The node at ``row`` (0-based) of ``lane`` in ``segment`` (0 = Start Island).

        ``lane`` may be omitted on a side with one lane. Raises ValueError
        when there is no such space.
        """
        title, lanes = self.segments[segment]
        for name, nodes, _ in lanes:
            if lane is None and len(lanes) == 1 or name == lane:
                if not 0 <= row < len(nodes):
                    raise ValueError(f"{title} has no space {row} in lane {name!r}")
                return nodes[row]
        raise ValueError(f"{title} has no lane {lane!r}; lanes: {[n for n, _, _ in lanes]}")


@lru_cache(maxsize=None)
def race_track(layout: Layout) -> RaceTrack:
    """The compiled :class:`RaceTrack` for ``layout``: ``((track_index, side_index), ...)``
    from the Track next to Start Island up to the one below Skull Island (cached)."""
    return RaceTrack(layout)


def layout_name(layout: Layout) -> str:
    """``((0, 0), (2, 1), (1, 0))`` -> ``"T1A,T3B,T2A"`` (the ``tracks`` option's format)."""
    return ",".join(f"{TRACKS[t].id}{SIDE_NAMES[s]}" for t, s in layout)


def parse_layout(text: str) -> Layout:
    """Inverse of :func:`layout_name`; ValueError naming what is wrong.

    Needs ``TRACKS_USED`` distinct Track ids, each followed by a side letter.
    """
    out = []
    parts = [p.strip() for p in text.split(",") if p.strip()]
    for p in parts:  # each part first: a misspelt Track is named, whatever the count
        tid, side = p[:-1], p[-1:]
        if tid not in TRACK_INDEX or side not in SIDE_NAMES:
            raise ValueError(
                f"{p!r} is not a Track and side; Tracks: {', '.join(TRACK_INDEX)}, "
                f"sides: {', '.join(SIDE_NAMES)} (e.g. {TRACKS[0].id}{SIDE_NAMES[0]})"
            )
        out.append((TRACK_INDEX[tid], SIDE_NAMES.index(side)))
    if len(parts) != TRACKS_USED:
        raise ValueError(f"the race track uses {TRACKS_USED} Tracks, got {len(parts)} in {text!r}")
    if len({t for t, _ in out}) != len(out):
        raise ValueError(f"each Track can be used once, got {text!r}")
    return tuple(out)


def flipped(layout: Layout) -> Layout:
    """The layout with every Track turned to its other side (after the first Skull Island visit)."""
    return tuple((t, 1 - s) for t, s in layout)
