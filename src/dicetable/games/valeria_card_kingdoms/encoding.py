"""Valeria: Card Kingdoms as a fixed-length feature vector (the research observation space).

Drawn from ``observation(seat)`` only: another seat's Duke, face-down Domains and face-down
Citizens are not in it. Seat slices start from the observer. See
:mod:`dicetable.engine.encoding`; ``Encoding.slices`` documents each position.
"""

from __future__ import annotations

from array import array
from operator import itemgetter
from typing import Any, Final

from dicetable.engine.encoding import (
    DirectFill, Encoding, Feature, Obs, counts, numbers, one_hot, per_seat, put_counts, scalar, shared_memo, tally,
    vocab_slots,
)

from .components import AREAS, CIT_DISPLAY, CIT_NAME, DOM_NAME, DUKE_NAME, MON_NAME
from .rules import N_CIT_POS, N_MON_POS, PHASE_NAME, TASK_NAME, ValeriaState
from .rules.tables import CIT0, DOM0, DUKE_SCORING, N_POS, NT, P_DUKES, P_OVER, duke_resource_vp
from .viewdata import own_player

#: a seat's memo entry in the direct fill: its non-zero card runs as (slice of the vector, float32
#: memoryview) and as (slice, Python floats), its cards' VP, and per Duke the VP its cards score
SeatRow = tuple[tuple[tuple[slice, Any], ...], tuple[tuple[slice, Any], ...], int, list[int | None]]

_RES_SCALE: Final = 20.0
_VP_SCALE: Final = 60.0

#: a stack's top card as a tuple of one card, or () for an empty stack (part of a memo key)
_top = itemgetter(slice(-1, None))


#: the values a scalar table of the direct fill holds: v / scale for v in 0..255
_TABLE: Final = 256


def _scaled(scale: float) -> list[Any]:
    """``v / scale`` for v in 0.._TABLE-1 (the floats the division gives), each an object made once."""
    return [v / scale for v in range(_TABLE)]


def _p(v: Obs) -> Obs:
    """The seat's part of the observation in a ``per_seat`` view."""
    player: Obs = v["obs"]["player"][v["seat"]]
    return player


