"""Valeria: Card Kingdoms bots: the greedy policy and a position evaluation.

Both read only what the deciding seat may know: the GreedyBot hands ``greedy`` a determinized
copy (other Dukes and face-down cards resampled), and ``value`` uses the seat's own Duke only.

Position value (``value(state, seat)``, in VP)
----------------------------------------------
* public VP (Monsters, Domains, VP tokens) plus the seat's Duke on its Roles and cards
  (the Duke's resource term is replaced by the resource value below);
* each Gold/Strength token is worth ``r`` VP, the Duke's end-game rate (1 VP per N), and each
  Magic ``1.1 r`` (Magic stands in for either); any higher value makes the bot hoard instead
  of buying VP;
* each Citizen and Starter is worth its expected Harvest income per round (on-turn once,
  off-turn ``players - 1`` times, activation chances from the two dice) times the rounds left,
  at ``r`` per resource, plus 0.4 VP per Role icon (Domains need them, Dukes pay for them);
* each Domain with an ongoing power is worth 0.3 VP per round left.
* rounds left: ``TYPICAL_ROUNDS`` (12) minus the rounds played, at least 1 (see ``rounds_left``).

Greedy (``greedy``): for every legal action, take it in a look-ahead copy (``horizon_clone``,
moves made with the quiet ``child``); while the same
seat must then finish what it started (pay, choose, take, trade, change dice: not the next
Action), follow its best continuation (two levels deep); score the result with ``value`` and
keep the best action (first on ties). Dukes: the one that scores most on a typical end-game
tableau. ``evaluate`` maps the lead over the best opponent to [0, 1] (solo: the lead over the Dark
Lord's score, not clipped; see ``evaluate``).

Two cuts keep a call cheap (see docs/games/valeria-card-kingdoms.md; checked against the first
version in seat-rotated games, ``benchmarks/vck_greedy_compare.py``): the look-ahead stops at
the End Phase of a turn unless it ends the game (solo goes on into the player's next turn),
and a payment inside a continuation is made only with the most real tokens (the first one
offered), which keeps the most Magic.
"""

from __future__ import annotations

from typing import Final

from math import inf

from dicetable.engine import Action

from .components import (
    CIT_OFF, CIT_ON, CIT_ROLE, DOM_REQ, DOM_VP, DOM_WHEN, DUKE_SCORING, DUKES, MON_TYPE, MON_VP, W_BUILD,
)
from .rules.consts import CHOOSE, CIT_SLOTS, EXCHANGE, GAIN, N_CIT, PER, STEAL, STEPS
from .rules import NT, P_DUKES, P_OVER, ValeriaState, duke_score

#: Decision tasks that finish what the seat started (pay, choose, take, trade, change dice...):
#: the look-ahead follows them; the next Action is not one.
CONTINUATIONS: Final = frozenset(("pay", "step", "exchange", "roll", "attack", "free-resource"))


def _activation_chance(t: int) -> float:
    """Expected activations per copy per roll (R5.7, R5.8: each die and the sum)."""
    total = 0
    for a in range(1, 7):
        for b in range(1, 7):
            total += sum((a == n) + (b == n) + (a + b == n) for n in CIT_SLOTS[t])
    return total / 36


def _step_yield(sid: int) -> float:
    st = STEPS[sid]
    op = st[0]
    if op == GAIN:
        return st[1] + st[2] + st[3] + 2 * st[4]
    if op == PER:
        return 2 * (st[1] + st[2] + st[3] + 2 * st[4])  # a typical count of 2
    if op == CHOOSE:
        return max(sum(_step_yield(s) for s in option) for option in st[1])
    if op == EXCHANGE:
        return max(0.0, 0.7 * (sum(st[2]) + st[2][3] - sum(st[1])))
    if op == STEAL:
        return 2.0 * 1.5  # taken from an opponent: worth more than from the Bank
    return 0.0


_CHANCE: Final = tuple(_activation_chance(t) for t in range(NT))
_YIELD_ON: Final = tuple(sum(_step_yield(s) for s in CIT_ON[t]) for t in range(NT))
_YIELD_OFF: Final = tuple(sum(_step_yield(s) for s in CIT_OFF[t]) for t in range(NT))


