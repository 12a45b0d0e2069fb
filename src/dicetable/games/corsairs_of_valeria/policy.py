"""Corsairs of Valeria evaluation for the bots: the greedy policy and a position score.

Everything is measured in Silver: a Treasure is worth 5, a Grog 0.45 (what
a re-roll is roughly worth), and progress along the race track up to 3 plus
a share of the Silver on Skull Island (see :func:`material`).

Greedy (documented in docs/games/corsairs-of-valeria.md):

* **Dice decisions** (phase A Willem/Luthor, phase B re-rolls, end of phase B
  Mistress/Reo) use :func:`roll_value`, a fast estimate of what a locked roll
  is worth to the player now (Silver lost to Skulls, Grog up to the dial,
  Silver faces, the best path the Maps allow with its islands, hazard and
  Skull Island, the best Cannon target, 5-of-a-kind bonuses). A re-roll is
  judged one step ahead: for every multiset of dice it could re-roll, the
  exact expectation of ``roll_value`` over the outcomes, minus the price (1
  Grog at 0.45, or 1 Silver for the Prince), against locking now. The chosen
  dice are then marked one at a time (the same computation repeats, so the
  marks converge) and re-rolled.
* **Phase C decisions** (5-Skull hand-out, Mister Bones, the order of the
  symbol groups, lanes, Cannon targets, Jäger, Jax'n, and a knocked-back
  ship's lane) are exact: phase C has no dice, so greedy searches every
  sequence of its own choices to the end of the turn (memoised, capped at
  ``SEARCH_NODES``) and takes the action whose best continuation maximises
  its material lead over the best opponent. Another seat's choices met on
  the way are taken by that seat's own one-step material.
"""

from __future__ import annotations

from typing import Final

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import exp, factorial

from dicetable.engine import Action

from .rules.consts import (
    BONES, CANNON, CUTTHROAT, DICE, GROG, GROG_MAX, JAXN, MAP, SEA_MONSTER, SILVER, SILVER_PER_TREASURE,
    SKULL, SKULL_GROG, WHIRLPOOL,
)
from .rules import OVER, CorsairsState, count_faces

GROG_VALUE: Final = 0.45       # one Grog, in Silver
TREASURE_VALUE: Final = 5.0    # one Treasure = 5 Silver
PROGRESS_VALUE: Final = 3.0    # the whole way from Start to Skull Island
ISLAND_SHARE: Final = 0.5      # weight of Skull Island's Silver times progress
EXTRA_TURN: Final = 2.5        # a 5-Grog restart
SEARCH_NODES: Final = 3000     # cap on the phase C search per decision
WIN: Final = 1000.0


# ---------------------------------------------------------------- material
def material(state: CorsairsState, seat: int) -> float:
    """What ``seat`` holds, in Silver: Treasure, Silver, Grog and race progress."""
    track = state.track
    total = track.dist[track.start]
    prog = (total - track.dist[state.pos[seat]]) / total
    return (TREASURE_VALUE * state.treasure[seat] + state.silver[seat] + GROG_VALUE * state.grog[seat]
            + PROGRESS_VALUE * prog + ISLAND_SHARE * state.island * prog)


def lead(state: CorsairsState, seat: int) -> float:
    """``seat``'s material minus the best opponent's; a finished game is +-WIN (shared: +WIN/2)."""
    if state.phase == OVER:
        win = state.winners
        if seat in win:
            return WIN if len(win) == 1 else WIN / 2
        return -WIN
    mine = material(state, seat)
    best = max(material(state, s) for s in range(state.players) if s != seat)
    return mine - best


def evaluate(state: CorsairsState, seat: int) -> float:
    """A score in [0, 1] for ``seat``: 1 won, 0 lost, else a logistic of the material lead (5 Silver ~ 0.73)."""
    if state.phase == OVER:
        win = state.winners
        return (1.0 if len(win) == 1 else 0.5) if seat in win else 0.0
    return 1.0 / (1.0 + exp(-lead(state, seat) / 5.0))


