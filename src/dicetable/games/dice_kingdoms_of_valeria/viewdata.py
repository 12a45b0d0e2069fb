"""What the views (terminal text, browser board, feature encoding) read from an observation, in one place.

:class:`Observation` is the shape of ``state.observation(seat)`` (every sheet
is public: rulebook, Player Sheets; the decks appear as counts), documented
field by field; the helpers below read it, so the views do not each decode
the dict again. Everything here is computed from the observation and the
season's public sheet layout (``layout.LAYOUTS``), never from a state.
Positions are 0-based; a Road's pips are counted in the layout's listed
a -> b order.
"""

from __future__ import annotations

from typing import Any, Literal, Mapping, Optional, TypedDict, Union

from dicetable.engine import seat_name

from .components import STATUES
from .layout import LAYOUTS
from .sheet import GUILDS, PLAIN

class Dice(TypedDict):
    """The six dice as last rolled (rulebook: Roll Phase): pips 1-6 (0 before the first roll)."""

    black: list[int]   # the two black dice of the Harvest (in solo, those of the latest Harvest)
    yellow: int        # the Recruit die
    red: int           # the Slay die
    green: int         # the Build die
    blue: int          # added to one of the three (not under the solo Heavy Rain Event)


class StatueDeck(TypedDict):
    """The Statue deck as everyone sees it: how many Day and Night backs are left (the order is hidden)."""

    day: int
    night: int


class CitizenView(TypedDict):
    """One Citizens Tableau section: ``marked`` pips (0-2, from the left), ``voided`` 1-based pips (solo Exodus)."""

    marked: int
    voided: list[int]


class LairView(TypedDict):
    """A Monster Lair: pips marked per Range Block ("9-12" -> n), its result and whether a Trailhead opened it."""

    blocks: dict[str, int]
    result: Literal["open", "high", "low", "pending"]   # pending: completed in this Harvest, priority not settled
    access: bool


#: A Road: pips ``marked`` and the end it is marked ``from`` (a node id; None while not begun).
RoadView = TypedDict("RoadView", {"marked": int, "from": Optional[str]})


class ScoreView(TypedDict):
    """The Score Tally (rulebook: Scoring): Star pips, Domains, lairs' VP, Statues' VP (by number), total."""

    stars: int
    domains: int
    lairs: int
    statues: int
    statue_vp: dict[str, int]
    total: int


class PlayerSheets(TypedDict):
    """One seat's Castle and Forest sheets (``rules.sheet_view``); names are the layout's ids."""

    citizens: dict[str, CitizenView]            # by section name ("9/10"), in sheet order
    guild_tracks: dict[str, int]                 # pips marked per guild (0-24)
    voided_track_rewards: dict[str, list[int]]   # solo Guild Strike: 1-based Reward Pips voided, per guild
    gold: int                                    # Gold Chart pips marked
    wall: int                                    # Knights on the Wall pips marked
    lairs: dict[str, LairView]                   # by lair id ("L5".."L8")
    roads: dict[str, RoadView]                   # by Road id
    domains: list[str]                           # Domains claimed
    voided_domains: list[str]                    # solo Wildfire
    voided_bridges: list[str]                    # solo Washed-Out Bridge
    statues: list[int]                           # Statue numbers held (1-14), at most 4
    plinths_to_draft: int                        # Plinths marked in this Harvest, Statues still to take
    score: ScoreView


class SoloView(TypedDict):
    """The solo game's track of turns and Events (rulebook: Solo Rules)."""

    trees: int                 # trees marked off = turns begun (20 in all)
    ships: int                 # ships marked off = Events drawn on doubles
    events_drawn: list[str]    # Event ids, oldest first (undrawn Events are never named)
    event_deck: int            # Events left
    heavy_rain: bool           # no Blue die this turn
    drought: bool              # no Harvest this turn
    second_harvest: bool       # the black dice shown are the ones rolled again for the 2nd Harvest
    result: Optional[str]      # the result's title once the game is over


