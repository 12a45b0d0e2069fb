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

Greedy (``greedy``): for every legal action, apply it to a clone; while the same seat must
then finish what it started (pay, choose, take, trade, change dice: not the next Action),
follow its best continuation (two levels deep); score the result with ``value`` and keep the
best action (first on ties). Dukes: the one that scores most on a typical end-game tableau.
``evaluate`` maps the lead over the best opponent (the Dark Lord's score in solo) to [0, 1].
"""

from __future__ import annotations

from dicetable.engine import Action

from .components import (
    CHOOSE, CIT_OFF, CIT_ON, CIT_ROLE, CIT_SLOTS, DOM_WHEN, DUKE_SCORING, EXCHANGE, GAIN, N_CIT,
    PER, STEAL, STEPS, W_BUILD,
)
from .rules import (
    K_ATTACK, K_EXCH, K_FREE, K_PAY, K_ROLL, K_STEP, NT, P_DUKES, P_OVER, ValeriaState, duke_score,
)

_CONTINUATIONS = frozenset((K_PAY, K_STEP, K_EXCH, K_ROLL, K_ATTACK, K_FREE))


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


_CHANCE = tuple(_activation_chance(t) for t in range(NT))
_YIELD_ON = tuple(sum(_step_yield(s) for s in CIT_ON[t]) for t in range(NT))
_YIELD_OFF = tuple(sum(_step_yield(s) for s in CIT_OFF[t]) for t in range(NT))


#: Rounds a game between sensible players lasts, for the income estimate.
TYPICAL_ROUNDS = 12


def rounds_left(state: ValeriaState) -> float:
    """Rounds of Harvest income still expected: ``TYPICAL_ROUNDS`` minus the rounds played, at least 1.

    It depends on time only: a value that fell when a stack empties would make the bot
    avoid ending the game and hoard forever.
    """
    played = max(0, state.turn - 1) // state.players
    return float(max(1, TYPICAL_ROUNDS - played))


def value(state: ValeriaState, seat: int) -> float:
    """The seat's position in VP (see the module docstring); final score once the game is over."""
    if state.phase == P_OVER:
        return float(state.score(seat))
    rounds = rounds_left(state)
    b = seat * 4
    res = state.res
    duke = state.dukes[seat]
    own = state.own
    base = seat * NT
    citizens = own[base:base + N_CIT]
    v = float(state.public_vp(seat))
    if duke >= 0:
        div = DUKE_SCORING[duke][0]
        v += duke_score(duke, 0, 0, 0, citizens, state.doms[seat], state.victory[seat])
        r_end = (1 / div[0] + 1 / div[1] + 1 / div[2]) / 3
    else:
        r_end = 1 / 3
    r = r_end
    v += r * (res[b] + res[b + 1] + 1.1 * res[b + 2])
    others = state.players - 1
    for t in range(NT):
        c = own[base + t]
        if c:
            income = _CHANCE[t] * (_YIELD_ON[t] + others * _YIELD_OFF[t])
            v += c * (income * rounds * r + (0.4 if CIT_ROLE[t] >= 0 else 0.0))
    for d in state.doms[seat]:
        if DOM_WHEN[d] != W_BUILD:
            v += 0.3 * rounds
    return v


def _best_value(state: ValeriaState, seat: int, depth: int) -> float:
    """Value after ``seat`` finishes what it is doing (its best continuation, ``depth`` deep)."""
    if depth <= 0 or state.phase in (P_OVER, P_DUKES) or state.to_move != (seat,) \
            or state.tasks[-1][0] not in _CONTINUATIONS:
        return value(state, seat)
    best = None
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply(action, seat)
        v = _best_value(child, seat, depth - 1)
        if best is None or v > best:
            best = v
    return best


def _duke_prior(duke: int) -> float:
    """A Duke's VP on a typical end-game tableau (6 Citizens, 2 Domains, 4 Monsters, 9 of each resource)."""
    citizens = [0] * N_CIT
    for t in range(0, N_CIT, 3):
        citizens[t] = 1
    return float(duke_score(duke, 9, 9, 9, citizens, (0, 1), (0, 1, 4, 10)))


def greedy(state: ValeriaState, seat: int) -> Action:
    """The greedy bot's choice for ``seat`` (see the module docstring); first action on ties."""
    actions = state.legal_actions(seat)
    if state.phase == P_DUKES:
        return max(actions, key=lambda a: _duke_prior(a.payload))
    if len(actions) == 1:
        return actions[0]
    best_action, best = actions[0], None
    for action in actions:
        child = state.clone()
        child.apply(action, seat)
        v = _best_value(child, seat, 2)
        if best is None or v > best:
            best_action, best = action, v
    return best_action


def evaluate(state: ValeriaState, seat: int) -> float:
    """A score in [0, 1] for ``seat``: 0.5 level with the best opponent, +-20 VP reaches 1 or 0."""
    if state.phase == P_OVER:
        if state.players == 1:
            return 1.0 if state.winners else 0.0
        return 1.0 if seat in state.winners else 0.0
    mine = value(state, seat)
    if state.players == 1:
        other = float(state.dark_lord_score())
    else:
        other = max(value(state, s) for s in range(state.players) if s != seat)
    return min(1.0, max(0.0, 0.5 + (mine - other) / 40.0))