# ---------------------------------------------------------------- dice estimates
def pack(counts: Sequence[int]) -> int:
    """Face counts (each 0-5, 5 dice in all) as one int in base 8: adding packs adds counts."""
    return (counts[0] | counts[1] << 3 | counts[2] << 6 | counts[3] << 9 | counts[4] << 12
            | counts[5] << 15)


def unpack(key: int) -> tuple[int, ...]:
    """Inverse of :func:`pack`."""
    return tuple((key >> (3 * i)) & 7 for i in range(6))


@lru_cache(maxsize=None)
def outcomes(k: int) -> tuple[tuple[int, float], ...]:
    """Every result of rolling ``k`` dice as ``(packed_counts, probability)``."""
    out = []
    for combo in combinations_with_replacement(range(6), k):
        c = [0] * 6
        for f in combo:
            c[f] += 1
        ways = factorial(k)
        for x in c:
            ways //= factorial(x)
        out.append((pack(c), ways / 6 ** k))
    return tuple(out)


class _Ctx:
    """The facts about ``seat`` that :func:`roll_value` needs, computed once per decision."""

    __slots__ = ("state", "seat", "silver", "grog", "captain", "paths", "cannon", "memo", "opp_leader")

    def __init__(self, state: CorsairsState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.silver = state.silver[seat]
        self.grog = state.grog[seat]
        self.captain = state.captain[seat]
        others = [s for s in range(state.players) if s != seat]
        self.opp_leader = max(others, key=lambda s: material(state, s))
        self.paths: dict[tuple[int, int], float] = {}
        self.memo: dict[int, float] = {}
        self.cannon = [self._cannon(n) for n in range(DICE + 1)]

    def _cannon(self, n: int) -> float:
        st, seat = self.state, self.seat
        best = 0.0
        if n >= 3:
            for r in range(st.players):
                if r == seat:
                    continue
                hit = 2.0 if r == self.opp_leader else 1.0
                v = st.silver[r] * hit + 0.2 * (n - 3) * hit
                if n == DICE and st.treasure[r] >= 1:
                    v = max(v, TREASURE_VALUE * hit)
                best = max(best, v)
        m = st.track.merchant[st.pos[seat]]
        if m is not None and n:
            best = max(best, n * (m[0] + GROG_VALUE * m[1]))
        return best

    def path_value(self, k: int, silver_at_risk: int) -> float:
        """Best value of ``k`` forward Maps from the ship's space (lanes chosen at best)."""
        key = (k, silver_at_risk)
        v = self.paths.get(key)
        if v is None:
            v = self.paths[key] = self._walk(self.state.pos[self.seat], k, 0.0, silver_at_risk)
        return v

    def _walk(self, node: int, k: int, acc: float, risk: int) -> float:
        st = self.state
        track = st.track
        total = track.dist[track.start]
        if node == track.skull:
            return acc + self._arrival()
        if k == 0:
            h = track.hazard[node]
            if h == WHIRLPOOL:
                acc -= PROGRESS_VALUE * (total - track.dist[node]) / total
            elif h == SEA_MONSTER:
                acc -= risk
            elif h == CUTTHROAT:
                acc -= GROG_VALUE * self.grog
            return acc
        best = -1e9
        for m, s, g in track.fwd[node]:
            gain = s + GROG_VALUE * g + PROGRESS_VALUE / total + ISLAND_SHARE * st.island / total
            best = max(best, self._walk(m, k - 1, acc + gain, risk + s))
        return best

    def _arrival(self) -> float:
        st, seat = self.state, self.seat
        if st.visits == 0:
            return float(st.island)
        silver = st.silver[seat] + st.island
        mine = (st.treasure[seat] + silver // SILVER_PER_TREASURE, silver % SILVER_PER_TREASURE, st.grog[seat])
        best_other = max((st.treasure[s], st.silver[s], st.grog[s]) for s in range(st.players) if s != seat)
        return 30.0 if mine > best_other else -30.0


def roll_value(counts: tuple[int, ...], ctx: _Ctx) -> float:
    """Estimated worth (Silver) of locking a roll with face ``counts`` (Skull..Cannon) for ``ctx.seat``."""
    return packed_value(pack(counts), ctx)


def packed_value(key: int, ctx: _Ctx) -> float:
    """:func:`roll_value` of packed counts (memoised in ``ctx``)."""
    v = ctx.memo.get(key)
    if v is not None:
        return v
    counts = unpack(key)
    skulls = counts[SKULL] + counts[SKULL_GROG]
    players = ctx.state.players
    silver = ctx.silver
    if skulls == DICE and players > 1:
        v = 1.0  # hand the dice out: I lose nothing, the others lose Silver
        keep = _plain_value(counts, ctx, skulls, silver)
        v = max(v, keep)
    else:
        v = _plain_value(counts, ctx, skulls, silver)
    ctx.memo[key] = v
    return v


def _plain_value(counts: tuple[int, ...], ctx: _Ctx, skulls: int, silver: int) -> float:
    v = 0.0
    if ctx.captain == BONES:
        if skulls == 0:
            v += 1.0
            silver += 1
        elif silver >= skulls:
            skulls -= 1
    loss = min(skulls, silver)
    v -= loss
    silver -= loss
    grog_faces = counts[GROG] + counts[SKULL_GROG]
    v += GROG_VALUE * min(grog_faces, GROG_MAX - ctx.grog)
    if grog_faces == DICE:
        v += EXTRA_TURN
    v += counts[SILVER]
    maps = counts[MAP]
    if maps == DICE:
        v += max(ctx.path_value(k, silver) for k in (5, 3, 1))
    elif maps:
        v += ctx.path_value(maps, silver)
    elif ctx.captain == JAXN:
        v += ctx.path_value(1, silver) + GROG_VALUE
    v += ctx.cannon[counts[CANNON]]
    return v


def _sub_multisets(counts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every non-empty sub-multiset of ``counts`` (the dice one could re-roll).

    ``counts`` holds six face counts; the answers come in lexicographic order,
    the first face's count varying slowest. A plain product, not a closure
    calling itself, so a bot decision leaves no reference cycle behind.
    """
    for sub in product(*(range(c + 1) for c in counts[:6])):
        if any(sub):
            yield sub


def expected_value(kept: tuple[int, ...], k: int, ctx: _Ctx) -> float:
    """E[roll_value] when the dice ``kept`` (face counts) stay and ``k`` dice are rolled."""
    base = pack(kept)
    memo = ctx.memo
    total = 0.0
    for out, p in outcomes(k):
        key = base + out
        v = memo.get(key)
        if v is None:
            v = packed_value(key, ctx)
        total += p * v
    return total


RerollChoice = tuple[tuple[int, ...] | None, str]
"""``(sub_counts or None, pay)``: what :func:`best_reroll` answers."""

_LAST_REROLL: Final[list[tuple[tuple[object, ...], RerollChoice] | None]] = [None]
"""``(key, answer)`` of the last :func:`best_reroll` call."""


def _reroll_key(state: CorsairsState, seat: int) -> tuple[object, ...]:
    return (seat, tuple(state.dice), tuple(state.pos), tuple(state.grog), tuple(state.silver),
            tuple(state.treasure), state.island, state.visits, state.layout, state.captain, state.flags)


def best_reroll(state: CorsairsState, seat: int) -> RerollChoice:
    """``(sub_counts or None, pay)``: the dice worth re-rolling one step ahead, or None to lock.

    The answer depends only on what is on the table, not on the marks, so it
    is remembered for the next call (the marking steps of the same decision).
    """
    key = _reroll_key(state, seat)
    last = _LAST_REROLL[0]
    if last is not None and last[0] == key:
        return last[1]
    answer = _best_reroll(state, seat)
    _LAST_REROLL[0] = (key, answer)
    return answer


def _best_reroll(state: CorsairsState, seat: int) -> RerollChoice:
    ctx = _Ctx(state, seat)
    counts = tuple(count_faces(state.dice))
    best_sub: tuple[int, ...] | None = None
    best, pay = roll_value(counts, ctx), "reroll"
    can_grog, can_silver = state.reroll_payments(seat)
    if can_grog:
        price, pay_id = GROG_VALUE, "reroll"
    elif can_silver:
        price, pay_id = 1.0, "reroll-silver"
    else:
        return None, pay
    for sub in _sub_multisets(counts):
        kept = tuple(a - b for a, b in zip(counts, sub))
        v = expected_value(kept, sum(sub), ctx) - price
        if v > best + 1e-9:
            best, best_sub, pay = v, sub, pay_id
    return best_sub, pay


def _mask_for(dice: list[int], sub: tuple[int, ...]) -> int:
    need = list(sub)
    mask = 0
    for i, f in enumerate(dice):
        if need[f]:
            need[f] -= 1
            mask |= 1 << i
    return mask


# ---------------------------------------------------------------- phase C search
_LEAF_TASKS: Final = ("roll", "reroll", "captain-b")


def _key(state: CorsairsState) -> tuple[object, ...]:
    return (tuple(state.pos), tuple(state.grog), tuple(state.silver), tuple(state.treasure), state.island,
            state.visits, tuple(state.left), state.flags, tuple(state.tasks), state.phase, state.layout,
            tuple(state.dice))


def _search(state: CorsairsState, seat: int, memo: dict[tuple[object, ...], float], budget: list[int]) -> float:
    if state.phase == OVER or state.waiting_for in _LEAF_TASKS or budget[0] <= 0:
        return lead(state, seat)
    key = _key(state)
    v = memo.get(key)
    if v is not None:
        return v
    budget[0] -= 1
    decider = state.to_move[0]
    acts = state.legal_actions(decider)
    if decider != seat:
        child = max((state.child(a, decider) for a in acts), key=lambda c: lead(c, decider))
        v = _search(child, seat, memo, budget)
    else:
        v = max(_search(state.child(a, seat), seat, memo, budget) for a in acts)
    memo[key] = v
    return v


def search_values(state: CorsairsState, seat: int) -> list[tuple[Action, float]]:
    """Each legal action of ``seat`` with the best material lead reachable by the end of the turn."""
    memo: dict[tuple[object, ...], float] = {}
    budget = [SEARCH_NODES]
    return [(a, _search(state.child(a, seat), seat, memo, budget)) for a in state.legal_actions(seat)]


# ---------------------------------------------------------------- greedy
def greedy(state: CorsairsState, seat: int) -> Action:
    """The greedy bot's choice for ``seat`` (see the module docstring); first of equals on ties."""
    acts = state.legal_actions(seat)
    if len(acts) == 1:
        return acts[0]
    tag = state.waiting_for
    by_id = {a.id: a for a in acts}
    if tag == "reroll":
        sub, pay = best_reroll(state, seat)
        if sub is None:
            return by_id["lock"]
        target = _mask_for(state.dice, sub)
        diff = target ^ state.marked
        if not diff:
            return by_id[pay]
        i = (diff & -diff).bit_length() - 1
        return by_id[f"mark:{i + 1}"]
    if tag == "roll":
        ctx = _Ctx(state, seat)
        plain = expected_value((0,) * 6, DICE, ctx)
        face = CANNON if "set-cannon" in by_id else MAP
        preset = tuple(1 if f == face else 0 for f in range(6))
        with_set = expected_value(preset, DICE - 1, ctx) - GROG_VALUE
        return acts[1] if with_set > plain + 1e-9 else by_id["roll"]
    if tag == "captain-b":
        ctx = _Ctx(state, seat)
        best: float | None = None
        choice = acts[-1]
        for a in acts:
            probe = state.child(a, seat)
            v = roll_value(tuple(count_faces(probe.dice)), ctx)
            if best is None or v > best + 1e-9:
                best, choice = v, a
        return choice
    best = None
    choice = acts[0]
    for a, v in search_values(state, seat):
        if best is None or v > best + 1e-9:
            best, choice = v, a
    return choice