class _ObservationBase(TypedDict):
    game: str
    sheets: Literal["summer", "winter"]   # the season of the sheets (option ``sheets``)
    seat: Optional[int]                    # the viewer (None: a spectator)
    phase: Literal["event", "harvest", "draft", "action", "over"]
    round: int                             # rounds begun (a round ends when the turn is back at the first player)
    turn: int                              # turns begun
    active: int                            # the Active Player
    first_player: int
    last_round: bool                       # a seat completed 3 Guild Tracks
    dice: Dice
    statue_line: list[str]                 # the draft line's cards, "<number>-<day|night>", in line order
    statue_deck: StatueDeck
    lair_first: list[int]                  # per lair (layout order): the seat that completed it first,
                                           # -1 nobody yet, -2 crossed out by Rival Hunters (solo)
    players: list[PlayerSheets]            # every seat's sheets, by seat
    deciding: list[int]                    # the seats to move now
    scores: list[int]                      # every seat's Score Tally total
    winners: list[int]                     # once over: the winners (solo: [0] with 60 or more VP)


class Observation(_ObservationBase, total=False):
    """``state.observation(seat)`` of Dice Kingdoms of Valeria; the keys below only some observations have."""

    my_tasks: list[str]   # a seat's own pending Reward tasks, the next one last (not for spectators)
    solo: SoloView        # the solo game only


#: What the helpers accept: an :class:`Observation`, or the same dict untyped (as JSON gives it).
ObsLike = Union[Observation, Mapping[str, Any]]


#: The phases by name, as the views show them; the solo 2nd Harvest's in ``PHASE_NAMES_2ND``.
PHASE_NAMES = {"event": "Event phase", "harvest": "Harvest", "draft": "Harvest: Statue draft",
               "action": "Action phase", "over": "Game over"}
PHASE_NAMES_2ND = {"harvest": "2nd Harvest", "draft": "2nd Harvest: Statue draft"}


def solo_flags(obs: ObsLike) -> tuple[bool, bool, bool]:
    """(2nd Harvest, Heavy Rain, Drought) of a solo game; all False with more players."""
    solo = obs.get("solo")
    if not solo:
        return False, False, False
    return bool(solo["second_harvest"]), bool(solo["heavy_rain"]), bool(solo["drought"])


def phase_name(obs: ObsLike) -> str:
    """The phase as the views name it ("Action phase", "2nd Harvest", ...)."""
    if solo_flags(obs)[0]:
        return PHASE_NAMES_2ND.get(obs["phase"], PHASE_NAMES[obs["phase"]])
    return PHASE_NAMES[obs["phase"]]


def dice_faces(obs: ObsLike) -> list[int]:
    """The six dice in the rulebook's order: black, black, Yellow, Red, Green, Blue."""
    d = obs["dice"]
    return [*d["black"], d["yellow"], d["red"], d["green"], d["blue"]]


def statue_card(card: str) -> tuple[int, str]:
    """A draft line card id ("3-day") as (its Statue number 1-14, its back "day" or "night")."""
    number, _, back = card.partition("-")
    return int(number), back


def viewer_of(obs: ObsLike, seat: int | None) -> int | None:
    """``seat`` if it is a seat of this table, else None (a spectator)."""
    return seat if seat is not None and 0 <= seat < len(obs["players"]) else None


#: Statue counts in short words (the unit a scoring Statue pays for).
_COUNT_WORD = {
    "complete_bridges": ("Bridge", "Bridges"), "domains": ("Domain", "Domains"),
    "gold_pips": ("Gold pip", "Gold pips"), "wall_stars": ("Wall Star", "Wall Stars"),
    "lairs_completed": ("Lair", "Lairs"), "stars": ("Star", "Stars"),
    "plinths": ("Plinth", "Plinths"), "holy_citizens": ("Holy pip", "Holy pips"),
    "shadow_citizens": ("Shadow pip", "Shadow pips"), "soldier_citizens": ("Soldier pip", "Soldier pips"),
    "worker_citizens": ("Worker pip", "Worker pips"),
}


