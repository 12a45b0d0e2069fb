"""Helpers for the Dice Kingdoms of Valeria tests: scripted games and prepared sheets."""

from __future__ import annotations

from dicetable.engine import new_game
from dicetable.games.dice_kingdoms_of_valeria import components as C
from dicetable.games.dice_kingdoms_of_valeria import sheet as S
from dicetable.games.dice_kingdoms_of_valeria.rules import (
    ACTION, DRAFT, HARVEST, marked_pips,
)

GAME = "dice-kingdoms-of-valeria"
#: A first roll that harvests without any choice (the 5 and 6 starters: 1 Worker, 1 Soldier pip).
CALM = (5, 6)
#: A whole turn's roll that activates only the 1, 2 and 3 Citizens (empty at the start): the
#: Harvest then waits on the fallback choice, so a test sees the state the turn before left.
HALT = (1, 2, 1, 1, 1, 1)
#: The same with the 3, 4 and 7 Citizens.
HALT2 = (3, 4, 1, 1, 1, 1)


def new(players: int = 1, sheets: str = "summer", dice=(), seed: int = 0, **options):
    """A new game with scripted dice (black, black, yellow, red, green, blue for each turn)."""
    return new_game(GAME, players, seed=seed, options={"sheets": sheets, **options}, dice=list(dice))


def lay(state):
    """The season's layout tables."""
    return state.lay


def sec(state, name: str) -> int:
    """Citizen section index by its printed name ("9/10")."""
    return state.lay.cit_names.index(name)


def guild(name: str) -> int:
    return S.GUILDS.index(name)


def road(state, rid: str) -> int:
    return state.lay.road_index[rid]


def dom(state, did: str) -> int:
    return state.lay.dom_ids.index(did)


def lair(state, lid: str) -> int:
    return state.lay.lair_ids.index(lid)


def block(state, lid: str, rng: str) -> int:
    """Global Range Block index of lair ``lid``'s block ``"9-12"``."""
    L = state.lay
    li = lair(state, lid)
    for b in L.lair_blocks[li]:
        lo, hi = L.block_range[b]
        if f"{lo}-{hi}" == rng:
            return b
    raise KeyError(rng)


def set_citizens(state, seat: int, **marked) -> None:
    """``set_citizens(s, 0, c4=1, c5=2)``: marked pips per Citizen section (c9_10 = "9/10")."""
    sh = state.sheets[seat]
    for key, n in marked.items():
        name = key[1:].replace("_", "/")
        sh[S.CIT + sec(state, name)] = n


def claim(state, seat: int, *domains: str) -> None:
    """Mark Domains as claimed (as if reached) without drawing their Roads."""
    sh = state.sheets[seat]
    for d in domains:
        i = dom(state, d)
        sh[S.DOM] |= 1 << i
        sh[S.ACC] |= state.lay.dom_trail[i]


def set_road(state, seat: int, rid: str, count: int, origin: int = 1) -> None:
    sh = state.sheets[seat]
    r = road(state, rid)
    sh[state.lay.rc0 + r] = count
    sh[state.lay.ro0 + r] = origin if count or state.lay.road_kind[r] == "start" else 0


def ids(state, seat: int | None = None) -> list[str]:
    refresh(state)  # tests edit sheets by hand: never answer from a stale cache
    if seat is None:
        seat = state.to_move[0]
    return [a.id for a in state.legal_actions(seat)]


def act(state, action_id: str, seat: int | None = None):
    refresh(state)
    if seat is None:
        seat = state.to_move[0]
    return state.apply(action_id, seat)


def resolve_all(state, pick=lambda ids: ids[0]) -> None:
    """Answer every pending decision of the current step with ``pick`` until the phase moves on."""
    phase = state.phase
    turn = state.turn_no
    while state.to_move and state.phase == phase and state.turn_no == turn:
        seat = state.to_move[0]
        if state.phase == ACTION and not state.seat_tasks(seat):
            return
        act(state, pick(ids(state, seat)), seat)