def observation_encoding(players: int, options: dict[str, Any]) -> Encoding:
    """The feature layout for ``players`` seats (rulebook sections: Roll, Harvest, Actions,
    Game end, Dukes; solo: the Dark Lord)."""
    def seat(f: Feature) -> Feature:  # a short alias for the list below
        return per_seat(players, f)
    feats = [
        one_hot("phase", lambda o: o["phase"], PHASE_NAME, "the phase of the turn"),
        scalar("turn", lambda o: o["turn"], 40, "turn / 40"),
        seat(scalar("is_active", lambda v: v["obs"]["active"] == v["seat"], 1, "1 for the Active player")),
        seat(scalar("is_first", lambda v: v["obs"]["first_player"] == v["seat"], 1, "1 for the first player")),
        numbers("dice", lambda o: o["dice"], 2, 6, "the two dice / 6 (0 before the roll)"),
        numbers("monster_areas", lambda o: [AREAS.index(m["area"]) == a for m in o["monsters"] for a in range(len(AREAS))],
                N_MON_POS * len(AREAS), 1, "per Monster stack: one-hot of its area"),
        numbers("monster_counts", lambda o: [len(m["cards"]) for m in o["monsters"]], N_MON_POS, 6,
                "cards left in each Monster stack / 6"),
        numbers("monster_tops", lambda o: [m["cards"][-1] == name if m["cards"] else 0
                                           for m in o["monsters"] for name in MON_NAME],
                N_MON_POS * len(MON_NAME), 1, "per Monster stack: one-hot of the Monster on top"),
        numbers("citizen_counts", lambda o: [c["face_down"] + len(c["face_up"]) for c in o["citizens"]],
                N_CIT_POS, 5, "cards left in each Citizen stack (roll 1..11-12) / 5"),
        numbers("citizen_tops", lambda o: [c["face_up"][-1] == name if c["face_up"] else 0
                                           for c in o["citizens"] for name in CIT_NAME[:len(set(CIT_NAME))]],
                N_CIT_POS * len(set(CIT_NAME)), 1, "per Citizen stack: one-hot of the Citizen on top"),
        counts("domain_tops", lambda o: [d["top"] for d in o["domains"]], DOM_NAME, 1, "Domains on offer"),
        numbers("domain_counts", lambda o: [d["face_down"] for d in o["domains"]], 5, 3,
                "face-down Domains under each offered one / 3"),
        scalar("exhausted", lambda o: o["exhausted"], 5, "Exhausted stacks / 5"),
        one_hot("pending", lambda o: (o["pending"] or {}).get("task"), TASK_NAME, "the task the game waits on"),
        scalar("actions_left", lambda o: (o["pending"] or {}).get("actions_left"), 2, "Actions left this turn / 2"),
        seat(numbers("resources", lambda v: [_p(v)[k] for k in ("gold", "strength", "magic", "vp_tokens")],
                     4, _RES_SCALE, "Gold, Strength, Magic, VP tokens / 20")),
        seat(counts("tableau", lambda v: [n for n, c in _p(v)["citizens"].items() for _ in range(c)],
                    CIT_DISPLAY, 3, "Citizens owned, by card (count / 3)")),
        seat(counts("owned_domains", lambda v: _p(v)["domains"], DOM_NAME, 1, "Domains built")),
        seat(counts("slain", lambda v: _p(v)["victory"], MON_NAME, 2, "Monsters slain, by card (count / 2)")),
        seat(scalar("public_vp", lambda v: _p(v)["public_vp"], _VP_SCALE, "public VP / 60")),
        one_hot("my_duke", lambda o: own_player(o).get("duke"), DUKE_NAME, "the observer's Duke"),
        scalar("my_duke_vp", lambda o: own_player(o).get("duke_vp"), 30, "the observer's Duke VP / 30"),
        counts("my_duke_offer", lambda o: own_player(o).get("duke_offer", ()), DUKE_NAME, 1,
               "Dukes offered to the observer"),
    ]
    if players == 1:
        feats += [
            counts("dark_lord_citizens", lambda o: o["dark_lord"]["captured_citizens"], CIT_NAME, 3,
                   "solo: Citizens the Dark Lord captured (count / 3)"),
            counts("dark_lord_domains", lambda o: o["dark_lord"]["captured_domains"], DOM_NAME, 1,
                   "solo: Domains the Dark Lord captured"),
        ]
    return Encoding(feats, direct=lambda offsets: _direct(players, offsets))


