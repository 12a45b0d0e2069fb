"""Information-set Monte Carlo tree search with determinization (ISMCTS).

One search for every game, written only against the State protocol.

Each iteration
--------------
1. **Determinize**: ``state.determinize(seat, k)`` gives a copy in which
   everything the searching seat cannot see (deck order, face-down cards,
   other seats' secret choices, future dice) is resampled consistently with
   its observation. The search never touches the real state's hidden parts.
2. **Select** down the tree (single-observer ISMCTS, Cowling, Powley and
   Whitehouse 2012) with the PUCT rule ``Q(a) + c * P(a) * sqrt(A(a)) /
   (1 + n(a))``: tree nodes are keyed by action ids from the searching
   seat's information set; only actions legal in this determinization are
   candidates, and ``A(a)``, how often the child was *available*, replaces
   the parent's visit count. The prior ``P`` puts extra mass on the game's
   greedy choice; unvisited children take the mean value of their visited
   siblings.
3. **Expand**: a node's children are created with even priors on its first
   visit (and when a determinization offers an action not seen before); the
   greedy prior replaces them once the search returns to the node
   (``prime_after``), so the game's greedy policy runs only where it pays;
   the descent stops at the first child never visited.
4. **Roll out** with the game's greedy policy (mixed with random moves) for
   at most ``rollout_depth`` actions, then score every seat: the win share
   at the end of the game (solo: the game's ``evaluate``), or the game's
   ``evaluate(state, seat)`` in [0, 1] at the cut-off.
5. **Back up** each seat's reward into the nodes where that seat acted
   (max^n for several players).

Chance (dice) is sampled by the determinized copy's own generator, so each
iteration sees different dice; nodes keyed by actions make the tree
open-loop over chance, which suits these games' short re-roll sequences.

Simultaneous steps: when several seats are to move, the searching seat
decides first and the others follow in seat order, so the searching seat's
choice never depends on a simultaneous secret choice of another seat.

Root parallelism: with ``workers > 1`` each process grows its own tree with
its own seeds and the root visit counts are summed.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from dicetable.engine import Action, GameState, Rng, load_state, spec_of


@dataclass(frozen=True)
class SearchParams:
    """Search settings.

    ``iterations``: iterations per decision (per worker); ``time_ms``: an
    optional wall-clock cap per decision in milliseconds; ``c``: PUCT
    exploration constant; ``prior_weight``: prior mass on the greedy choice;
    ``rollout_depth``: actions played before the position is evaluated;
    ``rollout_greedy``: probability that a rollout move is the greedy one
    (otherwise uniform random); ``prime_after``: visits of a node before its
    children get the greedy prior (even priors until then); ``workers``:
    processes for root parallelism.
    """

    iterations: int = 500
    time_ms: float | None = None
    c: float = 1.5
    prior_weight: float = 0.5
    rollout_depth: int = 20
    rollout_greedy: float = 0.5
    prime_after: int = 2
    workers: int = 1


#: Documented levels (docs/bots.md). The hard level stays near one second per
#: decision on one core for every game; ``time_ms`` caps it when a game is slow.
LEVELS = {
    "easy": SearchParams(iterations=100, rollout_depth=10),
    "medium": SearchParams(iterations=400),
    "hard": SearchParams(iterations=1500, time_ms=1000.0),
}


def level_params(game_id: str, level: str) -> SearchParams:
    """The search settings of ``level`` for a game: ``LEVELS[level]`` with the game's overrides.

    A game tunes its search through ``GameSpec.extras["mcts"]``: a dict of
    :class:`SearchParams` fields (e.g. a cheaper rollout mix when its greedy
    policy is expensive), applied to every level. Raises KeyError for an
    unknown level.
    """
    from dataclasses import replace

    from dicetable.engine import get_game

    overrides = get_game(game_id).extras.get("mcts", {})
    return replace(LEVELS[level], **overrides)


class Node:
    """A tree node: statistics of the action that led here, for the seat that took it."""

    __slots__ = ("children", "visits", "reward", "avail", "prior", "actor", "primed")

    def __init__(self, actor: int, prior: float) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        self.prior = prior
        self.actor = actor
        self.primed = False


def acting_seat(state: GameState, searcher: int) -> int:
    """The seat the tree lets act next: the searcher first in a simultaneous step."""
    to_move = state.to_move
    if len(to_move) == 1 or searcher not in to_move:
        return to_move[0]
    return searcher


def terminal_rewards(state: GameState) -> list[float]:
    """Each seat's reward at the end: its share of the win (solo: the game's evaluation)."""
    n = state.players
    if n == 1:
        evaluate = spec_of(state).evaluate
        if evaluate is not None:
            return [float(evaluate(state, 0))]
        return [1.0 if state.winners else 0.0]
    winners = state.winners
    share = 1.0 / len(winners) if winners else 0.0
    return [share if s in winners else 0.0 for s in range(n)]


class MCTS:
    """A searcher for one game; ``search(state, seat)`` returns root statistics."""

    def __init__(self, params: SearchParams = SearchParams(), seed: int = 0) -> None:
        self.params = params
        self.rng = Rng(seed)

    # -------------------------------------------------------------- policies
    def _greedy(self, state: GameState, seat: int, legal: list[Action]) -> Action:
        policy = spec_of(state).greedy
        if policy is None:
            return legal[self.rng.randbelow(len(legal))]
        return policy(state, seat)

    def _rollout(self, state: GameState) -> list[float]:
        params = self.params
        rng = self.rng
        spec = spec_of(state)
        policy = spec.greedy
        depth = 0
        while not state.is_over and depth < params.rollout_depth:
            to_move = state.to_move
            seat = to_move[0] if len(to_move) == 1 else to_move[rng.randbelow(len(to_move))]
            legal = state.legal_actions(seat)
            if policy is not None and rng.random() < params.rollout_greedy:
                action = policy(state, seat)
            else:
                action = legal[rng.randbelow(len(legal))]
            state.apply(action, seat)
            depth += 1
        if state.is_over:
            return terminal_rewards(state)
        evaluate = spec.evaluate
        if evaluate is None:
            return [0.5] * state.players
        return [float(evaluate(state, s)) for s in range(state.players)]

    def _expand(self, legal: list[Action], actor: int, children: dict) -> None:
        """Add a child, with an even prior, for every legal action not yet in the tree."""
        even = 1.0 / len(legal)
        for a in legal:
            if a.id not in children:
                children[a.id] = Node(actor, even)

    def _prime(self, det: GameState, actor: int, legal: list[Action], node: Node) -> None:
        """Give ``node``'s children the greedy prior: P(greedy) = w + (1 - w) / n, others (1 - w) / n.

        Called when the node is reached for the ``prime_after``-th time (at
        once for the root), so the game's greedy policy, which may be costly,
        runs only for nodes the search comes back to.
        """
        node.primed = True
        n = len(node.children)
        if len(legal) < 2:
            return
        w = self.params.prior_weight
        greedy_id = self._greedy(det, actor, legal).id
        rest = (1.0 - w) / n
        for aid, child in node.children.items():
            child.prior = rest + (w if aid == greedy_id else 0.0)

    # -------------------------------------------------------------- search
    def search(self, state: GameState, seat: int) -> dict[str, tuple[int, float]]:
        """Grow a tree for ``seat`` on ``state``; return ``{action_id: (visits, mean reward)}``.

        Raises ValueError if ``seat`` is not to move.
        """
        if seat not in state.to_move:
            raise ValueError(f"seat {seat} is not to move")
        params = self.params
        root = Node(seat, 1.0)
        deadline = None if params.time_ms is None else time.perf_counter() + params.time_ms / 1000.0
        c = params.c
        prime_after = params.prime_after
        for it in range(params.iterations):
            if deadline is not None and it and time.perf_counter() > deadline:
                break
            det = state.determinize(seat, self.rng.next64())
            node = root
            path = []
            while not det.is_over:
                actor = acting_seat(det, seat)
                legal = det.legal_actions(actor)
                children = node.children
                if len(children) < len(legal) or any(a.id not in children for a in legal):
                    self._expand(legal, actor, children)
                if not node.primed and (node is root or node.visits >= prime_after):
                    self._prime(det, actor, legal, node)
                total_q, visited = 0.0, 0
                for a in legal:
                    child = children[a.id]
                    child.avail += 1
                    if child.visits:
                        total_q += child.reward / child.visits
                        visited += 1
                fpu = total_q / visited if visited else 0.5
                best, best_score = None, -1e300
                for a in legal:
                    child = children[a.id]
                    n = child.visits
                    q = child.reward / n if n else fpu
                    score = q + c * child.prior * math.sqrt(child.avail) / (1 + n)
                    if score > best_score:
                        best, best_score = child, score
                        best_action = a
                det.apply(best_action, actor)
                path.append(best)
                node = best
                if best.visits == 0:
                    break
            rewards = terminal_rewards(det) if det.is_over else self._rollout(det)
            for n in path:
                n.visits += 1
                n.reward += rewards[n.actor]
        return {aid: (ch.visits, ch.reward / ch.visits if ch.visits else 0.0)
                for aid, ch in root.children.items()}


def _search_worker(args) -> dict:
    data, seat, params, seed = args
    return MCTS(params, seed).search(load_state(data, verify=False), seat)  # our own to_dict: trusted


def root_statistics(state: GameState, seat: int, params: SearchParams, seed: int) -> dict:
    """Search (in ``params.workers`` processes) and return summed ``{id: (visits, mean)}``."""
    if params.workers <= 1:
        return MCTS(params, seed).search(state, seat)
    data = state.to_dict()
    jobs = [(data, seat, params, seed * 7919 + i) for i in range(params.workers)]
    merged: dict[str, list[float]] = {}
    with ProcessPoolExecutor(max_workers=params.workers) as pool:
        for stats in pool.map(_search_worker, jobs):
            for aid, (visits, mean) in stats.items():
                row = merged.setdefault(aid, [0, 0.0])
                row[0] += visits
                row[1] += visits * mean
    return {aid: (int(v), total / v if v else 0.0) for aid, (v, total) in merged.items()}


class MCTSBot:
    """A bot that plays the most visited root action of an ISMCTS search.

    Give either ``params`` (fixed settings) or ``level`` (``easy``, ``medium``,
    ``hard``: the game's settings for that level, see :func:`level_params`).
    """

    def __init__(self, params: SearchParams | None = None, seed: int = 0, name: str = "mcts",
                 level: str = "medium") -> None:
        self.params = params
        self.level = level
        self.name = name
        self.rng = Rng(seed)

    def choose(self, state: GameState, seat: int) -> Action:
        """Search from ``seat``'s point of view and return its chosen legal action."""
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        params = self.params or level_params(state.game_id, self.level)
        stats = root_statistics(state, seat, params, self.rng.next64())
        best = max(legal, key=lambda a: (stats.get(a.id, (0, 0.0))[0], stats.get(a.id, (0, 0.0))[1]))
        return best


def hint_rows(state: GameState, seat: int, top: int = 3, level: str = "hard", seed: int = 0):
    """The hard bot's top ``top`` actions for ``seat`` as ``[(Action, visit share), ...]``."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return [(legal[0], 1.0)]
    stats = root_statistics(state, seat, level_params(state.game_id, level), seed)
    total = sum(v for v, _ in stats.values()) or 1
    ranked = sorted(legal, key=lambda a: -stats.get(a.id, (0, 0.0))[0])
    return [(a, stats.get(a.id, (0, 0.0))[0] / total) for a in ranked[:top]]
