"""Biblios Dice components, loaded from ``data/components.toml`` and validated.

The models check what the rulebook fixes (Contents, Setup, Scoring, Bishop
Tokens): five Resource Tracks, five Value Dice starting at 3 within 1..6, the
six Adjustment Die faces, VP stacks of 1-2-3 and 1-3-5 (highest on top), nine
Bishop Tokens in three groups of three on three spots, Gold ratios from 5:1
to 2:1 starting 3 spaces up, 40 Bidding Cards (8 per colour, one pass card
each), penalties only below the 4th space, and the start bonuses of the five
seats. Unknown values are marked ``reconstructed:`` in the data file.

Indices used by the rules (precomputed here at import):

* tracks ``0..4`` are the Resource Tracks in data order, ``BISHOP`` (5) the
  Bishop Track; a Resource Die symbol has the index of the track it moves;
* a dice set is a list of 8 ints: counts of the six Resource Die symbols,
  then ``GOLD`` (index into the Gold Die's distinct faces, -1 when absent) and ``ADJUST``
  (index into ``ADJ_FACES``, -1 when absent).
"""

from __future__ import annotations

from pydantic import Field, model_validator

from dicetable.engine import Die, Sourced, load_data


class ResourceData(Sourced):
    """One resource: its id (also the Resource Die symbol), its name ("2 Manuscripts") and the name
    of one ("1 Manuscript")."""

    id: str
    name: str
    one: str


class ResourceDiceData(Sourced):
    """How many Resource Dice exist and how many are used with 2-3 players."""

    total: int = Field(gt=0)
    with_2_or_3_players: int = Field(gt=0)


class FacesData(Sourced):
    """The faces of one kind of die (a repeated face is twice as likely)."""

    faces: list[int | str]


class AdjustmentFace(Sourced):
    """One Adjustment Die face: id (scripted-dice value), label and its steps.

    Steps are ``raise`` (+1 pip), ``lower`` (-1 pip) or ``set3`` (show 3);
    the dice a face adjusts must all be different.
    """

    id: str
    label: str
    steps: list[str]


class ValueDiceData(Sourced):
    """The Value Dice: count, starting pips, range and the reset value."""

    count: int
    start: int
    min: int
    max: int
    reset_to: int


class PathData(Sourced):
    """The Mule path: number of spaces; the last is the market space."""

    spaces: int = Field(gt=1)


class PenaltyData(Sourced):
    """VPs lost at game end by a marker left on ``space``."""

    space: int
    vp: int = Field(gt=0)


class StackData(Sourced):
    """A stack of VP Tokens on a Resource Track space, topmost first."""

    name: str
    space: int
    tokens_top_first: list[int]


class ResourceTrackData(Sourced):
    """The Resource Track (all five alike): length, place eligibility, penalties, VP stacks."""

    spaces: int
    places_from_space: int
    penalties: list[PenaltyData]
    vp_stacks: list[StackData]


class RatioData(Sourced):
    """A Bishop Track space printed with a Gold-to-VP ratio."""

    space: int
    gold_per_vp: int = Field(gt=0)


class TokenSpotData(Sourced):
    """A Bishop Track space holding the stack of one Bishop Token group."""

    space: int
    group: int


class BishopTrackData(Sourced):
    """The Bishop Track: length, where Gold conversion starts, ratios, token spots, penalties."""

    spaces: int
    conversion_from_space: int
    ratios: list[RatioData]
    token_spots: list[TokenSpotData]
    penalties: list[PenaltyData] = []


class BishopTokenData(Sourced):
    """One Bishop Token: its group (number on the back) and effect.

    ``advance`` is the number of *different* Resource Tracks to move up 1 space.
    """

    id: str
    label: str
    group: int
    gold: int = Field(ge=0)
    vp: int = Field(ge=0)
    advance: int = Field(ge=0)


class BiddingCardsData(Sourced):
    """Bidding Card values in each colour (0 is the pass card) and the number of colours."""

    values: list[int]
    colours: int


class BonusData(Sourced):
    """Start bonus by position clockwise from the first player (1 = first player)."""

    position: int
    gold: int = Field(ge=0)
    vp: int = Field(ge=0)
    resource: str


class StartData(Sourced):
    """Starting Gold, VP token and markers per player, and the position bonuses."""

    gold: int
    vp: int
    markers_per_player: int
    bonuses: list[BonusData]


class MarketData(Sourced):
    """The size of the small group; the large group is every other die but the Mule Die."""

    small_group: int