def invariant(state) -> None:
    """Every section's marks are a prefix in marking order and no longer than the section.

    Roads may be marked from either end (``from b``: a suffix in printed
    order); a Road with marks starts at a starting pip or a claimed Domain;
    claimed Domains were reached by a complete Road; Statues: at most 4,
    no duplicates; a lair is done exactly when all its pips are marked.
    """
    L = state.lay
    for seat, sh in enumerate(state.sheets):
        pmap = marked_pips(L, sh)
        for key, marks in pmap.items():
            n = sum(marks)
            if key.startswith("road:"):
                r = L.road_index[key[5:]]
                assert len(marks) == L.road_len[r]
                origin = sh[L.ro0 + r]
                if n:
                    assert origin in (1, 2), key
                    want = [True] * n + [False] * (len(marks) - n)
                    if origin == 2:
                        want.reverse()
                    assert marks == want, f"seat {seat} {key} skips a pip: {marks}"
                    start = L.road_a[r] if origin == 1 else L.road_b[r]
                    assert start == -1 or sh[S.DOM] >> start & 1, f"{key} begun from an unclaimed Domain"
                    if L.road_kind[r] == "start":
                        assert origin == 1, f"{key}: a start Road runs from its starting pip"
            else:
                assert marks == [True] * n + [False] * (len(marks) - n), f"seat {seat} {key} skips: {marks}"
        assert len(pmap["gold"]) == L.gold_len and len(pmap["wall"]) == L.wall_len
        for g in S.GUILDS:
            assert len(pmap[f"track:{g}"]) == 24
        # Nothing beyond a section's end (the pip maps above are cut to the printed length).
        for s in range(10):
            assert L.cit_start[s] <= sh[S.CIT + s] <= 2
        for g in range(4):
            assert 0 <= sh[S.TRK + g] <= 24
        assert 0 <= sh[S.GOLDC] <= L.gold_len and 0 <= sh[S.WALLC] <= L.wall_len
        for r in range(L.nr):
            assert 0 <= sh[L.rc0 + r] <= L.road_len[r]
        for b in range(L.nb):
            assert 0 <= sh[S.LB0 + b] <= L.block_len[b]
        for d in range(13):
            if sh[S.DOM] >> d & 1:
                reached = any(
                    sh[L.rc0 + r] == L.road_len[r]
                    and ((L.road_b[r] == d and sh[L.ro0 + r] == 1) or (L.road_a[r] == d and sh[L.ro0 + r] == 2))
                    for r in range(L.nr))
                assert reached, f"seat {seat}: Domain {L.dom_ids[d]} claimed without a complete Road"
        assert sh[S.NSTAT] == bin(sh[S.STAT]).count("1") <= C.MAX_STATUES
        for li in range(4):
            full = all(sh[S.LB0 + b] == L.block_len[b] for b in L.lair_blocks[li])
            assert full == (sh[S.LST + li] != S.LAIR_OPEN), f"lair {L.lair_ids[li]} result out of step"
            if sh[S.LST + li] == S.LAIR_PENDING:
                assert state.phase == HARVEST
            if state.lair_first[li] == seat:
                assert sh[S.LST + li] == S.LAIR_HIGH
    assert len(state.line) <= C.DRAFT_LINE
    if state.phase not in (HARVEST, DRAFT):
        assert all(sh[S.PLP] == 0 for sh in state.sheets)


def grew(before: dict, after: dict) -> None:
    """A marked pip stays marked: every mark of ``before`` is in ``after``."""
    for key, marks in before.items():
        for i, m in enumerate(marks):
            if m:
                assert after[key][i], f"{key} pip {i + 1} was unmarked"




def refresh(state) -> None:
    """Forget what the state worked out from its fields after a test edited them by hand: the cached legal
    actions, the Action menu and each seat's running score (worked out again at its next mark)."""
    state.forget_legal_actions()
    state.menu = None
    for seat in range(state.players):
        state.forget_score(seat)
