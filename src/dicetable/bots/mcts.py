"""Information-set Monte Carlo tree search with determinization (ISMCTS).

One search for every game, written only against the public State protocol: it moves
copies with the quiet trusted step (``state.step`` / ``state.child``), never a private name.

Each iteration
--------------
1. **Determinize**: ``state.determinize(seat, k)`` gives a copy in which everything the
   searching seat cannot see (deck order, face-down cards, other seats' secret choices,
   future dice) is resampled consistently with its observation.
2. **Select** down the tree (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012)
   with PUCT, ``Q(a) + c * P(a) * sqrt(A(a)) / (1 + n(a))``: nodes are keyed by action ids
   from the searching seat's information set, only actions legal in this determinization
   compete, and ``A(a)`` (how often the child was *available*) replaces the parent's visits.
   The prior ``P`` puts ``prior_weight`` on the game's greedy choice.
3. **Expand** the first child never visited.
4. **Leaf**: score every seat with the leaf evaluator (:class:`dicetable.bots.value.Evaluator`):
   the learned value model of the game and player count when one ships, else the game's
   hand-written ``evaluate``. With a learned value the levels score the expanded position
   itself (``learned_depth = 0``); with the hand evaluation the leaf is first played on
   (at most ``rollout_depth`` actions, the greedy policy with probability
   ``rollout_greedy``, else uniform). A finished game scores the win shares (solo:
   ``score / scale`` with a model).
5. **Back up** each seat's reward into the nodes where that seat acted (max^n).

Chance: every iteration samples its own dice (the determinized copy's generator) and the
tree is open-loop over chance: a node holds the statistics of an action over the dice
outcomes seen, with availability counts for the actions only some outcomes allow.

Macro-actions: where a seat makes several choices in a row with no chance and nobody else
acting in between (a Corsairs re-roll selection, a Kingdom of Dice set-aside), the root
offers each distinct *whole* choice (deduplicated by the observation it leads to) as one
child; the bot plays the chosen sequence one decision at a time without searching again.

Time: ``time_ms`` caps a decision and ``turn_ms`` a turn (the seat's consecutive
decisions), both in wall-clock milliseconds; the iteration count is the budget otherwise,
and with ``stop_early`` a search ends once its most visited root choice cannot be overtaken.
Root parallelism: with ``workers > 1`` each process grows its own tree and the root
statistics are summed.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import gc
import json
import math
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields, replace

from mypy_extensions import mypyc_attr

from dicetable.engine import Action, GameConfigError, GameState, Rng, load_state, spec_of

from .value import Evaluator


@mypyc_attr(native_class=False)  # pickled to the search workers: a compiled frozen dataclass cannot be unpickled
@dataclass(frozen=True)
class SearchParams:
    """Search settings.

    ``iterations``: iterations per decision (per worker); ``time_ms``: wall-clock cap per
    decision (ms, None: none); ``turn_ms``: wall-clock cap per turn, i.e. the seat's
    consecutive decisions (ms, None: none; once spent the bot plays greedy for the rest of
    the turn); ``c``: PUCT exploration constant; ``prior_weight``: prior mass on the greedy
    choice; ``rollout_depth``: most actions played from a leaf before it is evaluated;
    ``learned_depth``: the same when the leaf evaluator is a learned value (None: ``rollout_depth``;
    0: the learned value scores the expanded position itself, one dot product per seat);
    ``rollout_greedy``: probability that a leaf move is the greedy one (else uniform);
    ``turn_rollout``: stop the leaf play when the seat to move changes (evaluate at the end
    of the turn); ``prime_after``: visits of a node before its children get the greedy prior;
    ``macro``: offer whole same-seat choice sequences at the root; ``macro_limit``: most
    distinct sequences (more: plain actions); ``value``: leaf evaluator, ``auto`` (learned
    when shipped), ``learned`` or ``hand``; ``flat``: instead of a tree, compare the root
    choices by rollouts of the greedy policy on shared sampled worlds, halving the field
    (see :meth:`MCTS.flat_search`); ``stop_early``: end a search once no root choice can
    overtake the most visited one within the iterations left (the choice played is the same,
    the time is saved); ``blunder``: probability (0-1) that a decision with several legal
    actions is a uniformly random one of the choices the search would compare (a whole choice
    where macro-actions apply) instead of the search's: the ``easy`` level's mistakes;
    ``sim_decouple``: in a simultaneous step (secret bids) the other seats
    choose by statistics kept at the node before the searcher's choice, shared by all its
    choices, so the tree cannot let them answer a choice they do not see (see
    :meth:`MCTS.search`); ``opponent_prior``: the prior mass on the greedy choice at the other
    seats' nodes (None: ``prior_weight``; near 1 the tree models the others as the greedy
    policy and spends its visits on the searcher's own choices);
    ``workers``: processes for root parallelism; ``turn_plan``: where the
    game offers a turn planner (``GameSpec.extras`` ``turn_key``, ``turn_outcomes`` and ``plan_turn``, e.g.
    Kingdom of Dice), decide the seat's turn by it instead of the tree: every way the turn can
    end is scored once by the leaf evaluator, then an exact expectimax over the turn's chance
    picks each decision (see :meth:`MCTSBot._planned`); ``plan_worlds``: the sampled worlds
    (determinizations, seeds 1..n) over which the planner's ``turn_outcomes`` averages each ending
    (None: the game's default; only for a game whose ``turn_outcomes`` takes ``seeds``, e.g. Kingdom of Dice).
    """

    iterations: int = 250
    time_ms: float | None = None
    turn_ms: float | None = None
    c: float = 1.0
    prior_weight: float = 0.3
    rollout_depth: int = 10
    learned_depth: int | None = None
    rollout_greedy: float = 0.0
    turn_rollout: bool = False
    prime_after: int = 2
    macro: bool = True
    macro_limit: int = 40
    value: str = "auto"
    flat: bool = False
    stop_early: bool = False
    blunder: float = 0.0
    sim_decouple: bool = False
    opponent_prior: float | None = None
    workers: int = 1
    turn_plan: bool = False
    plan_worlds: int | None = None


_FIELD_TYPES = {f.name: f.type for f in fields(SearchParams)}


@mypyc_attr(native_class=False)  # a plain class, as SearchParams whose fields it mirrors
@dataclass(frozen=True)
class SearchTuning:
    """A game's adjustments to every level's :class:`SearchParams` (None: keep the level's).

    Typed: each field has the type of the :class:`SearchParams` field of the same name, and
    :meth:`apply` returns the level's settings with the given ones replaced.
    """

    c: float | None = None
    prior_weight: float | None = None
    rollout_depth: int | None = None
    learned_depth: int | None = None
    rollout_greedy: float | None = None
    turn_rollout: bool | None = None
    prime_after: int | None = None
    macro: bool | None = None
    macro_limit: int | None = None
    flat: bool | None = None
    value: str | None = None
    turn_plan: bool | None = None
    sim_decouple: bool | None = None
    opponent_prior: float | None = None
    plan_worlds: int | None = None

    def apply(self, params: SearchParams) -> SearchParams:
        """``params`` with this tuning's non-None fields put in."""
        given = {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}
        return replace(params, **given)


#: Levels (docs/bots.md): each a larger budget than the one below; ``easy`` also blunders (a
#: random whole choice at 40% of its decisions), the opponent for someone learning a game.
#: ``hard`` stays within 1 s per decision and 3 s per turn on one core; ``expert`` is for analysis.
#: Every level scores a leaf with the learned value at once where one ships (``learned_depth = 0``)
#: and stops a search whose choice is settled (``stop_early``).
LEVELS = {
    "easy": SearchParams(iterations=25, time_ms=250.0, turn_ms=750.0, learned_depth=0, stop_early=True, blunder=0.4),
    "medium": SearchParams(iterations=80, time_ms=500.0, turn_ms=1500.0, learned_depth=0, stop_early=True),
    "hard": SearchParams(iterations=250, time_ms=900.0, turn_ms=2700.0, learned_depth=0, stop_early=True),  # 10% margin: the last iteration runs on
    "expert": SearchParams(iterations=3000, time_ms=6000.0, turn_ms=20000.0, learned_depth=0, stop_early=True),
}

#: Per-game tuning, applied to every level; games not listed use the levels as they are.
#: A key ``(game, players)`` adds a tuning for that player count only, applied after the
#: game's own (see :func:`level_params`).
#: The default leaf play is ten uniform moves (the greedy policies cost 0.1-0.3 ms a call in
#: Corsairs, Biblios, Dice Kingdoms and Card Kingdoms, so they set priors only).
GAME_TUNING: dict[str | tuple[str, int], SearchTuning] = {
    # its greedy table is cached and its hand evaluation is weak at turn ends (0 of 8 games
    # against greedy with turn-end leaves): leaves follow greedy a few turns ahead. Only where
    # no learned value ships (solo): at 2 and 4 players the learned value scores leaves at once
    # (2p: 50% against greedy in 40 games at 1.3 s a game, 47.5% at 5.8 s with the deep leaves)
    # (the tree settings below stay for SearchParams.turn_plan=False). Greedy maximises the expected
    # result value whatever the board; the turn planner (exact expectimax over the turn's dice, each
    # ending valued by greedy play to the round's end and the points lead, value="hand") plays for the
    # card the marker will take. Against greedy, 40 games each: 2p 75% (seed 11; the tree 50%) and 60%
    # (seed 12); 4p 30% and 25% (the tree 27.5% on seed 11); solo 86.0 (seed 11); 150-220 ms a turn.
    # 100 games, seed 2026 (the ladder's): 2p 66% (56-75%), 4p 36% (27-46%), solo 86.3 (84.9-87.6)
    "kingdom-of-dice": SearchTuning(rollout_greedy=0.9, rollout_depth=40, prior_weight=0.6,
                                    turn_plan=True, value="hand"),
    # solo (measured with benchmarks/hard_row.py, greedy on the same seeds): the planner gained
    # nothing (seed 11, 40 games: 85.6 against greedy's 86.6). Why: its ending values added the
    # next round's points to an ending that ends the round (now fixed in turn_outcomes: a last
    # marker looked ~28 points better than none, so those turns chased any valid result); with
    # that fixed, 8 worlds 87.1. Solo an ending's card goes by the gap between the Cat's markers
    # (one playout set per gap, not per space), so 96 sampled worlds cost what 8 did before:
    # seed 11 87.9 (85.7-90.1), seed 12 89.0 (87.1-91.0) against greedy's 86.6 and 87.3, about
    # 600 ms a turn (p95 200 ms a decision). No better: policy iteration (the seat's later set-asides in the
    # playouts planned on a first pass's values; tried, then removed: 48
    # worlds, 87.7 on seed 11, 1.06 s a turn), 192 worlds (seed 11 88.9, seed 12 87.9, 830 ms a turn). 100 games, seed 2026 (the ladder's): 88.7
    # (87.4-90.1) against greedy's 86.1 (84.8-87.5) on the same games, 580 ms a turn. Now solo
    # turn_outcomes solves the round instead (solo_round.py, no sampling): seed 11 88.4, seed 12
    # 88.0, seed 2026 (100 games) 88.6 (87.2-90.0), 1.46 s CPU a game: the same strength, at the
    # ceiling (the solved round expects 2.6 points a game over greedy), exact and cheaper
    # the tree's leaf values cannot tell re-roll choices apart (hard chose greedy's move in 56 of 59
    # searched decisions) and greedy judges a re-roll only one step ahead. The turn planner
    # (corsairs_of_valeria/planner.py): an exact expectimax over every re-roll Grog (or the Prince's
    # Silver) can pay, each way to lock the dice valued by playing the turn out with greedy and scoring
    # the end with the learned value (value "auto"); the rest of the turn (phase C, searched exactly by
    # greedy) is greedy's. Hard against greedy, 2 players, 40 games, seed 11 (hard_row.py): the tree
    # 47.5%; the planner with endings scored by the material lead 45% (seed 12: 50%), by roll_value
    # 55%, by the learned value 67.5% (52-80%) at 5.3 s CPU a game (the tree: 2.3 s); seed 12, the
    # learned value: 80% (65-90%) at 5.0 s; 100 games, seed 2026 (the ladder's): 77% (68-84%) at 5.6 s
    # CPU a game, 54 ms a decision (95th percentile 495 ms). With the decision's cap (levels not
    # played take the nearest played one's values, see planner.py), seed 11: 72.5% (57-84%).
    # 4 players, 40 games each: seed 11 30% (the tree: 30% in the ladder's 100 on seed 2026),
    # seed 12 27.5% against the tree's 20% on the same games; 4-4.5 s CPU a game (the tree 3.4 s)
    "corsairs-of-valeria": SearchTuning(turn_plan=True),
    # solo, its learned score value (held-out correlation 0.29) misleads the search: 20 solo games
    # (seed 11) averaged 74.0 with it at the leaves against greedy's 72.5, and 81.5 with ten uniform
    # moves and the hand evaluation; at 2 and 4 players no learned value ships, so this changes nothing there
    "dice-kingdoms-of-valeria": SearchTuning(value="hand"),
    # where no learned value ships (4 players) the hand evaluation scores the expanded position
    # at once: ten uniform moves first cost a third more and win no more. Hard against three
    # greedy bots: seed 11, 40 games, 27.5% at 3.3 s CPU a game with the ten moves, 32.5% at
    # 2.2 s without; seed 12, 20 games, 40% at 2.7 s and 30% at 2.0 s (19 of 60 games either
    # way). At 2 players the learned value already scores leaves at once, so nothing changes there
    "biblios-dice": SearchTuning(rollout_depth=0),
    # 4 players: with the greedy prior (0.3 on its own nodes and the three others') the search
    # followed greedy in 136 of 143 searched decisions (3 games), so it won greedy's share. Here
    # the others are modelled as greedy (opponent_prior 0.9: the visits go to hard's own choices)
    # and hard's own choices go by their values (prior 0.05); secret bids decoupled. Hard against
    # three greedy bots, 40 games each: seed 11 50% (13 of 40 with rollout_depth 0 alone, 11 of
    # 40 before), seed 12 35% (its first 20 games: 9 against 8 before), seed 13 42.5% (45% before):
    # 46 against 37 wins in the 100 games played both ways; 2.6-3.3 s CPU a game either way
    ("biblios-dice", 4): SearchTuning(prior_weight=0.05, opponent_prior=0.9, sim_decouple=True),
    # solo only (its 2-player learned value helps): the learned score value (held-out correlation
    # 0.32) scored hard below greedy (100 games: 72.8 against 77.1); with the hand evaluation (the
    # lead over the Dark Lord's score, ten uniform moves) hard averaged 83.6 against greedy's 75.4
    # (40 games, seed 11), 79.6 against 72.9 (seed 12), 76.2 against 71.3 (seed 13), at about
    # 5.5 s of CPU a game, as before.
    # Seed 11, 40 games, all worse: an evaluation of the player's estimated score alone (VP value,
    # no Dark Lord) 79.2; leaves scored at once (rollout_depth 0) 80.2 at 3.7 s a game; leaf moves
    # half greedy (rollout_greedy 0.5) 82.8 at 19 s a game (all three with the clipped evaluation below).
    # Measured then: the hand evaluation clipped the lead to [0, 1] at +-20 VP, and the Dark Lord
    # starts with every Monster's VP (about 67), so 96% of the leaves of turns 1-8 scored 0 (10346 of
    # 10786 in 2 games; 75% of all leaves at 0 or 1): the search could not tell its early choices
    # apart, and a finished game scored 1/0 whatever the score. The game's solo ``evaluate`` is now
    # the unclipped lead (final scores once over): seed 11, 40 games, 93.4 (87.5-99.3) against
    # greedy's 75.4 (70.1-80.7); seed 12 87.3 (81.1-93.4) against 72.9; 6.0-6.6 s CPU a game
    # (2 other jobs on the 2 cores), 94-108 ms a decision (95th percentile 262-295 ms); 100 games,
    # seed 2026 (the ladder's): 89.2 (85.3-93.1) against greedy's 77.1 (73.2-81.0), 6.0 s a game.
    # With it, seed 11, 40 games: leaves scored at once (rollout_depth 0) 88.8 at 4.7 s a game; c 0.5 91.2
    ("valeria-card-kingdoms", 1): SearchTuning(value="hand"),
}


def level_params(game_id: str, level: str, players: int | None = None, **overrides) -> SearchParams:
    """The settings of ``level`` for ``game_id``: ``LEVELS[level]``, the game's tuning
    (``GAME_TUNING[game_id]``), then with ``players`` given the tuning for that player count
    (``GAME_TUNING[(game_id, players)]``), then ``overrides``.

    GameConfigError naming the levels for an unknown level, or the fields for an unknown
    override.
    """
    if level not in LEVELS:
        raise GameConfigError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    params = GAME_TUNING.get(game_id, SearchTuning()).apply(LEVELS[level])
    if players is not None:
        params = GAME_TUNING.get((game_id, players), SearchTuning()).apply(params)
    unknown = [k for k in overrides if k not in _FIELD_TYPES]
    if unknown:
        raise GameConfigError(f"unknown search setting(s) {', '.join(unknown)}; settings: {', '.join(_FIELD_TYPES)}")
    return replace(params, **overrides)


class Node:
    """A tree node: statistics of the action that led here, for the seat that took it."""

    __slots__ = ("children", "visits", "reward", "avail", "prior", "actor", "primed", "shared")

    def __init__(self, actor: int, prior: float) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        self.prior = prior
        self.actor = actor
        self.primed = False
        self.shared: dict[int, Node] | None = None  # with ``sim_decouple``: other seats' statistics in a simultaneous step


def acting_seat(state: GameState, searcher: int) -> int:
    """The seat the tree lets act next: the searcher first in a simultaneous step."""
    to_move = state.to_move
    if len(to_move) == 1 or searcher not in to_move:
        return to_move[0]
    return searcher


def terminal_rewards(state: GameState) -> list[float]:
    """Each seat's reward at the end with the hand evaluator: win share (solo: ``evaluate``)."""
    return Evaluator(state.game_id, state.players, state.options, mode="hand").terminal(state)


def _obs_key(state: GameState, seat: int) -> str:
    return json.dumps(state.observation(seat), sort_keys=True, default=str)


def _by_id(state: GameState, seat: int, aid: str) -> Action | None:
    for a in state.legal_actions(seat):
        if a.id == aid:
            return a
    return None


def macro_actions(state: GameState, seat: int, limit: int = 40, max_len: int = 12,
                  deadline: float | None = None) -> list[tuple] | None:
    """The distinct whole choices ``seat`` can make before chance or another seat acts.

    Returns a list of action-id sequences (each one whole choice, e.g. the dice to mark and
    then ``reroll``), one per distinct outcome: sequences reaching the same observation of
    ``seat`` are one choice, and a sequence ending with an action that draws chance (dice,
    a shuffle) is keyed by the observation before it plus that action. Returns None when
    there are more than ``limit`` of them, when more than ``4 * limit`` intermediate
    positions would have to be expanded, when ``deadline`` (a ``time.perf_counter()``
    value) passes, or when every choice is a single action (then macro-actions add nothing). ``state`` should be a determinized copy: only what the
    seat sees decides the keys.
    """
    found: dict[tuple, tuple] = {}
    seen = {_obs_key(state, seat)}
    queue: deque[tuple[GameState, tuple[str, ...]]] = deque([(state, ())])  # breadth first: the shortest sequence of each choice is kept
    longest = 0
    expanded = 0
    while queue:
        st, ids = queue.popleft()
        expanded += 1
        if expanded > 4 * limit or (deadline is not None and time.perf_counter() > deadline):
            return None
        mark = st.chance_mark
        before = None
        for a in st.legal_actions(seat):
            ch = st.child(a, seat)
            seq = ids + (a.id,)
            ch_moves = ch.to_move
            key: tuple[Any, ...]
            if ch.chance_mark != mark:
                if before is None:
                    before = _obs_key(st, seat)
                key = ("chance", before, a.id)
            elif ch.is_over or ch_moves != (seat,) or len(seq) >= max_len:
                key = ("end", _obs_key(ch, seat))
            else:
                k = _obs_key(ch, seat)
                if k not in seen:
                    seen.add(k)
                    queue.append((ch, seq))
                continue
            if key not in found:
                found[key] = seq
                longest = max(longest, len(seq))
                if len(found) > limit:
                    return None
    if longest < 2:
        return None
    return sorted(found.values())


def _decided(children: dict, remaining: int) -> bool:
    """True when no root child can catch up with the most visited one in ``remaining`` iterations.

    The bot plays the most visited child, so stopping then changes nothing it plays (a tie
    could still flip on the mean reward, so the lead must be strictly larger).
    """
    if len(children) < 2:
        return True
    first = second = 0
    for child in children.values():
        v = child.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > remaining


class MCTS:
    """A searcher for one game; ``search(state, seat)`` returns root statistics.

    ``evaluator`` scores leaves (default: :class:`Evaluator` in ``params.value`` mode).
    """

    def __init__(self, params: SearchParams = SearchParams(), seed: int = 0,
                 evaluator: Evaluator | None = None) -> None:
        self.params = params
        self.rng = Rng(seed)
        self.evaluator = evaluator
        self.iterations = 0
        self.searcher = -1  # the seat of the latest search

    def _evaluator(self, state: GameState) -> Evaluator:
        """The leaf evaluator, made for ``state``'s game on first use."""
        if self.evaluator is None:
            self.evaluator = Evaluator(state.game_id, state.players, state.options, self.params.value)
        return self.evaluator

    # -------------------------------------------------------------- policies
    def _greedy(self, state: GameState, seat: int, legal) -> Action:
        policy = spec_of(state).greedy
        if policy is None:
            return legal[self.rng.randbelow(len(legal))]
        return policy(state, seat)

    def _leaf(self, state: GameState, actor: int) -> list[float]:
        """Finish ``actor``'s turn (see :class:`SearchParams`) on ``state``, then score every seat."""
        params = self.params
        rng = self.rng
        policy = spec_of(state).greedy
        evaluator = self._evaluator(state)
        limit = params.rollout_depth
        if evaluator.model is not None and params.learned_depth is not None:
            limit = params.learned_depth
        depth = 0
        while not state.is_over and depth < limit:
            to_move = state.to_move
            seat = to_move[0] if len(to_move) == 1 else to_move[rng.randbelow(len(to_move))]
            if params.turn_rollout and seat != actor:
                break
            legal = state.legal_actions(seat)
            if policy is not None and (len(legal) == 1 or rng.random() < params.rollout_greedy):
                action = legal[0] if len(legal) == 1 else policy(state, seat)
            else:
                action = legal[rng.randbelow(len(legal))]
            state.step(action, seat)
            depth += 1
        if state.is_over:
            return evaluator.terminal(state)
        return evaluator.rewards(state)

    def _prime(self, det: GameState, actor: int, legal, node: Node, greedy_id: str | None = None) -> None:
        """Give ``node``'s children the greedy prior: P(greedy) = w + (1 - w) / n, others (1 - w) / n."""
        node.primed = True
        n = len(node.children)
        if n < 2:
            return
        w = self.params.prior_weight
        if actor != self.searcher and self.params.opponent_prior is not None:
            w = self.params.opponent_prior
        if greedy_id is None:
            greedy_id = self._greedy(det, actor, legal).id
        rest = (1.0 - w) / n
        for aid, child in node.children.items():
            child.prior = rest + (w if aid == greedy_id else 0.0)

    @staticmethod
    def _select(node: Node, keys, c: float) -> Node:
        children = node.children
        total_q, visited = 0.0, 0
        for k in keys:
            child = children[k]
            child.avail += 1
            if child.visits:
                total_q += child.reward / child.visits
                visited += 1
        fpu = total_q / visited if visited else 0.5
        best, best_score = children[keys[0]], -1e300
        for k in keys:
            child = children[k]
            n = child.visits
            q = child.reward / n if n else fpu
            score = q + c * child.prior * math.sqrt(child.avail) / (1 + n)
            if score > best_score:
                best, best_score = child, score
        return best

    # -------------------------------------------------------------- search
    def search(self, state: GameState, seat: int, macros: list[tuple] | None = None,
               deadline: float | None = None) -> dict[str, tuple[int, float]]:
        """Grow a tree for ``seat`` on ``state``; return ``{key: (visits, mean reward of seat)}``.

        Keys are action ids, or with ``macros`` (id sequences from :func:`macro_actions`)
        the sequences joined by ``" > "``. ``deadline`` is a ``time.perf_counter()`` value
        after which no new iteration starts (``params.time_ms`` sets one when None). Raises
        ValueError if ``seat`` is not to move.

        On the main thread (a terminal game, a ladder, a benchmark, a search worker process) the
        cyclic garbage collector is paused while the tree grows and restored after: a search makes
        almost no reference cycles (its tree and copies are freed by reference counting when it
        returns), yet the collector's passes over the growing tree cost up to a sixth of its
        time. Elsewhere (a server's bot threads, beside the event loop) nothing is paused.
        """
        if seat not in state.to_move:
            raise ValueError(f"seat {seat} is not to move")
        paused = gc.isenabled() and threading.current_thread() is threading.main_thread()
        if paused:
            gc.disable()
        try:
            return self._grow(state, seat, macros, deadline)
        finally:
            if paused:
                gc.enable()

    def _grow(self, state: GameState, seat: int, macros: list[tuple] | None,
              deadline: float | None) -> dict[str, tuple[int, float]]:
        """:meth:`search`'s work, its arguments checked."""
        params = self.params
        self.searcher = seat
        self._evaluator(state)
        if deadline is None and params.time_ms is not None:
            deadline = time.perf_counter() + params.time_ms / 1000.0
        if params.flat:
            return self.flat_search(state, seat, macros, deadline)
        root = Node(seat, 1.0)
        c = params.c
        prime_after = params.prime_after
        decouple = params.sim_decouple
        macro_keys = None
        if macros:
            macro_keys = [" > ".join(m) for m in macros]
            first = {k: m for k, m in zip(macro_keys, macros)}
            even = 1.0 / len(macros)
            for k in macro_keys:
                root.children[k] = Node(seat, even)
            det0 = state.determinize(seat, self.rng.next64())
            greedy_key = self._greedy_macro(det0, seat, first)
            if greedy_key is None:
                root.primed = True
            else:
                self._prime(det0, seat, None, root, greedy_key)
        ran = 0
        total = params.iterations
        root_children = root.children
        for it in range(total):
            if deadline is not None and it and time.perf_counter() > deadline:
                break
            if params.stop_early and it and it % 8 == 0 and _decided(root_children, total - it):
                break
            ran = it + 1
            det = state.determinize(seat, self.rng.next64())
            node = root
            path = []
            if macro_keys is not None:
                child = self._select(root, macro_keys, c)
                key = next(k for k, ch in root.children.items() if ch is child)
                for aid in first[key]:
                    action = _by_id(det, seat, aid)
                    if action is None:
                        break
                    det.step(action, seat)
                path.append(child)
                node = child
                stop = child.visits == 0
            else:
                stop = False
            leaf_actor = seat
            anchor: Node | None = None  # sim_decouple: the node before the searcher's simultaneous choice
            waiting: set = set()        # the seats of that step still to choose
            while not stop and not det.is_over:
                to_move = det.to_move
                actor = acting_seat(det, seat)
                legal = det.legal_actions(actor)
                children = node.children
                new = False
                for a in legal:
                    if a.id not in children:
                        new = True
                        break
                if new:
                    even = 1.0 / len(legal)
                    for a in legal:
                        if a.id not in children:
                            children[a.id] = Node(actor, even)
                if anchor is not None and actor in waiting:
                    # another seat's choice in the searcher's simultaneous step: chosen by the
                    # statistics shared over all the searcher's choices (it cannot see which)
                    waiting.discard(actor)
                    if anchor.shared is None:
                        anchor.shared = {}
                    hub = anchor.shared.get(actor)
                    if hub is None:
                        hub = anchor.shared[actor] = Node(actor, 1.0)
                    hub_children = hub.children
                    for a in legal:
                        if a.id not in hub_children:
                            hub_children[a.id] = Node(actor, 1.0 / len(legal))
                            hub.primed = False
                    if not hub.primed:
                        self._prime(det, actor, legal, hub)
                    pick = self._select(hub, [a.id for a in legal], c)
                    for a in legal:
                        if hub_children[a.id] is pick:
                            det.step(a, actor)
                            best = children[a.id]
                            break
                    path.append(pick)
                    path.append(best)
                    node = best
                    leaf_actor = actor
                    if not waiting:
                        anchor = None
                    if best.visits == 0:
                        break
                    continue
                anchor = None
                if not node.primed and (node is root or node.visits >= prime_after):
                    self._prime(det, actor, legal, node)
                best = self._select(node, [a.id for a in legal], c)
                if decouple and actor == seat and len(to_move) > 1:
                    anchor, waiting = node, set(to_move) - {seat}
                for a in legal:
                    if children[a.id] is best:
                        det.step(a, actor)
                        break
                path.append(best)
                node = best
                leaf_actor = actor
                if best.visits == 0:
                    break
            rewards = self._evaluator(det).terminal(det) if det.is_over else self._leaf(det, leaf_actor)
            for n in path:
                n.visits += 1
                n.reward += rewards[n.actor]
        self.iterations = ran
        return {aid: (ch.visits, ch.reward / ch.visits if ch.visits else 0.0)
                for aid, ch in root.children.items()}

    def flat_search(self, state: GameState, seat: int, macros: list[tuple] | None = None,
                    deadline: float | None = None) -> dict[str, tuple[int, float]]:
        """Rollout policy improvement: the root choices compared on shared sampled worlds.

        Every root choice (a legal action, or a whole choice from ``macros``) is played in
        the same determinizations (common random numbers: the same world and dice seed for
        each choice, so luck mostly cancels out of the comparison), then the leaf play of
        :meth:`_leaf` (the greedy policy with probability ``rollout_greedy``) runs for at
        most ``rollout_depth`` actions and the evaluator scores the seat. Successive
        halving: after each round of worlds the worse half of the choices (by mean) drops
        out, so the budget (``iterations`` playouts) goes to the close calls. The greedy
        choice is never dropped before the last round, so the search keeps greedy's move
        unless another one is better on the same worlds. Returns ``{key: (playouts, mean)}``
        as :meth:`search`.
        """
        params = self.params
        if macros:
            keys = [" > ".join(m) for m in macros]
            seqs = dict(zip(keys, macros))
        else:
            keys = [a.id for a in state.legal_actions(seat)]
            seqs = {k: (k,) for k in keys}
        det0 = state.determinize(seat, self.rng.next64())
        greedy_key = self._greedy_macro(det0, seat, seqs) if macros else self._greedy(
            det0, seat, det0.legal_actions(seat)).id
        stats: dict[str, list[float]] = {k: [0, 0.0] for k in keys}
        alive = list(keys)
        budget = max(params.iterations, len(keys))
        rounds = max(1, math.ceil(math.log2(len(keys)))) if len(keys) > 1 else 1
        used = 0
        self.iterations = 0
        for r in range(rounds):
            worlds = max(1, (budget // rounds) // max(1, len(alive)))
            for _ in range(worlds):
                if deadline is not None and used and time.perf_counter() > deadline:
                    break
                world = self.rng.next64()
                for k in alive:
                    det = state.determinize(seat, world)
                    for aid in seqs[k]:
                        action = _by_id(det, seat, aid)
                        if action is None:
                            break
                        det.step(action, seat)
                    value = (self._evaluator(det).terminal(det) if det.is_over else self._leaf(det, seat))[seat]
                    row = stats[k]
                    row[0] += 1
                    row[1] += value
                    used += 1
            else:
                if len(alive) > 2 and r < rounds - 1:
                    alive.sort(key=lambda k: -stats[k][1] / max(1, stats[k][0]))
                    keep = alive[: max(2, len(alive) // 2)]
                    if greedy_key in alive and greedy_key not in keep:
                        keep.append(greedy_key)
                    alive = keep
                continue
            break
        self.iterations = used
        return {k: (int(n), total / n if n else 0.0) for k, (n, total) in stats.items()}

    def _greedy_macro(self, det: GameState, seat: int, macros: dict[str, tuple]) -> str | None:
        """The macro key whose sequence the greedy policy would follow from ``det`` (None: none)."""
        prefix: tuple = ()
        st = det
        for _ in range(12):
            legal = st.legal_actions(seat)
            if not legal:
                break
            a = self._greedy(st, seat, legal)
            prefix += (a.id,)
            key = " > ".join(prefix)
            if key in macros:
                return key
            st = st.child(a, seat)
            if st.to_move != (seat,):
                break
        return None


def _search_worker(args) -> dict:
    data, seat, params, seed, macros = args
    return MCTS(params, seed).search(load_state(data, verify=False), seat, macros)  # our own to_dict: trusted


def root_statistics(state: GameState, seat: int, params: SearchParams, seed: int,
                    macros: list[tuple] | None = None, deadline: float | None = None) -> dict:
    """Search (in ``params.workers`` processes) and return summed ``{key: (visits, mean)}``."""
    if params.workers <= 1:
        return MCTS(params, seed).search(state, seat, macros, deadline)
    data = state.to_dict()
    params = replace(params, stop_early=False)  # each tree alone cannot tell when the sum is decided
    if deadline is not None:
        params = replace(params, time_ms=max(1.0, (deadline - time.perf_counter()) * 1000.0))
    jobs = [(data, seat, params, seed * 7919 + i, macros) for i in range(params.workers)]
    merged: dict[str, list[float]] = {}
    with ProcessPoolExecutor(max_workers=params.workers) as pool:
        for stats in pool.map(_search_worker, jobs):
            for aid, (visits, mean) in stats.items():
                row = merged.setdefault(aid, [0, 0.0])
                row[0] += visits
                row[1] += visits * mean
    return {aid: (int(v), total / v if v else 0.0) for aid, (v, total) in merged.items()}


@mypyc_attr(native_class=False)  # a plain dataclass: made once a decision and read by callers
@dataclass
class Choice:
    """What the bot did for one decision: for the terminal's "thinking" line and benchmarks.

    ``action`` chosen; ``value`` its estimated win chance (0-1) or, solo with a learned
    model, expected score (None when no search ran); ``kind`` ``"win"``, ``"score"`` or
    ``"hand"``; ``iterations`` run; ``ms`` wall time; ``how`` ``"search"``, ``"plan"`` (the
    rest of a whole choice found earlier), ``"planner"`` (the game's turn planner,
    ``SearchParams.turn_plan``), ``"only"`` (a single legal action),
    ``"greedy"`` (the turn's time was spent) or ``"blunder"`` (a random choice, see
    ``SearchParams.blunder``); ``new_turn`` True for the first decision of a
    turn (the seat's consecutive decisions in the same round and turn); ``turn_ms`` the time
    spent in the turn so far, this decision included.
    """

    action: Action
    value: float | None
    kind: str
    iterations: int
    ms: float
    how: str
    new_turn: bool = True
    turn_ms: float = 0.0


class MCTSBot:
    """A bot that plays the most visited root choice of an ISMCTS search.

    Give either ``params`` (fixed settings) or ``level`` (``easy``, ``medium``, ``hard``,
    ``expert``: the game's settings for that level, see :func:`level_params`). ``value``
    (None, ``"hand"`` or ``"learned"``) replaces the settings' leaf evaluator. ``last`` is
    the :class:`Choice` of the latest decision. ``clock=False`` drops the settings' wall-clock
    caps (``time_ms``, ``turn_ms``): every decision runs its iteration budget (and a turn
    planner plays every level), so what the bot plays depends only on the position and its
    seed, never on how busy the machine is (the research environments' opponents).
    """

    def __init__(self, params: SearchParams | None = None, seed: int = 0, name: str = "mcts",
                 level: str = "medium", clock: bool = True) -> None:
        if params is None and level not in LEVELS:
            raise GameConfigError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        self.params = params
        self.level = level
        self.name = name
        self.clock = clock  # False: no wall-clock cap, the iteration budget alone (reproducible)
        self.value: str | None = None  # leaf evaluator mode replacing the level's (hand, learned)
        self.rng = Rng(seed)
        self.last: Choice | None = None
        self._turn: tuple | None = None
        self._turn_spent = 0.0
        self._plan: list[str] = []
        self._expect: tuple | None = None
        self._outcomes: tuple = (None, None)  # (position key, turn_outcomes) of the planner

    def _turn_key(self, state: GameState, seat: int) -> tuple:
        """(seat, round and turn numbers the seat's observation shows, if any)."""
        obs = state.observation(seat)
        return (seat, obs.get("round"), obs.get("turn"))

    def choose(self, state: GameState, seat: int) -> Action:
        """Search from ``seat``'s point of view and return its chosen legal action."""
        t0 = time.perf_counter()
        params = self.params or level_params(state.game_id, self.level, state.players)
        if self.value is not None:
            params = replace(params, value=self.value)
        if not self.clock and (params.time_ms is not None or params.turn_ms is not None):
            params = replace(params, time_ms=None, turn_ms=None)
        history = state.history
        key = self._turn_key(state, seat)
        continuing = (key == self._turn and self._expect is not None
                      and len(history) == self._expect[0] and history[-1] == (seat, self._expect[1]))
        if not continuing:
            self._turn, self._turn_spent, self._plan = key, 0.0, []
        legal = state.legal_actions(seat)
        action, value, kind, iterations, how = None, None, "hand", 0, "search"
        if self._plan and continuing:
            action = next((a for a in legal if a.id == self._plan[0]), None)
            if action is not None:
                self._plan.pop(0)
                how = "plan"
                if self.last is not None:
                    value, kind = self.last.value, self.last.kind
        if action is None:
            self._plan = []
            if len(legal) == 1:
                action, how = legal[0], "only"
            elif params.blunder and self.rng.random() < params.blunder:
                action, how = self._blunder(state, seat, params, legal), "blunder"
            else:
                remaining = None if params.turn_ms is None else params.turn_ms - self._turn_spent
                if remaining is not None and remaining < 10.0:
                    view = state.determinize(seat, self.rng.next64())
                    greedy = spec_of(state).greedy
                    chosen = greedy(view, seat) if greedy is not None else legal[0]
                    action, how = next((a for a in legal if a.id == chosen.id), legal[0]), "greedy"
                elif params.turn_plan and "plan_turn" in spec_of(state).extras:
                    cap = params.time_ms if remaining is None else min(params.time_ms or remaining, remaining)
                    deadline = None if cap is None else t0 + cap / 1000.0
                    action, value, kind, iterations = self._planned(state, seat, params, deadline)
                    how = "planner"
                else:
                    cap = params.time_ms if remaining is None else min(params.time_ms or remaining, remaining)
                    deadline = None if cap is None else t0 + cap / 1000.0
                    action, value, kind, iterations = self._search(state, seat, params, legal, deadline)
        ms = (time.perf_counter() - t0) * 1000.0
        self._turn_spent += ms
        self._expect = (len(history) + 1, action.id)
        self.last = Choice(action, value, kind, iterations, ms, how, not continuing, self._turn_spent)
        return action

    def _blunder(self, state: GameState, seat: int, params: SearchParams, legal: Sequence[Action]) -> Action:
        """A uniformly random one of the choices the search would compare: a whole choice
        (its first action now, the rest as the plan) where macro-actions apply, else an action."""
        macros = None
        if params.macro:
            macros = macro_actions(state.determinize(seat, self.rng.next64()), seat, params.macro_limit)
        if not macros:
            return legal[self.rng.randbelow(len(legal))]
        ids = macros[self.rng.randbelow(len(macros))]
        self._plan = list(ids[1:])
        return next((a for a in legal if a.id == ids[0]), legal[0])

    def _planned(self, state: GameState, seat: int, params: SearchParams,
                 deadline: float | None = None) -> tuple[Action, float, str, int]:
        """The game's turn planner with the leaf evaluator's values of the turn's endings.

        The endings' values depend only on the public position outside the dice (board,
        cards, markers: the game's ``turn_key``), so they are computed once per such position
        and reused for the turn's later decisions. ``deadline`` (``time.perf_counter``
        seconds) goes to the game's ``plan_turn``, which does no costly work after it.
        Returns (action, value shown, kind, 0).
        """
        extras = spec_of(state).extras
        evaluator = Evaluator(state.game_id, state.players, state.options, params.value)
        key = extras["turn_key"](state, seat)
        if self._outcomes[0] != key:
            def learned(st: GameState) -> float:
                return (evaluator.terminal(st) if st.is_over else evaluator.rewards(st))[seat]
            # "hand": the game's own scoring of a turn's endings
            value: Callable[[GameState], float] | None = None if params.value == "hand" else learned
            more: dict[str, Any] = ({} if params.plan_worlds is None
                                    else {"seeds": tuple(range(1, params.plan_worlds + 1))})
            self._outcomes = (key, extras["turn_outcomes"](state, seat, value, **more))
        action, expected = extras["plan_turn"](state, seat, self._outcomes[1], deadline)
        return action, evaluator.shown(expected), evaluator.kind, 0

    def _search(self, state: GameState, seat: int, params: SearchParams, legal: Sequence[Action],
                deadline: float | None) -> tuple[Action, float, str, int]:
        """An ISMCTS search of ``seat``'s decision (whole choices where ``params.macro``), until
        ``deadline`` (``time.perf_counter`` seconds) or the iterations; (action, value shown, kind,
        iterations)."""
        seed = self.rng.next64()
        macros = None
        if params.macro:
            # at most a fifth of the decision's time goes to finding the whole choices
            cut = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / 5
            macros = macro_actions(state.determinize(seat, seed ^ 0x5EED), seat, params.macro_limit, deadline=cut)
        searcher = MCTS(params, seed)
        if params.workers <= 1:
            stats = searcher.search(state, seat, macros, deadline)
            iterations = searcher.iterations
        else:
            stats = root_statistics(state, seat, params, seed, macros, deadline)
            iterations = sum(v for v, _ in stats.values())
        evaluator = searcher.evaluator or Evaluator(state.game_id, state.players, state.options, params.value)
        best_key = max(stats, key=lambda k: (stats[k][0], stats[k][1]))
        ids = best_key.split(" > ") if macros else [best_key]
        action = next((a for a in legal if a.id == ids[0]), None)
        if action is None:  # cannot happen: root keys come from legal actions
            action = legal[0]
        self._plan = ids[1:]
        return action, evaluator.shown(stats[best_key][1]), evaluator.kind, iterations


@mypyc_attr(native_class=False)  # a plain dataclass: a few a hint, unpacked by callers as before
@dataclass(frozen=True)
class HintRow:
    """One hint: ``action``, its ``share`` of the search's visits, and ``value``: the
    estimated win chance (0-1) or, solo with a learned model, the expected final score
    (``kind`` says which: ``"win"``, ``"score"`` or ``"hand"`` for the hand evaluation's 0-1);
    None when the search never tried the action (share 0): it has no estimate."""

    action: Action
    share: float
    value: float | None
    kind: str

    def __iter__(self):  # (action, share) unpacking, as before
        return iter((self.action, self.share))


def hint_rows(state: GameState, seat: int, top: int = 3, level: str = "hard", seed: int = 0) -> list[HintRow]:
    """The search's top ``top`` actions for ``seat``, most visited first, as :class:`HintRow`
    (an action the search never visited: share 0 and value None).

    A whole choice (macro-action) counts for its first action: its visits are summed and its
    value is that of its most visited whole choice. Raises GameConfigError for an unknown level.
    """
    params = replace(level_params(state.game_id, level, state.players), stop_early=False)  # shares of the full search
    legal = state.legal_actions(seat)
    evaluator = Evaluator(state.game_id, state.players, state.options, params.value)
    macros = macro_actions(state.determinize(seat, seed ^ 0x5EED), seat, params.macro_limit) if params.macro else None
    stats = root_statistics(state, seat, params, seed, macros)
    per: dict[str, list] = {}
    for key, (visits, mean) in stats.items():
        first = key.split(" > ")[0]
        row = per.setdefault(first, [0, -1, 0.0])
        row[0] += visits
        if visits > row[1]:
            row[1], row[2] = visits, mean
    total = sum(r[0] for r in per.values()) or 1
    ranked = sorted(legal, key=lambda a: -per.get(a.id, [0])[0])
    rows = []
    for a in ranked[:top]:
        visits, _, mean = per.get(a.id, [0, 0, 0.0])
        # an action never visited has no mean: no estimate, rather than a made-up 0
        rows.append(HintRow(a, visits / total, evaluator.shown(mean) if visits else None, evaluator.kind))
    return rows