#: Rounds a game between sensible players lasts, for the income estimate.
TYPICAL_ROUNDS: Final = 12

# ---- precomputed terms of ``value`` (each computed exactly as the formula does, so the
# values, and hence greedy's choices, are bit for bit those of the plain formula)
#: INCOME[others][t]: expected Harvest resources per round of one card of type t.
INCOME: Final = tuple(tuple(_CHANCE[t] * (_YIELD_ON[t] + others * _YIELD_OFF[t]) for t in range(NT)) for others in range(5))
#: ROLE_BONUS[t]: 0.4 VP per Role icon (Starters have none).
ROLE_BONUS: Final = tuple(0.4 if CIT_ROLE[t] >= 0 else 0.0 for t in range(NT))
#: R_END[duke]: the Duke's end-game VP per Gold or Strength token.
R_END: Final = tuple((1 / d.per_resource["g"] + 1 / d.per_resource["s"] + 1 / d.per_resource["m"]) / 3 for d in DUKES)
#: Per Duke, the VP of each card beyond its resources (``duke_score`` without resources, plus
#: the card's own VP): DUKE_CIT[duke][t], DUKE_DOM[duke][d], DUKE_MON[duke][m].
DUKE_CIT: Final = tuple(tuple(role_vp[CIT_ROLE[t]] + per_cit if t < N_CIT else 0 for t in range(NT))
                        for _, role_vp, _, per_cit, _, _ in DUKE_SCORING)
DUKE_DOM: Final = tuple(tuple(DOM_VP[d] + per_dom + sum(role_vp[r] * DOM_REQ[d][r] for r in range(4)) for d in range(len(DOM_VP)))
                        for _, role_vp, per_dom, _, _, _ in DUKE_SCORING)
DUKE_MON: Final = tuple(tuple(MON_VP[m] + per_mon + per_type[MON_TYPE[m]] for m in range(len(MON_VP)))
                        for _, _, _, _, per_mon, per_type in DUKE_SCORING)
NO_DUKE_CIT: Final = (0,) * NT
NO_DUKE_DOM: Final = tuple(DOM_VP)
NO_DUKE_MON: Final = tuple(MON_VP)
#: ONGOING[d]: the Domain has a power beyond the moment it is built.
ONGOING: Final = tuple(w != W_BUILD for w in DOM_WHEN)


def rounds_left(state: ValeriaState) -> float:
    """Rounds of Harvest income still expected: ``TYPICAL_ROUNDS`` minus the rounds played, at least 1.

    It depends on time only: a value that fell when a stack empties would make the bot
    avoid ending the game and hoard forever.
    """
    played = max(0, state.turn - 1) // state.players
    return float(max(1, TYPICAL_ROUNDS - played))


_COEF: Final[dict[tuple[int, int, float], tuple[float, ...]]] = {}


def _card_coef(duke: int, players: int, rounds: float) -> tuple[float, ...]:
    """Per card type, the value of one copy: income per round x rounds left x ``r``, plus Roles.

    Cached per (Duke, players, rounds); each term is computed as the formula writes it.
    """
    key = (duke, players, rounds)
    coef = _COEF.get(key)
    if coef is None:
        r = R_END[duke] if duke >= 0 else 1 / 3
        inc = INCOME[players - 1]
        coef = _COEF[key] = tuple(inc[t] * rounds * r + ROLE_BONUS[t] for t in range(NT))
    return coef