class ScoringData(Sourced):
    """Place multipliers as fractions (1st, 2nd, 3rd; rounded up), end conditions, costs."""

    place_multipliers: list[list[int]]
    bishop_top_ends: bool
    resource_tops_to_end: int
    reroll_cost_vp: int
    objective_bonus: int


class CadfaelData(Sourced):
    """Cadfael (2 players): dice rolled in Phase 0, cards per bid, reshuffle period."""

    dice: int
    cards_per_bid: int
    reshuffle_after_auctions: int


class ColoursData(Sourced):
    """Colour names for the seats and for Cadfael."""

    names: list[str]
    cadfael: str


class Components(Sourced):
    """All Biblios Dice component data (validated on load)."""

    source: str = "file: data/components.toml"
    resources: list[ResourceData]
    resource_dice: ResourceDiceData
    resource_die: FacesData
    gold_die: FacesData
    mule_die: FacesData
    adjustment_faces: list[AdjustmentFace]
    value_dice: ValueDiceData
    mule_path: PathData
    resource_track: ResourceTrackData
    bishop_track: BishopTrackData
    bishop_tokens: list[BishopTokenData]
    bidding_cards: BiddingCardsData
    start: StartData
    market: MarketData
    scoring: ScoringData
    cadfael: CadfaelData
    colours: ColoursData

    @model_validator(mode="after")
    def _check(self) -> "Components":  # noqa: C901 - one check per rulebook fact
        ids = [r.id for r in self.resources]
        if len(ids) != 5 or len(set(ids)) != 5:
            raise ValueError("the rulebook has 5 distinct Resource Tracks")
        faces = self.resource_die.faces
        if set(faces) != set(ids) | {"bishop"}:
            raise ValueError("Resource Dice must show the 5 resources and the Bishop symbol")
        if self.resource_dice.total != 7 or self.resource_dice.with_2_or_3_players != 6:
            raise ValueError("the rulebook has 7 Resource Dice, 6 used with 2 or 3 players")
        gold = self.gold_die.faces
        if "gold-for-all" not in gold or not all(
                isinstance(f, int) and f > 0 for f in gold if f != "gold-for-all"):
            raise ValueError("the Gold Die shows positive numbers and 'gold-for-all'")
        if not all(isinstance(f, int) and f > 0 for f in self.mule_die.faces):
            raise ValueError("the Mule Die shows positive numbers")
        if len(self.adjustment_faces) != 6 or len({a.id for a in self.adjustment_faces}) != 6:
            raise ValueError("the rulebook lists 6 distinct Adjustment Die faces")
        for a in self.adjustment_faces:
            if not a.steps or any(s not in ("raise", "lower", "set3") for s in a.steps):
                raise ValueError(f"adjustment face {a.id}: steps are raise, lower or set3")
        shared = set(map(str, faces)) & set(map(str, gold)) | set(map(str, faces)) & {
            a.id for a in self.adjustment_faces}
        if shared:
            raise ValueError(f"die face names must differ between dice: {sorted(shared)}")
        v = self.value_dice
        if v.count != 5 or v.start != 3 or v.reset_to != 3 or (v.min, v.max) != (1, 6):
            raise ValueError("5 Value Dice start at 3, range 1..6 and reset to 3 (rulebook)")
        rt = self.resource_track
        if rt.places_from_space != 4:
            raise ValueError("only markers on the 4th space or higher place (rulebook)")
        if not rt.places_from_space < rt.spaces:
            raise ValueError("the resource track must be longer than 4 spaces")
        for p in rt.penalties + self.bishop_track.penalties:
            if not 1 <= p.space < 4:
                raise ValueError("penalty icons are only below the 4th space (rulebook)")
        stacks = sorted(rt.vp_stacks, key=lambda s: s.space)
        if [s.tokens_top_first for s in stacks] != [[3, 2, 1], [5, 3, 1]]:
            raise ValueError("VP stacks are 1,2,3 (lower) and 1,3,5 (upper), highest on top (rulebook)")
        if not (1 < stacks[0].space < stacks[1].space < rt.spaces):
            raise ValueError("VP stacks lie above the lowest and below the top space")
        bt = self.bishop_track
        if bt.conversion_from_space != 4:
            raise ValueError("Gold converts from 3 spaces up, i.e. the 4th space (rulebook)")
        ratios = sorted(bt.ratios, key=lambda r: r.space)
        if ratios[0].space != bt.conversion_from_space:
            raise ValueError("the first ratio sits where conversion starts")
        values = [r.gold_per_vp for r in ratios]
        if values[0] != 5 or values[-1] != 2 or values != sorted(values, reverse=True):
            raise ValueError("ratios run from 5:1 to 2:1, improving up the track (rulebook)")
        if ratios[-1].space > bt.spaces:
            raise ValueError("ratio spaces must be on the track")
        tokens = self.bishop_tokens
        if len(tokens) != 9 or len({t.id for t in tokens}) != 9:
            raise ValueError("the rulebook has 9 distinct Bishop Tokens")
        groups = sorted({t.group for t in tokens})
        if len(groups) != 3 or any(sum(t.group == g for t in tokens) != 3 for g in groups):
            raise ValueError("Bishop Tokens form 3 groups (setup 5); 3 tokens each")
        spots = sorted(bt.token_spots, key=lambda s: s.space)
        if sorted(s.group for s in spots) != groups or not all(1 < s.space < bt.spaces for s in spots):
            raise ValueError("each Bishop Token group has one spot on the Bishop Track")
        for t in tokens:
            if t.gold == t.vp == t.advance == 0:
                raise ValueError(f"Bishop Token {t.id} has no effect")
        cards = self.bidding_cards
        if len(cards.values) * cards.colours != 40 or cards.values.count(0) != 1:
            raise ValueError("40 Bidding Cards: 8 per colour, one pass card (0) each (rulebook)")
        if len(set(cards.values)) != len(cards.values) or min(cards.values) < 0:
            raise ValueError("Bidding Card values in a colour must be distinct and >= 0")
        st = self.start
        if (st.gold, st.vp, st.markers_per_player) != (15, 1, 6):
            raise ValueError("players start with 15 Gold, a 1VP token and 6 markers (rulebook)")
        if st.markers_per_player * cards.colours != 30:
            raise ValueError("the rulebook has 30 Track Markers")
        if [b.position for b in st.bonuses] != [1, 2, 3, 4, 5]:
            raise ValueError("start bonuses for positions 1 to 5, in order")
        for b in st.bonuses:
            if b.resource and b.resource not in ids:
                raise ValueError(f"start bonus resource {b.resource!r} is not a resource")
        if self.market.small_group != 3:
            raise ValueError("the small market group has 3 dice (rulebook)")
        sc = self.scoring
        if sc.place_multipliers != [[2, 1], [1, 1], [1, 2]]:
            raise ValueError("places score 2x, 1x and half (rounded up) the Value Die (rulebook)")
        if sc.resource_tops_to_end != 4 or sc.objective_bonus != 3 or sc.reroll_cost_vp != 1:
            raise ValueError("4 markers on top end the game; objectives +3; a re-roll costs 1 VP")
        cf = self.cadfael
        if (cf.dice, cf.cards_per_bid, cf.reshuffle_after_auctions) != (3, 2, 3):
            raise ValueError("Cadfael rolls 3 dice, bids 2 cards, reshuffles every 3 auctions")
        if cf.cards_per_bid * cf.reshuffle_after_auctions > len(cards.values) - 1:
            raise ValueError("Cadfael's draw pile must last until the reshuffle")
        if len(self.colours.names) != cards.colours or self.colours.cadfael in self.colours.names:
            raise ValueError("one colour per player colour, Cadfael's distinct")
        return self


