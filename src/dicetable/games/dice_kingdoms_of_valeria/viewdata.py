"""What the views (terminal and browser board) read from an observation, in one place.

Everything here is computed from ``state.observation(seat)`` (whose sheets are
all public: rulebook: Player Sheets) and the season's public sheet layout
(``components.LAYOUTS``), never from a state. Positions are 0-based; a Road's
pips are counted in the layout's listed a -> b order.
"""

from __future__ import annotations

from dicetable.engine import seat_name

from .components import GUILDS, LAYOUTS, PLAIN, STATUES

#: Statue counts in short words (the unit a scoring Statue pays for).
_COUNT_WORD = {
    "complete_bridges": ("Bridge", "Bridges"), "domains": ("Domain", "Domains"),
    "gold_pips": ("Gold pip", "Gold pips"), "wall_stars": ("Wall Star", "Wall Stars"),
    "lairs_completed": ("Lair", "Lairs"), "stars": ("Star", "Stars"),
    "plinths": ("Plinth", "Plinths"), "holy_citizens": ("Holy pip", "Holy pips"),
    "shadow_citizens": ("Shadow pip", "Shadow pips"), "soldier_citizens": ("Soldier pip", "Soldier pips"),
    "worker_citizens": ("Worker pip", "Worker pips"),
}


def layout(obs: dict):
    """The season's sheet layout (``components.Layout``) named by ``obs["sheets"]``.

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

    def __init__(self, lay, pl: dict) -> None:
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


def lair_vp_state(obs: dict, sheet: Sheet, li: int, seat: int) -> str:
    """How lair ``li``'s VP values stand for ``seat``: "high" / "low" circled, "pending" (completed
    in this Harvest), "crossed" (someone else, or Rival Hunters, took the higher value), "open"."""
    result = sheet.lair(li)["result"]
    if result in ("high", "low", "pending"):
        return result
    first = obs["lair_first"][li]
    return "crossed" if (first == -2 or (first >= 0 and first != seat)) else "open"


def lair_first_note(obs: dict, li: int, seat: int) -> str:
    """Who crossed out the higher value of lair ``li`` for ``seat`` ("" when nobody did)."""
    first = obs["lair_first"][li]
    if first == -2:
        return "crossed out by Rival Hunters"
    if first >= 0 and first != seat:
        return f"{seat_name(first)} completed it first"
    return ""


def focus_seat(obs: dict, seat: int | None, focus: int | None) -> int:
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
