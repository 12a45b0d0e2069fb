"""Dice Kingdoms of Valeria as a fixed-length feature vector (the research observation space).

Drawn from ``observation(seat)`` only (every sheet is public; the Statue and Event decks appear
as counts). Each seat's Castle and Forest sheets are encoded from the observer on, over the
season's layout (the ``sheets`` option). See :mod:`dicetable.engine.encoding`;
``Encoding.slices`` documents each position.
"""

from __future__ import annotations

from array import array
from struct import Struct
from typing import Any, Final

from dicetable.engine.encoding import (
    DirectFill, Encoding, Feature, Obs, counts, numbers, one_hot, per_seat, scalar, shared_memo, tally,
    vocab_slots,
)

from .components import CARD_BACK, CARD_ID, EVENT_IDS, MAX_STATUES, N_KINDS
from .layout import LAYOUTS, Layout
from .sheet import GUILDS
from .rules import PHASES, TASK_NAMES, DiceKingdomsState
from .sheet import ACC, CIT, DOM, GOLDC, LB0, LST, PLP, STAT, TRK, VDOM, WALLC
from .rules.scoring import score_total
from .rules.tables import KIND_CODE
from .viewdata import dice_faces

_RESULTS: Final = ("open", "high", "low", "pending")
_SCORE_SCALE: Final = 100.0
_TASK_VOCAB: Final = tuple(TASK_NAMES.values())
#: task counts whose tally (what ``counts`` adds up) is worked out once
_TALLIED: Final = 16


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


class _SheetRow:
    """One seat's sheet slices as the features above give them, worked out once per distinct
    sheet: its non-zero values, each with its place in the sheets' run for the seat in slot 0
    (``place``) and what a slot further on adds to it (``step``: the feature's size)."""

    def __init__(self, place: list[int], step: list[int], values: list[float]) -> None:
        self.place = place
        self.step = step
        self.values = values


#: the row of no sheet yet (a :class:`_Seen`'s before its first fill)
_NO_ROW: Final = _SheetRow([], [], [])


class _Run:
    """Every seat's sheet slices in the observer's order: the vector's run ``[lo, hi)`` as
    Python floats (a list output takes them in one slice without making new floats) and, made
    when first asked, as a float32 memoryview (a buffer output's one slice copy) and as doubles
    (numpy's, which rounds them to its own dtype as it would the floats)."""

    def __init__(self, floats: list[float]) -> None:
        self.floats = floats
        self.f32: memoryview[float] | None = None
        self.f64: memoryview[float] | None = None


class _Seen:
    """What the last fill of one state object read: copies of its sheets, their rows and the runs
    made from them, by the observer's slot 0, and its Statue deck (the next fill of that state, the
    other seat's tensor or the step after, compares them and works out only what changed)."""

    def __init__(self, players: int) -> None:
        self.copies: list[list[int]] = [[] for _ in range(players)]  # an empty list equals no sheet
        self.rows: list[_SheetRow] = [_NO_ROW] * players
        self.runs: list[_Run | None] = [None] * players
        self.deck: tuple[int, ...] | None = None  # the Statue deck last read, and its Day cards
        self.n_day = 0


