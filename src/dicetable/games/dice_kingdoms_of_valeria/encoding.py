"""Dice Kingdoms of Valeria as a fixed-length feature vector (the research observation space).

Drawn from ``observation(seat)`` only (every sheet is public; the Statue and Event decks appear
as counts). Each seat's Castle and Forest sheets are encoded from the observer on, over the
season's layout (the ``sheets`` option). See :mod:`dicetable.engine.encoding`;
``Encoding.slices`` documents each position.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

from dicetable.engine.encoding import (
    DirectFill, Encoding, Feature, Obs, counts, numbers, one_hot, per_seat, scalar, scatter, shared_memo, tally,
    vocab_slots,
)

from .components import CARD_BACK, CARD_ID, EVENT_IDS, MAX_STATUES, N_KINDS
from .layout import LAYOUTS
from .sheet import GUILDS
from .rules import PHASES, TASK_NAMES, DiceKingdomsState
from .sheet import ACC, CIT, DOM, GOLDC, LB0, LST, PLP, STAT, TRK, VDOM, WALLC
from .rules.scoring import score_total
from .rules.tables import KIND_CODE
from .viewdata import dice_faces

_RESULTS: Final = ("open", "high", "low", "pending")
_SCORE_SCALE: Final = 100.0
_TASK_VOCAB: Final = tuple(TASK_NAMES.values())


def _sheet(v: Obs) -> Obs:
    """The seat's sheet in a ``per_seat`` view."""
    sheet: Obs = v["obs"]["players"][v["seat"]]
    return sheet


def observation_encoding(players: int, options: dict[str, Any]) -> Encoding:
    """The feature layout for ``players`` seats and the season's sheets (rulebook sections: the
    Castle and Forest sheets, Harvest, Actions, Reward Pips, Statues, Solo game)."""
    lay = LAYOUTS[options.get("sheets", "summer")]
    blocks = [(lid, f"{lay.block_range[b][0]}-{lay.block_range[b][1]}", lay.block_len[b])
              for lid, bl in zip(lay.lair_ids, lay.lair_blocks) for b in bl]
    sheet_features = [
        numbers("citizens", lambda v: [c["marked"] for c in _sheet(v)["citizens"].values()],
                len(lay.cit_names), 2, "pips marked in each Citizen section (" + ", ".join(lay.cit_names) + ") / 2"),
        numbers("guild_tracks", lambda v: [_sheet(v)["guild_tracks"][g] for g in GUILDS], 4, lay.trk_len,
                "pips marked on each Guild Track (" + ", ".join(GUILDS) + f") / {lay.trk_len}"),
        scalar("gold", lambda v: _sheet(v)["gold"], 10, "Gold / 10"),
        scalar("wall", lambda v: _sheet(v)["wall"], 10, "Wall pips / 10"),
        numbers("range_blocks", lambda v: [_sheet(v)["lairs"][lid]["blocks"][rng] / n for lid, rng, n in blocks],
                len(blocks), 1, "share of each Range Block marked ("
                + ", ".join(f"{lid} {rng}" for lid, rng, _ in blocks) + ")"),
        numbers("lair_results", lambda v: [_RESULTS.index(_sheet(v)["lairs"][lid]["result"]) == k
                                           for lid in lay.lair_ids for k in range(4)],
                4 * len(lay.lair_ids), 1, "per Monster Lair: one-hot of open, high, low, pending"),
        numbers("lair_access", lambda v: [_sheet(v)["lairs"][lid]["access"] for lid in lay.lair_ids],
                len(lay.lair_ids), 1, "1 for each lair the seat may slay in"),
        numbers("roads", lambda v: [_sheet(v)["roads"][rid]["marked"] / lay.road_len[r]
                                    for r, rid in enumerate(lay.road_ids)],
                len(lay.road_ids), 1, "share of each Road's pips marked (" + ", ".join(lay.road_ids) + ")"),
        counts("domains", lambda v: _sheet(v)["domains"], lay.dom_ids, 1, "Domains claimed"),
        counts("voided_domains", lambda v: _sheet(v)["voided_domains"], lay.dom_ids, 1, "Domains voided"),
        counts("statues", lambda v: _sheet(v)["statues"], range(1, N_KINDS + 1), 1, "Statues held, by kind"),
        scalar("plinths", lambda v: _sheet(v)["plinths_to_draft"], MAX_STATUES, "Statues still to draft"),
        scalar("score", lambda v: _sheet(v)["score"]["total"], _SCORE_SCALE, "points so far / 100"),
    ]
    feats = [
        one_hot("phase", lambda o: o["phase"], PHASES, "the phase of the turn"),
        scalar("round", lambda o: o["round"], 10, "round / 10"),
        scalar("turn", lambda o: o["turn"], 40, "turn / 40"),
        scalar("last_round", lambda o: o["last_round"], 1, "1 once the last round has begun"),
        per_seat(players, scalar("is_active", lambda v: v["obs"]["active"] == v["seat"], 1, "1 for the Active Player")),
        per_seat(players, scalar("deciding", lambda v: v["seat"] in v["obs"]["deciding"], 1,
                                 "1 for each seat deciding now")),
        numbers("dice", lambda o: [v or 0 for v in dice_faces(o)], 6, 6,
                "black, black, yellow, red, green, blue dice / 6"),
        counts("statue_line", lambda o: o["statue_line"], CARD_ID, 1, "Statue cards in the draft line"),
        numbers("statue_deck", lambda o: [o["statue_deck"]["day"], o["statue_deck"]["night"]], 2, N_KINDS,
                "Day and Night Statue cards left / kinds"),
        counts("my_tasks", lambda o: o.get("my_tasks", ()), _TASK_VOCAB, 4,
               "the observer's pending Reward tasks, by kind (count / 4)"),
        *(per_seat(players, f) for f in sheet_features),
    ]
    if players == 1:
        feats += [
            scalar("trees", lambda o: o["solo"]["trees"], 10, "solo: trees / 10"),
            scalar("ships", lambda o: o["solo"]["ships"], 10, "solo: ships / 10"),
            counts("events_drawn", lambda o: o["solo"]["events_drawn"], EVENT_IDS, 1, "solo: Events drawn"),
            scalar("event_deck", lambda o: o["solo"]["event_deck"], len(EVENT_IDS), "solo: Events left / all"),
        ]
    return Encoding(feats, direct=lambda offsets: _direct(players, lay, blocks, sheet_features, offsets))