def _direct(players: int, at: dict[str, int]) -> DirectFill:
    """The same vector as the features above, written from the state.

    Reads the Center Stacks only as the observation shows them (counts, and the top card where it
    is face up) and the Dukes only of the observing seat. Memos shared by the fills of one
    configuration: the Center Stacks' slices, keyed by every stack's cards (a key cheap to build)
    and, where that misses, by the Monster and Citizen stacks and each Domain stack's size and top
    (a search redraws the face-down Domains under the tops at each determinization, and this key
    ignores them; a dict of its own, so that a search's many card keys do not empty it); per seat
    its tableau, Domain and Monster runs with the VP of those Domains and Monsters, keyed by the
    seat's cards and its place from the observer, with the part of the seat's Duke VP its cards
    score. Before a memo is asked, the stacks and each seat's cards are compared with those of the
    fill's last call (the fills of one game follow each other). Resources are written directly:
    they change at almost every step.
    """
    n_areas, n_mon = len(AREAS), len(MON_NAME)
    area_slot = [AREAS.index(name) for name in AREAS]
    mon_tops = [[j for j, other in enumerate(MON_NAME) if other == name] for name in MON_NAME]
    n_top_names = len(set(CIT_NAME))
    cit_tops = [[j for j, other in enumerate(CIT_NAME[:n_top_names]) if other == name] for name in CIT_NAME]
    dom_slot = vocab_slots(DOM_NAME, DOM_NAME)
    mon_slot = vocab_slots(MON_NAME, MON_NAME)
    duke_slot = vocab_slots(DUKE_NAME, DUKE_NAME)
    tableau_slot = vocab_slots(CIT_DISPLAY, CIT_DISPLAY)
    cit_slot = vocab_slots(CIT_NAME, CIT_NAME)
    task_slot = {name: i for i, name in enumerate(TASK_NAME)}
    n_display, n_dom = len(CIT_DISPLAY), len(DOM_NAME)
    o = at

    # the Center Stacks (monster_areas .. domain_counts) are one run of the vector
    o_centre = o["monster_areas"]
    centre_size = o["exhausted"] - o_centre
    centre_slice = slice(o_centre, o_centre + centre_size)
    # each block twice: a float32 memoryview (copied into a buffer in one slice) and its values as
    # Python floats (a list output takes them without making new float objects)
    centre_blocks: dict[tuple[Any, ...], tuple[memoryview, tuple[float, ...]]] = shared_memo(
        "valeria-card-kingdoms", "centre", players)
    centre_by_cards: dict[tuple[Any, ...], tuple[memoryview, tuple[float, ...]]] = shared_memo(
        "valeria-card-kingdoms", "centre-by-cards", players)
    n_pos = N_POS
    # the Center Stacks of this fill's last call and their block: the fills of one state follow
    # each other (each seat's vector at a search's leaf, both tensors of an OpenSpiel step)
    # (one tuple, read once: a fill in another thread replaces it whole)
    last_centre: list[tuple[Any, ...]] = [(None, None, None, None)]

    def centre_block(stacks: list[tuple[int, ...]], cit_down: list[int],
                     areas: tuple[int, ...]) -> tuple[memoryview, tuple[float, ...]]:
        """The Center Stacks' slices as the observation shows them."""
        # float32, as the vector is: a memoryview of it copies into a float32 buffer in one slice
        block = array("f", bytes(4 * centre_size))
        at_ = {name: o[name] - o_centre for name in ("monster_areas", "monster_counts", "monster_tops",
                                                    "citizen_counts", "citizen_tops", "domain_tops",
                                                    "domain_counts")}
        for p in range(N_MON_POS):
            block[at_["monster_areas"] + p * n_areas + area_slot[areas[p]]] = 1.0
            stack = stacks[p]
            block[at_["monster_counts"] + p] = len(stack) / 6
            if stack:
                for j in mon_tops[stack[-1]]:
                    block[at_["monster_tops"] + p * n_mon + j] = 1.0
        for i in range(N_CIT_POS):
            stack, down = stacks[CIT0 + i], cit_down[i]
            shown = len(stack) - down if len(stack) > down else 0
            block[at_["citizen_counts"] + i] = (down + shown) / 5
            if shown:
                for j in cit_tops[stack[-1]]:
                    block[at_["citizen_tops"] + i * n_top_names + j] = 1.0
        put_counts(block, at_["domain_tops"], [stacks[p][-1] for p in range(DOM0, N_POS) if stacks[p]], 1, dom_slot)
        for k, p in enumerate(range(DOM0, N_POS)):
            if stacks[p]:
                block[at_["domain_counts"] + k] = (len(stacks[p]) - 1) / 3
        return memoryview(block), tuple(block)

    # the observing seat's Duke VP: duke_score (R8.5) is duke_resource_vp (Gold, Strength, Magic) plus
    # what the cards score; the cards' part is memoised per Duke in the seat's row (Gold, Strength
    # and Magic change at most steps)
    n_dukes = len(DUKE_SCORING)

    # per seat (the key below) its tableau, Domains and Monsters as runs of the vector: each non-zero
    # one as (its slice of the vector, float32 memoryview), copied into a buffer in one slice, and as
    # (slice, tuple of Python floats) for a list output
    seat_rows: dict[tuple[Any, ...], SeatRow] = shared_memo("valeria-card-kingdoms", "seat", players)
    o_tableau, o_owned_domains, o_slain = o["tableau"], o["owned_domains"], o["slain"]

    def seat_row(state: ValeriaState, s: int, key: tuple[Any, ...]) -> SeatRow:
        """(seat ``s``'s non-zero tableau, Domains and Monsters runs, written in slot ``k`` from the
        observer, as memoryviews and as tuples; the VP of its Domains and Monsters; per Duke the VP
        its cards score, None until asked) for ``key`` = (k, the seat's card counts, Domains, Monsters)."""
        if len(seat_rows) > 4096:  # bound the memory of long runs
            seat_rows.clear()
        k, own, doms, victory = key
        tableau = [0.0] * n_display
        for t in range(NT):
            if own[t]:
                slot: int = tableau_slot[t]  # type: ignore[assignment]  # every card type is displayed
                tableau[slot] = tally(own[t], 3)
        domains, slain = [0.0] * n_dom, [0.0] * n_mon
        put_counts(domains, 0, doms, 1, dom_slot)
        put_counts(slain, 0, victory, 2, mon_slot)
        views: list[tuple[slice, memoryview]] = []
        values: list[tuple[slice, tuple[float, ...]]] = []
        for start, run in ((o_tableau + k * n_display, tableau), (o_owned_domains + k * n_dom, domains),
                           (o_slain + k * n_mon, slain)):
            if any(run):
                views.append((slice(start, start + len(run)), memoryview(array("f", run))))
                values.append((slice(start, start + len(run)), tuple(run)))
        none: list[int | None] = [None] * n_dukes
        # public VP less the VP tokens, written apart
        got = seat_rows[key] = (tuple(views), tuple(values), state.cards_vp(s), none)
        return got

    # per (seat, place from the observer) the seat's cards at this fill's last call and their entry:
    # the fills of one game follow each other and a seat's cards change at a few of its steps (one
    # tuple each, read once: a fill in another thread replaces it whole)
    no_entry: SeatRow = ((), (), 0, [])
    last_seats: list[tuple[list[int], tuple[int, ...] | None, tuple[int, ...] | None, SeatRow]] = [
        ([], None, None, no_entry)] * (players * players)

    # the offsets the fill writes at, as locals (the Dark Lord's only in solo: -1 otherwise, never read)
    o_phase, o_turn, o_is_active, o_is_first, o_dice, o_exhausted, o_pending, o_actions_left = (o[k] for k in (
        "phase", "turn", "is_active", "is_first", "dice", "exhausted", "pending", "actions_left"))
    o_resources, o_public_vp = o["resources"], o["public_vp"]
    o_my_duke, o_my_duke_vp, o_my_duke_offer = o["my_duke"], o["my_duke_vp"], o["my_duke_offer"]
    o_dark_lord_citizens, o_dark_lord_domains = o.get("dark_lord_citizens", -1), o.get("dark_lord_domains", -1)

    # the scalars are written with index and value objects made here once: a write through a
    # memoryview of an int and a float worked out in the compiled fill boxes both (a new int above
    # 256, a new float) and frees them after, which costs about a third of the write. boxed[i] is i
    # (the fixed places as locals); the values are tables of v / scale (_scaled: the same floats the
    # division gives) read in line (a call would cost the pure build more than the division), and one 1.0
    boxed: list[Any] = list(range(max(o.values()) + max(len(DUKE_NAME), len(CIT_NAME), len(DOM_NAME)) + 1))
    at_turn, at_exhausted, at_actions_left, at_duke_vp = (boxed[i] for i in (o_turn, o_exhausted, o_actions_left,
                                                                            o_my_duke_vp))
    one: Any = 1.0
    turns, sixths, fifths, halves = _scaled(40), _scaled(6), _scaled(5), _scaled(2)
    res_values, vp_values, duke_vp_values = _scaled(_RES_SCALE), _scaled(_VP_SCALE), _scaled(30)
    # the Exhausted stacks (a bit each) at this fill's last call and their count (one tuple, read once)
    last_exhausted: list[tuple[int, int]] = [(0, 0)]

    def fill(state: ValeriaState, seat: int | None, out: Any) -> None:
        n = state.players
        phase = state.phase
        out[boxed[o_phase + phase]] = one
        turn = state.turn
        out[at_turn] = turns[turn] if 0 <= turn < _TABLE else turn / 40
        first = seat if seat is not None else 0
        rel = [(s - first) % n for s in range(n)]
        out[boxed[o_is_active + rel[state.active]]] = one
        out[boxed[o_is_first + rel[state.first]]] = one
        for i, d in enumerate(state.dice):
            if d:
                out[boxed[o_dice + i]] = sixths[d] if 0 <= d < _TABLE else d / 6
        stacks, cit_down, areas = state.stacks, state.cit_down, state.areas
        last = last_centre[0]
        if stacks == last[0] and cit_down == last[1] and areas == last[2]:
            block = last[3]  # the stacks' tuples compare by identity: no key built
        else:
            exact = (tuple(stacks), tuple(cit_down), areas)  # the cheapest key: every card
            block = centre_by_cards.get(exact)
            if block is None:
                domain_stacks = stacks[DOM0:n_pos]
                shown = (tuple(stacks[:DOM0]), tuple(map(len, domain_stacks)), tuple(map(_top, domain_stacks)),
                         tuple(cit_down), areas)
                block = centre_blocks.get(shown)
                if block is None:
                    if len(centre_blocks) > 4096:  # bound the memory of long runs
                        centre_blocks.clear()
                    block = centre_blocks[shown] = centre_block(stacks, cit_down, areas)
                if len(centre_by_cards) > 4096:
                    centre_by_cards.clear()
                centre_by_cards[exact] = block
            last_centre[0] = (stacks.copy(), cit_down.copy(), areas, block)
        as_values = 1 if type(out) is list else 0  # a list takes Python floats, a buffer a memoryview
        out[centre_slice] = block[as_values]
        # the Exhausted stacks' count, worked out only when they changed (bit_count is a method call)
        bits, exhausted = last_exhausted[0]
        if state.exhausted != bits:
            bits = state.exhausted
            exhausted = bits.bit_count()
            last_exhausted[0] = (bits, exhausted)
        if exhausted:
            out[at_exhausted] = fifths[exhausted] if exhausted < _TABLE else exhausted / 5
        if phase not in (P_DUKES, P_OVER) and state.tasks:
            task = state.tasks[-1]
            slot = task_slot.get(task[0])
            if slot is not None:
                out[boxed[o_pending + slot]] = one
            if task[0] == "action" and task[2] is not None:
                left = task[2]
                out[at_actions_left] = halves[left] if 0 <= left < _TABLE else left / 2
        res, own, doms, victory = state.res, state.own, state.doms, state.victory
        duke_parts: list[int | None] = []
        for s in range(n):
            k = rel[s]
            cards, built, slain = own[s * NT:(s + 1) * NT], doms[s], victory[s]
            # the entry this seat in this place had last: its Domains and Monsters are the same
            # tuples (the rules replace a seat's tuple when it changes) and its counts are equal
            last_seat = last_seats[s * players + k]
            if last_seat[1] is built and last_seat[2] is slain and last_seat[0] == cards:
                got = last_seat[3]
            else:
                key = (k, tuple(cards), built, slain)
                found = seat_rows.get(key)
                got = seat_row(state, s, key) if found is None else found
                last_seats[s * players + k] = (cards, built, slain, got)
            runs, vp, parts = got[1] if as_values else got[0], got[2], got[3]
            if s == seat:
                duke_parts = parts
            for where, run in runs:
                out[where] = run
            b = s * 4
            at_res = o_resources + k * 4
            for r in range(4):
                v = res[b + r]
                if v:
                    out[boxed[at_res + r]] = res_values[v] if 0 <= v < _TABLE else v / _RES_SCALE
            vp += res[b + 3]
            if vp:
                out[boxed[o_public_vp + k]] = vp_values[vp] if 0 <= vp < _TABLE else vp / _VP_SCALE
        if seat is not None:
            duke = state.dukes[seat]
            if duke >= 0:
                slot = duke_slot[duke]
                if slot is not None:
                    out[boxed[o_my_duke + slot]] = one
                b = seat * 4
                from_res = duke_resource_vp(duke, res[b], res[b + 1], res[b + 2])
                part = duke_parts[duke]
                if part is None:
                    part = duke_parts[duke] = state.duke_vp(seat) - from_res
                v = part + from_res
                out[at_duke_vp] = duke_vp_values[v] if 0 <= v < _TABLE else v / 30
            if phase == P_DUKES:
                for d in state.offers[seat]:
                    slot = duke_slot[d]
                    if slot is not None:
                        out[o_my_duke_offer + slot] += 1.0
        if players == 1:
            captured = [0] * len(CIT_NAME)
            for t in state.cap_cit:
                slot = cit_slot[t]
                if slot is not None:
                    captured[slot] += 1
            for j, c in enumerate(captured):
                if c:
                    out[o_dark_lord_citizens + j] = tally(c, 3)
            for d in state.cap_dom:
                slot = dom_slot[d]
                if slot is not None:
                    out[o_dark_lord_domains + slot] += 1.0
    return fill