def layout(obs: ObsLike):
    """The season's sheet layout (``layout.Layout``) named by ``obs["sheets"]``.

    Raises KeyError for an unknown season (an observation of another game).
    """
    return LAYOUTS[obs["sheets"]]


def statue_short(number: int) -> str:
    """A Statue's effect in a few words: "2 VP/Bridge", "1 VP/3 Gold pips", "3 Gold Rewards, 3 Stars".

    ``number`` is the card's number 1-14 (rulebook: Statue Cards).
    """
    st = STATUES[number - 1]
    if st.count:
        one, many = _COUNT_WORD[st.count]
        return f"{st.vp} VP/{one}" if st.per == 1 else f"{st.vp} VP/{st.per} {many}"
    text = f"{st.times} {st.instant} Rewards"
    return text + (f" +{st.star_pips} Stars" if st.star_pips else "")


def power_short(lay, d: int) -> str:
    """Domain ``d``'s power in short rulebook words: "+1/-1 Green", "Flip Red", "Holy Citizen"."""
    kind, die, guild = lay.dom_power[d]
    if kind == "adjust":
        return f"+1/-1 {die.capitalize()}"
    if kind == "flip":
        return f"Flip {die.capitalize()}"
    return f"{guild} Citizen"


def power_long(lay, d: int) -> str:
    """Domain ``d``'s power as the rulebook's Domain Powers list says it."""
    kind, die, guild = lay.dom_power[d]
    if kind == "adjust":
        return f"you may add 1 to or subtract 1 from the {die.capitalize()} die in your Action phase (no wrap-around)"
    if kind == "flip":
        return f"you may flip the {die.capitalize()} die to its opposite side in your Action phase"
    return f"when claimed, mark the leftmost open pip of a {guild} Citizen at once (once only)"