COMPONENTS = load_data(__package__, "components.toml", Components)

# ------------------------------------------------------------------ indices
RESOURCES = tuple(r.id for r in COMPONENTS.resources)
RESOURCE_NAMES = tuple(r.name for r in COMPONENTS.resources)
NRES = len(RESOURCES)               # 5 Resource Tracks
BISHOP = NRES                       # the Bishop Track / Bishop symbol
NTRACKS = NRES + 1
SYMBOLS = RESOURCES + ("bishop",)   # Resource Die symbols, index = track moved
TRACK_NAMES = tuple(f"{n} Track" for n in RESOURCE_NAMES) + ("Bishop Track",)
SYMBOL_NAMES = RESOURCE_NAMES + ("Bishop",)
#: The name of one die or one unit of each symbol ("1 Pigment", "a Quill die"; the rulebook's Example of Phase III)
SYMBOL_ONE = tuple(r.one for r in COMPONENTS.resources) + ("Bishop",)
GOLD = NTRACKS                      # slot of the Gold Die in a dice set
ADJUST = NTRACKS + 1                # slot of the Adjustment Die in a dice set
KINDS = SYMBOLS + ("gold", "adjustment")
EMPTY_SET = (0,) * NTRACKS + (-1, -1)

RESOURCE_DIE = Die("Resource Die", tuple(COMPONENTS.resource_die.faces))
GOLD_DIE = Die("Gold Die", tuple(COMPONENTS.gold_die.faces))
MULE_DIE = Die("Mule Die", tuple(COMPONENTS.mule_die.faces))
ADJ_FACES = tuple(COMPONENTS.adjustment_faces)
ADJ_DIE = Die("Adjustment Die", tuple(a.id for a in ADJ_FACES))
ADJ_INDEX = {a.id: i for i, a in enumerate(ADJ_FACES)}
ADJ_STEPS = tuple(tuple(a.steps) for a in ADJ_FACES)
GOLD_FOR_ALL = "gold-for-all"
SYMBOL_INDEX = {s: i for i, s in enumerate(SYMBOLS)}