def value(state: ValeriaState, seat: int) -> float:
    """The seat's position in VP (see the module docstring); final score once the game is over.

    Computed from precomputed per-card terms, adding the float terms in the formula's order,
    so the result is exactly the formula's.
    """
    if state.phase == P_OVER:
        return float(state.score(seat))
    players = state.players
    rounds = rounds_left(state)
    b = seat * 4
    res = state.res
    duke = state.dukes[seat]
    base = seat * NT
    own = state.own
    doms = state.doms[seat]
    victory = state.victory[seat]
    # public VP (Monsters, Domains, VP tokens) plus the Duke on the cards: exact integers
    if duke >= 0:
        cit_w, dom_w, mon_w = DUKE_CIT[duke], DUKE_DOM[duke], DUKE_MON[duke]
        r = R_END[duke]
    else:
        cit_w, dom_w, mon_w = NO_DUKE_CIT, NO_DUKE_DOM, NO_DUKE_MON
        r = 1 / 3
    vp = res[b + 3]
    for t in range(NT):  # index loops (not map/zip): the compiled build runs them as C
        n = own[base + t]
        if n:
            vp += n * cit_w[t]
    for m in victory:
        vp += mon_w[m]
    for d in doms:
        vp += dom_w[d]
    v = float(vp)
    v += r * (res[b] + res[b + 1] + 1.1 * res[b + 2])
    coef = _COEF.get((duke, players, rounds)) or _card_coef(duke, players, rounds)
    for t in range(NT):  # the owned card types in index order: the float sum's order is fixed
        n = own[base + t]
        if n:
            v += n * coef[t]
    if doms:
        per = 0.3 * rounds
        for d in doms:
            if ONGOING[d]:
                v += per
    return v


def _best_value(state: ValeriaState, seat: int, depth: int) -> float:
    """Value after ``seat`` finishes what it is doing (its best continuation, ``depth`` deep).

    ``state`` is a look-ahead copy (``horizon_clone``): moves are made with the quiet ``child``.
    """
    if depth <= 0 or state.phase in (P_OVER, P_DUKES):
        return value(state, seat)
    task = state.pending(seat)
    if task is None or task[0] not in CONTINUATIONS:
        return value(state, seat)
    actions = state.legal_actions(seat)
    if task[0] == "pay":
        # a payment inside the continuation: only the one with the most real tokens (the
        # first one offered), which keeps the most Magic, worth more than Gold or Strength
        # in ``value``
        return _best_value(state.child(actions[0], seat), seat, depth - 1)
    best = -inf  # a pending decision offers at least one action
    for action in actions:
        v = _best_value(state.child(action, seat), seat, depth - 1)
        if v > best:
            best = v
    return best


def duke_prior(duke: int) -> float:
    """A Duke's VP on a typical end-game tableau (6 Citizens, 2 Domains, 4 Monsters, 9 of each resource)."""
    citizens = [0] * N_CIT
    for t in range(0, N_CIT, 3):
        citizens[t] = 1
    return float(duke_score(duke, 9, 9, 9, citizens, (0, 1), (0, 1, 4, 10)))


def greedy(state: ValeriaState, seat: int) -> Action:
    """The greedy bot's choice for ``seat`` (see the module docstring); first action on ties."""
    actions = state.legal_actions(seat)
    if state.phase == P_DUKES:
        return max(actions, key=lambda a: duke_prior(a.payload))
    if len(actions) == 1:
        return actions[0]
    root = state.horizon_clone()
    best_action, best = actions[0], -inf
    for action in actions:
        v = _best_value(root.child(action, seat), seat, 2)
        if v > best:
            best_action, best = action, v
    return best_action


def evaluate(state: ValeriaState, seat: int) -> float:
    """A score for ``seat``: ``0.5 + lead / 40``, the lead in VP over the best opponent.

    Several players: clipped to [0, 1] (+-20 VP reaches 1 or 0); once over, 1 for a winner,
    else 0. Solo (R12.18): the lead over the Dark Lord's score, NOT clipped (it runs from about
    -1.2 to 2): the Dark Lord starts with every Monster's VP (about 67) against the player's
    few, so a clipped lead was 0 at 96% of the search's leaves in the first eight turns and
    the search could not tell its choices apart. Once over, the same with the final scores
    (the result that counts is the player's score, won or lost).
    """
    if state.players == 1:
        mine = value(state, seat)  # the final score once over
        return 0.5 + (mine - state.dark_lord_score()) / 40.0
    if state.phase == P_OVER:
        return 1.0 if seat in state.winners else 0.0
    mine = value(state, seat)
    other = max(value(state, s) for s in range(state.players) if s != seat)
    return min(1.0, max(0.0, 0.5 + (mine - other) / 40.0))