class Sheet:
    """One seat's Castle and Forest sheets as the observation shows them.

    ``pl`` is ``obs["players"][seat]`` (see ``rules.sheet_view``); ``lay`` the season's layout.
    """

    def __init__(self, lay, pl: Mapping[str, Any]) -> None:
        self.lay = lay
        self.pl = pl
        self.claimed_ids = set(pl["domains"])
        self.voided_dom_ids = set(pl["voided_domains"])
        self.voided_bridge_ids = set(pl["voided_bridges"])

    # Castle
    def citizen(self, s: int) -> tuple[int, set]:
        """(pips marked, 0-based positions crossed out) of Citizen section ``s``."""
        c = self.pl["citizens"][self.lay.cit_names[s]]
        return c["marked"], {i - 1 for i in c["voided"]}

    def track(self, g: int) -> tuple[int, set]:
        """(pips marked, 0-based Reward Pips voided by a Guild Strike) of Guild Track ``g``."""
        name = GUILDS[g]
        return self.pl["guild_tracks"][name], {i - 1 for i in self.pl["voided_track_rewards"].get(name, ())}

    def strike_pip(self, g: int) -> int:
        """The pip a Guild Strike would void on track ``g`` (its next open Reward Pip), or -1."""
        n, void = self.track(g)
        pips = self.lay.trk_pips[g]
        for i in range(n, len(pips)):
            if pips[i] != PLAIN and i not in void:
                return i
        return -1

    def block(self, b: int) -> int:
        """Pips marked in Range Block ``b`` (global index)."""
        lay = self.lay
        lo, hi = lay.block_range[b]
        return self.pl["lairs"][lay.lair_ids[lay.block_lair[b]]]["blocks"][f"{lo}-{hi}"]

    def lair(self, li: int) -> dict:
        """``{"blocks": ..., "result": "open"|"high"|"low"|"pending", "access": bool}`` of lair ``li``."""
        return self.pl["lairs"][self.lay.lair_ids[li]]

    def leftmost_block(self, li: int) -> int:
        """The leftmost incomplete Range Block of lair ``li`` (where a Slay Reward marks), or -1."""
        for b in self.lay.lair_blocks[li]:
            if self.block(b) < self.lay.block_len[b]:
                return b
        return -1

    # Forest
    def road_dir(self, r: int) -> int:
        """0 Road ``r`` not begun, 1 marked from its a end, 2 from its b end."""
        origin = self.pl["roads"][self.lay.road_ids[r]]["from"]
        if origin is None:
            return 0
        return 1 if origin == self.lay.road_a_name[r] else 2

    def road_marked(self, r: int) -> range:
        """Positions (a -> b order) of Road ``r``'s marked pips."""
        lay = self.lay
        k = self.pl["roads"][lay.road_ids[r]]["marked"]
        if self.road_dir(r) == 2:
            return range(lay.road_len[r] - k, lay.road_len[r])
        return range(0, k)

    def road_pip_after(self, r: int, d: int, k: int) -> int:
        """Position (a -> b order) of the ``k``-th pip (1-based) marked next on Road ``r`` from end ``d``."""
        lay = self.lay
        have = self.pl["roads"][lay.road_ids[r]]["marked"]
        step = have + k - 1
        return step if d == 1 else lay.road_len[r] - 1 - step

    def claimed(self, d: int) -> bool:
        """True when Domain ``d`` is claimed (circled) on this sheet."""
        return self.lay.dom_ids[d] in self.claimed_ids

    def dom_voided(self, d: int) -> bool:
        """True when Domain ``d`` was voided by the solo Wildfire Event."""
        return self.lay.dom_ids[d] in self.voided_dom_ids

    def bridge_voided(self, bi: int) -> bool:
        """True when Bridge ``bi`` was voided by the solo Washed-Out Bridge Event."""
        return self.lay.bridge_ids[bi] in self.voided_bridge_ids

    def bridge_complete(self, bi: int) -> bool:
        """True when all 3 pips of Bridge ``bi`` are marked and it is not voided."""
        if self.bridge_voided(bi):
            return False
        marked = self.road_marked(self.lay.bridge_road[bi])
        return all(p in marked for p in self.lay.bridge_pos[bi])

    @property
    def score(self) -> dict:
        """The Score Tally: stars, domains, lairs, statues, statue_vp (by number), total."""
        return self.pl["score"]


def lair_vp_state(obs: ObsLike, sheet: Sheet, li: int, seat: int) -> str:
    """How lair ``li``'s VP values stand for ``seat``: "high" / "low" circled, "pending" (completed
    in this Harvest), "crossed" (someone else, or Rival Hunters, took the higher value), "open"."""
    result = sheet.lair(li)["result"]
    if result in ("high", "low", "pending"):
        return result
    first = obs["lair_first"][li]
    return "crossed" if (first == -2 or (first >= 0 and first != seat)) else "open"


def lair_first_note(obs: ObsLike, li: int, seat: int) -> str:
    """Who crossed out the higher value of lair ``li`` for ``seat`` ("" when nobody did)."""
    first = obs["lair_first"][li]
    if first == -2:
        return "crossed out by Rival Hunters"
    if first >= 0 and first != seat:
        return f"{seat_name(first)} completed it first"
    return ""


def focus_seat(obs: ObsLike, seat: int | None, focus: int | None) -> int:
    """The seat whose sheets are drawn in full: ``focus``, else the viewer, else the seat deciding
    (or the Active Player). Raises ValueError naming the allowed range for a bad ``focus``."""
    n = len(obs["players"])
    if focus is not None:
        if isinstance(focus, bool) or not isinstance(focus, int) or not 0 <= focus < n:
            raise ValueError(f"focus must be a seat 0..{n - 1} (got {focus!r})")
        return focus
    if seat is not None and 0 <= seat < n:
        return seat
    deciding = obs.get("deciding") or []
    return deciding[0] if deciding else obs["active"]