ALL_FACES = tuple(dict.fromkeys(RESOURCE_DIE.faces + GOLD_DIE.faces + MULE_DIE.faces + ADJ_DIE.faces))

VALUE_START = COMPONENTS.value_dice.start
VALUE_MIN = COMPONENTS.value_dice.min
VALUE_MAX = COMPONENTS.value_dice.max
VALUE_RESET = COMPONENTS.value_dice.reset_to

MULE_FINAL = COMPONENTS.mule_path.spaces - 1     # the mule's position index 0..MULE_FINAL

_rt = COMPONENTS.resource_track
_bt = COMPONENTS.bishop_track
#: Top space of each track (index = track).
TOP = (_rt.spaces,) * NRES + (_bt.spaces,)
PLACES_FROM = _rt.places_from_space
#: VP lost at game end per track and space (spaces without an icon are absent).
PENALTY = tuple({p.space: p.vp for p in _rt.penalties} for _ in range(NRES)) + (
    {p.space: p.vp for p in _bt.penalties},)
#: VP stacks on every Resource Track: (space, tokens topmost first), lowest stack first.
VP_STACKS = tuple((s.space, tuple(s.tokens_top_first)) for s in sorted(_rt.vp_stacks, key=lambda s: s.space))
#: Gold-to-VP ratios: (space, gold per VP), lowest space first.
RATIOS = tuple((r.space, r.gold_per_vp) for r in sorted(_bt.ratios, key=lambda r: r.space))

TOKENS = tuple(COMPONENTS.bishop_tokens)
TOKEN_INDEX = {t.id: i for i, t in enumerate(TOKENS)}
_spots = sorted(_bt.token_spots, key=lambda s: s.space)
#: Bishop Token spots (space, group number), lowest first; stack ``i`` sits on ``TOKEN_SPOTS[i]``.
TOKEN_SPOTS = tuple((s.space, s.group) for s in _spots)
#: Token indices of each spot's group.
TOKEN_GROUPS = tuple(tuple(i for i, t in enumerate(TOKENS) if t.group == g) for _, g in TOKEN_SPOTS)

CARD_VALUES = tuple(sorted(COMPONENTS.bidding_cards.values))   # 0 is the pass card
PASS = 0
FULL_HAND = sum(1 << v for v in CARD_VALUES)
CADFAEL_CARDS = tuple(v for v in CARD_VALUES if v != PASS)

START = COMPONENTS.start
BONUSES = tuple((b.gold, b.vp, RESOURCES.index(b.resource) if b.resource else -1) for b in START.bonuses)
SMALL_GROUP = COMPONENTS.market.small_group
PLACE_MULT = tuple(tuple(m) for m in COMPONENTS.scoring.place_multipliers)
SCORING = COMPONENTS.scoring
CADFAEL = COMPONENTS.cadfael
COLOURS = tuple(COMPONENTS.colours.names)
CADFAEL_COLOUR = COMPONENTS.colours.cadfael


def resource_dice_for(players: int) -> int:
    """Resource Dice used with ``players`` players (rulebook Setup 15: 6 with 2-3, else 7)."""
    rd = COMPONENTS.resource_dice
    return rd.with_2_or_3_players if players <= 3 else rd.total


def place_points(place: int, pips: int) -> int:
    """VPs for ``place`` (0 = first) on a track whose Value Die shows ``pips`` (half rounds up)."""
    num, den = PLACE_MULT[place]
    return -((-num * pips) // den)


def ratio_at(space: int) -> int:
    """Gold per VP at a Bishop Track space: the best ratio reached or passed; 0 = no conversion."""
    best = 0
    for s, r in RATIOS:
        if space >= s:
            best = r
    return best
