"""Dice Kingdoms of Valeria as a fixed-length feature vector (the research observation space).

Drawn from ``observation(seat)`` only (every sheet is public; the Statue and Event decks appear
as counts). Each seat's Castle and Forest sheets are encoded from the observer on, over the
season's layout (the ``sheets`` option). See :mod:`dicetable.engine.encoding`;
``Encoding.slices`` documents each position.
"""

from __future__ import annotations

from dicetable.engine.encoding import Encoding, counts, numbers, one_hot, per_seat, scalar

from .components import CARD_ID, EVENT_IDS, GUILDS, LAYOUTS, MAX_STATUES, N_KINDS
from .rules import PHASES, TASK_NAMES
from .viewdata import dice_faces

_RESULTS = ("open", "high", "low", "pending")
_SCORE_SCALE = 100.0


def _sheet(v: dict) -> dict:
    return v["obs"]["players"][v["seat"]]


def observation_encoding(players: int, options: dict) -> Encoding:
    """The feature layout for ``players`` seats and the season's sheets (rulebook sections: the
    Castle and Forest sheets, Harvest, Actions, Reward Pips, Statues, Solo game)."""
    lay = LAYOUTS[options.get("sheets", "summer")]
    blocks = [(lid, f"{lay.block_range[b][0]}-{lay.block_range[b][1]}", lay.block_len[b])
              for lid, bl in zip(lay.lair_ids, lay.lair_blocks) for b in bl]
    seat = lambda f: per_seat(players, f)  # noqa: E731 - a short alias for the list below
    feats = [
        one_hot("phase", lambda o: o["phase"], PHASES, "the phase of the turn"),
        scalar("round", lambda o: o["round"], 10, "round / 10"),
        scalar("turn", lambda o: o["turn"], 40, "turn / 40"),
        scalar("last_round", lambda o: o["last_round"], 1, "1 once the last round has begun"),
        seat(scalar("is_active", lambda v: v["obs"]["active"] == v["seat"], 1, "1 for the Active Player")),
        seat(scalar("deciding", lambda v: v["seat"] in v["obs"]["deciding"], 1, "1 for each seat deciding now")),
        numbers("dice", lambda o: [v or 0 for v in dice_faces(o)], 6, 6,
                "black, black, yellow, red, green, blue dice / 6"),
        counts("statue_line", lambda o: o["statue_line"], CARD_ID, 1, "Statue cards in the draft line"),
        numbers("statue_deck", lambda o: [o["statue_deck"]["day"], o["statue_deck"]["night"]], 2, N_KINDS,
                "Day and Night Statue cards left / kinds"),
        counts("my_tasks", lambda o: o.get("my_tasks", ()), tuple(TASK_NAMES.values()), 4,
               "the observer's pending Reward tasks, by kind (count / 4)"),
        seat(numbers("citizens", lambda v: [c["marked"] for c in _sheet(v)["citizens"].values()],
                     len(lay.cit_names), 2, "pips marked in each Citizen section (" + ", ".join(lay.cit_names) + ") / 2")),
        seat(numbers("guild_tracks", lambda v: [_sheet(v)["guild_tracks"][g] for g in GUILDS], 4, lay.trk_len,
                     "pips marked on each Guild Track (" + ", ".join(GUILDS) + f") / {lay.trk_len}")),
        seat(scalar("gold", lambda v: _sheet(v)["gold"], 10, "Gold / 10")),
        seat(scalar("wall", lambda v: _sheet(v)["wall"], 10, "Wall pips / 10")),
        seat(numbers("range_blocks", lambda v: [_sheet(v)["lairs"][lid]["blocks"][rng] / n for lid, rng, n in blocks],
                     len(blocks), 1, "share of each Range Block marked ("
                     + ", ".join(f"{lid} {rng}" for lid, rng, _ in blocks) + ")")),
        seat(numbers("lair_results", lambda v: [_RESULTS.index(_sheet(v)["lairs"][lid]["result"]) == k
                                                for lid in lay.lair_ids for k in range(4)],
                     4 * len(lay.lair_ids), 1, "per Monster Lair: one-hot of open, high, low, pending")),
        seat(numbers("lair_access", lambda v: [_sheet(v)["lairs"][lid]["access"] for lid in lay.lair_ids],
                     len(lay.lair_ids), 1, "1 for each lair the seat may slay in")),
        seat(numbers("roads", lambda v: [_sheet(v)["roads"][rid]["marked"] / lay.road_len[r]
                                         for r, rid in enumerate(lay.road_ids)],
                     len(lay.road_ids), 1, "share of each Road's pips marked (" + ", ".join(lay.road_ids) + ")")),
        seat(counts("domains", lambda v: _sheet(v)["domains"], lay.dom_ids, 1, "Domains claimed")),
        seat(counts("voided_domains", lambda v: _sheet(v)["voided_domains"], lay.dom_ids, 1, "Domains voided")),
        seat(counts("statues", lambda v: _sheet(v)["statues"], range(1, N_KINDS + 1), 1, "Statues held, by kind")),
        seat(scalar("plinths", lambda v: _sheet(v)["plinths_to_draft"], MAX_STATUES, "Statues still to draft")),
        seat(scalar("score", lambda v: _sheet(v)["score"]["total"], _SCORE_SCALE, "points so far / 100")),
    ]
    if players == 1:
        feats += [
            scalar("trees", lambda o: o["solo"]["trees"], 10, "solo: trees / 10"),
            scalar("ships", lambda o: o["solo"]["ships"], 10, "solo: ships / 10"),
            counts("events_drawn", lambda o: o["solo"]["events_drawn"], EVENT_IDS, 1, "solo: Events drawn"),
            scalar("event_deck", lambda o: o["solo"]["event_deck"], len(EVENT_IDS), "solo: Events left / all"),
        ]
    return Encoding(feats)