def _direct(players: int, lay: Layout, blocks: list[tuple[str, str, int]], sheet_features: list[Feature],
            at: dict[str, int]) -> DirectFill:
    """The same vector as the features above, written from the state.

    Every sheet is public, and the seats' sheet slices fill one run of the vector (each feature
    for every seat from the observer on, feature after feature). Three memos, shared by the fills
    of one configuration: a row of non-zero values per distinct sheet (keyed by the sheet's ints),
    the run per rows in the observer's order, and per state object what its last fill read (the
    sheets' copies, compared first: a step changes one sheet at most, and OpenSpiel asks both
    seats' tensors of one position). The decks are read only as counts (Day and Night backs,
    Events left).
    """
    phase_index = {p: i for i, p in enumerate(PHASES)}
    line_slot = vocab_slots(CARD_ID, CARD_ID)
    task_index = {code: i for i, code in enumerate(TASK_NAMES)}
    task_tally = [tally(c, 4) for c in range(_TALLIED)]
    event_slot = vocab_slots(EVENT_IDS, EVENT_IDS)
    n_cit: int = len(lay.cit_names)
    n_lairs: int = len(lay.lair_ids)
    n_doms: int = len(lay.dom_ids)
    block_ids: list[int] = [b for bl in lay.lair_blocks for b in bl]
    block_len: list[int] = [n for _, _, n in blocks]
    # each Domain's slot among dom_ids (the last of repeated ids, as ``counts`` gives it)
    dom_slot: list[int] = [-1 if slot is None else slot for slot in vocab_slots(lay.dom_ids, lay.dom_ids)]
    trk_len: int = lay.trk_len
    road_len: tuple[int, ...] = lay.road_len
    n_roads: int = len(road_len)
    rc0: int = lay.rc0
    # the sheets' run: every sheet feature for every seat, one after another
    lo = at[sheet_features[0].name]
    hi = lo + players * sum(f.size for f in sheet_features)
    if [at[f.name] for f in sheet_features] != [lo + players * sum(g.size for g in sheet_features[:j])
                                                 for j in range(len(sheet_features))]:
        raise ValueError("the sheet features are not one run of the vector")
    # for each value of a sheet's row (the sheet features' slices one after another): its place
    # in the run for the seat in slot 0, and the feature's size (what each slot further adds)
    row_place = [at[f.name] - lo + i for f in sheet_features for i in range(f.size)]
    row_step = [f.size for f in sheet_features for _ in range(f.size)]
    row_size: int = len(row_place)
    # where each sheet feature's slice starts in the row
    row_at = {f.name: sum(g.size for g in sheet_features[:j]) for j, f in enumerate(sheet_features)}
    at_results: int = row_at["lair_results"]
    at_access: int = row_at["lair_access"]
    at_domains: int = row_at["domains"]  # then voided_domains
    at_statues: int = row_at["statues"]
    # the row's counts: (its index in the row, the sheet's int, the divisor), in the row's order
    counts_read = [
        *[(row_at["citizens"] + i, CIT + i, 2) for i in range(n_cit)],
        *[(row_at["guild_tracks"] + g, TRK + g, trk_len) for g in range(4)],
        (row_at["gold"], GOLDC, 10), (row_at["wall"], WALLC, 10),
        *[(row_at["range_blocks"] + i, LB0 + b, n) for i, (b, n) in enumerate(zip(block_ids, block_len))],
        *[(row_at["roads"] + r, rc0 + r, road_len[r]) for r in range(n_roads)],
        (row_at["plinths"], PLP, MAX_STATUES),
    ]
    count_row: list[int] = [j for j, _, _ in counts_read]
    count_src: list[int] = [src for _, src, _ in counts_read]
    count_div: list[int] = [div for _, _, div in counts_read]
    n_counts: int = len(counts_read)
    if row_at["voided_domains"] != at_domains + n_doms or row_at["score"] != row_size - 1:
        raise ValueError("the sheet features are not in the order the fill writes them")
    pack_run = Struct(f"{hi - lo}f").pack  # the run's floats as float32 bytes, in one call
    # the fill's slots, looked up once here rather than by name at every write
    at_phase, at_round, at_turn, at_last_round = at["phase"], at["round"], at["turn"], at["last_round"]
    at_is_active, at_deciding, at_dice, at_statue_line = at["is_active"], at["deciding"], at["dice"], at["statue_line"]
    at_statue_deck, at_my_tasks = at["statue_deck"], at["my_tasks"]
    at_trees, at_ships = at.get("trees", -1), at.get("ships", -1)
    at_events_drawn, at_event_deck = at.get("events_drawn", -1), at.get("event_deck", -1)
    rows: dict[tuple[int, ...], _SheetRow] = shared_memo("dice-kingdoms-of-valeria", "sheet", players, lay.season)
    runs: dict[tuple[_SheetRow, ...], _Run] = shared_memo("dice-kingdoms-of-valeria", "run", players, lay.season)
    seen_by_state: dict[int, _Seen] = shared_memo("dice-kingdoms-of-valeria", "seen", players, lay.season)

    def sheet_row(sheet: list[int]) -> _SheetRow:
        """The row of one seat's sheet, worked out from the sheet's ints as the features above
        read them from its view; memoised on those ints."""
        key = tuple(sheet)
        got = rows.get(key)
        if got is not None:
            return got
        if len(rows) > 4096:  # bound the memory of long runs
            rows.clear()
        place: list[int] = []
        step: list[int] = []
        values: list[float] = []
        for t in range(n_counts):  # the counts: pips marked / the section's length
            c = sheet[count_src[t]]
            if c:
                j = count_row[t]
                place.append(row_place[j])
                step.append(row_step[j])
                values.append(c / count_div[t])
        for li in range(n_lairs):  # the lair results, one-hot
            j = at_results + li * 4 + sheet[LST + li]
            place.append(row_place[j])
            step.append(row_step[j])
            values.append(1.0)
        for bits, first_j, width in ((sheet[ACC], at_access, n_lairs), (sheet[STAT], at_statues, N_KINDS)):
            for k in range(width):
                if bits >> k & 1:
                    place.append(row_place[first_j + k])
                    step.append(row_step[first_j + k])
                    values.append(1.0)
        doms, void = sheet[DOM], sheet[VDOM]
        if doms or void:
            claimed = [0.0] * (2 * n_doms)  # Domains claimed, then voided, by slot (as ``counts``)
            for d in range(n_doms):
                slot = dom_slot[d]
                if slot >= 0:
                    claimed[slot] += doms >> d & 1
                    claimed[n_doms + slot] += void >> d & 1
            for k in range(2 * n_doms):
                if claimed[k] != 0.0:
                    place.append(row_place[at_domains + k])
                    step.append(row_step[at_domains + k])
                    values.append(claimed[k])
        score = score_total(lay, sheet) / _SCORE_SCALE
        if score != 0.0:
            place.append(row_place[row_size - 1])
            step.append(row_step[row_size - 1])
            values.append(score)
        got = rows[key] = _SheetRow(place, step, values)
        return got

    def sheets_run(ordered: tuple[_SheetRow, ...]) -> _Run:
        """The run of the sheets' rows in the observer's order (memoised on those rows)."""
        got = runs.get(ordered)
        if got is not None:
            return got
        if len(runs) > 4096:  # bound the memory of long runs
            runs.clear()
        floats = [0.0] * (hi - lo)
        for k in range(len(ordered)):
            row = ordered[k]
            place, step, values = row.place, row.step, row.values
            for j in range(len(values)):
                floats[place[j] + k * step[j]] = values[j]
        got = runs[ordered] = _Run(floats)
        return got

    def seen_of(state: DiceKingdomsState) -> _Seen:
        """What the last fill of this state object read (a new, empty record for a state not seen)."""
        key = id(state)
        seen = seen_by_state.get(key)
        if seen is None:
            if len(seen_by_state) > 4096:  # bound the memory of long runs
                seen_by_state.clear()
            seen = seen_by_state[key] = _Seen(state.players)
        return seen

    def run_of(state: DiceKingdomsState, seen: _Seen, first: int) -> _Run:
        """The sheets' run seen from slot 0 = seat ``first``: the rows ``seen`` holds for the
        sheets it finds unchanged (compared, never assumed), the memoised rows of the others."""
        n = state.players
        sheets = state.sheets
        copies, got_rows = seen.copies, seen.rows
        for s in range(n):
            sheet = sheets[s]
            if sheet != copies[s]:
                got_rows[s] = sheet_row(sheet)
                copies[s] = sheet.copy()
                seen.runs = [None] * n
        got = seen.runs[first]
        if got is None:
            got = seen.runs[first] = sheets_run(tuple([got_rows[(first + k) % n] for k in range(n)]))
        return got

    day_cards: dict[tuple[int, ...], int] = shared_memo("dice-kingdoms-of-valeria", "day cards")

    def day_count(deck: tuple[int, ...]) -> int:
        """How many of the Statue deck's cards show a Day back (memoised on the deck)."""
        n_day = day_cards.get(deck)
        if n_day is None:
            if len(day_cards) > 4096:  # bound the memory of long runs
                day_cards.clear()
            n_day = day_cards[deck] = sum(1 for c in deck if CARD_BACK[c] == 0)
        return n_day

    def fill(state: DiceKingdomsState, seat: int | None, out: Any) -> None:
        n = state.players
        out[at_phase + phase_index[state.phase]] = 1.0
        out[at_round] = state.round_no / 10
        out[at_turn] = state.turn_no / 40
        if state.last_round:
            out[at_last_round] = 1.0
        first = seat if seat is not None else 0
        active = state.active
        if 0 <= active < n:
            out[at_is_active + (active - first) % n] = 1.0
        for s in state.to_move:
            out[at_deciding + (s - first) % n] = 1.0
        dice = state.dice
        for i in range(min(6, len(dice))):
            face = dice[i]
            if face:
                out[at_dice + i] = face / 6
        for c in state.line:
            slot = line_slot[c]
            if slot is not None:
                out[at_statue_line + slot] += 1.0
        seen = seen_of(state)
        deck = state.deck
        if type(deck) is not tuple:
            n_day = day_count(tuple(deck))
        elif deck is seen.deck:  # a tuple is never changed in place
            n_day = seen.n_day
        else:
            n_day = seen.n_day = day_count(deck)
            seen.deck = deck
        out[at_statue_deck] = n_day / N_KINDS
        out[at_statue_deck + 1] = (len(deck) - n_day) / N_KINDS
        if seat is not None:
            tasks = [0] * len(task_index)
            for task in state.seat_tasks(seat):
                tasks[task_index[KIND_CODE[task[0]]]] += 1
            for i in range(len(tasks)):
                c = tasks[i]
                if c:
                    out[at_my_tasks + i] = task_tally[c] if c < _TALLIED else tally(c, 4)
        run = run_of(state, seen, first)
        kind = type(out)
        if kind is list:
            out[lo:hi] = run.floats
        elif kind is memoryview and out.format == "f":
            f32 = run.f32
            if f32 is None:
                f32 = run.f32 = memoryview(pack_run(*run.floats)).cast("f")
            out[lo:hi] = f32
        elif hasattr(out, "put"):  # numpy: one slice, of doubles it rounds as it would the floats
            f64 = run.f64
            if f64 is None:
                f64 = run.f64 = memoryview(array("d", run.floats))
            out[lo:hi] = f64
        else:
            floats = run.floats
            for i in range(hi - lo):
                if floats[i]:
                    out[lo + i] = floats[i]
        if n == 1:
            out[at_trees] = state.trees / 10
            out[at_ships] = state.ships / 10
            for e in state.events_drawn:
                slot = event_slot[e]
                if slot is not None:
                    out[at_events_drawn + slot] += 1.0
            out[at_event_deck] = len(state.event_deck) / len(EVENT_IDS)
    return fill