def _direct(players: int, lay: Any, blocks: list[tuple[str, str, int]], sheet_features: list[Feature],
            at: dict[str, int]) -> DirectFill:
    """The same vector as the features above, written from the state.

    Every sheet is public: a seat's sheet slices are worked out once per distinct sheet and then
    copied into the slot of whichever seat holds it; the decks are read only as counts (Day and
    Night backs, Events left).
    """
    phase_index = {p: i for i, p in enumerate(PHASES)}
    line_slot = vocab_slots(CARD_ID, CARD_ID)
    task_slot = {code: i for i, code in enumerate(TASK_NAMES)}
    event_slot = vocab_slots(EVENT_IDS, EVENT_IDS)
    n_cit, n_lairs, n_doms = len(lay.cit_names), len(lay.lair_ids), len(lay.dom_ids)
    block_ids = [b for bl in lay.lair_blocks for b in bl]
    block_len = [n for _, _, n in blocks]
    dom_slot = vocab_slots(lay.dom_ids, lay.dom_ids)
    trk_len, road_len, rc0 = lay.trk_len, lay.road_len, lay.rc0
    # where each value of a sheet's row (the sheet features' slices one after another) goes
    # for the seat in slot k: at[name] + k * size + i
    layout = [(at[f.name], f.size, i) for f in sheet_features for i in range(f.size)]
    # the values as an array (for numpy's put) and as Python floats (read item by item into a
    # memoryview or a list without making new objects), likewise the positions per seat slot
    cache: dict[tuple[int, ...], tuple[list[int], array[float], tuple[float, ...], list[Any]]] = shared_memo(
        "dice-kingdoms-of-valeria", "sheet", players, lay.season)

    def sheet_row(sheet: list[int]) -> tuple[list[int], array[float], tuple[float, ...], list[Any]]:
        """(places in the row, values twice) of the non-zero values of one seat's sheet slices,
        worked out from the sheet's ints as the features above read them from its view, and room
        for their positions in each seat slot; memoised on those ints."""
        key = tuple(sheet)
        got = cache.get(key)
        if got is not None:
            return got
        if len(cache) > 4096:  # bound the memory of long runs
            cache.clear()
        results = [0.0] * (4 * n_lairs)
        for li in range(n_lairs):
            results[li * 4 + sheet[LST + li]] = 1.0
        doms, void, stat, acc = sheet[DOM], sheet[VDOM], sheet[STAT], sheet[ACC]
        domains = [0.0] * n_doms
        voided = [0.0] * n_doms
        for d in range(n_doms):
            if dom_slot[d] is not None:
                domains[dom_slot[d]] += doms >> d & 1  # type: ignore[index]
                voided[dom_slot[d]] += void >> d & 1  # type: ignore[index]
        row = [
            *[sheet[CIT + i] / 2 for i in range(n_cit)],
            *[sheet[TRK + g] / trk_len for g in range(4)],
            sheet[GOLDC] / 10, sheet[WALLC] / 10,
            *[sheet[LB0 + b] / n for b, n in zip(block_ids, block_len)],
            *results,
            *[float(acc >> li & 1) for li in range(n_lairs)],
            *[sheet[rc0 + r] / road_len[r] for r in range(len(road_len))],
            *domains, *voided,
            *[float(stat >> k & 1) for k in range(N_KINDS)],
            sheet[PLP] / MAX_STATUES,
            score_total(lay, sheet) / _SCORE_SCALE,
        ]
        nonzero = [j for j, v in enumerate(row) if v]
        values = [row[j] for j in nonzero]
        got = cache[key] = (nonzero, array("d", values), tuple(values), [None] * players)
        return got

    def placed(sheet: list[int], k: int) -> tuple[array[int], array[float], tuple[int, ...], tuple[float, ...]]:
        """(positions, values) of a sheet's non-zero values for the seat in slot ``k`` as arrays,
        then as Python numbers (memoised)."""
        nonzero, values, floats, where = sheet_row(sheet)
        got = where[k]
        if got is None:
            positions = [slots[k][j] for j in nonzero]
            got = where[k] = (array("q", positions), tuple(positions))
        return got[0], values, got[1], floats

    slots = [[start + k * size + i for start, size, i in layout] for k in range(players)]

    day_cards: dict[tuple[int, ...], int] = shared_memo("dice-kingdoms-of-valeria", "day cards")

    def fill(state: DiceKingdomsState, seat: int | None, out: Any) -> None:
        n = state.players
        out[at["phase"] + phase_index[state.phase]] = 1.0
        out[at["round"]] = state.round_no / 10
        out[at["turn"]] = state.turn_no / 40
        if state.last_round:
            out[at["last_round"]] = 1.0
        first = seat if seat is not None else 0
        rel = [(s - first) % n for s in range(n)]
        if 0 <= state.active < n:
            out[at["is_active"] + rel[state.active]] = 1.0
        for s in state.to_move:
            out[at["deciding"] + rel[s]] = 1.0
        for i, face in enumerate(state.dice[:6]):
            if face:
                out[at["dice"] + i] = face / 6
        for c in state.line:
            slot = line_slot[c]
            if slot is not None:
                out[at["statue_line"] + slot] += 1.0
        deck = state.deck if type(state.deck) is tuple else tuple(state.deck)
        n_day = day_cards.get(deck)
        if n_day is None:
            if len(day_cards) > 4096:  # bound the memory of long runs
                day_cards.clear()
            n_day = day_cards[deck] = sum(1 for c in deck if CARD_BACK[c] == 0)
        out[at["statue_deck"]] = n_day / N_KINDS
        out[at["statue_deck"] + 1] = (len(state.deck) - n_day) / N_KINDS
        if seat is not None:
            tasks = [0] * len(task_slot)
            for task in state.seat_tasks(seat):
                tasks[task_slot[KIND_CODE[task[0]]]] += 1
            for i, c in enumerate(tasks):
                if c:
                    out[at["my_tasks"] + i] = tally(c, 4)
        if hasattr(out, "put"):  # numpy: one put per sheet
            for s, sheet in enumerate(state.sheets):
                positions, values, _, _ = placed(sheet, rel[s])
                scatter(out, positions, values)
        else:
            for s, sheet in enumerate(state.sheets):
                _, _, at_, values_ = placed(sheet, rel[s])
                for p, v in zip(at_, values_):
                    out[p] = v
        if n == 1:
            out[at["trees"]] = state.trees / 10
            out[at["ships"]] = state.ships / 10
            for e in state.events_drawn:
                slot = event_slot[e]
                if slot is not None:
                    out[at["events_drawn"] + slot] += 1.0
            out[at["event_deck"]] = len(state.event_deck) / len(EVENT_IDS)
    return fill
