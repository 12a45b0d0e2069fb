"""Bots: players that choose through the same State protocol as people.

``make_bot(name, seed)`` builds one by name: ``random`` (uniform over the
legal actions), ``greedy`` (the game's documented one-step evaluation), or
the search bot ``mcts`` (= ``medium``) at the levels ``easy``, ``medium``, ``hard``
and ``expert`` (see ``dicetable.bots.mcts``). A search level may name its leaf evaluator
after an ``@``: ``hard@hand`` (the game's hand-written ``evaluate``) or ``hard@learned``
(the shipped learned value; the plain name uses it when one ships).
A bot never reads hidden state: it decides on ``state.determinize(seat, k)``,
a copy in which everything its seat cannot see has been resampled, and maps
its choice back to the real state by action id.
"""

from __future__ import annotations

from typing import Callable, Protocol

from dicetable.engine import Action, GameConfigError, GameState, Rng, spec_of


class Bot(Protocol):
    """Anything with a ``name`` and ``choose(state, seat) -> Action``."""

    name: str

    def choose(self, state: GameState, seat: int) -> Action:
        """Return one of ``state.legal_actions(seat)``."""
        ...


class RandomBot:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState, seat: int) -> Action:
        """A uniformly random legal action of ``seat``."""
        actions = state.legal_actions(seat)
        return actions[self.rng.randbelow(len(actions))]


class GreedyBot:
    """The game's greedy policy (``GameSpec.greedy``) on a determinized view of the state."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState, seat: int) -> Action:
        """The greedy choice of ``seat``; it sees only what ``seat`` may see."""
        policy = spec_of(state).greedy
        if policy is None:
            raise GameConfigError(f"{state.game_id} has no greedy policy")
        view = state.determinize(seat, self.rng.next64())
        chosen = policy(view, seat)
        for action in state.legal_actions(seat):
            if action.id == chosen.id:
                return action
        raise AssertionError(f"greedy chose {chosen.id!r}, which is not legal in the real state")


BOT_NAMES = ("random", "greedy", "easy", "medium", "hard", "expert", "mcts")
VALUE_MODES = ("hand", "learned")


def make_bot(name: str, seed: int = 0, clock: bool = True) -> Bot:
    """A bot by name (see ``BOT_NAMES``, a search level may end in ``@hand`` or ``@learned``).

    ``clock=False``: a search level runs its iteration budget without the level's wall-clock
    caps (:class:`~dicetable.bots.mcts.MCTSBot`), so a seeded game replays the same whatever
    the machine's load; ``random`` and ``greedy`` never look at a clock.
    GameConfigError listing the names otherwise.
    """
    factories = _factories()
    if not isinstance(name, str):  # a list or None would reach the dict lookup as a bare TypeError
        raise GameConfigError(f"a bot is named by one string, got {name!r}; bots: {', '.join(factories)}")
    base, _, mode = name.partition("@")
    if base not in factories or (mode and (base in ("random", "greedy") or mode not in VALUE_MODES)):
        raise GameConfigError(f"unknown bot {name!r}; bots: {', '.join(factories)} "
                              f"(search levels may end in @hand or @learned, e.g. hard@hand)")
    bot = factories[base](seed)
    from dicetable.bots.mcts import MCTSBot  # _factories imported it already

    if isinstance(bot, MCTSBot):  # a search level; random and greedy have no clock or value to set
        bot.clock = clock
        if mode:
            bot.value = mode
            bot.name = name
    return bot


def _factories() -> dict[str, Callable[[int], Bot]]:
    from dicetable.bots.mcts import LEVELS, MCTSBot

    def search_bot(name: str, level: str) -> Callable[[int], Bot]:
        return lambda seed: MCTSBot(None, seed, name=name, level=level)

    out: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
    for level in LEVELS:
        out[level] = search_bot(level, level)
    out["mcts"] = search_bot("mcts", "medium")
    return out


def play_out(state: GameState, bots: list[Bot], max_steps: int = 1_000_000) -> int:
    """Let ``bots[seat]`` play every seat until the game ends; return the number of actions."""
    steps = 0
    while not state.is_over:
        if steps >= max_steps:
            raise RuntimeError(f"{state.game_id} did not end within {max_steps} actions")
        for seat in state.to_move:
            state.apply(bots[seat].choose(state, seat), seat)
            steps += 1
            break
    return steps
